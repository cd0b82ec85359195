/* runtime/ops/neq.h: the x != y operator (sum- and max-product).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 */
#ifndef FGM_OPS_NEQ_H
#define FGM_OPS_NEQ_H

#include "common.h"

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
            long at = (long)c * FGM_K_LANES;

            j->ra[c] = fgm_v_keep(fgm_v_div(fgm_v_load(j->ba + at),
                                            fgm_v_load(j->ma + at)), live);
            j->rb[c] = fgm_v_keep(fgm_v_div(fgm_v_load(j->bb + at),
                                            fgm_v_load(j->mb + at)), live);
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

#endif /* FGM_OPS_NEQ_H */
