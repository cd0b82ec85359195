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
 * is added when the last variable of its scope is set (from logs taken
 * once), a draw's as the next factor of its node's Dirichlet-multinomial.
 * The marginal of x_v = k is the normalized sum of the weights of the
 * assignments with x_v = k; its max-marginal (the oracle for bp-max)
 * their largest weight, normalized over k.  Each node of the search
 * returns its subtree's sum (or best), which its variable's sums take:
 * a leaf costs O(1), not a pass over every factor and variable (a 30x30
 * grid ran 10 s to the CLI's cap of 10^6 leaves that way, now 0.05 s).
 *
 * A model with hard constraints is searched as mac.c searches: arc
 * consistency maintained on the neq/alldiff pairs and the tables with a
 * zero (search.h), and the variable with the fewest values left next.
 * Both only drop values that no consistent assignment has, so the
 * leaves are the same; a weighted hard 9x9 Sudoku took 67 s in index
 * order with a check of each value, and takes milliseconds.  A model
 * without them is walked in index order.  Cost: the number of
 * consistent assignments, so it refuses to go past a caller-given bound.
 *
 * The most probable assignment (fgm_enumerate_map) is the same walk by
 * branch and bound: a node whose log weight so far, plus the largest log
 * weight each factor not yet complete could add, cannot pass the best
 * leaf found by more than MAP_SLACK is not entered.  A table's or
 * evidence's bound is its largest entry; a Dirichlet node's r draws
 * still to make add at most prod_t (top + t) / (A + n + t), top the
 * largest a_k + n_k of the n made (node_bound: the counts so far, not
 * the largest pseudo-count taking every draw, which left a 27-draw
 * model's search open past 1000 nodes).  The slack
 * lets ties prune (any two solutions of hard constraints alone, or of a
 * Sudoku with a prior a cell, weigh the same but for the order of their
 * sums' roundings) and absorbs the drift of the running sum of bounds.
 */
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "search.h"

typedef struct walk {
    const fgm_csp *csp;
    const fgm_ir *ir;
    fgm_search *ws;         /* domains, trail and propagation (search.h) */
    int hard;               /* the model has hard constraints: propagate,
                             * fewest values first; else index order */
    int *assign;            /* ws->assign */
    double *acc;            /* nvars * maxcard: weight sums (bests with
                             * max), as exp(log weight - shift) */
    int *inc_off;           /* nvars + 1: the weighed factors of v, */
    int *inc;               /* inc[inc_off[v]..inc_off[v + 1] - 1] */
    int *left;              /* nfactors: a factor's unset variables */
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
    int map;                /* branch and bound for the best leaf alone */
    double *bound;          /* nfactors (map): the most a table's or
                             * evidence's log weight can be */
    double *nbound;         /* ndirichlet (map): node_bound of each node
                             * as w->rest holds it */
    int *ahead;             /* ndirichlet (map): each node's plain draws
                             * not made yet; -1: a gated draw may pick it */
    double rest;            /* (map) the bounds of the weighed factors
                             * with a variable unset and of the draws not
                             * made, summed */
    double best;            /* (map) the best leaf's log weight so far */
    double pass;            /* (map) what a branch's bound must pass:
                             * best and MAP_SLACK (-HUGE_VAL before the
                             * first leaf) */
    int *best_assign;       /* (map) nvars: that leaf */
    double *means;          /* ndirichlet * mean_stride, or NULL: the
                             * sums over the leaves of their weight times
                             * (a_k + n_k) / (A + n), for the nodes a
                             * gated draw may pick (picked[d]) */
    int mean_stride;
    unsigned char *picked;  /* ndirichlet (means): a gated draw may pick
                             * the node */
    int *picked_list;       /* those nodes, npicked of them: a leaf adds
                             * to theirs alone (a model without gated
                             * draws pays nothing a leaf) */
    int npicked;
    int scaled;             /* shift set: a leaf was reached */
    double shift;
    long leaves;
    long cap;               /* leaves at most (map: nodes, visit_map) */
    unsigned long nodes;    /* calls of visit, for the deadline polling
                             * (map: the nodes entered) */
    double deadline;        /* fgm_now() seconds, 0: none */
    int over;
} walk;

/* Whether factor F has a weight: a table, evidence or a draw (neq and
 * alldiff are the csp's constraints, weighed 1). */
static int
weighed(const fgm_ir_factor *f)
{
    return f->kind == FGM_FACTOR_TABLE || f->kind == FGM_FACTOR_EVIDENCE
           || fgm_ir_is_draw(f);
}

/* The most node D's draws not made yet can add to a log weight
 * (W->map): r of them, n made, the t-th next at most (top + t) / (A + n
 * + t), top = max_k (a_k + n_k) now (a draw raises the largest count by
 * at most 1): log Gamma(top + r) - log Gamma(top) - log Gamma(A + n + r)
 * + log Gamma(A + n).  A node a gated draw may pick (w->ahead -1): 0,
 * each draw at most 1, since how many it takes is not known before the
 * gates are set. */
static double
node_bound(const walk *w, int d)
{
    double top = 0.0, an = w->alpha_sum[d] + w->drawn[d], x;
    int k, r = w->ahead[d];

    if (r <= 0)
        return 0.0;
    for (k = 0; k < w->ir->arrays[w->ir->dir_array[d]].card; k++) {
        x = w->alpha[d][k] + w->counts[d * w->kc + k];
        top = x > top ? x : top;
    }
    return gsl_sf_lngamma(top + r) - gsl_sf_lngamma(top)
           - gsl_sf_lngamma(an + r) + gsl_sf_lngamma(an);
}

/* Node D's bound anew after a draw or its undoing (W->map). */
static void
rebound(walk *w, int d)
{
    w->rest -= w->nbound[d];
    w->nbound[d] = node_bound(w, d);
    w->rest += w->nbound[d];
}

/* The joint value of gated draw F's gates as set, row-major: its node
 * past f->aux. */
static int
gate_value(const walk *w, const fgm_ir_factor *f)
{
    const int *s = fgm_ir_scope(w->ir, f);
    int i, j = 0;

    for (i = 1; i < f->arity; i++)
        j = j * w->csp->card[s[i]] + w->assign[s[i]];
    return j;
}

/* The log weight of a draw of value X from node D: the Dirichlet-
 * multinomial's next factor (a_x + n_x) / (A + n); the draw counted. */
static double
draw(walk *w, int d, int x)
{
    int *c = &w->counts[d * w->kc + x];
    double g = log(w->alpha[d][x] + *c) - log(w->alpha_sum[d] + w->drawn[d]);

    ++*c;
    w->drawn[d]++;
    if (w->map) {
        w->ahead[d] -= w->ahead[d] > 0;    /* a plain draw made */
        rebound(w, d);
    }
    return g;
}

/* Takes back draw(W, D, X). */
static void
undraw(walk *w, int d, int x)
{
    w->counts[d * w->kc + x]--;
    w->drawn[d]--;
    if (w->map) {
        w->ahead[d] += w->ahead[d] >= 0;
        rebound(w, d);
    }
}

/* The log weight that setting V (to w->assign[v]) adds: each table and
 * evidence factor whose last unset variable V was, and V's draws, each
 * the Dirichlet-multinomial's next factor (a_k + n_k) / (A + n), n_k and
 * n the draws before it (whose product over the draws, in any order, is
 * Gamma(A) / Gamma(A + n) prod_k Gamma(a_k + n_k) / Gamma(a_k)).  The
 * draws are counted; unset takes them back. */
static double
set_gain(walk *w, int v)
{
    const fgm_ir *ir = w->ir;
    double g = 0.0;
    int i, j;

    for (i = w->inc_off[v]; i < w->inc_off[v + 1]; i++) {
        const fgm_ir_factor *f = &ir->factors[w->inc[i]];
        const int *s = fgm_ir_scope(ir, f);
        long pos = 0;

        if (f->kind == FGM_FACTOR_DIRICHLET_DISCRETE) {
            g += draw(w, f->aux, w->assign[v]);
        } else if (f->kind == FGM_FACTOR_DIRICHLET_GATED) {
            /* Drawn from the node its gate picks, once both are set (a
             * gated node's draw bound is 0: map_bounds). */
            if (--w->left[w->inc[i]] == 0)
                g += draw(w, f->aux + gate_value(w, f), w->assign[s[0]]);
        } else if (--w->left[w->inc[i]] == 0) {
            for (j = 0; j < f->arity; j++)
                pos = pos * w->csp->card[s[j]] + w->assign[s[j]];
            g += w->logp[f->params + pos];
            if (w->map)
                w->rest -= w->bound[w->inc[i]];
        }
    }
    return g;
}

static void
unset(walk *w, int v)
{
    const fgm_ir *ir = w->ir;
    int i;

    for (i = w->inc_off[v]; i < w->inc_off[v + 1]; i++) {
        const fgm_ir_factor *f = &ir->factors[w->inc[i]];
        const int *s = fgm_ir_scope(ir, f);

        if (f->kind == FGM_FACTOR_DIRICHLET_DISCRETE) {
            undraw(w, f->aux, w->assign[v]);
        } else if (f->kind == FGM_FACTOR_DIRICHLET_GATED) {
            if (w->left[w->inc[i]]++ == 0)
                undraw(w, f->aux + gate_value(w, f), w->assign[s[0]]);
        } else if (w->left[w->inc[i]]++ == 0 && w->map) {
            w->rest += w->bound[w->inc[i]];
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

/* X times e^D, in two halves: a sum may stand e^500 above the shift
 * (SHIFT_SLACK), so that e^D alone can underflow (D < -745: every sum
 * lost, 1e-218 printed as 0) or lose bits (D < -708, a subnormal) where
 * the product is a plain double.  0 stays 0 whatever D (a frame whose
 * shift was never set has none yet). */
static double
rescaled(double x, double d)
{
    double h;

    if (x == 0.0)
        return 0.0;
    h = exp(0.5 * d);
    return x * h * h;
}

/* A leaf of log weight LW: its weight as exp(LW - shift), the shift
 * moved (and acc with it) first if LW is past it by SHIFT_SLACK. */
static double
leaf_weight(walk *w, double lw)
{
    int i, n = w->csp->nvars * w->csp->maxcard;

    if (!w->scaled || lw > w->shift + SHIFT_SLACK) {
        for (i = 0; i < n; i++)
            w->acc[i] = w->scaled ? rescaled(w->acc[i], w->shift - lw) : 0.0;
        n = w->means ? w->ir->ndirichlet * w->mean_stride : 0;
        for (i = 0; i < n; i++)
            w->means[i] = w->scaled ? rescaled(w->means[i], w->shift - lw)
                                    : 0.0;
        w->shift = lw;
        w->scaled = 1;
    }
    return exp(lw - w->shift);
}

/* Adds a leaf of weight X (at the shift) to the means of the nodes a
 * gated draw may pick: X times each node's (a_k + n_k) / (A + n), n_k
 * its draws of k at this leaf.  Their total n differs from leaf to leaf,
 * so the mean is no sum of the draws' marginals (fgm_ir_dirichlet_mean's
 * way for the other nodes). */
static void
leaf_means(walk *w, double x)
{
    const fgm_ir *ir = w->ir;
    int i, d, k;

    for (i = 0; i < w->npicked; i++) {
        double *row, z;

        d = w->picked_list[i];
        row = w->means + (long)d * w->mean_stride;
        z = w->alpha_sum[d] + w->drawn[d];
        for (k = 0; k < ir->arrays[ir->dir_array[d]].card; k++)
            row[k] += x * (w->alpha[d][k] + w->counts[d * w->kc + k]) / z;
    }
}

/* The variable to set at DEPTH: with hard constraints the unset one with
 * the fewest values left (srch_fewest), else DEPTH. */
static int
next_var(const walk *w, int depth)
{
    return w->hard ? srch_fewest(w->ws) : depth;
}

/* Ends W's walk (w->over) when its propagation failed because the
 * deadline passed, not on a wipe-out. */
static void
note_expiry(walk *w)
{
    if (w->ws->expired)
        w->over = 1;
}

/* Narrows V's domain to VAL and propagates (hard constraints only).
 * Returns 0 when that empties a domain or the deadline passed
 * (w->over). */
static int
narrow(walk *w, int v, int val)
{
    fgm_search *ws = w->ws;

    if (!w->hard || ws->dom[v] == FGM_DOM_BIT(val))
        return 1;       /* a singleton was propagated when it became one */
    srch_set(ws, v, FGM_DOM_BIT(val));
    if (srch_changed(ws, w->csp, v) && srch_propagate(ws, w->csp))
        return 1;
    note_expiry(w);
    return 0;
}

/* visit := leaf | for each value a left to the next variable v:
 * visit with v = a.  DEPTH variables are set, LW the log weight of the
 * factors they complete.  Returns the weights of the consistent
 * completions summed (their best with w->max), as exp(log weight -
 * shift) at the shift in force on return, and adds each value a's part
 * to acc[v][a]: every variable's sums come from its own nodes, not from
 * a pass over the assignment at each leaf. */
static double
visit(walk *w, int depth, double lw)
{
    double sum = 0.0, at = w->shift, x, *acc;
    fgm_dom left;
    int v, a, mark;

    if (w->over)
        return 0.0;
    /* Polled per node, not per leaf: a search that prunes every branch
     * may never reach a leaf. */
    if (w->deadline > 0 && (++w->nodes & 4095) == 0
        && fgm_now() > w->deadline) {
        w->over = 1;
        return 0.0;
    }
    if (depth == w->csp->nvars) {
        if (w->leaves >= w->cap) {
            w->over = 1;
            return 0.0;
        }
        w->leaves++;
        if (lw == -HUGE_VAL)
            return 0.0;
        x = leaf_weight(w, lw);
        if (w->npicked > 0)
            leaf_means(w, x);
        return x;
    }
    v = next_var(w, depth);
    for (left = w->ws->dom[v]; left; left &= left - 1) {
        a = fgm_dom_first(left);
        mark = w->ws->ntrail;
        if (!narrow(w, v, a)) {
            srch_undo(w->ws, mark);
            continue;
        }
        w->assign[v] = a;
        x = visit(w, depth + 1, lw + set_gain(w, v));
        unset(w, v);
        srch_undo(w->ws, mark);
        if (w->shift != at) {   /* a leaf below moved it: SUM to it */
            sum = rescaled(sum, at - w->shift);
            at = w->shift;
        }
        acc = &w->acc[v * w->csp->maxcard + a];
        *acc = w->max ? (x > *acc ? x : *acc) : *acc + x;
        sum = w->max ? (x > sum ? x : sum) : sum + x;
    }
    return sum;
}

/* How far past the best leaf's log weight (relatively) a branch's bound
 * must reach to be entered: the answer of fgm_enumerate_map weighs at
 * least e^(-1e-9 (1 + |log weight|)) times the largest weight. */
#define MAP_SLACK 1e-9

/* visit for the best leaf alone (W->map): a branch is entered only when
 * its log weight LW plus the bounds of the factors still incomplete can
 * pass the best leaf found by MAP_SLACK (at a leaf every factor is
 * complete: that sum is LW), so the first of equal leaves stays. */
static void
visit_map(walk *w, int depth, double lw)
{
    fgm_dom left;
    int v, a, mark;

    if (w->over || !(lw + w->rest > w->pass))
        return;
    /* The cap counts nodes, not leaves: most branches end above the
     * leaves, pruned, and a search could run on with few leaves. */
    if (w->nodes >= (unsigned long)w->cap) {
        w->over = 1;
        return;
    }
    w->nodes++;
    if (w->deadline > 0 && (w->nodes & 4095) == 0
        && fgm_now() > w->deadline) {
        w->over = 1;
        return;
    }
    if (depth == w->csp->nvars) {
        w->best = lw;
        w->pass = lw + MAP_SLACK * (1.0 + fabs(lw));
        memcpy(w->best_assign, w->assign,
               (size_t)w->csp->nvars * sizeof *w->assign);
        return;
    }
    v = next_var(w, depth);
    for (left = w->ws->dom[v]; left; left &= left - 1) {
        a = fgm_dom_first(left);
        mark = w->ws->ntrail;
        if (narrow(w, v, a)) {
            w->assign[v] = a;
            visit_map(w, depth + 1, lw + set_gain(w, v));
            unset(w, v);
        }
        srch_undo(w->ws, mark);
    }
}

/* W's nodes a gated draw may pick: w->picked (fgm_ir_gated_picks) and
 * their list.  Returns 0, or -1 out of memory. */
static int
open_picked(walk *w)
{
    int d, n = w->ir->ndirichlet;

    w->picked = fgm_ir_gated_picks(w->ir);
    w->picked_list = malloc(((size_t)n + 1) * sizeof *w->picked_list);
    if (!w->picked || !w->picked_list)
        return -1;
    for (d = 0; d < n; d++)
        if (w->picked[d])
            w->picked_list[w->npicked++] = d;
    return 0;
}

/* W's branch-and-bound bounds (w->map): each table's and evidence's
 * largest log weight, each node's draws ahead (node_bound), and in
 * w->rest all of them summed.  Returns 0, or -1 out of memory. */
static int
map_bounds(walk *w)
{
    const fgm_ir *ir = w->ir;
    double top;
    long size, j;
    int i, d;

    w->bound = calloc((size_t)ir->nfactors + 1, sizeof *w->bound);
    w->nbound = calloc((size_t)ir->ndirichlet + 1, sizeof *w->nbound);
    w->ahead = calloc((size_t)ir->ndirichlet + 1, sizeof *w->ahead);
    if (!w->bound || !w->nbound || !w->ahead)
        return -1;
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];

        if (f->kind == FGM_FACTOR_DIRICHLET_DISCRETE)
            w->ahead[f->aux]++;
    }
    if (open_picked(w) < 0)
        return -1;
    for (d = 0; d < ir->ndirichlet; d++)
        if (w->picked[d])
            w->ahead[d] = -1;   /* bound 0 (node_bound) */
    w->rest = 0.0;
    for (d = 0; d < ir->ndirichlet; d++) {
        w->nbound[d] = node_bound(w, d);
        w->rest += w->nbound[d];
    }
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, f);

        if (!weighed(f) || fgm_ir_is_draw(f))
            continue;       /* draws: their nodes' bounds, above */
        for (size = 1, d = 0; d < f->arity; d++)
            size *= w->csp->card[s[d]];
        for (top = -HUGE_VAL, j = 0; j < size; j++)
            top = w->logp[f->params + j] > top ? w->logp[f->params + j]
                                               : top;
        w->bound[i] = top;
        w->rest += top;
    }
    return 0;
}

/* W's incidence lists (each weighed factor under each variable of its
 * scope) and unset counts.  Returns 0, or -1 out of memory. */
static int
incidence(walk *w)
{
    const fgm_ir *ir = w->ir;
    int i, j, n = w->csp->nvars, len = 0;

    w->inc_off = calloc((size_t)n + 2, sizeof *w->inc_off);
    w->left = calloc((size_t)ir->nfactors + 1, sizeof *w->left);
    for (i = 0; i < ir->nfactors; i++)
        len += weighed(&ir->factors[i]) ? ir->factors[i].arity : 0;
    w->inc = malloc(((size_t)len + 1) * sizeof *w->inc);
    if (!w->inc_off || !w->left || !w->inc)
        return -1;
    for (i = 0; i < ir->nfactors; i++)
        for (j = 0; weighed(&ir->factors[i]) && j < ir->factors[i].arity;
             j++)
            w->inc_off[fgm_ir_scope(ir, &ir->factors[i])[j] + 2]++;
    for (i = 0; i < n; i++)     /* counts at +2: starts at +1 */
        w->inc_off[i + 2] += w->inc_off[i + 1];
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];

        for (j = 0; weighed(f) && j < f->arity; j++)
            w->inc[w->inc_off[fgm_ir_scope(ir, f)[j] + 1]++] = i;
        w->left[i] = f->arity;
    }
    return 0;
}

