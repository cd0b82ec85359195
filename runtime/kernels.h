/* runtime/kernels.h: message arithmetic shared by the interpreter and plugins.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every number a run computes goes through these static inline functions,
 * whether the schedule is interpreted (runtime/interp.c) or baked into
 * generated C (compiler/codegen.c): same operations in the same order, so
 * compiled and interpreted marginals agree to the last bit in practice and
 * to 1e-12 by contract.  Generated code calls them with constant sizes,
 * which lets the C compiler unroll and vectorize what the interpreter runs
 * as generic loops.
 *
 * Conventions: a message or belief is a vector of K doubles, normalized to
 * sum 1.  Factor-to-variable messages are floored at FGM_K_FLOOR so that a
 * variable's cavity (belief / message) is always defined; the floor is far
 * below anything that changes an argmax, and a hard zero still enters a
 * belief through the unary message (clues, evidence), which is never
 * divided out.  Damping mixes the new message with the previous one,
 * new = (1 - d) new + d old: both are normalized, so is the mix (the
 * scalar kernels still renormalize it; the vector ones do not).
 *
 * Headers: <stdint.h> via plugin_abi.h, and <math.h> for the alldiff
 * max-product messages (log, exp) of kernels_alldiff.h, included at the
 * end; plugins are linked with -lm (runtime/plugin.c) and call the same
 * libm as the interpreter.  Nothing else.
 */
#ifndef FGM_KERNELS_H
#define FGM_KERNELS_H

#include "plugin_abi.h"

#define FGM_K_FLOOR 1e-30
#define FGM_K_MAXCARD 64    /* = FGM_IR_MAXCARD: largest domain */

#include "kernels_vec.h"

/* Normalizes X[0..K-1] to sum 1; a zero (or non-positive) sum becomes the
 * uniform vector.  Returns the sum before normalizing. */
static inline double
fgm_k_normalize(double *x, int k)
{
    double s = 0.0, inv;
    int i;

    for (i = 0; i < k; i++)
        s += x[i];
    if (!(s > 0.0)) {
        for (i = 0; i < k; i++)
            x[i] = 1.0 / k;
        return s;
    }
    inv = 1.0 / s;
    for (i = 0; i < k; i++)
        x[i] *= inv;
    return s;
}

/* OUT = normalize(BELIEF / MSG): the variable's belief without this edge's
 * message (the EP cavity, the BP variable-to-factor message). */
static inline void
fgm_k_cavity(double *out, const double *belief, const double *msg, int k)
{
    int i;

    for (i = 0; i < k; i++)
        out[i] = belief[i] / msg[i];
    fgm_k_normalize(out, k);
}

/* Max-product message of x != y to x: m(v) = max_{w != v} q(w), from the
 * two largest entries of Q. */
static inline void
fgm_k_neq_max(double *out, const double *q, int k)
{
    double top = -1.0, second = -1.0;
    int i, arg = 0;

    for (i = 0; i < k; i++) {
        if (q[i] > top) {
            second = top;
            top = q[i];
            arg = i;
        } else if (q[i] > second) {
            second = q[i];
        }
    }
    for (i = 0; i < k; i++)
        out[i] = i == arg ? second : top;
}

/* Installs NEWM (K values, normalized here) as the message in MSG, damped
 * toward the old value by D and floored.  Returns the largest absolute
 * change of an entry. */
static inline double
fgm_k_commit(double *msg, double *newm, double d, int k)
{
    double change = 0.0, diff;
    int i;

    fgm_k_normalize(newm, k);
    if (d > 0.0) {
        for (i = 0; i < k; i++)
            newm[i] = (1.0 - d) * newm[i] + d * msg[i];
        fgm_k_normalize(newm, k);
    }
    for (i = 0; i < k; i++) {
        if (newm[i] < FGM_K_FLOOR)
            newm[i] = FGM_K_FLOOR;
        diff = newm[i] - msg[i];
        if (diff < 0.0)
            diff = -diff;
        if (diff > change)
            change = diff;
        msg[i] = newm[i];
    }
    return change;
}

