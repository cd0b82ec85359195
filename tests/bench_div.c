/* tests/bench_div.c: this CPU's divider, doubles a nanosecond.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A benchmark program, not a unit test (`make bench` runs it):
 *
 *   cc -std=c11 -O2 -march=native tests/bench_div.c -o build/bench_div
 *
 * Why: one 50-sweep EP inference of 9x9 Sudoku with the seed's soft clues
 * divides 22 doubles a != update (the cavities of both variables, 8 + 8
 * lanes on 512-bit registers and both 1-lane tails packed in a 4-lane
 * division, then both 1/z), 810 updates a sweep: 891,000 divided lanes
 * (runtime/ops/neq.h, fgm_k_neq_begin8).  Independent divisions on eight
 * registers (no chain between them) time the divider's throughput at
 * each width; their product with that count is the least time the
 * inference can take on this CPU, whatever the rest of its code does.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

typedef double v2 __attribute__((vector_size(16)));
typedef double v4 __attribute__((vector_size(32)));
typedef double v8 __attribute__((vector_size(64)));

#define ROUNDS 20000000L
#define CHAINS 8

static double
now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Times ROUNDS x CHAINS divisions of vectors of type T (LANES doubles);
 * prints ns per division and per lane.  The empty asm keeps the eight
 * registers live without ordering the divisions. */
#define TIME_DIV(T, LANES, NAME)                                            \
    do {                                                                    \
        T a[CHAINS], d;                                                     \
        double t0, t, check = 0.0;                                          \
        long r;                                                             \
        int i, j;                                                           \
                                                                            \
        for (i = 0; i < CHAINS; i++)                                        \
            for (j = 0; j < (LANES); j++)                                   \
                a[i][j] = 1.0 + i + j;                                      \
        for (j = 0; j < (LANES); j++)                                       \
            d[j] = 1.0000001;                                               \
        t0 = now();                                                         \
        for (r = 0; r < ROUNDS; r++) {                                      \
            a[0] = a[0] / d; a[1] = a[1] / d; a[2] = a[2] / d;             \
            a[3] = a[3] / d; a[4] = a[4] / d; a[5] = a[5] / d;             \
            a[6] = a[6] / d; a[7] = a[7] / d;                               \
            __asm__ volatile("" : "+x"(a[0]), "+x"(a[1]), "+x"(a[2]),       \
                             "+x"(a[3]), "+x"(a[4]), "+x"(a[5]),            \
                             "+x"(a[6]), "+x"(a[7]));                       \
        }                                                                   \
        t = now() - t0;                                                     \
        for (i = 0; i < CHAINS; i++)                                        \
            check += a[i][0];                                               \
        printf("%-22s %8.3f ns a division %8.3f ns a lane  (check %g)\n",  \
               NAME, t / (ROUNDS * (double)CHAINS) * 1e9,                   \
               t / (ROUNDS * (double)CHAINS * (LANES)) * 1e9, check);       \
    } while (0)

int
main(void)
{
    TIME_DIV(v2, 2, "2 doubles (128-bit)");
    TIME_DIV(v4, 4, "4 doubles (256-bit)");
#if defined(__AVX512F__)
    TIME_DIV(v8, 8, "8 doubles (512-bit)");
#endif
    return 0;
}
