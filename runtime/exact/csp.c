/* runtime/exact/csp.c: build the csp view of an IR; consistency and checks.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "csp.h"

void
fgm_csp_free(fgm_csp *csp)
{
    if (!csp)
        return;
    free(csp->card);
    free(csp->full);
    free(csp->peer_off);
    free(csp->peers);
    free(csp->unit_off);
    free(csp->unit_vars);
    free(csp->var_unit_off);
    free(csp->var_units);
    free(csp->tables);
    free(csp->var_table_off);
    free(csp->var_tables);
    free(csp);
}

static int
cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

/* Fills peer_off/peers: for each variable, the sorted unique variables it
 * shares a neq or alldiff factor with. */
static int
build_peers(fgm_csp *csp, const fgm_ir *ir)
{
    int *deg = calloc((size_t)csp->nvars + 1, sizeof *deg), *fill;
    long total = 0;
    int i, j, k, v, n;

    if (!deg)
        return 0;
    /* Upper bound on peers per variable (duplicates removed later). */
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, f);

        if (f->kind != FGM_FACTOR_NEQ && f->kind != FGM_FACTOR_ALLDIFF)
            continue;
        for (j = 0; j < f->arity; j++)
            deg[s[j]] += f->arity - 1;
    }
    csp->peer_off = malloc(((size_t)csp->nvars + 1) * sizeof *csp->peer_off);
    for (v = 0; v < csp->nvars; v++)
        total += deg[v];
    csp->peers = malloc((size_t)(total ? total : 1) * sizeof *csp->peers);
    fill = calloc((size_t)csp->nvars + 1, sizeof *fill);
    if (!csp->peer_off || !csp->peers || !fill) {
        free(deg);
        free(fill);
        return 0;
    }
    csp->peer_off[0] = 0;
    for (v = 0; v < csp->nvars; v++)
        csp->peer_off[v + 1] = csp->peer_off[v] + deg[v];
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, f);

        if (f->kind != FGM_FACTOR_NEQ && f->kind != FGM_FACTOR_ALLDIFF)
            continue;
        for (j = 0; j < f->arity; j++)
            for (k = 0; k < f->arity; k++)
                if (j != k && s[j] != s[k])
                    csp->peers[csp->peer_off[s[j]] + fill[s[j]]++] = s[k];
    }
    /* Sort, deduplicate, and compact in place. */
    n = 0;
    for (v = 0; v < csp->nvars; v++) {
        int *p = csp->peers + csp->peer_off[v], m = fill[v], u = 0;

        qsort(p, (size_t)m, sizeof *p, cmp_int);
        for (j = 0; j < m; j++)
            if (u == 0 || p[j] != p[u - 1])
                p[u++] = p[j];
        memmove(csp->peers + n, p, (size_t)u * sizeof *p);
        csp->peer_off[v] = n;
        n += u;
    }
    csp->peer_off[csp->nvars] = n;
    free(deg);
    free(fill);
    return 1;
}

/* Builds an index "variable -> list of items" from ITEMS lists given by
 * OFF/VARS (NITEMS lists).  Writes *POFF (nvars+1) and *PLIST. */
static int
invert(int nvars, int nitems, const int *off, const int *vars, int **poff,
       int **plist)
{
    int *o = calloc((size_t)nvars + 1, sizeof *o), *l, *fill, i, j;

    if (!o)
        return 0;
    for (i = 0; i < nitems; i++)
        for (j = off[i]; j < off[i + 1]; j++)
            o[vars[j] + 1]++;
    for (i = 0; i < nvars; i++)
        o[i + 1] += o[i];
    l = malloc((size_t)(o[nvars] ? o[nvars] : 1) * sizeof *l);
    fill = calloc((size_t)nvars + 1, sizeof *fill);
    if (!l || !fill) {
        free(o);
        free(l);
        free(fill);
        return 0;
    }
    for (i = 0; i < nitems; i++)
        for (j = off[i]; j < off[i + 1]; j++)
            l[o[vars[j]] + fill[vars[j]]++] = i;
    free(fill);
    *poff = o;
    *plist = l;
    return 1;
}

