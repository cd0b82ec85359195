/* tests/check_vmp.c: variational message passing (runtime/ops/vmp.h)
 * and its evidence bound (runtime/evidence_vmp.c): exact where mean
 * field is (every draw observed), the fixed points of mean-field
 * iterations written out here again, a bound that never falls and never
 * passes the exact log Z, both backends giving the same bits, and the
 * settings and models it refuses.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <check.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sf_psi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "interp.h"
#include "ir.h"
#include "model.h"
#include "suites.h"
#include "testutil.h"

/* The shared models (testutil.h), run to mean field's fixed point; the
 * table model's potentials, written out again for its iteration. */
#define TABLE3_TEXT \
    TABLE3_MODEL "infer vmp(iterations = 500, tolerance = 1e-15)\n"
#define CASINO_TEXT(T) \
    CASINO_MODEL(T) "infer vmp(iterations = 2000, tolerance = 1e-14)\n"
static const double table3[2][3][2] = {
    { { 1, 5 }, { 2, 1 }, { 6, 1 } }, { { 3, 1 }, { 1, 1 }, { 1, 9 } }
};
static const double table2[2][2] = { { 1, 2 }, { 4, 1 } };

static const int casino_rolls[8] = { 2, 0, 5, 5, 5, 3, 5, 5 };

/* The model of IR (owned by the model from now on), interpreted. */
static fgm_model *
interp(fgm_ir *ir)
{
    return open_backend(ir, FGM_BACKEND_INTERPRETED, NULL);
}

/* Runs M cold (ITERS sweeps, 0: the model's); returns its sweeps. */
static int
run_cold(fgm_model *m, int iters)
{
    fgm_run_opts ro;
    fgm_run_info info;

    memset(&ro, 0, sizeof ro);
    ro.iterations = iters;
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_OK);
    return info.sweeps;
}

/* One more sweep of M, continuing its last run. */
static void
run_warm_sweep(fgm_model *m)
{
    fgm_run_opts ro;

    memset(&ro, 0, sizeof ro);
    ro.iterations = 1;
    ro.warm = 1;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
}

static double
elbo(const fgm_model *m)
{
    double z;

    ck_assert_int_eq(fgm_model_log_evidence(m, &z), FGM_OK);
    return z;
}

/* Row I of what GET reads from M (WHAT: "var", "node") is WANT, K
 * values, to TOL. */
static void
assert_row(fgm_status (*get)(const fgm_model *, int, double *),
           const char *what, const fgm_model *m, int i, const double *want,
           int k, double tol)
{
    double got[64];
    int x;

    ck_assert_int_eq(get(m, i, got), FGM_OK);
    for (x = 0; x < k; x++)
        ck_assert_msg(fabs(got[x] - want[x]) <= tol, "%s %d value %d: "
                      "%.17g, want %.17g", what, i, x, got[x], want[x]);
}

/* Variable V's marginal in M is WANT (its K values) to TOL. */
static void
assert_marginal(const fgm_model *m, int v, const double *want, int k,
                double tol)
{
    assert_row(fgm_model_marginal, "var", m, v, want, k, tol);
}

/* Node D's pseudo-counts in M are WANT (K of them) to TOL. */
static void
assert_node(const fgm_model *m, int d, const double *want, int k, double tol)
{
    assert_row(fgm_model_dirichlet, "node", m, d, want, k, tol);
}

/* The exact log Z of IR with clues GIVEN (NULL: none), by enumeration. */
static double
exact_log_z(const fgm_ir *ir, const int *given)
{
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    double *rows, z;

    ck_assert_ptr_nonnull(csp);
    rows = malloc((size_t)ir->nvars * (size_t)fgm_csp_maxcard(csp)
                  * sizeof *rows);
    ck_assert_ptr_nonnull(rows);
    ck_assert_int_eq(fgm_enumerate_log_z(csp, given, 0, 0, rows, NULL, 0,
                                         NULL, &z), FGM_OK);
    free(rows);
    fgm_csp_free(csp);
    return z;
}

/* Every roll observed: mean field is exact, each node's q(p) is
 * Dirichlet(alpha + counts) and the bound is the exact log Z. */
