/* tests/check_compiler.c: the .fgm compiler: shipped models, IR layout, every
 * error class, hostile input.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../runtime/ir.h"
#include "suites.h"

/* Collects diagnostics: all messages, one per line group, and a count. */
typedef struct sink {
    char *text;
    size_t len;
    int n;
} sink;

static void
collect(void *ctx, const char *msg)
{
    sink *s = ctx;
    size_t m = strlen(msg);
    char *t = realloc(s->text, s->len + m + 2);

    ck_assert_ptr_nonnull(t);
    memcpy(t + s->len, msg, m);
    t[s->len + m] = '\n';
    t[s->len + m + 1] = '\0';
    s->text = t;
    s->len += m + 1;
    s->n++;
}

static void
sink_free(sink *s)
{
    free(s->text);
    memset(s, 0, sizeof *s);
}

/* Compiles TEXT named "t.fgm"; *ST gets the status, the sink the
 * messages.  Returns the IR (NULL on error). */
static fgm_ir *
compile(const char *text, fgm_status *st, sink *s)
{
    fgm_ir *ir = NULL;

    memset(s, 0, sizeof *s);
    *st = fgm_compile_string(text, "t.fgm", NULL, &ir, collect, s);
    if (*st != FGM_OK)
        ck_assert_ptr_null(ir);
    return ir;
}

/* Compiles the file PATH with DEFINES; fails the test on any error. */
static fgm_ir *
compile_model(const char *path, const char *const *defines, int ndefines)
{
    fgm_compile_opts opts = { defines, ndefines, 0 };
    fgm_ir *ir = NULL;
    sink s = { 0 };
    fgm_status st = fgm_compile_file(path, &opts, &ir, collect, &s);

    ck_assert_msg(st == FGM_OK, "%s compiles: status %d: %s", path, st,
                  s.text ? s.text : "");
    ck_assert_int_eq(s.n, 0);
    ck_assert_ptr_nonnull(ir);
    sink_free(&s);
    return ir;
}

/* Compiles TEXT that must compile cleanly. */
static fgm_ir *
compile_ok(const char *text)
{
    fgm_status st;
    sink s;
    fgm_ir *ir = compile(text, &st, &s);

    ck_assert_msg(st == FGM_OK, "compiles: %s\n%s", text,
                  s.text ? s.text : "");
    sink_free(&s);
    return ir;
}

/* ---- shipped models ------------------------------------------------- */

START_TEST(test_models_compile)
{
    static const char *const models[] = {
        "models/sudoku.fgm", "models/latin.fgm", "models/sudoku_naive.fgm",
        "models/dice.fgm", "models/chain.fgm", "models/queens.fgm",
        "models/schedule.fgm", "models/casino.fgm", "models/one_die.fgm"
    };
    size_t i;

    for (i = 0; i < sizeof models / sizeof models[0]; i++) {
        fgm_ir *ir = compile_model(models[i], NULL, 0);

        ck_assert_str_eq(ir->source, models[i]);
        ck_assert_int_gt(ir->nvars, 0);
        fgm_ir_free(ir);
    }
}
END_TEST

/* The alldiff factors of A, in order, have exactly the scopes of B's
 * factors (B: a built-in IR made of alldiff factors only). */
static void
same_alldiffs(const fgm_ir *a, const fgm_ir *b)
{
    int i, k = 0;

    for (i = 0; i < a->nfactors; i++) {
        const fgm_ir_factor *fa = &a->factors[i], *fb;

        if (fa->kind != FGM_FACTOR_ALLDIFF)
            continue;
        ck_assert_int_lt(k, b->nfactors);
        fb = &b->factors[k++];
        ck_assert_int_eq(fb->kind, FGM_FACTOR_ALLDIFF);
        ck_assert_int_eq(fa->arity, fb->arity);
        ck_assert_msg(memcmp(fgm_ir_scope(a, fa), fgm_ir_scope(b, fb),
                             (size_t)fa->arity * sizeof(int)) == 0,
                      "alldiff %d has the built-in's scope", k - 1);
    }
    ck_assert_int_eq(k, b->nfactors);
}

START_TEST(test_sudoku_matches_builder)
{
    static const char *const defs[][1] = { { "B=2" }, { "B=3" }, { "B=4" } };
    int b;

    for (b = 2; b <= 4; b++) {
        fgm_ir *ir = compile_model("models/sudoku.fgm", defs[b - 2], 1);
        fgm_ir *ref = fgm_ir_sudoku(b);
        const fgm_ir_array *cell = fgm_ir_find_array(ir, "cell");
        const fgm_ir_array *p = fgm_ir_find_array(ir, "p");
        int n = b * b, i, links = 0;

        ck_assert_ptr_nonnull(cell);
        ck_assert_ptr_nonnull(p);
        ck_assert_int_eq(ir->nvars, ref->nvars);
        ck_assert_int_eq(cell->first, 0);
        ck_assert_int_eq(cell->ndims, 2);
        ck_assert_int_eq(cell->dims[0], n);
        ck_assert_int_eq(cell->dims[1], n);
        ck_assert_int_eq(cell->lo, 1);
        ck_assert_int_eq(cell->card, n);
        ck_assert_int_eq(p->kind, FGM_ARRAY_DIRICHLET);
        ck_assert_int_eq(p->card, n);
        ck_assert_uint_eq(p->flags & FGM_ARRAY_OBSERVED, FGM_ARRAY_OBSERVED);
        ck_assert_int_eq(ir->ndirichlet, n * n);
        same_alldiffs(ir, ref);
        /* cell[i][j] ~ Discrete(p[i][j]): variable v links node v. */
        for (i = 0; i < ir->nfactors; i++)
            if (ir->factors[i].kind == FGM_FACTOR_DIRICHLET_DISCRETE) {
                ck_assert_int_eq(ir->factors[i].aux,
                                 fgm_ir_scope(ir, &ir->factors[i])[0]);
                links++;
            }
        ck_assert_int_eq(links, n * n);
        ck_assert_int_eq(ir->nfactors, n * n + 3 * n);
        ck_assert_int_eq(ir->infer.algo, FGM_ALGO_EP);
        ck_assert_int_eq(ir->infer.iterations, 50);
        ck_assert_int_eq(ir->infer.alldiff, FGM_ALLDIFF_PAIRWISE);
        fgm_ir_free(ir);
        fgm_ir_free(ref);
    }
}
END_TEST

START_TEST(test_sudoku_default_is_b3)
{
    fgm_ir *a = compile_model("models/sudoku.fgm", NULL, 0);
    const char *const d[] = { "B=3" };
    fgm_ir *b = compile_model("models/sudoku.fgm", d, 1);

    ck_assert_msg(fgm_ir_hash(a) == fgm_ir_hash(b), "B defaults to 3");
    ck_assert_str_eq(a->name, "sudoku");
    fgm_ir_free(a);
    fgm_ir_free(b);
}
END_TEST

START_TEST(test_latin_matches_builder)
{
    fgm_ir *ir = compile_model("models/latin.fgm", NULL, 0);
    fgm_ir *ref = fgm_ir_latin(5);

    ck_assert_int_eq(ir->nvars, 25);
    same_alldiffs(ir, ref);
    fgm_ir_free(ir);
    fgm_ir_free(ref);
}
END_TEST

START_TEST(test_naive_clues)
{
    static const char grid[] = "9.2..54.31...63.255.84.7.6..263.9..1.57.1.29"
                               "..9.67.53.24.53.6..7.52..3.4.8..4195.";
    fgm_ir *ir = compile_model("models/sudoku_naive.fgm", NULL, 0);
    fgm_ir *ref = fgm_ir_sudoku(3);
    int i, clues = 0, seen = 0;

    for (i = 0; grid[i]; i++)
        clues += grid[i] != '.';
    ck_assert_int_eq(ir->ndirichlet, 0);
    same_alldiffs(ir, ref);
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        int v, j;

        if (f->kind != FGM_FACTOR_EVIDENCE)
            continue;
        v = fgm_ir_scope(ir, f)[0];
        ck_assert_int_ne(grid[v], '.');
        ck_assert_int_eq(f->nparams, 9);
        for (j = 0; j < 9; j++)
            ck_assert_double_eq(fgm_ir_params(ir, f)[j],
                                j == grid[v] - '1' ? 1.0 : 0.0);
        seen++;
    }
    ck_assert_int_eq(seen, clues);
    fgm_ir_free(ir);
    fgm_ir_free(ref);
}
END_TEST

/* Comparisons lower to 0/1 tables over the pair's values, any two
 * domains, or to 0/1 evidence against a number; one that every pair
 * meets adds no factor, even with an offset near 2^63 (y + off
 * overflowed, ruling pairs out). */
START_TEST(test_comparison_tables)
{
    static const struct {
        const char *cmp;
        int nfactors;
        double w[6];    /* x in 0..1 by y in -1..1, row-major */
    } cases[] = {
        { "x < y", 1, { 0, 0, 1, 0, 0, 0 } },
        { "x <= y", 1, { 0, 1, 1, 0, 0, 1 } },
        { "x == y", 1, { 0, 1, 0, 0, 0, 1 } },
        { "x > y - 1", 1, { 1, 1, 0, 1, 1, 1 } },
        { "x >= y + (2 - 3)", 0, { 0 } },     /* every pair holds */
        { "x < y + 9223372036854775807", 0, { 0 } },
        { "x > y - 9223372036854775807 - 1", 0, { 0 } },
        /* One variable against a number (a const, a real): evidence. */
        { "y != 0", 1, { 1, 0, 1 } },
        { "y < N - 1", 1, { 1, 1, 0 } },
        { "y >= -0.5", 1, { 0, 1, 1 } },
        { "x <= 1", 0, { 0 } },
    };
    char text[160];
    size_t i;
    int j;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fgm_ir *ir;

        snprintf(text, sizeof text, "const N = 2\nvar x in 0..1\nvar y in "
                 "-1..1\n%s\n", cases[i].cmp);
        ir = compile_ok(text);
        ck_assert_msg(ir->nfactors == cases[i].nfactors, "%s: %d factors",
                      cases[i].cmp, ir->nfactors);
        for (j = 0; ir->nfactors && j < ir->factors[0].nparams; j++)
            ck_assert_msg(fgm_ir_params(ir, &ir->factors[0])[j]
                          == cases[i].w[j], "%s: entry %d", cases[i].cmp, j);
        if (ir->nfactors)
            ck_assert_int_eq(ir->factors[0].kind,
                             strchr(cases[i].cmp + 2, 'y') ? FGM_FACTOR_TABLE
                                                           : FGM_FACTOR_EVIDENCE);
        fgm_ir_free(ir);
    }
}
END_TEST