/* BELIEF = normalize(CAV * MSG): the belief after a message update. */
static inline void
fgm_k_belief(double *belief, const double *cav, const double *msg, int k)
{
    int i;

    for (i = 0; i < k; i++)
        belief[i] = cav[i] * msg[i];
    fgm_k_normalize(belief, k);
}

/* BELIEF = normalize(UNARY * prod of the N messages MSGS[E[j]*stride]):
 * a belief recomputed from scratch (end of every sweep, so that divisions
 * never accumulate rounding). */
FGM_K_HOT void
fgm_k_belief_full(double *belief, const double *unary, const double *msgs,
                  const int *edges, int n, int stride, int k)
{
    fgm_v4 b[FGM_K_VCHUNKS];
    int c, j, nc = FGM_K_NCHUNKS(k);

    for (c = 0; c < nc; c++)
        b[c] = fgm_v_load(unary + c * FGM_K_LANES);
    for (j = 0; j < n; j++) {
        const double *m = msgs + (long)edges[j] * stride;

        for (c = 0; c < nc; c++)
            b[c] = fgm_v_mul(b[c], fgm_v_load(m + c * FGM_K_LANES));
        /* Messages are >= FGM_K_FLOOR (1e-30): renormalizing every 8
         * keeps the running product far from underflow. */
        if ((j & 7) == 7)
            fgm_v_normalize(b, nc, k);
    }
    fgm_v_normalize(b, nc, k);
    for (c = 0; c < nc; c++)
        fgm_v_store(belief + c * FGM_K_LANES, b[c]);
}

/* Max-product update of x != y (see fgm_k_neq), one value at a time. */
static inline double
fgm_k_neq_max_update(fgm_state *st, int ea, int eb, int va, int vb,
                     int stride, int k)
{
    double ra[FGM_K_MAXCARD], rb[FGM_K_MAXCARD];
    double na[FGM_K_MAXCARD], nb[FGM_K_MAXCARD];
    double *ma = st->msg + (long)ea * stride;
    double *mb = st->msg + (long)eb * stride;
    double *ba = st->belief + (long)va * stride;
    double *bb = st->belief + (long)vb * stride;
    double c1, c2, za = 0.0, zb = 0.0;
    int i;

    for (i = 0; i < k; i++) {
        if (st->damp_v2f) {
            ra[i] = st->prev[(long)ea * stride + i];
            rb[i] = st->prev[(long)eb * stride + i];
        } else {
            ra[i] = ba[i] / ma[i];
            rb[i] = bb[i] / mb[i];
        }
        za += ra[i];
        zb += rb[i];
    }
    if (!(za > 0.0) || !(zb > 0.0)) {
        for (i = 0; i < k; i++)
            ra[i] = rb[i] = 1.0;
        za = zb = (double)k;
    }
    fgm_k_neq_max(na, rb, k);
    fgm_k_neq_max(nb, ra, k);
    c1 = fgm_k_commit(ma, na, st->damping, k);
    c2 = fgm_k_commit(mb, nb, st->damping, k);
    if (!st->parallel)
        for (i = 0; i < k; i++) {
            ba[i] = ra[i] * ma[i] * (1.0 / za);
            bb[i] = rb[i] * mb[i] * (1.0 / zb);
        }
    return c1 > c2 ? c1 : c2;
}

/* Installs the NC chunks of NEWM (normalized, dead lanes zero) as the
 * message MSG: damped toward the old value by D (no renormalizing: see
 * the top of this file), floored at FGM_K_FLOOR.  Returns the largest
 * change of a live entry when TRACK is set, else 0. */
FGM_K_HOT double
fgm_v_commit(double *msg, fgm_v4 *newm, double d, int nc, int k, int track)
{
    fgm_v4 change = fgm_v_zero(), x, old;
    int c;

    if (d > 0.0) {
        for (c = 0; c < nc; c++) {
            old = fgm_v_keep(fgm_v_load(msg + c * FGM_K_LANES),
                             fgm_v_live(c, k));
            newm[c] = fgm_v_add(fgm_v_mul(fgm_v_splat(1.0 - d), newm[c]),
                                fgm_v_mul(fgm_v_splat(d), old));
        }
    }
    for (c = 0; c < nc; c++) {
        x = fgm_v_floor(newm[c], FGM_K_FLOOR);
        if (track) {
            old = fgm_v_load(msg + c * FGM_K_LANES);
            change = fgm_v_max(fgm_v_keep(fgm_v_abs(fgm_v_sub(x, old)),
                                          fgm_v_live(c, k)), change);
        }
        fgm_v_store(msg + c * FGM_K_LANES, x);
        newm[c] = x;
    }
    return fgm_v_hmax(change);
}

