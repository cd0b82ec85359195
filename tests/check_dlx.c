/* tests/check_dlx.c: Dancing Links: solving, counting, marginals, refusals.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../runtime/exact/dlx.h"
#include "../runtime/solve/run.h"
#include "testutil.h"
#include "suites.h"

/* A model with its csp, freed together. */
/* Solves GIVEN with dlx through the verifying driver. */
static fgm_status
solve(const fgm_csp *csp, const int *given, double timeout_ms, int *sol,
      fgm_solve_result *res)
{
    return test_solve(&fgm_solver_dlx, csp, given, timeout_ms, sol, res);
}

static long
count(const fgm_csp *csp, const int *given, long cap)
{
    long n = -1;

    ck_assert_int_eq(fgm_dlx_count(csp, given, cap, 0, &n, NULL), FGM_OK);
    return n;
}

/* The 4x4 grid 1234/3412/2143/4321 without the four cells of rows 0 and 2,
 * columns 0 and 1: swapping 1 and 2 there gives a second solution. */
#define TWO_SOLUTIONS_4X4 "..343412..434321"

/* Fills GIVEN with a solvable N x N puzzle (N = BOX^2): the pattern grid
 * (BOX*(r%BOX) + r/BOX + c) % N, with about 60% of the cells emptied. */
static void
pattern_puzzle(int box, int *given)
{
    int n = box * box, r, c;

    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++)
            given[r * n + c] = (r * 7 + c * 3) % 5 < 3
                               ? -1 : (box * (r % box) + r / box + c) % n;
}

/* ---------------------------------------------------------------- core */

START_TEST(test_seed_grids)
{
    static const char *const grids[] = {
        SEED003_EASY, SEED003_MEDIUM, SEED003_HARD
    };
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(3));
    int given[81], sol[81], i, v;

    for (i = 0; i < 3; i++) {
        fgm_solve_result res;

        test_given(grids[i], given);
        ck_assert_int_eq(solve(fx.csp, given, 0, sol, &res), FGM_OK);
        ck_assert_msg(res.solved && res.valid, "seed grid %d solved", i);
        ck_assert_int_gt(res.stats.nodes, 0);
        for (v = 0; v < 81; v++)
            if (given[v] >= 0)
                ck_assert_int_eq(sol[v], given[v]);
        /* The seed grids are proper puzzles: exactly one solution. */
        ck_assert_int_eq(count(fx.csp, given, 0), 1);
    }
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_corpora)
{
    test_solve_corpora(&fgm_solver_dlx);
}
END_TEST

START_TEST(test_large_grids)
{
    int box, given[625], sol[625];

    for (box = 2; box <= 5; box++) {
        test_fixture fx = test_fixture_new(fgm_ir_sudoku(box));
        fgm_solve_result res;

        pattern_puzzle(box, given);
        ck_assert_int_eq(solve(fx.csp, given, 0, sol, &res), FGM_OK);
        ck_assert_msg(res.solved, "pattern puzzle box %d solved", box);
        test_fixture_free(&fx);
    }
}
END_TEST

START_TEST(test_count_empty)
{
    test_fixture su = test_fixture_new(fgm_ir_sudoku(2));
    test_fixture la = test_fixture_new(fgm_ir_latin(4));
    test_fixture l3 = test_fixture_new(fgm_ir_latin(3));

    ck_assert_int_eq(count(su.csp, NULL, 0), 288);
    ck_assert_int_eq(count(la.csp, NULL, 0), 576);
    ck_assert_int_eq(count(l3.csp, NULL, 0), 12);
    test_fixture_free(&su);
    test_fixture_free(&la);
    test_fixture_free(&l3);
}
END_TEST

