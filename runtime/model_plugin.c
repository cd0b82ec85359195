/* runtime/model_plugin.c: attach a compiled plugin to a model (the cascade).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model's schedule is the code generator's input: the plugin cascade
 * of plugin.c calls back into fgm_codegen_write when it must (re)build.
 * A plugin is accepted only if its descriptor's sizes match the schedule
 * the runtime allocated the state for (fgm_plugin_req.fits).
 */
#include <stdio.h>
#include "model.h"
#include "plugin.h"
#include "../compiler/codegen.h"

/* Whether descriptor D was built for exactly the state layout of schedule
 * ARG (fgm_plugin_req.fits). */
static int
fits(void *arg, const fgm_plugin_desc *d)
{
    const fgm_sched *s = arg;

    return d->nvars == s->nvars && d->stride == s->stride
           && d->nedges == s->nedges && d->ndirichlet == s->ndirichlet
           && d->ndirfactors == s->ndirfactors && d->nscratch <= s->nscratch;
}

fgm_status
fgm_model_attach_plugin(fgm_model *m, const fgm_model_opts *opts,
                        fgm_diag_fn diag, void *ctx)
{
    fgm_plugin_req req;
    fgm_plugin *p = NULL;
    fgm_status st;
    double t0 = fgm_now();

    m->plugin = NULL;
    m->desc = NULL;
    m->rebuilt = 0;
    if (opts->backend == FGM_BACKEND_INTERPRETED)
        return FGM_OK;
    req.out_dir = opts->out_dir ? opts->out_dir : "generated";
    req.model_name = m->ir->name;
    req.algo = fgm_ir_algo_name(m->sched->infer.algo);
    req.hash = fgm_ir_hash(m->ir);
    req.mode = opts->backend;
    req.cc = opts->cc;
    req.deadline = opts->deadline;
    req.emit_c = fgm_codegen_write;
    req.emit_arg = m->sched;
    /* Same hash, other sizes: a damaged descriptor, rebuilt; after a
     * rebuild a bug in the generator, interpreted (never run on the
     * wrong layout). */
    req.fits = fits;
    st = fgm_plugin_load(&req, &p, &m->rebuilt, diag, ctx);
    m->open_ms = (fgm_now() - t0) * 1e3;
    if (st != FGM_OK)
        return st;
    m->plugin = p;
    m->desc = p ? fgm_plugin_descriptor(p) : NULL;
    return FGM_OK;
}

void
fgm_model_detach_plugin(fgm_model *m)
{
    fgm_plugin_close(m->plugin);
    m->plugin = NULL;
    m->desc = NULL;
}
