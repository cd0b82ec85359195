/* runtime/ops/alldiff.h: messages of the native arity-n alldiff factor.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Op: alldiff_sum  arity: n  kind: bp-sum */
/* Op: alldiff_max  arity: n  kind: bp-max */
/*
 * Included by kernels.h; the conventions there hold (normalized
 * messages, FGM_K_FLOOR, fgm_k_commit damping, st->parallel).
 *
 * The factor is 1 when the N variables of its scope take pairwise distinct
 * values among K (N <= K; every variable of the scope has K values), else
 * 0.  Let Q be the N x K matrix of cavities, Q[j][w] = belief_j(w) /
 * msg_j(w) normalized (the variable-to-factor messages).  The exact
 * messages are, for every scope position i and value v,
 *
 *   sum-product  M[i][v] = sum over injective s: rows != i -> values != v
 *                          of prod_{j != i} Q[j][s(j)]
 *                = the permanent of the (N-1) x (K-1) minor of Q;
 *   max-product  M[i][v] = the same with max in place of sum
 *                = the best assignment of that minor.
 *
 * Both are computed for all (i, v) of a factor at once; padding Q with
 * K - N rows of ones (a padding row takes a value no variable uses) makes
 * the problem square, K x K, without changing any message but by a
 * constant.
 *
 * Sum-product: all minors' permanents by a subset DP (alldiff_sum.h).
 * Max-product: all minors' best assignments from one assignment solve
 * and shortest paths (alldiff_max.h).  The slow references the tests
 * and the benchmark check them against (Ryser's formula, one solve per
 * minor) are in tests/alldiff_ref.h.
 *
 * Fixed cells: a scope position whose cavity is a point mass (largest
 * entry > FGM_K_ALLDIFF_FIXED, in particular a single nonzero) keeps its
 * message and its belief, as the seed skips given cells: the new message
 * could not move a point mass, and its row of messages is not computed.
 * Its row of Q still constrains the others: an exact point mass (one
 * entry 1, the others 0: a clamped or clue cell) by taking its value out
 * of the problem (fgm_k_ad_reduce; both kernels then run on the free
 * rows and values only, O(m^3) and O(m 2^m) for m of them), a nearly
 * exact one as a row of the problem.  A factor whose positions are all
 * fixed costs nothing.
 *
 * The seed's own v4 sweep (alldiff-max, alldiff-sum: the flooding
 * schedule with stored variable-to-factor messages, st->damp_v2f) has
 * its own update, fgm_k_alldiff_seed, with the seed's BP_EPS floors.
 */
#ifndef FGM_OPS_ALLDIFF_H
#define FGM_OPS_ALLDIFF_H

#include <string.h>
#include "common.h"
#include "seed.h"
#include "alldiff_sum.h"
#include "alldiff_max.h"

#define FGM_K_ALLDIFF_FIXED (1.0 - 1e-9)

/* Doubles of scratch fgm_k_alldiff needs for arity N over K values:
 * cavities and new messages, twice (the whole problem and the one
 * without the clamped cells: 4 N K), plus F and B (2^(K+1)) for
 * sum-product or FGM_K_ALLDIFF_MAX_WORK(K) for max-product. */
static inline long
fgm_k_alldiff_scratch(int n, int k, int max_product)
{
    long w = 4L * n * k;

    if (max_product)
        return w + FGM_K_ALLDIFF_MAX_WORK(k);
    return w + (2L << k);
}

/* ---- the factor update ------------------------------------------------ */

/* The value at which row QI (K values) is a clamp, or -1.  With
 * SEED_FIXED NULL, a clamp is an exact point mass (an entry 1, the others
 * 0: clamped and clue cells); else (the seed's v4, fgm_k_alldiff_seed)
 * the row of a pinned variable (*SEED_FIXED) as the seed writes its
 * clamp: one entry >= FGM_K_ALLDIFF_FIXED, the others at most
 * FGM_K_SEED_EPS. */
