/* runtime/ops/vmp.h: variational message passing (algorithm "vmp").
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 *
 * Mean field (J. Winn and C. M. Bishop, "Variational Message Passing",
 * JMLR 6, 2005; Infer.NET's VariationalMessagePassing): the posterior is
 * approximated by a product of one discrete q(x) a variable and one
 * Dirichlet q(p) = Dir(alpha) a node, chosen to maximize the evidence
 * lower bound (ELBO, runtime/evidence_vmp.c).  A sweep is coordinate
 * ascent on it, so the bound never falls from one sweep to the next:
 *   - each variable in turn: log q(x) = log u(x) + sum over its factors
 *     of E[log f], the expectation over the other variables' q (and, for
 *     a draw, over q(p): E[log p_x] = psi(alpha_x) - psi(sum alpha));
 *   - then every node: alpha = its prior plus the expected counts of its
 *     draws (a gated draw's weighed by the probability that its gates
 *     pick the node), and E[log p] recomputed (st->elog).
 * A point-mass node (an observed prior, a clue) learns nothing: its
 * E[log p] is the log of its prior's shares.
 *
 * Hard zeros are taken as they are: E[log f] is -inf for a value that a
 * zero of f meets with positive probability.  So `x != y` excludes every
 * value y may still take.  The updates start from q spread over every
 * value the evidence allows, so between two free variables of a `!=` or
 * an alldiff (a Sudoku) the first update leaves a variable no value at
 * all, and a table whose zeros are spread out can do the same, though a
 * point-mass q on an allowed assignment would have a finite bound (the
 * updates cannot get there from a spread start).  Such a variable is
 * marked (st->sample[v] = -1, q(x) left as it was) and the run reports
 * the contradiction.  Infer.NET's VMP refuses such factors outright.
 *
 * The belief of a variable is q(x); the posterior of a node, q(p).  The
 * kernel keeps no messages: q(x) and alpha are the state.  Arithmetic is
 * in one order, with libm's log and exp and the runtime's digamma
 * (st->digamma, GSL's gsl_sf_psi): interpreter and plugin give the same
 * bits.
 */
#ifndef FGM_OPS_VMP_H
#define FGM_OPS_VMP_H

#include <math.h>
#include "gibbs.h"

/* Most variables in the scope of a factor whose expectation vmp forms
 * position by position: a table's (FGM_K_TABLE_MAXARITY) or a gated
 * draw's (the drawn variable and its gates). */
#define FGM_K_VMP_MAXSCOPE 16

/* The row-major index of the joint values X[FROM..] of factor F's scope
 * positions FROM and on: a table's entry (FROM 0), or the offset of a
 * gated draw's node from its first (FROM 1: position 0 is the drawn
 * value, the others its gates). */
static inline long
fgm_k_vmp_row(const fgm_k_gibbs_graph *g, const int *f, const int *x,
              int from)
{
    long at = 0;
    int j;

    for (j = from; j < f[1]; j++)
        at = at * fgm_k_gibbs_card(g, g->edge_var[f[2] + j]) + x[j];
    return at;
}

/* The log of factor F at the joint values X (one a scope position):
 * a table's entry, a gated draw's E[log p] at its node and value. */
static inline double
fgm_k_vmp_logf(const fgm_state *st, const fgm_k_gibbs_graph *g, const int *f,
               const int *x)
{
    if (f[0] == FGM_K_OP_TABLE)
        return log(g->pool[f[3] + fgm_k_vmp_row(g, f, x, 0)]);
    return st->elog[(f[3] + fgm_k_vmp_row(g, f, x, 1)) * g->stride + x[0]];
}

/* Steps X (N positions, CARD values each) to the next joint value, last
 * position fastest, leaving positions below FROM and position SKIP as
 * they are.  Returns 0 after the last (X back at zeros). */
static inline int
fgm_k_vmp_next(int *x, const int *card, int n, int from, int skip)
{
    int j;

    for (j = n - 1; j >= from; j--) {
        if (j == skip)
            continue;
        if (++x[j] < card[j])
            return 1;
        x[j] = 0;
    }
    return 0;
}

