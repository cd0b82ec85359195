/* runtime/solve/alldiff_decimate.c: alldiff-max and alldiff-sum, the seed's v4, and their tuned variants.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Seed: notebook 000 section 8 (Arity9MaxProductSolver, a C# port of the
 * Python twin in notebook 001 section 7).  One native alldiff factor per
 * unit (runtime/kernels_alldiff.h: max-product by one Hungarian solve plus
 * shortest paths, sum-product by a subset DP where the seed used Ryser),
 * loopy BP with damping 0.5 on a flooding schedule, then decimation:
 *
 *   attempt r = 0, 1, ..., MaxRestarts:
 *     clamp the clues; 30 sweeps from fresh messages (InitSweeps), the
 *     initial messages multiplied by exp(U(-0.6, 0.6)) when r > 0
 *     (BruitInit; restart 0 starts from the canonical messages);
 *     while a cell is free:
 *       the free cell with the largest margin top1 - top2 of its belief
 *       (normalized to sum 1; cells within 1e-12 of the best tied, one
 *       drawn uniformly) takes its most probable value, or a value drawn
 *       from its belief when the margin is under 0.25 (Plateau);
 *       clamp it; 4 more sweeps from the current messages (DecimSweeps);
 *     the grid is verified against every constraint: valid, return it;
 *     invalid, a contradiction: next attempt (decisions cleared, clues
 *     kept), at most MaxRestarts = 30 restarts, then unsolved.
 *
 * No constraint propagation and no backtracking: every value comes from a
 * belief.  Randomness (ties, plateau draws, the noise's seeds) comes from
 * job->rng.  Seed results (C#, 12-30 s per grid): Easy51 51/51, hardest
 * 9/11, top95 first 15 9/15; the sum-product witness (Python, Ryser):
 * hardest 1/11.  The engine differs from the seed's arrays in ways its
 * results do not hinge on: variable-to-factor messages are the undamped
 * cavities (the seed damps both directions), the noise multiplies the
 * factor-to-variable messages (the seed's: the variable-to-factor ones,
 * which is the same first cavity), and a clamp is an exact zero.
 *
 * alldiff-max and alldiff-sum run the seed's parameters (opts->iterations
 * replaces the 30 initial sweeps, opts->max_restarts the 30 restarts).
 * alldiff-max2 and alldiff-sum2 keep the seed's algorithm, still purely
 * probabilistic, and change only its schedule and randomization (measured
 * on hardest, top95 and 16x16; see the table in the report of this file):
 *   - a decision is given time to spread: the decimation sweeps run
 *     undamped (damping 0) with up to DECIM sweeps, stopping early once no
 *     message moves more than TOL (tolerance instead of fixed counts);
 *   - every free cell whose margin is at least SURE (near 1: the belief is
 *     a point mass up to rounding) is fixed in the same round, best first,
 *     as a batch of decisions;
 *   - an attempt stops as soon as a decision repeats the value of a fixed
 *     peer (or leaves a table without a matching tuple): decisions are
 *     never undone, so its final grid would be invalid anyway; the seed
 *     finishes the doomed grid and verifies it;
 *   - restarts grow their noise with the restart count (NOISE + STEP r)
 *     and run until MAX_RESTARTS or the deadline.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "solver.h"

/* One configuration of the decimation (the seed's in cfg_max/cfg_sum). */
typedef struct adcfg {
    fgm_algo algo;          /* BP_MAX or BP_SUM */
    int init_sweeps;        /* sweeps of the cold run */
    int decim_sweeps;       /* sweeps after each round of decisions (max) */
    int max_restarts;       /* attempts after the first */
    double damping;         /* cold run */
    double decim_damping;   /* warm runs */
    double tolerance;       /* stop a run when no message moves more; 0: never */
    double noise;           /* log-uniform noise of restart 1 */
    double noise_step;      /* added per further restart */
    double plateau;         /* margin under which the value is drawn */
    double sure;            /* fix every free cell with this margin in one
                             * round; 0: one cell per round */
    int early_abort;        /* stop a doomed attempt at once */
    int guess;              /* plateau cell: 0 any tied, 1 least entropy
                             * among the tied, 2 least entropy of all */
    int witness;            /* sweeps of the sum-product witness run at a
                             * guess; 0: none */
} adcfg;

