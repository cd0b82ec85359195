/* runtime/ops/alldiff.h: messages of the native arity-n alldiff factor.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Op: alldiff_sum  arity: n  kind: bp-sum */
/* Op: alldiff_max  arity: n  kind: bp-max */
/*
 * Included by kernels.h; the conventions there hold (normalized
 * messages, FGM_K_FLOOR, fgm_k_commit damping, st->parallel).
 *
 * The factor is 1 when the N variables of its scope take pairwise distinct
 * values among K (N <= K; every variable of the scope has K values), else
 * 0.  Let Q be the N x K matrix of cavities, Q[j][w] = belief_j(w) /
 * msg_j(w) normalized (the variable-to-factor messages).  The exact
 * messages are, for every scope position i and value v,
 *
 *   sum-product  M[i][v] = sum over injective s: rows != i -> values != v
 *                          of prod_{j != i} Q[j][s(j)]
 *                = the permanent of the (N-1) x (K-1) minor of Q;
 *   max-product  M[i][v] = the same with max in place of sum
 *                = the best assignment of that minor.
 *
 * Both are computed for all (i, v) of a factor at once; padding Q with
 * K - N rows of ones (a padding row takes a value no variable uses) makes
 * the problem square, K x K, without changing any message but by a
 * constant.
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
 * inputs and is kept below only as the tests' cross-check.  Cost
 * O(K 2^K) per factor for all N K messages (seed: one Ryser per (i, v),
 * O(N K 2^N) each); the subsets are of values, so the cost follows K
 * even when N is smaller.  Underflow: each popcount layer of F and of B is
 * rescaled to max 1 once computed; row i of M combines only layer i of F
 * with layer K-1-i of B, so its scale is one constant that the
 * normalization removes.  The memory, 2^(K+1) doubles, caps the domain at
 * FGM_K_ALLDIFF_SUM_MAXK (the schedule refuses larger ones).  Loopy
 * sum-product on permanents: B. Huang and T. Jebara, "Approximating the
 * permanent with belief propagation", arXiv:0908.1769, 2009.
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
 * seed; kept below as the tests' reference).  This is the weighted
 * alldiff's cost-based filtering (M. Sellmann, "An arc-consistency
 * algorithm for the minimum weight all different constraint", CP 2002).
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
 * under 10% compiled while costing 13% interpreted (SSE2 halves).
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
 *
 * Fixed cells: a scope position whose cavity is a point mass (largest
 * entry > FGM_K_ALLDIFF_FIXED, in particular a single nonzero) keeps its
 * message and its belief, as the seed skips given cells: the new message
 * could not move a point mass, and its row of messages is not computed.
 * Its row of Q still constrains the others: an exact point mass (one
 * entry 1, the others 0: a clamped or clue cell) by taking its value out
 * of the problem (fgm_k_ad_reduce; both kernels then run on the free
 * rows and values only, O(m^3) and O(m 2^m) for m of them), a nearly
 * exact one as a row of the problem.  A factor whose positions are all
 * fixed costs nothing.
 */
#ifndef FGM_OPS_ALLDIFF_H
#define FGM_OPS_ALLDIFF_H

#include <math.h>
#include <string.h>
#include "common.h"

#define FGM_K_ALLDIFF_SUM_MAXK 20   /* sum-product: 2^(K+1) doubles */
#define FGM_K_ALLDIFF_FIXED (1.0 - 1e-9)

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

/* Doubles of scratch fgm_k_alldiff needs for arity N over K values:
 * cavities and new messages, twice (the whole problem and the one
 * without the clamped cells: 4 N K), plus F and B (2^(K+1)) for
 * sum-product or FGM_K_ALLDIFF_MAX_WORK(K) for max-product. */
static inline long
fgm_k_alldiff_scratch(int n, int k, int max_product)
{
    long w = 4L * n * k;

    if (max_product)
        return w + FGM_K_ALLDIFF_MAX_WORK(k);
    return w + (2L << k);
}

/* ---- sum-product: subset DP ------------------------------------------- */

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
 * the layer scaled to maximum 1. */