/* One sum-product update of x != y in flight: fgm_k_neq in two phases, so
 * that a plugin can interleave two updates that share no variable
 * (fgm_k_neq2) and the CPU overlaps their long division chains. */
typedef struct fgm_k_neq_job {
    double *ma, *mb, *ba, *bb;      /* messages to x, y; beliefs of x, y */
    fgm_v4 ra[FGM_K_VCHUNKS], rb[FGM_K_VCHUNKS];
    fgm_v4 na[FGM_K_VCHUNKS], nb[FGM_K_VCHUNKS];
    double ia, ib;                  /* 1 / sum of each cavity */
} fgm_k_neq_job;

/* First phase: cavities and new messages (reads only).
 *
 * With r = belief / message (the cavity before normalizing) and z = sum r,
 * the sum-product message 1 - r/z (Infer.NET's DiscreteAreEqualOp with
 * the result observed false) is already normalized once divided by
 * (K - 1): m(v) = (z - r(v)) (1/z) (1/(K - 1)).  Both 1/z come from one
 * vector division (scalar ones would queue behind the cavities' on the
 * divider). */
FGM_K_HOT void
fgm_k_neq_begin(const fgm_state *st, fgm_k_neq_job *j, int ea, int eb, int va,
                int vb, int stride, int k)
{
    fgm_v4 za4 = fgm_v_zero(), zb4 = fgm_v_zero(), inv;
    double za, zb, k1 = 1.0 / (k - 1);
    int c, nc = FGM_K_NCHUNKS(k);

    j->ma = st->msg + (long)ea * stride;
    j->mb = st->msg + (long)eb * stride;
    j->ba = st->belief + (long)va * stride;
    j->bb = st->belief + (long)vb * stride;
    for (c = 0; c < nc; c++) {
        fgm_v4i live = fgm_v_live(c, k);

        if (st->damp_v2f) {
            /* The stored (damped, normalized) variable-to-factor
             * messages. */
            j->ra[c] = fgm_v_keep(fgm_v_load(st->prev + (long)ea * stride
                                             + c * FGM_K_LANES), live);
            j->rb[c] = fgm_v_keep(fgm_v_load(st->prev + (long)eb * stride
                                             + c * FGM_K_LANES), live);
        } else {
            j->ra[c] = fgm_v_keep(fgm_v_div(fgm_v_load(j->ba + c * FGM_K_LANES),
                                            fgm_v_load(j->ma + c * FGM_K_LANES)),
                                  live);
            j->rb[c] = fgm_v_keep(fgm_v_div(fgm_v_load(j->bb + c * FGM_K_LANES),
                                            fgm_v_load(j->mb + c * FGM_K_LANES)),
                                  live);
        }
        za4 = fgm_v_add(za4, j->ra[c]);
        zb4 = fgm_v_add(zb4, j->rb[c]);
    }
    za = fgm_v_sum(za4);
    zb = fgm_v_sum(zb4);
    if (!(za > 0.0) || !(zb > 0.0)) {
        /* A contradiction (a belief with no mass): uniform cavities. */
        for (c = 0; c < nc; c++)
            j->ra[c] = j->rb[c] = fgm_v_keep(fgm_v_splat(1.0),
                                             fgm_v_live(c, k));
        za = zb = (double)k;
    }
    inv = fgm_v_div(fgm_v_splat(1.0), fgm_v_set(za, zb, 1.0, 1.0));
    j->ia = fgm_v_lane(inv, 0);
    j->ib = fgm_v_lane(inv, 1);
    for (c = 0; c < nc; c++) {
        fgm_v4i live = fgm_v_live(c, k);

        j->na[c] = fgm_v_keep(fgm_v_mul(fgm_v_sub(fgm_v_splat(zb), j->rb[c]),
                                        fgm_v_splat(j->ib * k1)), live);
        j->nb[c] = fgm_v_keep(fgm_v_mul(fgm_v_sub(fgm_v_splat(za), j->ra[c]),
                                        fgm_v_splat(j->ia * k1)), live);
    }
}

