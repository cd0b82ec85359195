/* runtime/ops/vec.h: four-lane double vectors for the message kernels.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hot kernels (neq, Dirichlet, belief refresh) work on a variable's K
 * values in chunks of FGM_K_LANES = 4 lanes.  With AVX (a plugin built
 * with -march=native) a chunk is one 256-bit register; without it (the
 * runtime's portable build) it is a pair of 128-bit halves, which SSE2
 * and NEON have natively -- GCC would otherwise split a 256-bit
 * comparison into scalar ones.  Either way the lanes are the same IEEE
 * operations: every sum is taken lane-wise over the chunks and the lanes
 * are added as (l0 + l1) + (l2 + l3), so the interpreter and a plugin
 * compute the same bits as long as neither fuses a*b+c into an FMA (both
 * are built with -ffp-contract=off).
 *
 * Lanes past a variable's K ("dead" lanes) hold zeros in beliefs and
 * unary vectors; kernels clear them with fgm_v_keep after anything that
 * could make them non-zero (0/0 in a cavity, a constant in a message).
 * Needs GCC or Clang (vector extensions), like the plugins.
 */
#ifndef FGM_OPS_VEC_H
#define FGM_OPS_VEC_H

#define FGM_K_LANES 4

/* Chunks of a vector of K values. */
#define FGM_K_NCHUNKS(k) (((k) + FGM_K_LANES - 1) / FGM_K_LANES)

/* Size of the kernels' local vector arrays.  A plugin whose domains all
 * fit in fewer chunks defines it before including kernels.h (smaller
 * arrays stay in registers); the interpreter takes the largest domain. */
#ifndef FGM_K_VCHUNKS
#define FGM_K_VCHUNKS (FGM_K_MAXCARD / FGM_K_LANES)
#endif

/* The vector helpers and the kernels built on them are always inlined:
 * only then do a kernel's local vector arrays live in registers. */
#define FGM_K_HOT static inline __attribute__((always_inline))

#define FGM_V_NOSIGN 0x7fffffffffffffffLL

#ifdef __AVX__
/* The helpers pass vectors by value but are always inlined: no call
 * crosses an ABI boundary, whatever GCC's -Wpsabi note says. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

typedef double fgm_v4 __attribute__((vector_size(32)));
typedef long long fgm_v4i __attribute__((vector_size(32)));
typedef double fgm_v2 __attribute__((vector_size(16)));

FGM_K_HOT fgm_v4 fgm_v_add(fgm_v4 a, fgm_v4 b) { return a + b; }
FGM_K_HOT fgm_v4 fgm_v_sub(fgm_v4 a, fgm_v4 b) { return a - b; }
FGM_K_HOT fgm_v4 fgm_v_mul(fgm_v4 a, fgm_v4 b) { return a * b; }
FGM_K_HOT fgm_v4 fgm_v_div(fgm_v4 a, fgm_v4 b) { return a / b; }

FGM_K_HOT fgm_v4
fgm_v_splat(double x)
{
    fgm_v4 v = { x, x, x, x };

    return v;
}

/* All-ones in lanes where A < B. */
FGM_K_HOT fgm_v4i
fgm_v_lt(fgm_v4 a, fgm_v4 b)
{
    return (fgm_v4i)(a < b);
}

/* A where MASK is set, B elsewhere. */
FGM_K_HOT fgm_v4
fgm_v_select(fgm_v4i mask, fgm_v4 a, fgm_v4 b)
{
    return (fgm_v4)(((fgm_v4i)a & mask) | ((fgm_v4i)b & ~mask));
}

/* All-ones where (AZ, AF) < (BZ, BF) in the lexicographic order.  This
 * and fgm_v_mand exist with AVX only: the loops that use them
 * (runtime/ops/alldiff_max.h) are scalar in the portable build, where
 * two-half blends compiled worse than branches. */
FGM_K_HOT fgm_v4i
fgm_v_lexlt(fgm_v4 az, fgm_v4 af, fgm_v4 bz, fgm_v4 bf)
{
    return (fgm_v4i)((az < bz) | ((az == bz) & (af < bf)));
}

/* Lanes set in both masks. */
FGM_K_HOT fgm_v4i
fgm_v_mand(fgm_v4i a, fgm_v4i b)
{
    return a & b;
}

FGM_K_HOT fgm_v4
fgm_v_and(fgm_v4 x, fgm_v4i mask)
{
    return (fgm_v4)((fgm_v4i)x & mask);
}

