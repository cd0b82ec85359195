/* runtime/ops/sweep.h: what runs around the operators of every schedule.
 * The reset at the start of a run; the belief refresh (and the seed's
 * damped variable-to-factor messages) at the end of each flooding sweep,
 * and once at the end of a sequential run (the finish of a plugin or of
 * the interpreter).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 */
#ifndef FGM_OPS_SWEEP_H
#define FGM_OPS_SWEEP_H

#include <float.h>
#include <limits.h>
#include <math.h>
#include "common.h"
#include "seed.h"

/* fgm_k_belief_full for one variable whose running product lost a value
 * to underflow: the product value by value, each kept as a mantissa in
 * [0.5, 1) and a binary exponent, so that no order of the messages
 * loses one; then scaled to the largest and normalized.  Out of line
 * and slow (frexp per value and message): it runs only when the fast
 * product underflowed, which Sudoku's beliefs never do but a variable
 * with many strong messages does (a naive Bayes class with 244
 * features of odds 999 gave the wrong class when 120 features against
 * the answer came first). */
static __attribute__((noinline, cold)) void
fgm_k_belief_exact(double *belief, const double *unary, const double *msgs,
                   const int *e, int n, int stride, int k)
{
    double m[FGM_K_MAXCARD], z = 0.0;
    long ex[FGM_K_MAXCARD], top = LONG_MIN;
    int v, j, x;

    for (v = 0; v < k; v++) {
        m[v] = frexp(unary[v], &x);
        ex[v] = x;
    }
    for (j = 0; j < n; j++)
        for (v = 0; v < k; v++) {
            m[v] = frexp(m[v] * msgs[(long)e[j] * stride + v], &x);
            ex[v] += x;
        }
    for (v = 0; v < k; v++)
        if (m[v] > 0.0 && ex[v] > top)
            top = ex[v];
    for (v = 0; v < k; v++) {
        /* Past -1100 the value is 0 anyway; the bound keeps the long
         * in an int. */
        long d = ex[v] - top < -1100 ? -1100 : ex[v] - top;

        belief[v] = m[v] > 0.0 ? ldexp(m[v], (int)d) : 0.0;
        z += belief[v];
    }
    for (v = 0; v < k; v++)    /* z >= 0.5: the top's mantissa */
        belief[v] = z > 0.0 ? belief[v] / z : 1.0 / k;
}

/* BELIEF[t] = normalize(UNARY[t] * prod of the N messages
 * MSGS[E[t][j]*stride]) for the G (1 or 2) variables t: beliefs
 * recomputed from scratch (end of every flooding sweep; end of a
 * sequential run, whose updates moved them in place).  Each variable's
 * product is one long dependent chain; two chains interleaved keep the
 * multiplier busy, and give the same numbers as one at a time.  G is a
 * constant at every call.
 *
 * Renormalizing every 8 messages keeps the largest value of the product
 * normal (messages are >= FGM_K_FLOOR, 1e-30), but not the others: one
 * whose messages are against it long enough leaves the normal range,
 * losing digits, or reaches 0, and the messages for it after that
 * cannot bring it back (the answer then depends on the messages'
 * order).  Message values are at most 1, so a value of the product only
 * falls between renormalizations: one below DBL_MIN at the next (where
 * the unary vector allows it) is the sign, checked there, and the
 * variable's belief is then computed again by fgm_k_belief_exact.  The
 * same numbers as before otherwise. */
