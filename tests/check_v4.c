/* tests/check_v4.c: alldiff-max, alldiff-sum (seed v4) and their tuned variants.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed (notebook 000 s.8): native alldiff BP, 30 cold sweeps, then one
 * decision per round with 4 warm sweeps each, up to 30 attempts, no
 * propagation and no backtracking.  The counts asserted below are that
 * structure (30 + 4 per decision sweeps, one inference per round, one
 * contradiction per failed attempt).  Every solve goes through the runner,
 * which verifies the answer; models run interpreted (no C compiler).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "../runtime/solve/run.h"
#include "suites.h"
#include "testutil.h"

/* puzzles/seed000.txt lines 1-2 (the Easy grids), 3 and 4 (hardest.txt
 * lines 1 and 2). */
static const char easy1[] =
    "9.2..54.31...63.255.84.7.6..263.9..1.57.1.29..9.67.53.24.53.6..7"
    ".52..3.4.8..4195.";
static const char easy2[] =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8"
    "..2.3..9..5.1.3..";
static const char medium1[] =
    "85...24..72......9..4.........1.7..23.5...9...4...........8..7.."
    "17..........36.4.";
static const char medium2[] =
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9."
    ".4....3......97..";
/* A 4x4 Sudoku with no solution and no two equal clues in a unit: cell
 * (0,2) needs 3 or 4 (row 0 holds 1 and 2), column 2 holds both. */
/* puzzles/generated_16x16.txt, line 3: max3 and sum3 need restarts. */
static const char hex3[] =
    ".6...AG.D.12.E....F.....5G.9..D...B..CF..8..2.91.137.6.4....5.B."
    ".91F..BAC....783.78..3..G5................AB.D.G...E.7.2..9..FC."
    "..D2A5....E......3..B2.9...1.8..FC4....7......E....5..6....D..3."
    "....2..C..G..B.92.AC64.G..B..5........3F.28.E.7.9..8...5.EC.....";
/* Unsolvable: the clues leave cell (0,2) no value (fgm_csp_dead_var). */
static const char unsat4[] = "12........3...4.";
/* Unsolvable, but each free cell has values no clue peer holds: only the
 * matchings of the units exclude them (3 can go nowhere in row 0). */
static const char hall4[] = "..4.1.....21....";
static const char sudoku4[] = "1.....2..3.....4";
static const char latin5[] = "1.3.....2.4...........1..";

static const fgm_solver *const all[] = {
    &fgm_solver_alldiff_max,
    &fgm_solver_alldiff_sum,
    &fgm_solver_alldiff_max2,
    &fgm_solver_alldiff_sum2,
    &fgm_solver_alldiff_max3,
    &fgm_solver_alldiff_sum3,
};

static fgm_solve_opts
interp_opts(void)
{
    fgm_solve_opts o;

    memset(&o, 0, sizeof o);
    o.backend = FGM_BACKEND_INTERPRETED;
    return o;
}

/* Solves GRID with S on M (seed SEED, TIMEOUT_MS, options O or the
 * interpreted defaults); the answer goes to SOL when not NULL. */
static fgm_status
solve_grid(const fgm_solver *s, const test_fixture *m, const char *grid,
           unsigned long seed, double timeout_ms, const fgm_solve_opts *o,
           int *sol, fgm_solve_result *res)
{
    int given[FGM_PUZZLE_MAXCELLS], out[FGM_PUZZLE_MAXCELLS];
    fgm_solve_opts def = interp_opts();
    fgm_runner *r;
    fgm_status st;
    const char *why;

    ck_assert_int_eq(test_given(grid, given), m->csp->nvars);
    r = fgm_runner_new(s, m->csp, o ? o : &def, &st, &why);
    ck_assert_msg(r != NULL, "%s: no runner (%s)", s->name,
                  why ? why : fgm_strerror(st));
    st = fgm_runner_solve(r, given, seed, timeout_ms, sol ? sol : out, res);
    fgm_runner_free(r);
    return st;
}

