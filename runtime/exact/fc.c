/* runtime/exact/fc.c: forward checking with MRV on the current domains.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Forward checking (Haralick and Elliott 1980): after v = val, remove val
 * from the domain of every unassigned peer of v, and for every table over
 * v keep in its unassigned variables only the values that still have a
 * supporting tuple.  A domain that empties ends the branch at once.  Unlike
 * mac, the consequences are not propagated further: a peer left with one
 * value is only checked when it is itself assigned, which MRV does next
 * since its domain is the smallest.
 *
 * Variable choice: MRV on the current (pruned) domains, the first
 * unassigned variable with the fewest values; values ascending.  Domain
 * changes go on the workspace trail and are undone on backtrack, so a node
 * costs no allocation.  Clues are assigned and forward-checked, in index
 * order, before the search: a clue whose value an earlier clue removed
 * proves the puzzle contradictory, with no node.
 *
 * nodes counts every entry of the recursive function, including the final
 * one that finds every variable assigned (as the seed counts its solvers).
 */
#include "search.h"

/* Forward-checks v = assign[v] (dom[v] already {val}).  Returns 0 when an
 * unassigned domain empties. */
static int
forward(fgm_search *ws, const fgm_csp *csp, int v)
{
    const int *p = fgm_csp_peers(csp, v);
    fgm_dom bit = FGM_DOM_BIT(ws->assign[v]);
    int i, j, n = fgm_csp_npeers(csp, v);

    for (i = 0; i < n; i++) {
        int w = p[i];

        if (ws->assign[w] < 0 && (ws->dom[w] & bit)) {
            srch_set(ws, w, ws->dom[w] & ~bit);
            if (!ws->dom[w])
                return 0;
        }
    }
    for (i = csp->var_table_off[v]; i < csp->var_table_off[v + 1]; i++) {
        int t = csp->var_tables[i];
        const fgm_ir_factor *f = &csp->ir->factors[csp->tables[t]];
        const int *s = fgm_ir_scope(csp->ir, f);

        if (!fgm_csp_table_supported(csp, t, ws->dom, -1, 0))
            return 0;
        for (j = 0; j < f->arity; j++) {
            int u = s[j];
            fgm_dom keep = 0, b;

            if (ws->assign[u] >= 0)
                continue;
            for (b = ws->dom[u]; b; b &= b - 1)
                if (fgm_csp_table_supported(csp, t, ws->dom, u,
                                            fgm_dom_first(b)))
                    keep |= b & -b;
            srch_set(ws, u, keep);
            if (!keep)
                return 0;
        }
    }
    return 1;
}

/* search := nodes++; pick the unassigned variable with the smallest
 *           current domain (none left: found);
 *           for val in its domain: assign, forward-check, search */
static int
search(fgm_solve_job *job, fgm_search *ws)
{
    const fgm_csp *csp = job->csp;
    int best, r, mark;
    fgm_dom m;

    job->stats.nodes++;
    if (fgm_job_expired(job))
        return SRCH_EXPIRED;
    best = srch_fewest(ws);     /* forward checking keeps domains nonempty */
    if (best < 0)
        return SRCH_FOUND;
    mark = ws->ntrail;
    for (m = ws->dom[best]; m; m &= m - 1) {
        ws->assign[best] = fgm_dom_first(m);
        srch_set(ws, best, m & -m);
        job->stats.decisions++;
        if (forward(ws, csp, best)) {
            r = search(job, ws);
            if (r != SRCH_FAIL)
                return r;
        } else {
            job->stats.contradictions++;
        }
        srch_undo(ws, mark);
    }
    ws->assign[best] = -1;
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
    if (!fgm_csp_init_domains(csp, job->given, ws->dom))
        return FGM_EUNSOLVED;
    for (v = 0; v < csp->nvars; v++)
        ws->assign[v] = -1;
    for (v = 0; v < csp->nvars; v++) {
        if (!ws->dom[v])
            return FGM_EUNSOLVED;   /* evidence bars every value */
        if (!job->given || job->given[v] < 0)
            continue;
        if (!(ws->dom[v] & FGM_DOM_BIT(job->given[v])))
            return FGM_EUNSOLVED;   /* an earlier clue removed it */
        ws->assign[v] = job->given[v];
        if (!forward(ws, csp, v))
            return FGM_EUNSOLVED;
    }
    ws->ntrail = 0;     /* the clues' pruning is never undone */
    r = search(job, ws);
    return srch_finish(job, ws->assign, r);
}

const fgm_solver fgm_solver_fc = {
    "fc",
    "forward checking, MRV on the current domains",
    FGM_SOLVER_EXACT,
    NULL,
    srch_new,
    srch_free,
    solve,
};
