/* tests/check_gibbs.c: the gibbs sampler (runtime/ops/gibbs.h) against
 * the exact oracles (variable elimination, enumeration and its posterior
 * means), and its bookkeeping: seeds, burn-in, draws without weight,
 * both backends giving the same bits.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chains are seeded, and the sweep's arithmetic uses no libm, so each
 * test's estimates are the same numbers on every machine: the tolerances
 * below are Monte Carlo error bars (a few standard errors at the sweeps
 * run), not slack for flakiness.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ir.h"
#include "model.h"
#include "suites.h"
#include "testutil.h"

/* The shared models (testutil.h) with the sampler's sweeps: a sampler
 * that indexes a table wrongly is off by far more than its error; in
 * the casino two draws of one node meet in one conditional. */
#define TABLE3_TEXT \
    TABLE3_MODEL "infer gibbs(iterations = 100000, burn_in = 100)\n"
#define CASINO_TEXT(T) CASINO_MODEL(T) "infer gibbs(iterations = 60000)\n"

/* The model of IR (owned by the model from now on), interpreted. */
static fgm_model *
interp(fgm_ir *ir)
{
    return open_backend(ir, FGM_BACKEND_INTERPRETED, NULL);
}

/* Runs M (ITERS sweeps, 0: the model's) from SEED, cold. */
static fgm_run_info
run_seeded(fgm_model *m, int iters, unsigned long seed)
{
    fgm_run_opts ro;
    fgm_run_info info;

    memset(&ro, 0, sizeof ro);
    ro.iterations = iters;
    ro.seed = seed;
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_OK);
    return info;
}

/* The largest difference between M's marginals and EXACT (nvars rows of
 * 64). */
static double
marginal_error(const fgm_model *m, const double *exact)
{
    const fgm_ir *ir = fgm_model_ir(m);
    double b[64], err = 0.0;
    int v, k;

    for (v = 0; v < ir->nvars; v++) {
        ck_assert_int_eq(fgm_model_marginal(m, v, b), FGM_OK);
        for (k = 0; k < fgm_ir_card(ir, v); k++)
            err = fmax(err, fabs(b[k] - exact[v * 64 + k]));
    }
    return err;
}

/* Exact marginals of IR with clues GIVEN (NULL: none) into M (nvars rows
 * of 64) and, when MEANS is not NULL, the nodes' posterior means (rows of
 * 64), by enumeration. */
static void
exact_enum(const fgm_ir *ir, const int *given, double *m, double *means)
{
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    int n = ir->nvars, K, v, k;
    double *rows;

    ck_assert_ptr_nonnull(csp);
    K = fgm_csp_maxcard(csp);
    rows = malloc((size_t)n * (size_t)K * sizeof *rows);
    ck_assert_ptr_nonnull(rows);
    if (means)
        ck_assert_int_eq(fgm_enumerate_means(csp, given, 0, 0, rows, means,
                                             64, NULL), FGM_OK);
    else
        ck_assert_int_eq(fgm_enumerate(csp, given, 0, 0, rows, NULL),
                         FGM_OK);
    for (v = 0; v < n; v++)     /* rows of maxcard to rows of 64 */
        for (k = 0; k < K; k++)
            m[v * 64 + k] = rows[v * K + k];
    free(rows);
    fgm_csp_free(csp);
}

/* Both backends' marginals and posteriors of A and B equal to the bit. */
static void
same_bits(const fgm_model *a, const fgm_model *b)
{
    const fgm_ir *ir = fgm_model_ir(a);
    double x[64], y[64];
    int v, k;

    for (v = 0; v < ir->nvars; v++) {
        fgm_model_marginal(a, v, x);
        fgm_model_marginal(b, v, y);
        for (k = 0; k < fgm_ir_card(ir, v); k++)
            ck_assert_msg(x[k] == y[k], "var %d value %d: %.17g vs %.17g",
                          v, k, x[k], y[k]);
    }
    for (v = 0; v < ir->ndirichlet; v++) {
        fgm_model_dirichlet(a, v, x);
        fgm_model_dirichlet(b, v, y);
        for (k = 0; k < ir->arrays[ir->dir_array[v]].card; k++)
            ck_assert_msg(x[k] == y[k], "node %d value %d: %.17g vs %.17g",
                          v, k, x[k], y[k]);
    }
}