static inline void
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
        return;
    /* A subnormal maximum has no finite inverse: divide instead. */
    inv = 1.0 / mx;
    for (s = (1UL << t) - 1; s < lim; s = fgm_k_ad_next(s))
        x[s] = mx >= 1e-300 ? x[s] * inv : x[s] / mx;
}

/* Sum-product messages of alldiff for all N rows of Q (N x K, row i at
 * Q + i K, entries >= 0; K <= FGM_K_ALLDIFF_SUM_MAXK, N <= K): OUT (N x K)
 * row i = the permanents of the minors (i, v), normalized to sum 1, or all
 * 0 when no assignment of the other rows has positive weight.  Rows i
 * with SKIP[i] set are left unwritten (SKIP NULL: none).  WORK holds
 * 2^(K+1) doubles. */
static inline void
fgm_k_alldiff_sum_minors(const double *q, int n, int k, double *out,
                         double *work, const unsigned char *skip)
{
    double *f = work, *b = work + (1UL << k), fs;
    unsigned long full = (1UL << k) - 1, lim = 1UL << k, s, c, bit;
    int t, v, i;

    f[0] = b[0] = 1.0;
    for (t = 1; t < n; t++)
        fgm_k_ad_layer(f, q + (long)(t - 1) * k, t, k);
    for (t = 1; t < k; t++)
        fgm_k_ad_layer(b, k - t < n ? q + (long)(k - t) * k
                                  : (const double *)0, t, k);
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
    }
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
 * them fewer (runtime/solve/alldiff_local.c, order_rows).  F (2^K doubles) is zero on entry and again on return;
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

/* ---- max-product: one assignment solve + shortest paths --------------- */

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
            lex |= w < k && x == 0.0;
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

/* ---- the factor update ------------------------------------------------ */

/* Removes from Q (N x K) its rows that are exact point masses (an entry
 * 1, the others 0: clamped and clue cells) and their values.  A point
 * mass at value w takes w in every assignment with a nonzero weight, at
 * weight 1 (cost 0), so every minor of Q is its minor in the smaller
 * problem (or 0 at w), with the same best: both kernels' messages are
 * those of the rest, on far fewer rows and values once decimation has
 * fixed most cells.  QR (NR x KR) gets the other rows at the other
 * values, ROWS[NR] their positions in Q, VALS[KR] the values kept.
 * Returns NR (N: no point mass, and nothing copied), or -1 when two point
 * masses share a value (no assignment has a nonzero weight; the caller
 * solves the whole problem). */
static inline int
fgm_k_ad_reduce(const double *q, int n, int k, double *qr, int *rows,
                int *vals, int *kr)
{
    unsigned char taken[FGM_K_MAXCARD];
    int i, v, r, nr = 0, nz, at = 0;

    for (v = 0; v < k; v++)
        taken[v] = 0;
    for (i = 0; i < n; i++) {
        const double *qi = q + (long)i * k;

        for (nz = 0, v = 0; v < k; v++)
            if (qi[v] != 0.0) {
                nz++;
                at = v;
            }
        if (nz != 1 || qi[at] != 1.0) {
            rows[nr++] = i;
            continue;
        }
        if (taken[at])
            return -1;
        taken[at] = 1;
    }
    if (nr == n)
        return nr;      /* nothing to remove: QR, VALS, KR left unset */
    for (*kr = 0, v = 0; v < k; v++)
        if (!taken[v])
            vals[(*kr)++] = v;
    for (r = 0; r < nr; r++)
        for (v = 0; v < *kr; v++)
            qr[(long)r * *kr + v] = q[(long)rows[r] * k + vals[v]];
    return nr;
}

/* The cache of a factor's last update (fgm_state.adcache): for edge E0 +
 * I of its scope, 2 STRIDE doubles at (E0 + I) 2 STRIDE, row I of its
 * cavities Q then row I of the messages they gave.  The messages are a
 * function of the cavities alone (fixed rows included, which the
 * cavities decide), so cavities equal to the last ones bit for bit give
 * the last messages bit for bit, without the assignment solve or subset
 * DP.  Max-product decimation meets them often: once its messages settle,
 * about a third of alldiff-max2's updates on the forum's hardest puzzles
 * (a tenth of alldiff-max's, whose damping keeps them moving).  Compared
 * with memcmp: bits, not values (a NaN never equals, which the runtime's
 * fill of the cache relies on). */

