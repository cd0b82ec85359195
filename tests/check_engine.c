/* tests/check_engine.c: the message-passing engine against exact answers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../compiler/codegen.h"
#include "../runtime/interp.h"
#include "../runtime/kernels.h"
#include "../runtime/model.h"
#include "suites.h"
#include "testutil.h"

/* The first Easy grid of notebook 000 (Easy51 line 1). */
#define EASY000 \
    "9.2..54.31...63.255.84.7.6..263.9..1.57.1.29..9.67.53.24.53.6..7" \
    ".52..3.4.8..4195."

/* Adds the 3N alldiff units of a Sudoku over the N x N array at FIRST. */
static void
add_sudoku_units(fgm_ir *ir, int box, int first)
{
    int n = box * box, sc[25], i, j, a, b, k;
    fgm_status st;

    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++)
            sc[j] = first + i * n + j;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, n, sc, 0,
                                           NULL, &st), 0);
    }
    for (j = 0; j < n; j++) {
        for (i = 0; i < n; i++)
            sc[i] = first + i * n + j;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, n, sc, 0,
                                           NULL, &st), 0);
    }
    for (a = 0; a < box; a++)
        for (b = 0; b < box; b++) {
            k = 0;
            for (i = a * box; i < a * box + box; i++)
                for (j = b * box; j < b * box + box; j++)
                    sc[k++] = first + i * n + j;
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, n, sc,
                                               0, NULL, &st), 0);
        }
}

/* The seed's robust model: p[N][N] ~ Dirichlet(1), cell ~ Discrete(p),
 * alldiff units.  Dirichlet factors come first, as in models/sudoku.fgm. */
static fgm_ir *
robust_ir(int box)
{
    int n = box * box, dims[2] = { n, n }, v, first, node;
    double ones[25];
    fgm_ir *ir = fgm_ir_new("robust");
    fgm_status st;

    for (v = 0; v < n; v++)
        ones[v] = 1.0;
    first = fgm_ir_add_array(ir, "cell", 2, dims, 1, n, 0, &st);
    node = fgm_ir_add_dirichlet_array(ir, "p", 2, dims, n, ones,
                                      FGM_ARRAY_OBSERVED, &st);
    ck_assert_int_eq(first, 0);
    ck_assert_int_eq(node, 0);
    for (v = 0; v < n * n; v++)
        ck_assert_int_ge(fgm_ir_add_dirichlet_discrete(ir, v, v, &st), 0);
    add_sudoku_units(ir, box, first);
    return ir;
}

/* The seed's clue: a point mass with 1e-8 off the clue value. */
static void
clue_vector(int n, int value, double *v)
{
    int j;

    for (j = 0; j < n; j++)
        v[j] = 1e-8;
    v[value] = 1.0 - (n - 1) * 1e-8;
}

static fgm_model *
open_interp(fgm_ir *ir)
{
    fgm_model_opts o;
    fgm_model *m = NULL;

    memset(&o, 0, sizeof o);
    o.backend = FGM_BACKEND_INTERPRETED;
    ck_assert_int_eq(fgm_model_open_ir(ir, &o, &m, NULL, NULL), FGM_OK);
    return m;
}

/* check_dice with the first SEEN rolls observed. */
static void
check_dice_seen(fgm_projection proj, int seen)
{
    static const double alpha[6] = { 1, 2, 1, 1, 1, 3 };
    static const int rolls[20] = { 0, 5, 5, 2, 3, 0, 1, 5, 4, 4,
                                   0, 0, 2, 5, 3, 1, 1, 5, 0, 2 };
    int dims[1] = { 20 }, counts[6] = { 0 }, i, node, first;
    double post[6];
    fgm_ir *ir = fgm_ir_new("dice");
    fgm_model *m;
    fgm_status st;

    node = fgm_ir_add_dirichlet_array(ir, "p", 0, NULL, 6, alpha, 0, &st);
    first = fgm_ir_add_array(ir, "roll", 1, dims, 1, 6, FGM_ARRAY_OBSERVED,
                             &st);
    for (i = 0; i < 20; i++)
        ck_assert_int_ge(fgm_ir_add_dirichlet_discrete(ir, first + i, node,
                                                       &st), 0);
    ir->infer.projection = proj;
    m = open_interp(ir);
    for (i = 0; i < seen; i++) {
        ck_assert_int_eq(fgm_model_observe_var(m, first + i, rolls[i]),
                         FGM_OK);
        counts[rolls[i]]++;
    }
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_dirichlet(m, node, post), FGM_OK);
    for (i = 0; i < 6; i++)
        /* 1e-9: the posterior is exact up to rounding of ~20 additions. */
        ck_assert_msg(fabs(post[i] - (alpha[i] + counts[i])) < 1e-9,
                      "%d rolls seen, face %d: %.17g, want %g", seen, i + 1,
                      post[i], alpha[i] + counts[i]);
    fgm_model_free(m);
}

/* dice: the EP posterior of p is Dirichlet(alpha + counts), exactly,
 * whichever projection is used (an observed child makes the tilted
 * distribution a single Dirichlet, an unobserved one Dir(alpha) itself:
 * the mean projection counted each of those as one roll, 4.33 a face
 * with no roll seen), for 20, 12 and none of the 20 rolls seen. */
static void
check_dice(fgm_projection proj)
{
    static const int seen[] = { 20, 12, 0 };
    size_t i;

    for (i = 0; i < sizeof seen / sizeof seen[0]; i++)
        check_dice_seen(proj, seen[i]);
}

START_TEST(test_dice_mean)
{
    check_dice(FGM_PROJECTION_MEAN);
}
END_TEST

START_TEST(test_dice_mean_square)
{
    check_dice(FGM_PROJECTION_MEAN_SQUARE);
}
END_TEST

/* A draw whose cavity is uniform but for rounding adds no pseudo-count
 * either: the table's rows hold the same weights in other orders, so its
 * message to x is uniform, to an ulp (the rows' sums round apart), and p
 * keeps its prior -- it got a whole pseudo-count, 4/3 a category, from
 * an exact comparison of the cavity's entries. */
START_TEST(test_dirichlet_rounded_flat)
{
    static const char *const text =
        "prior p ~ dirichlet([1, 1, 1])\n"
        "var x in 0..2 ~ discrete(p)\n"
        "var y in 0..2\n"
        "table (x, y) = [[0.1, 0.7, 0.2], [0.2, 0.7, 0.1], "
        "[0.7, 0.2, 0.1]]\n";
    double post[3];
    fgm_model *m;
    fgm_ir *ir;
    int i;

    ck_assert_int_eq(fgm_compile_string(text, "flat.fgm", NULL, &ir, NULL,
                                        NULL), FGM_OK);
    m = open_interp(ir);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_dirichlet(m, 0, post), FGM_OK);
    for (i = 0; i < 3; i++)
        ck_assert_msg(fabs(post[i] - 1.0) < 1e-9, "category %d: %.17g", i,
                      post[i]);
    fgm_model_free(m);
}
END_TEST

/* One draw x ~ Discrete(p), p ~ Dirichlet(ALPHA), evidence EV on x (three
 * values): the mean projection gives p Infer.NET's posterior (its
 * DiscreteFromDirichletOp without AllowImproperSum), proportional to the
 * tilted mean alpha + w, w ~ EV alpha, scaled so that the least likely
 * values (EV's smallest, ties included) keep their prior count.  It gave
 * alpha + w, a whole pseudo-count more in all, with the same mean. */
static void
check_infernet_mean(const double *alpha, const double *ev)
{
    char text[256];
    double post[3], w[3], z = 0.0, lo = ev[0], scale = 0.0, total = 0.0;
    fgm_model *m;
    fgm_ir *ir;
    int i;

    snprintf(text, sizeof text,
             "prior p ~ dirichlet([%g, %g, %g])\n"
             "var x in 0..2 ~ discrete(p)\n"
             "evidence x = [%g, %g, %g]\n", alpha[0], alpha[1], alpha[2],
             ev[0], ev[1], ev[2]);
    ck_assert_int_eq(fgm_compile_string(text, "draw.fgm", NULL, &ir, NULL,
                                        NULL), FGM_OK);
    m = open_interp(ir);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_dirichlet(m, 0, post), FGM_OK);
    for (i = 0; i < 3; i++) {
        w[i] = ev[i] * alpha[i];
        z += w[i];
        lo = ev[i] < lo ? ev[i] : lo;
    }
    for (i = 0; i < 3; i++) {
        w[i] /= z;
        if (ev[i] == lo)
            scale = alpha[i] / (alpha[i] + w[i]);
    }
    for (i = 0; i < 3; i++) {
        double want = ev[i] == lo ? alpha[i] : scale * (alpha[i] + w[i]);

        ck_assert_msg(fabs(post[i] - want) < 1e-12 * want,
                      "value %d: %.17g, want %.17g", i, post[i], want);
        total += post[i];
    }
    for (i = 0; i < 3; i++)     /* the tilted distribution's mean */
        ck_assert_double_eq_tol(post[i] / total,
                                (alpha[i] + w[i])
                                / (alpha[0] + alpha[1] + alpha[2] + 1.0),
                                1e-12);
    fgm_model_free(m);
}

