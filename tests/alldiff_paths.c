/* tests/alldiff_paths.c: the whole alldiff factor update, printed to the bit.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not a unit test (the Makefile links only tests/check_*.c):
 * tests/cli/kernels.sh builds it with the library's flags (the scalar
 * cavity and commit passes, fgm_k_cavity and fgm_k_commit) and a
 * plugin's (-O3 -march=native: fgm_k_ad_cavity and fgm_k_ad_install on
 * vectors), and requires the outputs to be identical.  kernel_paths.c
 * covers the max-product messages alone; this covers what surrounds
 * them: cavities, point-mass rows, the contradiction fallbacks, damping,
 * the floor, the change and the beliefs.
 *
 * Inputs: K = 2..16, N = 2..K variables, strides of whole chunks and of
 * whole pairs of chunks, sum- and max-product, undamped and damped 0.5,
 * sequential and parallel, random beliefs and messages with rows that
 * are point masses (clues), all zero (a contradiction) or tiny.  Output:
 * one line per update: the change in %a and a hash of every lane (dead
 * ones included) of the messages and beliefs.  Then the seed's v4
 * update (st->damp_v2f: stored variable-to-factor messages, rows
 * committed in batches, the last values of K = 5, 9, 13 packed,
 * fgm_k_seed_packed): K = 2..16, N = 2..K, some variables pinned, change
 * tracked, one line per update likewise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "xorshift.h"

#define MAXK 16
#define MAXS 16
#define TRIALS 6

static unsigned long long state = 0x243f6a8885a308d3ULL;

static double
uniform(void)
{
    return xorshift_uniform(&state);
}

/* FNV-1a over the bytes of the first N messages and beliefs entries. */
static unsigned long long
hash(const double *msg, const double *belief, int n)
{
    const unsigned char *p[2] = { (const unsigned char *)msg,
                                  (const unsigned char *)belief };
    unsigned long long h = 0xcbf29ce484222325ULL;
    size_t i;
    int a;

    for (a = 0; a < 2; a++)
        for (i = 0; i < (size_t)n * sizeof *msg; i++)
            h = (h ^ p[a][i]) * 0x100000001b3ULL;
    return h;
}

/* The seed's v4 update (fgm_k_alldiff_seed) over N variables with K
 * values on random stored variable-to-factor messages (rows normalized,
 * some near point masses), a few variables pinned: one line each. */
static void
seed_updates(const int *vars)
{
    static double belief[MAXK * MAXS], msg[MAXK * MAXS], prev[MAXK * MAXS];
    unsigned char pinned[MAXK];
    int k, n, s, trial, maxp, i, v;

    for (k = 2; k <= MAXK; k++)
        for (n = 2; n <= k; n++)
            for (trial = 0; trial < TRIALS; trial++)
                for (maxp = 0; maxp < 2; maxp++) {
                    double c, z, *scratch;
                    fgm_state st;

                    s = (FGM_K_NCHUNKS(k) * FGM_K_LANES + 7) / 8 * 8;
                    memset(belief, 0, sizeof belief);
                    memset(prev, 0, sizeof prev);
                    for (i = 0; i < n * s; i++)
                        msg[i] = FGM_K_FLOOR;
                    for (i = 0; i < n; i++) {
                        double u = uniform();

                        pinned[i] = u < 0.2;
                        for (v = 0, z = 0.0; v < k; v++) {
                            msg[i * s + v] = uniform() + FGM_K_SEED_EPS;
                            prev[i * s + v] = u < 0.4 && v > 0
                                              ? 1e-13 * uniform()
                                              : uniform();
                            z += prev[i * s + v];
                        }
                        for (v = 0; v < k; v++)
                            prev[i * s + v] /= z;
                    }
                    scratch = malloc((size_t)fgm_k_alldiff_scratch(n, k, maxp)
                                     * sizeof *scratch);
                    if (!scratch)
                        exit(2);
                    memset(&st, 0, sizeof st);
                    st.belief = belief;
                    st.msg = msg;
                    st.prev = prev;
                    st.pinned = pinned;
                    st.damping = 0.5;
                    st.parallel = 1;
                    st.damp_v2f = 1;
                    st.track_change = 1;
                    c = fgm_k_alldiff(&st, 0, vars, n, s, k, maxp, scratch);
                    free(scratch);
                    printf("seed K=%d N=%d maxp=%d %a %016llx\n", k, n, maxp,
                           c, hash(msg, prev, n * s));
                }
}

int
main(void)
{
    static double belief[MAXK * MAXS], msg[MAXK * MAXS];
    int vars[MAXK], k, n, s, pad, trial, mode, i, v;

    for (i = 0; i < MAXK; i++)
        vars[i] = i;
    for (k = 2; k <= MAXK; k++)
        for (n = 2; n <= k; n++)
            for (pad = 0; pad < 2; pad++)
                for (trial = 0; trial < TRIALS; trial++)
                    for (mode = 0; mode < 8; mode++) {
                        int maxp = mode & 1, par = (mode >> 2) & 1;
                        double d = mode & 2 ? 0.5 : 0.0, c, *scratch;
                        fgm_state st;

                        s = FGM_K_NCHUNKS(k) * FGM_K_LANES;
                        if (pad && s > FGM_K_LANES)
                            s = (s + 7) / 8 * 8;
                        memset(belief, 0, sizeof belief);
                        for (i = 0; i < n * s; i++)
                            msg[i] = FGM_K_FLOOR;
                        for (i = 0; i < n; i++) {
                            double u = uniform();
                            int at = (int)(uniform() * k);

                            for (v = 0; v < k; v++) {
                                msg[i * s + v] = xorshift_entry(&state, 0,
                                                                FGM_K_FLOOR);
                                belief[i * s + v]
                                    = u < 0.3 ? (v == at)       /* a clue */
                                    : u < 0.35 ? 0.0            /* no mass */
                                    : xorshift_entry(&state, 1, 0.0);
                            }
                            if (u < 0.3)
                                msg[i * s + at] = 1.0;
                        }
                        scratch = malloc((size_t)fgm_k_alldiff_scratch(n, k,
                                                                       maxp)
                                         * sizeof *scratch);
                        if (!scratch)
                            return 2;
                        memset(&st, 0, sizeof st);
                        st.belief = belief;
                        st.msg = msg;
                        st.damping = d;
                        st.parallel = par;
                        c = fgm_k_alldiff(&st, 0, vars, n, s, k, maxp,
                                          scratch);
                        free(scratch);
                        printf("K=%d N=%d S=%d mode=%d %a %016llx\n", k, n, s,
                               mode, c, hash(msg, belief, n * s));
                    }
    seed_updates(vars);
    return 0;
}
