/* runtime/exact/enumerate.h: exact marginals of small models by enumeration.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_ENUMERATE_H
#define FGM_ENUMERATE_H

#include "csp.h"

/* Exact marginals of the model CSP->ir with clues GIVEN (NULL: none; value
 * indices, -1 free): MARGINALS (nvars * csp->maxcard, row-major) receives
 * P(x_v = k).  Dirichlet nodes are integrated out with their default
 * pseudo-counts.  Visits at most MAX_LEAVES consistent assignments (<= 0:
 * ten million) and stops at DEADLINE (fgm_now() seconds, 0: none);
 * *LEAVES (nullable) gets the number visited.  Returns FGM_OK,
 * FGM_ETIMEOUT when the bound or the deadline was hit (marginals then
 * normalized over the assignments visited),
 * FGM_EUNSOLVED when no assignment has positive weight, FGM_ENOMEM. */
FGM_INTERNAL fgm_status fgm_enumerate(const fgm_csp *csp, const int *given,
                                      long max_leaves, double deadline,
                                      double *marginals, long *leaves);

#endif /* FGM_ENUMERATE_H */