START_TEST(test_dirichlet_mean_infernet)
{
    static const double alpha[2][3] = { { 2, 1, 3 }, { 1, 1, 1 } };
    static const double ev[2][3] = { { 0.5, 0.3, 0.2 }, { 0.5, 0.25, 0.25 } };

    check_infernet_mean(alpha[0], ev[0]);
    check_infernet_mean(alpha[1], ev[1]);     /* two least likely values */
}
END_TEST

static void assert_beliefs_in_place(fgm_model *m, int sweeps, double damping,
                                    const char *what);

/* One x ~ Discrete(p), p ~ Dirichlet(alpha), evidence e on x: EP is exact,
 * x's belief is e alpha normalized -- with small pseudo-counts (the
 * kernel takes the new belief from the projection's weights) and with
 * pseudo-counts past 1e17 (it multiplies the cavity by the message). */
START_TEST(test_dirichlet_belief)
{
    static const double ev[3] = { 0.5, 0.3, 0.2 };
    double alpha[3], b[3], z;
    int scale, i, node, x;

    for (scale = 0; scale < 2; scale++) {
        fgm_ir *ir = fgm_ir_new("one");
        fgm_model *m;
        fgm_status st;

        for (i = 0; i < 3; i++)
            alpha[i] = (i + 1) * (scale ? 1e18 : 1.0);
        node = fgm_ir_add_dirichlet_array(ir, "p", 0, NULL, 3, alpha, 0, &st);
        x = fgm_ir_add_array(ir, "x", 0, NULL, 0, 3, 0, &st);
        ck_assert_int_ge(fgm_ir_add_dirichlet_discrete(ir, x, node, &st), 0);
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, &x, 3,
                                           ev, &st), 0);
        m = open_interp(ir);
        ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
        ck_assert_int_eq(fgm_model_marginal(m, x, b), FGM_OK);
        for (z = 0.0, i = 0; i < 3; i++)
            z += ev[i] * (i + 1);
        for (i = 0; i < 3; i++)
            ck_assert_double_eq_tol(b[i], ev[i] * (i + 1) / z, 1e-12);
        assert_beliefs_in_place(m, 3, 0.0, scale ? "1e18" : "small");
        fgm_model_free(m);
    }
}
END_TEST

/* A tree: x0 - x1 - x2 - x3 chain plus x1 - x4 branch, tables on every
 * edge, evidence on two leaves.  Loopy BP on a tree is exact. */
static fgm_ir *
tree_ir(fgm_algo algo)
{
    static const int edges[4][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 1, 4 } };
    static const double ev0[3] = { 0.7, 0.2, 0.1 }, ev3[3] = { 0.1, 0.3, 0.6 };
    int dims[1] = { 5 }, i, j;
    double pot[9];
    fgm_ir *ir = fgm_ir_new("tree");
    fgm_status st;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 3, 0, &st), 0);
    for (i = 0; i < 4; i++) {
        for (j = 0; j < 9; j++)
            pot[j] = 0.2 + ((j * 7 + i * 3) % 5) * 0.3;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, edges[i],
                                           9, pot, &st), 0);
    }
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                       (int[1]){ 0 }, 3, ev0, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                       (int[1]){ 3 }, 3, ev3, &st), 0);
    ir->infer.algo = algo;
    ir->infer.iterations = 20;
    return ir;
}

/* Every marginal of M (already run) equals the enumeration oracle's to
 * 1e-9: BP is exact on a tree, only rounding differs. */
static void
assert_exact_marginals(const fgm_model *m)
{
    const fgm_ir *ir = fgm_model_ir(m);
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    double *exact, bp[FGM_IR_MAXCARD];
    int v, k;

    ck_assert_ptr_nonnull(csp);
    exact = malloc(((size_t)ir->nvars * (size_t)csp->maxcard + 1)
                   * sizeof *exact);
    ck_assert_ptr_nonnull(exact);
    ck_assert_int_eq(fgm_enumerate(csp, NULL, 0, 0, exact, NULL), FGM_OK);
    for (v = 0; v < ir->nvars; v++) {
        fgm_model_marginal(m, v, bp);
        for (k = 0; k < fgm_ir_card(ir, v); k++)
            ck_assert_double_eq_tol(bp[k], exact[v * csp->maxcard + k], 1e-9);
    }
    free(exact);
    fgm_csp_free(csp);
}

START_TEST(test_tree_bp_sum_exact)
{
    fgm_model *m = open_interp(tree_ir(FGM_ALGO_BP_SUM));

    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    assert_exact_marginals(m);
    fgm_model_free(m);
}
END_TEST

/* A 12-variable chain whose tables are declared in a shuffled order,
 * evidence at both ends: its sequential sweep runs leaves to roots, then
 * roots to leaves (runtime/schedule_tree.c), so ONE sweep gives the exact
 * marginals, sum-product; in statement order the ends' evidence needed
 * about 11 sweeps to cross.  The schedule counts each table twice; with
 * one more table closing a cycle it keeps its order, once each; a table
 * alone in its tree runs once. */
START_TEST(test_tree_one_sweep)
{
    static const double ev0[2] = { 0.9, 0.1 }, ev11[2] = { 0.2, 0.8 };
    fgm_run_opts ro = { 0 };
    int dims[1] = { 12 }, i, j, t, sc[2], nupdates, cyclic;
    double pot[4];
    fgm_model *m;
    fgm_ir *ir;
    fgm_status st;

    for (cyclic = 0; cyclic < 2; cyclic++) {
        ir = fgm_ir_new("chain12");
        ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 2, 0, &st),
                         0);
        for (i = 0; i < 11 + cyclic; i++) {
            t = (i * 5) % 11;           /* 0, 5, 10, 4, 9, 3, ... */
            sc[0] = i < 11 ? t : 0;
            sc[1] = i < 11 ? t + 1 : 11;
            for (j = 0; j < 4; j++)
                pot[j] = j == 0 || j == 3 ? 3.0 + (t % 3) : 1.0;
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, sc,
                                               4, pot, &st), 0);
        }
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                           (int[1]){ 0 }, 2, ev0, &st), 0);
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                           (int[1]){ 11 }, 2, ev11, &st), 0);
        ir->infer.algo = FGM_ALGO_BP_SUM;
        ck_assert_int_eq(fgm_ir_schedule(ir, &nupdates, NULL), FGM_OK);
        if (!cyclic) {
            m = open_interp(ir);
            ro.iterations = 1;
            ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
            assert_exact_marginals(m);
            fgm_model_free(m);
        } else {
            fgm_ir_free(ir);
        }
        ck_assert_int_eq(nupdates, cyclic ? 12 : 22);
    }
    /* Two tables alone in their trees run once each (exact at once). */
    ir = fgm_ir_new("pairs");
    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, (int[1]){ 4 }, 0, 2, 0,
                                      &st), 0);
    for (i = 0; i < 4; i++)
        pot[i] = 1.0 + i;
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2,
                                       (int[2]){ 0, 1 }, 4, pot, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2,
                                       (int[2]){ 2, 3 }, 4, pot, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                       (int[1]){ 0 }, 2, ev0, &st), 0);
    ir->infer.algo = FGM_ALGO_BP_SUM;
    ck_assert_int_eq(fgm_ir_schedule(ir, &nupdates, NULL), FGM_OK);
    ck_assert_int_eq(nupdates, 2);
    m = open_interp(ir);
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
    assert_exact_marginals(m);
    fgm_model_free(m);
}
END_TEST

/* The enumeration oracle with a huge Dirichlet pseudo-count: x[0]'s
 * evidence [1, 3] against a prior of [1e18, 1] (and two more draws of
 * the same p) gives P(x[0] = 1) = 3e-18 in closed form (the
 * Dirichlet-multinomial: each draw of value 1 has weight 1 / (1e18 + 1)
 * against 1e18 / (1e18 + 1), the free draws sum out).  The difference of
 * two lngammas near 41.4e18 gave 0.87; 1e16 gave 8.5e-55. */
