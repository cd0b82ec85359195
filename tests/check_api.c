/* tests/check_api.c: the public API as a user sees it: fgm.h and nothing else.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fgm tool is written on these calls only; here each is checked on
 * its own, with answers verified independently of the solver that gave
 * them (rows, columns and boxes of a Sudoku checked by hand).
 */
#include <check.h>
#include <pthread.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../runtime/fgm.h"
#include "suites.h"

/* Seed notebook 003's Easy grid (tests/testutil.h has the same one). */
#define EASY \
    "530070000600195000098000060800060003400803001700020006" \
    "060000280000419005000080079"

static fgm_puzzle
puzzle(const char *text)
{
    fgm_puzzle p;

    ck_assert_int_eq(fgm_puzzle_parse(text, "t", 0, 0, &p, NULL, NULL),
                     FGM_OK);
    return p;
}

/* Whether S is a full Sudoku of box side B that keeps every clue of P. */
static int
valid_sudoku(const fgm_puzzle *p, const fgm_puzzle *s, int b)
{
    int n = b * b, i, j, k;

    for (i = 0; i < n * n; i++)
        if (s->cells[i] < 1 || s->cells[i] > n
            || (p->cells[i] && p->cells[i] != s->cells[i]))
            return 0;
    for (i = 0; i < n; i++) {
        unsigned row = 0, col = 0, box = 0;

        for (j = 0; j < n; j++) {
            row |= 1u << s->cells[i * n + j];
            col |= 1u << s->cells[j * n + i];
            k = ((i / b) * b + j / b) * n + (i % b) * b + j % b;
            box |= 1u << s->cells[k];
        }
        if (row != col || row != box || row != ((1u << (n + 1)) - 2))
            return 0;
    }
    return 1;
}

/* ---- core ------------------------------------------------------------ */

START_TEST(test_solver_registry)
{
    int i, n = fgm_solver_count(), exact = 0;

    ck_assert_msg(n >= 7, "the registry lists the seeds' solvers");
    for (i = 0; i < n; i++) {
        const fgm_solver *s = fgm_solver_at(i);

        ck_assert_ptr_nonnull(s);
        ck_assert_msg(fgm_solver_find(fgm_solver_name(s)) == s,
                      "solver %d is found by its name", i);
        ck_assert_msg(*fgm_solver_summary(s), "solver %d has a summary", i);
        exact += (fgm_solver_flags(s) & FGM_SOLVER_EXACT) != 0;
    }
    ck_assert_int_gt(exact, 0);
    ck_assert(fgm_solver_flags(fgm_solver_find("dlx")) & FGM_SOLVER_EXACT);
    ck_assert(!(fgm_solver_flags(fgm_solver_find("ep-robust"))
                & FGM_SOLVER_EXACT));
    /* The solvers that read max_restarts say so (the CLI's --restarts
     * check reads the flag). */
    ck_assert(fgm_solver_flags(fgm_solver_find("alldiff-max"))
              & FGM_SOLVER_RESTARTS);
    ck_assert(fgm_solver_flags(fgm_solver_find("bp-decimate3"))
              & FGM_SOLVER_RESTARTS);
    ck_assert(!(fgm_solver_flags(fgm_solver_find("bp-decimate"))
                & FGM_SOLVER_RESTARTS));
}
END_TEST

