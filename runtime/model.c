/* runtime/model.c: fgm_model: observations, runs and marginals.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A model owns its IR, its schedule, the run state (one allocation sized
 * from the schedule) and, when compiled, its plugin.  A run starts from
 * fresh messages unless fgm_run_opts.warm asks to continue the last one,
 * so running puzzle after puzzle on one model gives the same answers as a
 * new model per puzzle, and the interpreted and compiled backends see
 * exactly the same inputs.
 */
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_psi.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

void
fgm_model_free(fgm_model *m)
{
    if (!m)
        return;
    fgm_model_detach_plugin(m);
    free(m->mem);
    free(m->adcache);
    free(m->dir_point);
    free(m->clamp);
    free(m->soft);
    free(m->has_soft);
    free(m->soft_log);
    free(m->unary_log);
    free(m->pinned);
    free(m->live);
    free(m->prior_of);
    free(m->sample);
    free(m->chain_se);
    if (m->rng)
        gsl_rng_free(m->rng);
    fgm_sched_free(m->sched);
    fgm_ir_free(m->ir);
    free(m);
}

/* Doubles per array rounded up to a 64-byte cache line. */
static size_t
line_up(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* Fills m->prior_of: the observed Dirichlet node a clue on each
 * variable is a point mass on (fgm_ir_clue_nodes), or -1.  Returns 0
 * when out of memory. */
static int
find_priors(fgm_model *m)
{
    m->prior_of = malloc(((size_t)m->ir->nvars + 1) * sizeof *m->prior_of);
    return m->prior_of && fgm_ir_clue_nodes(m->ir, m->prior_of) == FGM_OK;
}

/* fgm_state.uniform: a draw in [0, 1) from the model's GSL generator. */
static double
uniform_draw(void *rng)
{
    return gsl_rng_uniform(rng);
}

/* The next N doubles of m->mem from *OFF, which moves past them. */
static double *
carve(fgm_model *m, size_t *off, size_t n)
{
    double *p = m->mem + *off;

    *off += n;
    return p;
}

/* Carves the state arrays out of one allocation, each starting on a
 * cache line: with the stride a multiple of four lanes (of eight past
 * four where the CPU has AVX-512, fgm_sched_pairs), every vector chunk a
 * kernel loads is then 32-byte aligned, and there every pair of chunks
 * 64-byte aligned (no split loads). */
static int
alloc_state(fgm_model *m)
{
    const fgm_sched *s = m->sched;
    size_t S = (size_t)s->stride, n, off = 0;
    size_t nv = line_up(S * (size_t)s->nvars);
    size_t ne = line_up(S * (size_t)s->nedges);
    size_t nd = line_up(S * (size_t)s->ndirichlet);
    size_t ng = line_up(S * (size_t)s->ndirfactors);
    /* The sampler's arrays, for gibbs only; mean field's counts and
     * E[log p] for vmp. */
    int gibbs = s->infer.algo == FGM_ALGO_GIBBS;
    int vmp = s->infer.algo == FGM_ALGO_VMP;
    size_t gv = gibbs ? nv : 0, gd = gibbs ? nd : 0;
    size_t gt = gibbs ? line_up((size_t)s->ndirichlet) : 0;
    size_t vd = vmp ? nd : 0;
    fgm_state *st = &m->st;

    n = 2 * nv + 2 * ne + 2 * nd + ng + 2 * gv + 2 * gd + gt + 2 * vd
        + line_up((size_t)s->nscratch + 1);
    m->mem = aligned_alloc(64, n * sizeof *m->mem);
    m->dir_point = calloc((size_t)s->ndirichlet + 1, 1);
    m->clamp = malloc(((size_t)s->nvars + 1) * sizeof *m->clamp);
    m->pinned = calloc((size_t)s->nvars + 1, 1);
    m->live = malloc(((size_t)s->nfactors + 1) * sizeof *m->live);
    m->unary_log = calloc((size_t)s->nvars + 1, sizeof *m->unary_log);
    m->sample = malloc(((size_t)s->nvars + 1) * sizeof *m->sample);
    if (gibbs)
        m->rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!m->mem || !m->dir_point || !m->clamp || !m->pinned || !m->live
        || !m->unary_log || !m->sample || (gibbs && !m->rng))
        return 0;
    memset(m->mem, 0, n * sizeof *m->mem);
    st->unary = carve(m, &off, nv);
    st->belief = carve(m, &off, nv);
    st->msg = carve(m, &off, ne);
    st->prev = carve(m, &off, ne);
    st->dir_prior = carve(m, &off, nd);
    st->dir_post = carve(m, &off, nd);
    st->dir_msg = carve(m, &off, ng);
    st->tally = carve(m, &off, gv);
    st->gsweep = carve(m, &off, gv);
    st->gcount = carve(m, &off, vmp ? vd : gd);
    st->gtally = carve(m, &off, gd);
    st->gtotal = carve(m, &off, gt);
    st->elog = carve(m, &off, vd);
    st->digamma = gsl_sf_psi;
    st->scratch = m->mem + off;
    st->dir_point = m->dir_point;
    st->sample = m->sample;
    st->rng = m->rng;
    st->uniform = uniform_draw;
    st->pinned = m->pinned;
    for (n = 0; n < (size_t)s->nfactors; n++)
        if (s->factors[n].op == FGM_OP_ALLDIFF) {
            /* All bits set: a NaN no cavity equals, so the first update
             * of every factor computes its messages. */
            m->adcache = malloc(2 * ne * sizeof *m->adcache);
            if (!m->adcache)
                return 0;
            memset(m->adcache, 0xff, 2 * ne * sizeof *m->adcache);
            st->adcache = m->adcache;
            break;
        }
    return 1;
}

