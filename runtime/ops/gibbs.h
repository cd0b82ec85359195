/* runtime/ops/gibbs.h: Gibbs sampling (algorithm "gibbs").
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 *
 * A sweep visits the variables in order and draws each one from its
 * conditional given the current values of all the others: its unary
 * vector times, for each factor it is in, the factor's weight with the
 * other variables at their values.  On a connected model with no zero
 * weights the chain's values are, in the long run, draws from the exact
 * posterior; unlike EP and BP it has no bias to fall back on, only
 * variance that shrinks with the sweeps.
 *
 * Dirichlet nodes are integrated out (collapsed Gibbs; Liu 1994,
 * Griffiths and Steyvers 2004): a node of pseudo-counts a, whose draws
 * other than the one being redrawn take value x n_x times, gives that
 * draw the weight (a_x + n_x) / (A + N).  st->gcount holds n for
 * every node; the redrawn variable's own draws are taken out of it
 * first (fgm_k_gibbs_count) and put back at its new value.  A gate picks
 * among nodes, so its weight is that fraction for the node each of its
 * values picks.  A point-mass node (an observed prior, a Sudoku clue)
 * learns nothing: its weights are its prior's.
 *
 * Estimates are Rao-Blackwellized (Gelfand and Smith 1990): a variable's
 * marginal is the mean of the conditionals it was drawn from over the
 * kept sweeps, not the share of its values, with less variance for the
 * same sweeps; a node's posterior is reported as a Dirichlet with the
 * posterior's mean (the mean of the predictives; EP's default projection
 * matches the mean too) and its prior's total plus the mean draws.
 *
 * Before the first sweep no variable has a value (-1): a factor with a
 * variable still to be drawn weighs nothing, so the first sweep draws
 * each variable given those before it, a random greedy start.  A
 * conditional with no positive weight (a hard constraint the current
 * values break, which that start can leave behind) draws by the other
 * weights (a clue's point mass holds), each constraint a value breaks
 * beyond the fewest cutting its odds by 2^FGM_K_GIBBS_BROKEN_SHIFT
 * (min-conflicts with noise: a way back to a state of weight), and is
 * counted (st->gibbs_dead); its sweep is not kept.
 * Single-site moves need not reach every valid state of a model of hard
 * constraints (a Sudoku), nor any: the counts say so.
 *
 * Arithmetic: + - * / and ldexp only (no log or exp), in one order.
 * Random numbers come from st->uniform(st->rng), the runtime's GSL
 * generator: the interpreter and a plugin draw the same numbers in the
 * same order, so they give the same samples and the same bits.
 */
#ifndef FGM_OPS_GIBBS_H
#define FGM_OPS_GIBBS_H

#include <float.h>
#include <limits.h>
#include <math.h>
#include "common.h"

/* The operators, numbered as runtime/schedule.h's fgm_op
 * (runtime/schedule.c checks it): plugins do not see that header. */
enum {
    FGM_K_OP_NEQ, FGM_K_OP_TABLE, FGM_K_OP_DIRICHLET, FGM_K_OP_ALLDIFF,
    FGM_K_OP_GATED, FGM_K_OP_SUM
};

/* A value that breaks one constraint more than the fewest gets
 * 2^-FGM_K_GIBBS_BROKEN_SHIFT the odds in a draw without weight: values
 * that break more stay possible, so that the way back to a state of
 * weight is no dead end (breaking the fewest only, a 4x4 grid with three
 * clues stayed broken for 500 sweeps with most seeds). */
#ifndef FGM_K_GIBBS_BROKEN_SHIFT
#define FGM_K_GIBBS_BROKEN_SHIFT 3
#endif

/* Where a sum's coefficients start in its pool entries, after its
 * range (runtime/ir.h's FGM_IR_SUM_COEF, which schedule.c checks). */
#define FGM_K_GIBBS_SUM_COEF 2

/* The least (MOST: the largest) of A Y over value indices Y in
 * LO..HI: a sum's term's bound. */
