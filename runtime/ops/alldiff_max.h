/* runtime/ops/alldiff_max.h: max-product messages of the alldiff factor.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of runtime/ops/alldiff.h (the factor, Q and the messages are
 * defined at its top), which includes it.
 *
 * Max-product, all minors from one assignment solve.  Costs c = -log Q
 * (log domain: products of N entries near 1e-300 would underflow).  A
 * zero entry has cost +infinity, represented exactly as the pair (1, 0)
 * in a lexicographic cost (count of zero entries, sum of -log): the
 * assignment algorithm only adds, subtracts and compares, so it runs
 * unchanged on that ordered group, infeasible minors stay exactly 0 and
 * no large constant swamps the digits of the finite part.  One Hungarian
 * solve (H. W. Kuhn, Naval Res. Logist. Q. 2:83-97, 1955; J. Munkres,
 * J. SIAM 5:32-38, 1957; shortest augmenting paths with potentials as in
 * R. Jonker and A. Volgenant, Computing 38:325-340, 1987) gives an optimal
 * matching s and duals u, v with reduced costs c[r][w] - u[r] - v[w] >= 0,
 * 0 on s.  By complementary slackness the best assignment of the rows
 * other than i to the values other than w costs
 *   opt - u[i] - v[w] + D[w][s(i)],
 * where D is the shortest path between values in the residual graph
 * (value a -> value b at the reduced cost of a's matched row taking b):
 * the alternating path w -> ... -> s(i) is what moving i off s(i) costs
 * the others.  D for all pairs by Floyd-Warshall: O(K^3) per factor for
 * all N K messages, against O(N K^4) for one Hungarian per (i, v) (the
 * seed; kept in tests/alldiff_ref.h as the tests' reference).  This is
 * the weighted alldiff's cost-based filtering (M. Sellmann, "An
 * arc-consistency algorithm for the minimum weight all different
 * constraint", CP 2002).
 * Max-product on matchings: M. Bayati, D. Shah and M. Sharma, IEEE Trans.
 * Inf. Theory 54(3):1241-1251, 2008.  Rounding: the finite part of a cost
 * sums up to N terms of size up to ~745 (-log of the smallest double), so
 * a message entry carries a relative error of a few ulp of N * 745.
 * Speed: the matrices have rows of whole four-lane chunks, and the three
 * inner loops over a row (Dijkstra's relaxation and nearest column,
 * Floyd-Warshall's relaxation) run on AVX vectors in a plugin, scalar in
 * the library's portable build -- the same operations on each entry, so
 * the same bits.  One 9x9 sweep of 27 factors, every cell free, measures
 * 0.066 ms built -O3 -march=native and 0.068 ms built -O2 (bench.sh's two
 * builds of tests/bench_alldiff.c, 2026-12-04, a Zen 5; 0.12 ms when
 * first measured; the seed's C#: 9.2 ms).  libm's log and exp are then a
 * quarter of the time; vector versions of our own were tried and gained
 * under 10% compiled while costing 13% interpreted (SSE2 halves).  Fewer
 * calls gained nothing measurable either (2026-12-06, a Zen 4 EPYC):
 * the cost loop reusing the last log when an entry repeats it (31% of
 * alldiff-max's 13.5 M calls on easy50: 16% the seed's 1e-12 floor, 15%
 * the previous entry; 27% of alldiff-max3's on top95) and the messages
 * taking exp(0) as 1 (20% and 87% of the exp calls), the same bits:
 * alldiff-max3 on top95, mean 6.97 -> 7.00 ms a puzzle (the best of five
 * alternating runs), alldiff-max within the noise.
 * Instantiating the kernel for each reduced size 1..9 (constant M) gave
 * the same alldiff-max times on hardest (45.6-46.8 ms either way).
 * Without a zero entry (the common case) the solve skips the zero
 * counts (LEX 0 below): 0.0646 -> 0.0575 ms -O3 -march=native and
 * 0.140 -> 0.131 ms -O2 a sweep; alldiff-max on hardest 34-37 -> 31.4 ms
 * compiled, 63 -> 57 ms interpreted (2026-12-04, an Intel Xeon).
 *
 * libm: max-product needs log and exp, so this header includes <math.h>;
 * the plugin build command links -lm (runtime/plugin.c), and the
 * interpreter and a plugin call the same libm functions.
 */
#ifndef FGM_OPS_ALLDIFF_MAX_H
#define FGM_OPS_ALLDIFF_MAX_H

#include <math.h>
#include "common.h"

/* KP: the row length of the max-product matrices, K rounded up to whole
 * chunks. */