START_TEST(test_dice_exact)
{
    fgm_ir *ir = compile_text("prior p ~ dirichlet([1, 2, 1, 1, 1, 3])\n"
                              "observed var roll[12] in 1..6 ~ discrete(p)\n"
                              "infer vmp\n");
    static const int rolls[12] = { 5, 5, 0, 2, 5, 1, 5, 3, 5, 4, 5, 5 };
    double want[6] = { 1, 2, 1, 1, 1, 3 }, z;
    fgm_model *m;
    int v;

    z = exact_log_z(ir, rolls);
    m = interp(ir);
    for (v = 0; v < 12; v++) {
        ck_assert_int_eq(fgm_model_observe_var(m, v, rolls[v]), FGM_OK);
        want[rolls[v]] += 1.0;
    }
    run_cold(m, 3);
    assert_node(m, 0, want, 6, 1e-12);
    ck_assert_msg(fabs(elbo(m) - z) < 1e-9, "bound %.12g, log Z %.12g",
                  elbo(m), z);
    fgm_model_free(m);
}
END_TEST

/* Every die and roll of the casino observed: each gated draw's node is
 * known, so each node's q(p) is its prior plus the counts of the draws
 * its gate picks, and the bound is exact. */
START_TEST(test_casino_observed)
{
    fgm_ir *ir = compile_text(CASINO_TEXT(8));
    static const int dice[8] = { 0, 0, 1, 1, 1, 0, 1, 1 };
    double want[4][6] = { { 9, 1 }, { 1, 9 }, { 5, 5, 5, 5, 5, 5 },
                          { 1, 1, 1, 1, 1, 5 } }, z;
    int given[16], v, d;
    fgm_model *m;

    for (v = 0; v < 8; v++) {
        given[v] = dice[v];
        given[v + 8] = casino_rolls[v];
        want[2 + dice[v]][casino_rolls[v]] += 1.0;
        if (v > 0)
            want[dice[v - 1]][dice[v]] += 1.0;
    }
    z = exact_log_z(ir, given);
    m = interp(ir);
    for (v = 0; v < 16; v++)
        fgm_model_observe_var(m, v, given[v]);
    run_cold(m, 0);
    for (d = 0; d < 4; d++)
        assert_node(m, d, want[d], d < 2 ? 2 : 6, 1e-12);
    ck_assert_msg(fabs(elbo(m) - z) < 1e-9, "bound %.12g, log Z %.12g",
                  elbo(m), z);
    fgm_model_free(m);
}
END_TEST

/* The table model's fixed point, by mean-field iteration written out
 * here (a, then b, then c, from the normalized evidence: the kernel's
 * order and start), against the kernel's to 1e-12: a table indexed
 * wrongly, or an expectation over the wrong positions, lands elsewhere. */
START_TEST(test_table_fixed_point)
{
    fgm_model *m = interp(compile_text(TABLE3_TEXT));
    double qa[2] = { 0.5, 0.5 }, qb[3] = { 0.2, 0.5, 0.3 };
    double qc[2] = { 0.5, 0.5 }, s[3], z;
    int it, x, y, w;

    for (it = 0; it < 500; it++) {
        for (x = 0, z = 0; x < 2; x++) {
            s[x] = 0.0;
            for (y = 0; y < 3; y++)
                for (w = 0; w < 2; w++)
                    s[x] += qb[y] * qc[w] * log(table3[x][y][w]);
            for (w = 0; w < 2; w++)
                s[x] += qc[w] * log(table2[x][w]);
            z += s[x] = exp(s[x]);
        }
        for (x = 0; x < 2; x++)
            qa[x] = s[x] / z;
        for (y = 0, z = 0; y < 3; y++) {
            s[y] = log((double[3]){ 0.2, 0.5, 0.3 }[y]);
            for (x = 0; x < 2; x++)
                for (w = 0; w < 2; w++)
                    s[y] += qa[x] * qc[w] * log(table3[x][y][w]);
            z += s[y] = exp(s[y]);
        }
        for (y = 0; y < 3; y++)
            qb[y] = s[y] / z;
        for (w = 0, z = 0; w < 2; w++) {
            s[w] = 0.0;
            for (x = 0; x < 2; x++) {
                for (y = 0; y < 3; y++)
                    s[w] += qa[x] * qb[y] * log(table3[x][y][w]);
                s[w] += qa[x] * log(table2[x][w]);
            }
            z += s[w] = exp(s[w]);
        }
        for (w = 0; w < 2; w++)
            qc[w] = s[w] / z;
    }
    run_cold(m, 0);
    assert_marginal(m, 0, qa, 2, 1e-12);
    assert_marginal(m, 1, qb, 3, 1e-12);
    assert_marginal(m, 2, qc, 2, 1e-12);
    fgm_model_free(m);
}
END_TEST

/* Dice with four rolls unobserved: the fixed point of q(roll) =
 * exp(psi(alpha) - psi(sum alpha)) normalized, alpha = a + counts + 4 q,
 * iterated here with GSL's psi (mean field counts each unobserved roll's
 * q into the node, unlike the exact posterior, which ignores them). */
