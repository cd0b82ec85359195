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

/* A reusable DLX workspace for one csp: the node template is built once, and
 * each run restores it with a few memcpy calls.  One per thread. */
typedef struct fgm_dlx fgm_dlx;

/* Returns NULL when DLX accepts CSP, otherwise a static reason. */
FGM_INTERNAL const char *fgm_dlx_refuses(const fgm_csp *csp);

/* Returns a workspace for CSP (borrowed: must outlive it), or NULL with
 * *STATUS set: FGM_EUNSUPPORTED when fgm_dlx_refuses(CSP) is not NULL,
 * FGM_ENOMEM. */
FGM_INTERNAL fgm_dlx *fgm_dlx_new(const fgm_csp *csp, fgm_status *status);

/* Frees D; NULL is a no-op. */
FGM_INTERNAL void fgm_dlx_free(fgm_dlx *d);

/* Limits of one counting run. */
typedef struct fgm_dlx_limits {
    long cap;           /* stop at this many solutions; <= 0: no cap */
    double deadline;    /* fgm_now() time to give up at; 0: none */
    long max_nodes;     /* give up after this many search nodes; <= 0: none */
} fgm_dlx_limits;

/* Counts the solutions with clues GIVEN (nvars value indices, -1 = free;
 * NULL: no clues) under LIM (NULL: no limits).  Writes the number found to
 * *COUNT (a lower bound when the run gave up).  MARGINALS (nullable,
 * nvars * csp->maxcard doubles, row-major by variable) receives, for each
 * value of each variable, the fraction of the counted solutions taking it
 * (all zeros when none were found).  FIRST (nullable, nvars) receives the
 * first solution found, untouched when there is none.  *NODES (nullable)
 * receives the number of search calls.
 * Returns FGM_OK when the count is complete (every solution, or the cap
 * reached; clues that conflict give a count of 0), FGM_ETIMEOUT when the
 * deadline or node budget ran out first, FGM_EINVAL for a clue out of
 * range. */
FGM_INTERNAL fgm_status fgm_dlx_run(fgm_dlx *d, const int *given,
                                    const fgm_dlx_limits *lim, long *count,
                                    double *marginals, int *first,
                                    long *nodes);

/* One-shot form of fgm_dlx_run: builds a workspace for CSP, counts with a
 * cap CAP (<= 0: no cap) and a DEADLINE (fgm_now() time, 0: none), frees it.
 * Returns what fgm_dlx_run returns, or FGM_EUNSUPPORTED / FGM_ENOMEM. */
FGM_INTERNAL fgm_status fgm_dlx_count(const fgm_csp *csp, const int *given,
                                      long cap, double deadline, long *count,
                                      double *marginals);

#endif /* FGM_DLX_H */
