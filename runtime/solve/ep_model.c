/* runtime/solve/ep_model.c: the robust Dirichlet model shared by EP solvers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>
#include "ep_model.h"
#include "../model.h"

/* Copies factor I of SRC into DST (same variable and node numbering). */
static int
copy_factor(fgm_ir *dst, const fgm_ir *src, int i)
{
    const fgm_ir_factor *f = &src->factors[i];
    fgm_status st;
    int k;

    if (f->kind == FGM_FACTOR_DIRICHLET_DISCRETE)
        k = fgm_ir_add_dirichlet_discrete(dst, fgm_ir_scope(src, f)[0],
                                          f->aux, &st);
    else if (f->kind == FGM_FACTOR_DIRICHLET_GATED)
        k = fgm_ir_add_dirichlet_gated(dst, fgm_ir_scope(src, f), f->arity,
                                       f->aux, &st);
    else
        k = fgm_ir_add_factor(dst, f->kind, f->arity, fgm_ir_scope(src, f),
                              f->nparams, fgm_ir_params(src, f), &st);
    if (k < 0)
        return 0;
    dst->factors[k].line = f->line;
    dst->factors[k].col = f->col;
    return 1;
}

fgm_ir *
fgm_ep_robust_ir(const fgm_ir *src)
{
    char name[FGM_IR_MAXNAME + 8];
    int has = 0, i, v, ok = 1;
    fgm_ir *ir;
    fgm_status st;

    for (i = 0; i < src->nfactors; i++)
        if (fgm_ir_is_draw(&src->factors[i]))
            has = 1;
    /* The EP solvers run EP whatever the model's infer block says (a
     * Killer Sudoku's bp-sum left every node at its prior, and each cell
     * at value 1). */
    if (has) {
        ir = fgm_ir_copy(src);
        if (ir)
            fgm_ir_switch_algo(ir, FGM_ALGO_EP);
        return ir;
    }
    snprintf(name, sizeof name, "%.*s%s", FGM_IR_MAXNAME - 8, src->name,
             has ? "" : "_robust");
    ir = fgm_ir_new(name);
    if (!ir)
        return NULL;
    ir->infer = src->infer;
    fgm_ir_switch_algo(ir, FGM_ALGO_EP);
    memcpy(ir->source, src->source, sizeof ir->source);
    ir->source_is_file = src->source_is_file;
    for (i = 0; i < src->narrays && ok; i++) {
        const fgm_ir_array *a = &src->arrays[i];

        ok = (a->kind == FGM_ARRAY_DIRICHLET
              ? fgm_ir_add_dirichlet_array(ir, a->name, a->ndims, a->dims,
                                           a->card,
                                           src->param_pool + a->alpha,
                                           a->flags, &st)
              : fgm_ir_add_array(ir, a->name, a->ndims, a->dims, a->lo,
                                 a->card, a->flags, &st)) >= 0;
    }
    if (!has) {
        /* p_NAME[...] ~ Dirichlet(1, ..., 1), observed, and
         * NAME[...] ~ Discrete(p_NAME[...]), ahead of the constraints. */
        for (i = 0; i < src->narrays && ok; i++) {
            const fgm_ir_array *a = &src->arrays[i];
            char pname[FGM_IR_MAXNAME];
            double ones[FGM_IR_MAXCARD];
            int first, j;

            if (a->kind != FGM_ARRAY_DISCRETE)
                continue;
            for (j = 0; j < a->card; j++)
                ones[j] = 1.0;
            snprintf(pname, sizeof pname, "p_%.*s", FGM_IR_MAXNAME - 3,
                     a->name);
            first = fgm_ir_add_dirichlet_array(ir, pname, a->ndims, a->dims,
                                               a->card, ones,
                                               FGM_ARRAY_OBSERVED, &st);
            ok = first >= 0;
            for (v = 0; v < a->count && ok; v++)
                ok = fgm_ir_add_dirichlet_discrete(ir, a->first + v,
                                                   first + v, &st) >= 0;
        }
    }
    for (i = 0; i < src->nfactors && ok; i++)
        ok = copy_factor(ir, src, i);
    if (!ok) {
        fgm_ir_free(ir);
        return NULL;
    }
    return ir;
}

void
fgm_ep_free(fgm_ep *ep)
{
    if (!ep)
        return;
    fgm_model_free(ep->model);
    free(ep->vec);
    free(ep);
}

