/* tests/check_exact.c: the search solvers backtrack, mrv, ac3, fc and mac.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every solve goes through the runner (solve/run.h), which verifies the
 * returned assignment against all factors and the clues; a test asserting
 * res.solved therefore also asserts validity.  Node counts of backtrack,
 * mrv and ac3 on the three grids of seed notebook 003 must equal the
 * seed's call counts exactly.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "../runtime/solve/run.h"
#include "testutil.h"
#include "suites.h"

static const fgm_solver *const solvers[] = {
    &fgm_solver_backtrack,
    &fgm_solver_mrv,
    &fgm_solver_ac3,
    &fgm_solver_fc,
    &fgm_solver_mac,
};
#define NSOLVERS ((int)(sizeof solvers / sizeof solvers[0]))

/* Solves GIVEN on IR with SOLVER; SOL gets the solution.  Returns the
 * status; *RES gets the runner's result. */
static fgm_status
run_on(const fgm_solver *solver, const fgm_ir *ir, const int *given,
       const fgm_solve_opts *opts, double timeout_ms, int *sol,
       fgm_solve_result *res)
{
    fgm_status st;
    const char *why;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    fgm_runner *r;

    ck_assert_msg(csp != NULL, "csp builds for %s", ir->name);
    r = fgm_runner_new(solver, csp, opts, &st, &why);
    ck_assert_msg(r != NULL, "%s accepts %s", solver->name, ir->name);
    st = fgm_runner_solve(r, given, 1, timeout_ms, sol, res);
    fgm_runner_free(r);
    fgm_csp_free(csp);
    return st;
}

/* Solves a one-line Sudoku of box side BOX; asserts a verified solution
 * and returns the node count. */
static long
solve_grid(const fgm_solver *solver, int box, const char *line,
           const fgm_solve_opts *opts)
{
    fgm_ir *ir = fgm_ir_sudoku(box);
    int given[FGM_PUZZLE_MAXCELLS], sol[FGM_PUZZLE_MAXCELLS];
    fgm_solve_result res;

    ck_assert_ptr_nonnull(ir);
    ck_assert_int_eq(test_given(line, given), ir->nvars);
    ck_assert_msg(run_on(solver, ir, given, opts, 0, sol, &res) == FGM_OK
                  && res.solved,
                  "%s solves %.20s... (status %s)", solver->name, line,
                  fgm_strerror(res.status));
    fgm_ir_free(ir);
    return res.stats.nodes;
}

/* ---- core --------------------------------------------------------------- */

/* Seed 003's call counts: {solver, grid, calls}. */
static const struct {
    int solver;
    const char *grid;
    long calls;
} parity[] = {
    { 0, SEED003_EASY, 4209 },
    { 0, SEED003_MEDIUM, 55 },
    { 0, SEED003_HARD, 879418 },
    { 1, SEED003_EASY, 52 },
    { 1, SEED003_MEDIUM, 46 },
    { 1, SEED003_HARD, 5565 },
    { 2, SEED003_EASY, 82 },
    { 2, SEED003_MEDIUM, 82 },
    { 2, SEED003_HARD, 981113 },
};

START_TEST(test_seed003_parity)
{
    const fgm_solver *s = solvers[parity[_i].solver];
    long nodes = solve_grid(s, 3, parity[_i].grid, NULL);

    ck_assert_msg(nodes == parity[_i].calls,
                  "%s on seed 003 grid %d: %ld nodes, seed counts %ld",
                  s->name, _i % 3, nodes, parity[_i].calls);
}
END_TEST

