/* runtime/exact/enumerate.h: exact marginals of small models by enumeration.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_ENUMERATE_H
#define FGM_ENUMERATE_H

#include "csp.h"

/* fgm_enumerate (exact marginals of small models by enumeration) is
 * public: see fgm.h. */

/* log(A (A + 1) ... (A + C - 1)), the Dirichlet-multinomial's factor for
 * C draws of a category of pseudo-count A (also variable elimination's,
 * eliminate.c). */
FGM_INTERNAL double fgm_log_rising(double a, int c);

#endif /* FGM_ENUMERATE_H */
