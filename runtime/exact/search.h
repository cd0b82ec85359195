/* runtime/exact/search.h: workspace and propagation shared by the searches.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The five search solvers (backtrack, mrv, ac3, fc, mac) share one
 * workspace, allocated once per thread by ws_new: an assignment, current
 * domains, a trail of domain changes, a propagation queue, a static variable
 * order, per-depth value lists and failure weights (mac's dom/wdeg).
 * solve() never allocates.
 *
 * Sizes.  The trail records a (variable, old domain) pair for every domain
 * change.  Along one path of the search a domain only shrinks, and every
 * recorded change removes at least one value, so a path holds at most
 * sum(card) <= nvars * maxcard entries: that is the trail's capacity.  The
 * queue holds each variable at most once (inq flags), so nvars entries.
 *
 * Propagation (srch_propagate) is arc consistency on the binary
 * decomposition of neq/alldiff (v != w over peers) plus generalised arc
 * consistency on tables.  For "x != y", y loses a value only when x's
 * domain is that single value, so AC-3 over these arcs reaches the same
 * fixpoint as "whenever a domain becomes a singleton, remove its value
 * from every peer"; this is what the queue does, without the O(arcs)
 * revise calls of textbook AC-3.  The fixpoint of AC is unique, so the
 * order of the queue does not change the resulting domains.
 *
 * Everything here is static inline: the header is included by the five
 * solver files and by enumerate.c (the exact marginals' search, which
 * keeps arc consistency as mac does) only, and each gets its own copy of
 * the workspace functions.
 */
#ifndef FGM_SEARCH_H
#define FGM_SEARCH_H

#include <stdlib.h>
#include "../solve/solver.h"

/* Results of a recursive search call. */
#define SRCH_FAIL 0        /* no solution below this node */
#define SRCH_FOUND 1       /* solution left in the workspace */
#define SRCH_EXPIRED (-1)  /* the deadline passed; unwind */

typedef struct fgm_search_undo {
    int v;
    fgm_dom old;
} fgm_search_undo;

typedef struct fgm_search {
    int nvars, maxcard;
    int *assign;            /* nvars: value index or -1 */
    fgm_dom *dom;           /* nvars: current domains */
    int *order;             /* nvars: static variable order (ac3) */
    int *vals;              /* nvars * maxcard: value order per depth */
    fgm_search_undo *trail; /* trail_cap entries */
    int ntrail, trail_cap;
    int *queue;             /* nvars, circular */
    int qhead, qlen;
    unsigned char *inq;     /* nvars: variable is in the queue */
    long *weight;           /* nvars: failures blamed on each variable */
    int wiped, culprit;     /* last wipe-out: the emptied variable, and
                               the variable whose propagation emptied it */
    double deadline;        /* fgm_now() seconds propagation gives up at
                               (0: none; set by its caller) */
    unsigned long work;     /* support checks times their arity since the
                               last look at the clock */
    int expired;            /* propagation stopped at the deadline: its
                               0 is not a wipe-out */
} fgm_search;

/* Support checks (times their arity) between two looks at the clock in
 * propagation: about 0.1 ms of checks.  A node's propagation is not
 * bounded: a sum over 1,000 variables checks each value of each of them
 * against all the others, and with the walk's poll every 4,096 nodes
 * alone, fgm run --backend exact --timeout-ms 500 on `sum x[*] == 500`
 * returned after 23 s. */
#define SRCH_POLL_WORK (1ul << 17)

static inline void
srch_free(void *p)
{
    fgm_search *ws = p;

    if (!ws)
        return;
    free(ws->assign);
    free(ws->dom);
    free(ws->order);
    free(ws->vals);
    free(ws->trail);
    free(ws->queue);
    free(ws->inq);
    free(ws->weight);
    free(ws);
}

/* Returns a workspace sized for CSP (freed by srch_free), or NULL. */
static inline void *
srch_new(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    fgm_search *ws = calloc(1, sizeof *ws);
    size_t n, c;

    (void)opts;
    (void)st;
    if (!ws)
        return NULL;
    ws->nvars = csp->nvars;
    ws->maxcard = csp->maxcard > 0 ? csp->maxcard : 1;
    n = (size_t)ws->nvars + 1;
    c = (size_t)ws->maxcard;
    ws->trail_cap = (int)(n * c);
    ws->assign = malloc(n * sizeof *ws->assign);
    ws->dom = malloc(n * sizeof *ws->dom);
    ws->order = malloc(n * sizeof *ws->order);
    ws->vals = malloc(n * c * sizeof *ws->vals);
    ws->trail = malloc(n * c * sizeof *ws->trail);
    ws->queue = malloc(n * sizeof *ws->queue);
    ws->inq = calloc(n, sizeof *ws->inq);
    ws->weight = calloc(n, sizeof *ws->weight);
    if (!ws->assign || !ws->dom || !ws->order || !ws->vals || !ws->trail
        || !ws->queue || !ws->inq || !ws->weight) {
        srch_free(ws);
        return NULL;
    }
    return ws;
}