static inline long
fgm_k_gibbs_term_bound(long a, int lo, int hi, int most)
{
    return (a > 0) == (most != 0) ? a * hi : a * lo;
}

/* Entries of fgm_k_gibbs_graph.fac a factor. */
#define FGM_K_GIBBS_FAC 4

/* The factor graph a sweep walks: the schedule's tables (the
 * interpreter's, runtime/schedule.h) or their copies baked into a
 * plugin. */
typedef struct fgm_k_gibbs_graph {
    int nvars, nfactors, stride;
    int k;                      /* every domain's size, or 0: card[] */
    int ndirichlet;
    const int *card;            /* nvars, or NULL */
    const int *var_edge_off;    /* nvars + 1 */
    const int *var_edges;       /* each variable's edges */
    const int *edge_var;        /* nedges */
    const int *edge_factor;     /* nedges: the factor of each edge */
    const int *fac;             /* FGM_K_GIBBS_FAC a factor: operator,
                                 * arity, first edge, aux (a table's
                                 * offset in pool; a draw's node, a gated
                                 * draw's first node) */
    const double *pool;         /* the tables' potentials */
} fgm_k_gibbs_graph;

static inline int
fgm_k_gibbs_card(const fgm_k_gibbs_graph *g, int v)
{
    return g->card ? g->card[v] : g->k;
}

/* The node draw F (scope edges from F[2], arity F[1]) is from: a plain
 * draw's own, a gated draw's first node plus its gates' joint value
 * (row-major); -1 while a gate has no value. */
static inline int
fgm_k_gibbs_node(const fgm_state *st, const fgm_k_gibbs_graph *g,
                 const int *f)
{
    int j, at = 0, v, x;

    if (f[0] == FGM_K_OP_DIRICHLET)
        return f[3];
    for (j = 1; j < f[1]; j++) {
        v = g->edge_var[f[2] + j];
        if ((x = st->sample[v]) < 0)
            return -1;
        at = at * fgm_k_gibbs_card(g, v) + x;
    }
    return f[3] + at;
}

/* The factor of edge E: its FGM_K_GIBBS_FAC entries. */
static inline const int *
fgm_k_gibbs_factor(const fgm_k_gibbs_graph *g, int e)
{
    return g->fac + (long)FGM_K_GIBBS_FAC * g->edge_factor[e];
}

/* When factor F is a draw whose variables all have values: the node it
 * is from, and its value in *X; else -1. */
static inline int
fgm_k_gibbs_drawn(const fgm_state *st, const fgm_k_gibbs_graph *g,
                  const int *f, int *x)
{
    if (f[0] != FGM_K_OP_DIRICHLET && f[0] != FGM_K_OP_GATED)
        return -1;
    *x = st->sample[g->edge_var[f[2]]];
    return *x < 0 ? -1 : fgm_k_gibbs_node(st, g, f);
}

/* Adds D (+1 or -1) to the counts of every non-point-mass draw that
 * variable V takes part in (as the draw or a gate) and whose variables
 * all have values. */
static inline void
fgm_k_gibbs_count(fgm_state *st, const fgm_k_gibbs_graph *g, int v, double d)
{
    int j, x, node;

    for (j = g->var_edge_off[v]; j < g->var_edge_off[v + 1]; j++) {
        node = fgm_k_gibbs_drawn(st, g, fgm_k_gibbs_factor(g, g->var_edges[j]),
                                 &x);
        if (node >= 0 && !st->dir_point[node])
            st->gcount[(long)node * g->stride + x] += d;
    }
}

/* The weight node NODE gives value X of one draw: (a_x + n_x) / (A + N)
 * from the counts without the draw, or the point-mass prior's share.
 * The counts n are whole numbers, kept apart from the pseudo-counts a:
 * 1e-20 + 1 - 1 would be 0. */
