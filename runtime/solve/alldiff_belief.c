/* runtime/solve/alldiff_belief.c: the alldiff decimation reads beliefs: supports, margins, candidate cells, draws.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include "../model.h"
#include "alldiff_decimate.h"

#define ENTROPY_TIE 1e-9   /* entropies within this of the least are tied */

/* The values of the K entries of BEL over ZERO times the largest, as
 * bits (domains of at most 64 values, FGM_IR_MAXCARD). */
unsigned long long
fgm_ad_support_mask(const double *bel, int k, double zero)
{
    unsigned long long s = 0;
    double mx = 0.0;
    int j;

    for (j = 0; j < k; j++)
        mx = bel[j] > mx ? bel[j] : mx;
    for (j = 0; j < k; j++)
        if (bel[j] > zero * mx)
            s |= 1ULL << j;
    return s;
}

/* Replaces the K entries of BEL by 1 for the values over ZERO times the
 * largest, 0 for the others, and returns how many are 1 (cfg->zero). */
static double
to_support(double *bel, int k, double zero)
{
    unsigned long long s = fgm_ad_support_mask(bel, k, zero);
    double n = 0.0;
    int j;

    for (j = 0; j < k; j++) {
        bel[j] = (double)(s >> j & 1);
        n += bel[j];
    }
    return n;
}

/* Reads V's belief into w->bel, normalized, and returns its margin top1 -
 * top2 (1 for a single value); *TOP receives the first most probable
 * value.  With cfg->zero the belief is the uniform distribution over its
 * support: the margin is 1 for one value, else 0, the entropy the log of
 * the support's size, and a draw a uniform choice within it. */
double
fgm_ad_margin_of(fgm_ad_ws *w, int v, int *top)
{
    int k = w->csp->card[v], j, b = 0;
    double sum = 0.0, t1 = -1.0, t2 = -1.0, x;

    fgm_model_marginal(w->model, v, w->bel);
    if (w->cfg->zero > 0.0)
        sum = to_support(w->bel, k, w->cfg->zero);
    else
        for (j = 0; j < k; j++)
            sum += w->bel[j];
    for (j = 0; j < k; j++) {
        x = sum > 0.0 ? w->bel[j] / sum : 1.0 / k;
        w->bel[j] = x;
        if (x > t1) {
            t2 = t1;
            t1 = x;
            b = j;
        } else if (x > t2) {
            t2 = x;
        }
    }
    *top = b;
    return k > 1 ? t1 - t2 : 1.0;
}

/* The entropy of V's belief (read into w->bel). */
static double
entropy_of(fgm_ad_ws *w, int v)
{
    int k = w->csp->card[v], j, top;
    double e = 0.0;

    fgm_ad_margin_of(w, v, &top);
    for (j = 0; j < k; j++)
        if (w->bel[j] > 0.0)
            e -= w->bel[j] * log(w->bel[j]);
    return e;
}

/* A value of V drawn from its belief (w->bel, normalized). */
int
fgm_ad_draw(const fgm_ad_ws *w, int v, gsl_rng *rng)
{
    int k = w->csp->card[v], j;
    double u = gsl_rng_uniform(rng), cum = 0.0;

    for (j = 0; j < k - 1; j++) {
        cum += w->bel[j];
        if (u < cum)
            return j;
    }
    return k - 1;
}

/* Replaces w->bel, V's support read by fgm_ad_margin_of, by the square
 * roots of V's belief on that support, normalized (cfg->sqrt_draw).  A
 * support with no mass at all stays as fgm_ad_margin_of left it. */
void
fgm_ad_sqrt_weights(fgm_ad_ws *w, int v)
{
    int k = w->csp->card[v], j;
    double sum = 0.0;

    fgm_model_marginal(w->model, v, w->raw);
    for (j = 0; j < k; j++)
        sum += w->bel[j] > 0.0 ? sqrt(w->raw[j]) : 0.0;
    if (!(sum > 0.0))
        return;
    for (j = 0; j < k; j++)
        w->bel[j] = w->bel[j] > 0.0 ? sqrt(w->raw[j]) / sum : 0.0;
}

