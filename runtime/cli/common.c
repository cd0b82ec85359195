/* runtime/cli/common.c: option parsing, model specs, messages, atomic files.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

/* Whether MSG starts with a location ("file:line:col: error: ..."): its
 * first ": " is the one before "error: " or "warning: ".  A reason that
 * only quotes one (a C compiler's "cc1: error: ...") is not located. */
static int
located(const char *msg)
{
    const char *s = strstr(msg, ": ");

    return s && (strncmp(s + 2, "error: ", 7) == 0
                 || strncmp(s + 2, "warning: ", 9) == 0);
}

/* MSG to TO as cli_diag says it. */
static void
say(FILE *to, const char *msg)
{
    /* Messages that start with a location already name their file. */
    if (located(msg))
        fprintf(to, "%s\n", msg);
    else
        fprintf(to, "fgm: %s\n", msg);
}

void
cli_diag(void *ctx, const char *msg)
{
    (void)ctx;
    say(stderr, msg);
}

/* cli_fail to TO. */
static int
vfail(FILE *to, int code, const char *fmt, va_list ap)
{
    char buf[2048], *big = NULL;
    va_list again;
    int n;

    va_copy(again, ap);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    /* As fgm_diagf: a long path must not cut off the reason after it. */
    if (n >= (int)sizeof buf && (big = malloc((size_t)n + 1)) != NULL)
        vsnprintf(big, (size_t)n + 1, fmt, again);
    va_end(again);
    say(to, big ? big : buf);
    free(big);
    return code;
}

int
cli_fail(int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    code = vfail(stderr, code, fmt, ap);
    va_end(ap);
    return code;
}

int
cli_fail_to(FILE *err, int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    code = vfail(err, code, fmt, ap);
    va_end(ap);
    return code;
}

int
cli_exit_code(fgm_status st)
{
    switch (st) {
    case FGM_OK:
        return CLI_OK;
    case FGM_EINTERNAL:
    case FGM_ENOMEM:
        return CLI_EINTERNAL;
    default:
        return CLI_EINPUT;
    }
}

int
cli_finish_stdout(const char *cmd, int code)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_fail(CLI_EINPUT, "%s: write error on standard output: %s",
                        cmd, strerror(errno));
    return code;
}

int
cli_stdout_open(const char *cmd)
{
    int fl = fcntl(STDOUT_FILENO, F_GETFL);

    if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY)
        return 1;
    cli_fail(CLI_EINPUT, "%s: write error on standard output: %s", cmd,
             strerror(fl < 0 ? errno : EBADF));
    return 0;
}

int
cli_output_ok(const char *path)
{
    return fgm_write_atomic_check(path, cli_diag, NULL) == FGM_OK;
}

/* Stats the folder PATH is in into *ST; returns PATH's last name, or
 * NULL when the folder cannot be stat'ed (or memory runs out). */
static const char *
folder_stat(const char *path, struct stat *st)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    int ok;

    if (!slash)
        return stat(".", st) == 0 ? path : NULL;
    /* "/x": the folder is the root. */
    dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
    ok = dir && stat(dir, st) == 0;
    free(dir);
    return ok ? slash + 1 : NULL;
}

int
cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    const char *na, *nb;
    int has_a = stat(a, &sa) == 0, has_b = stat(b, &sb) == 0;

    if (strcmp(a, b) == 0)
        return 1;
    if (has_a && has_b)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (has_a || has_b)
        return 0;       /* one file there, the other not: two names */
    na = folder_stat(a, &sa);
    nb = folder_stat(b, &sb);
    return na && nb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
           && strcmp(na, nb) == 0;
}

int
cli_end_of_options(cli_args *a)
{
    if (a->operands || strcmp(a->argv[a->i], "--") != 0)
        return 0;
    a->operands = 1;
    a->i++;
    return 1;
}

int
cli_unknown_option(const cli_args *a)
{
    const char *arg = a->argv[a->i];

    return !a->operands && arg[0] == '-' && arg[1] != '\0';
}