static inline double
fgm_k_gibbs_share(const fgm_state *st, const fgm_k_gibbs_graph *g, int node,
                  int x, int k)
{
    const double *a = st->dir_prior + (long)node * g->stride;
    const double *n = st->gcount + (long)node * g->stride;
    double sum = 0.0;
    int j, point = st->dir_point[node];

    for (j = 0; j < k; j++)
        sum += a[j] + (point ? 0.0 : n[j]);
    return sum > 0.0 ? (a[x] + (point ? 0.0 : n[x])) / sum : 0.0;
}

/* W (K entries) times the weights table factor F (its edge POS is V's)
 * gives V's values with the others at theirs; unchanged while one has
 * none.  With BROKEN (K counts), a zero weight adds one to its value's
 * count instead of zeroing it. */
static inline void
fgm_k_gibbs_table(const fgm_state *st, const fgm_k_gibbs_graph *g,
                  const int *f, int pos, double *w, int *broken, int k)
{
    long at = 0, step = 1, xstep = 1;
    int j, v, x;

    for (j = f[1] - 1; j >= 0; j--) {   /* row-major: last fastest */
        v = g->edge_var[f[2] + j];
        if (j == pos) {
            xstep = step;
        } else {
            if ((x = st->sample[v]) < 0)
                return;
            at += step * x;
        }
        step *= fgm_k_gibbs_card(g, v);
    }
    for (x = 0; x < k; x++) {
        double p = g->pool[f[3] + at + xstep * x];

        if (broken && p == 0.0)
            broken[x]++;        /* counted, not weighed */
        else
            w[x] *= p;
    }
}

/* W (K entries) times sum factor F (its edge POS is V's; its range and
 * coefficients at F[3] in the pool): a value with which no values of
 * the variables yet without one (a cold sweep's later ones) can bring
 * the weighted sum into the range, the others at theirs, weighs 0; with
 * BROKEN, it counts instead as broken once per unit the sum is out by,
 * so that min-conflicts walks back toward the range (a sum of twenty
 * 1..9 that must stay under 40, started anywhere, every move breaking it
 * once, stayed broken).  While variables lack values their least and
 * largest values bound the sum: a cold sweep draws toward a feasible
 * start, not blind to the sum until its last variable. */
static inline void
fgm_k_gibbs_sum(const fgm_state *st, const fgm_k_gibbs_graph *g,
                const int *f, int pos, double *w, int *broken, int k)
{
    const double *range = g->pool + f[3];
    const double *coef = range + FGM_K_GIBBS_SUM_COEF;
    long total = 0, least = 0, most = 0, out, a, at;
    int j, x, u, ku;

    for (j = 0; j < f[1]; j++) {
        if (j == pos)
            continue;
        u = g->edge_var[f[2] + j];
        a = (long)coef[j];
        if ((x = st->sample[u]) < 0) {
            ku = fgm_k_gibbs_card(g, u);
            least += fgm_k_gibbs_term_bound(a, 0, ku - 1, 0);
            most += fgm_k_gibbs_term_bound(a, 0, ku - 1, 1);
        } else {
            total += a * x;
        }
    }
    for (x = 0; x < k; x++) {
        /* By how much the sums within reach miss the range. */
        at = total + (long)coef[pos] * x;
        out = at + least > (long)range[1] ? at + least - (long)range[1]
            : at + most < (long)range[0] ? (long)range[0] - (at + most)
            : 0;
        if (out == 0)
            continue;
        if (broken)
            broken[x] = out >= INT_MAX / 4 - broken[x] ? INT_MAX / 4
                        : broken[x] + (int)out;     /* saturated */
        else
            w[x] = 0.0;
    }
}

/* The weight of V's draws (those it is the value or a gate of) with V
 * at its current value, as P times 2^(*E): the Polya urn's, each draw's
 * share taken with the ones before it counted, as drawing them one
 * after the other from the collapsed node would (two of them from one
 * node, an HMM's state and the next, are not independent given the
 * others).  P is kept within the doubles by powers of two: a gate of a
 * thousand draws weighs (1/6)^1000.  The counts come back as they
 * were. */
