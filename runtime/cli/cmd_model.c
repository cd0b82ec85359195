/* runtime/cli/cmd_model.c: `fgm dump`, `fgm graph` and `fgm list`.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include "cli.h"

static int
dump_usage(int graph)
{
    fprintf(stderr, "usage: fgm %s [-D NAME=VALUE]... MODEL\n",
            graph ? "graph" : "dump");
    return CLI_EUSAGE;
}

int
cmd_dump(cli_args *a, int graph)
{
    const char *defs[CLI_MAXDEFINES], *model = NULL, *val;
    fgm_ir *ir;
    fgm_status st;
    int code, n, box, r, ndefs = 0;

    while (a->i < a->argc) {
        if (cli_end_of_options(a))
            continue;
        if ((r = cli_opt_value(a, "-D", &val)) != 0) {
            if (r < 0)
                return CLI_EUSAGE;
            if (!cli_add_define(a->cmd, defs, &ndefs, val))
                return CLI_EUSAGE;
        } else if (!model && !cli_unknown_option(a)) {
            model = a->argv[a->i++];
        } else {
            if (cli_unknown_option(a))
                cli_fail(CLI_EUSAGE, "%s: unknown option '%s'", a->cmd,
                         a->argv[a->i]);
            else
                /* As compile and run: the reason before the usage. */
                cli_fail(CLI_EUSAGE, "%s: one model at a time ('%s' after "
                         "'%s')", a->cmd, a->argv[a->i], model);
            return dump_usage(graph);
        }
    }
    if (!model) {
        cli_missing(a, "model (MODEL)");
        return dump_usage(graph);
    }
    ir = cli_model_open(a->cmd, model, defs, ndefs, &n, &box, &code);
    if (!ir)
        return code;
    st = graph ? fgm_ir_graph(ir, stdout) : fgm_ir_dump(ir, stdout);
    fgm_ir_free(ir);
    if (st != FGM_OK && st != FGM_EIO)
        return cli_fail(cli_exit_code(st), "%s: %s", a->cmd,
                        fgm_strerror(st));
    /* A write error is said as every command says it. */
    return cli_finish_stdout(a->cmd, CLI_OK);
}

int
cmd_list(cli_args *a)
{
    int i;

    if (a->argc - a->i != 0) {
        fprintf(stderr, "usage: fgm list\n");
        return CLI_EUSAGE;
    }
    printf("solvers:\n");
    for (i = 0; i < fgm_solver_count(); i++) {
        const fgm_solver *s = fgm_solver_at(i);

        printf("  %-12s %s%s%s\n", fgm_solver_name(s), fgm_solver_summary(s),
               (fgm_solver_flags(s) & FGM_SOLVER_EXACT) ? " [exact]" : "",
               (fgm_solver_flags(s) & FGM_SOLVER_RESTARTS) ? " [restarts]"
                                                           : "");
    }
    printf("algorithms:\n"
           "  ep           Infer.NET's EP: exact discrete messages, Dirichlet "
           "projected\n"
           "  bp-sum       loopy sum-product belief propagation\n"
           "  bp-max       loopy max-product belief propagation\n"
           "  gibbs        Gibbs sampling, Dirichlet nodes integrated out "
           "(--seed)\n"
           "  vmp          variational message passing: mean field, a lower "
           "bound on log Z\n");
    printf("backends:\n"
           "  auto         compiled plugin when it can be had, else "
           "interpreted\n"
           "  compiled     generated C built into a plugin (never "
           "interprets)\n"
           "  interpreted  the same schedule and kernels, no plugin\n"
           "  exact        exact marginals: Dancing Links, variable "
           "elimination or enumeration\n");
    printf("models:\n"
           "  MODEL.fgm    a model file (-D NAME=VALUE sets a const)\n"
           "  sudoku:B     built-in Sudoku with box side B (2..5)\n"
           "  latin:N      built-in N x N Latin square\n");
    return cli_finish_stdout("list", CLI_OK);
}
