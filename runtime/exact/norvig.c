/* runtime/exact/norvig.c: constraint propagation plus search (Norvig).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * After Peter Norvig, "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html),
 * generalised from the 9x9 grid to any csp.  Domains are 64-bit masks.
 *
 *   assign(v, a)     eliminate every other value from v;
 *   eliminate(v, a)  remove a from v; if v is left with one value b,
 *                    eliminate b from every peer (naked single); for each
 *                    full unit of v, if a now has one place left in it,
 *                    assign a there (hidden single);
 *   contradiction    an empty domain, or a value with no place left in a
 *                    full unit.
 *
 * Peers come from the neq and alldiff factors.  A "full" unit is an alldiff
 * of n distinct variables over n values: only there must every value occur,
 * so only there do hidden singles hold.  Two things differ from Norvig's
 * Python, neither changing the fixed point: his recursion is replaced by two
 * work stacks (naked singles first, then hidden singles), and each full unit
 * keeps, per value, the number of places left for it, so an elimination
 * costs O(units) and a unit is scanned only when a count drops to one.
 * Table factors are filtered to generalised arc consistency after each fixed
 * point (fgm_csp_table_supported); the two alternate until neither removes a
 * value.
 *
 * Search: the variable with the fewest values (more than one; the first in
 * index order on ties), values in ascending order, the domains and counts
 * copied per level into stacks owned by the workspace.  The propagation is
 * prop.c's, which solve/ep_hybrid3.c shares.  stats.nodes counts
 * calls of search, as the seed notebooks count them.
 */
#include <stdlib.h>
#include <string.h>
#include "../solve/solver.h"
#include "prop.h"

static void *
ws_new(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    (void)opts;
    (void)st;
    return fgm_prop_new(csp);
}

static void
ws_free(void *p)
{
    fgm_prop_free(p);
}

/* -------------------------------------------------------------------------
 * Search
 * ----------------------------------------------------------------------- */

/* search(level) := solved | pick the MRV variable; for each of its values:
 *                  copy the level, assign, settle, search(level + 1). */
static fgm_status
search(fgm_prop *w, fgm_solve_job *job, int level)
{
    const int nvars = job->csp->nvars;
    const fgm_dom *dom;
    fgm_dom left;
    int v, best = -1, min = 65;

    job->stats.nodes++;
    if (fgm_job_expired(job))
        return FGM_ETIMEOUT;
    dom = fgm_prop_dom(w, level);
    for (v = 0; v < nvars; v++) {
        int c = fgm_dom_count(dom[v]);

        if (c > 1 && c < min) {
            min = c;
            best = v;
            if (c == 2)
                break;
        }
    }
    if (best < 0) {
        for (v = 0; v < nvars; v++)
            job->solution[v] = fgm_dom_first(dom[v]);
        return FGM_OK;
    }
    left = dom[best];
    while (left) {
        int a = fgm_dom_first(left), r;
        fgm_status st;

        left &= left - 1;
        job->stats.decisions++;
        r = fgm_prop_branch(w, level, best, a);
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
norvig_solve(fgm_solve_job *job)
{
    if (!fgm_prop_start(job->ws, job->given))
        return FGM_EUNSOLVED;
    return search(job->ws, job, 0);
}

const fgm_solver fgm_solver_norvig = {
    "norvig",
    "Norvig's elimination, naked and hidden singles, MRV search",
    FGM_SOLVER_EXACT,
    NULL,
    ws_new,
    ws_free,
    norvig_solve,
};
