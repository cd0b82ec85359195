/* runtime/solve/run.h: run one solver on one puzzle, timed and verified.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A runner is per thread: it owns the solver's workspace and a GSL RNG, so
 * solving a batch allocates nothing per puzzle.
 */
#ifndef FGM_RUN_H
#define FGM_RUN_H

#include "solver.h"

/* fgm_solve_result is public (fgm.h). */

typedef struct fgm_runner fgm_runner;

/* Returns a runner for SOLVER on CSP (both borrowed, must outlive it), or
 * NULL with *STATUS set (FGM_EINVAL for OPTS out of range: iterations < 0
 * or over FGM_MAX_ITERATIONS, fix_per_round < 0, an unknown backend;
 * FGM_EUNSUPPORTED with *REASON when the solver refuses the model,
 * FGM_ENOMEM). */
FGM_INTERNAL fgm_runner *fgm_runner_new(const fgm_solver *solver,
                                        const fgm_csp *csp,
                                        const fgm_solve_opts *opts,
                                        fgm_status *status,
                                        const char **reason);

FGM_INTERNAL void fgm_runner_free(fgm_runner *r);

/* Solves with clues GIVEN (nvars, -1 = unknown), RNG seeded with SEED, a
 * cooperative deadline of TIMEOUT_MS (<= 0: none).  SOLUTION (nvars value
 * indices, -1 first) receives what the solver wrote; res->solved is set
 * when it verifies (an unverified FGM_OK becomes FGM_EUNSOLVED).  A run
 * that ends past the deadline is FGM_ETIMEOUT, not solved, whatever the
 * solver returned.  Returns res->status. */
FGM_INTERNAL fgm_status fgm_runner_solve(fgm_runner *r, const int *given,
                                         unsigned long seed,
                                         double timeout_ms, int *solution,
                                         fgm_solve_result *res);

/* fgm_puzzle_to_given, fgm_puzzle_from_solution and fgm_puzzle_clues,
 * defined in run.c, are public (fgm.h). */

/* Whether P fits the grid of CSP's model (fgm_ir_grid): its side, values
 * 0..N.  fgm_solve_puzzle and a batch take no other puzzle. */
FGM_INTERNAL int fgm_puzzle_fits(const fgm_csp *csp, const fgm_puzzle *p);

#endif /* FGM_RUN_H */
