/* compiler/bindings.c: a for clause's bindings that repeat its factors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A loop variable that a statement names only in the range of a later
 * binding of its for clause (sema: range_uses, no uses) shapes which
 * values the others take, and may give two bindings the same values of
 * every variable the statement does name: `evidence x[j] = ... for i in
 * 0..1, j in i..2` added x[1]'s and x[2]'s evidence twice, squaring it.
 * Blocks such as `for b in 0..2, j in 3*b..3*b+2` repeat nothing and are
 * kept.  expand_loops logs each binding it runs here (only for such a
 * clause) and, once the loops are done, an error names two bindings
 * that repeat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fgmc.h"

/* Each record: the number of named variables, the number of all, then
 * the named ones' values and the others', in the clause's order within
 * each part.  Records compare by the named values, or with WHOLE by all
 * (the sort's order, so that the error names the same two bindings
 * whatever qsort does with equal keys). */
#define REC_HEAD 2

static int
cmp_values(const long long *a, const long long *b, long long n)
{
    long long i;

    for (i = REC_HEAD; i < REC_HEAD + n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

static int
cmp_named(const long long *a, const long long *b)
{
    return cmp_values(a, b, a[0]);
}

static int
cmp_whole(const void *pa, const void *pb)
{
    const long long *a = pa;

    return cmp_values(a, pb, a[1]);
}

int
fgmc_bindings_open(const fgmc_stmt *s, fgmc_bindings *log)
{
    const fgmc_node *b;
    int shaping = 0;

    memset(log, 0, sizeof *log);
    for (b = s->binders ? s->binders->kids : NULL; b; b = b->next) {
        log->width++;
        shaping |= b->sym && b->sym->uses == 0;
    }
    log->width += REC_HEAD;
    return shaping;
}

int
fgmc_bindings_add(fgmc_bindings *log, fgmc_node *const *bound, int nb)
{
    long long *r;
    int k, at = REC_HEAD;

    if (log->n == log->cap) {
        long cap = log->cap ? 2 * log->cap : 256;
        long long *v = realloc(log->v, (size_t)cap * (size_t)log->width
                                       * sizeof *v);

        if (!v)
            return 0;
        log->v = v;
        log->cap = cap;
    }
    r = log->v + (size_t)log->n++ * (size_t)log->width;
    r[0] = 0;
    r[1] = nb;
    for (k = 0; k < nb; k++)
        if (bound[k]->sym->uses > 0) {
            r[at++] = bound[k]->sym->value;
            r[0]++;
        }
    for (k = 0; k < nb; k++)
        if (bound[k]->sym->uses == 0)
            r[at++] = bound[k]->sym->value;
    return 1;
}

/* "i = 0, j = 1": record R's values by the clause's names into BUF. */
static void
show(const fgmc_stmt *s, const long long *r, char *buf, size_t size)
{
    const fgmc_node *b;
    long long named = REC_HEAD, other = REC_HEAD + r[0];
    size_t len = 0;

    buf[0] = '\0';
    for (b = s->binders->kids; b && len < size; b = b->next) {
        long long v = b->sym->uses > 0 ? r[named++] : r[other++];

        len += (size_t)snprintf(buf + len, size - len, "%s%s = %lld",
                                len ? ", " : "", b->name, v);
    }
}

int
fgmc_bindings_check(fgmc *c, const fgmc_stmt *s, fgmc_bindings *log)
{
    const fgmc_node *b;
    char one[256], two[256];
    size_t w = (size_t)log->width;
    long i;
    int ok = 1;

    qsort(log->v, (size_t)log->n, w * sizeof *log->v, cmp_whole);
    for (i = 1; ok && i < log->n; i++) {
        const long long *p = log->v + (size_t)(i - 1) * w;
        const long long *q = log->v + (size_t)i * w;

        if (cmp_named(p, q) != 0)
            continue;
        for (b = s->binders->kids; b->sym->uses > 0; b = b->next)
            ;
        show(s, p, one, sizeof one);
        show(s, q, two, sizeof two);
        diag_error(c, b->nameloc, "loop variable '%s' is used only in a "
                   "later binding's range, and two bindings give the same "
                   "factors (%s; %s): each would be added twice",
                   b->name, one, two);
        ok = 0;
    }
    return ok;
}

void
fgmc_bindings_free(fgmc_bindings *log)
{
    free(log->v);
    log->v = NULL;
}
