/* runtime/solve/batch.h: solve a stream of puzzles on N threads, in order.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The batch driver's API (fgm_batch_item, fgm_batch_opts, fgm_batch_run)
 * is public: see fgm.h.  batch.c runs one fgm_runner per thread.
 */
#ifndef FGM_BATCH_H
#define FGM_BATCH_H

#include "run.h"

#endif /* FGM_BATCH_H */
