/* runtime/diag_once.c: a diagnostic sink that says each message once.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>
#include "diag_once.h"

void
fgm_diag_once_init(fgm_diag_once *o, fgm_diag_fn diag, void *ctx)
{
    memset(o, 0, sizeof *o);
    o->diag = diag;
    o->ctx = ctx;
    if (diag)
        pthread_mutex_init(&o->mu, NULL);
}

void
fgm_diag_once_say(void *arg, const char *msg)
{
    fgm_diag_once *o = arg;
    int i, seen = 0;

    if (!o->diag)
        return;
    pthread_mutex_lock(&o->mu);
    for (i = 0; i < o->n && !seen; i++)
        seen = strcmp(o->said[i], msg) == 0;
    if (!seen && o->n < FGM_DIAG_ONCE_MAX
        && (o->said[o->n] = strdup(msg)))
        o->n++;
    if (!seen)
        o->diag(o->ctx, msg);
    pthread_mutex_unlock(&o->mu);
}

void
fgm_diag_once_free(fgm_diag_once *o)
{
    int i;

    for (i = 0; i < o->n; i++)
        free(o->said[i]);
    o->n = 0;
    if (o->diag)
        pthread_mutex_destroy(&o->mu);
    o->diag = NULL;
}
