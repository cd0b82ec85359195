/* runtime/ops/dirichlet.h: "x ~ Discrete(p), p ~ Dirichlet" (EP and BP).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 */
#ifndef FGM_OPS_DIRICHLET_H
#define FGM_OPS_DIRICHLET_H

#include <math.h>
#include "common.h"

/* Whether a skipping sweep skips "x ~ Discrete(p)" for variable V and
 * node D: V is pinned and D's prior a point mass (runtime/model.c lists
 * the updates that remain with this test). */
FGM_K_HOT int
fgm_k_dirichlet_pinned(const fgm_state *st, int v, int d)
{
    return st->pinned[v] && st->dir_point[d];
}

/* Relative spread of a cavity's entries that still counts as uniform:
 * rounding, not information (a table whose rows hold the same weights in
 * another order sums them in another order: 1 ulp apart). */
#define FGM_K_DIRICHLET_FLAT_TOL 1e-12

/* The smallest and largest of the K live entries of Q (NC chunks, x's
 * cavity), into *LO and *HI.  The cavity counts as uniform when they are
 * within FGM_K_DIRICHLET_FLAT_TOL of the largest.  (On vectors: read
 * lane by lane, GCC 12 took Q's unread lanes for uninitialized once the
 * mean projection below had grown fgm_k_dirichlet; the scalar test cost
 * bench_ep's exact-clue compiled run about 3%, easy50, A/B against no
 * test.) */
FGM_K_HOT void
fgm_k_dirichlet_range(const fgm_v4 *q, int nc, int k, double *lo,
                      double *hi)
{
    fgm_v4 none = fgm_v_splat(-HUGE_VAL), neg = none, pos = none;
    int c;

    for (c = 0; c < nc; c++) {
        /* Dead lanes hold +0.0, below no live entry (Q >= 0), but they
         * must not be taken for its smallest. */
        pos = fgm_v_max(pos, q[c]);
        neg = fgm_v_max(neg, fgm_v_select(fgm_v_live(c, k),
                                          fgm_v_sub(fgm_v_zero(), q[c]),
                                          none));
    }
    *lo = -fgm_v_hmax(neg);
    *hi = fgm_v_hmax(pos);
}

/* Whether W (K values, normalized) is one value's: an observed draw,
 * whose tilted distribution is Dir(a + e_x) itself, so that either
 * projection keeps it as it is.  The mean-square projection's moments
 * would return it up to their cancellation, which a lopsided node (1
 * and 1e-300) turns into a wrong posterior. */
FGM_K_HOT int
fgm_k_dirichlet_onehot(const fgm_v4 *w, int k)
{
    int i, hot = 0;

    for (i = 0; i < k; i++)
        hot += fgm_v_lane(w[i / FGM_K_LANES], i % FGM_K_LANES) != 0.0;
    return hot == 1;
}

/* The mean projection (FGM_PROJECTION_MEAN, below) of an update of
 * "x ~ Discrete(p)" to p's node, as Infer.NET's default makes it
 * (DiscreteFromDirichletOp.ProbsAverageConditional without
 * AllowImproperSum): the new posterior POST is the tilted mean's
 * direction, CAV + W, scaled so that the count of the value x is least
 * likely to take (QMIN, the smallest of its cavity Q's live values)
 * stays the cavity's, and so does every value tied with it; MP, the
 * update's message to the node, is POST - CAV, 0 at those values and
 * > 0 elsewhere.  W = Q CAV / S, so W / CAV is Q / S at each value and the
 * scale cav_a / (cav_a + w_a) at the least likely value a is S / (S +
 * min Q).  A draw that tells little (Q near uniform) adds little: the
 * counts added sum to S (A + 1) / (S + min Q) - A over a cavity of total
 * A, from 1 (an observed draw, min Q = 0) down to 0 (a uniform Q). */
FGM_K_HOT void
fgm_k_dirichlet_mean(double *post, double *mp, const fgm_v4 *q,
                     const fgm_v4 *cav, const fgm_v4 *w, double s,
                     double qmin, int nc)
{
    fgm_v4 least = fgm_v_splat(qmin);
    fgm_v4 scale = fgm_v_splat(s > 0.0 ? s / (s + qmin) : 1.0);
    int c;

    for (c = 0; c < nc; c++) {
        fgm_v4 p = fgm_v_select(fgm_v_lt(least, q[c]),
                                fgm_v_mul(scale, fgm_v_add(cav[c], w[c])),
                                cav[c]);

        fgm_v_store(post + c * FGM_K_LANES, p);
        fgm_v_store(mp + c * FGM_K_LANES, fgm_v_sub(p, cav[c]));
    }
}