/* Second phase: install both messages; in a sequential schedule the new
 * belief is r times the new message, scaled by 1/z so that it stays near 1
 * in size (beliefs are renormalized exactly at the end of the sweep).
 * Returns the largest message change (0 unless st->track_change). */
FGM_K_HOT double
fgm_k_neq_end(const fgm_state *st, fgm_k_neq_job *j, int k)
{
    double c1, c2;
    int c, nc = FGM_K_NCHUNKS(k);

    c1 = fgm_v_commit(j->ma, j->na, st->damping, nc, k, st->track_change);
    c2 = fgm_v_commit(j->mb, j->nb, st->damping, nc, k, st->track_change);
    if (!st->parallel) {
        fgm_v4 ia = fgm_v_splat(j->ia), ib = fgm_v_splat(j->ib);

        for (c = 0; c < nc; c++) {
            fgm_v_store(j->ba + c * FGM_K_LANES,
                        fgm_v_mul(fgm_v_mul(j->ra[c], j->na[c]), ia));
            fgm_v_store(j->bb + c * FGM_K_LANES,
                        fgm_v_mul(fgm_v_mul(j->rb[c], j->nb[c]), ib));
        }
    }
    return c1 > c2 ? c1 : c2;
}

/* Whether the update of a factor over VA and VB is skipped this sweep:
 * one of them is pinned (see fgm_state.skip_pinned). */
FGM_K_HOT int
fgm_k_skip2(const fgm_state *st, int va, int vb)
{
    return st->skip_pinned && (st->pinned[va] | st->pinned[vb]);
}

/* Update of x != y (edges EA to x, EB to y), sum- or max-product.
 * Returns the largest message change. */
FGM_K_HOT double
fgm_k_neq(fgm_state *st, int ea, int eb, int va, int vb, int stride, int k,
          int max_product, double *scratch)
{
    fgm_k_neq_job j;

    (void)scratch;
    if (fgm_k_skip2(st, va, vb))
        return 0.0;
    if (max_product)
        return fgm_k_neq_max_update(st, ea, eb, va, vb, stride, k);
    fgm_k_neq_begin(st, &j, ea, eb, va, vb, stride, k);
    return fgm_k_neq_end(st, &j, k);
}

/* Two neq updates that share no variable, rows FIRST and SECOND of a
 * plugin's table ({ edge, x, y }), in that order but overlapped: the same
 * numbers as two fgm_k_neq calls. */
FGM_K_HOT double
fgm_k_neq2(fgm_state *st, const int *first, const int *second, int stride,
           int k, int max_product, double *scratch)
{
    fgm_k_neq_job j1, j2;
    double c1, c2;

    if (max_product || fgm_k_skip2(st, first[1], first[2])
        || fgm_k_skip2(st, second[1], second[2])) {
        c1 = fgm_k_neq(st, first[0], first[0] + 1, first[1], first[2], stride,
                       k, max_product, scratch);
        c2 = fgm_k_neq(st, second[0], second[0] + 1, second[1], second[2],
                       stride, k, max_product, scratch);
        return c1 > c2 ? c1 : c2;
    }
    fgm_k_neq_begin(st, &j1, first[0], first[0] + 1, first[1], first[2],
                    stride, k);
    fgm_k_neq_begin(st, &j2, second[0], second[0] + 1, second[1], second[2],
                    stride, k);
    c1 = fgm_k_neq_end(st, &j1, k);
    c2 = fgm_k_neq_end(st, &j2, k);
    return c1 > c2 ? c1 : c2;
}

