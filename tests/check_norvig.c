/* tests/check_norvig.c: Norvig's propagation and search on the csp.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../runtime/solve/run.h"
#include "testutil.h"
#include "suites.h"

/* Solves GIVEN with norvig through the verifying driver. */
static fgm_status
solve(const fgm_csp *csp, const int *given, double timeout_ms, int *sol,
      fgm_solve_result *res)
{
    return test_solve(&fgm_solver_norvig, csp, given, timeout_ms, sol, res);
}

/* The pattern grid (BOX*(r%BOX) + r/BOX + c) % N with about 60% of the
 * cells emptied: solvable, not necessarily uniquely. */
static void
pattern_puzzle(int box, int *given)
{
    int n = box * box, r, c;

    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++)
            given[r * n + c] = (r * 7 + c * 3) % 5 < 3
                               ? -1 : (box * (r % box) + r / box + c) % n;
}

/* K variables over K-1 values, pairwise different: no solution, and
 * neither singles nor hidden singles notice before the last levels. */
static fgm_ir *
pigeonhole(int k)
{
    fgm_ir *ir = fgm_ir_new("pigeonhole");
    int dims[1] = { k }, scope[2], i, j;
    fgm_status st;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, k - 1, 0, &st), 0);
    for (i = 0; i < k; i++)
        for (j = i + 1; j < k; j++) {
            scope[0] = i;
            scope[1] = j;
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_NEQ, 2, scope,
                                               0, NULL, &st), 0);
        }
    return ir;
}

/* ---------------------------------------------------------------- core */

START_TEST(test_seed_grids)
{
    static const char *const grids[] = {
        SEED003_EASY, SEED003_MEDIUM, SEED003_HARD
    };
    /* Search nodes: propagation alone solves the first two; the hard
     * one needs 3 nodes when the search takes a cell of fewest values
     * (the first of two candidates ends the scan).  A broken choice
     * still solves it, in more (13 when the scan waited for three). */
    static const long nodes[] = { 1, 1, 3 };
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(3));
    int given[81], sol[81], i;
    fgm_solve_result res;

    for (i = 0; i < 3; i++) {
        test_given(grids[i], given);
        ck_assert_int_eq(solve(fx.csp, given, 0, sol, &res), FGM_OK);
        ck_assert_msg(res.solved && res.valid, "seed grid %d solved", i);
        ck_assert_msg(res.stats.nodes == nodes[i], "seed grid %d: %ld "
                      "nodes, want %ld", i, (long)res.stats.nodes, nodes[i]);
    }
    /* Propagation alone solves the easy grid: search is entered once. */
    test_given(SEED003_EASY, given);
    ck_assert_int_eq(solve(fx.csp, given, 0, sol, &res), FGM_OK);
    ck_assert_int_eq(res.stats.nodes, 1);
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_corpora)
{
    test_solve_corpora(&fgm_solver_norvig);
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
        /* The empty grid too. */
        ck_assert_int_eq(solve(fx.csp, NULL, 0, sol, &res), FGM_OK);
        ck_assert_msg(res.solved, "empty grid box %d solved", box);
        test_fixture_free(&fx);
    }
}
END_TEST

