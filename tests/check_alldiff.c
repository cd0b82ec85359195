/* tests/check_alldiff.c: the native alldiff factor against brute force.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The message functions of runtime/ops/alldiff_sum.h and alldiff_max.h
 * are checked against enumeration of every injective assignment in long
 * double (its exponent range holds products of eight entries near
 * 1e-300), against Ryser's formula and against one assignment solve per
 * minor (tests/alldiff_ref.h); the factor (runtime/ops/alldiff.h) inside
 * the engine against exact marginals, the seed's Hall-set example, and
 * the compiled backend.
 */
#include <check.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../runtime/model.h"
#include "alldiff_ref.h"
#include "suites.h"
#include "testutil.h"

#define MAXK 10

/* The first Easy grid of notebook 000 (Easy51 line 1). */
#define EASY000 \
    "9.2..54.31...63.255.84.7.6..263.9..1.57.1.29..9.67.53.24.53.6..7" \
    ".52..3.4.8..4195."

/* Sum (or max) over injective assignments of rows ROW..N-1, skipping row
 * SKIP, to values outside USED, of the product of Q's entries. */
static long double
brute_rec(const double *q, int n, int k, int skip, int row, unsigned used,
          int maxp)
{
    long double acc = 0.0L, t;
    int w;

    if (row == skip)
        row++;
    if (row >= n)
        return 1.0L;
    for (w = 0; w < k; w++) {
        if (used >> w & 1 || q[row * k + w] == 0.0)
            continue;
        t = q[row * k + w] * brute_rec(q, n, k, skip, row + 1, used | 1u << w,
                                       maxp);
        if (maxp)
            acc = t > acc ? t : acc;
        else
            acc += t;
    }
    return acc;
}

/* Every message by enumeration: rows normalized to sum 1 (sum-product)
 * or to max 1 (max-product); all 0 when nothing is feasible. */
static void
brute_minors(const double *q, int n, int k, int maxp, long double *out)
{
    int i, v;

    for (i = 0; i < n; i++) {
        long double *o = out + i * k, norm = 0.0L;

        for (v = 0; v < k; v++) {
            o[v] = brute_rec(q, n, k, i, 0, 1u << v, maxp);
            norm = maxp ? (o[v] > norm ? o[v] : norm) : norm + o[v];
        }
        for (v = 0; norm > 0.0L && v < k; v++)
            o[v] /= norm;
    }
}

/* An N x K matrix with entries U(0, 1), about 15% exact zeros and 10%
 * near underflow (1e-300 .. 2e-300). */
static void
random_matrix(gsl_rng *r, int n, int k, double *q)
{
    int j;

    for (j = 0; j < n * k; j++) {
        double u = gsl_rng_uniform(r);

        if (u < 0.15)
            q[j] = 0.0;
        else if (u < 0.25)
            q[j] = 1e-300 * (1.0 + gsl_rng_uniform(r));
        else
            q[j] = gsl_rng_uniform_pos(r);
    }
}

/* Compares kernel messages GOT with the enumeration WANT: an infeasible
 * entry (exactly 0) must be exactly 0; others agree to REL relative where
 * they are not negligible (>= 1e-200 of the row's scale: products with
 * two entries near 1e-300 fall below double's range in the kernel) and to
 * REL absolute otherwise. */
static void
compare_rows(const double *got, const long double *want, int n, int k,
             double rel, const char *what, int trial)
{
    int j;

    for (j = 0; j < n * k; j++) {
        double w = (double)want[j], d = fabs(got[j] - w);

        if (w == 0.0)
            ck_assert_msg(got[j] == 0.0, "%s n=%d k=%d trial %d entry %d: "
                          "infeasible minor gives %g, not 0", what, n, k,
                          trial, j, got[j]);
        else
            ck_assert_msg(d <= rel * (w >= 1e-200 ? w : 1.0),
                          "%s n=%d k=%d trial %d entry %d: %.17g vs brute "
                          "force %.17g", what, n, k, trial, j, got[j], w);
    }
}

/* Runs CHECK over n = 2..8 with K = N (square) and K = N + 2 for N <= 6
 * (rectangular: padding rows). */
static void
for_sizes(void (*check)(gsl_rng *, int, int, int))
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    int n, trial;

    gsl_rng_set(r, 20240611);
    for (n = 2; n <= 8; n++)
        for (trial = 0; trial < 12; trial++) {
            check(r, n, n, trial);
            if (n <= 6)
                check(r, n, n + 2, trial);
        }
    gsl_rng_free(r);
}

/* The max- or sum-product messages of every row of Q not in SKIP. */
static void
minors(int max_product, const double *q, int n, int k, double *out,
       double *work, const unsigned char *skip)
{
    if (max_product)
        fgm_k_alldiff_max_minors(q, n, k, out, work, skip);
    else
        fgm_k_alldiff_sum_minors(q, n, k, out, work, skip);
}

/* With every other row skipped (fixed cells, whose messages are not
 * used), the rows computed are GOT's to the bit and the skipped ones are
 * left as they were. */
static void
check_skip(const double *q, int n, int k, const double *got, int max_product,
           double *work)
{
    double part[MAXK * MAXK];
    unsigned char skip[MAXK] = { 0 };   /* zeroed for GCC -O1, which cannot
                                         * see that only N entries are read */
    int i, j;

    for (i = 0; i < n; i++)
        skip[i] = i % 2 == 0;
    for (j = 0; j < n * k; j++)
        part[j] = -1.0;
    minors(max_product, q, n, k, part, work, skip);
    for (i = 0; i < n; i++)
        for (j = 0; j < k; j++)
            ck_assert_msg(skip[i] ? part[i * k + j] == -1.0
                                  : part[i * k + j] == got[i * k + j],
                          "n=%d k=%d row %d (%s): %.17g", n, k, i,
                          skip[i] ? "skipped" : "computed", part[i * k + j]);
}

