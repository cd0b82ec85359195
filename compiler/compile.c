/* compiler/compile.c: the public entry points: .fgm text in, fgm_ir out.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pipeline, straight-line (fgmc.h has each pass's contract):
 *
 *   options -> parse -> for each statement: sema, expand -> lower
 *
 * Checking and expanding statement by statement keeps the messages in
 * source order.  Parsing runs only when the options were good, the rest
 * only when parsing reported nothing (a syntax error never draws semantic
 * follow-ups from a half-built tree), lowering only when nothing at all
 * was reported.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fgmc.h"
#include "internal.h"

void
fgm_compile_quote_define(const char *define, char *out)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p;

    if (!define || !out)
        return;
    for (p = (const unsigned char *)define; *p; p++) {
        if (*p >= 0x20 && *p < 0x7f) {
            *out++ = (char)*p;
            continue;
        }
        *out++ = '\\';
        if (*p == '\n' || *p == '\r' || *p == '\t') {
            *out++ = *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't';
        } else {
            *out++ = 'x';
            *out++ = hex[*p >> 4];
            *out++ = hex[*p & 15];
        }
    }
    *out = '\0';
}

/* D as a message quotes it (fgm_compile_quote_define): D itself when
 * every byte is printable ASCII, else a copy in C's arena. */
static const char *
define_shown(fgmc *c, const char *d)
{
    const unsigned char *p;
    char *out;

    for (p = (const unsigned char *)d; *p >= 0x20 && *p < 0x7f; p++)
        ;
    if (!*p)
        return d;
    out = arena_alloc(c, 4 * strlen(d) + 1);
    if (!out)
        return d;
    fgm_compile_quote_define(d, out);
    return out;
}

/* Reads the value TEXT of a define into *OUT: a decimal integer that
 * fits a long long (as strtoll reads one), else a decimal real (digits,
 * a point, an exponent: strtod's hex and inf are not numbers of the
 * model language), finite.  Returns NULL, or what is wrong. */
static const char *
define_value(const char *text, fgmc_num *out)
{
    const char *p = text;
    char *end;

    errno = 0;
    out->is_real = 0;
    out->i = strtoll(text, &end, 10);
    out->d = 0.0;
    if (end != text && !*end)
        return errno ? "the value is out of range" : NULL;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p || p[strspn(p, "+-.0123456789eE")] != '\0')
        return "the value must be a number (an integer or a decimal real)";
    errno = 0;
    out->is_real = 1;
    out->d = fgm_strtod_c(text, &end);
    if (end == text || *end)
        return "the value must be a number (an integer or a decimal real)";
    if (errno == ERANGE || !isfinite(out->d))
        return "the value is out of range";
    return NULL;
}

const char *
fgm_compile_check_define(const char *define)
{
    size_t len = define ? strcspn(define, "=") : 0;
    fgmc_num v;

    if (!define || define[len] != '=' || !fgm_ir_is_ident(define, len))
        return "expected NAME=VALUE";
    /* A const of that name cannot exist (symtab.c refuses it): the
     * option would only be "unknown" later. */
    _Static_assert(FGM_IR_MAXNAME == 64, "the message says 63");
    if (len >= FGM_IR_MAXNAME)
        return "NAME is too long (at most 63 bytes)";
    return define_value(define + len + 1, &v);
}

