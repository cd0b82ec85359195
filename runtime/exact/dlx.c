/* runtime/exact/dlx.c: Dancing Links exact cover (solve, count, marginals).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Knuth's Algorithm X with dancing links (D. E. Knuth, "Dancing Links",
 * Millennial Perspectives in Computer Science, 2000; arXiv cs/0011047).
 * An alldiff of n variables over n values says: each variable takes one
 * value, and each value occurs once in the unit.  So the model is an exact
 * cover problem:
 *
 *   columns  one per variable ("v has a value"), and one per (unit, value)
 *            ("value occurs in the unit");
 *   rows     one per (variable, value) allowed by unary evidence; row (v, a)
 *            covers column v and column (u, a) for every unit u holding v.
 *
 * A solution is a set of rows covering every column exactly once.  The search
 * picks the column with the fewest rows (Knuth's "S heuristic"), covers it,
 * and tries each of its rows in turn.  Clues are rows selected before the
 * search starts; two clues that share a column conflict.
 *
 * Links are int indices into one node array, not pointers, and the column
 * sizes live in the header nodes, so the template built once per workspace
 * is restored with one memcpy per run (about 78 KB for 9x9).  A run that
 * stops early (first solution, cap, deadline) returns without uncovering:
 * the next run restores the template anyway.
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "dlx.h"
#include "../solve/solver.h"

/* One node: links left, right, up, down and its column.  A row node knows
 * its row; a column header counts the rows left in its column (so the
 * choice of column reads one cache line per header). */
struct node {
    int l, r, u, d, c;
    union {
        int row;
        int size;
    };
};

struct fgm_dlx {
    const fgm_csp *csp;
    int ncols;          /* columns are nodes 1..ncols; node 0 is the root */
    int nnodes;         /* root + headers + row nodes */
    int nrows;
    struct node *nd;    /* nnodes */
    unsigned char *covered; /* ncols + 1: column covered by a clue */
    struct node *t_nd;  /* the template of nd */
    int *row_var, *row_val, *row_node;  /* nrows: variable, value, a node */
    int *row_of;        /* nvars * maxcard: row of (v, a) or -1 */
    int *stack;         /* nvars: one node per chosen row */
    long *hits;         /* nrows: solutions using each row */
    /* The current run. */
    fgm_solve_job *job; /* polls the job's deadline when not NULL */
    double deadline;
    long max_nodes;
    unsigned tick;
    long cap, count, nodes;
    long rows_tried;    /* rows selected: the solve's decisions */
    long dead_ends;     /* columns found with no row: contradictions */
    int expired;
    int want_hits;
    int *first;         /* where the first solution goes, or NULL */
};

/* -------------------------------------------------------------------------
 * Model check
 * ----------------------------------------------------------------------- */

static const char not_cover[] =
    "dlx needs every constraint to be an alldiff of n variables over n "
    "values (an exact-cover model)";
static const char no_unit[] =
    "dlx needs every variable to lie in an alldiff of n variables over n "
    "values (an exact-cover model)";
/* search() recurses once a chosen row, one per variable. */
#define DLX_STR(x) DLX_STR2(x)
#define DLX_STR2(x) #x
static const char too_deep[] =
    "dlx searches at most " DLX_STR(FGM_EXACT_MAXVARS) " variables "
    "(FGM_EXACT_MAXVARS)";

const char *
fgm_dlx_refuses(const fgm_csp *csp)
{
    const fgm_ir *ir;
    int i, j, k, v;

    if (!csp)
        return "no model";
    if (csp->nvars > FGM_EXACT_MAXVARS)
        return too_deep;
    ir = csp->ir;
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, f);

        /* Soft factors restrict nothing (zero evidence weights are already
         * out of csp->full); a Dirichlet prior has full support. */
        if (f->kind == FGM_FACTOR_EVIDENCE
            || f->kind == FGM_FACTOR_DIRICHLET_DISCRETE)
            continue;
        if (f->kind != FGM_FACTOR_ALLDIFF)
            return not_cover;
        for (j = 0; j < f->arity; j++) {
            if (csp->card[s[j]] != f->arity)
                return not_cover;
            /* arity == card <= 64, so the quadratic check is cheap */
            for (k = 0; k < j; k++)
                if (s[k] == s[j])
                    return not_cover;
        }
    }
    for (v = 0; v < csp->nvars; v++)
        if (csp->var_unit_off[v] == csp->var_unit_off[v + 1])
            return no_unit;
    return NULL;
}

