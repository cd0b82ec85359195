/* runtime/solve/ep_robust.c: ep-robust, the seed's RobustProbabilisticSolver.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Notebook 000, section 5: the Dirichlet model is compiled once; each
 * puzzle only changes the observed priors (a clue is a point mass, an
 * empty cell the uniform Dirichlet(1)); one EP inference of 50 iterations;
 * each empty cell takes the argmax of the posterior over its p.  No search,
 * no second chance: on hard grids it leaves errors (the seed: 37 on its
 * Medium grid), which the driver's verification reports as unsolved.
 */
#include "ep_model.h"

static void *
ws_new(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    fgm_ir *ir = fgm_ep_robust_ir(csp->ir);

    return ir ? fgm_ep_new(csp, ir, opts, st) : NULL;
}

static void *
ws_new_exact(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    fgm_ep *ep = ws_new(csp, opts, st);

    if (ep)
        ep->clue_eps = 0.0;
    return ep;
}

static void
ws_free(void *ws)
{
    fgm_ep_free(ws);
}

static fgm_status
solve(fgm_solve_job *job)
{
    fgm_ep *ep = job->ws;
    fgm_status st;
    int v;

    /* The backend the model runs, even when no inference runs (every
     * cell given, or the deadline passed first). */
    job->stats.compiled = fgm_model_is_compiled(ep->model);
    for (v = 0; v < job->csp->nvars; v++)
        fgm_ep_observe(ep, v, job->given[v]);
    if ((st = fgm_ep_infer(ep, job)) != FGM_OK)
        return st;          /* FGM_ETIMEOUT: no answer to read */
    for (v = 0; v < job->csp->nvars; v++)
        job->solution[v] = job->given[v] >= 0 ? job->given[v]
                                              : fgm_ep_answer(ep, v, NULL);
    return FGM_OK;      /* the runner counts a wrong grid's errors */
}

const fgm_solver fgm_solver_ep_robust = {
    "ep-robust",
    "EP on the Dirichlet model compiled once, clues observed, 50 sweeps, "
    "argmax (seed 000 s.5)",
    0,
    NULL,
    ws_new,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_ep_robust2 = {
    "ep-robust2",
    "ep-robust with exact clues: the updates around clue cells are "
    "skipped once they cannot change",
    0,
    NULL,
    ws_new_exact,
    ws_free,
    solve,
};
