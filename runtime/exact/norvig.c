/* runtime/exact/norvig.c: constraint propagation plus search (Norvig).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * After Peter Norvig, "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html),
 * generalised from the 9x9 grid to any csp.  Domains are 64-bit masks.
 *
 *   assign(v, a)     eliminate every other value from v;
 *   eliminate(v, a)  remove a from v; if v is left with one value b,
 *                    eliminate b from every peer (naked single); for each
 *                    full unit of v, if a now has one place left in it,
 *                    assign a there (hidden single);
 *   contradiction    an empty domain, or a value with no place in a full
 *                    unit.
 *
 * Peers come from the neq and alldiff factors.  A "full" unit is an alldiff
 * of n distinct variables over n values: only there must every value occur,
 * so only there do hidden singles hold.  Norvig's recursion is replaced by
 * two work stacks (naked singles first, then hidden-single checks); the
 * fixed point is the same.  Table factors are filtered to generalised arc
 * consistency after each fixed point (fgm_csp_table_supported), and the two
 * alternate until neither removes a value.
 *
 * Search: the variable with the fewest values (more than one; the first in
 * index order on ties), values in ascending order, the domain array copied
 * per level into a stack allocated with the workspace.  stats.nodes counts
 * calls of search, as the seed notebooks count them.
 */
#include <stdlib.h>
#include <string.h>
#include "../solve/solver.h"

typedef struct norvig_ws {
    const fgm_csp *csp;
    int nvars;
    int *funit_off;         /* nvars + 1: full units of each variable */
    int *funits;
    unsigned char *is_full; /* nunits */
    int restricted;         /* some domain is narrowed by evidence */
    fgm_dom *stack;         /* levels * nvars domains */
    int levels;
    int *sq;                /* naked singles to propagate */
    int nsq;
    int *hq;                /* (unit, value) pairs to check */
    int nhq, hq_cap;
} norvig_ws;

/* -------------------------------------------------------------------------
 * Workspace
 * ----------------------------------------------------------------------- */

static void
ws_free(void *p)
{
    norvig_ws *w = p;

    if (!w)
        return;
    free(w->funit_off);
    free(w->funits);
    free(w->is_full);
    free(w->stack);
    free(w->sq);
    free(w->hq);
    free(w);
}

/* Whether alldiff unit U has as many distinct variables as values. */
static int
unit_is_full(const fgm_csp *csp, int u)
{
    const int *s = csp->unit_vars + csp->unit_off[u];
    int n = csp->unit_off[u + 1] - csp->unit_off[u], i, j;

    for (i = 0; i < n; i++) {
        if (csp->card[s[i]] != n)
            return 0;
        for (j = 0; j < i; j++)
            if (s[j] == s[i])
                return 0;
    }
    return 1;
}

/* Levels of domains to allocate up front: the whole depth bound (one more
 * than the number of variables) when it is small, else a start that grows
 * by doubling. */
static int
first_levels(int nvars)
{
    long whole = (long)nvars + 1;

    return whole * nvars <= (1L << 20) ? (int)whole : 64;
}

static void *
ws_new(const fgm_csp *csp)
{
    norvig_ws *w = calloc(1, sizeof *w);
    int v, k, n = 0;
    long cap = 1;

    if (!w)
        return NULL;
    w->csp = csp;
    w->nvars = csp->nvars;
    w->is_full = malloc((size_t)csp->nunits + 1);
    w->funit_off = malloc(((size_t)csp->nvars + 1) * sizeof *w->funit_off);
    w->funits = malloc(((size_t)csp->var_unit_off[csp->nvars] + 1)
                       * sizeof *w->funits);
    if (!w->is_full || !w->funit_off || !w->funits)
        goto fail;
    for (k = 0; k < csp->nunits; k++)
        w->is_full[k] = (unsigned char)unit_is_full(csp, k);
    for (v = 0; v < csp->nvars; v++) {
        w->funit_off[v] = n;
        for (k = csp->var_unit_off[v]; k < csp->var_unit_off[v + 1]; k++)
            if (w->is_full[csp->var_units[k]])
                w->funits[n++] = csp->var_units[k];
        /* Each removal of a value of v queues one check per full unit. */
        cap += (long)csp->card[v] * (n - w->funit_off[v]);
        if (csp->full[v] != (csp->card[v] == 64 ? ~(fgm_dom)0
                             : FGM_DOM_BIT(csp->card[v]) - 1))
            w->restricted = 1;
    }
    w->funit_off[csp->nvars] = n;
    /* The initial scan queues (unit, value) for every full unit too. */
    for (k = 0; k < csp->nunits; k++)
        if (w->is_full[k])
            cap += csp->unit_off[k + 1] - csp->unit_off[k];
    w->hq_cap = (int)cap;
    w->hq = malloc((size_t)cap * 2 * sizeof *w->hq);
    w->sq = malloc(((size_t)csp->nvars + 1) * sizeof *w->sq);
    w->levels = first_levels(csp->nvars);
    w->stack = malloc((size_t)w->levels * ((size_t)csp->nvars + 1)
                      * sizeof *w->stack);
    if (!w->hq || !w->sq || !w->stack)
        goto fail;
    return w;
fail:
    ws_free(w);
    return NULL;
}

