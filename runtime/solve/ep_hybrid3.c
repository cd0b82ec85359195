/* runtime/solve/ep_hybrid3.c: ep-hybrid3, EP-guided search on prop.c.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where ep-hybrid2's time goes on 16x16 (`fgm solve --solver ep-hybrid2
 * --csv puzzles/generated_16x16.txt`, perf): puzzle 2 takes 21,920 nodes,
 * 7,391 inferences and 14,528 contradictions (2.8 s); about 54% of the
 * time is EP (one sweep of the 16x16 model, ~0.2 ms, at every branching
 * node), 44% the singles, which rebuild every candidate set from the
 * peers at each pass.  The tree is large because the best-margin cell
 * often has many candidates: Norvig's search on the same grid takes 469
 * nodes.  So ep-hybrid3 changes three things and keeps EP as the guide:
 *   1. propagation is Norvig's, incremental (exact/prop.c: domains and
 *      per-unit place counts copied per level; naked and hidden singles
 *      and table filtering to a fixed point);
 *   2. the branching cell has the fewest candidates (MRV); among the
 *      cells tied at that count, EP picks the one whose posterior,
 *      restricted to its candidates and normalised, has the largest
 *      margin top1 - top2 (the first on ties), as ep-hybrid picks its
 *      cell; its candidates go by decreasing posterior (ties in value
 *      order);
 *   3. one EP inference per puzzle, at the first node where propagation
 *      stalls (the root of the search; none when propagation solves the
 *      grid): the filled cells observed as exact clues (ep-hybrid2's
 *      observation), one sweep, the posterior read from each free cell's
 *      belief (the Dirichlet mode of one sweep is flat there: it ordered
 *      nothing, 14,509 nodes on the 50 grids below, as many as Norvig's
 *      value order).  Every later node reads that posterior.
 * Complete: the search tries every candidate of each branching cell, so
 * a puzzle ends solved or proved impossible (or timed out).
 *
 * Measurements (2-core shared machine; `fgm bench --timeout-ms 10000`;
 * "g50" is generated_16x16.txt plus 40 grids of `fgm generate --box 4
 * --count 40 --seed 7`; nodes summed over the corpus):
 *   generated_16x16 (`--solvers ep-hybrid2,ep-hybrid3,norvig,dlx`):
 *     ep-hybrid2 10/10, median 201 ms; ep-hybrid3 10/10, 1.40 ms; norvig
 *     1.59 ms; dlx 2.83 ms; ep-hybrid3's nodes 9 to 635 a grid (ep-hybrid2:
 *     176 to 21,920), one inference each;
 *   9x9 (`--solvers ep-hybrid2,ep-hybrid3`): hardest 0.186 -> 0.0433 ms,
 *     top95 0.743 -> 0.0852 ms, easy50 0.0214 -> 0.0150 ms, all solved;
 *   g50 nodes: norvig 14,509; MRV + EP value order only 12,414-14,509
 *              (by sweeps and observation); + the EP tie-break 9,354;
 *   9x9 top95 nodes: norvig 3,283, ep-hybrid3 2,997, ep-hybrid2 6,832.
 * Tried, not kept (g50, with the tie-break unless said):
 *   an inference at every branching node: 8,177 nodes but 8,127
 *     inferences, median 16.7 ms (top95: 0.74 ms against 0.09);
 *   inferences at depth < 2, 3, 5: 9,013 / 8,627 / 7,927 nodes, median
 *     1.19 / 1.61 / 2.85 ms against 1.01 (root only, same session);
 *   2, 3, 5, 10 sweeps at the root: 8,325 / 8,758 / 10,789 / 7,854 nodes,
 *     medians within the noise or slower (10: 1.05 ms against 0.78);
 *   observing each free cell's candidates too (a point mass at the
 *     uniform vector over them): 9,719 nodes (top95 3,251, hardest 92
 *     against 59), no gain;
 *   tie-break on the smallest margin (fail first): 11,285 nodes;
 *   a fresh inference where the chosen cell's margin is under 0.2:
 *     8,152 nodes, 60 inferences, median 0.84 ms against 0.73.
 */
#include <stdlib.h>
#include <string.h>
#include "ep_model.h"
#include "../exact/prop.h"

#define SWEEPS 1    /* EP sweeps of the one inference (--iters overrides) */

typedef struct ws {
    fgm_ep *ep;
    fgm_prop *prop;
    double *post;   /* nvars * maxcard: each free cell's belief */
    int have;       /* post holds this puzzle's inference */
} ws;

static void
ws_free(void *p)
{
    ws *w = p;

    if (!w)
        return;
    fgm_ep_free(w->ep);
    fgm_prop_free(w->prop);
    free(w->post);
    free(w);
}

static void *
ws_new(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    ws *w = calloc(1, sizeof *w);
    fgm_ir *ir;

    if (!w)
        return NULL;
    ir = fgm_ep_robust_ir(csp->ir);
    w->ep = ir ? fgm_ep_new(csp, ir, opts, st) : NULL;
    w->prop = fgm_prop_new(csp);
    w->post = malloc(((size_t)csp->nvars * (size_t)csp->maxcard + 1)
                     * sizeof *w->post);
    if (!w->ep || !w->prop || !w->post) {
        ws_free(w);
        return NULL;
    }
    w->ep->clue_eps = 0.0;
    return w;
}