/* The chain of models/chain.fgm (a tree) and a three-way table: the
 * sampler's marginals within Monte Carlo error of the exact ones, its
 * error shrinking with the sweeps. */
START_TEST(test_against_exact)
{
    static const char *const texts[] = {
        "var x[6] in 0..2\n"
        "table (x[i], x[i+1]) = [[4, 1, 1], [1, 4, 1], [1, 1, 4]] "
        "for i in 0..4\n"
        "evidence x[0] = [0.7, 0.2, 0.1]\n"
        "infer gibbs(iterations = 100000)\n",
        TABLE3_TEXT
    };
    double exact[6 * 64], e_short, e_long;
    int i;

    for (i = 0; i < 2; i++) {
        fgm_ir *ir = compile_text(texts[i]);
        fgm_model *m;

        exact_enum(ir, NULL, exact, NULL);
        m = interp(ir);
        run_seeded(m, 1000, 7);
        e_short = marginal_error(m, exact);
        run_seeded(m, 0, 7);
        e_long = marginal_error(m, exact);
        /* 100,000 sweeps: a standard error near 0.0015 a value. */
        ck_assert_msg(e_long < 0.01, "text %d: %g off after 1e5 sweeps", i,
                      e_long);
        ck_assert_msg(e_long < e_short, "text %d: %g after 1e5 sweeps, %g "
                      "after 1e3", i, e_long, e_short);
        fgm_model_free(m);
    }
}
END_TEST

/* Every roll observed: each node's draws are fixed, so its posterior is
 * Dirichlet(alpha + counts) exactly, whatever the sweeps; with some rolls
 * unobserved, the unobserved rolls' marginals are the posterior
 * predictive (alpha + counts) / (A + N) within Monte Carlo error. */
START_TEST(test_dice)
{
    fgm_ir *ir = compile_text("prior p ~ dirichlet([1, 2, 1, 1, 1, 3])\n"
                              "observed var roll[12] in 1..6 ~ discrete(p)\n"
                              "infer gibbs(iterations = 20000)\n");
    fgm_model *m = interp(ir);
    static const int rolls[12] = { 5, 5, 0, 2, 5, 1, 5, 3, 5, 4, 5, 5 };
    double a[6], want[6] = { 1, 2, 1, 1, 1, 3 }, b[6];
    int v, k;

    for (v = 0; v < 12; v++) {
        ck_assert_int_eq(fgm_model_observe_var(m, v, rolls[v]), FGM_OK);
        want[rolls[v]] += 1.0;
    }
    run_seeded(m, 5, 1);
    ck_assert_int_eq(fgm_model_dirichlet(m, 0, a), FGM_OK);
    for (k = 0; k < 6; k++)
        ck_assert_double_eq_tol(a[k], want[k], 1e-12);
    /* The last four unobserved: their predictive given eight rolls. */
    for (k = 0; k < 6; k++)
        want[k] = k == 1 ? 2 : k == 5 ? 3 : 1;
    for (v = 0; v < 8; v++)
        want[rolls[v]] += 1.0;
    for (v = 8; v < 12; v++)
        ck_assert_int_eq(fgm_model_observe_var(m, v, -1), FGM_OK);
    run_seeded(m, 0, 1);
    for (v = 8; v < 12; v++) {
        fgm_model_marginal(m, v, b);
        for (k = 0; k < 6; k++)
            ck_assert_msg(fabs(b[k] - want[k] / 17.0) < 0.01,
                          "roll %d value %d: %g, want %g", v, k, b[k],
                          want[k] / 17.0);
    }
    /* The node's posterior mean is the predictive too; its total, the
     * prior's 9 plus 12 draws. */
    fgm_model_dirichlet(m, 0, a);
    for (k = 0; k < 6; k++)
        ck_assert_msg(fabs(a[k] / 21.0 - want[k] / 17.0) < 0.01,
                      "p %d: %g", k, a[k] / 21.0);
    /* A prior observed between two runs: the warm run draws with it. */
    for (v = 8; v < 12; v++)
        ck_assert_int_eq(fgm_model_observe_var(m, v, rolls[v]), FGM_OK);
    for (k = 0; k < 6; k++)
        want[k] = 0.5;
    for (v = 0; v < 12; v++)
        want[rolls[v]] += 1.0;
    ck_assert_int_eq(fgm_model_observe_dirichlet(m, 0, (double[6]){ 0.5,
                     0.5, 0.5, 0.5, 0.5, 0.5 }, 0), FGM_OK);
    {
        fgm_run_opts ro;

        memset(&ro, 0, sizeof ro);
        ro.warm = 1;
        ro.iterations = 3;
        ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
    }
    fgm_model_dirichlet(m, 0, a);
    for (k = 0; k < 6; k++)
        ck_assert_double_eq_tol(a[k], want[k], 1e-12);
    fgm_model_free(m);
}
END_TEST

