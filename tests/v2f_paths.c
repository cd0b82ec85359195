/* tests/v2f_paths.c: the flooding sweep's belief refresh, printed to the bit.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not a unit test (the Makefile links only tests/check_*.c):
 * tests/cli/kernels.sh builds it with the library's flags, a plugin's
 * (-O3 -march=native) and for AVX-512, and requires the outputs to be
 * identical.  fgm_k_refresh with stored variable-to-factor messages (the
 * seed's flooding BP) rebuilds a variable's belief, then damps each of
 * its edges' stored messages toward the seed's normalization of
 * belief / message (fgm_k_v2f_var, in batches of eight edges).  Each
 * build checks every stored message, belief and the returned change
 * against the same refresh done without v2f, then the kernel's
 * arithmetic written out in scalar code, one edge at a time
 * (reference_v2f), and exits 1 on the first difference; and every
 * stored message within 1e-13 of the seed's arithmetic in plain scalar
 * code (seed_gap: 4e-16 here; the floor taken without its scale,
 * 1.2e-12).
 *
 * Inputs: K = 2..26, strides of whole chunks and of whole pairs of
 * chunks, N = 1, 2, 3, 7, 16, 17, 20 and 33 edges (odd counts among
 * them) in a shuffled order, random unary vectors and messages
 * (zeros, subnormals, values near FGM_K_FLOOR), damping 0.5 and 0.3, with
 * and without change tracking.  Output: one line per case, a hash of
 * every lane (dead ones included) of the stored messages and belief, and
 * the change in %a.
 */
#include <stdio.h>
#include <string.h>
#include "kernels.h"
#include "xorshift.h"
#include "seed_ref.h"

#define MAXK 26
#define MAXS (((MAXK) + 7) / 8 * 8)
#define MAXN 33
#define TRIALS 5

static unsigned long long state = 0x9e3779b97f4a7c15ULL;

static double
uniform(void)
{
    return xorshift_uniform(&state);
}

/* A live entry of a unary vector (UNARY) or a message (xorshift.h). */
static double
entry(int unary)
{
    return xorshift_entry(&state, unary, FGM_K_FLOOR);
}

typedef struct world {
    double unary[MAXS], belief[MAXS];
    double msg[MAXN * MAXS], prev[MAXN * MAXS];
    int edges[MAXN];
} world;

static void
fill(world *w, int k, int s, int n)
{
    int e, v, j, t;

    memset(w, 0, sizeof *w);
    for (v = 0; v < k; v++)
        w->unary[v] = entry(1);
    w->unary[(int)(uniform() * k)] = 1.0;   /* some mass */
    for (e = 0; e < n; e++)
        for (v = 0; v < s; v++) {
            w->msg[e * s + v] = v < k ? entry(0) : FGM_K_FLOOR;
            w->prev[e * s + v] = v < k ? uniform() + 1e-3 : 0.0;
        }
    for (e = 0; e < n; e++)
        w->edges[e] = e;
    for (e = n - 1; e > 0; e--) {   /* the variable's edges, shuffled */
        j = (int)(uniform() * (e + 1));
        t = w->edges[e];
        w->edges[e] = w->edges[j];
        w->edges[j] = t;
    }
}

static void
bind(fgm_state *st, world *w, double damping, int track)
{
    memset(st, 0, sizeof *st);
    st->unary = w->unary;
    st->belief = w->belief;
    st->msg = w->msg;
    st->prev = w->prev;
    st->damping = damping;
    st->parallel = 1;
    st->damp_v2f = 1;
    st->track_change = track;
}

/* Whether the messages, stored messages and belief of A and B agree to
 * the bit. */
static int
same(const world *a, const world *b)
{
    return memcmp(a->belief, b->belief, sizeof a->belief) == 0
           && memcmp(a->msg, b->msg, sizeof a->msg) == 0
           && memcmp(a->prev, b->prev, sizeof a->prev) == 0;
}

/* The seed's _bp_normalize of X[0..K-1] floored at LO, in scalar
 * arithmetic. */
static void
seed_normalize(double *x, int k, double lo)
{
    double sum = 0.0;
    int v;

    for (v = 0; v < k; v++) {
        x[v] = x[v] < lo ? lo : x[v];
        sum += x[v];
    }
    for (v = 0; v < k; v++)
        x[v] = sum > 0.0 ? x[v] / sum : 1.0 / k;
}

/* The reference to the bit: W's stored messages, from its (refreshed)
 * belief, one edge at a time in scalar code.  The cavities of the edges
 * in the pairs (0, 1), (2, 3), ... of the variable's list divide the
 * belief by both messages' product (fgm_k_cavities2); an odd last one
 * divides by its message.  Returns the largest change of a stored entry
 * when TRACK, else 0. */