START_TEST(test_dice)
{
    fgm_ir *ir = compile_model("models/dice.fgm", NULL, 0);
    const fgm_ir_array *roll = fgm_ir_find_array(ir, "roll");
    int i;

    ck_assert_int_eq(ir->nvars, 20);
    ck_assert_int_eq(ir->ndirichlet, 1);
    ck_assert_uint_eq(roll->flags & FGM_ARRAY_OBSERVED, FGM_ARRAY_OBSERVED);
    ck_assert_int_eq(ir->nfactors, 20);
    for (i = 0; i < 20; i++) {
        ck_assert_int_eq(ir->factors[i].kind, FGM_FACTOR_DIRICHLET_DISCRETE);
        ck_assert_int_eq(ir->factors[i].aux, 0);
        ck_assert_int_eq(fgm_ir_scope(ir, &ir->factors[i])[0], i);
    }
    for (i = 0; i < 6; i++)
        ck_assert_double_eq(ir->param_pool[ir->arrays[0].alpha + i], 1.0);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_chain)
{
    fgm_ir *ir = compile_model("models/chain.fgm", NULL, 0);
    int i, tables = 0;

    ck_assert_int_eq(ir->nvars, 6);
    ck_assert_int_eq(ir->infer.algo, FGM_ALGO_BP_SUM);
    ck_assert_int_eq(ir->infer.iterations, 10);
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];

        if (f->kind == FGM_FACTOR_TABLE) {
            ck_assert_int_eq(fgm_ir_scope(ir, f)[0], tables);
            ck_assert_int_eq(fgm_ir_scope(ir, f)[1], tables + 1);
            ck_assert_int_eq(f->nparams, 9);
            ck_assert_double_eq(fgm_ir_params(ir, f)[0], 4);
            ck_assert_double_eq(fgm_ir_params(ir, f)[1], 1);
            tables++;
        }
    }
    ck_assert_int_eq(tables, 5);
    ck_assert_int_eq(ir->factors[5].kind, FGM_FACTOR_EVIDENCE);
    ck_assert_double_eq_tol(fgm_ir_params(ir, &ir->factors[5])[0], 0.7,
                            1e-15);   /* the literal, as strtod reads it */
    fgm_ir_free(ir);
}
END_TEST

/* ---- the language, piece by piece --------------------------------- */

/* A real const (it was "const 'P' must be an integer") stands for its
 * value in weights and in expressions over reals; an integer const keeps
 * working where integers are needed, beside it. */
START_TEST(test_real_const)
{
    fgm_ir *ir = compile_ok("model t\nconst P = 0.25\nconst N = 2\n"
                            "const Q = 1 - P * 2\nvar x[N] in 0..1\n"
                            "evidence x[0] = [P, Q]\n"
                            "table (x[0], x[1]) = [[P, 1], [1, -P + 1]]\n");
    const double *e = fgm_ir_params(ir, &ir->factors[0]);
    const double *t = fgm_ir_params(ir, &ir->factors[1]);

    ck_assert_int_eq(ir->nvars, 2);
    ck_assert_double_eq(e[0], 0.25);
    ck_assert_double_eq(e[1], 0.5);
    ck_assert_double_eq(t[0], 0.25);
    ck_assert_double_eq(t[3], 0.75);
    fgm_ir_free(ir);
}
END_TEST

/* A range empty by one and written with a const stands for no binding:
 * an HMM of T = 1 step has no transition (it was "range 0..-1 is
 * empty"). */
START_TEST(test_const_range_empty_by_one)
{
    fgm_ir *ir = compile_ok("const T = 1\nvar h[T] in 0..1\n"
                            "table (h[t], h[t+1]) = [[0.7, 0.3], [0.4, 0.6]] "
                            "for t in 0..T-2\nevidence h[0] = [0.6, 0.4]\n");

    ck_assert_int_eq(ir->nfactors, 1);
    ck_assert_int_eq(ir->factors[0].kind, FGM_FACTOR_EVIDENCE);
    fgm_ir_free(ir);
    /* Every pair once, at N = 1: none (j's range 1..0 by one, with N;
     * it was "every binding of this for clause has an empty range"). */
    ir = compile_ok("const N = 1\nvar x[N] in 0..3\nevidence x[0] = "
                    "[1, 2, 3, 4]\nx[i] != x[j] for i in 0..N-1, j in "
                    "i+1..N-1\n");
    ck_assert_int_eq(ir->nfactors, 1);
    fgm_ir_free(ir);
}
END_TEST

/* exp, log and sqrt of numbers, consts and loop variables: real values
 * (an Ising coupling's potentials). */
START_TEST(test_functions)
{
    fgm_ir *ir = compile_ok("const J = log(2)\nvar s[3] in 0..1\n"
                            "evidence s[0] = [exp(J) + sqrt(0), sqrt(9)]\n"
                            "table (s[i], s[i+1]) = [[exp(J * i), 1], "
                            "[1, exp(-J)]] for i in 0..1\n");
    const double *e = fgm_ir_params(ir, &ir->factors[0]);
    const double *t = fgm_ir_params(ir, &ir->factors[2]);

    ck_assert_double_eq_tol(e[0], 2.0, 1e-15);
    ck_assert_double_eq(e[1], 3.0);
    ck_assert_double_eq_tol(t[0], 2.0, 1e-15);     /* i = 1 */
    ck_assert_double_eq_tol(t[3], 0.5, 1e-15);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_table_row_major)
{
    fgm_ir *ir = compile_ok("model t\nvar x in 0..1\nvar y in 5..7\n"
                            "table (x, y) = [[1, 2, 3],\n"
                            "                [4, 5, 6.5],]\n");
    const double *p = fgm_ir_params(ir, &ir->factors[0]);
    int i;

    ck_assert_int_eq(ir->factors[0].nparams, 6);
    for (i = 0; i < 5; i++)
        ck_assert_double_eq(p[i], i + 1);
    ck_assert_double_eq(p[5], 6.5);
    ck_assert_int_eq(fgm_ir_scope(ir, &ir->factors[0])[0], 0);
    ck_assert_int_eq(fgm_ir_scope(ir, &ir->factors[0])[1], 1);
    fgm_ir_free(ir);
}
END_TEST

/* Weights far from 1 are scaled by a power of two at compile time (the
 * same ratios), so that the kernels' sums neither overflow nor fall
 * under the messages' floor; usual weights stay as written.  Before,
 * evidence [1e308, 1e308, 1] and [1e-310, 1e-310, 0] gave uniform
 * marginals on both EP backends. */
START_TEST(test_extreme_weights)
{
    static const char *const texts[] = {
        "var x in 1..3\nevidence x = [1e308, 1e308, 1]\n",
        "var x in 1..3\nevidence x = [1e-310, 1e-310, 0]\n",
        /* Parenthesized: one string on two lines (clang warns of a
         * missing comma otherwise). */
        ("var x in 1..3\nvar y in 1..3\n"
         "table (x, y) = [[1e308, 1e308, 1], [1, 1, 1], [1, 1, 1]]\n"),
    };
    static const double want[3][3] = {
        { 0.5, 0.5, 0.0 }, { 0.5, 0.5, 0.0 }, { 1.0, 0.0, 0.0 },
    };
    fgm_ir *ir = compile_ok("var x in 1..3\nevidence x = [1, 2, 3.5]\n");
    const double *p = fgm_ir_params(ir, &ir->factors[0]);
    fgm_model_opts mo;
    fgm_model *m;
    double out[3];
    int t, j;

    ck_assert_double_eq(p[0], 1);       /* the usual range: unchanged */
    ck_assert_double_eq(p[2], 3.5);
    fgm_ir_free(ir);
    ir = compile_ok(texts[0]);
    p = fgm_ir_params(ir, &ir->factors[0]);
    ck_assert(p[0] >= 0.5 && p[0] <= 4.0);  /* 1 stays a normal double */
    ck_assert_double_eq(p[0], p[1]);
    ck_assert(p[2] >= DBL_MIN && p[2] < 1e-300);
    fgm_ir_free(ir);
    memset(&mo, 0, sizeof mo);
    mo.backend = FGM_BACKEND_INTERPRETED;
    for (t = 0; t < 3; t++) {
        ir = compile_ok(texts[t]);
        ck_assert_int_eq(fgm_model_open_ir(ir, &mo, &m, NULL, NULL), FGM_OK);
        ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
        ck_assert_int_eq(fgm_model_marginal(m, 0, out), FGM_OK);
        for (j = 0; j < 3; j++)
            ck_assert_msg(fabs(out[j] - want[t][j]) < 1e-12,
                          "model %d, x = %d: %g, not %g", t, j + 1, out[j],
                          want[t][j]);
        fgm_model_free(m);
    }
    /* The scaling stops where the smallest weight would leave the normal
     * doubles: a spread of 2^1990 (1e300 to 1e-300) keeps every weight
     * nonzero, so the exact backend still finds x = 2 (the first
     * version scaled 1e-300 to 0: no assignment left), and weights of
     * 1e-300 keep their digits (they had become subnormal). */
    for (t = 0; t < 2; t++) {
        static const char *const wide[] = {
            "var x in 1..2\nevidence x = [1e300, 1e-300]\n"
            "evidence x = [0, 1]\n",
            "var x in 1..3\nevidence x = [1152921504606846976, "
            "1.2345678901234567e-300, 1.1e-300]\nevidence x = [0, 1, 1]\n",
        };
        double ex[3], want1 = t ? 1.2345678901234567e-300
                                  / (1.2345678901234567e-300 + 1.1e-300)
                                : 1.0;
        fgm_csp *csp;
        fgm_status st;

        ir = compile_ok(wide[t]);
        csp = fgm_csp_new(ir, &st);
        ck_assert_ptr_nonnull(csp);
        ck_assert_int_eq(fgm_enumerate(csp, NULL, 0, 0, ex, NULL), FGM_OK);
        ck_assert_double_eq(ex[0], 0.0);
        ck_assert_msg(fabs(ex[1] - want1) < 1e-15, "model %d: P(x = 2) = "
                      "%.17g, not %.17g", t, ex[1], want1);
        fgm_csp_free(csp);
        fgm_ir_free(ir);
    }
}
END_TEST