/* -------------------------------------------------------------------------
 * Building the template
 * ----------------------------------------------------------------------- */

void
fgm_dlx_free(fgm_dlx *d)
{
    if (!d)
        return;
    free(d->nd);
    free(d->covered);
    free(d->t_nd);
    free(d->row_var);
    free(d->row_val);
    free(d->row_node);
    free(d->row_of);
    free(d->stack);
    free(d->hits);
    free(d);
}

/* Column of (unit U, value A): unit columns follow the variable columns,
 * and unit_off is the prefix sum of arities, which equal the cards. */
static int
unit_col(const fgm_csp *csp, int unit, int a)
{
    return 1 + csp->nvars + csp->unit_off[unit] + a;
}

/* Appends NODE at the bottom of column C. */
static void
append(fgm_dlx *x, int node, int c)
{
    x->nd[node].c = c;
    x->nd[node].u = x->nd[c].u;
    x->nd[node].d = c;
    x->nd[x->nd[c].u].d = node;
    x->nd[c].u = node;
    x->nd[c].size++;
}

/* Links the root, headers and rows; then saves the template. */
static void
build(fgm_dlx *x)
{
    const fgm_csp *csp = x->csp;
    int c, v, a, k, row = 0, node = x->ncols + 1;

    for (c = 0; c <= x->ncols; c++) {
        x->nd[c].l = c == 0 ? x->ncols : c - 1;
        x->nd[c].r = c == x->ncols ? 0 : c + 1;
        x->nd[c].u = x->nd[c].d = c;
        x->nd[c].c = c;
        x->nd[c].size = 0;
    }
    for (v = 0; v < csp->nvars; v++) {
        for (a = 0; a < csp->maxcard; a++)
            x->row_of[v * csp->maxcard + a] = -1;
        for (a = 0; a < csp->card[v]; a++) {
            int start = node;

            if (!(csp->full[v] & FGM_DOM_BIT(a)))
                continue;
            x->row_of[v * csp->maxcard + a] = row;
            x->row_var[row] = v;
            x->row_val[row] = a;
            x->row_node[row] = start;
            append(x, node++, 1 + v);
            for (k = csp->var_unit_off[v]; k < csp->var_unit_off[v + 1]; k++)
                append(x, node++, unit_col(csp, csp->var_units[k], a));
            for (k = start; k < node; k++) {
                x->nd[k].l = k == start ? node - 1 : k - 1;
                x->nd[k].r = k == node - 1 ? start : k + 1;
                x->nd[k].row = row;
            }
            row++;
        }
    }
    memcpy(x->t_nd, x->nd, (size_t)x->nnodes * sizeof *x->nd);
}

fgm_dlx *
fgm_dlx_new(const fgm_csp *csp, fgm_status *status)
{
    fgm_dlx *x;
    fgm_status ignored;
    size_t nn, nc, nr, nv;
    int v, k;

    if (!status)
        status = &ignored;
    if (!csp) {
        *status = FGM_EINVAL;
        return NULL;
    }
    nv = (size_t)csp->nvars + 1;
    if (fgm_dlx_refuses(csp)) {
        *status = FGM_EUNSUPPORTED;
        return NULL;
    }
    *status = FGM_ENOMEM;
    x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->csp = csp;
    x->ncols = csp->nvars + csp->unit_off[csp->nunits];
    x->nnodes = 1 + x->ncols;
    for (v = 0; v < csp->nvars; v++) {
        k = fgm_dom_count(csp->full[v]);
        x->nrows += k;
        x->nnodes += k * (1 + csp->var_unit_off[v + 1]
                          - csp->var_unit_off[v]);
    }
    nn = (size_t)x->nnodes;
    nc = (size_t)x->ncols + 1;
    nr = (size_t)x->nrows + 1;
    x->nd = malloc(nn * sizeof *x->nd);
    x->covered = malloc(nc);
    x->t_nd = malloc(nn * sizeof *x->t_nd);
    x->row_var = malloc(nr * sizeof *x->row_var);
    x->row_val = malloc(nr * sizeof *x->row_val);
    x->row_node = malloc(nr * sizeof *x->row_node);
    x->row_of = malloc((nv * (size_t)csp->maxcard + 1) * sizeof *x->row_of);
    x->stack = malloc(nv * sizeof *x->stack);
    x->hits = malloc(nr * sizeof *x->hits);
    if (!x->nd || !x->covered || !x->t_nd || !x->row_var || !x->row_val
        || !x->row_node || !x->row_of || !x->stack || !x->hits) {
        fgm_dlx_free(x);
        return NULL;
    }
    build(x);
    *status = FGM_OK;
    return x;
}

