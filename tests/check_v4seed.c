/* tests/check_v4seed.c: the seed's v4 arithmetic against a transcription of the seed's sweep.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * alldiff-max and alldiff-sum run notebook 001's v4 sweep (section 7;
 * its C# port in notebook 000 section 8) on the engine's model: a
 * flooding schedule with stored variable-to-factor messages (damp_both),
 * the native alldiff update fgm_k_alldiff_seed, the seed's BP_EPS floors
 * and offsets, clues and decisions as normalized (1e-12, ..., 1) rows
 * whose messages stay frozen (fgm_model_v2f_start, then each
 * fgm_model_observe_var).
 * Below, the seed's sweep is written out again over plain arrays, its
 * minors by brute force over the permutations, on a 4x4 Sudoku (12 units
 * of 4 cells); the engine's beliefs must match it after the cold run and
 * after a decision.
 */
#include <check.h>
#include <math.h>
#include <string.h>
#include "../runtime/model.h"
#include "suites.h"
#include "testutil.h"

#define N 4                 /* cells of a unit, values of a cell */
#define NCELL (N * N)
#define NUNIT (3 * N)
#define EPS 1e-12           /* the seed's BP_EPS */
#define DAMP 0.5

static const char grid4[] = "1.....2.........";

/* The seed's arrays: evidence, both messages of every (unit, slot). */
typedef struct ref_bp {
    int cells[NUNIT][N];
    double ev[NCELL][N];
    double c2f[NUNIT][N][N], f2c[NUNIT][N][N];
    int frozen[NCELL];      /* a clue or a decision: upd_mask off */
} ref_bp;

/* _bp_normalize: floor at BP_EPS, then sum 1. */
static void
nf(double *x)
{
    double s = 0.0;
    int v;

    for (v = 0; v < N; v++) {
        x[v] = x[v] > EPS ? x[v] : EPS;
        s += x[v];
    }
    for (v = 0; v < N; v++)
        x[v] /= s;
}

/* Max or sum over the injective maps of rows ROW.. (but I) to the values
 * not in USED of the product of their entries of Q. */
static double
minor_rec(double q[N][N], int i, int row, unsigned used, int maxp)
{
    double acc = 0.0, t;
    int w;

    if (row == N)
        return 1.0;
    if (row == i)
        return minor_rec(q, i, row + 1, used, maxp);
    for (w = 0; w < N; w++) {
        if (used >> w & 1)
            continue;
        t = q[row][w] * minor_rec(q, i, row + 1, used | 1u << w, maxp);
        acc = maxp ? (t > acc ? t : acc) : acc + t;
    }
    return acc;
}

static void
ref_open(ref_bp *r, const int *given)
{
    int u, s, c, v;

    memset(r, 0, sizeof *r);
    for (u = 0; u < N; u++)
        for (s = 0; s < N; s++) {
            r->cells[u][s] = u * N + s;                     /* rows */
            r->cells[N + u][s] = s * N + u;                 /* columns */
            r->cells[2 * N + u][s] = (u / 2 * 2 + s / 2) * N
                                     + u % 2 * 2 + s % 2;   /* boxes */
        }
    for (c = 0; c < NCELL; c++)
        for (v = 0; v < N; v++)
            r->ev[c][v] = 1.0 / N;
    for (c = 0; c < NCELL; c++)
        if (given[c] >= 0) {
            for (v = 0; v < N; v++)
                r->ev[c][v] = v == given[c] ? 1.0 : EPS;
            nf(r->ev[c]);
            r->frozen[c] = 1;
        }
    for (u = 0; u < NUNIT; u++)
        for (s = 0; s < N; s++)
            for (v = 0; v < N; v++) {
                r->c2f[u][s][v] = r->ev[r->cells[u][s]][v];
                r->f2c[u][s][v] = 1.0 / N;
            }
}

/* The seed's decision: evidence, then the cell's messages, frozen. */
static void
ref_fix(ref_bp *r, int cell, int value)
{
    int u, s, v;

    for (v = 0; v < N; v++)
        r->ev[cell][v] = v == value ? 1.0 : EPS;
    nf(r->ev[cell]);
    r->frozen[cell] = 1;
    for (u = 0; u < NUNIT; u++)
        for (s = 0; s < N; s++)
            if (r->cells[u][s] == cell)
                memcpy(r->c2f[u][s], r->ev[cell], sizeof r->ev[cell]);
}

