/* runtime/evidence.c: the log evidence, log Z, of a model as its last run
 * approximates it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Z is the total weight of the model's assignments, its Dirichlet priors
 * integrated out: what the exact backend's "log Z" gives, and what two
 * models of the same data are compared by (a fair die against a loaded
 * one).  From the run's messages, with every message m normalized and
 * each variable's cavity c_ia = b_i / m_ai (b_i its belief rebuilt from
 * its evidence row r_i and its messages):
 *
 *   log Z = sum_a log Zt_a + sum_i log Z_i,
 *   Z_i   = sum_x r_i(x) prod_a m_ai(x),
 *   Zt_a  = sum_x f_a(x) prod_{i in a} c_ia(x_i),
 *
 * the Bethe free energy of bp-sum's messages (J. S. Yedidia, W. T.
 * Freeman and Y. Weiss, "Constructing free-energy approximations and
 * generalized belief propagation algorithms", IEEE Trans. Inf. Theory
 * 51(7), 2005) and EP's evidence (T. Minka, "Expectation Propagation for
 * approximate Bayesian inference", UAI 2001, section 3.3), where a
 * Dirichlet node p is a variable too: its evidence row the prior Dir(a),
 * its messages the pseudo-count messages d_f (p^d_f), so that
 *   Z_p   = B(a + sum_f d_f) / B(a) = B(post) / B(a),
 *   Zt_f  = B(post - d_f) / B(post) sum_x c(x) mean_f(x)
 * for the draw f of x from p, mean_f the mean of its cavity post - d_f
 * (an improper one floored at 1e-12, as the operator floors it), post
 * the prior plus the messages (node_posts).  The formula does not
 * depend on how the messages are scaled.  It is exact where the run is:
 * BP on a forest at its fixed point, EP on draws whose variables are
 * observed (Dirichlet(a + counts)).  BP sends each node's prior mean
 * (runtime/ops/dirichlet.h), so under bp-sum a prior counts as its mean,
 * which differs from integrating it out where two draws share it; a
 * point-mass prior (a clue) is its vector under both.  A run that
 * reports a contradiction (fgm_model_contradiction) has none: -inf.
 *
 * bp-max: the same with every sum a maximum gives the log of the largest
 * weight, exact on a tree at max-product's fixed point (the model is
 * prod_a B_a / prod_i B_i^(d_i - 1), B the beliefs before normalizing,
 * and on a tree one assignment maximizes every B at once); a native
 * alldiff's best injective assignment comes from a subset DP over its
 * values, as the sum-product minors do (at most FGM_K_ALLDIFF_SUM_MAXK
 * values: a larger one is refused).
 *
 * The cavities are formed in logs, so that a variable of many strong
 * messages (whose belief product underflows) keeps its digits; each
 * factor's sum then runs on cavities normalized to 1 and their logs'
 * scales added back.
 */
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

/* Past this pseudo-count, GSL's lngamma differences lose digits (about
 * DBL_EPSILON a log a); Stirling's series with log1p is used there. */
#define EV_STIRLING_MIN 1e3

/* The floor of an EP cavity's pseudo-counts (runtime/ops/dirichlet.h). */
#define EV_CAVITY_FLOOR 1e-12

/* log Gamma(A + X) - log Gamma(A), for A > 0 and A + X > 0. */
static double
log_gamma_ratio(double a, double x)
{
    double b = a + x;

    if (x == 0.0)
        return 0.0;
    if (a < EV_STIRLING_MIN || b < EV_STIRLING_MIN)
        return gsl_sf_lngamma(b) - gsl_sf_lngamma(a);
    /* (b - 1/2) log b - b - ((a - 1/2) log a - a) + S(b) - S(a),
     * S(z) = 1/(12 z) - 1/(360 z^3) + 1/(1260 z^5). */
    return (a - 0.5) * log1p(x / a) + x * log(b) - x
           + (1.0 / (12.0 * b) - 1.0 / (12.0 * a))
           - (1.0 / (360.0 * b * b * b) - 1.0 / (360.0 * a * a * a))
           + (1.0 / (1260.0 * pow(b, 5)) - 1.0 / (1260.0 * pow(a, 5)));
}