#define FGM_K_ALLDIFF_KP(k) (FGM_K_NCHUNKS(k) * FGM_K_LANES)
/* Arrays of FGM_K_MAXCARD entries hold a padded row of the largest
 * domain. */
_Static_assert(FGM_K_MAXCARD % FGM_K_LANES == 0,
               "FGM_K_MAXCARD is a whole number of chunks");
/* Doubles of work fgm_k_alldiff_max_minors needs over K values: the
 * cost and distance matrices (rows of whole chunks, KP doubles), duals
 * and the assignment's distances. */
#define FGM_K_ALLDIFF_MAX_WORK(k) \
    (4L * (k) * FGM_K_ALLDIFF_KP(k) + 2L * (k) + 5L * FGM_K_ALLDIFF_KP(k))

/* The lexicographic cost (*Z, *F) of a weight X >= 0: (1, 0) for a zero
 * (zeros are counted, not logged), else (0, -log X), exactly 0 for 1. */
static inline void
fgm_k_ad_cost(double x, double *z, double *f)
{
    *z = x > 0.0 ? 0.0 : 1.0;
    *f = x > 0.0 && x != 1.0 ? -log(x) : 0.0;
}

/* (AZ, AF) < (BZ, BF) in the lexicographic cost order. */
static inline int
fgm_k_ad_lt(double az, double af, double bz, double bf)
{
    return az < bz || (az == bz && af < bf);
}

/* fgm_k_ad_lt, or with LEX 0 (a problem without zero entries, whose zero
 * counts are all 0) the plain order of the finite parts. */
static inline int
fgm_k_ad_lt_if(int lex, double az, double af, double bz, double bf)
{
    return lex ? fgm_k_ad_lt(az, af, bz, bf) : af < bf;
}

/* The three inner loops of the max-product messages' O(K^3) work, over
 * one row of M columns (NC = FGM_K_NCHUNKS(M) whole chunks, the lanes
 * past M computing unused values or masked).  With AVX (plugins, built
 * -march=native) they run on vectors, a lexicographic compare and blend
 * per chunk; without (the library's portable build) on scalars with
 * branches, which GCC compiles better there than two-half vector
 * blends.  The same arithmetic, so the same bits either way.
 *
 * LEX 0 (a constant at each call) says that the problem has no zero
 * entry: every zero count is 0 and stays 0 (sums and differences of
 * zeros), so the loops leave the counts alone, unread and unwritten,
 * and compare the finite parts only -- the same order, the same choices
 * and the same bits as the lexicographic loops on those zeros, in half
 * the arithmetic.  Free cells' cavities are floored messages' products,
 * never 0, so this is the common case. */

/* Dijkstra's relaxation through settled column C1 (distance (D1Z, D1F),
 * matched row R1 with costs Z1, F1 and duals U1Z, U1F): each unsettled
 * column's distance (DZ, DF) becomes the shorter of itself and
 * d1 + c[r1][c] - u[r1] - v[c], PRED (rows as doubles) following. */
FGM_K_HOT void
fgm_k_ad_relax(int lex, double *dz, double *df, double *pred,
               const double *settled, const double *z1, const double *f1,
               double d1z, double d1f, double u1z, double u1f,
               const double *vz, const double *vf, int r1, int m)
{
#ifdef __AVX__
    fgm_v4 az = fgm_v_splat(d1z), af = fgm_v_splat(d1f);
    fgm_v4 bz = fgm_v_splat(u1z), bf = fgm_v_splat(u1f);
    fgm_v4 rv = fgm_v_splat(r1), half = fgm_v_splat(0.5);
    int c, nc = FGM_K_NCHUNKS(m);

    for (c = 0; c < nc * FGM_K_LANES; c += FGM_K_LANES) {
        fgm_v4 nf = fgm_v_sub(fgm_v_sub(fgm_v_add(af, fgm_v_load(f1 + c)),
                                        bf), fgm_v_load(vf + c));
        fgm_v4 of = fgm_v_load(df + c), nz, oz;
        fgm_v4i open = fgm_v_lt(fgm_v_load(settled + c), half), better;

        if (lex) {
            nz = fgm_v_sub(fgm_v_sub(fgm_v_add(az, fgm_v_load(z1 + c)), bz),
                           fgm_v_load(vz + c));
            oz = fgm_v_load(dz + c);
            better = fgm_v_mand(fgm_v_lexlt(nz, nf, oz, of), open);
            fgm_v_store(dz + c, fgm_v_select(better, nz, oz));
        } else {
            better = fgm_v_mand(fgm_v_lt(nf, of), open);
        }
        fgm_v_store(df + c, fgm_v_select(better, nf, of));
        fgm_v_store(pred + c, fgm_v_select(better, rv, fgm_v_load(pred + c)));
    }
#else
    double nz = 0.0, nf;
    int c;

    for (c = 0; c < m; c++) {
        if (settled[c] != 0.0)
            continue;
        if (lex)
            nz = d1z + z1[c] - u1z - vz[c];
        nf = d1f + f1[c] - u1f - vf[c];
        if (fgm_k_ad_lt_if(lex, nz, nf, lex ? dz[c] : 0.0, df[c])) {
            if (lex)
                dz[c] = nz;
            df[c] = nf;
            pred[c] = r1;
        }
    }
#endif
}

