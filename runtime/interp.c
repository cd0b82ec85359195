/* runtime/interp.c: the schedule interpreter (reset, sweep, finish).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Walks the schedule tables factor by factor and calls the kernels of
 * runtime/kernels.h with the sizes read from the tables at run time.  The
 * generated code does the same walk with the tables and sizes baked in
 * (and pairs of independent neq updates overlapped, fgm_k_neq_group, which
 * computes the same numbers; the seed's flooding neq updates go in
 * batches of four, here and in a plugin whose domains have one size):
 * that, and the plugin's -march=native, is the
 * whole difference between the two backends.  (A two-variable table takes
 * the pairwise kernel here, fgm_k_table2, and in a plugin's runs of
 * pairwise tables only; in a run mixing arities the plugin calls the
 * general one, whose bits it equals: tests/table_paths.c.)
 */
#include "interp.h"

void
fgm_interp_reset(const fgm_sched *s, fgm_state *st)
{
    if (s->infer.algo == FGM_ALGO_GIBBS) {
        fgm_k_gibbs_reset(st, &s->gibbs);
        return;
    }
    fgm_k_reset(st, s->nvars, s->nedges, s->ndirichlet, s->ndirfactors,
                s->edge_var, s->card, 0, s->stride);
    if (s->infer.algo == FGM_ALGO_VMP)
        fgm_k_vmp_reset(st, &s->gibbs);
}

/* The update of gated Dirichlet factor F.  Out of line: inlined, it
 * grew update() until GCC's -Wmaybe-uninitialized misfired on the
 * vectors of fgm_k_dirichlet, inlined beside it. */
static __attribute__((noinline)) double
update_gated(const fgm_sched *s, fgm_state *st, const fgm_sched_factor *f)
{
    return fgm_k_dirichlet_gated(st, f->edge, s->edge_var + f->edge,
                                 f->arity, f->aux, f->dfac, s->stride,
                                 s->card, 0, s->infer.algo == FGM_ALGO_EP,
                                 s->infer.projection
                                 == FGM_PROJECTION_MEAN_SQUARE,
                                 s->infer.algo == FGM_ALGO_BP_MAX,
                                 st->scratch);
}

/* A sum factor's update, out of line as update_gated is: inlined into
 * update(), it slowed the interpreter's !=-updates 5% (bench_ep, easy50
 * x 10: 1.91 -> 2.02 ms, the models without a sum). */
static __attribute__((noinline)) double
update_sum(const fgm_sched *s, fgm_state *st, const fgm_sched_factor *f)
{
    const double *range = s->ir->param_pool + f->aux;

    return fgm_k_sum(st, f->edge, s->edge_var + f->edge, s->card, 0,
                     fgm_sched_sum_coef(s, f), f->arity, (long)range[0],
                     (long)range[1], s->stride,
                     s->infer.algo == FGM_ALGO_BP_MAX, st->scratch);
}

/* A Dirichlet draw's update, out of line as update_gated is: inlined,
 * once its mean projection had grown (fgm_k_dirichlet_mean), GCC 12's
 * -Wmaybe-uninitialized misfired on its vectors again. */
static __attribute__((noinline)) double
update_dirichlet(const fgm_sched *s, fgm_state *st,
                 const fgm_sched_factor *f)
{
    const int *vars = s->edge_var + f->edge;

    return fgm_k_dirichlet(st, f->edge, vars[0], f->aux, f->dfac, s->stride,
                           s->card[vars[0]], s->infer.algo == FGM_ALGO_EP,
                           s->infer.projection == FGM_PROJECTION_MEAN_SQUARE,
                           st->scratch);
}