/* Whether table factor F of IR has a zero weight: one that forbids
 * something.  The others cannot prune a search, and checking them cost
 * an enumeration of 19 variables under 171 positive pair tables most of
 * its time. */
static int
forbids(const fgm_ir *ir, const fgm_ir_factor *f)
{
    const double *p = fgm_ir_params(ir, f);
    int i;

    for (i = 0; i < f->nparams; i++)
        if (p[i] == 0.0)
            return 1;
    return 0;
}

/* Builds the alldiff units and the index of the tables that forbid
 * something. */
static int
build_units_tables(fgm_csp *csp, const fgm_ir *ir)
{
    int i, j, nu = 0, nt = 0, len = 0, *toff = NULL, *tvars = NULL, tl = 0;
    int ok;

    for (i = 0; i < ir->nfactors; i++) {
        if (ir->factors[i].kind == FGM_FACTOR_ALLDIFF) {
            nu++;
            len += ir->factors[i].arity;
        } else if ((ir->factors[i].kind == FGM_FACTOR_TABLE
                    && forbids(ir, &ir->factors[i]))
                   || ir->factors[i].kind == FGM_FACTOR_SUM) {
            nt++;
            tl += ir->factors[i].arity;
        }
    }
    csp->nunits = nu;
    csp->ntables = nt;
    csp->unit_off = malloc(((size_t)nu + 1) * sizeof *csp->unit_off);
    csp->unit_vars = malloc(((size_t)len + 1) * sizeof *csp->unit_vars);
    csp->tables = malloc(((size_t)nt + 1) * sizeof *csp->tables);
    toff = malloc(((size_t)nt + 1) * sizeof *toff);
    tvars = malloc(((size_t)tl + 1) * sizeof *tvars);
    if (!csp->unit_off || !csp->unit_vars || !csp->tables || !toff || !tvars) {
        free(toff);
        free(tvars);
        return 0;
    }
    nu = nt = len = tl = 0;
    csp->unit_off[0] = 0;
    toff[0] = 0;
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, f);

        if (f->kind == FGM_FACTOR_ALLDIFF) {
            for (j = 0; j < f->arity; j++)
                csp->unit_vars[len++] = s[j];
            csp->unit_off[++nu] = len;
        } else if ((f->kind == FGM_FACTOR_TABLE && forbids(ir, f))
                   || f->kind == FGM_FACTOR_SUM) {
            for (j = 0; j < f->arity; j++)
                tvars[tl++] = s[j];
            csp->tables[nt] = i;
            toff[++nt] = tl;
        }
    }
    ok = invert(csp->nvars, nu, csp->unit_off, csp->unit_vars,
                &csp->var_unit_off, &csp->var_units)
         && invert(csp->nvars, nt, toff, tvars, &csp->var_table_off,
                   &csp->var_tables);
    free(toff);
    free(tvars);
    return ok;
}

fgm_csp *
fgm_csp_new(const fgm_ir *ir, fgm_status *status)
{
    fgm_csp *csp;
    fgm_status ignored;
    int v, i, j;

    if (!status)
        status = &ignored;
    if (!ir) {
        *status = FGM_EINVAL;
        return NULL;
    }
    *status = FGM_ENOMEM;
    csp = calloc(1, sizeof *csp);
    if (!csp)
        return NULL;
    csp->ir = ir;
    csp->nvars = ir->nvars;
    csp->card = malloc(((size_t)ir->nvars + 1) * sizeof *csp->card);
    csp->full = malloc(((size_t)ir->nvars + 1) * sizeof *csp->full);
    if (!csp->card || !csp->full)
        goto fail;
    for (v = 0; v < ir->nvars; v++) {
        int c = fgm_ir_card(ir, v);

        if (c > FGM_IR_MAXCARD) {
            *status = FGM_EUNSUPPORTED;
            goto fail;
        }
        csp->card[v] = c;
        csp->full[v] = c == 64 ? ~(fgm_dom)0 : FGM_DOM_BIT(c) - 1;
        if (c > csp->maxcard)
            csp->maxcard = c;
    }
    /* Unary evidence with a zero weight removes that value for good. */
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const double *p = fgm_ir_params(ir, f);

        if (f->kind != FGM_FACTOR_EVIDENCE)
            continue;
        v = fgm_ir_scope(ir, f)[0];
        for (j = 0; j < f->nparams; j++)
            if (p[j] == 0.0)
                csp->full[v] &= ~FGM_DOM_BIT(j);
    }
    if (!build_peers(csp, ir) || !build_units_tables(csp, ir))
        goto fail;
    *status = FGM_OK;
    return csp;
