/* runtime/exact/prop.h: domain propagation, Norvig's elimination + singles.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The propagation engine of norvig.c, shared with the EP-guided search of
 * solve/ep_hybrid3.c.  A workspace keeps a stack of levels, each the
 * domains of every variable (64-bit masks) and, per full unit and value,
 * the places left for the value; a search copies a level into the next,
 * assigns there and settles it to the fixed point of naked singles,
 * hidden singles and table filtering (norvig.c's top comment).
 */
#ifndef FGM_PROP_H
#define FGM_PROP_H

#include "csp.h"

typedef struct fgm_prop fgm_prop;

/* Returns a workspace for CSP, or NULL when out of memory. */
FGM_INTERNAL fgm_prop *fgm_prop_new(const fgm_csp *csp);
FGM_INTERNAL void fgm_prop_free(fgm_prop *p);

/* Settles level 0: the domains the evidence allows, then GIVEN's clues
 * (nullable; value index or -1 per variable).  Returns 0 on a
 * contradiction. */
FGM_INTERNAL int fgm_prop_start(fgm_prop *p, const int *given);

/* The domains of level LEVEL (nvars masks, owned by P; valid until the
 * next fgm_prop_branch, which may move the stacks). */
FGM_INTERNAL fgm_dom *fgm_prop_dom(fgm_prop *p, int level);

/* Copies level LEVEL into LEVEL + 1, assigns value A to V there and
 * settles it.  Returns 1, 0 on a contradiction, or -1 when out of
 * memory. */
FGM_INTERNAL int fgm_prop_branch(fgm_prop *p, int level, int v, int a);

#endif /* FGM_PROP_H */
