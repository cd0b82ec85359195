/* tests/neq_paths.c: the x != y sum-product kernel, printed to the bit.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not a unit test (the Makefile links only tests/check_*.c):
 * tests/cli/kernels.sh builds it with the library's flags and with a
 * plugin's (-O3 -march=native: four-lane AVX vectors instead of pairs of
 * two-lane halves, and where the CPU has AVX-512 the eight-lane plain
 * path for K = 2, 7-10 and 15-16, FGM_K_NEQ8; both AVX paths take the
 * others' sums of K <= 12 in one pass, fgm_k_neq_onepass) and requires
 * the two outputs to be identical.  Each
 * build also checks every message and belief against a scalar reference
 * that spells out the kernel's arithmetic in the same order (cavity
 * r = belief / message, z = sum r taken lane-wise over the chunks then
 * (l0 + l1) + (l2 + l3), message (z' - r') (1/z') / (K - 1) floored at
 * FGM_K_FLOOR, z' - r' the sum of the other lanes, taken as z' was, in
 * the lane that holds more than half of z', damped and committed, belief
 * r m / z), and exits 1 on the
 * first difference.  Domains of 4c + 1 and 4c + 2 values divide the last
 * chunk of both variables together (fgm_k_unpacked_chunks): the
 * reference knows nothing of that, so a lane put in the wrong place
 * shows.
 *
 * Inputs: for every K = 2..34, at strides of whole chunks and of whole
 * pairs of chunks, random beliefs (zeros, subnormals, an
 * all-zero belief: a contradiction) and messages over two disjoint pairs
 * of variables, run through fgm_k_neq one update at a time and through
 * fgm_k_neq_group two at a time, in five modes: plain, damped with
 * change tracking, parallel, and parallel with stored
 * variable-to-factor messages (the seed's flooding sweep, fgm_k_neq_seed,
 * and two at a time a plugin's batch, fgm_k_neq_seed_rows, against its
 * own reference) without and with change tracking; then, unprinted, that
 * batch with one row and with a skipped one (check_seed_rows).  The
 * returned change must equal the reference's too (0 but with tracking),
 * and a belief's dead lanes stay 0.  Output: one line per update, every
 * lane of both messages and both beliefs (dead lanes included) in %a.
 */
#include <stdio.h>
#include <string.h>
#include "kernels.h"
#include "xorshift.h"
#include "seed_ref.h"

#define MAXK 34         /* up to four pairs of chunks and a packed tail */
#define MAXS (((MAXK) + 7) / 8 * 8)     /* the largest stride, padded */
#define NVAR 4          /* two disjoint pairs: (0, 1) and (2, 3) */
#define TRIALS 30

static unsigned long long state = 0x2545f4914f6cdd1dULL;

static double
uniform(void)
{
    return xorshift_uniform(&state);
}

/* A live entry of a belief (BELIEF) or a message (xorshift.h). */
static double
entry(int belief)
{
    return xorshift_entry(&state, belief, FGM_K_FLOOR);
}

typedef struct world {
    double belief[NVAR * MAXS], msg[NVAR * MAXS], prev[NVAR * MAXS];
} world;

/* Fills W for K values at stride S: dead lanes 0 in beliefs and stored
 * messages, FGM_K_FLOOR in messages (kernels.h). */
static void
fill(world *w, int k, int s, int trial)
{
    int i, v;

    memset(w, 0, sizeof *w);
    for (i = 0; i < NVAR; i++)
        for (v = 0; v < s; v++) {
            int live = v < k;

            w->belief[i * s + v] = live ? entry(1) : 0.0;
            w->msg[i * s + v] = live ? entry(0) : FGM_K_FLOOR;
            w->prev[i * s + v] = live ? uniform() + 1e-3 : 0.0;
        }
    if (trial == 0)         /* a contradiction: x has no mass */
        for (v = 0; v < k; v++)
            w->belief[v] = 0.0;
}

/* The reference of the seed's flooding update (fgm_k_neq_seed): the
 * message to each variable from the other's stored variable-to-factor
 * message R, new = nf(1 - R), M = nf(d (M - eps) + (1 - d) new) + eps. */
static double
reference_seed(world *w, const fgm_state *st, int x, int y, int k, int s)
{
    double n[MAXS], t, change = 0.0, d = st->damping;
    int var[2] = { x, y }, i, v;

    for (i = 0; i < 2; i++) {
        double *m = &w->msg[var[i] * s];

        for (v = 0; v < k; v++)
            n[v] = 1.0 - w->prev[var[1 - i] * s + v];
        seed_ref_normalize(n, k, s, FGM_K_SEED_EPS);
        for (v = 0; v < k; v++)
            n[v] = d * (m[v] - FGM_K_SEED_EPS) + (1.0 - d) * n[v];
        seed_ref_normalize(n, k, s, FGM_K_SEED_EPS);
        for (v = 0; v < k; v++) {
            n[v] += FGM_K_SEED_EPS;
            t = n[v] - m[v];
            if (st->track_change && (t < 0.0 ? -t : t) > change)
                change = t < 0.0 ? -t : t;
            m[v] = n[v];
        }
    }
    return change;
}