static void
ref_log_total(const ref_bp *r, double tot[NCELL][N])
{
    int u, s, c, v;

    for (c = 0; c < NCELL; c++)
        for (v = 0; v < N; v++)
            tot[c][v] = log(r->ev[c][v] + EPS);
    for (u = 0; u < NUNIT; u++)
        for (s = 0; s < N; s++)
            for (v = 0; v < N; v++)
                tot[r->cells[u][s]][v] += log(r->f2c[u][s][v] + EPS);
}

static void
ref_sweeps(ref_bp *r, int n, int maxp)
{
    double q[N][N], nw[N], tot[NCELL][N], raw[N], mx;
    int it, u, s, v, j, c;

    for (it = 0; it < n; it++) {
        for (u = 0; u < NUNIT; u++) {
            for (j = 0; j < N; j++)
                for (v = 0; v < N; v++)
                    q[j][v] = maxp && r->c2f[u][j][v] < EPS
                              ? EPS : r->c2f[u][j][v];
            for (s = 0; s < N; s++) {
                mx = 0.0;
                for (v = 0; v < N; v++) {
                    nw[v] = r->frozen[r->cells[u][s]]
                            ? 0.0 : minor_rec(q, s, 0, 1u << v, maxp);
                    mx = nw[v] > mx ? nw[v] : mx;
                }
                for (v = 0; maxp && mx > 0.0 && v < N; v++)
                    nw[v] /= mx;
                nf(nw);
                for (v = 0; v < N; v++)
                    r->f2c[u][s][v] = DAMP * r->f2c[u][s][v]
                                      + (1 - DAMP) * nw[v];
                nf(r->f2c[u][s]);
            }
        }
        ref_log_total(r, tot);
        for (u = 0; u < NUNIT; u++)
            for (s = 0; s < N; s++) {
                c = r->cells[u][s];
                if (r->frozen[c])
                    continue;
                mx = -HUGE_VAL;
                for (v = 0; v < N; v++) {
                    raw[v] = tot[c][v] - log(r->f2c[u][s][v] + EPS);
                    mx = raw[v] > mx ? raw[v] : mx;
                }
                for (v = 0; v < N; v++)
                    raw[v] = exp(raw[v] - mx);
                nf(raw);
                for (v = 0; v < N; v++)
                    r->c2f[u][s][v] = DAMP * r->c2f[u][s][v]
                                      + (1 - DAMP) * raw[v];
                nf(r->c2f[u][s]);
            }
    }
}

/* The largest difference between the logs of the engine's beliefs and
 * the seed's: relative, so that the entries near the floors count (an
 * absolute difference missed the BP_EPS offsets and floors). */
static double
belief_gap(const fgm_model *m, const ref_bp *r)
{
    double tot[NCELL][N], mx, sum, gap = 0.0, d;
    int c, v;

    ref_log_total(r, tot);
    for (c = 0; c < NCELL; c++) {
        mx = -HUGE_VAL;
        for (v = 0; v < N; v++)
            mx = tot[c][v] > mx ? tot[c][v] : mx;
        for (sum = 0.0, v = 0; v < N; v++)
            sum += exp(tot[c][v] - mx);
        for (v = 0; v < N; v++) {
            d = fabs(tot[c][v] - mx - log(sum)
                     - log(m->st.belief[(size_t)c
                                        * (size_t)m->sched->stride
                                        + (size_t)v]));
            if (!(d <= gap))    /* a NaN belief makes the gap NaN */
                gap = d;
        }
    }
    return gap;
}

/* IR (owned from now on) opened interpreted. */
static fgm_model *
open_interpreted(fgm_ir *ir)
{
    fgm_model_opts o;
    fgm_model *m = NULL;

    ck_assert_ptr_nonnull(ir);
    memset(&o, 0, sizeof o);
    o.backend = FGM_BACKEND_INTERPRETED;
    ck_assert_int_eq(fgm_model_open_ir(ir, &o, &m, NULL, NULL), FGM_OK);
    return m;
}