/* Message of "x ~ Discrete(p)" to x when p is a Dirichlet node (EP).
 *
 * The cavity of p is Dir(a), a = posterior - this factor's pseudo-count
 * message; the message to x is its mean a / sum(a).  The message back to p
 * projects the tilted distribution sum_v w(v) Dir(a + e_v), with
 * w(v) ~ q(v) a_v and q x's cavity, onto one Dirichlet:
 *   FGM_PROJECTION_MEAN (MEAN_SQUARE 0): match the mean, with the total
 *     that keeps the least likely value's count, as Infer.NET's default
 *     does (fgm_k_dirichlet_mean; exact when x is observed: a' = a +
 *     e_x).  Until 2026-12-07 this kept the total sum(a) + 1, a' = a + w:
 *     the same mean, but a draw that told almost nothing still added a
 *     whole count, and ep-iterative ranked its cells otherwise (2,350
 *     sweeps on notebook 000's two Easy grids, the seed's 2,150 now);
 *   FGM_PROJECTION_MEAN_SQUARE (MEAN_SQUARE 1): match the mean m and the
 *     mean square sum_j E[p_j^2] = M2, giving the precision
 *     s = (1 - M2) / (M2 - sum_j m_j^2) and a' = s m (Minka 2000,
 *     "Estimating a Dirichlet distribution"; Minka and Lafferty 2002).
 * When x's cavity is uniform (a draw nothing else constrains, or any
 * draw before the first messages reach it), the tilted distribution is
 * Dir(a) itself -- sum_v a_v Dir(a + e_v) / sum(a) = Dir(a) -- so p gets
 * no pseudo-counts from it, exactly, under either projection (Infer.NET's
 * DiscreteFromDirichletOp skips a uniform sample message likewise); the
 * mean projection would otherwise count the unobserved draw as one
 * observation (dice.fgm with no rolls: 4.33 a face instead of 1).
 * A point-mass prior (a clue), or EP 0 (BP), sends the prior's mean and
 * p is not updated.
 * E, V: x's edge and variable; D: p's node (its posterior and prior are
 * row D of st->dir_post and st->dir_prior, K each); G: this factor's row
 * of st->dir_msg, its message to p.  SCRATCH is unused.  Returns the
 * largest change of the x message. */