/* WS with an empty trail and queue, for a new search. */
static inline fgm_search *
srch_reset(fgm_search *ws)
{
    ws->ntrail = 0;
    ws->qhead = ws->qlen = 0;
    ws->expired = 0;
    return ws;
}

/* The job's workspace when it fits the job's csp, else NULL. */
static inline fgm_search *
srch_ws(fgm_solve_job *job)
{
    fgm_search *ws = job->ws;

    if (!ws || ws->nvars != job->csp->nvars
        || ws->maxcard < job->csp->maxcard)
        return NULL;
    ws->deadline = job->deadline;
    return srch_reset(ws);
}

static inline int
srch_has_tables(const fgm_csp *csp, int v)
{
    return csp->var_table_off[v] < csp->var_table_off[v + 1];
}

/* The unassigned variable (assign[v] < 0) with the fewest values left,
 * the lowest index of those; -1 when every one is assigned (fc's
 * branching, and enumerate.c's).  A domain of one ends the scan: none
 * is smaller while propagation keeps domains nonempty. */
static inline int
srch_fewest(const fgm_search *ws)
{
    int v, best = -1, bestn = 65, c;

    for (v = 0; v < ws->nvars; v++) {
        if (ws->assign[v] >= 0)
            continue;
        c = fgm_dom_count(ws->dom[v]);
        if (c < bestn) {
            best = v;
            bestn = c;
            if (c <= 1)
                break;
        }
    }
    return best;
}

/* Values held by the assigned peers of V. */
static inline fgm_dom
srch_used(const fgm_csp *csp, const int *assign, int v)
{
    const int *p = fgm_csp_peers(csp, v);
    int i, n = fgm_csp_npeers(csp, v);
    fgm_dom used = 0;

    for (i = 0; i < n; i++)
        if (assign[p[i]] >= 0)
            used |= FGM_DOM_BIT(assign[p[i]]);
    return used;
}

/* Loads the clues into ASSIGN (-1 elsewhere).  Returns 0 when two clues
 * contradict each other (same value on peers, a table with no tuple, a
 * value barred by evidence), 1 otherwise. */
static inline int
srch_load_clues(const fgm_csp *csp, const int *given, int *assign)
{
    int v;

    for (v = 0; v < csp->nvars; v++)
        assign[v] = given ? given[v] : -1;
    return fgm_csp_assigned_consistent(csp, assign);
}

/* Sets the domain of V to D, recording the old one on the trail. */
static inline void
srch_set(fgm_search *ws, int v, fgm_dom d)
{
    if (ws->dom[v] == d)
        return;
    if (ws->ntrail >= ws->trail_cap)
        FGM_DIE("search trail overflow");   /* the bound above is wrong */
    ws->trail[ws->ntrail].v = v;
    ws->trail[ws->ntrail].old = ws->dom[v];
    ws->ntrail++;
    ws->dom[v] = d;
}

/* Restores every domain changed since the trail held MARK entries. */
static inline void
srch_undo(fgm_search *ws, int mark)
{
    while (ws->ntrail > mark) {
        ws->ntrail--;
        ws->dom[ws->trail[ws->ntrail].v] = ws->trail[ws->ntrail].old;
    }
}

static inline void
srch_push(fgm_search *ws, int v)
{
    if (ws->inq[v])
        return;
    ws->inq[v] = 1;
    ws->queue[(ws->qhead + ws->qlen) % ws->nvars] = v;
    ws->qlen++;
}

/* Notes that the domain of V changed.  Returns 0 when it became empty;
 * queues V when it has something to propagate (a singleton, or tables). */
static inline int
srch_changed(fgm_search *ws, const fgm_csp *csp, int v)
{
    fgm_dom d = ws->dom[v];

    if (!d) {
        ws->wiped = v;
        return 0;
    }
    if ((d & (d - 1)) == 0 || srch_has_tables(csp, v))
        srch_push(ws, v);
    return 1;
}

/* Removes from the domains of table T's variables every value without a
 * supporting nonzero tuple.  Returns 0 on a wipe-out. */
static inline int
srch_revise_table(fgm_search *ws, const fgm_csp *csp, int t)
{
    const fgm_ir *ir = csp->ir;
    const fgm_ir_factor *f = &ir->factors[csp->tables[t]];
    const int *s = fgm_ir_scope(ir, f);
    int i;

    for (i = 0; i < f->arity; i++) {
        int u = s[i];
        fgm_dom d = ws->dom[u], keep = 0, m;

        for (m = d; m; m &= m - 1) {
            int val = fgm_dom_first(m);

            if (fgm_csp_table_supported(csp, t, ws->dom, u, val))
                keep |= FGM_DOM_BIT(val);
            ws->work += (unsigned long)f->arity;
        }
        if (keep != d) {
            srch_set(ws, u, keep);
            if (!srch_changed(ws, csp, u))
                return 0;
        }
    }
    return 1;
}

/* Empties the queue without propagating. */
static inline void
srch_drain(fgm_search *ws)
{
    while (ws->qlen > 0) {
        ws->inq[ws->queue[ws->qhead]] = 0;
        ws->qhead = (ws->qhead + 1) % ws->nvars;
        ws->qlen--;
    }
}

