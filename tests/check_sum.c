/* tests/check_sum.c: the sum factor (runtime/ops/sum.h) against brute
 * force, a log-domain oracle and the table it stands for.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The kernel's messages are checked against enumeration of every tuple
 * in long double (small factors, zeros and tiny entries among the
 * cavities, every kind of range: ==, one-sided, two-sided), and against
 * a partial-sum programme of the test's own in logs on sums of hundreds
 * of variables, where products of their entries leave the doubles;
 * inside the engine, a model with sums against the same model with each
 * sum written as a 0/1 table, on every algorithm and the exact backend,
 * and the shipped Killer Sudoku on both backends.
 */
#include <check.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model.h"
#include "suites.h"
#include "testutil.h"

#define MAXN 5              /* brute force: variables of a factor */
#define MAXK 5              /* and values of a variable */
#define SS 8                /* stride of the brute-force fixtures */

/* The sum (MAXP: largest) over tuples of the N variables (sizes CARD,
 * coefficients COEF or NULL for 1 each) with x_I = V and a weighted sum
 * of indices in [LO, HI] of the product of the other variables'
 * cavities CAV (rows SS apart). */
static long double
brute_message(const double *cav, const int *card, const double *coef, int n,
              int i, int v, long lo, long hi, int maxp)
{
    int x[MAXN] = { 0 }, j;
    long double acc = 0.0L, w;
    long total;

    for (;;) {
        if (x[i] == v) {
            for (j = 0, total = 0, w = 1.0L; j < n; j++) {
                total += (coef ? (long)coef[j] : 1) * x[j];
                if (j != i)
                    w *= cav[j * SS + x[j]];
            }
            if (total >= lo && total <= hi)
                acc = maxp ? (w > acc ? w : acc) : acc + w;
        }
        for (j = n - 1; j >= 0 && ++x[j] == card[j]; j--)
            x[j] = 0;
        if (j < 0)
            return acc;
    }
}

/* Message ROW (K entries) after a commit without damping is WANT (K
 * entries, unnormalized; all 0: the uniform row) normalized and floored
 * as fgm_k_commit does. */
static void
assert_committed(const double *row, const long double *want, int k,
                 const char *what)
{
    long double z = 0.0L, e;
    int v;

    for (v = 0; v < k; v++)
        z += want[v];
    for (v = 0; v < k; v++) {
        e = z > 0.0L ? want[v] / z : 1.0L / k;
        if (e < FGM_K_TABLE_FLOOR)
            e = FGM_K_TABLE_FLOOR;
        ck_assert_msg(fabsl(row[v] - e) <= 1e-12L * e + 1e-300L,
                      "%s value %d: %.17g, want %.17Lg", what, v, row[v], e);
    }
}

/* A range of index sums of kind KIND over [L, L + T]: 0 a point, 1
 * from L (`<=`), 2 up to L + T (`>=`), 3 two-sided; sometimes out of
 * reach. */
static void
random_range(gsl_rng *r, long l, long t, int kind, long *lo, long *hi)
{
    long a = (long)gsl_rng_uniform_int(r, (unsigned long)t + 3) - 1;
    long b = a + (long)gsl_rng_uniform_int(r, (unsigned long)t + 1);

    a = a < 0 ? 0 : a;
    *lo = l + (kind == 1 ? 0 : a);
    *hi = l + (kind == 0 ? a : kind == 2 ? t : b);
}

/* Random factors of 1..MAXN variables of 1..MAXK values, with unit
 * coefficients (NULL) or integers in -3..3 other than 0: every message
 * of one update against brute force, and each belief = cavity times
 * message, for sum- and max-product. */
