/* runtime/cli/cmd_run.c: `fgm run`: per-variable marginals of a model.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With --backend exact the marginals are exact: every solution is counted
 * (Dancing Links), and each value's marginal is the fraction of solutions
 * that take it.  This is the oracle approximate inference is checked
 * against, so a count stopped by --cap or --timeout-ms is reported as
 * incomplete rather than passed off as exact.
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../exact/dlx.h"
#include "../solve/run.h"

typedef enum { FMT_TEXT, FMT_CSV, FMT_JSON } out_format;

static int
usage(void)
{
    fprintf(stderr, "usage: fgm run MODEL --backend exact [--observe FILE|-] "
            "[--format text|csv|json]\n"
            "                [--cap N] [--timeout-ms T]\n");
    return CLI_EUSAGE;
}

/* Prints the marginals M of one observation (index K). */
static void
print_marginals(const fgm_csp *csp, out_format fmt, long k, long count,
                int complete, const double *m, int first)
{
    char name[128];
    int v, j;

    if (fmt == FMT_TEXT)
        printf("# observation %ld: solutions=%ld%s\n", k, count,
               complete ? "" : " (incomplete: cap or timeout reached)");
    if (fmt == FMT_JSON)
        printf("%s{\"observation\": %ld, \"solutions\": %ld, \"complete\": %s, "
               "\"marginals\": {", first ? "" : ",\n", k, count,
               complete ? "true" : "false");
    for (v = 0; v < csp->nvars; v++) {
        fgm_ir_var_name(csp->ir, v, name, sizeof name);
        if (fmt == FMT_TEXT)
            printf("%s", name);
        else if (fmt == FMT_JSON)
            printf("%s\"%s\": [", v ? ", " : "", name);
        for (j = 0; j < csp->card[v]; j++) {
            double p = m[(size_t)v * (size_t)csp->maxcard + (size_t)j];

            if (fmt == FMT_TEXT)
                printf(" %.6g", p);
            else if (fmt == FMT_JSON)
                printf("%s%.17g", j ? ", " : "", p);
            else
                printf("%ld,%s,%d,%.17g,%ld,%d\n", k, name,
                       csp->ir->arrays[csp->ir->var_array[v]].lo + j, p,
                       count, complete);
        }
        if (fmt == FMT_TEXT)
            putchar('\n');
        else if (fmt == FMT_JSON)
            putchar(']');
    }
    if (fmt == FMT_JSON)
        printf("}}");
}

int
cmd_run(cli_args *a)
{
    const char *model = NULL, *backend = "auto", *observe = NULL, *val;
    const char *format = "text";
    out_format fmt;
    long cap = 1000000, k = 0;
    double timeout = 0;
    int r, code = CLI_OK, n, box;
    fgm_puzzle_reader *rd = NULL;
    fgm_ir *ir;
    fgm_csp *csp = NULL;
    fgm_dlx *dlx = NULL;
    fgm_status st;
    double *m = NULL;
    int *given = NULL;

    while (a->i < a->argc) {
        if ((r = cli_opt_value(a, "--backend", &val)) != 0) {
            if (r < 0)
                return usage();
            backend = val;
        } else if ((r = cli_opt_value(a, "--observe", &val)) != 0) {
            if (r < 0)
                return usage();
            observe = val;
        } else if ((r = cli_opt_value(a, "--format", &val)) != 0) {
            if (r < 0)
                return usage();
            format = val;
        } else if ((r = cli_opt_value(a, "--cap", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "--cap", val, 1,
                                         1000000000000L, &cap))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--timeout-ms", &val)) != 0) {
            if (r < 0 || !cli_parse_double("run", "--timeout-ms", val, 0,
                                           &timeout))
                return CLI_EUSAGE;
        } else if (a->argv[a->i][0] == '-' && a->argv[a->i][1] != '\0') {
            cli_fail(CLI_EUSAGE, "run: unknown option '%s'", a->argv[a->i]);
            return usage();
        } else if (!model) {
            model = a->argv[a->i++];
        } else {
            return usage();
        }
    }
    if (!model)
        return usage();
    if (strcmp(format, "text") == 0)
        fmt = FMT_TEXT;
    else if (strcmp(format, "csv") == 0)
        fmt = FMT_CSV;
    else if (strcmp(format, "json") == 0)
        fmt = FMT_JSON;
    else
        return cli_fail(CLI_EUSAGE, "run: unknown format '%s' (text, csv, "
                        "json)", format);
    if (strcmp(backend, "exact") != 0)
        return cli_fail(CLI_EUSAGE, "run: backend '%s' needs the EP/BP "
                        "engine, which this build does not have yet; use "
                        "--backend exact", backend);
    ir = cli_model_open(model, &n, &box, &code);
    if (!ir)
        return code;
    code = CLI_OK;
    csp = fgm_csp_new(ir, &st);
    if (csp)
        dlx = fgm_dlx_new(csp, &st);
    if (!dlx) {
        code = cli_fail(cli_exit_code(st), "run: %s: %s", model,
                        st == FGM_EUNSUPPORTED && csp
                        ? fgm_dlx_refuses(csp) : fgm_strerror(st));
        goto done;
    }
    m = malloc((size_t)csp->nvars * (size_t)csp->maxcard * sizeof *m);
    given = malloc((size_t)csp->nvars * sizeof *given);
    if (!m || !given) {
        code = cli_fail(CLI_EINTERNAL, "run: out of memory");
        goto done;
    }
    if (observe) {
        rd = fgm_puzzle_reader_open(observe, n, box, cli_diag, NULL);
        if (!rd) {
            code = CLI_EINPUT;
            goto done;
        }
    }
    if (fmt == FMT_CSV)
        printf("observation,variable,value,p,solutions,complete\n");
    if (fmt == FMT_JSON)
        printf("[");
    for (k = 0;; k++) {
        fgm_dlx_limits lim = { cap, 0, 0 };
        fgm_puzzle p;
        long count = 0;
        int v;

        if (rd) {
            st = fgm_puzzle_read(rd, &p);
            if (st == FGM_EIO)
                break;
            if (st != FGM_OK) {
                code = cli_exit_code(st);
                break;
            }
            fgm_puzzle_to_given(&p, given);
        } else {
            if (k > 0)
                break;
            for (v = 0; v < csp->nvars; v++)
                given[v] = -1;
        }
        lim.deadline = timeout > 0 ? fgm_now() + timeout * 1e-3 : 0;
        st = fgm_dlx_run(dlx, given, &lim, &count, m, NULL, NULL);
        if (st != FGM_OK && st != FGM_ETIMEOUT) {
            code = cli_fail(cli_exit_code(st), "run: %s", fgm_strerror(st));
            break;
        }
        print_marginals(csp, fmt, k, count,
                        st == FGM_OK && count < cap, m, k == 0);
    }
    if (fmt == FMT_JSON)
        printf("]\n");
done:
    free(m);
    free(given);
    fgm_puzzle_reader_close(rd);
    fgm_dlx_free(dlx);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
    return code;
}