START_TEST(test_count_two_solutions)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(2));
    int given[16];

    test_given(TWO_SOLUTIONS_4X4, given);
    ck_assert_int_eq(count(fx.csp, given, 0), 2);
    ck_assert_int_eq(count(fx.csp, given, 2), 2);
    ck_assert_int_eq(count(fx.csp, given, 1), 1);
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_marginals_empty)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(2));
    double m[16 * 4];
    long n;
    int i;

    ck_assert_int_eq(fgm_dlx_count(fx.csp, NULL, 0, 0, &n, m), FGM_OK);
    ck_assert_int_eq(n, 288);
    /* Value relabelling maps solutions onto solutions: exactly uniform. */
    for (i = 0; i < 16 * 4; i++)
        ck_assert_double_eq_tol(m[i], 0.25, 1e-15);
    test_fixture_free(&fx);
}
END_TEST

/* Brute force over 4x4 Sudoku grids: fills HITS[cell*4+val] and returns the
 * number of solutions extending GRID (values 0..3, -1 empty). */
static long
brute(int *grid, int cell, long *hits)
{
    long total = 0;
    int a, k;

    if (cell == 16) {
        for (k = 0; k < 16; k++)
            hits[k * 4 + grid[k]]++;
        return 1;
    }
    if (grid[cell] >= 0)
        return brute(grid, cell + 1, hits);
    for (a = 0; a < 4; a++) {
        int r = cell / 4, c = cell % 4, ok = 1;

        for (k = 0; k < 16 && ok; k++) {
            int kr = k / 4, kc = k % 4;

            if (k == cell || grid[k] != a)
                continue;
            if (kr == r || kc == c || (kr / 2 == r / 2 && kc / 2 == c / 2))
                ok = 0;
        }
        if (!ok)
            continue;
        grid[cell] = a;
        total += brute(grid, cell + 1, hits);
        grid[cell] = -1;
    }
    return total;
}

START_TEST(test_marginals_brute_force)
{
    static const char *const puzzles[] = {
        "1...............", "1....2..........", "1......3..4.....",
        TWO_SOLUTIONS_4X4
    };
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(2));
    int given[16], grid[16], i, k;

    for (i = 0; i < 4; i++) {
        long hits[64] = { 0 }, want, got;
        double m[64];

        test_given(puzzles[i], given);
        memcpy(grid, given, sizeof grid);
        want = brute(grid, 0, hits);
        ck_assert_int_eq(fgm_dlx_count(fx.csp, given, 0, 0, &got, m), FGM_OK);
        ck_assert_msg(got == want, "puzzle %d: %ld solutions, brute force %ld",
                      i, got, want);
        /* Both are ratios of the same integers: equal to rounding. */
        for (k = 0; k < 64; k++)
            ck_assert_msg(fabs(m[k] - (double)hits[k] / (double)want) < 1e-12,
                          "puzzle %d cell %d value %d: %g vs %g", i, k / 4,
                          k % 4, m[k], (double)hits[k] / (double)want);
    }
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_evidence_restricts)
{
    fgm_ir *ir = fgm_ir_sudoku(2);
    double ev[4] = { 0, 1, 1, 1 };
    int scope[1] = { 0 }, sol[16], given[16];
    fgm_solve_result res;
    fgm_status st;
    test_fixture fx;

    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, scope, 4,
                                       ev, &st), 0);
    fx = test_fixture_new(ir);
    /* Each value sits in cell 0 in a quarter of the 288 grids. */
    ck_assert_int_eq(count(fx.csp, NULL, 0), 216);
    ck_assert_int_eq(solve(fx.csp, NULL, 0, sol, &res), FGM_OK);
    ck_assert_int_ne(sol[0], 0);
    /* A clue the evidence forbids: no solution. */
    memset(given, -1, sizeof given);
    given[0] = 0;
    ck_assert_int_eq(count(fx.csp, given, 0), 0);
    ck_assert_int_eq(solve(fx.csp, given, 0, sol, &res), FGM_EUNSOLVED);
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_workspace_reuse)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(2));
    fgm_status st;
    fgm_dlx *d = fgm_dlx_new(fx.csp, &st);
    fgm_dlx_limits lim = { 0, 0, 0 };
    int given[16], first[16], i;
    long n, nodes;

    ck_assert_ptr_nonnull(d);
    /* Runs of all kinds, interleaved, each from a clean template. */
    for (i = 0; i < 3; i++) {
        lim.cap = 1;
        ck_assert_int_eq(fgm_dlx_run(d, NULL, &lim, &n, NULL, first, &nodes),
                         FGM_OK);
        ck_assert_int_eq(n, 1);
        ck_assert_int_gt(nodes, 0);
        ck_assert_msg(fgm_csp_verify(fx.csp, NULL, first),
                      "first solution is valid");
        lim.cap = 0;
        ck_assert_int_eq(fgm_dlx_run(d, NULL, &lim, &n, NULL, NULL, NULL),
                         FGM_OK);
        ck_assert_int_eq(n, 288);
        test_given("11..............", given);
        ck_assert_int_eq(fgm_dlx_run(d, given, &lim, &n, NULL, NULL, NULL),
                         FGM_OK);
        ck_assert_int_eq(n, 0);
        test_given(TWO_SOLUTIONS_4X4, given);
        ck_assert_int_eq(fgm_dlx_run(d, given, NULL, &n, NULL, first, NULL),
                         FGM_OK);
        ck_assert_int_eq(n, 2);
        ck_assert_msg(fgm_csp_verify(fx.csp, given, first),
                      "first solution keeps the clues");
    }
    /* A deadline that is no time: refused, not taken for none. */
    lim.deadline = -1.0;
    ck_assert_int_eq(fgm_dlx_run(d, NULL, &lim, &n, NULL, NULL, NULL),
                     FGM_EINVAL);
    lim.deadline = NAN;
    ck_assert_int_eq(fgm_dlx_run(d, NULL, &lim, &n, NULL, NULL, NULL),
                     FGM_EINVAL);
    fgm_dlx_free(d);
    fgm_dlx_free(NULL);
    test_fixture_free(&fx);
}
END_TEST