/* log B(FROM + STEP) - log B(FROM) (runtime/model.h). */
double
fgm_evidence_log_beta_ratio(const double *from, const double *step, int k)
{
    double s = 0.0, a = 0.0, x = 0.0;
    int i;

    for (i = 0; i < k; i++) {
        s += log_gamma_ratio(from[i], step[i]);
        a += from[i];
        x += step[i];
    }
    return s - log_gamma_ratio(a, x);
}

/* log(sum_x exp(L[x])) over K entries, with MAX the largest L[x]; -inf
 * when all are. */
static double
log_sum_exp(const double *l, int k, int max)
{
    double top = -HUGE_VAL, s = 0.0;
    int i;

    for (i = 0; i < k; i++)
        top = l[i] > top ? l[i] : top;
    if (top == -HUGE_VAL || max)
        return top;
    for (i = 0; i < k; i++)
        s += exp(l[i] - top);
    return top + log(s);
}

typedef struct ev {
    const fgm_model *m;
    const fgm_sched *s;
    int ep;             /* the nodes learn (ep), else their prior means */
    int max;            /* bp-max: maxima for sums */
    double *cav;        /* nedges x stride: each edge's cavity, sum 1 */
    double *cav_log;    /* nedges: the log of what it was divided by */
    double *mean;       /* stride: a node's mean (node_term) */
    double *post;       /* ndirichlet x stride (ep): each node's posterior
                         * as its prior times its messages, a + sum d_f
                         * (node_posts) */
    double *work;       /* alldiff: the subset DP's doubles and rows */
} ev;

/* Variable V's term, log Z_v, and the cavities of its edges into E. */
static double
variable_term(ev *e, int v)
{
    const fgm_sched *s = e->s;
    int S = s->stride, k = s->card[v], i, x, j;
    const double *r = e->m->st.unary + (size_t)v * S;
    double l[FGM_K_MAXCARD], lc[FGM_K_MAXCARD];
    double scale = e->m->unary_log[v], lz, lm, sum;

    /* The unary vector the run used, and its scale (set_unary). */
    for (x = 0; x < k; x++)
        l[x] = log(r[x]);
    /* Each edge's log message, normalized, parked in its cavity row. */
    for (i = s->var_edge_off[v]; i < s->var_edge_off[v + 1]; i++) {
        const double *msg = e->m->st.msg + (size_t)s->var_edges[i] * S;
        double *row = e->cav + (size_t)s->var_edges[i] * S;

        for (x = 0, sum = 0.0; x < k; x++)
            sum += msg[x];
        sum = log(sum);
        for (x = 0; x < k; x++) {
            /* Messages are floored above 0; a 0 would make the cavity
             * 0 / 0, so it is kept at the smallest double's log. */
            lm = (msg[x] > 0.0 ? log(msg[x]) : -745.0) - sum;
            row[x] = lm;
            l[x] += lm;
        }
    }
    lz = log_sum_exp(l, k, e->max);
    if (lz == -HUGE_VAL)
        return lz;
    for (i = s->var_edge_off[v]; i < s->var_edge_off[v + 1]; i++) {
        double *row = e->cav + (size_t)s->var_edges[i] * S;

        j = s->var_edges[i];
        for (x = 0; x < k; x++)
            lc[x] = l[x] - row[x];
        e->cav_log[j] = log_sum_exp(lc, k, e->max);
        for (x = 0; x < k; x++)
            row[x] = exp(lc[x] - e->cav_log[j]);
        e->cav_log[j] -= lz;
    }
    return scale + lz;
}

/* Node D's mean as the draw of message row G sees it into E->mean (K),
 * and the log of B(cavity) / B(posterior) (0 where the node does not
 * learn: a point mass, or BP). */