/* Schedule factor I's update; returns its largest message change. */
static double
update(const fgm_sched *s, fgm_state *st, int i)
{
    const fgm_sched_factor *f = &s->factors[i];
    const int *vars = s->edge_var + f->edge;
    int j, S = s->stride, maxp = s->infer.algo == FGM_ALGO_BP_MAX;

    switch (f->op) {
    case FGM_OP_NEQ:
        return fgm_k_neq(st, f->edge, f->edge + 1, vars[0], vars[1], S,
                         s->card[vars[0]], maxp, st->scratch);
    case FGM_OP_TABLE: {
        int cards[FGM_K_TABLE_MAXARITY];

        if (f->arity == 2)
            return fgm_k_table2(st, f->edge, vars[0], vars[1],
                                s->card[vars[0]], s->card[vars[1]],
                                s->ir->param_pool + f->aux, S, maxp,
                                st->scratch);
        for (j = 0; j < f->arity; j++)
            cards[j] = s->card[vars[j]];
        return fgm_k_table(st, f->edge, vars, cards, f->arity,
                           s->ir->param_pool + f->aux, S, maxp, st->scratch);
    }
    case FGM_OP_SUM:
        return update_sum(s, st, f);
    case FGM_OP_DIRICHLET:
        return update_dirichlet(s, st, f);
    case FGM_OP_ALLDIFF:
        return fgm_k_alldiff(st, f->edge, vars, f->arity, S,
                             s->card[vars[0]], maxp, st->scratch);
    case FGM_OP_DIRICHLET_GATED:
        return update_gated(s, st, f);
    default:
        FGM_DIE("operator without an interpreter kernel");
    }
}

/* Whether schedule factor I is an x != y over variables of K values
 * whose update is the seed's flooding one (fgm_k_neq_seed). */
static int
seed_neq(const fgm_sched *s, const fgm_state *st, int i, int k)
{
    const fgm_sched_factor *f = &s->factors[i];

    return st->damp_v2f && f->op == FGM_OP_NEQ
           && s->infer.algo != FGM_ALGO_BP_MAX
           && s->card[s->edge_var[f->edge]] == k;
}

/* The seed's flooding updates of the x != y among the next factors of the
 * walk (ORDER[J..N-1], or J..N-1 with ORDER NULL) in one batch, as a
 * plugin runs them (fgm_k_neq_seed_rows); *G gets how many it took (0
 * when factor J is not such an update).  Returns their largest change. */
static double
seed_neq_rows(const fgm_sched *s, fgm_state *st, const int *order, int j,
              int n, int *g)
{
    int rows[FGM_K_NEQ_SEED_ROWS][4], i, k;
    const int *rowp[FGM_K_NEQ_SEED_ROWS];
    const fgm_sched_factor *f;

    i = order ? order[j] : j;
    k = s->card[s->edge_var[s->factors[i].edge]];
    for (*g = 0; *g < FGM_K_NEQ_SEED_ROWS && j + *g < n; ++*g) {
        i = order ? order[j + *g] : j + *g;
        if (!seed_neq(s, st, i, k))
            break;
        f = &s->factors[i];
        rows[*g][0] = f->edge;
        rows[*g][1] = s->edge_var[f->edge];
        rows[*g][2] = s->edge_var[f->edge + 1];
        rows[*g][3] = 1;
        rowp[*g] = rows[*g];
    }
    return *g ? fgm_k_neq_seed_rows(st, rowp, *g, s->stride, k) : 0.0;
}

double
fgm_interp_sweep(const fgm_sched *s, fgm_state *st)
{
    int i, g, live = st->skip_pinned && st->live;
    int n = live ? st->nlive : s->nfactors;
    double change = 0.0, c;

    if (s->infer.algo == FGM_ALGO_GIBBS)
        return fgm_k_gibbs_sweep(st, &s->gibbs);
    if (s->infer.algo == FGM_ALGO_VMP)
        return fgm_k_vmp_sweep(st, &s->gibbs);
    for (i = 0; i < n; i += g ? g : 1) {
        g = 0;
        if (st->damp_v2f)
            c = seed_neq_rows(s, st, live ? st->live : NULL, i, n, &g);
        if (!g)
            c = update(s, st, live ? st->live[i] : i);
        if (c > change)
            change = c;
    }
    if (!st->parallel)
        return change;  /* beliefs moved with every update */
    c = fgm_k_refresh(st, s->nvars, s->var_edge_off, s->var_edges, s->card,
                      0, s->stride, st->damp_v2f);
    return c > change ? c : change;
}

void
fgm_interp_finish(const fgm_sched *s, fgm_state *st)
{
    /* A plugin's finish (plugin_abi.h): every belief from its unary
     * vector and messages, or a sampler's from its tallies (mean field's
     * q(x) are its beliefs: its nodes are brought up to them). */
    if (s->infer.algo == FGM_ALGO_GIBBS) {
        fgm_k_gibbs_finish(st, &s->gibbs);
        return;
    }
    if (s->infer.algo == FGM_ALGO_VMP) {
        fgm_k_vmp_finish(st, &s->gibbs);
        return;
    }
    fgm_k_refresh(st, s->nvars, s->var_edge_off, s->var_edges, s->card, 0,
                  s->stride, 0);
}