START_TEST(test_seed_grids_all)
{
    /* fc and mac (and mrv with lcv) have no seed count: solve, verify,
     * and pin this project's counts, so that a heuristic broken in a way
     * that still solves (mac's dom/wdeg weights left at 1: 410 nodes on
     * the hard grid; lcv's order reversed: 6365) does not pass. */
    static const char *const grids[] = {
        SEED003_EASY, SEED003_MEDIUM, SEED003_HARD
    };
    static const long fc[3] = { 52, 46, 5160 }, mac[3] = { 1, 1, 177 };
    static const long lcv_nodes[3] = { 52, 46, 2448 };
    fgm_solve_opts lcv = { .lcv = 1 };
    int g;

    for (g = 0; g < 3; g++) {
        ck_assert_int_eq(solve_grid(&fgm_solver_fc, 3, grids[g], NULL),
                         fc[g]);
        ck_assert_int_eq(solve_grid(&fgm_solver_mac, 3, grids[g], NULL),
                         mac[g]);
        ck_assert_int_eq(solve_grid(&fgm_solver_mrv, 3, grids[g], &lcv),
                         lcv_nodes[g]);
    }
}
END_TEST

/* The CSV's decisions and contradictions: every node but the root
 * follows a value set at a branch point, and a grid that takes a search
 * meets dead ends (they were 0 for all but norvig). */
START_TEST(test_search_counters)
{
    static const fgm_solver *const all[] = {
        &fgm_solver_backtrack, &fgm_solver_mrv, &fgm_solver_ac3,
        &fgm_solver_fc, &fgm_solver_mac, &fgm_solver_dlx,
        &fgm_solver_norvig,
    };
    fgm_ir *ir = fgm_ir_sudoku(3);
    int given[81], sol[81];
    fgm_solve_result res;
    size_t i;

    for (i = 0; i < sizeof all / sizeof all[0]; i++) {
        test_given(SEED003_HARD, given);
        ck_assert_int_eq(run_on(all[i], ir, given, NULL, 0, sol, &res),
                         FGM_OK);
        ck_assert_msg(res.stats.decisions >= res.stats.nodes - 1
                      && res.stats.contradictions > 0,
                      "%s: %ld nodes, %ld decisions, %ld contradictions",
                      all[i]->name, res.stats.nodes, res.stats.decisions,
                      res.stats.contradictions);
    }
    /* Singles solve the easy grid: mac sets no value. */
    test_given(SEED003_EASY, given);
    ck_assert_int_eq(run_on(&fgm_solver_mac, ir, given, NULL, 0, sol, &res),
                     FGM_OK);
    ck_assert_int_eq(res.stats.decisions, 0);
    ck_assert_int_eq(res.stats.contradictions, 0);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_mac_propagates)
{
    /* The easy grid falls to naked singles: no decision, one node. */
    ck_assert_int_eq(solve_grid(&fgm_solver_mac, 3, SEED003_EASY, NULL), 1);
}
END_TEST

START_TEST(test_sudoku4)
{
    static const char grid[] = "1.3." ".4.2" "2..3" ".3.1";

    solve_grid(solvers[_i], 2, grid, NULL);
}
END_TEST

/* A 16x16 grid: the pattern solution ((r*B + r/B + c) % N) with 40% of the
 * cells blanked by a fixed hash. */
START_TEST(test_sudoku16)
{
    char line[257];
    int r, c;

    for (r = 0; r < 16; r++)
        for (c = 0; c < 16; c++) {
            int v = (r * 4 + r / 4 + c) % 16 + 1;

            line[r * 16 + c] = (r * 7 + c * 13) % 5 < 2 ? '.'
                               : v <= 9 ? (char)('0' + v)
                               : (char)('A' + v - 10);
        }
    line[256] = '\0';
    solve_grid(solvers[_i], 4, line, NULL);
}
END_TEST

START_TEST(test_latin5)
{
    fgm_ir *ir = fgm_ir_latin(5);
    int given[25], sol[25], v;
    fgm_solve_result res;

    for (v = 0; v < 25; v++)
        given[v] = -1;
    given[0] = 4;       /* corner clues so the answer is not the identity */
    given[24] = 0;
    given[7] = 2;
    ck_assert_int_eq(run_on(solvers[_i], ir, given, NULL, 0, sol, &res),
                     FGM_OK);
    ck_assert_msg(res.solved, "%s solves a 5x5 Latin square",
                  solvers[_i]->name);
    ck_assert_int_eq(sol[0], 4);
    ck_assert_int_eq(sol[24], 0);
    fgm_ir_free(ir);
}
END_TEST

