/* runtime/model_contradiction.c: which variable a run left no value.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * After a run, a variable is contradicted when every value of it is ruled
 * out (its unary vector, or an incoming message at its floor; for a
 * sampler, no conditional kept with a positive weight), or when point
 * masses clash on a factor whose messages would not show it (alldiff
 * sends none to a point mass; updates between pinned variables are
 * skipped).  fgm_model_find_contradiction names the first such variable.
 */
#include <stdlib.h>
#include "model.h"

/* Whether every value of V is ruled out after the last run: a zero in its
 * unary vector, or some incoming factor message at its floor there (a
 * table's, where TABLE_EDGE marks the edge, is far lower: a table message
 * of 1e-36 is strong evidence, not a zero). */
static int
all_ruled_out(const fgm_model *m, int v, const unsigned char *table_edge)
{
    const fgm_sched *s = m->sched;
    const double *u = m->st.unary + (size_t)v * (size_t)s->stride;
    int x, j, e, out;

    for (x = 0; x < s->card[v]; x++) {
        out = !(u[x] > 0.0);
        for (j = s->var_edge_off[v]; !out && j < s->var_edge_off[v + 1];
             j++) {
            e = s->var_edges[j];
            out = m->st.msg[(size_t)e * (size_t)s->stride + x]
                  <= (table_edge[e] ? FGM_K_TABLE_FLOOR : FGM_K_FLOOR);
        }
        if (!out)
            return 0;
    }
    return 1;
}

/* Whether a gibbs run kept no conditional of V with a positive weight:
 * its tally is then all zero (fgm_k_gibbs_finish gave it a uniform
 * belief).  (A sampler has no messages for all_ruled_out to read.) */
static int
no_estimate(const fgm_model *m, int v)
{
    const double *b = m->st.tally + (size_t)v * (size_t)m->sched->stride;
    int x;

    for (x = 0; x < m->sched->card[v]; x++)
        if (b[x] > 0.0)
            return 0;
    return 1;
}

/* The value of V's belief when it is a point mass (one nonzero entry),
 * else -1. */
static int
point_mass_value(const fgm_model *m, int v)
{
    const double *b = m->st.belief + (size_t)v * (size_t)m->sched->stride;
    int x, at = -1;

    for (x = 0; x < m->sched->card[v]; x++)
        if (b[x] != 0.0) {
            if (at >= 0)
                return -1;
            at = x;
        }
    return at;
}

/* The first variable of a native alldiff factor F whose point-mass belief
 * takes the value of another's, or -1.  The operator sends no message to
 * a point mass (runtime/ops/alldiff.h), so such a clash shows in no
 * message. */
static int
alldiff_clash(const fgm_model *m, const fgm_sched_factor *f)
{
    const int *vars = m->sched->edge_var + f->edge;
    int i, j, x;

    for (i = 0; i < f->arity; i++) {
        x = point_mass_value(m, vars[i]);
        for (j = i + 1; x >= 0 && j < f->arity; j++)
            if (point_mass_value(m, vars[j]) == x)
                return vars[i] < vars[j] ? vars[i] : vars[j];
    }
    return -1;
}

/* The first variable of table or sum factor F when every variable of
 * its scope has a point-mass belief and F is 0 at their values (the
 * table's entry; the sum outside its range), else -1.  Updates between
 * pinned variables are skipped (skip_pinned), so such a clash, both
 * sides of x < y observed, shows in no message. */
static int
pinned_clash(const fgm_model *m, const fgm_sched_factor *f)
{
    const int *vars = m->sched->edge_var + f->edge;
    const double *p = m->sched->ir->param_pool + f->aux;
    long at = 0, total = 0;
    int i, x;

    for (i = 0; i < f->arity; i++) {
        x = point_mass_value(m, vars[i]);
        if (x < 0)
            return -1;
        if (f->op == FGM_OP_TABLE)  /* a sum's K^n overflows a long */
            at = at * m->sched->card[vars[i]] + x;
        total += f->op == FGM_OP_SUM ? fgm_ir_sum_term(p, i, x) : 0;
    }
    if (f->op == FGM_OP_SUM)
        return fgm_ir_sum_meets(p, total) ? -1 : vars[0];
    return p[at] == 0.0 ? vars[0] : -1;
}

fgm_status
fgm_model_find_contradiction(const fgm_model *m, int *found)
{
    const fgm_sched *s = m->sched;
    unsigned char *table_edge;
    int v, f, i;

    *found = -1;
    if (!m->ran)
        return FGM_OK;
    table_edge = calloc((size_t)s->nedges + 1, 1);
    if (!table_edge)
        return FGM_ENOMEM;
    /* A sum's and a gated draw's floor is a table's (their commits,
     * runtime/ops/sum.h and dirichlet_gated.h). */
    for (f = 0; f < s->nfactors; f++)
        for (i = 0; (s->factors[f].op == FGM_OP_TABLE
                     || s->factors[f].op == FGM_OP_SUM
                     || s->factors[f].op == FGM_OP_DIRICHLET_GATED)
                    && i < s->factors[f].arity; i++)
            table_edge[s->factors[f].edge + i] = 1;
    for (v = 0; v < s->nvars && *found < 0; v++)
        if (m->sched->infer.algo == FGM_ALGO_GIBBS ? no_estimate(m, v)
            : m->sched->infer.algo == FGM_ALGO_VMP ? m->st.sample[v] < 0
            : all_ruled_out(m, v, table_edge))
            *found = v;
    free(table_edge);
    for (f = 0; f < s->nfactors; f++) {
        if (s->factors[f].op == FGM_OP_ALLDIFF)
            v = alldiff_clash(m, &s->factors[f]);
        else if (s->factors[f].op == FGM_OP_TABLE
                 || s->factors[f].op == FGM_OP_SUM)
            v = pinned_clash(m, &s->factors[f]);
        else
            continue;
        if (v >= 0 && (*found < 0 || v < *found))
            *found = v;
    }
    return FGM_OK;
}

int
fgm_model_contradiction(const fgm_model *m)
{
    int found = -1;

    /* Out of memory: none found, and the answer's warning is lost. */
    if (m)
        fgm_model_find_contradiction(m, &found);
    return found;
}
