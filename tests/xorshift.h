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

#endif /* FGM_TESTS_XORSHIFT_H */