START_TEST(test_comprehensions)
{
    fgm_ir *ir = compile_ok(
        "var x[4] in 1..4\nvar y in 1..4\nvar z[3] in 1..4\n"
        "x[i] != x[j] for i in 0..3, j in i+1..3\n"      /* 6 pairs */
        "alldiff(x[0], y, z[2])\n"
        "z[i] != z[i+1] for i in 0..1\n"
        "fix x[k] = k + 1 for k in 2..3\n"
        "evidence z = [1, 2, 3, 4]\n"
        "y != x[j] for i in 1..1, j in i..i\n"    /* i: in j's range */
        "y != z[j] for b in 0..1, j in b..b\n");  /* blocks: no repeat */
    int i, neq = 0;

    for (i = 0; i < 6; i++) {
        const int *s = fgm_ir_scope(ir, &ir->factors[i]);

        ck_assert_int_eq(ir->factors[i].kind, FGM_FACTOR_NEQ);
        ck_assert_int_lt(s[0], s[1]);
        neq++;
    }
    ck_assert_int_eq(ir->factors[6].kind, FGM_FACTOR_ALLDIFF);
    ck_assert_int_eq(ir->factors[6].arity, 3);
    ck_assert_int_eq(fgm_ir_scope(ir, &ir->factors[6])[0], 0);
    ck_assert_int_eq(fgm_ir_scope(ir, &ir->factors[6])[1], 4);
    ck_assert_int_eq(fgm_ir_scope(ir, &ir->factors[6])[2], 7);
    ck_assert_int_eq(ir->factors[7].kind, FGM_FACTOR_NEQ);
    ck_assert_int_eq(ir->factors[9].kind, FGM_FACTOR_EVIDENCE);
    ck_assert_double_eq(fgm_ir_params(ir, &ir->factors[9])[2], 1);
    ck_assert_int_eq(ir->nfactors, 6 + 1 + 2 + 2 + 3 + 1 + 2);
    ck_assert_int_eq(ir->factors[14].kind, FGM_FACTOR_NEQ);
    ck_assert_int_eq(neq, 6);
    fgm_ir_free(ir);
}
END_TEST

/* Fewer subscripts than dimensions name the block they lead: `g[i]` is
 * `g[i][*]` (row i), `h[0]` of a 3-D array its first plane, the same IR
 * to the hash. */
START_TEST(test_leading_subscripts)
{
    fgm_ir *a = compile_ok(
        "var g[3][3] in 1..3\nvar h[2][2][2] in 0..1\n"
        "alldiff g[i] for i in 0..2\n"
        "evidence h[0] = [1, 2]\n"
        "table (g[0][0], g[1][0]) = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]\n");
    fgm_ir *b = compile_ok(
        "var g[3][3] in 1..3\nvar h[2][2][2] in 0..1\n"
        "alldiff g[i][*] for i in 0..2\n"
        "evidence h[0][*][*] = [1, 2]\n"
        "table (g[0][0], g[1][0]) = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]\n");

    ck_assert_int_eq(a->nfactors, 3 + 4 + 1);
    ck_assert_uint_eq(fgm_ir_hash(a), fgm_ir_hash(b));
    fgm_ir_free(a);
    fgm_ir_free(b);
}
END_TEST

/* Draw statements: a node by constant subscripts, or picked by a gate
 * variable (its first label's node in aux, one node a value); priors
 * with pseudo-counts a node. */
START_TEST(test_draws_and_gates)
{
    fgm_ir *ir = compile_ok(
        "prior t[2][3] ~ dirichlet([[[1, 2], [3, 4], [5, 6]],\n"
        "                           [[7, 8], [9, 10], [11, 12]]])\n"
        "var g in 1..2\n"
        "var y[3] in 0..1\n"
        "y[i] ~ discrete(t[1][g]) for i in 0..2\n"
        "y[0] ~ discrete(t[0][2])\n");
    const int *sc;
    int i;

    ck_assert_int_eq(ir->ndirichlet, 6);
    ck_assert(ir->arrays[0].flags & FGM_ARRAY_ALPHA_EACH);
    for (i = 0; i < 6; i++) {
        ck_assert_double_eq(fgm_ir_node_alpha(ir, i)[0], 2 * i + 1);
        ck_assert_double_eq(fgm_ir_node_alpha(ir, i)[1], 2 * i + 2);
    }
    ck_assert_int_eq(ir->nfactors, 4);
    for (i = 0; i < 3; i++) {
        sc = fgm_ir_scope(ir, &ir->factors[i]);
        ck_assert_int_eq(ir->factors[i].kind, FGM_FACTOR_DIRICHLET_GATED);
        ck_assert_int_eq(sc[0], 1 + i);
        ck_assert_int_eq(sc[1], 0);
        ck_assert_int_eq(ir->factors[i].aux, 3 + 1);   /* t[1][g = 1] */
    }
    ck_assert_int_eq(ir->factors[3].kind, FGM_FACTOR_DIRICHLET_DISCRETE);
    ck_assert_int_eq(ir->factors[3].aux, 2);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_priors_and_links)
{
    fgm_ir *ir = compile_ok(
        "prior s ~ dirichlet([1, 2, 1.5])\n"
        "prior q[2] ~ dirichlet(3)\n"
        "var a[4] in 0..2 ~ discrete(s)\n"         /* shared scalar */
        "var b[2] in 0..2 ~ discrete(q)\n"         /* elementwise */
        "var c in 0..2 ~ discrete(q[1])\n"         /* one element */
        "var d[2][3] in 0..2 ~ discrete(q)\n");    /* a row per node */
    int i;

    ck_assert_int_eq(ir->ndirichlet, 3);
    ck_assert_double_eq(ir->param_pool[ir->arrays[0].alpha + 1], 2);
    ck_assert_double_eq(ir->param_pool[ir->arrays[0].alpha + 2], 1.5);
    for (i = 0; i < 4; i++)
        ck_assert_int_eq(ir->factors[i].aux, 0);
    ck_assert_int_eq(ir->factors[4].aux, 1);
    ck_assert_int_eq(ir->factors[5].aux, 2);
    ck_assert_int_eq(ir->factors[6].aux, 2);
    for (i = 0; i < 6; i++)     /* d[0][*] draws from q[0], d[1][*] q[1] */
        ck_assert_int_eq(ir->factors[7 + i].aux, 1 + i / 3);
    ck_assert_int_eq(ir->nfactors, 13);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_infer_settings)
{
    fgm_ir *ir = compile_ok(
        "var x[2] in 0..1\nx[0] != x[1]\n"
        "infer bp-max(iterations = 2 * 10, damping = 0.5, tolerance = 1e-6,\n"
        "             schedule = parallel, alldiff = native,\n"
        "             projection = mean-square)\n");

    ck_assert_int_eq(ir->infer.algo, FGM_ALGO_BP_MAX);
    ck_assert_int_eq(ir->infer.iterations, 20);
    ck_assert_double_eq(ir->infer.damping, 0.5);
    ck_assert_double_eq(ir->infer.tolerance, 1e-6);
    ck_assert_int_eq(ir->infer.schedule, FGM_SCHEDULE_PARALLEL);
    ck_assert_int_eq(ir->infer.alldiff, FGM_ALLDIFF_NATIVE);
    ck_assert_int_eq(ir->infer.projection, FGM_PROJECTION_MEAN_SQUARE);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_defaults_and_positions)
{
    fgm_ir *ir = NULL;
    sink s = { 0 };
    fgm_status st = fgm_compile_string(
        "# no model line, no infer block\n"
        "var x[3] in 1..3\n"
        "  alldiff x\n", "some/dir/my-model.v2.fgm", NULL, &ir, collect, &s);
    fgm_ir *ref = fgm_ir_new("x");

    ck_assert_int_eq(st, FGM_OK);
    ck_assert_str_eq(ir->name, "my_model");
    ck_assert_str_eq(ir->source, "some/dir/my-model.v2.fgm");
    ck_assert_int_eq(ir->infer.algo, ref->infer.algo);
    ck_assert_int_eq(ir->infer.iterations, ref->infer.iterations);
    ck_assert_int_eq(ir->factors[0].line, 3);
    ck_assert_int_eq(ir->factors[0].col, 3);
    ck_assert_int_eq(ir->factors[0].arity, 3);
    fgm_ir_free(ir);
    fgm_ir_free(ref);
    /* A leading digit gets a '_': the name must be one set_name takes. */
    st = fgm_compile_string("var x[2] in 1..2\n", "9x9-grid.fgm", NULL, &ir,
                            collect, &s);
    ck_assert_int_eq(st, FGM_OK);
    ck_assert_str_eq(ir->name, "_9x9_grid");
    ck_assert_int_eq(fgm_ir_set_name(ir, "_9x9_grid_B3"), FGM_OK);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_alldiff_stays_one_factor)
{
    fgm_ir *ir = compile_ok("var x[5] in 1..5\nalldiff x\n"
                            "infer ep(alldiff = pairwise)\n");

    ck_assert_int_eq(ir->nfactors, 1);
    ck_assert_int_eq(ir->factors[0].kind, FGM_FACTOR_ALLDIFF);
    ck_assert_int_eq(ir->infer.alldiff, FGM_ALLDIFF_PAIRWISE);
    fgm_ir_free(ir);
}
END_TEST

/* ---- errors --------------------------------------------------------- */

typedef struct bad_case {
    const char *text;
    fgm_status status;
    const char *want;   /* a substring of the first message */
} bad_case;