static void
check_sum(gsl_rng *r, int n, int k, int trial)
{
    /* Zeroed for GCC -O3, whose -Wmaybe-uninitialized cannot see
     * random_matrix and the kernels fill the N x K entries read. */
    double q[MAXK * MAXK] = { 0 }, got[MAXK * MAXK] = { 0 };
    double work[2 << MAXK];
    long double want[MAXK * MAXK] = { 0 };

    double scale[MAXK];
    int i, v;

    random_matrix(r, n, k, q);
    fgm_k_alldiff_sum_minors_scaled(q, n, k, got, work, NULL, scale);
    brute_minors(q, n, k, 0, want);
    /* 1e-12: sums of positive terms, ~n^2 roundings of 1.1e-16 each. */
    compare_rows(got, want, n, k, 1e-12, "sum DP", trial);
    check_skip(q, n, k, got, 0, work);
    /* The scales: each row's permanents before normalizing, the sums
     * over the other rows' injective assignments (no padding rows). */
    for (i = 0; i < n; i++) {
        long double raw = 0.0L;

        for (v = 0; v < k; v++)
            raw += brute_rec(q, n, k, i, 0, 1u << v, 0);
        if (raw >= 1e-200L)
            ck_assert_msg(fabs(scale[i] - (double)raw) <= 1e-12 * raw,
                          "sum scale n=%d k=%d trial %d row %d: %.17g vs "
                          "brute force %.17Lg", n, k, trial, i, scale[i],
                          raw);
    }
}

START_TEST(test_sum_brute_force)
{
    for_sizes(check_sum);
}
END_TEST

static void
check_max(gsl_rng *r, int n, int k, int trial)
{
    /* Zeroed only to quiet GCC's -Wmaybe-uninitialized (-O2 through
     * the const parameters of fgm_k_alldiff_assign, -O3 through
     * random_matrix and the kernels). */
    double q[MAXK * MAXK] = { 0 }, got[MAXK * MAXK] = { 0 };
    double each[MAXK * MAXK] = { 0 };
    double work[FGM_K_ALLDIFF_MAX_WORK(MAXK)] = { 0 };
    long double want[MAXK * MAXK] = { 0 };
    int j;

    random_matrix(r, n, k, q);
    fgm_k_alldiff_max_minors(q, n, k, got, work, NULL);
    brute_minors(q, n, k, 1, want);
    /* 1e-11: a message is exp of a difference of sums of up to n costs
     * -log q <= 691 (q near 1e-300), each sum rounded to ~n ulp of
     * n * 691, i.e. ~1e-12 absolute in the exponent. */
    compare_rows(got, want, n, k, 1e-11, "max shortest paths", trial);
    check_skip(q, n, k, got, 1, work);
    fgm_k_alldiff_max_minors_each(q, n, k, each, work);
    compare_rows(each, want, n, k, 1e-11, "max one solve per minor", trial);
    for (j = 0; j < n * k; j++)
        ck_assert_msg(fabs(got[j] - each[j]) <= 1e-11 * (each[j] > 1e-200
                                                         ? each[j] : 1.0),
                      "n=%d k=%d trial %d entry %d: one solve %.17g vs one "
                      "per minor %.17g", n, k, trial, j, got[j], each[j]);
}

START_TEST(test_max_brute_force)
{
    for_sizes(check_max);
}
END_TEST

/* The message of row I of a reduced problem (OUTR, KR values VALS) at
 * value V of the whole: 0 where V was taken out. */
static double
reduced_at(const double *outr, const int *vals, int kr, int i, int v)
{
    int j;

    for (j = 0; j < kr; j++)
        if (vals[j] == v)
            return outr[i * kr + j];
    return 0.0;
}

/* Clamped rows leave the problem (fgm_k_ad_reduce): with some rows exact
 * point masses at distinct values, the messages of the other rows from
 * the smaller problem equal the whole problem's (0 at the clamped
 * values), for both kernels; two point masses on one value: -1. */
static void
check_reduce(gsl_rng *r, int n, int k, int trial)
{
    double q[MAXK * MAXK], full[MAXK * MAXK], qr[MAXK * MAXK];
    double outr[MAXK * MAXK], work[FGM_K_ALLDIFF_MAX_WORK(MAXK) + (2 << MAXK)];
    int rows[MAXK], vals[MAXK], perm[MAXK], i, v, nr, kr, mp;

    random_matrix(r, n, k, q);
    for (v = 0; v < k; v++)
        perm[v] = v;
    gsl_ran_shuffle(r, perm, (size_t)k, sizeof perm[0]);
    for (i = 0; i < n; i += 2)          /* every other row clamped */
        for (v = 0; v < k; v++)
            q[i * k + v] = v == perm[i] ? 1.0 : 0.0;
    for (mp = 0; mp < 2; mp++) {
        minors(mp, q, n, k, full, work, NULL);
        nr = fgm_k_ad_reduce(q, n, k, NULL, qr, rows, vals, &kr);
        ck_assert_int_eq(nr, n / 2);
        ck_assert_int_eq(kr, k - (n + 1) / 2);
        minors(mp, qr, nr, kr, outr, work, NULL);
        for (i = 0; i < nr; i++) {
            const double *f = full + rows[i] * k;

            for (v = 0; v < k; v++) {
                double want = f[v], got = reduced_at(outr, vals, kr, i, v);

                /* 1e-11: the same optimum or permanent, other roundings. */
                ck_assert_msg(fabs(got - want) <= 1e-11 * fabs(want)
                              || (want < 1e-290 && got < 1e-290),
                              "%s n=%d k=%d trial %d row %d value %d: "
                              "reduced %.17g, whole %.17g",
                              mp ? "max" : "sum", n, k, trial, rows[i], v,
                              got, want);
            }
        }
    }
    if (n >= 3) {           /* rows 0 and 2 on one value */
        for (v = 0; v < k; v++)
            q[2 * k + v] = q[v];
        ck_assert_int_eq(fgm_k_ad_reduce(q, n, k, NULL, qr, rows, vals, &kr), -1);
    }
}

/* The assignment solve's two paths on a matrix without a zero entry
 * (fgm_k_alldiff_assign's LEX): the lexicographic one, whose zero counts
 * are then all 0, and the one that leaves them unread must make the same
 * choices with the same bits -- matching, and duals of the finite parts
 * -- or the kernel's messages would depend on which path ran.  Entries
 * span 1e-300..1 and include ties; the pad columns hold a zero, as
 * fgm_k_alldiff_max_minors lays them out. */
