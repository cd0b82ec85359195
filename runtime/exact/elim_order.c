/* runtime/exact/elim_order.c: an elimination order and its bucket tree.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Greedy min-fill (the variable whose elimination adds the fewest edges
 * between its neighbours; ties to the smallest clique table, then the
 * lowest index, so the order is deterministic): on a tree every leaf has
 * no fill and goes first, so cliques stay pairs.  The scores live in a
 * heap with lazy deletion (a stamp per variable): eliminating v changes
 * only the scores of its neighbours (new neighbours) and of theirs (a
 * new edge between two of their neighbours), which are pushed again, so
 * a chain of 200,000 variables orders in O(n log n), not O(n^2).
 * Greedy orders are not optimal: a 12x12 grid (treewidth 12) gets
 * cliques of 17 variables (min-degree first: 17 too; 14x14, 20 against
 * 21).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "eliminate.h"

/* A sorted, growable list of neighbours. */
typedef struct adj {
    int n, cap;
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

/* Adds W to A unless there.  Returns 0, or -1 out of memory. */
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
    return 0;
}

static void
adj_del(adj *a, int w)
{
    int i = adj_find(a, w);

    if (i < a->n && a->v[i] == w) {
        memmove(a->v + i, a->v + i + 1, (size_t)(a->n - i - 1) * sizeof *a->v);
        a->n--;
    }
}

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

/* V's score in graph G.  The fill is not counted for a clique over
 * MAX_ENTRIES (it cannot be eliminated anyway, and a variable with
 * thousands of neighbours would cost millions of lookups). */
static score
score_of(const adj *g, const int *card, int v, int stamp, double max_entries)
{
    score s;
    int i, j;

    s.v = v;
    s.stamp = stamp;
    s.fill = 0;
    s.size = card[v];
    for (i = 0; i < g[v].n; i++)
        s.size *= card[g[v].v[i]];
    if (s.size > max_entries || g[v].n >= FGM_ETAB_MAXVARS) {
        s.fill = LONG_MAX;
        return s;
    }
    for (i = 0; i < g[v].n; i++)
        for (j = i + 1; j < g[v].n; j++)
            s.fill += !adj_has(&g[g[v].v[i]], g[v].v[j]);
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

/* The interaction graph: an edge between any two variables of a scope. */
static int
build_graph(adj *g, const int *scope_off, const int *scopes, int nscopes)
{
    int f, i, j;

    for (f = 0; f < nscopes; f++)
        for (i = scope_off[f]; i < scope_off[f + 1]; i++)
            for (j = scope_off[f]; j < scope_off[f + 1]; j++)
                if (scopes[i] != scopes[j]
                    && adj_add(&g[scopes[i]], scopes[j]) < 0)
                    return -1;
    return 0;
}

/* Eliminates V from G: its clique (V and its neighbours, ascending) is
 * appended to T's, its neighbours joined pairwise, V removed from them.
 * *NCLIQUE counts the entries of T->clique so far, *CAP its room. */
static fgm_status
eliminate_one(adj *g, int v, fgm_elim_tree *t, int *nclique, int *cap)
{
    int i, j, need = *nclique + g[v].n + 1, at;

    if (need > *cap) {
        int c = need > 2 * *cap ? need : 2 * *cap;
        int *p = realloc(t->clique, (size_t)c * sizeof *p);

        if (!p)
            return FGM_ENOMEM;
        t->clique = p;
        *cap = c;
    }
    at = *nclique + adj_find(&g[v], v);     /* v's place, ascending */
    if (g[v].n > 0)     /* (an isolated variable has no list at all) */
        memcpy(t->clique + *nclique, g[v].v,
               (size_t)g[v].n * sizeof *g[v].v);
    memmove(t->clique + at + 1, t->clique + at,
            (size_t)(need - 1 - at) * sizeof *t->clique);
    t->clique[at] = v;
    *nclique = need;
    for (i = 0; i < g[v].n; i++)
        for (j = 0; j < g[v].n; j++)
            if (i != j && adj_add(&g[g[v].v[i]], g[v].v[j]) < 0)
                return FGM_ENOMEM;
    for (i = 0; i < g[v].n; i++)
        adj_del(&g[g[v].v[i]], v);
    return FGM_OK;
}

/* New scores, after V's elimination at step K, for the variables whose
 * fill it can change: V's neighbours (new neighbours) and theirs (an
 * edge added between two of their neighbours).  SEEN marks each once a
 * step. */
static fgm_status
rescore(const adj *g, const int *card, int v, int k, int *stamp, int *seen,
        heap *h, double max_entries)
{
    int i, j, u, w;

    for (i = 0; i < g[v].n; i++)
        for (j = -1, u = g[v].v[i]; j < g[u].n; j++) {
            w = j < 0 ? u : g[u].v[j];
            if (seen[w] == k + 1 || stamp[w] < 0)
                continue;
            seen[w] = k + 1;
            if (heap_push(h, score_of(g, card, w, ++stamp[w], max_entries))
                < 0)
                return FGM_ENOMEM;
        }
    return FGM_OK;
}

fgm_status
fgm_elim_order(int nvars, const int *card, const int *scope_off,
               const int *scopes, int nscopes, double max_entries,
               fgm_elim_tree *t)
{
    adj *g = calloc((size_t)nvars + 1, sizeof *g);
    int *stamp = calloc((size_t)nvars + 1, sizeof *stamp);
    int *seen = calloc((size_t)nvars + 1, sizeof *seen);
    heap h = { NULL, 0, 0 };
    fgm_status st = FGM_OK;
    int v, k, i, nclique = 0, cap = 0;
    score s;

    memset(t, 0, sizeof *t);
    t->nvars = nvars;
    t->order = malloc(((size_t)nvars + 1) * sizeof *t->order);
    t->pos = malloc(((size_t)nvars + 1) * sizeof *t->pos);
    t->parent = malloc(((size_t)nvars + 1) * sizeof *t->parent);
    t->clique_off = malloc(((size_t)nvars + 1) * sizeof *t->clique_off);
    if (!g || !stamp || !seen || !t->order || !t->pos || !t->parent || !t->clique_off
        || build_graph(g, scope_off, scopes, nscopes) < 0) {
        st = FGM_ENOMEM;
        goto out;
    }
    for (v = 0; v < nvars && st == FGM_OK; v++)
        if (heap_push(&h, score_of(g, card, v, 0, max_entries)) < 0)
            st = FGM_ENOMEM;
    for (k = 0; k < nvars && st == FGM_OK; k++) {
        do
            s = heap_pop(&h);
        while (s.stamp != stamp[s.v]);
        v = s.v;
        stamp[v] = -1;      /* eliminated: every later entry is stale */
        if (s.fill == LONG_MAX
            || (t->entries += s.size) > 4.0 * max_entries) {
            st = FGM_EUNSUPPORTED;
            break;
        }
        t->largest = s.size > t->largest ? s.size : t->largest;
        t->width = g[v].n + 1 > t->width ? g[v].n + 1 : t->width;
        t->order[k] = v;
        t->pos[v] = k;
        t->clique_off[k] = nclique;
        st = eliminate_one(g, v, t, &nclique, &cap);
        if (st == FGM_OK)
            st = rescore(g, card, v, k, stamp, seen, &h, max_entries);
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
    for (v = 0; g && v < nvars; v++)
        free(g[v].v);
    free(g);
    free(stamp);
    free(seen);
    free(h.s);
    if (st != FGM_OK)
        fgm_elim_tree_free(t);
    return st;
}
