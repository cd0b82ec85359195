/* runtime/cli/cmd_bench.c: `fgm bench`: the seeds' benchmark protocol.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../bench.h"
#include "../solve/solver.h"

/* Progress on a terminal only, and only once the run has taken a second. */
typedef struct progress {
    double t0;
    int shown;
} progress;

static void
show_progress(void *ctx, const char *line)
{
    progress *p = ctx;

    if (!isatty(STDERR_FILENO))
        return;
    if (!line) {
        if (p->shown)
            fputs("\r\033[K", stderr);
        p->shown = 0;
        return;
    }
    if (fgm_now() - p->t0 < 1.0)
        return;
    fprintf(stderr, "\r\033[K%s", line);
    p->shown = 1;
}

static int
usage(void)
{
    fprintf(stderr, "usage: fgm bench [--solvers S1,S2] [--repeat R] "
            "[--timeout-ms T] [--csv FILE]\n"
            "                 [--detail FILE] [--svg FILE] PUZZLES...\n");
    return CLI_EUSAGE;
}

/* Splits the comma list S (modified in place) into *OUT. */
static int
split(char *s, const char **out, int max)
{
    int n = 0;
    char *tok, *save = NULL;

    for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (*tok && n < max)
            out[n++] = tok;
    return n;
}

int
cmd_bench(cli_args *a)
{
    const char *solvers[64], *csv = NULL, *svg = NULL, *detail = NULL;
    const char *val, **corpora;
    char *list = NULL;
    fgm_bench_opts o;
    fgm_solve_opts so;
    fgm_bench *b = NULL;
    progress prog;
    fgm_status st;
    long repeat = 3;
    int r, ncorpora = 0, code;

    corpora = calloc((size_t)a->argc, sizeof *corpora);
    if (!corpora)
        return cli_fail(CLI_EINTERNAL, "out of memory");
    fgm_bench_opts_init(&o);
    memset(&so, 0, sizeof so);
    while (a->i < a->argc) {
        if ((r = cli_opt_value(a, "--solvers", &val)) != 0) {
            if (r < 0)
                goto usage;
            free(list);
            list = strdup(val);
            if (!list)
                goto usage;
        } else if ((r = cli_opt_value(a, "--repeat", &val)) != 0) {
            if (r < 0 || !cli_parse_long("bench", "--repeat", val, 1, 100,
                                         &repeat))
                goto usage;
        } else if ((r = cli_opt_value(a, "--timeout-ms", &val)) != 0) {
            if (r < 0 || !cli_parse_double("bench", "--timeout-ms", val, 0,
                                           &o.timeout_ms))
                goto usage;
        } else if ((r = cli_opt_value(a, "--csv", &val)) != 0) {
            if (r < 0)
                goto usage;
            csv = val;
        } else if ((r = cli_opt_value(a, "--detail", &val)) != 0) {
            if (r < 0)
                goto usage;
            detail = val;
        } else if ((r = cli_opt_value(a, "--svg", &val)) != 0) {
            if (r < 0)
                goto usage;
            svg = val;
        } else if (a->argv[a->i][0] == '-' && a->argv[a->i][1] != '\0') {
            cli_fail(CLI_EUSAGE, "bench: unknown option '%s'", a->argv[a->i]);
            goto usage;
        } else {
            corpora[ncorpora++] = a->argv[a->i++];
        }
    }
    if (ncorpora == 0)
        goto usage;
    if (list) {
        o.nsolvers = split(list, solvers, (int)FGM_COUNTOF(solvers));
    } else {
        const fgm_solver *const *all = fgm_solver_list(&o.nsolvers);
        int i;

        for (i = 0; i < o.nsolvers; i++)
            solvers[i] = all[i]->name;
    }
    o.solvers = solvers;
    o.corpora = corpora;
    o.ncorpora = ncorpora;
    o.repeat = (int)repeat;
    o.solve_opts = &so;
    o.diag = cli_diag;
    prog.t0 = fgm_now();
    prog.shown = 0;
    o.progress = show_progress;
    o.progress_ctx = &prog;
    st = fgm_bench_run(&o, &b);
    code = cli_exit_code(st);
    if (st == FGM_OK) {
        fgm_bench_write_table(b, stdout);
        if (csv && fgm_bench_save(b, csv, fgm_bench_write_csv, cli_diag,
                                  NULL) != FGM_OK)
            code = CLI_EINPUT;
        if (detail && fgm_bench_save(b, detail, fgm_bench_write_detail,
                                     cli_diag, NULL) != FGM_OK)
            code = CLI_EINPUT;
        if (svg && fgm_bench_save(b, svg, fgm_bench_write_svg, cli_diag,
                                  NULL) != FGM_OK)
            code = CLI_EINPUT;
    }
    fgm_bench_free(b);
    free(list);
    free(corpora);
    return code;
usage:
    free(list);
    free(corpora);
    return usage();
}
