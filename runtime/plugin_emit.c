/* runtime/plugin_emit.c: a model's plugin by hand: IR -> C file -> .so.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `fgm compile -o` and `--emit-c` do, outside the cascade of
 * plugin.c: the code generator's C goes where the caller says, and the
 * plugin is compiled from a copy of that file (or of the generator's
 * output) in a build folder of its own, next to the kernel headers.
 * Each call lowers the IR to its schedule again (milliseconds), so that
 * the API needs no schedule handle.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "plugin.h"
#include "schedule.h"
#include "../compiler/codegen.h"

/* The schedule of IR, or NULL after reporting why through DIAG. */
static fgm_sched *
schedule(const fgm_ir *ir, fgm_status *st, fgm_diag_fn diag, void *ctx)
{
    fgm_sched *s = fgm_sched_new(ir, st);

    if (!s && *st == FGM_EUNSUPPORTED)
        fgm_sched_explain(ir, diag, ctx);
    else if (!s)
        fgm_diagf(diag, ctx, "%s: %s", ir->name, fgm_strerror(*st));
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

/* Copies the regular file FROM to the new file TO.  Returns 0 when
 * copied, -1 when FROM is missing, not a regular file (a device, a
 * FIFO: --emit-c /dev/stdout on a terminal) or this process's standard
 * output (nothing is copied then), else the errno value that stopped it
 * (TO may then hold part of FROM). */
static int
copy_source(const char *from, const char *to)
{
    char buf[65536];
    struct stat sb;
    ssize_t n;
    int in, out, e = 0;

    /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
    in = open(from, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (in < 0)
        return -1;
    /* Standard output redirected to a file (--emit-c - >> log) got the C
     * through descriptor 1, appended to what the file held before
     * (fgm_write_atomic): a copy would compile that too. */
    if (fstat(in, &sb) != 0 || !S_ISREG(sb.st_mode) || fgm_is_stdout(&sb)) {
        close(in);
        return -1;
    }
    /* TO is listed before it exists: made in a window, as the C file
     * written by fgm_write_atomic (one made after fgm_abort_cleanup's
     * sweep would keep the build folder). */
    out = fgm_cleanup_open_new(to);
    if (out < 0) {
        e = errno;
        close(in);
        return e;
    }
    while (!e && (n = read(in, buf, sizeof buf)) != 0) {
        if (n > 0)
            e = fgm_write_all(out, buf, (size_t)n);
        else if (errno != EINTR)
            e = errno;
    }
    close(in);
    if (close(out) != 0 && !e)
        e = errno;
    return e;
}

/* Reports WHY, a reason of fgm_plugin_build, through DIAG: one about
 * SO_PATH ("SO: cannot write: ...", the cascade's form of a fallback
 * reason) as "SO: error: ...", the form of every other write error of
 * `fgm compile` (fgm_write_atomic's); the others (the C compiler's) as
 * they are. */
static void
report_build(const char *so_path, const char *why, fgm_diag_fn diag,
             void *ctx)
{
    size_t n = strlen(so_path);

    if (strncmp(why, so_path, n) == 0 && strncmp(why + n, ": ", 2) == 0)
        fgm_diagf(diag, ctx, "%s: error: %s", so_path, why + n + 2);
    else
        fgm_diagf(diag, ctx, "%s", why);
}

/* A diagnostic sink that names SHOWN where a message begins with TMP,
 * a build folder's C file, before passing it on: the user asked for
 * SHOWN, and TMP is gone once the call returns. */
typedef struct renamed_diag {
    fgm_diag_fn diag;
    void *ctx;
    const char *tmp, *shown;
} renamed_diag;

static void
say_renamed(void *arg, const char *msg)
{
    const renamed_diag *r = arg;
    size_t tl = strlen(r->tmp);

    if (strncmp(msg, r->tmp, tl) == 0)
        fgm_diagf(r->diag, r->ctx, "%s%s", r->shown, msg + tl);
    else
        fgm_diagf(r->diag, r->ctx, "%s", msg);
}

fgm_status
fgm_plugin_emit_so(const fgm_ir *ir, const char *so_path, const char *c_path,
                   const char *cc, fgm_diag_fn diag, void *ctx)
{
    char *why;
    fgm_build_dir b;
    fgm_status st = FGM_OK;
    struct stat sb;
    int e, copied = -1;

    if (!ir || !so_path)
        return FGM_EINVAL;
    if (strlen(so_path) + sizeof ".tmp.XXXXXX" > 4096) {
        fgm_diagf(diag, ctx, "%s: error: path too long", so_path);
        return FGM_EINVAL;
    }
    /* A plugin is a regular file or nothing (fgm_plugin_build): refused
     * before a build folder is made next to it and the C compiled for
     * nothing, a folder as fgm_write_atomic says one. */
    if (lstat(so_path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        fgm_diagf(diag, ctx, "%s: error: cannot write: %s", so_path,
                  S_ISDIR(sb.st_mode) ? strerror(EISDIR)
                                      : "not a regular file");
        return FGM_EIO;
    }
    /* The C compiler wants a .c name next to the kernel headers
     * (fgm_build_dir_headers), and another thread may be building the
     * same SO_PATH: the C goes into a build folder of this call's own,
     * SO_PATH.tmp.XXXXXX/plugin.c (FGM_PLUGIN_EMIT_C), copied from C_PATH
     * when that is a regular file (what the caller wrote, and may have
     * edited since), else generated from IR. */
    /* What builds of SO_PATH killed midway left, as the cascade's
     * rebuild sweeps its own. */
    fgm_plugin_sweep_stale(so_path, FGM_PLUGIN_EMIT_C, fgm_plugin_stale_age());
    e = fgm_build_dir_open(&b, so_path, FGM_PLUGIN_EMIT_C);
    if (e == ENOMEM) {
        fgm_diagf(diag, ctx, "%s: error: %s", so_path,
                  fgm_strerror(FGM_ENOMEM));
        return FGM_ENOMEM;
    }
    if (e) {
        /* The path the caller gave: the build folder's name was the
         * template mkdtemp could not fill ("SO_PATH.tmp.XXXXXX"). */
        fgm_diagf(diag, ctx, "%s: error: cannot write: %s", so_path,
                  strerror(e));
        return FGM_EIO;
    }
    if (c_path)
        copied = copy_source(c_path, b.c);
    if (copied > 0) {
        fgm_diagf(diag, ctx, "%s: error: cannot copy to %s: %s", c_path,
                  so_path, strerror(copied));
        st = FGM_EIO;
    } else if (copied < 0) {
        renamed_diag rd = { diag, ctx, b.c, so_path };

        st = fgm_plugin_emit_c(ir, b.c, say_renamed, &rd);
    }
    if (st == FGM_OK) {
        /* Sized from SO_PATH: a fixed 1024 bytes cut "-o LONG: cannot
         * write: ..." inside the path. */
        size_t whysize = fgm_plugin_why_size(so_path, cc);

        why = malloc(whysize);
        if (!why) {
            fgm_diagf(diag, ctx, "%s: error: %s", so_path,
                      fgm_strerror(FGM_ENOMEM));
            st = FGM_ENOMEM;
        } else {
            uint64_t hash = fgm_ir_hash(ir);

            st = fgm_plugin_build(&b, so_path, cc, &hash, why, whysize);
            if (st != FGM_OK)
                report_build(so_path, why, diag, ctx);
            free(why);
        }
    }
    fgm_build_dir_close(&b);
    return st;
}