static const bad_case bad_cases[] = {
    /* syntax */
    { "var x[3] in 1..3\nconst N = (3 + 4\n", FGM_EPARSE,
      "t.fgm:2:17: error: unexpected end of line, expected ')' (to close "
      "'(' at line 2)" },
    { "var x[3] in 1..3\nalldiff x[0, x[1]\n", FGM_EPARSE,
      "t.fgm:2:12: error: unexpected ',', expected ']' (to close '[' at "
      "line 2)" },
    { "var x in 1..3 @\n", FGM_EPARSE,
      "t.fgm:1:15: error: invalid character '@'\nvar x in 1..3 @\n"
      "              ^\n" },
    { "var x in 1..3\nfix x = \"1\n", FGM_EPARSE,
      "t.fgm:2:9: error: unterminated string" },
    { "var x in 1..3\n\xe2\x80\x9cx\n", FGM_EPARSE,
      "t.fgm:2:1: error: non-ASCII character outside a comment or string\n"
      "\xe2\x80\x9cx\n^\n" },
    { "var x in 1..\n", FGM_EPARSE, "t.fgm:1:13: error: unexpected end of" },
    /* The parser's '(' error leaves a NULL term that the split of
     * x != y + c read (found by fuzzing: a null dereference). */
    { "var q[3] in 1..3\nq[0] != q[1] + 1 - (\n", FGM_EPARSE,
      "t.fgm:2:21: error: unexpected end of line" },
    { "var q[3] in 1..3\nq[0] != q[1] - (\n", FGM_EPARSE,
      "t.fgm:2:17: error: unexpected end of line" },
    /* ... or the leftmost one (found by fuzzing too). */
    { "var q[3] in 1..3\nq[0] != ( + 1\n", FGM_EPARSE,
      "t.fgm:2:11: error: unexpected '+'\nq[0] != ( + 1\n          ^\n" },
    /* names */
    { "var cell[2] in 1..2\nalldiff cel\n", FGM_ESEMA,
      "t.fgm:2:9: error: unknown array 'cel'; did you mean 'cell'?\n"
      "alldiff cel\n        ^~~\n" },
    { "var x[2] in 1..2\nalldiff x[i] for i in 0..M\n", FGM_ESEMA,
      "t.fgm:2:26: error: undefined name 'M'" },
    { "var x in 1..2\nconst x = 3\n", FGM_ESEMA,
      "t.fgm:2:7: error: 'x' is already defined (a variable array, at line "
      "1)" },
    { "var x[2] in 1..2\nx[i] != x[i] for i in 0..1, i in 0..1\n", FGM_ESEMA,
      "'i' is already a loop variable of this statement" },
    { "const N = 2\nvar x[2] in 1..2\nalldiff x[N]\n", FGM_ESEMA,
      "t.fgm:3:11: error: index 2 is out of range for 'x' (dimension 1 has "
      "indices 0..1)" },
    /* indices, slices, ranges */
    { "var x[3][3] in 1..3\nx[i][0] != x[i+1][0] for i in 0..2\n", FGM_ESEMA,
      "t.fgm:2:14: error: index 3 is out of range for 'x' (dimension 1 has "
      "indices 0..2) (when i = 2)" },
    /* Past eight loop variables the rest are elided: a statement may bind
     * any number, and each message listed them all. */
    { "var x[3] in 1..3\nx[a] != x[a+b+c+d+e+f+g+h+i-15] for a, b, c, d, "
      "e, f, g, h, i in 2..2\n", FGM_ESEMA,
      "(when a = 2, b = 2, c = 2, d = 2, e = 2, f = 2, g = 2, h = 2, ...)\n" },
    { "var x[4] in 1..4\nalldiff x[3..1]\n", FGM_ESEMA,
      "t.fgm:2:11: error: slice 3..1 of 'x' is empty (its bounds are "
      "reversed)" },
    { "var x[4] in 1..4\nalldiff x[2..5]\n", FGM_ESEMA,
      "slice 2..5 is out of range for 'x'" },
    /* One past the end, where the next array's first variable lies:
     * `> top + 1` took it as y[0] (the mutation audit). */
    { "var x[3] in 1..3\nvar y[3] in 1..3\nalldiff x[1..3]\n", FGM_ESEMA,
      "t.fgm:3:11: error: slice 1..3 is out of range for 'x' (dimension 1 "
      "has indices 0..2)" },
    { "var x[4] in 1..4\nalldiff x[i..3] for i in 3..2\n", FGM_ESEMA,
      "t.fgm:2:26: error: range 3..2 is empty" },
    /* Empty by one and written with a const is allowed (below);
     * reversed further, it is a slip. */
    { "const N = 3\nvar x[4] in 1..4\nalldiff x[i..3] for i in N..1\n",
      FGM_ESEMA, "t.fgm:3:26: error: range 3..1 is empty" },
    { "var x in 3..1\n", FGM_ESEMA, "domain 3..1 is empty" },
    { "var x in 3..2\n", FGM_ESEMA, "domain 3..2 is empty" },
    { "var x[2][3] in 1..2\nalldiff x[1][0][2]\n", FGM_ESEMA,
      "'x' has 2 dimensions; 3 subscripts given" },
    /* A leading subscript is a block: row 1, three variables. */
    { "var x[2][3] in 1..2\nalldiff x[1]\n", FGM_ESEMA,
      "alldiff over 3 variables cannot hold" },
    { "var x[2][3] in 1..3\nx[1] != x[0][0]\n", FGM_ESEMA,
      "'!=' compares two variables, and this is not a single variable of "
      "'x'" },
    /* domains and shapes */
    { "var x in 0..2\nvar y in 1..3\nx != y\n", FGM_ESEMA,
      "t.fgm:3:6: error: domain mismatch: 'x' is in 0..2 but 'y' is in "
      "1..3" },
    { "var x in 0..1\nvar y in 0..2\ntable (x, y) = [[1, 2], [3, 4]]\n",
      FGM_ESEMA, "table shape mismatch: this list has 2 entries but 'y' has "
      "3 values (0..2)" },
    { "var x in 0..1\nvar y in 0..1\ntable (x, y) = [1, 2]\n", FGM_ESEMA,
      "expected a list of 2 weights for 'y' here, not a number" },
    { "prior p ~ dirichlet(6)\nvar roll[3] in 1..5 ~ discrete(p)\n",
      FGM_ESEMA, "t.fgm:2:32: error: discrete(p): 'p' has 6 categories but "
      "'roll' has 5 values (1..5)" },
    { "prior p[2] ~ dirichlet(2)\nvar x[3] in 0..1 ~ discrete(p)\n",
      FGM_ESEMA, "shape mismatch: 'x' is [3] but 'p' is [2]" },
    { "var x in 0..1\nevidence x = [0.2, 0.3, 0.5]\n", FGM_ESEMA,
      "evidence has 3 weights but 'x' has 2 values (0..1)" },
    { "var x in 0..1\nevidence x = [0.2, -0.3]\n", FGM_ESEMA,
      "weights must be >= 0, not -0.3" },
    { "var x in 0..1\nevidence x = [0, 0]\n", FGM_ESEMA,
      "the evidence weights are all zero" },
    /* scopes */
    { "var x[3] in 1..3\nalldiff x[0..0]\n", FGM_ESEMA,
      "alldiff over 1 variable: it needs at least 2 variables" },
    { "var x[3] in 1..3\nalldiff()\n", FGM_ESEMA,
      "alldiff over no variables" },
    { "var x[3] in 1..3\nalldiff(x[0], x[1], x[0])\n", FGM_ESEMA,
      "t.fgm:2:21: error: 'x[0]' appears twice in this alldiff" },
    { "var x[3] in 1..3\nx[1] != x[1]\n", FGM_ESEMA,
      "'x[1]' appears twice in this '!='" },
    { "var x[4] in 1..3\nalldiff x\n", FGM_ESEMA,
      "alldiff over 4 variables cannot hold" },
    /* A mistyped keyword was read as an array's name ("unexpected name,
     * expected a comparison ... or '['"). */
    { "var x in 0..1\nevidense x = [1, 2]\n", FGM_EPARSE,
      "t.fgm:2:1: error: unknown statement 'evidense' (did you mean "
      "'evidence'?)" },
    { "var x[2] in 0..1\nx y\n", FGM_EPARSE,
      "t.fgm:2:3: error: unexpected name, expected a comparison ('!=', "
      "'==', '<', '<=', '>', '>='), '~' (a draw) or '['" },
    /* A loop variable named only in a later range, whose bindings repeat
     * the factors (x[1] and x[2] got their evidence twice). */
    { "var x[3] in 0..1\nevidence x[j] = [1, 2] for i in 0..1, j in i..2\n",
      FGM_ESEMA,
      "t.fgm:2:28: error: loop variable 'i' is used only in a later "
      "binding's range, and two bindings give the same factors (i = 0, "
      "j = 1; i = 1, j = 1): each would be added twice" },
    /* Draws: `x ~ discrete(p[g])`, the gate the last subscript. */
    { "prior t[2][2] ~ dirichlet(2)\nvar c in 0..1\nvar y in 0..1\n"
      "y ~ discrete(t[c][0])\n", FGM_ESEMA,
      "t.fgm:4:16: error: only the last subscripts of a prior may be "
      "variables" },
    { "prior t[3] ~ dirichlet(2)\nvar g in 1..3\nvar y in 0..1\n"
      "y ~ discrete(t[g - 1])\n", FGM_ESEMA,
      "t.fgm:4:16: error: a prior's subscript that picks by a variable is "
      "the variable alone, with no arithmetic: declare it with the values "
      "0..2 of dimension 1 of 't'" },
    { "prior t[2] ~ dirichlet(2)\nvar c in 1..2\nvar y in 0..1\n"
      "y ~ discrete(t[c])\n", FGM_ESEMA,
      "t.fgm:4:16: error: 'c' takes values 1..2, but dimension 1 of 't' "
      "has indices 0..1" },
    { "prior t[2] ~ dirichlet(2)\nvar y[2] in 0..1\n"
      "y[i] ~ discrete(t[y[i]]) for i in 0..1\n", FGM_ESEMA,
      "t.fgm:3:19: error: 'y[0]' picks the prior it is drawn from" },
    { "prior t[2] ~ dirichlet(3)\nvar c in 0..1\nvar y in 0..1\n"
      "y ~ discrete(t[c])\n", FGM_ESEMA,
      "t.fgm:4:14: error: discrete(t): 't' has 3 categories but 'y' has 2 "
      "values (0..1)" },
    { "prior t[2] ~ dirichlet(2)\nvar c in 0..1\nvar y[2] in 0..1\n"
      "y ~ discrete(t[c])\n", FGM_ESEMA,
      "t.fgm:4:1: error: '~' draws one variable; 'y' alone is its whole "
      "array (write one element, such as 'y[0]')" },
    { "prior t[2] ~ dirichlet(2)\nvar c in 0..1\n"
      "var y in 0..1 ~ discrete(t[c])\n", FGM_ESEMA,
      "t.fgm:3:28: error: a prior picked by a variable is drawn by a "
      "statement of its own: y ~ discrete(t[c])" },
    { "prior t[2] ~ dirichlet(2)\nvar c in 0..1\n"
      "var y[2] in 0..1 ~ discrete(t[c])\n", FGM_ESEMA,
      "statement of its own: y[...] ~ discrete(t[c])" },
    { "prior t[64][64][2] ~ dirichlet(2)\nvar a in 0..63\nvar b in 0..63\n"
      "var c in 0..1\nvar y in 0..1\ny ~ discrete(t[a][b][c])\n",
      FGM_ESEMA, "t.fgm:6:14: error: the gates of this draw pick among "
      "8192 nodes; at most 4096" },
    { "prior t[2][3] ~ dirichlet(2)\nvar a in 0..1\nvar b in 0..2\n"
      "var y in 0..1\ny ~ discrete(t[b][a])\n", FGM_ESEMA,
      "t.fgm:5:16: error: 'b' takes values 0..2, but dimension 1 of 't' has "
      "indices 0..1" },
    { "prior t[2][2] ~ dirichlet([[1, 2], [3, 4]])\n", FGM_ESEMA,
      "t.fgm:1:27: error: pseudo-counts a node: 't' has 2 dimensions, so a "
      "list nested 3 deep" },
    { "prior t[2] ~ dirichlet(2)\nvar c in 0..1\nvar y in 0..1\n"
      "y ~ discrete(t)\n", FGM_ESEMA,
      "t.fgm:4:14: error: 't' has 1 dimension; a draw names one of its "
      "elements (0 subscripts given)" },
    { "prior t[2] ~ dirichlet(2)\nvar y[2] in 0..1\n"
      "y[i] ~ discrete(t[i + 1]) for i in 0..1\n", FGM_ESEMA,
      "t.fgm:3:19: error: index 2 is out of range for 't' (dimension 1 has "
      "indices 0..1)" },
    { "prior t[2] ~ dirichlet([[1, 2], [3]])\n", FGM_ESEMA,
      "t.fgm:1:33: error: every node of 't' takes 2 pseudo-counts, as its "
      "first" },
    { "prior t[3] ~ dirichlet([[1, 2], [3, 4]])\n", FGM_ESEMA,
      "t.fgm:1:24: error: pseudo-counts a node: dimension 1 of 't' needs a "
      "list of 3" },
    { "prior t ~ dirichlet([[1, 2]])\n", FGM_ESEMA,
      "t.fgm:1:21: error: Dirichlet pseudo-counts are a flat list of "
      "numbers (one list a node only for an array of priors)" },
    { "prior t[2] ~ dirichlet([[1, 2], [3, 0]])\n", FGM_ESEMA,
      "error: Dirichlet alpha must be > 0, not 0" },
    { "prior t[2] ~ dirichlet(2)\nvar c in 0..1\nvar y in 0..1\n"
      "y ~ normal(t[c])\n", FGM_ESEMA,
      "t.fgm:4:5: error: unknown distribution 'normal' for a variable; "
      "valid: discrete" },
    /* The parser's comparison token named as written. */
    { "var x[2] in 0..3\nalldiff x < y\n", FGM_EPARSE,
      "t.fgm:2:11: error: unexpected '<', expected 'for' or end of line" },
    /* A comparison no pair of values meets. */
    { "var x in 0..3\nvar y in 5..7\nx > y + 1\n", FGM_ESEMA,
      "t.fgm:3:1: error: '>' cannot hold: no value of 'x' (0..3) is > one "
      "of 'y' (5..7) plus the offset" },
    { "var x[2] in 0..3\nx < x[1]\n", FGM_ESEMA,
      "t.fgm:2:1: error: '<' compares two variables; 'x' alone is its "
      "whole array" },
    { "var x[2] in 0..3\nx[0] >= x[0]\n", FGM_ESEMA,
      "'x[0]' appears twice in this '>='" },
    /* Other languages' spellings of != and ==. */
    { "var x[2] in 0..3\nx[0] <> x[1]\n", FGM_EPARSE,
      "t.fgm:2:7: error: unexpected '>' ('<>' is no operator here: write "
      "'!=' for 'differs')" },
    { "var x[2] in 0..3\nx[0] === x[1]\n", FGM_EPARSE,
      "t.fgm:2:8: error: unexpected '=' ('===' is no operator here: write "
      "'==' for 'equals')" },
    { "var x[2] in 0..3\nx[0] < 0\n", FGM_ESEMA,
      "t.fgm:2:1: error: '<' cannot hold: no value of 'x[0]' (0..3) is < 0" },
    /* The number as it reads back ("%g" said "== 2", a value of x). */
    { "var x in 0..3\nx == 2.0000001\n", FGM_ESEMA,
      "is == 2.0000001\nx == 2.0000001\n^~~~~~~~~~~~~~" },
    { "var x in 0..3\nx < -1000000\n", FGM_ESEMA, "is < -1000000\n" },
    /* A name on the right may be a const or a loop variable too. */
    { "const Limit = 2\nvar x in 0..3\nx < Limt\n", FGM_ESEMA,
      "t.fgm:3:5: error: undefined name 'Limt'; did you mean 'Limit'?" },
    { "var a[2] in 0..3\na < 3\n", FGM_ESEMA,
      "t.fgm:2:1: error: '<' compares a variable with a number; 'a' alone "
      "is its whole array" },
    { "var x[2] in 0..3\nx[0] < 2 + x[1]\n", FGM_ESEMA,
      "t.fgm:2:8: error: the right side of '<' must be a variable, "
      "optionally plus or minus integers (x < y, x < y + 1, x < y - (j - "
      "i)), or a number" },
    /* Past a line's first word inside a list running on over lines, a
     * name is no statement (it said "did you mean 'var'?"). */
    { "var x in 0..1\nevidence x = [1,\n  val 2]\n", FGM_EPARSE,
      "t.fgm:3:7: error: unexpected integer" },
    /* A keyword itself is no slip (it said "did you mean 'const'?"). */
    { "const = 1\n", FGM_EPARSE,
      "t.fgm:1:7: error: unexpected '=', expected name" },
    /* Functions of numbers: their domains, and names that are none. */
    { "var x in 0..1\nevidence x = [1, exp(710)]\n", FGM_ESEMA,
      "t.fgm:2:18: error: exp(710) is too large for a double" },
    { "var x in 0..1\nevidence x = [1, exp(-746)]\n", FGM_ESEMA,
      "exp(-746) is too small: it would be read as 0" },
    { "var x in 0..1\nevidence x = [1, log(0)]\n", FGM_ESEMA,
      "log(0): its argument must be > 0" },
    { "var x in 0..1\nevidence x = [1, sqrt(-2)]\n", FGM_ESEMA,
      "sqrt(-2): its argument must be >= 0" },
    { "var x in 0..1\nevidence x = [1, pow(2)]\n", FGM_ESEMA,
      "t.fgm:2:18: error: unknown function 'pow' (a number may call exp, "
      "log or sqrt)" },
    { "var x in 0..1\nevidence x = [1, exp(1]\n", FGM_EPARSE,
      "expected ')' (to close '(' at line 2)" },
    { "var x[3] in 0..1\nx[0] != x[exp(0)]\n", FGM_ESEMA,
      "must be an integer, not 1.0" },
    /* A loop variable left unused repeated the factors (the weights of
     * an evidence squared); one used only in a later range is used. */
    { "var x in 0..1\nevidence x = [1, 2] for i in 0..1\n", FGM_ESEMA,
      "t.fgm:2:25: error: loop variable 'i' is used nowhere in this "
      "statement" },
    /* As alldiff: it was accepted, and BP printed both variables 1 with
     * no contradiction said. */
    { "var x[2] in 1..1\nx[0] != x[1]\n", FGM_ESEMA,
      "t.fgm:2:1: error: '!=' cannot hold: its variables' domain 1..1 has "
      "only 1 value" },
    { "var x[3] in 1..3\nx[*] != x[0]\n", FGM_ESEMA,
      "'!=' compares two variables, and this is not a single variable" },
    /* A whole array, even of one variable: the message says to subscript
     * it (it said "not a single variable" of an array that held one). */
    { "var x in 0..1\nvar y[1] in 0..1\nx != y\n", FGM_ESEMA,
      "t.fgm:3:6: error: '!=' compares two variables; 'y' alone is its "
      "whole array (write one element, such as 'y[0]')" },
    /* A name used before its declaration says where it is declared. */
    { "x[0] != x[1]\nvar x[2] in 0..1\n", FGM_ESEMA,
      "t.fgm:1:1: error: unknown array 'x' (declared later, at line 2; "
      "declare it before its use)" },
    /* priors */
    { "prior p ~ dirichlet([1, -2, 1])\n", FGM_ESEMA,
      "t.fgm:1:25: error: Dirichlet alpha must be > 0, not -2" },
    { "prior p ~ dirichlet([1, 0])\n", FGM_ESEMA,
      "Dirichlet alpha must be > 0, not 0" },
    { "prior p ~ gauss(2)\n", FGM_ESEMA,
      "unknown distribution 'gauss' for a prior; valid: dirichlet" },
    { "var x in 1..2\nvar y in 1..2 ~ discrete(x)\n", FGM_ESEMA,
      "'x' is a variable array, not a prior" },
    /* arithmetic */
    { "const A = 3037000500 * 3037000500\n", FGM_ESEMA,
      "t.fgm:1:11: error: integer overflow: 3037000500 * 3037000500 does "
      "not fit in 64 bits" },
    { "const A = 99999999999999999999\n", FGM_ESEMA,
      "integer literal is too large" },
    { "const Z = 0\nconst A = 7 % Z\n", FGM_ESEMA,
      "t.fgm:2:11: error: division by zero" },
    { "const A = 1 / (2 - 2)\n", FGM_ESEMA, "division by zero" },
    { "var x[2.5] in 1..2\n", FGM_ESEMA,
      "an array size must be an integer, not 2.5" },
    { "const A = 1.5\nvar x[A] in 1..2\n", FGM_ESEMA,
      "an array size must be an integer, not 1.5" },
    { "var x[3] in 1..3\nalldiff x[0.5 * 2 .. 2]\n", FGM_ESEMA,
      "a slice bound must be an integer, not 1" },
    { "var x[0] in 1..3\n", FGM_ESEMA,
      "an array size must be at least 1, not 0" },
    { "var x[2][2][2][2][2] in 1..2\n", FGM_ESEMA,
      "'x' has 5 dimensions; at most 4 are supported" },
    { "var x in 1..100\n", FGM_ESEMA,
      "domain 1..100 has 100 values; at most 64 are supported" },
    /* fix */
    { "var x[2][2] in 1..4\nfix x[0][1] = 5\n", FGM_ESEMA,
      "t.fgm:2:15: error: value 5 is outside the domain 1..4 of 'x[0][1]'" },
    { "var x[2][2] in 1..4\nfix x = \"12.\"\n", FGM_ESEMA,
      "fix string has 3 symbols but 'x' has 4 variables" },
    { "var x[2][2] in 1..3\nfix x = \"12.4\"\n", FGM_ESEMA,
      "t.fgm:2:13: error: value 4 is outside the domain 1..3 of 'x[1][1]'" },
    { "var x[4] in 1..4\nfix x = \"12?4\"\n", FGM_ESEMA,
      "t.fgm:2:12: error: bad symbol '?' in a fix string" },
    { "var x in 1..4\nfix x = 2\nfix x = 3\n", FGM_ESEMA,
      "'x' is already fixed to 2" },
    /* infer and model */
    { "var x in 1..2\ninfer svi\n", FGM_ESEMA,
      "unknown algorithm 'svi'; valid: ep, bp-sum, bp-max, gibbs, vmp" },
    { "var x in 1..2\ninfer vmp(damping = 0.5)\n", FGM_ESEMA,
      "t.fgm:2:11: error: vmp is coordinate ascent on a bound" },
    { "var x in 1..2\ninfer gibbs(damping = 0.5)\n", FGM_ESEMA,
      "gibbs draws values: it has no messages to damp" },
    { "var x in 1..2\ninfer gibbs(schedule = parallel)\n", FGM_ESEMA,
      "gibbs draws one variable at a time: no parallel schedule" },
    { "var x in 1..2\ninfer gibbs(projection = mean-square)\n", FGM_ESEMA,
      "gibbs integrates the Dirichlet nodes out: no projection" },
    { "var x in 1..2\ninfer ep(burn_in = 10)\n", FGM_ESEMA,
      "burn_in is a setting of gibbs, the sampler" },
    { "var x in 1..2\ninfer gibbs(burn_in = -1)\n", FGM_ESEMA,
      "burn_in must be an integer in 0..999999, not -1" },
    { "var x in 1..2\ninfer ep(iters = 3)\n", FGM_ESEMA,
      "unknown setting 'iters' (did you mean 'iterations'?); valid: "
      "iterations, damping, tolerance, schedule, alldiff, projection" },
    { "var x in 1..2\ninfer ep(schedule = random)\n", FGM_ESEMA,
      "unknown schedule 'random'; valid: sequential, parallel" },
    { "var x in 1..2\ninfer ep(alldiff = 3)\n", FGM_ESEMA,
      "alldiff takes one of: pairwise, native" },
    { "var x in 1..2\ninfer ep(iterations = 0)\n", FGM_ESEMA,
      "iterations must be an integer in 1..1000000, not 0" },
    { "var x in 1..2\ninfer ep(iterations = 2.5)\n", FGM_ESEMA,
      "iterations must be an integer, not 2.5" },
    { "prior p ~ dirichlet([5e307, 1, 1])\nvar r in 1..3 ~ discrete(p)\n",
      FGM_ESEMA, "t.fgm:1:22: error: Dirichlet pseudo-counts must sum to at "
      "most 1e+150" },
    /* Past the range of long long: no undefined cast on the way. */
    { "var x[1e30] in 1..2\n", FGM_ESEMA,
      "t.fgm:1:7: error: an array size must be an integer, not 1e+30" },
    { "var x in 1..2\ninfer ep(damping = 1)\n", FGM_ESEMA,
      "damping must be in [0, 1), not 1" },
    { "var x in 1..2\ninfer ep(tolerance = -1)\n", FGM_ESEMA,
      "tolerance must be >= 0, not -1" },
    { "var x in 1..2\ninfer ep(iterations = 5, iterations = 6)\n", FGM_ESEMA,
      "setting 'iterations' is given twice" },
    /* A repeat after an invalid first value is a repeat too (it was not
     * said). */
    { "var x in 1..2\ninfer ep(iterations = 0, iterations = 6)\n", FGM_ESEMA,
      "t.fgm:2:26: error: setting 'iterations' is given twice" },
    /* A nonzero literal below the smallest double was read as 0: a weight
     * that forbade its value, said nowhere. */
    { "var x in 0..1\nevidence x = [1e-400, 1]\n", FGM_ESEMA,
      "t.fgm:2:15: error: number is too small: it would be read as 0" },
    { "prior p ~ dirichlet([2.5e-999, 1])\n", FGM_ESEMA,
      "t.fgm:1:22: error: number is too small" },
    { "var y[2] in 1..1\nalldiff y\n", FGM_ESEMA,
      "their domain 1..1 has only 1 value\n" },
    /* A tab inside the underlined span is copied, so that the '~' after
     * it stay under their bytes (one '~' a byte fell short of them). */
    { "var x[3] in 0..1\nalldiff x[1 +\t5]\n", FGM_ESEMA,
      "alldiff x[1 +\t5]\n          ^~~\t~" },
    /* The unclosed-bracket hint keeps a name the parser allows there (it
     * said only "expected ')'" of a setting with no name). */
    { "var x in 0..1\ninfer ep(3 = 4)\n", FGM_EPARSE,
      "t.fgm:2:10: error: unexpected integer, expected a name or ')' (to "
      "close '(' at line 2)" },
    { "var x in 1..2\ninfer ep\ninfer bp-sum\n", FGM_ESEMA,
      "t.fgm:3:1: error: second infer block (the first is at line 2)" },
    { "model a\nmodel b\nvar x in 1..2\n", FGM_ESEMA,
      "second model line (the first is at line 1)" },
    { "", FGM_ESEMA, "t.fgm: error: the model declares no variables" },
    { "# only a comment\n\n", FGM_ESEMA, "declares no variables" },
};