fgm_ep *
fgm_ep_new(const fgm_csp *csp, fgm_ir *ir, const fgm_solve_opts *opts,
           fgm_status *st)
{
    return fgm_ep_new_until(csp, ir, opts, 0.0, st);
}

fgm_ep *
fgm_ep_new_until(const fgm_csp *csp, fgm_ir *ir, const fgm_solve_opts *opts,
                 double deadline, fgm_status *st)
{
    fgm_ep *ep = calloc(1, sizeof *ep);

    if (!ep) {
        fgm_ir_free(ir);
        return NULL;
    }
    ep->csp = csp;
    ep->model = fgm_solve_open_model_until(ir, opts, deadline, st);
    if (!ep->model) {
        fgm_ep_free(ep);
        return NULL;
    }
    /* A clue goes to the variable's prior when that prior is observed
     * (the seed's robust model: one observed p per cell); a variable whose
     * prior is a model parameter (dice: p shared by every roll) is
     * observed itself.  The model knows which (fgm_model.prior_of). */
    ep->node_of = ep->model->prior_of;
    ep->vec = malloc(((size_t)csp->maxcard + 1) * 2 * sizeof *ep->vec);
    ep->clue_eps = FGM_CLUE_EPSILON;
    if (!ep->vec) {
        fgm_ep_free(ep);
        return NULL;
    }
    return ep;
}

void
fgm_ep_observe(fgm_ep *ep, int v, int value)
{
    fgm_model_observe_clue_eps(ep->model, v, value, ep->clue_eps);
}

fgm_status
fgm_ep_infer(fgm_ep *ep, fgm_solve_job *job)
{
    return fgm_ep_infer_sweeps(ep, job, 0, 0);
}

fgm_status
fgm_ep_infer_sweeps(fgm_ep *ep, fgm_solve_job *job, int sweeps, int warm)
{
    fgm_run_opts ro;

    memset(&ro, 0, sizeof ro);
    ro.iterations = job->opts->iterations > 0 ? job->opts->iterations
                                              : sweeps;
    ro.warm = warm;
    return fgm_job_infer(job, ep->model, &ro, NULL);
}

/* Infer.NET's Dirichlet.GetMode of pseudo-counts A[0..K-1] into MODE:
 * with the counts >= 1 summing to S over C of them, (a - 1) / (S - C) for
 * a > 1 and 0 elsewhere; the uniform vector over those counts when every
 * one is exactly 1; a unit vector at the largest count when none is >= 1.
 * As Infer.NET rounds it: (a - 1) times the reciprocal of S - C. */
void
fgm_ep_dirichlet_mode(const double *a, int k, double *mode)
{
    double sum = 0.0;
    int j, n = 0, best = 0;

    for (j = 0; j < k; j++) {
        if (a[j] >= 1.0) {
            sum += a[j];
            n++;
        }
        if (a[j] > a[best])
            best = j;
    }
    for (j = 0; j < k; j++) {
        if (n == 0)
            mode[j] = j == best ? 1.0 : 0.0;
        else if (sum == (double)n)
            mode[j] = a[j] >= 1.0 ? 1.0 / n : 0.0;
        else
            mode[j] = a[j] > 1.0 ? (a[j] - 1.0) * (1.0 / (sum - n)) : 0.0;
    }
}

int
fgm_ep_answer(fgm_ep *ep, int v, double *confidence)
{
    int d = ep->node_of[v], k = ep->csp->card[v], j, best = 0;
    double sum = 0.0, *mode = ep->vec + k;

    if (d >= 0)
        fgm_model_dirichlet(ep->model, d, ep->vec);
    else
        fgm_model_marginal(ep->model, v, ep->vec);
    for (j = 0; j < k; j++) {
        sum += ep->vec[j];
        if (ep->vec[j] > ep->vec[best])
            best = j;
    }
    if (!confidence)
        return best;
    if (d < 0) {
        *confidence = sum > 0.0 ? ep->vec[best] / sum : 0.0;
        return best;
    }
    /* The seed ranks cells by GetMode().Max(), (a - 1) / (S - C), not by
     * the mean's a / S: the two orders differ when a cell's smallest
     * count is well above 1 (hardest, --fix 1, third grid: 9 errors ranked
     * by the mean, 3 by the mode). */
    fgm_ep_dirichlet_mode(ep->vec, k, mode);
    *confidence = 0.0;
    for (j = 0; j < k; j++)
        if (mode[j] > *confidence)
            *confidence = mode[j];
    return best;
}
