/* runtime/schedule.c: lower an IR to its message schedule (see schedule.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * requires: a valid IR; produces: factors, edges, per-variable edge lists,
 * static evidence; breaks: nothing (the IR is only read).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedule.h"

static const char *const op_names[] = { "neq", "table", "dirichlet",
                                        "alldiff", "dirichlet_gated", "sum" };

const char *
fgm_sched_op_name(fgm_op op)
{
    if ((unsigned)op >= FGM_COUNTOF(op_names))
        return "?";
    return op_names[op];
}

void
fgm_sched_free(fgm_sched *s)
{
    if (!s)
        return;
    free(s->card);
    free(s->evidence);
    free(s->evidence_log);
    free(s->factors);
    free(s->edge_var);
    free(s->var_edge_off);
    free(s->var_edges);
    free(s->edge_factor);
    free(s->gibbs_fac);
    free(s);
}

/* The sampler's operators are numbered as the schedule's (plugins see
 * only ops/gibbs.h). */
_Static_assert(FGM_K_OP_NEQ == (int)FGM_OP_NEQ
               && FGM_K_OP_TABLE == (int)FGM_OP_TABLE
               && FGM_K_OP_DIRICHLET == (int)FGM_OP_DIRICHLET
               && FGM_K_OP_ALLDIFF == (int)FGM_OP_ALLDIFF
               && FGM_K_OP_GATED == (int)FGM_OP_DIRICHLET_GATED
               && FGM_K_OP_SUM == (int)FGM_OP_SUM,
               "ops/gibbs.h numbers the operators as fgm_op");
_Static_assert(FGM_K_GIBBS_SUM_COEF == FGM_IR_SUM_COEF,
               "ops/gibbs.h finds a sum's coefficients where ir.h puts "
               "them");

/* The tables of S->gibbs (a gibbs or vmp schedule): each edge's factor
 * and each factor's operator, arity, first edge and aux.  Returns 0 when
 * out of memory. */
static int
gibbs_tables(fgm_sched *s)
{
    fgm_k_gibbs_graph *g = &s->gibbs;
    int i, j, *f;

    s->edge_factor = malloc(((size_t)s->nedges + 1) * sizeof *s->edge_factor);
    s->gibbs_fac = malloc(((size_t)s->nfactors + 1) * FGM_K_GIBBS_FAC
                          * sizeof *s->gibbs_fac);
    if (!s->edge_factor || !s->gibbs_fac)
        return 0;
    for (i = 0; i < s->nfactors; i++) {
        const fgm_sched_factor *sf = &s->factors[i];

        f = s->gibbs_fac + (size_t)i * FGM_K_GIBBS_FAC;
        f[0] = (int)sf->op;
        f[1] = sf->arity;
        f[2] = sf->edge;
        f[3] = sf->aux;
        for (j = 0; j < sf->arity; j++)
            s->edge_factor[sf->edge + j] = i;
    }
    g->nvars = s->nvars;
    g->nfactors = s->nfactors;
    g->stride = s->stride;
    g->k = s->uniform_card;
    g->ndirichlet = s->ndirichlet;
    g->card = s->uniform_card ? NULL : s->card;
    g->var_edge_off = s->var_edge_off;
    g->var_edges = s->var_edges;
    g->edge_var = s->edge_var;
    g->edge_factor = s->edge_factor;
    g->fac = s->gibbs_fac;
    g->pool = s->ir->param_pool;
    return 1;
}

/* A set of unordered variable pairs (open addressing), so that a pair
 * constrained by two alldiffs (same row and same box) is one neq. */
typedef struct pairset {
    uint64_t *keys;     /* 0 = empty; key = (a+1) << 32 | (b+1), a < b */
    size_t cap;
} pairset;

/* Adds {A, B}; returns 1 if it was new, 0 if present, -1 on no memory. */
static int
pair_add(pairset *ps, int a, int b)
{
    uint64_t key;
    size_t i;

    if (a > b) {
        int t = a;

        a = b;
        b = t;
    }
    key = (uint64_t)(a + 1) << 32 | (uint64_t)(b + 1);
    i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (ps->cap - 1);
    while (ps->keys[i] != 0) {
        if (ps->keys[i] == key)
            return 0;
        i = (i + 1) & (ps->cap - 1);
    }
    ps->keys[i] = key;
    return 1;
}