static void
walk_free(walk *w)
{
    srch_free(w->ws);
    free(w->inc_off);
    free(w->inc);
    free(w->left);
    free(w->counts);
    free(w->drawn);
    free(w->logp);
    free(w->alpha);
    free(w->alpha_sum);
    free(w->bound);
    free(w->nbound);
    free(w->ahead);
    free(w->picked);
    free(w->picked_list);
}

/* W's arrays for CSP: the search's workspace, the incidence lists, the
 * draws' counts and each Dirichlet node's pseudo-counts.  Returns 0, or
 * -1 out of memory. */
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
    w->ws = srch_new(csp, NULL, NULL);
    w->counts = calloc(nd * (size_t)w->kc, sizeof *w->counts);
    w->drawn = calloc(nd, sizeof *w->drawn);
    w->alpha = malloc(nd * sizeof *w->alpha);
    w->alpha_sum = calloc(nd, sizeof *w->alpha_sum);
    w->logp = malloc(((size_t)ir->nparam + 1) * sizeof *w->logp);
    if (!w->ws || !w->counts || !w->drawn || !w->alpha || !w->alpha_sum
        || !w->logp || incidence(w) < 0)
        return -1;
    w->assign = w->ws->assign;
    for (v = 0; v < csp->nvars; v++)
        w->assign[v] = -1;
    w->hard = csp->peer_off[csp->nvars] > 0 || csp->ntables > 0;
    for (v = 0; v < ir->nparam; v++)
        w->logp[v] = log(ir->param_pool[v]);    /* 0: -HUGE_VAL */
    for (v = 0; v < ir->ndirichlet; v++) {
        const fgm_ir_array *a = &ir->arrays[ir->dir_array[v]];

        w->alpha[v] = fgm_ir_node_alpha(ir, v);
        for (k = 0; k < a->card; k++)
            w->alpha_sum[v] += w->alpha[v][k];
    }
    return 0;
}