START_TEST(test_dice_fixed_point)
{
    fgm_model *m = interp(compile_text(
        "prior p ~ dirichlet([1, 2, 1, 1, 1, 3])\n"
        "observed var roll[12] in 1..6 ~ discrete(p)\n"
        "infer vmp(iterations = 1000, tolerance = 1e-15)\n"));
    static const int rolls[8] = { 5, 5, 0, 2, 5, 1, 5, 3 };
    double base[6] = { 1, 2, 1, 1, 1, 3 }, al[6], q[6], s, sum, b[6];
    int v, k, it;

    for (v = 0; v < 8; v++) {
        fgm_model_observe_var(m, v, rolls[v]);
        base[rolls[v]] += 1.0;
    }
    for (k = 0; k < 6; k++)
        al[k] = base[k];
    for (it = 0; it < 1000; it++) {
        for (k = 0, s = 0.0, sum = 0.0; k < 6; k++)
            sum += al[k];
        for (k = 0; k < 6; k++)
            s += q[k] = exp(gsl_sf_psi(al[k]) - gsl_sf_psi(sum));
        for (k = 0; k < 6; k++)
            al[k] = base[k] + 4.0 * q[k] / s;
    }
    run_cold(m, 0);
    assert_node(m, 0, al, 6, 1e-10);
    for (k = 0; k < 6; k++)
        b[k] = q[k] / s;
    assert_marginal(m, 11, b, 6, 1e-10);
    fgm_model_free(m);
}
END_TEST

/* log B(A) - log B(PRIOR) + sum (prior - a) E[log p] over K entries:
 * a node's part of the bound besides its draws. */
static double
node_kl(const double *a, const double *prior, const double *el, int k)
{
    double t = 0.0, sa = 0.0, sp = 0.0;
    int x;

    for (x = 0; x < k; x++) {
        t += gsl_sf_lngamma(a[x]) - gsl_sf_lngamma(prior[x])
             + (prior[x] - a[x]) * el[x];
        sa += a[x];
        sp += prior[x];
    }
    return t - gsl_sf_lngamma(sa) + gsl_sf_lngamma(sp);
}

/* The mixture's E[log w] and E[log f_c] (EW, EF) under Dir(AW), Dir(AF). */
static void
mixture_elog(const double aw[2], const double af[2][3], double ew[2],
             double ef[2][3])
{
    int c, x;

    for (c = 0; c < 2; c++) {
        double sf = af[c][0] + af[c][1] + af[c][2];

        ew[c] = gsl_sf_psi(aw[c]) - gsl_sf_psi(aw[0] + aw[1]);
        for (x = 0; x < 3; x++)
            ef[c][x] = gsl_sf_psi(af[c][x]) - gsl_sf_psi(sf);
    }
}

/* A mixture: each c[i] drawn from w, each observed o[i] from the node
 * its c[i] picks.  Mean field written out here -- q(c_i) from E[log w]
 * and E[log f_c], then every node from the expected counts, each draw's
 * weighed by q(c_i) -- and its bound, against the kernel's and
 * evidence_vmp.c's: a gate's probability left out of the counts, or the
 * wrong node's E[log p], shows. */