START_TEST(test_error_classes)
{
    int i = _i;
    const bad_case *bc = &bad_cases[i];
    fgm_status st;
    sink s;
    fgm_ir *ir = compile(bc->text, &st, &s);

    ck_assert_ptr_null(ir);
    ck_assert_msg(st == bc->status, "case %d (%s): status %d, want %d: %s",
                  i, bc->want, st, bc->status, s.text ? s.text : "");
    ck_assert_msg(s.text && strstr(s.text, bc->want),
                  "case %d: messages lack \"%s\":\n%s", i, bc->want,
                  s.text ? s.text : "(none)");
    sink_free(&s);
}
END_TEST

START_TEST(test_several_errors)
{
    fgm_status st;
    sink s;
    fgm_ir *ir = compile("var x[3] in 1..3\n"
                         "alldiff x[5]\n"                 /* index */
                         "var y in 0..2\n"
                         "x[0] != y\n"                    /* domain */
                         "infer svi\n", &st, &s);
    const char *a, *b, *c;

    ck_assert_ptr_null(ir);
    ck_assert_int_eq(st, FGM_ESEMA);
    ck_assert_int_eq(s.n, 3);
    a = strstr(s.text, "t.fgm:2:");
    b = strstr(s.text, "t.fgm:4:");
    c = strstr(s.text, "t.fgm:5:");
    ck_assert_msg(a && b && c && a < b && b < c, "in source order:\n%s",
                  s.text);
    sink_free(&s);

    ir = compile("var x in 1..2\nconst = 3\nvar y[ in 1..2\nalldiff(x,\n",
                 &st, &s);
    ck_assert_int_eq(st, FGM_EPARSE);
    ck_assert_int_eq(s.n, 3);
    sink_free(&s);
}
END_TEST