/* Parses the -D options ("NAME=VALUE", VALUE a number) into C. */
static void
parse_defines(fgmc *c)
{
    const fgm_compile_opts *o = c->opts;
    int i, n = o ? o->ndefines : 0;

    if (n <= 0 || !o->defines)
        return;
    c->define_names = arena_alloc(c, (size_t)n * sizeof *c->define_names);
    c->define_values = arena_alloc(c, (size_t)n * sizeof *c->define_values);
    c->define_texts = arena_alloc(c, (size_t)n * sizeof *c->define_texts);
    c->define_used = arena_alloc(c, (size_t)n);
    if (!c->define_names || !c->define_values || !c->define_texts
        || !c->define_used)
        return;
    for (i = 0; i < n; i++) {
        const char *d = o->defines[i];    /* not NULL: defines_missing */
        const char *why = fgm_compile_check_define(d);
        size_t len = strcspn(d, "="), k;
        char *name;
        fgmc_num v;

        if (why) {
            diag_file_error(c, "-D %s: %s", define_shown(c, d), why);
            continue;
        }
        (void)define_value(d + len + 1, &v);
        name = arena_alloc(c, len + 1);
        if (!name)
            return;
        memcpy(name, d, len);
        /* A later -D of the same name wins, as with cc. */
        for (k = 0; k < (size_t)c->ndefines; k++)
            if (strcmp(c->define_names[k], name) == 0)
                break;
        c->define_names[k] = name;
        c->define_texts[k] = define_shown(c, d);
        c->define_values[k] = v;
        if (k == (size_t)c->ndefines)
            c->ndefines++;
    }
}

/* Whether C's source ends its lines with lone carriage returns (classic
 * Mac OS), reported: a lone '\r' is blank to the lexer, so such a file
 * was one line, its first comment swallowed the rest, and the error said
 * "the model declares no variables".  Told by a '\r' before the last
 * byte in a source with no '\n'. */
static int
cr_line_ends(fgmc *c)
{
    const char *cr = memchr(c->src, '\r', (size_t)c->len);
    fgmc_loc at;

    if (!cr || cr + 1 >= c->src + c->len
        || memchr(c->src, '\n', (size_t)c->len))
        return 0;
    at.start = (int)(cr - c->src);
    at.end = at.start + 1;
    diag_error(c, at, "the lines end with bare carriage returns (classic "
               "Mac OS); a model's lines end with LF or CRLF");
    return 1;
}

/* Compiles SRC (LEN bytes, NUL-terminated) named FILE in messages, in
 * the C locale (compile). */
static fgm_status
compile_c(const char *src, int len, const char *file,
          const fgm_compile_opts *opts, fgm_ir **out, fgm_diag_fn diag,
          void *ctx)
{
    fgmc *c = calloc(1, sizeof *c);
    fgm_status st = FGM_OK;

    if (!c)
        return FGM_ENOMEM;
    if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0) {
        /* A UTF-8 byte-order mark, as some editors save: skipped, and
         * columns counted after it (it was a "non-ASCII character" on a
         * line that showed none). */
        src += 3;
        len -= 3;
    }
    c->file = file;
    c->src = src;
    c->len = len;
    c->opts = opts;
    c->diag = diag;
    c->diag_ctx = ctx;
    c->max_errors = opts && opts->max_errors > 0 ? opts->max_errors
                                                 : FGMC_MAX_ERRORS;
    parse_defines(c);
    if (!c->nerrors && !c->oom && !cr_line_ends(c))
        parse_program(c);
    diag_flush(c);
    if (!c->nerrors && !c->oom) {
        fgmc_stmt *s;

        for (s = c->stmts; s && !diag_full(c) && !c->oom; s = s->next) {
            diag_hold(c);
            sema_stmt(c, s);
            expand_stmt(c, s);
            diag_release(c);
        }
        if (!diag_full(c) && !c->oom)
            sema_finish(c);
    }
    if (c->oom)
        st = FGM_ENOMEM;
    else if (c->nsyntax)
        st = FGM_EPARSE;
    else if (c->nerrors)
        st = FGM_ESEMA;
    else
        st = lower_program(c, out);
    if (st == FGM_ENOMEM)
        diag_file_error(c, "out of memory");
    diag_flush(c);
    diag_free(c);
    free(c->scope);
    free(c->scope_src);
    free(c->scope_coef);
    free(c->varrays);
    free(c->mark);
    free(c->fixed);
    arena_free(&c->arena);
    free(c);
    return st;
}