/* The casino over 8 rolls, half of them sixes: the dice's marginals and
 * the four nodes' posterior means against enumeration's.  Two draws of
 * one node in one conditional (a die and the next, both from swap[0])
 * must be drawn from the urn one after the other: taken as independent,
 * die[0] came out 0.825 where enumeration says 0.809 (T = 12). */
START_TEST(test_casino)
{
    fgm_ir *ir = compile_text(CASINO_TEXT(8));
    static const int rolls[8] = { 2, 0, 5, 5, 5, 3, 5, 5 };
    double exact[16 * 64], means[4 * 64], a[6], err = 0.0;
    int given[16], v, d, k;
    fgm_model *m;

    for (v = 0; v < 16; v++)
        given[v] = v < 8 ? -1 : rolls[v - 8];
    exact_enum(ir, given, exact, means);
    m = interp(ir);
    for (v = 8; v < 16; v++)
        fgm_model_observe_var(m, v, given[v]);
    run_seeded(m, 0, 3);
    ck_assert_double_lt(marginal_error(m, exact), 0.01);
    for (d = 0; d < 4; d++) {
        double z = 0.0;

        fgm_model_dirichlet(m, d, a);
        for (k = 0; k < 6 && k < (d < 2 ? 2 : 6); k++)
            z += a[k];
        for (k = 0; k < (d < 2 ? 2 : 6); k++)
            err = fmax(err, fabs(a[k] / z - means[d * 64 + k]));
    }
    ck_assert_msg(err < 0.005, "node means off by %g", err);
    fgm_model_free(m);
}
END_TEST

/* A plugin and the interpreter draw the same numbers: the same bits, on
 * the casino (gated draws), the table of three and a native alldiff. */
START_TEST(test_backends)
{
    static const char *const texts[] = {
        CASINO_TEXT(10),
        TABLE3_TEXT,
        "var x[5] in 1..5\nalldiff x\nx[0] != x[4]\n"
        "evidence x[1] = [1, 2, 3, 4, 5]\n"
        "infer gibbs(iterations = 3000, alldiff = native)\n"
    };
    char dir[] = "/tmp/fgm_gibbs_XXXXXX";
    int i, v;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (i = 0; i < 3; i++) {
        fgm_model *c = open_backend(compile_text(texts[i]),
                                    FGM_BACKEND_COMPILED, dir);
        fgm_model *in = interp(compile_text(texts[i]));

        ck_assert_int_eq(fgm_model_is_compiled(c), 1);
        for (v = 10; i == 0 && v < 20; v++) {
            fgm_model_observe_var(c, v, (v * 5) % 6);
            fgm_model_observe_var(in, v, (v * 5) % 6);
        }
        run_seeded(c, i == 0 ? 2000 : 0, 11);
        run_seeded(in, i == 0 ? 2000 : 0, 11);
        same_bits(c, in);
        fgm_model_free(c);
        fgm_model_free(in);
    }
    ck_assert_int_eq(system("rm -rf /tmp/fgm_gibbs_*") >= 0, 1);
}
END_TEST

