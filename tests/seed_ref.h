/* tests/seed_ref.h: the seed's normalization as the kernels compute it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The reference of the kernel checks for the seed's flooding BP
 * (tests/neq_paths.c, tests/v2f_paths.c): runtime/ops/seed.h's
 * fgm_k_seed_normalize4 written out for one message, to the bit.
 */
#ifndef FGM_TESTS_SEED_REF_H
#define FGM_TESTS_SEED_REF_H

/* The K live values of X (stride S, whole chunks) floored at LO, summed
 * lane-wise over the chunks then (l0 + l1) + (l2 + l3), scaled by
 * 1 / sum; a sum that is not positive gives the uniform vector. */
static inline void
seed_ref_normalize(double *x, int k, int s, double lo)
{
    double acc[FGM_K_LANES] = { 0.0 }, sum, inv;
    int v;

    for (v = 0; v < k; v++)
        x[v] = x[v] < lo ? lo : x[v];
    for (v = 0; v < s; v++)
        acc[v % FGM_K_LANES] += v < k ? x[v] : 0.0;
    sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    inv = 1.0 / sum;
    for (v = 0; v < k; v++)
        x[v] = sum > 0.0 ? x[v] * inv : 1.0 / k;
}

#endif /* FGM_TESTS_SEED_REF_H */