START_TEST(test_assign_lex_paths)
{
    enum { MS = FGM_K_MAXCARD };
    static double cz[MS * MS], cf[MS * MS];
    double u[2][2][MS], v[2][2][MS], w[3 * MS];
    int col[2][MS], row[2][MS];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    int m, t, i, c, p, ms;

    gsl_rng_set(r, 5);
    for (m = 1; m <= 16; m++)
        for (t = 0; t < 200; t++) {
            ms = FGM_K_NCHUNKS(m) * FGM_K_LANES;
            for (i = 0; i < m; i++)
                for (c = 0; c < ms; c++) {
                    double x = c >= m ? 0.0
                               : t % 3 == 0
                               ? 0.25 * (1 + gsl_rng_uniform_int(r, 4))
                               : pow(10.0, -300.0 * gsl_rng_uniform(r));

                    fgm_k_ad_cost(x, cz + i * ms + c, cf + i * ms + c);
                }
            for (p = 0; p < 2; p++)
                fgm_k_alldiff_assign(p, cz, cf, m, u[p][0], u[p][1],
                                     v[p][0], v[p][1], col[p], row[p], w);
            ck_assert_msg(memcmp(col[0], col[1], m * sizeof col[0][0]) == 0
                          && memcmp(row[0], row[1], ms * sizeof row[0][0])
                             == 0, "m=%d trial %d: matchings differ", m, t);
            ck_assert_msg(memcmp(u[0][1], u[1][1], m * sizeof(double)) == 0
                          && memcmp(v[0][1], v[1][1], ms * sizeof(double))
                             == 0, "m=%d trial %d: duals differ", m, t);
            for (i = 0; i < m; i++)
                ck_assert_msg(u[1][0][i] == 0.0 && v[1][0][i] == 0.0,
                              "m=%d trial %d: a zero count moved", m, t);
        }
    gsl_rng_free(r);
}
END_TEST

START_TEST(test_reduce_clamped)
{
    for_sizes(check_reduce);
}
END_TEST

/* The seed's clamps leave max-product problems too (fgm_k_alldiff_seed):
 * rows as the seed's v4 keeps them (normalized, floored at 1e-12), every
 * other one a pinned clamp (1 / (1 + (K-1) 1e-12) at its value, 1e-12
 * elsewhere); the reduced problem's messages are the whole's within the
 * relative 1e-10 of fgm_k_alldiff_seed's bound, those of the clamped
 * values under the floor.  A row that is a clamp but not pinned, or
 * pinned with an entry over the floor, stays. */
static void
check_seed_reduce(gsl_rng *r, int n, int k, int trial)
{
    double q[MAXK * MAXK], full[MAXK * MAXK], qr[MAXK * MAXK];
    double outr[MAXK * MAXK], work[FGM_K_ALLDIFF_MAX_WORK(MAXK)], s;
    unsigned char fixed[MAXK];
    int rows[MAXK], vals[MAXK], perm[MAXK], i, v, nr, kr;

    for (v = 0; v < k; v++)
        perm[v] = v;
    gsl_ran_shuffle(r, perm, (size_t)k, sizeof perm[0]);
    for (i = 0; i < n; i++) {
        fixed[i] = i % 2 == 0;
        for (s = 0.0, v = 0; v < k; v++)
            s += q[i * k + v] = fixed[i] ? (v == perm[i] ? 1.0 : 1e-12)
                                : pow(gsl_rng_uniform_pos(r), 8.0);
        for (v = 0; v < k; v++)
            q[i * k + v] = fmax(q[i * k + v] / s, 1e-12);
    }
    fgm_k_alldiff_max_minors(q, n, k, full, work, fixed);
    nr = fgm_k_ad_reduce(q, n, k, fixed, qr, rows, vals, &kr);
    ck_assert_int_eq(nr, n / 2);
    ck_assert_int_eq(kr, k - (n + 1) / 2);
    fgm_k_alldiff_max_minors(qr, nr, kr, outr, work, NULL);
    for (i = 0; i < nr; i++) {
        const double *f = full + rows[i] * k;

        for (v = 0; v < k; v++) {
            double want = f[v], got = reduced_at(outr, vals, kr, i, v);

            ck_assert_msg(got == 0.0 ? want <= 1.00000001e-12
                                     : fabs(got - want) <= 1e-10 * want,
                          "n=%d k=%d trial %d row %d value %d: reduced "
                          "%.17g, whole %.17g", n, k, trial, rows[i], v,
                          got, want);
        }
    }
    fixed[0] = 0;           /* a clamp, not pinned */
    ck_assert_int_eq(fgm_k_ad_reduce(q, n, k, fixed, qr, rows, vals, &kr),
                     n / 2 + 1);
    fixed[0] = 1;
    q[perm[0] == 0 ? 1 : 0] = 2e-12;   /* pinned, an entry over the floor */
    ck_assert_int_eq(fgm_k_ad_reduce(q, n, k, fixed, qr, rows, vals, &kr),
                     n / 2 + 1);
}

START_TEST(test_reduce_seed_clamps)
{
    for_sizes(check_seed_reduce);
}
END_TEST

/* ---- the cache of each factor's last update ------------------------- */

#define CN 7                /* a factor of 7 cells over 9 values */
#define CK 9
#define CS 12               /* stride: whole four-lane chunks */

/* One alldiff factor's arrays: beliefs and messages of its CN cells
 * (edges 0..CN-1), scratch, and (CACHED) a cache. */
typedef struct cfactor {
    double belief[CN * CS], msg[CN * CS], cache[2 * CN * CS];
    double scratch[4 * CN * CK + FGM_K_ALLDIFF_MAX_WORK(CK) + (2 << CK)];
    fgm_state st;
} cfactor;

/* Random positive beliefs and messages (cell 1 a clue, cell 4 nearly
 * fixed), the same for every SEED. */
static void
cfactor_init(cfactor *f, unsigned long seed, int cached, double damping)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    int i, v;

    gsl_rng_set(r, seed);
    memset(f, 0, sizeof *f);
    for (i = 0; i < CN; i++)
        for (v = 0; v < CK; v++) {
            f->belief[i * CS + v] = i == 1 ? (v == 3)
                                  : i == 4 ? (v == 5 ? 1.0 : 1e-12)
                                  : 0.05 + gsl_rng_uniform(r);
            f->msg[i * CS + v] = 0.1 + gsl_rng_uniform(r);
        }
    gsl_rng_free(r);
    memset(f->cache, 0xff, sizeof f->cache);
    f->st.belief = f->belief;
    f->st.msg = f->msg;
    f->st.scratch = f->scratch;
    f->st.damping = damping;
    f->st.adcache = cached ? f->cache : NULL;
}

