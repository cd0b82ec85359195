/* runtime/solve/solver.h: the solver interface and registry.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A solver receives a job (model as csp, clues, deadline, options) and fills
 * job->solution.  It never prints.  The driver (solve/run.c) verifies every
 * answer against all constraints before reporting it; a solver's FGM_OK is a
 * claim, not a result.
 */
#ifndef FGM_SOLVER_H
#define FGM_SOLVER_H

#include <gsl/gsl_rng.h>
#include "../exact/csp.h"

/* fgm_solve_stats (counters reported per puzzle) and fgm_solve_opts are
 * public: see fgm.h. */

typedef struct fgm_solve_job {
    const fgm_csp *csp;
    const int *given;    /* nvars: clue value index or -1 */
    int *solution;       /* nvars: written by the solver */
    double deadline;     /* fgm_now() time to give up at; 0 = none */
    unsigned tick;       /* deadline polling counter */
    const fgm_solve_opts *opts;
    gsl_rng *rng;        /* seeded per puzzle for FGM_SOLVER_RANDOM solvers */
    void *ws;            /* the solver's workspace, from ws_new */
    fgm_solve_stats stats;
} fgm_solve_job;

/* Solver flags: FGM_SOLVER_EXACT, FGM_SOLVER_RANDOM (fgm.h); a RANDOM
 * solver draws from job->rng, seeded per puzzle. */

typedef struct fgm_solver {
    const char *name;
    const char *summary;
    unsigned flags;
    /* Returns NULL when the solver accepts CSP, otherwise a static reason.
     * May be NULL (accepts every model). */
    const char *(*refuses)(const fgm_csp *csp);
    /* Per-thread workspace sized for CSP (OPTS, borrowed for the call:
     * backend and sizes of the probabilistic solvers); NULL functions: no
     * workspace.  Returns NULL when it cannot be made: out of memory (*ST
     * left as the caller set it, FGM_ENOMEM), or a model the solver's
     * backend cannot run (reported through opts->diag, *ST set to
     * FGM_EUNSUPPORTED). */
    void *(*ws_new)(const fgm_csp *csp, const fgm_solve_opts *opts,
                    fgm_status *st);
    void (*ws_free)(void *ws);
    /* Returns FGM_OK (solution written), FGM_EUNSOLVED (no solution or gave
     * up), FGM_ETIMEOUT, FGM_ENOMEM, or FGM_EUNSUPPORTED when the puzzle's
     * own model cannot run on the requested backend (ep-naive, whose
     * model is made per puzzle; reported through opts->diag). */
    fgm_status (*solve)(fgm_solve_job *job);
} fgm_solver;

/* The registry (registry.c) is public: fgm_solver_count, fgm_solver_at,
 * fgm_solver_find and the accessors in fgm.h. */

/* Polls the deadline every 256 calls.  Returns 1 when time is up. */
static inline int
fgm_job_expired(fgm_solve_job *job)
{
    if (job->deadline <= 0 || (++job->tick & 255u) != 0)
        return 0;
    return fgm_now() > job->deadline;
}

/* One inference of a probabilistic solver: runs M with RO, RO->deadline
 * set to JOB's (--iters may ask for a million sweeps), and counts the
 * inference, its sweeps and the backend in JOB's stats.  Returns
 * fgm_model_run's status (FGM_ETIMEOUT: the deadline cut the run
 * short); *RAN (nullable) the sweeps run. */
FGM_INTERNAL fgm_status fgm_job_infer(fgm_solve_job *job, fgm_model *m,
                                      fgm_run_opts *ro, int *ran);

/* Opens IR (owned by the model from now on, freed on failure) on the
 * backend, plugin folder and compiler of OPTS, reporting through
 * opts->diag.  Returns the model, or NULL: out of memory, or a model
 * that cannot run on that backend, when *ST (nullable) becomes
 * FGM_EUNSUPPORTED (what ws_new says). */
FGM_INTERNAL fgm_model *fgm_solve_open_model(fgm_ir *ir,
                                             const fgm_solve_opts *opts,
                                             fgm_status *st);

/* fgm_solve_open_model whose plugin build stops at DEADLINE (fgm_now()
 * time; 0: none): *ST then becomes FGM_ETIMEOUT (ep-naive builds a
 * plugin within each puzzle's time). */
FGM_INTERNAL fgm_model *fgm_solve_open_model_until(fgm_ir *ir,
                                                   const fgm_solve_opts *opts,
                                                   double deadline,
                                                   fgm_status *st);

/* The solvers' descriptors: the exact ones in runtime/exact/<name>.c, the
 * probabilistic ones in runtime/solve/ (the registry's order: registry.c). */
extern const fgm_solver fgm_solver_backtrack;
extern const fgm_solver fgm_solver_mrv;
extern const fgm_solver fgm_solver_ac3;
extern const fgm_solver fgm_solver_fc;
extern const fgm_solver fgm_solver_mac;
extern const fgm_solver fgm_solver_norvig;
extern const fgm_solver fgm_solver_dlx;
extern const fgm_solver fgm_solver_ep_naive;
extern const fgm_solver fgm_solver_ep_robust;
extern const fgm_solver fgm_solver_ep_robust2;
extern const fgm_solver fgm_solver_ep_iterative;
extern const fgm_solver fgm_solver_ep_hybrid;
extern const fgm_solver fgm_solver_ep_hybrid2;
extern const fgm_solver fgm_solver_ep_hybrid3;
extern const fgm_solver fgm_solver_bp_decimate;
extern const fgm_solver fgm_solver_bp_decimate2;
extern const fgm_solver fgm_solver_bp_decimate3;
extern const fgm_solver fgm_solver_bp_backtrack;
extern const fgm_solver fgm_solver_alldiff_max;
extern const fgm_solver fgm_solver_alldiff_sum;
extern const fgm_solver fgm_solver_alldiff_max2;
extern const fgm_solver fgm_solver_alldiff_max3;
extern const fgm_solver fgm_solver_alldiff_sum3;
extern const fgm_solver fgm_solver_alldiff_sum2;
/* alldiff-max3 and alldiff-sum3 without their tree of shared states, not
 * registered: the tests' reference for it. */
extern const fgm_solver fgm_solver_alldiff_max3_flat;
extern const fgm_solver fgm_solver_alldiff_sum3_flat;

#endif /* FGM_SOLVER_H */