static double
reference_v2f(world *w, int n, int k, int s, double d, int track)
{
    double cav[MAXS], q, t, change = 0.0, top;
    const double *m, *mo;
    double *p;
    int j, v;

    for (j = 0; j < n; j++) {
        m = &w->msg[w->edges[j] * s];
        p = &w->prev[w->edges[j] * s];
        mo = j % 2 ? &w->msg[w->edges[j - 1] * s]
             : j + 1 < n ? &w->msg[w->edges[j + 1] * s] : NULL;
        for (v = 0, top = 0.0; v < k; v++) {
            if (mo) {
                q = 1.0 / (m[v] * mo[v]);
                cav[v] = w->belief[v] * (mo[v] * q);
            } else {
                cav[v] = w->belief[v] / m[v];
            }
            top = cav[v] > top ? cav[v] : top;
        }
        seed_ref_normalize(cav, k, s, FGM_K_SEED_EPS * top);
        for (v = 0; v < k; v++)
            cav[v] = d * p[v] + (1.0 - d) * cav[v];
        seed_ref_normalize(cav, k, s, FGM_K_SEED_EPS);
        for (v = 0; v < k; v++) {
            t = cav[v] - p[v];
            t = t < 0.0 ? -t : t;
            if (track && t > change)
                change = t;
            p[v] = cav[v];
        }
    }
    return change;
}

/* The largest difference between W's stored messages and notebook 001's
 * variable-to-factor step written out in scalar arithmetic from W's
 * refreshed belief and ORIG's messages: new = nf(exp(raw - max raw)),
 * raw the log of belief / message (nf floors at 1e-12, then
 * normalizes), stored = nf(d old + (1 - d) new).  Not to the bit (the
 * kernel divides two edges by one product, fgm_k_cavities2): what it
 * checks is the seed's floors and normalizations. */
static double
seed_gap(const world *w, const world *orig, int n, int k, int s, double d)
{
    double cav[MAXS], top, gap = 0.0, t;
    int e, v;

    for (e = 0; e < n; e++) {
        for (v = 0, top = 0.0; v < k; v++) {
            cav[v] = w->belief[v] / orig->msg[e * s + v];
            top = cav[v] > top ? cav[v] : top;
        }
        for (v = 0; v < k; v++)
            cav[v] /= top;
        seed_normalize(cav, k, FGM_K_SEED_EPS);
        for (v = 0; v < k; v++)
            cav[v] = d * orig->prev[e * s + v] + (1.0 - d) * cav[v];
        seed_normalize(cav, k, FGM_K_SEED_EPS);
        for (v = 0; v < k; v++) {
            t = cav[v] - w->prev[e * s + v];
            t = t < 0.0 ? -t : t;
            gap = t > gap ? t : gap;
        }
    }
    return gap;
}

static unsigned long long
hash(const double *x, int n, unsigned long long h)
{
    const unsigned char *p = (const unsigned char *)x;
    size_t i;

    for (i = 0; i < (size_t)n * sizeof *x; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

int
main(void)
{
    static const int counts[] = { 1, 2, 3, 7, 16, 17, 20, 33 };
    int k, pad, trial, ni, track, n, s, bad = 0;
    int off[2];

    for (k = 2; k <= MAXK; k++)
        for (pad = 0; pad < 2; pad++)
            for (ni = 0; ni < (int)(sizeof counts / sizeof *counts); ni++)
                for (trial = 0; trial < TRIALS; trial++)
                    for (track = 0; track < 2; track++) {
                        world w, ref, orig;
                        fgm_state st, rst;
                        double d = trial % 2 ? 0.3 : 0.5, c, rc = 0.0, e;
                        unsigned long long h;

                        s = FGM_K_NCHUNKS(k) * FGM_K_LANES;
                        if (pad && s > FGM_K_LANES)
                            s = (s + 7) / 8 * 8;
                        n = counts[ni];
                        fill(&w, k, s, n);
                        ref = orig = w;
                        off[0] = 0;
                        off[1] = n;
                        bind(&st, &w, d, track);
                        c = fgm_k_refresh(&st, 1, off, w.edges, NULL, k, s, 1);
                        /* The reference: the belief alone, then the edges
                         * one at a time in scalar code. */
                        bind(&rst, &ref, d, track);
                        fgm_k_refresh(&rst, 1, off, ref.edges, NULL, k, s, 0);
                        rc = reference_v2f(&ref, n, k, s, d, track);
                        h = hash(w.prev, n * s, 0xcbf29ce484222325ULL);
                        h = hash(w.belief, s, h);
                        printf("K=%d S=%d N=%d track=%d %016llx %a\n", k, s, n,
                               track, h, c);
                        if ((!same(&w, &ref)
                             || memcmp(&c, &rc, sizeof c) != 0) && bad++ < 5)
                            fprintf(stderr, "v2f_paths: K=%d S=%d N=%d trial "
                                    "%d track %d differs from the scalar "
                                    "reference\n", k, s, n, trial, track);
                        e = seed_gap(&w, &orig, n, k, s, d);
                        if (!(e < 1e-13) && bad++ < 5)
                            fprintf(stderr, "v2f_paths: K=%d S=%d N=%d trial "
                                    "%d: %g from the seed's arithmetic\n", k,
                                    s, n, trial, e);
                    }
    return bad ? 1 : 0;
}