/* A seed gives one chain: the same seed the same estimates, another seed
 * others; a warm run goes on from the chain's state and generator (a
 * fresh start from the same seed would repeat the cold run's). */
START_TEST(test_seeds)
{
    fgm_model *m = interp(compile_text(TABLE3_TEXT));
    double x[3], y[3], z[3], w[3];
    fgm_run_opts ro;

    run_seeded(m, 500, 1);
    fgm_model_marginal(m, 1, x);
    run_seeded(m, 500, 1);
    fgm_model_marginal(m, 1, y);
    ck_assert_mem_eq(x, y, sizeof x);
    run_seeded(m, 500, 2);
    fgm_model_marginal(m, 1, z);
    ck_assert_msg(memcmp(x, z, sizeof x) != 0, "seeds 1 and 2 agree");
    memset(&ro, 0, sizeof ro);
    ro.warm = 1;
    ro.iterations = 500;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
    fgm_model_marginal(m, 1, w);
    ck_assert_msg(memcmp(w, z, sizeof w) != 0, "a warm run started over");
    fgm_model_free(m);
}
END_TEST

/* burn_in: the model's count, capped so that the last sweep is kept; a
 * tenth of the sweeps when the model does not say.  The dump names it
 * where given only. */
START_TEST(test_burn_in)
{
    fgm_ir *ir = compile_text("var x[2] in 0..1\nx[0] != x[1]\n"
                              "infer gibbs(iterations = 10, burn_in = 4)\n");
    fgm_model *m = interp(fgm_ir_copy(ir));
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    run_seeded(m, 0, 1);
    ck_assert_int_eq(m->st.gibbs_kept, 6);
    run_seeded(m, 3, 1);
    ck_assert_int_eq(m->st.gibbs_kept, 1);
    fgm_model_free(m);
    ck_assert_int_eq(fgm_ir_dump(ir, f), FGM_OK);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "infer burn-in 4\n"));
    free(text);
    fgm_ir_free(ir);
    m = interp(compile_text("var x[2] in 0..1\nx[0] != x[1]\n"
                            "infer gibbs\n"));
    ck_assert_int_eq(fgm_model_ir(m)->infer.iterations,
                     FGM_GIBBS_ITERATIONS);
    run_seeded(m, 50, 1);
    ck_assert_int_eq(m->st.gibbs_kept, 45);
    fgm_model_free(m);
    /* Switching algorithms: the sweeps a model did not set follow the
     * algorithm's default; those it set stay. */
    ir = compile_text("var x in 0..1\n");
    ck_assert_int_eq(ir->infer.iterations, 50);
    ck_assert_int_eq(fgm_ir_set_algo(ir, "gibbs"), FGM_OK);
    ck_assert_int_eq(ir->infer.iterations, FGM_GIBBS_ITERATIONS);
    ck_assert_int_eq(fgm_ir_set_algo(ir, "bp-sum"), FGM_OK);
    ck_assert_int_eq(ir->infer.iterations, 50);
    fgm_ir_free(ir);
    ir = compile_text("var x in 0..1\ninfer ep(iterations = 7)\n");
    ck_assert_int_eq(fgm_ir_set_algo(ir, "gibbs"), FGM_OK);
    ck_assert_int_eq(ir->infer.iterations, 7);
    fgm_ir_free(ir);
}
END_TEST

/* Hard constraints no assignment meets: the draws past the burn-in
 * that no value can take are counted, their sweeps are not kept, and a
 * run that kept none reports a contradiction.  A model whose chain
 * starts in a solution counts none, and its marginals are the
 * solutions'. */
