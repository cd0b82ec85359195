/* runtime/exact/enumerate.c: exact marginals of a small model by enumeration.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The oracle for approximate inference on models that are not exact-cover
 * problems (tables, evidence, Dirichlet priors).  Every assignment that
 * satisfies the hard constraints (neq, alldiff, clues, zero weights) is
 * visited by a backtracking search over the csp view, and weighted by
 *
 *   prod over tables of pot(x_scope) * prod over evidence of w(x_v)
 *   * prod over Dirichlet nodes of the Dirichlet-multinomial likelihood of
 *     the node's children: Gamma(A) / Gamma(A + n) prod_k Gamma(a_k + n_k)
 *     / Gamma(a_k)   (p integrated out exactly, A = sum a, n_k = counts),
 *
 * computed in the log domain (GSL's gsl_sf_lngamma; sums of logs past
 * pseudo-counts of 1000, fgm_log_rising).  The marginal of
 * x_v = k is the normalized sum of the weights of the assignments with
 * x_v = k; its max-marginal (the oracle for bp-max) their largest weight,
 * normalized over k.  Cost: the number of consistent assignments, so it
 * refuses to go past a caller-given bound.
 */
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "enumerate.h"

typedef struct walk {
    const fgm_csp *csp;
    const fgm_ir *ir;
    const int *given;
    int *assign;
    double *acc;            /* nvars * maxcard: weight sums */
    int *counts;            /* ndirichlet * kc */
    int kc;                 /* stride of counts: the largest Dirichlet K
                             * (a prior no variable draws from may have
                             * more categories than any domain) */
    int max;                /* max-marginals: the best weight per value,
                             * not the sum */
    double shift;           /* log-weights are summed as exp(lw - shift) */
    double total;
    long leaves, max_leaves;
    unsigned long nodes;    /* calls of visit, for the deadline polling */
    double deadline;        /* fgm_now() seconds, 0: none */
    int over;
} walk;

/* log(A (A + 1) ... (A + C - 1)) = log Gamma(A + C) - log Gamma(A).  The
 * difference of GSL's lngammas is off by about DBL_EPSILON A log A, so
 * past A = 1000 the factors' logs are summed instead (C counts
 * variables, so few): with a pseudo-count of 1e18 the difference gave
 * P = 0.87 for a true 3e-18 (gsl_sf_lnpoch returns 0 there). */
#define LNGAMMA_MAX_A 1e3

double
fgm_log_rising(double a, int c)
{
    double s = 0.0;
    int j;

    if (c == 0)
        return 0.0;
    if (a < LNGAMMA_MAX_A)
        return gsl_sf_lngamma(a + c) - gsl_sf_lngamma(a);
    for (j = 0; j < c; j++)
        s += log(a + j);
    return s;
}

/* Log weight of the complete assignment in W. */
static double
log_weight(walk *w)
{
    const fgm_ir *ir = w->ir;
    int i, j, k, mc = w->kc;
    double lw = 0.0;

    if (ir->ndirichlet > 0)
        memset(w->counts, 0, (size_t)ir->ndirichlet * (size_t)mc
                             * sizeof *w->counts);
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, f);
        const double *p = fgm_ir_params(ir, f);
        long pos = 0;

        switch (f->kind) {
        case FGM_FACTOR_TABLE:
            for (j = 0; j < f->arity; j++)
                pos = pos * w->csp->card[s[j]] + w->assign[s[j]];
            lw += log(p[pos]);
            break;
        case FGM_FACTOR_EVIDENCE:
            lw += log(p[w->assign[s[0]]]);
            break;
        case FGM_FACTOR_DIRICHLET_DISCRETE:
            w->counts[f->aux * mc + w->assign[s[0]]]++;
            break;
        default:
            break;
        }
    }
    for (i = 0; i < ir->ndirichlet; i++) {
        const fgm_ir_array *a = &ir->arrays[ir->dir_array[i]];
        const double *alpha = ir->param_pool + a->alpha;
        double A = 0.0;
        int n = 0;

        for (k = 0; k < a->card; k++) {
            int c = w->counts[i * mc + k];

            A += alpha[k];
            n += c;
            lw += fgm_log_rising(alpha[k], c);
        }
        lw -= fgm_log_rising(A, n);
    }
    return lw;
}

/* Adds the weight of the current assignment, rescaling the sums when a
 * larger log weight comes along (so nothing overflows or underflows). */
