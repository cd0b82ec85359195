/* tests/check_eliminate.c: variable elimination against enumeration and BP.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fgm_eliminate must give fgm_enumerate's marginals and max-marginals
 * (1e-9) on random small models that mix every factor kind the exact
 * oracle reads: tables with zero entries, evidence, neq, alldiff, and
 * Dirichlet nodes with free and observed children, under random clues.
 * On a chain far too long to enumerate it must give bp-sum's marginals,
 * which are exact on a tree; its log of the total weight is checked
 * against sums done by hand.
 */
#include <check.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../runtime/ir.h"
#include "../runtime/exact/csp.h"
#include "suites.h"
#include "testutil.h"

/* A random model of 3-7 variables (2-4 values each) from RNG, with its
 * random clues in GIVEN (-1 free). */
static fgm_ir *
random_model(gsl_rng *rng, int *given)
{
    fgm_ir *ir = fgm_ir_new("rand");
    fgm_status st;
    int n = 3 + (int)gsl_rng_uniform_int(rng, 5), card[8], v, f, j, a;
    int dims[1] = { 1 }, scope[3], nf;
    double w[64];
    char name[16];

    ck_assert_ptr_nonnull(ir);
    for (v = 0; v < n; v++) {
        card[v] = 2 + (int)gsl_rng_uniform_int(rng, 3);
        snprintf(name, sizeof name, "x%d", v);
        ck_assert_int_eq(fgm_ir_add_array(ir, name, 1, dims, 0, card[v],
                                          FGM_ARRAY_OBSERVED, &st), v);
    }
    nf = 2 + (int)gsl_rng_uniform_int(rng, 6);
    for (f = 0; f < nf; f++) {
        int arity = 1 + (int)gsl_rng_uniform_int(rng, 3), size = 1;
        double kind = gsl_rng_uniform(rng);

        for (j = 0; j < arity; j++) {
            /* Each variable once (the IR refuses a repeat); n >= 3 >=
             * arity, so a free one is found. */
            scope[j] = (int)gsl_rng_uniform_int(rng, (unsigned long)n);
            for (a = 0; a < j; a++)
                if (scope[a] == scope[j]) {
                    scope[j] = (scope[j] + 1) % n;
                    a = -1;
                }
            size *= card[scope[j]];
        }
        if (arity == 2 && kind < 0.3) {
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_NEQ, 2, scope,
                                               0, NULL, &st), 0);
            continue;
        }
        if (arity == 3 && kind < 0.3) {
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, 3,
                                               scope, 0, NULL, &st), 0);
            continue;
        }
        for (j = 0; j < size; j++)
            w[j] = gsl_rng_uniform(rng) < 0.15 ? 0.0
                                               : 0.1 + gsl_rng_uniform(rng);
        if (arity == 1)
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                               scope, size, w, &st), 0);
        else
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, arity,
                                               scope, size, w, &st), 0);
    }
    if (gsl_rng_uniform(rng) < 0.6) {
        /* A prior over the domain of x0's size; the variables of that
         * size draw from it (two to four of them, some observed). */
        double alpha[4];
        int node;

        for (j = 0; j < card[0]; j++)
            alpha[j] = 0.5 + 2.0 * gsl_rng_uniform(rng);
        node = fgm_ir_add_dirichlet_array(ir, "p", 1, dims, card[0], alpha,
                                          0, &st);
        ck_assert_int_ge(node, 0);
        for (v = 0; v < n; v++)
            if (card[v] == card[0])
                ck_assert_int_ge(fgm_ir_add_dirichlet_discrete(ir, v, node,
                                                               &st), 0);
    }
    for (v = 0; v < n; v++)
        given[v] = gsl_rng_uniform(rng) < 0.25
                   ? (int)gsl_rng_uniform_int(rng, (unsigned long)card[v])
                   : -1;
    return ir;
}

/* fgm_eliminate_map (BY_ENUMERATION: fgm_enumerate_map, branch and
 * bound) on CSP with clues GIVEN, against the enumeration's max-marginals
 * MM (status SE) and the largest weight's log LOG_MAX: the same status;
 * each variable's value in the assignment has its largest max-marginal
 * (what every assignment of the largest weight has), the clues their
 * values, and the weight's log is LOG_MAX. */
static void
assert_map(const fgm_csp *csp, const int *given, const double *mm,
           fgm_status se, double log_max, int seed, int by_enumeration)
{
    int *x = malloc(((size_t)csp->nvars + 1) * sizeof *x), v, k;
    int mc = csp->maxcard;
    fgm_elim_info info;
    double top;

    ck_assert_ptr_nonnull(x);
    if (by_enumeration)
        ck_assert_int_eq(fgm_enumerate_map(csp, given, 0, 0, x, &info.log_z,
                                           NULL), se);
    else
        ck_assert_int_eq(fgm_eliminate_map(csp, given, 0, 0, x, &info), se);
    if (se != FGM_OK) {
        free(x);
        return;
    }
    ck_assert_double_eq_tol(info.log_z, log_max, 1e-9);
    for (v = 0; v < csp->nvars; v++) {
        for (top = 0.0, k = 0; k < csp->card[v]; k++)
            top = mm[v * mc + k] > top ? mm[v * mc + k] : top;
        ck_assert_msg(x[v] >= 0 && x[v] < csp->card[v]
                      && mm[v * mc + x[v]] > top * (1 - 1e-9),
                      "seed %d: x%d = %d, max-marginal %g, best %g", seed, v,
                      x[v], mm[v * mc + x[v]], top);
        ck_assert(!given || given[v] < 0 || x[v] == given[v]);
    }
    free(x);
}

/* Both oracles on IR with clues GIVEN (sum- or max-product): the same
 * status, and on FGM_OK the same numbers to 1e-9. */
