/* tests/check_solvers.c: ep-hybrid(3), bp-decimate(3), bp-backtrack.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every solve goes through the runner (solve/run.h), which verifies the
 * answer; the models run interpreted (no C compiler needed), except in the
 * error case that asks for a compiler that does not exist.  The counts
 * asserted are the seeds' structure (notebook 000 s.7, notebook 001 s.6):
 * no inference on the Easy grids for ep-hybrid, 50 + 3 sweeps per
 * decision for bp-decimate, 50 + 4 per node for bp-backtrack, the budgets.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "../runtime/solve/ep_model.h"
#include "../runtime/solve/run.h"
#include "suites.h"
#include "testutil.h"

/* puzzles/seed000.txt: lines 1-2 (Easy), 3 (robust's Medium), 4 (v3's
 * Medium, hardest.txt line 2). */
#define SEED000_EASY1 \
    "9.2..54.31...63.255.84.7.6..263.9..1.57.1.29..9.67.53.24.53.6..7" \
    ".52..3.4.8..4195."
#define SEED000_EASY2 \
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8" \
    "..2.3..9..5.1.3.."
#define SEED000_MEDIUM1 \
    "85...24..72......9..4.........1.7..23.5...9...4...........8..7.." \
    "17..........36.4."
#define SEED000_MEDIUM2 \
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9." \
    ".4....3......97.."
/* top95.txt line 4: ep-hybrid runs out of its 60 inferences. */
#define TOP95_4 \
    "48.3............71.2.......7.5....6....2..8.............1.76...3" \
    ".....4......5...."
/* A 4x4 Sudoku and a 5x5 Latin square with a few clues. */
#define SUDOKU4 "1.....2..3.....4"
#define LATIN5 "1.3.....2.4...........1.."

static const fgm_solver *const solvers[] = {
    &fgm_solver_ep_hybrid,
    &fgm_solver_bp_decimate,
    &fgm_solver_bp_backtrack,
    &fgm_solver_bp_decimate3,
    &fgm_solver_ep_hybrid3,
};

static void
interpreted(fgm_solve_opts *o)
{
    memset(o, 0, sizeof *o);
    o->backend = FGM_BACKEND_INTERPRETED;
}

/* Solves PUZZLE (a one-line grid) with SOLVER on CSP, seed SEED, timeout
 * TIMEOUT_MS, options OPTS (NULL: interpreted); the solution goes to SOL
 * (nullable).  Returns the status; *RES gets the runner's result. */
static fgm_status
run(const fgm_solver *solver, const fgm_csp *csp, const char *puzzle,
    unsigned long seed, double timeout_ms, const fgm_solve_opts *opts,
    int *sol, fgm_solve_result *res)
{
    int given[FGM_PUZZLE_MAXCELLS], out[FGM_PUZZLE_MAXCELLS];
    fgm_solve_opts o;
    fgm_runner *r;
    fgm_status st;
    const char *why;

    if (!opts) {
        interpreted(&o);
        opts = &o;
    }
    ck_assert_int_eq(test_given(puzzle, given), csp->nvars);
    r = fgm_runner_new(solver, csp, opts, &st, &why);
    ck_assert_msg(r != NULL, "%s: runner for the model", solver->name);
    st = fgm_runner_solve(r, given, seed, timeout_ms, sol ? sol : out, res);
    fgm_runner_free(r);
    return st;
}

/* ------------------------------------------------------------------------
 * core
 * ---------------------------------------------------------------------- */

/* Infer.NET's Dirichlet mode, the seed's confidence for ep-iterative and
 * ep-hybrid: (40, 20, 20) has the larger mean's maximum (0.5 against
 * 0.42) but the smaller mode's maximum (39/77 against 1) than
 * (1.45, 1, 1), so ranking by the mean (as ep-iterative did) and by the
 * mode (as the seed does) disagree on them. */