static double
cfactor_update(cfactor *f, int max_product)
{
    static const int vars[CN] = { 0, 1, 2, 3, 4, 5, 6 };

    return fgm_k_alldiff(&f->st, 0, vars, CN, CS, CK, max_product,
                         f->scratch);
}

/* A and B hold the same beliefs and messages, bit for bit. */
static int
cfactor_same(const cfactor *a, const cfactor *b)
{
    return memcmp(a->belief, b->belief, sizeof a->belief) == 0
           && memcmp(a->msg, b->msg, sizeof a->msg) == 0;
}

/* An update whose cavities are those of the factor's last one takes its
 * messages from the cache: bit for bit what computing them gives; a cache
 * whose messages are wrong shows that it was read, one whose cavities
 * differ by one ulp that it was not. */
START_TEST(test_cache_same_bits)
{
    cfactor *plain = malloc(sizeof *plain), *cached = malloc(sizeof *cached);
    double saved[2 * CN * CS];
    int mp, d, i;

    ck_assert_ptr_nonnull(plain);
    ck_assert_ptr_nonnull(cached);
    for (mp = 0; mp < 2; mp++)
        for (d = 0; d < 2; d++) {
            double damping = d ? 0.5 : 0.0;

            /* A miss fills the cache; the same update again hits it. */
            cfactor_init(plain, 7, 0, damping);
            cfactor_init(cached, 7, 1, damping);
            ck_assert(cfactor_update(plain, mp) == cfactor_update(cached, mp));
            ck_assert_msg(cfactor_same(plain, cached), "miss: mp %d d %d",
                          mp, d);
            memcpy(saved, cached->cache, sizeof saved);
            cfactor_init(plain, 7, 0, damping);
            cfactor_init(cached, 7, 1, damping);
            memcpy(cached->cache, saved, sizeof saved);
            ck_assert(cfactor_update(plain, mp) == cfactor_update(cached, mp));
            ck_assert_msg(cfactor_same(plain, cached), "hit: mp %d d %d",
                          mp, d);
            /* Wrong messages in the cache: read on a hit. */
            cfactor_init(cached, 7, 1, damping);
            memcpy(cached->cache, saved, sizeof saved);
            cached->cache[0 * 2 * CS + CS + 2] *= 3.0;  /* cell 0 */
            cfactor_init(plain, 7, 0, damping);
            cfactor_update(plain, mp);
            cfactor_update(cached, mp);
            ck_assert_msg(!cfactor_same(plain, cached), "the cache is read");
            /* A cavity of any cell one ulp off: a miss, computed afresh
             * (the cached messages, wrong, are not read). */
            for (i = 0; i < CN; i++) {
                double *c = &cached->cache[i * 2 * CS + (i + 2) % CK];

                cfactor_init(cached, 7, 1, damping);
                memcpy(cached->cache, saved, sizeof saved);
                cached->cache[0 * 2 * CS + CS + 2] *= 3.0;
                *c = nextafter(*c, 2.0);
                cfactor_update(cached, mp);
                ck_assert_msg(cfactor_same(plain, cached),
                              "ulp in cell %d: mp %d d %d", i, mp, d);
            }
        }
    free(plain);
    free(cached);
}
END_TEST

/* Ryser itself: perm(ones) = n!, perm(I) = 1, brute force on n <= 7;
 * then the DP against one Ryser per minor on positive, well-conditioned
 * matrices up to n = 12 (beyond brute force). */
START_TEST(test_ryser_cross_check)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double a[12 * 12], dp[12 * 12], ry[12 * 12], work[2 << 12];
    double fact = 1.0;
    long double bf[12 * 12];
    int n, j, trial;

    gsl_rng_set(r, 7);
    for (n = 1; n <= 12; n++) {
        fact *= n;
        for (j = 0; j < n * n; j++)
            a[j] = 1.0;
        /* 1e-12: n! is exact in double; Ryser's 2^n terms cancel. */
        ck_assert_double_eq_tol(fgm_k_alldiff_ryser(a, n) / fact, 1.0, 1e-12);
        for (j = 0; j < n * n; j++)
            a[j] = j % (n + 1) == 0;
        ck_assert_double_eq_tol(fgm_k_alldiff_ryser(a, n), 1.0, 1e-12);
    }
    for (n = 2; n <= 7; n++) {
        long double p;

        for (j = 0; j < n * n; j++)
            a[j] = 0.05 + gsl_rng_uniform(r);
        p = brute_rec(a, n, n, -1, 0, 0, 0);
        ck_assert_msg(fabs(fgm_k_alldiff_ryser(a, n) / (double)p - 1.0)
                      < 1e-12, "Ryser = brute force, n=%d", n);
    }
    for (n = 2; n <= 12; n++)
        for (trial = 0; trial < 3; trial++) {
            for (j = 0; j < n * n; j++)
                a[j] = 0.05 + gsl_rng_uniform(r);
            fgm_k_alldiff_sum_minors(a, n, n, dp, work, NULL);
            fgm_k_alldiff_sum_minors_ryser(a, n, n, ry, work);
            for (j = 0; j < n * n; j++)
                /* 1e-10: Ryser sums 2^(n-1) alternating terms larger
                 * than the result; the DP has no cancellation. */
                ck_assert_msg(fabs(dp[j] - ry[j]) <= 1e-10 * ry[j],
                              "DP %.17g vs Ryser %.17g (n=%d, entry %d)",
                              dp[j], ry[j], n, j);
        }
    /* Skewed rows: Ryser's cancellation is hopeless, the DP keeps every
     * digit (checked against enumeration). */
    n = 7;
    for (j = 0; j < n * n; j++)
        a[j] = j % (n + 1) == 0 ? 1.0 : 1e-9 * (1.0 + gsl_rng_uniform(r));
    fgm_k_alldiff_sum_minors(a, n, n, dp, work, NULL);
    brute_minors(a, n, n, 0, bf);
    compare_rows(dp, bf, n, n, 1e-12, "sum DP, skewed", 0);
    gsl_rng_free(r);
}
END_TEST

/* The sparse subset DP (fgm_k_alldiff_free_weight, or count_free on 0/1
 * rows when WEIGHTED is 0) against the dense subset DP on the same rows:
 * the same message to the row left out, to rounding, on 400 random
 * matrices of every density, square and not.  Weighted entries are
 * 0.01..1.01 (fgm_ad_local_belief's second sweep), unweighted ones 1. */