static void
assert_agree(const fgm_ir *ir, const int *given, int max, int seed)
{
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    double a[8 * 64], b[8 * 64];
    fgm_elim_info info;
    fgm_status se, sv;
    double log_e = NAN;
    int i;

    ck_assert_ptr_nonnull(csp);
    se = max ? fgm_enumerate_max_log(csp, given, 0, 0, a, NULL, &log_e)
             : fgm_enumerate_log_z(csp, given, 0, 0, a, NULL, 0, NULL,
                                   &log_e);
    sv = fgm_eliminate(csp, given, 0, 0, max, b, &info);
    ck_assert_msg(se == sv, "seed %d max %d: enumeration %d, elimination %d",
                  seed, max, se, sv);
    for (i = 0; se == FGM_OK && i < ir->nvars * csp->maxcard; i++)
        ck_assert_msg(fabs(a[i] - b[i]) < 1e-9,
                      "seed %d max %d entry %d: enumeration %.17g, "
                      "elimination %.17g", seed, max, i, a[i], b[i]);
    if (se == FGM_OK) {
        /* The log of the total weight, or of the largest: the same. */
        ck_assert(info.width >= 1 && isfinite(info.log_z));
        ck_assert_msg(fabs(log_e - info.log_z) < 1e-9 * (1 + fabs(log_e)),
                      "seed %d max %d: log %.17g by enumeration, %.17g by "
                      "elimination", seed, max, log_e, info.log_z);
    }
    if (max) {
        assert_map(csp, given, a, se, info.log_z, seed, 0);
        assert_map(csp, given, a, se, info.log_z, seed, 1);
    }
    fgm_csp_free(csp);
}

/* Models 30 _i .. 30 _i + 29 (a loop of 10: a fork per test costs
 * 80 ms under the sanitizers, 300 of them 25 s). */
START_TEST(test_random_models)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int given[8], none[8], v, seed;
    fgm_ir *ir;

    for (v = 0; v < 8; v++)
        none[v] = -1;
    for (seed = 30 * _i; seed < 30 * _i + 30; seed++) {
        gsl_rng_set(rng, 1000 + (unsigned long)seed);
        ir = random_model(rng, given);
        assert_agree(ir, none, 0, seed);
        assert_agree(ir, none, 1, seed);
        assert_agree(ir, given, 0, seed);
        assert_agree(ir, given, 1, seed);
        fgm_ir_free(ir);
    }
    gsl_rng_free(rng);
}
END_TEST

/* log Z by hand: x (3 values) with evidence (1, 2, 3) and y (2 values)
 * with x != y: the assignments' weights sum to 1 (x = 0, y = 1) + 2
 * (x = 1, y = 0) + 3 + 3 (x = 2) = 9. */
START_TEST(test_log_z)
{
    static const double ev[3] = { 1, 2, 3 };
    fgm_ir *ir = fgm_ir_new("z");
    int dims[1] = { 1 }, s[2] = { 0, 1 };
    double m[2 * 3];
    int x[2];
    fgm_elim_info info;
    fgm_status st;
    fgm_csp *csp;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 3, 0, &st), 0);
    ck_assert_int_eq(fgm_ir_add_array(ir, "y", 1, dims, 0, 2, 0, &st), 1);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, s, 3, ev,
                                       &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_NEQ, 2, s, 0, NULL,
                                       &st), 0);
    csp = fgm_csp_new(ir, &st);
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, 0, m, &info), FGM_OK);
    ck_assert_double_eq_tol(info.log_z, log(9.0), 1e-12);
    ck_assert_double_eq_tol(m[0], 1.0 / 9, 1e-12);      /* x = 0 */
    ck_assert_double_eq_tol(m[3 + 0], 5.0 / 9, 1e-12);  /* y = 0: x = 1, 2 */
    /* A deadline already passed: no answer; a NaN one refused. */
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, fgm_now() - 1.0, 0, m,
                                   &info), FGM_ETIMEOUT);
    ck_assert(info.log_z == -HUGE_VAL);
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, NAN, 0, m, &info),
                     FGM_EINVAL);
    /* Below 0 is no time either (it was taken for none), for every
     * exact search, as fgm_model_run refuses it. */
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, -1.0, 0, m, &info),
                     FGM_EINVAL);
    ck_assert_int_eq(fgm_eliminate_map(csp, NULL, 0, -1.0, x, &info),
                     FGM_EINVAL);
    ck_assert_int_eq(fgm_enumerate(csp, NULL, 0, -1.0, m, NULL),
                     FGM_EINVAL);
    ck_assert_int_eq(fgm_enumerate_map(csp, NULL, 0, -1.0, x, NULL, NULL),
                     FGM_EINVAL);
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, fgm_now() + 60.0, 0, m,
                                   &info), FGM_OK);
    /* Max: the best assignment is x = 2 (weight 3). */
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, 1, m, &info), FGM_OK);
    ck_assert_double_eq_tol(info.log_z, log(3.0), 1e-12);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* A Dirichlet node (pseudo-counts 1, 1) with three children: given two
 * observed 0s, the third's predictive is (3, 1) / 4, and the evidence
 * P(0, 0) = 1/2 * 2/3 = 1/3.  The node's exact posterior mean
 * (fgm_ir_dirichlet_mean) is (1 + 2 + 3/4, 1 + 1/4) / (2 + 3) = (3/4,
 * 1/4), the predictive again; a stride below K is refused. */