static inline int
fgm_k_ad_clamp_at(const double *qi, int k, const unsigned char *seed_fixed)
{
    int v, at = 0, nz = 0;

    if (!seed_fixed) {
        for (v = 0; v < k; v++)
            if (qi[v] != 0.0) {
                nz++;
                at = v;
            }
        return nz == 1 && qi[at] == 1.0 ? at : -1;
    }
    if (!*seed_fixed)
        return -1;
    for (v = 1; v < k; v++)
        at = qi[v] > qi[at] ? v : at;
    for (v = 0; v < k; v++)
        if (v == at ? qi[v] < FGM_K_ALLDIFF_FIXED : qi[v] > FGM_K_SEED_EPS)
            return -1;
    return at;
}

/* Removes from Q (N x K) its rows that are clamps (fgm_k_ad_clamp_at;
 * SEED_FIXED: N flags or NULL) and their values.  A point mass at value
 * w takes w in every assignment with a nonzero weight, at weight 1 (cost
 * 0), so every minor of Q is its minor in the smaller problem (or 0 at
 * w), with the same best: both kernels' messages are those of the rest,
 * on far fewer rows and values once decimation has fixed most cells.
 * (The seed's clamps: see fgm_k_alldiff_seed.)  QR (NR x KR) gets the
 * other rows at the other values, ROWS[NR] their positions in Q, VALS[KR]
 * the values kept.  Returns NR (N: no clamp, and nothing copied), or -1
 * when two clamps share a value (no assignment has a nonzero weight; the
 * caller solves the whole problem). */
static inline int
fgm_k_ad_reduce(const double *q, int n, int k,
                const unsigned char *seed_fixed, double *qr, int *rows,
                int *vals, int *kr)
{
    unsigned char taken[FGM_K_MAXCARD];
    int i, v, r, nr = 0, at;

    for (v = 0; v < k; v++)
        taken[v] = 0;
    for (i = 0; i < n; i++) {
        at = fgm_k_ad_clamp_at(q + (long)i * k, k,
                               seed_fixed ? seed_fixed + i : NULL);
        if (at < 0) {
            rows[nr++] = i;
            continue;
        }
        if (taken[at])
            return -1;
        taken[at] = 1;
    }
    if (nr == n)
        return nr;      /* nothing to remove: QR, VALS, KR left unset */
    for (*kr = 0, v = 0; v < k; v++)
        if (!taken[v])
            vals[(*kr)++] = v;
    for (r = 0; r < nr; r++)
        for (v = 0; v < *kr; v++)
            qr[(long)r * *kr + v] = q[(long)rows[r] * k + vals[v]];
    return nr;
}

/* The cache of a factor's last update (fgm_state.adcache): for edge E0 +
 * I of its scope, 2 STRIDE doubles at (E0 + I) 2 STRIDE, row I of its
 * cavities Q then row I of the messages they gave.  The messages are a
 * function of the cavities alone (fixed rows included, which the
 * cavities decide), so cavities equal to the last ones bit for bit give
 * the last messages bit for bit, without the assignment solve or subset
 * DP.  Max-product decimation meets them often: once its messages settle,
 * about a third of alldiff-max2's updates on the forum's hardest puzzles
 * (a tenth of alldiff-max's, whose damping keeps them moving).  Compared
 * with memcmp: bits, not values (a NaN never equals, which the runtime's
 * fill of the cache relies on). */

/* Whether the cavities Q (N x K) are those of the factor's last update;
 * if so, copies the messages of its rows not FIXED into OUT. */
static inline int
fgm_k_ad_recall(const double *cache, int e0, const double *q, double *out,
                const unsigned char *fixed, int n, int k, int stride)
{
    const double *c;
    int i;

    if (!cache)
        return 0;
    c = cache + (long)e0 * 2 * stride;
    for (i = 0; i < n; i++)
        if (memcmp(c + (long)i * 2 * stride, q + (long)i * k,
                   (size_t)k * sizeof *q) != 0)
            return 0;
    for (i = 0; i < n; i++)
        if (!fixed[i])
            memcpy(out + (long)i * k, c + (long)i * 2 * stride + stride,
                   (size_t)k * sizeof *out);
    return 1;
}

/* Stores the cavities Q and the messages OUT of the rows not FIXED as the
 * factor's last update. */
