/* runtime/schedule_tree.c: the sequential schedule of a tree-shaped model.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On a factor graph without cycles, sum- and max-product are exact once
 * every message has been computed from exact ones: leaves to roots, then
 * roots to leaves.  A sequential sweep in statement order gets there only
 * after about as many sweeps as the longest path (a 100-step chain was
 * still wrong after the default 50).  So a forest's sweep runs its
 * updates twice: by breadth-first level from the deepest up, then from
 * the roots down.  After the upward pass every message toward a root is
 * exact (it reads a subtree whose messages are); the downward pass then
 * makes the others exact (each reads its parent's, already done, and its
 * siblings' upward ones): one sweep, whatever the depth.  The second
 * entry of a factor reuses the first's edges: one factor, two updates.
 *
 * The graph: variables, factor updates, and under EP each Dirichlet node
 * a vertex of its own (its draws share it: the dice model is a star);
 * under BP a Dirichlet factor only sends its prior's mean, a unary
 * message.  Any cycle -- Sudoku's pairs, an alldiff over three cells of a
 * chain, a factor naming a variable twice -- keeps the schedule as it is,
 * as does a flooding one (it reads the last sweep's messages whatever
 * the order).
 *
 * requires: lowered factors and edge_var (before index_edges); produces:
 * the factors in tree order, each twice on a forest but for those alone
 * in their tree; breaks: one entry per factor (the two entries share
 * edges, dfac and ir_factor).
 */
#include <stdlib.h>
#include "schedule.h"

