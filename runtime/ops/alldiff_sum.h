/* runtime/ops/alldiff_sum.h: sum-product messages of the alldiff factor.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of runtime/ops/alldiff.h (the factor, Q and the messages are
 * defined at its top), which includes it; the sparse DP also serves the
 * solvers' local beliefs (runtime/solve/alldiff_local.c).
 *
 * Sum-product, all minors by a forward/backward subset DP.  F[S] is the
 * sum over bijections of rows 0..|S|-1 onto the value set S, B[S] the same
 * for rows K-|S|..K-1; the row count is implied by |S|, so each is one
 * array of 2^K doubles:
 *   F[S] = sum_{v in S} F[S - v] Q[|S|-1][v],
 *   B[S] = sum_{v in S} B[S - v] Q[K-|S|][v],
 *   M[i][v] = sum_{|S| = i, v not in S} F[S] B[U - S - v]   (U = all K).
 * Every term is positive: no cancellation, unlike Ryser's alternating
 * inclusion-exclusion (H. J. Ryser, Combinatorial Mathematics, Carus
 * Monograph 14, 1963; Gray-code form in A. Nijenhuis and H. S. Wilf,
 * Combinatorial Algorithms, 1978), which loses all digits on skewed
 * inputs and is kept only as the tests' cross-check
 * (tests/alldiff_ref.h).  Cost O(K 2^K) per factor for all N K messages
 * (seed: one Ryser per (i, v), O(N K 2^N) each); the subsets are of
 * values, so the cost follows K even when N is smaller.  Underflow: each
 * popcount layer of F and of B is
 * rescaled to max 1 once computed; row i of M combines only layer i of F
 * with layer K-1-i of B, so its scale is one constant that the
 * normalization removes.  The memory, 2^(K+1) doubles, caps the domain at
 * FGM_K_ALLDIFF_SUM_MAXK (the schedule refuses larger ones).  Loopy
 * sum-product on permanents: B. Huang and T. Jebara, "Approximating the
 * permanent with belief propagation", arXiv:0908.1769, 2009.
 */
#ifndef FGM_OPS_ALLDIFF_SUM_H
#define FGM_OPS_ALLDIFF_SUM_H

#include "common.h"

#define FGM_K_ALLDIFF_SUM_MAXK 20   /* sum-product: 2^(K+1) doubles */

/* Index of the lowest set bit of X (X != 0). */
static inline int
fgm_k_ad_ctz(unsigned long x)
{
#if defined(__GNUC__)
    return __builtin_ctzl(x);
#else
    int n = 0;

    for (; !(x & 1); x >>= 1)
        n++;
    return n;
#endif
}

/* The next larger mask with the same popcount (Gosper's hack, the
 * division by the lowest bit done as a shift); past every mask for 0. */
static inline unsigned long
fgm_k_ad_next(unsigned long x)
{
    unsigned long r = x + (x & (~x + 1));

    return x ? r | (((x ^ r) >> 2) >> fgm_k_ad_ctz(x)) : ~0UL;
}

/* Layer T (masks of popcount T over K values) of a subset table: X[S] =
 * sum_{v in S} X[S - v] ROW[v] (ROW NULL: a padding row of ones), then
 * the layer scaled to maximum 1.  Returns the factor it was divided by
 * (1 when none). */
static inline double
fgm_k_ad_layer(double *x, const double *row, int t, int k)
{
    unsigned long s, b, lim = 1UL << k;
    double mx = 0.0, acc, inv;

    for (s = (1UL << t) - 1; s < lim; s = fgm_k_ad_next(s)) {
        acc = 0.0;
        if (row)
            for (b = s; b; b &= b - 1)
                acc += x[s ^ (b & (~b + 1))] * row[fgm_k_ad_ctz(b)];
        else
            for (b = s; b; b &= b - 1)
                acc += x[s ^ (b & (~b + 1))];
        x[s] = acc;
        mx = acc > mx ? acc : mx;
    }
    if (!(mx > 0.0) || mx == 1.0)
        return 1.0;
    /* A subnormal maximum has no finite inverse: divide instead. */
    inv = 1.0 / mx;
    for (s = (1UL << t) - 1; s < lim; s = fgm_k_ad_next(s))
        x[s] = mx >= 1e-300 ? x[s] * inv : x[s] / mx;
    return mx;
}

/* Sum-product messages of alldiff for all N rows of Q (N x K, row i at
 * Q + i K, entries >= 0; K <= FGM_K_ALLDIFF_SUM_MAXK, N <= K): OUT (N x K)
 * row i = the permanents of the minors (i, v), normalized to sum 1, or all
 * 0 when no assignment of the other rows has positive weight.  Rows i
 * with SKIP[i] set are left unwritten (SKIP NULL: none).  WORK holds
 * 2^(K+1) doubles.  SCALE (N doubles, or NULL) gets each row's sum of
 * permanents before the normalizing, the sums over the injective
 * assignments of the other rows (the layers' scalings multiplied back,
 * divided by the (K - N)! orders of the padding rows): the seed's v4
 * floors the permanents themselves (fgm_k_alldiff_seed). */