START_TEST(test_mixture_fixed_point)
{
    fgm_model *m = interp(compile_text(
        "prior w ~ dirichlet([1, 2])\n"
        "prior f[2] ~ dirichlet([[3, 1, 1], [1, 1, 3]])\n"
        "var c[6] in 0..1 ~ discrete(w)\n"
        "observed var o[6] in 0..2\n"
        "o[i] ~ discrete(f[c[i]]) for i in 0..5\n"
        "infer vmp(iterations = 3000, tolerance = 1e-15)\n"));
    static const int obs[6] = { 0, 0, 2, 1, 2, 2 };
    const double pw[2] = { 1, 2 }, pf[2][3] = { { 3, 1, 1 }, { 1, 1, 3 } };
    double aw[2], af[2][3], ew[2], ef[2][3], q[6][2], s[2], z, bound;
    int i, c, x, it;

    for (c = 0; c < 2; c++) {
        aw[c] = pw[c];
        for (x = 0; x < 3; x++)
            af[c][x] = pf[c][x];
    }
    for (it = 0; it < 3000; it++) {
        mixture_elog(aw, af, ew, ef);
        for (i = 0; i < 6; i++) {
            for (c = 0; c < 2; c++)
                s[c] = ew[c] + ef[c][obs[i]];
            z = fmax(s[0], s[1]);
            s[0] = exp(s[0] - z);
            s[1] = exp(s[1] - z);
            for (c = 0; c < 2; c++)
                q[i][c] = s[c] / (s[0] + s[1]);
        }
        for (c = 0; c < 2; c++) {
            aw[c] = pw[c];
            for (x = 0; x < 3; x++)
                af[c][x] = pf[c][x];
            for (i = 0; i < 6; i++) {
                aw[c] += q[i][c];
                af[c][obs[i]] += q[i][c];
            }
        }
    }
    mixture_elog(aw, af, ew, ef);
    bound = node_kl(aw, pw, ew, 2) + node_kl(af[0], pf[0], ef[0], 3)
            + node_kl(af[1], pf[1], ef[1], 3);
    for (i = 0; i < 6; i++)
        for (c = 0; c < 2; c++)
            bound += q[i][c] * (ew[c] + ef[c][obs[i]] - log(q[i][c]));
    for (i = 0; i < 6; i++)
        fgm_model_observe_var(m, 6 + i, obs[i]);
    run_cold(m, 0);
    for (i = 0; i < 6; i++)
        assert_marginal(m, i, q[i], 2, 1e-10);
    assert_node(m, 0, aw, 2, 1e-10);
    for (c = 0; c < 2; c++)
        assert_node(m, 1 + c, af[c], 3, 1e-10);
    ck_assert_msg(fabs(elbo(m) - bound) < 1e-9, "bound %.15g, written out "
                  "%.15g", elbo(m), bound);
    fgm_model_free(m);
}
END_TEST

/* Coordinate ascent: the bound never falls from one sweep to the next,
 * and never passes the exact log Z (enumeration), on the table model, a
 * chain, the casino with its dice hidden and a two-component mixture. */
START_TEST(test_bound)
{
    static const char *const texts[] = {
        TABLE3_TEXT,
        "var x[6] in 0..2\n"
        "table (x[i], x[i+1]) = [[4, 1, 1], [1, 4, 1], [1, 1, 4]] "
        "for i in 0..4\n"
        "evidence x[0] = [0.7, 0.2, 0.1]\ninfer vmp\n",
        CASINO_TEXT(8),
        "prior w ~ dirichlet([1, 1])\n"
        "prior f[2] ~ dirichlet([[3, 1, 1], [1, 1, 3]])\n"
        "var c[6] in 0..1 ~ discrete(w)\n"
        "observed var o[6] in 0..2\n"
        "o[i] ~ discrete(f[c[i]]) for i in 0..5\ninfer vmp\n",
    };
    int i, v, it;

    for (i = 0; i < 4; i++) {
        fgm_ir *ir = compile_text(texts[i]);
        int given[64];
        double z, last = -HUGE_VAL, now;
        fgm_model *m;

        for (v = 0; v < ir->nvars; v++)
            given[v] = i == 2 && v >= 8 ? casino_rolls[v - 8]
                       : i == 3 && v >= 6 ? (v * 7) % 3 : -1;
        z = exact_log_z(ir, given);
        m = interp(ir);
        for (v = 0; v < ir->nvars; v++)
            if (given[v] >= 0)
                fgm_model_observe_var(m, v, given[v]);
        run_cold(m, 1);
        for (it = 0; it < 40; it++) {
            now = elbo(m);
            ck_assert_msg(now >= last - 1e-12 * fabs(now),
                          "text %d sweep %d: bound fell from %.15g to %.15g",
                          i, it, last, now);
            ck_assert_msg(now <= z + 1e-9, "text %d sweep %d: bound %.15g "
                          "past log Z %.15g", i, it, now, z);
            last = now;
            run_warm_sweep(m);
        }
        /* Mean field is not exact here: the bound stays below. */
        ck_assert_msg(last < z - 1e-6, "text %d: bound %.15g, log Z %.15g",
                      i, last, z);
        fgm_model_free(m);
    }
}
END_TEST

/* The fixed point is a stationary point of the bound: moving one hidden
 * die's q by 1e-4 either way (every node then at its best for the new q)
 * moves the bound by second-order amounts only, and never up by more
 * than rounding.  The bound reads the draws through the nodes' expected
 * counts, the updates through each variable's expectations: a gated
 * draw whose value and gate are both hidden (a die and the next) weighed
 * wrongly by either shows here at first order. */
