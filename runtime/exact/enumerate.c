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
 * computed in the log domain as the search goes: a factor's log weight
 * is added where its last variable is set (from logs taken once), a
 * draw's as the next factor of its node's Dirichlet-multinomial.  The
 * marginal of x_v = k is the normalized sum of the weights of the
 * assignments with x_v = k; its max-marginal (the oracle for bp-max)
 * their largest weight, normalized over k.  Each node of the search
 * returns its subtree's sum (or best), which its variable's sums take:
 * a leaf costs O(1), not a pass over every factor and variable (a 30x30
 * grid ran 10 s to the CLI's cap of 10^6 leaves that way, now 0.05 s).
 * Cost: the number of consistent assignments, so it refuses to go past
 * a caller-given bound.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "csp.h"

typedef struct walk {
    const fgm_csp *csp;
    const fgm_ir *ir;
    const int *given;
    int *assign;
    double *acc;            /* nvars * maxcard: weight sums (bests with
                             * max), as exp(log weight - shift) */
    int *done_off;          /* nvars + 1: the factors variable v completes, */
    int *done;              /* done[done_off[v]..done_off[v + 1] - 1] */
    int *counts;            /* ndirichlet * kc: draws of each category */
    int *drawn;             /* ndirichlet: draws in all */
    double *logp;           /* ir->nparam: the logs of param_pool's
                             * weights (of tables and evidence; a log a
                             * factor a node was most of the time) */
    const double **alpha;   /* ndirichlet: each node's pseudo-counts */
    double *alpha_sum;      /* ndirichlet: A, their sum */
    int kc;                 /* stride of counts: the largest Dirichlet K
                             * (a prior no variable draws from may have
                             * more categories than any domain) */
    int max;                /* max-marginals: the best weight per value,
                             * not the sum */
    int scaled;             /* shift set: a leaf was reached */
    double shift;
    long leaves, max_leaves;
    unsigned long nodes;    /* calls of visit, for the deadline polling */
    double deadline;        /* fgm_now() seconds, 0: none */
    int over;
} walk;

/* The log weight that assigning V (in w->assign) adds: the tables and
 * evidence whose last variable (in the search's order, the variables'
 * own) is V, and V's draws, each the Dirichlet-multinomial's next
 * factor (a_k + n_k) / (A + n), n_k and n the draws before it, whose
 * product over the draws is Gamma(A) / Gamma(A + n) prod_k Gamma(a_k +
 * n_k) / Gamma(a_k).  The draws are counted; unassign takes them back. */
static double
assign_gain(walk *w, int v)
{
    const fgm_ir *ir = w->ir;
    double g = 0.0;
    int i, j;

    for (i = w->done_off[v]; i < w->done_off[v + 1]; i++) {
        const fgm_ir_factor *f = &ir->factors[w->done[i]];
        const int *s = fgm_ir_scope(ir, f);
        const double *lp = w->logp + f->params;
        long pos = 0;
        int *c;

        switch (f->kind) {
        case FGM_FACTOR_TABLE:
            for (j = 0; j < f->arity; j++)
                pos = pos * w->csp->card[s[j]] + w->assign[s[j]];
            g += lp[pos];
            break;
        case FGM_FACTOR_EVIDENCE:
            g += lp[w->assign[v]];
            break;
        case FGM_FACTOR_DIRICHLET_DISCRETE:
            c = &w->counts[f->aux * w->kc + w->assign[v]];
            g += log(w->alpha[f->aux][w->assign[v]] + *c)
                 - log(w->alpha_sum[f->aux] + w->drawn[f->aux]);
            ++*c;
            w->drawn[f->aux]++;
            break;
        default:
            break;
        }
    }
    return g;
}

static void
unassign(walk *w, int v)
{
    const fgm_ir *ir = w->ir;
    int i;

    for (i = w->done_off[v]; i < w->done_off[v + 1]; i++) {
        const fgm_ir_factor *f = &ir->factors[w->done[i]];

        if (f->kind == FGM_FACTOR_DIRICHLET_DISCRETE) {
            w->counts[f->aux * w->kc + w->assign[v]]--;
            w->drawn[f->aux]--;
        }
    }
    w->assign[v] = -1;
}

/* How far a leaf's log weight may pass the shift before the sums are
 * rescaled: each leaf adds at most e^500 (1e217), so even 10^90 leaves
 * stay finite, and a rise of the best weight costs a pass over acc only
 * once per e^500 of it, not at every new best (a search that meets its
 * leaves in increasing weight would pay one pass a leaf).  A leaf
 * e^708 below the shift underflows: e^708 below the best too, nothing
 * at double precision. */
#define SHIFT_SLACK 500.0

/* A leaf of log weight LW: its weight as exp(LW - shift), the shift
 * moved (and acc with it) first if LW is past it by SHIFT_SLACK. */
static double
leaf_weight(walk *w, double lw)
{
    int i, n = w->csp->nvars * w->csp->maxcard;

    if (!w->scaled || lw > w->shift + SHIFT_SLACK) {
        double scale = w->scaled ? exp(w->shift - lw) : 0.0;

        for (i = 0; i < n; i++)
            w->acc[i] *= scale;
        w->shift = lw;
        w->scaled = 1;
    }
    return exp(lw - w->shift);
}

/* visit(v) := leaf | for each value a of v consistent so far: visit(v+1).
 * LW: the log weight of the factors assign[0..V-1] completes.  Returns
 * the weights of the consistent completions of assign[0..V-1] summed
 * (their best with w->max), as exp(log weight - shift) at the shift in
 * force on return, and adds each value a's part to acc[V][a]: every
 * variable's sums come from its own nodes, not from a pass over the
 * assignment at each leaf. */
static double
visit(walk *w, int v, double lw)
{
    double sum = 0.0, at = w->shift, x, *acc;
    int a;

    if (w->over)
        return 0.0;
    /* Polled per node, not per leaf: a search that prunes every branch
     * may never reach a leaf. */
    if (w->deadline > 0 && (++w->nodes & 4095) == 0
        && fgm_now() > w->deadline) {
        w->over = 1;
        return 0.0;
    }
    if (v == w->csp->nvars) {
        if (w->leaves >= w->max_leaves) {
            w->over = 1;
            return 0.0;
        }
        w->leaves++;
        return lw == -HUGE_VAL ? 0.0 : leaf_weight(w, lw);
    }
    for (a = 0; a < w->csp->card[v]; a++) {
        if (w->given && w->given[v] >= 0 && w->given[v] != a)
            continue;
        if (!fgm_csp_consistent(w->csp, w->assign, v, a))
            continue;
        w->assign[v] = a;
        x = visit(w, v + 1, lw + assign_gain(w, v));
        unassign(w, v);
        if (w->shift != at) {   /* a leaf below moved it: SUM to it */
            if (sum != 0.0)
                sum *= exp(at - w->shift);
            at = w->shift;
        }
        acc = &w->acc[v * w->csp->maxcard + a];
        *acc = w->max ? (x > *acc ? x : *acc) : *acc + x;
        sum = w->max ? (x > sum ? x : sum) : sum + x;
    }
    return sum;
}

/* The variable under which factor F of IR is weighed: the last of its
 * scope for a table or evidence, its variable for a draw; -1 for the
 * hard constraints (neq, alldiff: the csp's consistency). */
static int
completed_by(const fgm_ir *ir, const fgm_ir_factor *f)
{
    const int *s = fgm_ir_scope(ir, f);
    int j, last = s[0];

    if (f->kind != FGM_FACTOR_TABLE && f->kind != FGM_FACTOR_EVIDENCE
        && f->kind != FGM_FACTOR_DIRICHLET_DISCRETE)
        return -1;
    for (j = 1; j < f->arity; j++)
        last = s[j] > last ? s[j] : last;
    return last;
}

/* W's done lists (completed_by), by a counting sort.  Returns 0, or -1
 * out of memory. */
static int
completions(walk *w)
{
    const fgm_ir *ir = w->ir;
    int i, v, n = w->csp->nvars;

    w->done_off = calloc((size_t)n + 2, sizeof *w->done_off);
    w->done = malloc(((size_t)ir->nfactors + 1) * sizeof *w->done);
    if (!w->done_off || !w->done)
        return -1;
    for (i = 0; i < ir->nfactors; i++)
        if ((v = completed_by(ir, &ir->factors[i])) >= 0)
            w->done_off[v + 2]++;
    for (i = 0; i < n; i++)     /* counts at +2: starts at +1 */
        w->done_off[i + 2] += w->done_off[i + 1];
    for (i = 0; i < ir->nfactors; i++)
        if ((v = completed_by(ir, &ir->factors[i])) >= 0)
            w->done[w->done_off[v + 1]++] = i;
    return 0;
}

static void
walk_free(walk *w)
{
    free(w->assign);
    free(w->done_off);
    free(w->done);
    free(w->counts);
    free(w->drawn);
    free(w->logp);
    free(w->alpha);
    free(w->alpha_sum);
}

/* W's arrays for CSP: the assignment, the done lists, the draws' counts
 * and each Dirichlet node's pseudo-counts.  Returns 0, or -1 out of
 * memory. */
static int
walk_init(walk *w, const fgm_csp *csp)
{
    const fgm_ir *ir = csp->ir;
    size_t nd = (size_t)ir->ndirichlet + 1;
    int v, k;

    w->kc = csp->maxcard;
    for (v = 0; v < ir->ndirichlet; v++) {
        k = ir->arrays[ir->dir_array[v]].card;
        if (k > w->kc)
            w->kc = k;
    }
    w->assign = malloc(((size_t)csp->nvars + 1) * sizeof *w->assign);
    w->counts = calloc(nd * (size_t)w->kc, sizeof *w->counts);
    w->drawn = calloc(nd, sizeof *w->drawn);
    w->alpha = malloc(nd * sizeof *w->alpha);
    w->alpha_sum = calloc(nd, sizeof *w->alpha_sum);
    w->logp = malloc(((size_t)ir->nparam + 1) * sizeof *w->logp);
    if (!w->assign || !w->counts || !w->drawn || !w->alpha || !w->alpha_sum
        || !w->logp || completions(w) < 0)
        return -1;
    for (v = 0; v < ir->nparam; v++)
        w->logp[v] = log(ir->param_pool[v]);    /* 0: -HUGE_VAL */
    for (v = 0; v < csp->nvars; v++)
        w->assign[v] = -1;
    for (v = 0; v < ir->ndirichlet; v++) {
        const fgm_ir_array *a = &ir->arrays[ir->dir_array[v]];

        w->alpha[v] = ir->param_pool + a->alpha;
        for (k = 0; k < a->card; k++)
            w->alpha_sum[v] += w->alpha[v][k];
    }
    return 0;
}

/* fgm_enumerate, or with MAX the max-marginals (fgm_enumerate_max). */
static fgm_status
enumerate(const fgm_csp *csp, const int *given, long max_leaves,
          double deadline, double *marginals, long *leaves, int max)
{
    walk w;
    int v, mc, k;
    double z, total;
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
    w.acc = marginals;
    if (walk_init(&w, csp) < 0) {
        walk_free(&w);
        return FGM_ENOMEM;
    }
    memset(marginals, 0, (size_t)csp->nvars * (size_t)mc * sizeof *marginals);
    total = visit(&w, 0, 0.0);
    if (total == 0.0)
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
                marginals[v * mc + k] /= max ? z : total;
        }
    }
    if (leaves)
        *leaves = w.leaves;
    walk_free(&w);
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