FGM_K_HOT fgm_v4i
fgm_v_ispl(long long x)
{
    fgm_v4i v = { x, x, x, x };

    return v;
}

FGM_K_HOT double
fgm_v_lane(fgm_v4 a, int i)
{
    return a[i];
}

FGM_K_HOT fgm_v4
fgm_v_set(double a, double b, double c, double d)
{
    fgm_v4 v = { a, b, c, d };

    return v;
}

/* { sum of A's lanes, sum of B's lanes }, each added in fgm_v_sum's
 * order (l0 + l1) + (l2 + l3), with three vector additions for both. */
FGM_K_HOT fgm_v2
fgm_v_sum2(fgm_v4 a, fgm_v4 b)
{
    fgm_v4 s = __builtin_shufflevector(a, b, 0, 4, 2, 6)
               + __builtin_shufflevector(a, b, 1, 5, 3, 7);

    return __builtin_shufflevector(s, s, 0, 1)
           + __builtin_shufflevector(s, s, 2, 3);
}

/* { LO's two lanes, HI's two lanes }. */
FGM_K_HOT fgm_v4
fgm_v_join2(fgm_v2 lo, fgm_v2 hi)
{
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3);
}

/* Lane-wise "x > m ? x : m" (M where they are equal or either is a
 * NaN): MAXPD(X, M), one instruction where a compare and a blend took
 * two. */
FGM_K_HOT fgm_v4
fgm_v_max(fgm_v4 x, fgm_v4 m)
{
    return __builtin_ia32_maxpd256(x, m);
}

/* { a0, a1, b0, b1 }: the two low lanes of two chunks in one. */
FGM_K_HOT fgm_v4
fgm_v_pack2(fgm_v4 a, fgm_v4 b)
{
    return __builtin_shufflevector(a, b, 0, 1, 4, 5);
}

/* { x0, x1, 0, 0 } and { x2, x3, 0, 0 }: fgm_v_pack2 undone, with +0.0
 * in the high lanes. */
FGM_K_HOT fgm_v4
fgm_v_low2(fgm_v4 x)
{
    return __builtin_shufflevector(x, fgm_v_splat(0.0), 0, 1, 4, 5);
}

FGM_K_HOT fgm_v4
fgm_v_high2(fgm_v4 x)
{
    return __builtin_shufflevector(x, fgm_v_splat(0.0), 2, 3, 4, 5);
}

/* OUT[j] = { IN[0][j], IN[1][j], IN[2][j], IN[3][j] }: four chunks
 * transposed, so that one lane-wise operation on OUT works on one lane
 * of each. */