int
cli_opt_value(cli_args *a, const char *name, const char **val)
{
    const char *arg = a->argv[a->i];
    size_t len = strlen(name);

    if (a->operands || strncmp(arg, name, len) != 0)
        return 0;
    if (arg[len] == '=') {
        *val = arg + len + 1;
        a->i++;
        return 1;
    }
    /* Short options glue their value: -j4. */
    if (arg[len] != '\0') {
        if (name[1] == '-')
            return 0;
        *val = arg + len;
        a->i++;
        return 1;
    }
    if (a->i + 1 >= a->argc) {
        cli_fail(CLI_EUSAGE, "%s: option %s needs a value", a->cmd, name);
        return -1;
    }
    *val = a->argv[a->i + 1];
    a->i += 2;
    return 1;
}

int
cli_opt_flag(cli_args *a, const char *name)
{
    if (a->operands || strcmp(a->argv[a->i], name) != 0)
        return 0;
    a->i++;
    return 1;
}

int
cli_parse_long(const char *cmd, const char *name, const char *s, long lo,
               long hi, long *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        cli_fail(CLI_EUSAGE, "%s: %s wants an integer in %ld..%ld, not '%s'",
                 cmd, name, lo, hi, s);
        return 0;
    }
    *out = v;
    return 1;
}

int
cli_parse_double(const char *cmd, const char *name, const char *s, double lo,
                 double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    /* Underflow (1e-400) is a number, not an error; overflow is not.
     * One that rounds to 0 becomes the smallest double of its sign, so
     * that it keeps its side of 0: --timeout-ms 1e-400 is a deadline
     * already passed, not 0, "no timeout". */
    if (errno == ERANGE && fabs(v) <= DBL_MIN) {
        errno = 0;
        if (v == 0.0)
            v = s[strspn(s, " \t\n\v\f\r")] == '-' ? -DBL_TRUE_MIN
                                                   : DBL_TRUE_MIN;
    }
    /* Decimal only, as every integer option is read: strtod also takes
     * "0x10" (16) and "infinity". */
    if (errno || end == s || *end || !(v >= lo) || isinf(v)
        || strpbrk(s, "xXpP")) {
        if (cmd)    /* NULL: the caller says it */
            cli_fail(CLI_EUSAGE, "%s: %s wants a number >= %g, not '%s'",
                     cmd, name, lo, s);
        return 0;
    }
    *out = v;
    return 1;
}

int
cli_check_name(const char *cmd, const char *name, const char *s,
               const char *what)
{
    if (*s)
        return 1;
    cli_fail(CLI_EUSAGE, "%s: %s wants a %s name, not an empty one", cmd,
             name, what);
    return 0;
}

void
cli_missing(const cli_args *a, const char *what)
{
    if (a->argc > a->first)
        cli_fail(CLI_EUSAGE, "%s: no %s", a->cmd, what);
}

/* X as the shortest %g text (up to 17 digits) that reads back as X, into
 * OUT (SIZE bytes, at least 32): one value, one plugin name.  The
 * exponent without '+' or leading zeros (1e3, 1e-7), and ".0" after a
 * whole number with no exponent: a real const differs from the integer
 * (J / 4 divides otherwise), so -D J=2.0 and -D J=2 are two models,
 * which were one plugin name, each rebuilding the other's. */
static void
real_text(double x, char *out, size_t size)
{
    char *e, *d;
    int prec;

    for (prec = 1; prec <= 17; prec++) {
        snprintf(out, size, "%.*g", prec, x);
        if (strtod(out, NULL) == x)
            break;
    }
    if ((e = strchr(out, 'e')) != NULL) {
        d = e + 1;
        if (*d == '+' || *d == '-')
            d += *d == '-';
        memmove(e + 1 + (e[1] == '-'), d + (*d == '+'),
                strlen(d + (*d == '+')) + 1);
        for (d = e + 1 + (e[1] == '-'); d[0] == '0' && d[1]; )
            memmove(d, d + 1, strlen(d));
    } else if (!strchr(out, '.') && strlen(out) + 3 <= size) {
        strcat(out, ".0");
    }
}