/* Every exact solver solves the Easy grid, and the answer is a Sudoku. */
START_TEST(test_solve_puzzle_exact)
{
    fgm_puzzle p = puzzle(EASY), s;
    fgm_ir *ir = fgm_ir_sudoku(3);
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    fgm_solve_result res;
    int i;

    ck_assert_ptr_nonnull(csp);
    for (i = 0; i < fgm_solver_count(); i++) {
        const fgm_solver *sv = fgm_solver_at(i);

        if (!(fgm_solver_flags(sv) & FGM_SOLVER_EXACT))
            continue;
        memset(&s, 0, sizeof s);
        st = fgm_solve_puzzle(sv, csp, NULL, &p, 0, 0, &s, &res);
        ck_assert_msg(st == FGM_OK && res.solved && res.valid,
                      "%s solves Easy (%s)", fgm_solver_name(sv),
                      fgm_strerror(st));
        ck_assert_msg(valid_sudoku(&p, &s, 3), "%s's answer is a Sudoku",
                      fgm_solver_name(sv));
        ck_assert_int_eq(res.status, FGM_OK);
    }
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* A probabilistic solver through the same call, on the robust model. */
START_TEST(test_solve_puzzle_ep)
{
    fgm_puzzle p = puzzle(EASY), s;
    fgm_ir *plain = fgm_ir_sudoku(3), *ir = fgm_ir_robust(plain);
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    fgm_solve_opts so;
    fgm_solve_result res;

    memset(&so, 0, sizeof so);
    so.backend = FGM_BACKEND_INTERPRETED;
    st = fgm_solve_puzzle(fgm_solver_find("ep-robust"), csp, &so, &p, 1, 0,
                          &s, &res);
    ck_assert_msg(st == FGM_OK && res.solved, "ep-robust solves Easy: %s",
                  fgm_strerror(st));
    ck_assert(valid_sudoku(&p, &s, 3));
    ck_assert_int_eq(res.stats.inferences, 1);
    ck_assert_int_gt(res.stats.sweeps, 0);
    ck_assert_int_eq(res.stats.compiled, 0);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
    fgm_ir_free(plain);
}
END_TEST

typedef struct batch_seen {
    long n, solved, next;
    int in_order;
} batch_seen;

static int
emit(void *ctx, const fgm_batch_item *it)
{
    batch_seen *b = ctx;

    b->in_order &= it->index == b->next++;
    b->n++;
    b->solved += it->res.solved && valid_sudoku(&it->puzzle, &it->answer,
                                                it->puzzle.box);
    return 0;
}

/* A batch of TEXT's puzzles (a reader for side N, box BOX; 0, 0: any) on
 * IR (owned), mrv on one thread; batch_close frees it all. */
typedef struct batch_fixture {
    char *path;
    fgm_ir *ir;
    fgm_csp *csp;
    fgm_puzzle_reader *r;
    fgm_batch_opts bo;
} batch_fixture;

static void
batch_open(batch_fixture *b, const char *text, fgm_ir *ir, int n, int box)
{
    fgm_status st;

    b->path = temp_file(text);
    b->ir = ir;
    b->csp = fgm_csp_new(ir, &st);
    ck_assert_ptr_nonnull(b->csp);
    b->r = fgm_puzzle_reader_open(b->path, n, box, NULL, NULL);
    ck_assert_ptr_nonnull(b->r);
    memset(&b->bo, 0, sizeof b->bo);
    b->bo.solver = fgm_solver_find("mrv");
    b->bo.csp = b->csp;
    b->bo.threads = 1;
}

static void
batch_close(batch_fixture *b)
{
    fgm_puzzle_reader_close(b->r);
    unlink(b->path);
    free(b->path);
    fgm_csp_free(b->csp);
    fgm_ir_free(b->ir);
}

START_TEST(test_batch)
{
    char text[8 * 90];
    batch_fixture b;
    batch_seen seen = { 0, 0, 0, 1 };
    const char *reason = NULL;
    int i;

    text[0] = '\0';
    for (i = 0; i < 8; i++)
        strcat(strcat(text, EASY), "\n");
    batch_open(&b, text, fgm_ir_sudoku(3), 9, 3);
    b.bo.threads = 2;
    b.bo.chunk = 3;
    ck_assert_int_eq(fgm_batch_run(b.r, &b.bo, emit, &seen, &reason),
                     FGM_OK);
    ck_assert_int_eq(seen.n, 8);
    ck_assert_int_eq(seen.solved, 8);
    ck_assert_msg(seen.in_order, "items come in input order");
    batch_close(&b);
    /* A NaN timeout is refused before any puzzle is read (it was none). */
    batch_open(&b, text, fgm_ir_sudoku(3), 9, 3);
    b.bo.timeout_ms = NAN;
    seen.n = 0;
    ck_assert_int_eq(fgm_batch_run(b.r, &b.bo, emit, &seen, &reason),
                     FGM_EINVAL);
    ck_assert_int_eq(seen.n, 0);
    batch_close(&b);
}
END_TEST

/* Counts the items of a batch whose puzzles do not fit the model. */
static int
emit_misfit(void *ctx, const fgm_batch_item *it)
{
    batch_seen *b = ctx;

    ck_assert_int_eq(it->res.status, FGM_EINVAL);
    b->n++;
    b->solved += it->res.solved;
    return 0;
}

/* A batch checks each puzzle against the model as fgm_solve_puzzle does:
 * a 9x9 grid on a 4x4 model (a reader that takes any size) is an item
 * with FGM_EINVAL, not 81 clues written into a 16-variable array. */
START_TEST(test_batch_misfit)
{
    batch_fixture b;
    batch_seen seen = { 0, 0, 0, 1 };
    const char *reason = NULL;

    batch_open(&b, EASY "\n", fgm_ir_sudoku(2), 0, 0);
    ck_assert_int_eq(fgm_batch_run(b.r, &b.bo, emit_misfit, &seen, &reason),
                     FGM_OK);
    ck_assert_int_eq(seen.n, 1);
    ck_assert_int_eq(seen.solved, 0);
    batch_close(&b);
}
END_TEST

/* Variables past the grid are free in a batch, as in fgm_solve_puzzle:
 * the flags here can only be 1, so a stray clue 0 on one leaves the
 * puzzle unsolved. */
START_TEST(test_batch_extra_vars)
{
    batch_fixture b;
    fgm_ir *ir;
    batch_seen seen = { 0, 0, 0, 1 };
    const char *reason = NULL;

    ck_assert_int_eq(fgm_compile_string(
        "model extra\nvar cell[4][4] in 1..4\nvar flag[40] in 0..1\n"
        "alldiff cell[i][*] for i in 0..3\n"
        "alldiff cell[*][j] for j in 0..3\n"
        "alldiff cell[2*a .. 2*a+1][2*b .. 2*b+1] for a, b in 0..1\n"
        "evidence flag[i] = [0, 1] for i in 0..39\n", "extra.fgm", NULL,
        &ir, NULL, NULL), FGM_OK);
    batch_open(&b, "1...............\n", ir, 4, 2);
    ck_assert_int_eq(fgm_batch_run(b.r, &b.bo, emit, &seen, &reason),
                     FGM_OK);
    ck_assert_int_eq(seen.n, 1);
    ck_assert_int_eq(seen.solved, 1);
    batch_close(&b);
}
END_TEST

/* fgm_puzzle_clues writes only the CSP's variables: a puzzle of another
 * grid, or a model with none, is refused with every entry free (a 4x4
 * puzzle on a 6-variable chain wrote 16 entries). */
/* fgm_ir_grid's box side of the model TEXT (a 4x4 grid). */
static int
grid_box_of(const char *text)
{
    fgm_ir *ir = NULL;
    int n = -1, box = -7;

    ck_assert_int_eq(fgm_compile_string(text, "g.fgm", NULL, &ir, NULL,
                                        NULL), FGM_OK);
    fgm_ir_grid(ir, &n, &box);
    ck_assert_int_eq(n, 4);
    fgm_ir_free(ir);
    return box;
}

/* The units the reader checks are the model's: rows and columns both
 * alldiffs, or none checked. */
START_TEST(test_grid_units)
{
    const char *grid = "model g\nvar c[4][4] in 1..4\n";
    const char *rows = "alldiff c[i][*] for i in 0..3\n";
    const char *cols = "alldiff c[*][j] for j in 0..3\n";
    const char *boxes = "alldiff c[2*a .. 2*a+1][2*b .. 2*b+1] "
                        "for a, b in 0..1\n";
    const char *first_rows = "alldiff c[i][*] for i in 0..2\n";
    char text[512];

    snprintf(text, sizeof text, "%s%s%s%s", grid, rows, cols, boxes);
    ck_assert_int_eq(grid_box_of(text), 2);
    snprintf(text, sizeof text, "%s%s%s", grid, rows, cols);
    ck_assert_int_eq(grid_box_of(text), 0);
    snprintf(text, sizeof text, "%s%s%s", grid, rows, boxes);
    ck_assert_int_eq(grid_box_of(text), FGM_GRID_NO_UNITS);
    snprintf(text, sizeof text, "%s%s%s", grid, cols, boxes);
    ck_assert_int_eq(grid_box_of(text), FGM_GRID_NO_UNITS);
    snprintf(text, sizeof text, "%s%s%s", grid, first_rows, cols);
    ck_assert_int_eq(grid_box_of(text), FGM_GRID_NO_UNITS);
    snprintf(text, sizeof text, "%sc[0][0] != c[0][1]\n", grid);
    ck_assert_int_eq(grid_box_of(text), FGM_GRID_NO_UNITS);
}
END_TEST

START_TEST(test_puzzle_clues_fit)
{
    fgm_ir *chain, *s2 = fgm_ir_sudoku(2);
    fgm_csp *c6, *c16;
    fgm_puzzle p4 = puzzle("1..2............"), p9 = puzzle(EASY);
    int given[32], v;

    ck_assert_int_eq(fgm_compile_string("model c\nvar x[6] in 0..3\n",
                                        "c.fgm", NULL, &chain, NULL, NULL),
                     FGM_OK);
    c6 = fgm_csp_new(chain, NULL);
    c16 = fgm_csp_new(s2, NULL);
    ck_assert(c6 && c16);
    for (v = 0; v < 32; v++)
        given[v] = 7;
    ck_assert_int_eq(fgm_puzzle_clues(c6, &p4, given), FGM_EINVAL);
    for (v = 0; v < 32; v++)
        ck_assert_int_eq(given[v], v < 6 ? -1 : 7);
    ck_assert_int_eq(fgm_puzzle_clues(c16, &p9, given), FGM_EINVAL);
    for (v = 0; v < 32; v++)
        ck_assert_int_eq(given[v], v < 16 ? -1 : 7);
    ck_assert_int_eq(fgm_puzzle_clues(c16, &p4, given), FGM_OK);
    ck_assert(given[0] == 0 && given[3] == 1 && given[1] == -1
              && given[15] == -1 && given[16] == 7);
    ck_assert_int_eq(fgm_puzzle_clues(c16, NULL, given), FGM_OK);
    ck_assert(given[0] == -1 && given[16] == 7);
    ck_assert_int_eq(fgm_puzzle_clues(NULL, &p4, given), FGM_EINVAL);
    ck_assert_int_eq(fgm_puzzle_clues(c16, &p4, NULL), FGM_EINVAL);
    fgm_csp_free(c6);
    fgm_csp_free(c16);
    fgm_ir_free(chain);
    fgm_ir_free(s2);
}
END_TEST

START_TEST(test_ir_queries)
{
    fgm_ir *ir = fgm_ir_sudoku(3), *latin = fgm_ir_latin(4), *robust;
    fgm_array_info ai;
    char name[FGM_IR_MAXNAME + 32];
    int n, box, updates, edges;

    ck_assert_str_eq(fgm_ir_name(ir), "sudoku9");
    ck_assert_int_eq(fgm_ir_nvars(ir), 81);
    ck_assert_int_eq(fgm_ir_ndirichlet(ir), 0);
    ck_assert_int_eq(fgm_ir_narrays(ir), 1);
    ck_assert_int_eq(fgm_ir_array_index(ir, "cell"), 0);
    ck_assert_int_eq(fgm_ir_array_info(ir, 0, &ai), FGM_OK);
    ck_assert_str_eq(ai.name, "cell");
    ck_assert_int_eq(ai.dirichlet, 0);
    ck_assert_int_eq(ai.ndims, 2);
    ck_assert_int_eq(ai.dims[0], 9);
    ck_assert_int_eq(ai.dims[1], 9);
    ck_assert_int_eq(ai.first, 0);
    ck_assert_int_eq(ai.count, 81);
    ck_assert_int_eq(ai.lo, 1);
    ck_assert_int_eq(ai.card, 9);
    ck_assert_int_eq(fgm_ir_card(ir, 80), 9);
    ck_assert_int_eq(fgm_ir_var_array(ir, 80), 0);
    ck_assert_str_eq(fgm_ir_var_name(ir, 10, name, sizeof name),
                     "cell[1][1]");
    fgm_ir_grid(ir, &n, &box);
    ck_assert_int_eq(n, 9);
    ck_assert_int_eq(box, 3);
    fgm_ir_grid(latin, &n, &box);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(box, 0);

    ck_assert_int_eq(fgm_ir_set_name(ir, "sudoku9_B3"), FGM_OK);
    ck_assert_str_eq(fgm_ir_name(ir), "sudoku9_B3");
    ck_assert_str_eq(fgm_ir_algo(ir), "ep");
    ck_assert_int_eq(fgm_ir_set_algo(ir, "bp-sum"), FGM_OK);
    ck_assert_str_eq(fgm_ir_algo(ir), "bp-sum");
    /* Pairwise alldiff: one neq update per pair of peers, two edges each
     * (81 cells * 20 peers / 2 = 810 pairs). */
    ck_assert_int_eq(fgm_ir_schedule(ir, &updates, &edges), FGM_OK);
    ck_assert_int_eq(updates, 810);
    ck_assert_int_eq(edges, 1620);

    /* The robust model adds one observed prior per cell, same grid. */
    robust = fgm_ir_robust(ir);
    ck_assert_ptr_nonnull(robust);
    ck_assert_int_eq(fgm_ir_ndirichlet(robust), 81);
    ck_assert_int_eq(fgm_ir_node_array(robust, 0), 1);
    ck_assert_int_eq(fgm_ir_array_info(robust, 1, &ai), FGM_OK);
    ck_assert_int_eq(ai.dirichlet, 1);
    ck_assert_int_eq(ai.card, 9);
    ck_assert_str_eq(fgm_ir_node_name(robust, 0, name, sizeof name),
                     "p_cell[0][0]");
    fgm_ir_grid(robust, &n, &box);
    ck_assert_int_eq(n, 9);
    ck_assert_int_eq(box, 3);
    fgm_ir_free(robust);
    fgm_ir_free(ir);
    fgm_ir_free(latin);
}
END_TEST

/* A clue on a robust model pins its cell; clearing it frees the cell. */
START_TEST(test_observe_clue)
{
    fgm_ir *plain = fgm_ir_sudoku(2), *ir = fgm_ir_robust(plain);
    fgm_model_opts mo = { .backend = FGM_BACKEND_INTERPRETED };
    fgm_model *m;
    double p[4];

    ck_assert_int_eq(fgm_model_open_ir(ir, &mo, &m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_observe_clue(m, 0, 2), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_argmax(m, 0), 2);
    ck_assert_int_eq(fgm_model_marginal(m, 1, p), FGM_OK);
    /* A peer of the clue: its value 3 has the clue's leftover weight
     * only (FGM_CLUE_EPSILON on the other values of the clue). */
    ck_assert_msg(p[2] < 1e-6, "the clue's value leaves its peer: %g", p[2]);
    ck_assert_int_eq(fgm_model_observe_clue(m, 0, -1), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 0, p), FGM_OK);
    /* Tolerance 1e-9: symmetric messages, a few ulps of rounding. */
    ck_assert_double_eq_tol(p[2], 0.25, 1e-9);
    /* One observation a cell: a clue and a value replace each other, and
     * either cleared clears both (a value stayed pinned under a cleared
     * clue; a clue at 3 and a value at 2 were both kept). */
    ck_assert_int_eq(fgm_model_observe_var(m, 0, 2), FGM_OK);
    ck_assert_int_eq(fgm_model_observe_clue(m, 0, -1), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 0, p), FGM_OK);
    ck_assert_double_eq_tol(p[2], 0.25, 1e-9);
    ck_assert_int_eq(fgm_model_observe_clue(m, 0, 3), FGM_OK);
    ck_assert_int_eq(fgm_model_observe_var(m, 0, 1), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 0, p), FGM_OK);
    ck_assert(p[1] == 1.0);
    ck_assert_int_eq(fgm_model_contradiction(m), -1);
    ck_assert_int_eq(fgm_model_observe_var(m, 0, -1), FGM_OK);
    ck_assert_int_eq(fgm_model_observe_clue(m, 0, 3), FGM_OK);
    ck_assert_int_eq(fgm_model_observe_var(m, 0, -1), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 0, p), FGM_OK);
    ck_assert_double_eq_tol(p[3], 0.25, 1e-9);
    fgm_model_free(m);
    fgm_ir_free(plain);
}
END_TEST

/* Run options out of range are refused, running nothing: a negative
 * count ran the model's, two billion sweeps ran (an hour's hang), a NaN
 * or negative tolerance meant none, a NaN deadline or noise was ignored. */