START_TEST(test_dirichlet_mode)
{
    const double many[3] = {40.0, 20.0, 20.0}, few[3] = {1.45, 1.0, 1.0};
    const double ones[3] = {1.0, 1.0, 1.0}, small[3] = {0.5, 0.7, 0.2};
    const double mixed[3] = {3.0, 0.5, 2.0};
    double m[3];

    fgm_ep_dirichlet_mode(many, 3, m);
    ck_assert_double_eq_tol(m[0], 39.0 / 77.0, 1e-15);
    ck_assert_double_eq_tol(m[1], 19.0 / 77.0, 1e-15);
    fgm_ep_dirichlet_mode(few, 3, m);
    ck_assert_double_eq_tol(m[0], 1.0, 1e-15);
    ck_assert(m[1] == 0.0 && m[2] == 0.0);
    fgm_ep_dirichlet_mode(ones, 3, m);
    ck_assert_double_eq_tol(m[2], 1.0 / 3.0, 1e-15);
    fgm_ep_dirichlet_mode(small, 3, m);     /* no count >= 1 */
    ck_assert(m[0] == 0.0 && m[1] == 1.0 && m[2] == 0.0);
    fgm_ep_dirichlet_mode(mixed, 3, m);     /* 0.5 < 1 left out */
    ck_assert_double_eq_tol(m[0], 2.0 / 3.0, 1e-15);
    ck_assert(m[1] == 0.0);
    ck_assert_double_eq_tol(m[2], 1.0 / 3.0, 1e-15);
}
END_TEST

/* Every solver solves both Easy grids of notebook 000, interpreted. */
START_TEST(test_easy_grids)
{
    const fgm_solver *s = solvers[_i];
    const char *const grids[] = { SEED000_EASY1, SEED000_EASY2 };
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;
    size_t g;

    for (g = 0; g < FGM_COUNTOF(grids); g++) {
        ck_assert_int_eq(run(s, f.csp, grids[g], g, 0, NULL, NULL, &res),
                         FGM_OK);
        ck_assert_msg(res.solved, "%s solves Easy #%zu", s->name, g + 1);
        ck_assert_int_eq(res.stats.compiled, 0);
        if (s == &fgm_solver_ep_hybrid) {
            /* The seed: the singles alone solve the Easy grids. */
            ck_assert_int_eq(res.stats.inferences, 0);
            ck_assert_int_eq(res.stats.decisions, 0);
        }
    }
    test_fixture_free(&f);
}
END_TEST

/* ep-hybrid solves the seed's Medium grid within its budget (the seed: 7
 * inferences, 10 decisions; our EP's posteriors differ in detail). */
START_TEST(test_hybrid_medium)
{
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;

    ck_assert_int_eq(run(&fgm_solver_ep_hybrid, f.csp, SEED000_MEDIUM2, 3, 0,
                         NULL, NULL, &res), FGM_OK);
    ck_assert_msg(res.solved, "ep-hybrid solves the Medium grid");
    ck_assert_msg(res.stats.inferences >= 1 && res.stats.inferences <= 60,
                  "the singles alone do not solve it; within 60 inferences "
                  "(got %ld)", res.stats.inferences);
    ck_assert_msg(res.stats.decisions >= 1 && res.stats.decisions <= 60,
                  "few decisions (got %ld)", res.stats.decisions);
    /* 50 EP sweeps per inference. */
    ck_assert_int_eq(res.stats.sweeps, 50 * res.stats.inferences);
    ck_assert_int_le(res.stats.nodes, res.stats.decisions + 1);
    test_fixture_free(&f);
}
END_TEST

/* ep-hybrid3 runs one inference of one sweep per puzzle, at the root,
 * and only when propagation stalls there: none on Easy #1, one on the
 * Medium grids and top95 #4, each solved. */