/* Whether the cavities Q (N x K) are those of the factor's last update;
 * if so, copies the messages of its rows not FIXED into OUT. */
static inline int
fgm_k_ad_recall(const double *cache, int e0, const double *q, double *out,
                const unsigned char *fixed, int n, int k, int stride)
{
    const double *c;
    int i;

    if (!cache)
        return 0;
    c = cache + (long)e0 * 2 * stride;
    for (i = 0; i < n; i++)
        if (memcmp(c + (long)i * 2 * stride, q + (long)i * k,
                   (size_t)k * sizeof *q) != 0)
            return 0;
    for (i = 0; i < n; i++)
        if (!fixed[i])
            memcpy(out + (long)i * k, c + (long)i * 2 * stride + stride,
                   (size_t)k * sizeof *out);
    return 1;
}

/* Stores the cavities Q and the messages OUT of the rows not FIXED as the
 * factor's last update. */
static inline void
fgm_k_ad_remember(double *cache, int e0, const double *q, const double *out,
                  const unsigned char *fixed, int n, int k, int stride)
{
    double *c;
    int i;

    if (!cache)
        return;
    c = cache + (long)e0 * 2 * stride;
    for (i = 0; i < n; i++) {
        memcpy(c + (long)i * 2 * stride, q + (long)i * k,
               (size_t)k * sizeof *q);
        if (!fixed[i])
            memcpy(c + (long)i * 2 * stride + stride, out + (long)i * k,
                   (size_t)k * sizeof *out);
    }
}

/* fgm_k_normalize of the K values at X (a padded row of whole chunks,
 * dead lanes zero) on vectors: the sum one value after the other, as
 * there.  Returns 0 (and leaves X) when the sum is not positive. */
FGM_K_HOT int
fgm_k_ad_normalize(double *x, int k)
{
    double s = 0.0;
    fgm_v4 inv;
    int v, c, nc = FGM_K_NCHUNKS(k);

    for (v = 0; v < k; v++)
        s += x[v];
    if (!(s > 0.0))
        return 0;
    inv = fgm_v_splat(1.0 / s);
    for (c = 0; c < nc; c++)
        fgm_v_store(x + c * FGM_K_LANES,
                    fgm_v_mul(fgm_v_load(x + c * FGM_K_LANES), inv));
    return 1;
}

/* Row QI (K values) of a factor's cavities, fgm_k_cavity of BELIEF and
 * MSG (rows of whole chunks), and its largest entry (0 when all are
 * NaN).  With AVX (plugins) the divisions, the scaling and the maximum
 * run on vectors, through a padded copy, and the sum is taken one value
 * after the other as fgm_k_normalize takes it: the same bits as the
 * portable build's scalar loops. */
static inline double
fgm_k_ad_cavity(double *qi, const double *belief, const double *msg, int k)
{
    double mx = 0.0;
    int v;
#ifdef __AVX__
    double t[FGM_K_VCHUNKS * FGM_K_LANES + FGM_K_LANES];
    fgm_v4 x, m4 = fgm_v_zero();
    int c, nc = FGM_K_NCHUNKS(k);

    /* Dead lanes: 0 / a positive message, so 0 here. */
    for (c = 0; c < nc; c++)
        fgm_v_store(t + c * FGM_K_LANES,
                    fgm_v_div(fgm_v_load(belief + c * FGM_K_LANES),
                              fgm_v_load(msg + c * FGM_K_LANES)));
    if (fgm_k_ad_normalize(t, k)) {
        for (c = 0; c < nc; c++) {
            x = fgm_v_load(t + c * FGM_K_LANES);
            m4 = fgm_v_select(fgm_v_lt(m4, x), x, m4);
        }
        for (v = 0; v < k; v++)
            qi[v] = t[v];
        return fgm_v_hmax(m4);
    }
#endif
    fgm_k_cavity(qi, belief, msg, k);
    for (v = 0; v < k; v++)
        mx = qi[v] > mx ? qi[v] : mx;
    return mx;
}

