/* tests/bench_alldiff.c: per-sweep cost of native alldiff messages, 9x9 grid.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A benchmark, not a unit test (the Makefile links only tests/check_*.c):
 *
 *   cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iruntime \
 *       tests/bench_alldiff.c -o build/bench_alldiff \
 *       $(pkg-config --libs gsl) -lm
 *   build/bench_alldiff [REPEATS] [SEED]
 *   build/bench_alldiff check [SEED]      (the agreement only, untimed:
 *                                          tests/cli/kernels.sh)
 *
 * (`make bench` builds it twice: -O2 as the library, whose kernels the
 * interpreter runs, and -O3 -march=native as a plugin, whose AVX paths
 * differ.)
 *
 * One sweep = the 27 unit factors of a 9x9 Sudoku updated in order
 * (cavities, messages, damped commit, belief update; no end-of-sweep
 * belief refresh), every cell free with random beliefs: 27 x 81 = 2187
 * minors a sweep, the worst case.  Methods, each from the same state:
 *   max native      fgm_k_alldiff: one assignment solve + shortest paths
 *   max per-minor   one assignment solve per (cell, value), the seed's v4
 *   sum native      fgm_k_alldiff: forward/backward subset DP
 *   sum per-minor   one Ryser permanent per (cell, value), the seed's
 *   pairwise neq    the 810 deduplicated fgm_k_neq updates (sum-product)
 * One line per method: median, 25th and 75th percentile ms per sweep;
 * then the ratios.  Exits 1 when the methods' messages disagree (max-
 * product by more than 1e-12, sum-product by more than 1e-8, pairwise
 * neq and a scalar reference of it by more than 1e-12) or when max
 * per-minor / max native < 20.
 * Seed's per-sweep costs for comparison (notebook 000 section 8, C#):
 * 9.2 ms max-product, 51.4 ms sum-product, 1.2 ms pairwise.
 */
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kernels.h"
#include "alldiff_ref.h"

#define N 9
#define NUNITS 27
#define NEDGES (NUNITS * N)
#define NPAIRS 810
/* The kernels work on whole four-lane chunks: every vector has the
 * engine's padded stride, dead lanes zero in beliefs and positive in
 * messages (runtime/kernels.h).  With a stride of N the vector paths of
 * a -march=native build read the next cell's values as dead lanes. */
#define PS (FGM_K_NCHUNKS(N) * FGM_K_LANES)

typedef struct grid {
    int unit[NUNITS][N];        /* cells of each unit; edges unit*9 + j */
    int pair[NPAIRS][2];
    double belief0[81 * PS], msg0[NEDGES * PS];
    double pbelief0[81 * PS], pmsg0[2 * NPAIRS * PS];
    double belief[81 * PS], msg[NEDGES * PS];
    double pbelief[81 * PS], pmsg[2 * NPAIRS * PS];
    double scratch[4096];
    fgm_state st;
} grid;

static double
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Units in the seed's order (rows, columns, boxes) and the 810 distinct
 * pairs of cells sharing a unit. */
static void
build_units(grid *g)
{
    static unsigned char seen[81][81];
    int u, j, a, b, np = 0;

    memset(seen, 0, sizeof seen);
    for (u = 0; u < 9; u++)
        for (j = 0; j < 9; j++) {
            g->unit[u][j] = u * 9 + j;
            g->unit[9 + u][j] = j * 9 + u;
            g->unit[18 + u][j] = (u / 3 * 3 + j / 3) * 9 + u % 3 * 3 + j % 3;
        }
    for (u = 0; u < NUNITS; u++)
        for (a = 0; a < N; a++)
            for (b = a + 1; b < N; b++) {
                int x = g->unit[u][a], y = g->unit[u][b];

                if (seen[x][y])
                    continue;
                seen[x][y] = seen[y][x] = 1;
                g->pair[np][0] = x;
                g->pair[np][1] = y;
                np++;
            }
    if (np != NPAIRS) {
        fprintf(stderr, "bench_alldiff: %d pairs, expected %d\n", np, NPAIRS);
        exit(3);
    }
}

/* Random beliefs (log-uniform over 4 decades, like a few sweeps into a
 * run) and messages with the beliefs containing them. */
static void
random_state(grid *g, gsl_rng *r)
{
    int v, j, e;

    for (v = 0; v < 81; v++) {
        for (j = 0; j < PS; j++)
            g->belief0[v * PS + j] = j < N ? pow(10.0, -4.0
                                                 * gsl_rng_uniform(r)) : 0.0;
        fgm_k_normalize(g->belief0 + v * PS, N);
    }
    for (e = 0; e < NEDGES; e++) {
        for (j = 0; j < PS; j++)
            g->msg0[e * PS + j] = j < N ? 0.5 + gsl_rng_uniform(r) : 1.0;
        fgm_k_normalize(g->msg0 + e * PS, N);
    }
    memcpy(g->pbelief0, g->belief0, sizeof g->belief0);
    /* Dead lanes 1, as msg0's: zero ones made every cavity sum 0 / 0 =
     * NaN, so that each of the 810 updates took fgm_k_neq's
     * contradiction fallback (uniform cavities) and the pairwise line
     * timed that. */
    for (e = 0; e < 2 * NPAIRS; e++)
        for (j = 0; j < PS; j++)
            g->pmsg0[e * PS + j] = j < N ? 1.0 / N : 1.0;
}