static inline void
fgm_k_alldiff_sum_minors_scaled(const double *q, int n, int k, double *out,
                                double *work, const unsigned char *skip,
                                double *scale)
{
    double *f = work, *b = work + (1UL << k), fs;
    double fsc[FGM_K_MAXCARD], bsc[FGM_K_MAXCARD], pad = 1.0;
    unsigned long full = (1UL << k) - 1, lim = 1UL << k, s, c, bit;
    int t, v, i;

    f[0] = b[0] = 1.0;
    fsc[0] = bsc[0] = 1.0;
    for (t = 1; t < n; t++)
        fsc[t] = fsc[t - 1] * fgm_k_ad_layer(f, q + (long)(t - 1) * k, t, k);
    for (t = 1; t < k; t++)
        bsc[t] = bsc[t - 1]
                 * fgm_k_ad_layer(b, k - t < n ? q + (long)(k - t) * k
                                             : (const double *)0, t, k);
    for (t = 2; t <= k - n; t++)
        pad *= t;
    for (i = 0; i < n; i++) {
        double *o = out + (long)i * k, sum = 0.0;

        if (skip && skip[i])
            continue;
        for (v = 0; v < k; v++)
            o[v] = 0.0;
        for (s = (1UL << i) - 1; s < lim; s = fgm_k_ad_next(s)) {
            fs = f[s];
            if (fs == 0.0)
                continue;
            c = full ^ s;
            for (bit = c; bit; bit &= bit - 1)
                o[fgm_k_ad_ctz(bit)] += fs * b[c ^ (bit & (~bit + 1))];
        }
        for (v = 0; v < k; v++)
            sum += o[v];
        if (sum > 0.0)
            for (v = 0; v < k; v++)
                o[v] /= sum;
        if (scale)
            scale[i] = sum * fsc[i] * bsc[k - i - 1] / pad;
    }
}

/* fgm_k_alldiff_sum_minors_scaled without the scales. */
static inline void
fgm_k_alldiff_sum_minors(const double *q, int n, int k, double *out,
                         double *work, const unsigned char *skip)
{
    fgm_k_alldiff_sum_minors_scaled(q, n, k, out, work, skip,
                                    (double *)0);
}

/* The sum-product message of alldiff to one row from the N other rows
 * (N < K), each given as the bit mask ROWS[r] of its values of nonzero
 * weight and, when WT is not NULL, those weights (row r at WT + r K):
 * OUT (K) gets, for each value v, the total weight (the product of the
 * weights taken) of the injective assignments of those rows to values of
 * their masks that leave v free -- the permanent of the minor of the row
 * and v, up to the constant the padding rows of fgm_k_alldiff_sum_minors
 * contribute.  A sparse forward DP: F[S] is the weight of the
 * assignments of the rows so far onto the value set S, kept only for the
 * sets some assignment reaches (in SETS), so the cost follows those
 * sets, not 2^K (a plateau's rows hold two or three values, a unit's
 * reachable sets a few hundred of 2^16); the sets of step t lie in the
 * union of the first t rows, so an order that grows it slowly keeps
 * them fewer (runtime/solve/alldiff_local.c, order_rows).  F (2^K
 * doubles) is zero on entry and again on return;
 * SETS holds 2^K masks.  Without WT the weights are counts: integers,
 * exact while under 2^53 (K <= 18).  With WT, every weight a mask
 * names must be positive and the products of N of them must not
 * underflow to 0, which would list a set twice (weights in (0, 1]:
 * entries >= 2^-63 for N <= 16). */
static inline void
fgm_k_alldiff_free_weight(const unsigned long *rows, const double *wt, int n,
                          int k, double *out, double *f,
                          unsigned long *sets)
{
    unsigned long s, bit, to;
    long lo = 0, hi = 1, m = 1, i;
    int r, v;

    for (v = 0; v < k; v++)
        out[v] = 0.0;
    f[0] = 1.0;
    sets[0] = 0;
    for (r = 0; r < n && hi > lo; r++) {
        for (i = lo; i < hi; i++) {
            s = sets[i];
            for (bit = rows[r] & ~s; bit; bit &= bit - 1) {
                to = s | (bit & (~bit + 1));
                if (f[to] == 0.0)
                    sets[m++] = to;
                f[to] += wt ? f[s] * wt[(long)r * k + fgm_k_ad_ctz(bit)]
                            : f[s];
            }
        }
        lo = hi;
        hi = m;
    }
    for (i = lo; r == n && i < hi; i++)
        for (v = 0; v < k; v++)
            if (!(sets[i] >> v & 1))
                out[v] += f[sets[i]];
    for (i = 0; i < m; i++)
        f[sets[i]] = 0.0;
}

/* fgm_k_alldiff_free_weight on 0/1 rows: OUT counts the assignments. */
static inline void
fgm_k_alldiff_count_free(const unsigned long *rows, int n, int k,
                         double *out, double *f, unsigned long *sets)
{
    fgm_k_alldiff_free_weight(rows, (const double *)0, n, k, out, f, sets);
}

#endif /* FGM_OPS_ALLDIFF_SUM_H */
