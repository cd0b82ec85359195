/* runtime/cli/common.c: option parsing, model specs, messages, atomic files.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

void
cli_diag(void *ctx, const char *msg)
{
    (void)ctx;
    /* Messages that start with a location already name their file. */
    if (strstr(msg, ": error: ") || strstr(msg, ": warning: "))
        fprintf(stderr, "%s\n", msg);
    else
        fprintf(stderr, "fgm: %s\n", msg);
}

int
cli_fail(int code, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cli_diag(NULL, buf);
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
cli_opt_value(cli_args *a, const char *name, const char **val)
{
    const char *arg = a->argv[a->i];
    size_t len = strlen(name);

    if (strncmp(arg, name, len) != 0)
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
    if (strcmp(a->argv[a->i], name) != 0)
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
    if (errno || end == s || *end || !(v >= lo)) {
        cli_fail(CLI_EUSAGE, "%s: %s wants a number >= %g, not '%s'", cmd,
                 name, lo, s);
        return 0;
    }
    *out = v;
    return 1;
}

/* The puzzle shape of a compiled model: *N is the side of its first
 * square 2-D var array (0 when none), *BOX is B when N = B*B and 3N
 * alldiff factors lie in that array (rows, columns, boxes), else 0. */
static void
grid_shape(const fgm_ir *ir, int *n, int *box)
{
    const fgm_ir_array *a = NULL;
    int i, j, b, count = 0;

    *n = *box = 0;
    for (i = 0; i < ir->narrays && !a; i++)
        if (ir->arrays[i].kind == FGM_ARRAY_DISCRETE
            && ir->arrays[i].ndims == 2)
            a = &ir->arrays[i];
    /* Puzzles are read into variables 0 .. N*N-1 (fgm_puzzle_to_given,
     * the solvers): a grid that does not start there cannot take them. */
    if (!a || a->dims[0] != a->dims[1] || a->first != 0)
        return;
    *n = a->dims[0];
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, f);

        if (f->kind != FGM_FACTOR_ALLDIFF)
            continue;
        for (j = 0; j < f->arity; j++)
            if (s[j] < a->first || s[j] >= a->first + a->count)
                break;
        count += j == f->arity;
    }
    for (b = 2; b * b < *n; b++)
        ;
    if (b * b == *n && count == 3 * *n)
        *box = b;
}

int
cli_no_grid(const char *where, const char *model)
{
    return cli_fail(CLI_EINPUT, "%s%s has no square 2-D var array starting "
                    "at its first variable to put puzzles on", where, model);
}

fgm_ir *
cli_model_open(const char *spec, const char *const *defines, int ndefines,
               int *n, int *box, int *code)
{
    fgm_ir *ir = NULL;
    long k;
    size_t len = strlen(spec);

    *code = CLI_EINPUT;
    if (len > 4 && strcmp(spec + len - 4, ".fgm") == 0) {
        fgm_compile_opts opts = { defines, ndefines, 0 };
        fgm_status st = fgm_compile_file(spec, &opts, &ir, cli_diag, NULL);

        if (st != FGM_OK) {
            *code = cli_exit_code(st);
            return NULL;
        }
        /* Each -D variant gets its own plugin file (sudoku_B4.ep.so), so
         * the 4x4, 9x9 and 16x16 plugins do not replace each other. */
        for (k = 0; k < ndefines; k++) {
            char suffix[FGM_IR_MAXNAME];
            size_t m = 0;
            const char *d;

            suffix[m++] = '_';
            for (d = defines[k]; *d && m + 1 < sizeof suffix; d++)
                if (isalnum((unsigned char)*d))
                    suffix[m++] = *d;
            suffix[m] = '\0';
            if (strlen(ir->name) + m < sizeof ir->name)
                strcat(ir->name, suffix);
        }
        grid_shape(ir, n, box);
        return ir;
    }
    if (ndefines > 0) {
        cli_fail(CLI_EUSAGE, "-D %s: only .fgm models have consts to set",
                 defines[0]);
        *code = CLI_EUSAGE;
        return NULL;
    }
    if (strncmp(spec, "sudoku:", 7) == 0) {
        if (!cli_parse_long("model", "sudoku:B", spec + 7, 2, 5, &k)) {
            *code = CLI_EUSAGE;
            return NULL;
        }
        ir = fgm_ir_sudoku((int)k);
        *n = (int)(k * k);
        *box = (int)k;
    } else if (strncmp(spec, "latin:", 6) == 0) {
        if (!cli_parse_long("model", "latin:N", spec + 6, 2,
                            FGM_PUZZLE_MAXN, &k)) {
            *code = CLI_EUSAGE;
            return NULL;
        }
        ir = fgm_ir_latin((int)k);
        *n = (int)k;
        *box = 0;
    } else {
        cli_fail(CLI_EUSAGE, "unknown model '%s' (want MODEL.fgm, sudoku:B "
                 "or latin:N)", spec);
        *code = CLI_EUSAGE;
        return NULL;
    }
    if (!ir)
        cli_fail(CLI_EINTERNAL, "out of memory building model %s", spec);
    return ir;
}

int
cli_set_algo(const char *cmd, fgm_ir *ir, const char *name)
{
    int k = fgm_ir_algo_find(name);

    if (k < 0) {
        cli_fail(CLI_EUSAGE, "%s: unknown algorithm '%s' (ep, bp-sum, "
                 "bp-max)", cmd, name);
        return 0;
    }
    ir->infer.algo = (fgm_algo)k;
    return 1;
}
