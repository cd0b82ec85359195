/* runtime/plugin_emit.c: a model's plugin by hand: IR -> C file -> .so.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `fgm compile -o` and `--emit-c` do, outside the cascade of
 * plugin.c: the code generator's C goes where the caller says, and the
 * plugin is compiled from a copy of its own, next to the kernel headers.
 * Each call lowers the IR to its schedule again (milliseconds), so that
 * the API needs no schedule handle.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "plugin.h"
#include "schedule.h"
#include "../compiler/codegen.h"

/* The schedule of IR, or NULL after reporting why through DIAG. */
static fgm_sched *
schedule(const fgm_ir *ir, fgm_status *st, fgm_diag_fn diag, void *ctx)
{
    fgm_sched *s = fgm_sched_new(ir, st);

    if (!s)
        fgm_diagf(diag, ctx, "%s: %s", ir->name, *st == FGM_EUNSUPPORTED
                  ? "a factor of this model has no message operator for "
                    "its algorithm" : fgm_strerror(*st));
    return s;
}

fgm_status
fgm_plugin_emit_c(const fgm_ir *ir, const char *c_path, fgm_diag_fn diag,
                  void *ctx)
{
    fgm_status st;
    fgm_sched *s;

    if (!ir || !c_path)
        return FGM_EINVAL;
    s = schedule(ir, &st, diag, ctx);
    if (!s)
        return st;
    st = fgm_write_atomic(c_path, fgm_codegen_write, s, diag, ctx);
    fgm_sched_free(s);
    return st;
}

fgm_status
fgm_plugin_emit_so(const fgm_ir *ir, const char *so_path, const char *c_path,
                   const char *cc, fgm_diag_fn diag, void *ctx)
{
    char why[1024];
    fgm_build_dir b;
    fgm_status st;
    int e;

    /* C_PATH is not read: the C compiler wants a .c name next to the
     * kernel headers (fgm_build_dir_headers), the path may be a device
     * (--emit-c /dev/stdout), and another thread may be writing the same
     * paths: the C goes into a build folder of this call's own,
     * SO_PATH.tmp.XXXXXX/plugin.c (FGM_PLUGIN_EMIT_C), generated again
     * from IR (the same bytes: the generator is deterministic). */
    (void)c_path;
    if (!ir || !so_path)
        return FGM_EINVAL;
    if (strlen(so_path) + sizeof ".tmp.XXXXXX" > 4096) {
        fgm_diagf(diag, ctx, "%s: error: path too long", so_path);
        return FGM_EINVAL;
    }
    e = fgm_build_dir_open(&b, so_path, FGM_PLUGIN_EMIT_C);
    if (e == ENOMEM) {
        fgm_diagf(diag, ctx, "%s: error: %s", so_path,
                  fgm_strerror(FGM_ENOMEM));
        return FGM_ENOMEM;
    }
    if (e) {
        fgm_diagf(diag, ctx, "%s: error: cannot create %s.tmp.XXXXXX: %s",
                  so_path, so_path, strerror(e));
        return FGM_EIO;
    }
    st = fgm_plugin_emit_c(ir, b.c, diag, ctx);
    if (st == FGM_OK) {
        st = fgm_plugin_build(&b, so_path, cc, why, sizeof why);
        if (st != FGM_OK)
            fgm_diagf(diag, ctx, "%s", why);
    }
    fgm_build_dir_close(&b);
    return st;
}
