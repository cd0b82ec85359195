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
 *
 * Memory.  A node with a second value to try comes back to its messages,
 * so the search keeps one saved state (2 directions of messages plus the
 * beliefs: 0.43 MB on 9x9, 2.6 MB on 16x16, 20 MB on 25x25) per such
 * ancestor, up to opts->search_bytes (256 MiB by default: every level of
 * a 9x9 search).  When the stack of saved states is full, one is dropped
 * (drop_one: they stay dense near the deepest); a node whose state was
 * dropped gets it back by restoring the nearest saved ancestor and
 * replaying the decisions in between, each a fix and 4 sweeps, exactly as
 * they first ran: the messages are computed again bit for bit, so the
 * search is the same, at the price of the replayed inferences (counted
 * in stats.inferences and stats.sweeps).  Past the node budget no
 * messages are brought back at all.  Measured 2026-12-05 (`fgm solve
 * --solver bp-backtrack`, two generated 25x25 grids): 4163 MiB, 17.4 and
 * 7.0 s before; 265 MiB, 8.8 and 7.8 s now, the same nodes, decisions
 * and contradictions.  With a 1-byte budget (two states) every hardest
 * grid gets the same counts as with the default.
 */
#include <stdlib.h>
#include "decimate.h"

#define NODE_SWEEPS 4       /* node_sweeps */
#define MAX_NODES 300       /* max_nodes */
#define SEARCH_BYTES ((size_t)256 << 20)    /* opts->search_bytes 0 */

/* What a node returns. */
enum { FAILED = 0, FOUND = 1, TIMEOUT = -1, NOMEM = -2 };

/* A saved state: the messages of the node at LEVEL, in SLOT. */
typedef struct saved {
    int level, slot;
} saved;

typedef struct ws {
    fgm_decimate *bp;
    int *value;         /* nvars: clue or decision, -1 when free */
    int *path_var;      /* nvars + 1, by level: the cell decided there */
    int *path_val;      /* and its value */
    saved *stack;       /* the saved ancestors, shallowest first */
    int nstack;
    int cap;            /* states search_bytes holds (>= 2) */
    int *free_slot;     /* slots given back, nfree of them */
    int nfree;
    int next_slot;      /* slots never used start here */
} ws;

static void
ws_free(void *p)
{
    ws *w = p;

    if (!w)
        return;
    fgm_decimate_free(w->bp);
    free(w->value);
    free(w->path_var);
    free(w->path_val);
    free(w->stack);
    free(w->free_slot);
    free(w);
}