/* -------------------------------------------------------------- limits */

START_TEST(test_cap_stops)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(2));

    ck_assert_int_eq(count(fx.csp, NULL, 1), 1);
    ck_assert_int_eq(count(fx.csp, NULL, 5), 5);
    ck_assert_int_eq(count(fx.csp, NULL, 288), 288);
    ck_assert_int_eq(count(fx.csp, NULL, 1000), 288);
    ck_assert_int_eq(count(fx.csp, NULL, -1), 288);
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_marginals_with_cap)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(2));
    double m[64];
    long n;
    int v, a;

    ck_assert_int_eq(fgm_dlx_count(fx.csp, NULL, 3, 0, &n, m), FGM_OK);
    ck_assert_int_eq(n, 3);
    /* Fractions among the counted solutions: each cell sums to one. */
    for (v = 0; v < 16; v++) {
        double s = 0;

        for (a = 0; a < 4; a++) {
            s += m[v * 4 + a];
            ck_assert_msg(m[v * 4 + a] == 0 || m[v * 4 + a] >= 1.0 / 3 - 1e-12,
                          "a fraction of three solutions");
        }
        ck_assert_double_eq_tol(s, 1.0, 1e-12);
    }
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_deadline)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(3));
    double t0 = fgm_now();
    long n;

    /* Some 6.7e21 grids: counting them all cannot finish in 50 ms. */
    ck_assert_int_eq(fgm_dlx_count(fx.csp, NULL, 0, t0 + 0.05, &n, NULL),
                     FGM_ETIMEOUT);
    ck_assert_int_gt(n, 0);
    ck_assert_msg(fgm_now() - t0 < 5.0, "stopped near the deadline");
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_node_budget)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(3));
    fgm_status st;
    fgm_dlx *d = fgm_dlx_new(fx.csp, &st);
    fgm_dlx_limits lim = { 0, 0, 100 };
    long n, nodes;

    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(fgm_dlx_run(d, NULL, &lim, &n, NULL, NULL, &nodes),
                     FGM_ETIMEOUT);
    ck_assert_int_le(nodes, 101);
    /* The next run starts clean. */
    lim.max_nodes = 0;
    lim.cap = 10;
    ck_assert_int_eq(fgm_dlx_run(d, NULL, &lim, &n, NULL, NULL, NULL),
                     FGM_OK);
    ck_assert_int_eq(n, 10);
    fgm_dlx_free(d);
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_solver_timeout)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(5));
    int sol[625];
    fgm_solve_result res;

    /* An empty 25x25 grid needs 625 search calls; a deadline one
     * nanosecond away has passed at the first poll (call 256). */
    ck_assert_int_eq(solve(fx.csp, NULL, 1e-6, sol, &res), FGM_ETIMEOUT);
    ck_assert_int_eq(res.solved, 0);
    ck_assert_int_eq(solve(fx.csp, NULL, 0, sol, &res), FGM_OK);
    ck_assert_int_eq(res.solved, 1);
    test_fixture_free(&fx);
}
END_TEST

