/* runtime/solve/solve.c: solve one puzzle, the public form of a runner.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A batch (batch.c) keeps one runner per thread for a whole stream; one
 * puzzle gets a runner of its own, so a caller pays the solver's setup
 * (a plugin load for the EP solvers) on every call.
 */
#include <stdlib.h>
#include "run.h"

/* Whether P fits the grid of CSP's model: its side, values 0..N. */
static int
fits(const fgm_csp *csp, const fgm_puzzle *p)
{
    int n, i;

    fgm_ir_grid(csp->ir, &n, NULL);
    if (n == 0 || p->n != n || n * n > csp->nvars)
        return 0;
    for (i = 0; i < n * n; i++)
        if (p->cells[i] > n)
            return 0;
    return 1;
}

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
    int *given, *solution, v;

    if (!res)
        res = &local;
    res->status = FGM_EINVAL;
    res->solved = res->valid = 0;
    if (!solver || !csp || !p || !fits(csp, p))
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
    for (v = 0; v < csp->nvars; v++)
        given[v] = -1;
    fgm_puzzle_to_given(p, given);
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
