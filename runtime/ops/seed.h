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

/* Whether a batch of K-value messages keeps their last values packed:
 * where the last chunk holds one live lane (K = 5, 9, 13, ...), the four
 * rows of group G keep theirs in one vector, lane R for row 4G + R, the
 * last chunk of the group's first row (fgm_k_seed_tail); the other rows'
 * last chunks are unused.  Each stage then runs once on a group's last
 * values instead of once a row (9x9's 9 values: three chunks a row
 * before, two and a quarter now), the same operations lane by lane:
 * bp-decimate 7.99 / 8.03 -> 7.06 / 7.00 ms a puzzle compiled on easy51,
 * interpreted 36.0 / 36.7 -> 30.8 / 30.4 (fgm bench, alternate runs on
 * a Zen 4 EPYC, 2026-12-06; the same CSVs). */
FGM_K_HOT int
fgm_k_seed_packed(int k)
{
    return k > FGM_K_LANES && k % FGM_K_LANES == 1;
}

/* The packed last values of group G of X (fgm_k_seed_packed). */
#define fgm_k_seed_tail(x, g, nc) ((x)[(g) * FGM_K_LANES][(nc) - 1])

/* The chunks of a row that it holds itself: all NC, or NC - 1 when the
 * last values are packed. */
FGM_K_HOT int
fgm_k_seed_own(int nc, int k)
{
    return nc - fgm_k_seed_packed(k);
}

/* The four doubles at offset AT of P[0..3], as one vector. */
FGM_K_HOT fgm_v4
fgm_k_seed_gather(double *const *p, long at)
{
    return fgm_v_set(p[0][at], p[1][at], p[2][at], p[3][at]);
}

/* Stores lane R of T, group G's packed last values, at P[4G + R][AT] for
 * the rows whose bit is set in STORE, one double each (the last chunk's
 * dead lanes are left as they are).  Returns CH, with TRACK the largest
 * |T - old| over those rows taken into it lane by lane. */
FGM_K_HOT fgm_v4
fgm_k_seed_store_tail(double *const *p, long at, int g, fgm_v4 t,
                      unsigned store, int track, fgm_v4 ch)
{
    unsigned b = store >> g * FGM_K_LANES;
    int r;

    if (track)
        ch = fgm_v_max(
            fgm_v_keep(fgm_v_abs(fgm_v_sub(t, fgm_k_seed_gather(
                                               p + g * FGM_K_LANES, at))),
                       fgm_v_lt(fgm_v_zero(),
                                fgm_v_set(b & 1, b >> 1 & 1, b >> 2 & 1,
                                          b >> 3 & 1))), ch);
    for (r = 0; r < FGM_K_LANES; r++)
        if (b >> r & 1)
            p[g * FGM_K_LANES + r][at] = fgm_v_lane(t, r);
    return ch;
}

/* The seed's _bp_normalize of a whole batch X (K live values in NC
 * chunks, dead lanes zero; the last values packed where
 * fgm_k_seed_packed): every live entry of X[i] floored at LO[i]
 * (FGM_K_SEED_EPS times the message's scale; LO holds 4 NG doubles),
 * then scaled to sum 1; a sum that is not positive gives the uniform
 * vector. */