/* -0 is stored as 0: weights, tables and the infer settings written -0.0
 * give the IR (and hash) of 0 (they dumped as -0, under another hash). */
START_TEST(test_negative_zero)
{
    fgm_status st;
    sink s;
    fgm_ir *a = compile("var x[2] in 0..1\nevidence x[0] = [-0.0, 2]\n"
                        "table (x[0], x[1]) = [[1, -0.0], [1, 1]]\n"
                        "infer ep(damping = -0.0, tolerance = 0 * -1.0)\n",
                        &st, &s);
    fgm_ir *b;

    ck_assert_int_eq(st, FGM_OK);
    sink_free(&s);
    b = compile("var x[2] in 0..1\nevidence x[0] = [0, 2]\n"
                "table (x[0], x[1]) = [[1, 0], [1, 1]]\n"
                "infer ep(damping = 0, tolerance = 0)\n", &st, &s);
    ck_assert_int_eq(st, FGM_OK);
    sink_free(&s);
    ck_assert_msg(fgm_ir_hash(a) == fgm_ir_hash(b), "-0 hashes as 0");
    fgm_ir_free(a);
    fgm_ir_free(b);
}
END_TEST

/* A UTF-8 byte-order mark starting the file is skipped, and columns are
 * counted after it: it was "non-ASCII character" on a line that showed
 * none.  Elsewhere it stays an error. */
START_TEST(test_byte_order_mark)
{
    fgm_status st;
    sink s;
    fgm_ir *ir = compile("\xEF\xBB\xBFvar x in 0..1\r\nvar y in 0..1\r\n"
                         "x != y\r\n", &st, &s);

    ck_assert_int_eq(st, FGM_OK);
    ck_assert_int_eq(fgm_ir_nvars(ir), 2);
    fgm_ir_free(ir);
    sink_free(&s);
    ir = compile("\xEF\xBB\xBFvar x in 0..1\nx != z\n", &st, &s);
    ck_assert_int_eq(st, FGM_ESEMA);
    ck_assert_msg(strstr(s.text, "t.fgm:2:6: error: undefined name 'z'"),
                  "got: %s", s.text);
    sink_free(&s);
    ir = compile("var x in 0..1\n\xEF\xBB\xBFvar y in 0..1\n", &st, &s);
    ck_assert_int_eq(st, FGM_EPARSE);
    ck_assert_msg(strstr(s.text, "t.fgm:2:1: error: non-ASCII"), "got: %s",
                  s.text);
    sink_free(&s);
}
END_TEST

/* The source line shown under a message writes what a terminal would
 * act on as '?': control bytes, a C1 control in UTF-8 (U+009B, an escape
 * sequence's start) and a bidirectional override (U+202E, which makes a
 * line read backwards); other UTF-8 stays. */