/* The nearest unsettled column among the M of (DZ, DF) (the first of
 * equals): Dijkstra's next column. */
FGM_K_HOT int
fgm_k_ad_nearest(int lex, const double *dz, const double *df,
                 const double *settled, int m)
{
#ifdef __AVX__
    /* Lane-wise minima over the chunks (an earlier chunk keeps ties),
     * then over the four lanes (the lower column keeps ties).  The
     * first chunk takes every open lane: its costs are finite. */
    fgm_v4 bz = fgm_v_splat(HUGE_VAL), bf = bz, bi = fgm_v_splat(-1.0);
    fgm_v4 half = fgm_v_splat(0.5), z4 = fgm_v_zero();
    double z, f, i, wz, wf, wi;
    int c, l, nc = FGM_K_NCHUNKS(m);

    for (c = 0; c < nc; c++) {
        const double *pz = dz + c * FGM_K_LANES, *pf = df + c * FGM_K_LANES;
        fgm_v4 f4 = fgm_v_load(pf);
        fgm_v4i less, take;
        fgm_v4 idx = fgm_v_add(fgm_v_set(0.0, 1.0, 2.0, 3.0),
                               fgm_v_splat((double)c * FGM_K_LANES));

        if (lex) {
            z4 = fgm_v_load(pz);
            less = fgm_v_lexlt(z4, f4, bz, bf);
        } else {
            less = fgm_v_lt(f4, bf);
        }
        take = fgm_v_mand(
            fgm_v_mand(less, fgm_v_live(c, m)),
            fgm_v_lt(fgm_v_load(settled + c * FGM_K_LANES), half));
        if (lex)
            bz = fgm_v_select(take, z4, bz);
        bf = fgm_v_select(take, f4, bf);
        bi = fgm_v_select(take, idx, bi);
    }
    wz = lex ? fgm_v_lane(bz, 0) : 0.0;
    wf = fgm_v_lane(bf, 0);
    wi = fgm_v_lane(bi, 0);
    for (l = 1; l < FGM_K_LANES; l++) {
        z = lex ? fgm_v_lane(bz, l) : 0.0;
        f = fgm_v_lane(bf, l);
        i = fgm_v_lane(bi, l);
        if (i >= 0.0 && (wi < 0.0 || fgm_k_ad_lt_if(lex, z, f, wz, wf)
                         || (z == wz && f == wf && i < wi))) {
            wz = z;
            wf = f;
            wi = i;
        }
    }
    return (int)wi;
#else
    int c, c1 = -1;

    for (c = 0; c < m; c++)
        if (settled[c] == 0.0
            && (c1 < 0
                || fgm_k_ad_lt_if(lex, lex ? dz[c] : 0.0, df[c],
                                  lex ? dz[c1] : 0.0, df[c1])))
            c1 = c;
    return c1;
#endif
}

/* Floyd-Warshall through MID for one row: (AZ, AF)[b] becomes the
 * shorter of itself and (Z0 + MZ[b], F0 + MF[b]), for the M columns. */
FGM_K_HOT void
fgm_k_ad_through(int lex, double *az, double *af, double z0, double f0,
                 const double *mz, const double *mf, int m)
{
#ifdef __AVX__
    fgm_v4 vz0 = fgm_v_splat(z0), vf0 = fgm_v_splat(f0);
    int c, nc = FGM_K_NCHUNKS(m);

    for (c = 0; c < nc * FGM_K_LANES; c += FGM_K_LANES) {
        fgm_v4 nf = fgm_v_add(vf0, fgm_v_load(mf + c));
        fgm_v4 of = fgm_v_load(af + c), nz, oz;
        fgm_v4i lt;

        if (lex) {
            nz = fgm_v_add(vz0, fgm_v_load(mz + c));
            oz = fgm_v_load(az + c);
            lt = fgm_v_lexlt(nz, nf, oz, of);
            fgm_v_store(az + c, fgm_v_select(lt, nz, oz));
        } else {
            lt = fgm_v_lt(nf, of);
        }
        fgm_v_store(af + c, fgm_v_select(lt, nf, of));
    }
#else
    double tz = 0.0, tf;
    int b;

    for (b = 0; b < m; b++) {
        if (lex)
            tz = z0 + mz[b];
        tf = f0 + mf[b];
        if (fgm_k_ad_lt_if(lex, tz, tf, lex ? az[b] : 0.0, af[b])) {
            if (lex)
                az[b] = tz;
            af[b] = tf;
        }
    }
#endif
}