fail:
    fgm_csp_free(csp);
    return NULL;
}

int
fgm_csp_given_ok(const fgm_csp *csp, const int *given)
{
    int v;

    for (v = 0; given && v < csp->nvars; v++)
        if (given[v] < -1 || given[v] >= csp->card[v])
            return 0;
    return 1;
}

int
fgm_csp_init_domains(const fgm_csp *csp, const int *given, fgm_dom *dom)
{
    int v;

    for (v = 0; v < csp->nvars; v++) {
        dom[v] = csp->full[v];
        if (given && given[v] >= 0) {
            if (given[v] >= csp->card[v]
                || !(csp->full[v] & FGM_DOM_BIT(given[v])))
                return 0;
            dom[v] = FGM_DOM_BIT(given[v]);
        }
    }
    return 1;
}

/* Whether sum factor F of CSP's IR may hold with each variable's value
 * in its set: V's {VAL} (V = -1: none), an assigned one's (ASSIGN not
 * NULL, ASSIGN[u] >= 0) its value, the others' their domain in DOM
 * (NULL: csp->full): whether the least and the largest sums the sets
 * allow leave one in its range.  Bounds
 * only: a sum the sets skip over (values {0, 2}, 1 to reach) passes, so
 * the searches prune a little less than arc consistency would, never a
 * value that a solution takes; once every set is one value the check
 * is exact.  Any arity (the sets are not gathered). */
static int
sum_has_support(const fgm_csp *csp, const fgm_ir_factor *f,
                const fgm_dom *dom, const int *assign, int v, int val)
{
    const int *sc = fgm_ir_scope(csp->ir, f);
    const double *range = fgm_ir_params(csp->ir, f);
    long lo = 0, hi = 0, first, last;
    fgm_dom set;
    int j, u;

    for (j = 0; j < f->arity; j++) {
        u = sc[j];
        set = u == v ? FGM_DOM_BIT(val)
              : assign && assign[u] >= 0 ? FGM_DOM_BIT(assign[u])
              : dom ? dom[u] : csp->full[u];
        if (!set)
            return 0;
        first = fgm_ir_sum_term(range, j, fgm_dom_first(set));
        last = fgm_ir_sum_term(range, j, 63 - __builtin_clzll(set));
        lo += first < last ? first : last;
        hi += first < last ? last : first;
    }
    return lo <= (long)range[1] && hi >= (long)range[0];
}

/* Whether the table factor F of CSP's IR has a nonzero tuple compatible
 * with the per-variable value sets given by SETS (indexed by scope
 * position).  Walks only the tuples the sets allow, in row-major order,
 * an odometer over each set's values: a check with one variable fixed
 * reads one row, not the table (and the domain sizes come from the csp:
 * a call into the IR for each of them was half of an enumeration of ten
 * queens). */
