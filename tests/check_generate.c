/* tests/check_generate.c: the puzzle generator: uniqueness, reproducibility.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <check.h>
#include <string.h>
#include <gsl/gsl_rng.h>
#include "../runtime/generate.h"
#include "../runtime/exact/dlx.h"
#include "suites.h"

/* Generates a puzzle with BOX and SEED; checks that it has exactly one
 * solution, that the solution is the generated full grid, and that the
 * clues are that grid's values.  Returns the clue count. */
static int
check_puzzle(int box, unsigned long seed, const fgm_generate_opts *opts,
             int *cells, fgm_generate_stats *st)
{
    int n = box * box, nc = n * n, i, clues = 0;
    int given[FGM_PUZZLE_MAXCELLS], first[FGM_PUZZLE_MAXCELLS];
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    fgm_ir *ir = fgm_ir_sudoku(box);
    fgm_csp *csp;
    fgm_dlx *d;
    fgm_status s;
    fgm_dlx_limits lim = { 2, 0, 0 };
    long count;

    ck_assert_ptr_nonnull(rng);
    ck_assert_ptr_nonnull(ir);
    gsl_rng_set(rng, seed);
    ck_assert_int_eq(fgm_generate(box, rng, cells, opts, st), FGM_OK);
    csp = fgm_csp_new(ir, &s);
    ck_assert_ptr_nonnull(csp);
    d = fgm_dlx_new(csp, &s);
    ck_assert_ptr_nonnull(d);
    for (i = 0; i < nc; i++) {
        ck_assert_int_ge(cells[i], 0);
        ck_assert_int_le(cells[i], n);
        ck_assert_int_ge(st->solution[i], 1);
        ck_assert_int_le(st->solution[i], n);
        if (cells[i]) {
            ck_assert_msg(cells[i] == st->solution[i],
                          "box %d seed %lu: clue %d is the grid's value", box,
                          seed, i);
            clues++;
        }
        given[i] = cells[i] - 1;
    }
    ck_assert_int_eq(clues, st->clues);
    ck_assert_int_eq(fgm_dlx_run(d, given, &lim, &count, NULL, first, NULL),
                     FGM_OK);
    ck_assert_msg(count == 1, "box %d seed %lu: %ld solutions", box, seed,
                  count);
    for (i = 0; i < nc; i++)
        ck_assert_int_eq(first[i] + 1, st->solution[i]);
    fgm_dlx_free(d);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
    gsl_rng_free(rng);
    return clues;
}

/* ---------------------------------------------------------------- core */

START_TEST(test_unique_4x4)
{
    int cells[16];
    fgm_generate_stats st;
    unsigned long seed;

    for (seed = 1; seed <= 30; seed++) {
        int clues = check_puzzle(2, seed, NULL, cells, &st);

        /* No 4x4 puzzle with a unique solution has fewer than 4 clues. */
        ck_assert_int_ge(clues, 4);
        ck_assert_int_eq(st.gave_up, 0);
        ck_assert_int_eq(st.checks, 16);
    }
}
END_TEST

START_TEST(test_unique_9x9)
{
    int cells[81];
    fgm_generate_stats st;
    unsigned long seed;

    for (seed = 1; seed <= 8; seed++) {
        int clues = check_puzzle(3, seed, NULL, cells, &st);

        /* No 9x9 puzzle with a unique solution has fewer than 17 clues;
         * one pass of digging leaves well under 40. */
        ck_assert_int_ge(clues, 17);
        ck_assert_int_le(clues, 40);
        ck_assert_int_eq(st.gave_up, 0);
        ck_assert(st.ms >= 0);
    }
}
END_TEST

START_TEST(test_unique_16x16)
{
    fgm_generate_opts opts = { 150, 0, 0, 0 };
    int cells[256];
    fgm_generate_stats st;

    /* Stopping at 150 clues keeps every check easy and the test fast. */
    ck_assert_int_eq(check_puzzle(4, 7, &opts, cells, &st), 150);
}
END_TEST