/* Appends one schedule factor over SCOPE, with NDIR rows of Dirichlet
 * messages; grows the arrays as needed. */
static int
add_factor(fgm_sched *s, int *fcap, int *ecap, fgm_op op, int arity,
           const int *scope, int aux, int ndir, int ir_factor)
{
    fgm_sched_factor *f;
    int i;

    if (s->nfactors == *fcap) {
        int n = *fcap ? 2 * *fcap : 64;
        fgm_sched_factor *q = realloc(s->factors, (size_t)n * sizeof *q);

        if (!q)
            return 0;
        s->factors = q;
        *fcap = n;
    }
    while (s->nedges + arity > *ecap) {
        int n = *ecap ? 2 * *ecap : 128;
        int *q = realloc(s->edge_var, (size_t)n * sizeof *q);

        if (!q)
            return 0;
        s->edge_var = q;
        *ecap = n;
    }
    f = &s->factors[s->nfactors++];
    f->op = op;
    f->arity = arity;
    f->edge = s->nedges;
    f->aux = aux;
    f->dfac = ndir > 0 ? s->ndirfactors : -1;
    s->ndirfactors += ndir;
    f->ir_factor = ir_factor;
    for (i = 0; i < arity; i++)
        s->edge_var[s->nedges++] = scope[i];
    return 1;
}

/* Folds EVIDENCE factors into s->evidence (one vector per variable). */
static int
fold_evidence(fgm_sched *s, const fgm_ir *ir)
{
    double sum;
    int v, i, j;

    s->evidence = malloc((size_t)s->nvars * (size_t)s->stride
                         * sizeof *s->evidence + 1);
    s->evidence_log = calloc((size_t)s->nvars + 1, sizeof *s->evidence_log);
    if (!s->evidence || !s->evidence_log)
        return 0;
    for (v = 0; v < s->nvars; v++)
        for (j = 0; j < s->stride; j++)
            s->evidence[(size_t)v * s->stride + j] = j < s->card[v] ? 1.0
                                                                    : 0.0;
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const double *p = fgm_ir_params(ir, f);
        double *e;

        if (f->kind != FGM_FACTOR_EVIDENCE)
            continue;
        v = fgm_ir_scope(ir, f)[0];
        e = s->evidence + (size_t)v * s->stride;
        sum = 0.0;
        for (j = 0; j < s->card[v]; j++)
            sum += e[j] *= p[j];
        /* Statements that rule out every value leave zeros, which the run
         * reports as a contradiction: normalized, they became a uniform
         * row (fgm_k_normalize's fallback) and passed for no evidence. */
        for (j = 0; sum > 0.0 && j < s->card[v]; j++)
            e[j] /= sum;
        s->evidence_log[v] += log(sum);
    }
    return 1;
}

/* Whether IR's algorithm has no operator for factor F, with the reason
 * in WHY (SIZE bytes; WHY may be NULL): the neq kernel and the native
 * alldiff run over one domain size, a native alldiff needs as many
 * values as variables and, for sum-product, at most
 * FGM_K_ALLDIFF_SUM_MAXK of them (the subset DP's 2^(K+1) doubles), a
 * table at most FGM_K_TABLE_MAXARITY variables.  lower_factors refuses
 * what this refuses, and fgm_sched_unsupported says why. */