/* ------------------------------------------------------------------------
 * seed
 * ---------------------------------------------------------------------- */

/* alldiff-max solves both Easy grids of notebook 000, interpreted, in one
 * attempt: one decision per free cell (36 and 49), one inference per
 * decision plus the cold run, 30 + 4 per decision sweeps. */
START_TEST(test_max_easy)
{
    test_fixture m = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;

    ck_assert_int_eq(solve_grid(&fgm_solver_alldiff_max, &m, easy1, 0, 0,
                                NULL, NULL, &res), FGM_OK);
    ck_assert(res.solved);
    ck_assert_int_eq(res.stats.compiled, 0);
    ck_assert_int_eq(res.stats.restarts, 0);
    ck_assert_int_eq(res.stats.contradictions, 0);
    ck_assert_int_eq(res.stats.decisions, 36);
    ck_assert_int_eq(res.stats.inferences, 37);
    ck_assert_int_eq(res.stats.sweeps, 30 + 4 * 36);
    ck_assert_int_eq(res.stats.nodes, 0);
    ck_assert_int_eq(solve_grid(&fgm_solver_alldiff_max, &m, easy2, 1, 0,
                                NULL, NULL, &res), FGM_OK);
    ck_assert(res.solved);
    ck_assert_int_eq(res.stats.decisions,
                     49 * (res.stats.restarts + 1));
    test_fixture_free(&m);
}
END_TEST

/* opts->iterations replaces the 30 cold sweeps. */
START_TEST(test_max_iterations)
{
    test_fixture m = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_opts o = interp_opts();
    fgm_solve_result res;

    o.iterations = 12;
    solve_grid(&fgm_solver_alldiff_max, &m, easy1, 0, 0, &o, NULL, &res);
    ck_assert_int_eq(res.stats.sweeps, 12 * (res.stats.restarts + 1)
                                       + 4 * res.stats.decisions);
    test_fixture_free(&m);
}
END_TEST

/* alldiff-sum runs the seed's witness schedule with sum-product
 * messages: Easy #1 in one attempt, 60 sweeps then 6 a decision. */
START_TEST(test_sum_runs)
{
    test_fixture m = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;

    ck_assert_int_eq(solve_grid(&fgm_solver_alldiff_sum, &m, easy1, 0, 0,
                                NULL, NULL, &res), FGM_OK);
    ck_assert(res.solved);
    ck_assert_int_eq(res.stats.decisions, 36);
    ck_assert_int_eq(res.stats.restarts, 0);
    ck_assert_int_eq(res.stats.sweeps, 60 + 6 * 36);
    test_fixture_free(&m);
}
END_TEST

/* A grid with no solution: every attempt ends in a contradiction, the
 * budget of restarts is honoured (opts->max_restarts, default 29), the
 * answer is never claimed. */
START_TEST(test_restart_budget)
{
    test_fixture m = test_fixture_new(fgm_ir_sudoku(2));
    fgm_solve_opts o = interp_opts();
    fgm_solve_result res;

    o.max_restarts = 3;
    ck_assert_int_eq(solve_grid(&fgm_solver_alldiff_max, &m, unsat4, 5, 0,
                                &o, NULL, &res), FGM_EUNSOLVED);
    ck_assert_int_eq(res.solved, 0);
    ck_assert_int_eq(res.stats.restarts, 3);
    ck_assert_int_eq(res.stats.contradictions, 4);
    ck_assert_int_gt(res.stats.errors, 0);
    ck_assert_int_eq(solve_grid(&fgm_solver_alldiff_max, &m, unsat4, 5, 0,
                                NULL, NULL, &res), FGM_EUNSOLVED);
    /* The seed's 30 attempts: restarts 0..29. */
    ck_assert_int_eq(res.stats.restarts, 29);
    ck_assert_int_eq(res.stats.contradictions, 30);
    ck_assert_int_ge(res.stats.decisions, 30);
    o.max_restarts = -1;
    ck_assert_int_eq(solve_grid(&fgm_solver_alldiff_sum, &m, unsat4, 5, 0,
                                &o, NULL, &res), FGM_EUNSOLVED);
    ck_assert_int_eq(res.stats.restarts, 0);
    ck_assert_int_eq(res.stats.contradictions, 1);
    test_fixture_free(&m);
}
END_TEST

