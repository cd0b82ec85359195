/* runtime/solve/registry.c: the table of solvers, in `fgm list` order.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include "solver.h"

static const fgm_solver *const solvers[] = {
    &fgm_solver_backtrack,
    &fgm_solver_mrv,
    &fgm_solver_ac3,
    &fgm_solver_fc,
    &fgm_solver_mac,
    &fgm_solver_norvig,
    &fgm_solver_dlx,
    &fgm_solver_ep_naive,
    &fgm_solver_ep_robust,
    &fgm_solver_ep_robust2,
    &fgm_solver_ep_iterative,
    &fgm_solver_ep_hybrid,
    &fgm_solver_ep_hybrid2,
    &fgm_solver_ep_hybrid3,
    &fgm_solver_bp_decimate,
    &fgm_solver_bp_decimate2,
    &fgm_solver_bp_decimate3,
    &fgm_solver_bp_backtrack,
    &fgm_solver_alldiff_max,
    &fgm_solver_alldiff_sum,
    &fgm_solver_alldiff_max2,
    &fgm_solver_alldiff_sum2,
    &fgm_solver_alldiff_max3,
    &fgm_solver_alldiff_sum3,
};

int
fgm_solver_count(void)
{
    return (int)FGM_COUNTOF(solvers);
}

const fgm_solver *
fgm_solver_at(int i)
{
    return i >= 0 && i < (int)FGM_COUNTOF(solvers) ? solvers[i] : NULL;
}

const fgm_solver *
fgm_solver_find(const char *name)
{
    size_t i;

    for (i = 0; name && i < FGM_COUNTOF(solvers); i++)
        if (strcmp(solvers[i]->name, name) == 0)
            return solvers[i];
    return NULL;
}

const char *
fgm_solver_name(const fgm_solver *s)
{
    return s ? s->name : NULL;
}

const char *
fgm_solver_summary(const fgm_solver *s)
{
    return s ? s->summary : NULL;
}

unsigned
fgm_solver_flags(const fgm_solver *s)
{
    return s ? s->flags : 0;
}