/* The domains the search starts from: the clues GIVEN, evidence's zeros
 * and, with hard constraints, what arc consistency leaves.  Returns 0
 * when they leave a variable no value. */
static int
start_domains(walk *w, const int *given)
{
    fgm_search *ws = srch_reset(w->ws);

    if (!fgm_csp_init_domains(w->csp, given, ws->dom))
        return 0;
    if (!w->hard || srch_propagate_all(ws, w->csp))
        return 1;
    note_expiry(w);
    return 0;
}

/* W ready to search CSP with clues GIVEN (checked), at most CAP leaves
 * or nodes (<= 0: 10^7) before DEADLINE; OUT is the caller's answer
 * (NULL: FGM_EINVAL).  Returns FGM_OK, FGM_EINVAL, FGM_EUNSUPPORTED
 * (more than FGM_EXACT_MAXVARS variables: the walk recurses once a
 * variable) or FGM_ENOMEM (W freed). */
static fgm_status
walk_open(walk *w, const fgm_csp *csp, const int *given, const void *out,
          long cap, double deadline)
{
    if (!csp || !out || !(deadline >= 0.0)
        || !fgm_csp_given_ok(csp, given))
        return FGM_EINVAL;
    if (csp->nvars > FGM_EXACT_MAXVARS)
        return FGM_EUNSUPPORTED;
    memset(w, 0, sizeof *w);
    w->csp = csp;
    w->ir = csp->ir;
    w->cap = cap > 0 ? cap : 10000000L;
    w->deadline = deadline;
    if (walk_init(w, csp) < 0) {
        walk_free(w);
        return FGM_ENOMEM;
    }
    w->ws->deadline = deadline;     /* a node's propagation polls it too */
    return FGM_OK;
}