int
cli_add_define(const char *cmd, const char **defs, int *n, const char *d)
{
    const char *why = fgm_compile_check_define(d);
    char *shown;

    if (*n == CLI_MAXDEFINES) {
        cli_fail(CLI_EUSAGE, "%s: too many -D", cmd);
        return 0;
    }
    if (!why) {
        size_t len = strcspn(d, "=");
        int i;

        /* The later of two values wins, as with cc's -D; like cc, it
         * is said (-D N=3 -D N=4 ran N = 4 with no word): against the
         * value in force, and not for the same text again. */
        for (i = *n - 1; i >= 0; i--)
            if (strncmp(defs[i], d, len) == 0 && defs[i][len] == '=') {
                if (strcmp(defs[i], d) != 0)
                    fprintf(stderr, "fgm: %s: warning: -D %s overrides -D "
                            "%s\n", cmd, d, defs[i]);
                break;
            }
        defs[(*n)++] = d;
        return 1;
    }
    shown = malloc(4 * strlen(d) + 1);
    if (shown)
        fgm_compile_quote_define(d, shown);
    cli_fail(CLI_EUSAGE, "%s: -D %s: %s", cmd, shown ? shown : d, why);
    free(shown);
    return 0;
}

int
cli_no_grid(const char *where, const char *model)
{
    return cli_fail(CLI_EINPUT, "%s%s has no square 2-D var array starting "
                    "at its first variable to put puzzles on", where, model);
}

int
cli_grid_values(const char *where, const char *model, const fgm_ir *ir,
                int n)
{
    fgm_array_info ai;

    if (fgm_ir_array_info(ir, fgm_ir_var_array(ir, 0), &ai) != FGM_OK)
        return cli_no_grid(where, model);
    if (ai.lo == 1 && ai.card == n)
        return CLI_OK;
    return cli_fail(CLI_EINPUT, "%s%s: its grid %s takes the values %d..%d; "
                    "a %dx%d puzzle's symbols stand for 1..%d", where, model,
                    ai.name, ai.lo, ai.lo + ai.card - 1, n, n, n);
}

int
cli_is_model_file(const char *spec)
{
    size_t len = strlen(spec);
    struct stat sb;

    if (len > 4 && strcmp(spec + len - 4, ".fgm") == 0)
        return 1;
    /* A file of another name (hmm.model) is a model file too; the
     * built-in forms are never read as files. */
    return strncmp(spec, "sudoku:", 7) != 0 && strncmp(spec, "latin:", 6) != 0
           && stat(spec, &sb) == 0 && !S_ISDIR(sb.st_mode);
}

/* Whether a define after DEFINES[K] sets the same name. */
static int
overridden(const char *const *defines, int ndefines, long k)
{
    size_t len = strcspn(defines[k], "=");
    long j;

    for (j = k + 1; j < ndefines; j++)
        if (strcspn(defines[j], "=") == len
            && strncmp(defines[j], defines[k], len) == 0)
            return 1;
    return 0;
}

/* strcmp of two NAME=VALUE defines' names. */
static int
define_cmp(const char *a, const char *b)
{
    size_t la = strcspn(a, "="), lb = strcspn(b, "=");
    int c = strncmp(a, b, la < lb ? la : lb);

    return c ? c : la < lb ? -1 : la > lb;
}

/* Appends define D's suffix to NAME at *M (room for 2 strlen(D) + 36
 * bytes): "_", the const's name with its underscores doubled, a "_"
 * before the value where the name ends in a digit or underscore or the
 * value is negative (-D A1=1 and -D A=11 were both A11, and An=1 and
 * A=-1 both An1: one plugin file, each run rebuilding the other's), and
 * the value as the number it is: an integer as itself, a real as the
 * shortest text that reads back as it, '-' written 'n', '.' 'p' (W=1.50
 * is W1p5; D was checked as NAME=NUMBER by cli_add_define). */
