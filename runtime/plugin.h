/* runtime/plugin.h: load, build and choose generated plugins (internal).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Stages, in the order the cascade runs them (libtcc's header style):
 *   fgm_plugin_open   dlopen a .so and check its descriptor (plugin.c)
 *   fgm_plugin_build  compile a .c into a .so under a temporary name, then
 *                     rename it into place (plugin.c)
 *   fgm_plugin_load   the fallback cascade of DESIGN.md over both (plugin.c)
 * plugin_sys.c is the platform layer under them (Lua's lsys_*): dlopen,
 * dlsym, dlclose and running the C compiler, where every failure becomes a
 * status plus the system's own text.
 *
 * Reasons ("why") are one line, without a trailing newline or a "fgm: "
 * prefix; the caller's diagnostic sink adds that.
 */
#ifndef FGM_PLUGIN_H
#define FGM_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "internal.h"
#include "plugin_abi.h"

/* Which engine runs a model: the public fgm_backend of fgm.h (AUTO:
 * compiled if possible, else interpreted; COMPILED: rebuilt if needed or an
 * error; INTERPRETED: never touches a plugin). */
typedef fgm_backend fgm_backend_mode;

/* A loaded, checked plugin: the dlopen handle and its descriptor. */
typedef struct fgm_plugin fgm_plugin;

/* What the cascade loads: out_dir/MODEL_NAME.ALGO.so, built from
 * out_dir/MODEL_NAME.ALGO.c when needed.  Every pointer is borrowed. */
typedef struct fgm_plugin_req {
    const char *out_dir;        /* "generated" (created if missing) */
    const char *model_name;     /* file stem: NAME in NAME.ALGO.so */
    const char *algo;           /* one of FGM_ALGO_NAMES */
    uint64_t hash;              /* fgm_ir_hash of the IR */
    fgm_backend_mode mode;
    const char *cc;             /* NULL: $CC or "cc" */
    double deadline;            /* fgm_now() time: a rebuild still running
                                 * then is stopped, FGM_ETIMEOUT, no
                                 * fallback; 0: none */
    /* Writes the C source of the plugin to F (the code generator). */
    fgm_status (*emit_c)(void *arg, FILE *f);
    void *emit_arg;
    /* Whether a descriptor's sizes are the state's the caller allocated,
     * called with emit_arg (NULL: not checked).  A plugin whose are not
     * is broken (one byte changed in its descriptor) and rebuilt; a
     * rebuilt one whose are not is the code generator's bug:
     * FGM_EINTERNAL, or interpreted with FGM_BACKEND_AUTO. */
    int (*fits)(void *arg, const struct fgm_plugin_desc *d);
} fgm_plugin_req;

/* ---- plugin.c ------------------------------------------------------- */

/* The optimization flags a plugin is built with: $FGM_PLUGIN_CFLAGS, by
 * default "-O3 -march=native". */
FGM_INTERNAL const char *fgm_plugin_cflags(void);

/* The build id a plugin written now carries, and the one a plugin must
 * carry to be loaded: FGM_BUILD_ID (the kernels, the code generator, the
 * schedule lowering) mixed with fgm_plugin_cflags(), the schedule's row
 * padding (fgm_sched_pairs), fgm_plugin_split512() and, when the flags
 * say "native", the CPU's fingerprint, so that a plugin built with other
 * flags (-O0 -g for a debugger, -march=x86-64-v3 for valgrind) is
 * rebuilt once they are gone, not reused, one built where rows are padded otherwise is rebuilt
 * rather than refused for its layout, and one built for another CPU is
 * rebuilt rather than run. */
FGM_INTERNAL uint64_t fgm_plugin_build_id(void);

/* Whether this CPU runs each 512-bit vector operation as two 256-bit
 * halves (AMD's Zen 4): plugins are then built with -DFGM_K_SPLIT512,
 * which keeps 9x9's x != y update on 256-bit vectors (FGM_K_NEQ8,
 * runtime/ops/neq.h), and the answer is part of the build id. */