START_TEST(test_messages_brute_force)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double belief[MAXN * SS], msg[MAXN * SS], cav[MAXN * SS];
    double *scratch, z, lm[MAXK], coefs[MAXN], *coef;
    long double want[MAXK];
    int vars[MAXN], card[MAXN], pc[MAXN], trial, n, i, v, maxp;
    long t, lo, hi, least;
    fgm_state st;
    char what[96];

    gsl_rng_set(r, 20261206);
    for (trial = 0; trial < 1500; trial++) {
        n = 1 + (int)gsl_rng_uniform_int(r, MAXN);
        maxp = trial % 2;
        coef = trial / 8 % 2 ? coefs : NULL;
        for (i = 0; i < n; i++) {
            vars[i] = n - 1 - i;    /* edges and variables in other orders */
            card[vars[i]] = 1 + (int)gsl_rng_uniform_int(r, MAXK);
            coefs[i] = (double)gsl_rng_uniform_int(r, 3) + 1.0;
            coefs[i] *= gsl_rng_uniform(r) < 0.5 ? -1.0 : 1.0;
        }
        t = fgm_k_sum_span(vars, card, 0, coef, n);
        least = fgm_k_sum_least(vars, card, 0, coef, n);
        for (i = 0; i < n; i++)     /* by position, for brute force */
            pc[i] = card[vars[i]];
        random_range(r, least, t, trial / 2 % 4, &lo, &hi);
        memset(&st, 0, sizeof st);
        memset(belief, 0, sizeof belief);
        for (i = 0; i < n; i++)
            for (v = 0, z = 0.0; v < card[vars[i]]; v++) {
                double u = gsl_rng_uniform(r);

                belief[vars[i] * SS + v] = u < 0.1 ? 0.0 : u < 0.2 ? 1e-60 * u
                                           : u;
                msg[i * SS + v] = 0.2 + gsl_rng_uniform(r);
                z += belief[vars[i] * SS + v] / msg[i * SS + v];
            }
        /* The cavities, as the kernel forms them (a zero row: uniform). */
        for (i = 0; i < n; i++) {
            int k = card[vars[i]];

            for (v = 0, z = 0.0; v < k; v++)
                z += cav[i * SS + v] = belief[vars[i] * SS + v]
                                       / msg[i * SS + v];
            for (v = 0; v < k; v++)
                cav[i * SS + v] = z > 0.0 ? cav[i * SS + v] / z : 1.0 / k;
        }
        /* Exactly the scratch it asks for: ASan sees an overrun. */
        scratch = malloc((size_t)fgm_k_sum_scratch(n, t, SS)
                         * sizeof *scratch);
        ck_assert_ptr_nonnull(scratch);
        st.belief = belief;
        st.msg = msg;
        st.scratch = scratch;
        fgm_k_sum(&st, 0, vars, card, 0, coef, n, lo, hi, SS, maxp,
                  scratch);
        for (i = 0; i < n; i++) {
            int k = card[vars[i]];
            double b[MAXK], bz = 0.0;

            for (v = 0; v < k; v++)
                want[v] = brute_message(cav, pc, coef, n, i, v, lo, hi,
                                        maxp);
            snprintf(what, sizeof what, "trial %d (n %d, %ld..%ld of %ld "
                     "from %ld, %s, %s) edge %d", trial, n, lo, hi, t, least,
                     maxp ? "max" : "sum", coef ? "weighted" : "unit", i);
            assert_committed(msg + i * SS, want, k, what);
            /* The log-domain path the kernel falls back on, alone. */
            fgm_k_sum_log_message(lm, cav, vars, card, 0, coef, n, i,
                                  lo - least, hi - least, SS, maxp, scratch,
                                  scratch + t + 1);
            for (v = 0, z = 0.0; v < k; v++)
                z += lm[v];
            for (v = 0; v < k; v++)
                lm[v] = z > 0.0 ? fmax(lm[v] / z, FGM_K_TABLE_FLOOR)
                                : FGM_K_TABLE_FLOOR;
            if (z > 0.0)
                assert_committed(lm, want, k, what);
            /* Sequential: the belief is the cavity times the message. */
            for (v = 0; v < k; v++)
                bz += b[v] = cav[i * SS + v] * msg[i * SS + v];
            for (v = 0; bz > 0.0 && v < k; v++)
                ck_assert_msg(fabs(belief[vars[i] * SS + v] - b[v] / bz)
                              <= 1e-13, "%s: belief %d", what, v);
        }
        free(scratch);
    }
    gsl_rng_free(r);
}
END_TEST

/* log(exp(A) + exp(B)), or the max with MAXP. */
static double
log_add(double a, double b, int maxp)
{
    if (maxp || a == -HUGE_VAL || b == -HUGE_VAL)
        return a > b ? a : b;
    return a > b ? a + log1p(exp(b - a)) : b + log1p(exp(a - b));
}

/* The message to the variable at position I of a sum over N variables
 * of K values each (log cavities LC, rows K apart) with index sums in
 * [LO, HI], in logs: every partial sum's log weight, programme of its
 * own (no scaling). */
