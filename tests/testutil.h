/* tests/testutil.h: small fixtures shared by the check suites.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_TESTUTIL_H
#define FGM_TESTUTIL_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "../runtime/exact/csp.h"
#include "../runtime/solve/run.h"

/* Models the sampler's and mean field's tests share, without their
 * infer line (each appends its own).
 * TABLE3_MODEL: three variables under one table over all three
 * (row-major: the middle variable's stride is the last's domain), one
 * over two, and evidence on the middle one: a table indexed wrongly is
 * far off.
 * CASINO_MODEL(T): the casino of models/casino.fgm over T rolls, two
 * gated chains of draws (the die from the last die's row of swap, the
 * roll from the die's face): a draw's value and its gate both hidden,
 * two draws of one node in one variable's update. */
#define TABLE3_MODEL \
    "var a in 0..1\nvar b in 0..2\nvar c in 0..1\n" \
    "table (a, b, c) = [[[1, 5], [2, 1], [6, 1]],\n" \
    "                   [[3, 1], [1, 1], [1, 9]]]\n" \
    "table (a, c) = [[1, 2], [4, 1]]\n" \
    "evidence b = [0.2, 0.5, 0.3]\n"
#define CASINO_MODEL(T) \
    "const T = " #T "\n" \
    "prior swap[2] ~ dirichlet([[9, 1], [1, 9]])\n" \
    "prior face[2] ~ dirichlet([[5, 5, 5, 5, 5, 5], [1, 1, 1, 1, 1, 5]])\n" \
    "var die[T] in 0..1\n" \
    "observed var roll[T] in 1..6\n" \
    "die[t] ~ discrete(swap[die[t - 1]]) for t in 1..T-1\n" \
    "roll[t] ~ discrete(face[die[t]]) for t in 0..T-1\n"

/* The three grids of seed notebook 003 (Easy, Medium, Hard), row-major. */
#define SEED003_EASY \
    "530070000600195000098000060800060003400803001700020006" \
    "060000280000419005000080079"
#define SEED003_MEDIUM \
    "000260701680070090190004500820100040004602900050003028" \
    "009300074040050036703018000"
#define SEED003_HARD \
    "000600400700003600000091080000000000050180003000306045" \
    "040200060903000000020000100"

/* The IR of model TEXT, which must compile. */
static inline fgm_ir *
compile_text(const char *text)
{
    fgm_ir *ir = NULL;

    ck_assert_int_eq(fgm_compile_string(text, "test.fgm", NULL, &ir, NULL,
                                        NULL), FGM_OK);
    return ir;
}

/* Opens a model from IR (owned by the model from now on) on BACKEND with
 * plugins in DIR (NULL: generated/); the test fails if it cannot. */
static inline fgm_model *
open_backend(fgm_ir *ir, fgm_backend backend, const char *dir)
{
    fgm_model_opts o;
    fgm_model *m = NULL;

    memset(&o, 0, sizeof o);
    o.backend = backend;
    o.out_dir = dir;
    ck_assert_int_eq(fgm_model_open_ir(ir, &o, &m, NULL, NULL), FGM_OK);
    return m;
}

/* Fills GIVEN (value indices, -1 empty) from a one-line grid of digits
 * 1-9 / letters, with '.' or '0' for empty.  Returns the number of cells. */
static inline int
test_given(const char *s, int *given)
{
    int i, n = (int)strlen(s);

    for (i = 0; i < n; i++) {
        char c = s[i];

        if (c >= '1' && c <= '9')
            given[i] = c - '1';
        else if (c >= 'A' && c <= 'Z')
            given[i] = c - 'A' + 9;
        else
            given[i] = -1;
    }
    return n;
}

/* Path of a file under the shared data folder (FGM_SHARED, default
 * ../shared), in a static buffer. */
static inline const char *
test_shared(const char *rel)
{
    static char buf[1024];
    const char *root = getenv("FGM_SHARED");

    snprintf(buf, sizeof buf, "%s/%s", root ? root : "../shared", rel);
    return buf;
}

/* A model and its csp view, freed together. */
typedef struct test_fixture {
    fgm_ir *ir;
    fgm_csp *csp;
} test_fixture;

static inline test_fixture
test_fixture_new(fgm_ir *ir)
{
    test_fixture fx;
    fgm_status st;

    ck_assert_ptr_nonnull(ir);
    fx.ir = ir;
    fx.csp = fgm_csp_new(ir, &st);
    ck_assert_msg(fx.csp != NULL, "csp builds: %s", fgm_strerror(st));
    return fx;
}

static inline void
test_fixture_free(test_fixture *fx)
{
    fgm_csp_free(fx->csp);
    fgm_ir_free(fx->ir);
}

/* Solves GIVEN with SOLVER through the verifying driver (seed 1). */
static inline fgm_status
test_solve(const fgm_solver *solver, const fgm_csp *csp, const int *given,
           double timeout_ms, int *sol, fgm_solve_result *res)
{
    fgm_status st;
    const char *why;
    fgm_runner *r = fgm_runner_new(solver, csp, NULL, &st, &why);

    ck_assert_msg(r != NULL, "%s accepts the model: %s", solver->name,
                  why ? why : "");
    st = fgm_runner_solve(r, given, 1, timeout_ms, sol, res);
    fgm_runner_free(r);
    return st;
}

/* Asserts that SOLVER solves, verified, every 9x9 puzzle of the shared
 * corpora top95.txt and hardest.txt. */
static inline void
test_solve_corpora(const fgm_solver *solver)
{
    static const char *const files[] = {
        "puzzles/top95.txt", "puzzles/hardest.txt"
    };
    test_fixture fx = test_fixture_new(fgm_ir_sudoku(3));
    const char *why;
    fgm_status st;
    fgm_runner *r = fgm_runner_new(solver, fx.csp, NULL, &st, &why);
    int given[81], sol[81], i;

    ck_assert_ptr_nonnull(r);
    for (i = 0; i < 2; i++) {
        FILE *f = fopen(test_shared(files[i]), "r");
        char line[256];
        int n = 0, solved = 0;

        ck_assert_msg(f != NULL, "%s opens", test_shared(files[i]));
        while (fgets(line, sizeof line, f)) {
            fgm_solve_result res;

            if (strlen(line) < 81 || line[0] == '#')
                continue;
            line[81] = '\0';
            test_given(line, given);
            n++;
            fgm_runner_solve(r, given, 1, 0, sol, &res);
            solved += res.solved;
        }
        fclose(f);
        ck_assert_int_gt(n, 10);
        ck_assert_msg(solved == n, "%s on %s: %d/%d solved", solver->name,
                      files[i], solved, n);
    }
    fgm_runner_free(r);
    test_fixture_free(&fx);
}

#endif /* FGM_TESTUTIL_H */
