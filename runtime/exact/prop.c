/* runtime/exact/prop.c: domain propagation, Norvig's elimination + singles.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engine norvig.c's search runs on (its top comment says what it
 * does), shared with solve/ep_hybrid3.c: prop.h.
 */
#include <stdlib.h>
#include <string.h>
#include "prop.h"

/* The state of one search level: domains and the place counts. */
typedef struct state {
    fgm_dom *dom;           /* nvars */
    int *cnt;               /* ncnt: places of value a in full unit u at
                             * csp->unit_off[u] + a */
} state;

struct fgm_prop {
    const fgm_csp *csp;
    int nvars;
    int ncnt;               /* csp->unit_off[nunits] */
    int *funit_off;         /* nvars + 1: full units of each variable */
    int *funits;
    unsigned char *is_full; /* nunits */
    fgm_dom *dstack;        /* levels * nvars domains */
    int *cstack;            /* levels * ncnt counts */
    int levels;
    int *sq;                /* variables left with one value */
    int nsq;
    int *hq;                /* (unit, value) pairs with one place left */
    int nhq;
};

/* -------------------------------------------------------------------------
 * Workspace
 * ----------------------------------------------------------------------- */

void
fgm_prop_free(fgm_prop *w)
{
    if (!w)
        return;
    free(w->funit_off);
    free(w->funits);
    free(w->is_full);
    free(w->dstack);
    free(w->cstack);
    free(w->sq);
    free(w->hq);
    free(w);
}

/* Points S at search level LEVEL. */
static void
level_state(const fgm_prop *w, int level, state *s)
{
    s->dom = w->dstack + (size_t)level * ((size_t)w->nvars + 1);
    s->cnt = w->cstack + (size_t)level * ((size_t)w->ncnt + 1);
}

/* Makes room for LEVELS levels (the depth bound is nvars + 1; large models
 * start smaller and grow by doubling).  Returns 0 when out of memory. */
static int
reserve(fgm_prop *w, int levels)
{
    fgm_dom *d;
    int *c, n = w->levels ? w->levels : 1;

    if (levels <= w->levels)
        return 1;
    while (n < levels)
        n *= 2;
    d = realloc(w->dstack, (size_t)n * ((size_t)w->nvars + 1) * sizeof *d);
    if (!d)
        return 0;
    w->dstack = d;
    c = realloc(w->cstack, (size_t)n * ((size_t)w->ncnt + 1) * sizeof *c);
    if (!c)
        return 0;
    w->cstack = c;
    w->levels = n;
    return 1;
}

fgm_prop *
fgm_prop_new(const fgm_csp *csp)
{
    fgm_prop *w = calloc(1, sizeof *w);
    long whole = (long)csp->nvars + 1;
    int v, k, n = 0;

    if (!w)
        return NULL;
    w->csp = csp;
    w->nvars = csp->nvars;
    w->ncnt = csp->unit_off[csp->nunits];
    w->is_full = malloc((size_t)csp->nunits + 1);
    w->funit_off = malloc(((size_t)csp->nvars + 1) * sizeof *w->funit_off);
    w->funits = malloc(((size_t)csp->var_unit_off[csp->nvars] + 1)
                       * sizeof *w->funits);
    /* Per propagation, a variable becomes single once and a (unit, value)
     * count drops to one once. */
    w->sq = malloc(((size_t)csp->nvars + 1) * sizeof *w->sq);
    w->hq = malloc(((size_t)w->ncnt + 1) * 2 * sizeof *w->hq);
    if (!w->is_full || !w->funit_off || !w->funits || !w->sq || !w->hq)
        goto fail;
    for (k = 0; k < csp->nunits; k++)
        w->is_full[k] = (unsigned char)fgm_csp_unit_is_full(csp, k);
    for (v = 0; v < csp->nvars; v++) {
        w->funit_off[v] = n;
        for (k = csp->var_unit_off[v]; k < csp->var_unit_off[v + 1]; k++)
            if (w->is_full[csp->var_units[k]])
                w->funits[n++] = csp->var_units[k];
    }
    w->funit_off[csp->nvars] = n;
    if (!reserve(w, whole * (whole + w->ncnt) <= (1L << 20) ? (int)whole
                                                              : 64))
        goto fail;
    return w;
fail:
    fgm_prop_free(w);
    return NULL;
}

/* -------------------------------------------------------------------------
 * Propagation
 * ----------------------------------------------------------------------- */

/* Removes A from the domain of V and queues the consequences.  Returns 0 on
 * a contradiction (empty domain, or A without a place in a full unit). */
static int
eliminate(fgm_prop *w, const state *s, int v, int a)
{
    const int *uoff = w->csp->unit_off;
    fgm_dom bit = FGM_DOM_BIT(a), left;
    int k;

    if (!(s->dom[v] & bit))
        return 1;
    left = s->dom[v] &= ~bit;
    if (!left)
        return 0;
    if (!(left & (left - 1)))
        w->sq[w->nsq++] = v;
    for (k = w->funit_off[v]; k < w->funit_off[v + 1]; k++) {
        int u = w->funits[k], c = --s->cnt[uoff[u] + a];

        if (c == 0)
            return 0;
        if (c == 1) {
            w->hq[2 * w->nhq] = u;
            w->hq[2 * w->nhq + 1] = a;
            w->nhq++;
        }
    }
    return 1;
}

/* Removes every value but A from V.  Returns 0 on a contradiction. */
static int
assign(fgm_prop *w, const state *s, int v, int a)
{
    fgm_dom other;

    if (!(s->dom[v] & FGM_DOM_BIT(a)))
        return 0;
    other = s->dom[v] & ~FGM_DOM_BIT(a);
    while (other) {
        if (!eliminate(w, s, v, fgm_dom_first(other)))
            return 0;
        other &= other - 1;
    }
    return 1;
}

