/* tests/xorshift.h: the random numbers of the kernel checks.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Marsaglia's xorshift64 (13, 7, 17), not libc's rand(): the same stream
 * on every libc and build, so that two builds' outputs compare byte for
 * byte (tests/cli/kernels.sh).
 */
#ifndef FGM_TESTS_XORSHIFT_H
#define FGM_TESTS_XORSHIFT_H

/* The next number of *STATE (never 0), uniform in [0, 1) on 53 bits. */
static inline double
xorshift_uniform(unsigned long long *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

/* A live entry of a belief or unary vector (WEIGHT set) or of a message,
 * drawn from *STATE: mostly ordinary, sometimes tiny; a weight may also
 * be 0 or subnormal, a message stays at or above FLOOR (FGM_K_FLOOR), as
 * the kernels keep them. */
static inline double
xorshift_entry(unsigned long long *state, int weight, double floor)
{
    double u = xorshift_uniform(state);

    if (weight && u < 0.1)
        return 0.0;
    if (u < 0.15)
        return weight ? 1e-300 * xorshift_uniform(state)
                      : floor * (1.0 + xorshift_uniform(state));
    if (u < 0.2)
        return 1e-20 * xorshift_uniform(state) + (weight ? 0.0 : floor);
    return xorshift_uniform(state) + 1e-3;
}

#endif /* FGM_TESTS_XORSHIFT_H */