static int
factor_unsupported(const fgm_ir *ir, const fgm_ir_factor *f, char *why,
                   size_t size)
{
    const char *algo = fgm_ir_algo_name(ir->infer.algo);
    const int *sc = fgm_ir_scope(ir, f);
    int j, n = f->arity, k = n > 0 ? fgm_ir_card(ir, sc[0]) : 0;
    int native = f->kind == FGM_FACTOR_ALLDIFF
                 && ir->infer.alldiff == FGM_ALLDIFF_NATIVE;

    switch (f->kind) {
    case FGM_FACTOR_NEQ:
    case FGM_FACTOR_ALLDIFF:
        for (j = 1; j < n; j++)
            if (fgm_ir_card(ir, sc[j]) != k) {
                snprintf(why, size, "its variables' domains differ in size "
                         "(%d and %d values), which the %s operator cannot "
                         "take", k, fgm_ir_card(ir, sc[j]),
                         native ? "alldiff" : "!=");
                return 1;
            }
        if (native && n > k) {
            snprintf(why, size, "%d variables cannot take distinct values "
                     "among %d", n, k);
            return 1;
        }
        if (native && ir->infer.algo != FGM_ALGO_BP_MAX
            && !fgm_algo_by_variable(ir->infer.algo)
            && k > FGM_K_ALLDIFF_SUM_MAXK) {
            snprintf(why, size, "%s over %d values: a native alldiff's "
                     "sum-product messages take at most %d (their subset DP "
                     "holds 2^(K+1) doubles); bp-max, or alldiff = pairwise, "
                     "runs it", algo, k, FGM_K_ALLDIFF_SUM_MAXK);
            return 1;
        }
        return 0;
    case FGM_FACTOR_TABLE:
        if (n > FGM_K_TABLE_MAXARITY) {
            snprintf(why, size, "a table over %d variables: the table "
                     "operator takes at most %d", n, FGM_K_TABLE_MAXARITY);
            return 1;
        }
        return 0;
    case FGM_FACTOR_SUM: {
        const double *p = fgm_ir_params(ir, f);
        long t = 0;

        for (j = 0; j < n; j++)
            t += labs(fgm_ir_sum_term(p, j, fgm_ir_card(ir, sc[j]) - 1));
        /* The partial sums are message passing's: gibbs and vmp look at
         * values and supports only. */
        if (!fgm_algo_by_variable(ir->infer.algo)
            && (t >= FGM_K_SUM_MAXWORK      /* (n + 1) (t + 1) stays a long */
                || fgm_k_sum_partials(n, t) > FGM_K_SUM_MAXWORK)) {
            snprintf(why, size, "a sum over %d variables spanning %ld "
                     "totals: its messages' partial sums would hold more "
                     "than %ld doubles", n, t + 1, FGM_K_SUM_MAXWORK);
            return 1;
        }
        return 0;
    }
    case FGM_FACTOR_DIRICHLET_DISCRETE:
    case FGM_FACTOR_DIRICHLET_GATED:
    case FGM_FACTOR_EVIDENCE:
        return 0;
    default:
        snprintf(why, size, "no %s operator for this factor", algo);
        return 1;
    }
}

int
fgm_sched_unsupported(const fgm_ir *ir, char *why, size_t size)
{
    int i;

    for (i = 0; i < ir->nfactors; i++)
        if (factor_unsupported(ir, &ir->factors[i], why, size))
            return i;
    return -1;
}

/* "\n", line LINE of the model file PATH and a caret under its column
 * COL (fgm_show_source), in BUF (SIZE bytes), for a message about the
 * statement there; "" when the file cannot be read again or has no such
 * line.  (The model was compiled from PATH moments before.) */
static const char *
source_excerpt(const char *path, int line, int col, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb"), *out;
    char *text = NULL;
    size_t cap = 0;
    ssize_t len = -1;
    int n, bad;

    buf[0] = '\0';
    if (!f)
        return buf;
    for (n = 0; n < line && (len = getline(&text, &cap, f)) >= 0; n++)
        ;
    fclose(f);
    if (n == line && len >= 0 && (out = fmemopen(buf, size, "w"))) {
        if (len > 0 && text[len - 1] == '\n')
            len--;
        fputc('\n', out);
        fgm_show_source(text, (int)(len < INT_MAX ? len : INT_MAX), col - 1,
                        col - 1, out);
        /* A window of at most 160 characters (4 bytes each at most)
         * and its caret line fit SIZE; cut short, better none. */
        bad = ferror(out);
        if (fclose(out) != 0 || bad)
            buf[0] = '\0';
    }
    free(text);
    return buf;
}

