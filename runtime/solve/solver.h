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

/* Counters reported per puzzle (CSV columns). */
typedef struct fgm_solve_stats {
    long nodes;          /* recursive calls, counted as the seeds count them */
    long inferences;     /* message-passing inferences run */
    long decisions;      /* branching decisions or decimations */
    long restarts;
    long contradictions;
    long sweeps;         /* message sweeps */
    long errors;         /* cells in a violated constraint (unsolved) */
    int compiled;        /* the inferences ran a compiled plugin */
} fgm_solve_stats;

typedef struct fgm_solve_opts {
    int lcv;             /* mrv: order values least-constraining first */
    long count_cap;      /* dlx --count: stop counting at this many */
    /* Probabilistic solvers. */
    fgm_backend backend; /* how models run (AUTO: compiled if possible) */
    const char *out_dir; /* plugins; NULL: "generated" */
    const char *cc;      /* C compiler; NULL: $CC or "cc" */
    int iterations;      /* sweeps per inference; 0: the solver's default */
    int fix_per_round;   /* ep-iterative: cells fixed per inference; 0: 2 */
    fgm_diag_fn diag;    /* where plugin fallbacks are reported */
    void *diag_ctx;
    int max_restarts;    /* alldiff-*: attempts after the first; 0: the
                          * solver's default (30), < 0: none */
} fgm_solve_opts;

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

/* Solver flags. */
#define FGM_SOLVER_EXACT 1u   /* complete: finds a solution when one exists */
#define FGM_SOLVER_RANDOM 2u  /* draws from job->rng (seeded per puzzle) */

typedef struct fgm_solver {
    const char *name;
    const char *summary;
    unsigned flags;
    /* Returns NULL when the solver accepts CSP, otherwise a static reason.
     * May be NULL (accepts every model). */
    const char *(*refuses)(const fgm_csp *csp);
    /* Per-thread workspace sized for CSP (OPTS: backend and sizes of the
     * probabilistic solvers); NULL functions: no workspace.  Returns NULL
     * when it cannot be made (out of memory, or a model the solver's
     * backend cannot run, reported through opts->diag). */
    void *(*ws_new)(const fgm_csp *csp, const fgm_solve_opts *opts);
    void (*ws_free)(void *ws);
    /* Returns FGM_OK (solution written), FGM_EUNSOLVED (no solution or gave
     * up), FGM_ETIMEOUT, or FGM_ENOMEM. */
    fgm_status (*solve)(fgm_solve_job *job);
} fgm_solver;

/* Returns the solver called NAME, or NULL. */
FGM_INTERNAL const fgm_solver *fgm_solver_find(const char *name);

/* The registry: *COUNT solvers in a static array, in `fgm list` order. */
FGM_INTERNAL const fgm_solver *const *fgm_solver_list(int *count);

/* Polls the deadline every 256 calls.  Returns 1 when time is up. */
static inline int
fgm_job_expired(fgm_solve_job *job)
{
    if (job->deadline <= 0 || (++job->tick & 255u) != 0)
        return 0;
    return fgm_now() > job->deadline;
}

/* The exact solvers' descriptors (runtime/exact/<name>.c). */
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
extern const fgm_solver fgm_solver_bp_decimate;
extern const fgm_solver fgm_solver_bp_decimate2;
extern const fgm_solver fgm_solver_bp_backtrack;
extern const fgm_solver fgm_solver_alldiff_max;
extern const fgm_solver fgm_solver_alldiff_sum;
extern const fgm_solver fgm_solver_alldiff_max2;
extern const fgm_solver fgm_solver_alldiff_sum2;

#endif /* FGM_SOLVER_H */