START_TEST(test_enumerate_huge_pseudo_count)
{
    static const double a[3] = { 1e18, 1e16, 1e14 };
    char text[256];
    double ex[2 * 3];
    fgm_ir *ir;
    fgm_csp *csp;
    fgm_status st;
    int t;

    for (t = 0; t < 3; t++) {
        snprintf(text, sizeof text, "prior p ~ dirichlet([%g, 1])\n"
                 "var x[3] in 0..1 ~ discrete(p)\n"
                 "evidence x[0] = [1, 3]\n", a[t]);
        ck_assert_int_eq(fgm_compile_string(text, "big.fgm", NULL, &ir, NULL,
                                            NULL), FGM_OK);
        csp = fgm_csp_new(ir, &st);
        ck_assert_ptr_nonnull(csp);
        ck_assert_int_eq(fgm_enumerate(csp, NULL, 0, 0, ex, NULL), FGM_OK);
        ck_assert_msg(fabs(ex[1] / (3.0 / a[t]) - 1.0) < 1e-9,
                      "alpha %g: P(x[0] = 1) = %g, not %g", a[t], ex[1],
                      3.0 / a[t]);
        fgm_csp_free(csp);
        fgm_ir_free(ir);
    }
}
END_TEST

/* A tree over variables of different domain sizes (2 to 7: one stride of
 * 8, dead lanes inside each variable's vector), tables and evidence.
 * Loopy too when LOOP is 1: a neq between the two 5-valued variables;
 * with LOOP 2 also one between the two 3-valued ones, just before it (two
 * neq updates over different domain sizes in a row). */
static fgm_ir *
mixed_ir(fgm_algo algo, int loop)
{
    static const int cards[6] = { 3, 5, 2, 5, 7, 3 };
    static const int edges[5][2] = { { 0, 1 }, { 1, 2 }, { 1, 3 }, { 3, 4 },
                                     { 4, 5 } };
    static const double ev0[3] = { 0.6, 0.3, 0.1 };
    static const double ev4[7] = { 0.05, 0.1, 0.3, 0.2, 0.15, 0.1, 0.1 };
    double pot[64];
    fgm_ir *ir = fgm_ir_new("mixed");
    fgm_status st;
    int i, j, n;

    for (i = 0; i < 6; i++) {
        char name[16];

        snprintf(name, sizeof name, "x%d", i);
        ck_assert_int_eq(fgm_ir_add_array(ir, name, 0, NULL, 0, cards[i], 0,
                                          &st), i);
    }
    for (i = 0; i < 5; i++) {
        n = cards[edges[i][0]] * cards[edges[i][1]];
        for (j = 0; j < n; j++)
            pot[j] = 0.1 + ((j * 5 + i * 3) % 7) * 0.25;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, edges[i],
                                           n, pot, &st), 0);
    }
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                       (int[1]){ 0 }, 3, ev0, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                       (int[1]){ 4 }, 7, ev4, &st), 0);
    if (loop == 2)
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_NEQ, 2,
                                           (int[2]){ 0, 5 }, 0, NULL, &st),
                         0);
    if (loop)
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_NEQ, 2,
                                           (int[2]){ 1, 3 }, 0, NULL, &st),
                         0);
    ir->infer.algo = algo;
    ir->infer.iterations = 30;
    return ir;
}

static void compare_backends(fgm_ir *a, fgm_ir *b, const int *given,
                             int box);

/* Mixed domain sizes: bp-sum on the tree is exact, and on the loopy
 * version (a neq too) both backends give the same bits, sequential and
 * flooding, sum and max. */
START_TEST(test_mixed_domains)
{
    fgm_model *m = open_interp(mixed_ir(FGM_ALGO_BP_SUM, 0));
    int a, sched;

    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    assert_exact_marginals(m);
    fgm_model_free(m);
    for (a = 0; a < 2; a++)
        for (sched = 0; sched < 3; sched++) {
            fgm_algo algo = a ? FGM_ALGO_BP_MAX : FGM_ALGO_BP_SUM;
            /* sched 2: sequential, two neq over 3 and 5 values in a row,
             * which a plugin must not run as one pair of one size. */
            fgm_ir *x = mixed_ir(algo, sched == 2 ? 2 : 1);
            fgm_ir *y = mixed_ir(algo, sched == 2 ? 2 : 1);

            if (sched == 1) {
                x->infer.schedule = y->infer.schedule = FGM_SCHEDULE_PARALLEL;
                x->infer.damping = y->infer.damping = 0.3;
            }
            compare_backends(x, y, NULL, 0);
        }
}
END_TEST

START_TEST(test_tree_parallel_and_damped)
{
    fgm_ir *ir = tree_ir(FGM_ALGO_BP_SUM);
    fgm_model *m;
    fgm_run_opts ro;
    fgm_run_info info;

    ir->infer.schedule = FGM_SCHEDULE_PARALLEL;
    ir->infer.iterations = 200;
    m = open_interp(ir);
    memset(&ro, 0, sizeof ro);
    ro.use_damping = 1;
    ro.damping = 0.5;
    ro.use_tolerance = 1;
    ro.tolerance = 1e-13;
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_OK);
    ck_assert_msg(info.sweeps < 200, "converged early (%d sweeps)",
                  info.sweeps);
    assert_exact_marginals(m);
    fgm_model_free(m);
}
END_TEST

/* bp-max's beliefs on a tree are the normalized max-marginals: those of
 * fgm_enumerate_max (the exact backend's answer for bp-max) to 1e-9; and
 * on a.b = [[4, 0], [3, 3]] they differ from the marginals (the best pair
 * is (0, 0), yet a = 1 carries more mass): 4/7 against 0.4 for a = 0. */
static void
assert_exact_max_marginals(const fgm_model *m)
{
    const fgm_ir *ir = fgm_model_ir(m);
    static const double pot[4] = { 4, 0, 3, 3 };
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    double exact[5 * FGM_IR_MAXCARD], bp[FGM_IR_MAXCARD], mm[4];
    fgm_ir *two = fgm_ir_new("map2");
    int dims[1] = { 2 }, v, k;

    ck_assert_ptr_nonnull(csp);
    ck_assert_int_le(ir->nvars * csp->maxcard, 5 * FGM_IR_MAXCARD);
    ck_assert_int_eq(fgm_enumerate_max(csp, NULL, 0, 0, exact, NULL),
                     FGM_OK);
    for (v = 0; v < ir->nvars; v++) {
        fgm_model_marginal(m, v, bp);
        for (k = 0; k < fgm_ir_card(ir, v); k++)
            ck_assert_double_eq_tol(bp[k], exact[v * csp->maxcard + k], 1e-9);
    }
    fgm_csp_free(csp);
    ck_assert_int_eq(fgm_ir_add_array(two, "x", 1, dims, 0, 2, 0, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(two, FGM_FACTOR_TABLE, 2,
                                       (int[2]){ 0, 1 }, 4, pot, &st), 0);
    csp = fgm_csp_new(two, &st);
    ck_assert_int_eq(fgm_enumerate_max(csp, NULL, 0, 0, mm, NULL), FGM_OK);
    ck_assert_double_eq_tol(mm[0], 4.0 / 7.0, 1e-12);
    ck_assert_int_eq(fgm_enumerate(csp, NULL, 0, 0, mm, NULL), FGM_OK);
    ck_assert_double_eq_tol(mm[0], 0.4, 1e-12);
    fgm_csp_free(csp);
    fgm_ir_free(two);
}

/* bp-max on a tree: the argmax of each max-marginal is the MAP state,
 * checked by brute force over all 3^5 assignments. */
START_TEST(test_tree_bp_max_map)
{
    fgm_ir *ir = tree_ir(FGM_ALGO_BP_MAX);
    const fgm_ir *cir;
    fgm_model *m;
    int x[5], best[5], v, i, t;
    double bestw = -1.0;

    m = open_interp(ir);
    cir = fgm_model_ir(m);
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
    for (t = 0; t < 243; t++) {
        double w = 1.0;

        for (v = 0, i = t; v < 5; v++, i /= 3)
            x[v] = i % 3;
        for (i = 0; i < cir->nfactors; i++) {
            const fgm_ir_factor *f = &cir->factors[i];
            const int *s = fgm_ir_scope(cir, f);
            const double *p = fgm_ir_params(cir, f);

            w *= f->kind == FGM_FACTOR_TABLE ? p[x[s[0]] * 3 + x[s[1]]]
                                             : p[x[s[0]]];
        }
        if (w > bestw) {
            bestw = w;
            memcpy(best, x, sizeof x);
        }
    }
    for (v = 0; v < 5; v++)
        ck_assert_int_eq(fgm_model_argmax(m, v), best[v]);
    assert_exact_max_marginals(m);
    fgm_model_free(m);
}
END_TEST

/* Naive Bayes, a star: class x0 (evidence 1/2, 1/2) and 244 features
 * x1..x244 fixed by evidence, each read through a table of odds 999;
 * AGAINST of them (first, or last with FIRST 0) say 0, the others 1.
 * The exact marginal of x0 = 0 is r / (1 + r), r = (1/999)^(244 -
 * 2 AGAINST). */
static fgm_ir *
naive_bayes_ir(fgm_algo algo, int against, int first)
{
    static const double pot[4] = { 0.999, 0.001, 0.001, 0.999 };
    static const double half[2] = { 0.5, 0.5 };
    int dims[1] = { 245 }, i;
    fgm_ir *ir = fgm_ir_new("naive_bayes");
    fgm_status st;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 2, 0, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                       (int[1]){ 0 }, 2, half, &st), 0);
    for (i = 1; i <= 244; i++) {
        int says0 = first ? i <= against : i > 244 - against;
        double fix[2] = { says0, !says0 };

        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2,
                                           (int[2]){ 0, i }, 4, pot, &st),
                         0);
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                           &i, 2, fix, &st), 0);
    }
    ir->infer.algo = algo;
    ir->infer.iterations = 3;
    return ir;
}

