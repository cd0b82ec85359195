/* tests/table_paths.c: the pairwise table kernel, bit for bit.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not a unit test (the Makefile links only tests/check_*.c):
 * tests/cli/kernels.sh builds it with the library's flags and with a
 * plugin's (-O3 -march=native), and requires the two outputs to be
 * identical.  Each build also runs every update twice, through
 * fgm_k_table2 (what the interpreter and a plugin call for a two-variable
 * table) and through fgm_k_table with arity 2 (the general kernel, which
 * the pairwise one must equal), on copies of one state, and exits 1 when
 * a message, belief, lost flag or returned change differs.  3x3 and 9x9
 * updates go through a second call site too, with the sizes as
 * constants, as a plugin of a model whose domains all have the same size
 * calls it (the loops unroll).
 *
 * Inputs: for KA, KB = 1..11, random potentials (zeros, subnormal and
 * huge entries), beliefs (zeros, subnormals) and messages at or above the
 * table floor, in sum- and max-product, damped or not, sequential or
 * parallel.  Output: one line per update, every entry of both messages
 * and both beliefs, the change and the lost flag, in %a.
 */
#include <stdio.h>
#include <string.h>
#include "kernels.h"
#include "xorshift.h"

#define MAXK 11
#define S 12            /* the stride: MAXK padded to whole chunks */
#define TRIALS 12       /* per (KA, KB, mode) */

static unsigned long long state = 0x6a09e667f3bcc909ULL;

typedef struct world {
    double belief[2 * S], msg[2 * S], scratch[3 * S];
    fgm_state st;
} world;

static double
uniform(void)
{
    return xorshift_uniform(&state);
}

/* A potential entry: zeros (a deterministic table), tiny and huge ones. */
static double
pot_entry(void)
{
    double u = uniform();

    if (u < 0.2)
        return 0.0;
    if (u < 0.25)
        return 1e-310 * uniform();
    if (u < 0.3)
        return 1e200 * (uniform() + 0.5);
    return uniform() * 4.0;
}

static void
fill(world *w, int ka, int kb, int mode)
{
    int i;

    memset(w, 0, sizeof *w);
    for (i = 0; i < 2 * S; i++) {
        w->belief[i] = 0.0;
        w->msg[i] = 1.0;
    }
    for (i = 0; i < ka; i++) {
        w->belief[i] = xorshift_entry(&state, 1, FGM_K_TABLE_FLOOR);
        w->msg[i] = xorshift_entry(&state, 0, FGM_K_TABLE_FLOOR);
    }
    for (i = 0; i < kb; i++) {
        w->belief[S + i] = xorshift_entry(&state, 1, FGM_K_TABLE_FLOOR);
        w->msg[S + i] = xorshift_entry(&state, 0, FGM_K_TABLE_FLOOR);
    }
    w->st.belief = w->belief;
    w->st.msg = w->msg;
    w->st.scratch = w->scratch;
    w->st.damping = mode & 1 ? 0.5 : 0.0;
    w->st.parallel = (mode >> 1) & 1;
    w->st.track_change = 1;
}

/* The pairwise kernel at a call site with constant sizes, as a plugin
 * of a model with one domain size has it. */
static double
table2_const(fgm_state *st, int ka, int kb, const double *pot, int maxp)
{
    if (ka == 3 && kb == 3)
        return fgm_k_table2(st, 0, 0, 1, 3, 3, pot, S, maxp, st->scratch);
    if (ka == 9 && kb == 9)
        return fgm_k_table2(st, 0, 0, 1, 9, 9, pot, S, maxp, st->scratch);
    return fgm_k_table2(st, 0, 0, 1, ka, kb, pot, S, maxp, st->scratch);
}

static int
same(const world *a, const world *b, double ca, double cb)
{
    return memcmp(a->belief, b->belief, sizeof a->belief) == 0
           && memcmp(a->msg, b->msg, sizeof a->msg) == 0
           && memcmp(&ca, &cb, sizeof ca) == 0 && a->st.lost == b->st.lost;
}

static void
print(const world *w, int ka, int kb, int mode, double c)
{
    int i;

    printf("%d %d %d:", ka, kb, mode);
    for (i = 0; i < 2 * S; i++)
        printf(" %a %a", w->msg[i], w->belief[i]);
    printf(" | %a %d\n", c, w->st.lost);
}

int
main(void)
{
    static const int vars[2] = { 0, 1 };
    double pot[MAXK * MAXK], c2, cg;
    world a, b;
    int ka, kb, mode, t, i, cards[2], bad = 0;

    for (ka = 1; ka <= MAXK; ka++)
        for (kb = 1; kb <= MAXK; kb++)
            for (mode = 0; mode < 8; mode++)
                for (t = 0; t < TRIALS; t++) {
                    int maxp = mode >> 2;

                    for (i = 0; i < ka * kb; i++)
                        pot[i] = pot_entry();
                    fill(&a, ka, kb, mode);
                    b = a;
                    b.st.belief = b.belief;
                    b.st.msg = b.msg;
                    b.st.scratch = b.scratch;
                    cards[0] = ka;
                    cards[1] = kb;
                    c2 = table2_const(&a.st, ka, kb, pot, maxp);
                    cg = fgm_k_table(&b.st, 0, vars, cards, 2, pot, S, maxp,
                                     b.scratch);
                    if (!same(&a, &b, c2, cg)) {
                        fprintf(stderr, "table_paths: %dx%d mode %d trial "
                                "%d: fgm_k_table2 differs from fgm_k_table\n",
                                ka, kb, mode, t);
                        bad = 1;
                    }
                    print(&a, ka, kb, mode, c2);
                }
    return bad;
}