START_TEST(test_dirichlet_predictive)
{
    static const double alpha[2] = { 1, 1 };
    fgm_ir *ir = fgm_ir_new("urn");
    int dims[1] = { 3 }, one[1] = { 1 }, given[3] = { 0, 0, -1 }, v, node;
    double m[3 * 2], mean[2];
    fgm_elim_info info;
    fgm_status st;
    fgm_csp *csp;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 2,
                                      FGM_ARRAY_OBSERVED, &st), 0);
    node = fgm_ir_add_dirichlet_array(ir, "p", 1, one, 2, alpha, 0, &st);
    for (v = 0; v < 3; v++)
        ck_assert_int_ge(fgm_ir_add_dirichlet_discrete(ir, v, node, &st), 0);
    csp = fgm_csp_new(ir, &st);
    ck_assert_int_eq(fgm_eliminate(csp, given, 0, 0, 0, m, &info), FGM_OK);
    ck_assert_double_eq_tol(m[4], 0.75, 1e-12);
    ck_assert_double_eq_tol(m[5], 0.25, 1e-12);
    ck_assert_double_eq_tol(info.log_z, log(1.0 / 3), 1e-12);
    ck_assert_int_eq(fgm_ir_dirichlet_maxk(ir), 2);
    ck_assert_int_eq(fgm_ir_dirichlet_mean(ir, m, 2, mean, 2), FGM_OK);
    ck_assert_double_eq_tol(mean[0], 0.75, 1e-12);
    ck_assert_double_eq_tol(mean[1], 0.25, 1e-12);
    ck_assert_int_eq(fgm_ir_dirichlet_mean(ir, m, 2, mean, 1), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_dirichlet_mean(ir, m, 1, mean, 2), FGM_EINVAL);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* A chain of N variables (3 values) with random pairwise tables and
 * evidence on every tenth: elimination against bp-sum, exact on a tree,
 * where enumeration would visit 3^N assignments. */
START_TEST(test_long_chain)
{
    enum { N = 3000 };
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    fgm_ir *ir = fgm_ir_new("chain");
    int dims[1] = { N }, s[2], v, j;
    double w[9], *m = malloc(sizeof(double) * N * 3), bp[3];
    fgm_model_opts o;
    fgm_model *model = NULL;
    fgm_elim_info info;
    fgm_status st;
    fgm_csp *csp;

    ck_assert_ptr_nonnull(m);
    gsl_rng_set(rng, 7);
    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 3, 0, &st), 0);
    for (v = 0; v + 1 < N; v++) {
        s[0] = v;
        s[1] = v + 1;
        for (j = 0; j < 9; j++)
            w[j] = 0.05 + gsl_rng_uniform(rng);
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, s, 9, w,
                                           &st), 0);
        if (v % 10 == 0) {
            for (j = 0; j < 3; j++)
                w[j] = 0.1 + gsl_rng_uniform(rng);
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, s,
                                               3, w, &st), 0);
        }
    }
    ir->infer.algo = FGM_ALGO_BP_SUM;
    ir->infer.iterations = 2;   /* a tree schedule: one sweep is exact */
    csp = fgm_csp_new(ir, &st);
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, 0, m, &info), FGM_OK);
    ck_assert_int_eq(info.width, 2);
    ck_assert_int_eq(info.largest, 9);
    memset(&o, 0, sizeof o);
    o.backend = FGM_BACKEND_INTERPRETED;
    fgm_csp_free(csp);
    ck_assert_int_eq(fgm_model_open_ir(ir, &o, &model, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_run(model, NULL, NULL), FGM_OK);
    for (v = 0; v < N; v++) {
        fgm_model_marginal(model, v, bp);
        for (j = 0; j < 3; j++)
            ck_assert_msg(fabs(bp[j] - m[v * 3 + j]) < 1e-9,
                          "x[%d] = %d: bp-sum %.17g, elimination %.17g", v, j,
                          bp[j], m[v * 3 + j]);
    }
    fgm_model_free(model);
    free(m);
    gsl_rng_free(rng);
}
END_TEST

/* An empty 9x9 Sudoku is out of reach (its cliques hold dozens of
 * cells): FGM_EUNSUPPORTED, promptly, not a blown memory budget; a
 * contradiction is FGM_EUNSOLVED; bad arguments FGM_EINVAL. */
START_TEST(test_refusals)
{
    fgm_ir *ir = fgm_ir_sudoku(3);
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    double *m = malloc(sizeof(double) * 81 * 9);
    int given[81], v;

    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, 0, m, NULL),
                     FGM_EUNSUPPORTED);
    for (v = 0; v < 81; v++)
        given[v] = -1;
    given[0] = given[1] = 4;    /* two 5s in a row */
    ck_assert_int_eq(fgm_eliminate(csp, given, 0, 0, 0, m, NULL),
                     FGM_EUNSOLVED);
    given[1] = 9;
    ck_assert_int_eq(fgm_eliminate(csp, given, 0, 0, 0, m, NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_eliminate(NULL, NULL, 0, 0, 0, m, NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, 0, NULL, NULL), FGM_EINVAL);
    free(m);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* A 4x4 Sudoku is small enough: elimination agrees with enumeration
 * (and with Dancing Links' solution fractions, which enumeration
 * matches on unweighted models). */
START_TEST(test_sudoku4)
{
    fgm_ir *ir = fgm_ir_sudoku(2);
    int given[16], v;

    for (v = 0; v < 16; v++)
        given[v] = -1;
    given[0] = 0;
    given[5] = 2;
    assert_agree(ir, given, 0, -1);
    assert_agree(ir, given, 1, -1);
    fgm_ir_free(ir);
}
END_TEST

/* fgm_ir_add_evidence: soft evidence as a factor (what the exact
 * backend does with an observation file's weights), checked; refused
 * for a bad variable or weights. */
START_TEST(test_add_evidence)
{
    static const double w[3] = { 1, 0, 3 }, neg[3] = { 1, -1, 1 };
    static const double zero[3] = { 0, 0, 0 };
    double nan3[3] = { 1, NAN, 1 }, m[3];
    fgm_ir *ir = fgm_ir_new("w");
    int dims[1] = { 1 };
    fgm_status st;
    fgm_csp *csp;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 3, 0, &st), 0);
    ck_assert_int_eq(fgm_ir_add_evidence(ir, 0, w), FGM_OK);
    ck_assert_int_eq(fgm_ir_add_evidence(ir, 0, w), FGM_OK);   /* twice */
    ck_assert_int_eq(fgm_ir_add_evidence(ir, 1, w), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_add_evidence(ir, -1, w), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_add_evidence(ir, 0, neg), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_add_evidence(ir, 0, zero), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_add_evidence(ir, 0, nan3), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_add_evidence(NULL, 0, w), FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_add_evidence(ir, 0, NULL), FGM_EINVAL);
    ck_assert_int_eq(ir->nfactors, 2);
    csp = fgm_csp_new(ir, &st);
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, 0, m, NULL), FGM_OK);
    ck_assert_double_eq_tol(m[0], 0.1, 1e-15);      /* 1 : 0 : 9 */
    ck_assert(m[1] == 0.0);
    ck_assert_double_eq_tol(m[2], 0.9, 1e-15);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* Naive Bayes: a class c and 400 observed features, half of them for
 * each class, tables [[0.9, 0.01], [0.01, 0.9]]: every product of the
 * class's clique falls below the doubles unless rescaled as it goes (it
 * said "no consistent assignment"); c is 1/2 either way, and log Z is
 * log(2 * (0.9 * 0.01)^200). */