/* -------------------------------------------------------------------------
 * The search
 * ----------------------------------------------------------------------- */

/* Restores the links, sizes and clue marks of the template. */
static void
reset(fgm_dlx *x)
{
    memcpy(x->nd, x->t_nd, (size_t)x->nnodes * sizeof *x->nd);
    memset(x->covered, 0, (size_t)x->ncols + 1);
}

/* Removes column C from the header list and every row meeting C from the
 * other columns (Knuth's cover). */
static void
cover(fgm_dlx *x, int c)
{
    struct node *n = x->nd;
    int i, j;

    n[n[c].l].r = n[c].r;
    n[n[c].r].l = n[c].l;
    for (i = n[c].d; i != c; i = n[i].d)
        for (j = n[i].r; j != i; j = n[j].r) {
            n[n[j].u].d = n[j].d;
            n[n[j].d].u = n[j].u;
            n[n[j].c].size--;
        }
}

/* Undoes cover(C), in the reverse order. */
static void
uncover(fgm_dlx *x, int c)
{
    struct node *n = x->nd;
    int i, j;

    for (i = n[c].u; i != c; i = n[i].u)
        for (j = n[i].l; j != i; j = n[j].l) {
            n[n[j].c].size++;
            n[n[j].u].d = j;
            n[n[j].d].u = j;
        }
    n[n[c].l].r = c;
    n[n[c].r].l = c;
}

/* Selects the clue rows, pushing them on the stack (*K of them).  Returns 0
 * when two clues share a column or a clue is outside its domain. */
static int
place_clues(fgm_dlx *x, const int *given, int *k)
{
    const fgm_csp *csp = x->csp;
    int v, j;

    *k = 0;
    if (!given)
        return 1;
    for (v = 0; v < csp->nvars; v++) {
        int row, node;

        if (given[v] < 0)
            continue;
        row = x->row_of[v * csp->maxcard + given[v]];
        if (row < 0)
            return 0;
        node = x->row_node[row];
        j = node;
        do {
            if (x->covered[x->nd[j].c])
                return 0;
            j = x->nd[j].r;
        } while (j != node);
        do {
            cover(x, x->nd[j].c);
            x->covered[x->nd[j].c] = 1;
            j = x->nd[j].r;
        } while (j != node);
        x->stack[(*k)++] = node;
    }
    return 1;
}

/* Whether the run must give up (deadline or node budget). */
static int
expired(fgm_dlx *x)
{
    if (x->max_nodes > 0 && x->nodes > x->max_nodes)
        return 1;
    if (x->job)
        return fgm_job_expired(x->job);
    if (x->deadline > 0 && (++x->tick & 255u) == 0)
        return fgm_now() > x->deadline;
    return 0;
}

/* Records the solution held by the K rows of the stack.  Returns 1 when the
 * run should stop (cap reached). */
static int
record(fgm_dlx *x, int k)
{
    int i;

    x->count++;
    if (x->want_hits)
        for (i = 0; i < k; i++)
            x->hits[x->nd[x->stack[i]].row]++;
    if (x->count == 1 && x->first)
        for (i = 0; i < k; i++) {
            int row = x->nd[x->stack[i]].row;

            x->first[x->row_var[row]] = x->row_val[row];
        }
    return x->cap > 0 && x->count >= x->cap;
}

/* search(k) := solved(k) | choose c; cover c; for each row r of c:
 *              select r; search(k + 1); unselect r.
 * Returns 1 when the run stops early (cap reached or gave up). */
static int
search(fgm_dlx *x, int k)
{
    int c, i, j, best = 0, min;

    x->nodes++;
    if (expired(x)) {
        x->expired = 1;
        return 1;
    }
    if (x->nd[0].r == 0)
        return record(x, k);
    min = -1;
    for (c = x->nd[0].r; c != 0; c = x->nd[c].r)
        if (min < 0 || x->nd[c].size < min) {
            min = x->nd[c].size;
            best = c;
            if (min <= 1)
                break;
        }
    if (min == 0) {
        x->dead_ends++;
        return 0;
    }
    cover(x, best);
    for (i = x->nd[best].d; i != best; i = x->nd[i].d) {
        x->stack[k] = i;
        x->rows_tried++;
        for (j = x->nd[i].r; j != i; j = x->nd[j].r)
            cover(x, x->nd[j].c);
        if (search(x, k + 1))
            return 1;   /* left covered: the next run resets */
        for (j = x->nd[i].l; j != i; j = x->nd[j].l)
            uncover(x, x->nd[j].c);
    }
    uncover(x, best);
    return 0;
}