/* fgm_k_commit of NEWM (K values) into the message MSG, damped by D,
 * then, when BELIEF is not NULL, fgm_k_belief of CAV (K values) times
 * the new message into BELIEF; returns the largest change.  With AVX the
 * element-wise steps run on vectors through padded copies, the sums in
 * fgm_k_normalize's order: the same bits as the scalar functions, which
 * the portable build runs (and this one where a sum is not positive). */
static inline double
fgm_k_ad_install(double *msg, double *newm, const double *cav,
                 double *belief, double d, int k)
{
    double change;
    int v;
#ifdef __AVX__
    double t[FGM_K_VCHUNKS * FGM_K_LANES + FGM_K_LANES];
    double o[FGM_K_VCHUNKS * FGM_K_LANES + FGM_K_LANES];
    fgm_v4 ch = fgm_v_zero(), x, diff;
    int c, nc = FGM_K_NCHUNKS(k);

    for (c = 0; c < nc; c++) {
        fgm_v_store(t + c * FGM_K_LANES, fgm_v_zero());
        fgm_v_store(o + c * FGM_K_LANES, fgm_v_zero());
    }
    for (v = 0; v < k; v++) {
        t[v] = newm[v];
        o[v] = msg[v];
    }
    if (fgm_k_ad_normalize(t, k)) {
        int ok = 1;

        if (d > 0.0) {
            for (c = 0; c < nc; c++) {
                double *tc = t + c * FGM_K_LANES;

                fgm_v_store(tc, fgm_v_add(
                    fgm_v_mul(fgm_v_splat(1.0 - d), fgm_v_load(tc)),
                    fgm_v_mul(fgm_v_splat(d),
                              fgm_v_load(o + c * FGM_K_LANES))));
            }
            ok = fgm_k_ad_normalize(t, k);
        }
        if (ok) {
            for (c = 0; c < nc; c++) {
                const double *oc = o + c * FGM_K_LANES;

                x = fgm_v_floor(fgm_v_load(t + c * FGM_K_LANES),
                                FGM_K_FLOOR);
                diff = fgm_v_abs(fgm_v_sub(x, fgm_v_load(oc)));
                /* Live lanes only; a NaN difference is passed over, as
                 * the scalar "diff > change" passes it over. */
                diff = fgm_v_keep(diff, fgm_v_live(c, k));
                ch = fgm_v_select(fgm_v_lt(ch, diff), diff, ch);
                fgm_v_store(t + c * FGM_K_LANES, x);
            }
            for (v = 0; v < k; v++)
                msg[v] = newm[v] = t[v];
            change = fgm_v_hmax(ch);
            if (!belief)
                return change;
            for (v = 0; v < k; v++)
                o[v] = cav[v];
            for (c = 0; c < nc; c++)
                fgm_v_store(o + c * FGM_K_LANES,
                            fgm_v_mul(fgm_v_load(o + c * FGM_K_LANES),
                                      fgm_v_load(t + c * FGM_K_LANES)));
            if (fgm_k_ad_normalize(o, k)) {
                for (v = 0; v < k; v++)
                    belief[v] = o[v];
                return change;
            }
            fgm_k_belief(belief, cav, msg, k);
            return change;
        }
    }
#endif
    change = fgm_k_commit(msg, newm, d, k);
    if (belief)
        fgm_k_belief(belief, cav, msg, k);
    (void)v;
    return change;
}

/* Update of alldiff over the N variables VARS (edges E0..E0+N-1, every
 * domain of size K >= N), sum- or max-product: cavities from beliefs and
 * messages, all N messages from one subset DP or one assignment solve
 * (on the cells not yet clamped: fgm_k_ad_reduce), each committed with
 * damping unless its position is fixed (see the top of this file),
 * beliefs updated unless ST->parallel.  SCRATCH holds
 * fgm_k_alldiff_scratch(N, K, MAX_PRODUCT) doubles.  Returns the largest
 * message change. */