/* Value A has one place left in full unit U: assigns it there. */
static int
hidden_single(fgm_prop *w, const state *s, int u, int a)
{
    const fgm_csp *csp = w->csp;
    const int *vars = csp->unit_vars + csp->unit_off[u];
    int n = csp->unit_off[u + 1] - csp->unit_off[u], i;
    fgm_dom bit = FGM_DOM_BIT(a);

    for (i = 0; i < n; i++)
        if (s->dom[vars[i]] & bit)
            return s->dom[vars[i]] == bit || assign(w, s, vars[i], a);
    return 0;
}

/* Runs the queued work to a fixed point.  Returns 0 on a contradiction.
 * The queues are empty afterwards either way. */
static int
propagate(fgm_prop *w, const state *s)
{
    const fgm_csp *csp = w->csp;
    int ok = 1;

    while (ok && (w->nsq > 0 || w->nhq > 0)) {
        if (w->nsq > 0) {
            int v = w->sq[--w->nsq], a = fgm_dom_first(s->dom[v]), i;
            const int *p = fgm_csp_peers(csp, v);
            int np = fgm_csp_npeers(csp, v);

            for (i = 0; ok && i < np; i++)
                ok = eliminate(w, s, p[i], a);
        } else {
            w->nhq--;
            ok = hidden_single(w, s, w->hq[2 * w->nhq],
                               w->hq[2 * w->nhq + 1]);
        }
    }
    w->nsq = w->nhq = 0;
    return ok;
}

/* Removes values without support in some table factor, propagating after
 * each; repeats until nothing changes.  Returns 0 on a contradiction. */
static int
filter_tables(fgm_prop *w, const state *s)
{
    const fgm_csp *csp = w->csp;
    const fgm_ir *ir = csp->ir;
    int changed = 1, t, i;

    while (changed) {
        changed = 0;
        for (t = 0; t < csp->ntables; t++) {
            const fgm_ir_factor *f = &ir->factors[csp->tables[t]];
            const int *scope = fgm_ir_scope(ir, f);

            for (i = 0; i < f->arity; i++) {
                int v = scope[i];
                fgm_dom left = s->dom[v];

                while (left) {
                    int a = fgm_dom_first(left);

                    left &= left - 1;
                    if (fgm_csp_table_supported(csp, t, s->dom, v, a))
                        continue;
                    changed = 1;
                    if (!eliminate(w, s, v, a) || !propagate(w, s))
                        return 0;
                }
            }
        }
    }
    return 1;
}

/* Propagation, then table filtering.  Returns 0 on a contradiction. */
static int
settle(fgm_prop *w, const state *s)
{
    if (!propagate(w, s))
        return 0;
    return w->csp->ntables == 0 || filter_tables(w, s);
}

/* Sets up level 0: domains allowed by evidence, place counts, then the
 * clues assigned one by one.  Returns 0 on a contradiction. */
static int
start(fgm_prop *w, const int *given, const state *s)
{
    const fgm_csp *csp = w->csp;
    int v, u, a, i;

    memcpy(s->dom, csp->full, (size_t)w->nvars * sizeof *s->dom);
    memset(s->cnt, 0, (size_t)w->ncnt * sizeof *s->cnt);
    w->nsq = w->nhq = 0;
    for (v = 0; v < w->nvars; v++) {
        if (!s->dom[v])
            return 0;
        if (!(s->dom[v] & (s->dom[v] - 1)))
            w->sq[w->nsq++] = v;
    }
    for (u = 0; u < csp->nunits; u++) {
        int off = csp->unit_off[u], n = csp->unit_off[u + 1] - off;

        if (!w->is_full[u])
            continue;
        for (i = 0; i < n; i++) {
            fgm_dom d = s->dom[csp->unit_vars[off + i]];

            for (; d; d &= d - 1)
                s->cnt[off + fgm_dom_first(d)]++;
        }
        for (a = 0; a < n; a++) {
            if (s->cnt[off + a] == 0)
                return 0;
            if (s->cnt[off + a] == 1) {
                w->hq[2 * w->nhq] = u;
                w->hq[2 * w->nhq + 1] = a;
                w->nhq++;
            }
        }
    }
    if (!propagate(w, s))
        return 0;
    if (given)
        for (v = 0; v < w->nvars; v++) {
            if (given[v] < 0)
                continue;
            if (given[v] >= csp->card[v] || !assign(w, s, v, given[v])
                || !propagate(w, s)) {
                w->nsq = w->nhq = 0;
                return 0;
            }
        }
    return settle(w, s);
}

/* -------------------------------------------------------------------------
 * Levels
 * ----------------------------------------------------------------------- */

int
fgm_prop_start(fgm_prop *p, const int *given)
{
    state s;

    level_state(p, 0, &s);
    return start(p, given, &s);
}

fgm_dom *
fgm_prop_dom(fgm_prop *p, int level)
{
    return p->dstack + (size_t)level * ((size_t)p->nvars + 1);
}

int
fgm_prop_branch(fgm_prop *p, int level, int v, int a)
{
    state cur, next;

    if (!reserve(p, level + 2))     /* may move the stacks */
        return -1;
    level_state(p, level, &cur);
    level_state(p, level + 1, &next);
    memcpy(next.dom, cur.dom, (size_t)p->nvars * sizeof *cur.dom);
    memcpy(next.cnt, cur.cnt, (size_t)p->ncnt * sizeof *cur.cnt);
    if (!assign(p, &next, v, a) || !settle(p, &next)) {
        p->nsq = p->nhq = 0;
        return 0;
    }
    return 1;
}