START_TEST(test_stationary)
{
    fgm_ir *ir = compile_text(CASINO_TEXT(6));
    fgm_model *m = interp(ir);
    double *q, top, moved, keep[2], eps;
    int v, sgn;

    for (v = 0; v < 6; v++)
        fgm_model_observe_var(m, 6 + v, casino_rolls[v]);
    run_cold(m, 0);
    top = elbo(m);
    for (v = 0; v < 6; v++) {
        q = m->st.belief + (size_t)v * (size_t)m->sched->stride;
        keep[0] = q[0];
        keep[1] = q[1];
        for (sgn = -1; sgn <= 1; sgn += 2) {
            eps = sgn * 1e-4 * fmin(q[0], q[1]) / 0.5;
            q[0] = keep[0] + eps;
            q[1] = keep[1] - eps;
            fgm_interp_finish(m->sched, &m->st);
            moved = elbo(m);
            ck_assert_msg(moved <= top + 1e-12 && top - moved < 1e-7,
                          "die %d moved by %g: bound %.15g, at the fixed "
                          "point %.15g", v, eps, moved, top);
        }
        q[0] = keep[0];
        q[1] = keep[1];
        fgm_interp_finish(m->sched, &m->st);
    }
    fgm_model_free(m);
}
END_TEST

/* A node observed as a point mass is a fixed vector: each draw from it
 * weighs log(p_x), nothing learns it, and with the rest of the model a
 * table over two of its draws, mean field is the iteration written out
 * here; the bound is that iteration's too. */
START_TEST(test_point_mass_node)
{
    fgm_model *m = interp(compile_text(
        "prior p ~ dirichlet([1, 1, 1])\n"
        "var x[2] in 0..2 ~ discrete(p)\n"
        "table (x[0], x[1]) = [[1, 4, 2], [3, 1, 1], [2, 5, 1]]\n"
        "infer vmp(iterations = 400, tolerance = 1e-15)\n"));
    const double p[3] = { 0.2, 0.3, 0.5 };
    const double f[3][3] = { { 1, 4, 2 }, { 3, 1, 1 }, { 2, 5, 1 } };
    double q0[3], q1[3], s[3], z, bound = 0.0;
    int it, x, y;

    for (x = 0; x < 3; x++)
        q0[x] = q1[x] = 1.0 / 3.0;
    for (it = 0; it < 400; it++) {
        for (x = 0, z = 0.0; x < 3; x++) {
            for (y = 0, s[x] = log(p[x]); y < 3; y++)
                s[x] += q1[y] * log(f[x][y]);
            z += s[x] = exp(s[x]);
        }
        for (x = 0; x < 3; x++)
            q0[x] = s[x] / z;
        for (y = 0, z = 0.0; y < 3; y++) {
            for (x = 0, s[y] = log(p[y]); x < 3; x++)
                s[y] += q0[x] * log(f[x][y]);
            z += s[y] = exp(s[y]);
        }
        for (y = 0; y < 3; y++)
            q1[y] = s[y] / z;
    }
    for (x = 0; x < 3; x++) {
        bound += q0[x] * (log(p[x]) - log(q0[x]))
                 + q1[x] * (log(p[x]) - log(q1[x]));
        for (y = 0; y < 3; y++)
            bound += q0[x] * q1[y] * log(f[x][y]);
    }
    ck_assert_int_eq(fgm_model_observe_dirichlet(m, 0, p, 1), FGM_OK);
    run_cold(m, 0);
    assert_marginal(m, 0, q0, 3, 1e-12);
    assert_marginal(m, 1, q1, 3, 1e-12);
    assert_node(m, 0, p, 3, 1e-15);
    ck_assert_msg(fabs(elbo(m) - bound) < 1e-10, "bound %.15g, written out "
                  "%.15g", elbo(m), bound);
    fgm_model_free(m);
}
END_TEST

/* A warm run after the observations change -- two more rolls seen, the
 * prior replaced -- reaches the fixed point a cold run of the same
 * observations reaches (dice: one optimum), and both backends' warm
 * runs give the same bits. */