/* The class's belief is the product of 244 messages of odds 999: with
 * the 120 against the answer first, the running product's other value
 * fell below the doubles' range and no later message brought it back,
 * so that BP gave the wrong class with probability 1 (fgm_k_belief_full
 * now sees the underflow and takes the exact path).  Either order,
 * sum- and max-product, gives the exact marginal. */
START_TEST(test_belief_product_underflow)
{
    static const fgm_algo algos[2] = { FGM_ALGO_BP_SUM, FGM_ALGO_BP_MAX };
    double r = pow(0.001 / 0.999, 4), want = r / (1.0 + r), b[2];
    int a, first;

    for (a = 0; a < 2; a++)
        for (first = 0; first < 2; first++) {
            fgm_model *m = open_interp(naive_bayes_ir(algos[a], 120,
                                                      first));

            ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
            fgm_model_marginal(m, 0, b);
            ck_assert_msg(fabs(b[0] - want) <= 1e-9 * want,
                          "algo %d first %d: %.17g, want %.17g", a, first,
                          b[0], want);
            ck_assert_int_eq(fgm_model_argmax(m, 0), 1);
            fgm_model_free(m);
        }
    compare_backends(naive_bayes_ir(FGM_ALGO_BP_SUM, 120, 1),
                     naive_bayes_ir(FGM_ALGO_BP_SUM, 120, 1), NULL, 0);
}
END_TEST

/* The same star with one feature unobserved (x245) and a cycle apart
 * (x246..x248), so that the schedule is sequential in statement order:
 * the class's belief, moved in place by each update, lost a value to
 * underflow, and the message to x245 came from it (x245 = 0 got 0.001,
 * exact 0.999).  The runtime now rebuilds the beliefs after such a sweep
 * (fgm_state.lost), both backends. */
static fgm_model *open_backend(fgm_ir *ir, fgm_backend backend,
                               const char *dir);

START_TEST(test_belief_in_place_underflow)
{
    static const double pot[4] = { 0.999, 0.001, 0.001, 0.999 };
    static const double two[4] = { 2, 1, 1, 2 };
    static const fgm_backend backends[2] = { FGM_BACKEND_INTERPRETED,
                                             FGM_BACKEND_COMPILED };
    char dir[] = "/tmp/fgm_engine_XXXXXX";
    int b;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (b = 0; b < 2; b++) {
        fgm_ir *ir = naive_bayes_ir(FGM_ALGO_BP_SUM, 124, 0);
        fgm_status st;
        fgm_model *m;
        double x[2];
        int i, dims[1] = { 4 };

        ck_assert_int_eq(fgm_ir_add_array(ir, "y", 1, dims, 0, 2, 0, &st),
                         245);
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2,
                                           (int[2]){ 0, 245 }, 4, pot, &st),
                         0);
        for (i = 0; i < 3; i++)
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2,
                                               (int[2]){ 246 + i,
                                                         246 + (i + 1) % 3 },
                                               4, two, &st), 0);
        ir->infer.iterations = 5;
        m = open_backend(ir, backends[b], b ? dir : NULL);
        ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
        fgm_model_marginal(m, 0, x);
        ck_assert_double_lt(x[1], 1e-11);       /* class 0, as 124 say */
        fgm_model_marginal(m, 245, x);
        ck_assert_msg(fabs(x[0] - 0.999) < 1e-9, "backend %d: %.17g", b,
                      x[0]);
        fgm_model_free(m);
    }
    ck_assert_int_eq(system("rm -rf /tmp/fgm_engine_*") >= 0, 1);
}
END_TEST

/* A table's hard zero against strong evidence, on a tree: x0 read by
 * twelve features x1..x12 (tables of odds 999, all saying 1: 1e36 for
 * x0 = 1) and equal to x13 (an identity table), which is fixed to 0.
 * x0 = 1 is impossible, but with the table's zero floored at 1e-30 BP
 * gave it 0.999999, and warned of a contradiction that is not there. */
START_TEST(test_table_zero_outweighs_evidence)
{
    static const double odds[4] = { 0.999, 0.001, 0.001, 0.999 };
    static const double same[4] = { 1, 0, 0, 1 }, one[2] = { 0, 1 };
    static const double zero[2] = { 1, 0 };
    static const fgm_algo algos[2] = { FGM_ALGO_BP_SUM, FGM_ALGO_BP_MAX };
    int a;

    for (a = 0; a < 2; a++) {
        int dims[1] = { 14 }, i, last = 13;
        fgm_ir *ir = fgm_ir_new("sensors");
        fgm_status st;
        fgm_model *m;
        double b[2];

        ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 2, 0, &st),
                         0);
        for (i = 1; i <= 12; i++) {
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2,
                                               (int[2]){ 0, i }, 4, odds,
                                               &st), 0);
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                               &i, 2, one, &st), 0);
        }
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2,
                                           (int[2]){ 0, 13 }, 4, same, &st),
                         0);
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                           &last, 2, zero, &st), 0);
        ir->infer.algo = algos[a];
        ir->infer.iterations = 5;
        m = open_interp(ir);
        ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
        fgm_model_marginal(m, 0, b);
        ck_assert_msg(b[1] < 1e-200, "algo %d: x0 = 1 has %g", a, b[1]);
        ck_assert_int_eq(fgm_model_argmax(m, 0), 0);
        ck_assert_int_eq(fgm_model_contradiction(m), -1);
        fgm_model_free(m);
    }
}
END_TEST

/* EP on the robust Sudoku model gives the same cell beliefs as bp-sum on
 * the plain model with the Dirichlet mean as unary evidence. */
START_TEST(test_ep_equals_bp_with_prior_mean)
{
    fgm_ir *ep_ir = robust_ir(3), *bp_ir = fgm_ir_new("plain");
    int dims[2] = { 9, 9 }, given[81], v, k;
    double vec[9], a[9], b[9];
    fgm_model *ep, *bp;
    fgm_status st;

    test_given(EASY000, given);
    ck_assert_int_eq(fgm_ir_add_array(bp_ir, "cell", 2, dims, 1, 9, 0, &st),
                     0);
    for (v = 0; v < 81; v++) {
        if (given[v] < 0)
            continue;
        clue_vector(9, given[v], vec);
        ck_assert_int_ge(fgm_ir_add_factor(bp_ir, FGM_FACTOR_EVIDENCE, 1, &v,
                                           9, vec, &st), 0);
    }
    add_sudoku_units(bp_ir, 3, 0);
    bp_ir->infer.algo = FGM_ALGO_BP_SUM;
    ep = open_interp(ep_ir);
    bp = open_interp(bp_ir);
    for (v = 0; v < 81; v++)
        if (given[v] >= 0) {
            clue_vector(9, given[v], vec);
            ck_assert_int_eq(fgm_model_observe_dirichlet(ep, v, vec, 1),
                             FGM_OK);
        }
    fgm_model_run(ep, NULL, NULL);
    fgm_model_run(bp, NULL, NULL);
    for (v = 0; v < 81; v++) {
        fgm_model_marginal(ep, v, a);
        fgm_model_marginal(bp, v, b);
        for (k = 0; k < 9; k++)
            /* 1e-12: the same messages in the same order. */
            ck_assert_double_eq_tol(a[k], b[k], 1e-12);
    }
    fgm_model_free(ep);
    fgm_model_free(bp);
}
END_TEST