/* Writes into U (stride doubles) variable V's static evidence times its
 * observed weights (fgm_model_observe_weights) or its clamp, normalized;
 * returns the log of what the normalizing divided out (the row the model
 * weighs is exp(that) U; -inf for a row of zeros). */
static double
evidence_row(const fgm_model *m, int v, double *u)
{
    const fgm_sched *s = m->sched;
    double scale = s->evidence_log[v];
    int j;

    memcpy(u, s->evidence + (size_t)v * (size_t)s->stride,
           (size_t)s->stride * sizeof *u);
    if (m->has_soft && m->has_soft[v]) {
        const double *w = m->soft + (size_t)v * (size_t)s->stride;
        double sum = 0.0;

        for (j = 0; j < s->card[v]; j++)
            sum += u[j] *= w[j];
        /* Normalized as the static evidence is, but a product of zeros
         * stays zero: a contradiction the run reports, not a uniform
         * row (fgm_k_normalize's fallback). */
        for (j = 0; sum > 0.0 && j < s->card[v]; j++)
            u[j] /= sum;
        scale += log(sum) + m->soft_log[v];
    }
    if (m->clamp[v] >= 0) {
        for (j = 0; j < s->card[v]; j++)
            if (j != m->clamp[v])
                u[j] *= m->clamp_eps;
        if (m->clamp_eps > 0.0)
            scale += log(fgm_k_normalize(u, s->card[v]));
    }
    return scale;
}

/* Rebuilds variable V's unary vector (evidence_row), and its log scale
 * for the log evidence. */
static void
set_unary(fgm_model *m, int v)
{
    const fgm_sched *s = m->sched;
    double *u = m->st.unary + (size_t)v * (size_t)s->stride;
    int j;

    m->unary_log[v] = evidence_row(m, v, u);
    m->observed_since_run = 1;
    /* The seed's flooding BP takes log(evidence + BP_EPS) into its
     * products, as it takes its messages (fgm_k_neq_seed). */
    if (fgm_sched_seed_flooding(s))
        for (j = 0; j < s->card[v]; j++)
            u[j] += FGM_K_SEED_EPS;
}

/* Sets the stored variable-to-factor messages of V's edges to its
 * evidence row normalized; with RNG, each entry first times
 * exp(U(-NOISE, NOISE)) after the seed's offset, and the row
 * renormalized with the seed's floor (_bp_normalize(exp(log(row +
 * BP_EPS) + U))). */
static void
v2f_from_evidence(fgm_model *m, int v, gsl_rng *rng, double noise)
{
    const fgm_sched *s = m->sched;
    size_t S = (size_t)s->stride;
    double row[FGM_K_MAXCARD], *p;
    int i, j, k = s->card[v];

    evidence_row(m, v, row);
    fgm_k_normalize(row, k);
    for (i = s->var_edge_off[v]; i < s->var_edge_off[v + 1]; i++) {
        p = m->st.prev + (size_t)s->var_edges[i] * S;
        for (j = 0; j < k; j++)
            p[j] = row[j];
        if (!rng)
            continue;
        for (j = 0; j < k; j++) {
            double x = exp(log(p[j] + FGM_K_SEED_EPS)
                           + (2.0 * gsl_rng_uniform(rng) - 1.0) * noise);

            p[j] = x > FGM_K_SEED_EPS ? x : FGM_K_SEED_EPS;
        }
        fgm_k_normalize(p, k);
    }
}

/* Leaves the seed's v4 start (fgm_model_v2f_start): nothing pinned. */
static void
v2f_unpin(fgm_model *m)
{
    if (!m->v2f_pins)
        return;
    memset(m->pinned, 0, (size_t)m->sched->nvars);
    m->v2f_pins = 0;
}

void
fgm_model_clear(fgm_model *m)
{
    int v, d;

    if (!m)
        return;
    v2f_unpin(m);
    if (m->has_soft)
        memset(m->has_soft, 0, (size_t)m->sched->nvars);
    for (v = 0; v < m->sched->nvars; v++) {
        m->clamp[v] = -1;
        set_unary(m, v);
    }
    for (d = 0; d < m->sched->ndirichlet; d++)
        fgm_model_observe_dirichlet(m, d, NULL, 0);
}