/* Adds to S (K entries) E[log f] for each value of the variable at
 * position POS of table or gated-draw factor F, the expectation over the
 * other positions' q: every joint value of theirs with positive
 * probability, in row-major order.  A zero of f met with positive
 * probability makes the value's sum -inf. */
static inline void
fgm_k_vmp_expect(const fgm_state *st, const fgm_k_gibbs_graph *g,
                 const int *f, int pos, double *s, int k)
{
    double acc[FGM_K_MAXCARD], w, lf;
    int x[FGM_K_VMP_MAXSCOPE], card[FGM_K_VMP_MAXSCOPE];
    int n = f[1], j, v;

    for (j = 0; j < n; j++) {
        x[j] = 0;
        card[j] = fgm_k_gibbs_card(g, g->edge_var[f[2] + j]);
    }
    for (v = 0; v < k; v++)
        acc[v] = 0.0;
    do {
        w = 1.0;
        for (j = 0; j < n && w > 0.0; j++)
            if (j != pos)
                w *= st->belief[(long)g->edge_var[f[2] + j] * g->stride
                                + x[j]];
        for (v = 0; w > 0.0 && v < k; v++) {
            x[pos] = v;
            lf = fgm_k_vmp_logf(st, g, f, x);
            acc[v] = lf == -HUGE_VAL ? -HUGE_VAL : acc[v] + w * lf;
        }
        x[pos] = 0;
    } while (fgm_k_vmp_next(x, card, n, 0, pos));
    for (v = 0; v < k; v++)
        s[v] += acc[v];
}

/* The least and the largest weighted sum of value indices that the
 * variables of sum factor F other than position SKIP (-1: none) take
 * with positive probability under q: into *LO and *HI. */
static inline void
fgm_k_vmp_sum_support(const fgm_state *st, const fgm_k_gibbs_graph *g,
                      const int *f, int skip, long *lo, long *hi)
{
    const double *q, *coef = g->pool + f[3] + FGM_K_GIBBS_SUM_COEF;
    long a;
    int j, x, v, least, most;

    *lo = *hi = 0;
    for (j = 0; j < f[1]; j++) {
        if (j == skip)
            continue;
        v = g->edge_var[f[2] + j];
        q = st->belief + (long)v * g->stride;
        least = most = -1;
        for (x = 0; x < fgm_k_gibbs_card(g, v); x++)
            if (q[x] > 0.0) {
                least = least < 0 ? x : least;
                most = x;
            }
        a = (long)coef[j];
        *lo += fgm_k_gibbs_term_bound(a, least, most, 0);
        *hi += fgm_k_gibbs_term_bound(a, least, most, 1);
    }
}

/* Adds to S (K entries) E[log f] of sum factor F for each value of its
 * position POS: 0 where every sum the others may take with it lies in
 * the range, else -inf (a zero met with positive probability). */
static inline void
fgm_k_vmp_sum(const fgm_state *st, const fgm_k_gibbs_graph *g, const int *f,
              int pos, double *s, int k)
{
    const double *range = g->pool + f[3];
    long lo, hi, a = (long)range[FGM_K_GIBBS_SUM_COEF + pos];
    int x;

    fgm_k_vmp_sum_support(st, g, f, pos, &lo, &hi);
    for (x = 0; x < k; x++)
        if (lo + a * x < (long)range[0] || hi + a * x > (long)range[1])
            s[x] = -HUGE_VAL;
}

/* S (K entries): log q(x) of variable V, unnormalized, from its unary
 * vector and the expectations of its factors' logs. */