static inline double
fgm_k_gibbs_urn(fgm_state *st, const fgm_k_gibbs_graph *g, int v, int *e)
{
    const int *f;
    double p = 1.0;
    int j, x, node, pass, k;

    *e = 0;
    for (pass = 0; pass < 2; pass++)
        for (j = g->var_edge_off[v]; j < g->var_edge_off[v + 1]; j++) {
            f = fgm_k_gibbs_factor(g, g->var_edges[j]);
            if ((node = fgm_k_gibbs_drawn(st, g, f, &x)) < 0)
                continue;
            k = fgm_k_gibbs_card(g, g->edge_var[f[2]]);
            if (pass == 0) {
                p *= fgm_k_gibbs_share(st, g, node, x, k);
                if (p > 0.0 && p < 0x1p-500) {  /* a share is at most 1 */
                    p = ldexp(p, 500);
                    *e -= 500;
                }
            }
            if (!st->dir_point[node])
                st->gcount[(long)node * g->stride + x] += pass ? -1.0 : 1.0;
        }
    return p;
}

/* W (K entries) scaled to a largest entry of 1 when it has moved far
 * from it: only the ratios count, and a variable with many strong
 * factors (a naive Bayes class of a few hundred features, a hub of 40
 * tables of weights near 1e9) would reach 0 or infinity on all of its
 * values. */
static inline void
fgm_k_gibbs_rescale(double *w, int k)
{
    double top = 0.0;
    int x;

    for (x = 0; x < k; x++)
        top = w[x] > top ? w[x] : top;
    if ((top > 0.0 && top < 1e-150) || top > 1e150)
        for (x = 0; x < k; x++)
            w[x] /= top;
}

/* W (K entries): variable V's conditional weights, its own draws taken
 * out of the counts (fgm_k_gibbs_count), scaled to a largest of 1 at
 * most.  With BROKEN (K counts, zeroed here), the hard zeros of !=,
 * alldiff and tables are counted instead, and each one a value breaks
 * beyond the fewest cuts its weight by 2^FGM_K_GIBBS_BROKEN_SHIFT
 * (min-conflicts with noise: the way back to a state of weight from one
 * of none).  Leaves V's value as it was. */
static inline void
fgm_k_gibbs_weights(fgm_state *st, const fgm_k_gibbs_graph *g, int v,
                    double *w, int *broken, int k)
{
    const double *u = st->unary + (long)v * g->stride;
    const int *f;
    double up[FGM_K_MAXCARD];
    int ue[FGM_K_MAXCARD], top = INT_MIN;
    int j, i, e, pos, x, y, own = st->sample[v], draws = 0, least = -1;

    for (x = 0; x < k; x++) {
        w[x] = u[x];
        if (broken)
            broken[x] = 0;
    }
    for (j = g->var_edge_off[v]; j < g->var_edge_off[v + 1]; j++) {
        e = g->var_edges[j];
        f = fgm_k_gibbs_factor(g, e);
        pos = e - f[2];
        switch (f[0]) {
        case FGM_K_OP_NEQ:
        case FGM_K_OP_ALLDIFF:
            for (i = 0; i < f[1]; i++)
                if (i != pos && (y = st->sample[g->edge_var[f[2] + i]]) >= 0
                    && y < k) {
                    if (broken)
                        broken[y]++;
                    else
                        w[y] = 0.0;
                }
            break;
        case FGM_K_OP_TABLE:
            fgm_k_gibbs_table(st, g, f, pos, w, broken, k);
            fgm_k_gibbs_rescale(w, k);
            break;
        case FGM_K_OP_SUM:
            fgm_k_gibbs_sum(st, g, f, pos, w, broken, k);
            break;
        default:        /* a draw: below, value by value */
            draws = 1;
            break;
        }
    }
    for (x = 0; draws && x < k; x++) {
        up[x] = 0.0;
        ue[x] = 0;
        if (w[x] > 0.0) {
            st->sample[v] = x;
            up[x] = fgm_k_gibbs_urn(st, g, v, &ue[x]);
            if (up[x] > 0.0 && ue[x] > top)
                top = ue[x];
        }
    }
    st->sample[v] = own;
    for (x = 0; draws && x < k; x++)    /* the largest exponent as 0 */
        w[x] = !(up[x] > 0.0) ? 0.0
               : ue[x] == top ? w[x] * up[x]
               : w[x] * ldexp(up[x], ue[x] - top);
    fgm_k_gibbs_rescale(w, k);
    for (x = 0; broken && x < k; x++)
        if (w[x] > 0.0 && (least < 0 || broken[x] < least))
            least = broken[x];
    /* Each one more: 1/8 the odds; past 1100 more the weight is 0 in
     * doubles anyway (2^-3300), where the product would overflow an
     * int (a weighted sum misses its range by up to 6.3e7 a factor). */
    for (x = 0; broken && x < k; x++)
        w[x] = ldexp(w[x], -FGM_K_GIBBS_BROKEN_SHIFT
                           * (broken[x] - least > 1100 ? 1100
                              : broken[x] - least));
}

