/* runtime/exact/ac3.c: AC-3 on the initial domains, then backtracking.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed's "solveur 3".  First, arc consistency over the binary arcs
 * "v != w" between peers (and, for us, generalised arc consistency on
 * tables) reduces the initial domains, in which clues are singletons.  The
 * seed runs textbook AC-3 with a queue of arcs; we reach the same unique
 * fixpoint with singleton propagation (see search.h).  An emptied domain
 * proves the puzzle has no solution before any search node.
 *
 * Then a backtracking search whose variable choice is MRV on the reduced
 * domains, which are *not* updated during the search: the first unassigned
 * variable with strictly the smallest reduced domain.  Values are tried in
 * ascending order from that domain; one is kept when no assigned peer holds
 * it (and the tables over the variable allow it).
 *
 * Seed parity subtleties:
 *  - clues are not pre-assigned: they are singleton domains, so the search
 *    picks and assigns them first, one node each (easy and medium count 82 =
 *    81 variables + the final call);
 *  - since the domains are static and the assignment is chronological, the
 *    variable picked at depth d is always the d-th variable in the order
 *    (domain size, index); we sort once instead of rescanning at each node,
 *    which changes no count;
 *  - nodes counts every entry, including the final one (981113 calls on
 *    the hard grid of seed 003, as in the seed).
 */
#include "search.h"

/* Fills ws->order with the variables by (reduced domain size, index). */
static void
static_order(fgm_search *ws)
{
    int start[66] = { 0 }, v, c;

    for (v = 0; v < ws->nvars; v++)
        start[fgm_dom_count(ws->dom[v]) + 1]++;
    for (c = 0; c < 65; c++)
        start[c + 1] += start[c];
    for (v = 0; v < ws->nvars; v++)
        ws->order[start[fgm_dom_count(ws->dom[v])]++] = v;
}

/* search := nodes++; v = order[depth] (none left: found);
 *           for val in dom(v) ascending, no assigned peer holds it:
 *           assign, search(depth + 1) */
static int
search(fgm_solve_job *job, fgm_search *ws, int depth)
{
    int v;

    job->stats.nodes++;
    if (fgm_job_expired(job))
        return SRCH_EXPIRED;
    if (depth == job->csp->nvars)
        return SRCH_FOUND;
    v = ws->order[depth];
    return srch_branch(job, ws, v, ws->dom[v], depth + 1, search);
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
    ws->ntrail = 0;     /* the reduced domains are never undone */
    static_order(ws);
    for (v = 0; v < csp->nvars; v++)
        ws->assign[v] = -1;
    r = search(job, ws, 0);
    return srch_finish(job, ws->assign, r);
}

const fgm_solver fgm_solver_ac3 = {
    "ac3",
    "AC-3 on the initial domains, then backtracking with static MRV "
    "(seed 003)",
    FGM_SOLVER_EXACT,
    NULL,
    srch_new,
    srch_free,
    solve,
};