/* The engine's v4 model of the 4x4 Sudoku, interpreted, clues clamped. */
static fgm_model *
open_v4(fgm_algo algo, const int *given)
{
    fgm_ir *ir = fgm_ir_sudoku(2);
    fgm_model *m;
    int c;

    ck_assert_ptr_nonnull(ir);
    ir->infer.algo = algo;
    ir->infer.alldiff = FGM_ALLDIFF_NATIVE;
    ir->infer.schedule = FGM_SCHEDULE_PARALLEL;
    ir->infer.damping = DAMP;
    ir->infer.damp_both = 1;
    m = open_interpreted(ir);
    ck_assert_int_eq(fgm_model_set_clamp_epsilon(m, EPS), FGM_OK);
    for (c = 0; c < NCELL; c++)
        if (given[c] >= 0)
            ck_assert_int_eq(fgm_model_observe_var(m, c, given[c]), FGM_OK);
    return m;
}

static void
warm_run(fgm_model *m, int sweeps)
{
    fgm_run_opts ro;

    memset(&ro, 0, sizeof ro);
    ro.iterations = sweeps;
    ro.warm = 1;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
}

/* The cold run (30 sweeps) then a decision on the least sure free cell
 * and 4 sweeps: the engine's beliefs are the seed's, to rounding. */
static void
check_against_seed(fgm_algo algo)
{
    int given[NCELL], c, pick = -1, maxp = algo == FGM_ALGO_BP_MAX;
    fgm_model *m;
    ref_bp r;
    double gap;

    ck_assert_int_eq(test_given(grid4, given), NCELL);
    m = open_v4(algo, given);
    ref_open(&r, given);
    ck_assert_int_eq(fgm_model_v2f_start(m, 0.0, 0), FGM_OK);
    warm_run(m, 30);
    ref_sweeps(&r, 30, maxp);
    gap = belief_gap(m, &r);
    ck_assert_msg(gap < 1e-9, "cold run: beliefs %.3g from the seed's", gap);
    for (c = 0; c < NCELL && pick < 0; c++)
        if (given[c] < 0)
            pick = c;
    /* A value the beliefs do not favour, so that the decision moves
     * them. */
    ck_assert_int_eq(fgm_model_observe_var(m, pick, 3), FGM_OK);
    ref_fix(&r, pick, 3);
    warm_run(m, 4);
    ref_sweeps(&r, 4, maxp);
    gap = belief_gap(m, &r);
    ck_assert_msg(gap < 1e-9, "after a decision: beliefs %.3g from the "
                  "seed's", gap);
    fgm_model_free(m);
}

START_TEST(max_product_is_the_seeds)
{
    check_against_seed(FGM_ALGO_BP_MAX);
}
END_TEST

START_TEST(sum_product_is_the_seeds)
{
    check_against_seed(FGM_ALGO_BP_SUM);
}
END_TEST

/* The frozen messages of a clue stay its evidence row, bit for bit,
 * through the sweeps; a free cell's move. */
START_TEST(clue_messages_stay_frozen)
{
    int given[NCELL], c, e, j, moved = 0;
    fgm_model *m;
    const fgm_sched *s;
    double row[N];

    ck_assert_int_eq(test_given(grid4, given), NCELL);
    m = open_v4(FGM_ALGO_BP_MAX, given);
    s = m->sched;
    ck_assert_int_eq(fgm_model_v2f_start(m, 0.6, 7), FGM_OK);
    warm_run(m, 10);
    for (c = 0; c < NCELL; c++)
        for (e = s->var_edge_off[c]; e < s->var_edge_off[c + 1]; e++) {
            const double *p = m->st.prev + (size_t)s->var_edges[e]
                                           * (size_t)s->stride;

            if (given[c] < 0) {
                moved += fabs(p[0] - 0.25) > 1e-6;
                continue;
            }
            /* The noise multiplied the clue's row at the start: it is
             * still a normalized row, the clue's value near 1. */
            ck_assert_double_gt(p[given[c]], 0.99);
            memcpy(row, p, sizeof row);
            warm_run(m, 1);
            for (j = 0; j < N; j++)
                ck_assert_double_eq(p[j], row[j]);
        }
    ck_assert_int_gt(moved, 0);
    fgm_model_free(m);
}
END_TEST