/* The means of W's walk, done: the gated nodes' sums over the leaves'
 * TOTAL weight; the others' from the MARGINALS (fgm_ir_dirichlet_mean,
 * whose answer for the gated nodes is not theirs).  Returns FGM_OK or
 * FGM_ENOMEM. */
static fgm_status
finish_means(walk *w, const double *marginals, double total)
{
    const fgm_ir *ir = w->ir;
    int d, k, n = w->mean_stride;
    double *lin = malloc(((size_t)ir->ndirichlet * (size_t)n + 1)
                         * sizeof *lin);
    fgm_status st = lin ? fgm_ir_dirichlet_mean(ir, marginals,
                                                w->csp->maxcard, lin, n)
                        : FGM_ENOMEM;

    for (d = 0; st == FGM_OK && d < ir->ndirichlet; d++)
        for (k = 0; k < n; k++)
            w->means[(long)d * n + k] = w->picked[d]
                                        ? w->means[(long)d * n + k] / total
                                        : lin[(long)d * n + k];
    free(lin);
    return st;
}

/* W's means (MEANS, STRIDE a row: fgm_enumerate_means) of the nodes a
 * gated draw may pick, which the walk sums; 0, or -1 out of memory. */
static int
open_means(walk *w, double *means, int stride)
{
    if (open_picked(w) < 0)
        return -1;
    w->means = means;
    w->mean_stride = stride;
    return 0;
}