START_TEST(test_dead_draws)
{
    fgm_model *m = interp(compile_text("var x[3] in 1..2\n"
                                       "x[0] != x[1]\nx[1] != x[2]\n"
                                       "x[0] != x[2]\n"
                                       "infer gibbs(iterations = 20)\n"));
    fgm_run_info info = run_seeded(m, 0, 1);
    double b[3];

    /* Two values for three cells that must differ: one of the three has
     * no value left in some sweep, whichever values the others hold. */
    ck_assert_int_gt(info.dead, 0);
    fgm_model_free(m);
    /* One value allowed for two that must differ: after the first draw
     * neither has one (18 sweeps past the burn-in, two draws each), no
     * sweep is kept, and the run reports a contradiction at the first. */
    m = interp(compile_text("var x in 0..1\nvar y in 0..1\nx != y\n"
                            "evidence x = [1, 0]\n"
                            "evidence y = [1, 0]\n"
                            "infer gibbs(iterations = 20)\n"));
    info = run_seeded(m, 0, 1);
    ck_assert_int_eq(info.dead, 36);
    ck_assert_int_eq(info.kept, 0);
    ck_assert_int_eq(fgm_model_contradiction(m), 0);
    fgm_model_free(m);
    m = interp(compile_text("var x in 0..2\nvar y in 0..2\n"
                            "x != y\n"
                            "evidence x = [0, 1, 0]\n"
                            "infer gibbs(iterations = 200)\n"));
    info = run_seeded(m, 0, 1);
    ck_assert_int_eq(info.dead, 0);
    ck_assert_int_eq(fgm_model_contradiction(m), -1);
    fgm_model_marginal(m, 1, b);
    ck_assert_double_eq_tol(b[0], 0.5, 1e-12);
    ck_assert_double_eq_tol(b[1], 0.0, 1e-12);
    ck_assert_double_eq_tol(b[2], 0.5, 1e-12);
    fgm_model_free(m);
}
END_TEST

/* Chains on a model with a Dirichlet prior: its posterior pseudo-counts
 * are the mean of the chains' (each as a run from its seed gives them);
 * a deadline that cuts a later chain leaves it out, FGM_ETIMEOUT saying
 * that fewer chains ran, the estimates those of the chains that ran. */
START_TEST(test_chains_dirichlet)
{
    static const char *const text =
        "prior p ~ dirichlet([1, 2])\n"
        "var y[6] in 0..1 ~ discrete(p)\n"
        "table (y[i], y[i+1]) = [[3, 1], [1, 3]] for i in 0..4\n"
        "evidence y[0] = [0.8, 0.2]\n"
        "infer gibbs(iterations = 400)\n";
    fgm_model *m = interp(compile_text(text));
    double one[4][2], mean[2] = { 0, 0 }, post[2], b[2], cut[2];
    fgm_run_opts ro;
    fgm_run_info info;
    int c, k, ran;

    for (c = 0; c < 4; c++) {
        run_seeded(m, 0, 7 + (unsigned long)c);
        ck_assert_int_eq(fgm_model_dirichlet(m, 0, one[c]), FGM_OK);
        for (k = 0; k < 2; k++)
            mean[k] += one[c][k] / 4.0;
    }
    /* The chains disagree, so that the mean is not any one of them. */
    ck_assert(one[0][0] != one[1][0] || one[0][0] != one[2][0]);
    memset(&ro, 0, sizeof ro);
    ro.chains = 4;
    ro.seed = 7;
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_OK);
    ck_assert_int_eq(info.chains, 4);
    ck_assert_int_eq(fgm_model_dirichlet(m, 0, post), FGM_OK);
    for (k = 0; k < 2; k++)
        ck_assert_double_eq_tol(post[k], mean[k], 1e-12);

    /* Chains of 2,000 sweeps, a deadline 40 ms away: the first chain
     * may be cut (it then counts, alone), a later one is left out. */
    ro.chains = FGM_MAX_CHAINS;
    ro.iterations = 2000;
    ro.deadline = fgm_now() + 0.04;
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_ETIMEOUT);
    ran = info.chains;
    ck_assert_int_ge(ran, 1);
    ck_assert_int_lt(ran, FGM_MAX_CHAINS);
    fgm_model_marginal(m, 1, b);
    ck_assert_double_eq_tol(b[0] + b[1], 1.0, 1e-12);
    ck_assert_int_eq(fgm_model_dirichlet(m, 0, cut), FGM_OK);
    if (ran >= 2) {
        /* Whole chains only: the same as that many without a deadline. */
        ro.chains = ran;
        ro.deadline = 0;
        ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_OK);
        ck_assert_int_eq(fgm_model_dirichlet(m, 0, post), FGM_OK);
        for (k = 0; k < 2; k++)
            ck_assert_double_eq_tol(cut[k], post[k], 1e-12);
    }
    fgm_model_free(m);
}
END_TEST