START_TEST(test_latin)
{
    test_fixture fx = test_fixture_new(fgm_ir_latin(5));
    int given[25], sol[25], v;
    fgm_solve_result res;

    ck_assert_int_eq(solve(fx.csp, NULL, 0, sol, &res), FGM_OK);
    ck_assert(res.solved);
    /* A clued Latin square: the first row reversed, one cell below. */
    memset(given, -1, sizeof given);
    for (v = 0; v < 5; v++)
        given[v] = 4 - v;
    given[5] = 0;
    ck_assert_int_eq(solve(fx.csp, given, 0, sol, &res), FGM_OK);
    ck_assert(res.solved);
    for (v = 0; v < 5; v++)
        ck_assert_int_eq(sol[v], 4 - v);
    ck_assert_int_eq(sol[5], 0);
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_neq_only)
{
    /* An odd cycle needs three colours: a neq model with no full unit. */
    fgm_ir *ir = fgm_ir_new("cycle");
    int dims[1] = { 5 }, scope[2], i, sol[5];
    fgm_solve_result res;
    fgm_status st;
    test_fixture fx;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 3, 0, &st), 0);
    for (i = 0; i < 5; i++) {
        scope[0] = i;
        scope[1] = (i + 1) % 5;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_NEQ, 2, scope, 0,
                                           NULL, &st), 0);
    }
    fx = test_fixture_new(ir);
    ck_assert_int_eq(solve(fx.csp, NULL, 0, sol, &res), FGM_OK);
    ck_assert(res.solved);
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_tables)
{
    /* x, y, z in 0..2; table(x, y) allows (2, 0) and (1, 1) only; x != y;
     * table(y, z) allows z = y + 1 only.  One solution: 2, 0, 1. */
    fgm_ir *ir = fgm_ir_new("tables");
    int dims[1] = { 3 }, xy[2] = { 0, 1 }, yz[2] = { 1, 2 }, sol[3];
    double t1[9] = { 0 }, t2[9] = { 0 };
    fgm_solve_result res;
    fgm_status st;
    test_fixture fx;

    t1[2 * 3 + 0] = 1;
    t1[1 * 3 + 1] = 1;
    t2[0 * 3 + 1] = 1;
    t2[1 * 3 + 2] = 1;
    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 3, 0, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, xy, 9, t1,
                                       &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_NEQ, 2, xy, 0, NULL,
                                       &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, yz, 9, t2,
                                       &st), 0);
    fx = test_fixture_new(ir);
    ck_assert_int_eq(solve(fx.csp, NULL, 0, sol, &res), FGM_OK);
    ck_assert(res.solved);
    ck_assert_int_eq(sol[0], 2);
    ck_assert_int_eq(sol[1], 0);
    ck_assert_int_eq(sol[2], 1);
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_evidence)
{
    /* Evidence leaves cell 0 of a 4x4 grid only the value 3 (index 3). */
    fgm_ir *ir = fgm_ir_sudoku(2);
    double ev[4] = { 0, 0, 0, 1 };
    int scope[1] = { 0 }, sol[16];
    fgm_solve_result res;
    fgm_status st;
    test_fixture fx;

    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, scope, 4,
                                       ev, &st), 0);
    fx = test_fixture_new(ir);
    ck_assert_int_eq(solve(fx.csp, NULL, 0, sol, &res), FGM_OK);
    ck_assert(res.solved);
    ck_assert_int_eq(sol[0], 3);
    test_fixture_free(&fx);
}
END_TEST

/* IR with the evidence W (4 values) on each of its cells FIRST..LAST. */
static fgm_ir *
with_evidence(fgm_ir *ir, int first, int last, const double *w)
{
    fgm_status st;
    int c;

    for (c = first; c <= last; c++)
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, &c, 4,
                                           w, &st), 0);
    return ir;
}

/* Evidence that narrows a unit before any clue: the propagation's start
 * finds the hidden single it leaves, a value no cell of a unit can take,
 * and a cell that two evidences leave no value. */
START_TEST(test_evidence_units)
{
    static const double not0[4] = { 0, 1, 1, 1 }, only0[4] = { 1, 0, 0, 0 };
    static const double only1[4] = { 0, 1, 0, 0 };
    fgm_solve_result res;
    test_fixture fx;
    int sol[16];

    /* Cells 1..3 of row 0 cannot hold value 0: cell 0 must. */
    fx = test_fixture_new(with_evidence(fgm_ir_sudoku(2), 1, 3, not0));
    ck_assert_int_eq(solve(fx.csp, NULL, 0, sol, &res), FGM_OK);
    ck_assert(res.solved && res.valid);
    ck_assert_int_eq(sol[0], 0);
    test_fixture_free(&fx);

    /* No cell of row 0 can hold value 0: refuted before any search. */
    fx = test_fixture_new(with_evidence(fgm_ir_sudoku(2), 0, 3, not0));
    ck_assert_int_eq(solve(fx.csp, NULL, 0, sol, &res), FGM_EUNSOLVED);
    ck_assert_int_eq(res.solved, 0);
    ck_assert_int_eq(res.stats.nodes, 0);
    test_fixture_free(&fx);

    /* Cell 0 held to value 0 by one evidence and to 1 by another. */
    fx = test_fixture_new(with_evidence(with_evidence(fgm_ir_sudoku(2), 0, 0,
                                                      only0), 0, 0, only1));
    ck_assert_int_eq(solve(fx.csp, NULL, 0, sol, &res), FGM_EUNSOLVED);
    ck_assert_int_eq(res.stats.nodes, 0);
    test_fixture_free(&fx);
}
END_TEST

/* -------------------------------------------------------------- limits */