START_TEST(test_underflow)
{
    static const double pot[4] = { 0.9, 0.01, 0.01, 0.9 };
    enum { NF = 400 };
    fgm_ir *ir = fgm_ir_new("nb");
    int one[1] = { 1 }, dims[1] = { NF }, s[2], given[NF + 1], v, max;
    double m[(NF + 1) * 2], want;
    fgm_elim_info info;
    fgm_status st;
    fgm_csp *csp;

    ck_assert_int_eq(fgm_ir_add_array(ir, "c", 1, one, 0, 2, 0, &st), 0);
    ck_assert_int_eq(fgm_ir_add_array(ir, "f", 1, dims, 0, 2,
                                      FGM_ARRAY_OBSERVED, &st), 1);
    for (v = 0; v < NF; v++) {
        s[0] = 0;
        s[1] = 1 + v;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, s, 4,
                                           pot, &st), 0);
    }
    given[0] = -1;
    for (v = 0; v < NF; v++)
        given[1 + v] = v % 2;
    csp = fgm_csp_new(ir, &st);
    for (max = 0; max < 2; max++) {
        ck_assert_int_eq(fgm_eliminate(csp, given, 0, 0, max, m, &info),
                         FGM_OK);
        ck_assert_double_eq_tol(m[0], 0.5, 1e-12);
        want = (max ? 0.0 : log(2.0)) + 200.0 * log(0.9 * 0.01);
        ck_assert_double_eq_tol(info.log_z, want, 1e-9);
    }
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* Weights across e^4000: 14 binary variables on a ring of pair tables
 * whose entries are exp(+-300 u), u uniform, and evidence exp(+-200 u).
 * Enumeration meets its leaves in an order whose log weights climb by
 * thousands, so it moves its scale many times (enumerate.c,
 * SHIFT_SLACK) and must still give elimination's marginals and
 * max-marginals. */
START_TEST(test_wide_weights)
{
    enum { NV = 14 };
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    fgm_ir *ir = fgm_ir_new("wide");
    int dims[1] = { NV }, s[2], v, i, max, tiny = 0;
    double pot[4], ev[2], a[NV * 2], b[NV * 2];
    fgm_elim_info info;
    fgm_status st;
    fgm_csp *csp;

    gsl_rng_set(rng, 7);
    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 2, 0, &st), 0);
    for (v = 0; v < NV; v++) {
        s[0] = v;
        s[1] = (v + 1) % NV;
        for (i = 0; i < 4; i++)
            pot[i] = exp(300.0 * (2.0 * gsl_rng_uniform(rng) - 1.0));
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, s, 4,
                                           pot, &st), 0);
        ev[0] = exp(200.0 * (2.0 * gsl_rng_uniform(rng) - 1.0));
        ev[1] = exp(200.0 * (2.0 * gsl_rng_uniform(rng) - 1.0));
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, s, 2,
                                           ev, &st), 0);
    }
    csp = fgm_csp_new(ir, &st);
    ck_assert_ptr_nonnull(csp);
    for (max = 0; max < 2; max++) {
        ck_assert_int_eq(max ? fgm_enumerate_max(csp, NULL, 0, 0, a, NULL)
                             : fgm_enumerate(csp, NULL, 0, 0, a, NULL),
                         FGM_OK);
        ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, max, b, &info),
                         FGM_OK);
        /* Its marginals are 1 or far below (down to 1e-253 here): each
         * to 1e-9 of elimination's relative to itself, whose scale
         * reads in the smallest (a sum whose scale was not moved with
         * the rest gave 3e-42 for a 1). */
        for (i = 0; i < NV * 2; i++) {
            ck_assert_msg(fabs(a[i] - b[i]) <= 1e-9 * b[i]
                          || (b[i] < 1e-290 && a[i] < 1e-290),
                          "max %d entry %d: enumeration %.17g, "
                          "elimination %.17g", max, i, a[i], b[i]);
            tiny += b[i] > 1e-290 && b[i] < 1e-200;
        }
    }
    ck_assert_int_gt(tiny, 0);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
    gsl_rng_free(rng);
}
END_TEST

/* Enumeration keeps arc consistency and takes the variable with the
 * fewest values left: on a 9x9 Sudoku with weights (so neither Dancing
 * Links, which counts unweighted solutions, nor elimination, whose
 * alldiff cliques would hold 9^9 entries, takes it) it finds the one
 * solution of notebook 000's medium grid (hardest.txt's first, in
 * puzzles/seed000.txt), which index order with a check of each value took
 * 67 s to reach; the deadline only guards against a hang.  On an empty
 * 4x4 grid weighted on every cell (288 solutions) it gives elimination's
 * marginals and max-marginals. */