static double
node_term(ev *e, int d, int g, int k)
{
    const fgm_state *st = &e->m->st;
    size_t S = (size_t)e->s->stride;
    const double *post = e->post + d * S, *msg = st->dir_msg + g * S;
    const double *prior = st->dir_prior + d * S;
    int mean_proj = e->s->infer.projection == FGM_PROJECTION_MEAN;
    double cav[FGM_K_MAXCARD], step[FGM_K_MAXCARD], sum = 0.0;
    int i;

    if (!e->ep || st->dir_point[d]) {
        for (i = 0; i < k; i++)
            sum += e->mean[i] = st->dir_prior[d * S + i];
        for (i = 0; i < k; i++)
            e->mean[i] /= sum;
        return 0.0;
    }
    /* An improper cavity's pseudo-count at the operator's floor; a
     * proper one as it is, however small (a prior below the floor).
     * Under the mean projection every message is >= 0, so a cavity is
     * at least the prior: where post - msg falls below it, the prior was
     * lost in post's sum (1e-300 + 5.5e-13 - 5.5e-13 = 0), and the
     * floor in its place left B(cavity) / B(post) uncancelled by B(post)
     * / B(prior), log Z -665 for an exact -2.30 (a gated draw from
     * Dir(1e-300, 1, 1e-20) whose gate is unobserved). */
    for (i = 0; i < k; i++) {
        cav[i] = post[i] - msg[i];
        if (mean_proj && cav[i] < prior[i])
            cav[i] = prior[i];
        cav[i] = cav[i] > 0.0 ? cav[i] : EV_CAVITY_FLOOR;
        step[i] = post[i] - cav[i];
        sum += cav[i];
    }
    for (i = 0; i < k; i++)
        e->mean[i] = cav[i] / sum;
    return -fgm_evidence_log_beta_ratio(cav, step, k);
}

/* sum_x c0(x) sum_{y != x} c1(y), with the partial sums of c1 (no
 * cancellation when c1 is nearly a point mass); with MAX, the largest
 * c0(x) c1(y), y != x. */
static double
neq_sum(const double *c0, const double *c1, int k, int max)
{
    double below = 0.0, above[FGM_K_MAXCARD + 1], z = 0.0;
    int x, top = 0, next = -1;

    if (max) {
        for (x = 1; x < k; x++)
            top = c1[x] > c1[top] ? x : top;
        for (x = 0; x < k; x++)
            if (x != top && (next < 0 || c1[x] > c1[next]))
                next = x;
        for (x = 0; x < k; x++) {
            double t = c0[x] * (x == top ? c1[next] : c1[top]);

            z = t > z ? t : z;
        }
        return z;
    }
    above[k] = 0.0;
    for (x = k - 1; x >= 0; x--)
        above[x] = above[x + 1] + c1[x];
    for (x = 0; x < k; x++) {
        z += c0[x] * (below + above[x + 1]);
        below += c1[x];
    }
    return z;
}

/* sum over the table's entries of weight times the cavities (E->max:
 * the largest). */
static double
table_sum(const ev *e, const fgm_sched_factor *f, const int *vars)
{
    const double *w = e->s->ir->param_pool + f->aux;
    int dig[FGM_K_TABLE_MAXARITY] = {0}, n = f->arity, i;
    long t, size = 1;
    double z = 0.0, p;

    for (i = 0; i < n; i++)
        size *= e->s->card[vars[i]];
    for (t = 0; t < size; t++) {
        for (i = 0, p = w[t]; i < n && p != 0.0; i++)
            p *= e->cav[(size_t)(f->edge + i) * e->s->stride + dig[i]];
        z = e->max ? (p > z ? p : z) : z + p;
        for (i = n - 1; i >= 0 && ++dig[i] == e->s->card[vars[i]]; i--)
            dig[i] = 0;
    }
    return z;
}

/* The best injective assignment of the N cavity rows of F onto its K
 * values: B[S], the best of the first |S| rows onto the value set S,
 * layer by layer (masks of one popcount, as fgm_k_ad_layer walks
 * them), in WORK (2^K doubles). */
