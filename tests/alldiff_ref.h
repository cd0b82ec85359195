/* tests/alldiff_ref.h: slow references for the alldiff kernels.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ryser's permanent and one assignment solve per minor, what
 * runtime/ops/alldiff_sum.h and alldiff_max.h replace: the unit tests
 * (check_alldiff.c, kernel_paths.c) check the kernels against them, and
 * tests/bench_alldiff.c times both side by side.  Not part of the
 * kernels a plugin is built from.
 */
#ifndef FGM_TESTS_ALLDIFF_REF_H
#define FGM_TESTS_ALLDIFF_REF_H

#include <math.h>
#include "kernels.h"

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

#endif /* FGM_TESTS_ALLDIFF_REF_H */