static inline double
fgm_k_alldiff(fgm_state *st, int e0, const int *vars, int n, int stride,
              int k, int max_product, double *scratch)
{
    double *q = scratch, *out = scratch + (long)n * k;
    double *qr = out + (long)n * k, *outr = qr + (long)n * k;
    double *work = outr + (long)n * k, change = 0.0, c, mx;
    /* skipr zeroed for GCC: it cannot see that rows past nr stay
     * unread (-Wmaybe-uninitialized in a -Werror plugin build). */
    unsigned char fixed[FGM_K_MAXCARD], skipr[FGM_K_MAXCARD] = { 0 };
    int rows[FGM_K_MAXCARD], vals[FGM_K_MAXCARD];
    int i, v, r, nfree = 0, nr, kr = 0, reduced, ns = n, ks = k;
    const double *qs = q;
    double *os = out;
    const unsigned char *skip = fixed;

    for (i = 0; i < n; i++) {
        mx = fgm_k_ad_cavity(q + (long)i * k,
                             st->belief + (long)vars[i] * stride,
                             st->msg + (long)(e0 + i) * stride, k);
        fixed[i] = mx > FGM_K_ALLDIFF_FIXED;
        nfree += !fixed[i];
    }
    if (nfree == 0)
        return 0.0;
    if (fgm_k_ad_recall(st->adcache, e0, q, out, fixed, n, k, stride))
        goto commit;
    nr = fgm_k_ad_reduce(q, n, k, qr, rows, vals, &kr);
    reduced = nr >= 0 && nr < n;
    if (reduced) {
        for (r = 0; r < nr; r++)
            skipr[r] = fixed[rows[r]];
        /* The kernels run on the reduced problem instead. */
        qs = qr;
        ns = nr;
        ks = kr;
        os = outr;
        skip = skipr;
    }
    if (max_product)
        fgm_k_alldiff_max_minors(qs, ns, ks, os, work, skip);
    else
        fgm_k_alldiff_sum_minors(qs, ns, ks, os, work, skip);
    for (r = 0; reduced && r < nr; r++) {
        double *o = out + (long)rows[r] * k;

        if (skipr[r])
            continue;
        for (v = 0; v < k; v++)
            o[v] = 0.0;
        for (v = 0; v < kr; v++)
            o[vals[v]] = outr[(long)r * kr + v];
    }
    fgm_k_ad_remember(st->adcache, e0, q, out, fixed, n, k, stride);
commit:
    for (i = 0; i < n; i++) {
        double *m = st->msg + (long)(e0 + i) * stride;

        if (fixed[i])
            continue;
        /* An all-zero row (the others cannot be placed: a contradiction)
         * becomes uniform in fgm_k_commit, as in fgm_k_neq. */
        c = fgm_k_ad_install(m, out + (long)i * k, q + (long)i * k,
                             st->parallel ? NULL
                             : st->belief + (long)vars[i] * stride,
                             st->damping, k);
        change = c > change ? c : change;
    }
    return change;
}

/* ---- references for the tests and the benchmark ----------------------- */

/* Permanent of the M x M matrix A (row-major, M <= FGM_K_MAXCARD) by
 * Ryser's formula in Gray-code order (Nijenhuis and Wilf 1978):
 * perm A = (-1)^M sum_{S subset of columns} (-1)^|S| prod_i sum_{j in S}
 * A[i][j].  O(M 2^M); alternating sums: accurate only when the terms do
 * not cancel (well-conditioned, positive A). */
