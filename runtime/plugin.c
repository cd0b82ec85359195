/* runtime/plugin.c: load, build and choose generated plugins (the cascade).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fgm_plugin_open trusts nothing in a .so until its descriptor has passed
 * every check; fgm_plugin_build never lets a half-written .so appear under
 * its final name; fgm_plugin_load strings them into DESIGN.md's cascade and
 * reports each fallback once.  System calls live in plugin_sys.c.
 *
 * Why the cascade loads a fresh build under its temporary name: dlopen
 * returns an already loaded object when the path (or the file's inode)
 * matches, whatever the file on disk now holds.  A plugin of the same name
 * may still be open elsewhere in the process (another model), so opening
 * SO_PATH after renaming a new build over it could hand back the old image.
 * The temporary name is new to the process; after the rename, later opens
 * of SO_PATH find the same inode and share the image.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <cpuid.h>
#define FGM_HAVE_CPUID 1
#endif
#include "fgm_build_id.h"
#include "kernel_text.h"
#include "plugin.h"
#include "schedule.h"

/* Bytes of the descriptor this runtime reads: up to the last field it
 * knows (the descriptor only grows at the end). */
#define DESC_NEED (offsetof(fgm_plugin_desc, build_id) \
                   + sizeof(((const fgm_plugin_desc *)0)->build_id))

/* Bytes of compiler output kept for the reason of a failure: enough for
 * the lines up to the first error ("In file included from", "In
 * function", the error), each of which may name the build folder's C
 * file, a path as long as PATH_MAX (4096 cut the first error off), and
 * for the warnings that may come before it (FGM_PLUGIN_CFLAGS with
 * -Wall on edited C: past 16384 bytes of them, the reason quoted a
 * warning, not the error). */
#define CC_OUTPUT (1 << 20)

struct fgm_plugin {
    void *lib;
    const fgm_plugin_desc *desc;
    char path[];                /* for messages: the final .so path, also
                                 * when loaded under its temporary name */
};