/* The seed's robust solver on Easy #1: argmax of the posterior over p. */
START_TEST(test_ep_robust_solves_easy)
{
    fgm_ir *ir = robust_ir(3);
    fgm_model *m = open_interp(ir);
    int given[81], answer[81], v, k;
    double vec[9], post[9];
    fgm_csp *csp;
    fgm_status st;

    test_given(EASY000, given);
    for (v = 0; v < 81; v++)
        if (given[v] >= 0) {
            clue_vector(9, given[v], vec);
            fgm_model_observe_dirichlet(m, v, vec, 1);
        }
    fgm_model_run(m, NULL, NULL);
    for (v = 0; v < 81; v++) {
        fgm_model_dirichlet(m, v, post);
        answer[v] = 0;
        for (k = 1; k < 9; k++)
            if (post[k] > post[answer[v]])
                answer[v] = k;
    }
    csp = fgm_csp_new(fgm_model_ir(m), &st);
    ck_assert_msg(fgm_csp_verify(csp, given, answer), "EP solves Easy #1");
    fgm_csp_free(csp);
    fgm_model_free(m);
}
END_TEST

/* Runs IR twice, compiled and interpreted, and compares every belief and
 * Dirichlet posterior. */
static void
compare_backends(fgm_ir *a, fgm_ir *b, const int *given, int box)
{
    char dir[] = "/tmp/fgm_engine_XXXXXX";
    fgm_model *mc, *mi;
    double x[32], y[32];
    int v, k, n;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    mc = open_backend(a, FGM_BACKEND_COMPILED, dir);
    mi = open_backend(b, FGM_BACKEND_INTERPRETED, NULL);
    ck_assert_int_eq(fgm_model_is_compiled(mc), 1);
    ck_assert_int_eq(fgm_model_is_compiled(mi), 0);
    n = box * box;
    for (v = 0; given && v < n * n; v++)
        if (given[v] >= 0) {
            clue_vector(n, given[v], x);
            fgm_model_observe_dirichlet(mc, v, x, 1);
            fgm_model_observe_dirichlet(mi, v, x, 1);
        }
    fgm_model_run(mc, NULL, NULL);
    fgm_model_run(mi, NULL, NULL);
    for (v = 0; v < fgm_model_ir(mi)->nvars; v++) {
        fgm_model_marginal(mc, v, x);
        fgm_model_marginal(mi, v, y);
        for (k = 0; k < fgm_ir_card(fgm_model_ir(mi), v); k++)
            /* 1e-12: same schedule, same kernels (DESIGN.md); here the
             * very same bits (ops/vec.h, -ffp-contract=off). */
            ck_assert_msg(x[k] == y[k], "var %d value %d: %.17g vs %.17g",
                          v, k, x[k], y[k]);
    }
    for (v = 0; v < fgm_model_ir(mi)->ndirichlet; v++) {
        fgm_model_dirichlet(mc, v, x);
        fgm_model_dirichlet(mi, v, y);
        for (k = 0; k < n; k++)
            ck_assert_double_eq_tol(x[k], y[k], 1e-12);
    }
    fgm_model_free(mc);
    fgm_model_free(mi);
    ck_assert_int_eq(system("rm -rf /tmp/fgm_engine_*") >= 0, 1);
}

START_TEST(test_compiled_matches_interpreted)
{
    int given[81];

    test_given(EASY000, given);
    compare_backends(robust_ir(3), robust_ir(3), given, 3);
    compare_backends(tree_ir(FGM_ALGO_BP_SUM), tree_ir(FGM_ALGO_BP_SUM),
                     NULL, 0);
    compare_backends(tree_ir(FGM_ALGO_BP_MAX), tree_ir(FGM_ALGO_BP_MAX),
                     NULL, 0);
    /* The seed's Python BP: flooding, both directions damped. */
    {
        fgm_ir *a = fgm_ir_sudoku(3), *b = fgm_ir_sudoku(3);
        fgm_ir *irs[2] = { a, b };
        int i, v;

        for (i = 0; i < 2; i++) {
            irs[i]->infer.algo = FGM_ALGO_BP_SUM;
            irs[i]->infer.schedule = FGM_SCHEDULE_PARALLEL;
            irs[i]->infer.damping = 0.5;
            irs[i]->infer.damp_both = 1;
            for (v = 0; v < 81; v++) {
                double w[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };

                if (given[v] < 0)
                    continue;
                memset(w, 0, sizeof w);
                w[given[v]] = 1;
                fgm_ir_add_factor(irs[i], FGM_FACTOR_EVIDENCE, 1, &v, 9, w,
                                  &(fgm_status){ 0 });
            }
        }
        compare_backends(a, b, NULL, 0);
    }
    /* The same on two domain sizes: the plugin's flooding sweep then
     * takes its x != y one at a time (fgm_k_neq_seed), the interpreter in
     * batches of one size (fgm_k_neq_seed_rows). */
    {
        static const char *const text =
            "var g[4][4] in 1..4\n"
            "var e[3] in 1..3\n"
            "alldiff g[i][*] for i in 0..3\n"
            "alldiff g[*][j] for j in 0..3\n"
            "alldiff e\n"
            "evidence g[0][0] = [5, 1, 2, 1]\n"
            "evidence g[1][2] = [1, 3, 1, 2]\n"
            "evidence e[0] = [1, 4, 2]\n"
            "infer bp-sum(schedule = parallel, damping = 0.5, "
            "iterations = 7)\n";
        fgm_ir *irs[2];
        int i;

        for (i = 0; i < 2; i++) {
            irs[i] = compile_text(text);
            irs[i]->infer.damp_both = 1;
        }
        compare_backends(irs[0], irs[1], NULL, 0);
    }
}
END_TEST

/* Every shipped model, on every algorithm: the compiled plugin and the
 * interpreter give the same marginals and posteriors.  The 9x9 models get
 * the clues of Easy #1 and the dice some rolls, so that the runs are not
 * trivially uniform. */
START_TEST(test_shipped_models_both_backends)
{
    static const char *const models[] = {
        "models/sudoku.fgm", "models/sudoku_naive.fgm", "models/latin.fgm",
        "models/dice.fgm", "models/chain.fgm", "models/queens.fgm",
        "models/casino.fgm", "models/one_die.fgm", "models/killer.fgm",
        "models/knapsack.fgm", "models/magic.fgm"
    };
    static const char *const algos[] = { "ep", "bp-sum", "bp-max", "gibbs",
                                         "vmp" };
    char dir[] = "/tmp/fgm_models_XXXXXX";
    int given[81], i, a, v, k;

    test_given(EASY000, given);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (i = 0; i < (int)(sizeof models / sizeof *models); i++)
        for (a = 0; a < 5; a++) {
            fgm_model *m[2];
            fgm_model_opts o;
            double x[64], y[64];
            const fgm_ir *ir;
            int b;

            for (b = 0; b < 2; b++) {
                memset(&o, 0, sizeof o);
                o.backend = b ? FGM_BACKEND_INTERPRETED : FGM_BACKEND_COMPILED;
                o.algo = algos[a];
                o.out_dir = dir;
                ck_assert_msg(fgm_model_open(models[i], &o, &m[b], NULL, NULL)
                              == FGM_OK, "%s %s opens", models[i], algos[a]);
                ir = fgm_model_ir(m[b]);
                /* Clues on the first discrete array of 81 cells, as
                 * point masses where it has observed priors (not on the
                 * Killer Sudoku: its cages have another solution). */
                if (ir->nvars >= 81 && fgm_ir_card(ir, 0) == 9
                    && !strstr(models[i], "killer"))
                    for (v = 0; v < 81; v++) {
                        if (given[v] < 0)
                            continue;
                        if (ir->ndirichlet == 81) {
                            clue_vector(9, given[v], x);
                            fgm_model_observe_dirichlet(m[b], v, x, 1);
                        } else {
                            fgm_model_observe_var(m[b], v, given[v]);
                        }
                    }
                if (strstr(models[i], "dice") || strstr(models[i], "die"))
                    for (v = 0; v < ir->nvars; v++)
                        fgm_model_observe_var(m[b], v, (v * 7) % 6);
                /* The casino's rolls (its second half of variables),
                 * sixes in a run from the 10th. */
                if (strstr(models[i], "casino"))
                    for (v = ir->nvars / 2; v < ir->nvars; v++)
                        fgm_model_observe_var(m[b], v, v % 9 == 0 ? 2
                                              : v > 50 && v < 62 ? 5
                                              : (v * 5) % 6);
                fgm_model_run(m[b], NULL, NULL);
            }
            ck_assert_int_eq(fgm_model_is_compiled(m[0]), 1);
            ir = fgm_model_ir(m[1]);
            for (v = 0; v < ir->nvars; v++) {
                fgm_model_marginal(m[0], v, x);
                fgm_model_marginal(m[1], v, y);
                for (k = 0; k < fgm_ir_card(ir, v); k++)
                    /* 1e-12: same schedule, same kernels (DESIGN.md). */
                    ck_assert_msg(x[k] == y[k],
                                  "%s %s: var %d value %d: %.17g vs %.17g",
                                  models[i], algos[a], v, k, x[k], y[k]);
            }
            for (v = 0; v < ir->ndirichlet; v++) {
                fgm_model_dirichlet(m[0], v, x);
                fgm_model_dirichlet(m[1], v, y);
                for (k = 0; k < ir->arrays[ir->dir_array[v]].card; k++)
                    ck_assert_double_eq_tol(x[k], y[k], 1e-12);
            }
            /* The log evidence (bp-max: the largest weight's), from
             * the same messages; a sampler has none. */
            if (strcmp(algos[a], "gibbs") == 0) {
                ck_assert_int_eq(fgm_model_log_evidence(m[0], &x[0]),
                                 FGM_EUNSUPPORTED);
                fgm_model_free(m[0]);
                fgm_model_free(m[1]);
                continue;
            }
            ck_assert_int_eq(fgm_model_log_evidence(m[0], &x[0]), FGM_OK);
            ck_assert_int_eq(fgm_model_log_evidence(m[1], &y[0]), FGM_OK);
            ck_assert_msg(x[0] == y[0], "%s %s: log Z %.17g vs %.17g",
                          models[i], algos[a], x[0], y[0]);
            fgm_model_free(m[0]);
            fgm_model_free(m[1]);
        }
    ck_assert_int_eq(system("rm -rf /tmp/fgm_models_*") >= 0, 1);
}
END_TEST