/* Runs the queue to the arc-consistency fixpoint (see the file comment).
 * Returns 0 when a domain empties, or when ws->deadline has passed
 * (ws->expired, from then on at once); the queue is left empty either
 * way. */
static inline int
srch_propagate(fgm_search *ws, const fgm_csp *csp)
{
    int x = -1;

    if (ws->expired) {
        srch_drain(ws);
        return 0;
    }
    while (ws->qlen > 0) {
        int i, n;
        fgm_dom d;

        x = ws->queue[ws->qhead];
        ws->qhead = (ws->qhead + 1) % ws->nvars;
        ws->qlen--;
        ws->inq[x] = 0;
        d = ws->dom[x];
        if ((d & (d - 1)) == 0) {
            const int *p = fgm_csp_peers(csp, x);

            n = fgm_csp_npeers(csp, x);
            for (i = 0; i < n; i++) {
                int w = p[i];

                if (ws->dom[w] & d) {
                    srch_set(ws, w, ws->dom[w] & ~d);
                    if (!srch_changed(ws, csp, w))
                        goto fail;
                }
            }
        }
        for (i = csp->var_table_off[x]; i < csp->var_table_off[x + 1]; i++)
            if (!srch_revise_table(ws, csp, csp->var_tables[i]))
                goto fail;
        if (ws->work >= SRCH_POLL_WORK) {
            ws->work = 0;
            if (ws->deadline > 0 && fgm_now() > ws->deadline) {
                ws->expired = 1;
                goto fail;
            }
        }
    }
    return 1;
fail:
    ws->culprit = x;
    srch_drain(ws);
    return 0;
}

/* Queues every variable of the initial domains that has something to
 * propagate and runs the queue.  Returns 0 when the clues are
 * contradictory (an empty domain). */
static inline int
srch_propagate_all(fgm_search *ws, const fgm_csp *csp)
{
    int v;

    for (v = 0; v < csp->nvars; v++)
        if (!srch_changed(ws, csp, v)) {
            srch_drain(ws);
            return 0;
        }
    return srch_propagate(ws, csp);
}

/* Maps a search result on WS to the solver's status: a failure is a
 * timeout when propagation stopped at the deadline (ws->expired). */
static inline fgm_status
srch_status(const fgm_search *ws, int r)
{
    return r == SRCH_FOUND ? FGM_OK
           : r == SRCH_EXPIRED || ws->expired ? FGM_ETIMEOUT
           : FGM_EUNSOLVED;
}

/* Ends a solve: on SRCH_FOUND copies ASSIGN (nvars values) to the job's
 * solution; returns the solver's status. */
static inline fgm_status
srch_finish(fgm_solve_job *job, const int *assign, int r)
{
    int v;

    if (r == SRCH_FOUND)
        for (v = 0; v < job->csp->nvars; v++)
            job->solution[v] = assign[v];
    return srch_status(job->ws, r);
}

/* A recursive search: SRCH_FOUND, SRCH_FAIL or SRCH_EXPIRED from the node
 * at DEPTH (its meaning is the solver's). */
typedef int (*srch_fn)(fgm_solve_job *job, fgm_search *ws, int depth);

/* The branching of the plain searches (backtrack, ac3):
 * V takes each value of CAND in ascending order that no assigned peer
 * holds and that its tables allow, and SEARCH goes on at NEXT; V is left
 * unassigned when all fail.  Returns the first result that is not
 * SRCH_FAIL, else SRCH_FAIL. */
static inline int
srch_branch(fgm_solve_job *job, fgm_search *ws, int v, fgm_dom cand,
            int next, srch_fn search)
{
    const fgm_csp *csp = job->csp;
    int *assign = ws->assign, val, r;

    cand &= ~srch_used(csp, assign, v);
    if (!cand)
        job->stats.contradictions++;    /* no value left for V */
    for (; cand; cand &= cand - 1) {
        val = fgm_dom_first(cand);
        job->stats.decisions++;
        if (srch_has_tables(csp, v)
            && !fgm_csp_consistent(csp, assign, v, val)) {
            job->stats.contradictions++;
            continue;
        }
        assign[v] = val;
        r = search(job, ws, next);
        if (r != SRCH_FAIL)
            return r;
    }
    assign[v] = -1;
    return SRCH_FAIL;
}

/* The solve of backtrack and mrv: the clues in place (their consistency
 * checked), then SEARCH from depth 0. */
static inline fgm_status
srch_solve_from_clues(fgm_solve_job *job, srch_fn search)
{
    const fgm_csp *csp = job->csp;
    fgm_search *ws = srch_ws(job);

    if (!ws)
        return FGM_ENOMEM;
    if (!fgm_csp_init_domains(csp, job->given, ws->dom)
        || !srch_load_clues(csp, job->given, ws->assign))
        return FGM_EUNSOLVED;
    return srch_finish(job, ws->assign, search(job, ws, 0));
}

#endif /* FGM_SEARCH_H */