START_TEST(test_warm)
{
    static const char *text =
        "prior p ~ dirichlet([1, 2, 1, 1, 1, 3])\n"
        "observed var roll[12] in 1..6 ~ discrete(p)\n"
        "infer vmp(iterations = 2000, tolerance = 1e-15)\n";
    static const int rolls[10] = { 5, 5, 0, 2, 5, 1, 5, 3, 5, 4 };
    const double prior[6] = { 2, 1, 1, 1, 1, 1 };
    char dir[] = "/tmp/fgm_vmpw_XXXXXX";
    fgm_model *m[3];
    fgm_run_opts ro;
    double a[6], b[6], c[6];
    int i, v, k;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    m[0] = interp(compile_text(text));
    m[1] = open_backend(compile_text(text), FGM_BACKEND_COMPILED, dir);
    m[2] = interp(compile_text(text));
    memset(&ro, 0, sizeof ro);
    ro.warm = 1;
    for (i = 0; i < 2; i++) {
        for (v = 0; v < 8; v++)
            fgm_model_observe_var(m[i], v, rolls[v]);
        run_cold(m[i], 0);
        for (v = 8; v < 10; v++)
            fgm_model_observe_var(m[i], v, rolls[v]);
        fgm_model_observe_dirichlet(m[i], 0, prior, 0);
        ck_assert_int_eq(fgm_model_run(m[i], &ro, NULL), FGM_OK);
    }
    for (v = 0; v < 10; v++)
        fgm_model_observe_var(m[2], v, rolls[v]);
    fgm_model_observe_dirichlet(m[2], 0, prior, 0);
    run_cold(m[2], 0);
    fgm_model_dirichlet(m[0], 0, a);
    fgm_model_dirichlet(m[1], 0, b);
    fgm_model_dirichlet(m[2], 0, c);
    for (k = 0; k < 6; k++) {
        ck_assert_msg(a[k] == b[k], "warm: %.17g vs %.17g", a[k], b[k]);
        ck_assert_double_eq_tol(a[k], c[k], 1e-9);
    }
    fgm_model_marginal(m[0], 11, a);
    fgm_model_marginal(m[2], 11, c);
    for (k = 0; k < 6; k++)
        ck_assert_double_eq_tol(a[k], c[k], 1e-9);
    for (i = 0; i < 3; i++)
        fgm_model_free(m[i]);
    ck_assert_int_eq(system("rm -rf /tmp/fgm_vmpw_*") >= 0, 1);
}
END_TEST

/* Restarts: the casino over forty rolls, whose first run (from the
 * evidence) stops at a local optimum of the bound.  Ten restarts keep
 * the run with the highest bound -- the largest of the ten single runs
 * made by hand with the same seeds and noise, its q(x) and q(p) those
 * of that run to the bit -- higher than the first run's here; both
 * backends keep the same. */
START_TEST(test_restarts)
{
    static const int rolls[40] = { 2, 0, 4, 1, 3, 5, 1, 2, 0, 4, 5, 5, 3, 5,
                                   5, 1, 5, 5, 5, 4, 5, 5, 0, 5, 2, 1, 3, 0,
                                   4, 2, 1, 5, 0, 3, 1, 4, 2, 0, 1, 3 };
    char dir[] = "/tmp/fgm_vmpr_XXXXXX";
    fgm_model *m[2];
    fgm_run_opts ro;
    fgm_run_info info;
    double z, best = -HUGE_VAL, first = 0.0, keep[2], got[2];
    int r, at = -1, i, v;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    m[0] = interp(compile_text(CASINO_TEXT(40)));
    m[1] = open_backend(compile_text(CASINO_TEXT(40)), FGM_BACKEND_COMPILED,
                        dir);
    for (i = 0; i < 2; i++)
        for (v = 0; v < 40; v++)
            fgm_model_observe_var(m[i], 40 + v, rolls[v]);
    for (r = 0; r < 10; r++) {
        memset(&ro, 0, sizeof ro);
        ro.seed = 7 + (unsigned long)r;
        ro.noise = r ? FGM_VMP_RESTART_NOISE : 0.0;
        ck_assert_int_eq(fgm_model_run(m[0], &ro, NULL), FGM_OK);
        z = elbo(m[0]);
        first = r ? first : z;
        if (z > best) {
            best = z;
            at = r;
            fgm_model_marginal(m[0], 10, keep);
        }
    }
    ck_assert_msg(best > first + 1.0, "best bound %.6f, first %.6f (run %d)",
                  best, first, at);
    memset(&ro, 0, sizeof ro);
    ro.seed = 7;
    ro.restarts = 10;
    for (i = 0; i < 2; i++) {
        ck_assert_int_eq(fgm_model_run(m[i], &ro, &info), FGM_OK);
        ck_assert_int_eq(info.chains, 10);
        ck_assert(elbo(m[i]) == best);
        fgm_model_marginal(m[i], 10, got);
        ck_assert(got[0] == keep[0] && got[1] == keep[1]);
    }
    for (i = 0; i < 2; i++)
        fgm_model_free(m[i]);
    ck_assert_int_eq(system("rm -rf /tmp/fgm_vmpr_*") >= 0, 1);
}
END_TEST

/* A plugin and the interpreter: the same bits, on the casino (gated
 * draws), the table model and dice with hidden rolls. */