/* fgm_enumerate, or with MAX the max-marginals (fgm_enumerate_max), or
 * with MEANS the priors' means too (fgm_enumerate_means), and with LOG_Z
 * the log of the total weight (fgm_enumerate_log_z), with MAX of the
 * largest (fgm_enumerate_max_log: the walk's completions are then their
 * best, not their sum). */
static fgm_status
enumerate(const fgm_csp *csp, const int *given, long max_leaves,
          double deadline, double *marginals, long *leaves, int max,
          double *means, int mean_stride, double *log_z)
{
    walk w;
    int v, mc, k;
    double z, total;
    fgm_status st = walk_open(&w, csp, given, marginals, max_leaves,
                              deadline);

    if (st != FGM_OK)
        return st;
    mc = csp->maxcard;
    w.max = max;
    w.acc = marginals;
    if (means && open_means(&w, means, mean_stride) < 0) {
        walk_free(&w);
        return FGM_ENOMEM;
    }
    memset(marginals, 0, (size_t)csp->nvars * (size_t)mc * sizeof *marginals);
    total = start_domains(&w, given) ? visit(&w, 0, 0.0) : 0.0;
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
    if (means && total > 0.0 && finish_means(&w, marginals, total) != FGM_OK)
        st = FGM_ENOMEM;
    if (log_z)      /* the sums are exp(log weight - shift) */
        *log_z = st == FGM_OK ? log(total) + w.shift
                              : st == FGM_EUNSOLVED ? -HUGE_VAL : NAN;
    if (leaves)
        *leaves = w.leaves;
    walk_free(&w);
    return st;
}