/* The stored messages fgm_model_v2f_start leaves: without noise a free
 * cell's are its uniform evidence; with noise each is moved, another
 * seed moving it otherwise.  Clues are pinned, free cells not; a value
 * observed then pins its cell and sets its messages to the evidence, and
 * freeing it unpins it; a cold run, or fgm_model_clear, unpins
 * everything. */
START_TEST(start_noise_and_pins)
{
    int given[NCELL], c, j, free_cell = -1, clue = -1;
    fgm_model *m;
    const double *p;
    double a[N], sum;

    ck_assert_int_eq(test_given(grid4, given), NCELL);
    m = open_v4(FGM_ALGO_BP_MAX, given);
    for (c = 0; c < NCELL; c++) {
        if (given[c] < 0 && free_cell < 0)
            free_cell = c;
        if (given[c] >= 0 && clue < 0)
            clue = c;
    }
    p = m->st.prev + (size_t)m->sched->var_edges[m->sched->var_edge_off
                                                 [free_cell]]
                     * (size_t)m->sched->stride;
    ck_assert_int_eq(fgm_model_v2f_start(m, 0.0, 0), FGM_OK);
    for (j = 0; j < N; j++)
        ck_assert_double_eq(p[j], 1.0 / N);
    ck_assert_int_eq(m->pinned[clue], 1);
    ck_assert_int_eq(m->pinned[free_cell], 0);
    ck_assert_int_eq(fgm_model_v2f_start(m, 0.6, 1), FGM_OK);
    for (sum = 0.0, j = 0; j < N; j++) {
        a[j] = p[j];
        sum += p[j];
    }
    ck_assert_double_eq_tol(sum, 1.0, 1e-15);
    for (c = 0, j = 0; j < N; j++)
        c += fabs(a[j] - 1.0 / N) > 1e-3;
    ck_assert_int_gt(c, 0);
    ck_assert_int_eq(fgm_model_v2f_start(m, 0.6, 2), FGM_OK);
    for (c = 0, j = 0; j < N; j++)
        c += p[j] != a[j];
    ck_assert_int_gt(c, 0);
    ck_assert_int_eq(fgm_model_observe_var(m, free_cell, 1), FGM_OK);
    ck_assert_int_eq(m->pinned[free_cell], 1);
    ck_assert_double_gt(p[1], 1.0 - 1e-9);
    warm_run(m, 2);
    ck_assert_double_gt(p[1], 1.0 - 1e-9);
    ck_assert_int_eq(fgm_model_observe_var(m, free_cell, -1), FGM_OK);
    ck_assert_int_eq(m->pinned[free_cell], 0);      /* freed: moves again */
    ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);     /* cold */
    for (c = 0; c < NCELL; c++)
        ck_assert_int_eq(m->pinned[c], 0);
    ck_assert_int_eq(fgm_model_v2f_start(m, 0.0, 0), FGM_OK);
    fgm_model_clear(m);
    for (c = 0; c < NCELL; c++)
        ck_assert_int_eq(m->pinned[c], 0);
    fgm_model_free(m);
}
END_TEST

/* Only the seed's flooding schedule has stored messages to start. */
START_TEST(v2f_start_refuses_other_models)
{
    fgm_model *m = open_interpreted(fgm_ir_sudoku(2));

    ck_assert_int_eq(fgm_model_v2f_start(m, 0.0, 0), FGM_EINVAL);
    fgm_model_free(m);
}
END_TEST

Suite *
v4seed_suite(void)
{
    Suite *s = suite_create("v4seed");
    TCase *tc = tcase_create("seed");

    tcase_add_test(tc, max_product_is_the_seeds);
    tcase_add_test(tc, sum_product_is_the_seeds);
    tcase_add_test(tc, clue_messages_stay_frozen);
    tcase_add_test(tc, start_noise_and_pins);
    tcase_add_test(tc, v2f_start_refuses_other_models);
    suite_add_tcase(s, tc);
    return s;
}
