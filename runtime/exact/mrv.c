/* runtime/exact/mrv.c: backtracking with minimum remaining values (seed 003).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed's "solveur 2": at every node, scan the unassigned variables in
 * index order and count each one's possible values (those no assigned peer
 * holds, and, for us, that evidence and tables allow).  Keep the first
 * variable with strictly fewer possibilities than the best so far; a
 * variable with none ends the node at once (the seed's fail-fast), even
 * when a singleton was seen before it.  Then try its possible values in
 * ascending order.  Nothing is propagated: MRV alone fills forced cells
 * first.  Clues are in place before the search, as in the seed's grid.
 *
 * Seed parity: nodes counts every entry of the recursive function,
 * including the final one that finds nothing to assign.  The scan must
 * not stop early at a singleton, since a later variable with no value
 * turns the node into a failure: seed 003 counts 52 / 46 / 5565 calls on
 * its easy / medium / hard grids, and so do we.
 *
 * Option lcv (off by default, which keeps seed parity): order the values
 * least-constraining first, i.e. by how many unassigned peers still have
 * that value among their possible values (fewest first), ties by value.
 * The per-depth order lives in the workspace, so no allocation.
 */
#include "search.h"

/* Possible values of unassigned V given the assigned variables. */
static fgm_dom
possible(const fgm_csp *csp, const int *assign, int v)
{
    fgm_dom m = csp->full[v] & ~srch_used(csp, assign, v), keep, b;

    if (!srch_has_tables(csp, v))
        return m;
    keep = 0;
    for (b = m; b; b &= b - 1)
        if (fgm_csp_consistent(csp, assign, v, fgm_dom_first(b)))
            keep |= b & -b;
    return keep;
}

/* Writes the values of M into OUT least-constraining first for unassigned
 * V (ties by value).  Returns how many. */
static int
lcv_order(const fgm_csp *csp, const int *assign, int v, fgm_dom m,
          int *out)
{
    const int *p = fgm_csp_peers(csp, v);
    int cost[64] = { 0 }, i, j, n = 0, np = fgm_csp_npeers(csp, v);
    fgm_dom b;

    for (i = 0; i < np; i++) {
        if (assign[p[i]] >= 0)
            continue;
        for (b = possible(csp, assign, p[i]) & m; b; b &= b - 1)
            cost[fgm_dom_first(b)]++;
    }
    /* Insertion sort; values arrive ascending, so equal costs keep it. */
    for (b = m; b; b &= b - 1) {
        int val = fgm_dom_first(b);

        for (j = n; j > 0 && cost[out[j - 1]] > cost[val]; j--)
            out[j] = out[j - 1];
        out[j] = val;
        n++;
    }
    return n;
}

/* search := nodes++; pick the first unassigned variable with strictly
 *           fewest possible values (fail at once on none);
 *           for each possible value: assign, search */
static int
search(fgm_solve_job *job, fgm_search *ws, int depth)
{
    const fgm_csp *csp = job->csp;
    int *assign = ws->assign;
    int v, best = -1, bestn = 65, r, i, n;
    fgm_dom bestm = 0;

    job->stats.nodes++;
    if (fgm_job_expired(job))
        return SRCH_EXPIRED;
    for (v = 0; v < csp->nvars; v++) {
        fgm_dom m;
        int c;

        if (assign[v] >= 0)
            continue;
        m = possible(csp, assign, v);
        c = fgm_dom_count(m);
        if (c < bestn) {
            best = v;
            bestn = c;
            bestm = m;
            if (c == 0) {
                job->stats.contradictions++;
                return SRCH_FAIL;
            }
        }
    }
    if (best < 0)
        return SRCH_FOUND;
    if (job->opts->lcv) {
        int *vals = ws->vals + (size_t)depth * (size_t)ws->maxcard;

        n = lcv_order(csp, assign, best, bestm, vals);
        for (i = 0; i < n; i++) {
            assign[best] = vals[i];
            job->stats.decisions++;
            r = search(job, ws, depth + 1);
            if (r != SRCH_FAIL)
                return r;
        }
    } else {
        for (; bestm; bestm &= bestm - 1) {
            assign[best] = fgm_dom_first(bestm);
            job->stats.decisions++;
            r = search(job, ws, depth + 1);
            if (r != SRCH_FAIL)
                return r;
        }
    }
    assign[best] = -1;
    return SRCH_FAIL;
}

static fgm_status
solve(fgm_solve_job *job)
{
    return srch_solve_from_clues(job, search);
}

const fgm_solver fgm_solver_mrv = {
    "mrv",
    "backtracking, fewest possible values first (seed 003); option lcv "
    "(seed 004)",
    FGM_SOLVER_EXACT,
    NULL,
    srch_new,
    srch_free,
    solve,
};
