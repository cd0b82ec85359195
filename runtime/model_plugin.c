/* runtime/model_plugin.c: attach a compiled plugin to a model.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "model.h"

fgm_status
fgm_model_attach_plugin(fgm_model *m, const fgm_model_opts *opts,
                        fgm_diag_fn diag, void *ctx)
{
    m->plugin = NULL;
    m->desc = NULL;
    if (opts->backend == FGM_BACKEND_INTERPRETED)
        return FGM_OK;
    if (opts->backend == FGM_BACKEND_COMPILED) {
        fgm_diagf(diag, ctx, "%s: no plugin support in this build",
                  m->ir->name);
        return FGM_EPLUGIN;
    }
    return FGM_OK;
}

void
fgm_model_detach_plugin(fgm_model *m)
{
    m->plugin = NULL;
    m->desc = NULL;
}