/* Makes room for LEVEL in the domain stack.  Returns 0 on failure. */
static int
reserve(norvig_ws *w, int level)
{
    fgm_dom *p;
    int n = w->levels;

    if (level < n)
        return 1;
    while (n <= level)
        n *= 2;
    p = realloc(w->stack,
                (size_t)n * ((size_t)w->nvars + 1) * sizeof *w->stack);
    if (!p)
        return 0;
    w->stack = p;
    w->levels = n;
    return 1;
}

/* -------------------------------------------------------------------------
 * Propagation
 * ----------------------------------------------------------------------- */

/* Removes A from the domain of V and queues the consequences.  Returns 0 on
 * an empty domain. */
static int
eliminate(norvig_ws *w, fgm_dom *dom, int v, int a)
{
    fgm_dom bit = FGM_DOM_BIT(a);
    int k;

    if (!(dom[v] & bit))
        return 1;
    dom[v] &= ~bit;
    if (!dom[v])
        return 0;
    if (!(dom[v] & (dom[v] - 1)))
        w->sq[w->nsq++] = v;
    for (k = w->funit_off[v]; k < w->funit_off[v + 1]; k++) {
        w->hq[2 * w->nhq] = w->funits[k];
        w->hq[2 * w->nhq + 1] = a;
        w->nhq++;
    }
    return 1;
}

/* Removes every value but A from V.  Returns 0 on a contradiction. */
static int
assign(norvig_ws *w, fgm_dom *dom, int v, int a)
{
    fgm_dom other;

    if (!(dom[v] & FGM_DOM_BIT(a)))
        return 0;
    other = dom[v] & ~FGM_DOM_BIT(a);
    while (other) {
        if (!eliminate(w, dom, v, fgm_dom_first(other)))
            return 0;
        other &= other - 1;
    }
    return 1;
}

/* Checks where value A can go in full unit U; assigns it if one place is
 * left.  Returns 0 when it has no place. */
static int
hidden_single(norvig_ws *w, fgm_dom *dom, int u, int a)
{
    const fgm_csp *csp = w->csp;
    const int *s = csp->unit_vars + csp->unit_off[u];
    int n = csp->unit_off[u + 1] - csp->unit_off[u], i, place = -1;
    fgm_dom bit = FGM_DOM_BIT(a);

    for (i = 0; i < n; i++)
        if (dom[s[i]] & bit) {
            if (place >= 0)
                return 1;
            place = s[i];
        }
    if (place < 0)
        return 0;
    return dom[place] == bit || assign(w, dom, place, a);
}

/* Runs the queued work to a fixed point.  Returns 0 on a contradiction (the
 * queues are emptied either way). */
static int
propagate(norvig_ws *w, fgm_dom *dom)
{
    const fgm_csp *csp = w->csp;
    int ok = 1;

    while (ok && (w->nsq > 0 || w->nhq > 0)) {
        if (w->nsq > 0) {
            int v = w->sq[--w->nsq], a = fgm_dom_first(dom[v]), i;
            const int *p = fgm_csp_peers(csp, v);
            int np = fgm_csp_npeers(csp, v);

            for (i = 0; ok && i < np; i++)
                ok = eliminate(w, dom, p[i], a);
        } else {
            w->nhq--;
            ok = hidden_single(w, dom, w->hq[2 * w->nhq],
                               w->hq[2 * w->nhq + 1]);
        }
    }
    w->nsq = w->nhq = 0;
    return ok;
}

/* Removes values without support in some table factor, then propagates;
 * repeats until nothing changes.  Returns 0 on a contradiction. */
