/* runtime/solve/solve.c: solve one puzzle, the public form of a runner.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A batch (batch.c) keeps one runner per thread for a whole stream; one
 * puzzle gets a runner of its own, so a caller pays the solver's setup
 * (a plugin load for the EP solvers) on every call.
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "run.h"

fgm_status
fgm_solve_puzzle(const fgm_solver *solver, const fgm_csp *csp,
                 const fgm_solve_opts *opts, const fgm_puzzle *p,
                 unsigned long seed, double timeout_ms, fgm_puzzle *answer,
                 fgm_solve_result *res)
{
    fgm_solve_result local;
    fgm_runner *r;
    fgm_status st = FGM_ENOMEM;
    const char *reason = NULL;
    int *given, *solution;

    if (!res)
        res = &local;
    memset(res, 0, sizeof *res);    /* no counts from a refused call */
    res->status = FGM_EINVAL;
    if (!solver || !csp || !p || !fgm_puzzle_fits(csp, p) || isnan(timeout_ms))
        return FGM_EINVAL;
    given = malloc((size_t)csp->nvars * sizeof *given);
    solution = malloc((size_t)csp->nvars * sizeof *solution);
    r = given && solution ? fgm_runner_new(solver, csp, opts, &st, &reason)
                          : NULL;
    if (!r) {
        if (!given || !solution)
            st = FGM_ENOMEM;
        else if (st == FGM_EUNSUPPORTED && opts && opts->diag)
            opts->diag(opts->diag_ctx, reason);
        free(given);
        free(solution);
        res->status = st;
        return st;
    }
    fgm_puzzle_clues(csp, p, given);
    st = fgm_runner_solve(r, given, seed, timeout_ms, solution, res);
    if (answer && res->solved) {
        *answer = *p;
        fgm_puzzle_from_solution(answer, solution);
    }
    fgm_runner_free(r);
    free(given);
    free(solution);
    return st;
}