/* x[3] in 0..2; table x0 < x1, table x1 < x2, neq(x0, x2).  Unique
 * solution 0 1 2. */
static fgm_ir *
ir_chain(void)
{
    fgm_ir *ir = fgm_ir_new("chain");
    fgm_status st;
    double less[9];
    int dims[1] = { 3 }, s01[2] = { 0, 1 }, s12[2] = { 1, 2 };
    int s02[2] = { 0, 2 }, a, b;

    ck_assert_ptr_nonnull(ir);
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++)
            less[a * 3 + b] = a < b ? 1.0 : 0.0;
    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 3, 0, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, s01, 9,
                                       less, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, s12, 9,
                                       less, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_NEQ, 2, s02, 0, NULL,
                                       &st), 0);
    return ir;
}

/* x[3] in 0..2; alldiff and a 3-ary table allowing only x0 > x1 > x2,
 * written with weights 0.5 to check that any nonzero weight allows. */
static fgm_ir *
ir_descending(void)
{
    fgm_ir *ir = fgm_ir_new("descending");
    fgm_status st;
    double t[27];
    int dims[1] = { 3 }, s[3] = { 0, 1, 2 }, a, b, c;

    ck_assert_ptr_nonnull(ir);
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++)
            for (c = 0; c < 3; c++)
                t[(a * 3 + b) * 3 + c] = a > b && b > c ? 0.5 : 0.0;
    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 3, 0, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, 3, s, 0,
                                       NULL, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 3, s, 27, t,
                                       &st), 0);
    return ir;
}