static void
log_message(const double *lc, int n, int k, int i, long lo, long hi,
            int maxp, double *out)
{
    long t = (long)(n - 1) * (k - 1), s;
    double *d = malloc((size_t)(t + 1) * sizeof *d);
    double *e = malloc((size_t)(t + 1) * sizeof *e);
    int j, y, v;

    ck_assert(d && e);
    for (s = 0; s <= t; s++)
        d[s] = s == 0 ? 0.0 : -HUGE_VAL;
    for (j = 0, t = 0; j < n; j++) {
        if (j == i)
            continue;
        for (s = 0; s <= t + k - 1; s++)
            e[s] = -HUGE_VAL;
        for (s = 0; s <= t; s++)
            for (y = 0; y < k; y++)
                e[s + y] = log_add(e[s + y], d[s] + lc[j * k + y], maxp);
        t += k - 1;
        memcpy(d, e, (size_t)(t + 1) * sizeof *d);
    }
    for (v = 0; v < k; v++) {
        out[v] = -HUGE_VAL;
        for (s = 0; s <= t; s++)
            if (s + v >= lo && s + v <= hi)
                out[v] = log_add(out[v], d[s], maxp);
    }
    free(d);
    free(e);
}

/* One update of a sum over N variables of 9 values, each cavity entry
 * 10^(-SPREAD u) (u uniform) before normalizing, against the log-domain
 * programme at every STEP-th edge, for the NR ranges RANGES (index
 * sums), max-product (MAXP 1), sum-product (0) or both (2). */