START_TEST(test_backends)
{
    static const char *const texts[] = {
        CASINO_TEXT(10),
        TABLE3_TEXT,
        "prior p ~ dirichlet([1, 2, 1, 1, 1, 3])\n"
        "observed var roll[12] in 1..6 ~ discrete(p)\ninfer vmp\n",
    };
    char dir[] = "/tmp/fgm_vmp_XXXXXX";
    double x[64], y[64], zc, zi;
    int i, v, k;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (i = 0; i < 3; i++) {
        fgm_model *c = open_backend(compile_text(texts[i]),
                                    FGM_BACKEND_COMPILED, dir);
        fgm_model *in = interp(compile_text(texts[i]));
        const fgm_ir *ir = fgm_model_ir(in);

        ck_assert_int_eq(fgm_model_is_compiled(c), 1);
        for (v = 0; v < 6; v++) {
            int at = i == 0 ? 10 + v : v;

            fgm_model_observe_var(c, at, (v * 5) % 6);
            fgm_model_observe_var(in, at, (v * 5) % 6);
            if (i == 1)
                break;
        }
        run_cold(c, 0);
        run_cold(in, 0);
        for (v = 0; v < ir->nvars; v++) {
            fgm_model_marginal(c, v, x);
            fgm_model_marginal(in, v, y);
            for (k = 0; k < fgm_ir_card(ir, v); k++)
                ck_assert_msg(x[k] == y[k], "text %d var %d: %.17g vs "
                              "%.17g", i, v, x[k], y[k]);
        }
        for (v = 0; v < ir->ndirichlet; v++) {
            fgm_model_dirichlet(c, v, x);
            fgm_model_dirichlet(in, v, y);
            for (k = 0; k < ir->arrays[ir->dir_array[v]].card; k++)
                ck_assert_msg(x[k] == y[k], "text %d node %d: %.17g vs "
                              "%.17g", i, v, x[k], y[k]);
        }
        ck_assert_int_eq(fgm_model_log_evidence(c, &zc), FGM_OK);
        ck_assert_int_eq(fgm_model_log_evidence(in, &zi), FGM_OK);
        ck_assert(zc == zi);
        fgm_model_free(c);
        fgm_model_free(in);
    }
    ck_assert_int_eq(system("rm -rf /tmp/fgm_vmp_*") >= 0, 1);
}
END_TEST

/* Hard constraints: against an observed variable, `!=` rules out its
 * value exactly; between two free ones, mean field leaves no value (every
 * value the other may take is ruled out), which the run reports as a
 * contradiction with no evidence. */
START_TEST(test_hard_constraints)
{
    fgm_model *m = interp(compile_text("var x in 0..2\nvar y in 0..2\n"
                                       "x != y\nevidence x = [1, 2, 3]\n"
                                       "infer vmp\n"));
    double b[3], z;

    fgm_model_observe_var(m, 1, 2);
    run_cold(m, 0);
    fgm_model_marginal(m, 0, b);
    ck_assert_double_eq_tol(b[0], 1.0 / 3.0, 1e-15);
    ck_assert_double_eq_tol(b[1], 2.0 / 3.0, 1e-15);
    ck_assert(b[2] == 0.0);
    ck_assert_int_eq(fgm_model_contradiction(m), -1);
    fgm_model_free(m);

    m = interp(compile_text("model s\nvar c[4][4] in 1..4\n"
                            "alldiff c[i][*] for i in 0..3\n"
                            "alldiff c[*][j] for j in 0..3\ninfer vmp\n"));
    fgm_model_observe_var(m, 0, 0);
    run_cold(m, 0);
    ck_assert_int_ge(fgm_model_contradiction(m), 0);
    ck_assert_int_eq(fgm_model_log_evidence(m, &z), FGM_OK);
    ck_assert(z == -HUGE_VAL);
    fgm_model_free(m);
}
END_TEST

/* A table's zeros against an observed variable: the values they rule
 * out get nothing (E[log 0] = -inf where the observed value has all the
 * mass), the others the table's row times the evidence -- mean field is
 * exact here, one variable free -- and the bound is the exact log Z. */