/* On a hard grid the seed restarts: one contradiction per restart, and
 * a solved grid ends the restarts. */
START_TEST(test_restarts_counted)
{
    test_fixture m = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_opts o = interp_opts();
    fgm_solve_result res;
    fgm_status st;

    o.max_restarts = 4;
    st = solve_grid(&fgm_solver_alldiff_max, &m, medium2, 3, 0, &o, NULL,
                    &res);
    ck_assert_int_le(res.stats.restarts, 4);
    if (st == FGM_OK)
        ck_assert_int_eq(res.stats.contradictions, res.stats.restarts);
    else
        ck_assert_int_eq(res.stats.contradictions, 5);
    ck_assert_int_ge(res.stats.inferences, res.stats.restarts + 1);
    test_fixture_free(&m);
}
END_TEST

/* ------------------------------------------------------------------------
 * every variant
 * ---------------------------------------------------------------------- */

/* The same seed gives the same answer and counters, on a fresh runner or
 * on one that has solved another grid before (the restarts of the Medium
 * grid exercise the draws and, for alldiff-max2, its saved prefix). */
START_TEST(test_reproducible)
{
    const fgm_solver *s = all[_i];
    test_fixture m = test_fixture_new(fgm_ir_sudoku(3));
    int given[81], other[81], a[81], b[81], k;
    fgm_solve_opts o = interp_opts();
    fgm_solve_result ra, rb;
    fgm_runner *r;
    fgm_status st;
    const char *why;

    o.max_restarts = 6;
    test_given(medium1, given);
    test_given(easy2, other);
    solve_grid(s, &m, medium1, 11, 0, &o, a, &ra);
    r = fgm_runner_new(s, m.csp, &o, &st, &why);
    ck_assert_ptr_nonnull(r);
    fgm_runner_solve(r, other, 11, 0, b, &rb);
    fgm_runner_solve(r, given, 11, 0, b, &rb);
    fgm_runner_free(r);
    ck_assert_int_eq(ra.status, rb.status);
    ck_assert_int_eq(ra.solved, rb.solved);
    ck_assert_int_eq(ra.stats.inferences, rb.stats.inferences);
    ck_assert_int_eq(ra.stats.decisions, rb.stats.decisions);
    ck_assert_int_eq(ra.stats.restarts, rb.stats.restarts);
    ck_assert_int_eq(ra.stats.contradictions, rb.stats.contradictions);
    ck_assert_int_eq(ra.stats.sweeps, rb.stats.sweeps);
    ck_assert_int_eq(ra.stats.errors, rb.stats.errors);
    if (ra.solved)
        for (k = 0; k < 81; k++)
            ck_assert_int_eq(a[k], b[k]);
    test_fixture_free(&m);
}
END_TEST

/* Not only 9x9 Sudoku: a 4x4 Sudoku and a 5x5 Latin square run (and the
 * max-product variants solve them). */
START_TEST(test_small_models)
{
    const fgm_solver *s = all[_i];
    test_fixture m4 = test_fixture_new(fgm_ir_sudoku(2));
    test_fixture m5 = test_fixture_new(fgm_ir_latin(5));
    fgm_solve_result res;
    fgm_status st;
    int maxp = s == &fgm_solver_alldiff_max || s == &fgm_solver_alldiff_max2
               || s == &fgm_solver_alldiff_max3;

    ck_assert_ptr_null(s->refuses(m4.csp));
    ck_assert_ptr_null(s->refuses(m5.csp));
    st = solve_grid(s, &m4, sudoku4, 1, 0, NULL, NULL, &res);
    ck_assert(st == FGM_OK || st == FGM_EUNSOLVED);
    ck_assert_msg(!maxp || res.solved, "%s solves a 4x4 Sudoku", s->name);
    st = solve_grid(s, &m5, latin5, 1, 0, NULL, NULL, &res);
    ck_assert(st == FGM_OK || st == FGM_EUNSOLVED);
    ck_assert_msg(!maxp || res.solved, "%s solves a 5x5 Latin square",
                  s->name);
    test_fixture_free(&m4);
    test_fixture_free(&m5);
}
END_TEST