void
fgm_sched_explain(const fgm_ir *ir, fgm_diag_fn diag, void *ctx)
{
    char why[256], excerpt[2048];
    int f = fgm_sched_unsupported(ir, why, sizeof why);
    const fgm_ir_factor *fa = f >= 0 ? &ir->factors[f] : NULL;

    if (!fa)
        fgm_diagf(diag, ctx, "%s: a factor of this model has no %s message "
                  "operator", ir->name, fgm_ir_algo_name(ir->infer.algo));
    else if (fa->line > 0 && ir->source[0])
        fgm_diagf(diag, ctx, "%s:%d:%d: error: %s cannot run this %s: %s%s",
                  ir->source, fa->line, fa->col,
                  fgm_ir_algo_name(ir->infer.algo),
                  fgm_ir_kind_name(fa->kind), why,
                  ir->source_is_file
                  ? source_excerpt(ir->source, fa->line, fa->col, excerpt,
                                   sizeof excerpt) : "");
    else
        fgm_diagf(diag, ctx, "%s: %s cannot run factor %d (%s): %s",
                  ir->name, fgm_ir_algo_name(ir->infer.algo), f,
                  fgm_ir_kind_name(fa->kind), why);
}

int
fgm_sched_pairs(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0;
#else
    return 0;
#endif
}

/* Lowers the IR's factors, in IR order, into schedule factors. */
static fgm_status
lower_factors(fgm_sched *s, const fgm_ir *ir)
{
    pairset ps = { NULL, 16 };
    size_t npairs = 0;
    int fcap = 0, ecap = 0, i, j, k, ok = 1;

    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];

        if (f->kind == FGM_FACTOR_NEQ)
            npairs++;
        else if (f->kind == FGM_FACTOR_ALLDIFF)
            npairs += (size_t)f->arity * (size_t)(f->arity - 1) / 2;
    }
    while (ps.cap < 2 * npairs + 16)
        ps.cap *= 2;
    ps.keys = calloc(ps.cap, sizeof *ps.keys);
    if (!ps.keys)
        return FGM_ENOMEM;
    for (i = 0; i < ir->nfactors && ok; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *sc = fgm_ir_scope(ir, f);
        int pair[2], r;

        if (factor_unsupported(ir, f, NULL, 0)) {
            free(ps.keys);
            return FGM_EUNSUPPORTED;
        }
        switch (f->kind) {
        case FGM_FACTOR_NEQ:
        case FGM_FACTOR_ALLDIFF:
            if (f->kind == FGM_FACTOR_ALLDIFF
                && ir->infer.alldiff == FGM_ALLDIFF_NATIVE) {
                ok = add_factor(s, &fcap, &ecap, FGM_OP_ALLDIFF, f->arity,
                                sc, -1, 0, i);
                break;
            }
            for (j = 0; j < f->arity && ok; j++)
                for (k = j + 1; k < f->arity && ok; k++) {
                    r = pair_add(&ps, sc[j], sc[k]);
                    if (r <= 0)
                        continue;
                    pair[0] = sc[j] < sc[k] ? sc[j] : sc[k];
                    pair[1] = sc[j] < sc[k] ? sc[k] : sc[j];
                    ok = add_factor(s, &fcap, &ecap, FGM_OP_NEQ, 2, pair, -1,
                                    0, i);
                }
            break;
        case FGM_FACTOR_TABLE:
            ok = add_factor(s, &fcap, &ecap, FGM_OP_TABLE, f->arity, sc,
                            f->params, 0, i);
            break;
        case FGM_FACTOR_SUM:
            ok = add_factor(s, &fcap, &ecap, FGM_OP_SUM, f->arity, sc,
                            f->params, 0, i);
            break;
        case FGM_FACTOR_DIRICHLET_DISCRETE:
            ok = add_factor(s, &fcap, &ecap, FGM_OP_DIRICHLET, 1, sc, f->aux,
                            1, i);
            break;
        case FGM_FACTOR_DIRICHLET_GATED:
            ok = add_factor(s, &fcap, &ecap, FGM_OP_DIRICHLET_GATED,
                            f->arity, sc, f->aux, fgm_ir_gated_nodes(ir, f),
                            i);
            break;
        default:            /* evidence: folded into the unary vectors */
            break;
        }
    }
    free(ps.keys);
    return ok ? FGM_OK : FGM_ENOMEM;
}

/* Updates in flight: a neq update should share no variable with the
 * FGM_SCHED_GAP updates scheduled just before it; the greedy looks at
 * most FGM_SCHED_SCAN factors down the pending list (every Sudoku up to
 * 9x9 gets the unbounded greedy's order; huge models stay linear). */
#define FGM_SCHED_GAP 8
#define FGM_SCHED_SCAN 1024