START_TEST(test_hybrid3_one_inference)
{
    const char *const grids[] = { SEED000_MEDIUM1, SEED000_MEDIUM2,
                                  TOP95_4 };
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;
    size_t g;

    ck_assert_int_eq(run(&fgm_solver_ep_hybrid3, f.csp, SEED000_EASY1, 0, 0,
                         NULL, NULL, &res), FGM_OK);
    ck_assert_int_eq(res.stats.inferences, 0);
    ck_assert_int_eq(res.stats.decisions, 0);
    for (g = 0; g < FGM_COUNTOF(grids); g++) {
        ck_assert_int_eq(run(&fgm_solver_ep_hybrid3, f.csp, grids[g], 0, 0,
                             NULL, NULL, &res), FGM_OK);
        ck_assert_msg(res.solved, "ep-hybrid3 solves grid %zu", g);
        ck_assert_int_eq(res.stats.inferences, 1);
        ck_assert_int_eq(res.stats.sweeps, 1);
        ck_assert_int_ge(res.stats.decisions, 1);
    }
    test_fixture_free(&f);
}
END_TEST

/* ep-hybrid3 is complete: every grid of top95 and hardest, each answer
 * verified by the runner. */
START_TEST(test_hybrid3_corpora)
{
    test_solve_corpora(&fgm_solver_ep_hybrid3);
}
END_TEST

/* bp-decimate on Easy #1 runs as the seed's does: 36 free cells, one
 * decision each, 50 + 3 x 36 = 158 sweeps, no restart (the seed's own
 * figures for this grid). */
START_TEST(test_decimate_counts)
{
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;

    ck_assert_int_eq(run(&fgm_solver_bp_decimate, f.csp, SEED000_EASY1, 0, 0,
                         NULL, NULL, &res), FGM_OK);
    ck_assert_int_eq(res.stats.decisions, 36);
    ck_assert_int_eq(res.stats.sweeps, 158);
    ck_assert_int_eq(res.stats.inferences, 37);
    ck_assert_int_eq(res.stats.restarts, 0);
    ck_assert_int_eq(res.stats.contradictions, 0);
    test_fixture_free(&f);
}
END_TEST

/* bp-decimate --fix 4: four cells per round, hence fewer inferences than
 * the seed's one cell per round (37 on Easy #1); the default is untouched
 * by the option's existence (test_decimate_counts). */
START_TEST(test_decimate_fix_per_round)
{
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;
    fgm_solve_opts o;

    interpreted(&o);
    o.fix_per_round = 4;
    run(&fgm_solver_bp_decimate, f.csp, SEED000_EASY1, 0, 0, &o, NULL, &res);
    ck_assert_msg(res.stats.decisions >= 36, "every free cell decided");
    ck_assert_msg(res.stats.inferences
                  <= (res.stats.restarts + 1) * (1 + (36 + 3) / 4),
                  "at most 1 + ceil(36/4) inferences per attempt (got %ld)",
                  res.stats.inferences);
    test_fixture_free(&f);
}
END_TEST

/* bp-decimate2 fixes every cell BP is sure of in one round: Easy #1 in a
 * handful of rounds instead of the seed's 36, every cell still decided. */
START_TEST(test_decimate2_rounds)
{
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;

    ck_assert_int_eq(run(&fgm_solver_bp_decimate2, f.csp, SEED000_EASY1, 0,
                         0, NULL, NULL, &res), FGM_OK);
    ck_assert_int_eq(res.stats.decisions, 36);
    ck_assert_int_eq(res.stats.restarts, 0);
    ck_assert_msg(res.stats.inferences < 10, "rounds: %ld",
                  res.stats.inferences);
    test_fixture_free(&f);
}
END_TEST

/* bp-decimate3 fixes every cell whose support is one value in one round:
 * Easy #1 in one attempt, 36 decisions, no draw; and it takes both Medium
 * grids of notebook 000, which bp-decimate gives up (4 attempts), to a
 * solution by restarts, each failed attempt one contradiction.  The
 * solutions are checked here too, not only by the runner. */