/* The sum of W's K entries, or 0 when it is no finite positive number
 * (no value has weight, or the weights overflowed). */
static inline double
fgm_k_gibbs_total(const double *w, int k)
{
    double total = 0.0;
    int x;

    for (x = 0; x < k; x++)
        total += w[x];
    return total > 0.0 && total <= DBL_MAX ? total : 0.0;
}

/* The value drawn with weights W (K entries, sum TOTAL > 0). */
static inline int
fgm_k_gibbs_draw(fgm_state *st, const double *w, int k, double total)
{
    double u = st->uniform(st->rng) * total, acc = 0.0;
    int x, last = -1;

    for (x = 0; x < k; x++) {
        if (!(w[x] > 0.0))
            continue;
        last = x;
        acc += w[x];
        if (u < acc)
            return x;
    }
    return last;        /* rounding: the last value with weight */
}

/* Every node's counts from scratch: the draws whose variables all have
 * values. */
static inline void
fgm_k_gibbs_recount(fgm_state *st, const fgm_k_gibbs_graph *g)
{
    long j, nd = (long)g->ndirichlet * g->stride;
    int i, x, node;

    for (j = 0; j < nd; j++)
        st->gcount[j] = 0.0;
    for (i = 0; i < g->nfactors; i++) {
        node = fgm_k_gibbs_drawn(st, g, g->fac + (long)FGM_K_GIBBS_FAC * i,
                                 &x);
        if (node >= 0 && !st->dir_point[node])
            st->gcount[(long)node * g->stride + x] += 1.0;
    }
}

/* Start of a cold run: no values, every node's counts at its prior, no
 * sweep kept. */
static inline void
fgm_k_gibbs_reset(fgm_state *st, const fgm_k_gibbs_graph *g)
{
    int v;

    for (v = 0; v < g->nvars; v++)
        st->sample[v] = -1;
    fgm_k_gibbs_recount(st, g);
}

/* One sweep; returns the largest change one more kept sweep made to a
 * marginal estimate, when st->track_change (1 while none is kept).  A
 * sweep past the burn-in is kept only when every draw in it had a value
 * of weight: its conditionals, gathered in st->gsweep, are then added to
 * the estimates; one with a draw without weight (counted in
 * st->gibbs_dead) was drawn in a state the model rules out, and adds
 * nothing. */
