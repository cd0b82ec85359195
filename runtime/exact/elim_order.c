/* runtime/exact/elim_order.c: an elimination order and its bucket tree.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Greedy min-fill (the variable whose elimination adds the fewest edges
 * between its neighbours; ties to the smallest clique table, then the
 * lowest index, so the order is deterministic): on a tree every leaf has
 * no fill and goes first, so cliques stay pairs.  The scores live in a
 * heap with lazy deletion (a stamp per variable): eliminating v changes
 * only the scores of its neighbours (new neighbours) and, when it adds
 * an edge, of theirs (a new edge between two of their neighbours), which
 * are pushed again.  A variable whose clique is past the bound is judged
 * by a running log of its clique's size, its list not walked, and lists
 * drop eliminated neighbours lazily: a chain of 200,000 variables, or a
 * star of 100,000 leaves, orders in O(n log n).  Greedy orders are not
 * optimal: a 12x12 grid (treewidth 12) gets cliques of 17 variables
 * (min-degree first: 17 too; 14x14, 20 against 21).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "eliminate.h"

/* A sorted, growable list of neighbours.  An eliminated neighbour stays
 * in it until the list is next walked whole (adj_compact): deleting it
 * at once moved the whole list of a hub once per leaf, quadratic. */
typedef struct adj {
    int n, cap;
    int dead;           /* entries eliminated since the last compaction */
    int *v;
} adj;