static void
restore(grid *g)
{
    memcpy(g->belief, g->belief0, sizeof g->belief);
    memcpy(g->msg, g->msg0, sizeof g->msg);
    g->st.belief = g->belief;
    g->st.msg = g->msg;
}

/* fgm_k_alldiff with the seed's per-minor messages in place of the
 * all-minors ones: the same cavities, commit and belief update. */
static double
alldiff_per_minor(fgm_state *st, int e0, const int *vars, int n, int stride,
                  int k, int max_product, double *scratch)
{
    double *q = scratch, *out = scratch + n * k, *work = out + n * k;
    double change = 0.0, c;
    int i;

    for (i = 0; i < n; i++)
        fgm_k_cavity(q + i * k, st->belief + vars[i] * stride,
                     st->msg + (e0 + i) * stride, k);
    if (max_product)
        fgm_k_alldiff_max_minors_each(q, n, k, out, work);
    else
        fgm_k_alldiff_sum_minors_ryser(q, n, k, out, work);
    for (i = 0; i < n; i++) {
        double *m = st->msg + (e0 + i) * stride;

        c = fgm_k_commit(m, out + i * k, st->damping, FGM_K_FLOOR, k);
        change = c > change ? c : change;
        fgm_k_belief(st->belief + vars[i] * stride, q + i * k, m, k);
    }
    return change;
}

/* The pairwise sweep one value at a time, from the saved state into
 * BELIEF and MSG: x != y's sum-product update as fgm_k_neq spells it
 * (cavity r = belief / message over the live lanes, z = sum r, message to
 * x (z_y - r_y(v)) / z_y / (K - 1), damped and floored, belief
 * r_x(v) m_x(v) / z_x), so that the timed kernel is checked against the
 * computation it claims to do. */
static void
pairwise_reference(const grid *g, double *belief, double *msg)
{
    double r[2][N], z[2], t, d = g->st.damping;
    int p, i, v;

    memcpy(belief, g->pbelief0, sizeof g->pbelief0);
    memcpy(msg, g->pmsg0, sizeof g->pmsg0);
    for (p = 0; p < NPAIRS; p++) {
        for (i = 0; i < 2; i++) {
            const double *b = belief + g->pair[p][i] * PS;
            const double *m = msg + (2 * p + i) * PS;

            z[i] = 0.0;
            for (v = 0; v < N; v++) {
                r[i][v] = b[v] / m[v];
                z[i] += r[i][v];
            }
        }
        if (!(z[0] > 0.0) || !(z[1] > 0.0))
            for (i = 0; i < 2; i++) {
                for (v = 0; v < N; v++)
                    r[i][v] = 1.0;
                z[i] = N;
            }
        for (i = 0; i < 2; i++) {
            double *b = belief + g->pair[p][i] * PS;
            double *m = msg + (2 * p + i) * PS;

            for (v = 0; v < N; v++) {
                t = (z[1 - i] - r[1 - i][v]) / z[1 - i] / (N - 1);
                t = (1.0 - d) * t + d * m[v];
                m[v] = t > FGM_K_FLOOR ? t : FGM_K_FLOOR;
                b[v] = r[i][v] * m[v] / z[i];
            }
        }
    }
}

enum { MAX_NATIVE, MAX_EACH, SUM_NATIVE, SUM_EACH, PAIRWISE, NMETHODS };

static const char *const names[NMETHODS] = {
    "max native (1 solve/unit)", "max per-minor (81 solves/unit)",
    "sum native (subset DP)", "sum per-minor (81 Ryser/unit)",
    "pairwise neq (810 factors)"
};

/* One sweep of METHOD from the saved state; returns its milliseconds. */
static double
sweep(grid *g, int method)
{
    double t0, t, change = 0.0;
    int u, p;

    if (method == PAIRWISE) {
        memcpy(g->pbelief, g->pbelief0, sizeof g->pbelief);
        memcpy(g->pmsg, g->pmsg0, sizeof g->pmsg);
        g->st.belief = g->pbelief;
        g->st.msg = g->pmsg;
        t0 = now_ms();
        for (p = 0; p < NPAIRS; p++)
            change += fgm_k_neq(&g->st, 2 * p, 2 * p + 1, g->pair[p][0],
                                g->pair[p][1], PS, N, 0, g->scratch);
    } else {
        restore(g);
        t0 = now_ms();
        for (u = 0; u < NUNITS; u++) {
            if (method == MAX_NATIVE || method == SUM_NATIVE)
                change += fgm_k_alldiff(&g->st, u * N, g->unit[u], N, PS, N,
                                        method == MAX_NATIVE, g->scratch);
            else
                change += alldiff_per_minor(&g->st, u * N, g->unit[u], N, PS,
                                            N, method == MAX_EACH,
                                            g->scratch);
        }
    }
    t = now_ms() - t0;
    if (!(change >= 0.0))
        fprintf(stderr, "bench_alldiff: %s: bad change\n", names[method]);
    return t;
}