static inline void
fgm_k_vmp_scores(const fgm_state *st, const fgm_k_gibbs_graph *g, int v,
                 double *s, int k)
{
    const double *u = st->unary + (long)v * g->stride;
    const int *f;
    int j, i, e, pos, x;

    for (x = 0; x < k; x++)
        s[x] = log(u[x]);
    for (j = g->var_edge_off[v]; j < g->var_edge_off[v + 1]; j++) {
        e = g->var_edges[j];
        f = fgm_k_gibbs_factor(g, e);
        pos = e - f[2];
        switch (f[0]) {
        case FGM_K_OP_NEQ:
        case FGM_K_OP_ALLDIFF:
            /* E[log [x != y]] = q_y(x) log 0. */
            for (i = 0; i < f[1]; i++) {
                const double *q = st->belief
                                  + (long)g->edge_var[f[2] + i] * g->stride;

                for (x = 0; i != pos && x < k; x++)
                    if (q[x] > 0.0)
                        s[x] = -HUGE_VAL;
            }
            break;
        case FGM_K_OP_DIRICHLET:
            for (x = 0; x < k; x++)
                s[x] += st->elog[(long)f[3] * g->stride + x];
            break;
        case FGM_K_OP_SUM:
            fgm_k_vmp_sum(st, g, f, pos, s, k);
            break;
        default:        /* a table, a gated draw */
            fgm_k_vmp_expect(st, g, f, pos, s, k);
            break;
        }
    }
}

/* Variable V's update: q(x) = exp(S(x) - max S), normalized.  Returns
 * the largest change of an entry; a variable left no value keeps its q,
 * marked in st->sample (-1; else 0). */
static inline double
fgm_k_vmp_var(fgm_state *st, const fgm_k_gibbs_graph *g, int v)
{
    double s[FGM_K_MAXCARD], top = -HUGE_VAL, sum = 0.0, change = 0.0, d;
    double *q = st->belief + (long)v * g->stride;
    int x, k = fgm_k_gibbs_card(g, v);

    fgm_k_vmp_scores(st, g, v, s, k);
    for (x = 0; x < k; x++)
        top = s[x] > top ? s[x] : top;
    if (!(top > -HUGE_VAL)) {
        st->sample[v] = -1;
        return 1.0;
    }
    st->sample[v] = 0;
    for (x = 0; x < k; x++) {
        s[x] = exp(s[x] - top);
        sum += s[x];
    }
    for (x = 0; x < k; x++) {
        d = s[x] / sum;
        change = fabs(d - q[x]) > change ? fabs(d - q[x]) : change;
        q[x] = d;
    }
    return change;
}

/* Adds to EC (the nodes' rows, stride doubles each) the expected counts
 * of draw factor F: q(y) at its node, or for a gated draw at each node
 * its gates may pick, times the probability that they pick it. */
static inline void
fgm_k_vmp_counts(const fgm_state *st, const fgm_k_gibbs_graph *g,
                 const int *f, double *ec)
{
    const double *q = st->belief + (long)g->edge_var[f[2]] * g->stride;
    int x[FGM_K_VMP_MAXSCOPE], card[FGM_K_VMP_MAXSCOPE];
    int n = f[1], j, y, k = fgm_k_gibbs_card(g, g->edge_var[f[2]]);
    long at;
    double w;

    for (j = 0; j < n; j++) {
        x[j] = 0;
        card[j] = fgm_k_gibbs_card(g, g->edge_var[f[2] + j]);
    }
    do {    /* every joint value of the gates (none: once) */
        w = 1.0;
        for (j = 1; j < n; j++)
            w *= st->belief[(long)g->edge_var[f[2] + j] * g->stride + x[j]];
        at = (f[3] + fgm_k_vmp_row(g, f, x, 1)) * g->stride;
        for (y = 0; w > 0.0 && y < k; y++)
            ec[at + y] += w * q[y];
    } while (fgm_k_vmp_next(x, card, n, 1, -1));
}

/* Every node's E[log p] from its q(p): psi(alpha_x) - psi(sum alpha), or
 * for a point mass the log of its prior's shares. */