START_TEST(test_enumerate_weighted_sudoku)
{
    static const char *grid = "85...24..72......9..4.........1.7..23.5...9"
                              "...4...........8..7..17..........36.4.";
    static const double ramp[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    fgm_ir *ir = fgm_ir_sudoku(3), *small = fgm_ir_sudoku(2);
    int given[81], none[16], v, k, hot;
    double m[81 * 9], w[4];
    fgm_puzzle p;
    fgm_status st;
    fgm_csp *csp;
    long leaves = 0;

    v = 40;
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, &v, 9,
                                       ramp, &st), 0);
    ck_assert_int_eq(fgm_puzzle_parse(grid, NULL, 9, 3, &p, NULL, NULL),
                     FGM_OK);
    fgm_puzzle_to_given(&p, given);
    csp = fgm_csp_new(ir, &st);
    ck_assert_ptr_nonnull(csp);
    ck_assert(fgm_csp_weighted(csp));
    ck_assert_int_eq(fgm_enumerate(csp, given, 0, fgm_now() + 60.0, m,
                                   &leaves), FGM_OK);
    ck_assert_int_eq(leaves, 1);
    for (v = 0; v < 81; v++) {
        for (hot = -1, k = 0; k < 9; k++)
            if (m[v * 9 + k] == 1.0)
                hot = k;
            else
                ck_assert(m[v * 9 + k] == 0.0);
        ck_assert_int_ge(hot, 0);
        ck_assert(given[v] < 0 || given[v] == hot);
        given[v] = hot;
    }
    ck_assert(fgm_csp_verify(csp, NULL, given));
    fgm_csp_free(csp);

    gsl_rng_set(rng, 11);
    for (v = 0; v < 16; v++) {
        for (k = 0; k < 4; k++)
            w[k] = 0.2 + gsl_rng_uniform(rng);
        ck_assert_int_ge(fgm_ir_add_factor(small, FGM_FACTOR_EVIDENCE, 1,
                                           &v, 4, w, &st), 0);
        none[v] = -1;
    }
    assert_agree(small, none, 0, -2);
    assert_agree(small, none, 1, -2);
    fgm_ir_free(small);
    fgm_ir_free(ir);
    gsl_rng_free(rng);
}
END_TEST

/* fgm_enumerate_map, branch and bound, where elimination cannot go (an
 * empty 9x9 grid: its alldiff cliques would hold 9^9 entries).  With
 * hard constraints alone every solution weighs 1, the largest any can: the
 * first leaf is proven best, and the search enters no node past it (N1
 * nodes: the root, one a cell, and any dead end on the way).  With
 * evidence on every cell of row 0 (the value 9 - j ten times likelier at
 * column j, a weight 10 a cell at best) the best assignment puts 9, 8,
 * ..., 1 on row 0, of log weight 9 log 10, found past the first leaf
 * (the same search order: the fewest values first).  Capped at N1 nodes
 * the search says so and keeps the first leaf, of less weight; at N1 - 1
 * it has none. */
START_TEST(test_enumerate_map)
{
    fgm_ir *ir = fgm_ir_sudoku(3);
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    double lw, w[9];
    long n1, nodes;
    int x[81], v, k;

    ck_assert_ptr_nonnull(csp);
    ck_assert_int_eq(fgm_enumerate_map(csp, NULL, 0, 0, x, &lw, &n1),
                     FGM_OK);
    ck_assert(n1 >= 82 && n1 < 200);
    ck_assert(lw == 0.0);
    ck_assert(fgm_csp_verify(csp, NULL, x));
    fgm_csp_free(csp);
    for (v = 0; v < 9; v++) {
        for (k = 0; k < 9; k++)
            w[k] = k == 8 - v ? 10.0 : 1.0;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, &v, 9,
                                           w, &st), 0);
    }
    csp = fgm_csp_new(ir, &st);
    ck_assert_ptr_nonnull(csp);
    ck_assert_int_eq(fgm_enumerate_map(csp, NULL, 0, fgm_now() + 60.0, x,
                                       &lw, &nodes), FGM_OK);
    ck_assert_double_eq_tol(lw, 9.0 * log(10.0), 1e-12);
    ck_assert_int_gt(nodes, n1);
    for (v = 0; v < 9; v++)
        ck_assert_int_eq(x[v], 8 - v);
    ck_assert(fgm_csp_verify(csp, NULL, x));
    ck_assert_int_eq(fgm_enumerate_map(csp, NULL, n1, 0, x, &lw, &nodes),
                     FGM_ETIMEOUT);
    ck_assert_int_eq(nodes, n1);
    ck_assert(fgm_csp_verify(csp, NULL, x) && lw < 9.0 * log(10.0));
    ck_assert_int_eq(fgm_enumerate_map(csp, NULL, n1 - 1, 0, x, &lw, NULL),
                     FGM_ETIMEOUT);
    ck_assert(lw == -HUGE_VAL);
    ck_assert_int_eq(fgm_enumerate_map(csp, NULL, 0, 0, NULL, &lw, NULL),
                     FGM_EINVAL);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* Weights past the doubles' range.  Enumeration, in logs: x's leaves
 * weigh 1 and e^499 (x = 0), e^1000 twice (x = 1), met in that order,
 * so its sums moved by e^1000 - e^499 > e^708 at once: P(x = 0) is
 * (1 + e^499) / (1 + e^499 + 2 e^1000) = e^-501 / 2 = 1.31e-218, its
 * max-marginal e^-501 (the sums were rescaled by e^-501 in one factor,
 * which underflowed: 0 was printed).  Elimination, in plain doubles:
 * 1e300 and 1e-300 in one table under x != y, whose two assignments
 * weigh 1e-300 each: divided by 1e300 they went to 0, and it said "no
 * consistent assignment"; it now refuses (FGM_EUNSUPPORTED: the CLI's
 * auto falls back to enumeration, which gives 1/2 each). */