/* Message of "x ~ Discrete(p)" to x when p is a Dirichlet node (EP).
 *
 * The cavity of p is Dir(a), a = posterior - this factor's pseudo-count
 * message; the message to x is its mean a / sum(a).  The message back to p
 * projects the tilted distribution sum_v w(v) Dir(a + e_v), with
 * w(v) ~ q(v) a_v and q x's cavity, onto one Dirichlet:
 *   PROJECTION_MEAN: keep the total sum(a) + 1 and match the mean, which
 *     gives a' = a + w (Infer.NET's default; exact when x is observed);
 *   PROJECTION_MEAN_SQUARE: match the mean m and the mean square
 *     sum_j E[p_j^2] = M2, giving the precision
 *     s = (1 - M2) / (M2 - sum_j m_j^2) and a' = s m (Minka 2000,
 *     "Estimating a Dirichlet distribution"; Minka and Lafferty 2002).
 * A point-mass prior (a clue) sends its vector and is not updated.
 * POST, MSGP: p's posterior and this factor's message to p (K each); PRIOR
 * and POINT: p's prior.  Returns the largest change of the x message. */
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
    double *mp = st->dir_msg + (long)g * stride, change, a;
    int c, nc = FGM_K_NCHUNKS(k);

    (void)scratch;
    if (st->skip_pinned && st->pinned[v] && st->dir_point[d])
        return 0.0;
    for (c = 0; c < nc; c++)
        q[c] = fgm_v_keep(fgm_v_div(fgm_v_load(bel + c * FGM_K_LANES),
                                    fgm_v_load(m + c * FGM_K_LANES)),
                          fgm_v_live(c, k));
    fgm_v_normalize(q, nc, k);
    if (st->dir_point[d] || !ep) {
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
        fgm_v_normalize(w, nc, k);
        if (mean_square) {
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
            for (c = 0; c < nc; c++) {
                fgm_v_store(post + c * FGM_K_LANES, fgm_v_add(cav[c], w[c]));
                fgm_v_store(mp + c * FGM_K_LANES, w[c]);
            }
        }
    }
    fgm_v_normalize(nm, nc, k);
    change = fgm_v_commit(m, nm, 0.0, nc, k, st->track_change);
    if (!st->parallel) {
        for (c = 0; c < nc; c++)
            q[c] = fgm_v_mul(q[c], nm[c]);
        fgm_v_normalize(q, nc, k);
        for (c = 0; c < nc; c++)
            fgm_v_store(bel + c * FGM_K_LANES, q[c]);
    }
    return change;
}

/* Start of a run: every edge message uniform over its variable's domain
 * (zero past it; sweeps then floor those dead lanes to FGM_K_FLOOR, which
 * every reader masks), every belief the normalized unary vector, Dirichlet
 * posteriors at their priors with no messages yet.  CARD (nvars) gives
 * each domain size, or is NULL when all have size K. */
