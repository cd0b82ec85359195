/* runtime/generate.h: random Sudoku puzzles with a unique solution.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Internal API of runtime/generate.c.  A puzzle is made in two steps: a
 * random full grid, then clues removed in a random order while the puzzle
 * keeps exactly one solution (checked by counting with DLX, cap 2).  A check
 * that runs out of budget keeps its clue, so the result is always unique;
 * with budgets it may simply have more clues than a minimal puzzle.
 * Everything random comes from the caller's GSL generator, and node budgets
 * are deterministic, so the same seed gives the same puzzle (a time budget,
 * when set, is the one exception).
 */
#ifndef FGM_GENERATE_H
#define FGM_GENERATE_H

#include <gsl/gsl_rng.h>
#include "fgm.h"
#include "internal.h"

typedef struct fgm_generate_opts {
    int min_clues;      /* stop removing clues at this many; 0: as few as
                         * the budgets allow */
    long check_nodes;   /* DLX search nodes per uniqueness check; 0: a
                         * default by size; < 0: no budget */
    double check_ms;    /* wall time per uniqueness check; 0: none (makes
                         * the result depend on the machine's speed) */
    double total_ms;    /* stop removing clues after this long; 0: none
                         * (same caveat) */
} fgm_generate_opts;

typedef struct fgm_generate_stats {
    int clues;          /* clues left in the puzzle */
    int checks;         /* uniqueness checks run */
    int gave_up;        /* checks that ran out of budget (clue kept) */
    int fill_restarts;  /* full-grid searches restarted */
    long nodes;         /* DLX nodes over all checks */
    double ms;          /* wall time of the whole generation */
    int solution[FGM_PUZZLE_MAXCELLS];  /* N*N values 1..N: the full grid */
} fgm_generate_stats;

/* Generates a Sudoku puzzle with box side BOX (2..5, N = BOX*BOX) using RNG.
 * Writes N*N cells (row-major, values 1..N, 0 for empty) to CELLS.  OPTS may
 * be NULL (defaults); STATS may be NULL.  Returns FGM_OK, FGM_EINVAL for a
 * bad box side, FGM_ENOMEM, or FGM_ETIMEOUT when the total time budget ran
 * out before the full grid was found (CELLS then untouched). */
FGM_INTERNAL fgm_status fgm_generate(int box, gsl_rng *rng, int *cells,
                                     const fgm_generate_opts *opts,
                                     fgm_generate_stats *stats);

#endif /* FGM_GENERATE_H */