FGM_INTERNAL int fgm_plugin_split512(void);

/* A hash of this CPU's instruction sets (CPUID feature bits and the
 * register state the OS enables), a constant elsewhere than x86. */
FGM_INTERNAL uint64_t fgm_plugin_cpu_fingerprint(void);

/* Loads SO_PATH (RTLD_NOW | RTLD_LOCAL), calls its FGM_PLUGIN_ENTRY and
 * checks the descriptor: not NULL, abi_version == FGM_PLUGIN_ABI_VERSION,
 * size covers every field this runtime reads, ir_hash == WANT_HASH,
 * build_id == fgm_plugin_build_id(), sizes not negative, functions
 * present.  Returns FGM_OK with *OUT (owned by the
 * caller, released with fgm_plugin_close), or, with *OUT = NULL and a
 * one-line reason in WHY ("SO_PATH: not found"):
 *   FGM_EPLUGIN  missing, unreadable, not a loadable ELF object (garbage,
 *                truncated), no entry symbol, NULL or incomplete descriptor
 *   FGM_EABI     built for another ABI (or an older, shorter descriptor)
 *   FGM_ESTALE   built from another IR, or by another build of fgm (other
 *                flags, another CPU: build_id)
 *   FGM_ENOMEM
 * Nothing stays loaded after a failure. */
FGM_INTERNAL fgm_status fgm_plugin_open(const char *so_path,
                                        uint64_t want_hash, fgm_plugin **out,
                                        char *why, size_t whysize);

/* The descriptor of P, valid until fgm_plugin_close(P).  (Not named
 * fgm_plugin_desc: that is the descriptor's type in plugin_abi.h.) */
FGM_INTERNAL const fgm_plugin_desc *fgm_plugin_descriptor(
    const fgm_plugin *p);

/* The path P goes by in messages: the .so path it was loaded from, or
 * for a fresh build loaded under its temporary name, the path it was
 * renamed to. */
FGM_INTERNAL const char *fgm_plugin_path(const fgm_plugin *p);

/* Unloads P (dlclose) and frees it; NULL is a no-op.  The code and the
 * descriptor of P must not be used afterwards. */
FGM_INTERNAL void fgm_plugin_close(fgm_plugin *p);

typedef struct fgm_build_dir fgm_build_dir;

/* Compiles B's C file into SO_PATH: writes the kernel headers this fgm
 * was built with next to it (fgm_build_dir_headers), runs CC -O3
 * -march=native -fPIC -shared -ffp-contract=off -o SO_PATH.tmp.XXXXXX C
 * -lm (no shell; CC is split on blanks as make does, so "ccache gcc"
 * works; $FGM_PLUGIN_CFLAGS replaces "-O3 -march=native"), then renames the
 * result over SO_PATH, so that SO_PATH is always either the old file or
 * the whole new one.  With WANT_HASH, the new file is first loaded and
 * checked as fgm_plugin_open checks one (descriptor, ABI, build id, that
 * hash), and not installed when it fails (WHY: the loader's reason);
 * NULL installs it unchecked (tests build broken plugins on purpose).
 * CC NULL or blank: $CC, else "cc".  Returns FGM_OK;
 * FGM_ECC when the compiler cannot be run or fails (WHY: "cannot run C
 * compiler 'X': No such file or directory" or "C compiler 'cc' failed
 * (exit status 1): FIRST ERROR LINE"); FGM_EIO when SO_PATH's folder
 * cannot be written; FGM_ENOMEM.  No temporary file survives a failure
 * but B's, which fgm_build_dir_close removes. */
FGM_INTERNAL fgm_status fgm_plugin_build(fgm_build_dir *b,
                                         const char *so_path, const char *cc,
                                         const uint64_t *want_hash,
                                         char *why, size_t whysize);

