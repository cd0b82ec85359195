/* runtime/ir.c: IR builder, canonical dump and its 64-bit hash.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The canonical dump is the identity of a model: the plugin loader compares
 * its hash with the one baked into a plugin.  It must therefore be fully
 * deterministic (no pointers; doubles printed with %.17g, which
 * round-trips, in the C locale whatever the caller's: dump_c) and list
 * everything that changes the messages a run computes.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "ir.h"

static const char *const kind_names[] = {
#define FGM_X(e, s) s,
    FGM_FACTOR_KINDS(FGM_X)
#undef FGM_X
};

static const char *const algo_names[] = {
#define FGM_X(e, s) s,
    FGM_ALGOS(FGM_X)
#undef FGM_X
};

const char *
fgm_ir_algo_name(fgm_algo algo)
{
    if ((unsigned)algo >= FGM_NALGOS)
        return "?";
    return algo_names[algo];
}

void
fgm_ir_switch_algo(fgm_ir *ir, fgm_algo algo)
{
    ir->infer.algo = algo;
    if (!ir->infer.iterations_given)
        ir->infer.iterations = fgm_algo_default_iterations(algo);
}

int
fgm_ir_algo_find(const char *name)
{
    int i;

    for (i = 0; i < FGM_NALGOS; i++)
        if (strcmp(algo_names[i], name) == 0)
            return i;
    return -1;
}

const char *
fgm_ir_kind_name(fgm_factor_kind kind)
{
    if ((unsigned)kind >= FGM_FACTOR_NKINDS)
        return "?";
    return kind_names[kind];
}

fgm_ir *
fgm_ir_new(const char *name)
{
    fgm_ir *ir = calloc(1, sizeof *ir);

    if (!ir)
        return NULL;
    snprintf(ir->name, sizeof ir->name, "%s", name ? name : "model");
    /* Infer.NET's defaults for the seed's models: EP, 50 iterations, no
     * damping, no early stop. */
    ir->infer.algo = FGM_ALGO_EP;
    ir->infer.iterations = FGM_DEFAULT_ITERATIONS;
    ir->infer.schedule = FGM_SCHEDULE_SEQUENTIAL;
    ir->infer.alldiff = FGM_ALLDIFF_PAIRWISE;
    ir->infer.projection = FGM_PROJECTION_MEAN;
    ir->infer.burn_in = -1;
    return ir;
}

void
fgm_ir_free(fgm_ir *ir)
{
    if (!ir)
        return;
    free(ir->arrays);
    free(ir->var_array);
    free(ir->dir_array);
    free(ir->factors);
    free(ir->scope_pool);
    free(ir->param_pool);
    free(ir);
}

/* Returns a copy of BUF (N elements of ELEM bytes), or NULL. */
static void *
dup_array(const void *buf, int n, size_t elem)
{
    void *p = malloc((size_t)(n > 0 ? n : 1) * elem);

    if (p && n > 0)
        memcpy(p, buf, (size_t)n * elem);
    return p;
}

fgm_ir *
fgm_ir_copy(const fgm_ir *src)
{
    fgm_ir *ir = src ? malloc(sizeof *ir) : NULL;

    if (!ir)
        return NULL;
    *ir = *src;
    ir->arrays = dup_array(src->arrays, src->narrays, sizeof *ir->arrays);
    ir->var_array = dup_array(src->var_array, src->nvars,
                              sizeof *ir->var_array);
    ir->dir_array = dup_array(src->dir_array, src->ndirichlet,
                              sizeof *ir->dir_array);
    ir->factors = dup_array(src->factors, src->nfactors, sizeof *ir->factors);
    ir->scope_pool = dup_array(src->scope_pool, src->nscope,
                               sizeof *ir->scope_pool);
    ir->param_pool = dup_array(src->param_pool, src->nparam,
                               sizeof *ir->param_pool);
    ir->arrays_cap = src->narrays;
    ir->factors_cap = src->nfactors;
    ir->scope_cap = src->nscope;
    ir->param_cap = src->nparam;
    if (!ir->arrays || !ir->var_array || !ir->dir_array || !ir->factors
        || !ir->scope_pool || !ir->param_pool) {
        fgm_ir_free(ir);
        return NULL;
    }
    return ir;
}

