/* runtime/internal.h: declarations shared across runtime files, not public.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_INTERNAL_H
#define FGM_INTERNAL_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>
#include "fgm.h"

/* Cross-file internal functions are hidden from the shared library. */
#define FGM_INTERNAL __attribute__((visibility("hidden")))

#define FGM_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

/* Formats a message and passes it to DIAG (if not NULL). */
FGM_INTERNAL void fgm_diagf(fgm_diag_fn diag, void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reports an internal invariant violation and aborts (a bug, not bad input). */
FGM_INTERNAL void fgm_die(const char *file, int line, const char *msg)
    __attribute__((noreturn));
#define FGM_DIE(msg) fgm_die(__FILE__, __LINE__, (msg))

/* What fgm_abort_cleanup undoes (runtime/cleanup.c): the temporary file,
 * or folder PATH (emptied of the kernel headers a plugin build writes
 * there, runtime/kernel_text.h, then removed); the process group PGID
 * (killed).  Each returns a
 * token for fgm_cleanup_drop, called once the thing is gone or renamed
 * into place, or -1 when it could not be listed (best effort). */
FGM_INTERNAL int fgm_cleanup_path(const char *path, int is_dir);
FGM_INTERNAL int fgm_cleanup_group(pid_t pgid);
FGM_INTERNAL void fgm_cleanup_drop(int token);

/* Around the start of a process that fgm_abort_cleanup must kill: from
 * before fork() until its group is listed (fgm_cleanup_group).  Begin
 * blocks every signal in this thread (the old mask in *SAVED, which the
 * child must restore before exec) and returns 0, or -1 (nothing to end)
 * once fgm_abort_cleanup has begun: then no process may be started.  End
 * leaves the window and restores the mask. */
FGM_INTERNAL int fgm_cleanup_fork_begin(sigset_t *saved);
FGM_INTERNAL void fgm_cleanup_fork_end(const sigset_t *saved);

/* Whether fgm_abort_cleanup has begun: the process is ending, and a new
 * temporary would be made after the sweep that removes them (checked
 * before each is made; another thread may still be making one). */
FGM_INTERNAL int fgm_cleanup_aborting(void);

#endif /* FGM_INTERNAL_H */