/* Several chains: the estimates are the mean of the chains' (each as a
 * run from its seed gives it), their standard errors the spread of the
 * chains' over the root of their number, and the exact marginals lie
 * within a few of them.  Refused: chains of a message-passing run, of a
 * warm run, more than FGM_MAX_CHAINS. */
START_TEST(test_chains)
{
    static const char *const text =
        "var x[6] in 0..2\n"
        "table (x[i], x[i+1]) = [[4, 1, 1], [1, 4, 1], [1, 1, 4]] "
        "for i in 0..4\n"
        "evidence x[0] = [0.7, 0.2, 0.1]\n"
        "infer gibbs(iterations = 4000)\n";
    fgm_ir *ir = compile_text(text);
    fgm_model *m = interp(fgm_ir_copy(ir));
    double exact[6 * 64], mean[6][3], b[3], se[3], sd, sum2;
    fgm_run_opts ro;
    fgm_run_info info;
    int v, k, c, far = 0;

    exact_enum(ir, NULL, exact, NULL);
    memset(mean, 0, sizeof mean);
    for (c = 0; c < 8; c++) {
        run_seeded(m, 0, 20 + (unsigned long)c);
        for (v = 0; v < 6; v++) {
            fgm_model_marginal(m, v, b);
            for (k = 0; k < 3; k++)
                mean[v][k] += b[k] / 8.0;
        }
    }
    ck_assert_int_eq(fgm_model_marginal_stderr(m, 0, se), FGM_EINVAL);
    memset(&ro, 0, sizeof ro);
    ro.chains = 8;
    ro.seed = 20;
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_OK);
    ck_assert_int_eq(info.chains, 8);
    ck_assert_int_eq(info.sweeps, 8 * 4000);
    for (v = 0; v < 6; v++) {
        fgm_model_marginal(m, v, b);
        ck_assert_int_eq(fgm_model_marginal_stderr(m, v, se), FGM_OK);
        for (k = 0; k < 3; k++) {
            ck_assert_double_eq_tol(b[k], mean[v][k], 1e-12);
            ck_assert_double_gt(se[k], 0.0);
            /* 4000 sweeps a chain: a chain's error near 0.01, the mean's
             * near 0.004. */
            ck_assert_double_lt(se[k], 0.02);
            far += fabs(b[k] - exact[v * 64 + k]) > 3.0 * se[k];
        }
    }
    /* Three standard errors: 18 values, rarely more than one past. */
    ck_assert_int_le(far, 1);
    /* The spread itself: the chains' sample deviation of x[0]'s first
     * value, recomputed. */
    ro.chains = 1;
    for (sum2 = 0.0, c = 0; c < 8; c++) {
        ro.seed = 20 + (unsigned long)c;
        fgm_model_run(m, &ro, NULL);
        fgm_model_marginal(m, 0, b);
        sum2 += (b[0] - mean[0][0]) * (b[0] - mean[0][0]);
    }
    ck_assert_int_eq(fgm_model_marginal_stderr(m, 0, se), FGM_EINVAL);
    ro.chains = 8;
    ro.seed = 20;
    fgm_model_run(m, &ro, NULL);
    fgm_model_marginal_stderr(m, 0, se);
    sd = sqrt(sum2 / 7.0);
    ck_assert_double_eq_tol(se[0], sd / sqrt(8.0), 1e-12);
    ro.warm = 1;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    ro.warm = 0;
    ro.chains = FGM_MAX_CHAINS + 1;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    ro.chains = -1;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    /* A refused run, of chains or not, runs nothing: the last run's
     * standard errors stand. */
    ro.iterations = -1;
    ro.chains = 8;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    ro.chains = 0;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    ck_assert_int_eq(fgm_model_marginal_stderr(m, 0, b), FGM_OK);
    ck_assert(b[0] == se[0]);
    fgm_model_free(m);
    m = interp(compile_text("var x in 0..1\ninfer bp-sum\n"));
    ro.chains = 2;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    fgm_model_free(m);
    fgm_ir_free(ir);
}
END_TEST