START_TEST(test_decimate3)
{
    const char *const grids[] = { SEED000_MEDIUM1, SEED000_MEDIUM2 };
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    int given[81], sol[81];
    fgm_solve_result res;
    size_t g;

    ck_assert_int_eq(run(&fgm_solver_bp_decimate3, f.csp, SEED000_EASY1, 0,
                         0, NULL, sol, &res), FGM_OK);
    ck_assert_int_eq(res.stats.decisions, 36);
    ck_assert_int_eq(res.stats.restarts, 0);
    ck_assert_msg(res.stats.inferences < 10, "rounds: %ld",
                  res.stats.inferences);
    test_given(SEED000_EASY1, given);
    ck_assert_msg(fgm_csp_verify(f.csp, given, sol),
                  "bp-decimate3's Easy #1 grid is a solution");
    for (g = 0; g < FGM_COUNTOF(grids); g++) {
        ck_assert_int_eq(run(&fgm_solver_bp_decimate3, f.csp, grids[g], 1, 0,
                             NULL, sol, &res), FGM_OK);
        ck_assert_msg(res.solved, "bp-decimate3 solves Medium #%zu", g + 1);
        test_given(grids[g], given);
        ck_assert_msg(fgm_csp_verify(f.csp, given, sol),
                      "bp-decimate3's Medium #%zu grid is a solution", g + 1);
        ck_assert_int_eq(res.stats.contradictions, res.stats.restarts);
    }
    test_fixture_free(&f);
}
END_TEST

/* bp-backtrack on Easy #1: no backtracking needed, 50 root sweeps and 4
 * per node. */
START_TEST(test_backtrack_counts)
{
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;

    ck_assert_int_eq(run(&fgm_solver_bp_backtrack, f.csp, SEED000_EASY1, 0,
                         0, NULL, NULL, &res), FGM_OK);
    ck_assert_int_eq(res.stats.decisions, 36);
    ck_assert_int_eq(res.stats.nodes, 37);
    ck_assert_int_eq(res.stats.sweeps, 50 + 4 * 36);
    test_fixture_free(&f);
}
END_TEST

/* The same seed gives the same counts and the same answer, on a new
 * runner or on the same one after another puzzle.  The Medium grid makes
 * bp-decimate restart, so its random tie-breaks are exercised. */
START_TEST(test_deterministic)
{
    const fgm_solver *s = solvers[_i];
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    int given[81], other[81], a[81], b[81], k;
    fgm_solve_result ra, rb;
    fgm_solve_opts o;
    fgm_runner *r;
    fgm_status st;
    const char *why;

    interpreted(&o);
    test_given(SEED000_MEDIUM2, given);
    test_given(SEED000_EASY2, other);
    run(s, f.csp, SEED000_MEDIUM2, 7, 0, NULL, a, &ra);
    r = fgm_runner_new(s, f.csp, &o, &st, &why);
    ck_assert_ptr_nonnull(r);
    fgm_runner_solve(r, other, 7, 0, b, &rb);
    fgm_runner_solve(r, given, 7, 0, b, &rb);
    fgm_runner_free(r);
    ck_assert_int_eq(ra.status, rb.status);
    ck_assert_int_eq(ra.solved, rb.solved);
    ck_assert_int_eq(ra.stats.nodes, rb.stats.nodes);
    ck_assert_int_eq(ra.stats.inferences, rb.stats.inferences);
    ck_assert_int_eq(ra.stats.decisions, rb.stats.decisions);
    ck_assert_int_eq(ra.stats.restarts, rb.stats.restarts);
    ck_assert_int_eq(ra.stats.contradictions, rb.stats.contradictions);
    ck_assert_int_eq(ra.stats.sweeps, rb.stats.sweeps);
    for (k = 0; k < 81; k++)
        ck_assert_int_eq(a[k], b[k]);
    test_fixture_free(&f);
}
END_TEST