static void
check_sparse_dp(unsigned long seed, int weighted)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double q[MAXK * MAXK], dp[MAXK * MAXK], work[2 << MAXK];
    double f[1 << MAXK], got[MAXK], wt[MAXK * MAXK], sum;
    unsigned long rows[MAXK], sets[1 << MAXK];
    int n, k, a, i, j, nr, trial, nonzero = 0;

    gsl_rng_set(r, seed);
    memset(f, 0, sizeof f);
    for (trial = 0; trial < 400; trial++) {
        k = 2 + (int)gsl_rng_uniform_int(r, MAXK - 1);
        n = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)k);
        a = (int)gsl_rng_uniform_int(r, (unsigned long)n);
        for (i = 0; i < n * k; i++) {
            q[i] = gsl_rng_uniform(r) < 0.2 + 0.6 * (trial % 5) / 4.0;
            if (weighted && q[i] != 0.0)
                q[i] = 0.01 + gsl_rng_uniform(r);
        }
        fgm_k_alldiff_sum_minors(q, n, k, dp, work, NULL);
        for (nr = 0, i = 0; i < n; i++) {
            if (i == a)
                continue;
            for (rows[nr] = 0, j = 0; j < k; j++) {
                rows[nr] |= (unsigned long)(q[i * k + j] != 0.0) << j;
                wt[nr * k + j] = q[i * k + j];
            }
            nr++;
        }
        if (weighted)
            fgm_k_alldiff_free_weight(rows, wt, nr, k, got, f, sets);
        else
            fgm_k_alldiff_count_free(rows, nr, k, got, f, sets);
        for (sum = 0.0, j = 0; j < k; j++)
            sum += got[j];
        nonzero += sum > 0.0;
        for (j = 0; j < k; j++)
            /* 1e-12: the sparse sums against the DP's rescaled ones. */
            ck_assert_msg(fabs((sum > 0.0 ? got[j] / sum : 0.0)
                               - dp[a * k + j]) < 1e-12,
                          "%s %g/%g vs DP %g (k=%d, n=%d, row %d, "
                          "value %d)", weighted ? "weight" : "count",
                          got[j], sum, dp[a * k + j], k, n, a, j);
        for (j = 0; j < (1 << k); j++)
            ck_assert_msg(f[j] == 0.0, "F left zero");
    }
    ck_assert_msg(nonzero > 100, "most trials have a matching (%d)",
                  nonzero);
    gsl_rng_free(r);
}

START_TEST(test_free_weight)
{
    check_sparse_dp(12, 1);
}
END_TEST

START_TEST(test_count_free)
{
    check_sparse_dp(11, 0);
}
END_TEST

/* ---- the factor in the engine --------------------------------------- */

/* The seed's Hall-set unit (notebook 001 section 7, notebook 000 section
 * 8): one row of 9 cells, six given (1, 2, 4, 5, 6, 8), c1 and c2 on
 * {3, 7}, a spectator on {3, 7, 9}; 1e-12 elsewhere, as the seed's
 * BP_EPS.  {c1, c2} consume 3 and 7, so the spectator is 9. */
static fgm_ir *
hall_ir(fgm_alldiff_lowering lowering)
{
    static const int given[6] = { 1, 2, 4, 5, 6, 8 };
    int dims[1] = { 9 }, sc[9], v, j;
    double ev[9];
    fgm_ir *ir = fgm_ir_new("hall");
    fgm_status st;

    ck_assert_int_eq(fgm_ir_add_array(ir, "cell", 1, dims, 1, 9, 0, &st), 0);
    for (v = 0; v < 9; v++) {
        for (j = 0; j < 9; j++)
            ev[j] = 1e-12;
        if (v < 2) {
            ev[2] = ev[6] = 0.5;
        } else if (v < 8) {
            ev[given[v - 2] - 1] = 1.0;
        } else {
            ev[2] = ev[6] = ev[8] = 1.0 / 3.0;
        }
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, &v, 9,
                                           ev, &st), 0);
        sc[v] = v;
    }
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, 9, sc, 0,
                                       NULL, &st), 0);
    ir->infer.algo = FGM_ALGO_BP_SUM;
    ir->infer.alldiff = lowering;
    return ir;
}

START_TEST(test_hall_set)
{
    fgm_model *nat = open_backend(hall_ir(FGM_ALLDIFF_NATIVE),
                                  FGM_BACKEND_INTERPRETED, NULL);
    fgm_model *pair = open_backend(hall_ir(FGM_ALLDIFF_PAIRWISE),
                                   FGM_BACKEND_INTERPRETED, NULL);
    double b[9];

    ck_assert_int_eq(fgm_model_run(nat, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_run(pair, NULL, NULL), FGM_OK);
    fgm_model_marginal(nat, 8, b);
    ck_assert_msg(b[8] > 0.999, "native alldiff: spectator is 9 (%.6f)",
                  b[8]);
    fgm_model_marginal(nat, 0, b);
    /* 1e-9: the Hall pair stays split evenly (two global solutions). */
    ck_assert_double_eq_tol(b[2], 0.5, 1e-9);
    ck_assert_double_eq_tol(b[6], 0.5, 1e-9);
    fgm_model_marginal(pair, 8, b);
    /* 0.01: the seed's pairwise relaxation leaves 0.667 on 9. */
    ck_assert_msg(fabs(b[8] - 2.0 / 3.0) < 0.01,
                  "pairwise neq: spectator undecided near 0.667 (%.6f)", b[8]);
    fgm_model_free(nat);
    fgm_model_free(pair);
}
END_TEST

/* One alldiff over 4 variables with 5 values and random evidence: a tree,
 * so BP is exact.  Sum: beliefs = marginals by enumeration.  Max: beliefs
 * = max-marginals by brute force. */
static fgm_ir *
single_ir(gsl_rng *r, fgm_algo algo, double *ev)
{
    int dims[1] = { 4 }, sc[4] = { 0, 1, 2, 3 }, v, j;
    fgm_ir *ir = fgm_ir_new("single");
    fgm_status st;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, 5, 0, &st), 0);
    for (v = 0; v < 4; v++) {
        for (j = 0; j < 5; j++)
            ev[v * 5 + j] = gsl_rng_uniform(r) < 0.2
                            ? 0.0 : gsl_rng_uniform_pos(r);
        ev[v * 5 + v] = 1.0;    /* never an all-zero row */
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, &v, 5,
                                           ev + v * 5, &st), 0);
    }
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, 4, sc, 0,
                                       NULL, &st), 0);
    ir->infer.algo = algo;
    ir->infer.alldiff = FGM_ALLDIFF_NATIVE;
    ir->infer.iterations = 5;
    return ir;
}