/* Minimum-cost assignment of an M x M matrix of lexicographic costs (CZ,
 * CF; row r at r * MS, MS = FGM_K_NCHUNKS(M) * FGM_K_LANES, the entries
 * past M in a row finite) by shortest augmenting paths (Kuhn 1955,
 * Munkres 1957, Jonker and Volgenant 1987).  Fills COL_OF_ROW (M),
 * ROW_OF_COL (MS: the pad columns stay -1) and the duals (UZ, UF) per row
 * (M), (VZ, VF) per column (MS), with every reduced cost c - u - v >= 0
 * (up to rounding) and 0 on the matching.  W: 3 MS doubles of work.
 * O(M^3).  Entries must be finite (cavities are): an infinite cost would
 * make NaN distances, on which the two builds' column choices differ.
 * LEX 0: no zero entry among the M columns (see above); CZ is unread and
 * UZ, VZ are all 0. */
static inline void
fgm_k_alldiff_assign(int lex, const double *cz, const double *cf, int m,
                     double *uz, double *uf, double *vz, double *vf,
                     int *col_of_row, int *row_of_col, double *w)
{
    int ms = FGM_K_NCHUNKS(m) * FGM_K_LANES;
    double *dz = w, *df = w + ms, *pred = w + 2 * ms;
    double settled[FGM_K_MAXCARD], lz = 0.0, lf;
    int r0, r, r1, c, c1, nx;

    for (r = 0; r < m; r++) {
        const double *z = cz + (long)r * ms, *f = cf + (long)r * ms;
        int best = 0;

        /* Row minima: reduced costs start >= 0 whatever the signs. */
        for (c = 1; c < m; c++)
            if (fgm_k_ad_lt_if(lex, lex ? z[c] : 0.0, f[c],
                               lex ? z[best] : 0.0, f[best]))
                best = c;
        uz[r] = lex ? z[best] : 0.0;
        uf[r] = f[best];
        col_of_row[r] = -1;
    }
    for (c = 0; c < ms; c++) {
        vz[c] = vf[c] = 0.0;
        row_of_col[c] = -1;
    }
    for (r0 = 0; r0 < m; r0++) {
        const double *z0 = cz + (long)r0 * ms, *f0 = cf + (long)r0 * ms;
        fgm_v4 u0z = fgm_v_splat(uz[r0]), u0f = fgm_v_splat(uf[r0]);

        /* Dijkstra over reduced costs from the free row R0 to the nearest
         * free column; matched edges cost 0. */
        for (c = 0; c < ms; c += FGM_K_LANES) {
            if (lex)
                fgm_v_store(dz + c,
                            fgm_v_sub(fgm_v_sub(fgm_v_load(z0 + c), u0z),
                                      fgm_v_load(vz + c)));
            fgm_v_store(df + c, fgm_v_sub(fgm_v_sub(fgm_v_load(f0 + c), u0f),
                                          fgm_v_load(vf + c)));
            fgm_v_store(pred + c, fgm_v_splat(r0));
            fgm_v_store(settled + c, fgm_v_zero());
        }
        for (;;) {
            c1 = fgm_k_ad_nearest(lex, dz, df, settled, m);
            settled[c1] = 1.0;
            r1 = row_of_col[c1];
            if (r1 < 0)
                break;
            fgm_k_ad_relax(lex, dz, df, pred, settled, cz + (long)r1 * ms,
                           cf + (long)r1 * ms, lex ? dz[c1] : 0.0, df[c1],
                           uz[r1], uf[r1], vz, vf, r1, m);
        }
        /* Potentials: a settled column at distance d (and its matched
         * row) moves by L - d, keeping reduced costs >= 0 and making the
         * augmenting path tight. */
        if (lex)
            lz = dz[c1];
        lf = df[c1];
        uz[r0] += lz;
        uf[r0] += lf;
        for (c = 0; c < m; c++)
            if (settled[c] != 0.0 && c != c1) {
                r = row_of_col[c];
                if (lex) {
                    uz[r] += lz - dz[c];
                    vz[c] -= lz - dz[c];
                }
                uf[r] += lf - df[c];
                vf[c] -= lf - df[c];
            }
        for (c = c1;; c = nx) {
            r = (int)pred[c];
            nx = col_of_row[r];
            row_of_col[c] = r;
            col_of_row[r] = c;
            if (r == r0)
                break;
        }
    }
}