/* Whether some free cell has no value that every message into it allows
 * (each over ZERO times its message's largest): the messages of the
 * last run say the evidence has probability zero, though the beliefs,
 * normalized products of floored messages, hide it (cfg->empty). */
int
fgm_ad_empty_cell(const fgm_ad_ws *w)
{
    const fgm_sched *s = w->model->sched;
    const double *msg = w->model->st.msg;
    double zero = w->cfg->zero > 0.0 ? w->cfg->zero : FGM_AD_SUPPORT;
    int v, i, k;
    unsigned long long allowed;

    for (v = 0; v < w->csp->nvars; v++) {
        if (w->value[v] >= 0)
            continue;
        k = s->card[v];
        allowed = k < 64 ? (1ULL << k) - 1 : ~0ULL;
        for (i = s->var_edge_off[v]; i < s->var_edge_off[v + 1] && allowed;
             i++)
            allowed &= fgm_ad_support_mask(msg + (size_t)s->var_edges[i]
                                    * (size_t)s->stride, k, zero);
        if (!allowed)
            return 1;
    }
    return 0;
}

/* The support of V's belief, read into w->bel by entropy_of: the values
 * within FGM_AD_SUPPORT of its largest, as bits. */
static unsigned long long
support_of(const fgm_ad_ws *w, int v)
{
    return fgm_ad_support_mask(w->bel, w->csp->card[v], FGM_AD_SUPPORT);
}

/* How far fixing V reaches, either way (cfg->bivalue): over the values of
 * its support, the least number of free peers with exactly two values,
 * that one among them.  Whichever value V is given, that many peers are
 * left with one value at the next run. */
static int
reach_of(const fgm_ad_ws *w, int v)
{
    const int *p = fgm_csp_peers(w->csp, v);
    int np = fgm_csp_npeers(w->csp, v), k = w->csp->card[v], i, j, n;
    int least = np + 1;
    unsigned long long s, t;

    for (j = 0; j < k; j++) {
        if (!(w->supp[v] >> j & 1))
            continue;
        n = 0;
        for (i = 0; i < np; i++) {
            if (w->value[p[i]] >= 0)
                continue;
            s = w->supp[p[i]];
            t = s & (s - 1);    /* s less its lowest value */
            n += (s >> j & 1) && t && !(t & (t - 1));
        }
        least = n < least ? n : least;
    }
    return least;
}

/* The candidates for a plateau decision: the free cells of least entropy
 * (cfg->entropy), with cfg->bivalue those of them within one of the
 * widest reach.
 * Returns their count, in w->tied. */
int
fgm_ad_least_entropy(fgm_ad_ws *w)
{
    int nvars = w->csp->nvars, v, n = 0, i, m = 0, r, rmax = -1;
    double emin = HUGE_VAL;

    for (v = 0; v < nvars; v++)
        if (w->value[v] < 0) {
            w->margin[v] = entropy_of(w, v);
            if (w->supp)
                w->supp[v] = support_of(w, v);
            if (w->margin[v] < emin)
                emin = w->margin[v];
        }
    for (v = 0; v < nvars; v++)
        if (w->value[v] < 0 && w->margin[v] <= emin + ENTROPY_TIE)
            w->tied[n++] = v;
    if (!w->cfg->bivalue || n < 2)
        return n;
    /* Each tied cell's reach, kept in its w->margin (its entropy is no
     * longer read). */
    for (i = 0; i < n; i++) {
        r = reach_of(w, w->tied[i]);
        w->margin[w->tied[i]] = r;
        rmax = r > rmax ? r : rmax;
    }
    /* Within one of the widest, not only the widest: on top95 the
     * widest alone needs 30% more attempts (the draws' paths are fewer,
     * and the shortest are not always among them). */
    for (i = 0; i < n; i++)
        if (w->margin[w->tied[i]] >= rmax - 1)
            w->tied[m++] = w->tied[i];
    return m;
}