static inline void
fgm_k_reset(fgm_state *st, int nvars, int nedges, int ndirichlet,
            int ndirfactors, const int *edge_var, const int *card, int k,
            int stride)
{
    int e, v, j, c;

    for (e = 0; e < nedges; e++) {
        c = card ? card[edge_var[e]] : k;
        for (j = 0; j < stride; j++)
            st->msg[(long)e * stride + j] = j < c ? 1.0 / c : 0.0;
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

/* The stored variable-to-factor message of edge E out of variable V
 * (damp_v2f only) becomes d old + (1 - d) cavity, cavity =
 * normalize(belief / factor message) -- the seed's Python BP damps both
 * directions; both terms are normalized, so is their mix.  Returns the
 * largest change of an entry when st->track_change, else 0. */
FGM_K_HOT double
fgm_k_v2f_edge(fgm_state *st, int e, int v, int stride, int k)
{
    fgm_v4 cav[FGM_K_VCHUNKS], change = fgm_v_zero();
    double *p = st->prev + (long)e * stride;
    const double *b = st->belief + (long)v * stride;
    const double *m = st->msg + (long)e * stride;
    int c, nc = FGM_K_NCHUNKS(k);

    for (c = 0; c < nc; c++)
        cav[c] = fgm_v_keep(fgm_v_div(fgm_v_load(b + c * FGM_K_LANES),
                                      fgm_v_load(m + c * FGM_K_LANES)),
                            fgm_v_live(c, k));
    fgm_v_normalize(cav, nc, k);
    for (c = 0; c < nc; c++) {
        fgm_v4 old = fgm_v_load(p + c * FGM_K_LANES);

        cav[c] = fgm_v_add(fgm_v_mul(fgm_v_splat(st->damping), old),
                           fgm_v_mul(fgm_v_splat(1.0 - st->damping), cav[c]));
        if (st->track_change)
            change = fgm_v_max(fgm_v_keep(fgm_v_abs(fgm_v_sub(cav[c], old)),
                                          fgm_v_live(c, k)), change);
        fgm_v_store(p + c * FGM_K_LANES, cav[c]);
    }
    return fgm_v_hmax(change);
}

/* End of a sweep: every belief recomputed from its unary vector and all
 * its incoming messages (VAR_EDGES[VAR_EDGE_OFF[v]..VAR_EDGE_OFF[v+1]]),
 * except a pinned one while updates around it are skipped (its messages
 * did not move); with V2F, each variable's stored variable-to-factor
 * messages are then updated from its new belief (fgm_k_v2f_edge), while
 * the belief is still in cache.  Returns the largest change of those
 * (0 without V2F). */
static inline double
fgm_k_refresh(fgm_state *st, int nvars, const int *var_edge_off,
              const int *var_edges, const int *card, int k, int stride,
              int v2f)
{
    double change = 0.0, c;
    int v, j, kv;

    for (v = 0; v < nvars; v++) {
        if (st->skip_pinned && st->pinned[v])
            continue;
        kv = card ? card[v] : k;
        fgm_k_belief_full(st->belief + (long)v * stride,
                          st->unary + (long)v * stride, st->msg,
                          var_edges + var_edge_off[v],
                          var_edge_off[v + 1] - var_edge_off[v], stride, kv);
        for (j = var_edge_off[v]; v2f && j < var_edge_off[v + 1]; j++) {
            c = fgm_k_v2f_edge(st, var_edges[j], v, stride, kv);
            change = c > change ? c : change;
        }
    }
    return change;
}

#define FGM_K_TABLE_MAXARITY 16

/* Update of a table factor over ARITY variables VARS (edges E0..E0+ARITY-1,
 * domain sizes CARDS), potential POT in row-major order (last variable
 * fastest).  Every outgoing message is computed from the cavities taken
 * at the start: m_i(v) = sum (or max) over tuples with x_i = v of
 * pot(tuple) * prod_{j != i} cav_j(x_j).  Needs (ARITY + 1) * STRIDE
 * doubles of scratch.  Returns the largest message change. */
static inline double
fgm_k_table(fgm_state *st, int e0, const int *vars, const int *cards,
            int arity, const double *pot, int stride, int max_product,
            double *scratch)
{
    double *out = scratch + (long)arity * stride, change = 0.0, c, w;
    int idx[FGM_K_TABLE_MAXARITY], i, j, pos;

    for (i = 0; i < arity; i++)
        fgm_k_cavity(scratch + (long)i * stride,
                     st->belief + (long)vars[i] * stride,
                     st->msg + (long)(e0 + i) * stride, cards[i]);
    for (i = 0; i < arity; i++) {
        for (j = 0; j < cards[i]; j++)
            out[j] = 0.0;
        for (j = 0; j < arity; j++)
            idx[j] = 0;
        for (pos = 0;; pos++) {
            w = pot[pos];
            for (j = 0; j < arity && w != 0.0; j++)
                if (j != i)
                    w *= scratch[(long)j * stride + idx[j]];
            if (max_product) {
                if (w > out[idx[i]])
                    out[idx[i]] = w;
            } else {
                out[idx[i]] += w;
            }
            for (j = arity - 1; j >= 0; j--) {
                if (++idx[j] < cards[j])
                    break;
                idx[j] = 0;
            }
            if (j < 0)
                break;
        }
        c = fgm_k_commit(st->msg + (long)(e0 + i) * stride, out,
                         st->damping, cards[i]);
        if (c > change)
            change = c;
        if (!st->parallel)
            fgm_k_belief(st->belief + (long)vars[i] * stride,
                         scratch + (long)i * stride,
                         st->msg + (long)(e0 + i) * stride, cards[i]);
    }
    return change;
}

/* The native alldiff factor (sum- and max-product). */
#include "kernels_alldiff.h"

#endif /* FGM_KERNELS_H */