/* Where W is or would go in A. */
static int
adj_find(const adj *a, int w)
{
    int lo = 0, hi = a->n, mid;

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        if (a->v[mid] < w)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int
adj_has(const adj *a, int w)
{
    int i = adj_find(a, w);

    return i < a->n && a->v[i] == w;
}

/* Adds W to A unless there.  Returns 1 when added, 0 when there, -1 out
 * of memory. */
static int
adj_add(adj *a, int w)
{
    int i = adj_find(a, w);

    if (i < a->n && a->v[i] == w)
        return 0;
    if (a->n == a->cap) {
        int cap = a->cap ? 2 * a->cap : 4;
        int *v = realloc(a->v, (size_t)cap * sizeof *v);

        if (!v)
            return -1;
        a->v = v;
        a->cap = cap;
    }
    memmove(a->v + i + 1, a->v + i, (size_t)(a->n - i) * sizeof *a->v);
    a->v[i] = w;
    a->n++;
    return 1;
}

/* Drops A's eliminated entries (GONE: stamp < 0), keeping the order. */
static void
adj_compact(adj *a, const int *stamp)
{
    int i, m = 0;

    if (a->dead == 0)
        return;
    for (i = 0; i < a->n; i++)
        if (stamp[a->v[i]] >= 0)
            a->v[m++] = a->v[i];
    a->n = m;
    a->dead = 0;
}

/* The graph being eliminated. */
typedef struct graph {
    adj *a;             /* nvars: neighbours */
    double *lsize;      /* nvars: log2 of the product of the cards of a
                         * variable and its live neighbours, kept as
                         * edges come and go (a hub's score without
                         * walking its list) */
    int *stamp;         /* nvars: its score's version; -1 once gone */
    const int *card;
    double max_entries;
} graph;

/* A variable's score: FILL, then SIZE (its clique's table), then V. */
typedef struct score {
    long fill;
    double size;
    int v, stamp;
} score;

static int
score_lt(const score *a, const score *b)
{
    if (a->fill != b->fill)
        return a->fill < b->fill;
    if (a->size != b->size)
        return a->size < b->size;
    return a->v < b->v;
}

typedef struct heap {
    score *s;
    long n, cap;
} heap;

static int
heap_push(heap *h, score x)
{
    long i = h->n, up;

    if (h->n == h->cap) {
        long cap = h->cap ? 2 * h->cap : 64;
        score *s = realloc(h->s, (size_t)cap * sizeof *s);

        if (!s)
            return -1;
        h->s = s;
        h->cap = cap;
    }
    h->n++;
    while (i > 0 && score_lt(&x, &h->s[up = (i - 1) / 2])) {
        h->s[i] = h->s[up];
        i = up;
    }
    h->s[i] = x;
    return 0;
}

static score
heap_pop(heap *h)
{
    score top = h->s[0], x = h->s[--h->n];
    long i = 0, c;

    while ((c = 2 * i + 1) < h->n) {
        if (c + 1 < h->n && score_lt(&h->s[c + 1], &h->s[c]))
            c++;
        if (!score_lt(&h->s[c], &x))
            break;
        h->s[i] = h->s[c];
        i = c;
    }
    if (h->n > 0)
        h->s[i] = x;
    return top;
}

/* V's score in G, its version STAMP.  A clique over max_entries entries
 * (or variables) is judged from G->lsize, its list not walked, its fill
 * not counted: it cannot be eliminated anyway, and a hub's thousands of
 * neighbours cost millions of lookups. */
static score
score_of(graph *g, int v, int stamp)
{
    adj *a = &g->a[v];
    score s;
    int i, j;

    s.v = v;
    s.stamp = stamp;
    s.fill = 0;
    if (g->lsize[v] > log2(g->max_entries) + 1e-9
        || a->n - a->dead >= FGM_ETAB_MAXVARS) {
        s.fill = LONG_MAX;
        s.size = exp2(g->lsize[v]);     /* HUGE_VAL past the doubles */
        return s;
    }
    adj_compact(a, g->stamp);
    s.size = g->card[v];
    for (i = 0; i < a->n; i++)
        s.size *= g->card[a->v[i]];
    for (i = 0; i < a->n; i++)
        for (j = i + 1; j < a->n; j++)
            s.fill += !adj_has(&g->a[a->v[i]], a->v[j]);
    return s;
}

void
fgm_elim_tree_free(fgm_elim_tree *t)
{
    free(t->order);
    free(t->pos);
    free(t->parent);
    free(t->clique_off);
    free(t->clique);
    memset(t, 0, sizeof *t);
}

/* Adds the edge V - W to G (nothing if there).  Returns 1 when added, 0
 * when there, -1 out of memory. */
static int
add_edge(graph *g, int v, int w)
{
    int r = adj_add(&g->a[v], w);

    if (r == 1) {
        if (adj_add(&g->a[w], v) < 0)
            return -1;
        g->lsize[v] += log2(g->card[w]);
        g->lsize[w] += log2(g->card[v]);
    }
    return r;
}

/* The interaction graph: an edge between any two variables of a scope. */
static int
build_graph(graph *g, int nvars, const int *scope_off, const int *scopes,
            int nscopes)
{
    int f, i, j, v;

    for (v = 0; v < nvars; v++)
        g->lsize[v] = log2(g->card[v]);
    for (f = 0; f < nscopes; f++)
        for (i = scope_off[f]; i < scope_off[f + 1]; i++)
            for (j = i + 1; j < scope_off[f + 1]; j++)
                if (scopes[i] != scopes[j]
                    && add_edge(g, scopes[i], scopes[j]) < 0)
                    return -1;
    return 0;
}

/* Eliminates V from G: its clique (V and its neighbours, ascending) is
 * appended to T's, its neighbours joined pairwise, V gone from them.
 * *NCLIQUE counts the entries of T->clique so far, *CAP its room;
 * *FILLED says whether an edge was added. */
static fgm_status
eliminate_one(graph *g, int v, fgm_elim_tree *t, int *nclique, int *cap,
              int *filled)
{
    adj *a = &g->a[v];
    int i, j, need, at, r;

    adj_compact(a, g->stamp);
    need = *nclique + a->n + 1;
    if (need > *cap) {
        int c = need > 2 * *cap ? need : 2 * *cap;
        int *p = realloc(t->clique, (size_t)c * sizeof *p);

        if (!p)
            return FGM_ENOMEM;
        t->clique = p;
        *cap = c;
    }
    at = *nclique + adj_find(a, v);     /* v's place, ascending */
    if (a->n > 0)       /* (an isolated variable has no list at all) */
        memcpy(t->clique + *nclique, a->v, (size_t)a->n * sizeof *a->v);
    memmove(t->clique + at + 1, t->clique + at,
            (size_t)(need - 1 - at) * sizeof *t->clique);
    t->clique[at] = v;
    *nclique = need;
    *filled = 0;
    for (i = 0; i < a->n; i++)
        for (j = i + 1; j < a->n; j++) {
            if ((r = add_edge(g, a->v[i], a->v[j])) < 0)
                return FGM_ENOMEM;
            *filled |= r;
        }
    for (i = 0; i < a->n; i++) {
        g->a[a->v[i]].dead++;
        g->lsize[a->v[i]] -= log2(g->card[v]);
    }
    return FGM_OK;
}

/* Pushes W's new score, unless W is gone or was rescored at step K
 * already (SEEN).  Returns 0, or -1 out of memory. */
static int
push_score(graph *g, int w, int k, int *seen, heap *h)
{
    if (seen[w] == k + 1 || g->stamp[w] < 0)
        return 0;
    seen[w] = k + 1;
    return heap_push(h, score_of(g, w, ++g->stamp[w]));
}

/* New scores, after V's elimination at step K, for the variables whose
 * fill it can change: V's neighbours (new neighbours), and when an edge
 * was added (FILLED), theirs (an edge between two of their neighbours),
 * but not through a hub of more than RESCORE_MAX_DEGREE neighbours
 * (every leaf of it each time: quadratic). */
#define RESCORE_MAX_DEGREE 256

static fgm_status
rescore(graph *g, int v, int k, int filled, int *seen, heap *h)
{
    const adj *a = &g->a[v];
    adj *b;
    int i, j;

    for (i = 0; i < a->n; i++) {
        if (push_score(g, a->v[i], k, seen, h) < 0)
            return FGM_ENOMEM;
        b = &g->a[a->v[i]];
        if (!filled || b->n - b->dead > RESCORE_MAX_DEGREE)
            continue;
        adj_compact(b, g->stamp);
        for (j = 0; j < b->n; j++)
            if (push_score(g, b->v[j], k, seen, h) < 0)
                return FGM_ENOMEM;
    }
    return FGM_OK;
}

fgm_status
fgm_elim_order(int nvars, const int *card, const int *scope_off,
               const int *scopes, int nscopes, double max_entries,
               fgm_elim_tree *t)
{
    graph g;
    int *seen = calloc((size_t)nvars + 1, sizeof *seen);
    heap h = { NULL, 0, 0 };
    fgm_status st = FGM_OK;
    int v, k, i, nclique = 0, cap = 0, filled;
    score s;

    memset(t, 0, sizeof *t);
    g.a = calloc((size_t)nvars + 1, sizeof *g.a);
    g.lsize = malloc(((size_t)nvars + 1) * sizeof *g.lsize);
    g.stamp = calloc((size_t)nvars + 1, sizeof *g.stamp);
    g.card = card;
    g.max_entries = max_entries;
    t->nvars = nvars;
    t->order = malloc(((size_t)nvars + 1) * sizeof *t->order);
    t->pos = malloc(((size_t)nvars + 1) * sizeof *t->pos);
    t->parent = malloc(((size_t)nvars + 1) * sizeof *t->parent);
    t->clique_off = malloc(((size_t)nvars + 1) * sizeof *t->clique_off);
    if (!g.a || !g.lsize || !g.stamp || !seen || !t->order || !t->pos
        || !t->parent || !t->clique_off
        || build_graph(&g, nvars, scope_off, scopes, nscopes) < 0) {
        st = FGM_ENOMEM;
        goto out;
    }
    for (v = 0; v < nvars && st == FGM_OK; v++)
        if (heap_push(&h, score_of(&g, v, 0)) < 0)
            st = FGM_ENOMEM;
    for (k = 0; k < nvars && st == FGM_OK; k++) {
        do
            s = heap_pop(&h);
        while (s.stamp != g.stamp[s.v]);
        v = s.v;
        if (s.fill == LONG_MAX
            || (t->entries += s.size) > 4.0 * max_entries) {
            st = FGM_EUNSUPPORTED;
            break;
        }
        t->largest = s.size > t->largest ? s.size : t->largest;
        t->order[k] = v;
        t->pos[v] = k;
        t->clique_off[k] = nclique;
        g.stamp[v] = -1;    /* gone: every later entry is stale */
        st = eliminate_one(&g, v, t, &nclique, &cap, &filled);
        t->width = g.a[v].n + 1 > t->width ? g.a[v].n + 1 : t->width;
        if (st == FGM_OK)
            st = rescore(&g, v, k, filled, seen, &h);
    }
    if (st == FGM_OK) {
        t->clique_off[nvars] = nclique;
        /* The parent: the first variable of the clique to go after V. */
        for (k = 0; k < nvars; k++) {
            int best = -1;

            for (i = t->clique_off[k]; i < t->clique_off[k + 1]; i++)
                if (t->clique[i] != t->order[k]
                    && (best < 0 || t->pos[t->clique[i]] < t->pos[best]))
                    best = t->clique[i];
            t->parent[t->order[k]] = best;
        }
    }
out:
    for (v = 0; g.a && v < nvars; v++)
        free(g.a[v].v);
    free(g.a);
    free(g.lsize);
    free(g.stamp);
    free(seen);
    free(h.s);
    if (st != FGM_OK)
        fgm_elim_tree_free(t);
    return st;
}