/* A deadline already past when the first inference would start: 1e-9
 * ms is below the resolution of a double at the clock's magnitude, so the
 * deadline is the start itself, past at the first check.  (1e-3 ms, a
 * microsecond, was not always past on a fast machine: 3 runs in 20.) */
START_TEST(test_timeout)
{
    const fgm_solver *s = all[_i];
    test_fixture m = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;

    ck_assert_int_eq(solve_grid(s, &m, medium1, 1, 1e-9, NULL, NULL, &res),
                     FGM_ETIMEOUT);
    ck_assert_int_eq(res.solved, 0);
    ck_assert_int_eq(res.stats.inferences, 0);
    test_fixture_free(&m);
}
END_TEST

/* What the native operator cannot run is refused with a reason, and only
 * that: 16x16 runs everywhere, 25x25 (2^26 doubles per sum-product
 * factor) only with max-product; an alldiff over mixed domains nowhere. */
START_TEST(test_refuses)
{
    const fgm_solver *s = all[_i];
    int maxp = s == &fgm_solver_alldiff_max || s == &fgm_solver_alldiff_max2
               || s == &fgm_solver_alldiff_max3;
    test_fixture m16 = test_fixture_new(fgm_ir_sudoku(4));
    test_fixture m25 = test_fixture_new(fgm_ir_sudoku(5));
    fgm_ir *ir = fgm_ir_new("mixed");
    fgm_status st;
    int dims[1] = { 2 }, scope[3];
    test_fixture mixed;

    ck_assert_ptr_null(s->refuses(m16.csp));
    if (maxp)
        ck_assert_ptr_null(s->refuses(m25.csp));
    else
        ck_assert_ptr_nonnull(s->refuses(m25.csp));
    ck_assert_ptr_nonnull(ir);
    scope[0] = fgm_ir_add_array(ir, "a", 1, dims, 1, 3, 0, &st);
    scope[2] = fgm_ir_add_array(ir, "b", 1, dims, 1, 4, 0, &st);
    ck_assert_int_ge(scope[0], 0);
    ck_assert_int_ge(scope[2], 0);
    scope[1] = scope[0] + 1;
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, 3, scope, 0,
                                       NULL, &st), 0);
    mixed = test_fixture_new(ir);
    ck_assert_ptr_nonnull(s->refuses(mixed.csp));
    test_fixture_free(&mixed);
    test_fixture_free(&m16);
    test_fixture_free(&m25);
}
END_TEST

/* ------------------------------------------------------------------------
 * tuned variants
 * ---------------------------------------------------------------------- */

/* alldiff-max2 fixes the sure cells of an Easy grid together: far fewer
 * inferences than decisions, and it solves both Medium grids of notebook
 * 000 (the seed's alldiff-max gives the second one up after 30
 * restarts). */
START_TEST(test_max2)
{
    test_fixture m = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;

    ck_assert_int_eq(solve_grid(&fgm_solver_alldiff_max2, &m, easy1, 0, 0,
                                NULL, NULL, &res), FGM_OK);
    ck_assert_int_eq(res.stats.decisions, 36);
    ck_assert_int_lt(res.stats.inferences, 10);
    ck_assert_int_eq(solve_grid(&fgm_solver_alldiff_max2, &m, medium1, 2, 0,
                                NULL, NULL, &res), FGM_OK);
    ck_assert_int_eq(solve_grid(&fgm_solver_alldiff_max2, &m, medium2, 3, 0,
                                NULL, NULL, &res), FGM_OK);
    ck_assert_int_eq(res.stats.contradictions, res.stats.restarts);
    test_fixture_free(&m);
}
END_TEST