/* Bytes a reason from fgm_plugin_build about SO_PATH and CC may need:
 * 1024 for its words and the texts of the system and the C compiler (cut
 * at 512 bytes), plus what it quotes whole: SO_PATH, the C compiler (CC,
 * $CC) and $FGM_CC_TIMEOUT. */
FGM_INTERNAL size_t fgm_plugin_why_size(const char *so_path, const char *cc);

/* The fallback cascade (DESIGN.md, "Plugin ABI and the fallback cascade"):
 *   1. out_dir/NAME.ALGO.so loads and matches REQ->hash: compiled.
 *   2. else report "<why>; rebuilding" once, write out_dir/NAME.ALGO.c
 *      atomically from REQ->emit_c, build it, load it: compiled, *REBUILT
 *      = 1.  The fresh .so is loaded under its temporary name before being
 *      renamed into place, so a handle to the old image still held
 *      elsewhere in the process (dlopen caches by path) cannot be returned
 *      instead.
 *   3. else, in AUTO mode, report "<why>; interpreting" once and return
 *      FGM_OK with *OUT = NULL; in COMPILED mode, report "<why>" once and
 *      return its status (FGM_EIO, FGM_ECC, FGM_EPLUGIN, ...).
 * INTERPRETED mode returns FGM_OK with *OUT = NULL and touches nothing
 * (nor reads REQ beyond its mode).  Returns FGM_EINVAL (nothing reported)
 * for a malformed REQ.  On FGM_OK,
 * *OUT is NULL (interpret) or a plugin owned by the caller.  REBUILT may be
 * NULL.  Each message goes to DIAG (may be NULL) without "fgm: ". */
FGM_INTERNAL fgm_status fgm_plugin_load(const fgm_plugin_req *req,
                                        fgm_plugin **out, int *rebuilt,
                                        fgm_diag_fn diag, void *ctx);

/* A build's own folder SO.tmp.XXXXXX/ and the path of the C file NAME in
 * it, both listed for fgm_abort_cleanup, and the kernel headers written
 * next to it (removed with the folder: fgm_cleanup_unlink_headers).  The
 * C is written and compiled there, out of reach of another build of the
 * same SO_PATH (another process or thread) that would replace or remove
 * the file a compiler is reading. */
struct fgm_build_dir {
    char *dir, *c;
    int tok_dir, tok_c;
};

/* Makes B's folder next to SO_PATH, with B->c its file NAME (not yet
 * written).  Returns 0, or the errno value that stopped it (nothing is
 * then left to close). */
FGM_INTERNAL int fgm_build_dir_open(fgm_build_dir *b, const char *so_path,
                                    const char *name);

/* Writes the kernel headers this fgm was built with (runtime/
 * kernel_text.h) into B's folder, where the compiler finds them first for
 * the C file's quoted includes.  Returns 0, or the errno value that
 * stopped it (what was written is removed by fgm_build_dir_close). */
FGM_INTERNAL int fgm_build_dir_headers(fgm_build_dir *b);

/* Writes the N bytes of DATA to FD, however many write() calls it takes.
 * Returns 0 or the errno value that stopped it. */
FGM_INTERNAL int fgm_write_all(int fd, const void *data, size_t n);

/* Removes B's C file and headers, if still there, and its folder, and
 * frees B. */
FGM_INTERNAL void fgm_build_dir_close(fgm_build_dir *b);

/* ---- plugin_sys.c: the platform layer ------------------------------- */

/* A function pointer of unknown type, as dlsym finds it. */
typedef void (*fgm_plugin_sys_fn)(void);

/* dlopens PATH with RTLD_NOW | RTLD_LOCAL (a path without a slash is taken
 * relative to the working folder, never searched for).  Before dlopen, an
 * ELF object of this machine's class is checked to contain every segment
 * it maps: the loader would map a truncated file and fault later (SIGBUS).
 * Returns FGM_OK and *LIB, or FGM_EPLUGIN (or FGM_ENOMEM) with the reason,
 * without the path, in WHY: "not found", "truncated (N bytes, segments
 * need M)", or dlerror()'s text ("invalid ELF header"). */