START_TEST(test_tables)
{
    int given[3] = { -1, -1, -1 }, sol[3];
    fgm_solve_result res;
    fgm_ir *ir = ir_chain();

    ck_assert_int_eq(run_on(solvers[_i], ir, given, NULL, 0, sol, &res),
                     FGM_OK);
    ck_assert_msg(sol[0] == 0 && sol[1] == 1 && sol[2] == 2,
                  "%s: chain x0 < x1 < x2 gives 0 1 2, got %d %d %d",
                  solvers[_i]->name, sol[0], sol[1], sol[2]);
    fgm_ir_free(ir);
    ir = ir_descending();
    ck_assert_int_eq(run_on(solvers[_i], ir, given, NULL, 0, sol, &res),
                     FGM_OK);
    ck_assert_msg(sol[0] == 2 && sol[1] == 1 && sol[2] == 0,
                  "%s: 3-ary table x0 > x1 > x2 gives 2 1 0, got %d %d %d",
                  solvers[_i]->name, sol[0], sol[1], sol[2]);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_evidence)
{
    /* x[3] in 0..2, alldiff; evidence bars 0 from x0 and 2 from x1, and x2
     * is given 1: the only solution is 2 0 1. */
    fgm_ir *ir = fgm_ir_new("evidence");
    fgm_status st;
    double no0[3] = { 0, 1, 1 }, no2[3] = { 1, 1, 0 };
    int dims[1] = { 3 }, s[3] = { 0, 1, 2 }, v0 = 0, v1 = 1;
    int given[3] = { -1, -1, 1 }, sol[3];
    fgm_solve_result res;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 3, 0, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, 3, s, 0,
                                       NULL, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, &v0, 3,
                                       no0, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, &v1, 3,
                                       no2, &st), 0);
    ck_assert_int_eq(run_on(solvers[_i], ir, given, NULL, 0, sol, &res),
                     FGM_OK);
    ck_assert_msg(sol[0] == 2 && sol[1] == 0 && sol[2] == 1,
                  "%s: evidence leaves 2 0 1, got %d %d %d",
                  solvers[_i]->name, sol[0], sol[1], sol[2]);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_workspace_reuse)
{
    /* One runner, the same puzzle twice (with another in between): the
     * same answer and node count, so no state leaks between solves. */
    fgm_ir *ir = fgm_ir_sudoku(3);
    fgm_status st;
    const char *why;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    fgm_runner *r = fgm_runner_new(solvers[_i], csp, NULL, &st, &why);
    int given[81], other[81], sol1[81], sol2[81];
    fgm_solve_result res1, res2;

    ck_assert_ptr_nonnull(r);
    test_given(SEED003_MEDIUM, given);
    test_given(SEED003_EASY, other);
    ck_assert_int_eq(fgm_runner_solve(r, given, 1, 0, sol1, &res1), FGM_OK);
    ck_assert_int_eq(fgm_runner_solve(r, other, 1, 0, sol2, &res2), FGM_OK);
    ck_assert_int_eq(fgm_runner_solve(r, given, 1, 0, sol2, &res2), FGM_OK);
    ck_assert_int_eq(res1.stats.nodes, res2.stats.nodes);
    ck_assert_mem_eq(sol1, sol2, sizeof sol1);
    fgm_runner_free(r);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* fgm_csp_conflicts, the seed's NbErrors: on the grid notebook 000's
 * robust solver returned for its Medium grid (the notebook prints it with
 * "Nombre d'erreurs restantes: 37") it counts 37, where 38 cells sit in a
 * violated unit; 0 on a solution; a changed clue and an empty cell count
 * once each. */
START_TEST(test_conflicts)
{
    static const char *const seed_robust =
        "851992437726344869964518127989167352375824914142393717"
        "433581275417295693599736148";
    static const char *const full =
        "534678912672195348198342567859761423426853791713924856"
        "961537284287419635345286179";
    fgm_ir *ir = fgm_ir_sudoku(3);
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    int a[81], given[81], i;

    ck_assert_ptr_nonnull(csp);
    for (i = 0; i < 81; i++)
        a[i] = seed_robust[i] - '1';
    ck_assert_int_eq(fgm_csp_conflicts(csp, NULL, a), 37);
    for (i = 0; i < 81; i++)
        a[i] = given[i] = full[i] - '1';
    ck_assert_int_eq(fgm_csp_conflicts(csp, given, a), 0);
    a[0] = 5;           /* a second 6 in row 0, column 0 and box 0 */
    ck_assert_int_eq(fgm_csp_conflicts(csp, NULL, a), 3);
    ck_assert_int_eq(fgm_csp_conflicts(csp, given, a), 4);
    a[0] = -1;          /* left empty: counted once, no conflict */
    ck_assert_int_eq(fgm_csp_conflicts(csp, given, a), 1);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* fgm_csp_conflicts on the other factors: a table, an evidence and a sum
 * that the answer gives weight 0 count once each, and not while one of
 * their variables is left empty (which counts once itself). */
START_TEST(test_conflicts_factors)
{
    static const struct {
        int a[4];
        long errors;
    } cases[] = {
        { { 0, 0, 0, 0 }, 0 },
        { { 0, 1, 0, 0 }, 1 },      /* the table's 0 */
        { { 0, 0, 1, 0 }, 1 },      /* the evidence's 0 */
        { { 0, 2, 0, 1 }, 1 },      /* the sum, 2 + 2 * 1 > 3 */
        { { 0, 1, 1, 2 }, 3 },      /* all three */
        { { -1, 1, 1, -1 }, 3 },    /* two empty cells, the evidence */
    };
    fgm_ir *ir = compile_text("var x[4] in 0..2\n"
                              "table (x[0], x[1]) = [[1, 0, 1], [1, 1, 1], "
                              "[1, 1, 1]]\n"
                              "evidence x[2] = [1, 0, 2]\n"
                              "sum(x[1], 2 * x[3]) <= 3\n");
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    size_t i;

    ck_assert_ptr_nonnull(csp);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(fgm_csp_conflicts(csp, NULL, cases[i].a)
                      == cases[i].errors, "case %zu: %ld errors, want %ld",
                      i, fgm_csp_conflicts(csp, NULL, cases[i].a),
                      cases[i].errors);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* fgm_csp_verify refuses each way an answer can be wrong, and takes the
 * right one beside it (every other test gives it right answers only,
 * and a check taken out of it went unnoticed: a mutation test). */
static void
verify_case(const char *text, const int *given, const int *good,
            const int *bad)
{
    fgm_ir *ir = compile_text(text);
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);

    ck_assert_ptr_nonnull(csp);
    ck_assert_msg(fgm_csp_verify(csp, given, good), "%s: refused %d %d",
                  text, good[0], good[1]);
    ck_assert_msg(!fgm_csp_verify(csp, given, bad), "%s: took %d %d", text,
                  bad[0], bad[1]);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}

START_TEST(test_verify_rejects)
{
    static const char *const neq = "var x[2] in 0..2\nx[0] != x[1]\n";
    static const int g01[2] = { 0, 1 }, g10[2] = { 1, 0 }, g11[2] = { 1, 1 };
    static const int g03[2] = { 0, 3 }, gm1[2] = { -1, 1 };
    static const int g21[2] = { 2, 1 }, clue2[2] = { 2, -1 };

    verify_case(neq, NULL, g01, g11);               /* a repeat */
    verify_case(neq, NULL, g01, g03);               /* past the domain */
    verify_case(neq, NULL, g01, gm1);               /* left empty */
    verify_case(neq, clue2, g21, g01);              /* a clue changed */
    verify_case("var x[2] in 0..1\ntable (x[0], x[1]) = [[1, 0], [0, 1]]\n",
                NULL, g11, g01);                    /* a zero of a table */
    verify_case("var x[2] in 0..1\nevidence x[0] = [0, 1]\n", NULL, g10,
                g01);                               /* a zero of evidence */
    verify_case("var x[2] in 0..1\nsum(x[0], x[1]) <= 1\n", NULL, g10,
                g11);                               /* a sum out of range */
}
END_TEST

/* ---- limits ------------------------------------------------------------- */

START_TEST(test_empty_grid)
{
    static const char *const empty =
        "................................................................."
        "................";

    solve_grid(solvers[_i], 3, empty, NULL);
}
END_TEST

START_TEST(test_full_grid)
{
    /* A complete grid: nothing to search.  backtrack and mrv count one
     * call; ac3 picks all 81 singletons (82 calls), as in the seed. */
    static const char *const full =
        "534678912672195348198342567859761423426853791713924856"
        "961537284287419635345286179";
    static const long want[] = { 1, 1, 82, 1, 1 };

    ck_assert_int_eq(solve_grid(solvers[_i], 3, full, NULL), want[_i]);
}
END_TEST

START_TEST(test_timeout)
{
    /* The hard grid takes backtrack and ac3 about a million nodes. */
    fgm_ir *ir = fgm_ir_sudoku(3);
    int given[81], sol[81];
    fgm_solve_result res;
    const fgm_solver *s = _i == 0 ? &fgm_solver_backtrack : &fgm_solver_ac3;

    test_given(SEED003_HARD, given);
    ck_assert_int_eq(run_on(s, ir, given, NULL, 1.0, sol, &res),
                     FGM_ETIMEOUT);
    ck_assert(!res.solved);
    ck_assert_msg(res.stats.nodes < 879418, "%s stopped early (%ld nodes)",
                  s->name, res.stats.nodes);
    fgm_ir_free(ir);
}
END_TEST

/* ---- errors ------------------------------------------------------------- */

static void
expect_unsolved(const fgm_solver *solver, fgm_ir *ir, const int *given,
                const char *what)
{
    int sol[FGM_PUZZLE_MAXCELLS];
    fgm_solve_result res;

    ck_assert_msg(run_on(solver, ir, given, NULL, 0, sol, &res)
                  == FGM_EUNSOLVED && !res.solved,
                  "%s proves no solution: %s (status %s)", solver->name,
                  what, fgm_strerror(res.status));
}

START_TEST(test_unsat_no_candidate)
{
    /* Cell (0,0) of a 4x4 grid sees 1 and 2 in its row, 3 and 4 in its
     * column: no candidate, though no clue repeats another. */
    fgm_ir *ir = fgm_ir_sudoku(2);
    int given[16];

    test_given(".12." "...." "3..." "4...", given);
    expect_unsolved(solvers[_i], ir, given, "a cell with no candidate");
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_unsat_deep)
{
    /* No clue repeats another and every cell has a candidate at the
     * start: row 0 needs 3 and 4 in cells (0,2) and (0,3), but column 2
     * and the top-right box already hold a 4, so both cells can only be
     * 3.  Found by propagation (ac3, mac) or by search (the others). */
    fgm_ir *ir = fgm_ir_sudoku(2);
    int given[16];

    test_given("12.." "...4" "..4." "....", given);
    expect_unsolved(solvers[_i], ir, given, "row 0 cannot place its 4");
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_bad_clues)
{
    fgm_ir *ir = fgm_ir_sudoku(2);
    int given[16];

    test_given("11.." "...." "...." "....", given);
    expect_unsolved(solvers[_i], ir, given, "two 1s in a row");
    test_given("1..." "...." "...." "....", given);
    given[5] = 7;       /* value index out of the 4-value domain */
    expect_unsolved(solvers[_i], ir, given, "a clue out of its domain");
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_unsat_table)
{
    /* The chain model with x0 given 2: nothing is greater. */
    fgm_ir *ir = ir_chain();
    int given[3] = { 2, -1, -1 };

    expect_unsolved(solvers[_i], ir, given, "x0 = 2 < x1 in 0..2");
    fgm_ir_free(ir);
}
END_TEST

Suite *
exact_suite(void)
{
    Suite *s = suite_create("exact");
    TCase *core = tcase_create("core"), *limits = tcase_create("limits");
    TCase *errors = tcase_create("errors");

    /* The hard grid costs backtrack and ac3 about a million nodes: about
     * a second each, several times that under the sanitizers. */
    tcase_set_timeout(core, 60);
    tcase_set_timeout(limits, 60);
    tcase_set_timeout(errors, 10);
    tcase_add_loop_test(core, test_seed003_parity, 0,
                        (int)(sizeof parity / sizeof parity[0]));
    tcase_add_test(core, test_seed_grids_all);
    tcase_add_test(core, test_mac_propagates);
    tcase_add_test(core, test_search_counters);
    tcase_add_test(core, test_conflicts);
    tcase_add_test(core, test_conflicts_factors);
    tcase_add_test(core, test_verify_rejects);
    tcase_add_loop_test(core, test_sudoku4, 0, NSOLVERS);
    tcase_add_loop_test(core, test_latin5, 0, NSOLVERS);
    tcase_add_loop_test(core, test_tables, 0, NSOLVERS);
    tcase_add_loop_test(core, test_evidence, 0, NSOLVERS);
    tcase_add_loop_test(core, test_workspace_reuse, 0, NSOLVERS);
    tcase_add_loop_test(limits, test_sudoku16, 0, NSOLVERS);
    tcase_add_loop_test(limits, test_empty_grid, 0, NSOLVERS);
    tcase_add_loop_test(limits, test_full_grid, 0, NSOLVERS);
    tcase_add_loop_test(limits, test_timeout, 0, 2);
    tcase_add_loop_test(errors, test_unsat_no_candidate, 0, NSOLVERS);
    tcase_add_loop_test(errors, test_unsat_deep, 0, NSOLVERS);
    tcase_add_loop_test(errors, test_bad_clues, 0, NSOLVERS);
    tcase_add_loop_test(errors, test_unsat_table, 0, NSOLVERS);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    suite_add_tcase(s, errors);
    return s;
}