/* Grows *P (element size ELEM) so that it holds at least NEED elements. */
static int
grow(void *p, int *cap, int need, size_t elem)
{
    void **pp = p;
    int ncap;
    void *q;

    if (need <= *cap)
        return 1;
    ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    q = realloc(*pp, (size_t)ncap * elem);
    if (!q)
        return 0;
    *pp = q;
    *cap = ncap;
    return 1;
}

/* Appends an array of COUNT elements of KIND, numbered from *NEXT, each
 * element recorded as owned by the new array in *OWNER.  Returns the new
 * array or NULL with *STATUS set. */
static fgm_ir_array *
add_array(fgm_ir *ir, fgm_array_kind kind, const char *name, int ndims,
          const int *dims, int card, unsigned flags, int **owner, int *next,
          fgm_status *status)
{
    fgm_ir_array *a;
    long count = 1;
    int i, *own;

    *status = FGM_EINVAL;
    if (ndims < 0 || ndims > FGM_IR_MAXDIMS || card < 1 || !name
        || strlen(name) >= FGM_IR_MAXNAME || fgm_ir_find_array(ir, name))
        return NULL;
    for (i = 0; i < ndims; i++) {
        if (dims[i] < 1)
            return NULL;
        count *= dims[i];
        if (count > 1L << 24)
            return NULL;
    }
    *status = FGM_ENOMEM;
    if (!grow(&ir->arrays, &ir->arrays_cap, ir->narrays + 1, sizeof *a))
        return NULL;
    own = realloc(*owner, (size_t)(*next + count) * sizeof *own);
    if (!own)
        return NULL;
    *owner = own;
    for (i = 0; i < count; i++)
        own[*next + i] = ir->narrays;
    a = &ir->arrays[ir->narrays++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    a->kind = kind;
    a->ndims = ndims;
    for (i = 0; i < ndims; i++)
        a->dims[i] = dims[i];
    a->first = *next;
    a->count = (int)count;
    a->card = card;
    a->alpha = -1;
    a->flags = flags;
    *next += (int)count;
    *status = FGM_OK;
    return a;
}

int
fgm_ir_add_array(fgm_ir *ir, const char *name, int ndims, const int *dims,
                 int lo, int card, unsigned flags, fgm_status *status)
{
    fgm_ir_array *a = add_array(ir, FGM_ARRAY_DISCRETE, name, ndims, dims,
                                card, flags, &ir->var_array, &ir->nvars,
                                status);

    if (!a)
        return -1;
    a->lo = lo;
    return a->first;
}

/* Copies N parameters into the pool, -0 as 0 (x + 0.0 is +0 for either
 * zero): the IR is canonical, so a weight or alpha written -0.0 dumps and
 * hashes as 0 does (it printed -0, under another hash). */
static void
copy_params(double *dst, const double *src, int n)
{
    int i;

    for (i = 0; i < n; i++)
        dst[i] = src[i] + 0.0;
}

int
fgm_ir_add_dirichlet_array(fgm_ir *ir, const char *name, int ndims,
                           const int *dims, int k, const double *alpha,
                           unsigned flags, fgm_status *status)
{
    fgm_ir_array *a;
    long n = k;
    int i;

    *status = FGM_EINVAL;
    /* (add_array refuses bad sizes: they count 1 here.) */
    for (i = 0; (flags & FGM_ARRAY_ALPHA_EACH) && i < ndims && n <= 1L << 26;
         i++)
        n *= dims && dims[i] > 0 ? dims[i] : 1;
    if (n > 1L << 26)
        return -1;
    for (i = 0; i < n; i++)
        if (!(alpha[i] > 0.0) || alpha[i] == HUGE_VAL)
            return -1;
    if (!grow(&ir->param_pool, &ir->param_cap, ir->nparam + (int)n,
              sizeof *ir->param_pool)) {
        *status = FGM_ENOMEM;
        return -1;
    }
    a = add_array(ir, FGM_ARRAY_DIRICHLET, name, ndims, dims, k, flags,
                  &ir->dir_array, &ir->ndirichlet, status);
    if (!a)
        return -1;
    a->alpha = ir->nparam;
    copy_params(ir->param_pool + ir->nparam, alpha, (int)n);
    ir->nparam += (int)n;
    return a->first;
}

const fgm_ir_array *
fgm_ir_find_array(const fgm_ir *ir, const char *name)
{
    int i;

    for (i = 0; i < ir->narrays; i++)
        if (strcmp(ir->arrays[i].name, name) == 0)
            return &ir->arrays[i];
    return NULL;
}

int
fgm_ir_card(const fgm_ir *ir, int v)
{
    if (!ir || v < 0 || v >= ir->nvars)
        return 0;
    return ir->arrays[ir->var_array[v]].card;
}

static int
cmp_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

/* Whether SCOPE (ARITY variables) names each variable once: the
 * operators take a factor's positions as independent variables.  -1
 * when out of memory. */
static int
scope_distinct(const int *scope, int arity)
{
    int *sorted, i, j, ok = 1;

    if (arity <= 16) {      /* most factors: no allocation */
        for (i = 1; i < arity; i++)
            for (j = 0; j < i; j++)
                ok &= scope[i] != scope[j];
        return ok;
    }
    sorted = malloc((size_t)arity * sizeof *sorted);
    if (!sorted)
        return -1;
    memcpy(sorted, scope, (size_t)arity * sizeof *sorted);
    qsort(sorted, (size_t)arity, sizeof *sorted, cmp_ints);
    for (i = 1; i < arity; i++)
        ok &= sorted[i] != sorted[i - 1];
    free(sorted);
    return ok;
}

/* Whether a sum over SCOPE (ARITY variables of IR, each once: checked by
 * the caller) with parameters P has whole coefficients of 1 to
 * FGM_IR_SUM_MAXCOEF in size, and whole bounds within an int that leave
 * some sum of the terms in its range. */
static int
sum_ok(const fgm_ir *ir, const int *scope, int arity, const double *p)
{
    int i, ok = 1;
    double least = 0.0, most = 0.0, a, end;

    for (i = 0; i < arity; i++) {
        a = p[FGM_IR_SUM_COEF + i];
        ok &= a == floor(a) && a != 0.0 && fabs(a) <= FGM_IR_SUM_MAXCOEF;
        end = ok ? a * (fgm_ir_card(ir, scope[i]) - 1) : 0.0;
        least += end < 0.0 ? end : 0.0;
        most += end > 0.0 ? end : 0.0;
    }
    return ok && p[0] == floor(p[0]) && p[1] == floor(p[1])
           && p[0] <= p[1] && p[0] >= -(double)INT_MAX
           && p[1] <= (double)INT_MAX && p[0] <= most && p[1] >= least;
}

int
fgm_ir_add_factor(fgm_ir *ir, fgm_factor_kind kind, int arity,
                  const int *scope, int nparams, const double *params,
                  fgm_status *status)
{
    fgm_ir_factor *f;
    long want = 0;
    int i;

    *status = FGM_EINVAL;
    if ((unsigned)kind >= FGM_FACTOR_NKINDS || arity < 1)
        return -1;
    for (i = 0; i < arity; i++)
        if (scope[i] < 0 || scope[i] >= ir->nvars)
            return -1;
    /* Each variable once (a neq's two included), as the compiler
     * requires: the operators take the positions as independent, and
     * Dancing Links would cover a repeated one's columns twice. */
    i = scope_distinct(scope, arity);
    if (i <= 0) {
        *status = i < 0 ? FGM_ENOMEM : FGM_EINVAL;
        return -1;
    }
    switch (kind) {
    case FGM_FACTOR_NEQ:
        if (arity != 2)
            return -1;
        break;
    case FGM_FACTOR_ALLDIFF:
        if (arity < 2)
            return -1;
        break;
    case FGM_FACTOR_TABLE:
        want = 1;
        for (i = 0; i < arity; i++) {
            want *= fgm_ir_card(ir, scope[i]);
            if (want > 1L << 22)
                return -1;
        }
        break;
    case FGM_FACTOR_EVIDENCE:
        if (arity != 1)
            return -1;
        want = fgm_ir_card(ir, scope[0]);
        break;
    case FGM_FACTOR_SUM:
        /* The range of the weighted sum of the value indices and the
         * weights (sum_ok).  Bounds and weights may be negative. */
        want = FGM_IR_SUM_COEF + (long)arity;
        if (nparams != want || !params || !sum_ok(ir, scope, arity, params))
            return -1;
        break;
    default:        /* DIRICHLET_*: fgm_ir_add_dirichlet_discrete, _gated */
        return -1;
    }
    if (nparams != want || (nparams > 0 && !params))
        return -1;
    for (i = 0; i < nparams && kind != FGM_FACTOR_SUM; i++)
        if (!(params[i] >= 0.0))    /* also rejects NaN */
            return -1;

    *status = FGM_ENOMEM;
    if (!grow(&ir->factors, &ir->factors_cap, ir->nfactors + 1, sizeof *f)
        || !grow(&ir->scope_pool, &ir->scope_cap, ir->nscope + arity,
                 sizeof *ir->scope_pool)
        || !grow(&ir->param_pool, &ir->param_cap, ir->nparam + nparams,
                 sizeof *ir->param_pool))
        return -1;
    f = &ir->factors[ir->nfactors];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->arity = arity;
    f->scope = ir->nscope;
    memcpy(ir->scope_pool + ir->nscope, scope, (size_t)arity * sizeof *scope);
    ir->nscope += arity;
    f->nparams = nparams;
    f->params = -1;
    f->aux = -1;
    if (nparams > 0) {
        f->params = ir->nparam;
        copy_params(ir->param_pool + ir->nparam, params, nparams);
        ir->nparam += nparams;
    }
    *status = FGM_OK;
    return ir->nfactors++;
}

/* Appends a draw of KIND over SCOPE[0..ARITY-1] from NODE on (checked
 * by the caller).  Returns the factor index, or -1 with *STATUS
 * FGM_ENOMEM. */
static int
add_draw(fgm_ir *ir, fgm_factor_kind kind, const int *scope, int arity,
         int node, fgm_status *status)
{
    fgm_ir_factor *f;
    int i;

    *status = FGM_ENOMEM;
    if (!grow(&ir->factors, &ir->factors_cap, ir->nfactors + 1, sizeof *f)
        || !grow(&ir->scope_pool, &ir->scope_cap, ir->nscope + arity,
                 sizeof *ir->scope_pool))
        return -1;
    f = &ir->factors[ir->nfactors];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->arity = arity;
    f->scope = ir->nscope;
    for (i = 0; i < arity; i++)
        ir->scope_pool[ir->nscope++] = scope[i];
    f->params = -1;
    f->aux = node;
    *status = FGM_OK;
    return ir->nfactors++;
}

int
fgm_ir_add_dirichlet_discrete(fgm_ir *ir, int var, int node,
                              fgm_status *status)
{
    *status = FGM_EINVAL;
    if (var < 0 || var >= ir->nvars || node < 0 || node >= ir->ndirichlet
        || ir->arrays[ir->dir_array[node]].card != fgm_ir_card(ir, var))
        return -1;
    return add_draw(ir, FGM_FACTOR_DIRICHLET_DISCRETE, &var, 1, node,
                    status);
}

/* Whether the ARITY - 1 gates SCOPE[1..] of a gated draw from NODE on
 * pick nodes of one array the way fgm_ir_gated_nodes numbers them: the
 * gates index its last dimensions, every gate but the first all of its
 * dimension, and NODE sits at 0 in those after the first. */
static int
gates_fit(const fgm_ir *ir, const int *scope, int arity, int node)
{
    const fgm_ir_array *a = &ir->arrays[ir->dir_array[node]];
    int m = arity - 1, i, d, rest = node - a->first, n = 1;

    if (a->ndims < m)
        return 0;
    for (i = m - 1; i >= 1; i--) {
        d = a->ndims - m + i;
        if (fgm_ir_card(ir, scope[1 + i]) != a->dims[d] || rest % a->dims[d])
            return 0;
        rest /= a->dims[d];
        n *= a->dims[d];
    }
    d = a->ndims - m;
    return rest % a->dims[d] + fgm_ir_card(ir, scope[1]) <= a->dims[d]
           && node + n * fgm_ir_card(ir, scope[1]) <= a->first + a->count;
}

int
fgm_ir_add_dirichlet_gated(fgm_ir *ir, const int *scope, int arity, int node,
                           fgm_status *status)
{
    long nodes = 1;
    int i, j;

    *status = FGM_EINVAL;
    if (arity < 2 || arity > FGM_IR_MAXDIMS + 1 || node < 0
        || node >= ir->ndirichlet)
        return -1;
    for (i = 0; i < arity; i++) {
        if (scope[i] < 0 || scope[i] >= ir->nvars)
            return -1;
        for (j = 0; j < i; j++)
            if (scope[j] == scope[i])
                return -1;
        nodes *= i > 0 ? fgm_ir_card(ir, scope[i]) : 1;
    }
    if (nodes > FGM_IR_MAXGATED
        || ir->arrays[ir->dir_array[node]].card != fgm_ir_card(ir, scope[0])
        || !gates_fit(ir, scope, arity, node))
        return -1;
    return add_draw(ir, FGM_FACTOR_DIRICHLET_GATED, scope, arity, node,
                    status);
}

/* Writes "name[i][j]" for variable I (NODE 0) or Dirichlet node I (NODE
 * 1) of IR into BUF; "" for a NULL IR or an index out of range, nothing
 * for a NULL or empty BUF.  Returns BUF. */
static char *
element_name(const fgm_ir *ir, int node, int i, char *buf, size_t size)
{
    const fgm_ir_array *a;
    int idx[FGM_IR_MAXDIMS], d, rest;
    size_t len;

    if (!buf || size == 0)
        return buf;
    if (!ir || i < 0 || i >= (node ? ir->ndirichlet : ir->nvars)) {
        buf[0] = '\0';
        return buf;
    }
    a = &ir->arrays[node ? ir->dir_array[i] : ir->var_array[i]];
    rest = i - a->first;
    for (d = a->ndims - 1; d >= 0; d--) {
        idx[d] = rest % a->dims[d];
        rest /= a->dims[d];
    }
    len = (size_t)snprintf(buf, size, "%s", a->name);
    for (d = 0; d < a->ndims && len < size; d++)
        len += (size_t)snprintf(buf + len, size - len, "[%d]", idx[d]);
    return buf;
}

char *
fgm_ir_var_name(const fgm_ir *ir, int v, char *buf, size_t size)
{
    return element_name(ir, 0, v, buf, size);
}

int *
fgm_ir_draws(const fgm_ir *ir)
{
    int *draws = calloc((size_t)ir->ndirichlet + 1, sizeof *draws);
    const fgm_ir_factor *f;
    int i, j;

    if (draws)
        for (i = 0; i < ir->nfactors; i++) {
            f = &ir->factors[i];
            if (f->kind == FGM_FACTOR_DIRICHLET_DISCRETE)
                draws[f->aux]++;
            else if (f->kind == FGM_FACTOR_DIRICHLET_GATED)
                for (j = fgm_ir_gated_nodes(ir, f); j-- > 0;)
                    draws[f->aux + j]++;
        }
    return draws;
}

fgm_status
fgm_ir_clue_nodes(const fgm_ir *ir, int *node)
{
    int *draws = ir && node ? fgm_ir_draws(ir) : NULL;
    const fgm_ir_factor *f;
    int v, i;

    if (!ir || !node)
        return FGM_EINVAL;
    if (!draws)
        return FGM_ENOMEM;
    for (v = 0; v < ir->nvars; v++)
        node[v] = -1;
    for (i = 0; i < ir->nfactors; i++) {
        f = &ir->factors[i];
        if (f->kind == FGM_FACTOR_DIRICHLET_DISCRETE && draws[f->aux] == 1
            && (ir->arrays[ir->dir_array[f->aux]].flags
                & FGM_ARRAY_OBSERVED))
            node[fgm_ir_scope(ir, f)[0]] = f->aux;
    }
    free(draws);
    return FGM_OK;
}

unsigned char *
fgm_ir_gated_picks(const fgm_ir *ir)
{
    unsigned char *picks = calloc((size_t)ir->ndirichlet + 1, 1);
    const fgm_ir_factor *f;
    int i, j;

    for (i = 0; picks && i < ir->nfactors; i++) {
        f = &ir->factors[i];
        for (j = 0; f->kind == FGM_FACTOR_DIRICHLET_GATED
                    && j < fgm_ir_gated_nodes(ir, f); j++)
            picks[f->aux + j] = 1;
    }
    return picks;
}

char *
fgm_ir_node_name(const fgm_ir *ir, int d, char *buf, size_t size)
{
    return element_name(ir, 1, d, buf, size);
}

/* ---- canonical dump ------------------------------------------------- */

/* Appends " %.17g" of X to BUF (room for 32 bytes) and returns the
 * length added.  Integers under 1e15 in magnitude (the potentials of
 * many tables, counts) skip the float formatter for the same text: the
 * dump is what the IR hash reads, and a 200,000-factor chain's dumps
 * spent most of a load in printf. */
static int
real_text(char *buf, double x)
{
    char digits[24];
    long long v;
    int n = 0, len = 0;

    if (!(fabs(x) < 1e15) || x != (double)(long long)x
        || (x == 0.0 && signbit(x)))
        return snprintf(buf, 32, " %.17g", x);
    v = (long long)x;
    buf[len++] = ' ';
    if (v < 0) {
        buf[len++] = '-';
        v = -v;
    }
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (n > 0)
        buf[len++] = digits[--n];
    buf[len] = '\0';
    return len;
}

/* The text of " params P[0] .. P[N-1]" for the dump, in *BUF (grown as
 * needed; *CAP bytes), or NULL when out of memory. */
static const char *
params_text(char **buf, size_t *cap, const double *p, int n)
{
    size_t need = 8 + 32 * (size_t)n, len;
    int j;

    if (need > *cap) {
        char *q = realloc(*buf, need);

        if (!q)
            return NULL;
        *buf = q;
        *cap = need;
    }
    len = (size_t)snprintf(*buf, *cap, " params");
    for (j = 0; j < n; j++)
        len += (size_t)real_text(*buf + len, p[j]);
    return *buf;
}

/* Where the dump goes: a stream, or the FNV-1a hash of its bytes (the
 * IR hash), through a buffer: the hash once built the whole text in a
 * memory stream, whose doubling and zeroing took a third of loading a
 * 300x300 grid's up-to-date plugin. */
typedef struct dump_out {
    FILE *f;                /* NULL: hash */
    uint64_t h;
    size_t n;
    char buf[8192];
} dump_out;

static void
out_flush(dump_out *o)
{
    size_t i;

    if (o->f)
        fwrite(o->buf, 1, o->n, o->f);
    else
        for (i = 0; i < o->n; i++) {
            o->h ^= (unsigned char)o->buf[i];
            o->h *= 1099511628211ull;       /* FNV-1a 64 prime */
        }
    o->n = 0;
}

/* Appends LEN bytes of S. */
static void
out_put(dump_out *o, const char *s, size_t len)
{
    size_t k;

    while (len > 0) {
        if (o->n == sizeof o->buf)
            out_flush(o);
        k = sizeof o->buf - o->n < len ? sizeof o->buf - o->n : len;
        memcpy(o->buf + o->n, s, k);
        o->n += k;
        s += k;
        len -= k;
    }
}

static void
out_str(dump_out *o, const char *s)
{
    out_put(o, s, strlen(s));
}

static void out_fmt(dump_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Appends the printf text of FMT (a short one: a line's piece). */
static void
out_fmt(dump_out *o, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    int len;

    va_start(ap, fmt);
    len = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (len < 0)
        return;
    if ((size_t)len < sizeof line) {
        out_put(o, line, (size_t)len);
        return;
    }
    {
        char *big = malloc((size_t)len + 1);

        if (!big)
            return;
        va_start(ap, fmt);
        vsnprintf(big, (size_t)len + 1, fmt, ap);
        va_end(ap);
        out_put(o, big, (size_t)len);
        free(big);
    }
}

/* Writes the dump body (everything after the hash line) to F. */
static void
dump_body(const fgm_ir *ir, dump_out *f)
{
    char name[FGM_IR_MAXNAME + 16 * FGM_IR_MAXDIMS];
    char *ptext = NULL;     /* the last factor's params, as text */
    size_t pcap = 0;
    const double *lastp = NULL;
    int i, j, lastn = -1;

    out_fmt(f, "model %s\n", ir->name);
    out_fmt(f, "vars %d factors %d\n", ir->nvars, ir->nfactors);
    for (i = 0; i < ir->narrays; i++) {
        const fgm_ir_array *a = &ir->arrays[i];

        out_fmt(f, "%s %s", a->kind == FGM_ARRAY_DIRICHLET ? "dirichlet"
                                                          : "array", a->name);
        for (j = 0; j < a->ndims; j++)
            out_fmt(f, "[%d]", a->dims[j]);
        if (a->kind == FGM_ARRAY_DIRICHLET) {
            long n = a->flags & FGM_ARRAY_ALPHA_EACH
                     ? (long)a->count * a->card : a->card;

            /* "alphas": node by node. */
            out_fmt(f, " size %d alpha%s", a->card,
                    a->flags & FGM_ARRAY_ALPHA_EACH ? "s" : "");
            for (j = 0; j < n; j++)
                out_fmt(f, " %.17g", ir->param_pool[a->alpha + j]);
        } else {
            out_fmt(f, " in %d..%d", a->lo, a->lo + a->card - 1);
        }
        out_fmt(f, " first %d%s\n", a->first,
                (a->flags & FGM_ARRAY_OBSERVED) ? " observed" : "");
    }
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *fa = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, fa);
        const double *p = fgm_ir_params(ir, fa);

        out_fmt(f, "f%d %s", i, fgm_ir_kind_name(fa->kind));
        for (j = 0; j < fa->arity; j++)
            out_fmt(f, " %s", fgm_ir_var_name(ir, s[j], name, sizeof name));
        if (fa->aux >= 0)
            out_fmt(f, " ~ %s", fgm_ir_node_name(ir, fa->aux, name,
                                                 sizeof name));
        if (fa->kind == FGM_FACTOR_DIRICHLET_GATED)   /* the last node */
            out_fmt(f, " .. %s", fgm_ir_node_name(
                        ir, fa->aux + fgm_ir_gated_nodes(ir, fa) - 1, name,
                        sizeof name));
        if (fa->nparams > 0) {
            /* Factors of one statement mostly share their potentials:
             * the text of the last one is written again. */
            if (lastn != fa->nparams || !lastp
                || memcmp(p, lastp, (size_t)fa->nparams * sizeof *p) != 0) {
                lastn = params_text(&ptext, &pcap, p, fa->nparams)
                        ? fa->nparams : -1;
                lastp = p;
            }
            if (lastn >= 0) {
                out_str(f, ptext);
            } else {
                out_fmt(f, " params");
                for (j = 0; j < fa->nparams; j++)
                    out_fmt(f, " %.17g", p[j]);
            }
        }
        out_put(f, "\n", 1);
    }
    free(ptext);
    out_fmt(f, "infer %s iterations %d damping %.17g tolerance %.17g "
            "schedule %s alldiff %s projection %s\n",
            fgm_ir_algo_name(ir->infer.algo), ir->infer.iterations,
            ir->infer.damping, ir->infer.tolerance,
            ir->infer.schedule == FGM_SCHEDULE_PARALLEL ? "parallel"
                                                        : "sequential",
            ir->infer.alldiff == FGM_ALLDIFF_NATIVE ? "native" : "pairwise",
            ir->infer.projection == FGM_PROJECTION_MEAN_SQUARE
                ? "mean-square" : "mean");
    if (ir->infer.damp_both)
        out_fmt(f, "infer damp both directions\n");
    if (ir->infer.burn_in >= 0)     /* only where given: older dumps stand */
        out_fmt(f, "infer burn-in %d\n", ir->infer.burn_in);
}

/* dump_body of IR to O, its numbers with a decimal point whatever the
 * caller's locale: the dump, and so the hash, are the IR's alone. */
static void
dump_c(const fgm_ir *ir, dump_out *o)
{
    fgm_c_locale cl;

    fgm_c_locale_begin(&cl);
    dump_body(ir, o);
    out_flush(o);
    fgm_c_locale_end(&cl);
}

uint64_t
fgm_ir_hash(const fgm_ir *ir)
{
    dump_out *o;
    uint64_t h;

    if (!ir || !(o = malloc(sizeof *o)))
        return 0;
    o->f = NULL;
    o->h = 14695981039346656037ull;     /* FNV-1a 64 offset basis */
    o->n = 0;
    dump_c(ir, o);
    h = o->h;
    free(o);
    return h;
}

fgm_status
fgm_ir_dump(const fgm_ir *ir, FILE *f)
{
    dump_out *o;

    if (!ir || !f)
        return FGM_EINVAL;
    fprintf(f, "# fgm-ir 1 hash %016llx\n", (unsigned long long)fgm_ir_hash(ir));
    o = malloc(sizeof *o);
    if (!o)
        return FGM_ENOMEM;
    o->f = f;
    o->n = 0;
    dump_c(ir, o);
    free(o);
    return fgm_stream_status(f);
}

fgm_status
fgm_ir_graph(const fgm_ir *ir, FILE *f)
{
    char name[FGM_IR_MAXNAME + 16 * FGM_IR_MAXDIMS];
    int i, j;

    if (!ir || !f)
        return FGM_EINVAL;
    fprintf(f, "graph \"%s\" {\n", ir->name);
    fprintf(f, "  node [shape=circle, fontsize=10];\n");
    for (i = 0; i < ir->nvars; i++)
        fprintf(f, "  v%d [label=\"%s\"];\n", i,
                fgm_ir_var_name(ir, i, name, sizeof name));
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *fa = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, fa);
        int nodes;

        fprintf(f, "  f%d [shape=box, style=filled, fillcolor=lightgray, "
                "label=\"%s\"];\n", i, fgm_ir_kind_name(fa->kind));
        for (j = 0; j < fa->arity; j++) {
            /* A weighted sum's edge says its coefficient. */
            long a = fa->kind == FGM_FACTOR_SUM
                     ? fgm_ir_sum_term(fgm_ir_params(ir, fa), j, 1) : 1;

            if (a != 1)
                fprintf(f, "  f%d -- v%d [label=\"%ld\"];\n", i, s[j], a);
            else
                fprintf(f, "  f%d -- v%d;\n", i, s[j]);
        }
        /* A gated draw: an edge to every node its gate may pick. */
        nodes = fa->kind == FGM_FACTOR_DIRICHLET_GATED
                ? fgm_ir_gated_nodes(ir, fa) : fa->aux >= 0;
        for (j = 0; j < nodes; j++)
            fprintf(f, "  f%d -- d%d;\n", i, fa->aux + j);
    }
    for (i = 0; i < ir->ndirichlet; i++)
        fprintf(f, "  d%d [shape=doublecircle, label=\"%s\"];\n", i,
                fgm_ir_node_name(ir, i, name, sizeof name));
    fprintf(f, "}\n");
    return fgm_stream_status(f);
}