/* Formats a one-line reason into WHY (which may be NULL). */
static void sayf(char *why, size_t whysize, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
sayf(char *why, size_t whysize, const char *fmt, ...)
{
    va_list ap;
    fgm_c_locale cl;

    if (!why || !whysize)
        return;
    va_start(ap, fmt);
    fgm_c_locale_begin(&cl);    /* "in 0.5 s", whatever the caller's */
    vsnprintf(why, whysize, fmt, ap);
    fgm_c_locale_end(&cl);
    va_end(ap);
}

/* Whether S is NULL or blanks only (an environment variable set so
 * counts as unset: CC, FGM_PLUGIN_CFLAGS, FGM_CC_TIMEOUT). */
static int
blank(const char *s)
{
    return !s || !s[strspn(s, " \t\n")];
}

const char *
fgm_plugin_cflags(void)
{
    const char *flags = getenv("FGM_PLUGIN_CFLAGS");

    /* Blank is unset, as for CC and FGM_CC_TIMEOUT (it built plugins
     * unoptimized, 25 times slower). */
    return blank(flags) ? "-O3 -march=native" : flags;
}

/* H mixed with X, FNV-1a, a byte at a time. */
static uint64_t
mix(uint64_t h, uint64_t x, int bytes)
{
    for (; bytes > 0; bytes--, x >>= 8) {
        h ^= x & 0xff;
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

uint64_t
fgm_plugin_cpu_fingerprint(void)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
#ifdef FGM_HAVE_CPUID
    /* The instruction-set bits: leaf 1 ECX and EDX (not EAX, the model,
     * nor EBX, which holds the core's APIC id), leaf 7 subleaves 0 and 1,
     * leaf 0x80000001 ECX and EDX; then XCR0, the register state the OS
     * saves (AVX-512 needs it as much as the CPUID bit). */
    unsigned a, b, c, d, xlo = 0, xhi = 0;

    if (__get_cpuid_count(1, 0, &a, &b, &c, &d)) {
        h = mix(mix(h, c, 4), d, 4);
        if (c & (1u << 27))     /* OSXSAVE: XGETBV may run */
            __asm__ volatile("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0));
    }
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
        h = mix(mix(mix(h, b, 4), c, 4), d, 4);
    if (__get_cpuid_count(7, 1, &a, &b, &c, &d))
        h = mix(h, a, 4);
    if (__get_cpuid_count(0x80000001u, 0, &a, &b, &c, &d))
        h = mix(mix(h, c, 4), d, 4);
    h = mix(mix(h, xlo, 4), xhi, 4);
#endif
    return h;
}

int
fgm_plugin_split512(void)
{
    /* AMD family 0x19 is Zen 3 (no AVX-512, so nothing to choose) and
     * Zen 4.  (Zen 5, 0x1a, runs 512-bit divisions at full width on the
     * EPYC measured.)  The compiler's CPU detection, as fgm_sched_pairs
     * asks it. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_is("amdfam19h") != 0;
#else
    return 0;
#endif
}

uint64_t
fgm_plugin_build_id(void)
{
    /* FNV-1a over the flags, the schedule's row padding and, for code
     * built for this very CPU (-march=native), its instruction sets:
     * such a plugin copied to a machine that differs in any is rebuilt
     * (fgm_plugin_cpu_ok covers the flags that name a CPU of their own). */
    const char *flags = fgm_plugin_cflags();
    uint64_t h = FGM_BUILD_ID;
    const unsigned char *p = (const unsigned char *)flags;

    for (; *p; p++)
        h = mix(h, *p, 1);
    h = mix(h, (uint64_t)(fgm_sched_pairs() + 1), 1);
    h = mix(h, (uint64_t)fgm_plugin_split512(), 1);
    if (strstr(flags, "native"))
        h = mix(h, fgm_plugin_cpu_fingerprint(), 8);
    return h;
}

/* Checks descriptor D of the plugin NAME against this runtime and the
 * model's hash WANT.  ABI first: the other fields mean nothing in a
 * descriptor of another version. */
static fgm_status
check_desc(const fgm_plugin_desc *d, const char *name, uint64_t want,
           char *why, size_t whysize)
{
    uint64_t id;

    if (!d) {
        /* A generated plugin does so on a CPU that lacks an instruction
         * set it was compiled for (fgm_plugin_cpu_ok). */
        sayf(why, whysize, "%s: %s returned NULL (built for instructions "
             "this CPU lacks?)", name, FGM_PLUGIN_ENTRY_NAME);
        return FGM_EPLUGIN;
    }
    if (d->abi_version != FGM_PLUGIN_ABI_VERSION) {
        sayf(why, whysize, "%s: built for ABI %u, runtime has %u", name,
             (unsigned)d->abi_version, (unsigned)FGM_PLUGIN_ABI_VERSION);
        return FGM_EABI;
    }
    if (d->size < DESC_NEED) {
        sayf(why, whysize, "%s: descriptor has %u bytes, runtime reads %zu",
             name, (unsigned)d->size, (size_t)DESC_NEED);
        return FGM_EABI;
    }
    if (d->ir_hash != want) {
        /* With the name the plugin gives its model: another model's
         * plugin in its place reads as such, not as an edit. */
        sayf(why, whysize, "%s: stale (built from IR %016llx of model "
             "'%.64s', model is %016llx)", name,
             (unsigned long long)d->ir_hash, d->model ? d->model : "?",
             (unsigned long long)want);
        return FGM_ESTALE;
    }
    /* Once: it reads CPUID, and the message must show the value the
     * test compared. */
    id = fgm_plugin_build_id();
    if (d->build_id != id) {
        sayf(why, whysize, "%s: stale (written by another build of fgm, "
             "with other compiler flags or for another CPU: %016llx, this "
             "one has %016llx)", name, (unsigned long long)d->build_id,
             (unsigned long long)id);
        return FGM_ESTALE;
    }
    if (!d->model || !d->algo || !d->reset || !d->sweep || !d->finish
        || d->nvars < 0 || d->stride < 0 || d->nedges < 0
        || d->ndirichlet < 0 || d->ndirfactors < 0 || d->nscratch < 0) {
        sayf(why, whysize, "%s: descriptor is incomplete", name);
        return FGM_EPLUGIN;
    }
    return FGM_OK;
}

/* fgm_plugin_open of the file LOAD, reported and recorded as NAME. */
static fgm_status
open_as(const char *load, const char *name, uint64_t want, fgm_plugin **out,
        char *why, size_t whysize)
{
    size_t len = strlen(name);
    const fgm_plugin_desc *d;
    fgm_plugin_sys_fn fn;
    fgm_plugin *p;
    char text[512];
    fgm_status st;
    void *lib;
    int sealed;

    *out = NULL;
    st = fgm_plugin_seal_check(load, &sealed, text, sizeof text);
    if (st == FGM_OK)
        st = fgm_plugin_sys_load(load, &lib, text, sizeof text);
    if (st != FGM_OK) {
        sayf(why, whysize, "%s: %s", name, text);
        return st;
    }
    if (fgm_plugin_sys_sym(lib, FGM_PLUGIN_ENTRY_NAME, &fn, text,
                           sizeof text) != FGM_OK) {
        /* "X is not a function" as fgm_plugin_sys_sym says it, else
         * dlerror's words: the symbol is missing. */
        if (strstr(text, " is not a function"))
            sayf(why, whysize, "%s: %s", name, text);
        else
            sayf(why, whysize, "%s: no symbol %s", name,
                 FGM_PLUGIN_ENTRY_NAME);
        st = FGM_EPLUGIN;
        goto fail;
    }
    d = ((fgm_plugin_entry_fn)fn)();
    st = check_desc(d, name, want, why, whysize);
    if (st != FGM_OK)
        goto fail;
    if (!sealed) {
        /* This fgm generated it (its build id), so it had a seal: the
         * damage is over the seal itself. */
        sayf(why, whysize, "%s: damaged (its seal is gone)", name);
        st = FGM_EPLUGIN;
        goto fail;
    }
    p = malloc(sizeof *p + len + 1);
    if (!p) {
        sayf(why, whysize, "%s: %s", name, fgm_strerror(FGM_ENOMEM));
        st = FGM_ENOMEM;
        goto fail;
    }
    p->lib = lib;
    p->desc = d;
    memcpy(p->path, name, len + 1);
    *out = p;
    sayf(why, whysize, "%s", "");
    return FGM_OK;
fail:
    fgm_plugin_sys_unload(lib);
    return st;
}

fgm_status
fgm_plugin_open(const char *so_path, uint64_t want_hash, fgm_plugin **out,
                char *why, size_t whysize)
{
    return open_as(so_path, so_path, want_hash, out, why, whysize);
}

const fgm_plugin_desc *
fgm_plugin_descriptor(const fgm_plugin *p)
{
    return p->desc;
}

const char *
fgm_plugin_path(const fgm_plugin *p)
{
    return p->path;
}

void
fgm_plugin_close(fgm_plugin *p)
{
    if (!p)
        return;
    fgm_plugin_sys_unload(p->lib);
    free(p);
}

/* ---- building ---------------------------------------------------------- */

/* Returns the end of the diagnostic's WORD ("error:", "warning:",
 * "note:"; its first letter in either case) in the line S..NL, or NULL
 * if it has none: the word where gcc and clang put it, at the line's
 * start or after ": " or ": fatal " ("FILE:LINE:COL: error: ...", "cc1:
 * error: ...", "FILE:LINE:COL: fatal error: ..."), also GNU as's
 * "Error:".  Not the word anywhere: the file names in the line lie under
 * --out-dir, which may well be ".../errorlogs/...". */
static const char *
marker(const char *s, const char *nl, const char *word)
{
    static const char *const before[] = { ": ", ": fatal " };
    size_t wl = strlen(word), i, n;
    const char *e;

    for (e = s; nl - e >= (long)wl; e++) {
        if ((*e != word[0] && *e != word[0] - 'a' + 'A')
            || strncmp(e + 1, word + 1, wl - 1) != 0)
            continue;
        if (e == s)
            return e + wl;
        for (i = 0; i < sizeof before / sizeof *before; i++) {
            n = strlen(before[i]);
            if ((size_t)(e - s) >= n && memcmp(e - n, before[i], n) == 0)
                return e + wl;
        }
    }
    return NULL;
}

/* Whether the line S..NL holds WORD. */
static int
holds(const char *s, const char *nl, const char *word)
{
    size_t wl = strlen(word);
    const char *p;

    for (p = s; nl - p >= (long)wl; p++)
        if (memcmp(p, word, wl) == 0)
            return 1;
    return 0;
}

/* Whether the line S..NL is not why a build failed: a warning or a note,
 * the context lines around them ("FILE: In function 'f':", "In file
 * included from ...", ld's "FILE.o: in function `f':", gcc's indented
 * source lines and "from ..." lines), or collect2's summary. */
static int
aside(const char *s, const char *nl)
{
    return marker(s, nl, "warning:") || marker(s, nl, "note:")
           || strncmp(s, "collect2:", 9) == 0 || *s == ' ' || *s == '\t'
           || strncmp(s, "In file included from ", 22) == 0
           || holds(s, nl, ": In function ")
           || holds(s, nl, ": in function ")
           || holds(s, nl, ": At top level:");
}

/* Copies into LINE the compiler's most telling line of OUT: the first one
 * with a diagnostic's "error:" (not collect2's summary: ld's own words come
 * before it), else the first non-blank one that is not a warning or a note
 * (ld's errors have no "error:"; a warning came first and was quoted), else
 * the first non-blank one.  A line longer than LINE keeps
 * its start up to "error:" when that takes at most half of LINE, then
 * "...", then as much of its end as fits, never from inside a UTF-8
 * character (gcc quotes names in U+2018 and U+2019). */
static void
first_message(const char *out, char *line, size_t size)
{
    const char *pick = NULL, *plain = NULL, *s, *nl, *mark = NULL, *tail;
    size_t len, head = 0;

    for (s = out; *s; s = *nl ? nl + 1 : nl) {
        nl = s + strcspn(s, "\n");
        if (s + strspn(s, " \t") < nl) {
            if (!pick)
                pick = s;
            if (!plain && !aside(s, nl))
                plain = s;
        }
        mark = marker(s, nl, "error:");
        if (mark && strncmp(s, "collect2:", 9) != 0) {
            pick = plain = s;
            break;
        }
        mark = NULL;
    }
    if (plain)
        pick = plain;
    if (!pick) {
        snprintf(line, size, "(no message)");
        return;
    }
    len = strcspn(pick, "\n");
    if (len < size || size < 4) {
        snprintf(line, size, "%.*s", (int)len, pick);
        return;
    }
    /* The start says where ("FILE:LINE:COL: error:"), the end what; the
     * file name is under --out-dir, as long as that, and the start is
     * dropped when it would crowd out the words. */
    if (mark && (size_t)(mark - pick) <= (size - 4) / 2)
        head = (size_t)(mark - pick);
    tail = pick + len - (size - 1 - head - 3);
    while (tail < pick + len && ((unsigned char)*tail & 0xC0) == 0x80)
        tail++;
    snprintf(line, size, "%.*s...%.*s", (int)head, pick,
             (int)(pick + len - tail), tail);
}

/* "./PATH" into OUT (strlen(PATH) + 3 bytes) when PATH starts with '-', as
 * a relative --out-dir or -o such as "-xc" makes it, which the compiler
 * would read as an option ("-xc.so.tmp.K1eH50/plugin.c" built an empty
 * plugin, exit 0); else PATH itself. */
static const char *
not_an_option(const char *path, char *out)
{
    if (*path != '-')
        return path;
    sprintf(out, "./%s", path);
    return out;
}

/* Splits CC and the optimization flags on blanks into ARGV (pointers into
 * WORDS, a copy the caller frees), followed by the fixed compiler
 * arguments.  The flags are $FGM_PLUGIN_CFLAGS, by default
 * "-O3 -march=native": a plugin is built on the machine that runs it, like
 * a JIT, so it may use every instruction the machine has.  Returns the
 * argument vector (caller frees) or NULL when out of memory. */
static char **
compiler_argv(const char *cc, const char *tmp, const char *c_path,
              char **words)
{
    static const char *const blanks = " \t\n";
    const char *flags = fgm_plugin_cflags();
    size_t n = 0, max, head = strlen(cc) + strlen(flags) + 2;
    size_t ltmp = strlen(tmp) + 3;
    char **argv, *w, *line;

    /* The words, then room for TMP and C_PATH made not_an_option. */
    line = malloc(head + ltmp + strlen(c_path) + 3);
    if (!line)
        return NULL;
    sprintf(line, "%s %s", cc, flags);
    tmp = not_an_option(tmp, line + head);
    c_path = not_an_option(c_path, line + head + ltmp);
    cc = line;
    max = strlen(cc) / 2 + 1;
    *words = line;
    argv = malloc((max + 11) * sizeof *argv);
    if (!argv) {
        free(*words);
        free(argv);
        *words = NULL;
        return NULL;
    }
    for (w = *words + strspn(*words, blanks); *w;
         w += strspn(w, blanks)) {
        argv[n++] = w;
        w += strcspn(w, blanks);
        if (*w)
            *w++ = '\0';
    }
    /* const is dropped only for execvp's prototype: nothing writes. */
    argv[n++] = (char *)"-fPIC";
    argv[n++] = (char *)"-shared";
    /* No a*b+c fused into one rounding: the interpreter (built with the
     * same flag) computes the same bits (runtime/ops/vec.h). */
    argv[n++] = (char *)"-ffp-contract=off";
    if (fgm_plugin_split512())
        argv[n++] = (char *)"-DFGM_K_SPLIT512";
    argv[n++] = (char *)"-o";
    argv[n++] = (char *)tmp;
    argv[n++] = (char *)c_path;
    argv[n++] = (char *)"-lm";      /* kernels.h may call libm */
    argv[n] = NULL;
    return argv;
}

/* Seconds a C compiler run may take: $FGM_CC_TIMEOUT, else 300 (a
 * 16x16 plugin builds in a few seconds; a compiler that hangs must not
 * hang fgm with it); -1 when the variable is set to anything but a
 * number of seconds in (0, 1e6). */
static double
cc_timeout(void)
{
    const char *v = getenv("FGM_CC_TIMEOUT");
    char *end;
    double t;

    if (blank(v))
        return 300.0;
    t = fgm_strtod_c(v, &end);
    end += strspn(end, " \t\n");     /* blanks around, as strtod skips */
    return *end == '\0' && t > 0 && t < 1e6 ? t : -1.0;
}

/* Seconds after which a build's temporaries are surely left over from a
 * killed process: an hour, or twice the compiler's time limit if that is
 * longer (another process may have been given a longer limit; an hour
 * covers any that was not given one far beyond the default). */
double
fgm_plugin_stale_age(void)
{
    double t = 2.0 * cc_timeout();    /* a bad value: -2, an hour */

    return t > 3600.0 ? t : 3600.0;
}

/* Builds B's C file into a new file SO_PATH.tmp.XXXXXX, returned in
 * *TMP and listed for fgm_abort_cleanup under *TOKEN (the caller renames
 * or unlinks it, then drops the token and frees *TMP).  On failure
 * nothing is left on disk but B.  Statuses as fgm_plugin_build. */
static fgm_status
build_temp(fgm_build_dir *b, const char *so_path, const char *cc,
           double deadline, char **tmp, int *token, char *why,
           size_t whysize)
{
    static const char suffix[] = ".tmp.XXXXXX";
    char *out = NULL, line[512], *words = NULL, **argv = NULL;
    size_t len = strlen(so_path);
    fgm_status st = FGM_OK;
    struct stat sb;
    double timeout;
    int fd, e, code, at_deadline = 0;   /* the deadline bounds the build */

    if (blank(cc))
        cc = getenv("CC");
    if (blank(cc))
        cc = "cc";
    e = fgm_build_dir_headers(b);
    if (e) {
        st = e == ENOMEM ? FGM_ENOMEM : FGM_EIO;
        /* Name SO_PATH, as for mkstemp below: B's folder is this call's
         * temporary one, gone when the message is read. */
        sayf(why, whysize, "%s: cannot write: %s", so_path,
             e == ENOMEM ? fgm_strerror(st) : strerror(e));
        return st;
    }
    timeout = cc_timeout();
    if (timeout < 0) {
        /* Said, not replaced by the default: the user meant a limit. */
        sayf(why, whysize, "FGM_CC_TIMEOUT='%s' is not a number of seconds "
             "(0 < t < 1e6)", getenv("FGM_CC_TIMEOUT"));
        return FGM_ECC;
    }
    if (deadline > 0) {
        /* The caller's deadline (a puzzle's --timeout-ms, ep-naive):
         * the compiler gets what is left of it when that is less. */
        double left = deadline - fgm_now();

        if (left <= 0) {
            sayf(why, whysize, "%s: the deadline passed before the build",
                 so_path);
            return FGM_ETIMEOUT;
        }
        if (left < timeout) {
            timeout = left;
            at_deadline = 1;
        }
    }
    *tmp = malloc(len + sizeof suffix);
    if (!*tmp) {
        sayf(why, whysize, "%s", fgm_strerror(FGM_ENOMEM));
        return FGM_ENOMEM;
    }
    memcpy(*tmp, so_path, len);
    memcpy(*tmp + len, suffix, sizeof suffix);
    fd = fgm_cleanup_mkstemp(*tmp, token);
    if (fd < 0) {
        sayf(why, whysize, "%s: cannot write: %s", so_path, strerror(errno));
        free(*tmp);
        *tmp = NULL;
        return FGM_EIO;
    }
    close(fd);
    argv = compiler_argv(cc, *tmp, b->c, &words);
    out = argv ? malloc(CC_OUTPUT) : NULL;
    if (!out) {
        sayf(why, whysize, "%s", fgm_strerror(FGM_ENOMEM));
        st = FGM_ENOMEM;
    } else if ((e = fgm_plugin_sys_run(argv, timeout, &code, out,
                                       CC_OUTPUT))) {
        sayf(why, whysize, "cannot run C compiler '%s': %s", cc,
             strerror(e));
        st = FGM_ECC;
    } else if (code == FGM_PLUGIN_SYS_TIMEOUT && at_deadline) {
        sayf(why, whysize, "C compiler '%s' stopped at the deadline, after "
             "%g s", cc, timeout);
        st = FGM_ETIMEOUT;
    } else if (code == FGM_PLUGIN_SYS_TIMEOUT) {
        sayf(why, whysize, "C compiler '%s' did not finish in %g s "
             "(FGM_CC_TIMEOUT)", cc, timeout);
        st = FGM_ECC;
    } else if (code != 0) {
        first_message(out, line, sizeof line);
        if (code > 0)
            sayf(why, whysize, "C compiler '%s' failed (exit status %d): %s",
                 cc, code, line);
        else
            sayf(why, whysize, "C compiler '%s' killed by signal %d: %s", cc,
                 -code, line);
        st = FGM_ECC;
    } else if (stat(*tmp, &sb) != 0 || sb.st_size == 0) {
        sayf(why, whysize, "C compiler '%s' wrote no %s", cc, so_path);
        st = FGM_ECC;
    } else if (chmod(*tmp, 0777 & ~fgm_umask()) != 0) {
        /* mkstemp made it 0600; the compiler's own output would have
         * been 0777 less the umask. */
        sayf(why, whysize, "%s: cannot write: %s", so_path, strerror(errno));
        st = FGM_EIO;
    } else {
        st = fgm_plugin_seal(*tmp, why, whysize);
    }
    free(out);
    free(argv);
    free(words);
    if (st != FGM_OK) {
        unlink(*tmp);
        fgm_cleanup_drop(*token);
        *token = -1;
        free(*tmp);
        *tmp = NULL;
    }
    return st;
}

fgm_status
fgm_plugin_build(fgm_build_dir *b, const char *so_path, const char *cc,
                 const uint64_t *want_hash, char *why, size_t whysize)
{
    fgm_plugin *p;
    fgm_status st;
    struct stat sb;
    char *tmp;
    int token = -1;

    /* rename() would replace a device node, FIFO or symbolic link (-o
     * /dev/null as root): a plugin is a regular file or nothing. */
    if (lstat(so_path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        sayf(why, whysize, "%s: cannot write: not a regular file", so_path);
        return FGM_EIO;
    }
    st = build_temp(b, so_path, cc, 0.0, &tmp, &token, why, whysize);
    if (st != FGM_OK)
        return st;
    if (want_hash) {
        /* Loaded and checked under its temporary name, as the cascade's
         * rebuild does, before it replaces anything: a compiler that
         * wrote garbage, a truncated file or another model's plugin was
         * installed, and `fgm compile -o` said "compiled". */
        st = open_as(tmp, so_path, *want_hash, &p, why, whysize);
        if (st != FGM_OK) {
            unlink(tmp);
            goto out;
        }
        fgm_plugin_close(p);
    }
    if (rename(tmp, so_path) != 0) {
        sayf(why, whysize, "%s: cannot write: %s", so_path, strerror(errno));
        unlink(tmp);
        st = FGM_EIO;
    } else {
        sayf(why, whysize, "%s", "");
    }
out:
    fgm_cleanup_drop(token);
    free(tmp);
    return st;
}

/* ---- the cascade ------------------------------------------------------- */

/* The sink fgm_write_atomic reports to: keeps its message as a reason,
 * without the "error: " a one-line fallback reason does not carry. */
typedef struct capture {
    char *why;
    size_t whysize;
} capture;

static void
capture_diag(void *ctx, const char *msg)
{
    capture *cap = ctx;
    const char *e = strstr(msg, ": error: ");

    if (e)
        sayf(cap->why, cap->whysize, "%.*s: %s", (int)(e - msg), msg,
             e + strlen(": error: "));
    else
        sayf(cap->why, cap->whysize, "%s", msg);
}

/* mkdir DIR, and its missing parents before it (mkdir -p): 0, or -1
 * with errno (EEXIST when DIR exists; when a parent could not be made,
 * why not, rather than DIR's ENOENT). */
static int
make_dirs(const char *dir)
{
    char *path = strdup(dir), *p;
    int e, parent = 0;

    if (!path)
        return -1;
    for (p = path + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST && !parent)
            parent = errno;
        *p = '/';
    }
    e = mkdir(path, 0777) == 0 ? 0 : errno;
    if (e == ENOENT && parent)
        e = parent;
    free(path);
    errno = e;
    return e ? -1 : 0;
}

/* Makes sure DIR (shown as SHOWN) is a folder we may write: creates it,
 * and its missing parents, if missing. */
static fgm_status
writable_dir(const char *dir, const char *shown, char *why, size_t whysize)
{
    int e;

    if (make_dirs(dir) == 0)
        return FGM_OK;
    e = errno;
    if (e == EEXIST && (e = fgm_dir_error(dir)) == 0)
        return FGM_OK;
    sayf(why, whysize, "%s: cannot write: %s", shown, strerror(e));
    return FGM_EIO;
}

/* Paths of one request: DIR (out_dir, "." when empty), SHOWN (DIR with
 * one trailing slash, for messages), C and SO (DIR/NAME.ALGO.c, .so). */
typedef struct paths {
    const char *dir;
    char *shown, *c, *so;
} paths;

static fgm_status
paths_make(const fgm_plugin_req *req, paths *ps)
{
    const char *dir = *req->out_dir ? req->out_dir : ".";
    size_t dl = strlen(dir), stem = strlen(req->model_name)
                                    + strlen(req->algo) + 8;
    const char *sep = dir[dl - 1] == '/' ? "" : "/";

    ps->dir = dir;
    ps->shown = malloc(dl + 2);
    ps->c = malloc(dl + stem);
    ps->so = malloc(dl + stem);
    if (!ps->shown || !ps->c || !ps->so)
        return FGM_ENOMEM;
    snprintf(ps->shown, dl + 2, "%s%s", dir, sep);
    snprintf(ps->c, dl + stem, "%s%s%s.%s.c", dir, sep, req->model_name,
             req->algo);
    snprintf(ps->so, dl + stem, "%s%s%s.%s.so", dir, sep, req->model_name,
             req->algo);
    return FGM_OK;
}

static void
paths_free(paths *ps)
{
    free(ps->shown);
    free(ps->c);
    free(ps->so);
}

size_t
fgm_plugin_why_size(const char *so_path, const char *cc)
{
    const char *env = getenv("CC"), *timeout = getenv("FGM_CC_TIMEOUT");

    return 1024 + strlen(so_path) + (cc ? strlen(cc) : 0)
           + (env ? strlen(env) : 0) + (timeout ? strlen(timeout) : 0);
}

/* Bytes a reason about the request REQ at PS may need: a build's
 * (fgm_plugin_why_size), grown to the most any step quotes: the build
 * folder's C file, ps->so.tmp.XXXXXX/NAME.ALGO.c, under twice ps->so
 * (fgm_write_atomic's "cannot write"; three times leaves room), or one
 * path and the C compiler, or $FGM_CC_TIMEOUT. */
static size_t
why_size(const fgm_plugin_req *req, const paths *ps)
{
    return fgm_plugin_why_size(ps->so, req->cc) + 3 * strlen(ps->so) + 64;
}

int
fgm_build_dir_open(fgm_build_dir *b, const char *so_path, const char *name)
{
    size_t sl = strlen(so_path);
    fgm_cleanup_window win;
    int made = 0, e;

    b->c = NULL;
    b->dir = malloc(sl + sizeof ".tmp.XXXXXX");
    if (b->dir)
        b->c = malloc(sl + sizeof ".tmp.XXXXXX" + 1 + strlen(name));
    if (!b->c) {
        free(b->dir);
        return ENOMEM;
    }
    sprintf(b->dir, "%s.tmp.XXXXXX", so_path);
    /* Made and listed in one window (fgm_cleanup_begin), the C file too:
     * never after fgm_abort_cleanup's sweep, where nothing would remove
     * them.  Only system calls and copies inside. */
    e = EINTR;          /* what an abort under way reports */
    if (fgm_cleanup_begin(&win) == 0) {
        made = mkdtemp(b->dir) != NULL;
        e = errno;
        if (made) {
            memcpy(b->c, b->dir, sl + sizeof ".tmp.XXXXXX" - 1);
            b->c[sl + sizeof ".tmp.XXXXXX" - 1] = '/';
            memcpy(b->c + sl + sizeof ".tmp.XXXXXX", name,
                   strlen(name) + 1);
            b->tok_dir = fgm_cleanup_path(b->dir, 1);
            /* Listed before it exists: in a folder of our own the name is
             * ours, and a signal right after the write must find it
             * listed. */
            b->tok_c = fgm_cleanup_path(b->c, 0);
        }
        fgm_cleanup_end(&win);
    }
    if (!made) {
        free(b->dir);
        free(b->c);
        return e;
    }
    return 0;
}

int
fgm_write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    ssize_t w;

    for (; n > 0; n -= (size_t)w, p += w) {
        w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            w = 0;
        else if (w <= 0)
            return w < 0 ? errno : EIO;
    }
    return 0;
}

int
fgm_build_dir_headers(fgm_build_dir *b)
{
    size_t dl = strlen(b->dir);
    char *path;
    int i, fd, e;

    for (i = 0; i < fgm_kernel_nfiles; i++) {
        path = malloc(dl + 2 + strlen(fgm_kernel_files[i].name));
        if (!path)
            return ENOMEM;
        sprintf(path, "%s/%s", b->dir, fgm_kernel_files[i].name);
        /* Not listed on its own: fgm_abort_cleanup removes the kernel
         * headers of a listed build folder before the folder (a slot
         * each would leave the table full with fewer builds at once), so
         * each is made in a window (fgm_cleanup_open_new). */
        fd = fgm_cleanup_open_new(path);
        e = fd < 0 ? errno : fgm_write_all(fd, fgm_kernel_files[i].text,
                                           strlen(fgm_kernel_files[i].text));
        if (fd >= 0 && close(fd) != 0 && !e)
            e = errno;
        free(path);
        if (e)
            return e;
    }
    return 0;
}

void
fgm_build_dir_close(fgm_build_dir *b)
{
    unlink(b->c);
    fgm_cleanup_unlink_headers(b->dir);
    rmdir(b->dir);
    fgm_cleanup_drop(b->tok_c);
    fgm_cleanup_drop(b->tok_dir);
    free(b->dir);
    free(b->c);
}

/* Whether the plugin *OUT fits the caller's state (req->fits); else
 * closes it, *OUT NULL, and says why, ending with WHAT. */
static int
fits(const fgm_plugin_req *req, fgm_plugin **out, const char *what,
     char *why, size_t whysize)
{
    if (!req->fits || req->fits(req->emit_arg, (*out)->desc))
        return 1;
    sayf(why, whysize, "%s: plugin sizes do not match the model's "
         "schedule%s", (*out)->path, what);
    fgm_plugin_close(*out);
    *out = NULL;
    return 0;
}

/* Step 2 of the cascade: source, build, load, then install.  The C is
 * written and compiled in a build folder of this call's own
 * (fgm_build_dir) and only then renamed to ps->c: another process or
 * thread may be rebuilding the same paths at the same time (a model of
 * the same name with another hash, or ep-naive's naive_files_remove). */
static fgm_status
rebuild(const fgm_plugin_req *req, const paths *ps, fgm_plugin **out,
        char *why, size_t whysize)
{
    capture cap = { why, whysize };
    const char *base = strrchr(ps->c, '/');
    fgm_build_dir b;
    struct stat sb;
    fgm_status st;
    char *tmp;
    int e, tok_so = -1;

    st = writable_dir(ps->dir, ps->shown, why, whysize);
    if (st != FGM_OK)
        return st;
    if (lstat(ps->so, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        /* No rename replaces a folder: said before the C is compiled for
         * nothing (every run compiled it, then failed). */
        sayf(why, whysize, "%s: cannot write: %s", ps->so, strerror(EISDIR));
        return FGM_EIO;
    }
    base = base ? base + 1 : ps->c;
    fgm_plugin_sweep_stale(ps->so, base, fgm_plugin_stale_age());
    e = fgm_build_dir_open(&b, ps->so, base);
    if (e == ENOMEM) {
        sayf(why, whysize, "%s", fgm_strerror(FGM_ENOMEM));
        return FGM_ENOMEM;
    }
    if (e) {
        sayf(why, whysize, "%s: cannot write: %s", ps->shown, strerror(e));
        return FGM_EIO;
    }
    sayf(why, whysize, "%s", "");
    st = fgm_write_atomic(b.c, req->emit_c, req->emit_arg, capture_diag,
                          &cap);
    if (st != FGM_OK) {
        size_t tl = strlen(b.c);

        /* Name the file the user knows, not this call's temporary one,
         * in place: the rest may name b.c's own temporary, as long as b.c,
         * so WHY has no room to spare.  ps->c is "DIR/NAME.ALGO.c" and b.c
         * "DIR/NAME.ALGO.so.tmp.XXXXXX/NAME.ALGO.c" (fgm_build_dir_open),
         * always the longer; were it not, the message would keep b.c
         * rather than overflow. */
        if (*why && strncmp(why, b.c, tl) == 0 && strlen(ps->c) <= tl) {
            size_t cl = strlen(ps->c);

            memmove(why + cl, why + tl, strlen(why + tl) + 1);
            memcpy(why, ps->c, cl);
        }
        if (!*why)
            sayf(why, whysize, "%s: cannot write: %s", ps->c,
                 fgm_strerror(st));
        goto done;
    }
    st = build_temp(&b, ps->so, req->cc, req->deadline, &tmp, &tok_so, why,
                    whysize);
    /* The source is kept next to the plugin, built or not. */
    if (rename(b.c, ps->c) != 0 && st == FGM_OK) {
        sayf(why, whysize, "%s: cannot write: %s", ps->c, strerror(errno));
        unlink(tmp);
        free(tmp);
        st = FGM_EIO;
    }
    if (st != FGM_OK)
        goto done;
    st = open_as(tmp, ps->so, req->hash, out, why, whysize);
    /* Refused before it replaces anything: a plugin the generator wrote
     * with the wrong sizes stayed installed, rebuilt at every run. */
    if (st == FGM_OK && !fits(req, out, " (the code generator's bug)", why,
                              whysize))
        st = FGM_EINTERNAL;
    if (st == FGM_OK && rename(tmp, ps->so) != 0) {
        sayf(why, whysize, "%s: cannot write: %s", ps->so, strerror(errno));
        fgm_plugin_close(*out);
        *out = NULL;
        st = FGM_EIO;
    }
    if (st != FGM_OK)
        unlink(tmp);
    free(tmp);
done:
    fgm_cleanup_drop(tok_so);
    fgm_build_dir_close(&b);
    return st;
}

fgm_status
fgm_plugin_load(const fgm_plugin_req *req, fgm_plugin **out, int *rebuilt,
                fgm_diag_fn diag, void *ctx)
{
    paths ps = { NULL, NULL, NULL, NULL };
    char nomem[64], *why = NULL;
    size_t whysize = 0;
    fgm_status st;

    if (out)
        *out = NULL;
    if (rebuilt)
        *rebuilt = 0;
    if (!req || !out)
        return FGM_EINVAL;
    if (req->mode == FGM_BACKEND_INTERPRETED)
        return FGM_OK;
    if ((req->mode != FGM_BACKEND_AUTO && req->mode != FGM_BACKEND_COMPILED)
        || !req->out_dir || blank(req->model_name) || blank(req->algo)
        || !req->emit_c)
        return FGM_EINVAL;
    st = paths_make(req, &ps);
    /* Sized from the paths: a fixed 1024 bytes cut a reason about a
     * 5000-byte --out-dir inside the path, losing what went wrong. */
    if (st == FGM_OK) {
        whysize = why_size(req, &ps);
        why = malloc(whysize);
        if (!why)
            st = FGM_ENOMEM;
    }
    if (st != FGM_OK) {
        why = nomem;
        whysize = sizeof nomem;
        sayf(why, whysize, "%s", fgm_strerror(st));
        goto fallback;
    }
    if (fgm_plugin_sys_noexec(ps.dir)) {
        /* Each run rebuilt the plugin (a second, and more) only for the
         * loader to refuse it again, in glibc's words. */
        sayf(why, whysize, "%s: mounted noexec, where no plugin can be "
             "loaded (--out-dir elsewhere)", ps.dir);
        st = FGM_EPLUGIN;
        goto fallback;
    }
    /* Step 1; a failed open has already closed what it loaded. */
    if (fgm_plugin_open(ps.so, req->hash, out, why, whysize) == FGM_OK
        && fits(req, out, "", why, whysize))
        goto done;
    fgm_diagf(diag, ctx, "%s; rebuilding", why);
    /* Step 2. */
    st = rebuild(req, &ps, out, why, whysize);
    if (st == FGM_OK) {
        if (rebuilt)
            *rebuilt = 1;
        goto done;
    }
    if (st == FGM_ETIMEOUT) {
        /* The caller's deadline: said, with no fallback to run. */
        fgm_diagf(diag, ctx, "%s", why);
        goto done;
    }
fallback:
    /* Step 3.  Silent while a signal ends the process: the build failed
     * because the handler killed its compiler or refused its files
     * ("killed by signal 15; interpreting" just before fgm died). */
    if (req->mode == FGM_BACKEND_AUTO) {
        if (!fgm_cleanup_aborting())
            fgm_diagf(diag, ctx, "%s; interpreting", why);
        st = FGM_OK;
    } else if (!fgm_cleanup_aborting()) {
        fgm_diagf(diag, ctx, "%s", why);
    }
done:
    paths_free(&ps);
    if (why != nomem)
        free(why);
    return st;
}