/* compile_c with numbers read and written with a decimal point whatever
 * the caller's locale (fgm_c_locale_begin). */
static fgm_status
compile(const char *src, int len, const char *file,
        const fgm_compile_opts *opts, fgm_ir **out, fgm_diag_fn diag,
        void *ctx)
{
    fgm_c_locale cl;
    fgm_status st;

    fgm_c_locale_begin(&cl);
    st = compile_c(src, len, file, opts, out, diag, ctx);
    fgm_c_locale_end(&cl);
    return st;
}

/* Whether OPTS (NULL: none) lists NDEFINES defines it does not have:
 * DEFINES NULL, or a NULL among them (a caller's bug, as a NULL
 * argument, not a model's error). */
static int
defines_missing(const fgm_compile_opts *opts)
{
    int i;

    if (!opts || opts->ndefines <= 0)
        return 0;
    if (!opts->defines)
        return 1;
    for (i = 0; i < opts->ndefines; i++)
        if (!opts->defines[i])
            return 1;
    return 0;
}

fgm_status
fgm_compile_string(const char *text, const char *name,
                   const fgm_compile_opts *opts, fgm_ir **out,
                   fgm_diag_fn diag, void *ctx)
{
    size_t len;

    if (!out)
        return FGM_EINVAL;
    *out = NULL;
    if (!text || defines_missing(opts))
        return FGM_EINVAL;
    len = strlen(text);
    if (len > (size_t)FGMC_MAX_INPUT) {
        fgm_diagf(diag, ctx, "%s: error: model text too large (more than "
                  "%ld bytes)", name ? name : "<string>", FGMC_MAX_INPUT);
        return FGM_EINVAL;
    }
    return compile(text, (int)len, name ? name : "<string>", opts, out, diag,
                   ctx);
}

/* Reads PATH whole into a NUL-terminated buffer.  Returns FGM_OK, or
 * FGM_EIO / FGM_ENOMEM after reporting. */
static fgm_status
read_file(const char *path, char **text, long *len, fgm_diag_fn diag,
          void *ctx)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL, *p;
    long n = 0, cap = 0;
    size_t got;

    if (!f) {
        fgm_diagf(diag, ctx, "%s: error: cannot open: %s", path,
                  strerror(errno));
        return FGM_EIO;
    }
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            p = realloc(buf, (size_t)cap);
            if (!p) {
                free(buf);
                fclose(f);
                fgm_diagf(diag, ctx, "%s: error: out of memory", path);
                return FGM_ENOMEM;
            }
            buf = p;
        }
        got = fread(buf + n, 1, (size_t)(cap - n - 1), f);
        n += (long)got;
        if (n > FGMC_MAX_INPUT) {
            free(buf);
            fclose(f);
            fgm_diagf(diag, ctx, "%s: error: model file too large (more "
                      "than %ld bytes)", path, FGMC_MAX_INPUT);
            return FGM_EIO;
        }
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        int e = errno;

        free(buf);
        fclose(f);
        fgm_diagf(diag, ctx, "%s: error: cannot read: %s", path,
                  strerror(e));
        return FGM_EIO;
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return FGM_OK;
}

fgm_status
fgm_compile_file(const char *path, const fgm_compile_opts *opts,
                 fgm_ir **out, fgm_diag_fn diag, void *ctx)
{
    char *text;
    long len;
    fgm_status st;

    if (!out)
        return FGM_EINVAL;
    *out = NULL;
    if (!path || defines_missing(opts))
        return FGM_EINVAL;
    st = read_file(path, &text, &len, diag, ctx);
    if (st != FGM_OK)
        return st;
    st = compile(text, (int)len, path, opts, out, diag, ctx);
    free(text);
    /* Not when the path was cut to fit the IR's source: that names
     * another file, or none. */
    if (*out)
        (*out)->source_is_file = strlen(path) < sizeof (*out)->source;
    return st;
}