static double
alldiff_best(ev *e, const fgm_sched_factor *f, int k)
{
    unsigned long s, b, lim = 1UL << k;
    double *best = e->work, z = 0.0, t;
    int n = f->arity, r;

    best[0] = 1.0;
    for (r = 1; r <= n; r++) {
        const double *c = e->cav + (size_t)(f->edge + r - 1) * e->s->stride;

        for (s = (1UL << r) - 1; s < lim; s = fgm_k_ad_next(s)) {
            for (b = s, best[s] = 0.0; b; b &= b - 1) {
                t = best[s ^ (b & (~b + 1))] * c[fgm_k_ad_ctz(b)];
                best[s] = t > best[s] ? t : best[s];
            }
            if (r == n)
                z = best[s] > z ? best[s] : z;
        }
    }
    return z;
}

/* The permanent of the cavities (the weight of the injective
 * assignments), from the sum-product kernel's minors of the first row;
 * with E->max, the best one (alldiff_best). */
static double
alldiff_sum(ev *e, const fgm_sched_factor *f, int k)
{
    int n = f->arity, i, v;
    double *q = e->work + (2UL << k), *out = q + (size_t)n * k, z = 0.0;
    double scale[FGM_K_MAXCARD];
    unsigned char skip[FGM_K_MAXCARD];

    if (e->max)
        return alldiff_best(e, f, k);
    for (i = 0; i < n; i++) {
        memcpy(q + (size_t)i * k,
               e->cav + (size_t)(f->edge + i) * e->s->stride,
               (size_t)k * sizeof *q);
        skip[i] = i > 0;    /* row 0's minors are enough */
    }
    fgm_k_alldiff_sum_minors_scaled(q, n, k, out, e->work, skip, scale);
    for (v = 0; v < k; v++)
        z += q[v] * out[v];
    return z * scale[0];
}

/* The draw whose joint gate value picks node D0 + j (row G0 + j):
 * sum (E->max: the largest) over x and the gates of their cavities times
 * the picked node's mean, into *Z; returns the nodes' log B ratios. */
static double
gated_sum(ev *e, const fgm_sched_factor *f, const int *vars, double *z)
{
    const fgm_sched *s = e->s;
    int ng = f->arity - 1, kx = s->card[vars[0]];
    int dig[FGM_K_GATED_MAXGATES], cards[FGM_K_GATED_MAXGATES];
    int nj = 1, g, j, x;
    const double *cx = e->cav + (size_t)f->edge * s->stride;
    double lb = 0.0, w, t;

    for (g = 0; g < ng; g++) {
        cards[g] = s->card[vars[1 + g]];
        nj *= cards[g];
        dig[g] = 0;
    }
    *z = 0.0;
    for (j = 0; j < nj; j++) {
        lb += node_term(e, f->aux + j, f->dfac + j, kx);
        /* The gates' cavity rows follow x's, as the operator's do. */
        w = fgm_k_gated_weight(cx + s->stride, dig, ng, -1, s->stride);
        for (x = 0, t = 0.0; x < kx; x++)
            t = e->max ? fmax(t, cx[x] * e->mean[x]) : t + cx[x] * e->mean[x];
        *z = e->max ? fmax(*z, w * t) : *z + w * t;
        fgm_k_gated_next(dig, cards, ng);
    }
    return lb;
}