START_TEST(test_run_bad_opts)
{
    fgm_ir *ir = fgm_ir_sudoku(2);
    fgm_model_opts mo = { .backend = FGM_BACKEND_INTERPRETED };
    fgm_run_opts ro;
    fgm_model *m;
    double p[4];
    int t;

    ck_assert_int_eq(fgm_model_open_ir(ir, &mo, &m, NULL, NULL), FGM_OK);
    for (t = 0; t < 11; t++) {
        memset(&ro, 0, sizeof ro);
        switch (t) {
        case 0: ro.iterations = -1; break;
        case 1: ro.iterations = FGM_MAX_ITERATIONS + 1; break;
        case 2: ro.use_tolerance = 1; ro.tolerance = -1.0; break;
        case 3: ro.use_tolerance = 1; ro.tolerance = NAN; break;
        case 4: ro.deadline = NAN; break;
        case 5: ro.noise = NAN; break;
        /* Past FGM_MAX_NOISE exp overflowed: infinite, then uniform,
         * messages, returned as FGM_OK. */
        case 6: ro.noise = FGM_MAX_NOISE * 1.01; break;
        case 7: ro.noise = INFINITY; break;
        /* Any NaN, as the header says, even in a field its use_ flag
         * leaves unused (they ran). */
        case 8: ro.damping = NAN; break;
        case 9: ro.tolerance = NAN; break;
        default: ro.use_damping = 1; ro.damping = 1.0; break;
        }
        ck_assert_msg(fgm_model_run(m, &ro, NULL) == FGM_EINVAL, "case %d",
                      t);
    }
    /* Nothing ran: no result to read. */
    ck_assert_int_eq(fgm_model_marginal(m, 0, p), FGM_EINVAL);
    memset(&ro, 0, sizeof ro);
    ro.iterations = FGM_MAX_ITERATIONS;
    ro.deadline = fgm_now() - 1.0;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_ETIMEOUT);
    /* The largest noise keeps every message finite and positive. */
    memset(&ro, 0, sizeof ro);
    ro.noise = FGM_MAX_NOISE;
    ro.iterations = 1;
    ro.seed = 3;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
    for (t = 0; t < 16; t++) {     /* the 4x4 grid's cells */
        ck_assert_int_eq(fgm_model_marginal(m, t, p), FGM_OK);
        ck_assert(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2])
                  && isfinite(p[3]));
        ck_assert_double_eq_tol(p[0] + p[1] + p[2] + p[3], 1.0, 1e-12);
    }
    fgm_model_free(m);
}
END_TEST

/* An unknown backend is refused and said, as an unknown algorithm is (it
 * was refused in silence). */
START_TEST(test_open_bad_backend)
{
    fgm_model_opts mo = { .backend = (fgm_backend)42 };
    fgm_model *m = NULL;

    nmsgs = 0;
    ck_assert_int_eq(fgm_model_open_ir(fgm_ir_sudoku(2), &mo, &m, msg_sink,
                                       NULL), FGM_EINVAL);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(nmsgs, 1);
    ck_assert_msg(strstr(last_msg, "unknown backend 42"), "got: %s",
                  last_msg);
    mo.backend = (fgm_backend)-1;
    ck_assert_int_eq(fgm_model_open("models/dice.fgm", &mo, &m, msg_sink,
                                    NULL), FGM_EINVAL);
    ck_assert_int_eq(nmsgs, 2);
}
END_TEST

/* A run's deadline: read before the first sweep (then before every
 * sweep, or every fourth when sweeps are fast; never before the last),
 * so a deadline already past stops a long run after one sweep, with
 * readable beliefs and the change of its last sweep (a clue keeps the
 * messages moving), and leaves a one-sweep run alone. */
START_TEST(test_run_deadline)
{
    fgm_ir *plain = fgm_ir_sudoku(2), *ir = fgm_ir_robust(plain);
    fgm_model_opts mo = { .backend = FGM_BACKEND_INTERPRETED };
    fgm_run_opts ro;
    fgm_run_info info;
    fgm_model *m;
    double p[4];

    ck_assert_int_eq(fgm_model_open_ir(ir, &mo, &m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_observe_clue(m, 0, 2), FGM_OK);
    memset(&ro, 0, sizeof ro);
    ro.iterations = 1000;
    ro.deadline = fgm_now() - 1.0;
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_ETIMEOUT);
    ck_assert_int_eq(info.sweeps, 1);
    ck_assert_msg(info.change > 0.0, "the last sweep's change: %g",
                  info.change);
    ck_assert_int_eq(fgm_model_marginal(m, 0, p), FGM_OK);
    ro.iterations = 1;      /* the last sweep: never checked */
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_OK);
    ck_assert_int_eq(info.sweeps, 1);
    ro.iterations = 1000;
    ro.deadline = 0.0;
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_OK);
    ck_assert_int_eq(info.sweeps, 1000);
    ro.deadline = fgm_now() + 3600.0;
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_OK);
    ck_assert_int_eq(info.sweeps, 1000);
    fgm_model_free(m);
    ck_assert_int_eq(fgm_model_open_ir(fgm_ir_copy(plain), &mo, &m, NULL,
                                       NULL), FGM_OK);
    ro.deadline = fgm_now() - 1.0;
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_ETIMEOUT);
    ck_assert_int_eq(info.sweeps, 1);
    fgm_model_free(m);
    fgm_ir_free(plain);
}
END_TEST

/* The EP and BP solvers hand their puzzle's deadline to each inference:
 * a million sweeps (10-40 s on 9x9) cannot outrun a 1 ms timeout.  (Not
 * alldiff-max2/max3: their runs stop at a tolerance within tens of
 * sweeps, whatever --iters says.) */
START_TEST(test_solve_deadline_in_inference)
{
    static const char *const names[] = { "ep-robust", "ep-robust2",
                                         "ep-iterative", "bp-decimate",
                                         "bp-decimate2", "bp-backtrack",
                                         "bp-decimate3", "alldiff-max",
                                         "alldiff-sum3" };
    fgm_puzzle p = puzzle(EASY);
    fgm_ir *plain = fgm_ir_sudoku(3), *ir = fgm_ir_robust(plain);
    fgm_status st;
    fgm_csp *robust = fgm_csp_new(ir, &st), *csp = fgm_csp_new(plain, &st);
    fgm_solve_opts so;
    fgm_solve_result res;
    size_t i;

    memset(&so, 0, sizeof so);
    so.backend = FGM_BACKEND_INTERPRETED;
    so.iterations = FGM_MAX_ITERATIONS;
    for (i = 0; i < sizeof names / sizeof *names; i++) {
        st = fgm_solve_puzzle(fgm_solver_find(names[i]),
                              i < 3 ? robust : csp, &so, &p, 1, 1.0, NULL,
                              &res);
        ck_assert_msg(st == FGM_ETIMEOUT, "%s: %s", names[i],
                      fgm_strerror(st));
        ck_assert_int_lt(res.stats.sweeps, 100000);
    }
    fgm_csp_free(robust);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
    fgm_ir_free(plain);
}
END_TEST

/* Without a prior the clue observes the variable itself (the dice). */
START_TEST(test_observe_clue_plain)
{
    fgm_ir *ir;
    fgm_model *m;
    fgm_model_opts mo = { .backend = FGM_BACKEND_INTERPRETED };
    double alpha[6];

    ck_assert_int_eq(fgm_compile_string(
        "model dice\nprior p ~ dirichlet([1, 1, 1, 1, 1, 1])\n"
        "observed var roll[2] in 1..6 ~ discrete(p)\n"
        "infer ep(iterations = 50)\n", "dice.fgm", NULL, &ir, NULL, NULL),
        FGM_OK);
    ck_assert_int_eq(fgm_model_open_ir(ir, &mo, &m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_observe_clue(m, 0, 5), FGM_OK);
    ck_assert_int_eq(fgm_model_observe_clue(m, 1, 5), FGM_OK);
    fgm_model_run(m, NULL, NULL);
    ck_assert_int_eq(fgm_model_dirichlet(m, 0, alpha), FGM_OK);
    /* Exact posterior: prior 1 plus two counts of a six. */
    ck_assert_double_eq_tol(alpha[5], 3.0, 1e-9);
    ck_assert_double_eq_tol(alpha[0], 1.0, 1e-9);
    fgm_model_free(m);
}
END_TEST

/* Soft evidence: weights on a variable give the marginals of the same
 * model with an evidence statement, replace and are replaced by an
 * observed value, clear with NULL and with fgm_model_clear; weights that
 * rule out what the model's evidence allows are a contradiction; bad
 * weights change nothing. */
START_TEST(test_observe_weights)
{
    static const char chain[] =
        "var x[3] in 0..2\n"
        "table (x[i], x[i+1]) = [[4, 1, 1], [1, 4, 1], [1, 1, 4]] "
        "for i in 0..1\n"
        "evidence x[2] = [1, 1, 0]\n"
        "infer bp-sum(iterations = 5)\n";
    static const double w[3] = { 7, 2, 1 }, none[3] = { 0, 0, 0 };
    static const double neg[3] = { 1, -1, 1 }, off[3] = { 0, 0, 5 };
    char *with = malloc(sizeof chain + 64);
    double got[3], want[3], plain[3];
    fgm_model_opts mo = { .backend = FGM_BACKEND_INTERPRETED };
    fgm_model *m, *ref;
    fgm_ir *ir;
    int j;

    ck_assert_ptr_nonnull(with);
    snprintf(with, sizeof chain + 64, "%sevidence x[0] = [7, 2, 1]\n", chain);
    ck_assert_int_eq(fgm_compile_string(with, "w.fgm", NULL, &ir, NULL,
                                        NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_open_ir(ir, &mo, &ref, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_run(ref, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(ref, 1, want), FGM_OK);
    ck_assert_int_eq(fgm_compile_string(chain, "c.fgm", NULL, &ir, NULL,
                                        NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_open_ir(ir, &mo, &m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 1, plain), FGM_OK);

    ck_assert_int_eq(fgm_model_observe_weights(m, 0, w), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 1, got), FGM_OK);
    for (j = 0; j < 3; j++)
        ck_assert_double_eq_tol(got[j], want[j], 1e-12);
    ck_assert_double_gt(fabs(want[0] - plain[0]), 0.01);
    /* Bad weights: refused, the weights in force kept. */
    ck_assert_int_eq(fgm_model_observe_weights(m, 0, none), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_observe_weights(m, 0, neg), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_observe_weights(m, 3, w), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_observe_weights(NULL, 0, w), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 1, got), FGM_OK);
    ck_assert_double_eq_tol(got[0], want[0], 1e-12);
    /* An observed value replaces them; clearing it leaves none. */
    ck_assert_int_eq(fgm_model_observe_var(m, 0, 2), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 0, got), FGM_OK);
    ck_assert_double_eq_tol(got[2], 1.0, 1e-12);
    ck_assert_int_eq(fgm_model_observe_var(m, 0, -1), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 1, got), FGM_OK);
    ck_assert_double_eq_tol(got[0], plain[0], 1e-12);
    /* Weights replace a value; NULL and fgm_model_clear clear them. */
    ck_assert_int_eq(fgm_model_observe_var(m, 0, 2), FGM_OK);
    ck_assert_int_eq(fgm_model_observe_weights(m, 0, w), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 1, got), FGM_OK);
    ck_assert_double_eq_tol(got[0], want[0], 1e-12);
    ck_assert_int_eq(fgm_model_observe_weights(m, 0, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 1, got), FGM_OK);
    ck_assert_double_eq_tol(got[0], plain[0], 1e-12);
    ck_assert_int_eq(fgm_model_observe_weights(m, 0, w), FGM_OK);
    fgm_model_clear(m);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 1, got), FGM_OK);
    ck_assert_double_eq_tol(got[0], plain[0], 1e-12);
    /* x[2]'s evidence rules out its value 2: weights on 2 alone leave it
     * none. */
    ck_assert_int_eq(fgm_model_contradiction(m), -1);
    ck_assert_int_eq(fgm_model_observe_weights(m, 2, off), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_contradiction(m), 2);
    fgm_model_free(m);
    fgm_model_free(ref);
    free(with);
}
END_TEST