START_TEST(test_same_seed_same_puzzle)
{
    int a[81], b[81];
    fgm_generate_stats sa, sb;

    check_puzzle(3, 42, NULL, a, &sa);
    check_puzzle(3, 42, NULL, b, &sb);
    ck_assert_msg(memcmp(a, b, sizeof a) == 0, "seed 42 twice: same puzzle");
    ck_assert_int_eq(sa.checks, sb.checks);
    ck_assert_int_eq(sa.nodes, sb.nodes);
    check_puzzle(3, 43, NULL, b, &sb);
    ck_assert_msg(memcmp(a, b, sizeof a) != 0, "seeds 42, 43: different");
    ck_assert_msg(memcmp(sa.solution, sb.solution, 81 * sizeof(int)) != 0,
                  "seeds 42, 43: different grids");
}
END_TEST

/* -------------------------------------------------------------- limits */

START_TEST(test_min_clues)
{
    fgm_generate_opts opts = { 40, 0, 0, 0 };
    int cells[81];
    fgm_generate_stats st;

    ck_assert_int_eq(check_puzzle(3, 5, &opts, cells, &st), 40);
    ck_assert_int_eq(st.checks, 81 - 40);
}
END_TEST

START_TEST(test_budget_keeps_clues)
{
    /* One node per check: every check gives up, so every clue stays. */
    fgm_generate_opts opts = { 0, 1, 0, 0 };
    int cells[81];
    fgm_generate_stats st;

    ck_assert_int_eq(check_puzzle(3, 9, &opts, cells, &st), 81);
    ck_assert_int_eq(st.gave_up, 81);
}
END_TEST

START_TEST(test_total_time)
{
    /* A total budget that has passed before the first check. */
    fgm_generate_opts opts = { 0, 0, 0, 1e-6 };
    int cells[81];
    fgm_generate_stats st;

    ck_assert_int_eq(check_puzzle(3, 3, &opts, cells, &st), 81);
    ck_assert_int_eq(st.checks, 0);
}
END_TEST

START_TEST(test_25x25_fills)
{
    /* The full 25x25 grid comes fast; stopping at 600 clues keeps the
     * digging short. */
    fgm_generate_opts opts = { 600, 0, 0, 0 };
    int cells[625];
    fgm_generate_stats st;

    ck_assert_int_eq(check_puzzle(5, 1, &opts, cells, &st), 600);
}
END_TEST

/* -------------------------------------------------------------- errors */

START_TEST(test_bad_arguments)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int cells[FGM_PUZZLE_MAXCELLS];
    fgm_generate_stats st;

    ck_assert_int_eq(fgm_generate(1, rng, cells, NULL, &st), FGM_EINVAL);
    ck_assert_int_eq(fgm_generate(6, rng, cells, NULL, &st), FGM_EINVAL);
    ck_assert_int_eq(fgm_generate(3, NULL, cells, NULL, &st), FGM_EINVAL);
    ck_assert_int_eq(fgm_generate(3, rng, NULL, NULL, NULL), FGM_EINVAL);
    /* Stats are optional. */
    ck_assert_int_eq(fgm_generate(2, rng, cells, NULL, NULL), FGM_OK);
    gsl_rng_free(rng);
}
END_TEST

Suite *
generate_suite(void)
{
    Suite *s = suite_create("generate");
    TCase *core = tcase_create("core"), *limits = tcase_create("limits");
    TCase *errors = tcase_create("errors");

    tcase_set_timeout(core, 60);
    tcase_set_timeout(limits, 60);
    tcase_set_timeout(errors, 10);
    tcase_add_test(core, test_unique_4x4);
    tcase_add_test(core, test_unique_9x9);
    tcase_add_test(core, test_unique_16x16);
    tcase_add_test(core, test_same_seed_same_puzzle);
    tcase_add_test(limits, test_min_clues);
    tcase_add_test(limits, test_budget_keeps_clues);
    tcase_add_test(limits, test_total_time);
    tcase_add_test(limits, test_25x25_fills);
    tcase_add_test(errors, test_bad_arguments);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    suite_add_tcase(s, errors);
    return s;
}