FGM_K_HOT double
fgm_k_dirichlet(fgm_state *st, int e, int v, int d, int g, int stride, int k,
                int ep, int mean_square, double *scratch)
{
    fgm_v4 q[FGM_K_VCHUNKS], cav[FGM_K_VCHUNKS], w[FGM_K_VCHUNKS];
    fgm_v4 nm[FGM_K_VCHUNKS], acc = fgm_v_zero();
    double *m = st->msg + (long)e * stride;
    double *bel = st->belief + (long)v * stride;
    double *post = st->dir_post + (long)d * stride;
    double *prior = st->dir_prior + (long)d * stride;
    double *mp = st->dir_msg + (long)g * stride, change, a, wsum, qlo, qhi;
    int c, nc = FGM_K_NCHUNKS(k), w_is_belief = 0;

    (void)scratch;
    if (st->skip_pinned && fgm_k_dirichlet_pinned(st, v, d))
        return 0.0;
    /* x's cavity, normalized below where it is needed (w is normalized
     * on its own). */
    for (c = 0; c < nc; c++)
        q[c] = fgm_v_keep(fgm_v_div(fgm_v_load(bel + c * FGM_K_LANES),
                                    fgm_v_load(m + c * FGM_K_LANES)),
                          fgm_v_live(c, k));
    if (st->dir_point[d] || !ep) {
        fgm_v_normalize(q, nc, k);
        /* Point mass, or BP: the prior's mean is the whole message. */
        for (c = 0; c < nc; c++)
            nm[c] = fgm_v_keep(fgm_v_load(prior + c * FGM_K_LANES),
                               fgm_v_live(c, k));
    } else {
        for (c = 0; c < nc; c++) {
            /* An improper cavity (possible with mean-square messages)
             * is clipped to a proper one. */
            cav[c] = fgm_v_sub(fgm_v_load(post + c * FGM_K_LANES),
                               fgm_v_load(mp + c * FGM_K_LANES));
            cav[c] = fgm_v_keep(fgm_v_floor(cav[c], 1e-12), fgm_v_live(c, k));
            acc = fgm_v_add(acc, cav[c]);
            nm[c] = cav[c];
            w[c] = fgm_v_mul(q[c], cav[c]);
        }
        a = fgm_v_sum(acc);
        wsum = fgm_v_normalize(w, nc, k);
        if (!(wsum > 0.0))
            for (c = 0; c < nc; c++)    /* x's cavity has no mass: */
                w[c] = fgm_v_mul(cav[c], fgm_v_splat(1.0 / a)); /* uniform */
        /* The message to x is cav / a, so x's new belief, q times it
         * normalized, is w -- unless the message's floor (FGM_K_FLOOR)
         * bites, which takes a > 1e18 (cav >= 1e-12). */
        w_is_belief = a < 1e17;
        fgm_k_dirichlet_range(q, nc, k, &qlo, &qhi);
        if (qhi - qlo <= FGM_K_DIRICHLET_FLAT_TOL * qhi) {
            for (c = 0; c < nc; c++) {
                fgm_v_store(post + c * FGM_K_LANES, cav[c]);
                fgm_v_store(mp + c * FGM_K_LANES, fgm_v_zero());
            }
        } else if (mean_square && !fgm_k_dirichlet_onehot(w, k)) {
            fgm_v4 m2 = fgm_v_zero(), sm2 = fgm_v_zero(), mean, c1, t2;
            fgm_v4 a1 = fgm_v_splat(a + 1.0);
            fgm_v4 a12 = fgm_v_splat((a + 1.0) * (a + 2.0));
            double s, t;

            for (c = 0; c < nc; c++) {
                mean = fgm_v_div(fgm_v_add(cav[c], w[c]), a1);
                /* E[p_i^2] under the tilted mixture:
                 * (cav (cav + 1) + 2 w (cav + 1)) / ((a + 1)(a + 2)). */
                c1 = fgm_v_add(cav[c], fgm_v_splat(1.0));
                t2 = fgm_v_mul(fgm_v_mul(fgm_v_splat(2.0), w[c]), c1);
                m2 = fgm_v_add(m2, fgm_v_div(fgm_v_add(fgm_v_mul(cav[c], c1),
                                                       t2), a12));
                sm2 = fgm_v_add(sm2, fgm_v_mul(mean, mean));
            }
            t = fgm_v_sum(m2);
            s = fgm_v_sum(sm2);
            s = (t - s) > 0.0 ? (1.0 - t) / (t - s) : a + 1.0;
            for (c = 0; c < nc; c++) {
                fgm_v4 p = fgm_v_div(fgm_v_mul(fgm_v_splat(s),
                                               fgm_v_add(cav[c], w[c])), a1);

                fgm_v_store(post + c * FGM_K_LANES, p);
                fgm_v_store(mp + c * FGM_K_LANES, fgm_v_sub(p, cav[c]));
            }
        } else {
            fgm_k_dirichlet_mean(post, mp, q, cav, w, wsum, qlo, nc);
        }
    }
    fgm_v_normalize(nm, nc, k);
    change = fgm_v_commit(m, nm, 0.0, nc, k, st->track_change);
    if (!st->parallel && w_is_belief) {
        for (c = 0; c < nc; c++)
            fgm_v_store(bel + c * FGM_K_LANES, w[c]);
    } else if (!st->parallel) {
        if (ep && !st->dir_point[d])
            fgm_v_normalize(q, nc, k);
        for (c = 0; c < nc; c++)
            q[c] = fgm_v_mul(q[c], nm[c]);
        fgm_v_normalize(q, nc, k);
        for (c = 0; c < nc; c++)
            fgm_v_store(bel + c * FGM_K_LANES, q[c]);
    }
    return change;
}

#endif /* FGM_OPS_DIRICHLET_H */