static inline void
fgm_k_ad_remember(double *cache, int e0, const double *q, const double *out,
                  const unsigned char *fixed, int n, int k, int stride)
{
    double *c;
    int i;

    if (!cache)
        return;
    c = cache + (long)e0 * 2 * stride;
    for (i = 0; i < n; i++) {
        memcpy(c + (long)i * 2 * stride, q + (long)i * k,
               (size_t)k * sizeof *q);
        if (!fixed[i])
            memcpy(c + (long)i * 2 * stride + stride, out + (long)i * k,
                   (size_t)k * sizeof *out);
    }
}

/* fgm_k_normalize of the K values at X (a padded row of whole chunks,
 * dead lanes zero) on vectors: the sum one value after the other, as
 * there.  Returns 0 (and leaves X) when the sum is not positive. */
FGM_K_HOT int
fgm_k_ad_normalize(double *x, int k)
{
    double s = 0.0;
    fgm_v4 inv;
    int v, c, nc = FGM_K_NCHUNKS(k);

    for (v = 0; v < k; v++)
        s += x[v];
    if (!(s > 0.0))
        return 0;
    inv = fgm_v_splat(1.0 / s);
    for (c = 0; c < nc; c++)
        fgm_v_store(x + c * FGM_K_LANES,
                    fgm_v_mul(fgm_v_load(x + c * FGM_K_LANES), inv));
    return 1;
}

/* Row QI (K values) of a factor's cavities, fgm_k_cavity of BELIEF and
 * MSG (rows of whole chunks), and its largest entry (0 when all are
 * NaN).  With AVX (plugins) the divisions, the scaling and the maximum
 * run on vectors, through a padded copy, and the sum is taken one value
 * after the other as fgm_k_normalize takes it: the same bits as the
 * portable build's scalar loops. */
static inline double
fgm_k_ad_cavity(double *qi, const double *belief, const double *msg, int k)
{
    double mx = 0.0;
    int v;
#ifdef __AVX__
    double t[FGM_K_VCHUNKS * FGM_K_LANES + FGM_K_LANES];
    fgm_v4 x, m4 = fgm_v_zero();
    int c, nc = FGM_K_NCHUNKS(k);

    /* Dead lanes: 0 / a positive message, so 0 here. */
    for (c = 0; c < nc; c++)
        fgm_v_store(t + c * FGM_K_LANES,
                    fgm_v_div(fgm_v_load(belief + c * FGM_K_LANES),
                              fgm_v_load(msg + c * FGM_K_LANES)));
    if (fgm_k_ad_normalize(t, k)) {
        for (c = 0; c < nc; c++) {
            x = fgm_v_load(t + c * FGM_K_LANES);
            m4 = fgm_v_select(fgm_v_lt(m4, x), x, m4);
        }
        for (v = 0; v < k; v++)
            qi[v] = t[v];
        return fgm_v_hmax(m4);
    }
#endif
    fgm_k_cavity(qi, belief, msg, k);
    for (v = 0; v < k; v++)
        mx = qi[v] > mx ? qi[v] : mx;
    return mx;
}

/* fgm_k_commit of NEWM (K values) into the message MSG, damped by D,
 * then, when BELIEF is not NULL, fgm_k_belief of CAV (K values) times
 * the new message into BELIEF; returns the largest change.  With AVX the
 * element-wise steps run on vectors through padded copies, the sums in
 * fgm_k_normalize's order: the same bits as the scalar functions, which
 * the portable build runs (and this one where a sum is not positive). */
