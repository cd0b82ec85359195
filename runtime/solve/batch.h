/* runtime/solve/batch.h: solve a stream of puzzles on N threads, in order.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_BATCH_H
#define FGM_BATCH_H

#include "run.h"

typedef struct fgm_batch_item {
    long index;             /* 0-based position in the input */
    fgm_puzzle puzzle;      /* as read */
    fgm_puzzle answer;      /* the verified solution when res.solved */
    fgm_solve_result res;
} fgm_batch_item;

/* Receives each item in input order, on the calling thread.  Returns 0 to
 * go on, nonzero to stop the batch. */
typedef int (*fgm_batch_emit)(void *ctx, const fgm_batch_item *item);

typedef struct fgm_batch_opts {
    const fgm_solver *solver;
    const fgm_csp *csp;         /* the model every puzzle is solved on */
    const fgm_solve_opts *sopts;
    int threads;                /* worker threads, >= 1 */
    double timeout_ms;          /* per puzzle; <= 0: none */
    int seed_set;               /* seed = seed + index, else seed = index */
    unsigned long seed;
    int chunk;                  /* puzzles per chunk; 0: default */
} fgm_batch_opts;

/* Reads puzzles from R until its end and solves them.  Memory stays bounded
 * (a few chunks in flight) whatever the input length.  Returns FGM_OK at the
 * end of input, the reader's error on a malformed puzzle (items before it
 * have been emitted), FGM_EUNSUPPORTED with *REASON when the solver refuses
 * the model, FGM_ENOMEM. */
FGM_INTERNAL fgm_status fgm_batch_run(fgm_puzzle_reader *r,
                                      const fgm_batch_opts *opts,
                                      fgm_batch_emit emit, void *ctx,
                                      const char **reason);

#endif /* FGM_BATCH_H */