/* Identical IR gives byte-identical C. */
START_TEST(test_codegen_deterministic)
{
    fgm_ir *a = robust_ir(2), *b = robust_ir(2);
    fgm_sched *sa, *sb;
    char *ta = NULL, *tb = NULL;
    size_t la = 0, lb = 0;
    FILE *fa = open_memstream(&ta, &la), *fb = open_memstream(&tb, &lb);
    fgm_status st;

    sa = fgm_sched_new(a, &st);
    sb = fgm_sched_new(b, &st);
    ck_assert_int_eq(fgm_codegen_emit(sa, fa), FGM_OK);
    ck_assert_int_eq(fgm_codegen_emit(sb, fb), FGM_OK);
    fclose(fa);
    fclose(fb);
    ck_assert_uint_eq(la, lb);
    ck_assert_msg(memcmp(ta, tb, la) == 0, "same IR, same C");
    ck_assert_ptr_nonnull(strstr(ta, "/* Generated by fgm compile "));
    ck_assert_ptr_nonnull(strstr(ta, "/* end sweep */"));
    free(ta);
    free(tb);
    fgm_sched_free(sa);
    fgm_sched_free(sb);
    fgm_ir_free(a);
    fgm_ir_free(b);
}
END_TEST

/* Warm starts continue from the last messages; noisy cold starts are
 * reproducible from their seed and still reach the tree's exact answer. */
START_TEST(test_warm_and_noise)
{
    fgm_model *m = open_interp(tree_ir(FGM_ALGO_BP_SUM));
    fgm_run_opts ro;
    fgm_run_info info;
    double a[3], b[3], c[3];
    int k;

    memset(&ro, 0, sizeof ro);
    fgm_model_run(m, NULL, NULL);
    fgm_model_marginal(m, 2, a);
    ro.warm = 1;
    ro.iterations = 1;
    fgm_model_run(m, &ro, &info);
    /* 1e-15: converged messages do not move on a warm sweep. */
    ck_assert_double_le(info.change, 1e-15);
    fgm_model_observe_var(m, 4, 2);
    ro.iterations = 3;      /* x4's news reaches x2 through x1 */
    fgm_model_run(m, &ro, NULL);
    fgm_model_marginal(m, 2, b);
    ck_assert_msg(fabs(a[0] - b[0]) > 1e-6, "a warm run sees a new clamp");
    memset(&ro, 0, sizeof ro);
    ro.noise = 0.6;
    ro.seed = 7;
    ro.iterations = 1;
    fgm_model_run(m, &ro, NULL);
    fgm_model_marginal(m, 2, b);
    fgm_model_run(m, &ro, NULL);
    fgm_model_marginal(m, 2, c);
    for (k = 0; k < 3; k++)
        ck_assert_double_eq(b[k], c[k]);     /* same seed, same numbers */
    ro.iterations = 30;
    fgm_model_run(m, &ro, NULL);
    fgm_model_marginal(m, 2, b);
    ro.noise = 0.0;
    fgm_model_run(m, &ro, NULL);
    fgm_model_marginal(m, 2, c);
    for (k = 0; k < 3; k++)
        /* 1e-9: on a tree BP forgets its start. */
        ck_assert_double_eq_tol(b[k], c[k], 1e-9);
    fgm_model_free(m);
}
END_TEST

/* A soft clamp leaves epsilon on the other values (the seed's BP_EPS). */
START_TEST(test_clamp_epsilon)
{
    fgm_model *m = open_interp(tree_ir(FGM_ALGO_BP_SUM));
    double b[3];

    fgm_model_observe_var(m, 0, 1);
    fgm_model_run(m, NULL, NULL);
    fgm_model_marginal(m, 0, b);
    ck_assert_double_eq(b[0], 0.0);             /* hard: exactly 0 */
    fgm_model_set_clamp_epsilon(m, 1e-12);
    fgm_model_observe_var(m, 0, 1);
    fgm_model_run(m, NULL, NULL);
    fgm_model_marginal(m, 0, b);
    ck_assert_msg(b[0] > 0.0 && b[0] < 1e-10, "soft: tiny but not 0 (%g)",
                  b[0]);
    ck_assert_double_gt(b[1], 1.0 - 1e-10);
    fgm_model_free(m);
}
END_TEST

/* Observes the clues GIVEN of the 9x9 grid exactly: hard clamps when
 * CLAMP, else one-hot point-mass Dirichlet priors (zeros off the clue). */
static void
observe_exact_clues(fgm_model *m, const int *given, int clamp)
{
    double e[9];
    int v;

    for (v = 0; v < 81; v++) {
        if (given[v] < 0)
            continue;
        if (clamp) {
            ck_assert_int_eq(fgm_model_observe_var(m, v, given[v]), FGM_OK);
            continue;
        }
        memset(e, 0, sizeof e);
        e[given[v]] = 1.0;
        ck_assert_int_eq(fgm_model_observe_dirichlet(m, v, e, 1), FGM_OK);
    }
}

/* Runs M for 50 sweeps with or without skipping the updates around pinned
 * variables and writes every marginal (N values each) to OUT. */
static void
run_marginals(fgm_model *m, int full, int n, double *out)
{
    fgm_run_opts ro;
    int v;

    memset(&ro, 0, sizeof ro);
    ro.iterations = 50;
    ro.full_sweeps = full;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
    for (v = 0; v < fgm_model_ir(m)->nvars; v++)
        ck_assert_int_eq(fgm_model_marginal(m, v, out + (size_t)v * n),
                         FGM_OK);
}

/* Exact observations pin their cells: the updates around them are
 * skipped after the first sweeps, and the marginals are those of full
 * sweeps (to rounding), on both backends, for EP with one-hot point
 * masses (sequential, then flooding: there a point mass reaches its
 * belief only at the end of sweep 1) and for sequential BP with hard
 * clamps. */