/* The reference: one update of x != y, variables X and Y, edges X and Y
 * (edge i carries the message to variable i), on W.  Returns the largest
 * change of a live message entry with change tracking, else 0. */
static double
reference(world *w, const fgm_state *st, int x, int y, int k, int s)
{
    double r[2][MAXS], acc[2][FGM_K_LANES], z[2], inv[2], n[2][MAXK];
    double low[2][FGM_K_LANES], rest[2], q;
    double k1 = 1.0 / (k - 1), d = st->damping, t, old, change = 0.0;
    int var[2] = { x, y }, i, v, l;

    if (st->damp_v2f)
        return reference_seed(w, st, x, y, k, s);
    for (i = 0; i < 2; i++) {
        for (v = 0; v < s; v++) {
            int e = var[i] * s + v;

            r[i][v] = w->belief[e] / w->msg[e];
        }
        for (l = 0; l < FGM_K_LANES; l++) {
            acc[i][l] = r[i][l];
            for (v = l + FGM_K_LANES; v < s; v += FGM_K_LANES)
                acc[i][l] += r[i][v];
        }
        z[i] = (acc[i][0] + acc[i][1]) + (acc[i][2] + acc[i][3]);
    }
    if (!(z[0] > 0.0) || !(z[1] > 0.0)) {
        for (i = 0; i < 2; i++)
            for (v = 0; v < s; v++)
                r[i][v] = v < k ? 1.0 : 0.0;
        z[0] = z[1] = (double)k;
    }
    for (i = 0; i < 2; i++) {
        inv[i] = 1.0 / z[i];
        /* The others' sum of a value that holds more than half of z,
         * summed as z is (fgm_k_neq_others). */
        for (l = 0; l < FGM_K_LANES; l++) {
            low[i][l] = 0.0;
            for (v = l; v < s; v += FGM_K_LANES)
                low[i][l] += r[i][v] > 0.5 * z[i] ? 0.0 : r[i][v];
        }
        rest[i] = (low[i][0] + low[i][1]) + (low[i][2] + low[i][3]);
    }
    for (i = 0; i < 2; i++)
        for (v = 0; v < k; v++) {
            /* The message to var[i] comes from the other variable: the
             * other values' sum, z - r but where that cancels. */
            q = r[1 - i][v];
            t = (q > 0.5 * z[1 - i] ? rest[1 - i] : z[1 - i] - q)
                * (inv[1 - i] * k1);
            if (d > 0.0) {
                old = w->msg[var[i] * s + v];
                t = (1.0 - d) * t + d * old;
            }
            n[i][v] = FGM_K_FLOOR > t ? FGM_K_FLOOR : t;
        }
    for (i = 0; i < 2; i++)
        for (v = 0; v < k; v++) {
            t = n[i][v] - w->msg[var[i] * s + v];
            if (st->track_change && (t < 0.0 ? -t : t) > change)
                change = t < 0.0 ? -t : t;
            w->msg[var[i] * s + v] = n[i][v];
            if (!st->parallel)
                w->belief[var[i] * s + v] = (r[i][v] * n[i][v]) * inv[i];
        }
    return change;
}

/* Whether the live lanes of A and B agree to the bit (NaN included). */
static int
same(const world *a, const world *b, int k, int s)
{
    int i, v;

    for (i = 0; i < NVAR; i++)
        for (v = 0; v < k; v++)
            if (memcmp(&a->msg[i * s + v], &b->msg[i * s + v],
                       sizeof(double)) != 0
                || memcmp(&a->belief[i * s + v], &b->belief[i * s + v],
                          sizeof(double)) != 0)
                return 0;
    return 1;
}

/* Prints W; returns 1 when a dead lane of a belief is not 0. */
static int
print(const world *w, int k, int s, int mode, int grouped)
{
    int i, v, dead = 0;

    printf("K=%d S=%d mode=%d group=%d", k, s, mode, grouped);
    for (i = 0; i < NVAR * s; i++)
        printf(" %a/%a", w->msg[i], w->belief[i]);
    for (i = 0; i < NVAR; i++)          /* dead lanes of beliefs stay 0 */
        for (v = k; v < s; v++)
            if (w->belief[i * s + v] != 0.0) {
                printf(" DEAD-LANE-NONZERO");
                dead = 1;
            }
    printf("\n");
    return dead;
}