static int
filter_tables(norvig_ws *w, fgm_dom *dom)
{
    const fgm_csp *csp = w->csp;
    const fgm_ir *ir = csp->ir;
    int changed = 1, t, i;

    while (changed) {
        changed = 0;
        for (t = 0; t < csp->ntables; t++) {
            const fgm_ir_factor *f = &ir->factors[csp->tables[t]];
            const int *s = fgm_ir_scope(ir, f);

            for (i = 0; i < f->arity; i++) {
                fgm_dom left = dom[s[i]];

                while (left) {
                    int a = fgm_dom_first(left);

                    left &= left - 1;
                    if (fgm_csp_table_supported(csp, t, dom, s[i], a))
                        continue;
                    changed = 1;
                    if (!eliminate(w, dom, s[i], a) || !propagate(w, dom))
                        return 0;
                }
            }
        }
    }
    return 1;
}

/* Propagation then table filtering. */
static int
settle(norvig_ws *w, fgm_dom *dom)
{
    if (!propagate(w, dom))
        return 0;
    return w->csp->ntables == 0 || filter_tables(w, dom);
}

/* Sets up level 0 from the clues.  Returns 0 on a contradiction. */
static int
start(norvig_ws *w, const int *given, fgm_dom *dom)
{
    const fgm_csp *csp = w->csp;
    int v, k;

    memcpy(dom, csp->full, (size_t)w->nvars * sizeof *dom);
    w->nsq = w->nhq = 0;
    if (w->restricted) {
        /* Evidence narrowed domains before any elimination: queue what
         * eliminations would have queued. */
        for (v = 0; v < w->nvars; v++) {
            if (!dom[v])
                return 0;
            if (!(dom[v] & (dom[v] - 1)))
                w->sq[w->nsq++] = v;
        }
        for (k = 0; k < csp->nunits; k++) {
            int a, n = csp->unit_off[k + 1] - csp->unit_off[k];

            if (!w->is_full[k])
                continue;
            for (a = 0; a < n; a++) {
                w->hq[2 * w->nhq] = k;
                w->hq[2 * w->nhq + 1] = a;
                w->nhq++;
            }
        }
        if (!propagate(w, dom))
            return 0;
    }
    if (given)
        for (v = 0; v < w->nvars; v++) {
            if (given[v] < 0)
                continue;
            if (given[v] >= csp->card[v] || !assign(w, dom, v, given[v])
                || !propagate(w, dom)) {
                w->nsq = w->nhq = 0;
                return 0;
            }
        }
    return settle(w, dom);
}

/* -------------------------------------------------------------------------
 * Search
 * ----------------------------------------------------------------------- */

/* search(level) := solved | pick the MRV variable; for each of its values:
 *                  copy the domains, assign, settle, search(level + 1). */
static fgm_status
search(norvig_ws *w, fgm_solve_job *job, int level)
{
    size_t stride = (size_t)w->nvars + 1;
    fgm_dom *dom, *next, left;
    int v, best = -1, min = 65;

    job->stats.nodes++;
    if (fgm_job_expired(job))
        return FGM_ETIMEOUT;
    if (!reserve(w, level + 1))
        return FGM_ENOMEM;
    dom = w->stack + (size_t)level * stride;
    for (v = 0; v < w->nvars; v++) {
        int c = fgm_dom_count(dom[v]);

        if (c > 1 && c < min) {
            min = c;
            best = v;
            if (c == 2)
                break;
        }
    }
    if (best < 0) {
        for (v = 0; v < w->nvars; v++)
            job->solution[v] = fgm_dom_first(dom[v]);
        return FGM_OK;
    }
    left = dom[best];
    while (left) {
        int a = fgm_dom_first(left);
        fgm_status st;

        left &= left - 1;
        job->stats.decisions++;
        dom = w->stack + (size_t)level * stride;
        next = dom + stride;
        memcpy(next, dom, (size_t)w->nvars * sizeof *dom);
        if (!assign(w, next, best, a) || !settle(w, next)) {
            w->nsq = w->nhq = 0;
            job->stats.contradictions++;
            continue;
        }
        st = search(w, job, level + 1);
        if (st != FGM_EUNSOLVED)
            return st;
    }
    return FGM_EUNSOLVED;
}

static fgm_status
norvig_solve(fgm_solve_job *job)
{
    norvig_ws *w = job->ws;

    if (!start(w, job->given, w->stack))
        return FGM_EUNSOLVED;
    return search(w, job, 0);
}

const fgm_solver fgm_solver_norvig = {
    "norvig",
    "Norvig's elimination, naked and hidden singles, MRV search",
    FGM_SOLVER_EXACT,
    NULL,
    ws_new,
    ws_free,
    norvig_solve,
};