static inline double
fgm_k_gibbs_sweep(fgm_state *st, const fgm_k_gibbs_graph *g)
{
    double w[FGM_K_MAXCARD], total, change = 0.0, n = (double)st->gibbs_kept;
    int broken[FGM_K_MAXCARD];
    int keep = st->gibbs_sweeps >= st->gibbs_burn, v, x, k, d;
    long dead = 0;

    for (v = 0; v < g->nvars; v++) {
        double *p = st->gsweep + (long)v * g->stride;

        k = fgm_k_gibbs_card(g, v);
        fgm_k_gibbs_count(st, g, v, -1.0);
        fgm_k_gibbs_weights(st, g, v, w, NULL, k);
        if ((total = fgm_k_gibbs_total(w, k)) > 0.0) {
            st->sample[v] = fgm_k_gibbs_draw(st, w, k, total);
            for (x = 0; keep && x < k; x++)
                p[x] = w[x] / total;
        } else {
            /* The constraints leave no value (the others' values break
             * them): a draw by the other weights, the values that break
             * more constraints less likely (a clue's point mass holds);
             * -1 when none has any weight. */
            fgm_k_gibbs_weights(st, g, v, w, broken, k);
            total = fgm_k_gibbs_total(w, k);
            st->sample[v] = total > 0.0 ? fgm_k_gibbs_draw(st, w, k, total)
                                        : -1;
            dead++;
        }
        fgm_k_gibbs_count(st, g, v, 1.0);
    }
    st->gibbs_sweeps++;
    if (!keep)
        return 1.0;
    st->gibbs_dead += dead;
    if (dead)
        return 1.0;
    for (v = 0; v < g->nvars; v++) {
        const double *p = st->gsweep + (long)v * g->stride;
        double *t = st->tally + (long)v * g->stride;

        k = fgm_k_gibbs_card(g, v);
        for (x = 0; x < k; x++) {
            if (st->track_change) {
                double c = n > 0.0 ? (p[x] - t[x] / n) / (n + 1.0) : 1.0;

                c = c < 0.0 ? -c : c;
                change = c > change ? c : change;
            }
            t[x] += p[x];
        }
    }
    for (d = 0; d < g->ndirichlet; d++) {
        const double *a = st->dir_prior + (long)d * g->stride;
        const double *c = st->gcount + (long)d * g->stride;
        double *t = st->gtally + (long)d * g->stride, sum = 0.0;

        if (st->dir_point[d])
            continue;
        for (x = 0; x < g->stride; x++)
            sum += a[x] + c[x];
        for (x = 0; x < g->stride && sum > 0.0; x++)
            t[x] += (a[x] + c[x]) / sum;
        st->gtotal[d] += sum;
    }
    st->gibbs_kept++;
    return change;
}

/* The end of a run, and the start of a warm one (plugin_abi.h's finish):
 * the nodes' counts from scratch (at a run's end they are unchanged:
 * whole numbers, stepped by one).  And the estimates of the kept sweeps:
 * every belief the mean of its
 * variable's conditionals (uniform when none had a positive weight);
 * every node's posterior the Dirichlet whose mean is the mean of its
 * predictive (a + n) / (A + N) over the sweeps, the posterior mean, and
 * whose total is A plus its mean number of draws (a gated node's draws
 * vary in number: (a + E n) / (A + E N) would not be the mean). */
static inline void
fgm_k_gibbs_finish(fgm_state *st, const fgm_k_gibbs_graph *g)
{
    double n = (double)st->gibbs_kept, z;
    int v, x, k, d;

    fgm_k_gibbs_recount(st, g);
    for (v = 0; v < g->nvars; v++) {
        const double *t = st->tally + (long)v * g->stride;
        double *b = st->belief + (long)v * g->stride;

        k = fgm_k_gibbs_card(g, v);
        z = 0.0;
        for (x = 0; x < k; x++)
            z += t[x];
        /* None: uniform, as a message-passing belief with nothing
         * left (ops/sweep.h); the runtime reports the contradiction. */
        for (x = 0; x < g->stride; x++)
            b[x] = x >= k ? 0.0 : z > 0.0 ? t[x] / z : 1.0 / k;
    }
    for (d = 0; d < g->ndirichlet; d++) {
        const double *t = st->gtally + (long)d * g->stride;
        const double *a = st->dir_prior + (long)d * g->stride;
        double *post = st->dir_post + (long)d * g->stride;
        int kept = n > 0.0 && !st->dir_point[d];

        for (x = 0; x < g->stride; x++)
            post[x] = kept ? t[x] / n * (st->gtotal[d] / n) : a[x];
    }
}

#endif /* FGM_OPS_GIBBS_H */