START_TEST(test_beyond_doubles)
{
    static const double big[4] = { 1e300, 1e-300, 1e-300, 1e-300 };
    double pot[4] = { 1.0, 0.0, 0.0, 0.0 }, m[4];
    fgm_ir *ir = fgm_ir_new("far"), *wide = fgm_ir_new("wide");
    int one[1] = { 1 }, s[2] = { 0, 1 }, max;
    fgm_elim_info info;
    fgm_status st;
    fgm_csp *csp;

    pot[1] = exp(499.0);
    pot[2] = pot[3] = exp(500.0);
    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, one, 0, 2, 0, &st), 0);
    ck_assert_int_eq(fgm_ir_add_array(ir, "y", 1, one, 0, 2, 0, &st), 1);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, s, 4, pot,
                                       &st), 0);
    pot[0] = 1.0;
    pot[1] = exp(500.0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, s, 2,
                                       pot, &st), 0);
    csp = fgm_csp_new(ir, &st);
    for (max = 0; max < 2; max++) {
        ck_assert_int_eq(max ? fgm_enumerate_max(csp, NULL, 0, 0, m, NULL)
                             : fgm_enumerate(csp, NULL, 0, 0, m, NULL),
                         FGM_OK);
        ck_assert_msg(fabs(m[0] / (exp(-501.0) / (max ? 1.0 : 2.0)) - 1.0)
                      < 1e-9, "max %d: P(x = 0) = %g", max, m[0]);
    }
    fgm_csp_free(csp);

    ck_assert_int_eq(fgm_ir_add_array(wide, "x", 1, one, 0, 2, 0, &st), 0);
    ck_assert_int_eq(fgm_ir_add_array(wide, "y", 1, one, 0, 2, 0, &st), 1);
    ck_assert_int_ge(fgm_ir_add_factor(wide, FGM_FACTOR_TABLE, 2, s, 4, big,
                                       &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(wide, FGM_FACTOR_NEQ, 2, s, 0, NULL,
                                       &st), 0);
    csp = fgm_csp_new(wide, &st);
    for (max = 0; max < 2; max++) {
        ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, max, m, &info),
                         FGM_EUNSUPPORTED);
        ck_assert_int_eq(max ? fgm_enumerate_max(csp, NULL, 0, 0, m, NULL)
                             : fgm_enumerate(csp, NULL, 0, 0, m, NULL),
                         FGM_OK);
        ck_assert_double_eq_tol(m[0], 0.5, 1e-12);
    }
    ck_assert_int_eq(fgm_eliminate_map(csp, NULL, 0, 0, s, &info),
                     FGM_EUNSUPPORTED);
    fgm_csp_free(csp);
    fgm_ir_free(wide);
    fgm_ir_free(ir);
}
END_TEST

/* A loss below the doubles that cannot matter is not refused: a
 * 1,000-step chain of [[1, 0.01], [0.01, 1]] whose first pair table and
 * evidence hold 1e-160 (their product, 1e-320, underflows).  The rest of
 * the chain is symmetric, so P(x0 = 0) = 1e-160 (1 + 1e-160) / (1e-160
 * (1 + 1e-160) + 2) = 5e-161.  (The bound of the loss grew by the domain
 * size a step, and the chain was refused.) */
START_TEST(test_harmless_loss)
{
    static const double first[4] = { 1e-160, 1, 1, 1 };
    static const double pair[4] = { 1, 0.01, 0.01, 1 };
    static const double ev[2] = { 1e-160, 1 };
    enum { N = 1000 };
    fgm_ir *ir = fgm_ir_new("loss");
    int dims[1] = { N }, s[2], v, x[N];
    double m[N * 2], want = 1e-160 * (1 + 1e-160)
                             / (1e-160 * (1 + 1e-160) + 2);
    fgm_elim_info info;
    fgm_status st;
    fgm_csp *csp;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 2, 0, &st), 0);
    for (v = 0; v + 1 < N; v++) {
        s[0] = v;
        s[1] = v + 1;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, s, 4,
                                           v ? pair : first, &st), 0);
    }
    s[0] = 0;
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, s, 2, ev,
                                       &st), 0);
    csp = fgm_csp_new(ir, &st);
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, 0, m, &info), FGM_OK);
    ck_assert_msg(fabs(m[0] / want - 1.0) < 1e-9, "P(x0 = 0) = %g", m[0]);
    ck_assert_int_eq(fgm_eliminate_map(csp, NULL, 0, 0, x, &info), FGM_OK);
    ck_assert_int_eq(x[0], 1);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* Twenty draws of a die (prior all 1s), none observed, the last weighed
 * by evidence (1, 1, 1, 1, 1, 2): the nineteen others are summed out
 * but for one stand-in.  The last is 6 with probability 2/7, each other
 * with (2/7)(2/7) + (5/7)(1/7) = 9/49; the evidence's total weight is
 * 7/6.  Without the evidence every draw has the prior mean, and log Z
 * is 0 (it counted log 6 per draw summed out). */
START_TEST(test_loose_draws)
{
    static const double alpha[6] = { 1, 1, 1, 1, 1, 1 };
    static const double ev[6] = { 1, 1, 1, 1, 1, 2 };
    fgm_ir *ir = fgm_ir_new("die"), *plain;
    int dims[1] = { 20 }, one[1] = { 1 }, v, node;
    double m[20 * 6];
    fgm_elim_info info;
    fgm_status st;
    fgm_csp *csp;

    ck_assert_int_eq(fgm_ir_add_array(ir, "r", 1, dims, 0, 6, 0, &st), 0);
    node = fgm_ir_add_dirichlet_array(ir, "p", 1, one, 6, alpha, 0, &st);
    for (v = 0; v < 20; v++)
        ck_assert_int_ge(fgm_ir_add_dirichlet_discrete(ir, v, node, &st), 0);
    plain = fgm_ir_copy(ir);
    ck_assert_int_eq(fgm_ir_add_evidence(ir, 19, ev), FGM_OK);
    csp = fgm_csp_new(ir, &st);
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, 0, m, &info), FGM_OK);
    ck_assert_double_eq_tol(m[19 * 6 + 5], 2.0 / 7, 1e-12);
    for (v = 0; v < 19; v++)
        ck_assert_double_eq_tol(m[v * 6 + 5], 9.0 / 49, 1e-12);
    ck_assert_double_eq_tol(info.log_z, log(7.0 / 6), 1e-12);
    fgm_csp_free(csp);
    csp = fgm_csp_new(plain, &st);
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, 0, m, &info), FGM_OK);
    for (v = 0; v < 20 * 6; v++)
        ck_assert_double_eq_tol(m[v], 1.0 / 6, 1e-12);
    ck_assert_double_eq_tol(info.log_z, 0.0, 1e-12);
    fgm_csp_free(csp);
    fgm_ir_free(plain);
    fgm_ir_free(ir);
}
END_TEST

