/* compiler/lower.c: checked declarations and factor instances to an fgm_ir.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Nothing here can fail on the user's account: sema and expand checked
 * everything the IR builder checks, so a refusal from the builder is a bug
 * in the compiler (FGM_EINTERNAL), reported as such.
 *
 * Contract (lower_program):
 *   requires: every statement checked and expanded with no error.
 *   produces: a new fgm_ir: arrays in declaration order (numbered as sema
 *             numbered them), factors in instance order with their
 *             statement's line and column, the inference settings given
 *             over the IR's defaults, ir->source.
 *   breaks:   nothing.
 */
#include <string.h>
#include "fgmc.h"

/* Copies the settings the inference block gave over the IR's defaults. */
static void
lower_infer(const fgmc *c, fgm_ir_infer *in)
{
    unsigned m = c->infer_mask;

    if (m & (1u << SET_ALGO))
        in->algo = c->infer.algo;
    if (m & (1u << SET_ITERATIONS)) {
        in->iterations = c->infer.iterations;
        in->iterations_given = 1;
    }
    if (m & (1u << SET_DAMPING))
        in->damping = c->infer.damping;
    if (m & (1u << SET_TOLERANCE))
        in->tolerance = c->infer.tolerance;
    if (m & (1u << SET_SCHEDULE))
        in->schedule = c->infer.schedule;
    if (m & (1u << SET_ALLDIFF))
        in->alldiff = c->infer.alldiff;
    if (m & (1u << SET_PROJECTION))
        in->projection = c->infer.projection;
    if (m & (1u << SET_BURN_IN))
        in->burn_in = c->infer.burn_in;
    if (!in->iterations_given)
        in->iterations = fgm_algo_default_iterations(in->algo);
}

/* Reports a builder refusal: out of memory, or a compiler bug. */
static fgm_status
refused(fgmc *c, fgm_status st, const char *what)
{
    if (st == FGM_ENOMEM)
        return FGM_ENOMEM;
    diag_file_error(c, "internal error: the IR builder refused %s (%s)",
                    what, fgm_strerror(st));
    return FGM_EINTERNAL;
}

fgm_status
lower_program(fgmc *c, fgm_ir **out)
{
    fgm_ir *ir = fgm_ir_new(c->model_name);
    const fgmc_sym *a;
    const fgmc_inst *in;
    fgm_status st = FGM_OK;
    int got, line, col;

    *out = NULL;
    if (!ir)
        return FGM_ENOMEM;
    snprintf(ir->source, sizeof ir->source, "%s", c->file);
    lower_infer(c, &ir->infer);
    for (a = c->arrays; a; a = a->next_array) {
        if (a->kind == SYM_VAR)
            got = fgm_ir_add_array(ir, a->name, a->ndims, a->dims, a->lo,
                                   a->card, a->flags, &st);
        else
            got = fgm_ir_add_dirichlet_array(ir, a->name, a->ndims, a->dims,
                                             a->card, a->alpha, a->flags,
                                             &st);
        if (got != a->first) {
            st = refused(c, got < 0 ? st : FGM_EINTERNAL, a->name);
            goto fail;
        }
    }
    for (in = c->insts; in; in = in->next) {
        if (in->kind == FGM_FACTOR_DIRICHLET_DISCRETE)
            got = fgm_ir_add_dirichlet_discrete(ir, in->scope[0], in->aux,
                                                &st);
        else if (in->kind == FGM_FACTOR_DIRICHLET_GATED)
            got = fgm_ir_add_dirichlet_gated(ir, in->scope, in->arity,
                                             in->aux, &st);
        else
            got = fgm_ir_add_factor(ir, in->kind, in->arity, in->scope,
                                    in->nparams, in->params, &st);
        if (got < 0) {
            st = refused(c, st, fgm_ir_kind_name(in->kind));
            goto fail;
        }
        diag_linecol(c, in->stmt->loc.start, &line, &col);
        ir->factors[got].line = line;
        ir->factors[got].col = col;
    }
    *out = ir;
    return FGM_OK;
fail:
    fgm_ir_free(ir);
    return st;
}