/* Max-marginals of SINGLE_IR by brute force over 5^4 assignments. */
static void
single_max_marginals(const double *ev, double *mm)
{
    int x[4], t, v, i, j, ok;
    double w, s;

    for (j = 0; j < 20; j++)
        mm[j] = 0.0;
    for (t = 0; t < 625; t++) {
        for (v = 0, i = t; v < 4; v++, i /= 5)
            x[v] = i % 5;
        ok = 1;
        for (v = 0; v < 4; v++)
            for (i = v + 1; i < 4; i++)
                ok &= x[v] != x[i];
        if (!ok)
            continue;
        w = 1.0;
        for (v = 0; v < 4; v++) {
            /* fold_evidence normalizes each evidence vector. */
            for (j = 0, s = 0.0; j < 5; j++)
                s += ev[v * 5 + j];
            w *= ev[v * 5 + x[v]] / s;
        }
        for (v = 0; v < 4; v++)
            if (w > mm[v * 5 + x[v]])
                mm[v * 5 + x[v]] = w;
    }
    for (v = 0; v < 4; v++) {
        for (j = 0, s = 0.0; j < 5; j++)
            s += mm[v * 5 + j];
        for (j = 0; j < 5; j++)
            mm[v * 5 + j] /= s;
    }
}

START_TEST(test_single_factor_exact)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double ev[20], exact[20], b[5];
    int trial, par, v, j;

    gsl_rng_set(r, 99);
    for (trial = 0; trial < 6; trial++)
        for (par = 0; par < 2; par++) {
            fgm_ir *ir = single_ir(r, FGM_ALGO_BP_SUM, ev);
            fgm_csp *csp;
            fgm_model *m;
            fgm_status st;
            fgm_run_opts ro;

            csp = fgm_csp_new(ir, &st);
            ck_assert_int_eq(fgm_enumerate(csp, NULL, 0, 0, exact, NULL),
                             FGM_OK);
            ck_assert_int_eq(csp->maxcard, 5);
            fgm_csp_free(csp);
            if (par)
                ir->infer.schedule = FGM_SCHEDULE_PARALLEL;
            m = open_backend(ir, FGM_BACKEND_INTERPRETED, NULL);
            memset(&ro, 0, sizeof ro);
            /* Damped and parallel: the fixed point is the same. */
            ro.use_damping = par;
            ro.damping = 0.5;
            ro.iterations = par ? 80 : 5;
            ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
            for (v = 0; v < 4; v++) {
                fgm_model_marginal(m, v, b);
                for (j = 0; j < 5; j++)
                    /* 1e-12: one factor is a tree; only rounding (damping
                     * converges geometrically, 2^-80). */
                    ck_assert_double_eq_tol(b[j], exact[v * 5 + j], 1e-12);
            }
            fgm_model_free(m);

            ir = single_ir(r, FGM_ALGO_BP_MAX, ev);
            single_max_marginals(ev, exact);
            if (par)
                ir->infer.schedule = FGM_SCHEDULE_PARALLEL;
            m = open_backend(ir, FGM_BACKEND_INTERPRETED, NULL);
            ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
            for (v = 0; v < 4; v++) {
                fgm_model_marginal(m, v, b);
                for (j = 0; j < 5; j++)
                    ck_assert_double_eq_tol(b[j], exact[v * 5 + j], 1e-12);
            }
            fgm_model_free(m);
        }
    gsl_rng_free(r);
}
END_TEST

/* Runs A compiled (plugin built with warnings as errors, in a temporary
 * folder) and B interpreted, with the clues GIVEN (value indices, -1
 * free; NULL: none), and compares every belief to 1e-12.  Takes A, B. */