/* -------------------------------------------------------------- errors */

START_TEST(test_refuses_neq_and_table)
{
    fgm_ir *a = fgm_ir_sudoku(2), *b = fgm_ir_sudoku(2);
    int scope[2] = { 0, 5 }, given[16];
    double pot[16];
    const char *why;
    fgm_status st;
    fgm_runner *r;
    test_fixture fa, fb;
    long n;
    int i;

    for (i = 0; i < 16; i++)
        pot[i] = i % 5 != 0;
    ck_assert_int_ge(fgm_ir_add_factor(a, FGM_FACTOR_NEQ, 2, scope, 0, NULL,
                                       &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(b, FGM_FACTOR_TABLE, 2, scope, 16, pot,
                                       &st), 0);
    fa = test_fixture_new(a);
    fb = test_fixture_new(b);
    r = fgm_runner_new(&fgm_solver_dlx, fa.csp, NULL, &st, &why);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(st, FGM_EUNSUPPORTED);
    ck_assert_ptr_nonnull(why);
    ck_assert_msg(strstr(why, "exact-cover") != NULL, "reason: %s", why);
    ck_assert_ptr_nonnull(fgm_dlx_refuses(fb.csp));
    ck_assert_ptr_null(fgm_dlx_new(fb.csp, &st));
    ck_assert_int_eq(st, FGM_EUNSUPPORTED);
    memset(given, -1, sizeof given);
    ck_assert_int_eq(fgm_dlx_count(fa.csp, given, 0, 0, &n, NULL),
                     FGM_EUNSUPPORTED);
    test_fixture_free(&fa);
    test_fixture_free(&fb);
}
END_TEST

START_TEST(test_refuses_non_cover)
{
    fgm_ir *a = fgm_ir_new("short"), *b = fgm_ir_sudoku(2);
    int dims[1] = { 3 }, scope[3] = { 0, 1, 2 };
    fgm_status st;
    test_fixture fa, fb;

    /* Three variables over four values: an alldiff, not an exact cover. */
    ck_assert_int_eq(fgm_ir_add_array(a, "x", 1, dims, 0, 4, 0, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(a, FGM_FACTOR_ALLDIFF, 3, scope, 0,
                                       NULL, &st), 0);
    /* A variable in no alldiff. */
    ck_assert_int_ge(fgm_ir_add_array(b, "free", 1, dims, 1, 4, 0, &st), 0);
    fa = test_fixture_new(a);
    fb = test_fixture_new(b);
    ck_assert_ptr_nonnull(fgm_dlx_refuses(fa.csp));
    ck_assert_ptr_nonnull(fgm_dlx_refuses(fb.csp));
    ck_assert_msg(strstr(fgm_dlx_refuses(fa.csp), "n values") != NULL,
                  "reason names the rule: %s", fgm_dlx_refuses(fa.csp));
    ck_assert_msg(strstr(fgm_dlx_refuses(fb.csp), "every variable") != NULL,
                  "reason names the rule: %s", fgm_dlx_refuses(fb.csp));
    test_fixture_free(&fa);
    test_fixture_free(&fb);
}
END_TEST

START_TEST(test_unsatisfiable)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(3));
    test_fixture f4 = test_fixture_new(fgm_ir_sudoku(2));
    int given[81], sol[81], c, a, k;
    fgm_solve_result res;
    long n;

    /* Clues that clash directly. */
    test_given("11..............", given);
    ck_assert_int_eq(solve(f4.csp, given, 0, sol, &res), FGM_EUNSOLVED);
    ck_assert_int_eq(res.solved, 0);
    ck_assert_int_eq(count(f4.csp, given, 0), 0);

    /* A clue that clashes with no other clue but with the only solution:
     * the search has to find out. */
    test_given(SEED003_EASY, given);
    ck_assert_int_eq(solve(fx.csp, given, 0, sol, &res), FGM_OK);
    for (c = 0; given[c] >= 0; c++)
        ;
    for (a = 0; a < 9; a++) {
        const int *p = fgm_csp_peers(fx.csp, c);
        int ok = a != sol[c];

        for (k = 0; ok && k < fgm_csp_npeers(fx.csp, c); k++)
            ok = given[p[k]] != a;
        if (ok)
            break;
    }
    ck_assert_int_lt(a, 9);
    given[c] = a;
    ck_assert_int_eq(solve(fx.csp, given, 0, sol, &res), FGM_EUNSOLVED);
    ck_assert_int_eq(fgm_dlx_count(fx.csp, given, 0, 0, &n, NULL), FGM_OK);
    ck_assert_int_eq(n, 0);
    test_fixture_free(&fx);
    test_fixture_free(&f4);
}
END_TEST