/* Max-product messages of alldiff for all N rows of Q (N x K, entries
 * >= 0, N <= K <= FGM_K_MAXCARD): OUT row i = the best assignment of each
 * minor (i, v) divided by the row's best, or all 0 when every assignment
 * of the other rows meets a zero.  Rows i with SKIP[i] set are left
 * unwritten (SKIP NULL: none).  WORK holds FGM_K_ALLDIFF_MAX_WORK(K)
 * doubles.  Matrices have rows of KP = whole chunks of doubles. */
static inline void
fgm_k_alldiff_max_minors(const double *q, int n, int k, double *out,
                         double *work, const unsigned char *skip)
{
    int kp = FGM_K_ALLDIFF_KP(k);
    long kk = (long)k * kp;
    double *cz = work, *cf = cz + kk, *gz = cf + kk, *gf = gz + kk;
    double *uz = gf + kk, *uf = uz + k, *vz = uf + k, *vf = vz + kp;
    double x, optz = 0.0, tz = 0.0, tf;
    int col_of_row[FGM_K_MAXCARD], row_of_col[FGM_K_MAXCARD];
    int r, a, b, mid, i, w, t, lex = 0;

    for (r = 0; r < k; r++)
        for (w = 0; w < kp; w++) {
            /* Past K: a zero entry, finite costs no path uses. */
            x = w >= k ? 0.0 : r < n ? q[(long)r * k + w] : 1.0;
            fgm_k_ad_cost(x, cz + (long)r * kp + w, cf + (long)r * kp + w);
            lex |= w < k && !(x > 0.0);   /* fgm_k_ad_cost's zero */
        }
    if (lex)
        fgm_k_alldiff_assign(1, cz, cf, k, uz, uf, vz, vf, col_of_row,
                             row_of_col, vf + kp);
    else
        fgm_k_alldiff_assign(0, cz, cf, k, uz, uf, vz, vf, col_of_row,
                             row_of_col, vf + kp);
    for (r = 0; lex && r < k; r++)
        optz += cz[(long)r * kp + col_of_row[r]];
    /* G[a][b]: value a's matched row moving to value b, reduced. */
    for (a = 0; a < k; a++) {
        r = row_of_col[a];
        for (b = 0; b < kp; b++) {
            if (lex)
                gz[(long)a * kp + b] = cz[(long)r * kp + b] - uz[r] - vz[b];
            gf[(long)a * kp + b] = cf[(long)r * kp + b] - uf[r] - vf[b];
        }
        gz[(long)a * kp + a] = gf[(long)a * kp + a] = 0.0;
    }
    for (mid = 0; mid < k; mid++)
        for (a = 0; a < k; a++) {
            if (a == mid)
                continue;
            if (lex)
                fgm_k_ad_through(1, gz + (long)a * kp, gf + (long)a * kp,
                                 gz[(long)a * kp + mid],
                                 gf[(long)a * kp + mid], gz + (long)mid * kp,
                                 gf + (long)mid * kp, k);
            else
                fgm_k_ad_through(0, gz + (long)a * kp, gf + (long)a * kp,
                                 0.0, gf[(long)a * kp + mid],
                                 gz + (long)mid * kp, gf + (long)mid * kp,
                                 k);
        }
    for (i = 0; i < n; i++) {
        double *o = out + (long)i * k, bz = 0.0, bf = 0.0;

        if (skip && skip[i])
            continue;
        /* Cost of the others given i -> w, less the constant opt - u[i]:
         * D[w][s(i)] - v[w]. */
        t = col_of_row[i];
        for (w = 0; w < k; w++) {
            if (lex)
                tz = gz[(long)w * kp + t] - vz[w];
            tf = gf[(long)w * kp + t] - vf[w];
            if (w == 0 || fgm_k_ad_lt_if(lex, tz, tf, bz, bf)) {
                bz = tz;
                bf = tf;
            }
        }
        for (w = 0; w < k; w++) {
            if (lex)
                tz = gz[(long)w * kp + t] - vz[w];
            tf = gf[(long)w * kp + t] - vf[w];
            /* optz - uz[i] + bz zero entries in the best: none allowed. */
            o[w] = tz == bz && optz - uz[i] + bz == 0.0 ? exp(bf - tf) : 0.0;
        }
    }
}

#endif /* FGM_OPS_ALLDIFF_MAX_H */