fgm_status
fgm_model_open_ir(fgm_ir *ir, const fgm_model_opts *opts, fgm_model **out,
                  fgm_diag_fn diag, void *ctx)
{
    static const fgm_model_opts defaults;
    fgm_model *m;
    fgm_status st;

    if (!out) {
        fgm_ir_free(ir);
        return FGM_EINVAL;
    }
    *out = NULL;
    if (!ir)
        return FGM_EINVAL;
    if (!opts)
        opts = &defaults;
    if (!(opts->deadline >= 0.0)) {
        /* As fgm_model_run refuses one (a NaN is none of the three). */
        fgm_diagf(diag, ctx, "deadline %g is not a time (>= 0)",
                  opts->deadline);
        fgm_ir_free(ir);
        return FGM_EINVAL;
    }
    if (!fgm_backend_valid(opts->backend)) {
        /* Said, as an unknown algorithm is (it was refused in silence,
         * deep in the plugin loader). */
        fgm_diagf(diag, ctx, "unknown backend %d (auto %d, compiled %d, "
                  "interpreted %d)", (int)opts->backend, FGM_BACKEND_AUTO,
                  FGM_BACKEND_COMPILED, FGM_BACKEND_INTERPRETED);
        fgm_ir_free(ir);
        return FGM_EINVAL;
    }
    if (opts->algo) {
        int a = fgm_ir_algo_find(opts->algo);

        if (a < 0) {
            fgm_diagf(diag, ctx, "unknown algorithm '%s' (" FGM_ALGO_NAMES
                      ")", opts->algo);
            fgm_ir_free(ir);
            return FGM_EINVAL;
        }
        fgm_ir_switch_algo(ir, (fgm_algo)a);
    }
    m = calloc(1, sizeof *m);
    if (!m) {
        fgm_ir_free(ir);
        return FGM_ENOMEM;
    }
    m->ir = ir;
    m->sched = fgm_sched_new(ir, &st);
    if (!m->sched) {
        if (st == FGM_EUNSUPPORTED)
            fgm_sched_explain(ir, diag, ctx);
        fgm_model_free(m);
        return st;
    }
    if (!alloc_state(m) || !find_priors(m)) {
        fgm_model_free(m);
        return FGM_ENOMEM;
    }
    fgm_model_clear(m);
    st = fgm_model_attach_plugin(m, opts, diag, ctx);
    if (st != FGM_OK) {
        fgm_model_free(m);
        return st;
    }
    *out = m;
    return FGM_OK;
}

fgm_status
fgm_model_open(const char *path, const fgm_model_opts *opts,
               fgm_model **out, fgm_diag_fn diag, void *ctx)
{
    fgm_ir *ir = NULL;
    fgm_status st;

    if (!out)
        return FGM_EINVAL;
    *out = NULL;
    st = fgm_compile_file(path, NULL, &ir, diag, ctx);
    if (st != FGM_OK)
        return st;
    return fgm_model_open_ir(ir, opts, out, diag, ctx);
}

int
fgm_model_find(const fgm_model *m, const char *name, int *count)
{
    const fgm_ir_array *a = m && name ? fgm_ir_find_array(m->ir, name)
                                      : NULL;

    if (!a)
        return -1;
    if (count)
        *count = a->count;
    return a->first;
}

const fgm_ir *
fgm_model_ir(const fgm_model *m)
{
    return m ? m->ir : NULL;
}

int
fgm_model_is_compiled(const fgm_model *m)
{
    return m && m->desc != NULL;
}

void
fgm_model_plugin_info(const fgm_model *m, int *rebuilt, double *ms)
{
    if (rebuilt)
        *rebuilt = m ? m->rebuilt : 0;
    if (ms)
        *ms = m && m->plugin ? m->open_ms : 0.0;
}

fgm_status
fgm_model_set_clamp_epsilon(fgm_model *m, double epsilon)
{
    /* 1 or more would make the observed value no likelier than the
     * others (epsilon 5 left it the least likely). */
    if (!m || !(epsilon >= 0.0 && epsilon < 1.0))
        return FGM_EINVAL;
    m->clamp_eps = epsilon;
    return FGM_OK;
}

fgm_status
fgm_model_observe_var(fgm_model *m, int v, int value)
{
    if (!m || v < 0 || v >= m->sched->nvars || value >= m->sched->card[v])
        return FGM_EINVAL;
    if (m->has_soft)
        m->has_soft[v] = 0;
    if (m->prior_of[v] >= 0 && m->dir_point[m->prior_of[v]])
        /* A clue's point mass on the variable's prior is its observed
         * value (fgm_model_observe_clue): replaced, or cleared. */
        fgm_model_observe_dirichlet(m, m->prior_of[v], NULL, 0);
    m->clamp[v] = value < 0 ? -1 : value;
    set_unary(m, v);
    /* After fgm_model_v2f_start, a decision as the seed's v4 makes it:
     * its stored messages become its evidence and stay so (freed, they
     * move again from there). */
    if (m->v2f_pins) {
        m->pinned[v] = value >= 0;
        if (value >= 0)
            v2f_from_evidence(m, v, NULL, 0.0);
    }
    return FGM_OK;
}