/* On a variable drawn from an observed prior (the seed's robust Sudoku
 * model), a clue is a point mass on the prior: weights replace it, and a
 * later clue replaces the weights. */
START_TEST(test_observe_weights_clue)
{
    static const char *const defs[] = { "B=2" };
    fgm_compile_opts co = { defs, 1, 0 };
    fgm_model_opts mo = { .backend = FGM_BACKEND_INTERPRETED };
    double g[4], w[4] = { 0, 1, 0, 0 };
    fgm_model *m;
    fgm_ir *ir;
    int want[3] = { 0, 1, 2 }, step;

    ck_assert_int_eq(fgm_compile_file("models/sudoku.fgm", &co, &ir, NULL,
                                      NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_open_ir(ir, &mo, &m, NULL, NULL), FGM_OK);
    for (step = 0; step < 3; step++) {
        if (step == 1)
            ck_assert_int_eq(fgm_model_observe_weights(m, 0, w), FGM_OK);
        else
            ck_assert_int_eq(fgm_model_observe_clue(m, 0, want[step]),
                             FGM_OK);
        ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
        ck_assert_int_eq(fgm_model_marginal(m, 0, g), FGM_OK);
        ck_assert_msg(g[want[step]] > 0.999, "step %d: %g %g %g %g", step,
                      g[0], g[1], g[2], g[3]);
    }
    fgm_model_free(m);
}
END_TEST

/* 288 Sudokus of side 4; 12 Latin squares of side 3, each value at each
 * cell in a third of them. */
START_TEST(test_exact_counts)
{
    fgm_ir *s4 = fgm_ir_sudoku(2), *l3 = fgm_ir_latin(3);
    fgm_status st;
    fgm_csp *c4 = fgm_csp_new(s4, &st), *c3 = fgm_csp_new(l3, &st);
    fgm_dlx *d = fgm_dlx_new(c4, &st);
    fgm_dlx_limits lim = { 0, 0, 0 };
    double m[9 * 3];
    long count = 0, leaves = 0, nodes = 0;
    int first[16], v;

    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(fgm_csp_nvars(c4), 16);
    ck_assert_int_eq(fgm_csp_maxcard(c4), 4);
    ck_assert_ptr_null(fgm_dlx_refuses(c4));
    ck_assert_int_eq(fgm_dlx_run(d, NULL, &lim, &count, NULL, first,
                                 &nodes), FGM_OK);
    ck_assert_int_eq(count, 288);
    ck_assert_int_gt(nodes, 0);
    for (v = 0; v < 16; v++)
        ck_assert(first[v] >= 0 && first[v] < 4);
    lim.cap = 2;
    ck_assert_int_eq(fgm_dlx_run(d, NULL, &lim, &count, NULL, NULL, NULL),
                     FGM_OK);
    ck_assert_int_eq(count, 2);

    ck_assert_int_eq(fgm_enumerate(c3, NULL, 0, 0, m, &leaves), FGM_OK);
    ck_assert_int_eq(leaves, 12);
    /* Exact by symmetry; 1e-12 for the division. */
    for (v = 0; v < 9 * 3; v++)
        ck_assert_double_eq_tol(m[v], 1.0 / 3.0, 1e-12);
    fgm_dlx_free(d);
    fgm_csp_free(c4);
    fgm_csp_free(c3);
    fgm_ir_free(s4);
    fgm_ir_free(l3);
}
END_TEST

/* A prior that no variable draws from may have more categories than any
 * domain: enumeration once sized its count rows by the largest domain
 * and read the next prior's counts (or past the buffer, which the ASan
 * build of this test reports). */
START_TEST(test_exact_unused_prior)
{
    fgm_ir *ir;
    fgm_csp *csp;
    fgm_status st;
    double m[2 * 2];
    long leaves = 0;
    int v;

    ck_assert_int_eq(fgm_compile_string("model m\n"
                                        "prior q ~ dirichlet(3)\n"
                                        "prior p ~ dirichlet([1, 1])\n"
                                        "var x[2] in 1..2 ~ discrete(p)\n",
                                        "m", NULL, &ir, NULL, NULL), FGM_OK);
    csp = fgm_csp_new(ir, &st);
    ck_assert_ptr_nonnull(csp);
    ck_assert_int_eq(fgm_enumerate(csp, NULL, 0, 0, m, &leaves), FGM_OK);
    ck_assert_int_eq(leaves, 4);
    /* Symmetric prior, no evidence: every marginal uniform. */
    for (v = 0; v < 4; v++)
        ck_assert_double_eq_tol(m[v], 0.5, 1e-12);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* fgm_model_contradiction: x and y observed equal under x != y (a
 * pairwise factor, whose message to x is at the floor at x's value) or
 * under a native alldiff (which sends no message to a point mass, so the
 * two point masses' clash is what shows it); the same model without the
 * clash has none.  Every algorithm, interpreted. */
START_TEST(test_model_contradiction)
{
    static const char *const models[] = {
        "var x in 0..2\nvar y in 0..2\nvar z in 0..2\nx != y\ny != z\n",
        "var x in 0..2\nvar y in 0..2\nvar z in 0..2\nalldiff(x, y, z)\n"
        "infer bp-sum(alldiff = native)\n",
    };
    static const char *const algos[] = { "ep", "bp-sum", "bp-max" };
    fgm_model_opts mo = { .backend = FGM_BACKEND_INTERPRETED };
    fgm_model *m;
    fgm_ir *ir;
    int i, a, y;

    for (i = 0; i < 2; i++)
        for (a = 0; a < 3; a++) {
            if (i == 1 && a == 0)
                continue;       /* EP lowers alldiff to pairs */
            ck_assert_int_eq(fgm_compile_string(models[i], "c.fgm", NULL,
                                                &ir, NULL, NULL), FGM_OK);
            mo.algo = algos[a];
            ck_assert_int_eq(fgm_model_open_ir(ir, &mo, &m, NULL, NULL),
                             FGM_OK);
            ck_assert_int_eq(fgm_model_contradiction(m), -1);   /* no run */
            ck_assert_int_eq(fgm_model_observe_var(m, 0, 0), FGM_OK);
            for (y = 0; y < 2; y++) {
                ck_assert_int_eq(fgm_model_observe_var(m, 1, y), FGM_OK);
                ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
                ck_assert_msg(fgm_model_contradiction(m) == (y ? -1 : 0),
                              "model %d, %s, y = %d: %d", i, algos[a], y,
                              fgm_model_contradiction(m));
            }
            fgm_model_free(m);
        }
    ck_assert_int_eq(fgm_model_contradiction(NULL), -1);
}
END_TEST

START_TEST(test_generate_puzzle)
{
    fgm_generate_stats stats;
    fgm_puzzle p, q;
    fgm_ir *ir = fgm_ir_sudoku(2);
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    fgm_dlx *d = fgm_dlx_new(csp, &st);
    int given[16], i, clues = 0;
    long count;

    ck_assert_int_eq(fgm_generate_puzzle(2, 5, NULL, &p, &stats), FGM_OK);
    ck_assert_int_eq(p.n, 4);
    ck_assert_int_eq(p.box, 2);
    ck_assert_int_eq(p.empty, '.');
    for (i = 0; i < 16; i++)
        clues += p.cells[i] != 0;
    ck_assert_int_eq(clues, stats.clues);
    fgm_puzzle_to_given(&p, given);
    ck_assert_int_eq(fgm_dlx_run(d, given, NULL, &count, NULL, NULL, NULL),
                     FGM_OK);
    ck_assert_msg(count == 1, "a generated puzzle has one solution");
    /* A clue is -1 (free) or a value index: -2 used to count as free. */
    given[3] = -2;
    ck_assert_int_eq(fgm_dlx_run(d, given, NULL, &count, NULL, NULL, NULL),
                     FGM_EINVAL);
    {
        double m[16 * 4];

        ck_assert_int_eq(fgm_enumerate(csp, given, 0, 0, m, NULL),
                         FGM_EINVAL);
        given[3] = 4;
        ck_assert_int_eq(fgm_enumerate(csp, given, 0, 0, m, NULL),
                         FGM_EINVAL);
    }
    ck_assert_int_eq(fgm_generate_puzzle(2, 5, NULL, &q, NULL), FGM_OK);
    ck_assert_msg(memcmp(p.cells, q.cells, 16) == 0, "same seed, same grid");
    fgm_dlx_free(d);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_plugin_emit)
{
    char c_path[64], so_path[80], head[32];
    fgm_ir *ir = fgm_ir_sudoku(2);
    FILE *f;

    /* The C compiler wants a .c name. */
    snprintf(c_path, sizeof c_path, "/tmp/fgm_api_%ld.c", (long)getpid());
    ck_assert_int_eq(fgm_plugin_emit_c(ir, c_path, NULL, NULL), FGM_OK);
    f = fopen(c_path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(head, sizeof head, f));
    fclose(f);
    ck_assert_msg(strncmp(head, "/* Generated by fgm compile", 27) == 0,
                  "the C opens with its banner: %s", head);
    /* Built from a temporary copy (C_PATH NULL), then from C_PATH. */
    snprintf(so_path, sizeof so_path, "%s.so", c_path);
    ck_assert_msg(fgm_plugin_emit_so(ir, so_path, NULL, NULL, msg_sink, NULL)
                  == FGM_OK, "the plugin builds: %s", last_msg);
    ck_assert_int_eq(access(so_path, R_OK), 0);
    unlink(so_path);
    ck_assert_msg(fgm_plugin_emit_so(ir, so_path, c_path, NULL, msg_sink, NULL)
                  == FGM_OK, "the plugin builds from C_PATH: %s", last_msg);
    ck_assert_int_eq(access(so_path, R_OK), 0);
    unlink(so_path);
    /* What C_PATH holds is what is compiled, edits included. */
    f = fopen(c_path, "a");
    ck_assert_ptr_nonnull(f);
    fputs("#error edited by the caller\n", f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(fgm_plugin_emit_so(ir, so_path, c_path, NULL, msg_sink,
                                        NULL), FGM_ECC);
    ck_assert_msg(strstr(last_msg, "edited by the caller") != NULL,
                  "the compiler read the caller's file: %s", last_msg);
    ck_assert_int_ne(access(so_path, F_OK), 0);
    unlink(c_path);
    fgm_ir_free(ir);
}
END_TEST

/* The model's path goes into comments of the generated C: in a folder
 * called "a*", the star and the slash after it ended the banner's
 * comment, a newline could start a preprocessor line, and the plugin did
 * not compile. */
START_TEST(test_plugin_emit_odd_source)
{
    static const char *const names[] = { "models/a*/m.fgm",
                                          "models/b/*c/m.fgm",
                                          "x\n#error injected\n.fgm" };
    char so_path[80];
    fgm_ir *ir;
    size_t i;

    snprintf(so_path, sizeof so_path, "/tmp/fgm_api_odd_%ld.so",
             (long)getpid());
    for (i = 0; i < sizeof names / sizeof *names; i++) {
        ck_assert_int_eq(fgm_compile_string("model m\n"
                                            "var x[2] in 1..2\n"
                                            "x[0] != x[1]\n", names[i],
                                            NULL, &ir, msg_sink, NULL),
                         FGM_OK);
        nmsgs = 0;
        ck_assert_msg(fgm_plugin_emit_so(ir, so_path, NULL, NULL, msg_sink,
                                         NULL) == FGM_OK,
                      "the plugin of a model at '%s' builds: %s", names[i],
                      nmsgs ? last_msg : "");
        unlink(so_path);
        fgm_ir_free(ir);
    }
}
END_TEST

/* fgm_plugin_emit_so from two threads at once, same .so and no C path:
 * each writes its temporary C where the other cannot overwrite or remove
 * it (a name of its own, not one made of the path and the process id --
 * a directory squats that name here, which broke the build), and both
 * builds succeed. */
typedef struct emit_job {
    const fgm_ir *ir;
    const char *so_path;
    fgm_status st;
} emit_job;

static void *
emit_thread(void *arg)
{
    emit_job *j = arg;

    j->st = fgm_plugin_emit_so(j->ir, j->so_path, NULL, NULL, NULL, NULL);
    return NULL;
}

START_TEST(test_plugin_emit_threads)
{
    char so_path[80], squat[128];
    fgm_ir *ir = fgm_ir_sudoku(2);
    emit_job a, b;
    pthread_t ta, tb;

    snprintf(so_path, sizeof so_path, "/tmp/fgm_api_thr_%ld.so",
             (long)getpid());
    snprintf(squat, sizeof squat, "%s.%ld.tmp.c", so_path, (long)getpid());
    ck_assert_int_eq(mkdir(squat, 0700), 0);
    a.ir = b.ir = ir;
    a.so_path = b.so_path = so_path;
    ck_assert_int_eq(pthread_create(&ta, NULL, emit_thread, &a), 0);
    ck_assert_int_eq(pthread_create(&tb, NULL, emit_thread, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    ck_assert_int_eq(a.st, FGM_OK);
    ck_assert_int_eq(b.st, FGM_OK);
    ck_assert_int_eq(access(so_path, R_OK), 0);
    ck_assert_int_eq(rmdir(squat), 0);      /* untouched, and still empty */
    unlink(so_path);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_bench)
{
    char *corpus = temp_file(EASY "\n" EASY "\n"), *line = NULL;
    const char *solvers[] = { "dlx", "norvig" }, *corpora[1];
    fgm_bench_opts o;
    fgm_bench *b = NULL;
    FILE *f = tmpfile();
    size_t cap = 0;
    int found = 0;

    corpora[0] = corpus;
    fgm_bench_opts_init(&o);
    o.solvers = solvers;
    o.nsolvers = 2;
    o.corpora = corpora;
    o.ncorpora = 1;
    o.repeat = 1;
    ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_OK);
    ck_assert_int_eq(fgm_bench_write_table(b, f), FGM_OK);
    ck_assert_int_eq(fgm_bench_write_backends(b, f), FGM_OK);
    rewind(f);
    while (getline(&line, &cap, f) >= 0)
        found += (strstr(line, "dlx") || strstr(line, "norvig"))
                 && strstr(line, "2/2");
    ck_assert_msg(found == 2, "both rows say 2/2 solved");
    free(line);
    fclose(f);
    fgm_bench_free(b);
    unlink(corpus);
    free(corpus);
}
END_TEST

static fgm_status
write_hello(void *arg, FILE *f)
{
    (void)arg;
    return fputs("hello\n", f) < 0 ? FGM_EIO : FGM_OK;
}

START_TEST(test_utilities)
{
    char path[] = "/tmp/fgm_api_w_XXXXXX", buf[16];
    double t0 = fgm_now();
    int fd = mkstemp(path);
    FILE *f;

    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(fgm_write_atomic(path, write_hello, NULL, NULL, NULL),
                     FGM_OK);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
    fclose(f);
    ck_assert_str_eq(buf, "hello\n");
    /* The check before a write: a file or a new name in a folder that
     * takes files passes; a folder, a missing folder, an empty name or a
     * link into a missing folder do not. */
    ck_assert_int_eq(fgm_write_atomic_check(path, NULL, NULL), FGM_OK);
    unlink(path);
    ck_assert_int_eq(fgm_write_atomic_check(path, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_write_atomic_check("/tmp", NULL, NULL), FGM_EIO);
    ck_assert_int_eq(fgm_write_atomic_check("/nonexistent/x", NULL, NULL),
                     FGM_EIO);
    ck_assert_int_eq(fgm_write_atomic_check("", NULL, NULL), FGM_EIO);
    ck_assert_int_eq(fgm_write_atomic_check(NULL, NULL, NULL), FGM_EINVAL);
    ck_assert_int_eq(symlink("/nonexistent/x", path), 0);
    ck_assert_int_eq(fgm_write_atomic_check(path, NULL, NULL), FGM_EIO);
    unlink(path);
    /* A name of 245 bytes is written (its temporary's name is cut to
     * the longest the folder takes: PATH.tmp.XXXXXX was 256 bytes, "File
     * name too long" after the check had passed); one of 256 is refused
     * by the check. */
    {
        char dir[] = "/tmp/fgm_api_n_XXXXXX", name[300];
        size_t dl;
        long max;

        ck_assert_ptr_nonnull(mkdtemp(dir));
        max = pathconf(dir, _PC_NAME_MAX);
        dl = strlen(dir);
        if (max == 255) {      /* the lengths below are that limit's */
            memcpy(name, dir, dl);
            name[dl] = '/';
            memset(name + dl + 1, 'w', 245);
            name[dl + 1 + 245] = '\0';
            ck_assert_int_eq(fgm_write_atomic_check(name, NULL, NULL),
                             FGM_OK);
            ck_assert_int_eq(fgm_write_atomic(name, write_hello, NULL, NULL,
                                              NULL), FGM_OK);
            ck_assert_int_eq(unlink(name), 0);
            memset(name + dl + 1, 'w', 256);
            name[dl + 1 + 256] = '\0';
            ck_assert_int_eq(fgm_write_atomic_check(name, NULL, NULL),
                             FGM_EIO);
        }
        ck_assert_int_eq(rmdir(dir), 0);
    }
    ck_assert(fgm_now() >= t0);
}
END_TEST

/* ---- limits ---------------------------------------------------------- */

START_TEST(test_limits)
{
    fgm_ir *ir = fgm_ir_sudoku(5);
    char name[FGM_IR_MAXNAME];
    int n, box;

    ck_assert_ptr_null(fgm_solver_at(-1));
    ck_assert_ptr_null(fgm_solver_at(fgm_solver_count()));
    fgm_ir_grid(ir, &n, &box);
    ck_assert_int_eq(n, 25);
    ck_assert_int_eq(box, 5);
    fgm_ir_grid(ir, NULL, NULL);
    ck_assert_int_eq(fgm_ir_var_array(ir, -1), -1);
    ck_assert_int_eq(fgm_ir_var_array(ir, 625), -1);
    ck_assert_int_eq(fgm_ir_node_array(ir, 0), -1);
    /* The longest name fits; one more byte does not. */
    memset(name, 'a', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    ck_assert_int_eq(fgm_ir_set_name(ir, name), FGM_OK);
    ck_assert_str_eq(fgm_ir_name(ir), name);
    fgm_ir_free(ir);
}
END_TEST

/* ---- errors ---------------------------------------------------------- */

START_TEST(test_solve_errors)
{
    fgm_puzzle p = puzzle(EASY), small = puzzle("1234341221434321");
    fgm_ir *ir = fgm_ir_sudoku(3), *chain;
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st), *nogrid;
    const fgm_solver *dlx = fgm_solver_find("dlx");
    fgm_solve_result res;

    ck_assert_ptr_null(fgm_solver_find("nope"));
    ck_assert_ptr_null(fgm_solver_find(NULL));
    ck_assert_int_eq(fgm_solve_puzzle(NULL, csp, NULL, &p, 0, 0, NULL, &res),
                     FGM_EINVAL);
    ck_assert_int_eq(res.status, FGM_EINVAL);
    ck_assert_int_eq(res.solved, 0);
    ck_assert_int_eq(fgm_solve_puzzle(dlx, NULL, NULL, &p, 0, 0, NULL, NULL),
                     FGM_EINVAL);
    ck_assert_int_eq(fgm_solve_puzzle(dlx, csp, NULL, NULL, 0, 0, NULL,
                                      NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_solve_puzzle(dlx, csp, NULL, &small, 0, 0, NULL,
                                      NULL), FGM_EINVAL);
    {
        /* Options out of range are refused before any run (ep-robust read
         * an answer from a refused run, uninitialized, and said
         * FGM_EUNSOLVED; bp-decimate counted garbage sweeps). */
        static const char *const names[] = { "ep-robust", "bp-decimate",
                                             "alldiff-max", "dlx" };
        fgm_solve_opts so;
        fgm_puzzle ans;
        size_t i, bad;

        for (i = 0; i < sizeof names / sizeof names[0]; i++)
            for (bad = 0; bad < 4; bad++) {
                memset(&so, 0, sizeof so);
                so.backend = FGM_BACKEND_INTERPRETED;
                if (bad == 0)
                    so.iterations = FGM_MAX_ITERATIONS + 1;
                else if (bad == 1)
                    so.iterations = -1;
                else if (bad == 2)
                    so.fix_per_round = -1;
                else
                    so.backend = (fgm_backend)42;
                ck_assert_int_eq(fgm_solve_puzzle(fgm_solver_find(names[i]),
                                                  csp, &so, &p, 1, 0, &ans,
                                                  &res), FGM_EINVAL);
                ck_assert_int_eq(res.stats.sweeps, 0);
            }
    p.cells[1] = 10;
    ck_assert_int_eq(fgm_solve_puzzle(dlx, csp, NULL, &p, 0, 0, NULL, NULL),
                     FGM_EINVAL);
    }

    /* A model without a grid takes no puzzle. */
    ck_assert_int_eq(fgm_compile_string("model c\nvar x[3] in 0..2\n", "c",
                                        NULL, &chain, NULL, NULL), FGM_OK);
    nogrid = fgm_csp_new(chain, &st);
    ck_assert_ptr_nonnull(nogrid);
    ck_assert_int_eq(fgm_solve_puzzle(dlx, nogrid, NULL, &small, 0, 0, NULL,
                                      NULL), FGM_EINVAL);
    fgm_csp_free(nogrid);
    fgm_ir_free(chain);

    /* A grid larger than a puzzle can hold (26 > FGM_PUZZLE_MAXN): no
     * puzzle fits, rather than one read and written past its cells. */
    ck_assert_int_eq(fgm_compile_string("model big\nvar x[26][26] in "
                                        "1..26\n", "big", NULL, &chain,
                                        NULL, NULL), FGM_OK);
    nogrid = fgm_csp_new(chain, &st);
    ck_assert_ptr_nonnull(nogrid);
    memset(&p, 0, sizeof p);
    p.n = 26;
    ck_assert_int_eq(fgm_solve_puzzle(fgm_solver_find("mrv"), nogrid, NULL,
                                      &p, 0, 100, &p, NULL), FGM_EINVAL);
    fgm_csp_free(nogrid);
    fgm_ir_free(chain);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* A sink that notes whether two calls ever overlapped: it holds a lock
 * for a while, and a call that finds it taken is a second one at once. */
typedef struct overlap_sink {
    pthread_mutex_t mu;
    int calls, overlaps;    /* written under mu */
} overlap_sink;

static void
overlap_diag(void *ctx, const char *msg)
{
    overlap_sink *o = ctx;
    struct timespec ts = { 0, 20000000 };

    (void)msg;
    if (pthread_mutex_trylock(&o->mu) != 0) {
        pthread_mutex_lock(&o->mu);
        o->overlaps++;
    }
    o->calls++;
    nanosleep(&ts, NULL);
    pthread_mutex_unlock(&o->mu);
}

/* The batch's workers report fallbacks (ep-naive: one plugin per puzzle,
 * here into a folder that is a file) to the options' sink one call at a
 * time; before, two workers called it at once (seen by ThreadSanitizer
 * in batch.c's say_once). */
START_TEST(test_batch_diag_serial)
{
    static const char *const grids[] = {
        "1...........3...", "2...........3...", "1...........4...",
        "3...........1...", ".1..........3...", ".2..........4...",
        "..1.........2...", "..3.........4..."
    };
    char text[8 * 17 + 1];
    batch_fixture b;
    batch_seen seen = { 0, 0, 0, 1 };
    fgm_solve_opts so;
    overlap_sink o;
    size_t i;

    text[0] = '\0';
    for (i = 0; i < sizeof grids / sizeof *grids; i++)
        strcat(strcat(text, grids[i]), "\n");
    batch_open(&b, text, fgm_ir_sudoku(2), 4, 2);
    memset(&so, 0, sizeof so);
    so.backend = FGM_BACKEND_AUTO;
    so.out_dir = b.path;            /* not a folder: every build falls back */
    so.diag = overlap_diag;
    so.diag_ctx = &o;
    pthread_mutex_init(&o.mu, NULL);
    o.calls = o.overlaps = 0;
    b.bo.solver = fgm_solver_find("ep-naive");
    b.bo.sopts = &so;
    b.bo.threads = 2;
    b.bo.chunk = 1;
    ck_assert_int_eq(fgm_batch_run(b.r, &b.bo, emit, &seen, NULL), FGM_OK);
    ck_assert_int_eq(seen.n, 8);
    ck_assert_msg(o.calls >= 2, "the fallbacks were reported (%d)", o.calls);
    ck_assert_msg(o.overlaps == 0, "%d of %d sink calls overlapped another",
                  o.overlaps, o.calls);
    pthread_mutex_destroy(&o.mu);
    batch_close(&b);
}
END_TEST

/* fgm_batch_run answers a missing argument as fgm_solve_puzzle does. */
START_TEST(test_batch_errors)
{
    batch_fixture b;
    batch_seen seen = { 0, 0, 0, 1 };
    const char *reason = "unset";

    batch_open(&b, EASY "\n", fgm_ir_sudoku(3), 9, 3);
    b.bo.solver = NULL;
    b.bo.threads = 0;
    ck_assert_int_eq(fgm_batch_run(b.r, &b.bo, emit, &seen, &reason),
                     FGM_EINVAL);
    ck_assert_ptr_null(reason);
    b.bo.solver = fgm_solver_find("mrv");
    b.bo.csp = NULL;
    ck_assert_int_eq(fgm_batch_run(b.r, &b.bo, emit, &seen, NULL),
                     FGM_EINVAL);
    b.bo.csp = b.csp;
    ck_assert_int_eq(fgm_batch_run(b.r, NULL, emit, &seen, NULL),
                     FGM_EINVAL);
    ck_assert_int_eq(fgm_batch_run(NULL, &b.bo, emit, &seen, NULL),
                     FGM_EINVAL);
    ck_assert_int_eq(fgm_batch_run(b.r, &b.bo, NULL, &seen, NULL),
                     FGM_EINVAL);
    ck_assert_int_eq(seen.n, 0);
    /* REASON may be NULL. */
    ck_assert_int_eq(fgm_batch_run(b.r, &b.bo, emit, &seen, NULL), FGM_OK);
    ck_assert_int_eq(seen.solved, 1);
    batch_close(&b);
}
END_TEST

/* Dancing Links refuses a grid that is no exact cover; the reason goes to
 * the options' sink. */
START_TEST(test_solve_unsupported)
{
    fgm_puzzle p = puzzle("1...............");
    fgm_ir *ir;
    fgm_status st;
    fgm_csp *csp;
    fgm_solve_opts so;

    ck_assert_int_eq(fgm_compile_string(
        "model g\nvar cell[4][4] in 1..4\ncell[0][0] != cell[0][1]\n",
        "g", NULL, &ir, NULL, NULL), FGM_OK);
    csp = fgm_csp_new(ir, &st);
    ck_assert_ptr_nonnull(csp);
    ck_assert_ptr_nonnull(fgm_dlx_refuses(csp));
    ck_assert_ptr_null(fgm_dlx_new(csp, &st));
    ck_assert_int_eq(st, FGM_EUNSUPPORTED);
    memset(&so, 0, sizeof so);
    so.diag = msg_sink;
    nmsgs = 0;
    ck_assert_int_eq(fgm_solve_puzzle(fgm_solver_find("dlx"), csp, &so, &p,
                                      0, 0, NULL, NULL), FGM_EUNSUPPORTED);
    ck_assert_int_eq(nmsgs, 1);
    ck_assert_str_eq(last_msg, fgm_dlx_refuses(csp));
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_ir_errors)
{
    fgm_ir *ir = fgm_ir_sudoku(2);
    fgm_array_info ai;
    char name[FGM_IR_MAXNAME + 1];

    ck_assert_int_eq(fgm_ir_set_algo(ir, "nope"), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_set_algo(ir, NULL), FGM_EINVAL);
    ck_assert_str_eq(fgm_ir_algo(ir), "ep");
    ck_assert_int_eq(fgm_ir_set_name(ir, ""), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_set_name(ir, NULL), FGM_EINVAL);
    memset(name, 'a', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    ck_assert_int_eq(fgm_ir_set_name(ir, name), FGM_EINVAL);
    /* The name is a file name and a C string in the plugin: "../x" wrote
     * the plugin outside out_dir, a quote broke its C. */
    ck_assert_int_eq(fgm_ir_set_name(ir, "../x"), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_set_name(ir, "a\"b"), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_set_name(ir, "a b"), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_set_name(ir, "9x"), FGM_EINVAL);
    ck_assert_str_eq(fgm_ir_name(ir), "sudoku4");
    ck_assert_int_eq(fgm_ir_set_name(ir, "_sudoku4_B2"), FGM_OK);
    ck_assert_int_eq(fgm_ir_set_name(ir, "sudoku4"), FGM_OK);
    ck_assert_int_eq(fgm_ir_array_info(ir, 1, &ai), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_array_info(ir, -1, &ai), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_array_index(ir, "nope"), -1);
    ck_assert_int_eq(fgm_ir_array_index(ir, NULL), -1);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_model_errors)
{
    fgm_model_opts mo = { .backend = FGM_BACKEND_INTERPRETED };
    fgm_model *m;

    ck_assert_int_eq(fgm_model_open_ir(fgm_ir_sudoku(2), &mo, &m, NULL,
                                       NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_observe_clue(m, -1, 0), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_observe_clue(m, 16, 0), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_observe_clue(m, 0, 4), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_observe_clue(NULL, 0, 0), FGM_EINVAL);
    fgm_model_free(m);
    /* A deadline is a time on fgm_now()'s clock or 0, as in
     * fgm_model_run. */
    mo.deadline = -1.0;
    m = NULL;
    ck_assert_int_eq(fgm_model_open_ir(fgm_ir_sudoku(2), &mo, &m, NULL,
                                       NULL), FGM_EINVAL);
    ck_assert_ptr_null(m);
    mo.deadline = NAN;
    ck_assert_int_eq(fgm_model_open_ir(fgm_ir_sudoku(2), &mo, &m, NULL,
                                       NULL), FGM_EINVAL);
}
END_TEST

/* Results before the first run do not exist: the readers fail without
 * writing (they used to return FGM_OK and zeros), and afterwards they
 * work.  A clamp epsilon of 1 or more, or NaN, is refused. */
START_TEST(test_model_before_run)
{
    fgm_model_opts mo = { .backend = FGM_BACKEND_INTERPRETED };
    double out[4] = { -1.0, -1.0, -1.0, -1.0 }, alpha[6] = { -1.0 };
    fgm_model *m, *d;
    fgm_ir *ir;

    ck_assert_int_eq(fgm_model_open_ir(fgm_ir_sudoku(2), &mo, &m, NULL,
                                       NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 0, out), FGM_EINVAL);
    ck_assert_double_eq(out[0], -1.0);
    ck_assert_int_eq(fgm_model_argmax(m, 0), -1);
    ck_assert_int_eq(fgm_model_set_clamp_epsilon(m, 5.0), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_set_clamp_epsilon(m, 1.0), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_set_clamp_epsilon(m, -1e-3), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_set_clamp_epsilon(m, NAN), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_set_clamp_epsilon(NULL, 0.1), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_set_clamp_epsilon(m, 1e-12), FGM_OK);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 0, out), FGM_OK);
    ck_assert_double_eq_tol(out[0] + out[1] + out[2] + out[3], 1.0, 1e-12);
    ck_assert_int_ge(fgm_model_argmax(m, 0), 0);
    fgm_model_free(m);

    ck_assert_int_eq(fgm_compile_string(
        "model dice\nprior p ~ dirichlet([1, 1, 1, 1, 1, 1])\n"
        "var roll[2] in 1..6 ~ discrete(p)\n", "dice.fgm", NULL, &ir, NULL,
        NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_open_ir(ir, &mo, &d, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_dirichlet(d, 0, alpha), FGM_EINVAL);
    ck_assert_double_eq(alpha[0], -1.0);
    ck_assert_int_eq(fgm_model_run(d, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_dirichlet(d, 0, alpha), FGM_OK);
    /* An unobserved roll tells nothing of p: the prior stays (each added
     * its uniform mean, 1/6, before). */
    ck_assert_double_eq(alpha[0], 1.0);
    fgm_model_free(d);
}
END_TEST

START_TEST(test_other_errors)
{
    fgm_ir *ir = fgm_ir_sudoku(2);
    fgm_bench_opts o;
    fgm_bench *b = NULL;
    const char *solvers[] = { "nope" }, *corpora[] = { "none.txt" };
    fgm_puzzle p;

    ck_assert_int_eq(fgm_generate_puzzle(7, 1, NULL, &p, NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_generate_puzzle(2, 1, NULL, NULL, NULL),
                     FGM_EINVAL);
    {
        /* A NaN limit is refused, here and in the solvers below (each
         * took it for none). */
        fgm_generate_opts go = { 0, 0, NAN, 0 };
        fgm_ir *lir = fgm_ir_sudoku(2);
        fgm_csp *csp = fgm_csp_new(lir, NULL);
        fgm_dlx *d = fgm_dlx_new(csp, NULL);
        fgm_dlx_limits lim = { 0, NAN, 0 };
        fgm_puzzle q, a;
        double marg[16 * 4];
        long n;

        ck_assert_int_eq(fgm_generate_puzzle(2, 1, &go, &p, NULL),
                         FGM_EINVAL);
        go.check_ms = 0;
        go.total_ms = NAN;
        ck_assert_int_eq(fgm_generate_puzzle(2, 1, &go, &p, NULL),
                         FGM_EINVAL);
        ck_assert_int_eq(fgm_dlx_run(d, NULL, &lim, &n, NULL, NULL, NULL),
                         FGM_EINVAL);
        ck_assert_int_eq(fgm_enumerate(csp, NULL, 0, NAN, marg, NULL),
                         FGM_EINVAL);
        ck_assert_int_eq(fgm_puzzle_parse("1...............", NULL, 0, 0,
                                          &q, NULL, NULL), FGM_OK);
        ck_assert_int_eq(fgm_solve_puzzle(fgm_solver_find("dlx"), csp, NULL,
                                          &q, 0, NAN, &a, NULL), FGM_EINVAL);
        fgm_dlx_free(d);
        fgm_csp_free(csp);
        fgm_ir_free(lir);
    }
    ck_assert_int_eq(fgm_plugin_emit_c(NULL, "x.c", NULL, NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_plugin_emit_so(ir, NULL, NULL, NULL, NULL, NULL),
                     FGM_EINVAL);
    nmsgs = 0;
    ck_assert_int_eq(fgm_plugin_emit_c(ir, "/nonexistent/dir/x.c", msg_sink,
                                       NULL), FGM_EIO);
    ck_assert_int_eq(nmsgs, 1);
    ck_assert_ptr_nonnull(strstr(last_msg, "/nonexistent/dir/x.c"));

    fgm_bench_opts_init(&o);
    o.solvers = solvers;
    o.nsolvers = 1;
    o.corpora = corpora;
    o.ncorpora = 1;
    o.diag = msg_sink;
    ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_EINVAL);
    ck_assert_ptr_null(b);
    ck_assert_int_eq(fgm_bench_backend_find("compiled"),
                     FGM_BACKEND_COMPILED);
    ck_assert_int_eq(fgm_bench_backend_find("bogus"), -1);
    fgm_bench_free(NULL);
    fgm_ir_free(ir);
}
END_TEST

/* A NULL handle or output pointer is FGM_EINVAL (or -1, or NULL with
 * that status), never a crash: every status-returning call, in turn. */
START_TEST(test_null_handles)
{
    fgm_ir *ir = fgm_ir_sudoku(2);
    fgm_model_opts mo = { .backend = FGM_BACKEND_INTERPRETED };
    fgm_array_info ai;
    fgm_model *m = (fgm_model *)&mo;    /* must be overwritten */
    fgm_status st = FGM_OK;
    double x[16];
    long count;

    ck_assert_int_eq(fgm_model_observe_var(NULL, 0, 0), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_observe_dirichlet(NULL, 0, NULL, 0),
                     FGM_EINVAL);
    {
        /* Two defines promised, none given: refused, not ignored. */
        fgm_compile_opts co = { NULL, 2, 0 };
        fgm_ir *out = ir;

        ck_assert_int_eq(fgm_compile_string("model m\nvar x in 0..1\n",
                                            "m", &co, &out, NULL, NULL),
                         FGM_EINVAL);
        ck_assert_ptr_null(out);
        ck_assert_int_eq(fgm_compile_file("models/dice.fgm", &co, &out,
                                          NULL, NULL), FGM_EINVAL);
    }
    ck_assert_int_eq(fgm_model_run(NULL, NULL, NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_marginal(NULL, 0, x), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_dirichlet(NULL, 0, x), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_argmax(NULL, 0), -1);
    ck_assert_int_eq(fgm_model_find(NULL, "x", NULL), -1);
    ck_assert_ptr_null(fgm_model_ir(NULL));
    ck_assert_int_eq(fgm_model_is_compiled(NULL), 0);
    {
        int rebuilt = 7;
        double ms = 7.0;

        fgm_model_plugin_info(NULL, &rebuilt, &ms);
        ck_assert_int_eq(rebuilt, 0);
        ck_assert(ms == 0.0);
    }
    fgm_model_clear(NULL);
    ck_assert_int_eq(fgm_model_open(NULL, &mo, &m, NULL, NULL), FGM_EINVAL);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(fgm_model_open("models/dice.fgm", &mo, NULL, NULL,
                                    NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_open_ir(NULL, &mo, &m, NULL, NULL),
                     FGM_EINVAL);
    ck_assert_int_eq(fgm_model_open_ir(fgm_ir_sudoku(2), &mo, NULL, NULL,
                                       NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_open_ir(fgm_ir_sudoku(2), &mo, &m, NULL,
                                       NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_marginal(m, 0, NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_find(m, NULL, NULL), -1);
    ck_assert_int_eq(fgm_model_argmax(m, 16), -1);
    ck_assert_int_eq(fgm_model_argmax(m, -1), -1);
    fgm_model_free(m);

    ck_assert_int_eq(fgm_ir_dump(NULL, stdout), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_dump(ir, NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_graph(NULL, stdout), FGM_EINVAL);
    {
        /* A full disk is FGM_EIO even when the report fits the stdio
         * buffer (a 4x4 dump did, and was FGM_OK). */
        FILE *full = fopen("/dev/full", "w");

        if (full) {
            ck_assert_int_eq(fgm_ir_dump(ir, full), FGM_EIO);
            fclose(full);
        }
    }
    ck_assert_int_eq(fgm_ir_set_name(NULL, "x"), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_set_algo(NULL, "ep"), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_array_info(NULL, 0, &ai), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_schedule(NULL, NULL, NULL), FGM_EINVAL);
    ck_assert_ptr_null(fgm_ir_copy(NULL));
    ck_assert_int_eq(fgm_bench_backend_find(NULL), -1);
    ck_assert_ptr_null(fgm_csp_new(NULL, &st));
    ck_assert_int_eq(st, FGM_EINVAL);
    st = FGM_OK;
    ck_assert_ptr_null(fgm_dlx_new(NULL, &st));
    ck_assert_int_eq(st, FGM_EINVAL);
    ck_assert_ptr_nonnull(fgm_dlx_refuses(NULL));
    ck_assert_int_eq(fgm_dlx_run(NULL, NULL, NULL, &count, NULL, NULL,
                                 NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_enumerate(NULL, NULL, 0, 0, x, NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_bench_run(NULL, NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_bench_write_table(NULL, stdout), FGM_EINVAL);
    ck_assert_int_eq(fgm_bench_write_csv(NULL, stdout), FGM_EINVAL);
    ck_assert_int_eq(fgm_bench_write_detail(NULL, stdout), FGM_EINVAL);
    ck_assert_int_eq(fgm_bench_write_svg(NULL, stdout), FGM_EINVAL);
    ck_assert_int_eq(fgm_bench_write_backends(NULL, stdout), FGM_EINVAL);
    ck_assert_int_eq(fgm_bench_save(NULL, "x", fgm_bench_write_csv, NULL,
                                    NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_write_atomic(NULL, NULL, NULL, NULL, NULL),
                     FGM_EINVAL);

    /* Each call below crashed on NULL before: a NULL status pointer is
     * not reported through, a NULL handle gets the value fgm.h names. */
    st = FGM_OK;
    {
        fgm_csp *csp = fgm_csp_new(ir, NULL);
        fgm_dlx *d;

        ck_assert_msg(csp != NULL, "fgm_csp_new takes a NULL status");
        ck_assert_ptr_null(fgm_csp_new(NULL, NULL));
        d = fgm_dlx_new(csp, NULL);
        ck_assert_msg(d != NULL, "fgm_dlx_new takes a NULL status");
        ck_assert_ptr_null(fgm_dlx_new(NULL, NULL));
        fgm_dlx_free(d);
        fgm_csp_free(csp);
    }
    ck_assert_int_eq(fgm_csp_nvars(NULL), 0);
    ck_assert_int_eq(fgm_csp_maxcard(NULL), 0);
    ck_assert_int_eq(fgm_csp_weighted(NULL), 0);
    ck_assert_ptr_null(fgm_solver_name(NULL));
    ck_assert_ptr_null(fgm_solver_summary(NULL));
    ck_assert_uint_eq(fgm_solver_flags(NULL), 0);
    {
        fgm_puzzle p = puzzle(EASY), q;
        fgm_puzzle_reader *r;
        int given[81], n = 7, box = 7, i;
        char buf[128];
        FILE *f = tmpfile();

        fgm_puzzle_to_given(NULL, NULL);
        fgm_puzzle_to_given(NULL, given);
        fgm_puzzle_to_given(&p, NULL);
        fgm_puzzle_clues(NULL, &p, given);
        fgm_puzzle_clues(NULL, NULL, NULL);
        fgm_puzzle_from_solution(NULL, given);
        q = p;
        fgm_puzzle_from_solution(&q, NULL);
        ck_assert_msg(memcmp(&q, &p, sizeof p) == 0,
                      "from_solution(p, NULL) leaves p as it was");
        /* Indices outside 0..8 leave their cells empty (300 was symbol
         * 45, no 9x9 puzzle's). */
        for (i = 0; i < 81; i++)
            given[i] = i % 9;
        given[3] = 9;
        given[4] = 300;
        given[5] = -2;
        fgm_puzzle_from_solution(&q, given);
        ck_assert_int_eq(q.cells[2], 3);
        ck_assert_int_eq(q.cells[3], 0);
        ck_assert_int_eq(q.cells[4], 0);
        ck_assert_int_eq(q.cells[5], 0);
        q = p;
        ck_assert_int_eq(fgm_puzzle_format_line(NULL, buf, sizeof buf), -1);
        ck_assert_int_eq(fgm_puzzle_format_line(&p, NULL, sizeof buf), -1);
        fgm_puzzle_write_grid(NULL, stdout);
        fgm_puzzle_write_grid(&p, NULL);
        /* A side past FGM_PUZZLE_MAXN, or none: nothing read or written
         * (cells[] was read past its end). */
        for (i = 0; i < 3; i++) {
            q = p;
            q.n = i == 0 ? -5 : i == 1 ? 0 : FGM_PUZZLE_MAXN + 1;
            memset(given, 0x7f, sizeof given);
            fgm_puzzle_to_given(&q, given);
            ck_assert_int_eq(given[0], 0x7f7f7f7f);
            ck_assert_int_eq(fgm_puzzle_format_line(&q, buf, sizeof buf), -1);
            fgm_puzzle_write_grid(&q, f);
            ck_assert_int_eq(ftell(f), 0);
            fgm_puzzle_from_solution(&q, given);
            ck_assert_int_eq(q.cells[0], p.cells[0]);
        }
        ck_assert_int_eq(fgm_puzzle_parse(NULL, "t", 0, 0, &q, NULL, NULL),
                         FGM_EINVAL);
        ck_assert_int_eq(fgm_puzzle_parse(EASY, "t", 0, 0, NULL, NULL,
                                          NULL), FGM_EINVAL);
        ck_assert_ptr_null(fgm_puzzle_reader_open(NULL, 0, 0, NULL, NULL));
        ck_assert_ptr_null(fgm_puzzle_reader_file(NULL, "t", 0, 0, NULL,
                                                  NULL));
        ck_assert_int_eq(fgm_puzzle_read(NULL, &q), FGM_EINVAL);
        ck_assert_int_eq(fgm_puzzle_peek(NULL, &q), FGM_EINVAL);
        ck_assert_int_eq(fgm_puzzle_reader_count(NULL), 0);
        fputs(EASY "\n", f);
        rewind(f);
        r = fgm_puzzle_reader_file(f, "t", 0, 0, NULL, NULL);
        ck_assert_int_eq(fgm_puzzle_peek(r, NULL), FGM_EINVAL);
        ck_assert_int_eq(fgm_puzzle_read(r, NULL), FGM_EINVAL);
        ck_assert_int_eq(fgm_puzzle_read(r, &q), FGM_OK);
        ck_assert_msg(memcmp(q.cells, p.cells, sizeof p.cells) == 0,
                      "a read into NULL consumes no puzzle");
        fgm_puzzle_reader_close(r);
        fclose(f);
        /* A NULL name was handed to printf's %s in every message. */
        nmsgs = 0;
        ck_assert_int_ne(fgm_puzzle_parse("1.3", NULL, 0, 0, &q, msg_sink,
                                          NULL), FGM_OK);
        ck_assert_msg(nmsgs == 1 && strstr(last_msg, "<string>"),
                      "parse names a NULL name <string>: %s", last_msg);
        f = tmpfile();
        fputs("1.3\n", f);
        rewind(f);
        r = fgm_puzzle_reader_file(f, NULL, 0, 0, msg_sink, NULL);
        nmsgs = 0;
        ck_assert_int_ne(fgm_puzzle_read(r, &q), FGM_OK);
        ck_assert_msg(nmsgs == 1 && strstr(last_msg, "<stream>"),
                      "the reader names a NULL name <stream>: %s", last_msg);
        fgm_puzzle_reader_close(r);
        fclose(f);

        ck_assert(fgm_ir_hash(NULL) == 0);
        ck_assert_ptr_null(fgm_ir_name(NULL));
        ck_assert_ptr_null(fgm_ir_algo(NULL));
        ck_assert_int_eq(fgm_ir_nvars(NULL), 0);
        ck_assert_int_eq(fgm_ir_ndirichlet(NULL), 0);
        ck_assert_int_eq(fgm_ir_narrays(NULL), 0);
        ck_assert_int_eq(fgm_ir_card(NULL, 0), 0);
        ck_assert_int_eq(fgm_ir_array_index(NULL, "cell"), -1);
        ck_assert_int_eq(fgm_ir_var_array(NULL, 0), -1);
        ck_assert_int_eq(fgm_ir_node_array(NULL, 0), -1);
        fgm_ir_grid(NULL, &n, &box);
        ck_assert_msg(n == 0 && box == 0, "no grid for IR NULL");
        ck_assert_str_eq(fgm_ir_var_name(NULL, 0, buf, sizeof buf), "");
        ck_assert_ptr_null(fgm_ir_var_name(ir, 0, NULL, sizeof buf));
        ck_assert_str_eq(fgm_ir_node_name(NULL, 0, buf, sizeof buf), "");
        ck_assert_ptr_null(fgm_ir_node_name(ir, 0, NULL, sizeof buf));
    }
    fgm_bench_opts_init(NULL);
    {
        fgm_bench *b = (fgm_bench *)&st;    /* must be overwritten */
        fgm_bench_opts o;
        const char *names[] = { NULL };

        ck_assert_int_eq(fgm_bench_run(NULL, &b), FGM_EINVAL);
        ck_assert_ptr_null(b);
        fgm_bench_opts_init(&o);
        o.nsolvers = o.ncorpora = 1;        /* lists left NULL */
        ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_EINVAL);
        o.solvers = o.corpora = names;      /* lists holding NULL */
        ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_EINVAL);
    }
    fgm_ir_free(ir);
}
END_TEST

Suite *
api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *core = tcase_create("core"), *limits = tcase_create("limits");
    TCase *errors = tcase_create("errors");

    /* The plugin test runs the C compiler twice. */
    tcase_set_timeout(core, 60);
    tcase_set_timeout(limits, 10);
    tcase_set_timeout(errors, 10);
    tcase_add_test(core, test_solver_registry);
    tcase_add_test(core, test_solve_puzzle_exact);
    tcase_add_test(core, test_solve_puzzle_ep);
    tcase_add_test(core, test_batch);
    tcase_add_test(core, test_batch_misfit);
    tcase_add_test(core, test_batch_extra_vars);
    tcase_add_test(core, test_batch_diag_serial);
    tcase_add_test(core, test_grid_units);
    tcase_add_test(core, test_puzzle_clues_fit);
    tcase_add_test(core, test_ir_queries);
    tcase_add_test(core, test_observe_clue);
    tcase_add_test(core, test_observe_clue_plain);
    tcase_add_test(core, test_observe_weights);
    tcase_add_test(core, test_observe_weights_clue);
    tcase_add_test(core, test_run_bad_opts);
    tcase_add_test(core, test_open_bad_backend);
    tcase_add_test(core, test_run_deadline);
    tcase_add_test(core, test_solve_deadline_in_inference);
    tcase_add_test(core, test_exact_counts);
    tcase_add_test(core, test_exact_unused_prior);
    tcase_add_test(core, test_model_contradiction);
    tcase_add_test(core, test_generate_puzzle);
    tcase_add_test(core, test_plugin_emit);
    tcase_add_test(core, test_plugin_emit_odd_source);
    tcase_add_test(core, test_plugin_emit_threads);
    tcase_add_test(core, test_bench);
    tcase_add_test(core, test_utilities);
    tcase_add_test(limits, test_limits);
    tcase_add_test(errors, test_solve_errors);
    tcase_add_test(errors, test_batch_errors);
    tcase_add_test(errors, test_solve_unsupported);
    tcase_add_test(errors, test_ir_errors);
    tcase_add_test(errors, test_model_errors);
    tcase_add_test(errors, test_other_errors);
    tcase_add_test(errors, test_null_handles);
    tcase_add_test(errors, test_model_before_run);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    suite_add_tcase(s, errors);
    return s;
}