/* A hub h (64 values) and N binary leaves, table (h, l) = [[1, 1 +
 * h/64]] per row: P(h) is proportional to (2 + h/64)^N, and a leaf is 1
 * with probability sum_h P(h) (1 + h/64) / (2 + h/64).  One clique with
 * N children (each child's message down excludes its own: products of
 * halves) and an order that must not walk the hub's list per leaf. */
START_TEST(test_star)
{
    enum { N = 5000, K = 64 };
    fgm_ir *ir = fgm_ir_new("star");
    int one[1] = { 1 }, dims[1] = { N }, s[2], v, h;
    double pot[K * 2], *m = malloc(sizeof(double) * (N + 1) * K);
    double lw[K], top = -HUGE_VAL, z = 0.0, p1 = 0.0;
    fgm_status st;
    fgm_csp *csp;

    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(fgm_ir_add_array(ir, "h", 1, one, 0, K, 0, &st), 0);
    ck_assert_int_eq(fgm_ir_add_array(ir, "l", 1, dims, 0, 2, 0, &st), 1);
    for (h = 0; h < K; h++) {
        pot[2 * h] = 1.0;
        pot[2 * h + 1] = 1.0 + h / (double)K;
        lw[h] = N * log(2.0 + h / (double)K);
        top = lw[h] > top ? lw[h] : top;
    }
    for (v = 0; v < N; v++) {
        s[0] = 0;
        s[1] = 1 + v;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, s, 2 * K,
                                           pot, &st), 0);
    }
    for (h = 0; h < K; h++)
        z += exp(lw[h] - top);
    for (h = 0; h < K; h++)
        p1 += exp(lw[h] - top) / z * pot[2 * h + 1] / (1.0 + pot[2 * h + 1]);
    csp = fgm_csp_new(ir, &st);
    ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, 0, m, NULL), FGM_OK);
    for (h = 0; h < K; h++)
        ck_assert_double_eq_tol(m[h], exp(lw[h] - top) / z, 1e-9);
    ck_assert_double_eq_tol(m[1 * K + 1], p1, 1e-9);
    ck_assert_double_eq_tol(m[(size_t)N * K + 1], p1, 1e-9);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
    free(m);
}
END_TEST

/* Leaves in groups on a clique: a, b, c (3 values) joined pairwise,
 * six binary leaves on a, five on b, one on (b, c): children that share
 * a separator are grouped for the messages down (down_groups); against
 * enumeration, sum and max. */
START_TEST(test_groups)
{
    static const double pair[9] = { 1, 2, 3, 2, 1, 1, 3, 1, 2 };
    static const double leaf[6] = { 1, 2, 3, 1, 2, 5 };
    static const double tri[18] = { 1, 2, 2, 1, 3, 1, 1, 1, 2,
                                    2, 1, 4, 1, 1, 2, 3, 1, 1 };
    fgm_ir *ir = fgm_ir_new("groups");
    int one[1] = { 1 }, dims[1] = { 12 }, s[3], v, none[15];
    fgm_status st;

    ck_assert_int_eq(fgm_ir_add_array(ir, "a", 1, one, 0, 3, 0, &st), 0);
    ck_assert_int_eq(fgm_ir_add_array(ir, "b", 1, one, 0, 3, 0, &st), 1);
    ck_assert_int_eq(fgm_ir_add_array(ir, "c", 1, one, 0, 3, 0, &st), 2);
    ck_assert_int_eq(fgm_ir_add_array(ir, "l", 1, dims, 0, 2, 0, &st), 3);
    for (v = 0; v < 3; v++) {
        s[0] = v;
        s[1] = (v + 1) % 3;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, s, 9,
                                           pair, &st), 0);
    }
    for (v = 0; v < 11; v++) {
        s[0] = 3 + v;
        s[1] = v < 6 ? 0 : 1;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, s, 6,
                                           leaf, &st), 0);
    }
    s[0] = 14;
    s[1] = 1;
    s[2] = 2;
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 3, s, 18, tri,
                                       &st), 0);
    for (v = 0; v < 15; v++)
        none[v] = -1;
    assert_agree(ir, none, 0, -2);
    assert_agree(ir, none, 1, -2);
    fgm_ir_free(ir);
}
END_TEST

/* MAP on a chain of N variables (3 values) with random pairwise tables
 * and evidence: Viterbi's path, by the dynamic programme written here,
 * and its log weight. */
START_TEST(test_viterbi)
{
    enum { N = 500, K = 3 };
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    fgm_ir *ir = fgm_ir_new("viterbi");
    static double pot[N][K * K], ev[N][K], best[N][K];
    static int from[N][K], x[N], path[N];
    int dims[1] = { N }, s[2], v, a, b;
    fgm_elim_info info;
    fgm_status st;
    fgm_csp *csp;
    double w;

    gsl_rng_set(rng, 11);
    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, K, 0, &st), 0);
    for (v = 0; v < N; v++) {
        s[0] = v;
        s[1] = v + 1;
        for (a = 0; a < K; a++)
            ev[v][a] = 0.1 + gsl_rng_uniform(rng);
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, s, K,
                                           ev[v], &st), 0);
        if (v + 1 == N)
            break;
        for (a = 0; a < K * K; a++)
            pot[v][a] = 0.1 + gsl_rng_uniform(rng);
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, s, K * K,
                                           pot[v], &st), 0);
    }
    for (a = 0; a < K; a++)
        best[0][a] = log(ev[0][a]);
    for (v = 1; v < N; v++)
        for (b = 0; b < K; b++) {
            best[v][b] = -HUGE_VAL;
            for (a = 0; a < K; a++) {
                w = best[v - 1][a] + log(pot[v - 1][a * K + b]);
                if (w > best[v][b]) {
                    best[v][b] = w;
                    from[v][b] = a;
                }
            }
            best[v][b] += log(ev[v][b]);
        }
    for (path[N - 1] = 0, a = 1; a < K; a++)
        if (best[N - 1][a] > best[N - 1][path[N - 1]])
            path[N - 1] = a;
    for (v = N - 1; v > 0; v--)
        path[v - 1] = from[v][path[v]];
    csp = fgm_csp_new(ir, &st);
    ck_assert_int_eq(fgm_eliminate_map(csp, NULL, 0, 0, x, &info), FGM_OK);
    for (v = 0; v < N; v++)
        ck_assert_msg(x[v] == path[v], "x[%d] = %d, Viterbi %d", v, x[v],
                      path[v]);
    ck_assert_double_eq_tol(info.log_z, best[N - 1][path[N - 1]], 1e-9);
    ck_assert_int_eq(fgm_eliminate_map(csp, NULL, 0, 0, NULL, NULL), FGM_EINVAL);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
    gsl_rng_free(rng);
}
END_TEST