fgm_status
fgm_model_observe_weights(fgm_model *m, int v, const double *weights)
{
    const fgm_sched *s = m ? m->sched : NULL;
    double top = 0.0, *row;
    int j;

    if (!m || v < 0 || v >= s->nvars)
        return FGM_EINVAL;
    for (j = 0; weights && j < s->card[v]; j++) {
        if (!(weights[j] >= 0.0 && isfinite(weights[j])))
            return FGM_EINVAL;
        top = weights[j] > top ? weights[j] : top;
    }
    if (weights && top == 0.0)
        return FGM_EINVAL;
    if (weights && !m->soft) {
        m->soft = calloc((size_t)s->nvars * (size_t)s->stride,
                         sizeof *m->soft);
        m->has_soft = calloc((size_t)s->nvars, 1);
        m->soft_log = calloc((size_t)s->nvars, sizeof *m->soft_log);
        if (!m->soft || !m->has_soft || !m->soft_log) {
            free(m->soft);
            free(m->has_soft);
            free(m->soft_log);
            m->soft = NULL;
            m->has_soft = NULL;
            m->soft_log = NULL;
            return FGM_ENOMEM;
        }
    }
    if (m->has_soft)
        m->has_soft[v] = weights != NULL;
    if (weights && m->prior_of[v] >= 0 && m->dir_point[m->prior_of[v]])
        /* A clue's point mass on the variable's prior is its observed
         * value (fgm_model_observe_clue): replaced too. */
        fgm_model_observe_dirichlet(m, m->prior_of[v], NULL, 0);
    if (weights) {
        /* Scaled to a largest weight of 1: only the ratios count, and
         * 1e-300 weights would underflow against the evidence. */
        row = m->soft + (size_t)v * (size_t)s->stride;
        for (j = 0; j < s->card[v]; j++)
            row[j] = weights[j] / top;
        m->soft_log[v] = log(top);
        m->clamp[v] = -1;
    }
    set_unary(m, v);
    if (m->v2f_pins)
        m->pinned[v] = m->clamp[v] >= 0;
    return FGM_OK;
}

fgm_status
fgm_model_observe_dirichlet(fgm_model *m, int d, const double *alpha,
                            int point_mass)
{
    const fgm_ir *ir = m ? m->ir : NULL;
    const fgm_ir_array *a;
    double *p, sum;
    int j;

    if (!m || d < 0 || d >= ir->ndirichlet
        || (point_mass != 0 && point_mass != 1))
        return FGM_EINVAL;
    a = &ir->arrays[ir->dir_array[d]];
    p = m->st.dir_prior + (size_t)d * (size_t)m->sched->stride;
    if (!alpha) {
        memcpy(p, fgm_ir_node_alpha(ir, d), (size_t)a->card * sizeof *p);
        m->dir_point[d] = 0;
        m->observed_since_run = 1;
        return FGM_OK;
    }
    for (j = 0, sum = 0.0; j < a->card; j++) {
        /* Pseudo-counts are positive; a point mass is a probability
         * vector, where zeros are allowed (an exact clue). */
        if (!(point_mass ? alpha[j] >= 0.0 : alpha[j] > 0.0))
            return FGM_EINVAL;
        sum += alpha[j];
    }
    /* Larger totals overflow the projections (a pseudo-count of 5e307
     * gave uniform marginals; found by a fuzzing helper). */
    if (!(sum > 0.0 && sum <= FGM_MAX_PSEUDO_COUNT))
        return FGM_EINVAL;
    memcpy(p, alpha, (size_t)a->card * sizeof *p);
    m->dir_point[d] = point_mass != 0;
    /* Only now: a refused call changes nothing, log Z included. */
    m->observed_since_run = 1;
    return FGM_OK;
}

/* Every belief rebuilt from its unary vector and messages: the plugin's
 * finish where there is one (its constant sizes make it several times
 * faster than the runtime's portable build), else the interpreter's; the
 * same numbers either way (plugin_abi.h). */
static void
rebuild_beliefs(fgm_model *m)
{
    if (m->desc)
        m->desc->finish(&m->st);
    else
        fgm_interp_finish(m->sched, &m->st);
}

/* Multiplies N rows of ROWS (STRIDE doubles apart), row i with CARD of
 * ROW_VAR[i] (NULL: of i) values, by exp(U(-NOISE, NOISE)) entry by entry
 * (a GSL MT19937 seeded with SEED) and renormalizes each: the seed's
 * log-uniform noise on restarts.  Zeros stay zero. */
static void
jitter_rows(const fgm_sched *s, double *rows, int n, const int *row_var,
            double noise, unsigned long seed)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int i, j, k;

    if (!rng)
        return;
    gsl_rng_set(rng, seed);
    for (i = 0; i < n; i++) {
        double *x = rows + (size_t)i * (size_t)s->stride;

        k = s->card[row_var ? row_var[i] : i];
        for (j = 0; j < k; j++)
            x[j] *= exp((2.0 * gsl_rng_uniform(rng) - 1.0) * noise);
        fgm_k_normalize(x, k);
    }
    gsl_rng_free(rng);
}

/* A cold run's noisy start, after the backend's reset (the same for both
 * backends): message passing's edge messages jittered, then the beliefs
 * rebuilt from them; mean field's q(x) (vmp's beliefs, just reset to the
 * evidence) jittered, a random start for its coordinate ascent, whose
 * local optimum depends on where it starts. */
static void
perturb(fgm_model *m, double noise, unsigned long seed)
{
    const fgm_sched *s = m->sched;

    if (s->infer.algo == FGM_ALGO_VMP) {
        jitter_rows(s, m->st.belief, s->nvars, NULL, noise, seed);
        return;
    }
    jitter_rows(s, m->st.msg, s->nedges, s->edge_var, noise, seed);
    rebuild_beliefs(m);
}