static int
table_has_support(const fgm_csp *csp, const fgm_ir_factor *f,
                  const fgm_dom *sets)
{
    const int *s = fgm_ir_scope(csp->ir, f);
    const double *p = fgm_ir_params(csp->ir, f);
    long stride[64], pos = 0, step = 1;
    int idx[64], k, a = f->arity;
    fgm_dom rest;

    if (a > 64)
        return 1;   /* too wide to check here; fgm_csp_verify checks it */
    for (k = a - 1; k >= 0; k--) {
        if (!sets[k])
            return 0;
        stride[k] = step;
        step *= csp->card[s[k]];
        idx[k] = fgm_dom_first(sets[k]);
        pos += idx[k] * stride[k];
    }
    for (;;) {
        if (p[pos] != 0.0)
            return 1;
        /* The next allowed tuple (last index fastest). */
        for (k = a - 1; k >= 0; k--) {
            pos -= idx[k] * stride[k];
            rest = sets[k] & ~(((fgm_dom)2 << idx[k]) - 1);   /* above */
            idx[k] = fgm_dom_first(rest ? rest : sets[k]);
            pos += idx[k] * stride[k];
            if (rest)
                break;
        }
        if (k < 0)
            return 0;
    }
}

int
fgm_csp_table_supported(const fgm_csp *csp, int t, const fgm_dom *dom, int v,
                        int val)
{
    const fgm_ir *ir = csp->ir;
    const fgm_ir_factor *f = &ir->factors[csp->tables[t]];
    const int *s = fgm_ir_scope(ir, f);
    fgm_dom sets[64];
    int i;

    if (f->kind == FGM_FACTOR_SUM)
        return sum_has_support(csp, f, dom, NULL, v, val);
    if (f->arity > 64)
        return 1;
    for (i = 0; i < f->arity; i++)
        sets[i] = s[i] == v ? FGM_DOM_BIT(val) : dom[s[i]];
    return table_has_support(csp, f, sets);
}

int
fgm_csp_assigned_consistent(const fgm_csp *csp, const int *assign)
{
    int v;

    for (v = 0; v < csp->nvars; v++)
        if (assign[v] >= 0 && !fgm_csp_consistent(csp, assign, v, assign[v]))
            return 0;
    return 1;
}

int
fgm_csp_dead_var(const fgm_csp *csp, const int *assign)
{
    fgm_dom d;
    int v;

    for (v = 0; v < csp->nvars; v++) {
        if (assign[v] >= 0)
            continue;
        for (d = csp->full[v]; d; d &= d - 1)
            if (fgm_csp_consistent(csp, assign, v, __builtin_ctzll(d)))
                break;
        if (!d)
            return v;
    }
    return -1;
}

int
fgm_csp_consistent(const fgm_csp *csp, const int *assign, int v, int val)
{
    const int *p = fgm_csp_peers(csp, v);
    int i, n = fgm_csp_npeers(csp, v);

    if (!(csp->full[v] & FGM_DOM_BIT(val)))
        return 0;
    for (i = 0; i < n; i++)
        if (assign[p[i]] == val)
            return 0;
    for (i = csp->var_table_off[v]; i < csp->var_table_off[v + 1]; i++) {
        const fgm_ir_factor *f = &csp->ir->factors[csp->tables[csp->var_tables[i]]];
        const int *s = fgm_ir_scope(csp->ir, f);
        fgm_dom sets[64];
        int k;

        if (f->kind == FGM_FACTOR_SUM) {
            if (!sum_has_support(csp, f, NULL, assign, v, val))
                return 0;
            continue;
        }
        if (f->arity > 64)
            continue;
        for (k = 0; k < f->arity; k++) {
            if (s[k] == v)
                sets[k] = FGM_DOM_BIT(val);
            else if (assign[s[k]] >= 0)
                sets[k] = FGM_DOM_BIT(assign[s[k]]);
            else
                sets[k] = csp->full[s[k]];
        }
        if (!table_has_support(csp, f, sets))
            return 0;
    }
    return 1;
}

int
fgm_csp_unit_is_full(const fgm_csp *csp, int u)
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