/* Weights past the doubles' range: a class with 300 features of odds
 * 999 (20 more for class 0 than against it), a hub of forty tables of
 * weights near 1e9, and a gate of 600 draws ((1/6)^600 each way,
 * against enumeration); no draw may lose every value to underflow or
 * overflow. */
START_TEST(test_underflow)
{
    char text[512];
    fgm_ir *ir;
    fgm_model *m;
    fgm_run_info info;
    double exact[601 * 64], b[2];
    int given[601], v;

    ir = compile_text("var c in 0..1\nobserved var f[300] in 0..1\n"
                      "table (c, f[i]) = [[0.999, 0.001], [0.001, 0.999]] "
                      "for i in 0..299\ninfer gibbs(iterations = 200)\n");
    m = interp(fgm_ir_copy(ir));
    for (v = 1; v <= 300; v++) {
        given[v] = v <= 160 ? 0 : 1;
        fgm_model_observe_var(m, v, given[v]);
    }
    given[0] = -1;
    info = run_seeded(m, 0, 1);
    ck_assert_int_eq(info.dead, 0);
    fgm_model_marginal(m, 0, b);
    ck_assert_double_gt(b[0], 1.0 - 1e-12);
    fgm_model_free(m);
    fgm_ir_free(ir);
    /* Forty tables of weights near 1e9 on one variable: 1e360 unscaled
     * (below 2^32, the compiler leaves them as they are). */
    m = interp(compile_text("var x in 0..1\nvar y[40] in 0..1\n"
                            "table (x, y[i]) = [[1e9, 3e9], "
                            "[2e9, 1e9]] for i in 0..39\n"
                            "evidence x = [0.3, 0.7]\n"
                            "infer gibbs(iterations = 2000)\n"));
    info = run_seeded(m, 0, 1);
    ck_assert_int_eq(info.dead, 0);
    fgm_model_marginal(m, 0, b);
    ck_assert_double_gt(b[0], 0.999);     /* exact: 0.999977 */
    fgm_model_free(m);
    snprintf(text, sizeof text,
             "var g in 0..1\n"
             "prior t[2] ~ dirichlet([[5, 1, 1, 1, 1, 1], "
             "[1, 1, 1, 1, 1, 6]])\n"
             "observed var y[600] in 1..6\n"
             "y[i] ~ discrete(t[g]) for i in 0..599\n"
             "infer gibbs(iterations = 4000)\n");
    ir = compile_text(text);
    m = interp(fgm_ir_copy(ir));
    given[0] = -1;
    for (v = 1; v <= 600; v++) {
        given[v] = v % 6;
        fgm_model_observe_var(m, v, given[v]);
    }
    exact_enum(ir, given, exact, NULL);
    info = run_seeded(m, 0, 1);
    ck_assert_int_eq(info.dead, 0);
    fgm_model_marginal(m, 0, b);
    ck_assert_msg(fabs(b[0] - exact[0]) < 1e-9, "g: %.12g, exact %.12g",
                  b[0], exact[0]);
    fgm_model_free(m);
    fgm_ir_free(ir);
}
END_TEST