/* An unsolvable grid: alldiff-max2 stops at the first contradiction met
 * before any draw (every restart would repeat it), or else within its
 * budget; nothing is claimed. */
START_TEST(test_max2_unsat)
{
    test_fixture m = test_fixture_new(fgm_ir_sudoku(2));
    fgm_solve_opts o = interp_opts();
    fgm_solve_result res;

    o.max_restarts = 20;
    ck_assert_int_eq(solve_grid(&fgm_solver_alldiff_max2, &m, hall4, 5, 0,
                                &o, NULL, &res), FGM_EUNSOLVED);
    ck_assert_int_le(res.stats.restarts, 20);
    ck_assert_int_eq(res.stats.contradictions, res.stats.restarts + 1);
    test_fixture_free(&m);
}
END_TEST

/* An unsolvable grid whose clues leave every cell a value: the messages
 * of alldiff-max3's and alldiff-sum3's first run leave a cell none
 * (empty_cell), so the puzzle is given up after that one run, with no
 * decision: every restart would start from the same clues. */
START_TEST(test_v3_empty)
{
    const fgm_solver *s = _i ? &fgm_solver_alldiff_sum3
                             : &fgm_solver_alldiff_max3;
    test_fixture m = test_fixture_new(fgm_ir_sudoku(2));
    fgm_solve_result res;

    ck_assert_int_eq(solve_grid(s, &m, hall4, 5, 0, NULL, NULL, &res),
                     FGM_EUNSOLVED);
    ck_assert_msg(res.stats.inferences == 1 && res.stats.decisions == 0
                  && res.stats.restarts == 0
                  && res.stats.contradictions == 1,
                  "%s: one run, no decision, one contradiction (got %ld "
                  "inferences, %ld decisions, %ld restarts)", s->name,
                  (long)res.stats.inferences, (long)res.stats.decisions,
                  (long)res.stats.restarts);
    test_fixture_free(&m);
}
END_TEST

/* Clues that leave a free cell no value: the solvers that stop doomed
 * attempts (all but the seed's alldiff-max and alldiff-sum) give the
 * puzzle up before any inference, where 10000 doomed attempts took
 * alldiff-sum2 over 90 s on such a 9x9 grid; the seed's run their
 * attempts as the seed did.  A solvable grid has no such cell. */
static const fgm_solver *const dead_clue_solvers[] = {
    &fgm_solver_alldiff_max, &fgm_solver_alldiff_sum,
    &fgm_solver_alldiff_max2, &fgm_solver_alldiff_sum2,
    &fgm_solver_alldiff_max3, &fgm_solver_alldiff_sum3,
    &fgm_solver_bp_decimate3,
};

START_TEST(test_dead_clues)
{
    const fgm_solver *s = dead_clue_solvers[_i];
    int seed = s == &fgm_solver_alldiff_max || s == &fgm_solver_alldiff_sum;
    test_fixture m = test_fixture_new(fgm_ir_sudoku(2));
    int given[FGM_PUZZLE_MAXCELLS];
    fgm_solve_result res;

    test_given(unsat4, given);
    ck_assert_int_eq(fgm_csp_dead_var(m.csp, given), 2);
    test_given(hall4, given);
    ck_assert_int_eq(fgm_csp_dead_var(m.csp, given), -1);
    test_given(sudoku4, given);
    ck_assert_int_eq(fgm_csp_dead_var(m.csp, given), -1);
    ck_assert_int_eq(solve_grid(s, &m, unsat4, 5, 0, NULL, NULL, &res),
                     FGM_EUNSOLVED);
    if (seed)
        ck_assert_int_gt(res.stats.inferences, 0);
    else
        ck_assert_msg(res.stats.inferences == 0 && res.stats.decisions == 0
                      && res.stats.restarts == 0
                      && res.stats.contradictions == 1
                      && res.stats.errors == 12,
                      "%s: given up at once (got %ld inferences, %ld "
                      "decisions, %ld restarts, %ld errors)", s->name,
                      (long)res.stats.inferences, (long)res.stats.decisions,
                      (long)res.stats.restarts, (long)res.stats.errors);
    test_fixture_free(&m);
}
END_TEST

