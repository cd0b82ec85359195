/* runtime/solve/ep_model.h: what the EP solvers share (seed notebook 000).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed's "robust" model: every cell x has a probability vector
 * p ~ Dirichlet(alpha) (alpha observed: uniform, or a point mass at the
 * clue), x ~ Discrete(p), and the constraints.  A model that already links
 * its variables to Dirichlet priors (models/sudoku.fgm) is used as it is;
 * any other model with alldiff/neq/table constraints gets one uniform
 * Dirichlet prior per variable, so the EP solvers run on Latin squares and
 * every Sudoku size too.
 */
#ifndef FGM_EP_MODEL_H
#define FGM_EP_MODEL_H

#include "solver.h"

typedef struct fgm_ep {
    const fgm_csp *csp;
    fgm_model *model;
    const int *node_of; /* nvars: the variable's observed Dirichlet
                         * node (a clue becomes its point mass), or -1:
                         * the model's prior_of */
    double *vec;        /* 2 (maxcard + 1) scratch */
    double clue_eps;    /* weight of each other value of an observed clue:
                         * FGM_CLUE_EPSILON (the seed's), or 0 for an
                         * exact clue, which pins the cell (fgm_state) */
} fgm_ep;

/* Returns the IR of SRC with a uniform Dirichlet prior per variable
 * (factors "x ~ Discrete(p)" first, then the model's factors), or a copy
 * when it already has priors; NULL when out of memory. */
FGM_INTERNAL fgm_ir *fgm_ep_robust_ir(const fgm_ir *src);

/* Opens the EP model IR (owned by the result) with the backend of OPTS.
 * Returns NULL when out of memory, or when the model cannot run on that
 * backend (reported through opts->diag; *ST, when ST is not NULL, then
 * becomes FGM_EUNSUPPORTED). */
FGM_INTERNAL fgm_ep *fgm_ep_new(const fgm_csp *csp, fgm_ir *ir,
                                const fgm_solve_opts *opts, fgm_status *st);

/* fgm_ep_new whose plugin build stops at DEADLINE (fgm_now() time; 0:
 * none); *ST then becomes FGM_ETIMEOUT. */
FGM_INTERNAL fgm_ep *fgm_ep_new_until(const fgm_csp *csp, fgm_ir *ir,
                                      const fgm_solve_opts *opts,
                                      double deadline, fgm_status *st);
FGM_INTERNAL void fgm_ep_free(fgm_ep *ep);

/* Observes value index VALUE (or -1: unobserved) on variable V the way
 * the seed does: a point-mass prior when V has a Dirichlet node, else a
 * clamp. */
FGM_INTERNAL void fgm_ep_observe(fgm_ep *ep, int v, int value);

/* Runs one inference (opts->iterations sweeps, 0: the model's), counting it in
 * JOB's stats.  Returns FGM_OK, or FGM_ETIMEOUT when JOB's deadline cut
 * it short (its beliefs are then unfinished: give up the puzzle). */
FGM_INTERNAL fgm_status fgm_ep_infer(fgm_ep *ep, fgm_solve_job *job);

/* The same with SWEEPS sweeps when opts->iterations does not say (0: the
 * model's), from the last run's messages when WARM is 1. */
FGM_INTERNAL fgm_status fgm_ep_infer_sweeps(fgm_ep *ep, fgm_solve_job *job,
                                            int sweeps, int warm);

/* Infer.NET's Dirichlet.GetMode of the K pseudo-counts A into MODE. */
FGM_INTERNAL void fgm_ep_dirichlet_mode(const double *a, int k, double *mode);

/* The answer for V: the argmax of the posterior over p when V has a
 * Dirichlet node (the seed reads the mode of ProbCells), else of V's
 * belief.  *CONFIDENCE (nullable) receives the largest entry of that
 * posterior's mode (fgm_ep_dirichlet_mode: the seed's GetMode().Max()),
 * or of V's belief. */
FGM_INTERNAL int fgm_ep_answer(fgm_ep *ep, int v, double *confidence);

#endif /* FGM_EP_MODEL_H */