START_TEST(test_shown_line_controls)
{
    fgm_status st;
    sink s;

    compile("var x in 0..1\nx y \x1b[31m \xC2\x9B" "31m \xE2\x80\xAE "
            "\xE2\x80\x8F\xE2\x80\xA8\xD8\x9C \xC3\xA9\n", &st, &s);
    ck_assert_int_eq(st, FGM_EPARSE);
    ck_assert_msg(strstr(s.text, "\nx y ?[31m ?31m ? ??? \xC3\xA9\n"),
                  "got: %s", s.text);
    sink_free(&s);
}
END_TEST

/* A chain of 257 additions is past the nesting cap, and the message says
 * why a flat chain counts (it said "nested too deeply" alone); 255 pass. */
START_TEST(test_chain_depth_message)
{
    char text[4096] = "const K = 1";
    fgm_status st;
    sink s;
    fgm_ir *ir;
    int i;

    for (i = 0; i < 255; i++)
        strcat(text, " + 1");
    strcat(text, "\nvar x in 0..K % 4 + 1\n");
    ir = compile(text, &st, &s);
    ck_assert_int_eq(st, FGM_OK);
    fgm_ir_free(ir);
    sink_free(&s);
    strcpy(strstr(text, "\nvar"), " + 1 + 1\nvar x in 0..1\n");
    ir = compile(text, &st, &s);
    ck_assert_int_eq(st, FGM_EPARSE);
    ck_assert_msg(strstr(s.text, "nested too deeply (more than 256 levels "
                         "from here inward; each operator of a chain such "
                         "as 1 + 1 + 1 is one)"),
                  "got: %s", s.text);
    sink_free(&s);
}
END_TEST

START_TEST(test_error_cap)
{
    fgm_compile_opts opts = { NULL, 0, 3 };
    char text[2048] = "var x in 1..2\n";
    fgm_ir *ir = NULL;
    sink s = { 0 };
    int i;

    for (i = 0; i < 10; i++)
        strcat(text, "alldiff y\n");
    ck_assert_int_eq(fgm_compile_string(text, "t.fgm", &opts, &ir, collect,
                                        &s), FGM_ESEMA);
    ck_assert_int_eq(s.n, 4);   /* three errors and "too many errors" */
    ck_assert_ptr_nonnull(strstr(s.text, "t.fgm: error: too many errors (3);"
                                 " stopping"));
    sink_free(&s);
}
END_TEST

START_TEST(test_defines)
{
    const char *const good[] = { "N=4", "N=6" };   /* the later one wins */
    const char *const unknown[] = { "M=4" };
    const char *const malformed[] = { "N4" };
    const char *const notint[] = { "N=x" };
    const char *const huge[] = { "N=99999999999999999999" };
    const char *const broken[] = { "N=3\n4\001" };
    fgm_compile_opts opts = { good, 2, 0 };
    const char *text = "const N = 3\nvar x[N] in 1..N\nalldiff x\n";
    fgm_ir *ir = NULL;
    sink s = { 0 };

    ck_assert_int_eq(fgm_compile_string(text, "t.fgm", &opts, &ir, collect,
                                        &s), FGM_OK);
    ck_assert_int_eq(ir->nvars, 6);
    fgm_ir_free(ir);
    opts.defines = unknown;
    opts.ndefines = 1;
    ck_assert_int_eq(fgm_compile_string(text, "t.fgm", &opts, &ir, collect,
                                        &s), FGM_ESEMA);
    ck_assert_ptr_nonnull(strstr(s.text, "t.fgm: error: -D M=4: the model "
                                 "has no const 'M'"));
    opts.defines = malformed;
    ck_assert_int_eq(fgm_compile_string(text, "t.fgm", &opts, &ir, collect,
                                        &s), FGM_ESEMA);
    ck_assert_ptr_nonnull(strstr(s.text, "-D N4: expected NAME=VALUE"));
    opts.defines = notint;
    ck_assert_int_eq(fgm_compile_string(text, "t.fgm", &opts, &ir, collect,
                                        &s), FGM_ESEMA);
    ck_assert_ptr_nonnull(strstr(s.text, "-D N=x: the value must be a "
                                 "number"));
    /* An integer too large for a long long is out of range, not "not an
     * integer". */
    opts.defines = huge;
    ck_assert_int_eq(fgm_compile_string(text, "t.fgm", &opts, &ir, collect,
                                        &s), FGM_ESEMA);
    ck_assert_ptr_nonnull(strstr(s.text, "-D N=99999999999999999999: the "
                                 "value is out of range"));
    /* A byte that is not printable is shown escaped: a newline in the
     * value broke the message over two lines. */
    opts.defines = broken;
    ck_assert_int_eq(fgm_compile_string(text, "t.fgm", &opts, &ir, collect,
                                        &s), FGM_ESEMA);
    ck_assert_ptr_nonnull(strstr(s.text, "-D N=3\\n4\\x01: the value must "
                                 "be a number"));
    ck_assert_ptr_null(ir);
    /* A NULL among the defines is the caller's bug, as a NULL argument:
     * FGM_EINVAL, nothing said (it was "-D : expected NAME=VALUE"). */
    {
        const char *const holed[] = { "N=4", NULL };
        size_t said = strlen(s.text);

        opts.defines = holed;
        opts.ndefines = 2;
        ck_assert_int_eq(fgm_compile_string(text, "t.fgm", &opts, &ir,
                                            collect, &s), FGM_EINVAL);
        ck_assert_ptr_null(ir);
        ck_assert_uint_eq(strlen(s.text), said);
        opts.ndefines = 1;      /* the NULL past NDEFINES is not read */
        ck_assert_int_eq(fgm_compile_string(text, "t.fgm", &opts, &ir,
                                            collect, &s), FGM_OK);
        ck_assert_int_eq(ir->nvars, 4);
        fgm_ir_free(ir);
    }
    sink_free(&s);
}
END_TEST

/* The -D rule and quoting the compiler uses, as the CLI calls them to
 * refuse a bad option before it reads a model. */
START_TEST(test_define_problem)
{
    char out[64];

    ck_assert_ptr_null(fgm_compile_check_define("N=4"));
    ck_assert_ptr_null(fgm_compile_check_define("n_2=-7"));
    ck_assert_str_eq(fgm_compile_check_define("N4"),
                     "expected NAME=VALUE");
    ck_assert_str_eq(fgm_compile_check_define("1N=4"),
                     "expected NAME=VALUE");
    ck_assert_str_eq(fgm_compile_check_define("=4"),
                     "expected NAME=VALUE");
    /* As long as a const's name may be (63 bytes), not longer. */
    {
        char d[80];

        memset(d, 'A', 63);
        strcpy(d + 63, "=1");
        ck_assert_ptr_null(fgm_compile_check_define(d));
        memset(d, 'A', 64);
        strcpy(d + 64, "=1");
        ck_assert_str_eq(fgm_compile_check_define(d),
                         "NAME is too long (at most 63 bytes)");
    }
    ck_assert_str_eq(fgm_compile_check_define("N="),
                     "the value must be a number (an integer or a decimal "
                     "real)");
    ck_assert_str_eq(fgm_compile_check_define("N=4x"),
                     "the value must be a number (an integer or a decimal "
                     "real)");
    ck_assert_str_eq(fgm_compile_check_define("N=99999999999999999999"),
                     "the value is out of range");
    /* Reals too, in decimal: strtod's hex and infinities are refused. */
    ck_assert_ptr_null(fgm_compile_check_define("J=0.5"));
    ck_assert_ptr_null(fgm_compile_check_define("J=-2.5e-3"));
    ck_assert_str_eq(fgm_compile_check_define("J=0x10"),
                     "the value must be a number (an integer or a decimal "
                     "real)");
    ck_assert_str_eq(fgm_compile_check_define("J=inf"),
                     "the value must be a number (an integer or a decimal "
                     "real)");
    ck_assert_str_eq(fgm_compile_check_define("J=1e999"),
                     "the value is out of range");
    fgm_compile_quote_define("N=a\nb\t\x01\xc3", out);
    ck_assert_str_eq(out, "N=a\\nb\\t\\x01\\xc3");
    /* NULL is never dereferenced (fgm.h's rule; both crashed). */
    ck_assert_str_eq(fgm_compile_check_define(NULL), "expected NAME=VALUE");
    strcpy(out, "kept");
    fgm_compile_quote_define(NULL, out);
    ck_assert_str_eq(out, "kept");
    fgm_compile_quote_define("N=4", NULL);
}
END_TEST

START_TEST(test_io_and_args)
{
    fgm_ir *ir = NULL;
    sink s = { 0 };

    ck_assert_int_eq(fgm_compile_file("/nonexistent/m.fgm", NULL, &ir,
                                      collect, &s), FGM_EIO);
    ck_assert_ptr_nonnull(strstr(s.text, "/nonexistent/m.fgm: error: "
                                 "cannot open"));
    ck_assert_int_eq(fgm_compile_file("models", NULL, &ir, collect, &s),
                     FGM_EIO);
    ck_assert_int_eq(fgm_compile_string(NULL, "x", NULL, &ir, collect, &s),
                     FGM_EINVAL);
    ck_assert_int_eq(fgm_compile_string("var x in 1..2\n", "x", NULL, NULL,
                                        collect, &s), FGM_EINVAL);
    ck_assert_ptr_null(ir);
    /* A NULL sink is allowed: the status still tells. */
    ck_assert_int_eq(fgm_compile_string("alldiff y\n", "x", NULL, &ir, NULL,
                                        NULL), FGM_ESEMA);
    sink_free(&s);
}
END_TEST

/* ---- hostile input -------------------------------------------------- */

/* Compiles LEN bytes of TEXT (which may hold NULs) through a file. */
static fgm_status
compile_bytes(const char *text, size_t len, sink *s)
{
    char path[] = "/tmp/fgm_check_compilerXXXXXX";
    int fd = mkstemp(path);
    FILE *f;
    fgm_ir *ir = NULL;
    fgm_status st;

    ck_assert_int_ge(fd, 0);
    f = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, len, f), len);
    fclose(f);
    memset(s, 0, sizeof *s);
    st = fgm_compile_file(path, NULL, &ir, collect, s);
    remove(path);
    fgm_ir_free(ir);
    return st;
}

/* A small deterministic generator (the tests need no GSL for this). */
static unsigned long
next_rand(unsigned long *x)
{
    *x = *x * 6364136223846793005ul + 1442695040888963407ul;
    return *x >> 33;
}