static void
append_define(char *name, size_t *m, const char *d)
{
    size_t len = strcspn(d, "=");
    const char *text = d + len + 1, *c;
    char value[32], *end;
    long long iv = strtoll(text, &end, 10);

    if (end != text && !*end)
        snprintf(value, sizeof value, "%lld", iv);
    else
        real_text(strtod(text, NULL), value, sizeof value);
    name[(*m)++] = '_';
    for (c = d; c < d + len; c++)
        if (isalnum((unsigned char)*c) || *c == '_') {
            name[(*m)++] = *c;
            if (*c == '_')
                name[(*m)++] = '_';
        }
    if (isdigit((unsigned char)d[len - 1]) || d[len - 1] == '_'
        || value[0] == '-')
        name[(*m)++] = '_';
    for (c = value; *c; c++)
        if (*c != '+')
            name[(*m)++] = *c == '-' ? 'n' : *c == '.' ? 'p' : *c;
    name[*m] = '\0';
}

/* Names IR after its defines KEPT (N of them, in the names' order):
 * its name and each one's suffix (append_define).  A name too long for a
 * model's (FGM_IR_MAXNAME) keeps its first 40 bytes and ends in "_h"
 * and 16 hex digits of the whole name's FNV-1a hash: variants with long
 * const names still get plugins of their own (the name was cut, and
 * each such variant rebuilt the others' plugin).  Returns 0 when out of
 * memory. */
static int
variant_name(fgm_ir *ir, const char *const *kept, int n)
{
    size_t size = strlen(fgm_ir_name(ir)) + 1, m;
    unsigned long long h = 14695981039346656037ull;
    char *name;
    int i;

    for (i = 0; i < n; i++)
        size += 2 * strlen(kept[i]) + 36;
    if (!(name = malloc(size)))
        return 0;
    m = strlen(fgm_ir_name(ir));
    memcpy(name, fgm_ir_name(ir), m + 1);
    for (i = 0; i < n; i++)
        append_define(name, &m, kept[i]);
    if (m >= FGM_IR_MAXNAME) {
        for (i = 0; name[i]; i++)
            h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
        snprintf(name + 40, size - 40, "_h%016llx", h);
    }
    fgm_ir_set_name(ir, name);
    free(name);
    return 1;
}

/* IR, compiled with the NDEFINES DEFINES: named for them, its grid's
 * side and box into *N and *BOX.  NULL after a message (IR freed) when
 * out of memory. */
static fgm_ir *
model_variant(const char *cmd, fgm_ir *ir, const char *const *defines,
              int ndefines, int *n, int *box, int *code)
{
    const char *kept[CLI_MAXDEFINES];
    int nkept = 0, i, j;
    long k;

    /* Each -D variant gets its own plugin file (sudoku_B4.ep.so), so
     * the 4x4, 9x9 and 16x16 plugins do not replace each other.  A
     * minus sign is kept as 'n' (O=-1 gives off_O_n1): dropped, -1
     * and 1 shared one file and each run rebuilt the other's
     * plugin.  A -D that a later one of the same name overrides (the
     * later wins, as with cc) adds nothing: -D B=2 -D B=3 is the B=3
     * plugin.  The suffixes go in the names' order, each value as
     * the integer it is, so that the name and the IR hash say what
     * the model is, not how the options were written (-D A=2 -D C=3
     * and -D C=3 -D A=2, or B=3 and B=03, were two plugins).  A name
     * too long for a model's is cut and ends in a hash of the whole
     * (variant_name). */
    for (k = 0; k < ndefines && nkept < CLI_MAXDEFINES; k++)
        if (!overridden(defines, ndefines, k))
            kept[nkept++] = defines[k];
    for (i = 1; i < nkept; i++)     /* a few: insertion sort */
        for (j = i; j > 0 && define_cmp(kept[j - 1], kept[j]) > 0; j--) {
            const char *t = kept[j];

            kept[j] = kept[j - 1];
            kept[j - 1] = t;
        }
    if (nkept > 0 && !variant_name(ir, kept, nkept)) {
        fgm_ir_free(ir);
        *code = cli_fail(CLI_EINTERNAL, "%s: out of memory", cmd);
        return NULL;
    }
    fgm_ir_grid(ir, n, box);
    return ir;
}

