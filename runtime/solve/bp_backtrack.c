/* runtime/solve/bp_backtrack.c: bp-backtrack, seed 001 BPBacktrackingSolver.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Notebook 001, section 6, stage 2 ("BP + repli borne"): depth-first search
 * whose every node runs pairwise sum-product BP (decimate.h, damping 0.5)
 * from its parent's messages: 50 sweeps at the root (root_sweeps), 4 at
 * every other node (node_sweeps).  At a node:
 *   - budget: past 300 nodes (max_nodes; the seed tests nodes > 300 before
 *     counting, so up to 301 nodes run) the node fails;
 *   - a full grid is returned when it passes verification (the seed's
 *     exclusion test is incomplete), else the node fails;
 *   - contradiction: a free cell with every value excluded (a factor
 *     message below 1e-8 for each) fails the node;
 *   - branching: the free cell with the largest margin 1 - top2/top1 (the
 *     first on ties), its values by decreasing belief (ties in value
 *     order: numpy's argsort of 9 values is an insertion sort, hence
 *     stable) minus the excluded ones; each child clamps the cell and
 *     starts from a copy of this node's messages.
 * No randomness.  stats.nodes counts the nodes run, stats.decisions the
 * children tried.  The seed: Easy51 35/51, top95 (first 15) 0/15, hardest
 * 4/11; here (2026-12-04, commit 286d09f, `fgm solve --solver
 * bp-backtrack --timeout-ms 10000`) 35/51, 1/95 (0 of the first 15) and
 * 4/11, medians 7.6, 38 and 38 ms: the seed's counts.  (32/51, 0/95 and
 * 0/11 before the flooding schedule damped the variable-to-factor
 * messages too and clues became (1e-12, ..., 1): decimate.c.)
 *
 * opts->iterations (--iters), when set, replaces the 50 root sweeps.
 */
#include <stdlib.h>
#include "decimate.h"

#define NODE_SWEEPS 4       /* node_sweeps */
#define MAX_NODES 300       /* max_nodes */

/* What a node returns. */
enum { FAILED = 0, FOUND = 1, TIMEOUT = -1, NOMEM = -2 };

typedef struct ws {
    fgm_decimate *bp;
    int *value;         /* nvars: clue or decision, -1 when free */
} ws;

static void
ws_free(void *p)
{
    ws *w = p;

    if (!w)
        return;
    fgm_decimate_free(w->bp);
    free(w->value);
    free(w);
}

static void *
ws_new(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    ws *w = calloc(1, sizeof *w);

    if (!w)
        return NULL;
    w->bp = fgm_decimate_new(csp, opts, FGM_DECIMATE_FLOODING, st);
    w->value = malloc(((size_t)csp->nvars + 1) * sizeof *w->value);
    if (!w->bp || !w->value) {
        ws_free(w);
        return NULL;
    }
    return w;
}

/* Writes V's values by decreasing belief, ties in value order, without
 * the excluded ones, into ORDER.  Returns how many. */
static int
value_order(const fgm_decimate *bp, int v, int card, int *order)
{
    const double *b = fgm_decimate_belief(bp, v);
    int n = 0, j, i;

    for (j = 0; j < card; j++) {
        if (fgm_decimate_excluded(bp, v, j))
            continue;
        for (i = n; i > 0 && b[order[i - 1]] < b[j]; i--)
            order[i] = order[i - 1];
        order[i] = j;
        n++;
    }
    return n;
}

/* dfs: the node at DEPTH, running SWEEPS sweeps (fresh at the root). */
static int
dfs(ws *w, fgm_solve_job *job, int depth, int sweeps)
{
    const fgm_csp *csp = job->csp;
    int order[FGM_IR_MAXCARD], n, i, v, best = -1, r;
    double m, bestm = 0.0;

    if (job->stats.nodes > MAX_NODES)
        return FAILED;
    job->stats.nodes++;
    if (fgm_decimate_run(w->bp, sweeps, depth == 0, job) != FGM_OK)
        return TIMEOUT;
    for (v = 0; v < csp->nvars; v++) {
        if (w->value[v] >= 0)
            continue;
        m = fgm_decimate_margin(w->bp, v, NULL);
        if (best < 0 || m > bestm) {
            best = v;
            bestm = m;
        }
    }
    if (best < 0) {
        if (fgm_csp_verify(csp, job->given, w->value)) {
            for (v = 0; v < csp->nvars; v++)
                job->solution[v] = w->value[v];
            return FOUND;
        }
        job->stats.contradictions++;
        return FAILED;
    }
    for (v = 0; v < csp->nvars; v++)
        if (w->value[v] < 0 && fgm_decimate_dead(w->bp, v)) {
            job->stats.contradictions++;
            return FAILED;
        }
    n = value_order(w->bp, best, csp->card[best], order);
    /* Only a node with a second value to try comes back to its messages. */
    if (n > 1 && !fgm_decimate_save(w->bp, depth))
        return NOMEM;
    for (i = 0; i < n; i++) {
        if (i > 0)
            fgm_decimate_restore(w->bp, depth);
        w->value[best] = order[i];
        fgm_decimate_fix(w->bp, best, order[i]);
        job->stats.decisions++;
        r = dfs(w, job, depth + 1, NODE_SWEEPS);
        w->value[best] = -1;
        fgm_decimate_fix(w->bp, best, -1);
        if (r != FAILED)
            return r;
    }
    return FAILED;
}

static fgm_status
solve(fgm_solve_job *job)
{
    ws *w = job->ws;
    int v, r;

    /* The backend the model runs, even when no inference runs (every
     * cell given, or the deadline passed first). */
    job->stats.compiled = fgm_decimate_compiled(w->bp);
    for (v = 0; v < job->csp->nvars; v++)
        w->value[v] = job->given[v];
    fgm_decimate_observe(w->bp, job->given);
    r = dfs(w, job, 0, job->opts->iterations > 0 ? job->opts->iterations
                                                 : FGM_DECIMATE_INIT_SWEEPS);
    switch (r) {
    case FOUND:
        return FGM_OK;
    case TIMEOUT:
        return FGM_ETIMEOUT;
    case NOMEM:
        return FGM_ENOMEM;
    default:
        return FGM_EUNSOLVED;
    }
}

const fgm_solver fgm_solver_bp_backtrack = {
    "bp-backtrack",
    "pairwise sum-product BP + bounded backtracking: 50 root sweeps, 4 per "
    "node, 300 nodes (seed 001 s.6)",
    0,
    NULL,
    ws_new,
    ws_free,
    solve,
};
