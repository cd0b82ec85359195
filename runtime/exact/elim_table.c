/* runtime/exact/elim_table.c: dense tables for variable elimination.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both operations walk the larger table in row-major order with an
 * odometer over its variables, moving an index into the smaller table by
 * that variable's stride there (0 when the smaller table lacks it): no
 * division or modulo.  The odometer turns once a block, not once an
 * entry: the larger table's last variables, while the smaller one lacks
 * them all (one entry of it against the block) or has them as its own
 * last, in the same order (the block's entries against as many
 * consecutive ones).  On a 12x12 grid the odometer's steps were a fifth
 * of elimination's time.
 */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "eliminate.h"

fgm_status
fgm_etab_init(fgm_etab *t, const int *vars, int n, const int *card)
{
    long i;
    int j;

    memset(t, 0, sizeof *t);
    t->lost = -HUGE_VAL;
    t->vars = malloc(((size_t)n + 1) * sizeof *t->vars);
    if (!t->vars)
        return FGM_ENOMEM;
    t->n = n;
    t->size = 1;
    for (j = 0; j < n; j++) {
        t->vars[j] = vars[j];
        t->size *= card[vars[j]];   /* fgm_elim_order bounds it */
    }
    t->p = malloc((size_t)t->size * sizeof *t->p);
    if (!t->p) {
        fgm_etab_free(t);
        return FGM_ENOMEM;
    }
    for (i = 0; i < t->size; i++)
        t->p[i] = 1.0;
    return FGM_OK;
}

fgm_status
fgm_etab_copy(fgm_etab *d, const fgm_etab *s, const int *card)
{
    fgm_status st = fgm_etab_init(d, s->vars, s->n, card);

    if (st == FGM_OK) {
        memcpy(d->p, s->p, (size_t)s->size * sizeof *d->p);
        d->lost = s->lost;
    }
    return st;
}

void
fgm_etab_free(fgm_etab *t)
{
    free(t->vars);
    free(t->p);
    memset(t, 0, sizeof *t);
}

/* STRIDE[j]: how far G's index moves when T's variable j moves by one
 * (0 when G lacks it).  Both variable lists ascend. */
static void
strides_in(const fgm_etab *t, const fgm_etab *g, const int *card,
           long *stride)
{
    long s = 1;
    int j, i = g->n - 1;

    for (j = t->n - 1; j >= 0; j--) {
        if (i >= 0 && g->vars[i] == t->vars[j]) {
            stride[j] = s;
            s *= card[g->vars[i]];
            i--;
        } else {
            stride[j] = 0;
        }
    }
}

/* log(e^A + e^B), either -HUGE_VAL. */
static double
log_add(double a, double b)
{
    if (a < b) {
        double c = a;

        a = b;
        b = c;
    }
    return b == -HUGE_VAL ? a : a + log1p(exp(b - a));
}

/* The largest of P[0..N-1]. */
static double
largest(const double *p, long n)
{
    double top = 0.0;
    long i;

    for (i = 0; i < n; i++)
        top = p[i] > top ? p[i] : top;
    return top;
}

double
fgm_etab_lost_below(long n)
{
    return n > 0 ? log((double)n * DBL_MIN) : -HUGE_VAL;
}

/* The block of T's last variables against G (STRIDE: strides_in): its
 * entries, and in *INNER G's stride along it, 0 (G lacks them all) or 1
 * (G's last variables, in step with T's).  *OUTER: how many of T's
 * variables the odometer still turns. */
static long
block_of(const fgm_etab *t, const long *stride, const int *card,
         long *inner, int *outer)
{
    long b = 1;
    int j = t->n - 1;

    *inner = j >= 0 && stride[j] != 0;
    while (j >= 0 && stride[j] == *inner * b) {
        b *= card[t->vars[j]];
        j--;
    }
    *outer = j + 1;
    return b;
}

/* Moves T's odometer IDX over its first OUTER variables one block on;
 * returns the change of the index into the other table (STRIDE:
 * strides_in). */
static long
step_outer(const fgm_etab *t, int outer, int *idx, const long *stride,
           const int *card)
{
    long d = 0;
    int j;

    for (j = outer - 1; j >= 0; j--) {
        d += stride[j];
        if (++idx[j] < card[t->vars[j]])
            return d;
        d -= stride[j] * card[t->vars[j]];
        idx[j] = 0;
    }
    return d;
}

/* What a loss of G's scales by in T * G: the largest sum of the entries
 * of T that one entry of G multiplies (T reduced onto G's variables),
 * each lost part of an entry of G being lost times them.  (The largest
 * entry of T times how many meet one of G grew the bound by the domain
 * size a step: a 1,000-step chain was refused for one underflow at its
 * end.)  Out of memory, that coarser bound. */