int
fgm_csp_verify(const fgm_csp *csp, const int *given, const int *assign)
{
    const fgm_ir *ir = csp->ir;
    int v, i, j, k;

    for (v = 0; v < csp->nvars; v++) {
        if (assign[v] < 0 || assign[v] >= csp->card[v])
            return 0;
        if (given && given[v] >= 0 && given[v] != assign[v])
            return 0;
    }
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, f);
        const double *p = fgm_ir_params(ir, f);
        long pos = 0;

        switch (f->kind) {
        case FGM_FACTOR_NEQ:
        case FGM_FACTOR_ALLDIFF:
            for (j = 0; j < f->arity; j++)
                for (k = j + 1; k < f->arity; k++)
                    if (assign[s[j]] == assign[s[k]])
                        return 0;
            break;
        case FGM_FACTOR_TABLE:
            for (j = 0; j < f->arity; j++)
                pos = pos * csp->card[s[j]] + assign[s[j]];
            if (p[pos] == 0.0)
                return 0;
            break;
        case FGM_FACTOR_EVIDENCE:
            if (p[assign[s[0]]] == 0.0)
                return 0;
            break;
        case FGM_FACTOR_SUM:
            for (j = 0, pos = 0; j < f->arity; j++)
                pos += fgm_ir_sum_term(p, j, assign[s[j]]);
            if (!fgm_ir_sum_meets(p, pos))
                return 0;
            break;
        case FGM_FACTOR_DIRICHLET_DISCRETE:
        case FGM_FACTOR_DIRICHLET_GATED:
            break;      /* a Dirichlet prior gives every value mass */
        default:
            return 0;
        }
    }
    return 1;
}

long
fgm_csp_conflicts(const fgm_csp *csp, const int *given, const int *assign)
{
    const fgm_ir *ir = csp->ir;
    long errors = 0;
    int v, i, j, k;

    for (v = 0; v < csp->nvars; v++)
        if (assign[v] < 0 || assign[v] >= csp->card[v]
            || (given && given[v] >= 0 && given[v] != assign[v]))
            errors++;
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, f);
        const double *p = fgm_ir_params(ir, f);
        long pos = 0;
        int full = 1;

        for (j = 0; j < f->arity; j++)
            full &= assign[s[j]] >= 0 && assign[s[j]] < csp->card[s[j]];
        switch (f->kind) {
        case FGM_FACTOR_NEQ:
        case FGM_FACTOR_ALLDIFF:
            /* n - distinct: each cell holding a value met earlier. */
            for (j = 1; j < f->arity; j++)
                for (k = 0; k < j; k++)
                    if (assign[s[j]] >= 0 && assign[s[j]] == assign[s[k]]) {
                        errors++;
                        break;
                    }
            break;
        case FGM_FACTOR_TABLE:
            for (j = 0; full && j < f->arity; j++)
                pos = pos * csp->card[s[j]] + assign[s[j]];
            errors += full && p[pos] == 0.0;
            break;
        case FGM_FACTOR_EVIDENCE:
            errors += full && p[assign[s[0]]] == 0.0;
            break;
        case FGM_FACTOR_SUM:
            for (j = 0; full && j < f->arity; j++)
                pos += fgm_ir_sum_term(p, j, assign[s[j]]);
            errors += full && !fgm_ir_sum_meets(p, pos);
            break;
        default:
            break;
        }
    }
    return errors;
}

int
fgm_csp_nvars(const fgm_csp *csp)
{
    return csp ? csp->nvars : 0;
}

int
fgm_csp_maxcard(const fgm_csp *csp)
{
    return csp ? csp->maxcard : 0;
}

/* Whether the N weights W that are not zero (zeros only forbid) differ. */
static int
uneven(const double *w, long n)
{
    double first = 0.0;
    long i;

    for (i = 0; i < n; i++) {
        if (w[i] == 0.0)
            continue;
        if (first == 0.0)
            first = w[i];
        else if (w[i] != first)
            return 1;
    }
    return 0;
}

/* The log of the first non-zero of the N weights W (0 when all are). */
static double
log_first(const double *w, long n)
{
    long i;

    for (i = 0; i < n; i++)
        if (w[i] != 0.0)
            return log(w[i]);
    return 0.0;
}

/* A Dirichlet node weighs an assignment by its Dirichlet-multinomial
 * likelihood: the same for every assignment when one variable draws from
 * the node and its pseudo-counts are all equal (1/K), not otherwise
 * (two draws: equal values and different ones weigh differently).
 * DRAWS: fgm_ir_draws of CSP's IR. */
