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

/* fgm_generate_opts, fgm_generate_stats and fgm_generate_puzzle (a
 * seed instead of a generator) are public: see fgm.h. */

/* Generates a Sudoku puzzle with box side BOX (2..5, N = BOX*BOX) using RNG.
 * Writes N*N cells (row-major, values 1..N, 0 for empty) to CELLS.  OPTS may
 * be NULL (defaults); STATS may be NULL.  Returns FGM_OK, FGM_EINVAL for a
 * bad box side, FGM_ENOMEM, or FGM_ETIMEOUT when the total time budget ran
 * out before the full grid was found (CELLS then untouched). */
FGM_INTERNAL fgm_status fgm_generate(int box, gsl_rng *rng, int *cells,
                                     const fgm_generate_opts *opts,
                                     fgm_generate_stats *stats);

#endif /* FGM_GENERATE_H */
