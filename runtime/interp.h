/* runtime/interp.h: run a schedule without a plugin.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The interpreter has the three entry points of a plugin descriptor, with
 * the schedule passed explicitly instead of baked in.
 */
#ifndef FGM_INTERP_H
#define FGM_INTERP_H

#include "schedule.h"

FGM_INTERNAL void fgm_interp_reset(const fgm_sched *s, fgm_state *st);
FGM_INTERNAL double fgm_interp_sweep(const fgm_sched *s, fgm_state *st);
FGM_INTERNAL void fgm_interp_finish(const fgm_sched *s, fgm_state *st);

#endif /* FGM_INTERP_H */