static inline double
fgm_k_ad_install(double *msg, double *newm, const double *cav,
                 double *belief, double d, int k)
{
    double change;
    int v;
#ifdef __AVX__
    double t[FGM_K_VCHUNKS * FGM_K_LANES + FGM_K_LANES];
    double o[FGM_K_VCHUNKS * FGM_K_LANES + FGM_K_LANES];
    fgm_v4 ch = fgm_v_zero(), x, diff;
    int c, nc = FGM_K_NCHUNKS(k);

    for (c = 0; c < nc; c++) {
        fgm_v_store(t + c * FGM_K_LANES, fgm_v_zero());
        fgm_v_store(o + c * FGM_K_LANES, fgm_v_zero());
    }
    for (v = 0; v < k; v++) {
        t[v] = newm[v];
        o[v] = msg[v];
    }
    if (fgm_k_ad_normalize(t, k)) {
        int ok = 1;

        if (d > 0.0) {
            for (c = 0; c < nc; c++) {
                double *tc = t + c * FGM_K_LANES;

                fgm_v_store(tc, fgm_v_add(
                    fgm_v_mul(fgm_v_splat(1.0 - d), fgm_v_load(tc)),
                    fgm_v_mul(fgm_v_splat(d),
                              fgm_v_load(o + c * FGM_K_LANES))));
            }
            ok = fgm_k_ad_normalize(t, k);
        }
        if (ok) {
            for (c = 0; c < nc; c++) {
                const double *oc = o + c * FGM_K_LANES;

                x = fgm_v_floor(fgm_v_load(t + c * FGM_K_LANES),
                                FGM_K_FLOOR);
                diff = fgm_v_abs(fgm_v_sub(x, fgm_v_load(oc)));
                /* Live lanes only; a NaN difference is passed over, as
                 * the scalar "diff > change" passes it over. */
                diff = fgm_v_keep(diff, fgm_v_live(c, k));
                ch = fgm_v_select(fgm_v_lt(ch, diff), diff, ch);
                fgm_v_store(t + c * FGM_K_LANES, x);
            }
            for (v = 0; v < k; v++)
                msg[v] = newm[v] = t[v];
            change = fgm_v_hmax(ch);
            if (!belief)
                return change;
            for (v = 0; v < k; v++)
                o[v] = cav[v];
            for (c = 0; c < nc; c++)
                fgm_v_store(o + c * FGM_K_LANES,
                            fgm_v_mul(fgm_v_load(o + c * FGM_K_LANES),
                                      fgm_v_load(t + c * FGM_K_LANES)));
            if (fgm_k_ad_normalize(o, k)) {
                for (v = 0; v < k; v++)
                    belief[v] = o[v];
                return change;
            }
            fgm_k_belief(belief, cav, msg, k);
            return change;
        }
    }
#endif
    change = fgm_k_commit(msg, newm, d, FGM_K_FLOOR, k);
    if (belief)
        fgm_k_belief(belief, cav, msg, k);
    (void)v;
    return change;
}

/* Writes the messages OUTR of a reduced problem (NR x KR,
 * fgm_k_ad_reduce's ROWS and VALS) into OUT (N x K): each row ROWS[r]
 * not in SKIPR gets its values VALS and 0 at the others (the clamps'
 * values, which no other row can take). */
static inline void
fgm_k_ad_expand(double *out, int k, const double *outr, int nr, int kr,
                const int *rows, const int *vals,
                const unsigned char *skipr)
{
    int r, v;

    for (r = 0; r < nr; r++) {
        double *o = out + (long)rows[r] * k;

        if (skipr[r])
            continue;
        for (v = 0; v < k; v++)
            o[v] = 0.0;
        for (v = 0; v < kr; v++)
            o[vals[v]] = outr[(long)r * kr + v];
    }
}

/* The seed's v4 update of alldiff (notebook 001 section 7 and its C#
 * port, notebook 000 section 8) in a flooding schedule whose
 * variable-to-factor messages are stored (st->damp_v2f).  Q's row i is
 * the stored message of position i, the seed's c2f.  The new message
 * of a free position is, for max-product, the best assignment of each
 * minor (i, v) of Q floored at FGM_K_SEED_EPS (the seed prices an entry
 * -log max(q, BP_EPS)) over the row's best, the seed's exp(log - max
 * log); for sum-product the minor's permanent itself, not normalized,
 * as the seed floors it (fgm_k_alldiff_sum_minors_scaled).  No cache
 * of last updates (fgm_k_ad_recall): the positions taken as given come
 * from st->pinned, not from Q, and the damping keeps Q moving.  A
 * position whose variable is pinned (a clue or a decision,
 * fgm_model_v2f_start) gets none: its row is zero, which the seed's floor
 * turns uniform.  Every
 * row is then committed as the seed commits (fgm_k_seed_commit_n); no
 * belief moves.  Returns the largest change when st->track_change.
 *
 * Max-product leaves out of the problem the pinned rows that are their
 * clamp as the seed writes it (one entry >= FGM_K_ALLDIFF_FIXED, the
 * others at most FGM_K_SEED_EPS: cost d <= 1e-9 at the value w, the
 * floor's C = -log 1e-12 elsewhere), with their values
 * (fgm_k_ad_reduce), as fgm_k_alldiff leaves out exact point
 * masses.  No entry costs more than C, so moving such a row to w from
 * u, and the row that held w to u, raises an assignment's cost by at
 * most d: the reduced problem's optimum of each minor exceeds the
 * whole's by at most the sum of those rows' d (9 x 8e-12 for the seed's
 * clamps), the messages of w are under the floor either way, and the
 * messages differ by a relative 1e-10 at most.  On a 9x9 grid most rows
 * are such clamps once decimation has gone some way: alldiff-max ran
 * 15.1 ms a puzzle on easy50 with the whole problem, 4.2 ms without
 * them (fgm bench, the first run under load).  Sum-product keeps
 * the whole problem: there a displaced clamp's terms weigh up to 1e-12
 * times a ratio of entries that may reach 1e12. */
