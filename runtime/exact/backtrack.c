/* runtime/exact/backtrack.c: naive chronological backtracking (seed 003).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed's "solveur 1": take the first empty cell in row-major order,
 * try the values in ascending order, keep a value no peer already holds,
 * recurse.  No heuristic and no propagation, so the tree explodes on hard
 * grids; it is the baseline every other solver is compared with.
 *
 * Generalised to any csp: "first empty cell" is the lowest-numbered
 * unassigned variable, "valid" is fgm_csp_consistent (peers, evidence,
 * tables; the peer test is inlined because it is the whole cost on
 * Sudoku).  Clues are in place before the search starts, as in the seed's
 * grid.
 *
 * Seed parity: nodes counts every entry of the recursive function,
 * including the last one that finds no empty variable (the seed's
 * calls++ comes before FindEmptyNaive).  Seed 003 counts 4209 / 55 /
 * 879418 calls on its easy / medium / hard grids; so do we.  The only
 * addition is a check that the clues agree with each other before the
 * search (the seed assumes they do); it costs no node.
 */
#include "search.h"

/* search := nodes++; v = first unassigned at or after FROM;
 *           for val ascending, valid: assign, search(v + 1) */
static int
search(fgm_solve_job *job, fgm_search *ws, int from)
{
    int v, nvars = job->csp->nvars;

    job->stats.nodes++;
    if (fgm_job_expired(job))
        return SRCH_EXPIRED;
    /* Variables below FROM are all assigned: they were picked earlier. */
    for (v = from; v < nvars && ws->assign[v] >= 0; v++)
        ;
    if (v == nvars)
        return SRCH_FOUND;
    return srch_branch(job, ws, v, job->csp->full[v], v + 1, search);
}

static fgm_status
solve(fgm_solve_job *job)
{
    return srch_solve_from_clues(job, search);
}

const fgm_solver fgm_solver_backtrack = {
    "backtrack",
    "naive backtracking: first empty variable, values ascending (seed 003)",
    FGM_SOLVER_EXACT,
    NULL,
    srch_new,
    srch_free,
    solve,
};