/* Largest difference between the live lanes of two sets of NROWS
 * messages (rows of PS), NaN when any is: a NaN must not read as
 * agreement. */
static double
message_gap(const double *a, const double *b, int nrows)
{
    double d = 0.0, x;
    int e, j;

    for (e = 0; e < nrows; e++)
        for (j = 0; j < N; j++) {
            x = fabs(a[e * PS + j] - b[e * PS + j]);
            d = x > d || x != x ? x : d;
        }
    return d;
}

/* Largest difference between the messages of two methods after one sweep
 * from the saved state, over the live lanes (the benchmark checks what it
 * times). */
static double
agreement(grid *g, int a, int b)
{
    static double ma[NEDGES * PS];

    sweep(g, a);
    memcpy(ma, g->msg, sizeof ma);
    sweep(g, b);
    return message_gap(ma, g->msg, NEDGES);
}

/* Largest difference between the pairwise sweep's messages and
 * pairwise_reference's. */
static double
pairwise_agreement(grid *g)
{
    static double rb[81 * PS], rm[2 * NPAIRS * PS];

    pairwise_reference(g, rb, rm);
    sweep(g, PAIRWISE);
    return message_gap(rm, g->pmsg, 2 * NPAIRS);
}

int
main(int argc, char **argv)
{
    int check = argc > 1 && strcmp(argv[1], "check") == 0;
    int repeats = argc > 1 && !check ? atoi(argv[1]) : 101, m, i;
    unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
    static grid g;
    double *t, med[NMETHODS], gap_max, gap_sum, gap_pair;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

    if (repeats < 1 || !r) {
        fprintf(stderr, "usage: bench_alldiff [REPEATS>=1] [SEED]\n");
        return 2;
    }
    t = malloc((size_t)repeats * sizeof *t);
    if (!t)
        return 3;
    gsl_rng_set(r, seed);
    build_units(&g);
    random_state(&g, r);
    g.st.scratch = g.scratch;
    g.st.damping = 0.5;
    g.st.parallel = 0;
    g.st.track_change = 1;
    /* g.st.adcache stays NULL: every repeat starts from the same state,
     * whose messages the cache would hand back without computing them. */
    if (fgm_k_alldiff_scratch(N, N, 0) > 4096
        || fgm_k_alldiff_scratch(N, N, 1) > 4096)
        return 3;
    printf("# 9x9 grid, 27 units, all 81 cells free (2187 minors/sweep), "
           "damping 0.5, %d repeats, seed %lu\n", repeats, seed);
    gap_max = agreement(&g, MAX_NATIVE, MAX_EACH);
    gap_sum = agreement(&g, SUM_NATIVE, SUM_EACH);
    gap_pair = pairwise_agreement(&g);
    printf("# max-product messages: native vs per-minor differ by %.3g; "
           "sum-product native vs Ryser by %.3g; pairwise neq vs scalar "
           "reference by %.3g\n", gap_max, gap_sum, gap_pair);
    /* Ryser's alternating sums lose digits the subset DP keeps (1e-11
     * here); the two max-product ways solve the same assignments; the
     * pairwise sweep and its reference differ only in rounding. */
    if (!(gap_max <= 1e-12) || !(gap_sum <= 1e-8) || !(gap_pair <= 1e-12)) {
        fprintf(stderr, "bench_alldiff: the methods disagree; timing them "
                "would compare different computations\n");
        return 1;
    }
    if (check)
        return 0;
    printf("%-32s %12s %12s %12s\n", "method", "median_ms", "p25_ms",
           "p75_ms");
    for (m = 0; m < NMETHODS; m++) {
        for (i = 0; i < 3; i++)     /* warm caches */
            sweep(&g, m);
        for (i = 0; i < repeats; i++)
            t[i] = sweep(&g, m);
        gsl_sort(t, 1, (size_t)repeats);
        med[m] = gsl_stats_median_from_sorted_data(t, 1, (size_t)repeats);
        printf("%-32s %12.4f %12.4f %12.4f\n", names[m], med[m],
               gsl_stats_quantile_from_sorted_data(t, 1, (size_t)repeats,
                                                   0.25),
               gsl_stats_quantile_from_sorted_data(t, 1, (size_t)repeats,
                                                   0.75));
    }
    printf("ratio max per-minor / max native: %.1fx (required >= 20x)\n",
           med[MAX_EACH] / med[MAX_NATIVE]);
    printf("ratio sum per-minor / sum native: %.1fx\n",
           med[SUM_EACH] / med[SUM_NATIVE]);
    printf("ratio max native / pairwise: %.2fx; sum native / pairwise: "
           "%.2fx\n", med[MAX_NATIVE] / med[PAIRWISE],
           med[SUM_NATIVE] / med[PAIRWISE]);
    free(t);
    gsl_rng_free(r);
    return med[MAX_EACH] / med[MAX_NATIVE] >= 20.0 ? 0 : 1;
}