static inline double
fgm_k_alldiff_seed(fgm_state *st, int e0, const int *vars, int n,
                   int stride, int k, int max_product, double *scratch)
{
    /* fgm_k_alldiff's layout: Q, the messages, the reduced problem's,
     * the work. */
    double *q = scratch, *out = scratch + (long)n * k;
    double *qr = out + (long)n * k, *outr = qr + (long)n * k;
    double *work = outr + (long)n * k;
    double scale[FGM_K_MAXCARD];
    unsigned char fixed[FGM_K_MAXCARD], skipr[FGM_K_MAXCARD] = { 0 };
    int rows[FGM_K_MAXCARD], vals[FGM_K_MAXCARD];
    fgm_k_seed_rows x;
    double *m[FGM_K_SEED_BATCH], last[FGM_K_SEED_BATCH];
    fgm_v4 ch = fgm_v_zero();
    int i, v, c, r, b, nr = -1, kr = 0, nfree = 0, nc = FGM_K_NCHUNKS(k);
    int own = fgm_k_seed_own(nc, k);

    for (i = 0; i < n; i++) {
        const double *p = st->prev + (long)(e0 + i) * stride;

        for (v = 0; v < k; v++)
            q[(long)i * k + v] = max_product && p[v] < FGM_K_SEED_EPS
                                 ? FGM_K_SEED_EPS : p[v];
        fixed[i] = st->pinned && st->pinned[vars[i]];
        nfree += !fixed[i];
    }
    if (nfree && max_product)
        nr = fgm_k_ad_reduce(q, n, k, fixed, qr, rows, vals, &kr);
    if (nr >= 0 && nr < n) {
        for (r = 0; r < nr; r++)
            skipr[r] = fixed[rows[r]];
        fgm_k_alldiff_max_minors(qr, nr, kr, outr, work, skipr);
        fgm_k_ad_expand(out, k, outr, nr, kr, rows, vals, skipr);
    } else if (nfree && max_product) {
        fgm_k_alldiff_max_minors(q, n, k, out, work, fixed);
    } else if (nfree) {
        fgm_k_alldiff_sum_minors_scaled(q, n, k, out, work, fixed, scale);
    }
    for (i = 0; i < n; i++) {
        b = i % FGM_K_SEED_BATCH;
        for (c = 0; c < own; c++)
            x[b][c] = fixed[i]
                      ? fgm_v_zero()
                      : fgm_v_keep(fgm_v_mul(fgm_v_load_row(out
                                                            + (long)i * k,
                                                            c, k),
                                             fgm_v_splat(max_product
                                                         ? 1.0 : scale[i])),
                                   fgm_v_live(c, k));
        /* The last value apart when packed (fgm_k_seed_packed). */
        last[b] = fixed[i] ? 0.0
                  : out[(long)i * k + k - 1] * (max_product ? 1.0
                                                : scale[i]);
        m[b] = st->msg + (long)(e0 + i) * stride;
        if (b < FGM_K_SEED_BATCH - 1 && i < n - 1)
            continue;
        for (r = b + 1; r < FGM_K_SEED_BATCH; r++) {   /* dropped rows */
            for (c = 0; c < own; c++)
                x[r][c] = x[0][c];
            last[r] = last[0];
            m[r] = m[0];
        }
        for (r = 0; own < nc && r < FGM_K_SEED_BATCH / FGM_K_LANES; r++)
            fgm_k_seed_tail(x, r, nc) = fgm_v_load(last + r * FGM_K_LANES);
        ch = b < FGM_K_LANES
             ? fgm_k_seed_commit_n(m, x, (2u << b) - 1, 1, k, st->damping,
                                   st->track_change, ch)
             : fgm_k_seed_commit_n(m, x, (2u << b) - 1, 2, k, st->damping,
                                   st->track_change, ch);
    }
    return st->track_change ? fgm_v_hmax(ch) : 0.0;
}