static inline double
fgm_k_alldiff_ryser(const double *a, int m)
{
    double rs[FGM_K_MAXCARD], total = 0.0, p;
    unsigned long g, prev = 0, bit, lim = 1UL << m;
    int i, j, sign = m & 1 ? -1 : 1, size = 0;

    if (m == 0)
        return 1.0;
    for (i = 0; i < m; i++)
        rs[i] = 0.0;
    for (g = 1; g < lim; g++) {
        unsigned long gray = g ^ (g >> 1);

        bit = gray ^ prev;
        prev = gray;
        for (j = 0; !(bit >> j & 1); j++)
            ;
        if (gray & bit) {
            for (i = 0; i < m; i++)
                rs[i] += a[(long)i * m + j];
            size++;
        } else {
            for (i = 0; i < m; i++)
                rs[i] -= a[(long)i * m + j];
            size--;
        }
        p = 1.0;
        for (i = 0; i < m && p != 0.0; i++)
            p *= rs[i];
        total += (size & 1) ? -p : p;
    }
    return sign * total;
}

/* The minor (I, V) of Q (N x K) padded to a square (K-1) x (K-1) matrix
 * with rows of ones, into A. */
static inline void
fgm_k_alldiff_minor(const double *q, int n, int k, int i, int v, double *a)
{
    int r, w, ra = 0, ca;

    for (r = 0; r < k; r++) {
        if (r == i)
            continue;
        for (w = 0, ca = 0; w < k; w++)
            if (w != v)
                a[(long)ra * (k - 1) + ca++] = r < n ? q[(long)r * k + w]
                                                     : 1.0;
        ra++;
    }
}

/* fgm_k_alldiff_sum_minors by one Ryser permanent per (i, v), as in the
 * seed.  WORK: (K-1)^2 doubles. */
static inline void
fgm_k_alldiff_sum_minors_ryser(const double *q, int n, int k, double *out,
                               double *work)
{
    int i, v;

    for (i = 0; i < n; i++) {
        double *o = out + (long)i * k, sum = 0.0;

        for (v = 0; v < k; v++) {
            fgm_k_alldiff_minor(q, n, k, i, v, work);
            o[v] = fgm_k_alldiff_ryser(work, k - 1);
            sum += o[v];
        }
        if (sum > 0.0)
            for (v = 0; v < k; v++)
                o[v] /= sum;
    }
}

/* fgm_k_alldiff_max_minors by one assignment solve per (i, v), as in the
 * seed.  WORK: FGM_K_ALLDIFF_MAX_WORK(K) doubles. */
static inline void
fgm_k_alldiff_max_minors_each(const double *q, int n, int k, double *out,
                              double *work)
{
    int m = k - 1, ms = FGM_K_ALLDIFF_KP(m);
    int col_of_row[FGM_K_MAXCARD], row_of_col[FGM_K_MAXCARD];
    long mm = (long)m * m;
    double *minor = work, *cz = minor + mm, *cf = cz + (long)m * ms;
    double *uz = cf + (long)m * ms, *uf = uz + m, *vz = uf + m;
    double *vf = vz + ms, x;
    double oz[FGM_K_MAXCARD], of[FGM_K_MAXCARD], bz = 0.0, bf = 0.0;
    int i, v, r, c;

    for (i = 0; i < n; i++) {
        double *o = out + (long)i * k;

        for (v = 0; v < k; v++) {
            fgm_k_alldiff_minor(q, n, k, i, v, minor);
            for (r = 0; r < m; r++)
                for (c = 0; c < ms; c++) {
                    x = c < m ? minor[(long)r * m + c] : 0.0;
                    fgm_k_ad_cost(x, cz + (long)r * ms + c,
                                  cf + (long)r * ms + c);
                }
            oz[v] = of[v] = 0.0;
            if (m > 0)
                fgm_k_alldiff_assign(1, cz, cf, m, uz, uf, vz, vf, col_of_row,
                                     row_of_col, vf + ms);
            for (r = 0; r < m; r++) {
                c = col_of_row[r];
                oz[v] += cz[(long)r * ms + c];
                of[v] += cf[(long)r * ms + c];
            }
            if (v == 0 || fgm_k_ad_lt(oz[v], of[v], bz, bf)) {
                bz = oz[v];
                bf = of[v];
            }
        }
        for (v = 0; v < k; v++)
            o[v] = oz[v] == bz && bz == 0.0 ? exp(bf - of[v]) : 0.0;
    }
}

#endif /* FGM_OPS_ALLDIFF_H */
