/* runtime/ops/sum.h: the sum operator, a linear constraint on the values.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 *
 * A sum factor over n variables is 1 where the weighted sum of their
 * value indices y_j (value minus the domain's low end), a_0 y_0 + ... +
 * a_{n-1} y_{n-1}, lies in [lo, hi], and 0 elsewhere: a Killer Sudoku
 * cage, a Kakuro run, a budget, a knapsack.  The compiler writes
 * `sum(x, 2*y, -z) == 15` on values as such a range of the indices'
 * sum (compiler/expand.c).  Its messages are those of the table it
 * stands for, without the table.  The kernel counts each term from its
 * least: the step of y_j is |a_j| y_j, or |a_j| (K_j - 1 - y_j) for a
 * negative a_j, so that every step is >= 0 and the steps sum to the
 * weighted sum minus its least, in [A, B] = [lo, hi] minus that least.
 * With c_j the cavities, the distributions of the partial sums
 *
 *   F_j(s) = sum over y_0..y_{j-1} whose steps sum to s of prod c_l(y_l),
 *
 * built one variable at a time (a convolution), and G, the same from
 * the last variable back, give the message to x_i at value v as
 *
 *   m_i(v) = sum_s F_i(s) W(s + step_i(v)),
 *   W(u) = sum of G(t) over A <= u + t <= B
 *
 * (max instead of sum for max-product), in O(n T K) for a span of T
 * sums (T = sum_j |a_j| (K_j - 1)), where the table holds K^n entries.
 * Positive terms only: W is a running sum from the bound that binds (a
 * one-sided range: `<=`, `>=`) or the window summed directly (`==`: one
 * term), never a difference of cumulative sums, which would cancel.
 * Each F_j and G is scaled to a largest entry of 1 (a message is
 * normalized, so the scale drops out; fgm_k_sum_forward returns its log
 * for the evidence), after the partial sums that cannot reach the
 * range are set to 0: the scale is then that of the sums that count,
 * not of the distribution's mode
 * (five variables of evidence [1, 1e-100] summing to 5: scaled at the
 * mode, every term of every message was 1e-500, 0 in doubles, and the
 * factor fell silent).  A message whose every value still comes out
 * below FGM_K_SUM_TINY is computed again in logs (fgm_k_sum_log_message,
 * out of line: cavities so skewed that the sums' shares underflow).
 *
 * Op: sum  arity: n  kind: ep, bp-sum, bp-max (gibbs and vmp:
 * ops/gibbs.h, ops/vmp.h).  Messages of a cardinality or linear
 * constraint by dynamic programming over partial counts: R. Gupta, A.
 * Diwan and S. Sarawagi, "Efficient inference with cardinality-based
 * clique potentials", ICML 2007; D. Tarlow, I. Givoni and R. Zemel,
 * "HOP-MAP: efficient message passing with high order potentials",
 * AISTATS 2010.
 */
#ifndef FGM_OPS_SUM_H
#define FGM_OPS_SUM_H

#include <math.h>
#include "common.h"
#include "table.h"

/* The largest (n + 1) (T + 1) of a sum factor over n variables whose
 * sums span T: the doubles its partial-sum distributions hold.  Past
 * it (32 MiB) the schedule refuses the factor (runtime/schedule.c). */
#define FGM_K_SUM_MAXWORK (1L << 22)

/* A message whose largest value (its partial sums scaled to a largest
 * of 1) is below this is computed again in logs: its values may have
 * lost all their digits to underflow. */
#define FGM_K_SUM_TINY 1e-200

/* The domain size of variable V: CARD[V], or K when CARD is NULL (every
 * domain the same size, a constant in a plugin). */
static inline int
fgm_k_sum_card(const int *card, int k, int v)
{
    return card ? card[v] : k;
}

/* The coefficient of the sum's J-th variable: COEF[J], or 1 when COEF
 * is NULL (a sum of the values themselves: a constant in a plugin). */
static inline long
fgm_k_sum_coef(const double *coef, int j)
{
    return coef ? (long)coef[j] : 1;
}

/* The step of value index Y of the sum's J-th variable (KJ values),
 * coefficient A: |A| Y, counted from the top for a negative A. */
static inline long
fgm_k_sum_step(long a, int kj, int y)
{
    return a > 0 ? a * y : -a * (kj - 1 - y);
}

/* How far a variable of K values at coefficient A moves the steps' sum:
 * |A| (K - 1), the width its convolution adds. */
static inline long
fgm_k_sum_width(long a, int k)
{
    return (a < 0 ? -a : a) * (k - 1);
}

