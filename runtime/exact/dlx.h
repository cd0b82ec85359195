/* runtime/exact/dlx.h: Dancing Links exact cover: solve, count, marginals.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Internal API of runtime/exact/dlx.c beyond the solver descriptor
 * fgm_solver_dlx.  It accepts exact-cover models only: every constraint is an
 * alldiff of n variables over n values (Sudoku, Latin squares), unary
 * evidence restricts domains, and every variable lies in some alldiff
 * (fgm_dlx_refuses says why not).
 *
 * Counting serves two callers: the puzzle generator (is the solution unique?
 * count with cap 2) and the exact marginals over all solutions, the oracle
 * the approximate algorithms are checked against.
 */
#ifndef FGM_DLX_H
#define FGM_DLX_H

#include "csp.h"

/* The workspace (a reusable DLX for one csp: the node template is built
 * once, and each run restores it with a few memcpy calls; one per thread)
 * is public: fgm_dlx_refuses, fgm_dlx_new, fgm_dlx_free, fgm_dlx_limits
 * and fgm_dlx_run are in fgm.h. */

/* One-shot form of fgm_dlx_run: builds a workspace for CSP, counts with a
 * cap CAP (<= 0: no cap) and a DEADLINE (fgm_now() time, 0: none), frees it.
 * Returns what fgm_dlx_run returns, or FGM_EUNSUPPORTED / FGM_ENOMEM. */
FGM_INTERNAL fgm_status fgm_dlx_count(const fgm_csp *csp, const int *given,
                                      long cap, double deadline, long *count,
                                      double *marginals);

#endif /* FGM_DLX_H */