/* A clue on a variable that alone draws from an observed prior is a
 * point mass there: the shift undoes the a_x / A the engines weigh its
 * draw, and the node's mean row becomes the point mass.  A shared or
 * unobserved prior, or no clue, shifts nothing. */
START_TEST(test_point_mass_shift)
{
    static const char *model =
        "observed prior p[2] ~ dirichlet([1, 3])\n"
        "var x[2] in 0..1 ~ discrete(p)\nx[0] != x[1]\n";
    static const char *shared =
        "observed prior p ~ dirichlet([1, 3])\n"
        "var x[2] in 0..1 ~ discrete(p)\n";
    static const char *plain =
        "prior p[2] ~ dirichlet([1, 3])\n"
        "var x[2] in 0..1 ~ discrete(p)\n";
    fgm_ir *ir = compile_text(model), *ir2 = compile_text(shared);
    fgm_ir *ir3 = compile_text(plain);
    fgm_csp *csp = fgm_csp_new(ir, NULL), *csp2 = fgm_csp_new(ir2, NULL);
    fgm_csp *csp3 = fgm_csp_new(ir3, NULL);
    int one[2] = { 1, -1 }, none[2] = { -1, -1 }, both[2] = { 0, 1 };
    double mean[4] = { 0.5, 0.5, 0.25, 0.75 };

    ck_assert(csp && csp2 && csp3);
    ck_assert_double_eq_tol(fgm_csp_point_mass_shift(csp, one), -log(0.75),
                            1e-15);
    ck_assert_int_eq(fgm_csp_point_mass_means(csp, one, mean, 2), FGM_OK);
    ck_assert(mean[0] == 0.0 && mean[1] == 1.0);
    ck_assert(mean[2] == 0.25 && mean[3] == 0.75);  /* x[1] free */
    ck_assert_double_eq_tol(fgm_csp_point_mass_shift(csp, both),
                            -log(0.25) - log(0.75), 1e-15);
    ck_assert(fgm_csp_point_mass_shift(csp, none) == 0.0);
    ck_assert(fgm_csp_point_mass_shift(csp, NULL) == 0.0);   /* no clues */
    ck_assert(fgm_csp_point_mass_shift(csp2, one) == 0.0);
    ck_assert(fgm_csp_point_mass_shift(csp3, one) == 0.0);
    ck_assert(isnan(fgm_csp_point_mass_shift(NULL, one)));
    ck_assert_int_eq(fgm_csp_point_mass_means(csp, NULL, mean, 2), FGM_OK);
    ck_assert(mean[0] == 0.0 && mean[1] == 1.0);
    ck_assert_int_eq(fgm_csp_point_mass_means(csp, one, mean, 1),
                     FGM_EINVAL);
    ck_assert_int_eq(fgm_csp_point_mass_means(NULL, one, mean, 2),
                     FGM_EINVAL);
    {
        /* A clue past the domain (or below -1) is refused, not read as
         * an index of the prior's pseudo-counts. */
        int past[2] = { 2, -1 }, far[2] = { 1 << 28, -1 },
            low[2] = { -2, -1 };

        ck_assert(isnan(fgm_csp_point_mass_shift(csp, past)));
        ck_assert(isnan(fgm_csp_point_mass_shift(csp, far)));
        ck_assert(isnan(fgm_csp_point_mass_shift(csp, low)));
        ck_assert_int_eq(fgm_csp_point_mass_means(csp, far, mean, 2),
                         FGM_EINVAL);
        ck_assert(mean[0] == 0.0 && mean[1] == 1.0);    /* untouched */
    }
    fgm_csp_free(csp);
    fgm_csp_free(csp2);
    fgm_csp_free(csp3);
    fgm_ir_free(ir);
    fgm_ir_free(ir2);
    fgm_ir_free(ir3);
}
END_TEST

Suite *
eliminate_suite(void)
{
    Suite *s = suite_create("eliminate");
    TCase *core = tcase_create("core");

    tcase_add_loop_test(core, test_random_models, 0, 10);
    tcase_add_test(core, test_log_z);
    tcase_add_test(core, test_dirichlet_predictive);
    tcase_add_test(core, test_long_chain);
    tcase_add_test(core, test_refusals);
    tcase_add_test(core, test_sudoku4);
    tcase_add_test(core, test_add_evidence);
    tcase_add_test(core, test_underflow);
    tcase_add_test(core, test_wide_weights);
    tcase_add_test(core, test_beyond_doubles);
    tcase_add_test(core, test_harmless_loss);
    tcase_add_test(core, test_enumerate_weighted_sudoku);
    tcase_add_test(core, test_loose_draws);
    tcase_add_test(core, test_star);
    tcase_add_test(core, test_groups);
    tcase_add_test(core, test_viterbi);
    tcase_add_test(core, test_enumerate_map);
    tcase_add_test(core, test_point_mass_shift);
    suite_add_tcase(s, core);
    return s;
}