/* Reorders each run of consecutive neq factors so that successive
 * updates rarely share a variable: in the pairwise Sudoku a row's pairs
 * come as (0,1), (0,2), ... and each update would wait for the previous
 * one's belief of cell 0; interleaved, the CPU overlaps them.  Greedy:
 * among the first FGM_SCHED_SCAN pending factors, the first that touches
 * no variable of the last FGM_SCHED_GAP scheduled ones, else the first
 * pending.  Edges are renumbered in the new order, so messages are still
 * read front to back. */
static int
interleave_neq(fgm_sched *s)
{
    size_t nf1 = (size_t)s->nfactors + 1;
    int *order = malloc(nf1 * sizeof *order);
    int *next = malloc(nf1 * sizeof *next);     /* pending list links */
    int *last = malloc(((size_t)s->nvars + 1) * sizeof *last);
    int *ev = malloc(((size_t)s->nedges + 1) * sizeof *ev);
    fgm_sched_factor *nf = malloc(nf1 * sizeof *nf);
    int i = 0, n = 0, e = 0, a, head, j, prev, pick, pprev, scan;

    if (!order || !next || !last || !ev || !nf) {
        free(order);
        free(next);
        free(last);
        free(ev);
        free(nf);
        return 0;
    }
    for (a = 0; a < s->nvars; a++)
        last[a] = -FGM_SCHED_GAP - 1;   /* position of its latest update */
    while (i < s->nfactors) {
        if (s->factors[i].op != FGM_OP_NEQ) {
            order[n++] = i++;
            continue;
        }
        head = i;
        for (; i < s->nfactors && s->factors[i].op == FGM_OP_NEQ; i++)
            next[i] = i + 1 < s->nfactors
                      && s->factors[i + 1].op == FGM_OP_NEQ ? i + 1 : -1;
        while (head >= 0) {
            pick = head;
            pprev = -1;
            for (j = head, prev = -1, scan = 0;
                 j >= 0 && scan < FGM_SCHED_SCAN;
                 prev = j, j = next[j], scan++) {
                int x = s->edge_var[s->factors[j].edge];
                int y = s->edge_var[s->factors[j].edge + 1];

                if (last[x] < n - FGM_SCHED_GAP
                    && last[y] < n - FGM_SCHED_GAP) {
                    pick = j;
                    pprev = prev;
                    break;
                }
            }
            if (pprev < 0)
                head = next[pick];
            else
                next[pprev] = next[pick];
            last[s->edge_var[s->factors[pick].edge]] = n;
            last[s->edge_var[s->factors[pick].edge + 1]] = n;
            order[n++] = pick;
        }
    }
    for (i = 0; i < s->nfactors; i++) {
        nf[i] = s->factors[order[i]];
        for (a = 0; a < nf[i].arity; a++)
            ev[e + a] = s->edge_var[nf[i].edge + a];
        nf[i].edge = e;
        e += nf[i].arity;
    }
    free(s->factors);
    free(s->edge_var);
    s->factors = nf;
    s->edge_var = ev;
    free(order);
    free(next);
    free(last);
    return 1;
}

/* Builds var_edge_off / var_edges (each variable's edges, ascending). */
static int
index_edges(fgm_sched *s)
{
    int *fill, e, v;

    s->var_edge_off = calloc((size_t)s->nvars + 1, sizeof *s->var_edge_off);
    s->var_edges = malloc(((size_t)s->nedges + 1) * sizeof *s->var_edges);
    fill = calloc((size_t)s->nvars + 1, sizeof *fill);
    if (!s->var_edge_off || !s->var_edges || !fill) {
        free(fill);
        return 0;
    }
    for (e = 0; e < s->nedges; e++)
        s->var_edge_off[s->edge_var[e] + 1]++;
    for (v = 0; v < s->nvars; v++)
        s->var_edge_off[v + 1] += s->var_edge_off[v];
    for (e = 0; e < s->nedges; e++) {
        v = s->edge_var[e];
        s->var_edges[s->var_edge_off[v] + fill[v]++] = e;
    }
    free(fill);
    return 1;
}