FGM_K_HOT void
fgm_k_belief_full(double *const *belief, const double *const *unary,
                  const double *msgs, const int *const *e, int g, int n,
                  int stride, int k)
{
    fgm_v4 b[2][FGM_K_VCHUNKS], lost[2];
    fgm_v4i allowed[2][FGM_K_VCHUNKS];
    fgm_v4 tiny = fgm_v_splat(DBL_MIN), one = fgm_v_splat(1.0);
    int c, j, t, nc = FGM_K_NCHUNKS(k);

    for (t = 0; t < g; t++) {
        lost[t] = fgm_v_zero();
        for (c = 0; c < nc; c++) {
            b[t][c] = fgm_v_load(unary[t] + c * FGM_K_LANES);
            allowed[t][c] = fgm_v_lt(fgm_v_zero(), b[t][c]);
        }
    }
    for (j = 0; j < n; j++) {
        for (t = 0; t < g; t++) {
            const double *m = msgs + (long)e[t][j] * stride;

            for (c = 0; c < nc; c++)
                b[t][c] = fgm_v_mul(b[t][c], fgm_v_load(m + c * FGM_K_LANES));
        }
        if ((j & 7) == 7 || j == n - 1)
            for (t = 0; t < g; t++) {
                for (c = 0; c < nc; c++)
                    lost[t] = fgm_v_select(
                        fgm_v_lt(b[t][c], tiny),
                        fgm_v_select(allowed[t][c], one, lost[t]), lost[t]);
                if ((j & 7) == 7)
                    fgm_v_normalize(b[t], nc, k);
            }
    }
    for (t = 0; t < g; t++) {
        fgm_v_normalize(b[t], nc, k);
        for (c = 0; c < nc; c++)
            fgm_v_store(belief[t] + c * FGM_K_LANES, b[t][c]);
        if (fgm_v_hmax(lost[t]) > 0.0)
            fgm_k_belief_exact(belief[t], unary[t], msgs, e[t], n, stride,
                               k);
    }
}

/* The updates of st->live among schedule factors FIRST..FIRST+COUNT-1
 * (one run of a plugin): *N of them, from the returned pointer. */
FGM_K_HOT const int *
fgm_k_live_range(const fgm_state *st, int first, int count, int *n)
{
    int lo = 0, hi = st->nlive, mid, start;

    while (lo < hi) {   /* the first entry >= FIRST */
        mid = lo + (hi - lo) / 2;
        if (st->live[mid] < first)
            lo = mid + 1;
        else
            hi = mid;
    }
    start = lo;
    hi = st->nlive;
    while (lo < hi) {   /* the first entry >= FIRST + COUNT */
        mid = lo + (hi - lo) / 2;
        if (st->live[mid] < first + count)
            lo = mid + 1;
        else
            hi = mid;
    }
    *n = lo - start;
    return st->live + start;
}

/* Start of a run: every edge message uniform over its variable's domain
 * (FGM_K_FLOOR past it: dead lanes of a message stay finite and
 * positive, so that a cavity's are 0 / m = 0), every belief the
 * normalized unary vector, Dirichlet posteriors at their priors with no
 * messages yet.  CARD (nvars) gives each domain size, or is NULL when all
 * have size K. */
static inline void
fgm_k_reset(fgm_state *st, int nvars, int nedges, int ndirichlet,
            int ndirfactors, const int *edge_var, const int *card, int k,
            int stride)
{
    /* The seed's flooding BP keeps its messages plus FGM_K_SEED_EPS
     * (fgm_k_seed_commit_n). */
    double eps = st->damp_v2f ? FGM_K_SEED_EPS : 0.0;
    int e, v, j, c;

    for (e = 0; e < nedges; e++) {
        c = card ? card[edge_var[e]] : k;
        for (j = 0; j < stride; j++)
            st->msg[(long)e * stride + j] = j < c ? 1.0 / c + eps
                                                  : FGM_K_FLOOR;
    }
    for (v = 0; v < nvars; v++) {
        double *b = st->belief + (long)v * stride;

        for (j = 0; j < stride; j++)
            b[j] = st->unary[(long)v * stride + j];
        fgm_k_normalize(b, card ? card[v] : k);
    }
    for (e = 0; e < nedges && st->damp_v2f; e++) {
        c = card ? card[edge_var[e]] : k;
        for (j = 0; j < stride; j++)
            st->prev[(long)e * stride + j] = j < c ? 1.0 / c : 0.0;
    }
    for (j = 0; j < ndirichlet * stride; j++)
        st->dir_post[j] = st->dir_prior[j];
    for (j = 0; j < ndirfactors * stride; j++)
        st->dir_msg[j] = 0.0;
}

