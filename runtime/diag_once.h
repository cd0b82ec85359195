/* runtime/diag_once.h: a diagnostic sink that says each message once.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A batch or a benchmark opens the solver's model once per worker, per
 * corpus, or per puzzle (ep-naive builds a plugin for each), and a
 * fallback's reason (a plugin folder that cannot be written, no C
 * compiler) is the same each time: the caller's sink hears it once.
 * The sink is called under a lock (workers report at the same time; a
 * sink need not be thread-safe).
 */
#ifndef FGM_DIAG_ONCE_H
#define FGM_DIAG_ONCE_H

#include <pthread.h>
#include "internal.h"

#define FGM_DIAG_ONCE_MAX 32    /* messages remembered; later ones pass */

typedef struct fgm_diag_once {
    pthread_mutex_t mu;
    fgm_diag_fn diag;           /* NULL: nothing to say, nothing held */
    void *ctx;
    char *said[FGM_DIAG_ONCE_MAX];
    int n;
} fgm_diag_once;

/* Points O at the sink DIAG (CTX); DIAG may be NULL. */
FGM_INTERNAL void fgm_diag_once_init(fgm_diag_once *o, fgm_diag_fn diag,
                                     void *ctx);

/* An fgm_diag_fn: passes MSG to O's sink unless it said MSG before
 * (O: an fgm_diag_once). */
FGM_INTERNAL void fgm_diag_once_say(void *o, const char *msg);

/* Frees what O remembers. */
FGM_INTERNAL void fgm_diag_once_free(fgm_diag_once *o);

#endif