/* The span of the steps' sums of the N variables VARS (coefficients
 * COEF): the sum of their widths. */
static inline long
fgm_k_sum_span(const int *vars, const int *card, int k, const double *coef,
               int n)
{
    long t = 0, a;
    int j;

    for (j = 0; j < n; j++) {
        a = fgm_k_sum_coef(coef, j);
        t += fgm_k_sum_width(a, fgm_k_sum_card(card, k, vars[j]));
    }
    return t;
}

/* The least weighted sum of the N variables VARS (coefficients COEF):
 * the sum of a (K - 1) over the negative a, what the steps count
 * from. */
static inline long
fgm_k_sum_least(const int *vars, const int *card, int k, const double *coef,
                int n)
{
    long least = 0, a;
    int j;

    for (j = 0; coef && j < n; j++)
        if ((a = fgm_k_sum_coef(coef, j)) < 0)
            least += a * (fgm_k_sum_card(card, k, vars[j]) - 1);
    return least;
}

/* Doubles the N + 1 prefix distributions of N variables spanning T
 * sums take at most (fgm_k_sum_forward; FGM_K_SUM_MAXWORK bounds it). */
static inline long
fgm_k_sum_partials(int n, long t)
{
    return ((long)n + 1) * (t + 1);
}

/* Doubles of scratch fgm_k_sum needs for N variables spanning T sums:
 * the cavities and an output row, the N + 1 prefix distributions, and
 * three rows of T + 1 (the suffix, its next, W). */
static inline long
fgm_k_sum_scratch(int n, long t, int stride)
{
    return ((long)n + 1) * stride + fgm_k_sum_partials(n, t) + 3 * (t + 1);
}

/* OUT (SIZE + |A| (K - 1) entries) = IN (SIZE entries) convolved with
 * C (K entries) at coefficient A: the sums (MAXP: the largest) of IN(s)
 * C(y) over s + step(y), kept for those in [KEEP_LO, KEEP_HI] only (0
 * elsewhere: sums that cannot reach the range), scaled to a largest
 * entry of 1.  Returns the log of the scale divided out (0 when every
 * entry is 0). */
static inline double
fgm_k_sum_convolve(double *out, const double *in, long size, const double *c,
                   int k, long a, long keep_lo, long keep_hi, int maxp)
{
    double top = 0.0, w;
    long s, n = size + fgm_k_sum_width(a, k), at;
    int y;

    for (s = 0; s < n; s++)
        out[s] = 0.0;
    for (s = 0; s < size; s++) {
        if (in[s] == 0.0)
            continue;
        for (y = 0; y < k; y++) {
            w = in[s] * c[y];
            at = s + fgm_k_sum_step(a, k, y);
            if (!maxp)
                out[at] += w;
            else if (w > out[at])
                out[at] = w;
        }
    }
    for (s = 0; s < n; s++)
        if (s < keep_lo || s > keep_hi)
            out[s] = 0.0;
    for (s = 0; s < n; s++)
        top = out[s] > top ? out[s] : top;
    if (!(top > 0.0))
        return 0.0;
    for (s = 0; s < n; s++)
        out[s] /= top;
    return log(top);
}

/* The prefix distributions F_0..F_N of the N variables VARS (domain
 * sizes by fgm_k_sum_card, coefficients COEF, cavity rows CAV with
 * STRIDE, steps spanning T sums) for the steps' range A..B, one after
 * the other in F: F_j holds 1 + sum_{l < j} |a_l| (K_l - 1) entries, F_0
 * = (1), each kept where the variables after it can still bring the sum
 * into the range; *LAST gets the offset of F_N (T + 1 entries).
 * Returns the log of the scales divided out: F_N times exp of it is the
 * distribution of the whole sum within the range. */
static inline double
fgm_k_sum_forward(double *f, const double *cav, const int *vars,
                  const int *card, int k, const double *coef, int n, long t,
                  long a, long b, int stride, int maxp, long *last)
{
    double lscale = 0.0;
    long size = 1, aj, next;
    int j, kj;

    *last = 0;
    f[0] = 1.0;
    for (j = 0; j < n; j++) {
        kj = fgm_k_sum_card(card, k, vars[j]);
        aj = fgm_k_sum_coef(coef, j);
        /* F_{j+1} spans NEXT sums; the rest add up to T less. */
        next = size + fgm_k_sum_width(aj, kj);
        lscale += fgm_k_sum_convolve(f + size, f, size,
                                     cav + (long)j * stride, kj, aj,
                                     a - (t - (next - 1)), b, maxp);
        f += size;
        *last += size;
        size = next;
    }
    return lscale;
}