fgm_status
fgm_enumerate(const fgm_csp *csp, const int *given, long max_leaves,
              double deadline, double *marginals, long *leaves)
{
    return enumerate(csp, given, max_leaves, deadline, marginals, leaves, 0,
                     NULL, 0, NULL);
}

fgm_status
fgm_enumerate_max(const fgm_csp *csp, const int *given, long max_leaves,
                  double deadline, double *maxmarginals, long *leaves)
{
    return enumerate(csp, given, max_leaves, deadline, maxmarginals, leaves,
                     1, NULL, 0, NULL);
}

fgm_status
fgm_enumerate_max_log(const fgm_csp *csp, const int *given, long max_leaves,
                      double deadline, double *maxmarginals, long *leaves,
                      double *log_max)
{
    if (!log_max)
        return FGM_EINVAL;
    return enumerate(csp, given, max_leaves, deadline, maxmarginals, leaves,
                     1, NULL, 0, log_max);
}

fgm_status
fgm_enumerate_means(const fgm_csp *csp, const int *given, long max_leaves,
                    double deadline, double *marginals, double *means,
                    int mean_stride, long *leaves)
{
    if (!csp || !means || mean_stride < fgm_ir_dirichlet_maxk(csp->ir))
        return FGM_EINVAL;
    return enumerate(csp, given, max_leaves, deadline, marginals, leaves, 0,
                     means, mean_stride, NULL);
}

