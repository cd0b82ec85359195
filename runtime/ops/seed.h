/* runtime/ops/seed.h: the seed's BP_EPS normalizations, in batches.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 *
 * Notebook 001's flooding BP (st->damp_v2f: bp-decimate, bp-backtrack,
 * and the seed's v4 for alldiff-max and alldiff-sum) normalizes each
 * message twice per commit, before and after damping, and each
 * normalization is a chain: a horizontal sum, a division for 1 / sum,
 * the products.  One message at a time, a sweep waits on those chains
 * (most of bp-decimate's time went to the division's latency); here each
 * stage runs over a batch of four or eight messages before the next, so
 * the CPU overlaps the batch's chains, and each four messages' sums and
 * reciprocals are taken together, in vector registers (the "4" of
 * fgm_k_seed_normalize4 and fgm_k_seed_damp4).  Every message is
 * computed as one at a time would be: the same lane-wise sums over the
 * chunks, (l0 + l1) + (l2 + l3), and correctly rounded quotients in any
 * lane (tests/neq_paths.c and tests/v2f_paths.c check against scalar
 * references to the bit).
 */
#ifndef FGM_OPS_SEED_H
#define FGM_OPS_SEED_H

#include "common.h"

/* Most messages in one batch: NG groups of four (NG = 1 or 2, a
 * constant where the kernels are inlined), each normalization taking
 * one vector division for a group's four reciprocals. */
#define FGM_K_SEED_BATCH (2 * FGM_K_LANES)

/* A batch's messages: NC chunks each. */
typedef fgm_v4 fgm_k_seed_rows[FGM_K_SEED_BATCH][FGM_K_VCHUNKS];

/* The seed's _bp_normalize of a whole batch X (K live values in NC
 * chunks, dead lanes zero): every live entry of X[i] floored at LO[i]
 * (FGM_K_SEED_EPS times the message's scale), then scaled to sum 1; a
 * sum that is not positive gives the uniform vector. */
FGM_K_HOT void
fgm_k_seed_normalize4(fgm_k_seed_rows x, int ng, int nc, int k,
                      const double *lo)
{
    fgm_v4 acc[FGM_K_SEED_BATCH], s[FGM_K_SEED_BATCH / FGM_K_LANES];
    fgm_v4 inv[FGM_K_SEED_BATCH / FGM_K_LANES];
    double si, ii;
    int i, c, g;

    for (i = 0; i < ng * FGM_K_LANES; i++) {
        acc[i] = fgm_v_zero();
        for (c = 0; c < nc; c++) {
            x[i][c] = fgm_v_keep(fgm_v_floor(x[i][c], lo[i]),
                                 fgm_v_live(c, k));
            acc[i] = fgm_v_add(acc[i], x[i][c]);
        }
    }
    for (g = 0; g < ng; g++) {
        const fgm_v4 *a = acc + g * FGM_K_LANES;

        s[g] = fgm_v_join2(fgm_v_sum2(a[0], a[1]), fgm_v_sum2(a[2], a[3]));
        inv[g] = fgm_v_div(fgm_v_splat(1.0), s[g]);
    }
    for (i = 0; i < ng * FGM_K_LANES; i++) {
        si = fgm_v_lane(s[i / FGM_K_LANES], i % FGM_K_LANES);
        ii = fgm_v_lane(inv[i / FGM_K_LANES], i % FGM_K_LANES);
        for (c = 0; c < nc; c++)
            x[i][c] = si > 0.0
                      ? fgm_v_mul(x[i][c], fgm_v_splat(ii))
                      : fgm_v_keep(fgm_v_splat(1.0 / k), fgm_v_live(c, k));
    }
}

/* Damps a whole batch of normalized messages X toward their previous
 * values: X[i] = nf(d OLD + (1 - d) X[i]), OLD the NC chunks at P[i]
 * less SUB (the stored message's own offset), nf
 * fgm_k_seed_normalize4 at FGM_K_SEED_EPS. */
FGM_K_HOT void
fgm_k_seed_damp4(fgm_k_seed_rows x, double *const *p, int ng, int nc, int k,
                 double d, double sub)
{
    double lo[FGM_K_SEED_BATCH];
    fgm_v4 old;
    int i, c;

    for (i = 0; i < ng * FGM_K_LANES; i++) {
        for (c = 0; c < nc; c++) {
            old = fgm_v_sub(fgm_v_load(p[i] + c * FGM_K_LANES),
                            fgm_v_splat(sub));
            x[i][c] = fgm_v_add(fgm_v_mul(fgm_v_splat(d), old),
                                fgm_v_mul(fgm_v_splat(1.0 - d), x[i][c]));
        }
        lo[i] = FGM_K_SEED_EPS;
    }
    fgm_k_seed_normalize4(x, ng, nc, k, lo);
}

/* The seed's commit of new factor-to-variable messages X[i] (not
 * normalized) into M[i], for the rows i whose bit is set in STORE, of
 * a batch of 4 NG rows (every row of X and M set: the others are
 * computed and dropped, so that every row has a constant index where
 * the kernel is inlined; notebook 001's flooding sweep, and v4's):
 * X = nf(X), then M = nf(d M + (1 - d) X), nf the seed's _bp_normalize.
 * M is stored plus FGM_K_SEED_EPS in its live lanes, as the seed adds
 * BP_EPS to it in every log of its products: beliefs and cavities then
 * take the stored message as it is (dead lanes keep their floor,
 * kernels.h).  Returns CH with the largest change of a stored live
 * entry when TRACK, lane by lane. */
FGM_K_HOT fgm_v4
fgm_k_seed_commit_n(double *const *m, fgm_k_seed_rows x, unsigned store,
                    int ng, int k, double d, int track, fgm_v4 ch)
{
    double lo[FGM_K_SEED_BATCH];
    fgm_v4 old, eps = fgm_v_splat(FGM_K_SEED_EPS);
    fgm_v4i live;
    int i, c, nc = FGM_K_NCHUNKS(k);

    for (i = 0; i < ng * FGM_K_LANES; i++)
        lo[i] = FGM_K_SEED_EPS;
    fgm_k_seed_normalize4(x, ng, nc, k, lo);
    fgm_k_seed_damp4(x, m, ng, nc, k, d, FGM_K_SEED_EPS);
    for (i = 0; i < ng * FGM_K_LANES; i++)
        for (c = 0; store >> i & 1 && c < nc; c++) {
            live = fgm_v_live(c, k);
            old = fgm_v_load(m[i] + c * FGM_K_LANES);
            x[i][c] = fgm_v_select(live, fgm_v_add(x[i][c], eps), old);
            if (track)
                ch = fgm_v_max(fgm_v_keep(fgm_v_abs(fgm_v_sub(x[i][c], old)),
                                          live), ch);
            fgm_v_store(m[i] + c * FGM_K_LANES, x[i][c]);
        }
    return ch;
}

#endif /* FGM_OPS_SEED_H */