/* The stored variable-to-factor messages of the N (<= 4 NG) edges
 * E[0..N-1] out of variable V (damp_v2f only: the seed's flooding BP,
 * notebook 001, which damps both directions): each becomes nf(d old +
 * (1 - d) nf(CAV)), nf the seed's _bp_normalize (fgm_k_seed_normalize4),
 * CAV the edge's NC chunks of belief / factor message (dead lanes zero),
 * two edges to a division (fgm_k_cavities2), an odd last one divided
 * alone.  The seed floors exp(raw - max raw), raw the log of the cavity,
 * whose largest entry is 1: CAV's floor is FGM_K_SEED_EPS times its
 * largest entry.  All 4 NG rows of the batch are computed, those past N
 * from E[0] and dropped, so that each has a constant index where the
 * kernel is inlined.  Returns the largest change of an entry when
 * st->track_change, else 0. */
FGM_K_HOT double
fgm_k_v2f_batch(fgm_state *st, const int *e, int n, int ng, int v,
                int stride, int k)
{
    fgm_k_seed_rows cav;
    const double *bv = st->belief + (long)v * stride, *m1, *m2;
    double lo[FGM_K_SEED_BATCH], *p[FGM_K_SEED_BATCH], *f[FGM_K_SEED_BATCH];
    double last[FGM_K_LANES];
    fgm_v4 change = fgm_v_zero(), top, tops[FGM_K_LANES], old, b, mt, sw;
    int i, j, c, g, nc = FGM_K_NCHUNKS(k), own = fgm_k_seed_own(nc, k);
    long at = (long)k - 1;

    for (j = 0; j < ng * FGM_K_LANES; j += 2) {
        m1 = f[j] = st->msg + (long)e[j < n ? j : 0] * stride;
        m2 = f[j + 1] = st->msg + (long)e[j + 1 < n ? j + 1 : 0] * stride;
        for (c = 0; c < own; c++) {
            b = fgm_v_load(bv + c * FGM_K_LANES);
            if (j + 1 == n) {
                cav[j][c] = fgm_v_div(b, fgm_v_load(m1 + c * FGM_K_LANES));
                cav[j + 1][c] = cav[j][c];
            } else {
                fgm_k_cavities2(b, fgm_v_load(m1 + c * FGM_K_LANES), b,
                                fgm_v_load(m2 + c * FGM_K_LANES), &cav[j][c],
                                &cav[j + 1][c]);
            }
            cav[j][c] = fgm_v_keep(cav[j][c], fgm_v_live(c, k));
            cav[j + 1][c] = fgm_v_keep(cav[j + 1][c], fgm_v_live(c, k));
        }
    }
    for (g = 0; own < nc && g < ng; g++) {
        /* The packed last values (fgm_k_seed_packed): each pair of rows
         * from one division, as fgm_k_cavities2 takes them lane by lane
         * (MA MB = MB MA exactly); an odd last row divided alone. */
        b = fgm_v_splat(bv[at]);
        mt = fgm_k_seed_gather(f + g * FGM_K_LANES, at);
        sw = fgm_v_swap_pairs(mt);
        fgm_k_seed_tail(cav, g, nc)
            = fgm_v_mul(b, fgm_v_mul(sw, fgm_v_div(fgm_v_splat(1.0),
                                                   fgm_v_mul(mt, sw))));
        if ((n & 1) && n - 1 >= g * FGM_K_LANES
            && n - 1 < (g + 1) * FGM_K_LANES) {
            fgm_v_store(last, fgm_k_seed_tail(cav, g, nc));
            j = (n - 1) % FGM_K_LANES;
            last[j] = last[j + 1] = bv[at] / f[n - 1][at];
            fgm_k_seed_tail(cav, g, nc) = fgm_v_load(last);
        }
    }
    for (g = 0; g < ng; g++) {
        /* Each row's largest entry, four rows at once on their lane
         * maxima transposed (maxima of non-NaN values: any order). */
        for (j = 0; j < FGM_K_LANES; j++) {
            i = g * FGM_K_LANES + j;
            p[i] = st->prev + (long)e[i < n ? i : 0] * stride;
            tops[j] = fgm_v_zero();
            for (c = 0; c < own; c++)
                tops[j] = fgm_v_max(cav[i][c], tops[j]);
        }
        fgm_v_transpose4(tops, tops);
        top = fgm_v_max(fgm_v_max(tops[0], tops[1]),
                        fgm_v_max(tops[2], tops[3]));
        if (own < nc)
            top = fgm_v_max(fgm_k_seed_tail(cav, g, nc), top);
        fgm_v_store(lo + g * FGM_K_LANES,
                    fgm_v_mul(fgm_v_splat(FGM_K_SEED_EPS), top));
    }
    fgm_k_seed_normalize4(cav, ng, nc, k, lo);
    fgm_k_seed_damp4(cav, p, ng, nc, k, st->damping, 0.0);
    for (i = 0; i < ng * FGM_K_LANES; i++)
        for (c = 0; i < n && c < own; c++) {
            old = fgm_v_load(p[i] + c * FGM_K_LANES);
            if (st->track_change)
                change = fgm_v_max(fgm_v_keep(fgm_v_abs(fgm_v_sub(cav[i][c],
                                                                  old)),
                                              fgm_v_live(c, k)), change);
            fgm_v_store(p[i] + c * FGM_K_LANES, cav[i][c]);
        }
    for (g = 0; own < nc && g < ng; g++)     /* dead lanes stay zero */
        change = fgm_k_seed_store_tail(p, at, g, fgm_k_seed_tail(cav, g, nc),
                                       (1u << n) - 1, st->track_change,
                                       change);
    return fgm_v_hmax(change);
}

