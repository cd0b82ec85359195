/* compiler/codegen_byvar.c: the part of a plugin that visits variables:
 * the sampler's of a gibbs plugin, mean field's of a vmp plugin.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A vmp plugin walks the same graph as a gibbs plugin, variable by
 * variable, with runtime/ops/vmp.h's kernel instead of the sampler's.
 * A gibbs plugin bakes the tables the interpreter's sampler reads from
 * the schedule (fgm_sched.gibbs: each edge's factor, each factor's
 * operator, arity, first edge and aux, the tables' potentials) into one
 * static const fgm_k_gibbs_graph, and its reset, sweep and finish call
 * runtime/ops/gibbs.h with it: the same draws in the same order as the
 * interpreter, so the same samples and the same bits.  The plugin gains
 * what the constant graph lets the C compiler fold (the domain size):
 * 1.5-1.9x on models/chain.fgm, 1.04x on the casino, whose time goes to
 * the urn weights and the generator (fgm bench --model, 2026-12-06).
 *
 * requires: a gibbs or vmp schedule (fgm_sched_new), the shared tables
 * already written (codegen.c); produces: C text; breaks: nothing.
 */
#include <stdio.h>
#include "codegen.h"

/* The IR's parameter pool (the tables' potentials sit in it at their
 * factors' aux offsets), six to a line, exactly (%.17g). */
static void
pool_table(FILE *f, const fgm_ir *ir)
{
    int j;

    fprintf(f, "/* the tables' potentials (with the priors' parameters: "
            "the IR's pool) */\nstatic const double pool[%d] = {",
            ir->nparam > 0 ? ir->nparam : 1);
    for (j = 0; j < ir->nparam; j++)
        fprintf(f, "%s%.17g,", j % 6 == 0 ? "\n    " : " ",
                ir->param_pool[j]);
    if (ir->nparam == 0)
        fprintf(f, " 0");
    fprintf(f, "\n};\n\n");
}

void
fgm_codegen_by_variable(FILE *f, const fgm_sched *s)
{
    const char *kernel = s->infer.algo == FGM_ALGO_VMP ? "vmp" : "gibbs";

    fgm_codegen_int_table(f, "edge_factor", "the factor of each edge",
                          s->edge_factor, s->nedges);
    fgm_codegen_int_table(f, "fac", "each factor: operator (ops/gibbs.h), "
                          "arity, first edge, aux", s->gibbs_fac,
                          s->nfactors * FGM_K_GIBBS_FAC);
    pool_table(f, s->ir);
    fprintf(f, "static const fgm_k_gibbs_graph graph = {\n"
            "    NVARS, %d, S, %d, %d, %s, var_edge_off, var_edges,\n"
            "    edge_var, edge_factor, fac, pool\n};\n\n", s->nfactors,
            s->uniform_card, s->ndirichlet, s->uniform_card ? "0" : "card");
    if (s->infer.algo == FGM_ALGO_VMP) {
        /* Mean field starts from the unary vectors, as message passing
         * does (fgm_k_reset), then puts the nodes at their priors. */
        fprintf(f, "static void\nreset(fgm_state *st)\n{\n"
                "    fgm_k_reset(st, NVARS, NEDGES, %d, %d, edge_var, %s, "
                "K, S);\n    fgm_k_vmp_reset(st, &graph);\n}\n\n",
                s->ndirichlet, s->ndirfactors,
                s->uniform_card ? "0" : "card");
    } else {
        fprintf(f, "static void\nreset(fgm_state *st)\n{\n"
                "    fgm_k_%s_reset(st, &graph);\n}\n\n", kernel);
    }
    fprintf(f, "static double\nsweep(fgm_state *st)\n{\n"
            "    return fgm_k_%s_sweep(st, &graph);\n"
            "}   /* end sweep */\n\n", kernel);
    fprintf(f, "static void\nfinish(fgm_state *st)\n{\n"
            "    fgm_k_%s_finish(st, &graph);\n}\n\n", kernel);
}