FGM_INTERNAL fgm_status fgm_plugin_sys_load(const char *path, void **lib,
                                            char *why, size_t whysize);

/* Finds the symbol NAME in LIB.  Returns FGM_OK and *FN, or FGM_EPLUGIN
 * with dlerror()'s text in WHY. */
FGM_INTERNAL fgm_status fgm_plugin_sys_sym(void *lib, const char *name,
                                           fgm_plugin_sys_fn *fn, char *why,
                                           size_t whysize);

/* Whether folder DIR (or, not made yet, its nearest existing parent) is
 * on a file system mounted noexec, from which dlopen maps no plugin
 * ("failed to map segment from shared object"); 0 where that cannot be
 * told (no ST_NOEXEC). */
FGM_INTERNAL int fgm_plugin_sys_noexec(const char *dir);

/* ---- plugin_seal.c --------------------------------------------------- */

/* What a plugin's seal (FGM_PLUGIN_SEAL, plugin_abi.h) starts with. */
#define FGM_PLUGIN_SEAL_MAGIC "fgm-plugin-seal:"

/* Fills the seal (FGM_PLUGIN_SEAL) of the plugin file PATH, just built,
 * with the digest of its bytes.  A file without one, or larger than
 * 1 GiB, is left as it is.  Returns FGM_OK, or FGM_EIO / FGM_ENOMEM with
 * "PATH: cannot seal: REASON" in WHY. */
FGM_INTERNAL fgm_status fgm_plugin_seal(const char *path, char *why,
                                        size_t whysize);

/* Whether the plugin file PATH still gives the digest its seal holds:
 * FGM_OK (also for no seal, a zero one, or a file it cannot read: the
 * loader reports that), else FGM_EPLUGIN with the reason, without the
 * path, in WHY.  *FOUND says whether the file has a seal (1 too when it
 * cannot be read). */
FGM_INTERNAL fgm_status fgm_plugin_seal_check(const char *path, int *found,
                                              char *why, size_t whysize);

/* dlcloses LIB (NULL is a no-op). */
FGM_INTERNAL void fgm_plugin_sys_unload(void *lib);

/* Runs ARGV[0], found on PATH, with ARGV (no shell) and waits for it; its
 * stdin is /dev/null, its stdout and stderr are captured together into OUT
 * (the first OUTSIZE - 1 bytes, NUL-terminated; the rest is read and
 * dropped).  Past TIMEOUT_S seconds (> 0) it is killed, with every process
 * it started, and *CODE is FGM_PLUGIN_SYS_TIMEOUT.  Returns 0 when it ran,
 * with *CODE set to its exit status, or to minus the number of the signal
 * that killed it; otherwise returns the errno value that kept it from
 * running (ENOENT: no such program). */
#define FGM_PLUGIN_SYS_TIMEOUT (-1000)
FGM_INTERNAL int fgm_plugin_sys_run(char *const argv[], double timeout_s,
                                    int *code, char *out, size_t outsize);

/* ---- plugin_emit.c, plugin_stale.c ---------------------------------- */

/* The C source's name in the build folder of fgm_plugin_emit_so (`fgm
 * compile -o SO`); a rebuild's is the plugin's own NAME.ALGO.c. */
#define FGM_PLUGIN_EMIT_C "plugin.c"

/* Removes the temporaries that builds of SO_PATH killed midway left next
 * to it (SO_PATH.tmp.XXXXXX, files, and folders holding the C file
 * C_NAME, a base name, and the kernel headers) once they are MIN_AGE_S
 * seconds old; best effort (runtime/plugin_stale.c). */
FGM_INTERNAL void fgm_plugin_sweep_stale(const char *so_path,
                                         const char *c_name,
                                         double min_age_s);

/* The age past which a build's temporaries count as left by a killed
 * build: twice the C compiler's time limit, at least an hour. */
FGM_INTERNAL double fgm_plugin_stale_age(void);

#endif /* FGM_PLUGIN_H */
