/* tests/kernel_paths.c: the alldiff max-product kernel, printed to the bit.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not a unit test (the Makefile links only tests/check_*.c):
 * tests/cli/kernels.sh builds it twice, with the library's flags and with
 * a plugin's (-O3 -march=native, where the kernel's inner loops run on
 * AVX vectors), and requires the two outputs to be identical -- the
 * interpreter and a plugin must compute the same bits.  Each build also
 * checks every message against one assignment solve per minor (the
 * seed's method) and exits 1 on a difference.
 *
 * Inputs: for every K = 1..16 (up to four chunks, 16x16 Sudoku) and N =
 * 1..K, random matrices with zero entries, point-mass rows, entries down
 * to the subnormal range and ties, from a fixed xorshift seed (no libc
 * rand: the same numbers everywhere).  The work array is filled with NaN
 * before each call, so that a read of a lane the kernel never wrote
 * shows.  Output: one line per matrix, every message entry in %a.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"
#include "alldiff_ref.h"
#include "xorshift.h"

#define MAXK 16
#define TRIALS 40       /* per (K, N); 10 past K = 13 (the reference is
                         * O(N K^4)) */

static unsigned long long state = 0x9e3779b97f4a7c15ULL;

static double
uniform(void)
{
    return xorshift_uniform(&state);
}

/* Row R of Q (K entries): one of five kinds of row. */
static void
random_row(double *row, int k)
{
    int kind = (int)(uniform() * 5), v, hot = (int)(uniform() * k);

    for (v = 0; v < k; v++) {
        double x = uniform();

        switch (kind) {
        case 0: row[v] = x; break;                            /* dense */
        case 1: row[v] = x < 0.4 ? 0.0 : x; break;            /* zeros */
        case 2: row[v] = v == hot ? 1.0 : 0.0; break;         /* fixed */
        case 3: row[v] = exp(-745.0 * x); break;              /* tiny */
        default: row[v] = x < 0.5 ? 0.25 : 0.5; break;        /* ties */
        }
    }
}

int
main(void)
{
    static double q[MAXK * MAXK], out[MAXK * MAXK], ref[MAXK * MAXK];
    static double work[FGM_K_ALLDIFF_MAX_WORK(MAXK)];
    int k, n, t, j, bad = 0;

    for (k = 1; k <= MAXK; k++)
        for (n = 1; n <= k; n++)
            for (t = 0; t < (k > 13 ? 10 : TRIALS); t++) {
                for (j = 0; j < n; j++)
                    random_row(q + j * k, k);
                for (j = 0; j < (int)FGM_K_ALLDIFF_MAX_WORK(MAXK); j++)
                    work[j] = NAN;
                fgm_k_alldiff_max_minors(q, n, k, out, work, NULL);
                fgm_k_alldiff_max_minors_each(q, n, k, ref, work);
                printf("k=%d n=%d t=%d", k, n, t);
                for (j = 0; j < n * k; j++) {
                    /* 1e-11 relative, as tests/check_alldiff.c; a NaN
                     * fails. */
                    if (!(fabs(out[j] - ref[j]) <= 1e-11 * fabs(ref[j])
                          || fabs(out[j] - ref[j]) <= 1e-300)) {
                        fprintf(stderr, "k=%d n=%d t=%d entry %d: %a, "
                                "one solve per minor: %a\n", k, n, t, j,
                                out[j], ref[j]);
                        bad = 1;
                    }
                    printf(" %a", out[j]);
                }
                printf("\n");
            }
    return bad;
}