/* What a run keeps: a pseudo-count of 1e-20 beside whole draws (1e-20 +
 * 1 - 1 is 0 in one double); the last sweep when the deadline falls in
 * the burn-in; never a cold run's first, greedy sweep when it has more
 * (burn_in = 0); no tolerance.  And a draw the constraints leave no
 * value keeps a clue's point mass: an exact clue's cell never leaves
 * it. */
START_TEST(test_keeps)
{
    fgm_model *m = interp(compile_text(
        "prior p ~ dirichlet([1e-20, 1])\nvar y in 0..1 ~ discrete(p)\n"
        "evidence y = [1, 0]\ninfer gibbs(iterations = 100)\n"));
    fgm_run_info info = run_seeded(m, 0, 1);
    fgm_run_opts ro;
    double b[4];
    int seed, v;

    ck_assert_int_eq(info.dead, 0);
    fgm_model_marginal(m, 0, b);
    ck_assert_double_eq(b[0], 1.0);
    memset(&ro, 0, sizeof ro);
    ro.iterations = 100000;
    ro.deadline = fgm_now() - 1.0;      /* past: the first sweep is late */
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_ETIMEOUT);
    ck_assert_int_eq(m->st.gibbs_kept, 1);
    ck_assert_int_eq(fgm_model_contradiction(m), -1);
    memset(&ro, 0, sizeof ro);
    ro.use_tolerance = 1;
    ro.tolerance = 1e-3;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    fgm_model_free(m);
    m = interp(compile_text("var x[2] in 0..1\nx[0] != x[1]\n"
                            "infer gibbs(iterations = 5, burn_in = 0)"
                            "\n"));
    run_seeded(m, 0, 1);
    ck_assert_int_eq(m->st.gibbs_kept, 4);
    fgm_model_free(m);
    /* A 4x4 grid with three clues: whatever the greedy start breaks,
     * each clue cell keeps its clue. */
    for (seed = 0; seed < 10; seed++) {
        static const int cell[3] = { 0, 11, 15 }, clue[3] = { 0, 2, 3 };
        fgm_ir *ir = fgm_ir_sudoku(2);

        ck_assert_int_eq(fgm_ir_set_algo(ir, "gibbs"), FGM_OK);
        m = interp(ir);
        for (v = 0; v < 3; v++)
            ck_assert_int_eq(fgm_model_observe_clue(m, cell[v], clue[v]),
                             FGM_OK);
        run_seeded(m, 500, (unsigned long)seed);
        for (v = 0; v < 3; v++) {
            fgm_model_marginal(m, cell[v], b);
            ck_assert_msg(b[clue[v]] == 1.0, "seed %d: cell %d lost its "
                          "clue (%g)", seed, cell[v], b[clue[v]]);
        }
        fgm_model_free(m);
    }
}
END_TEST

/* The names messages list (FGM_ALGO_NAMES, fgm.h) are the IR's, in its
 * order: a fifth algorithm cannot be left out of them. */
START_TEST(test_algo_names)
{
    char names[256] = "";
    int a;

    for (a = 0; a < FGM_NALGOS; a++)
        snprintf(names + strlen(names), sizeof names - strlen(names),
                 "%s%s", a ? ", " : "", fgm_ir_algo_name((fgm_algo)a));
    ck_assert_str_eq(names, FGM_ALGO_NAMES);
}
END_TEST

Suite *
gibbs_suite(void)
{
    Suite *s = suite_create("gibbs");
    TCase *tc = tcase_create("sampler");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_against_exact);
    tcase_add_test(tc, test_dice);
    tcase_add_test(tc, test_casino);
    tcase_add_test(tc, test_backends);
    tcase_add_test(tc, test_seeds);
    tcase_add_test(tc, test_burn_in);
    tcase_add_test(tc, test_dead_draws);
    tcase_add_test(tc, test_algo_names);
    tcase_add_test(tc, test_chains);
    tcase_add_test(tc, test_chains_dirichlet);
    tcase_add_test(tc, test_underflow);
    tcase_add_test(tc, test_keeps);
    suite_add_tcase(s, tc);
    return s;
}