/* A plugin's flooding batch (fgm_k_neq_seed_rows) holding fewer rows
 * than it computes (N = 1), and one with a skipped row (variable 2
 * pinned, its factor (2, 3) dropped), K values at stride S: the row it
 * keeps equals the reference and factor (2, 3) is left as it was, in
 * both; the change too with TRACK.  Prints nothing (the outputs of the
 * builds compare line by line); returns 1 on a difference. */
static int
check_seed_rows(int k, int s, int trial, int track)
{
    static const int rows[2][4] = { { 0, 0, 1, 2 }, { 2, 2, 3, 0 } };
    const int *const rowp[2] = { rows[0], rows[1] };
    static const unsigned char pinned[NVAR] = { 0, 0, 1, 0 };
    int n, bad = 0;

    for (n = 1; n <= 2; n++) {
        world w, ref;
        fgm_state st;
        double c, rc;

        fill(&w, k, s, trial);
        memset(&st, 0, sizeof st);
        st.belief = w.belief;
        st.msg = w.msg;
        st.prev = w.prev;
        st.damping = 0.3;
        st.track_change = track;
        st.parallel = 1;
        st.damp_v2f = 1;
        st.pinned = pinned;
        st.skip_pinned = n == 2;
        ref = w;
        rc = reference(&ref, &st, 0, 1, k, s);
        c = fgm_k_neq_seed_rows(&st, rowp, n, s, k);
        bad |= !same(&w, &ref, k, s) || memcmp(&c, &rc, sizeof c) != 0;
    }
    return bad;
}

int
main(void)
{
    static const int rows[2][4] = { { 0, 0, 1, 2 }, { 2, 2, 3, 0 } };
    const int *const rowp[2] = { rows[0], rows[1] };
    double scratch[1];
    int k, trial, mode, grouped, pad, bad = 0;

    for (k = 2; k <= MAXK; k++)
        for (pad = 0; pad < 2; pad++)
        for (trial = 0; trial < TRIALS; trial++)
            for (mode = 0; mode < 5; mode++)
                for (grouped = 0; grouped < 2; grouped++) {
                    /* Rows of whole chunks, and (PAD) of whole pairs of
                     * chunks past one, as schedules on CPUs with AVX-512
                     * have them (fgm_sched_pairs). */
                    int s = FGM_K_NCHUNKS(k) * FGM_K_LANES;
                    world w, ref;

                    if (pad && s > FGM_K_LANES)
                        s = (s + 7) / 8 * 8;
                    fgm_state st;
                    double c, rc, rc2;

                    fill(&w, k, s, trial);
                    memset(&st, 0, sizeof st);
                    st.belief = w.belief;
                    st.msg = w.msg;
                    st.prev = w.prev;
                    st.damping = mode == 1 || mode >= 3 ? 0.3 : 0.0;
                    st.track_change = mode == 1 || mode == 4;
                    st.parallel = mode >= 2;
                    st.damp_v2f = mode >= 3;
                    ref = w;
                    rc = reference(&ref, &st, 0, 1, k, s);
                    rc2 = reference(&ref, &st, 2, 3, k, s);
                    rc = rc2 > rc ? rc2 : rc;
                    if (grouped && st.damp_v2f) {
                        /* A plugin's flooding sweep: its rows in one
                         * batch, the batch's other rows dropped. */
                        c = fgm_k_neq_seed_rows(&st, rowp, 2, s, k);
                    } else if (grouped) {
                        c = fgm_k_neq_group(&st, rows[0], rows[1], 2, s, k,
                                            0,
                                            fgm_k_neq_plain(&st)
                                            && !st.skip_pinned,
                                            scratch);
                    } else {
                        c = fgm_k_neq(&st, 0, 1, 0, 1, s, k, 0, scratch);
                        rc2 = fgm_k_neq(&st, 2, 3, 2, 3, s, k, 0, scratch);
                        c = rc2 > c ? rc2 : c;
                    }
                    if ((print(&w, k, s, mode, grouped)
                         || !same(&w, &ref, k, s)
                         || memcmp(&c, &rc, sizeof c) != 0) && bad++ < 5)
                        fprintf(stderr, "neq_paths: K=%d S=%d trial %d mode "
                                "%d group %d differs from the reference\n", k,
                                s, trial, mode, grouped);
                }
    for (k = 2; k <= MAXK; k++)
        for (trial = 0; trial < TRIALS; trial++)
            if (check_seed_rows(k, FGM_K_NCHUNKS(k) * FGM_K_LANES, trial,
                                trial % 2) && bad++ < 5)
                fprintf(stderr, "neq_paths: K=%d trial %d: a flooding batch "
                        "with a dropped or skipped row differs from the "
                        "reference\n", k, trial);
    return bad ? 1 : 0;
}
