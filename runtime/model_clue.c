/* runtime/model_clue.c: observe a clue the way the seed's robust model does.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * In the robust model (seed notebook 000) a cell x is drawn from its own
 * probability vector p ~ Dirichlet, and a clue is observed on p as a
 * point mass, not on x.  The EP solvers observe their clues here too
 * (runtime/solve/ep_model.c), with their own epsilon.
 */
#include "model.h"

fgm_status
fgm_model_observe_clue_eps(fgm_model *m, int v, int value, double eps)
{
    double vec[FGM_IR_MAXCARD];
    int d, k, j;

    if (!m || v < 0 || v >= m->ir->nvars)
        return FGM_EINVAL;
    k = fgm_ir_card(m->ir, v);
    if (value >= k || k > FGM_IR_MAXCARD)
        return FGM_EINVAL;
    d = m->prior_of[v];
    if (d < 0)
        return fgm_model_observe_var(m, v, value);
    /* The clue replaces an observed value or weights (or, VALUE < 0,
     * clears them), as fgm_model_observe_var's value does. */
    if (m->clamp[v] >= 0)
        fgm_model_observe_var(m, v, -1);
    if (m->has_soft && m->has_soft[v])
        fgm_model_observe_weights(m, v, NULL);
    if (value < 0)
        return fgm_model_observe_dirichlet(m, d, NULL, 0);
    for (j = 0; j < k; j++)
        vec[j] = eps;
    vec[value] = 1.0 - (k - 1) * eps;
    return fgm_model_observe_dirichlet(m, d, vec, 1);
}

fgm_status
fgm_model_observe_clue(fgm_model *m, int v, int value)
{
    return fgm_model_observe_clue_eps(m, v, value, FGM_CLUE_EPSILON);
}