/* Resets the messages as a cold run of the backend does. */
static void
reset_messages(fgm_model *m)
{
    if (m->desc)
        m->desc->reset(&m->st);
    else
        fgm_interp_reset(m->sched, &m->st);
}

fgm_status
fgm_model_v2f_start(fgm_model *m, double noise, unsigned long seed)
{
    gsl_rng *rng = NULL;
    int v;

    if (!m || !fgm_sched_seed_flooding(m->sched)
        || !(noise >= 0.0 && noise <= FGM_MAX_NOISE))
        return FGM_EINVAL;
    if (noise > 0.0) {
        rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!rng)
            return FGM_ENOMEM;
        gsl_rng_set(rng, seed);
    }
    m->st.parallel = 1;
    m->st.damp_v2f = 1;
    reset_messages(m);
    for (v = 0; v < m->sched->nvars; v++) {
        m->pinned[v] = m->clamp[v] >= 0;
        v2f_from_evidence(m, v, rng, noise);
    }
    gsl_rng_free(rng);
    m->ran = 1;
    m->observed_since_run = 0;
    m->v2f_pins = 1;
    return FGM_OK;
}

/* Whether the K values at X have exactly one that is not zero. */
static int
one_hot(const double *x, int k)
{
    int j, n = 0;

    for (j = 0; j < k; j++)
        n += x[j] != 0.0;
    return n == 1;
}

/* Fills m->pinned from the current observations: a one-hot unary vector
 * (an exact clamp or evidence), or a Dirichlet factor whose prior is a
 * one-hot point mass; then st.live, the factor updates a skipping sweep
 * still runs (the kernels' own tests, fgm_k_neq_pinned and
 * fgm_k_dirichlet_pinned). */
static void
find_pinned(fgm_model *m)
{
    const fgm_sched *s = m->sched;
    size_t S = (size_t)s->stride;
    int v, i;

    for (v = 0; v < s->nvars; v++)
        m->pinned[v] = (unsigned char)one_hot(m->st.unary + (size_t)v * S,
                                              s->card[v]);
    for (i = 0; i < s->nfactors; i++) {
        const fgm_sched_factor *f = &s->factors[i];

        v = s->edge_var[f->edge];
        if (f->op == FGM_OP_DIRICHLET && m->dir_point[f->aux]
            && one_hot(m->st.dir_prior + (size_t)f->aux * S, s->card[v]))
            m->pinned[v] = 1;
    }
    m->st.nlive = 0;
    for (i = 0; i < s->nfactors; i++) {
        const fgm_sched_factor *f = &s->factors[i];
        const int *vars = s->edge_var + f->edge;

        if (f->op == FGM_OP_NEQ
            && fgm_k_neq_pinned(&m->st, vars[0], vars[1]))
            continue;
        if (f->op == FGM_OP_DIRICHLET
            && fgm_k_dirichlet_pinned(&m->st, vars[0], f->aux))
            continue;
        m->live[m->st.nlive++] = i;
    }
    m->st.live = m->live;
}

/* A gibbs run's start: no sweep kept yet, the first burn-in sweeps of
 * its ITERS not to be (the model's count, or a tenth; always fewer than
 * ITERS, so that the estimates have a sweep).  The first sweep of a COLD
 * run draws each variable given those before it only: it is never kept
 * when there are others. */
static void
gibbs_start(fgm_model *m, int iters, int cold)
{
    const fgm_sched *s = m->sched;
    size_t S = (size_t)s->stride;
    long burn = s->infer.burn_in >= 0 ? s->infer.burn_in : iters / 10;

    memset(m->st.tally, 0, S * (size_t)s->nvars * sizeof *m->st.tally);
    memset(m->st.gtally, 0,
           S * (size_t)s->ndirichlet * sizeof *m->st.gtally);
    memset(m->st.gtotal, 0, (size_t)s->ndirichlet * sizeof *m->st.gtotal);
    if (cold && iters > 1 && burn < 1)
        burn = 1;
    m->st.gibbs_burn = burn < iters - 1 ? burn : iters - 1;
    m->st.gibbs_sweeps = 0;
    m->st.gibbs_kept = 0;
    m->st.gibbs_dead = 0;
}

/* A sweep slower than this has the deadline read before every sweep
 * (fgm_model_run). */
#define SLOW_SWEEP_S 20e-6