START_TEST(test_skip_pinned)
{
    static double full[81 * 9], skip[81 * 9], other[81 * 9];
    char dir[] = "/tmp/fgm_pinned_XXXXXX";
    int given[81], v, i, pass;

    test_given(EASY000, given);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (pass = 0; pass < 4; pass++) {
        fgm_ir *ir = pass != 2 ? robust_ir(3) : fgm_ir_sudoku(3);
        fgm_model *m, *c;
        double e[9];

        if (pass == 2) {
            ir->infer.algo = FGM_ALGO_BP_SUM;
            ir->infer.iterations = 50;
        }
        if (pass == 3)
            ir->infer.schedule = FGM_SCHEDULE_PARALLEL;
        m = open_backend(fgm_ir_copy(ir), FGM_BACKEND_INTERPRETED, NULL);
        c = open_backend(ir, FGM_BACKEND_COMPILED, dir);
        observe_exact_clues(m, given, pass == 2);
        observe_exact_clues(c, given, pass == 2);
        if (pass == 1)
            for (v = 0; v < 81; v++)
                if (given[v] < 0) {
                    /* Free cells observed soft: nothing more is pinned. */
                    for (i = 0; i < 9; i++)
                        e[i] = 1.0 + i;
                    fgm_model_observe_dirichlet(m, v, e, 0);
                    fgm_model_observe_dirichlet(c, v, e, 0);
                }
        run_marginals(m, 1, 9, full);
        run_marginals(m, 0, 9, skip);
        run_marginals(c, 0, 9, other);
        for (i = 0; i < 81 * 9; i++) {
            /* Skipping changes nothing but rounding (1e-30 terms). */
            ck_assert_double_eq_tol(skip[i], full[i], 1e-12);
            ck_assert_double_eq_tol(other[i], skip[i], 1e-12);
        }
        for (v = 0; v < 81; v++)
            if (given[v] >= 0)
                ck_assert_double_gt(skip[v * 9 + given[v]], 1.0 - 1e-12);
        fgm_model_free(m);
        fgm_model_free(c);
    }
    ck_assert_int_eq(system("rm -rf /tmp/fgm_pinned_*") >= 0, 1);
}
END_TEST

/* A warm run rebuilds every belief from the new unary vectors before its
 * first sweep, by the plugin's finish in a compiled model (plugin_abi.h),
 * flooding schedules included: their table updates read the beliefs.  A
 * plugin that skipped the rebuild would send x4's neighbour a cavity
 * without x4's new clamp, where the interpreter's has it. */
START_TEST(test_warm_flooding_rebuild)
{
    char dir[] = "/tmp/fgm_warmflood_XXXXXX", cmd[64];
    fgm_model *m[2];
    fgm_run_opts ro;
    double before[3], x[2][3];
    int b, v, k;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (b = 0; b < 2; b++) {
        fgm_ir *ir = tree_ir(FGM_ALGO_BP_SUM);

        ir->infer.schedule = FGM_SCHEDULE_PARALLEL;
        ir->infer.damping = 0.3;
        m[b] = open_backend(ir, b ? FGM_BACKEND_COMPILED
                                  : FGM_BACKEND_INTERPRETED, dir);
        ck_assert_int_eq(fgm_model_is_compiled(m[b]), b);
        memset(&ro, 0, sizeof ro);
        ro.iterations = 5;
        ck_assert_int_eq(fgm_model_run(m[b], &ro, NULL), FGM_OK);
        fgm_model_marginal(m[b], 1, before);
        ck_assert_int_eq(fgm_model_observe_var(m[b], 4, 2), FGM_OK);
        ro.iterations = 1;
        ro.warm = 1;
        ck_assert_int_eq(fgm_model_run(m[b], &ro, NULL), FGM_OK);
        /* One sweep after the clamp: x1 hears of it only through x4's
         * rebuilt belief. */
        fgm_model_marginal(m[b], 1, x[b]);
        ck_assert_msg(fabs(x[b][2] - before[2]) > 1e-3,
                      "backend %d: x1 %.6f -> %.6f", b, before[2], x[b][2]);
    }
    for (v = 0; v < 5; v++) {
        fgm_model_marginal(m[0], v, x[0]);
        fgm_model_marginal(m[1], v, x[1]);
        for (k = 0; k < 3; k++)
            ck_assert_msg(x[0][k] == x[1][k], "x%d value %d: %.17g vs %.17g",
                          v, k, x[0][k], x[1][k]);
    }
    fgm_model_free(m[0]);
    fgm_model_free(m[1]);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd) >= 0, 1);
}
END_TEST

/* A sequential sweep moves beliefs in place, update by update (cavity
 * times new message), and a run rebuilds them from the messages only at
 * its end; a warm run rebuilds them at its start.  So one run of 30
 * sweeps and 30 warm runs of one sweep differ only by rounding: the
 * in-place beliefs track the products of the messages.  EP on the
 * notebook's easy grid, exact clues, both backends; a kernel that moved a
 * belief wrongly (or not at all) would be off by far more. */
START_TEST(test_beliefs_in_place)
{
    static double once[81 * 9], stepped[81 * 9];
    char dir[] = "/tmp/fgm_inplace_XXXXXX", cmd[64];
    int given[81], v, i, b;
    double e[9];

    test_given(EASY000, given);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (b = 0; b < 2; b++) {
        fgm_model *m = open_backend(robust_ir(3),
                                    b ? FGM_BACKEND_COMPILED
                                      : FGM_BACKEND_INTERPRETED, dir);
        fgm_run_opts ro;

        observe_exact_clues(m, given, 0);
        memset(&ro, 0, sizeof ro);
        ro.iterations = 30;
        ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
        for (v = 0; v < 81; v++) {
            double sum = 0.0;

            /* The run ends with every belief rebuilt and normalized. */
            fgm_model_marginal(m, v, e);
            for (i = 0; i < 9; i++)
                sum += e[i];
            ck_assert_double_eq_tol(sum, 1.0, 1e-12);
            fgm_model_dirichlet(m, v, once + v * 9);
        }
        ro.iterations = 1;
        for (i = 0; i < 30; i++) {
            ro.warm = i > 0;
            ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
        }
        for (v = 0; v < 81; v++)
            fgm_model_dirichlet(m, v, stepped + v * 9);
        for (i = 0; i < 81 * 9; i++)
            ck_assert_double_eq_tol(once[i], stepped[i], 1e-9);
        fgm_model_free(m);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd) >= 0, 1);
}
END_TEST

/* Runs SWEEPS sequential sweeps of M straight through its backend (no
 * rebuild at the end) with DAMPING, then checks that every belief, once
 * normalized, is the normalized product of its unary vector and incoming
 * messages (fgm_k_refresh) to 1e-11: each update must have moved the
 * beliefs of its variables in place. */
static void
assert_beliefs_in_place(fgm_model *m, int sweeps, double damping,
                        const char *what)
{
    const fgm_sched *s = m->sched;
    fgm_state *st = &m->st;
    size_t n = (size_t)s->nvars * (size_t)s->stride;
    double *kept = malloc(n * sizeof *kept);
    int v, j, i;

    ck_assert_ptr_nonnull(kept);
    ck_assert_int_eq(s->infer.schedule, FGM_SCHEDULE_SEQUENTIAL);
    st->damping = damping;
    st->parallel = st->damp_v2f = st->skip_pinned = st->track_change = 0;
    if (m->desc)
        m->desc->reset(st);
    else
        fgm_interp_reset(s, st);
    for (i = 0; i < sweeps; i++)
        if (m->desc)
            m->desc->sweep(st);
        else
            fgm_interp_sweep(s, st);
    memcpy(kept, st->belief, n * sizeof *kept);
    fgm_k_refresh(st, s->nvars, s->var_edge_off, s->var_edges, s->card, 0,
                  s->stride, 0);
    for (v = 0; v < s->nvars; v++) {
        double *b = kept + (size_t)v * (size_t)s->stride;

        fgm_k_normalize(b, s->card[v]);
        for (j = 0; j < s->card[v]; j++)
            ck_assert_msg(fabs(b[j] - st->belief[(size_t)v * s->stride + j])
                          < 1e-11, "%s (%s): var %d value %d: %.17g in "
                          "place, %.17g from the messages", what,
                          m->desc ? "compiled" : "interpreted", v, j, b[j],
                          st->belief[(size_t)v * s->stride + j]);
    }
    free(kept);
}

/* Every kernel that runs in a sequential schedule (!= sum and max, damped
 * or not, Dirichlet EP, native alldiff sum and max, tables, mixed domain
 * sizes) keeps its variables' beliefs in step with their messages, on
 * both backends, with clues clamped. */
START_TEST(test_beliefs_track_messages)
{
    char dir[] = "/tmp/fgm_track_XXXXXX", cmd[64];
    int given[81], c, b;

    test_given(EASY000, given);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (c = 0; c < 8; c++)
        for (b = 0; b < 2; b++) {
            fgm_backend be = b ? FGM_BACKEND_COMPILED
                               : FGM_BACKEND_INTERPRETED;
            fgm_ir *ir;
            fgm_model *m;
            double damping = c == 2 ? 0.5 : 0.0;
            static const char *what[8] = {
                "EP, Dirichlet + neq", "bp-sum neq", "bp-sum neq damped",
                "bp-max neq", "bp-sum native alldiff",
                "bp-max native alldiff", "bp-sum tables + neq",
                "bp-max tables + neq"
            };

            if (c == 0) {
                ir = robust_ir(3);
            } else if (c < 6) {
                ir = fgm_ir_sudoku(3);
                ir->infer.algo = c == 3 || c == 5 ? FGM_ALGO_BP_MAX
                                                  : FGM_ALGO_BP_SUM;
                if (c >= 4)
                    ir->infer.alldiff = FGM_ALLDIFF_NATIVE;
            } else {
                ir = mixed_ir(c == 7 ? FGM_ALGO_BP_MAX : FGM_ALGO_BP_SUM, 2);
            }
            m = open_backend(ir, be, dir);
            if (c < 6)
                observe_exact_clues(m, given, c > 0);
            assert_beliefs_in_place(m, 7, damping, what[c]);
            fgm_model_free(m);
        }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd) >= 0, 1);
}
END_TEST