FGM_K_HOT void
fgm_v_transpose4(const fgm_v4 *in, fgm_v4 *out)
{
    fgm_v4 t0 = __builtin_shufflevector(in[0], in[1], 0, 4, 2, 6);
    fgm_v4 t1 = __builtin_shufflevector(in[0], in[1], 1, 5, 3, 7);
    fgm_v4 t2 = __builtin_shufflevector(in[2], in[3], 0, 4, 2, 6);
    fgm_v4 t3 = __builtin_shufflevector(in[2], in[3], 1, 5, 3, 7);

    out[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
    out[1] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
    out[2] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
    out[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

/* { x1, x0, x3, x2 }. */
FGM_K_HOT fgm_v4
fgm_v_swap_pairs(fgm_v4 x)
{
    return __builtin_shufflevector(x, x, 1, 0, 3, 2);
}

/* { x2, x3, x0, x1 }. */
FGM_K_HOT fgm_v4
fgm_v_swap_halves(fgm_v4 x)
{
    return __builtin_shufflevector(x, x, 2, 3, 0, 1);
}

#else /* two 128-bit halves */

typedef double fgm_v2 __attribute__((vector_size(16)));
typedef long long fgm_v2i __attribute__((vector_size(16)));
typedef struct fgm_v4 { fgm_v2 lo, hi; } fgm_v4;
typedef struct fgm_v4i { fgm_v2i lo, hi; } fgm_v4i;

FGM_K_HOT fgm_v4
fgm_v_add(fgm_v4 a, fgm_v4 b)
{
    fgm_v4 r = { a.lo + b.lo, a.hi + b.hi };

    return r;
}

FGM_K_HOT fgm_v4
fgm_v_sub(fgm_v4 a, fgm_v4 b)
{
    fgm_v4 r = { a.lo - b.lo, a.hi - b.hi };

    return r;
}

FGM_K_HOT fgm_v4
fgm_v_mul(fgm_v4 a, fgm_v4 b)
{
    fgm_v4 r = { a.lo * b.lo, a.hi * b.hi };

    return r;
}

FGM_K_HOT fgm_v4
fgm_v_div(fgm_v4 a, fgm_v4 b)
{
    fgm_v4 r = { a.lo / b.lo, a.hi / b.hi };

    return r;
}

FGM_K_HOT fgm_v4
fgm_v_splat(double x)
{
    fgm_v4 v = { { x, x }, { x, x } };

    return v;
}

FGM_K_HOT fgm_v4i
fgm_v_lt(fgm_v4 a, fgm_v4 b)
{
    fgm_v4i r = { (fgm_v2i)(a.lo < b.lo), (fgm_v2i)(a.hi < b.hi) };

    return r;
}

FGM_K_HOT fgm_v4
fgm_v_select(fgm_v4i m, fgm_v4 a, fgm_v4 b)
{
    fgm_v4 r = {
        (fgm_v2)(((fgm_v2i)a.lo & m.lo) | ((fgm_v2i)b.lo & ~m.lo)),
        (fgm_v2)(((fgm_v2i)a.hi & m.hi) | ((fgm_v2i)b.hi & ~m.hi))
    };

    return r;
}

FGM_K_HOT fgm_v4
fgm_v_and(fgm_v4 x, fgm_v4i m)
{
    fgm_v4 r = { (fgm_v2)((fgm_v2i)x.lo & m.lo),
                 (fgm_v2)((fgm_v2i)x.hi & m.hi) };

    return r;
}

FGM_K_HOT fgm_v4i
fgm_v_ispl(long long x)
{
    fgm_v4i v = { { x, x }, { x, x } };

    return v;
}

FGM_K_HOT double
fgm_v_lane(fgm_v4 a, int i)
{
    return i < 2 ? a.lo[i] : a.hi[i - 2];
}

FGM_K_HOT fgm_v4
fgm_v_set(double a, double b, double c, double d)
{
    fgm_v4 v = { { a, b }, { c, d } };

    return v;
}

/* See the AVX version. */
FGM_K_HOT fgm_v2
fgm_v_sum2(fgm_v4 a, fgm_v4 b)
{
    return (__builtin_shufflevector(a.lo, b.lo, 0, 2)
            + __builtin_shufflevector(a.lo, b.lo, 1, 3))
           + (__builtin_shufflevector(a.hi, b.hi, 0, 2)
              + __builtin_shufflevector(a.hi, b.hi, 1, 3));
}

FGM_K_HOT fgm_v4
fgm_v_join2(fgm_v2 lo, fgm_v2 hi)
{
    fgm_v4 r = { lo, hi };

    return r;
}

/* See the AVX versions. */
FGM_K_HOT fgm_v4
fgm_v_pack2(fgm_v4 a, fgm_v4 b)
{
    fgm_v4 r = { a.lo, b.lo };

    return r;
}

FGM_K_HOT fgm_v4
fgm_v_low2(fgm_v4 x)
{
    fgm_v4 r = { x.lo, { 0.0, 0.0 } };

    return r;
}

FGM_K_HOT fgm_v4
fgm_v_high2(fgm_v4 x)
{
    fgm_v4 r = { x.hi, { 0.0, 0.0 } };

    return r;
}

FGM_K_HOT void
fgm_v_transpose4(const fgm_v4 *in, fgm_v4 *out)
{
    fgm_v4 r0 = { __builtin_shufflevector(in[0].lo, in[1].lo, 0, 2),
                  __builtin_shufflevector(in[2].lo, in[3].lo, 0, 2) };
    fgm_v4 r1 = { __builtin_shufflevector(in[0].lo, in[1].lo, 1, 3),
                  __builtin_shufflevector(in[2].lo, in[3].lo, 1, 3) };
    fgm_v4 r2 = { __builtin_shufflevector(in[0].hi, in[1].hi, 0, 2),
                  __builtin_shufflevector(in[2].hi, in[3].hi, 0, 2) };
    fgm_v4 r3 = { __builtin_shufflevector(in[0].hi, in[1].hi, 1, 3),
                  __builtin_shufflevector(in[2].hi, in[3].hi, 1, 3) };

    out[0] = r0;
    out[1] = r1;
    out[2] = r2;
    out[3] = r3;
}

FGM_K_HOT fgm_v4
fgm_v_swap_pairs(fgm_v4 x)
{
    fgm_v4 r = { __builtin_shufflevector(x.lo, x.lo, 1, 0),
                 __builtin_shufflevector(x.hi, x.hi, 1, 0) };

    return r;
}

FGM_K_HOT fgm_v4
fgm_v_swap_halves(fgm_v4 x)
{
    fgm_v4 r = { x.hi, x.lo };

    return r;
}

#if defined(__SSE2__)
/* See the AVX version. */
FGM_K_HOT fgm_v4
fgm_v_max(fgm_v4 x, fgm_v4 m)
{
    fgm_v4 r = { __builtin_ia32_maxpd(x.lo, m.lo),
                 __builtin_ia32_maxpd(x.hi, m.hi) };

    return r;
}
#define FGM_V_HAVE_MAXPD 1
#endif

#endif /* __AVX__ */

#if defined(__AVX512F__)
/* Two chunks in one 512-bit register (a plugin built where the CPU has
 * AVX-512): the plain neq update works on these (fgm_k_neq_begin8).  On
 * the 2-core AMD EPYC (Zen 5) of the measurements a 512-bit division
 * takes as long as a 256-bit one, and divisions bound an EP sweep (on a
 * Zen 4, which splits it in two, only for larger domains: FGM_K_NEQ8).
 * The lanes are the same IEEE operations, so the same bits. */
typedef double fgm_v8 __attribute__((vector_size(64)));

FGM_K_HOT fgm_v8
fgm_v8_load(const double *p)
{
    fgm_v8 v;

    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

FGM_K_HOT void
fgm_v8_store(double *p, fgm_v8 v)
{
    __builtin_memcpy(p, &v, sizeof v);
}

FGM_K_HOT fgm_v8
fgm_v8_splat(double x)
{
    fgm_v8 v = { x, x, x, x, x, x, x, x };

    return v;
}

/* The low chunk (lanes 0-3) and the high one (4-7). */
FGM_K_HOT fgm_v4
fgm_v8_lo(fgm_v8 x)
{
    return __builtin_shufflevector(x, x, 0, 1, 2, 3);
}

FGM_K_HOT fgm_v4
fgm_v8_hi(fgm_v8 x)
{
    return __builtin_shufflevector(x, x, 4, 5, 6, 7);
}

FGM_K_HOT fgm_v8
fgm_v8_join(fgm_v4 lo, fgm_v4 hi)
{
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
}

/* S plus X's low chunk, then its high one, lane by lane (FIRST: X's low
 * chunk starts the sum, S unset): two more chunks of a lane-wise sum
 * taken chunk after chunk, as fgm_v_normalize and fgm_k_neq_begin take
 * it. */
FGM_K_HOT fgm_v4
fgm_v8_accum(fgm_v4 s, fgm_v8 x, int first)
{
    s = first ? fgm_v8_lo(x) : fgm_v_add(s, fgm_v8_lo(x));
    return fgm_v_add(s, fgm_v8_hi(x));
}

/* A where B < X, else Y, lane by lane (a NaN compares false). */
FGM_K_HOT fgm_v8
fgm_v8_select_lt(fgm_v8 b, fgm_v8 x, fgm_v8 a, fgm_v8 y)
{
    typedef long long fgm_v8i __attribute__((vector_size(64)));
    fgm_v8i m = b < x;

    return (fgm_v8)(((fgm_v8i)a & m) | ((fgm_v8i)y & ~m));
}

/* See fgm_v_floor: MAXPD(lo, x), by the compilers' own builtins (not
 * through <immintrin.h>, whose parsing made a 9x9 plugin's build 0.27 s
 * slower, 0.48 -> 0.75 s; a compare and blend instead was 4% slower). */
FGM_K_HOT fgm_v8
fgm_v8_floor(fgm_v8 x, double lo)
{
#if defined(__clang__)
    return __builtin_ia32_maxpd512(fgm_v8_splat(lo), x, 4);
#else
    return __builtin_ia32_maxpd512_mask(fgm_v8_splat(lo), x, x,
                                        (unsigned char)0xff, 4);
#endif
}
#endif /* __AVX512F__ */

/* Unaligned load and store (memcpy compiles to vector moves). */
FGM_K_HOT fgm_v4
fgm_v_load(const double *p)
{
    fgm_v4 v;

    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

FGM_K_HOT void
fgm_v_store(double *p, fgm_v4 v)
{
    __builtin_memcpy(p, &v, sizeof v);
}

FGM_K_HOT fgm_v4
fgm_v_zero(void)
{
    return fgm_v_splat(0.0);
}

/* Chunk C of a row of K doubles at P that is not padded to whole chunks:
 * lanes past K are 0 and never read (a whole chunk is one load; the last
 * one is gathered lane by lane, so that no load reads past the row nor
 * spans stores of another size, which stalls store forwarding). */
FGM_K_HOT fgm_v4
fgm_v_load_row(const double *p, int c, int k)
{
    int at = c * FGM_K_LANES;

    if (at + FGM_K_LANES <= k)
        return fgm_v_load(p + at);
    return fgm_v_set(p[at], at + 1 < k ? p[at + 1] : 0.0,
                     at + 2 < k ? p[at + 2] : 0.0,
                     at + 3 < k ? p[at + 3] : 0.0);
}

/* All-ones in the lanes of chunk C that are below K, zero in dead lanes.
 * (A double comparison: SSE2 has no 64-bit integer one.) */
FGM_K_HOT fgm_v4i
fgm_v_live(int c, int k)
{
    return fgm_v_lt(fgm_v_add(fgm_v_set(0.0, 1.0, 2.0, 3.0),
                              fgm_v_splat((double)c * FGM_K_LANES)),
                    fgm_v_splat((double)k));
}

/* X in live lanes, +0.0 in dead ones (also clears a NaN from 0/0). */
FGM_K_HOT fgm_v4
fgm_v_keep(fgm_v4 x, fgm_v4i live)
{
    return fgm_v_and(x, live);
}

#if !defined(__AVX__) && !defined(FGM_V_HAVE_MAXPD)
/* Lane-wise "x > m ? x : m". */
FGM_K_HOT fgm_v4
fgm_v_max(fgm_v4 x, fgm_v4 m)
{
    return fgm_v_select(fgm_v_lt(m, x), x, m);
}
#endif

/* Lane-wise "x < lo ? lo : x", a NaN staying NaN: fgm_v_max(LO, X),
 * which returns X where either is a NaN. */
FGM_K_HOT fgm_v4
fgm_v_floor(fgm_v4 x, double lo)
{
    return fgm_v_max(fgm_v_splat(lo), x);
}

FGM_K_HOT fgm_v4
fgm_v_abs(fgm_v4 x)
{
    return fgm_v_and(x, fgm_v_ispl(FGM_V_NOSIGN));
}

/* The sum of the four lanes, in the kernels' one fixed order. */
FGM_K_HOT double
fgm_v_sum(fgm_v4 a)
{
    return (fgm_v_lane(a, 0) + fgm_v_lane(a, 1))
           + (fgm_v_lane(a, 2) + fgm_v_lane(a, 3));
}

FGM_K_HOT double
fgm_v_hmax(fgm_v4 a)
{
    double x = fgm_v_lane(a, 0), y = fgm_v_lane(a, 2);

    x = fgm_v_lane(a, 1) > x ? fgm_v_lane(a, 1) : x;
    y = fgm_v_lane(a, 3) > y ? fgm_v_lane(a, 3) : y;
    return y > x ? y : x;
}

/* Scales the NC chunks of X (K live values, dead lanes zero) to sum 1;
 * a zero (or non-positive, or NaN) sum gives the uniform vector.  Returns
 * the sum before normalizing. */
FGM_K_HOT double
fgm_v_normalize(fgm_v4 *x, int nc, int k)
{
    fgm_v4 acc = fgm_v_zero();
    double s;
    int c;

    for (c = 0; c < nc; c++)
        acc = fgm_v_add(acc, x[c]);
    s = fgm_v_sum(acc);
    if (!(s > 0.0)) {
        for (c = 0; c < nc; c++)
            x[c] = fgm_v_keep(fgm_v_splat(1.0 / k), fgm_v_live(c, k));
        return s;
    }
    acc = fgm_v_splat(1.0 / s);
    for (c = 0; c < nc; c++)
        x[c] = fgm_v_mul(x[c], acc);
    return s;
}

#endif /* FGM_OPS_VEC_H */