/* One run: fgm_model_run but for its chains. */
static fgm_status
run_once(fgm_model *m, const fgm_run_opts *opts, fgm_run_info *info)
{
    static const fgm_run_opts defaults;
    const fgm_ir_infer *inf;
    int iters, i, may_skip, late = 0, every = 0, gibbs, byvar, cold;
    double tol, damping, change = 0.0, t0 = fgm_now(), now, first = 0.0;
#ifdef FGM_MXCSR_FTZ_DAZ
    unsigned csr;
#endif

    if (!m)
        return FGM_EINVAL;
    inf = &m->sched->infer;
    gibbs = inf->algo == FGM_ALGO_GIBBS;
    byvar = fgm_algo_by_variable(inf->algo);
    if (!opts)
        opts = &defaults;
    /* What the CLI refuses as a usage error is refused here too, not run
     * as some other setting (a negative count as the model's, two
     * billion sweeps, a NaN tolerance as none). */
    damping = opts->use_damping ? opts->damping : inf->damping;
    if (opts->iterations < 0 || opts->iterations > FGM_MAX_ITERATIONS
        || (opts->use_tolerance && !(opts->tolerance >= 0.0))
        || !(opts->noise >= 0.0 && opts->noise <= FGM_MAX_NOISE)
        || !(opts->deadline >= 0.0) || !(damping >= 0.0 && damping < 1.0)
        || isnan(opts->damping) || isnan(opts->tolerance))
        return FGM_EINVAL;      /* before any state changes */
    /* A sampler runs every sweep: its estimates do not converge to a
     * fixed point a tolerance could see (the model's, under --algo
     * gibbs, is left unused). */
    if (gibbs && opts->use_tolerance && opts->tolerance > 0.0)
        return FGM_EINVAL;
    /* Mean field's coordinate ascent has no messages to damp: it would
     * run as if undamped.  (The model's damping, under --algo vmp, is
     * left unused.) */
    if (inf->algo == FGM_ALGO_VMP && opts->use_damping
        && opts->damping > 0.0)
        return FGM_EINVAL;
    iters = opts->iterations > 0 ? opts->iterations : inf->iterations;
    tol = gibbs ? 0.0
                : opts->use_tolerance ? opts->tolerance : inf->tolerance;
    m->st.damping = damping;
    m->st.parallel = inf->schedule == FGM_SCHEDULE_PARALLEL && !byvar;
    m->st.damp_v2f = fgm_sched_seed_flooding(m->sched);
    m->st.skip_pinned = 0;
    cold = !opts->warm || !m->ran;
    if (cold) {
        v2f_unpin(m);
        /* A sampler's draws start from the seed; it has no messages to
         * perturb. */
        if (gibbs)
            gsl_rng_set(m->rng, opts->seed);
        reset_messages(m);
        if (opts->noise > 0.0 && !gibbs)
            perturb(m, opts->noise, opts->seed);
    } else {
        /* Observations may have changed since the last run: beliefs are
         * rebuilt from the unary vectors and the current messages
         * (bp-decimate: once a decision). */
        rebuild_beliefs(m);
    }
    if (gibbs)
        gibbs_start(m, iters, cold);
    m->ran = 1;
    m->observed_since_run = 0;
#ifdef FGM_MXCSR_FTZ_DAZ
    /* A belief entry far below 1e-300 (a value twenty neighbours rule
     * out) is as good as zero, but as a subnormal number every operation
     * on it costs a microcode assist: a quarter of an EP run's time on the
     * 9x9 Sudoku.  Flushed to zero instead, during the sweeps only; the
     * interpreter and plugins share this thread's MXCSR, so both flush
     * the same values and still agree to the bit. */
    csr = _mm_getcsr();
    _mm_setcsr(csr | FGM_MXCSR_FTZ_DAZ);
#endif
    /* The first sweeps bring every point mass into the beliefs and
     * compute the (then constant) messages out of pinned variables
     * (fgm_sched.pin_sweeps); later sweeps of an undamped run skip them.
     * Pinned variables are looked for only when a sweep can skip. */
    m->st.lost = 0;
    may_skip = iters > m->sched->pin_sweeps && m->st.damping == 0.0
               && !m->st.damp_v2f && !opts->full_sweeps && !byvar;
    if (may_skip)
        find_pinned(m);
    for (i = 0; i < iters; i++) {
        /* Before the first sweep, then before every sweep when the first
         * took over 20 us, else every fourth (a clock read costs about as
         * much as a sweep of a model of a few factors; a large model's
         * sweep can take seconds, and four of them ran 18 s past a 0.5 s
         * limit): past the deadline, this sweep is the last, and tracks
         * its change like any last one. */
        late = 0;
        if (opts->deadline > 0 && i < iters - 1
            && (i == 0 || every || (i & 3) == 3)) {
            now = fgm_now();
            late = now > opts->deadline;
            first = i == 0 ? now : first;
        }
        /* A sampler stopped in its burn-in keeps its last sweep. */
        if (late && gibbs && m->st.gibbs_burn > m->st.gibbs_sweeps)
            m->st.gibbs_burn = m->st.gibbs_sweeps;
        m->st.track_change = tol > 0.0 || i == iters - 1 || late;
        m->st.skip_pinned = may_skip && i >= m->sched->pin_sweeps;
        change = m->desc ? m->desc->sweep(&m->st)
                         : fgm_interp_sweep(m->sched, &m->st);
        if (m->st.lost) {
            /* A belief moved in place lost a value to underflow: every
             * belief rebuilt from its messages (with the exact path of
             * ops/sweep.h), so that the next sweep's cavities hold it. */
            m->st.lost = 0;
            if (!m->st.parallel)
                rebuild_beliefs(m);
        }
        if (i == 0 && opts->deadline > 0 && iters > 1)
            every = fgm_now() - first > SLOW_SWEEP_S;
        if (tol > 0.0 && change < tol) {
            late = 0;   /* converged: the run is complete */
            i++;
            break;
        }
        if (late) {
            i++;
            break;
        }
    }
    /* A sequential sweep moves each belief with every update (a cavity
     * times the new message, unnormalized): proportional to the product
     * of its messages to rounding (normalized, within 5e-15 of the
     * rebuilt belief on the 9x9 corpora).  finish rebuilds every belief,
     * pinned ones too, once from its messages and normalizes it.
     * (Rebuilding after every sweep, as before, changes only rounding --
     * which a run that does not converge can amplify, as any change of
     * rounding.) */
    m->st.skip_pinned = 0;
    /* Dirichlet posteriors are current after every sweep, and so are the
     * beliefs of a flooding schedule. */
    if (!m->st.parallel)
        rebuild_beliefs(m);
#ifdef FGM_MXCSR_FTZ_DAZ
    _mm_setcsr(csr);
#endif
    if (info) {
        info->sweeps = i;
        info->change = change;
        info->ms = (fgm_now() - t0) * 1e3;
        info->dead = m->st.gibbs_dead;
        info->kept = m->st.gibbs_kept;
        info->chains = 1;
    }
    return late ? FGM_ETIMEOUT : FGM_OK;
}

