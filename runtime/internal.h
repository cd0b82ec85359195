/* runtime/internal.h: declarations shared across runtime files, not public.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_INTERNAL_H
#define FGM_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>
#include "fgm.h"

/* Cross-file internal functions are hidden from the shared library. */
#define FGM_INTERNAL __attribute__((visibility("hidden")))

#define FGM_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

/* Formats a message and passes it to DIAG (if not NULL). */
FGM_INTERNAL void fgm_diagf(fgm_diag_fn diag, void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Monotonic clock in seconds. */
FGM_INTERNAL double fgm_now(void);

/* Writes PATH atomically: WRITE(ARG, f) fills a temporary file in the same
 * folder, which is renamed over PATH only when WRITE returned FGM_OK and
 * every byte reached the disk.  Errors are reported through DIAG as
 * "PATH: error: ...".  Returns FGM_OK, WRITE's status, FGM_EIO or
 * FGM_ENOMEM. */
FGM_INTERNAL fgm_status fgm_write_atomic(const char *path,
                                         fgm_status (*write)(void *arg,
                                                             FILE *f),
                                         void *arg, fgm_diag_fn diag,
                                         void *ctx);

/* Reports an internal invariant violation and aborts (a bug, not bad input). */
FGM_INTERNAL void fgm_die(const char *file, int line, const char *msg)
    __attribute__((noreturn));
#define FGM_DIE(msg) fgm_die(__FILE__, __LINE__, (msg))

#endif /* FGM_INTERNAL_H */
