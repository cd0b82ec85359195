/* runtime/solve/bp_decimate.c: bp-decimate, seed 001 BeliefPropagationSolver.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Notebook 001, section 6, stage 1 ("BP decimation"): pairwise sum-product
 * loopy BP (decimate.h), damping 0.5, 50 initial sweeps; then, until every
 * cell is fixed:
 *   - contradiction: a free cell whose values are all excluded (a factor
 *     message below 1e-8 for each) ends the attempt;
 *   - decimation: the free cell with the largest margin top1 - top2 of its
 *     belief scaled to a maximum of 1, i.e. 1 - top2/top1 (cells within
 *     1e-12 of the best are tied, and the seed draws one uniformly: hence
 *     FGM_SOLVER_RANDOM), is fixed to its most probable value;
 *   - 3 more sweeps from the current messages (warm start).
 * A contradiction restarts from fresh messages, at most 4 attempts
 * (max_restarts = 4; stats.restarts is the index of the attempt that
 * finished, 4 when none did).  An attempt that fixes every cell returns its
 * grid, as the seed does: the driver's verification decides whether it is
 * a solution.  Purely probabilistic: no constraint propagation, no
 * backtracking.  The seed: Easy51 36/51, top95 (first 15) 0/15, hardest
 * 3/11; here (2026-12-04) 36/51, 1/95 (0 of the first 15) and 3/11, each
 * grid's decisions and restarts those of a transcription of the seed's
 * code (decimate.c).
 *
 * Options (the defaults are the seed's): opts->iterations (--iters)
 * replaces the 50 initial sweeps; opts->fix_per_round (--fix K) fixes the
 * K best cells (each drawn as above, best first) before the 3 sweeps
 * instead of one, which divides the sweeps by about K.
 */
#include <stdlib.h>
#include "decimate.h"

#define DECIM_SWEEPS 3      /* decim_sweeps */
#define MAX_RESTARTS 4      /* max_restarts: attempts in all */
#define TIE 1e-12           /* margins within this of the best are tied */
#define CONFIDENT 0.999     /* bp-decimate2: fixed together */

typedef struct ws {
    fgm_decimate *bp;
    double confident;   /* fix every cell this sure at once (> 1: never) */
    int *value;         /* nvars: clue or decision, -1 when free */
    int *tied;          /* nvars: cells tied for the best margin (pick);
                         * in fix_confident, the cells fixed this round */
    double *margin;     /* nvars */
} ws;

static void
ws_free(void *p)
{
    ws *w = p;

    if (!w)
        return;
    fgm_decimate_free(w->bp);
    free(w->value);
    free(w->tied);
    free(w->margin);
    free(w);
}

static void *
ws_alloc(const fgm_csp *csp, const fgm_solve_opts *opts, double confident,
         fgm_decimate_schedule sched, fgm_status *st)
{
    ws *w = calloc(1, sizeof *w);
    size_t n = (size_t)csp->nvars + 1;

    if (!w)
        return NULL;
    w->bp = fgm_decimate_new(csp, opts, sched, st);
    w->confident = confident;
    w->value = malloc(n * sizeof *w->value);
    w->tied = malloc(n * sizeof *w->tied);
    w->margin = malloc(n * sizeof *w->margin);
    if (!w->bp || !w->value || !w->tied || !w->margin) {
        ws_free(w);
        return NULL;
    }
    return w;
}

/* The seed's configuration. */
static void *
ws_new(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    return ws_alloc(csp, opts, 2.0, FGM_DECIMATE_FLOODING, st);
}

/* bp-decimate2: a round fixes every free cell whose belief in its best
 * value is at least CONFIDENT (the best-margin cell when none is), so
 * that the cells BP is already sure of cost one round together instead
 * of one each; and BP runs the sequential schedule damped 0.2
 * (FGM_DECIMATE_SEQUENTIAL), whose sweeps cost about half the seed's.
 * On easy51 (`fgm solve --solver bp-decimate2`, seeds 1-4): 36/51 solved,
 * as the seed's, median 2.9-3.6 ms against 7.8-8.9 ms with the seed's
 * flooding schedule and the same rounds.  Sequential undamped BP was
 * faster still but solved 26-28/51; damping 0.3-0.8 solved 33-37/51 at
 * 2.6-6.3 ms. */
static void *
ws_new_fast(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    return ws_alloc(csp, opts, CONFIDENT, FGM_DECIMATE_SEQUENTIAL, st);
}

/* Whether a peer of V fixed in this round (w->tied lists them, N of
 * them) holds VALUE. */
static int
taken_this_round(const ws *w, const fgm_csp *csp, int v, int value, int n)
{
    const int *p = fgm_csp_peers(csp, v);
    int np = fgm_csp_npeers(csp, v), i, j;

    for (i = 0; i < n; i++)
        if (w->value[w->tied[i]] == value)
            for (j = 0; j < np; j++)
                if (p[j] == w->tied[i])
                    return 1;
    return 0;
}