/* Not only 9x9 Sudoku: a 4x4 Sudoku and a 5x5 Latin square. */
START_TEST(test_small_models)
{
    const fgm_solver *s = solvers[_i];
    test_fixture f4 = test_fixture_new(fgm_ir_sudoku(2));
    test_fixture f5 = test_fixture_new(fgm_ir_latin(5));
    fgm_solve_result res;

    ck_assert_int_eq(run(s, f4.csp, SUDOKU4, 1, 0, NULL, NULL, &res),
                     FGM_OK);
    ck_assert_msg(res.solved, "%s solves a 4x4 Sudoku", s->name);
    ck_assert_int_eq(run(s, f5.csp, LATIN5, 1, 0, NULL, NULL, &res),
                     FGM_OK);
    ck_assert_msg(res.solved, "%s solves a 5x5 Latin square", s->name);
    test_fixture_free(&f4);
    test_fixture_free(&f5);
}
END_TEST

/* ------------------------------------------------------------------------
 * limits
 * ---------------------------------------------------------------------- */

/* ep-hybrid never runs more than 60 inferences; on top95 #4 it gives up.
 * Five sweeps per inference keep the test short: the budget counts
 * inferences, whatever their length. */
START_TEST(test_hybrid_budget)
{
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;
    fgm_solve_opts o;
    fgm_status st;

    interpreted(&o);
    o.iterations = 5;
    st = run(&fgm_solver_ep_hybrid, f.csp, TOP95_4, 3, 0, &o, NULL, &res);
    ck_assert_int_le(res.stats.inferences, 60);
    ck_assert_int_eq(res.stats.sweeps, 5 * res.stats.inferences);
    if (st != FGM_OK) {
        ck_assert_int_eq(st, FGM_EUNSOLVED);
        ck_assert_int_eq(res.stats.inferences, 60);
    }
    test_fixture_free(&f);
}
END_TEST

/* bp-backtrack with too little memory for a state per level drops saved
 * states and recomputes them by replaying decisions: the same search
 * (nodes, decisions, contradictions, outcome) with more sweeps.  Both
 * Medium grids backtrack until the 300-node budget stops them (a
 * different message anywhere would change a branching cell and the
 * counts); a budget of 1 byte keeps two states, 1.5 MB three on 9x9
 * (0.43 MB each). */
START_TEST(test_backtrack_replay)
{
    /* One budget a grid: the replays take 15x the sweeps. */
    const char *const grids[] = { SEED000_MEDIUM1, SEED000_MEDIUM2 };
    const size_t budgets[] = { 1500000, 1 };
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res, res2;
    fgm_solve_opts o;
    size_t g;

    for (g = 0; g < sizeof grids / sizeof *grids; g++) {
        ck_assert_int_eq(run(&fgm_solver_bp_backtrack, f.csp, grids[g], 0,
                             0, NULL, NULL, &res), FGM_EUNSOLVED);
        ck_assert_int_gt(res.stats.decisions, res.stats.nodes);
        interpreted(&o);
        o.search_bytes = budgets[g];
        ck_assert_int_eq(run(&fgm_solver_bp_backtrack, f.csp, grids[g], 0,
                             0, &o, NULL, &res2), FGM_EUNSOLVED);
        ck_assert_int_eq(res2.stats.nodes, res.stats.nodes);
        ck_assert_int_eq(res2.stats.decisions, res.stats.decisions);
        ck_assert_int_eq(res2.stats.contradictions, res.stats.contradictions);
        ck_assert_int_gt(res2.stats.sweeps, res.stats.sweeps);
    }
    test_fixture_free(&f);
}
END_TEST

/* bp-backtrack stops after 300 nodes (301 run: the seed tests the budget
 * before counting); bp-decimate after 4 attempts. */
START_TEST(test_bp_budgets)
{
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;
    fgm_status st;

    st = run(&fgm_solver_bp_backtrack, f.csp, SEED000_MEDIUM1, 2, 0, NULL,
             NULL, &res);
    ck_assert_int_le(res.stats.nodes, 301);
    if (st != FGM_OK)
        ck_assert_int_eq(st, FGM_EUNSOLVED);
    st = run(&fgm_solver_bp_decimate, f.csp, SEED000_MEDIUM2, 3, 0, NULL,
             NULL, &res);
    ck_assert_int_le(res.stats.restarts, 4);
    if (st != FGM_OK) {
        ck_assert_int_eq(st, FGM_EUNSOLVED);
        ck_assert_int_eq(res.stats.restarts, 4);
    }
    test_fixture_free(&f);
}
END_TEST