START_TEST(test_table_zeros)
{
    fgm_ir *ir = compile_text("var x in 0..1\nvar y in 0..2\n"
                              "table (x, y) = [[1, 0, 2], [0, 3, 1]]\n"
                              "evidence y = [1, 2, 1]\ninfer vmp\n");
    int given[2] = { 0, -1 };
    double z = exact_log_z(ir, given);
    fgm_model *m = interp(ir);

    fgm_model_observe_var(m, 0, 0);
    run_cold(m, 0);
    assert_marginal(m, 1, (double[3]){ 1.0 / 3.0, 0.0, 2.0 / 3.0 }, 3,
                    1e-15);
    ck_assert_int_eq(fgm_model_contradiction(m), -1);
    ck_assert_msg(fabs(elbo(m) - z) < 1e-12, "bound %.15g, log Z %.15g",
                  elbo(m), z);
    fgm_model_free(m);
}
END_TEST

/* What vmp has no use for is refused: in its block (with the setting's
 * place), and as run options. */
START_TEST(test_refusals)
{
    static const char *const bad[] = {
        "var x in 0..1\ninfer vmp(damping = 0.5)\n",
        "var x in 0..1\ninfer vmp(schedule = parallel)\n",
        "var x in 0..1\ninfer vmp(projection = mean-square)\n",
        "var x in 0..1\ninfer vmp(burn_in = 3)\n",
    };
    fgm_ir *ir = NULL;
    fgm_model *m;
    fgm_run_opts ro;
    int i;

    for (i = 0; i < 4; i++) {
        ck_assert_int_eq(fgm_compile_string(bad[i], "t.fgm", NULL, &ir, NULL,
                                            NULL), FGM_ESEMA);
        ck_assert_ptr_null(ir);
    }
    m = interp(compile_text("var x in 0..1\ninfer vmp\n"));
    memset(&ro, 0, sizeof ro);
    ro.use_damping = 1;
    ro.damping = 0.3;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    memset(&ro, 0, sizeof ro);
    ro.restarts = FGM_MAX_RESTARTS + 1;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    ro.restarts = 3;
    ro.warm = 1;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    fgm_model_free(m);
    /* Restarts are mean field's: another algorithm refuses them. */
    m = interp(compile_text("var x in 0..1\ninfer ep\n"));
    memset(&ro, 0, sizeof ro);
    ro.restarts = 3;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_EINVAL);
    fgm_model_free(m);
    /* A damped model switched to vmp runs: its damping is the other
     * algorithm's, left unused. */
    {
        fgm_model_opts o;

        memset(&o, 0, sizeof o);
        o.backend = FGM_BACKEND_INTERPRETED;
        o.algo = "vmp";
        ck_assert_int_eq(fgm_model_open_ir(compile_text(
            "var x in 0..1\ninfer bp-sum(damping = 0.5)\n"), &o, &m, NULL,
            NULL), FGM_OK);
        ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
        fgm_model_free(m);
    }
}
END_TEST

/* A tolerance stops the run at its fixed point: the table model stops
 * far short of its 500 sweeps, its last change under the tolerance, and
 * one more sweep moves nothing by more. */
START_TEST(test_tolerance)
{
    fgm_model *m = interp(compile_text(TABLE3_TEXT));
    fgm_run_opts ro;
    fgm_run_info info;
    double before[3], after[3];
    int k;

    memset(&ro, 0, sizeof ro);
    ck_assert_int_eq(fgm_model_run(m, &ro, &info), FGM_OK);
    ck_assert_int_lt(info.sweeps, 100);
    ck_assert_int_gt(info.sweeps, 2);
    ck_assert_double_lt(info.change, 1e-15);
    fgm_model_marginal(m, 1, before);
    run_warm_sweep(m);
    fgm_model_marginal(m, 1, after);
    for (k = 0; k < 3; k++)
        ck_assert_double_eq_tol(before[k], after[k], 1e-15);
    fgm_model_free(m);
}
END_TEST

Suite *
vmp_suite(void)
{
    Suite *s = suite_create("vmp");
    TCase *core = tcase_create("core");
    TCase *limits = tcase_create("limits");
    TCase *errors = tcase_create("errors");

    tcase_set_timeout(core, 120);
    tcase_add_test(core, test_dice_exact);
    tcase_add_test(core, test_casino_observed);
    tcase_add_test(core, test_table_fixed_point);
    tcase_add_test(core, test_dice_fixed_point);
    tcase_add_test(core, test_mixture_fixed_point);
    tcase_add_test(core, test_point_mass_node);
    tcase_add_test(core, test_bound);
    tcase_add_test(core, test_stationary);
    tcase_add_test(core, test_warm);
    tcase_add_test(core, test_restarts);
    tcase_add_test(core, test_backends);
    tcase_add_test(core, test_tolerance);
    tcase_add_test(limits, test_hard_constraints);
    tcase_add_test(limits, test_table_zeros);
    tcase_add_test(errors, test_refusals);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    suite_add_tcase(s, errors);
    return s;
}