/* OPTS->chains cold gibbs runs from seeds SEED, SEED + 1, ...: their
 * estimates averaged into the beliefs and posteriors, their standard
 * errors into m->chain_se (the chains' sample deviation, by Welford's
 * running sums, over the root of their number), their tallies summed (a
 * variable none of them gave a value stays a contradiction).  INFO sums
 * the sweeps, draws without weight and time, and keeps the largest last
 * change.  A chain the deadline cut is the last, and counts only when it
 * is the first (a chain of a few sweeps would weigh as much as whole
 * ones); FGM_ETIMEOUT then says that fewer chains ran. */
static fgm_status
run_chains(fgm_model *m, const fgm_run_opts *opts, fgm_run_info *info)
{
    const fgm_sched *s = m->sched;
    size_t S = (size_t)s->stride, nv = S * (size_t)s->nvars;
    size_t nd = S * (size_t)s->ndirichlet, i;
    int K = opts->chains, c, ran = 0;
    double *mean, *m2, *post, *tally, d, t0 = fgm_now();
    fgm_status st = FGM_OK;
    fgm_run_info one, sum;
    fgm_run_opts o = *opts;

    memset(&sum, 0, sizeof sum);
    if (info)
        *info = sum;
    if (s->infer.algo != FGM_ALGO_GIBBS || opts->warm)
        return FGM_EINVAL;
    mean = calloc(nv + 1, sizeof *mean);
    m2 = calloc(nv + 1, sizeof *m2);
    post = calloc(nd + 1, sizeof *post);
    tally = calloc(nv + 1, sizeof *tally);
    if (!m->chain_se)
        m->chain_se = malloc((nv + 1) * sizeof *m->chain_se);
    if (!mean || !m2 || !post || !tally || !m->chain_se) {
        st = FGM_ENOMEM;
        goto done;
    }
    o.chains = 1;
    for (c = 0; c < K; c++) {
        o.seed = opts->seed + (unsigned long)c;
        st = run_once(m, &o, &one);
        if (st != FGM_OK && (st != FGM_ETIMEOUT || ran > 0))
            break;
        ran++;
        for (i = 0; i < nv; i++) {
            d = m->st.belief[i] - mean[i];
            mean[i] += d / ran;
            m2[i] += d * (m->st.belief[i] - mean[i]);
            tally[i] += m->st.tally[i];
        }
        for (i = 0; i < nd; i++)
            post[i] += m->st.dir_post[i];
        sum.sweeps += one.sweeps;
        sum.dead += one.dead;
        sum.kept += one.kept;
        sum.change = one.change > sum.change ? one.change : sum.change;
        if (st == FGM_ETIMEOUT)
            break;
    }
    if (ran > 0) {
        for (i = 0; i < nv; i++) {
            m->st.belief[i] = mean[i];
            m->chain_se[i] = ran > 1 ? sqrt(m2[i] / (ran - 1) / ran) : 0.0;
        }
        for (i = 0; i < nd; i++)
            m->st.dir_post[i] = post[i] / ran;
        memcpy(m->st.tally, tally, nv * sizeof *tally);
        /* A first chain that refused the options ran nothing: the last
         * run's standard errors stand. */
        m->chains_run = ran;
    }
done:
    free(mean);
    free(m2);
    free(post);
    free(tally);
    if (info) {
        sum.ms = (fgm_now() - t0) * 1e3;
        sum.chains = ran;
        *info = sum;
    }
    return st;
}

/* The state a vmp run leaves (its q(x), q(p), expected counts, E[log p]
 * and contradiction marks) copied to or from SAVE and MARKS (TO_SAVE:
 * to). */
static void
vmp_state(fgm_model *m, double *save, int *marks, int to_save)
{
    const fgm_sched *s = m->sched;
    size_t nb = (size_t)s->stride * (size_t)s->nvars;
    size_t nd = (size_t)s->stride * (size_t)s->ndirichlet;
    double *at[4] = { m->st.belief, m->st.dir_post, m->st.gcount,
                      m->st.elog };
    size_t n[4] = { nb, nd, nd, nd }, off = 0;
    int i;

    for (i = 0; i < 4; off += n[i], i++)
        memcpy(to_save ? save + off : at[i], to_save ? at[i] : save + off,
               n[i] * sizeof *save);
    memcpy(to_save ? marks : m->st.sample, to_save ? m->st.sample : marks,
           (size_t)s->nvars * sizeof *marks);
}