static void
compare_backends(fgm_ir *a, fgm_ir *b, const int *given)
{
    char dir[] = "/tmp/fgm_alldiff_XXXXXX", cmd[64];
    const char *saved = getenv("FGM_PLUGIN_CFLAGS");
    char *keep = saved ? strdup(saved) : NULL;
    fgm_model *mc, *mi;
    double x[FGM_K_MAXCARD], y[FGM_K_MAXCARD];
    int v, k;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    setenv("FGM_PLUGIN_CFLAGS", "-O3 -march=native -Wall -Wextra -Werror", 1);
    mc = open_backend(a, FGM_BACKEND_COMPILED, dir);
    if (keep)
        setenv("FGM_PLUGIN_CFLAGS", keep, 1);
    else
        unsetenv("FGM_PLUGIN_CFLAGS");
    free(keep);
    mi = open_backend(b, FGM_BACKEND_INTERPRETED, NULL);
    ck_assert_int_eq(fgm_model_is_compiled(mc), 1);
    ck_assert_int_eq(fgm_model_is_compiled(mi), 0);
    for (v = 0; given && v < fgm_model_ir(mi)->nvars; v++)
        if (given[v] >= 0) {
            ck_assert_int_eq(fgm_model_observe_var(mc, v, given[v]), FGM_OK);
            ck_assert_int_eq(fgm_model_observe_var(mi, v, given[v]), FGM_OK);
        }
    ck_assert_int_eq(fgm_model_run(mc, NULL, NULL), FGM_OK);
    ck_assert_int_eq(fgm_model_run(mi, NULL, NULL), FGM_OK);
    for (v = 0; v < fgm_model_ir(mi)->nvars; v++) {
        fgm_model_marginal(mc, v, x);
        fgm_model_marginal(mi, v, y);
        for (k = 0; k < fgm_ir_card(fgm_model_ir(mi), v); k++)
            /* 1e-12: same schedule, same kernels (DESIGN.md). */
            ck_assert_double_eq_tol(x[k], y[k], 1e-12);
    }
    fgm_model_free(mc);
    fgm_model_free(mi);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* A native Sudoku with the clues of EASY000, the seed's v4 settings
 * (damping 0.5, 30 sweeps). */
static void
compare_sudoku(fgm_algo algo)
{
    fgm_ir *a = fgm_ir_sudoku(3), *b = fgm_ir_sudoku(3);
    int given[81];

    test_given(EASY000, given);
    a->infer.algo = b->infer.algo = algo;
    a->infer.alldiff = b->infer.alldiff = FGM_ALLDIFF_NATIVE;
    a->infer.damping = b->infer.damping = 0.5;
    a->infer.iterations = b->infer.iterations = 30;
    compare_backends(a, b, given);
}

START_TEST(test_sudoku_backends_max)
{
    compare_sudoku(FGM_ALGO_BP_MAX);
}
END_TEST

START_TEST(test_sudoku_backends_sum)
{
    compare_sudoku(FGM_ALGO_BP_SUM);
}
END_TEST

/* Native alldiff BP, both kinds, on Easy #1 with the seed's v4 settings:
 * the argmax of every belief is the solution, no decimation needed. */
START_TEST(test_native_solves_easy)
{
    int algo, given[81], answer[81], v;

    test_given(EASY000, given);
    for (algo = FGM_ALGO_BP_SUM; algo <= FGM_ALGO_BP_MAX; algo++) {
        fgm_ir *ir = fgm_ir_sudoku(3);
        fgm_model *m;
        fgm_csp *csp;
        fgm_status st;

        ir->infer.algo = (fgm_algo)algo;
        ir->infer.alldiff = FGM_ALLDIFF_NATIVE;
        ir->infer.damping = 0.5;
        ir->infer.iterations = 30;
        m = open_backend(ir, FGM_BACKEND_INTERPRETED, NULL);
        for (v = 0; v < 81; v++)
            if (given[v] >= 0)
                fgm_model_observe_var(m, v, given[v]);
        ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
        for (v = 0; v < 81; v++)
            answer[v] = fgm_model_argmax(m, v);
        csp = fgm_csp_new(fgm_model_ir(m), &st);
        ck_assert_msg(fgm_csp_verify(csp, given, answer),
                      "native %s solves Easy #1 by argmax",
                      fgm_ir_algo_name((fgm_algo)algo));
        fgm_csp_free(csp);
        fgm_model_free(m);
    }
}
END_TEST

/* Arities 3 and 4 in one run, two domain sizes (5 and 3), random
 * evidence with zeros: the generated table has per-row arities and reads
 * CARD.  Both kinds, sequential and parallel. */
static fgm_ir *
mixed_ir(fgm_algo algo, int parallel)
{
    static const int s1[3] = { 0, 1, 2 }, s2[4] = { 0, 1, 2, 3 };
    static const int s3[3] = { 4, 5, 6 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    int dx[1] = { 4 }, dy[1] = { 3 }, v, j, card;
    double ev[5];
    fgm_ir *ir = fgm_ir_new("mixed");
    fgm_status st;

    gsl_rng_set(r, 5);
    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dx, 0, 5, 0, &st), 0);
    ck_assert_int_eq(fgm_ir_add_array(ir, "y", 1, dy, 0, 3, 0, &st), 4);
    for (v = 0; v < 7; v++) {
        card = v < 4 ? 5 : 3;
        for (j = 0; j < card; j++)
            ev[j] = gsl_rng_uniform(r) < 0.2 ? 0.0 : gsl_rng_uniform_pos(r);
        ev[v % card] = 1.0;
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, &v,
                                           card, ev, &st), 0);
    }
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, 3, s1, 0,
                                       NULL, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, 4, s2, 0,
                                       NULL, &st), 0);
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, 3, s3, 0,
                                       NULL, &st), 0);
    ir->infer.algo = algo;
    ir->infer.alldiff = FGM_ALLDIFF_NATIVE;
    ir->infer.damping = 0.3;
    ir->infer.iterations = 20;
    ir->infer.schedule = parallel ? FGM_SCHEDULE_PARALLEL
                                  : FGM_SCHEDULE_SEQUENTIAL;
    gsl_rng_free(r);
    return ir;
}

START_TEST(test_mixed_backends)
{
    int algo, par;

    for (algo = FGM_ALGO_BP_SUM; algo <= FGM_ALGO_BP_MAX; algo++)
        for (par = 0; par < 2; par++)
            compare_backends(mixed_ir((fgm_algo)algo, par),
                             mixed_ir((fgm_algo)algo, par), NULL);
}
END_TEST

/* ---- limits ----------------------------------------------------------- */

/* An IR of one array of N variables with K values and one alldiff over
 * the first ARITY of them. */
static fgm_ir *
unit_ir(int n, int k, int arity, fgm_algo algo)
{
    int dims[1], sc[64], j;
    fgm_ir *ir = fgm_ir_new("unit");
    fgm_status st;

    dims[0] = n;
    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, dims, 0, k, 0, &st), 0);
    for (j = 0; j < arity; j++)
        sc[j] = j;
    ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, arity, sc, 0,
                                       NULL, &st), 0);
    ir->infer.algo = algo;
    ir->infer.alldiff = FGM_ALLDIFF_NATIVE;
    return ir;
}

START_TEST(test_sched_limits)
{
    fgm_status st;
    fgm_ir *ir;
    fgm_sched *s;

    /* Sum-product up to the DP's cap, max-product up to FGM_K_MAXCARD. */
    ir = unit_ir(3, FGM_K_ALLDIFF_SUM_MAXK, 3, FGM_ALGO_BP_SUM);
    s = fgm_sched_new(ir, &st);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(s->factors[0].op, FGM_OP_ALLDIFF);
    ck_assert_int_ge(s->nscratch,
                     fgm_k_alldiff_scratch(3, FGM_K_ALLDIFF_SUM_MAXK, 0));
    fgm_sched_free(s);
    fgm_ir_free(ir);
    ir = unit_ir(3, FGM_K_ALLDIFF_SUM_MAXK + 1, 3, FGM_ALGO_EP);
    ck_assert_ptr_null(fgm_sched_new(ir, &st));
    ck_assert_int_eq(st, FGM_EUNSUPPORTED);
    fgm_ir_free(ir);
    ir = unit_ir(64, 64, 64, FGM_ALGO_BP_MAX);
    s = fgm_sched_new(ir, &st);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(s->nfactors, 1);
    ck_assert_int_eq(s->factors[0].arity, 64);
    ck_assert_int_ge(s->nscratch, fgm_k_alldiff_scratch(64, 64, 1));
    fgm_sched_free(s);
    fgm_ir_free(ir);
    /* More variables than values. */
    ir = unit_ir(4, 3, 4, FGM_ALGO_BP_MAX);
    ck_assert_ptr_null(fgm_sched_new(ir, &st));
    ck_assert_int_eq(st, FGM_EUNSUPPORTED);
    fgm_ir_free(ir);
}
END_TEST