START_TEST(test_garbage)
{
    static const char nul[] = "var x in 1..2\n\0\nalldiff x\n";
    size_t n = 1 << 20, i;
    char *buf = malloc(n);
    unsigned long x = 12345;
    sink s;

    ck_assert_ptr_nonnull(buf);
    for (i = 0; i < n; i++)
        buf[i] = (char)next_rand(&x);
    ck_assert_int_eq(compile_bytes(buf, n, &s), FGM_EPARSE);
    ck_assert_int_le(s.n, 21);
    sink_free(&s);
    /* NUL bytes in the text are invalid characters, not the end. */
    ck_assert_int_eq(compile_bytes(nul, sizeof nul - 1, &s), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(s.text, "invalid byte 0x00"));
    sink_free(&s);
    free(buf);
}
END_TEST

START_TEST(test_deep_nesting)
{
    static const char *const openers[] = { "(", "-", "[", "-(" };
    size_t n = 200000, i, k;
    char *buf = malloc(n * 2 + 64);
    sink s;

    ck_assert_ptr_nonnull(buf);
    for (k = 0; k < 4; k++) {
        size_t len = strlen(openers[k]), pos;

        pos = (size_t)sprintf(buf, k == 2 ? "var x in 0..1\nevidence x = "
                                          : "const A = ");
        for (i = 0; i < n / len; i++, pos += len)
            memcpy(buf + pos, openers[k], len);
        buf[pos++] = '1';
        buf[pos++] = '\n';
        buf[pos] = '\0';
        ck_assert_int_eq(compile_bytes(buf, pos, &s), FGM_EPARSE);
        ck_assert_msg(strstr(s.text, "too deeply"), "nesting %zu: %s", k,
                      s.text);
        sink_free(&s);
    }
    /* Parentheses that close are fine at any depth the parser takes. */
    strcpy(buf, "const A = ");
    for (i = 0; i < 500; i++)
        strcat(buf, "(");
    strcat(buf, "1");
    for (i = 0; i < 500; i++)
        strcat(buf, ")");
    strcat(buf, "\nvar x[A] in 0..1\n");
    ck_assert_int_eq(compile_bytes(buf, strlen(buf), &s), FGM_OK);
    sink_free(&s);
    free(buf);
}
END_TEST

START_TEST(test_huge_sizes)
{
    static const char *const texts[] = {
        "var x[100000][100000] in 1..2\n",
        "var x[2] in 1..2\nx[0] != x[1] for i in 0..9223372036854775807\n",
        ("var x[2] in 1..2\nfix x[0] = 1 for i in 0..999999999999, "
         "j in 0..999999999999\n"),
        "const A = -9223372036854775807 - 1\nconst B = -A\n",
        "const A = -9223372036854775807 - 1\nconst B = A / -1\n",
        "var x[2] in 1..2\nevidence x[0] = [1e999, 1]\n",
        "var x[4096][4096] in 1..2\nvar y[4096][4096] in 1..2\n",
        /* A fix repeated in a loop adds nothing but walks its references
         * each time: the walk itself is capped (found by fuzzing: this
         * ran for days). */
        "var x[1000000] in 1..2\nfix x = 1\nfix x = 1 for i in 0..16000000\n",
    };
    size_t i;
    sink s;

    for (i = 0; i < FGM_COUNTOF(texts); i++) {
        fgm_status st;
        fgm_ir *ir = compile(texts[i], &st, &s);

        ck_assert_msg(st == FGM_ESEMA, "case %zu: status %d: %s", i, st,
                      s.text ? s.text : "");
        ck_assert_ptr_null(ir);
        sink_free(&s);
    }
}
END_TEST

/* Inputs whose cost used to grow quadratically with their length (found
 * by fuzzing): a hyphenated word of 20,000 parts, 20,000 one-line arrays.
 * Each must end with its error, quickly (the ASan build runs this too). */
START_TEST(test_long_inputs)
{
    size_t cap = 400000, len, i;
    char *text = malloc(cap);
    fgm_status st;
    fgm_ir *ir;
    sink s;

    ck_assert_ptr_nonnull(text);
    len = (size_t)sprintf(text, "var x in 1..2\ninfer a");
    for (i = 0; i < 20000; i++)
        len += (size_t)sprintf(text + len, "-a");
    text[len++] = '\n';
    text[len] = '\0';
    ir = compile(text, &st, &s);
    ck_assert_ptr_null(ir);
    ck_assert_int_eq(st, FGM_ESEMA);
    ck_assert_msg(s.text && strstr(s.text, "unknown algorithm 'a-a-a"), "%s",
                  s.text ? s.text : "(none)");
    /* The word is cut at the IR's name length, not carried whole (40 KB
     * of message and quadratic memory before the fix). */
    ck_assert_msg(strlen(s.text) < 1000, "message of %zu bytes",
                  strlen(s.text));
    sink_free(&s);

    for (len = 0, i = 0; i < 20000; i++)
        len += (size_t)sprintf(text + len, "var a%zu in 1..2\n", i);
    ir = compile(text, &st, &s);
    ck_assert_ptr_null(ir);
    ck_assert_int_eq(st, FGM_ESEMA);
    ck_assert_msg(s.text && strstr(s.text, "t.fgm:16385:5: error: too many "
                                           "arrays in the model (more than "
                                           "16384)"),
                  "%s", s.text ? s.text : "(none)");
    sink_free(&s);
    free(text);
}
END_TEST

/* Random edits of the Sudoku model: never a crash, always a status and a
 * message when it fails. */
START_TEST(test_mutations)
{
    static const char base[] =
        "model sudoku\nconst B = 2\nconst N = B * B\n"
        "observed prior p[N][N] ~ dirichlet(N)\n"
        "var cell[N][N] in 1..N ~ discrete(p)\n"
        "alldiff cell[i][*] for i in 0..N-1\n"
        "alldiff cell[*][j] for j in 0..N-1\n"
        "alldiff cell[B*a .. B*a+B-1][B*b .. B*b+B-1] for a, b in 0..B-1\n"
        "table (cell[0][0], cell[0][1]) = [[1,2,3,4],[1,2,3,4],[1,2,3,4],"
        "[1,2,3,4]]\n"
        "fix cell[1][*] = \"1..2\"\nevidence cell[3][3] = [1, 0.5, 0, 2]\n"
        "infer ep(iterations = 50, alldiff = pairwise, damping = 0.1)\n";
    static const char alphabet[] = "()[]*,.=~!+-/%\"\n #0123456789abxyzNBij";
    char buf[sizeof base + 16];
    unsigned long x = 99;
    int round, ok = 0;

    for (round = 0; round < 1500; round++) {
        size_t len = sizeof base - 1, pos;
        int edits = 1 + (int)(next_rand(&x) % 3), e;
        fgm_ir *ir = NULL;
        fgm_status st;
        sink s = { 0 };

        memcpy(buf, base, sizeof base);
        for (e = 0; e < edits; e++) {
            pos = next_rand(&x) % len;
            switch (next_rand(&x) % 3) {
            case 0:         /* replace */
                buf[pos] = alphabet[next_rand(&x) % (sizeof alphabet - 1)];
                break;
            case 1:         /* delete */
                memmove(buf + pos, buf + pos + 1, len - pos);
                len--;
                break;
            default:        /* insert */
                memmove(buf + pos + 1, buf + pos, len - pos + 1);
                buf[pos] = alphabet[next_rand(&x) % (sizeof alphabet - 1)];
                len++;
                break;
            }
        }
        st = fgm_compile_string(buf, "m.fgm", NULL, &ir, collect, &s);
        if (st == FGM_OK) {
            ck_assert_ptr_nonnull(ir);
            ok++;
        } else {
            ck_assert_msg(st == FGM_EPARSE || st == FGM_ESEMA,
                          "status %d for:\n%s", st, buf);
            ck_assert_msg(s.n > 0, "an error says why:\n%s", buf);
            ck_assert_ptr_null(ir);
        }
        fgm_ir_free(ir);
        sink_free(&s);
    }
    ck_assert_int_gt(ok, 0);
}
END_TEST

Suite *
compiler_suite(void)
{
    Suite *s = suite_create("compiler");
    TCase *core = tcase_create("core");
    TCase *limits = tcase_create("limits");
    TCase *errors = tcase_create("errors");

    tcase_set_timeout(core, 30);
    tcase_set_timeout(limits, 120);
    tcase_set_timeout(errors, 30);
    tcase_add_test(core, test_models_compile);
    tcase_add_test(core, test_sudoku_matches_builder);
    tcase_add_test(core, test_sudoku_default_is_b3);
    tcase_add_test(core, test_latin_matches_builder);
    tcase_add_test(core, test_naive_clues);
    tcase_add_test(core, test_byte_order_mark);
    tcase_add_test(core, test_shown_line_controls);
    tcase_add_test(core, test_negative_zero);
    tcase_add_test(core, test_chain_depth_message);
    tcase_add_test(core, test_dice);
    tcase_add_test(core, test_comparison_tables);
    tcase_add_test(core, test_chain);
    tcase_add_test(core, test_real_const);
    tcase_add_test(core, test_functions);
    tcase_add_test(core, test_const_range_empty_by_one);
    tcase_add_test(core, test_table_row_major);
    tcase_add_test(core, test_extreme_weights);
    tcase_add_test(core, test_comprehensions);
    tcase_add_test(core, test_priors_and_links);
    tcase_add_test(core, test_draws_and_gates);
    tcase_add_test(core, test_leading_subscripts);
    tcase_add_test(core, test_infer_settings);
    tcase_add_test(core, test_defaults_and_positions);
    tcase_add_test(core, test_alldiff_stays_one_factor);
    tcase_add_loop_test(errors, test_error_classes, 0,
                        (int)FGM_COUNTOF(bad_cases));
    tcase_add_test(errors, test_several_errors);
    tcase_add_test(errors, test_error_cap);
    tcase_add_test(errors, test_defines);
    tcase_add_test(errors, test_define_problem);
    tcase_add_test(errors, test_io_and_args);
    tcase_add_test(limits, test_garbage);
    tcase_add_test(limits, test_deep_nesting);
    tcase_add_test(limits, test_huge_sizes);
    tcase_add_test(limits, test_long_inputs);
    tcase_add_test(limits, test_mutations);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    suite_add_tcase(s, errors);
    return s;
}