#define TIE 1e-12           /* margins within this of the best are tied */

/* The seed's v4 (Arity9MaxProductSolver's properties). */
static const adcfg cfg_max = {
    FGM_ALGO_BP_MAX, 30, 4, 30, 0.5, 0.5, 0.0, 0.6, 0.0, 0.25, 0.0, 0, 0, 0,
};
static const adcfg cfg_sum = {
    FGM_ALGO_BP_SUM, 30, 4, 30, 0.5, 0.5, 0.0, 0.6, 0.0, 0.25, 0.0, 0, 0, 0,
};
static const adcfg cfg_max2 = {
    FGM_ALGO_BP_MAX, 30, 4, 30, 0.5, 0.5, 0.0, 0.6, 0.0, 0.25, 0.0, 1, 0, 0,
};
static const adcfg cfg_sum2 = {
    FGM_ALGO_BP_SUM, 30, 4, 30, 0.5, 0.5, 0.0, 0.6, 0.0, 0.25, 0.0, 1, 0, 0,
};

typedef struct ws {
    const fgm_csp *csp;
    adcfg cfg;
    fgm_model *model;
    fgm_model *witness; /* sum-product model consulted at guesses, or NULL */
    int *value;         /* nvars: clue or decision, -1 when free */
    int *best;          /* nvars: most probable value of a free cell */
    int *tied;          /* nvars: cells tied for the best margin */
    double *margin;     /* nvars: margin of a free cell */
    double *bel;        /* maxcard: one belief */
} ws;

static void
ws_free(void *p)
{
    ws *w = p;

    if (!w)
        return;
    fgm_model_free(w->model);
    fgm_model_free(w->witness);
    free(w->value);
    free(w->best);
    free(w->tied);
    free(w->margin);
    free(w->bel);
    free(w);
}

static void
dev_override(adcfg *c)
{
    const char *s;

    if ((s = getenv("AD_INIT"))) c->init_sweeps = atoi(s);
    if ((s = getenv("AD_DECIM"))) c->decim_sweeps = atoi(s);
    if ((s = getenv("AD_RESTARTS"))) c->max_restarts = atoi(s);
    if ((s = getenv("AD_DAMP"))) c->damping = atof(s);
    if ((s = getenv("AD_DDAMP"))) c->decim_damping = atof(s);
    if ((s = getenv("AD_TOL"))) c->tolerance = atof(s);
    if ((s = getenv("AD_NOISE"))) c->noise = atof(s);
    if ((s = getenv("AD_NSTEP"))) c->noise_step = atof(s);
    if ((s = getenv("AD_PLATEAU"))) c->plateau = atof(s);
    if ((s = getenv("AD_SURE"))) c->sure = atof(s);
    if ((s = getenv("AD_ABORT"))) c->early_abort = atoi(s);
    if ((s = getenv("AD_GUESS"))) c->guess = atoi(s);
    if ((s = getenv("AD_WIT"))) c->witness = atoi(s);
}

/* Opens the native-alldiff BP model of CSP->ir with ALGO into *OUT. */
static int
open_model(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_algo algo,
           fgm_model **out)
{
    fgm_ir *ir = fgm_ir_copy(csp->ir);
    fgm_model_opts mo;
    char name[FGM_IR_MAXNAME];

    *out = NULL;
    if (!ir)
        return 0;
    /* Its own name (generated/NAME_v4.bp-max.so): the plugin must not
     * collide with another solver's settings for the same model.  Every
     * variant shares the one IR per algorithm; they differ only in run
     * options. */
    snprintf(name, sizeof name, "%.*s_v4", FGM_IR_MAXNAME - 4, ir->name);
    memcpy(ir->name, name, sizeof name);
    ir->infer.algo = algo;
    ir->infer.alldiff = FGM_ALLDIFF_NATIVE;
    ir->infer.schedule = FGM_SCHEDULE_PARALLEL;
    ir->infer.damping = cfg_max.damping;
    ir->infer.iterations = cfg_max.init_sweeps;
    ir->infer.tolerance = 0.0;
    memset(&mo, 0, sizeof mo);
    mo.backend = opts->backend;
    mo.out_dir = opts->out_dir;
    mo.cc = opts->cc;
    return fgm_model_open_ir(ir, &mo, out, opts->diag, opts->diag_ctx)
           == FGM_OK;
}