/* log(exp(A) + exp(B)), or the larger with MAXP. */
static inline double
fgm_k_sum_log_add(double a, double b, int maxp)
{
    if (maxp || a == -HUGE_VAL || b == -HUGE_VAL)
        return a > b ? a : b;
    return a > b ? a + log1p(exp(b - a)) : b + log1p(exp(a - b));
}

/* OUT (the K_I values of VARS[I]): the message of fgm_k_sum computed in
 * logs, then exponentiated from its largest value: the distribution of
 * the other variables' steps' sum as log weights, D (T + 1 entries) and
 * E (as many) of scratch.  Out of line: it runs only when the scaled
 * partial sums underflowed (a log and an exp a term, some 30x the
 * work). */
static __attribute__((noinline, cold)) void
fgm_k_sum_log_message(double *out, const double *cav, const int *vars,
                      const int *card, int k, const double *coef, int n,
                      int i, long a, long b, int stride, int maxp,
                      double *d, double *e)
{
    double top = -HUGE_VAL, *tmp, lc;
    long size = 1, s, aj, at, next;
    int j, y, v, kj, ki = fgm_k_sum_card(card, k, vars[i]);

    d[0] = 0.0;
    for (j = 0; j < n; j++) {
        if (j == i)
            continue;
        kj = fgm_k_sum_card(card, k, vars[j]);
        aj = fgm_k_sum_coef(coef, j);
        next = size + fgm_k_sum_width(aj, kj);
        for (s = 0; s < next; s++)
            e[s] = -HUGE_VAL;
        for (s = 0; s < size; s++)
            for (y = 0; d[s] > -HUGE_VAL && y < kj; y++) {
                lc = cav[(long)j * stride + y] > 0.0
                     ? log(cav[(long)j * stride + y]) : -HUGE_VAL;
                at = s + fgm_k_sum_step(aj, kj, y);
                e[at] = fgm_k_sum_log_add(e[at], d[s] + lc, maxp);
            }
        size = next;
        tmp = d;
        d = e;
        e = tmp;
    }
    for (v = 0; v < ki; v++) {
        out[v] = -HUGE_VAL;
        at = fgm_k_sum_step(fgm_k_sum_coef(coef, i), ki, v);
        for (s = a - at < 0 ? 0 : a - at; s <= b - at && s < size; s++)
            out[v] = fgm_k_sum_log_add(out[v], d[s], maxp);
        top = out[v] > top ? out[v] : top;
    }
    for (v = 0; v < ki; v++)
        out[v] = top > -HUGE_VAL ? exp(out[v] - top) : 0.0;
}

/* The aggregate (MAXP: the largest; else the sum) of F's entries S in
 * [LO, HI] clipped to [0, SIZE - 1]: 0 when none is left. */
static inline double
fgm_k_sum_window(const double *f, long size, long lo, long hi, int maxp)
{
    double acc = 0.0;
    long s;

    if (lo < 0)
        lo = 0;
    if (hi > size - 1)
        hi = size - 1;
    for (s = lo; s <= hi; s++)
        acc = !maxp ? acc + f[s] : f[s] > acc ? f[s] : acc;
    return acc;
}

/* W(u) for u = 0..NU-1: the aggregate of the suffix distribution G
 * (GSIZE entries) over t with A <= u + t <= B.  When one side cannot
 * bind (A <= 0: every t below; B - u >= GSIZE - 1 for every u: every t
 * above), a running aggregate from the other side, else each window on
 * its own (`==`: one entry). */
static inline void
fgm_k_sum_w(double *w, long nu, const double *g, long gsize, long a, long b,
            int maxp)
{
    double acc = 0.0;
    long u, t, next;

    if (a <= 0) {               /* t <= B - u: grows as u falls */
        next = 0;
        for (u = nu - 1; u >= 0; u--) {
            for (t = next; t <= b - u && t < gsize; t++)
                acc = !maxp ? acc + g[t] : g[t] > acc ? g[t] : acc;
            if (b - u + 1 > next)
                next = b - u + 1;
            w[u] = b - u >= 0 ? acc : 0.0;
        }
    } else if (b - (nu - 1) >= gsize - 1) {    /* t >= A - u */
        next = gsize - 1;
        for (u = 0; u < nu; u++) {
            for (t = next; t >= a - u && t >= 0; t--)
                acc = !maxp ? acc + g[t] : g[t] > acc ? g[t] : acc;
            if (a - u - 1 < next)
                next = a - u - 1;
            w[u] = a - u <= gsize - 1 ? acc : 0.0;
        }
    } else {
        for (u = 0; u < nu; u++)
            w[u] = fgm_k_sum_window(g, gsize, a - u, b - u, maxp);
    }
}