/* A deadline of 1 ms passes during the first inferences of a hard grid.
 * ep-hybrid3 solves that grid in less (one inference of one sweep), so
 * its one inference gets a million sweeps, which the deadline cuts. */
START_TEST(test_timeout)
{
    const fgm_solver *s = solvers[_i];
    test_fixture f = test_fixture_new(fgm_ir_sudoku(3));
    fgm_solve_result res;
    fgm_solve_opts o;

    interpreted(&o);
    if (s == &fgm_solver_ep_hybrid3)
        o.iterations = FGM_MAX_ITERATIONS;
    ck_assert_int_eq(run(s, f.csp, SEED000_MEDIUM1, 1, 1.0, &o, NULL,
                         &res), FGM_ETIMEOUT);
    ck_assert_int_eq(res.solved, 0);
    test_fixture_free(&f);
}
END_TEST

/* ------------------------------------------------------------------------
 * errors
 * ---------------------------------------------------------------------- */

static void
count_diag(void *ctx, const char *msg)
{
    (void)msg;
    ++*(int *)ctx;
}

/* The compiled backend with no C compiler: the runner cannot be made, and
 * the reason was reported. */
START_TEST(test_no_compiler)
{
    const fgm_solver *s = solvers[_i];
    test_fixture f = test_fixture_new(fgm_ir_sudoku(2));
    char dir[] = "/tmp/fgm_solvers_XXXXXX", cmd[64];
    fgm_solve_opts o;
    fgm_status st;
    const char *why;
    int said = 0;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    memset(&o, 0, sizeof o);
    o.backend = FGM_BACKEND_COMPILED;
    o.out_dir = dir;
    o.cc = "/nonexistent/cc";
    o.diag = count_diag;
    o.diag_ctx = &said;
    ck_assert_ptr_null(fgm_runner_new(s, f.csp, &o, &st, &why));
    ck_assert_int_eq(st, FGM_EUNSUPPORTED);
    ck_assert_msg(said > 0, "%s says why it has no model", s->name);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    test_fixture_free(&f);
}
END_TEST

Suite *
solvers_suite(void)
{
    Suite *s = suite_create("solvers");
    TCase *core = tcase_create("core"), *limits = tcase_create("limits");
    TCase *errors = tcase_create("errors");
    int n = (int)FGM_COUNTOF(solvers);

    tcase_set_timeout(core, 60);
    tcase_set_timeout(limits, 120);
    tcase_set_timeout(errors, 30);
    tcase_add_loop_test(core, test_easy_grids, 0, n);
    tcase_add_test(core, test_hybrid_medium);
    tcase_add_test(core, test_dirichlet_mode);
    tcase_add_test(core, test_hybrid3_one_inference);
    tcase_add_test(core, test_hybrid3_corpora);
    tcase_add_test(core, test_decimate_counts);
    tcase_add_test(core, test_decimate2_rounds);
    tcase_add_test(core, test_decimate3);
    tcase_add_test(core, test_decimate_fix_per_round);
    tcase_add_test(core, test_backtrack_counts);
    tcase_add_loop_test(core, test_deterministic, 0, n);
    tcase_add_loop_test(core, test_small_models, 0, n);
    tcase_add_test(limits, test_hybrid_budget);
    tcase_add_test(limits, test_bp_budgets);
    tcase_add_test(limits, test_backtrack_replay);
    tcase_add_loop_test(limits, test_timeout, 0, n);
    tcase_add_loop_test(errors, test_no_compiler, 0, n);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    suite_add_tcase(s, errors);
    return s;
}