fgm_ir *
cli_model_open(const char *cmd, const char *spec,
               const char *const *defines, int ndefines, int *n, int *box,
               int *code)
{
    fgm_ir *ir = NULL;
    long k;

    *code = CLI_EINPUT;
    if (cli_is_model_file(spec)) {
        fgm_compile_opts opts = { defines, ndefines, 0 };
        fgm_status st = fgm_compile_file(spec, &opts, &ir, cli_diag, NULL);

        if (st != FGM_OK) {
            *code = cli_exit_code(st);
            return NULL;
        }
        return model_variant(cmd, ir, defines, ndefines, n, box, code);
    }
    if (ndefines > 0) {
        cli_fail(CLI_EUSAGE, "%s: -D %s: only .fgm models have consts to "
                 "set", cmd, defines[0]);
        *code = CLI_EUSAGE;
        return NULL;
    }
    if (strncmp(spec, "sudoku:", 7) == 0) {
        if (!cli_parse_long(cmd, "sudoku:B", spec + 7, 2, 5, &k)) {
            *code = CLI_EUSAGE;
            return NULL;
        }
        ir = fgm_ir_sudoku((int)k);
        *n = (int)(k * k);
        *box = (int)k;
    } else if (strncmp(spec, "latin:", 6) == 0) {
        if (!cli_parse_long(cmd, "latin:N", spec + 6, 2,
                            FGM_PUZZLE_MAXN, &k)) {
            *code = CLI_EUSAGE;
            return NULL;
        }
        ir = fgm_ir_latin((int)k);
        *n = (int)k;
        *box = 0;
    } else {
        cli_fail(CLI_EUSAGE, "%s: unknown model '%s' (want MODEL.fgm, "
                 "sudoku:B or latin:N)", cmd, spec);
        *code = CLI_EUSAGE;
        return NULL;
    }
    if (!ir)
        cli_fail(CLI_EINTERNAL, "%s: out of memory building model %s", cmd,
                 spec);
    return ir;
}

int
cli_default_model_readable(void)
{
    return access(CLI_DEFAULT_MODEL, R_OK) == 0;
}

fgm_ir *
cli_default_model(const char *cmd, int box, int *n, int *nbox, int *code)
{
    char def[32];
    const char *defv[1] = { def };
    fgm_compile_opts opts = { defv, 1, 0 };
    fgm_ir *ir = NULL;
    fgm_status st;

    *code = 0;
    snprintf(def, sizeof def, "B=%d", box);
    if (cli_default_model_readable())
        return cli_model_open(cmd, CLI_DEFAULT_MODEL, defv, 1, n, nbox,
                              code);
    /* Elsewhere, the copy fgm carries (build/gen/default_model.c): the
     * same model, so the same answers and plugins in any folder (the
     * built-in sudoku:B, which has no priors, gave the random solvers
     * other draws). */
    st = fgm_compile_string(fgm_default_model_text, CLI_DEFAULT_MODEL, &opts,
                            &ir, cli_diag, NULL);
    if (st != FGM_OK) {
        *code = cli_exit_code(st);
        return NULL;
    }
    return model_variant(cmd, ir, defv, 1, n, nbox, code);
}

int
cli_algo_is(const fgm_ir *ir, const char *name)
{
    return strcmp(fgm_ir_algo(ir), name) == 0;
}

int
cli_set_algo(const char *cmd, fgm_ir *ir, const char *name)
{
    if (fgm_ir_set_algo(ir, name) != FGM_OK) {
        cli_fail(CLI_EUSAGE, "%s: unknown algorithm '%s' (" FGM_ALGO_NAMES
                 ")", cmd, name);
        return 0;
    }
    return 1;
}