/* Schedule factor F's term, log Zt_f. */
static double
factor_term(ev *e, const fgm_sched_factor *f)
{
    const fgm_sched *s = e->s;
    const int *vars = s->edge_var + f->edge;
    int k = s->card[vars[0]], i;
    double lz = 0.0, z = 0.0;

    for (i = 0; i < f->arity; i++)
        lz += e->cav_log[f->edge + i];
    switch (f->op) {
    case FGM_OP_NEQ:
        z = neq_sum(e->cav + (size_t)f->edge * s->stride,
                    e->cav + (size_t)(f->edge + 1) * s->stride, k, e->max);
        break;
    case FGM_OP_TABLE:
        z = table_sum(e, f, vars);
        break;
    case FGM_OP_ALLDIFF:
        z = alldiff_sum(e, f, k);
        break;
    case FGM_OP_DIRICHLET:
        lz += node_term(e, f->aux, f->dfac, k);
        for (i = 0; i < k; i++) {
            double t = e->cav[(size_t)f->edge * s->stride + i] * e->mean[i];

            z = e->max ? fmax(z, t) : z + t;
        }
        break;
    case FGM_OP_DIRICHLET_GATED:
        lz += gated_sum(e, f, vars, &z);
        break;
    case FGM_OP_SUM:
        return lz + fgm_k_sum_log_mass(
                   e->work, e->cav + (size_t)f->edge * s->stride, vars,
                   s->card, 0, fgm_sched_sum_coef(s, f), f->arity,
                   (long)s->ir->param_pool[f->aux],
                   (long)s->ir->param_pool[f->aux + 1], s->stride, e->max);
    }
    return lz + log(z);
}

/* The work of the largest native alldiff or sum of S (0: none), or -1
 * when bp-max has an alldiff of more than FGM_K_ALLDIFF_SUM_MAXK values
 * (the sum-product schedule refuses those). */
static size_t
work_doubles(const fgm_sched *s)
{
    size_t most = 0, need;
    int i, k;

    for (i = 0; i < s->nfactors; i++) {
        const fgm_sched_factor *f = &s->factors[i];

        if (f->op == FGM_OP_SUM) {  /* fgm_k_sum_log_mass's F */
            need = (size_t)fgm_k_sum_partials(
                       f->arity, fgm_k_sum_span(s->edge_var + f->edge,
                                                s->card, 0,
                                                fgm_sched_sum_coef(s, f),
                                                f->arity));
            most = need > most ? need : most;
        }
        if (f->op != FGM_OP_ALLDIFF)
            continue;
        k = s->card[s->edge_var[s->factors[i].edge]];
        if (k > FGM_K_ALLDIFF_SUM_MAXK)
            return (size_t)-1;
        need = (2UL << k) + 2 * (size_t)s->factors[i].arity * k;
        most = need > most ? need : most;
    }
    return most;
}

/* E->post: each node's prior plus its draws' messages, each row once
 * (a forest's schedule runs a factor twice).  Not st->dir_post, which
 * the operator sets to its cavity plus its message: its cavity floored
 * at 1e-12, that posterior holds the floor where a prior is below it
 * and no draw adds to it, and B(post) / B(prior) then counted the
 * floor's Gamma against the prior's (three observed draws of Dir(1e-300,
 * 1e-300, 1e-300): log Z -1327, where the exact answer is log 1/3).
 * ROWS: ndirfactors bytes of 0. */
static void
node_posts(ev *e, unsigned char *rows)
{
    const fgm_sched *s = e->s;
    const fgm_state *st = &e->m->st;
    size_t S = (size_t)s->stride, x;
    int i, j, n, d;

    memcpy(e->post, st->dir_prior, (size_t)s->ndirichlet * S
                                   * sizeof *e->post);
    for (i = 0; i < s->nfactors; i++) {
        const fgm_sched_factor *f = &s->factors[i];

        if (f->op == FGM_OP_DIRICHLET)
            n = 1;
        else if (f->op == FGM_OP_DIRICHLET_GATED)
            n = fgm_ir_gated_nodes(s->ir, &s->ir->factors[f->ir_factor]);
        else
            continue;
        for (j = 0; j < n; j++) {
            if (rows[f->dfac + j])
                continue;
            rows[f->dfac + j] = 1;
            d = f->aux + j;
            for (x = 0; x < S; x++)
                e->post[(size_t)d * S + x]
                    += st->dir_msg[(size_t)(f->dfac + j) * S + x];
        }
    }
}

/* The terms summed, with E's arrays allocated (SEEN: nedges bytes of 0);
 * -inf as soon as one is (a variable or factor of no weight). */
