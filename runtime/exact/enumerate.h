/* runtime/exact/enumerate.h: exact marginals of small models by enumeration.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_ENUMERATE_H
#define FGM_ENUMERATE_H

#include "csp.h"

/* fgm_enumerate (exact marginals of small models by enumeration) is
 * public: see fgm.h. */

#endif /* FGM_ENUMERATE_H */