fgm_status
fgm_enumerate_log_z(const fgm_csp *csp, const int *given, long max_leaves,
                    double deadline, double *marginals, double *means,
                    int mean_stride, long *leaves, double *log_z)
{
    if (!csp || !log_z
        || (means && mean_stride < fgm_ir_dirichlet_maxk(csp->ir)))
        return FGM_EINVAL;
    return enumerate(csp, given, max_leaves, deadline, marginals, leaves, 0,
                     means, mean_stride, log_z);
}

fgm_status
fgm_enumerate_map(const fgm_csp *csp, const int *given, long max_nodes,
                  double deadline, int *assignment, double *log_weight,
                  long *nodes)
{
    walk w;
    fgm_status st = walk_open(&w, csp, given, assignment, max_nodes,
                              deadline);

    if (st != FGM_OK)
        return st;
    w.map = 1;
    w.best = w.pass = -HUGE_VAL;
    w.best_assign = assignment;
    if (map_bounds(&w) < 0) {
        walk_free(&w);
        return FGM_ENOMEM;
    }
    if (start_domains(&w, given))
        visit_map(&w, 0, 0.0);
    st = w.over ? FGM_ETIMEOUT : w.best > -HUGE_VAL ? FGM_OK : FGM_EUNSOLVED;
    if (log_weight)
        *log_weight = w.best;
    if (nodes)
        *nodes = (long)w.nodes;
    walk_free(&w);
    return st;
}
