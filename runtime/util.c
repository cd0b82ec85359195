/* runtime/util.c: status strings, the diagnostic helper, the clock.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "internal.h"

/* Indexed by fgm_status: keep in the enum's order. */
static const char *const status_text[] = {
    "success",
    "out of memory",
    "invalid input",
    "syntax error",
    "semantic error",
    "input/output error",
    "plugin could not be loaded",
    "plugin built for another ABI",
    "plugin is stale",
    "C compiler failed",
    "timed out",
    "internal error",
    "no verified solution",
    "not supported by this solver",
};

const char *
fgm_strerror(fgm_status status)
{
    if ((unsigned)status >= FGM_COUNTOF(status_text))
        return "unknown status";
    return status_text[status];
}

void
fgm_diagf(fgm_diag_fn diag, void *ctx, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    if (!diag)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    diag(ctx, buf);
}

double
fgm_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void
fgm_die(const char *file, int line, const char *msg)
{
    fprintf(stderr, "fgm: internal error at %s:%d: %s\n", file, line, msg);
    abort();
}
