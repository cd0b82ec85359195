/* runtime/solve/ep_hybrid.c: ep-hybrid, the seed's v3 BacktrackingDecimationSolver.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Notebook 000, section 7 ("Solveur v3"): EP-guided decimation with
 * deterministic propagation and bounded backtracking.  Search(grid):
 *   1. PropagateSingles to a fixed point: a pass of naked singles (each
 *      free cell in index order: no candidate left is a contradiction, one
 *      candidate fills the cell at once); when that pass changed nothing, a
 *      pass of hidden singles (each unit in model order, each value in
 *      order: a value already in the unit is skipped, no place left for it
 *      is a contradiction, one place fills that cell); repeat until a pass
 *      of both changes nothing.  Candidates are the values no filled peer
 *      holds (bit masks); hidden singles hold in the "full" alldiff units
 *      only (n cells over n values, as every Sudoku unit);
 *   2. a full grid is returned when it passes verification;
 *   3. budget: once 60 inferences have run (MaxInferences), the node fails;
 *   4. one EP inference on the robust Dirichlet model (ep_model.h), every
 *      filled cell observed as a point-mass clue;
 *   5. branch on the free cell whose posterior mode (Infer.NET's
 *      Dirichlet.GetMode of the posterior over p) has the largest margin
 *      top1 - top2 (the first on ties), its candidates by decreasing mode
 *      (ties in value order: LINQ's OrderByDescending is stable); a child
 *      that fails (a contradiction, or its subtree) passes to the next
 *      value.
 * No randomness.  stats.nodes counts calls of Search, stats.decisions the
 * values tried, stats.contradictions the failed propagations and
 * verifications.  When the search fails the grid stays unsolved
 * (FGM_EUNSOLVED).  The seed: the Easy grids with 0 inferences, its Medium
 * grid (hardest.txt line 2) with 7 inferences and 10 decisions; here 0,
 * and 8 inferences with 14 decisions (`fgm solve --solver ep-hybrid --csv
 * puzzles/seed000.txt`, line 4; the engine's EP posteriors are not
 * Infer.NET's to the digit, and the search follows them).
 *
 * opts->iterations (--iters) sets the EP sweeps per inference (default
 * 50, the seed's); the budget counts inferences whatever their length.
 */
#include <stdlib.h>
#include <string.h>
#include "ep_model.h"

#define MAX_INFERENCES 60   /* MaxInferences */
#define FAST_SWEEPS 1       /* ep-hybrid2: sweeps per inference */

/* What a search node returns. */
enum { FAILED = 0, FOUND = 1, TIMEOUT = -1 };

typedef struct ws {
    fgm_ep *ep;
    const fgm_csp *csp;
    unsigned char *is_full; /* nunits: hidden singles apply */
    int maxunit;
    fgm_dom *cand;          /* maxunit: candidates of a unit's cells */
    int *grid;              /* levels * nvars: the grid of each depth */
    int levels;
    double *post;           /* maxcard: a posterior's pseudo-counts */
    long budget;            /* inferences at most; 0: no limit */
    int sweeps;             /* EP sweeps per inference; 0: the model's */
} ws;

static void *ws_alloc(const fgm_csp *csp, const fgm_solve_opts *opts,
                      long budget, int sweeps, fgm_status *st);

static void
ws_free(void *p)
{
    ws *w = p;

    if (!w)
        return;
    fgm_ep_free(w->ep);
    free(w->is_full);
    free(w->cand);
    free(w->grid);
    free(w->post);
    free(w);
}

/* The seed's configuration: MAX_INFERENCES, the model's 50 sweeps. */
static void *
ws_new(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    return ws_alloc(csp, opts, MAX_INFERENCES, 0, st);
}

/* ep-hybrid2: the same search with exact clues (the filled cells of a
 * node are certain), one EP sweep per inference and no inference budget,
 * so every puzzle ends solved or proved impossible (the singles and the
 * backtracking make the search complete).  The posteriors only order the
 * search: on top95 (`fgm solve --solver ep-hybrid2 --iters N`) one sweep
 * gave a median of 1.1 ms, 2 sweeps 3.1 ms, 10 sweeps 3.3 ms, 20 sweeps
 * 8.4 ms -- a longer inference does not buy a smaller search tree. */
static void *
ws_new_fast(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    ws *w = ws_alloc(csp, opts, 0, FAST_SWEEPS, st);

    if (w)
        w->ep->clue_eps = 0.0;
    return w;
}