static void
check_long_sum(int n, double spread, const long (*ranges)[2], int nr,
               int step, int maxps)
{
    enum { K = 9, S = 12 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double *belief = calloc((size_t)n * S, sizeof *belief);
    double *msg = malloc((size_t)n * S * sizeof *msg);
    double *lc = malloc((size_t)n * K * sizeof *lc);
    double *scratch = malloc((size_t)fgm_k_sum_scratch(n, n * (K - 1), S)
                             * sizeof *scratch);
    int *vars = malloc((size_t)n * sizeof *vars), c, maxp, i, v;
    double want[K], top, z;
    fgm_state st;

    ck_assert(belief && msg && lc && scratch && vars);
    gsl_rng_set(r, 7);
    for (i = 0; i < n; i++)
        vars[i] = i;
    for (c = 0; c < 2 * nr; c++) {
        maxp = c % 2;
        if (maxps != 2 && maxp != maxps)
            continue;
        for (i = 0; i < n; i++) {
            for (v = 0, z = 0.0; v < K; v++) {
                belief[i * S + v] = pow(10.0, -spread * gsl_rng_uniform(r));
                msg[i * S + v] = 1.0;
                z += belief[i * S + v];
            }
            for (v = 0; v < K; v++)
                lc[i * K + v] = log(belief[i * S + v] / z);
        }
        memset(&st, 0, sizeof st);
        st.belief = belief;
        st.msg = msg;
        st.scratch = scratch;
        fgm_k_sum(&st, 0, vars, NULL, K, NULL, n, ranges[c / 2][0],
                  ranges[c / 2][1], S, maxp, scratch);
        for (i = 0; i < n; i += step) {
            log_message(lc, n, K, i, ranges[c / 2][0], ranges[c / 2][1],
                        maxp, want);
            for (v = 0, top = -HUGE_VAL; v < K; v++)
                top = want[v] > top ? want[v] : top;
            for (v = 0, z = 0.0; v < K; v++)
                z += want[v] = exp(want[v] - top);
            for (v = 0; v < K; v++) {
                double e = fmax(want[v] / z, FGM_K_TABLE_FLOOR);

                ck_assert_msg(fabs(msg[i * S + v] - e) <= 1e-9 * e + 1e-300,
                              "n %d range %d %s, edge %d value %d: %.17g, "
                              "want %.17g", n, c / 2, maxp ? "max" : "sum",
                              i, v, msg[i * S + v], e);
            }
        }
    }
    gsl_rng_free(r);
    free(belief);
    free(msg);
    free(lc);
    free(scratch);
    free(vars);
}

/* 120 variables, cavities spread over 1e-40..1 (their products leave
 * the doubles: 1e-20 each on average), for ==, <= and a two-sided
 * range; and max-product over 400 nearly uniform ones, whose best
 * assignment weighs (1/9)^400 = 1e-382: the kernel's partial sums,
 * scaled step by step, stay in range. */
START_TEST(test_long_sum_log_oracle)
{
    static const long spread[3][2] = { { 480, 480 }, { 0, 450 },
                                       { 470, 500 } };
    static const long middle[1][2] = { { 1600, 1600 } };

    check_long_sum(120, 40.0, spread, 3, 10, 2);
    check_long_sum(400, 0.05, middle, 1, 399, 1);
}
END_TEST

/* A model of three variables of unequal domains, with evidence and a
 * soft table, and ("%s") one constraint on their sum. */
#define SUM3_HEAD \
    "var x in 1..3\nvar y in 0..3\nvar z in -1..2\n" \
    "evidence x = [0.2, 0.5, 0.3]\nevidence z = [1, 2, 3, 0.5]\n" \
    "table (x, y) = [[1, 2, 1, 3], [2, 1, 4, 1], [1, 1, 2, 5]]\n"

/* Into BUF: the 0/1 table over (x, y, z) of SUM3_HEAD's domains that
 * holds where A[0] x + A[1] y + A[2] z OP TOTAL. */
static void
sum3_table(char *buf, size_t size, const char *op, int total, const int *a)
{
    size_t at = (size_t)snprintf(buf, size, "table (x, y, z) = [");
    int x, y, z, s, ok;

    for (x = 1; x <= 3; x++) {
        at += (size_t)snprintf(buf + at, size - at, "%s[", x > 1 ? ", " : "");
        for (y = 0; y <= 3; y++) {
            at += (size_t)snprintf(buf + at, size - at, "%s[",
                                   y > 0 ? ", " : "");
            for (z = -1; z <= 2; z++) {
                s = a[0] * x + a[1] * y + a[2] * z;
                ok = !strcmp(op, "==") ? s == total
                     : !strcmp(op, "<") ? s < total
                     : !strcmp(op, "<=") ? s <= total
                     : !strcmp(op, ">") ? s > total : s >= total;
                at += (size_t)snprintf(buf + at, size - at, "%s%d",
                                       z > -1 ? ", " : "", ok);
            }
            at += (size_t)snprintf(buf + at, size - at, "]");
        }
        at += (size_t)snprintf(buf + at, size - at, "]");
    }
    snprintf(buf + at, size - at, "]\n");
}

/* Opens TEXT interpreted, runs it cold from seed 5 and returns it (log Z
 * in *LZ unless LZ is NULL). */
static fgm_model *
run_text(const char *text, double *lz)
{
    fgm_model *m = open_backend(compile_text(text), FGM_BACKEND_INTERPRETED,
                                NULL);
    fgm_run_opts ro;

    memset(&ro, 0, sizeof ro);
    ro.seed = 5;
    ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
    if (lz)
        ck_assert_int_eq(fgm_model_log_evidence(m, lz), FGM_OK);
    return m;
}

/* The exact marginals (rows of fgm_csp_maxcard) and log Z of IR, by
 * enumeration, which variable elimination must give too (with ELIM: a
 * model whose tables fit it and whose weights stay within the
 * doubles); the IR is freed.  Returns the rows (the caller
 * frees). */
static double *
exact_rows(fgm_ir *ir, double *lz, int elim)
{
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    fgm_elim_info info;
    double *rows, *el;
    size_t n, i;

    ck_assert_ptr_nonnull(csp);
    n = (size_t)ir->nvars * (size_t)fgm_csp_maxcard(csp);
    rows = malloc(n * sizeof *rows);
    el = malloc(n * sizeof *el);
    ck_assert(rows && el);
    ck_assert_int_eq(fgm_enumerate_log_z(csp, NULL, 0, 0, rows, NULL, 0,
                                         NULL, lz), FGM_OK);
    if (elim) {
        ck_assert_int_eq(fgm_eliminate(csp, NULL, 0, 0, 0, el, &info),
                         FGM_OK);
        ck_assert_msg(fabs(info.log_z - *lz) <= 1e-12 * (1 + fabs(*lz)),
                      "log Z: elimination %.17g, enumeration %.17g",
                      info.log_z, *lz);
    }
    for (i = 0; elim && i < n; i++)
        ck_assert_msg(fabs(el[i] - rows[i]) <= 1e-12, "entry %zu: "
                      "elimination %.17g, enumeration %.17g", i, el[i],
                      rows[i]);
    free(el);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
    return rows;
}

/* The model with `sum(x, y, z) OP total` (or with coefficients, `sum(2
 * * x, -y, 3 * z)`) and the same model with the table it stands for:
 * the same marginals and log Z on every algorithm (gibbs: the same
 * draws, and no log Z; on unit coefficients only: while variables have
 * no value, its first sweep bounds a sum by their least and largest
 * values where it skips a table, and under `==` a chain keeps the
 * solution it starts from) and by enumeration. */
START_TEST(test_engine_against_table)
{
    static const char *const algos[] = {
        "ep", "bp-sum", "bp-max", "vmp", "gibbs"
    };
    static const struct { const char *op; int total, a[3]; } cons[] = {
        { "==", 4, { 1, 1, 1 } }, { "<=", 2, { 1, 1, 1 } },
        { "<", 6, { 1, 1, 1 } }, { ">", 5, { 1, 1, 1 } },
        { ">=", 7, { 1, 1, 1 } }, { "==", 0, { 1, 1, 1 } },
        { "<=", 4, { 2, -1, 3 } }, { "==", 3, { -2, 3, 1 } },
        { ">", 0, { 1, -1, 2 } }, { ">=", -1, { 3, 2, -5 } }
    };
    char a[2048], b[4096], table[2048];
    double pa[8], pb[8], la = 0.0, lb = 0.0, *ea, *eb;
    size_t c, g;
    int v, x;

    for (c = 0; c < sizeof cons / sizeof cons[0]; c++) {
        sum3_table(table, sizeof table, cons[c].op, cons[c].total,
                   cons[c].a);
        for (g = 0; g < 5; g++) {
            fgm_model *ma, *mb;

            if (g == 4 && (cons[c].a[0] != 1 || cons[c].a[1] != 1
                           || cons[c].a[2] != 1))
                continue;

            snprintf(a, sizeof a, SUM3_HEAD "sum(%d * x, y * %d, -(%d * z)) "
                     "%s %d\ninfer %s(iterations = %d)\n", cons[c].a[0],
                     cons[c].a[1], -cons[c].a[2], cons[c].op, cons[c].total,
                     algos[g], g == 4 ? 300 : 40);
            snprintf(b, sizeof b, SUM3_HEAD "%sinfer %s(iterations = %d)\n",
                     table, algos[g], g == 4 ? 300 : 40);
            ma = run_text(a, g == 4 ? NULL : &la);
            mb = run_text(b, g == 4 ? NULL : &lb);
            ck_assert_msg(la == lb || fabs(la - lb) <= 1e-9 * (1 + fabs(lb)),
                          "%s %d, %s: log Z %.17g, table %.17g", cons[c].op,
                          cons[c].total, algos[g], la, lb);
            for (v = 0; v < 3; v++) {
                ck_assert_int_eq(fgm_model_marginal(ma, v, pa), FGM_OK);
                ck_assert_int_eq(fgm_model_marginal(mb, v, pb), FGM_OK);
                for (x = 0; x < 4; x++)
                    ck_assert_msg(fabs(pa[x] - pb[x]) <= 1e-9, "%s %d, %s, "
                                  "var %d value %d: %.17g, table %.17g",
                                  cons[c].op, cons[c].total, algos[g], v, x,
                                  pa[x], pb[x]);
            }
            fgm_model_free(ma);
            fgm_model_free(mb);
        }
        ea = exact_rows(compile_text(a), &la, 1);
        eb = exact_rows(compile_text(b), &lb, 1);
        ck_assert_msg(fabs(la - lb) <= 1e-12 * (1 + fabs(lb)), "%s %d exact: "
                      "log Z %.17g, table %.17g", cons[c].op, cons[c].total,
                      la, lb);
        for (x = 0; x < 3 * 4; x++)
            ck_assert_msg(fabs(ea[x] - eb[x]) <= 1e-12, "%s %d exact, entry "
                          "%d: %.17g, table %.17g", cons[c].op, cons[c].total,
                          x, ea[x], eb[x]);
        free(ea);
        free(eb);
    }
}
END_TEST

/* The shipped Killer Sudoku: one solution by enumeration, which bp-sum
 * alone finds (every belief a point mass on it), the plugin giving the
 * interpreter's bits; Dancing Links declines it (not an exact cover). */
START_TEST(test_killer_model)
{
    fgm_ir *ir = NULL;
    fgm_model *mi, *mc;
    fgm_run_opts ro;
    fgm_status st;
    fgm_csp *csp;
    double pi[9], pc[9], *pe, lz;
    int v, x, best;

    ck_assert_int_eq(fgm_compile_file("models/killer.fgm", NULL, &ir, NULL,
                                      NULL), FGM_OK);
    csp = fgm_csp_new(ir, &st);
    ck_assert_ptr_nonnull(fgm_dlx_refuses(csp));
    fgm_csp_free(csp);
    mi = open_backend(fgm_ir_copy(ir), FGM_BACKEND_INTERPRETED, NULL);
    mc = open_backend(fgm_ir_copy(ir), FGM_BACKEND_COMPILED, NULL);
    pe = exact_rows(ir, &lz, 0);
    ck_assert_msg(fabs(lz) < 1e-12, "log Z %.17g: not one solution", lz);
    memset(&ro, 0, sizeof ro);
    ck_assert_int_eq(fgm_model_run(mi, &ro, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_run(mc, &ro, NULL), FGM_OK);
    for (v = 0; v < 81; v++) {
        ck_assert_int_eq(fgm_model_marginal(mi, v, pi), FGM_OK);
        ck_assert_int_eq(fgm_model_marginal(mc, v, pc), FGM_OK);
        for (x = 0, best = -1; x < 9; x++) {
            ck_assert_msg(memcmp(&pi[x], &pc[x], sizeof pc[x]) == 0,
                          "cell %d value %d: interpreted %.17g, compiled "
                          "%.17g", v, x, pi[x], pc[x]);
            if (pe[v * 9 + x] == 1.0)
                best = x;
        }
        ck_assert_int_ge(best, 0);
        ck_assert_msg(pi[best] > 1.0 - 1e-9, "cell %d: bp-sum %.17g on the "
                      "solution's value", v, pi[best]);
    }
    free(pe);
    fgm_model_free(mi);
    fgm_model_free(mc);
}
END_TEST

/* Sums the cavities make unlikely, in the tails of their distribution:
 * five variables of evidence [1, 1e-100] summing to 5, forty of [1,
 * 1e-10 x 7, 2e-10] summing to 319 or more (each at its largest value
 * but one at most), a chain of them.  Trees: bp-sum is exact, marginals
 * and log Z, and bp-max's log of the largest weight is the most
 * probable assignment's, its beliefs' argmax that assignment, on both
 * backends (scaled at the mode, the messages underflowed to 0 and the
 * factor fell silent: uniform messages, log Z -inf). */
START_TEST(test_tails_exact)
{
    static const char *const texts[] = {
        "var x[5] in 0..1\nevidence x[i] = [1, 1e-100] for i in 0..4\n"
        "sum x == 5\n",
        "var x[40] in 0..8\nevidence x[i] = [1, 1e-10, 1e-10, 1e-10, "
        "1e-10, 1e-10, 1e-10, 1e-10, 2e-10] for i in 0..39\n"
        "sum x >= 319\n",
        "var x[6] in 0..2\nevidence x[i] = [1, 1e-90, 1e-180] for i in "
        "0..5\nsum x[0..2] == 6\nsum x[3..5] <= 0\n"
        "table (x[2], x[3]) = [[1, 2, 1], [3, 1, 1], [1, 1, 5]]\n",
    };
    char text[512];
    double *pe, lz, lb, p[16];
    int map[40], a, b, v, x, best;
    size_t t;

    for (t = 0; t < sizeof texts / sizeof *texts; t++)
        for (a = 0; a < 2; a++) {
            fgm_ir *ir;
            fgm_status st;
            fgm_csp *csp;

            snprintf(text, sizeof text, "%sinfer %s(iterations = 3)\n",
                     texts[t], a ? "bp-max" : "bp-sum");
            ir = compile_text(text);
            csp = fgm_csp_new(ir, &st);
            ck_assert_ptr_nonnull(csp);
            pe = a ? NULL : exact_rows(fgm_ir_copy(ir), &lz, 0);
            if (a)
                ck_assert_int_eq(fgm_enumerate_map(csp, NULL, 0, 0, map, &lz,
                                                   NULL), FGM_OK);
            fgm_csp_free(csp);
            for (b = 0; b < 2; b++) {
                fgm_model *m = open_backend(fgm_ir_copy(ir),
                                            b ? FGM_BACKEND_COMPILED
                                              : FGM_BACKEND_INTERPRETED,
                                            NULL);
                int k = fgm_ir_card(ir, 0);

                ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
                ck_assert_int_eq(fgm_model_log_evidence(m, &lb), FGM_OK);
                ck_assert_msg(fabs(lb - lz) <= 1e-9 * fabs(lz), "model %zu "
                              "%d: log Z %.17g, exact %.17g", t, a, lb, lz);
                for (v = 0; v < ir->nvars; v++) {
                    ck_assert_int_eq(fgm_model_marginal(m, v, p), FGM_OK);
                    for (x = 0, best = 0; x < k; x++) {
                        best = p[x] > p[best] ? x : best;
                        ck_assert_msg(a || fabs(p[x] - pe[v * k + x])
                                           <= 1e-9, "model %zu var %d "
                                      "value %d: %.17g, exact %.17g", t, v,
                                      x, p[x], pe[v * k + x]);
                    }
                    ck_assert(!a || best == map[v]);
                }
                fgm_model_free(m);
            }
            free(pe);
            fgm_ir_free(ir);
        }
}
END_TEST

/* fgm_ir_add_factor's checks of a sum: whole-number bounds lo <= hi
 * within an int that meet the weighted sums' reach (0..9 for three
 * variables of 1..4 and unit coefficients; -30..6 with 1, 1, -10), then
 * one whole nonzero coefficient a variable of at most
 * FGM_IR_SUM_MAXCOEF in size, each variable once. */
START_TEST(test_ir_checks)
{
    static const int scope[3] = { 0, 1, 2 }, twice[3] = { 0, 1, 0 };
    static const struct {
        const int *scope;
        int nparams;
        double p[5];
        int ok;
    } cases[] = {
        { scope, 5, { 2, 5, 1, 1, 1 }, 1 }, { scope, 5, { 9, 9, 1, 1, 1 }, 1 },
        { scope, 2, { 2, 5 }, 0 }, { scope, 5, { 5, 2, 1, 1, 1 }, 0 },
        { scope, 5, { 1.5, 4, 1, 1, 1 }, 0 },
        { scope, 5, { 0, 3e9, 1, 1, 1 }, 0 },
        { scope, 5, { 10, 10, 1, 1, 1 }, 0 },
        { twice, 5, { 2, 5, 1, 1, 1 }, 0 },
        { scope, 5, { -30, -28, 1, 1, -10 }, 1 },
        { scope, 5, { -40, -31, 1, 1, -10 }, 0 },
        { scope, 5, { 6, 7, 1, 1, -10 }, 1 },
        { scope, 5, { 7, 8, 1, 1, -10 }, 0 },
        { scope, 5, { 0, 5, 1, 0, 1 }, 0 },
        { scope, 5, { 0, 5, 1, 1.5, 1 }, 0 },
        { scope, 5, { 0, 5, 1, 2e6, 1 }, 0 },
        { scope, 5, { 0, 5, 1, 1e6, 1 }, 1 },
        { scope, 5, { 0, 5, 1, NAN, 1 }, 0 },
    };
    fgm_ir *ir = compile_text("var x[3] in 1..4\n");
    fgm_status st;
    size_t c;
    int got;

    for (c = 0; c < sizeof cases / sizeof *cases; c++) {
        got = fgm_ir_add_factor(ir, FGM_FACTOR_SUM, 3, cases[c].scope,
                                cases[c].nparams, cases[c].p, &st);
        ck_assert_msg((got >= 0) == cases[c].ok, "case %zu: %d", c, got);
        ck_assert_int_eq(st, cases[c].ok ? FGM_OK : FGM_EINVAL);
    }
    fgm_ir_free(ir);
}
END_TEST

/* TEXT, a model the schedule refuses at its line 2, compiled from the
 * string under the name of a file that exists: the refusal quotes no
 * line of that file, which is not the text compiled (a model read from
 * its file has its line and a caret: tests/cli/compiler.sh). */
static void
refused_quotes_no_file(const char *text)
{
    char *path = temp_file("# a decoy\n# not the model\n");
    fgm_model_opts o;
    fgm_model *m = NULL;
    fgm_ir *ir = NULL;

    ck_assert_int_eq(fgm_compile_string(text, path, NULL, &ir, NULL, NULL),
                     FGM_OK);
    memset(&o, 0, sizeof o);
    o.backend = FGM_BACKEND_INTERPRETED;
    ck_assert_int_eq(fgm_model_open_ir(ir, &o, &m, msg_sink, NULL),
                     FGM_EUNSUPPORTED);
    ck_assert_msg(strstr(last_msg, ":2:1: error: bp-sum cannot run")
                  && !strstr(last_msg, "decoy") && !strchr(last_msg, '\n'),
                  "%s", last_msg);
    unlink(path);
    free(path);
}

/* Past FGM_K_SUM_MAXWORK partial sums message passing refuses a sum, with
 * its reason at the statement; gibbs and vmp, which need none, run it.
 * All of a sum's 25 variables observed: no contradiction where they meet
 * it (their K^n table index overflowed a long in the clash check), one
 * where they do not. */
START_TEST(test_wide_sums)
{
    const char *wide = "var x[2100] in 1..9\nsum x <= 9000\n";
    char text[256];
    fgm_model_opts o;
    fgm_model *m = NULL;
    fgm_ir *ir;
    double z;
    int v, bad;

    snprintf(text, sizeof text, "%sinfer bp-sum(iterations = 1)\n", wide);
    memset(&o, 0, sizeof o);
    o.backend = FGM_BACKEND_INTERPRETED;
    ck_assert_int_eq(fgm_model_open_ir(compile_text(text), &o, &m, msg_sink,
                                       NULL), FGM_EUNSUPPORTED);
    ck_assert_msg(strstr(last_msg, "test.fgm:2:1: error: bp-sum cannot run "
                         "this sum") != NULL, "%s", last_msg);
    refused_quotes_no_file(text);
    snprintf(text, sizeof text, "%sinfer gibbs(iterations = 2)\n", wide);
    fgm_model_free(run_text(text, NULL));
    for (bad = 0; bad < 2; bad++) {
        ir = compile_text("var x[25] in 1..9\nsum x == 125\n"
                          "infer bp-sum(iterations = 2)\n");
        m = open_backend(ir, FGM_BACKEND_INTERPRETED, NULL);
        for (v = 0; v < 25; v++)
            fgm_model_observe_var(m, v, 4 - bad);   /* the value 5, or 4 */
        ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
        ck_assert_int_eq(fgm_model_contradiction(m) >= 0, bad);
        ck_assert_int_eq(fgm_model_log_evidence(m, &z), FGM_OK);
        ck_assert(bad ? z == -HUGE_VAL : fabs(z) < 1e-9);
        fgm_model_free(m);
    }
}
END_TEST

/* The sampler on twenty variables of 1..9 whose sum stays at 40 or
 * under: from anywhere it finds its way into the range (a cold sweep
 * blind to the sum till its last variable, each move then breaking it
 * once, kept no draw), and its marginal of x[0] meets the exact one,
 * counted here by convolution, within 0.02. */
START_TEST(test_gibbs_wide_sum)
{
    double count[20 * 8 + 1] = { 1 }, next[20 * 8 + 1], want[9], z = 0.0;
    double p[9];
    fgm_model *m;
    int j, s, y;

    for (j = 0; j < 19; j++) {      /* the other 19's index sums */
        memset(next, 0, sizeof next);
        for (s = 0; s <= 8 * j; s++)
            for (y = 0; y < 9; y++)
                next[s + y] += count[s];
        memcpy(count, next, sizeof count);
    }
    for (y = 0; y < 9; y++) {       /* x[0] = y + 1: the rest sum <= 20 - y */
        want[y] = 0.0;
        for (s = 0; s <= 20 - y; s++)
            want[y] += count[s];
        z += want[y];
    }
    m = run_text("var x[20] in 1..9\nsum x <= 40\n"
                 "infer gibbs(iterations = 20000)\n", NULL);
    ck_assert_int_lt(fgm_model_contradiction(m), 0);
    ck_assert_int_eq(fgm_model_marginal(m, 0, p), FGM_OK);
    for (y = 0; y < 9; y++)
        ck_assert_msg(fabs(p[y] - want[y] / z) < 0.02, "value %d: %.4f, "
                      "exact %.4f", y + 1, p[y], want[y] / z);
    fgm_model_free(m);
}
END_TEST

Suite *
sum_suite(void)
{
    Suite *s = suite_create("sum");
    TCase *core = tcase_create("core");

    tcase_set_timeout(core, 120);
    tcase_add_test(core, test_messages_brute_force);
    tcase_add_test(core, test_long_sum_log_oracle);
    tcase_add_test(core, test_engine_against_table);
    tcase_add_test(core, test_killer_model);
    tcase_add_test(core, test_tails_exact);
    tcase_add_test(core, test_ir_checks);
    tcase_add_test(core, test_wide_sums);
    tcase_add_test(core, test_gibbs_wide_sum);
    suite_add_tcase(s, core);
    return s;
}