/* The workspace of configuration CFG. */
static void *
ws_open(const fgm_csp *csp, const fgm_solve_opts *opts, const adcfg *cfg)
{
    ws *w = calloc(1, sizeof *w);
    size_t n = (size_t)csp->nvars + 1;

    if (!w)
        return NULL;
    w->csp = csp;
    w->cfg = *cfg;
    if (cfg == &cfg_max2 || cfg == &cfg_sum2)
        dev_override(&w->cfg);
    if (!open_model(csp, opts, cfg->algo, &w->model)
        || (w->cfg.witness > 0
            && !open_model(csp, opts, FGM_ALGO_BP_SUM, &w->witness))) {
        ws_free(w);
        return NULL;
    }
    w->value = malloc(n * sizeof *w->value);
    w->best = malloc(n * sizeof *w->best);
    w->tied = malloc(n * sizeof *w->tied);
    w->margin = malloc(n * sizeof *w->margin);
    w->bel = malloc(((size_t)csp->maxcard + 1) * sizeof *w->bel);
    if (!w->value || !w->best || !w->tied || !w->margin || !w->bel) {
        ws_free(w);
        return NULL;
    }
    return w;
}

static void *
ws_new_max(const fgm_csp *csp, const fgm_solve_opts *opts)
{
    return ws_open(csp, opts, &cfg_max);
}

static void *
ws_new_sum(const fgm_csp *csp, const fgm_solve_opts *opts)
{
    return ws_open(csp, opts, &cfg_sum);
}

static void *
ws_new_max2(const fgm_csp *csp, const fgm_solve_opts *opts)
{
    return ws_open(csp, opts, &cfg_max2);
}

static void *
ws_new_sum2(const fgm_csp *csp, const fgm_solve_opts *opts)
{
    return ws_open(csp, opts, &cfg_sum2);
}

/* Whether the native alldiff operator can run every alldiff of CSP: one
 * domain per factor, no more variables than values, and (sum-product's
 * 2^(K+1) doubles) at most 20 values. */
static const char *
refuses_for(const fgm_csp *csp, int sum)
{
    const fgm_ir *ir = csp->ir;
    int i, j;

    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *sc = fgm_ir_scope(ir, f);
        int k;

        if (f->kind != FGM_FACTOR_ALLDIFF)
            continue;
        k = fgm_ir_card(ir, sc[0]);
        for (j = 1; j < f->arity; j++)
            if (fgm_ir_card(ir, sc[j]) != k)
                return "an alldiff over variables of different domains "
                       "has no native operator";
        if (f->arity > k)
            return "an alldiff with more variables than values cannot be "
                   "satisfied";
        if (sum && k > 20)
            return "sum-product alldiff messages are limited to 20 values "
                   "(2^(K+1) doubles per factor)";
    }
    return NULL;
}

static const char *
refuses_max(const fgm_csp *csp)
{
    return refuses_for(csp, 0);
}

static const char *
refuses_sum(const fgm_csp *csp)
{
    return refuses_for(csp, 1);
}

/* Runs at most SWEEPS sweeps, cold (with NOISE and a seed from JOB's RNG)
 * or warm.  Returns FGM_ETIMEOUT, nothing run, past the deadline. */