/* The log of the mass of a sum factor over the N variables VARS
 * (domain sizes by fgm_k_sum_card, coefficients COEF, cavity rows CAV,
 * STRIDE apart) whose weighted sum of value indices lies in LO..HI: of
 * the sum (MAXP: the max) over the assignments it allows of the product
 * of their cavities (the factor's term of the evidence,
 * runtime/evidence.c); -inf when none has mass.  F: (N + 1) (T + 1)
 * doubles of scratch. */
static inline double
fgm_k_sum_log_mass(double *f, const double *cav, const int *vars,
                   const int *card, int k, const double *coef, int n,
                   long lo, long hi, int stride, int maxp)
{
    long t = fgm_k_sum_span(vars, card, k, coef, n), last;
    long least = fgm_k_sum_least(vars, card, k, coef, n);
    double lscale = fgm_k_sum_forward(f, cav, vars, card, k, coef, n, t,
                                      lo - least, hi - least, stride, maxp,
                                      &last);

    return log(fgm_k_sum_window(f + last, t + 1, lo - least, hi - least,
                                maxp)) + lscale;
}

/* Update of a sum factor over the N variables VARS (edges E0..E0+N-1,
 * domain sizes by fgm_k_sum_card, coefficients COEF or NULL for 1 each)
 * whose weighted sum of value indices must lie in LO..HI.  Every
 * message is computed from the cavities taken at the start, as
 * fgm_k_table's are.  Needs fgm_k_sum_scratch doubles of SCRATCH.
 * Returns the largest message change. */
static inline double
fgm_k_sum(fgm_state *st, int e0, const int *vars, const int *card, int k,
          const double *coef, int n, long lo, long hi, int stride,
          int max_product, double *scratch)
{
    long t = fgm_k_sum_span(vars, card, k, coef, n), fo, fs = t + 1;
    long least = fgm_k_sum_least(vars, card, k, coef, n), gsize = 1, s;
    long a = lo - least, b = hi - least, ai, wi, at;
    double *cav = scratch, *out = scratch + (long)n * stride;
    double *f = out + stride, *g, *g2, *w, *tmp, change = 0.0, c, acc, x;
    double top;
    int i, v, ki;

    for (i = 0; i < n; i++)
        fgm_k_cavity(cav + (long)i * stride,
                     st->belief + (long)vars[i] * stride,
                     st->msg + (long)(e0 + i) * stride,
                     fgm_k_sum_card(card, k, vars[i]));
    /* F_n: offset FO, FS entries. */
    fgm_k_sum_forward(f, cav, vars, card, k, coef, n, t, a, b, stride,
                      max_product, &fo);
    g = f + fo + fs;
    g2 = g + t + 1;
    w = g2 + t + 1;
    g[0] = 1.0;
    for (i = n - 1; i >= 0; i--) {
        /* F_i (the prefix before x_i) and G (the suffix after it). */
        ki = fgm_k_sum_card(card, k, vars[i]);
        ai = fgm_k_sum_coef(coef, i);
        wi = fgm_k_sum_width(ai, ki);
        fs -= wi;
        fo -= fs;
        fgm_k_sum_w(w, fs + wi, g, gsize, a, b, max_product);
        for (v = 0, top = 0.0; v < ki; v++) {
            acc = 0.0;
            at = fgm_k_sum_step(ai, ki, v);
            for (s = 0; s < fs; s++) {
                x = f[fo + s] * w[s + at];
                acc = !max_product ? acc + x : x > acc ? x : acc;
            }
            out[v] = acc;
            top = acc > top ? acc : top;
        }
        if (top < FGM_K_SUM_TINY)     /* W and G2 are free here */
            fgm_k_sum_log_message(out, cav, vars, card, k, coef, n, i, a,
                                  b, stride, max_product, w, g2);
        c = fgm_k_commit(st->msg + (long)(e0 + i) * stride, out,
                         st->damping, FGM_K_TABLE_FLOOR, ki);
        change = c > change ? c : change;
        if (!st->parallel)
            fgm_k_table_belief(st, st->belief + (long)vars[i] * stride,
                               cav + (long)i * stride, e0 + i, stride, ki);
        /* G takes x_i in: it then spans GSIZE + WI sums, the
         * variables before it the rest of T. */
        fgm_k_sum_convolve(g2, g, gsize, cav + (long)i * stride, ki, ai,
                           a - (t - (gsize + wi - 1)), b, max_product);
        gsize += wi;
        tmp = g;
        g = g2;
        g2 = tmp;
    }
    return change;
}

#endif /* FGM_OPS_SUM_H */