static void
accumulate(walk *w)
{
    int v, mc = w->csp->maxcard;
    double lw = log_weight(w), x;

    if (lw == -HUGE_VAL)
        return;
    if (w->total == 0.0 || lw > w->shift) {
        double scale = w->total == 0.0 ? 0.0 : exp(w->shift - lw);

        for (v = 0; v < w->csp->nvars * mc; v++)
            w->acc[v] *= scale;
        w->total *= scale;
        w->shift = lw;
    }
    x = exp(lw - w->shift);
    w->total += x;
    for (v = 0; v < w->csp->nvars; v++) {
        double *a = &w->acc[v * mc + w->assign[v]];

        *a = w->max ? (x > *a ? x : *a) : *a + x;
    }
}

/* visit(v) := leaf | for each value a of v consistent so far: visit(v+1) */
static void
visit(walk *w, int v)
{
    int a;

    if (w->over)
        return;
    /* Polled per node, not per leaf: a search that prunes every branch
     * may never reach a leaf. */
    if (w->deadline > 0 && (++w->nodes & 4095) == 0
        && fgm_now() > w->deadline) {
        w->over = 1;
        return;
    }
    if (v == w->csp->nvars) {
        if (w->leaves >= w->max_leaves) {
            w->over = 1;
            return;
        }
        w->leaves++;
        accumulate(w);
        return;
    }
    for (a = 0; a < w->csp->card[v]; a++) {
        if (w->given && w->given[v] >= 0 && w->given[v] != a)
            continue;
        if (!fgm_csp_consistent(w->csp, w->assign, v, a))
            continue;
        w->assign[v] = a;
        visit(w, v + 1);
        w->assign[v] = -1;
    }
}

/* fgm_enumerate, or with MAX the max-marginals (fgm_enumerate_max). */
static fgm_status
enumerate(const fgm_csp *csp, const int *given, long max_leaves,
          double deadline, double *marginals, long *leaves, int max)
{
    walk w;
    int v, mc, k;
    double z;
    fgm_status st = FGM_OK;

    if (!csp || !marginals || isnan(deadline))
        return FGM_EINVAL;
    if (!fgm_csp_given_ok(csp, given))
        return FGM_EINVAL;
    if (csp->nvars > FGM_EXACT_MAXVARS)
        return FGM_EUNSUPPORTED;    /* visit() recurses once a variable */
    mc = csp->maxcard;
    memset(&w, 0, sizeof w);
    w.csp = csp;
    w.ir = csp->ir;
    w.given = given;
    w.max = max;
    w.max_leaves = max_leaves > 0 ? max_leaves : 10000000L;
    w.deadline = deadline;
    w.assign = malloc(((size_t)csp->nvars + 1) * sizeof *w.assign);
    w.kc = mc;
    for (v = 0; v < csp->ir->ndirichlet; v++) {
        k = csp->ir->arrays[csp->ir->dir_array[v]].card;
        if (k > w.kc)
            w.kc = k;
    }
    w.counts = malloc(((size_t)csp->ir->ndirichlet + 1) * (size_t)w.kc
                      * sizeof *w.counts);
    w.acc = marginals;
    if (!w.assign || !w.counts) {
        free(w.assign);
        free(w.counts);
        return FGM_ENOMEM;
    }
    for (v = 0; v < csp->nvars; v++)
        w.assign[v] = -1;
    memset(marginals, 0, (size_t)csp->nvars * (size_t)mc * sizeof *marginals);
    visit(&w, 0);
    if (w.total == 0.0)
        st = w.over ? FGM_ETIMEOUT : FGM_EUNSOLVED;
    else {
        /* Stopped early: still a distribution (over what was visited),
         * never raw weight sums printed as probabilities. */
        st = w.over ? FGM_ETIMEOUT : FGM_OK;
        for (v = 0; v < csp->nvars; v++) {
            /* Sums over the total weight; best weights over their own
             * sum, as bp-max's beliefs are normalized. */
            for (z = 0.0, k = 0; max && k < csp->card[v]; k++)
                z += marginals[v * mc + k];
            for (k = 0; k < mc; k++)
                marginals[v * mc + k] /= max ? z : w.total;
        }
    }
    if (leaves)
        *leaves = w.leaves;
    free(w.assign);
    free(w.counts);
    return st;
}

fgm_status
fgm_enumerate(const fgm_csp *csp, const int *given, long max_leaves,
              double deadline, double *marginals, long *leaves)
{
    return enumerate(csp, given, max_leaves, deadline, marginals, leaves, 0);
}

fgm_status
fgm_enumerate_max(const fgm_csp *csp, const int *given, long max_leaves,
                  double deadline, double *maxmarginals, long *leaves)
{
    return enumerate(csp, given, max_leaves, deadline, maxmarginals, leaves,
                     1);
}