/* OPTS->restarts cold vmp runs (fgm_run_opts.restarts): the first as
 * OPTS says, each other from a start perturbed by the noise, seeded SEED
 * + 1, SEED + 2, ...; the state of the run with the highest bound is
 * kept.  A run the deadline cut is still a candidate (its bound is one),
 * and the last: FGM_ETIMEOUT. */
static fgm_status
run_restarts(fgm_model *m, const fgm_run_opts *opts, fgm_run_info *info)
{
    const fgm_sched *s = m->sched;
    size_t n = (size_t)s->stride * ((size_t)s->nvars
                                    + 3 * (size_t)s->ndirichlet);
    double *save, z, best = 0.0;
    int *marks, r;
    fgm_run_opts ro = *opts;
    fgm_run_info one, all;
    fgm_status st = FGM_OK;

    if (opts->warm || s->infer.algo != FGM_ALGO_VMP || opts->chains > 1)
        return FGM_EINVAL;
    save = malloc((n + 1) * sizeof *save);
    marks = malloc(((size_t)s->nvars + 1) * sizeof *marks);
    if (!save || !marks) {
        free(save);
        free(marks);
        return FGM_ENOMEM;
    }
    memset(&all, 0, sizeof all);
    ro.restarts = 0;
    for (r = 0; r < opts->restarts && st == FGM_OK; r++) {
        ro.seed = opts->seed + (unsigned long)r;
        ro.noise = r == 0 ? opts->noise
                   : opts->noise > 0.0 ? opts->noise : FGM_VMP_RESTART_NOISE;
        st = run_once(m, &ro, &one);
        if (st != FGM_OK && st != FGM_ETIMEOUT)
            break;
        m->chains_run = 1;      /* one ran: a result without chains */
        all.sweeps += one.sweeps;
        all.ms += one.ms;
        all.chains = r + 1;
        /* A contradiction's bound is -inf: any other run beats it. */
        if (fgm_model_log_evidence(m, &z) != FGM_OK)
            z = -HUGE_VAL;
        if (r == 0 || z > best) {
            best = z;
            all.change = one.change;
            vmp_state(m, save, marks, 1);
        }
    }
    if (st == FGM_OK || st == FGM_ETIMEOUT)
        vmp_state(m, save, marks, 0);
    free(save);
    free(marks);
    if (info)
        *info = all;
    return st;
}

fgm_status
fgm_model_run(fgm_model *m, const fgm_run_opts *opts, fgm_run_info *info)
{
    fgm_status st;

    if (opts && (opts->chains < 0 || opts->chains > FGM_MAX_CHAINS
                 || opts->restarts < 0
                 || opts->restarts > FGM_MAX_RESTARTS))
        return FGM_EINVAL;
    if (m && opts && opts->restarts > 1)
        return run_restarts(m, opts, info);
    if (m && opts && opts->chains > 1)
        return run_chains(m, opts, info);
    st = run_once(m, opts, info);
    /* A run whose options were refused ran nothing (FGM_EINVAL): the
     * last run's standard errors stand. */
    if (m && st != FGM_EINVAL)
        m->chains_run = 1;
    return st;
}

fgm_status
fgm_model_marginal_stderr(const fgm_model *m, int v, double *out)
{
    if (!m || !out || v < 0 || v >= m->sched->nvars || !m->ran
        || m->chains_run < 2 || !m->chain_se)
        return FGM_EINVAL;
    memcpy(out, m->chain_se + (size_t)v * (size_t)m->sched->stride,
           (size_t)m->sched->card[v] * sizeof *out);
    return FGM_OK;
}

fgm_status
fgm_model_marginal(const fgm_model *m, int v, double *out)
{
    if (!m || !out || v < 0 || v >= m->sched->nvars || !m->ran)
        return FGM_EINVAL;
    memcpy(out, m->st.belief + (size_t)v * (size_t)m->sched->stride,
           (size_t)m->sched->card[v] * sizeof *out);
    return FGM_OK;
}

int
fgm_model_argmax(const fgm_model *m, int v)
{
    const double *b;
    int j, best = 0;

    if (!m || v < 0 || v >= m->sched->nvars || !m->ran)
        return -1;
    b = m->st.belief + (size_t)v * (size_t)m->sched->stride;
    for (j = 1; j < m->sched->card[v]; j++)
        if (b[j] > b[best])
            best = j;
    return best;
}

fgm_status
fgm_model_dirichlet(const fgm_model *m, int d, double *out)
{
    const fgm_ir *ir = m ? m->ir : NULL;

    if (!m || !out || d < 0 || d >= ir->ndirichlet || !m->ran)
        return FGM_EINVAL;
    memcpy(out, m->st.dir_post + (size_t)d * (size_t)m->sched->stride,
           (size_t)ir->arrays[ir->dir_array[d]].card * sizeof *out);
    return FGM_OK;
}