static void *
ws_alloc(const fgm_csp *csp, const fgm_solve_opts *opts, long budget,
         int sweeps, fgm_status *st)
{
    ws *w = calloc(1, sizeof *w);
    fgm_ir *ir;
    int u, n;

    if (!w)
        return NULL;
    w->csp = csp;
    ir = fgm_ep_robust_ir(csp->ir);
    w->ep = ir ? fgm_ep_new(csp, ir, opts, st) : NULL;
    for (u = 0; u < csp->nunits; u++) {
        n = csp->unit_off[u + 1] - csp->unit_off[u];
        if (n > w->maxunit)
            w->maxunit = n;
    }
    w->budget = budget;
    w->sweeps = sweeps;
    /* Each level fixes a cell: depth <= the number of variables. */
    w->levels = csp->nvars + 2;
    w->is_full = malloc((size_t)csp->nunits + 1);
    w->cand = malloc(((size_t)w->maxunit + 1) * sizeof *w->cand);
    w->grid = malloc((size_t)w->levels * ((size_t)csp->nvars + 1)
                     * sizeof *w->grid);
    w->post = malloc(((size_t)csp->maxcard + 1) * sizeof *w->post);
    if (!w->ep || !w->is_full || !w->cand || !w->grid || !w->post) {
        ws_free(w);
        return NULL;
    }
    for (u = 0; u < csp->nunits; u++)
        w->is_full[u] = (unsigned char)fgm_csp_unit_is_full(csp, u);
    return w;
}

/* The seed's Candidates: the values of V that no filled peer holds (and,
 * for a model with tables, that keep every table over V satisfiable). */
static fgm_dom
candidates(const fgm_csp *csp, const int *g, int v)
{
    const int *p = fgm_csp_peers(csp, v);
    int np = fgm_csp_npeers(csp, v), i;
    fgm_dom c = csp->full[v], left;

    for (i = 0; i < np; i++)
        if (g[p[i]] >= 0)
            c &= ~FGM_DOM_BIT(g[p[i]]);
    if (csp->var_table_off[v + 1] > csp->var_table_off[v])
        for (left = c; left; left &= left - 1) {
            int a = fgm_dom_first(left);

            if (!fgm_csp_consistent(csp, g, v, a))
                c &= ~FGM_DOM_BIT(a);
        }
    return c;
}

/* One pass of naked singles.  Returns -1 on a contradiction, else whether
 * a cell was filled. */
static int
naked_pass(const fgm_csp *csp, int *g)
{
    int v, changed = 0;
    fgm_dom c;

    for (v = 0; v < csp->nvars; v++) {
        if (g[v] >= 0)
            continue;
        c = candidates(csp, g, v);
        if (!c)
            return -1;
        if (!(c & (c - 1))) {
            g[v] = fgm_dom_first(c);
            changed = 1;
        }
    }
    return changed;
}

/* One pass of hidden singles over the full units.  Returns -1 on a
 * contradiction, else whether a cell was filled.  Within a unit, values
 * go in increasing order, so filling a cell with A changes no later
 * value's places except that cell's own: its candidates are cleared. */
static int
hidden_pass(ws *w, int *g)
{
    const fgm_csp *csp = w->csp;
    int u, i, a, n, count, spot, changed = 0;
    fgm_dom placed, bit;

    for (u = 0; u < csp->nunits; u++) {
        const int *vars = csp->unit_vars + csp->unit_off[u];

        if (!w->is_full[u])
            continue;
        n = csp->unit_off[u + 1] - csp->unit_off[u];
        placed = 0;
        for (i = 0; i < n; i++) {
            if (g[vars[i]] >= 0) {
                placed |= FGM_DOM_BIT(g[vars[i]]);
                w->cand[i] = 0;
            } else {
                w->cand[i] = candidates(csp, g, vars[i]);
            }
        }
        for (a = 0; a < n; a++) {
            bit = FGM_DOM_BIT(a);
            if (placed & bit)
                continue;
            count = 0;
            spot = -1;
            for (i = 0; i < n; i++)
                if (w->cand[i] & bit) {
                    count++;
                    spot = i;
                }
            if (count == 0)
                return -1;
            if (count == 1) {
                g[vars[spot]] = a;
                w->cand[spot] = 0;
                placed |= bit;
                changed = 1;
            }
        }
    }
    return changed;
}

/* PropagateSingles.  Returns 0 on a contradiction. */
static int
propagate(ws *w, int *g)
{
    int r;

    for (;;) {
        r = naked_pass(w->csp, g);
        if (r < 0)
            return 0;
        if (r > 0)
            continue;
        r = hidden_pass(w, g);
        if (r < 0)
            return 0;
        if (r == 0)
            return 1;
    }
}

/* The posterior of V the seed reads: the mode of its Dirichlet node's
 * posterior, or V's belief when it has none. */
static void
posterior(ws *w, int v, double *mode)
{
    int d = w->ep->node_of[v], k = w->csp->card[v];

    if (d < 0) {
        fgm_model_marginal(w->ep->model, v, mode);
        return;
    }
    fgm_model_dirichlet(w->ep->model, d, w->post);
    fgm_ep_dirichlet_mode(w->post, k, mode);
}