/* Update of alldiff over the N variables VARS (edges E0..E0+N-1, every
 * domain of size K >= N), sum- or max-product: cavities from beliefs and
 * messages, all N messages from one subset DP or one assignment solve
 * (on the cells not yet clamped: fgm_k_ad_reduce), each committed with
 * damping unless its position is fixed (see the top of this file),
 * beliefs updated unless ST->parallel.  SCRATCH holds
 * fgm_k_alldiff_scratch(N, K, MAX_PRODUCT) doubles.  Returns the largest
 * message change. */
static inline double
fgm_k_alldiff(fgm_state *st, int e0, const int *vars, int n, int stride,
              int k, int max_product, double *scratch)
{
    double *q = scratch, *out = scratch + (long)n * k;
    double *qr = out + (long)n * k, *outr = qr + (long)n * k;
    double *work = outr + (long)n * k, change = 0.0, c, mx;
    /* skipr zeroed for GCC: it cannot see that rows past nr stay
     * unread (-Wmaybe-uninitialized in a -Werror plugin build). */
    unsigned char fixed[FGM_K_MAXCARD], skipr[FGM_K_MAXCARD] = { 0 };
    int rows[FGM_K_MAXCARD], vals[FGM_K_MAXCARD];
    int i, r, nfree = 0, nr, kr = 0, reduced, ns = n, ks = k;
    const double *qs = q;
    double *os = out;
    const unsigned char *skip = fixed;

    if (st->damp_v2f)
        return fgm_k_alldiff_seed(st, e0, vars, n, stride, k, max_product,
                                  scratch);
    for (i = 0; i < n; i++) {
        mx = fgm_k_ad_cavity(q + (long)i * k,
                             st->belief + (long)vars[i] * stride,
                             st->msg + (long)(e0 + i) * stride, k);
        fixed[i] = mx > FGM_K_ALLDIFF_FIXED;
        nfree += !fixed[i];
    }
    if (nfree == 0)
        return 0.0;
    if (fgm_k_ad_recall(st->adcache, e0, q, out, fixed, n, k, stride))
        goto commit;
    nr = fgm_k_ad_reduce(q, n, k, NULL, qr, rows, vals, &kr);
    reduced = nr >= 0 && nr < n;
    if (reduced) {
        for (r = 0; r < nr; r++)
            skipr[r] = fixed[rows[r]];
        /* The kernels run on the reduced problem instead. */
        qs = qr;
        ns = nr;
        ks = kr;
        os = outr;
        skip = skipr;
    }
    if (max_product)
        fgm_k_alldiff_max_minors(qs, ns, ks, os, work, skip);
    else
        fgm_k_alldiff_sum_minors(qs, ns, ks, os, work, skip);
    if (reduced)
        fgm_k_ad_expand(out, k, outr, nr, kr, rows, vals, skipr);
    fgm_k_ad_remember(st->adcache, e0, q, out, fixed, n, k, stride);
commit:
    for (i = 0; i < n; i++) {
        double *m = st->msg + (long)(e0 + i) * stride;

        if (fixed[i])
            continue;
        /* An all-zero row (the others cannot be placed: a contradiction)
         * becomes uniform in fgm_k_commit, as in fgm_k_neq. */
        c = fgm_k_ad_install(m, out + (long)i * k, q + (long)i * k,
                             st->parallel ? NULL
                             : st->belief + (long)vars[i] * stride,
                             st->damping, k);
        change = c > change ? c : change;
    }
    return change;
}

#endif /* FGM_OPS_ALLDIFF_H */
