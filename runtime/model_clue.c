/* runtime/model_clue.c: observe a clue the way the seed's robust model does.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * In the robust model (seed notebook 000) a cell x is drawn from its own
 * probability vector p ~ Dirichlet, and a clue is observed on p as a
 * point mass, not on x.  Built on the public model calls only, so it
 * behaves exactly as the EP solvers' fgm_ep_observe.
 */
#include <stdlib.h>
#include "ir.h"

/* The observed Dirichlet node variable V is drawn from, or -1.  The last
 * such factor wins, as in fgm_ep_new. */
static int
prior_of(const fgm_ir *ir, int v)
{
    int i, d = -1;

    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];

        if (f->kind == FGM_FACTOR_DIRICHLET_DISCRETE
            && fgm_ir_scope(ir, f)[0] == v
            && (ir->arrays[ir->dir_array[f->aux]].flags
                & FGM_ARRAY_OBSERVED))
            d = f->aux;
    }
    return d;
}

fgm_status
fgm_model_observe_clue(fgm_model *m, int v, int value)
{
    const fgm_ir *ir;
    double *vec;
    fgm_status st;
    int d, k, j;

    if (!m)
        return FGM_EINVAL;
    ir = fgm_model_ir(m);
    if (v < 0 || v >= ir->nvars || value >= fgm_ir_card(ir, v))
        return FGM_EINVAL;
    d = prior_of(ir, v);
    if (d < 0)
        return fgm_model_observe_var(m, v, value);
    if (value < 0)
        return fgm_model_observe_dirichlet(m, d, NULL, 0);
    /* Domains have no size limit in the IR: no fixed-size vector. */
    k = fgm_ir_card(ir, v);
    vec = malloc((size_t)k * sizeof *vec);
    if (!vec)
        return FGM_ENOMEM;
    for (j = 0; j < k; j++)
        vec[j] = FGM_CLUE_EPSILON;
    vec[value] = 1.0 - (k - 1) * FGM_CLUE_EPSILON;
    st = fgm_model_observe_dirichlet(m, d, vec, 1);
    free(vec);
    return st;
}