static void *
ws_new(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    ws *w = calloc(1, sizeof *w);
    size_t n = (size_t)csp->nvars + 1, budget, per;

    if (!w)
        return NULL;
    w->bp = fgm_decimate_new(csp, opts, FGM_DECIMATE_FLOODING, st);
    w->value = malloc(n * sizeof *w->value);
    w->path_var = malloc(n * sizeof *w->path_var);
    w->path_val = malloc(n * sizeof *w->path_val);
    /* One saved state per level at most. */
    w->stack = malloc(n * sizeof *w->stack);
    w->free_slot = malloc(n * sizeof *w->free_slot);
    if (!w->bp || !w->value || !w->path_var || !w->path_val || !w->stack
        || !w->free_slot) {
        ws_free(w);
        return NULL;
    }
    budget = opts->search_bytes ? opts->search_bytes : SEARCH_BYTES;
    per = fgm_decimate_state_bytes(w->bp);
    w->cap = per > 0 && budget / per < n ? (int)(budget / per) : (int)n;
    if (w->cap < 2)
        w->cap = 2;
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

/* Drops the saved states deeper than LEVEL: they belong to nodes the
 * search has left. */
static void
drop_below(ws *w, int level)
{
    while (w->nstack > 0 && w->stack[w->nstack - 1].level > level)
        w->free_slot[w->nfree++] = w->stack[--w->nstack].slot;
}

/* Makes room for the state of the node at LEVEL (deeper than every saved
 * one) by dropping one saved state, never the shallowest.  A backtrack
 * mostly returns to a deep node, so states are kept dense near LEVEL and
 * sparse far above it: the dropped one leaves the smallest gap
 * (between its neighbours) for its distance from LEVEL. */
static void
drop_one(ws *w, int level)
{
    const saved *k = w->stack;
    int i, worst = 1;
    double score, best = 0.0;

    for (i = 1; i < w->nstack; i++) {
        int next = i + 1 < w->nstack ? k[i + 1].level : level;

        score = (double)(next - k[i - 1].level) / (double)(level - k[i].level);
        if (i == 1 || score < best) {
            best = score;
            worst = i;
        }
    }
    w->free_slot[w->nfree++] = k[worst].slot;
    for (i = worst; i + 1 < w->nstack; i++)
        w->stack[i] = w->stack[i + 1];
    w->nstack--;
}

/* Saves the messages of the node at LEVEL (the deepest on the path).
 * Returns 0 when out of memory. */
static int
save(ws *w, int level)
{
    int slot;

    drop_below(w, level - 1);
    if (w->nstack == w->cap)
        drop_one(w, level);
    slot = w->nfree > 0 ? w->free_slot[--w->nfree] : w->next_slot++;
    if (!fgm_decimate_save(w->bp, slot, w->cap)) {
        w->free_slot[w->nfree++] = slot;
        return 0;
    }
    w->stack[w->nstack].level = level;
    w->stack[w->nstack++].slot = slot;
    return 1;
}

/* Brings back the messages the node at LEVEL had after its sweeps, for
 * its next child: its saved state, or the nearest saved ancestor's with
 * the decisions between them replayed as they first ran (the cells
 * freed, then each fixed in turn and 4 sweeps run), then saved again.
 * Returns FOUND when done, else TIMEOUT or NOMEM. */
static int
restore(ws *w, fgm_solve_job *job, int level)
{
    int from, l;

    drop_below(w, level);
    /* save() ran at LEVEL and kept the shallowest state: one is left. */
    from = w->stack[w->nstack - 1].level;
    fgm_decimate_restore(w->bp, w->stack[w->nstack - 1].slot);
    if (from == level)
        return FOUND;
    for (l = level - 1; l >= from; l--)
        fgm_decimate_fix(w->bp, w->path_var[l], -1);
    for (l = from; l < level; l++) {
        fgm_decimate_fix(w->bp, w->path_var[l], w->path_val[l]);
        if (fgm_decimate_run(w->bp, NODE_SWEEPS, 0, job) != FGM_OK)
            return TIMEOUT;
    }
    return save(w, level) ? FOUND : NOMEM;
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
        /* A full grid that fails verification is a dead end, but not a
         * contradiction to the seed, which counts only cells left with
         * every value excluded ("return out if verify_solution_flat(out)
         * else None"): it counted 124 on hardest's first grid, the seed
         * 0. */
        return FAILED;
    }
    for (v = 0; v < csp->nvars; v++)
        if (w->value[v] < 0 && fgm_decimate_dead(w->bp, v)) {
            job->stats.contradictions++;
            return FAILED;
        }
    n = value_order(w->bp, best, csp->card[best], order);
    /* Only a node with a second value to try comes back to its messages. */
    if (n > 1 && !save(w, depth))
        return NOMEM;
    for (i = 0; i < n; i++) {
        if (job->stats.nodes > MAX_NODES) {
            /* Past the budget every child fails before it runs, and so
             * does every later one: counted as the seed counts them,
             * without bringing back messages no one reads. */
            job->stats.decisions += n - i;
            return FAILED;
        }
        if (i > 0 && (r = restore(w, job, depth)) != FOUND)
            return r;
        w->path_var[depth] = best;
        w->path_val[depth] = order[i];
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
    w->nstack = 0;
    w->nfree = 0;
    w->next_slot = 0;
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