/* Fixes every free cell whose belief in its best value is at least
 * w->confident, except one whose value a peer fixed in the same round
 * already holds (one round stands for several one-cell rounds, between
 * which BP would have seen that clash).  Returns how many. */
static int
fix_confident(ws *w, fgm_solve_job *job)
{
    int v, top, n = 0;

    for (v = 0; v < job->csp->nvars; v++) {
        if (w->value[v] >= 0)
            continue;
        fgm_decimate_margin(w->bp, v, &top);
        if (fgm_decimate_belief(w->bp, v)[top] >= w->confident
            && !taken_this_round(w, job->csp, v, top, n)) {
            w->value[v] = top;
            fgm_decimate_fix(w->bp, v, top);
            w->tied[n++] = v;
            job->stats.decisions++;
        }
    }
    return n;
}

/* The free cell to decide: the largest margin, ties drawn uniformly.
 * Returns -1 when every cell is fixed. */
static int
pick(ws *w, fgm_solve_job *job)
{
    int nvars = job->csp->nvars, v, ntied = 0;
    double best = -1.0;

    for (v = 0; v < nvars; v++) {
        if (w->value[v] >= 0)
            continue;
        w->margin[v] = fgm_decimate_margin(w->bp, v, NULL);
        if (w->margin[v] > best)
            best = w->margin[v];
    }
    for (v = 0; v < nvars; v++)
        if (w->value[v] < 0 && w->margin[v] >= best - TIE)
            w->tied[ntied++] = v;
    if (ntied == 0)
        return -1;
    if (ntied == 1)
        return w->tied[0];
    return w->tied[gsl_rng_uniform_int(job->rng, (unsigned long)ntied)];
}

/* One attempt from fresh messages: FGM_OK with every cell fixed (in
 * w->value), FGM_EUNSOLVED on a contradiction, or FGM_ETIMEOUT. */
static fgm_status
attempt(ws *w, fgm_solve_job *job)
{
    int nvars = job->csp->nvars, v, top, i;
    int per_round = job->opts->fix_per_round > 0 ? job->opts->fix_per_round
                                                 : 1;
    int init = job->opts->iterations > 0 ? job->opts->iterations
                                         : FGM_DECIMATE_INIT_SWEEPS;
    fgm_status st;

    for (v = 0; v < nvars; v++)
        w->value[v] = job->given[v];
    fgm_decimate_observe(w->bp, job->given);
    st = fgm_decimate_run(w->bp, init, 1, job);
    while (st == FGM_OK) {
        for (v = 0; v < nvars; v++)
            if (w->value[v] < 0 && fgm_decimate_dead(w->bp, v)) {
                job->stats.contradictions++;
                return FGM_EUNSOLVED;
            }
        i = w->confident <= 1.0 ? fix_confident(w, job) : 0;
        for (; i < per_round; i++) {
            v = pick(w, job);
            if (v < 0)
                break;
            fgm_decimate_margin(w->bp, v, &top);
            w->value[v] = top;
            fgm_decimate_fix(w->bp, v, top);
            job->stats.decisions++;
        }
        if (i == 0)
            return FGM_OK;
        st = fgm_decimate_run(w->bp, DECIM_SWEEPS, 0, job);
    }
    return st;
}

static fgm_status
solve(fgm_solve_job *job)
{
    ws *w = job->ws;
    fgm_status st;
    int r, v;

    /* The backend the model runs, even when no inference runs (every
     * cell given, or the deadline passed first). */
    job->stats.compiled = fgm_decimate_compiled(w->bp);
    for (r = 0; r < MAX_RESTARTS; r++) {
        st = attempt(w, job);
        if (st == FGM_ETIMEOUT)
            return st;
        if (st == FGM_OK) {
            job->stats.restarts = r;
            for (v = 0; v < job->csp->nvars; v++)
                job->solution[v] = w->value[v];
            return FGM_OK;
        }
    }
    job->stats.restarts = MAX_RESTARTS;
    return FGM_EUNSOLVED;
}

const fgm_solver fgm_solver_bp_decimate2 = {
    "bp-decimate2",
    "bp-decimate on a sequential schedule damped 0.2, whose rounds fix "
    "every cell with a belief >= 0.999 at once",
    FGM_SOLVER_RANDOM,
    NULL,
    ws_new_fast,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_bp_decimate = {
    "bp-decimate",
    "pairwise sum-product BP, damping 0.5, 50 sweeps, margin decimation with "
    "3 sweeps each, 4 attempts (seed 001 s.6)",
    FGM_SOLVER_RANDOM,
    NULL,
    ws_new,
    ws_free,
    solve,
};
