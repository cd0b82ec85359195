/* tests/bench_ep.c: one 50-sweep EP inference on 9x9 Sudoku, compiled
 * against interpreted, the two runs of each puzzle back to back.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A benchmark program on the public API, not a unit test (the Makefile
 * links only tests/check_*.c; tests/cli/example.sh builds it and runs it
 * once, small; `make bench` runs it in full):
 *
 *   cc -std=c11 -O2 -Iruntime tests/bench_ep.c build/libfgm.a \
 *       $(pkg-config --libs gsl) -ldl -lpthread -lm -o build/bench_ep
 *   build/bench_ep PUZZLES [ROUNDS [OUT_DIR]]
 *
 * Why a program of its own: the shared machines this project runs on
 * change speed by up to 40% for seconds at a time, both backends alike
 * (session 10's note).  `fgm bench --backends` now runs both backends
 * puzzle by puzzle, but times whole solver runs (clues, inference,
 * answer) under its own protocol; here every compiled inference is
 * followed at once by the interpreted one on the same puzzle (the order
 * swapped every round), each ratio compares two runs of the same moment,
 * the minimum over the rounds shows the machine's fast state, and the
 * two backends' marginals are compared.
 *
 * Model: models/sudoku.fgm with B=3, its plugin in OUT_DIR (default
 * generated/, where `fgm solve` puts it).  Two ways to observe the clues:
 *   seed   fgm_model_observe_clue: a point mass on the cell's Dirichlet
 *          prior, the seed's epsilon left on the other values; every
 *          update runs (ep-robust's inference);
 *   exact  fgm_model_observe_var: the cell itself, a one-hot vector; the
 *          updates it makes constant are skipped (as in ep-robust2).
 * Output: per way and backend, the minimum, 10th percentile and median
 * ms of one inference over PUZZLES x ROUNDS runs; the median and IQR of
 * the run-by-run ratio interpreted / compiled; the largest difference
 * between the two backends' marginals, which must be at most 1e-12 (exit
 * 1 otherwise -- a NaN included --, when no plugin could be had, and
 * when an observation or a run is refused).
 */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fgm.h"

#define SWEEPS 50
#define CELLS 81
#define VALUES 9

static void
print_diag(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "bench_ep: %s\n", msg);
}

/* The 9x9 puzzles of PATH as value indices (-1 empty), *N of them. */
static int *
read_puzzles(const char *path, int *n)
{
    fgm_puzzle_reader *r = fgm_puzzle_reader_open(path, 9, 3, print_diag,
                                                  NULL);
    fgm_puzzle p;
    int *given = NULL, cap = 0;

    *n = 0;
    if (!r)
        return NULL;
    while (fgm_puzzle_read(r, &p) == FGM_OK) {
        if (*n == cap) {
            int *g;

            cap = cap ? 2 * cap : 64;
            g = realloc(given, (size_t)cap * CELLS * sizeof *g);
            if (!g) {
                free(given);
                fgm_puzzle_reader_close(r);
                return NULL;
            }
            given = g;
        }
        fgm_puzzle_to_given(&p, given + (size_t)*n * CELLS);
        (*n)++;
    }
    if (fgm_puzzle_reader_failed(r)) {
        free(given);
        given = NULL;
    }
    fgm_puzzle_reader_close(r);
    return given;
}

/* models/sudoku.fgm for 9x9 on BACKEND, named as `fgm solve` names it. */
static fgm_model *
open_model(fgm_backend backend, const char *out_dir)
{
    static const char *const defines[] = { "B=3" };
    fgm_compile_opts co = { defines, 1, 0 };
    fgm_model_opts mo;
    fgm_model *m;
    fgm_ir *ir;

    if (fgm_compile_file("models/sudoku.fgm", &co, &ir, print_diag, NULL)
        != FGM_OK)
        return NULL;
    fgm_ir_set_name(ir, "sudoku_B3");
    memset(&mo, 0, sizeof mo);
    mo.backend = backend;
    mo.out_dir = out_dir;
    if (fgm_model_open_ir(ir, &mo, &m, print_diag, NULL) != FGM_OK)
        return NULL;
    return m;
}

/* One inference of M on the clues GIVEN, observed the WAY; its ms. */
static double
infer(fgm_model *m, int cell0, const int *given, int exact)
{
    fgm_run_opts ro;
    double t0, t;
    int v, ok = 1;

    fgm_model_clear(m);
    for (v = 0; v < CELLS; v++)
        if (given[v] >= 0
            && (exact ? fgm_model_observe_var(m, cell0 + v, given[v])
                : fgm_model_observe_clue(m, cell0 + v, given[v]))
               != FGM_OK)
            ok = 0;
    memset(&ro, 0, sizeof ro);
    ro.iterations = SWEEPS;
    t0 = fgm_now();
    if (fgm_model_run(m, &ro, NULL) != FGM_OK)
        ok = 0;
    t = (fgm_now() - t0) * 1e3;
    /* A refused clue or run leaves the last run's marginals, which the
     * other backend's may match: no time, and no comparison, to give. */
    if (!ok) {
        fprintf(stderr, "bench_ep: an inference failed\n");
        exit(1);
    }
    return t;
}