/* The inference: the cells of DOM with one value observed as exact
 * clues, the others free; each free cell's belief into w->post.  Returns
 * FGM_OK or FGM_ETIMEOUT. */
static fgm_status
infer(ws *w, fgm_solve_job *job, const fgm_dom *dom)
{
    const fgm_csp *csp = job->csp;
    fgm_status st;
    int v;

    for (v = 0; v < csp->nvars; v++)
        fgm_ep_observe(w->ep, v, dom[v] & (dom[v] - 1)
                                 ? -1 : fgm_dom_first(dom[v]));
    st = fgm_ep_infer_sweeps(w->ep, job, SWEEPS, 0);
    if (st != FGM_OK)
        return st;
    for (v = 0; v < csp->nvars; v++)
        if (dom[v] & (dom[v] - 1))
            fgm_model_marginal(w->ep->model, v,
                               w->post + (size_t)v * (size_t)csp->maxcard);
    w->have = 1;
    return FGM_OK;
}

/* The margin top1 - top2 of posterior P over the values of D, normalised
 * over D. */
static double
margin(const double *p, fgm_dom d)
{
    double top1 = 0.0, top2 = 0.0, sum = 0.0, x;

    for (; d; d &= d - 1) {
        x = p[fgm_dom_first(d)];
        sum += x;
        if (x > top1) {
            top2 = top1;
            top1 = x;
        } else if (x > top2) {
            top2 = x;
        }
    }
    return sum > 0.0 ? (top1 - top2) / sum : 0.0;
}

/* The branching cell of DOM: the fewest candidates (more than one), the
 * largest margin among those (the first on ties); -1 when every cell
 * has one value. */
static int
pick_cell(const ws *w, const fgm_csp *csp, const fgm_dom *dom)
{
    int v, best = -1, min = FGM_IR_MAXCARD + 1, c;
    double m, top = -1.0;

    for (v = 0; v < csp->nvars; v++) {
        c = fgm_dom_count(dom[v]);
        if (c < 2 || c > min)
            continue;
        m = margin(w->post + (size_t)v * (size_t)csp->maxcard, dom[v]);
        if (c < min || m > top) {
            min = c;
            top = m;
            best = v;
        }
    }
    return best;
}

/* search(level) := solved | the first stall: infer; pick the cell; for
 * each candidate by posterior: copy the level, assign, settle,
 * search(level + 1). */
static fgm_status
search(ws *w, fgm_solve_job *job, int level)
{
    const fgm_csp *csp = job->csp;
    const fgm_dom *dom = fgm_prop_dom(w->prop, level);
    const double *p;
    int order[FGM_IR_MAXCARD], n = 0, v, i, cell, r;
    fgm_dom left;
    fgm_status st;

    job->stats.nodes++;
    if (fgm_job_expired(job))
        return FGM_ETIMEOUT;
    for (v = 0; v < csp->nvars && !(dom[v] & (dom[v] - 1)); v++)
        ;
    if (v == csp->nvars) {
        for (v = 0; v < csp->nvars; v++)
            job->solution[v] = fgm_dom_first(dom[v]);
        return FGM_OK;
    }
    if (!w->have && (st = infer(w, job, dom)) != FGM_OK)
        return st;
    cell = pick_cell(w, csp, dom);
    p = w->post + (size_t)cell * (size_t)csp->maxcard;
    for (left = dom[cell]; left; left &= left - 1) {
        int a = fgm_dom_first(left);

        for (i = n; i > 0 && p[order[i - 1]] < p[a]; i--)
            order[i] = order[i - 1];
        order[i] = a;
        n++;
    }
    for (i = 0; i < n; i++) {
        job->stats.decisions++;
        r = fgm_prop_branch(w->prop, level, cell, order[i]);
        if (r < 0)
            return FGM_ENOMEM;
        if (r == 0) {
            job->stats.contradictions++;
            continue;
        }
        st = search(w, job, level + 1);
        if (st != FGM_EUNSOLVED)
            return st;
    }
    return FGM_EUNSOLVED;
}

static fgm_status
solve(fgm_solve_job *job)
{
    ws *w = job->ws;

    /* The backend the model runs, even when propagation leaves no
     * inference to run. */
    job->stats.compiled = fgm_model_is_compiled(w->ep->model);
    w->have = 0;
    if (!fgm_prop_start(w->prop, job->given)) {
        job->stats.contradictions++;
        return FGM_EUNSOLVED;
    }
    return search(w, job, 0);
}

const fgm_solver fgm_solver_ep_hybrid3 = {
    "ep-hybrid3",
    "Norvig's propagation, fewest-candidates cell with EP's best margin "
    "among the ties, values by EP posterior, one inference (complete)",
    0,
    NULL,
    ws_new,
    ws_free,
    solve,
};