static int
weighted(const fgm_csp *csp, const int *draws)
{
    const fgm_ir *ir = csp->ir;
    int i;

    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];

        if ((f->kind == FGM_FACTOR_EVIDENCE || f->kind == FGM_FACTOR_TABLE)
            && uneven(fgm_ir_params(ir, f), f->nparams))
            return 1;
    }
    for (i = 0; i < ir->ndirichlet; i++) {
        const fgm_ir_array *a = &ir->arrays[ir->dir_array[i]];

        if (draws[i] > 1 || uneven(fgm_ir_node_alpha(ir, i), a->card))
            return 1;
    }
    return 0;
}

int
fgm_csp_weighted(const fgm_csp *csp)
{
    int *draws, w;

    if (!csp)
        return 0;
    if (!(draws = fgm_ir_draws(csp->ir)))
        return 1;   /* enumeration is right either way */
    w = weighted(csp, draws);
    free(draws);
    return w;
}

double
fgm_csp_solution_log_weight(const fgm_csp *csp)
{
    const fgm_ir *ir = csp ? csp->ir : NULL;
    int *draws = ir ? fgm_ir_draws(ir) : NULL;
    double lw = 0.0;
    int i;

    if (!draws || weighted(csp, draws)) {
        free(draws);
        return NAN;
    }
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];

        if (f->kind == FGM_FACTOR_EVIDENCE || f->kind == FGM_FACTOR_TABLE)
            lw += log_first(fgm_ir_params(ir, f), f->nparams);
    }
    /* A node drawn once, its pseudo-counts equal: 1/K for any value. */
    for (i = 0; i < ir->ndirichlet; i++)
        if (draws[i] == 1)
            lw -= log((double)ir->arrays[ir->dir_array[i]].card);
    free(draws);
    return lw;
}

/* The node a clue on each variable is a point mass on, or -1
 * (fgm_ir_clue_nodes), in a new array; NULL when out of memory. */
static int *
clue_nodes(const fgm_ir *ir)
{
    int *node = malloc(((size_t)ir->nvars + 1) * sizeof *node);

    if (node && fgm_ir_clue_nodes(ir, node) != FGM_OK) {
        free(node);
        node = NULL;
    }
    return node;
}

double
fgm_csp_point_mass_shift(const fgm_csp *csp, const int *given)
{
    int *node, v, k, card;
    double shift = 0.0, total;
    const double *alpha;

    if (!csp || !fgm_csp_given_ok(csp, given))
        return NAN;
    if (!given)
        return 0.0;
    if (!(node = clue_nodes(csp->ir)))
        return NAN;
    for (v = 0; v < csp->ir->nvars; v++) {
        if (node[v] < 0 || given[v] < 0)
            continue;
        alpha = fgm_ir_node_alpha(csp->ir, node[v]);
        card = csp->ir->arrays[csp->ir->dir_array[node[v]]].card;
        for (k = 0, total = 0.0; k < card; k++)
            total += alpha[k];
        /* -log(a_x / A), which no subnormal a_x underflows to log 0. */
        shift -= log(alpha[given[v]]) - log(total);
    }
    free(node);
    return shift;
}

fgm_status
fgm_csp_point_mass_means(const fgm_csp *csp, const int *given, double *mean,
                         int mean_stride)
{
    int *node, v, k, card;

    if (!csp || !mean || mean_stride < fgm_ir_dirichlet_maxk(csp->ir)
        || !fgm_csp_given_ok(csp, given))
        return FGM_EINVAL;
    if (!given)
        return FGM_OK;
    if (!(node = clue_nodes(csp->ir)))
        return FGM_ENOMEM;
    for (v = 0; v < csp->ir->nvars; v++) {
        if (node[v] < 0 || given[v] < 0)
            continue;
        card = csp->ir->arrays[csp->ir->dir_array[node[v]]].card;
        for (k = 0; k < card; k++)
            mean[(long)node[v] * mean_stride + k] = k == given[v];
    }
    free(node);
    return FGM_OK;
}