/* The seed's both-directions damping: a run from uniform messages moves
 * only the variable-to-factor messages in its first sweep, and that
 * counts as change -- a tolerance stops the run at convergence, not
 * after one sweep. */
START_TEST(test_tolerance_damp_both)
{
    fgm_ir *ir = fgm_ir_sudoku(3);
    fgm_model *m;
    fgm_run_opts ro;
    fgm_run_info info;
    int given[81], v;

    test_given(EASY000, given);
    ir->infer.algo = FGM_ALGO_BP_SUM;
    ir->infer.schedule = FGM_SCHEDULE_PARALLEL;
    ir->infer.damping = 0.5;
    ir->infer.damp_both = 1;
    m = open_interp(ir);
    for (v = 0; v < 81; v++)
        if (given[v] >= 0)
            fgm_model_observe_var(m, v, given[v]);
    memset(&ro, 0, sizeof ro);
    ro.iterations = 500;
    ro.tolerance = 1e-6;
    ro.use_tolerance = 1;
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_OK);
    ck_assert_int_gt(info.sweeps, 5);
    ck_assert_int_lt(info.sweeps, 500);
    ck_assert_double_lt(info.change, 1e-6);
    fgm_model_free(m);
}
END_TEST

START_TEST(test_errors)
{
    fgm_ir *ir = tree_ir(FGM_ALGO_BP_SUM);
    fgm_model *m = open_interp(ir);
    fgm_model_opts o;
    fgm_run_opts ro;
    double bad[3] = { 1, 0, 1 };
    fgm_model *m2 = NULL;

    ck_assert_int_eq(fgm_model_observe_var(m, 9, 0), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_observe_var(m, 0, 3), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_observe_dirichlet(m, 0, bad, 0), FGM_EINVAL);
    bad[0] = bad[2] = 0.0;      /* a point mass needs some mass */
    ck_assert_int_eq(fgm_model_observe_dirichlet(m, 0, bad, 1), FGM_EINVAL);
    bad[1] = -1.0;
    ck_assert_int_eq(fgm_model_observe_dirichlet(m, 0, bad, 1), FGM_EINVAL);
    {
        /* POINT_MASS is 0 or 1 (2 was taken for 1). */
        static const double pm[2] = { 1.0, 1.0 };
        fgm_ir *dir = NULL;
        fgm_model *md;

        ck_assert_int_eq(fgm_compile_string("prior p ~ dirichlet([1, 1])\n"
                                            "var x in 0..1 ~ discrete(p)\n",
                                            "d.fgm", NULL, &dir, NULL, NULL),
                         FGM_OK);
        md = open_interp(dir);
        ck_assert_int_eq(fgm_model_observe_dirichlet(md, 0, pm, 2),
                         FGM_EINVAL);
        ck_assert_int_eq(fgm_model_observe_dirichlet(md, 0, pm, 1), FGM_OK);
        fgm_model_free(md);
    }
    memset(&ro, 0, sizeof ro);
    ro.use_damping = 1;
    ro.damping = 1.0;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    fgm_model_free(m);
    memset(&o, 0, sizeof o);
    o.algo = "svi";
    ck_assert_int_eq(fgm_model_open_ir(tree_ir(FGM_ALGO_BP_SUM), &o, &m2,
                                       NULL, NULL), FGM_EINVAL);
    ck_assert_ptr_null(m2);
    {
        /* x != y over domains of different sizes: no kernel for it. */
        fgm_ir *mixed = fgm_ir_new("mixed");
        fgm_status st;
        int sc[2];

        sc[0] = fgm_ir_add_array(mixed, "x", 0, NULL, 0, 3, 0, &st);
        sc[1] = fgm_ir_add_array(mixed, "y", 0, NULL, 0, 4, 0, &st);
        ck_assert_int_ge(fgm_ir_add_factor(mixed, FGM_FACTOR_NEQ, 2, sc, 0,
                                           NULL, &st), 0);
        memset(&o, 0, sizeof o);
        o.backend = FGM_BACKEND_INTERPRETED;
        ck_assert_int_eq(fgm_model_open_ir(mixed, &o, &m2, NULL, NULL),
                         FGM_EUNSUPPORTED);
        ck_assert_ptr_null(m2);
    }
    fgm_model_free(NULL);
}
END_TEST

/* A prior no variable draws from, wider than every domain (nine
 * pseudo-counts beside a three-valued variable): its rows fit the
 * state's stride, so every node keeps its prior on every algorithm, and
 * the evidence is the free variable's log 3.  (Rows of four overwrote
 * the next node's; the fuzzer's run then took log Gamma(0).) */
START_TEST(test_wide_unlinked_prior)
{
    static const char *const algos[] = { "ep", "bp-sum", "gibbs", "vmp" };
    double a[9], lz;
    int i, d, k;

    for (i = 0; i < 4; i++) {
        fgm_model_opts o;
        fgm_model *m = NULL;
        fgm_ir *ir = compile_text("prior p[4] ~ dirichlet(9)\n"
                                  "var c in 0..2\ninfer ep\n");

        memset(&o, 0, sizeof o);
        o.backend = FGM_BACKEND_INTERPRETED;
        o.algo = algos[i];
        ck_assert_int_eq(fgm_model_open_ir(ir, &o, &m, NULL, NULL), FGM_OK);
        ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
        for (d = 0; d < 4; d++) {
            ck_assert_int_eq(fgm_model_dirichlet(m, d, a), FGM_OK);
            for (k = 0; k < 9; k++)     /* gibbs: a mean of ninths */
                ck_assert_msg(fabs(a[k] - 1.0) < 1e-12, "%s node %d entry "
                              "%d: %.17g", algos[i], d, k, a[k]);
        }
        if (i != 2) {   /* a sampler has no evidence */
            ck_assert_int_eq(fgm_model_log_evidence(m, &lz), FGM_OK);
            ck_assert_double_eq_tol(lz, log(3.0), 1e-12);
        }
        fgm_model_free(m);
    }
}
END_TEST

Suite *
engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *core = tcase_create("core"), *errors = tcase_create("errors");

    tcase_set_timeout(core, 120);
    tcase_set_timeout(errors, 10);
    tcase_add_test(core, test_dice_mean);
    tcase_add_test(core, test_dice_mean_square);
    tcase_add_test(core, test_dirichlet_rounded_flat);
    tcase_add_test(core, test_dirichlet_mean_infernet);
    tcase_add_test(core, test_tree_bp_sum_exact);
    tcase_add_test(core, test_tree_one_sweep);
    tcase_add_test(core, test_enumerate_huge_pseudo_count);
    tcase_add_test(core, test_mixed_domains);
    tcase_add_test(core, test_tree_parallel_and_damped);
    tcase_add_test(core, test_tree_bp_max_map);
    tcase_add_test(core, test_belief_product_underflow);
    tcase_add_test(core, test_table_zero_outweighs_evidence);
    tcase_add_test(core, test_belief_in_place_underflow);
    tcase_add_test(core, test_ep_equals_bp_with_prior_mean);
    tcase_add_test(core, test_ep_robust_solves_easy);
    tcase_add_test(core, test_compiled_matches_interpreted);
    tcase_add_test(core, test_codegen_deterministic);
    tcase_add_test(core, test_warm_and_noise);
    tcase_add_test(core, test_warm_flooding_rebuild);
    tcase_add_test(core, test_shipped_models_both_backends);
    tcase_add_test(core, test_clamp_epsilon);
    tcase_add_test(core, test_skip_pinned);
    tcase_add_test(core, test_beliefs_in_place);
    tcase_add_test(core, test_dirichlet_belief);
    tcase_add_test(core, test_beliefs_track_messages);
    tcase_add_test(core, test_tolerance_damp_both);
    tcase_add_test(errors, test_errors);
    tcase_add_test(core, test_wide_unlinked_prior);
    suite_add_tcase(s, core);
    suite_add_tcase(s, errors);
    return s;
}