/* The tree of states shared by attempts (alldiff-max3, alldiff-sum3) is
 * an exact cache: with or without it, the same seed gives the same
 * answer, restarts, decisions and contradictions, and only the sweeps it
 * saves differ. */
START_TEST(test_v3_tree)
{
    const fgm_solver *s = _i & 1 ? &fgm_solver_alldiff_sum3
                                 : &fgm_solver_alldiff_max3;
    const fgm_solver *flat = _i & 1 ? &fgm_solver_alldiff_sum3_flat
                                    : &fgm_solver_alldiff_max3_flat;
    test_fixture m = test_fixture_new(fgm_ir_sudoku(4));
    fgm_solve_opts o = interp_opts();
    fgm_solve_result ra, rb;
    int a[256], b[256], k;
    unsigned long seed = (unsigned long)(_i >> 1);

    o.max_restarts = 12;
    solve_grid(s, &m, hex3, seed, 0, &o, a, &ra);
    solve_grid(flat, &m, hex3, seed, 0, &o, b, &rb);
    ck_assert_msg(ra.status == rb.status && ra.solved == rb.solved
                  && ra.stats.restarts == rb.stats.restarts
                  && ra.stats.decisions == rb.stats.decisions
                  && ra.stats.contradictions == rb.stats.contradictions
                  && ra.stats.errors == rb.stats.errors,
                  "%s seed %lu: the same outcome with and without the tree "
                  "(restarts %ld and %ld, decisions %ld and %ld)", s->name,
                  seed, ra.stats.restarts, rb.stats.restarts,
                  ra.stats.decisions, rb.stats.decisions);
    ck_assert_msg(ra.stats.sweeps < rb.stats.sweeps,
                  "%s seed %lu: the tree saves sweeps", s->name, seed);
    if (ra.solved)
        for (k = 0; k < 256; k++)
            ck_assert_int_eq(a[k], b[k]);
    test_fixture_free(&m);
}
END_TEST

Suite *
v4_suite(void)
{
    Suite *s = suite_create("v4");
    TCase *seed = tcase_create("seed"), *each = tcase_create("each");
    TCase *tuned = tcase_create("tuned");
    int n = (int)FGM_COUNTOF(all);

    tcase_set_timeout(seed, 60);
    tcase_set_timeout(each, 120);
    tcase_set_timeout(tuned, 60);
    tcase_add_test(seed, test_max_easy);
    tcase_add_test(seed, test_max_iterations);
    tcase_add_test(seed, test_sum_runs);
    tcase_add_test(seed, test_restart_budget);
    tcase_add_test(seed, test_restarts_counted);
    tcase_add_loop_test(each, test_reproducible, 0, n);
    tcase_add_loop_test(each, test_small_models, 0, n);
    tcase_add_loop_test(each, test_timeout, 0, n);
    tcase_add_loop_test(each, test_refuses, 0, n);
    tcase_add_test(tuned, test_max2);
    tcase_add_test(tuned, test_max2_unsat);
    tcase_add_loop_test(tuned, test_v3_empty, 0, 2);
    tcase_add_loop_test(tuned, test_dead_clues, 0,
                        (int)(sizeof dead_clue_solvers
                              / sizeof *dead_clue_solvers));
    tcase_add_loop_test(tuned, test_v3_tree, 0, 4);
    suite_add_tcase(s, seed);
    suite_add_tcase(s, each);
    suite_add_tcase(s, tuned);
    return s;
}