static double
log_evidence(ev *e, unsigned char *seen)
{
    const fgm_sched *s = e->s;
    const fgm_ir *ir = s->ir;
    const fgm_state *st = &e->m->st;
    size_t S = (size_t)s->stride;
    double total = 0.0, step[FGM_K_MAXCARD];
    int v, i, d, j, k;

    for (v = 0; v < s->nvars && total > -HUGE_VAL; v++)
        total += variable_term(e, v);
    /* On a forest the schedule runs a factor twice, on the same edges:
     * it counts once. */
    for (i = 0; i < s->nfactors && total > -HUGE_VAL; i++) {
        if (seen[s->factors[i].edge])
            continue;
        seen[s->factors[i].edge] = 1;
        total += factor_term(e, &s->factors[i]);
    }
    /* Each learning node's Z_p = B(post) / B(prior). */
    for (d = 0; e->ep && d < s->ndirichlet && total > -HUGE_VAL; d++) {
        if (st->dir_point[d])
            continue;
        k = ir->arrays[ir->dir_array[d]].card;
        for (j = 0; j < k; j++)
            step[j] = e->post[d * S + j] - st->dir_prior[d * S + j];
        total += fgm_evidence_log_beta_ratio(st->dir_prior + d * S, step, k);
    }
    return total;
}

fgm_status
fgm_model_log_evidence(const fgm_model *m, double *out)
{
    ev e;
    size_t S, nad;
    unsigned char *seen, *rows;
    fgm_status st = FGM_ENOMEM;
    int clash;

    if (!m || !out || !m->ran || m->observed_since_run)
        return FGM_EINVAL;
    /* A sampler's evidence needs annealing or bridge sampling, not its
     * one chain. */
    if (m->sched->infer.algo == FGM_ALGO_GIBBS)
        return FGM_EUNSUPPORTED;
    if (work_doubles(m->sched) == (size_t)-1)
        return FGM_EUNSUPPORTED;    /* max-product over a wide alldiff */
    /* A run that left a variable no value has no evidence: the sums
     * below would see the messages' floors (log 1e-290 = -668 through a
     * table) and pass them off as a weight. */
    if (fgm_model_find_contradiction(m, &clash) != FGM_OK)
        return FGM_ENOMEM;
    if (clash >= 0) {
        *out = -HUGE_VAL;
        return FGM_OK;
    }
    /* Mean field's bound on it (runtime/evidence_vmp.c). */
    if (m->sched->infer.algo == FGM_ALGO_VMP)
        return fgm_evidence_vmp(m, out);
    memset(&e, 0, sizeof e);
    e.m = m;
    e.s = m->sched;
    e.ep = e.s->infer.algo == FGM_ALGO_EP;
    e.max = e.s->infer.algo == FGM_ALGO_BP_MAX;
    S = (size_t)e.s->stride;
    nad = work_doubles(e.s);
    e.cav = malloc(((size_t)e.s->nedges * S + 1) * sizeof *e.cav);
    e.cav_log = malloc(((size_t)e.s->nedges + 1) * sizeof *e.cav_log);
    e.mean = malloc((S + 1) * sizeof *e.mean);
    e.work = nad ? malloc(nad * sizeof *e.work) : NULL;
    e.post = malloc(((size_t)e.s->ndirichlet * S + 1) * sizeof *e.post);
    rows = calloc((size_t)e.s->ndirfactors + 1, 1);
    seen = calloc((size_t)e.s->nedges + 1, 1);
    if (e.cav && e.cav_log && e.mean && (e.work || !nad) && e.post && rows
        && seen) {
        if (e.ep)
            node_posts(&e, rows);
        *out = log_evidence(&e, seen);
        /* NaN would be a bug here, not an answer. */
        st = isnan(*out) ? FGM_EINTERNAL : FGM_OK;
    }
    free(e.cav);
    free(e.cav_log);
    free(e.mean);
    free(e.work);
    free(e.post);
    free(rows);
    free(seen);
    return st;
}