fgm_sched *
fgm_sched_new(const fgm_ir *ir, fgm_status *status)
{
    fgm_sched *s = calloc(1, sizeof *s);
    int v, i, maxarity = 2;

    *status = FGM_ENOMEM;
    if (!s)
        return NULL;
    s->ir = ir;
    s->infer = ir->infer;
    s->nvars = ir->nvars;
    s->ndirichlet = ir->ndirichlet;
    s->card = malloc(((size_t)ir->nvars + 1) * sizeof *s->card);
    if (!s->card)
        goto fail;
    s->stride = 1;
    for (v = 0; v < ir->nvars; v++) {
        s->card[v] = fgm_ir_card(ir, v);
        if (s->card[v] > s->stride)
            s->stride = s->card[v];
    }
    s->uniform_card = s->stride;
    for (v = 0; v < ir->nvars; v++)
        if (s->card[v] != s->stride)
            s->uniform_card = 0;
    /* A prior no variable draws from may be wider than every domain:
     * its row of pseudo-counts needs the room too (nine pseudo-counts in
     * rows of four overwrote the next node's). */
    for (i = 0; i < ir->ndirichlet; i++)
        if (ir->arrays[ir->dir_array[i]].card > s->stride)
            s->stride = ir->arrays[ir->dir_array[i]].card;
    /* Whole vector chunks per variable (ops/vec.h); the padding
     * lanes stay zero.  Past one chunk, whole pairs of chunks where
     * plugins take the AVX-512 path (fgm_sched_pairs). */
    s->stride = FGM_K_NCHUNKS(s->stride) * FGM_K_LANES;
    if (s->stride > FGM_K_LANES && fgm_sched_pairs())
        s->stride = (s->stride + 2 * FGM_K_LANES - 1) / (2 * FGM_K_LANES)
                    * (2 * FGM_K_LANES);
    if (!fold_evidence(s, ir))
        goto fail;
    *status = lower_factors(s, ir);
    if (*status != FGM_OK)
        goto fail;
    *status = FGM_ENOMEM;
    if (!interleave_neq(s) || !fgm_sched_tree_order(s) || !index_edges(s)
        || (fgm_algo_by_variable(s->infer.algo) && !gibbs_tables(s)))
        goto fail;
    for (i = 0; i < s->nfactors; i++)
        if (s->factors[i].arity > maxarity
            && s->factors[i].op != FGM_OP_ALLDIFF)
            maxarity = s->factors[i].arity;
    /* Kernels use 4 vectors; a table needs one cavity per scope position
     * plus an output vector. */
    s->nscratch = (maxarity + 2 > 4 ? maxarity + 2 : 4) * s->stride;
    for (i = 0; i < s->nfactors; i++) {
        const fgm_sched_factor *f = &s->factors[i];
        long need;

        if (f->op == FGM_OP_DIRICHLET_GATED)
            need = fgm_k_dirichlet_gated_scratch(
                f->arity - 1, fgm_ir_gated_nodes(s->ir,
                                                 &s->ir->factors[f->ir_factor]),
                s->stride);
        else if (f->op == FGM_OP_ALLDIFF)
            need = fgm_k_alldiff_scratch(f->arity,
                                         s->card[s->edge_var[f->edge]],
                                         s->infer.algo == FGM_ALGO_BP_MAX);
        else if (f->op == FGM_OP_SUM && !fgm_algo_by_variable(s->infer.algo))
            need = fgm_k_sum_scratch(f->arity,
                                     fgm_k_sum_span(s->edge_var + f->edge,
                                                    s->card, 0,
                                                    fgm_sched_sum_coef(s, f),
                                                    f->arity),
                                     s->stride);
        else
            continue;
        if (need > s->nscratch)
            s->nscratch = (int)need;
    }
    /* A point mass reaches its variable's belief at the start of sweep 1
     * when the Dirichlet factors run first and move beliefs in place
     * (sequential); else updates earlier in sweep 1 (sequential) or all of
     * it (flooding: the belief moves at the refresh ending the sweep)
     * missed it, and sweep 2 recomputes their messages. */
    s->pin_sweeps = 1;
    for (i = 1; i < s->nfactors; i++)
        if (s->factors[i].op == FGM_OP_DIRICHLET
            && s->factors[i - 1].op != FGM_OP_DIRICHLET)
            s->pin_sweeps = 2;
    if (s->infer.schedule == FGM_SCHEDULE_PARALLEL && s->ndirfactors > 0)
        s->pin_sweeps = 2;
    *status = FGM_OK;
    return s;
fail:
    fgm_sched_free(s);
    return NULL;
}