/* The free cell with the largest margin top1 - top2 of its posterior mode
 * (the first on ties), its mode in MODE; -1 when no cell is free. */
static int
best_margin_cell(ws *w, const int *g, double *mode)
{
    double m[FGM_IR_MAXCARD], best = -1.0, top1, top2;
    int v, j, cell = -1;

    for (v = 0; v < w->csp->nvars; v++) {
        if (g[v] >= 0)
            continue;
        posterior(w, v, m);
        top1 = top2 = -1.0;
        for (j = 0; j < w->csp->card[v]; j++) {
            if (m[j] > top1) {
                top2 = top1;
                top1 = m[j];
            } else if (m[j] > top2) {
                top2 = m[j];
            }
        }
        if (top1 - top2 > best) {
            best = top1 - top2;
            cell = v;
            memcpy(mode, m, (size_t)w->csp->card[v] * sizeof *mode);
        }
    }
    return cell;
}

/* Search: the node whose grid is level DEPTH. */
static int
search(ws *w, fgm_solve_job *job, int depth)
{
    const fgm_csp *csp = w->csp;
    size_t stride = (size_t)csp->nvars + 1;
    int *g = w->grid + (size_t)depth * stride, *child;
    double mode[FGM_IR_MAXCARD];
    int order[FGM_IR_MAXCARD], n = 0, v, i, cell, r;
    fgm_dom c;

    job->stats.nodes++;
    if (!propagate(w, g)) {
        job->stats.contradictions++;
        return FAILED;
    }
    for (v = 0; v < csp->nvars && g[v] >= 0; v++)
        ;
    if (v == csp->nvars) {
        if (!fgm_csp_verify(csp, job->given, g)) {
            job->stats.contradictions++;
            return FAILED;
        }
        memcpy(job->solution, g, (size_t)csp->nvars * sizeof *g);
        return FOUND;
    }
    if (w->budget > 0 && job->stats.inferences >= w->budget)
        return FAILED;
    if (job->deadline > 0 && fgm_now() > job->deadline)
        return TIMEOUT;
    for (v = 0; v < csp->nvars; v++)
        fgm_ep_observe(w->ep, v, g[v]);
    if (fgm_ep_infer_sweeps(w->ep, job, w->sweeps, 0) == FGM_ETIMEOUT)
        return TIMEOUT;
    cell = best_margin_cell(w, g, mode);
    if (cell < 0 || depth + 1 >= w->levels)
        return FAILED;
    /* Candidates by decreasing mode, ties in value order. */
    for (c = candidates(csp, g, cell); c; c &= c - 1) {
        int a = fgm_dom_first(c);

        for (i = n; i > 0 && mode[order[i - 1]] < mode[a]; i--)
            order[i] = order[i - 1];
        order[i] = a;
        n++;
    }
    child = g + stride;
    for (i = 0; i < n; i++) {
        job->stats.decisions++;
        memcpy(child, g, (size_t)csp->nvars * sizeof *g);
        child[cell] = order[i];
        r = search(w, job, depth + 1);
        if (r != FAILED)
            return r;
    }
    return FAILED;
}

static fgm_status
solve(fgm_solve_job *job)
{
    ws *w = job->ws;
    int r;

    /* The backend the model runs, even when the singles leave no
     * inference to run. */
    job->stats.compiled = fgm_model_is_compiled(w->ep->model);
    memcpy(w->grid, job->given, (size_t)job->csp->nvars * sizeof *w->grid);
    /* Clues that clash (a value twice in a unit, or a table they break)
     * end the search here: the singles look at free cells only, and the
     * search would fill the grid in every way before verification turned
     * each down (an empty Sudoku X grid with a clue repeated on a
     * diagonal, a unit the puzzle reader does not check: ep-hybrid2
     * still searched at 60 s). */
    if (!fgm_csp_assigned_consistent(job->csp, w->grid)) {
        job->stats.contradictions++;
        return FGM_EUNSOLVED;
    }
    r = search(w, job, 0);
    if (r == TIMEOUT)
        return FGM_ETIMEOUT;
    return r == FOUND ? FGM_OK : FGM_EUNSOLVED;
}

const fgm_solver fgm_solver_ep_hybrid2 = {
    "ep-hybrid2",
    "ep-hybrid with exact clues, one EP sweep per inference and no "
    "inference budget (complete)",
    0,
    NULL,
    ws_new_fast,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_ep_hybrid = {
    "ep-hybrid",
    "naked + hidden singles, EP posterior picks the best-margin cell and "
    "orders its values, backtracking within 60 inferences (seed 000 s.7)",
    0,
    NULL,
    ws_new,
    ws_free,
    solve,
};
