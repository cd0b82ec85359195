/* runtime/solve/ep_iterative.c: ep-iterative, the seed's IterativeProbabilisticSolver.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Notebook 000, section 7: run EP on the robust model, fix the K empty
 * cells whose posterior mode is most confident (K = NbIterationCells, 2 by
 * default; the seed uses 1 on its Medium grid) as new point-mass clues,
 * and infer again until every cell is fixed.  Decisions are irrevocable:
 * a wrong early fix leaves errors (the seed: 3 on its Medium grid).
 *
 * The choice of the K cells follows the seed's GetBestDirichletSubArrayIndex
 * exactly, quirks included: start from the first K empty cells, then for
 * every empty cell in index order replace the weakest kept cell when the
 * new one's mode is strictly larger (a kept cell may be visited again).
 */
#include <stdlib.h>
#include "ep_model.h"

typedef struct ws {
    fgm_ep *ep;
    int *cells;         /* nvars: current grid (value index or -1) */
    int *best;          /* K chosen cells */
    double *mode;       /* nvars: confidence of each cell's answer */
    int *answer;        /* nvars: argmax of each cell */
} ws;

static void
ws_free(void *p)
{
    ws *w = p;

    if (!w)
        return;
    fgm_ep_free(w->ep);
    free(w->cells);
    free(w->best);
    free(w->mode);
    free(w->answer);
    free(w);
}

static void *
ws_new(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    ws *w = calloc(1, sizeof *w);
    fgm_ir *ir;
    size_t n = (size_t)csp->nvars + 1;

    if (!w)
        return NULL;
    ir = fgm_ep_robust_ir(csp->ir);
    w->ep = ir ? fgm_ep_new(csp, ir, opts, st) : NULL;
    w->cells = malloc(n * sizeof *w->cells);
    w->best = malloc(n * sizeof *w->best);
    w->mode = malloc(n * sizeof *w->mode);
    w->answer = malloc(n * sizeof *w->answer);
    if (!w->ep || !w->cells || !w->best || !w->mode || !w->answer) {
        ws_free(w);
        return NULL;
    }
    return w;
}

/* The seed's selection of the K most confident empty cells; returns how
 * many it chose (fewer than K when fewer cells are empty). */
static int
choose(const ws *w, int nvars, int k)
{
    int v, n = 0, i, min;

    for (v = 0; v < nvars && n < k; v++)
        if (w->cells[v] < 0)
            w->best[n++] = v;
    for (v = 0; v < nvars; v++) {
        if (w->cells[v] >= 0)
            continue;
        min = 0;
        for (i = 1; i < n; i++)
            if (w->mode[w->best[i]] < w->mode[w->best[min]])
                min = i;
        if (w->mode[w->best[min]] < w->mode[v])
            w->best[min] = v;
    }
    return n;
}

static fgm_status
solve(fgm_solve_job *job)
{
    ws *w = job->ws;
    int nvars = job->csp->nvars, k, v, i, n, left = 0;
    fgm_status st;

    /* The backend the model runs, even when no inference runs (every
     * cell given, or the deadline passed first). */
    job->stats.compiled = fgm_model_is_compiled(w->ep->model);
    k = job->opts->fix_per_round > 0 ? job->opts->fix_per_round : 2;
    for (v = 0; v < nvars; v++) {
        w->cells[v] = job->given[v];
        fgm_ep_observe(w->ep, v, w->cells[v]);
        left += w->cells[v] < 0;
    }
    while (left > 0) {
        /* Inferences are long: check the deadline before each one. */
        if (job->deadline > 0 && fgm_now() > job->deadline)
            return FGM_ETIMEOUT;
        if ((st = fgm_ep_infer(w->ep, job)) != FGM_OK)
            return st;      /* FGM_ETIMEOUT: no answer to read */
        for (v = 0; v < nvars; v++)
            if (w->cells[v] < 0)
                w->answer[v] = fgm_ep_answer(w->ep, v, &w->mode[v]);
        n = choose(w, nvars, k);
        for (i = 0; i < n; i++) {
            v = w->best[i];
            if (w->cells[v] < 0) {
                w->cells[v] = w->answer[v];
                fgm_ep_observe(w->ep, v, w->cells[v]);
                job->stats.decisions++;
                left--;
            }
        }
    }
    for (v = 0; v < nvars; v++)
        job->solution[v] = w->cells[v];
    return FGM_OK;      /* the runner counts a wrong grid's errors */
}

const fgm_solver fgm_solver_ep_iterative = {
    "ep-iterative",
    "EP, fix the K most confident cells, infer again until full (seed 000 "
    "s.7)",
    0,
    NULL,
    ws_new,
    ws_free,
    solve,
};