/* fgm_k_v2f_batch over the N edges E[0..N-1] out of variable V, eight at
 * a time.  Returns the largest change. */
FGM_K_HOT double
fgm_k_v2f_var(fgm_state *st, const int *e, int n, int v, int stride, int k)
{
    double change = 0.0, ch;
    int i, nb;

    for (i = 0; i < n; i += FGM_K_SEED_BATCH) {
        nb = n - i < FGM_K_SEED_BATCH ? n - i : FGM_K_SEED_BATCH;
        ch = nb > FGM_K_LANES
             ? fgm_k_v2f_batch(st, e + i, nb, 2, v, stride, k)
             : fgm_k_v2f_batch(st, e + i, nb, 1, v, stride, k);
        change = ch > change ? ch : change;
    }
    return change;
}

/* End of a sweep: every belief recomputed from its unary vector and all
 * its incoming messages (VAR_EDGES[VAR_EDGE_OFF[v]..VAR_EDGE_OFF[v+1]]),
 * except a pinned one while updates around it are skipped (its messages
 * did not move); with V2F, each variable's stored variable-to-factor
 * messages are then updated from its new belief (fgm_k_v2f_var), while
 * the belief is still in cache, but for a pinned variable's (the seed's
 * v4 freezes its clues' and decisions', fgm_model_v2f_start).  Returns
 * the largest change of those (0 without V2F). */
static inline double
fgm_k_refresh(fgm_state *st, int nvars, const int *var_edge_off,
              const int *var_edges, const int *card, int k, int stride,
              int v2f)
{
    double change = 0.0, c, *b[2];
    const double *u[2];
    const int *e[2];
    int v, w, kv, n, two;

    for (v = 0; v < nvars; v += 1 + two) {
        two = 0;
        if (st->skip_pinned && st->pinned[v])
            continue;
        kv = card ? card[v] : k;
        n = var_edge_off[v + 1] - var_edge_off[v];
        /* Two alike variables at once (the same numbers). */
        two = v + 1 < nvars && !(st->skip_pinned && st->pinned[v + 1])
              && (card ? card[v + 1] : k) == kv
              && var_edge_off[v + 2] - var_edge_off[v + 1] == n;
        for (w = 0; w <= two; w++) {
            b[w] = st->belief + (long)(v + w) * stride;
            u[w] = st->unary + (long)(v + w) * stride;
            e[w] = var_edges + var_edge_off[v + w];
        }
        if (two)
            fgm_k_belief_full(b, u, st->msg, e, 2, n, stride, kv);
        else
            fgm_k_belief_full(b, u, st->msg, e, 1, n, stride, kv);
        for (w = v; v2f && w <= v + two; w++) {
            /* Pinned: frozen, as the seed's v4 freezes the messages of
             * its clues and decisions (fgm_model_v2f_start). */
            if (st->pinned && st->pinned[w])
                continue;
            c = fgm_k_v2f_var(st, var_edges + var_edge_off[w],
                              var_edge_off[w + 1] - var_edge_off[w], w,
                              stride, kv);
            change = c > change ? c : change;
        }
    }
    return change;
}

#endif /* FGM_OPS_SWEEP_H */
