/* runtime/solve/decimate.h: pairwise sum-product BP with warm starts (seed 001, v3).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What bp-decimate and bp-backtrack share: the model's constraints run as
 * loopy sum-product BP over pairwise != factors (every alldiff lowered to
 * its pairs, a pair shared by two units counted once: the seed's 810
 * factors on 9x9), flooding schedule (every message of a sweep computed
 * from the previous sweep's), damping 0.5 -- or bp-decimate2's sequential
 * schedule (FGM_DECIMATE_SEQUENTIAL).  A decided cell is clamped on
 * the model (fgm_model_observe_var).  The seed keeps its messages between
 * decisions ("warm start"): fgm_decimate_run continues the current
 * messages (fgm_run_opts.warm; fgm_model_run starts fresh by default),
 * and a search can save and restore them per level.
 *
 * The seed's contradiction test reads the messages, not the beliefs: a
 * value of a cell is excluded when the message of one of its factors gives
 * it less than 1e-8 (BP_EXCL_EPS); a free cell with every value excluded
 * is a contradiction.
 */
#ifndef FGM_DECIMATE_H
#define FGM_DECIMATE_H

#include "solver.h"

/* The seed's parameters (BeliefPropagationSolver, BPBacktrackingSolver). */
#define FGM_DECIMATE_DAMPING 0.5
#define FGM_DECIMATE_INIT_SWEEPS 50     /* init_sweeps, root_sweeps */
#define FGM_DECIMATE_EXCLUDE 1e-8       /* BP_EXCL_EPS */
#define FGM_DECIMATE_CLUE_EPS 1e-12     /* BP_EPS: clues are (1e-12, ..., 1) */

/* bp-decimate2's BP: a sequential schedule (each update sees the ones
 * before it in the sweep) damped 0.2 on the factor-to-variable messages
 * only.  It settles in fewer sweeps than the seed's flooding schedule,
 * and a sweep costs about half as much (no stored variable-to-factor
 * messages to divide out and damp). */
#define FGM_DECIMATE_SEQ_DAMPING 0.2

typedef enum fgm_decimate_schedule {
    FGM_DECIMATE_FLOODING,      /* the seed's: parallel, both directions
                                 * damped by FGM_DECIMATE_DAMPING */
    FGM_DECIMATE_SEQUENTIAL     /* FGM_DECIMATE_SEQ_DAMPING, see above */
} fgm_decimate_schedule;

typedef struct fgm_decimate fgm_decimate;

/* Opens the pairwise BP model of CSP->ir (copied; CSP is borrowed and must
 * outlive the result) on the backend of OPTS, with schedule SCHED.
 * Returns NULL when out of memory or when the model cannot run there
 * (reported through opts->diag; *ST, when ST is not NULL, then becomes
 * FGM_EUNSUPPORTED). */
FGM_INTERNAL fgm_decimate *fgm_decimate_new(const fgm_csp *csp,
                                            const fgm_solve_opts *opts,
                                            fgm_decimate_schedule sched,
                                            fgm_status *st);
FGM_INTERNAL void fgm_decimate_free(fgm_decimate *d);

/* Clears every clamp, then clamps the clues GIVEN (nvars, -1 = free). */
FGM_INTERNAL void fgm_decimate_observe(fgm_decimate *d, const int *given);

/* Clamps V to VALUE (value index), or frees it with VALUE < 0. */
FGM_INTERNAL void fgm_decimate_fix(fgm_decimate *d, int v, int value);

/* Runs SWEEPS of the seed's sweeps, from fresh (uniform) messages when
 * FRESH is 1, else from the current ones, counting one inference and SWEEPS in JOB's stats.
 * Returns FGM_ETIMEOUT when JOB's deadline has passed (before the run:
 * nothing run; during it: the run stopped short), else FGM_OK. */
FGM_INTERNAL fgm_status fgm_decimate_run(fgm_decimate *d, int sweeps,
                                         int fresh, fgm_solve_job *job);

/* V's belief (card values, normalized; owned by the model, valid until the
 * next run). */
FGM_INTERNAL const double *fgm_decimate_belief(const fgm_decimate *d,
                                               int v);

/* The seed's margin of V: top1 - top2 of the belief scaled so that its
 * largest value is 1 (the seed's beliefs are exp(log b - max log b)), so
 * 1 - top2/top1.  *TOP (nullable) receives the first most probable
 * value. */
FGM_INTERNAL double fgm_decimate_margin(const fgm_decimate *d, int v,
                                        int *top);

/* Whether a factor's message to V gives VALUE less than 1e-8. */
FGM_INTERNAL int fgm_decimate_excluded(const fgm_decimate *d, int v,
                                       int value);

/* Whether every value of V is excluded (the seed's contradiction). */
FGM_INTERNAL int fgm_decimate_dead(const fgm_decimate *d, int v);

/* The bytes one saved state takes: both directions' messages and the
 * beliefs. */
FGM_INTERNAL size_t fgm_decimate_state_bytes(const fgm_decimate *d);

/* Saves the messages and beliefs in SLOT (0 .. NSLOTS - 1, storage grown
 * on demand up to NSLOTS states), or restores them.  Save returns 0 when
 * out of memory. */
FGM_INTERNAL int fgm_decimate_save(fgm_decimate *d, int slot, int nslots);
FGM_INTERNAL void fgm_decimate_restore(fgm_decimate *d, int slot);

/* Whether D's model runs compiled (a plugin), for the stats. */
FGM_INTERNAL int fgm_decimate_compiled(const fgm_decimate *d);

#endif /* FGM_DECIMATE_H */