START_TEST(test_timeout)
{
    test_fixture fx = test_fixture_new(pigeonhole(13));
    int sol[13];
    fgm_solve_result res;
    double t0 = fgm_now();

    /* About 12! nodes to refute: far beyond 50 ms. */
    ck_assert_int_eq(solve(fx.csp, NULL, 50, sol, &res), FGM_ETIMEOUT);
    ck_assert_int_eq(res.solved, 0);
    ck_assert_int_gt(res.stats.nodes, 256);
    ck_assert_msg(fgm_now() - t0 < 5.0, "stopped near the deadline");
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_reuse)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(3));
    const char *why;
    fgm_status st;
    fgm_runner *r = fgm_runner_new(&fgm_solver_norvig, fx.csp, NULL, &st,
                                   &why);
    int given[81], sol[81], i;

    ck_assert_ptr_nonnull(r);
    /* One workspace, puzzles of every outcome in turn. */
    for (i = 0; i < 3; i++) {
        fgm_solve_result res;

        test_given(SEED003_HARD, given);
        ck_assert_int_eq(fgm_runner_solve(r, given, 1, 0, sol, &res), FGM_OK);
        given[1] = given[0] = 0;
        ck_assert_int_eq(fgm_runner_solve(r, given, 1, 0, sol, &res),
                         FGM_EUNSOLVED);
        ck_assert_int_eq(fgm_runner_solve(r, NULL, 1, 0, sol, &res), FGM_OK);
    }
    fgm_runner_free(r);
    test_fixture_free(&fx);
}
END_TEST

/* -------------------------------------------------------------- errors */

START_TEST(test_unsatisfiable)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(3));
    test_fixture f4 = test_fixture_new(fgm_ir_sudoku(2));
    test_fixture ph = test_fixture_new(pigeonhole(5));
    int given[81], sol[81], c, a, k;
    fgm_solve_result res;

    test_given("11..............", given);
    ck_assert_int_eq(solve(f4.csp, given, 0, sol, &res), FGM_EUNSOLVED);
    ck_assert_int_eq(res.solved, 0);

    /* A clue that clashes with no clue, only with the unique solution. */
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

    /* Refuted by search: five pigeons, four holes. */
    ck_assert_int_eq(solve(ph.csp, NULL, 0, sol, &res), FGM_EUNSOLVED);
    ck_assert_int_gt(res.stats.nodes, 1);
    test_fixture_free(&fx);
    test_fixture_free(&f4);
    test_fixture_free(&ph);
}
END_TEST

START_TEST(test_unsat_table)
{
    /* table(x, y) allows only x == y, and x != y. */
    fgm_ir *ir = fgm_ir_new("clash");
    int dims[1] = { 2 }, xy[2] = { 0, 1 }, sol[2];
    double t[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    fgm_solve_result res;
    fgm_status st;
    test_fixture fx;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 3, 0, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, xy, 9, t,
                                       &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_NEQ, 2, xy, 0, NULL,
                                       &st), 0);
    fx = test_fixture_new(ir);
    ck_assert_int_eq(solve(fx.csp, NULL, 0, sol, &res), FGM_EUNSOLVED);
    test_fixture_free(&fx);
}
END_TEST

START_TEST(test_clue_out_of_range)
{
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(2));
    int given[16], sol[16];
    fgm_solve_result res;

    memset(given, -1, sizeof given);
    given[3] = 4;
    ck_assert_int_eq(solve(fx.csp, given, 0, sol, &res), FGM_EUNSOLVED);
    test_fixture_free(&fx);
}
END_TEST

Suite *
norvig_suite(void)
{
    Suite *s = suite_create("norvig");
    TCase *core = tcase_create("core"), *limits = tcase_create("limits");
    TCase *errors = tcase_create("errors");

    tcase_set_timeout(core, 60);
    tcase_set_timeout(limits, 30);
    tcase_set_timeout(errors, 30);
    tcase_add_test(core, test_seed_grids);
    tcase_add_test(core, test_corpora);
    tcase_add_test(core, test_large_grids);
    tcase_add_test(core, test_latin);
    tcase_add_test(core, test_neq_only);
    tcase_add_test(core, test_tables);
    tcase_add_test(core, test_evidence);
    tcase_add_test(core, test_evidence_units);
    tcase_add_test(limits, test_timeout);
    tcase_add_test(limits, test_reuse);
    tcase_add_test(errors, test_unsatisfiable);
    tcase_add_test(errors, test_unsat_table);
    tcase_add_test(errors, test_clue_out_of_range);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    suite_add_tcase(s, errors);
    return s;
}