/* Runs one search with the limits already set in X.  Returns 1 when the
 * clues are consistent (the search ran), 0 when they conflict. */
static int
run(fgm_dlx *x, const int *given)
{
    int k;

    x->count = 0;
    x->nodes = 0;
    x->rows_tried = 0;
    x->dead_ends = 0;
    x->tick = 0;
    x->expired = 0;
    reset(x);
    if (x->want_hits)
        memset(x->hits, 0, ((size_t)x->nrows + 1) * sizeof *x->hits);
    if (!place_clues(x, given, &k))
        return 0;
    search(x, k);
    return 1;
}

fgm_status
fgm_dlx_run(fgm_dlx *x, const int *given, const fgm_dlx_limits *lim,
            long *count, double *marginals, int *first, long *nodes)
{
    const fgm_csp *csp;
    int row;

    if (!x || !count || (lim && !(lim->deadline >= 0.0)))
        return FGM_EINVAL;
    csp = x->csp;
    *count = 0;
    if (nodes)
        *nodes = 0;
    if (!fgm_csp_given_ok(csp, given))
        return FGM_EINVAL;
    x->job = NULL;
    x->cap = lim ? lim->cap : 0;
    x->deadline = lim ? lim->deadline : 0;
    x->max_nodes = lim ? lim->max_nodes : 0;
    x->want_hits = marginals != NULL;
    x->first = first;
    run(x, given);
    *count = x->count;
    if (nodes)
        *nodes = x->nodes;
    if (marginals) {
        size_t n = (size_t)csp->nvars * (size_t)csp->maxcard;

        memset(marginals, 0, n * sizeof *marginals);
        if (x->count > 0)
            for (row = 0; row < x->nrows; row++)
                marginals[x->row_var[row] * csp->maxcard + x->row_val[row]]
                    = (double)x->hits[row] / (double)x->count;
    }
    return x->expired ? FGM_ETIMEOUT : FGM_OK;
}

fgm_status
fgm_dlx_count(const fgm_csp *csp, const int *given, long cap,
              double deadline, long *count, double *marginals)
{
    fgm_dlx_limits lim = { cap, deadline, 0 };
    fgm_status st;
    fgm_dlx *x = fgm_dlx_new(csp, &st);

    *count = 0;
    if (!x)
        return st;
    st = fgm_dlx_run(x, given, &lim, count, marginals, NULL, NULL);
    fgm_dlx_free(x);
    return st;
}

/* -------------------------------------------------------------------------
 * The solver descriptor
 * ----------------------------------------------------------------------- */

static void *
dlx_ws_new(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    /* fgm_dlx_refuses turned away what it cannot cover: a failure here
     * is one of memory, *ST as the caller set it. */
    fgm_status unused;

    (void)opts;
    (void)st;
    return fgm_dlx_new(csp, &unused);
}

static void
dlx_ws_free(void *ws)
{
    fgm_dlx_free(ws);
}

/* Finds the first solution; polls the job's deadline. */
static fgm_status
dlx_solve(fgm_solve_job *job)
{
    fgm_dlx *x = job->ws;
    const fgm_csp *csp = job->csp;
    int v, placed;

    if (job->given)
        for (v = 0; v < csp->nvars; v++)
            if (job->given[v] >= csp->card[v])
                return FGM_EUNSOLVED;
    x->job = job;
    x->cap = 1;
    x->deadline = 0;
    x->max_nodes = 0;
    x->want_hits = 0;
    x->first = job->solution;
    placed = run(x, job->given);
    x->job = NULL;
    job->stats.nodes += x->nodes;
    job->stats.decisions += x->rows_tried;
    job->stats.contradictions += x->dead_ends;
    if (!placed)
        return FGM_EUNSOLVED;
    if (x->expired)
        return FGM_ETIMEOUT;
    return x->count > 0 ? FGM_OK : FGM_EUNSOLVED;
}

const fgm_solver fgm_solver_dlx = {
    "dlx",
    "Dancing Links exact cover (Knuth's Algorithm X); also counts solutions",
    FGM_SOLVER_EXACT,
    fgm_dlx_refuses,
    dlx_ws_new,
    dlx_ws_free,
    dlx_solve,
};