FGM_K_HOT void
fgm_k_seed_normalize4(fgm_k_seed_rows x, int ng, int nc, int k,
                      const double *lo)
{
    fgm_v4 acc[FGM_K_SEED_BATCH], s[FGM_K_SEED_BATCH / FGM_K_LANES];
    fgm_v4 inv[FGM_K_SEED_BATCH / FGM_K_LANES], a[FGM_K_LANES], t;
    double si, ii;
    int i, c, g, own = fgm_k_seed_own(nc, k);

    for (i = 0; i < ng * FGM_K_LANES; i++) {
        acc[i] = fgm_v_zero();
        for (c = 0; c < own; c++) {
            x[i][c] = fgm_v_keep(fgm_v_floor(x[i][c], lo[i]),
                                 fgm_v_live(c, k));
            acc[i] = fgm_v_add(acc[i], x[i][c]);
        }
    }
    for (g = 0; g < ng; g++) {
        if (own < nc) {
            /* A row's sum is (l0 + l1) + (l2 + l3) over its lane sums,
             * its last value added to l0 (the last chunk's other lanes
             * are zeros): the group's four such sums at once, on the
             * lane sums transposed. */
            fgm_v_transpose4(acc + g * FGM_K_LANES, a);
            t = fgm_v_max(fgm_v_load(lo + g * FGM_K_LANES),
                          fgm_k_seed_tail(x, g, nc));     /* the floor */
            fgm_k_seed_tail(x, g, nc) = t;
            s[g] = fgm_v_add(fgm_v_add(fgm_v_add(a[0], t), a[1]),
                             fgm_v_add(a[2], a[3]));
        } else {
            const fgm_v4 *r = acc + g * FGM_K_LANES;

            s[g] = fgm_v_join2(fgm_v_sum2(r[0], r[1]),
                               fgm_v_sum2(r[2], r[3]));
        }
        inv[g] = fgm_v_div(fgm_v_splat(1.0), s[g]);
    }
    for (i = 0; i < ng * FGM_K_LANES; i++) {
        si = fgm_v_lane(s[i / FGM_K_LANES], i % FGM_K_LANES);
        ii = fgm_v_lane(inv[i / FGM_K_LANES], i % FGM_K_LANES);
        for (c = 0; c < own; c++)
            x[i][c] = si > 0.0
                      ? fgm_v_mul(x[i][c], fgm_v_splat(ii))
                      : fgm_v_keep(fgm_v_splat(1.0 / k), fgm_v_live(c, k));
    }
    for (g = 0; own < nc && g < ng; g++)
        fgm_k_seed_tail(x, g, nc)
            = fgm_v_select(fgm_v_lt(fgm_v_zero(), s[g]),
                           fgm_v_mul(fgm_k_seed_tail(x, g, nc), inv[g]),
                           fgm_v_splat(1.0 / k));
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
    int i, c, g, own = fgm_k_seed_own(nc, k);

    for (i = 0; i < ng * FGM_K_LANES; i++) {
        for (c = 0; c < own; c++) {
            old = fgm_v_sub(fgm_v_load(p[i] + c * FGM_K_LANES),
                            fgm_v_splat(sub));
            x[i][c] = fgm_v_add(fgm_v_mul(fgm_v_splat(d), old),
                                fgm_v_mul(fgm_v_splat(1.0 - d), x[i][c]));
        }
        lo[i] = FGM_K_SEED_EPS;
    }
    for (g = 0; own < nc && g < ng; g++) {
        old = fgm_v_sub(fgm_k_seed_gather(p + g * FGM_K_LANES, k - 1),
                        fgm_v_splat(sub));
        fgm_k_seed_tail(x, g, nc)
            = fgm_v_add(fgm_v_mul(fgm_v_splat(d), old),
                        fgm_v_mul(fgm_v_splat(1.0 - d),
                                  fgm_k_seed_tail(x, g, nc)));
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
    int i, c, g, nc = FGM_K_NCHUNKS(k), own = fgm_k_seed_own(nc, k);

    for (i = 0; i < ng * FGM_K_LANES; i++)
        lo[i] = FGM_K_SEED_EPS;
    fgm_k_seed_normalize4(x, ng, nc, k, lo);
    fgm_k_seed_damp4(x, m, ng, nc, k, d, FGM_K_SEED_EPS);
    for (i = 0; i < ng * FGM_K_LANES; i++)
        for (c = 0; store >> i & 1 && c < own; c++) {
            live = fgm_v_live(c, k);
            old = fgm_v_load(m[i] + c * FGM_K_LANES);
            x[i][c] = fgm_v_select(live, fgm_v_add(x[i][c], eps), old);
            if (track)
                ch = fgm_v_max(fgm_v_keep(fgm_v_abs(fgm_v_sub(x[i][c], old)),
                                          live), ch);
            fgm_v_store(m[i] + c * FGM_K_LANES, x[i][c]);
        }
    for (g = 0; own < nc && g < ng; g++)     /* dead lanes keep their floor */
        ch = fgm_k_seed_store_tail(m, k - 1, g,
                                   fgm_v_add(fgm_k_seed_tail(x, g, nc), eps),
                                   store, track, ch);
    return ch;
}

#endif /* FGM_OPS_SEED_H */