/* Degenerate factors: no evidence (uniform beliefs), every position
 * fixed (no update), and a pigeonhole contradiction (three variables, two
 * values left): messages stay finite and beliefs normalized. */
START_TEST(test_degenerate)
{
    int algo, v, j;

    for (algo = FGM_ALGO_BP_SUM; algo <= FGM_ALGO_BP_MAX; algo++) {
        fgm_model *m = open_backend(unit_ir(3, 4, 2, (fgm_algo)algo),
                                    FGM_BACKEND_INTERPRETED, NULL);
        fgm_run_info info;
        double b[4], ev[3] = { 1.0, 1.0, 0.0 }, sum;
        fgm_ir *ir;
        fgm_status st;

        ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
        fgm_model_marginal(m, 0, b);
        for (j = 0; j < 4; j++)
            /* 1e-15: symmetric messages; rounding of 4 divisions. */
            ck_assert_double_eq_tol(b[j], 0.25, 1e-15);
        fgm_model_free(m);

        m = open_backend(unit_ir(3, 3, 3, (fgm_algo)algo),
                         FGM_BACKEND_INTERPRETED, NULL);
        for (v = 0; v < 3; v++)
            ck_assert_int_eq(fgm_model_observe_var(m, v, v), FGM_OK);
        ck_assert_int_eq(fgm_model_run(m, NULL, &info), FGM_OK);
        /* Fixed cells keep their (uniform) messages: nothing moves. */
        ck_assert_double_eq(info.change, 0.0);
        fgm_model_free(m);

        ir = unit_ir(3, 3, 3, (fgm_algo)algo);
        for (v = 0; v < 3; v++)
            ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1,
                                               &v, 3, ev, &st), 0);
        m = open_backend(ir, FGM_BACKEND_INTERPRETED, NULL);
        ck_assert_int_eq(fgm_model_run(m, NULL, NULL), FGM_OK);
        for (v = 0; v < 3; v++) {
            fgm_model_marginal(m, v, b);
            for (j = 0, sum = 0.0; j < 3; j++) {
                ck_assert_msg(isfinite(b[j]) && b[j] >= 0.0,
                              "contradiction: finite beliefs");
                sum += b[j];
            }
            ck_assert_double_eq_tol(sum, 1.0, 1e-12);
        }
        fgm_model_free(m);
    }
}
END_TEST

/* 16 x 16 Sudoku, native: K = 16 runs both ways (2^17 doubles for the
 * DP); a couple of sweeps only. */
START_TEST(test_sudoku16)
{
    int algo;

    for (algo = FGM_ALGO_BP_SUM; algo <= FGM_ALGO_BP_MAX; algo++) {
        fgm_ir *ir = fgm_ir_sudoku(4);
        fgm_model *m;
        fgm_run_opts ro;
        double b[16];

        ir->infer.algo = (fgm_algo)algo;
        ir->infer.alldiff = FGM_ALLDIFF_NATIVE;
        m = open_backend(ir, FGM_BACKEND_INTERPRETED, NULL);
        fgm_model_observe_var(m, 0, 3);
        memset(&ro, 0, sizeof ro);
        ro.iterations = 2;
        ck_assert_int_eq(fgm_model_run(m, &ro, NULL), FGM_OK);
        fgm_model_marginal(m, 1, b);
        /* Cell 1 shares a row with the clue: value 3 is out. */
        ck_assert_msg(b[3] < 1e-6, "16x16: clue excluded from its row");
        fgm_model_free(m);
    }
}
END_TEST

/* ---- errors ----------------------------------------------------------- */

static void
diag_keep(void *ctx, const char *msg)
{
    snprintf(ctx, 256, "%s", msg);
}

START_TEST(test_unsupported)
{
    char text[256] = "";
    fgm_model_opts o;
    fgm_model *m = NULL;

    memset(&o, 0, sizeof o);
    o.backend = FGM_BACKEND_INTERPRETED;
    ck_assert_int_eq(fgm_model_open_ir(unit_ir(3, 21, 3, FGM_ALGO_BP_SUM),
                                       &o, &m, diag_keep, text),
                     FGM_EUNSUPPORTED);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(strstr(text, "bp-sum"));
    ck_assert_int_eq(fgm_model_open_ir(unit_ir(2, 2, 2, FGM_ALGO_BP_MAX),
                                       &o, &m, NULL, NULL), FGM_OK);
    fgm_model_free(m);
}
END_TEST

Suite *
alldiff_suite(void)
{
    Suite *s = suite_create("alldiff");
    TCase *core = tcase_create("core"), *limits = tcase_create("limits");
    TCase *errors = tcase_create("errors");

    tcase_set_timeout(core, 60);
    tcase_set_timeout(limits, 60);
    tcase_set_timeout(errors, 10);
    tcase_add_test(core, test_sum_brute_force);
    tcase_add_test(core, test_max_brute_force);
    tcase_add_test(core, test_assign_lex_paths);
    tcase_add_test(core, test_reduce_clamped);
    tcase_add_test(core, test_reduce_seed_clamps);
    tcase_add_test(core, test_cache_same_bits);
    tcase_add_test(core, test_ryser_cross_check);
    tcase_add_test(core, test_count_free);
    tcase_add_test(core, test_free_weight);
    tcase_add_test(core, test_hall_set);
    tcase_add_test(core, test_single_factor_exact);
    tcase_add_test(core, test_sudoku_backends_max);
    tcase_add_test(core, test_sudoku_backends_sum);
    tcase_add_test(core, test_native_solves_easy);
    tcase_add_test(core, test_mixed_backends);
    tcase_add_test(limits, test_sched_limits);
    tcase_add_test(limits, test_degenerate);
    tcase_add_test(limits, test_sudoku16);
    tcase_add_test(errors, test_unsupported);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    suite_add_tcase(s, errors);
    return s;
}