static fgm_status
run(ws *w, fgm_model *m, fgm_solve_job *job, int sweeps, int warm,
    double damping, double noise)
{
    fgm_run_opts ro;
    fgm_run_info info;

    if (job->deadline > 0 && fgm_now() > job->deadline)
        return FGM_ETIMEOUT;
    memset(&ro, 0, sizeof ro);
    ro.iterations = sweeps;
    ro.damping = damping;
    ro.use_damping = 1;
    ro.tolerance = w->cfg.tolerance;
    ro.use_tolerance = 1;
    ro.warm = warm;
    ro.noise = noise;
    if (noise > 0.0)
        ro.seed = gsl_rng_get(job->rng);
    fgm_model_run(m, &ro, &info);
    job->stats.inferences++;
    job->stats.sweeps += info.sweeps;
    job->stats.compiled = fgm_model_is_compiled(m);
    return FGM_OK;
}

/* Reads V's belief into w->bel (normalized) and returns its margin
 * top1 - top2, the most probable value in *TOP. */
static double
margin_in(ws *w, const fgm_model *m, int v, int *top)
{
    int k = w->csp->card[v], j, b = 0;
    double sum = 0.0, t1 = -1.0, t2 = -1.0;

    fgm_model_marginal(m, v, w->bel);
    for (j = 0; j < k; j++)
        sum += w->bel[j];
    for (j = 0; j < k; j++) {
        double x = sum > 0.0 ? w->bel[j] / sum : 1.0 / k;

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

static double
margin_of(ws *w, int v, int *top)
{
    return margin_in(w, w->model, v, top);
}

/* Entropy of V's belief. */
static double
entropy_of(ws *w, int v)
{
    int k = w->csp->card[v], j, top;
    double e = 0.0;

    margin_of(w, v, &top);
    for (j = 0; j < k; j++)
        if (w->bel[j] > 0.0)
            e -= w->bel[j] * log(w->bel[j]);
    return e;
}

/* A value of V drawn from its belief (w->bel, normalized). */
static int
draw(ws *w, int v, gsl_rng *rng)
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

/* Fixes V to VALUE, counting a decision.  Returns 0 when the attempt is
 * doomed and the configuration stops early. */
static int
fix(ws *w, fgm_solve_job *job, int v, int value)
{
    const char *sol = getenv("AD_SOL");
    if (sol && sol[v] - '1' != value)
        fprintf(stderr, "WRONG cell %d value %d margin %.4f decision %ld\n", v, value, w->margin[v], job->stats.decisions);
    int ok = !w->cfg.early_abort
             || fgm_csp_consistent(w->csp, w->value, v, value);

    w->value[v] = value;
    fgm_model_observe_var(w->model, v, value);
    job->stats.decisions++;
    return ok;
}

/* A guess from the sum-product witness: its marginals on the current
 * clamps pick the free cell whose most probable value is the most probable
 * (ties drawn), and that cell's value is drawn from its witness belief.
 * Returns as decide, or -2 past the deadline. */
static int
witness_guess(ws *w, fgm_solve_job *job)
{
    int nvars = w->csp->nvars, v, top, ntied = 0, pick;
    double best = -1.0;

    fgm_model_clear(w->witness);
    for (v = 0; v < nvars; v++)
        if (w->value[v] >= 0)
            fgm_model_observe_var(w->witness, v, w->value[v]);
    if (run(w, w->witness, job, w->cfg.witness, 0, w->cfg.damping, 0.0)
        != FGM_OK)
        return -2;
    for (v = 0; v < nvars; v++) {
        if (w->value[v] >= 0)
            continue;
        margin_in(w, w->witness, v, &top);
        w->margin[v] = w->bel[top];
        if (w->margin[v] > best)
            best = w->margin[v];
    }
    for (v = 0; v < nvars; v++)
        if (w->value[v] < 0 && w->margin[v] >= best - TIE)
            w->tied[ntied++] = v;
    pick = ntied == 1 ? w->tied[0]
                      : w->tied[gsl_rng_uniform_int(job->rng,
                                                    (unsigned long)ntied)];
    margin_in(w, w->witness, pick, &top);
    return fix(w, job, pick, draw(w, pick, job->rng)) ? 1 : -1;
}

/* One round of decisions.  Returns 1 when a cell was fixed, 0 when none
 * was free, -1 when the attempt is doomed (early abort). */
static int
decide(ws *w, fgm_solve_job *job)
{
    int nvars = w->csp->nvars, v, ntied = 0, pick, value, nfixed = 0;
    double best = -1.0;

    for (v = 0; v < nvars; v++) {
        if (w->value[v] >= 0)
            continue;
        w->margin[v] = margin_of(w, v, &w->best[v]);
        if (w->margin[v] > best)
            best = w->margin[v];
    }
    if (best < 0.0)
        return 0;
    if (w->cfg.sure > 0.0 && best >= w->cfg.sure) {
        /* Every cell sure enough, in index order (their beliefs are point
         * masses up to rounding: the order does not matter). */
        for (v = 0; v < nvars; v++)
            if (w->value[v] < 0 && w->margin[v] >= w->cfg.sure) {
                nfixed++;
                if (!fix(w, job, v, w->best[v]))
                    return -1;
            }
        return 1;
    }
    if (getenv("AD_TRACE2") && best < w->cfg.plateau)
        fprintf(stderr, "GS %ld\n", job->stats.sweeps);
    if (w->witness && best < w->cfg.plateau && !getenv("AD_WITMODE"))
        return witness_guess(w, job);
    for (v = 0; v < nvars; v++)
        if (w->value[v] < 0 && w->margin[v] >= best - TIE)
            w->tied[ntied++] = v;
    if (w->cfg.guess && best < w->cfg.plateau) {
        int i, n2 = 0;
        double emin = 1e300;

        if (w->cfg.guess == 2) {
            ntied = 0;
            for (v = 0; v < nvars; v++)
                if (w->value[v] < 0)
                    w->tied[ntied++] = v;
        }
        for (i = 0; i < ntied; i++) {
            double e = entropy_of(w, w->tied[i]);

            w->margin[w->tied[i]] = e;   /* reused: entropy */
            if (e < emin)
                emin = e;
        }
        for (i = 0; i < ntied; i++)
            if (w->margin[w->tied[i]] <= emin + 1e-9)
                w->tied[n2++] = w->tied[i];
        ntied = n2;
    }
    pick = ntied == 1 ? w->tied[0]
                      : w->tied[gsl_rng_uniform_int(job->rng,
                                                    (unsigned long)ntied)];
    if (best < w->cfg.plateau && w->witness) {
        fgm_model_clear(w->witness);
        for (v = 0; v < nvars; v++)
            if (w->value[v] >= 0)
                fgm_model_observe_var(w->witness, v, w->value[v]);
        if (run(w, w->witness, job, w->cfg.witness, 0, w->cfg.damping, 0.0)
            != FGM_OK)
            return -2;
        margin_in(w, w->witness, pick, &value);
        if (getenv("AD_SOL")) fprintf(stderr, "W %d sol %d: %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f\n", pick, getenv("AD_SOL")[pick]-'1', w->bel[0], w->bel[1], w->bel[2], w->bel[3], w->bel[4], w->bel[5], w->bel[6], w->bel[7], w->bel[8]);
        value = draw(w, pick, job->rng);
    } else if (best < w->cfg.plateau) {
        margin_of(w, pick, &value);
        value = draw(w, pick, job->rng);
    } else {
        value = w->best[pick];
    }
    (void)nfixed;
    if (getenv("AD_TRACE") && w->margin[pick] < 0.9) {
        int nf = 0, j;
        margin_of(w, pick, &j);
        for (j = 0; j < w->csp->card[pick]; j++) nf += w->bel[j] > 1e-6;
        fprintf(stderr, "G %d %.3f %d %d\n", pick, w->margin[pick], nf, value);
    }
    return fix(w, job, pick, value) ? 1 : -1;
}

/* One attempt: FGM_OK with a verified grid in w->value, FGM_EUNSOLVED on a
 * contradiction, or FGM_ETIMEOUT. */
static fgm_status
attempt(ws *w, fgm_solve_job *job, int restart)
{
    const adcfg *c = &w->cfg;
    int nvars = w->csp->nvars, v, r;
    int init = job->opts->iterations > 0 ? job->opts->iterations
                                         : c->init_sweeps;
    double noise = restart == 0 ? 0.0
                                : c->noise + c->noise_step * (restart - 1);
    fgm_status st;

    fgm_model_clear(w->model);
    for (v = 0; v < nvars; v++) {
        w->value[v] = job->given[v];
        if (job->given[v] >= 0)
            fgm_model_observe_var(w->model, v, job->given[v]);
    }
    st = run(w, w->model, job, init, 0, c->damping, noise);
    while (st == FGM_OK) {
        r = decide(w, job);
        if (r == 0)
            break;
        if (r == -2)
            return FGM_ETIMEOUT;
        if (r < 0) {
            job->stats.contradictions++;
            return FGM_EUNSOLVED;
        }
        st = run(w, w->model, job, c->decim_sweeps, 1, c->decim_damping,
                 0.0);
    }
    if (st != FGM_OK)
        return st;
    if (!fgm_csp_verify(w->csp, job->given, w->value)) {
        job->stats.contradictions++;
        return FGM_EUNSOLVED;
    }
    return FGM_OK;
}

/* Counts the cells of W's grid in a violated neq/alldiff constraint. */
static long
errors_of(const ws *w)
{
    const fgm_csp *csp = w->csp;
    long errors = 0;
    int v, i;

    for (v = 0; v < csp->nvars; v++) {
        const int *p = fgm_csp_peers(csp, v);

        if (w->value[v] < 0) {
            errors++;
            continue;
        }
        for (i = 0; i < fgm_csp_npeers(csp, v); i++)
            if (w->value[p[i]] == w->value[v]) {
                errors++;
                break;
            }
    }
    return errors;
}

static fgm_status
solve(fgm_solve_job *job)
{
    ws *w = job->ws;
    int limit = job->opts->max_restarts > 0 ? job->opts->max_restarts
                : job->opts->max_restarts < 0 ? 0
                                               : w->cfg.max_restarts;
    int r, v;
    fgm_status st = FGM_EUNSOLVED;

    for (r = 0; r <= limit; r++) {
        job->stats.restarts = r;
        st = attempt(w, job, r);
        if (getenv("AD_TRACE") || getenv("AD_TRACE2")) fprintf(stderr, "A %d %d %ld\n", r, st, job->stats.sweeps);
        if (st == FGM_ETIMEOUT)
            return st;
        if (st == FGM_OK) {
            for (v = 0; v < job->csp->nvars; v++)
                job->solution[v] = w->value[v];
            return FGM_OK;
        }
    }
    job->stats.errors = errors_of(w);
    return st;
}

const fgm_solver fgm_solver_alldiff_max = {
    "alldiff-max",
    "native alldiff max-product BP, damping 0.5, 30 sweeps, margin "
    "decimation with 4 each, plateau draws, 30 noisy restarts (seed 000 "
    "s.8, v4)",
    FGM_SOLVER_RANDOM,
    refuses_max,
    ws_new_max,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_alldiff_sum = {
    "alldiff-sum",
    "alldiff-max with sum-product messages (subset DP; the seed's Ryser "
    "witness)",
    FGM_SOLVER_RANDOM,
    refuses_sum,
    ws_new_sum,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_alldiff_max2 = {
    "alldiff-max2",
    "alldiff-max tuned: undamped decimation sweeps to a tolerance, sure "
    "cells fixed together, doomed attempts stopped, growing noise",
    FGM_SOLVER_RANDOM,
    refuses_max,
    ws_new_max2,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_alldiff_sum2 = {
    "alldiff-sum2",
    "alldiff-sum tuned as alldiff-max2",
    FGM_SOLVER_RANDOM,
    refuses_sum,
    ws_new_sum2,
    ws_free,
    solve,
};