static double
spread_of(const fgm_etab *t, const fgm_etab *g, const int *card)
{
    fgm_etab onto;
    double s;

    if (fgm_etab_init(&onto, g->vars, g->n, card) != FGM_OK)
        return largest(t->p, t->size) * ((double)t->size / (double)g->size);
    fgm_etab_reduce(t, &onto, card, 0);
    s = largest(onto.p, onto.size);
    fgm_etab_free(&onto);
    return s;
}

double
fgm_etab_mul(fgm_etab *t, const fgm_etab *g, const int *card,
             double *log_scale)
{
    long stride[FGM_ETAB_MAXVARS], gi = 0, i, b, n, inner, under = 0;
    int idx[FGM_ETAB_MAXVARS] = { 0 }, outer;
    double top = 0.0, *x, spread = 0.0, lost;

    if (g->lost > -HUGE_VAL)
        spread = spread_of(t, g, card);
    feclearexcept(FE_UNDERFLOW);
    strides_in(t, g, card, stride);
    n = block_of(t, stride, card, &inner, &outer);
    for (i = 0; i < t->size; i += n) {
        x = t->p + i;
        if (inner)
            for (b = 0; b < n; b++) {
                x[b] *= g->p[gi + b];
                top = x[b] > top ? x[b] : top;
            }
        else
            for (b = 0; b < n; b++) {
                x[b] *= g->p[gi];
                top = x[b] > top ? x[b] : top;
            }
        gi += step_outer(t, outer, idx, stride, card);
    }
    /* The sticky flag, not a test an entry (which cost elimination a
     * third of its time on a 12x12 grid); it says that some product
     * left the doubles, so every entry is counted as lost. */
    under = fetestexcept(FE_UNDERFLOW) ? t->size : 0;
    if (t->lost > -HUGE_VAL || g->lost > -HUGE_VAL || under > 0) {
        lost = fgm_etab_lost_below(under);
        if (t->lost > -HUGE_VAL)
            lost = log_add(lost, t->lost + log(largest(g->p, g->size)));
        if (g->lost > -HUGE_VAL)
            lost = log_add(lost, g->lost + log(spread));
        t->lost = lost;
    }
    if (top > 0.0 && top < FGM_ETAB_TINY) {
        /* Rescued before the next product takes it below the doubles:
         * a few hundred factors that disagree (naive Bayes with half
         * its features against each class) did, and the run reported
         * no consistent assignment. */
        for (i = 0; i < t->size; i++)
            t->p[i] /= top;
        if (log_scale)
            *log_scale += log(top);
        t->lost -= log(top);
        top = 1.0;
    }
    return top;
}

void
fgm_etab_reduce(const fgm_etab *t, fgm_etab *out, const int *card, int max)
{
    long stride[FGM_ETAB_MAXVARS], oi = 0, i, b, n, inner;
    int idx[FGM_ETAB_MAXVARS] = { 0 }, outer;
    const double *x;
    double a;

    strides_in(t, out, card, stride);
    n = block_of(t, stride, card, &inner, &outer);
    memset(out->p, 0, (size_t)out->size * sizeof *out->p);
    out->lost = log_add(out->lost, t->lost);    /* sums: so do the losses */
    for (i = 0; i < t->size; i += n) {
        x = t->p + i;
        if (inner)
            for (b = 0; b < n; b++)
                out->p[oi + b] = max ? (x[b] > out->p[oi + b]
                                        ? x[b] : out->p[oi + b])
                                     : out->p[oi + b] + x[b];
        else {
            /* The block's entries in order, as one at a time would. */
            for (a = out->p[oi], b = 0; b < n; b++)
                a = max ? (x[b] > a ? x[b] : a) : a + x[b];
            out->p[oi] = a;
        }
        oi += step_outer(t, outer, idx, stride, card);
    }
}

double
fgm_etab_rescale(fgm_etab *t)
{
    double top = largest(t->p, t->size);
    long i, under;

    if (!(top > 0.0))
        return -HUGE_VAL;
    /* (an input's weights may pass 1: 1e-254 against 5e273 is 0) */
    feclearexcept(FE_UNDERFLOW);
    for (i = 0; i < t->size; i++)
        t->p[i] /= top;
    under = fetestexcept(FE_UNDERFLOW) ? t->size : 0;
    t->lost = log_add(t->lost - log(top), fgm_etab_lost_below(under));
    return log(top);
}