START_TEST(test_clue_out_of_range)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(2));
    int given[16], sol[16];
    fgm_solve_result res;
    fgm_status st;
    fgm_dlx *d = fgm_dlx_new(fx.csp, &st);
    long n = 7;

    memset(given, -1, sizeof given);
    given[3] = 4;
    ck_assert_int_eq(solve(fx.csp, given, 0, sol, &res), FGM_EUNSOLVED);
    ck_assert_int_eq(fgm_dlx_run(d, given, NULL, &n, NULL, NULL, NULL),
                     FGM_EINVAL);
    ck_assert_int_eq(n, 0);
    fgm_dlx_free(d);
    test_fixture_free(&fx);
}
END_TEST

Suite *
dlx_suite(void)
{
    Suite *s = suite_create("dlx");
    TCase *core = tcase_create("core"), *limits = tcase_create("limits");
    TCase *errors = tcase_create("errors");

    tcase_set_timeout(core, 60);
    tcase_set_timeout(limits, 60);
    tcase_set_timeout(errors, 30);
    tcase_add_test(core, test_seed_grids);
    tcase_add_test(core, test_corpora);
    tcase_add_test(core, test_large_grids);
    tcase_add_test(core, test_count_empty);
    tcase_add_test(core, test_count_two_solutions);
    tcase_add_test(core, test_marginals_empty);
    tcase_add_test(core, test_marginals_brute_force);
    tcase_add_test(core, test_evidence_restricts);
    tcase_add_test(core, test_workspace_reuse);
    tcase_add_test(limits, test_cap_stops);
    tcase_add_test(limits, test_marginals_with_cap);
    tcase_add_test(limits, test_deadline);
    tcase_add_test(limits, test_node_budget);
    tcase_add_test(limits, test_solver_timeout);
    tcase_add_test(errors, test_refuses_neq_and_table);
    tcase_add_test(errors, test_refuses_non_cover);
    tcase_add_test(errors, test_unsatisfiable);
    tcase_add_test(errors, test_clue_out_of_range);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    suite_add_tcase(s, errors);
    return s;
}
