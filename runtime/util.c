/* runtime/util.c: status strings, the diagnostic helper, the clock, the
 * C locale for number text.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
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
    char buf[1024], *big = NULL;
    va_list ap, again;
    fgm_c_locale cl;
    int n;

    if (!diag)
        return;
    va_start(ap, fmt);
    va_copy(again, ap);
    fgm_c_locale_begin(&cl);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    /* A message that names a long path (a 5,000-byte -o or MODEL) would
     * be cut inside the path, losing what went wrong: format it whole. */
    if (n >= (int)sizeof buf && (big = malloc((size_t)n + 1)) != NULL)
        vsnprintf(big, (size_t)n + 1, fmt, again);
    fgm_c_locale_end(&cl);
    va_end(again);
    va_end(ap);
    diag(ctx, big ? big : buf);
    free(big);
}

void
fgm_c_locale_begin(fgm_c_locale *l)
{
    /* "C" for every category: glibc hands out its static C locale, so
     * this allocates nothing and cannot fail there. */
    l->c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    l->old = l->c != (locale_t)0 ? uselocale(l->c) : (locale_t)0;
    if (l->c != (locale_t)0 && l->old == (locale_t)0) {
        freelocale(l->c);
        l->c = (locale_t)0;
    }
}

void
fgm_c_locale_end(const fgm_c_locale *l)
{
    if (l->c == (locale_t)0)
        return;
    uselocale(l->old);
    freelocale(l->c);
}

double
fgm_strtod_c(const char *s, char **end)
{
    fgm_c_locale cl;
    double x;

    fgm_c_locale_begin(&cl);
    x = strtod(s, end);
    fgm_c_locale_end(&cl);
    return x;
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