/* The larger of GAP and D, NaN when either is: fmax drops a NaN, and a
 * NaN marginal on either backend read as agreement to the bit. */
static double
worse(double gap, double d)
{
    return d > gap || d != d ? d : gap;
}

/* The largest difference between the marginals of A and B. */
static double
marginal_gap(const fgm_model *a, const fgm_model *b, int cell0)
{
    double pa[VALUES], pb[VALUES], gap = 0.0;
    int v, k;

    for (v = 0; v < CELLS; v++) {
        if (fgm_model_marginal(a, cell0 + v, pa) != FGM_OK
            || fgm_model_marginal(b, cell0 + v, pb) != FGM_OK)
            return HUGE_VAL;
        for (k = 0; k < VALUES; k++)
            gap = worse(gap, fabs(pa[k] - pb[k]));
    }
    return gap;
}

/* "min p10 median" of the N times T (sorted in place). */
static void
print_times(const char *way, const char *backend, double *t, size_t n)
{
    gsl_sort(t, 1, n);
    printf("%-6s %-12s %9.4f %9.4f %9.4f\n", way, backend, t[0],
           gsl_stats_quantile_from_sorted_data(t, 1, n, 0.10),
           gsl_stats_median_from_sorted_data(t, 1, n));
}

int
main(int argc, char **argv)
{
    const char *out_dir = argc > 3 ? argv[3] : "generated";
    int rounds = argc > 2 ? atoi(argv[2]) : 10, npz, way, r, i, cell0;
    double *tc, *ti, *ratio, gap = 0.0;
    fgm_model *mc, *mi;
    int *given;
    size_t n, j;

    if (argc < 2 || rounds < 1) {
        fprintf(stderr, "usage: bench_ep PUZZLES [ROUNDS [OUT_DIR]]\n");
        return 2;
    }
    given = read_puzzles(argv[1], &npz);
    if (!given || npz == 0) {
        fprintf(stderr, "bench_ep: %s: no 9x9 puzzles\n", argv[1]);
        return 1;
    }
    mc = open_model(FGM_BACKEND_COMPILED, out_dir);
    mi = open_model(FGM_BACKEND_INTERPRETED, out_dir);
    if (!mc || !mi || !fgm_model_is_compiled(mc)) {
        fprintf(stderr, "bench_ep: the model could not be opened compiled "
                "and interpreted\n");
        return 1;
    }
    cell0 = fgm_model_find(mc, "cell", NULL);
    n = (size_t)npz * (size_t)rounds;
    tc = malloc(n * sizeof *tc);
    ti = malloc(n * sizeof *ti);
    ratio = malloc(n * sizeof *ratio);
    if (!tc || !ti || !ratio || cell0 < 0) {
        fprintf(stderr, "bench_ep: %s\n", cell0 < 0 ? "the model has no "
                "'cell' array" : "out of memory");
        return 1;
    }
    printf("# models/sudoku.fgm (B=3), %d sweeps, %d puzzles x %d rounds, "
           "compiled and interpreted back to back\n", SWEEPS, npz, rounds);
    printf("%-6s %-12s %9s %9s %9s\n", "clues", "backend", "min_ms",
           "p10_ms", "median_ms");
    for (way = 0; way < 2; way++) {
        const char *name = way ? "exact" : "seed";

        for (r = 0, j = 0; r < rounds; r++)
            for (i = 0; i < npz; i++, j++) {
                const int *g = given + (size_t)i * CELLS;

                if (r % 2 == 0) {
                    tc[j] = infer(mc, cell0, g, way);
                    ti[j] = infer(mi, cell0, g, way);
                } else {
                    ti[j] = infer(mi, cell0, g, way);
                    tc[j] = infer(mc, cell0, g, way);
                }
                ratio[j] = ti[j] / tc[j];
                if (r == 0)
                    gap = worse(gap, marginal_gap(mc, mi, cell0));
            }
        print_times(name, "compiled", tc, n);
        print_times(name, "interpreted", ti, n);
        gsl_sort(ratio, 1, n);
        printf("%-6s ratio interpreted / compiled, run by run: median "
               "%.2fx (IQR %.2f-%.2fx)\n", name,
               gsl_stats_median_from_sorted_data(ratio, 1, n),
               gsl_stats_quantile_from_sorted_data(ratio, 1, n, 0.25),
               gsl_stats_quantile_from_sorted_data(ratio, 1, n, 0.75));
    }
    printf("largest |compiled - interpreted| marginal: %.3g\n", gap);
    free(tc);
    free(ti);
    free(ratio);
    free(given);
    fgm_model_free(mc);
    fgm_model_free(mi);
    return gap <= 1e-12 ? 0 : 1;
}