/* Union-find root of X (path halving). */
static int
uf_find(int *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* The graph vertex of scope position J of schedule factor F (a variable),
 * or past the scope under EP the Dirichlet nodes of a Dirichlet factor
 * (a gated one's, one a value of its gate); -1 past the factor's
 * vertices. */
static int
vertex(const fgm_sched *s, const fgm_sched_factor *f, int j)
{
    int nodes = f->op == FGM_OP_DIRICHLET ? 1
                : f->op == FGM_OP_DIRICHLET_GATED
                ? fgm_ir_gated_nodes(s->ir, &s->ir->factors[f->ir_factor])
                : 0;

    if (j < f->arity)
        return s->edge_var[f->edge + j];
    if (j - f->arity < nodes && s->infer.algo == FGM_ALGO_EP)
        return s->nvars + f->aux + j - f->arity;
    return -1;
}

/* Whether S's factor graph has no cycle.  PARENT: scratch of NV ints. */
static int
is_forest(const fgm_sched *s, int *parent, int nv)
{
    int i, j, x, f, root;

    for (i = 0; i < nv; i++)
        parent[i] = i;
    for (i = 0; i < s->nfactors; i++) {
        f = nv - s->nfactors + i;           /* the factor's own vertex */
        for (j = 0; (x = vertex(s, &s->factors[i], j)) >= 0; j++) {
            root = uf_find(parent, x);
            if (root == uf_find(parent, f))
                return 0;
            parent[root] = uf_find(parent, f);
        }
    }
    return 1;
}

/* LEVEL[i]: breadth-first depth of factor i from the lowest-numbered
 * vertex of its tree.  OFF/ADJ: each variable or node vertex's factors
 * (NVX vertices); QUEUE: NVX ints; SEEN: NVX flags. */
static void
levels(const fgm_sched *s, const int *off, const int *adj, int nvx,
       int *level, int *queue, unsigned char *seen, int *vlevel)
{
    int r, head, tail, x, k, f, j, y;

    for (f = 0; f < s->nfactors; f++)
        level[f] = -1;
    for (r = 0; r < nvx; r++) {
        if (seen[r])
            continue;
        seen[r] = 1;
        vlevel[r] = 0;
        head = tail = 0;
        queue[tail++] = r;
        while (head < tail) {
            x = queue[head++];
            for (k = off[x]; k < off[x + 1]; k++) {
                f = adj[k];
                if (level[f] >= 0)
                    continue;
                level[f] = vlevel[x];
                for (j = 0; (y = vertex(s, &s->factors[f], j)) >= 0; j++)
                    if (!seen[y]) {
                        seen[y] = 1;
                        vlevel[y] = vlevel[x] + 1;
                        queue[tail++] = y;
                    }
            }
        }
    }
}

/* Whether factor F is alone in its tree: none of its vertices has
 * another factor (OFF: each vertex's factors, as in levels). */
static int
alone(const fgm_sched *s, const int *off, const fgm_sched_factor *f)
{
    int j, x;

    for (j = 0; (x = vertex(s, f, j)) >= 0; j++)
        if (off[x + 1] - off[x] > 1)
            return 0;
    return 1;
}

/* Sort key of an update: its level, then its operator (runs of one
 * operator stay long), then its place. */
typedef struct tree_key {
    int level, op, index;
} tree_key;

static int
key_cmp(const void *a, const void *b)
{
    const tree_key *x = a, *y = b;

    if (x->level != y->level)
        return x->level < y->level ? -1 : 1;
    if (x->op != y->op)
        return x->op < y->op ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

int
fgm_sched_tree_order(fgm_sched *s)
{
    int nvx = s->nvars + (s->infer.algo == FGM_ALGO_EP ? s->ndirichlet : 0);
    int nv = nvx + s->nfactors, n = s->nfactors, i, j, x, ok = 0;
    int *parent = NULL, *off = NULL, *adj = NULL, *level = NULL;
    int *queue = NULL, *vlevel = NULL;
    unsigned char *seen = NULL;
    tree_key *keys = NULL;
    fgm_sched_factor *nf = NULL;

    /* A sampler and mean field visit variables, not factors. */
    if (s->infer.schedule != FGM_SCHEDULE_SEQUENTIAL || n < 2
        || fgm_algo_by_variable(s->infer.algo))
        return 1;
    parent = malloc((size_t)nv * sizeof *parent);
    off = calloc((size_t)nvx + 1, sizeof *off);
    level = malloc((size_t)n * sizeof *level);
    queue = malloc(((size_t)nvx + 1) * sizeof *queue);
    vlevel = malloc(((size_t)nvx + 1) * sizeof *vlevel);
    seen = calloc((size_t)nvx + 1, 1);
    keys = malloc((size_t)n * sizeof *keys);
    nf = malloc(2 * (size_t)n * sizeof *nf);
    if (!parent || !off || !level || !queue || !vlevel || !seen || !keys
        || !nf)
        goto done;
    ok = 1;
    if (!is_forest(s, parent, nv))
        goto done;
    /* Each vertex's factors, by counting sort. */
    for (i = 0; i < n; i++)
        for (j = 0; (x = vertex(s, &s->factors[i], j)) >= 0; j++)
            off[x + 1]++;
    for (x = 0; x < nvx; x++)
        off[x + 1] += off[x];
    adj = malloc(((size_t)off[nvx] + 1) * sizeof *adj);
    if (!adj) {
        ok = 0;
        goto done;
    }
    for (x = 0; x < nvx; x++)
        queue[x] = off[x];
    for (i = 0; i < n; i++)
        for (j = 0; (x = vertex(s, &s->factors[i], j)) >= 0; j++)
            adj[queue[x]++] = i;
    levels(s, off, adj, nvx, level, queue, seen, vlevel);
    for (i = 0; i < n; i++) {
        keys[i].level = level[i];
        keys[i].op = (int)s->factors[i].op;
        keys[i].index = i;
    }
    qsort(keys, (size_t)n, sizeof *keys, key_cmp);
    /* Upward: the deepest level first; downward: the roots' first, but
     * for a factor alone in its tree, exact at its first update (it reads
     * only unary messages).  Within a level no update reads another's
     * message (a factor's parent vertex lies one level up, its children
     * one down). */
    for (i = 0; i < n; i++)
        nf[i] = s->factors[keys[n - 1 - i].index];
    for (j = n, i = 0; i < n; i++)
        if (!alone(s, off, &s->factors[keys[i].index]))
            nf[j++] = s->factors[keys[i].index];
    free(s->factors);
    s->factors = nf;
    s->nfactors = j;
    nf = NULL;
done:
    free(parent);
    free(off);
    free(adj);
    free(level);
    free(queue);
    free(vlevel);
    free(seen);
    free(keys);
    free(nf);
    return ok;
}