static inline void
fgm_k_vmp_elog(fgm_state *st, const fgm_k_gibbs_graph *g)
{
    int d, x;

    for (d = 0; d < g->ndirichlet; d++) {
        const double *a = st->dir_post + (long)d * g->stride;
        double *el = st->elog + (long)d * g->stride, sum = 0.0, psum;

        for (x = 0; x < g->stride; x++)
            sum += a[x];
        psum = st->dir_point[d] ? 0.0 : st->digamma(sum);
        for (x = 0; x < g->stride; x++)
            el[x] = st->dir_point[d] ? log(a[x] / sum)
                    : a[x] > 0.0 ? st->digamma(a[x]) - psum : -HUGE_VAL;
    }
}

/* Entry X of node D's new q(p): its prior A plus the expected counts C
 * (a point mass keeps its prior). */
static inline double
fgm_k_vmp_alpha(const fgm_state *st, int d, const double *a, const double *c,
                int x)
{
    return a[x] + (st->dir_point[d] ? 0.0 : c[x]);
}

/* Every node's q(p): its prior plus the expected counts of its draws
 * under the current q(x); then E[log p].  Returns the largest change of
 * a node's mean. */
static inline double
fgm_k_vmp_nodes(fgm_state *st, const fgm_k_gibbs_graph *g)
{
    long j, nd = (long)g->ndirichlet * g->stride;
    double change = 0.0, old, now, so, sn;
    int i, d, x;

    for (j = 0; j < nd; j++)
        st->gcount[j] = 0.0;
    for (i = 0; i < g->nfactors; i++) {
        const int *f = g->fac + (long)FGM_K_GIBBS_FAC * i;

        if (f[0] == FGM_K_OP_DIRICHLET || f[0] == FGM_K_OP_GATED)
            fgm_k_vmp_counts(st, g, f, st->gcount);
    }
    for (d = 0; d < g->ndirichlet; d++) {
        const double *a = st->dir_prior + (long)d * g->stride;
        const double *c = st->gcount + (long)d * g->stride;
        double *al = st->dir_post + (long)d * g->stride;

        so = sn = 0.0;
        for (x = 0; x < g->stride; x++) {
            so += al[x];
            sn += fgm_k_vmp_alpha(st, d, a, c, x);
        }
        for (x = 0; x < g->stride; x++) {
            old = so > 0.0 ? al[x] / so : 0.0;
            al[x] = fgm_k_vmp_alpha(st, d, a, c, x);
            now = sn > 0.0 ? al[x] / sn : 0.0;
            change = fabs(now - old) > change ? fabs(now - old) : change;
        }
    }
    fgm_k_vmp_elog(st, g);
    return change;
}

/* Start of a cold run, after fgm_k_reset: every q(x) its normalized
 * unary vector and every node at its prior (fgm_k_reset put them
 * there), no draws counted, no variable marked. */
static inline void
fgm_k_vmp_reset(fgm_state *st, const fgm_k_gibbs_graph *g)
{
    long j, nd = (long)g->ndirichlet * g->stride;
    int v;

    for (v = 0; v < g->nvars; v++)
        st->sample[v] = 0;
    for (j = 0; j < nd; j++)
        st->gcount[j] = 0.0;
    fgm_k_vmp_elog(st, g);
}

/* One sweep: every variable in order, then every node.  Returns the
 * largest change of a q(x) entry or a node's mean. */
static inline double
fgm_k_vmp_sweep(fgm_state *st, const fgm_k_gibbs_graph *g)
{
    double change = 0.0, c;
    int v;

    for (v = 0; v < g->nvars; v++) {
        c = fgm_k_vmp_var(st, g, v);
        change = c > change ? c : change;
    }
    c = fgm_k_vmp_nodes(st, g);
    return c > change ? c : change;
}

/* The end of a run and the start of a warm one: every node's q(p) again
 * from the current q(x) (the last sweep's, unchanged at a run's end; a
 * prior observed between runs moves it before the next sweep reads its
 * E[log p]). */
static inline void
fgm_k_vmp_finish(fgm_state *st, const fgm_k_gibbs_graph *g)
{
    fgm_k_vmp_nodes(st, g);
}

#endif /* FGM_OPS_VMP_H */
