/* compiler/expand.c: loops, comprehensions and slices to concrete factors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A constraint statement with "for i in a..b, j in c..d" stands for one
 * factor per binding, the first loop variable outermost.  Each binding's
 * references are evaluated to variable indices (a slice expands row-major,
 * a bare array name means all of it), checked (indices, slices, domains,
 * duplicates, table shapes, weights, fix values), and recorded as an
 * instance; lower.c turns instances into IR factors in the same order.
 *
 * A range whose bounds use no loop variable must not be empty: that is
 * always a mistake.  A range that depends on an outer loop variable
 * ("for i in 0..N-1, j in i+1..N-1") may be empty for some bindings; such
 * a binding gives no factor.  The first error in a statement ends that
 * statement, so one mistake inside a loop is reported once, with the
 * binding that caused it.
 *
 * Contract (expand_stmt, per statement, right after sema_stmt):
 *   requires: the statement checked by sema (skipped when bad).
 *   produces: its factor instances, appended to c->insts in order.
 *   breaks:   loop variables' values (left at their last binding).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fgmc.h"

/* The var array that owns variable V: a binary search of c->varrays,
 * which sema fills in numbering order. */
static const fgmc_sym *
owner(const fgmc *c, int v)
{
    int lo = 0, hi = c->nvarrays - 1;

    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;

        if (c->varrays[mid]->first <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return c->varrays[lo];
}

/* Writes "cell[3][4]" for variable V into BUF. */
static const char *
label(const fgmc *c, int v, char *buf, size_t size)
{
    const fgmc_sym *a = owner(c, v);
    int idx[FGM_IR_MAXDIMS], rest = v - a->first, d;
    size_t len;

    for (d = a->ndims - 1; d >= 0; d--) {
        idx[d] = rest % a->dims[d];
        rest /= a->dims[d];
    }
    len = (size_t)snprintf(buf, size, "%s", a->name);
    for (d = 0; d < a->ndims && len < size; d++)
        len += (size_t)snprintf(buf + len, size - len, "[%d]", idx[d]);
    return buf;
}

#define LABEL 96

/* Makes room for N more entries in the scratch scope. */
static int
room(fgmc *c, const fgmc_stmt *s, long n)
{
    long cap = c->scope_cap ? c->scope_cap : 256;
    int *p;
    const fgmc_node **q;
    long long *w;

    if (c->scope_len + n <= c->scope_cap)
        return 1;
    if (c->scope_len + n > FGMC_MAX_SCOPE) {
        diag_error(c, s->loc, "this factor has more than %ld variables",
                   FGMC_MAX_SCOPE);
        return 0;
    }
    while (cap < c->scope_len + n)
        cap *= 2;
    p = realloc(c->scope, (size_t)cap * sizeof *p);
    if (p)
        c->scope = p;
    q = realloc(c->scope_src, (size_t)cap * sizeof *q);
    if (q)
        c->scope_src = q;
    w = realloc(c->scope_coef, (size_t)cap * sizeof *w);
    if (w)
        c->scope_coef = w;
    if (!p || !q || !w) {
        c->oom = 1;
        return 0;
    }
    c->scope_cap = cap;
    return 1;
}

/* Appends the variables reference R denotes to the scratch scope, in
 * row-major order of its subscripts.  Returns 1, or 0 after reporting. */
static int
ref_vars(fgmc *c, const fgmc_stmt *s, const fgmc_node *r)
{
    const fgmc_sym *a = r->sym;
    const fgmc_node *k = r->kids;
    long long lo[FGM_IR_MAXDIMS], hi[FGM_IR_MAXDIMS];
    int idx[FGM_IR_MAXDIMS], d, nd = a->ndims;
    long n = 1;

    for (d = 0; d < nd; d++, k = k ? k->next : NULL) {
        long long top = a->dims[d] - 1;

        if (!k || k->kind == N_ALL) {
            lo[d] = 0;
            hi[d] = top;
        } else if (k->kind == N_RANGE) {
            if (!sema_eval_int(c, k->a, "a slice bound", &lo[d])
                || !sema_eval_int(c, k->b, "a slice bound", &hi[d]))
                return 0;
            if (lo[d] < 0 || lo[d] > top || hi[d] < 0 || hi[d] > top) {
                diag_error(c, k->loc, "slice %lld..%lld is out of range for "
                           "'%s' (dimension %d has indices 0..%lld)", lo[d],
                           hi[d], a->name, d + 1, top);
                return 0;
            }
            if (hi[d] < lo[d]) {
                diag_error(c, k->loc, "slice %lld..%lld of '%s' is empty "
                           "(its bounds are reversed)", lo[d], hi[d],
                           a->name);
                return 0;
            }
        } else {
            if (!sema_eval_int(c, k, "an index", &lo[d]))
                return 0;
            if (lo[d] < 0 || lo[d] > top) {
                diag_error(c, k->loc, "index %lld is out of range for '%s' "
                           "(dimension %d has indices 0..%lld)", lo[d],
                           a->name, d + 1, top);
                return 0;
            }
            hi[d] = lo[d];
        }
        n *= (long)(hi[d] - lo[d] + 1);
    }
    /* A binding that adds nothing (a fix repeated) still walks its
     * references: bound the walk itself, not only what it adds. */
    if ((c->refs += n) > FGMC_MAX_REFS) {
        diag_error(c, s->loc, "model too large: more than %ld variable "
                   "references to expand", FGMC_MAX_REFS);
        c->too_big = 1;
        return 0;
    }
    if (!room(c, s, n))
        return 0;
    for (d = 0; d < nd; d++)
        idx[d] = (int)lo[d];
    for (;;) {
        long flat = 0;

        for (d = 0; d < nd; d++)
            flat = flat * a->dims[d] + idx[d];
        c->scope_src[c->scope_len] = r;
        c->scope[c->scope_len++] = a->first + (int)flat;
        for (d = nd - 1; d >= 0 && idx[d] == hi[d]; d--)
            idx[d] = (int)lo[d];
        if (d < 0)
            break;
        idx[d]++;
    }
    return 1;
}

/* The scratch scope from all references of S. */
static int
scope_of(fgmc *c, const fgmc_stmt *s)
{
    const fgmc_node *r;

    c->scope_len = 0;
    for (r = s->refs->kids; r; r = r->next)
        if (!ref_vars(c, s, r))
            return 0;
    return 1;
}

/* The span of S's references (the statement when it has none). */
static fgmc_loc
refs_loc(const fgmc_stmt *s)
{
    fgmc_loc loc = s->loc;

    if (s->refs->kids) {
        loc.start = s->refs->kids->loc.start;
        loc.end = s->refs->tail->loc.end;
    }
    if (s->terms && s->refs->nkids > 0) {   /* a sum's: 2 * x, -(3 * y) */
        loc.start = s->terms[0]->loc.start;
        loc.end = s->terms[s->refs->nkids - 1]->loc.end;
    }
    return loc;
}

/* No variable twice in the scratch scope; WHAT names the constraint. */
static int
distinct(fgmc *c, const char *what)
{
    char name[LABEL];
    long k;

    if (++c->stamp == 0)
        c->stamp = 1;
    for (k = 0; k < c->scope_len; k++) {
        int v = c->scope[k];

        if (c->mark[v] == c->stamp) {
            diag_error(c, c->scope_src[k]->loc, "'%s' appears twice in this "
                       "%s", label(c, v, name, sizeof name), what);
            return 0;
        }
        c->mark[v] = c->stamp;
    }
    return 1;
}

/* Every variable of the scratch scope has the domain of the first: neq and
 * alldiff compare value indices, so equal indices must mean equal
 * values. */
static int
same_domain(fgmc *c)
{
    const fgmc_sym *a = owner(c, c->scope[0]), *b;
    char n1[LABEL], n2[LABEL];
    long k;

    for (k = 1; k < c->scope_len; k++) {
        b = owner(c, c->scope[k]);
        if (b->lo != a->lo || b->card != a->card) {
            diag_error(c, c->scope_src[k]->loc, "domain mismatch: '%s' is "
                       "in %d..%d but '%s' is in %d..%d",
                       label(c, c->scope[0], n1, sizeof n1), a->lo,
                       a->lo + a->card - 1, label(c, c->scope[k], n2,
                                                  sizeof n2),
                       b->lo, b->lo + b->card - 1);
            return 0;
        }
    }
    return 1;
}

/* Records a factor instance of statement S (the scope is copied; PARAMS
 * stays shared, it lives in the arena). */
static int
add(fgmc *c, const fgmc_stmt *s, fgm_factor_kind kind, const int *scope,
    int arity, double *params, int nparams, int aux)
{
    fgmc_inst *in;

    if (c->ninsts + 1 > FGMC_MAX_FACTORS
        || c->nscope + arity > FGMC_MAX_SCOPE
        || c->nparams + nparams > FGMC_MAX_PARAMS) {
        diag_error(c, s->loc, "model too large: more than %ld factors, %ld "
                   "scope entries or %ld parameters", FGMC_MAX_FACTORS,
                   FGMC_MAX_SCOPE, FGMC_MAX_PARAMS);
        c->too_big = 1;
        return 0;
    }
    in = arena_alloc(c, sizeof *in);
    if (!in || !(in->scope = arena_alloc(c, (size_t)arity * sizeof(int))))
        return 0;
    memcpy(in->scope, scope, (size_t)arity * sizeof(int));
    in->kind = kind;
    in->arity = arity;
    in->params = params;
    in->nparams = nparams;
    in->aux = aux;
    in->stmt = s;
    if (c->last_inst)
        c->last_inst->next = in;
    else
        c->insts = in;
    c->last_inst = in;
    c->ninsts++;
    c->nscope += arity;
    c->nparams += nparams;
    return 1;
}

/* A weight of a table or evidence list: a finite number >= 0. */
static int
weight(fgmc *c, const fgmc_node *e, double *out)
{
    fgmc_num v;

    if (e->kind == N_LIST) {
        diag_error(c, e->loc, "expected a weight here, not a list");
        return 0;
    }
    if (!sema_eval(c, e, &v))
        return 0;
    *out = v.is_real ? v.d : (double)v.i;
    if (!(*out >= 0)) {
        diag_error(c, e->loc, "weights must be >= 0, not %g", *out);
        return 0;
    }
    return 1;
}

/* Fills OUT row-major from the nested list L at nesting LEVEL of a table
 * over the scratch scope; *POS is the next entry. */
static int
table_fill(fgmc *c, const fgmc_node *l, int level,
           double *out, long *pos)
{
    const fgmc_sym *a = owner(c, c->scope[level]);
    const fgmc_node *k;
    char name[LABEL];

    label(c, c->scope[level], name, sizeof name);
    if (l->kind != N_LIST) {
        diag_error(c, l->loc, "expected a list of %d weights for '%s' here, "
                   "not a number", a->card, name);
        return 0;
    }
    if (l->nkids != a->card) {
        diag_error(c, l->loc, "table shape mismatch: this list has %d "
                   "entr%s but '%s' has %d values (%d..%d)", l->nkids,
                   l->nkids == 1 ? "y" : "ies", name, a->card, a->lo,
                   a->lo + a->card - 1);
        return 0;
    }
    for (k = l->kids; k; k = k->next) {
        if (level + 1 < c->scope_len) {
            if (!table_fill(c, k, level + 1, out, pos))
                return 0;
        } else if (!weight(c, k, &out[(*pos)++])) {
            return 0;
        }
    }
    return 1;
}

/* Whether the N weights W are all zero (a factor that rules out
 * everything). */
static int
all_zero(const double *w, long n)
{
    long i;

    for (i = 0; i < n; i++)
        if (w[i] != 0)
            return 0;
    return 1;
}

/* Weights far from 1 (their largest 2^32 or more, or under 2^-32) are
 * scaled by the power of two that brings their largest into [0.5, 1),
 * or as near as keeps the smallest nonzero one a normal double.  A
 * factor's weights only count relative to each other, and the inference
 * kernels multiply and normalize them in doubles: 1e308 overflowed a
 * sum, subnormals fell under the messages' floor, and both left uniform
 * marginals where the model says otherwise.  A power of two is exact
 * between normal doubles, and no nonzero weight becomes subnormal or
 * zero (the exact backend reads a zero as a hard constraint); weights in
 * the usual range are left as written (the IR, its dump and hash
 * unchanged). */
#define WEIGHT_SCALE_EXP 32

/* The largest of the N weights W. */
static double
max_weight(const double *w, long n)
{
    double mx = 0.0;
    long i;

    for (i = 0; i < n; i++)
        mx = w[i] > mx ? w[i] : mx;
    return mx;
}

static void
rescale(double *w, long n)
{
    double mx = max_weight(w, n), mn = HUGE_VAL;
    long i;
    int emax, emin, s;

    for (i = 0; i < n; i++)
        mn = w[i] > 0.0 && w[i] < mn ? w[i] : mn;
    frexp(mx, &emax);
    if (emax > -WEIGHT_SCALE_EXP && emax <= WEIGHT_SCALE_EXP)
        return;
    frexp(mn, &emin);
    s = -emax;
    if (emin + s < DBL_MIN_EXP)
        s = DBL_MIN_EXP - emin;     /* the smallest stays normal */
    /* Weights spread wider than doubles can hold scaled: as written. */
    if (s == 0 || (s < 0) != (emax > 0))
        return;
    for (i = 0; i < n; i++)
        w[i] = ldexp(w[i], s);
}

/* After rescale: a warning, once a statement, when a nonzero weight of W
 * (N) is still below the smallest normal double (weights spread wider
 * than a double's normal range, or one subnormal where the largest is
 * near 1).  The sweeps flush such numbers to zero (runtime/model.c: the
 * x86 MXCSR), so the approximate algorithms read it as a hard zero, a
 * value ruled out, while the exact backend keeps it. */
static void
warn_tiny(fgmc *c, const fgmc_stmt *s, fgmc_loc at, const double *w, long n)
{
    long i;

    if (c->warned_tiny == s)
        return;
    for (i = 0; i < n; i++)
        if (w[i] > 0.0 && w[i] < DBL_MIN) {
            c->warned_tiny = s;
            /* The ratio as a power of ten: the quotient itself
             * underflows (5e-324 / 1e9 is 0). */
            diag_warning(c, at, "a weight is below the smallest normal "
                         "double, about 1e%.0f times the largest: ep, bp "
                         "and gibbs read it as 0 (a value ruled out), the "
                         "exact backend does not",
                         log10(w[i]) - log10(max_weight(w, n)));
            return;
        }
}

static int inner_scope(fgmc *c, const fgmc_stmt *s,
                       int (*once)(fgmc *, const fgmc_stmt *));
static int refs_once(fgmc *c, const fgmc_stmt *s);

static int
inst_alldiff(fgmc *c, const fgmc_stmt *s)
{
    const fgmc_sym *a;

    if (!inner_scope(c, s, refs_once))
        return 0;
    if (c->scope_len < 2) {
        diag_error(c, refs_loc(s), "alldiff over %s: it needs at least 2 "
                   "variables", c->scope_len ? "1 variable" : "no variables");
        return 0;
    }
    if (!distinct(c, "alldiff") || !same_domain(c))
        return 0;
    a = owner(c, c->scope[0]);
    if (c->scope_len > a->card) {
        diag_error(c, refs_loc(s), "alldiff over %ld variables cannot hold: "
                   "their domain %d..%d has only %d value%s", c->scope_len,
                   a->lo, a->lo + a->card - 1, a->card,
                   a->card == 1 ? "" : "s");
        return 0;
    }
    return add(c, s, FGM_FACTOR_ALLDIFF, c->scope, (int)c->scope_len, NULL,
               0, -1);
}

/* Whether sum term T (sema_sum_terms' shapes: a reference, negated or
 * multiplied by numbers) holds reference REF. */
static int
term_holds(const fgmc_node *t, const fgmc_node *ref)
{
    return t == ref || (t->kind == N_NEG && term_holds(t->a, ref))
           || (t->kind == N_MUL && (term_holds(t->a, ref)
                                    || term_holds(t->b, ref)));
}

/* The coefficient of sum term T, whose reference is REF, for the
 * current binding, into *COEF.  Returns 1, or 0 after reporting a real,
 * a zero or one past FGM_IR_SUM_MAXCOEF in size. */
static int
term_coef(fgmc *c, const fgmc_node *t, const fgmc_node *ref,
          long long *coef)
{
    long long x;
    int in_a;

    switch (t->kind) {
    case N_NEG:
        if (!term_coef(c, t->a, ref, coef))
            return 0;
        *coef = -*coef;
        return 1;
    case N_MUL:
        in_a = term_holds(t->a, ref);
        if (!sema_eval_int(c, in_a ? t->b : t->a, "a sum's coefficient", &x)
            || !term_coef(c, in_a ? t->a : t->b, ref, coef))
            return 0;
        /* Compared, not llabs'd: llabs(LLONG_MIN) is negative.  *COEF
         * is within the bound, so a product of a bounded X is too. */
        if (x == 0 || x < -FGM_IR_SUM_MAXCOEF || x > FGM_IR_SUM_MAXCOEF
            || *coef * x < -FGM_IR_SUM_MAXCOEF
            || *coef * x > FGM_IR_SUM_MAXCOEF) {
            diag_error(c, t->loc, "a sum's coefficient must be a nonzero "
                       "integer of at most %d in size; this one is %lld",
                       FGM_IR_SUM_MAXCOEF,
                       x == 0 || x < -FGM_IR_SUM_MAXCOEF
                       || x > FGM_IR_SUM_MAXCOEF ? x : *coef * x);
            return 0;
        }
        *coef *= x;
        return 1;
    default:            /* the reference */
        *coef = 1;
        return 1;
    }
}

static int enter(fgmc *c, int k, long long *hi, int *quiet);

/* Appends sum S's terms for the current binding to the scratch scope,
 * each entry's coefficient beside it (c->scope_coef).  Returns 1, or 0
 * after reporting. */
static int
sum_terms_once(fgmc *c, const fgmc_stmt *s)
{
    const fgmc_node *r;
    long start, k;
    long long a;
    int i = 0;

    for (r = s->refs->kids; r; r = r->next, i++) {
        start = c->scope_len;
        if (!ref_vars(c, s, r) || !term_coef(c, s->terms[i], r, &a))
            return 0;
        for (k = start; k < c->scope_len; k++)
            c->scope_coef[k] = a;
    }
    return 1;
}

/* Appends the variables of S's references for the current binding to
 * the scratch scope.  Returns 1, or 0 after reporting. */
static int
refs_once(fgmc *c, const fgmc_stmt *s)
{
    const fgmc_node *r;

    for (r = s->refs->kids; r; r = r->next)
        if (!ref_vars(c, s, r))
            return 0;
    return 1;
}

/* The variables of sum or alldiff S for the current binding into the
 * scratch scope by ONCE (sum_terms_once, with each entry's coefficient;
 * refs_once): its references once, or once per binding of its own for
 * clause (`sum(i * x[i] for i in 1..N)`, `alldiff(x[i][i] for i in
 * 0..N-1)`), walked as the statement's (expand_loops: a level whose
 * range is empty gives nothing), its loop variables after the
 * statement's in c->bound, so that a message names them all.  Returns
 * 1, or 0 after reporting. */
static int
inner_scope(fgmc *c, const fgmc_stmt *s,
            int (*once)(fgmc *, const fgmc_stmt *))
{
    fgmc_node **outer = c->bound, *b;
    long long *hi;
    int k0 = c->nbound, nb, k, r, quiet = 0, ok = 1;

    c->scope_len = 0;
    if (!s->inner)
        return once(c, s);
    nb = k0 + s->inner->nkids;
    if (nb > c->sum_cap) {      /* once a statement, not a binding */
        c->sum_bound = arena_alloc(c, (size_t)nb * sizeof *c->sum_bound);
        c->sum_hi = arena_alloc(c, (size_t)nb * sizeof *c->sum_hi);
        if (!c->sum_bound || !c->sum_hi) {
            c->sum_cap = 0;
            return 0;
        }
        c->sum_cap = nb;
    }
    c->bound = c->sum_bound;
    hi = c->sum_hi;
    for (k = 0; k < k0; k++)
        c->bound[k] = outer[k];
    for (b = s->inner->kids; b; b = b->next)
        c->bound[k++] = b;
    k = k0;
    r = enter(c, k0, &hi[k0], &quiet);
    while (r >= 0) {
        if (++c->iters > FGMC_MAX_ITERS) {
            diag_error(c, s->loc, "more than %ld loop iterations in this "
                       "model", FGMC_MAX_ITERS);
            c->too_big = 1;
            ok = 0;
            break;
        }
        if (r == 1 && k < nb - 1) {
            k++;
            r = enter(c, k, &hi[k], &quiet);
            continue;
        }
        if (r == 1 && !once(c, s)) {
            ok = 0;
            break;
        }
        if (r == 0)
            k--;                /* level k is empty: step the one above */
        while (k >= k0 && c->bound[k]->sym->value >= hi[k])
            k--;
        if (k < k0)
            break;
        c->bound[k]->sym->value++;
        c->nbound = k + 1;
        r = 1;
    }
    c->bound = outer;
    c->nbound = k0;
    return ok && r >= 0;
}

/* The greatest common divisor of A >= 0 and B >= 0 (gcd(0, B) = B). */
static long long
gcd(long long a, long long b)
{
    while (b != 0) {
        long long r = a % b;

        a = b;
        b = r;
    }
    return a;
}

/* A sum of one term, coefficient A, whose index times A must lie in
 * LO..HI (FIRST..LAST: the values the term takes): an evidence factor
 * of 1 on the values that meet it and 0 elsewhere, as `x OP number`,
 * which the message passing applies once, not a factor it updates every
 * sweep (a Killer Sudoku's cages of one cell).  An error when no value
 * meets it: the bounds let `sum(2 * x) == 3` through. */
static int
sum_evidence(fgmc *c, const fgmc_stmt *s, long long total, long long a,
             long long lo, long long hi, long long first, long long last)
{
    const fgmc_sym *o = owner(c, c->scope[0]);
    double *w = arena_alloc(c, (size_t)o->card * sizeof *w);
    long held = 0, y;

    if (!w)
        return 0;
    for (y = 0; y < o->card; y++)
        held += (w[y] = a * y >= lo && a * y <= hi) != 0.0;
    if (held == 0) {
        diag_error(c, s->value->loc, "'%s %lld' cannot hold: the term takes "
                   "the values %lld..%lld in steps of %lld",
                   fgmc_cmp_text(s->op), total, first, last, llabs(a));
        return 0;
    }
    return add(c, s, FGM_FACTOR_EVIDENCE, c->scope, 1, w, o->card, -1);
}

/* `sum(a x, ...) OP total` for the current binding: the weighted sum of
 * the values, each value its index plus its domain's low end, so the
 * range of the indices' weighted sum (the IR's parameters, then the
 * coefficients) is the total's minus the low ends' sum, cut to the sums
 * the domains reach.  A range outside them is an error (no assignment
 * meets it); one that takes them all adds no factor. */
static int
inst_sum(fgmc *c, const fgmc_stmt *s)
{
    long long total, base = 0, least = 0, most = 0, at, lo, hi, a = 1, t, end;
    long long first, last, g = 0;
    double *params;
    long k;
    int weighted = 0, n;

    if (!inner_scope(c, s, sum_terms_once))
        return 0;
    if (c->scope_len < 1) {
        diag_error(c, refs_loc(s), "sum over no variables");
        return 0;
    }
    if (!distinct(c, "sum"))
        return 0;
    if (s->op == FGMC_CMP_NE) {
        diag_error(c, s->value->loc, "a sum takes ==, <, <=, > or >=, "
                   "not '!=' (its values would not be one range)");
        return 0;
    }
    if (!sema_eval_int(c, s->value, "a sum's total", &total))
        return 0;
    n = (int)c->scope_len;
    params = arena_alloc(c, ((size_t)n + FGM_IR_SUM_COEF) * sizeof *params);
    if (!params)
        return 0;
    for (k = 0; k < n; k++) {
        const fgmc_sym *o = owner(c, c->scope[k]);

        a = c->scope_coef[k];
        weighted |= a != 1;
        g = gcd(g, a < 0 ? -a : a);
        params[FGM_IR_SUM_COEF + k] = (double)a;
        /* |a lo| <= 10^15 a term, but 2^24 of them pass 2^63. */
        if (__builtin_mul_overflow(a, (long long)o->lo, &t)
            || __builtin_add_overflow(base, t, &base)) {
            diag_error(c, refs_loc(s), "this sum's values reach past "
                       "2^63");
            return 0;
        }
        end = a * (o->card - 1);
        least += end < 0 ? end : 0;
        most += end > 0 ? end : 0;
    }
    if (least < -(long long)INT_MAX || most > INT_MAX) {
        diag_error(c, refs_loc(s), "this sum's weighted value indices span "
                   "%lld..%lld, past the %d the sum operator takes", least,
                   most, INT_MAX);
        return 0;
    }
    /* The total's place among the sums, a total past them taken one
     * past their ends (it compares to every sum the same way). */
    if (__builtin_add_overflow(base, least, &first)
        || __builtin_add_overflow(base, most, &last)) {
        diag_error(c, refs_loc(s), "this sum's values reach past 2^63");
        return 0;
    }
    at = total < first ? least - 1 : total > last ? most + 1 : total - base;
    lo = s->op == FGMC_CMP_EQ || s->op == FGMC_CMP_GE ? at
       : s->op == FGMC_CMP_GT ? at + 1 : least;
    hi = s->op == FGMC_CMP_EQ || s->op == FGMC_CMP_LE ? at
       : s->op == FGMC_CMP_LT ? at - 1 : most;
    lo = lo < least ? least : lo;
    hi = hi > most ? most : hi;
    /* Every sum of the terms is a multiple of G, their coefficients'
     * greatest common divisor (as are LEAST and MOST): the range taken
     * to the multiples it holds.  `sum(2 * x, 4 * y) == 5` meets none. */
    lo = lo >= 0 ? (lo + g - 1) / g * g : -(-lo / g * g);
    hi = hi >= 0 ? hi / g * g : -((-hi + g - 1) / g * g);
    if (lo > hi) {
        char steps[48] = "";

        if (g > 1)
            snprintf(steps, sizeof steps, " in steps of %lld", g);
        if (c->scope_len == 1)
            diag_error(c, s->value->loc, "'%s %lld' cannot hold: the "
                       "%s lies in %lld..%lld%s", fgmc_cmp_text(s->op),
                       total, weighted ? "term" : "variable's value", first,
                       last, steps);
        else
            diag_error(c, s->value->loc, "'%s %lld' cannot hold: the %ssum "
                       "of these %ld variables lies in %lld..%lld%s",
                       fgmc_cmp_text(s->op), total,
                       weighted ? "weighted " : "", c->scope_len, first,
                       last, steps);
        return 0;
    }
    if (lo == least && hi == most)
        return 1;       /* every sum meets it (warn_always_holds) */
    if (n == 1)
        return sum_evidence(c, s, total, a, lo, hi, first, last);
    params[0] = (double)lo;
    params[1] = (double)hi;
    return add(c, s, FGM_FACTOR_SUM, c->scope, n, params,
               n + FGM_IR_SUM_COEF, -1);
}

/* Whether X OP Y holds (integers, or a value and a real number: exact
 * for the values of any domain). */
static int
compare(fgmc_cmp op, double x, double y)
{
    switch (op) {
    case FGMC_CMP_NE: return x != y;
    case FGMC_CMP_EQ: return x == y;
    case FGMC_CMP_LT: return x < y;
    case FGMC_CMP_LE: return x <= y;
    case FGMC_CMP_GT: return x > y;
    default:          return x >= y;
    }
}

/* How many values v of DX meet v OP N; each one's weight (1 or 0) into
 * W when W is not NULL.  Counted first, filled once a factor is added. */
static long
compare_values(fgmc_cmp op, const fgmc_sym *dx, double n, double *w)
{
    long a, held = 0;
    int ok;

    for (a = 0; a < dx->card; a++) {
        ok = compare(op, dx->lo + a, n);
        held += ok;
        if (w)
            w[a] = ok;
    }
    return held;
}

/* compare_values for pairs: how many values a of DX and b of DY meet
 * a OP b + OFF, their weights row by row into W when not NULL. */
static long
compare_pairs(fgmc_cmp op, const fgmc_sym *dx, const fgmc_sym *dy,
              long long off, double *w)
{
    long a, b, held = 0;
    int ok;

    for (a = 0; a < dx->card; a++)
        for (b = 0; b < dy->card; b++) {
            ok = compare(op, dx->lo + a, (double)(dy->lo + b + off));
            held += ok;
            if (w)
                w[a * dy->card + b] = ok;
        }
    return held;
}

/* x OP N, N a number, integer or real (the statement's rhs, evaluated
 * for this binding):
 * an evidence factor of 1 where x's value meets the comparison and 0
 * elsewhere; none when every value meets it, an error when none does. */
static int
inst_compare_number(fgmc *c, const fgmc_stmt *s)
{
    const char *op = fgmc_cmp_text(s->op);
    const fgmc_sym *dx;
    char name[LABEL], num[32];
    double n;
    long held;
    double *w;

    if (!scope_of(c, s) || !sema_eval_real(c, s->rhs, &n))
        return 0;
    dx = owner(c, c->scope[0]);
    /* Counted before the weights are allocated, as inst_neq does. */
    held = compare_values(s->op, dx, n, NULL);
    if (held == dx->card)
        return 1;
    if (held == 0) {
        /* The shortest text that reads back as N: "%g" made 2.0000001
         * "2", a value of the domain. */
        int prec = 6;
        fgmc_loc at = refs_loc(s);

        if (n == trunc(n) && fabs(n) < 1e15)
            snprintf(num, sizeof num, "%.0f", n);
        else
            do
                snprintf(num, sizeof num, "%.*g", prec, n);
            while (strtod(num, NULL) != n && ++prec <= 17);
        at.end = s->rhs->loc.end;   /* the comparison, as x OP y's */
        diag_error(c, at, "'%s' cannot hold: no value of '%s' (%d..%d) is "
                   "%s %s", op, label(c, c->scope[0], name, sizeof name),
                   dx->lo, dx->lo + dx->card - 1, op, num);
        return 0;
    }
    w = arena_alloc(c, (size_t)dx->card * sizeof *w);
    if (!w)
        return 0;
    compare_values(s->op, dx, n, w);
    return add(c, s, FGM_FACTOR_EVIDENCE, c->scope, 1, w, (int)dx->card,
               -1);
}

/* x OP y, or x OP y + OFFSET (the statement's value, evaluated for this
 * binding), on the variables' values.  x != y is the native != factor
 * (both variables of one domain); any other comparison, or one with an
 * offset, a table over (x, y) of 1 where it holds and 0 elsewhere (the
 * N-queens diagonals: q[i] != q[j] + (j - i)).  A comparison that every
 * pair of values meets rules nothing out: no factor; one that none meets
 * cannot hold, an error. */
static int
inst_neq(fgmc *c, const fgmc_stmt *s)
{
    const fgmc_sym *dx, *dy;    /* the arrays of x and y: their domains */
    const char *op = fgmc_cmp_text(s->op);
    char what[8], n1[LABEL], n2[LABEL];
    long long off = 0;
    long n, held;
    double *w;

    if (s->refs->nkids == 1)
        return inst_compare_number(c, s);
    snprintf(what, sizeof what, "'%s'", op);
    if (!scope_of(c, s) || !distinct(c, what)
        || (s->op == FGMC_CMP_NE && !same_domain(c)))
        return 0;
    if (s->value && !sema_eval_int(c, s->value, "an offset", &off))
        return 0;
    /* Domains lie within int: an offset past 2^40 compares as 2^40 does,
     * and y's value plus it cannot overflow (it did, near 2^63). */
    if (off > (1LL << 40))
        off = 1LL << 40;
    if (off < -(1LL << 40))
        off = -(1LL << 40);
    dx = owner(c, c->scope[0]);
    dy = owner(c, c->scope[1]);
    if (s->op == FGMC_CMP_NE && off == 0 && dx->card == 1) {
        /* As alldiff's: BP and EP would only floor every message. */
        diag_error(c, refs_loc(s), "'!=' cannot hold: its variables' "
                   "domain %d..%d has only 1 value", dx->lo, dx->lo);
        return 0;
    }
    if (s->op == FGMC_CMP_NE && off == 0)
        return add(c, s, FGM_FACTOR_NEQ, c->scope, 2, NULL, 0, -1);
    n = (long)dx->card * dy->card;
    /* Counted before the table is allocated: a binding whose comparison
     * always holds adds nothing, and kept nothing (16M such bindings
     * held 500 MB of tables no factor used). */
    held = compare_pairs(s->op, dx, dy, off, NULL);
    if (held == n)
        return 1;
    if (held == 0) {
        diag_error(c, refs_loc(s), "'%s' cannot hold: no value of '%s' "
                   "(%d..%d) is %s one of '%s' (%d..%d)%s", op,
                   label(c, c->scope[0], n1, sizeof n1), dx->lo,
                   dx->lo + dx->card - 1, op,
                   label(c, c->scope[1], n2, sizeof n2), dy->lo,
                   dy->lo + dy->card - 1, off ? " plus the offset" : "");
        return 0;
    }
    w = arena_alloc(c, (size_t)n * sizeof *w);
    if (!w)
        return 0;
    compare_pairs(s->op, dx, dy, off, w);
    return add(c, s, FGM_FACTOR_TABLE, c->scope, 2, w, (int)n, -1);
}

static int
inst_table(fgmc *c, const fgmc_stmt *s)
{
    long n = 1, k, pos = 0;
    double *w;

    if (!scope_of(c, s) || !distinct(c, "table"))
        return 0;
    for (k = 0; k < c->scope_len; k++) {
        n *= owner(c, c->scope[k])->card;
        if (n > 1L << 22) {
            diag_error(c, refs_loc(s), "this table would have more than %ld "
                       "entries", 1L << 22);
            return 0;
        }
    }
    w = arena_alloc(c, (size_t)n * sizeof *w);
    if (!w || !table_fill(c, s->weights, 0, w, &pos))
        return 0;
    if (all_zero(w, n)) {
        diag_error(c, s->weights->loc, "the table's weights are all zero");
        return 0;
    }
    rescale(w, n);
    warn_tiny(c, s, s->weights->loc, w, n);
    return add(c, s, FGM_FACTOR_TABLE, c->scope, (int)c->scope_len, w,
               (int)n, -1);
}

static int
inst_evidence(fgmc *c, const fgmc_stmt *s)
{
    const fgmc_node *l = s->weights, *k;
    const fgmc_sym *a;
    char name[LABEL];
    double *w;
    long i;

    if (!scope_of(c, s))
        return 0;
    a = owner(c, c->scope[0]);
    if (l->nkids != a->card) {
        diag_error(c, l->loc, "evidence has %d weight%s but '%s' has %d "
                   "values (%d..%d)", l->nkids, l->nkids == 1 ? "" : "s",
                   label(c, c->scope[0], name, sizeof name), a->card, a->lo,
                   a->lo + a->card - 1);
        return 0;
    }
    w = arena_alloc(c, (size_t)a->card * sizeof *w);
    if (!w)
        return 0;
    for (k = l->kids, i = 0; k; k = k->next, i++)
        if (!weight(c, k, &w[i]))
            return 0;
    if (all_zero(w, a->card)) {
        diag_error(c, l->loc, "the evidence weights are all zero");
        return 0;
    }
    rescale(w, a->card);
    warn_tiny(c, s, l->loc, w, a->card);
    for (i = 0; i < c->scope_len; i++)
        if (!add(c, s, FGM_FACTOR_EVIDENCE, &c->scope[i], 1, w, a->card, -1))
            return 0;
    return 1;
}

/* Fixes variable V to the value labelled VAL (reported at LOC when
 * outside its domain): a point-mass evidence factor.  The same value
 * twice adds nothing; another value is an error. */
static int
fix_var(fgmc *c, const fgmc_stmt *s, int v, long long val,
        fgmc_loc loc)
{
    const fgmc_sym *a = owner(c, v);
    char name[LABEL];
    double *w;
    int idx;

    if (val < a->lo || val > a->lo + a->card - 1) {
        diag_error(c, loc, "value %lld is outside the domain %d..%d of '%s'",
                   val, a->lo, a->lo + a->card - 1,
                   label(c, v, name, sizeof name));
        return 0;
    }
    idx = (int)(val - a->lo);
    if (c->fixed[v] == idx)
        return 1;
    if (c->fixed[v] >= 0) {
        diag_error(c, loc, "'%s' is already fixed to %d",
                   label(c, v, name, sizeof name), a->lo + c->fixed[v]);
        return 0;
    }
    c->fixed[v] = idx;
    w = arena_alloc(c, (size_t)a->card * sizeof *w);
    if (!w)
        return 0;
    w[idx] = 1;
    return add(c, s, FGM_FACTOR_EVIDENCE, &v, 1, w, a->card, -1);
}

/* The value of symbol CH of a fix string: 1-9, then A-Z (or a-z) for 10
 * and up; -1 for '.', '0' or '-' (no clue).  sema checked the symbols. */
static int
symbol_value(char ch)
{
    if (ch >= '1' && ch <= '9')
        return ch - '0';
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 10;
    return -1;
}

static int
inst_fix(fgmc *c, const fgmc_stmt *s)
{
    const fgmc_node *r = s->refs->kids;
    long long val;
    long i, len;

    if (!scope_of(c, s))
        return 0;
    if (!s->has_str) {
        if (!sema_eval_int(c, s->value, "a fixed value", &val))
            return 0;
        for (i = 0; i < c->scope_len; i++)
            if (!fix_var(c, s, c->scope[i], val, s->value->loc))
                return 0;
        return 1;
    }
    len = s->str.end - s->str.start - 2;
    if (len != c->scope_len) {
        diag_error(c, s->str, "fix string has %ld symbol%s but '%.*s' has "
                   "%ld variable%s", len, len == 1 ? "" : "s",
                   r->loc.end - r->loc.start > 60 ? 60
                   : r->loc.end - r->loc.start, c->src + r->loc.start,
                   c->scope_len, c->scope_len == 1 ? "" : "s");
        return 0;
    }
    for (i = 0; i < len; i++) {
        int at = s->str.start + 1 + (int)i, v = symbol_value(c->src[at]);
        fgmc_loc loc = { at, at + 1 };
        const fgmc_sym *a = owner(c, c->scope[i]);
        char name[LABEL];

        if (c->src[at] == '0' && a->lo <= 0 && a->lo + a->card > 0) {
            /* '0' would leave free a variable whose value 0 the writer
             * may have meant. */
            label(c, c->scope[i], name, sizeof name);
            diag_error(c, loc, "'0' in a fix string leaves '%s' free, but "
                       "0 is one of its values: write '.' for a free "
                       "variable, and 'fix %s = 0' to fix it to 0", name,
                       name);
            return 0;
        }
        if (v >= 0 && !fix_var(c, s, c->scope[i], v, loc))
            return 0;
    }
    return 1;
}

/* The draw `X ~ discrete(P[...])` of S for the current binding: from
 * the one node its subscripts name, or, gated by G1..Gm (P's last
 * subscripts, from s->rhs on), from the node their values pick; the
 * scope is (X, G1, ..., Gm), aux the node of the gates' first values. */
static int
inst_draw(fgmc *c, const fgmc_stmt *s)
{
    const fgmc_node *r = s->dist->a, *k;
    const fgmc_sym *p = r->sym;
    char name[LABEL];
    long long v;
    long g;
    int d, node = 0, gates = 0;

    if (!scope_of(c, s))
        return 0;
    for (k = s->rhs; k; k = k->next, gates++)
        if (!ref_vars(c, s, k))
            return 0;
    for (g = 1; g <= gates; g++)
        if (c->scope[g] == c->scope[0]) {
            diag_error(c, c->scope_src[g]->loc, "'%s' picks the prior it is "
                       "drawn from", label(c, c->scope[0], name,
                                           sizeof name));
            return 0;
        }
    if (gates > 1 && !distinct(c, "draw's gates"))
        return 0;
    for (k = r->kids, d = 0, g = 0; k; k = k->next, d++) {
        if (s->rhs && (k == s->rhs || g > 0))   /* a gate: its first node */
            v = owner(c, c->scope[++g])->lo;
        else if (!sema_prior_index(c, k, p, d, &v))
            return 0;
        node = node * p->dims[d] + (int)v;
    }
    return add(c, s, s->rhs ? FGM_FACTOR_DIRICHLET_GATED
                            : FGM_FACTOR_DIRICHLET_DISCRETE,
               c->scope, 1 + gates, NULL, 0, p->first + node);
}

/* The instance(s) of constraint S for the current binding. */
static int
instance(fgmc *c, const fgmc_stmt *s)
{
    switch (s->kind) {
    case S_ALLDIFF:
        return inst_alldiff(c, s);
    case S_SUM:
        return inst_sum(c, s);
    case S_NEQ:
        return inst_neq(c, s);
    case S_TABLE:
        return inst_table(c, s);
    case S_EVIDENCE:
        return inst_evidence(c, s);
    case S_DRAW:
        return inst_draw(c, s);
    default:
        return inst_fix(c, s);
    }
}

/* Whether expression E names a symbol of kind KIND. */
static int
uses_kind(const fgmc_node *e, fgmc_sym_kind kind)
{
    if (!e)
        return 0;
    if (e->kind == N_REF)
        return e->sym && e->sym->kind == kind;
    return uses_kind(e->a, kind) || uses_kind(e->b, kind);
}

/* Enters loop level K: evaluates its range and binds the variable to the
 * low end.  Returns 1, 0 for an empty range that may be (*QUIET set when
 * the clause may then stand for nothing), -1 on error.  An empty range
 * may be when it depends on an outer loop variable (i+1..N-1 for the
 * last i), or when it is empty by one and written with a const
 * (0..T-2 for T = 1: a model's edge size, so that an HMM of one step has
 * no transitions rather than an error; i+1..N-1 for N = 1, no pairs);
 * a range reversed further, or written with numbers alone, is an
 * error. */
static int
enter(fgmc *c, int k, long long *hi, int *quiet)
{
    fgmc_node *b = c->bound[k], *r = b->a;
    long long lo;

    c->nbound = k;
    if (!sema_eval_int(c, r->a, "a range bound", &lo)
        || !sema_eval_int(c, r->b, "a range bound", hi))
        return -1;
    if (*hi < lo) {
        /* By one with a const first, loop variable or not: the pairs
         * clause `i in 0..N-1, j in i+1..N-1` has none at N = 1. */
        if (*hi == lo - 1 && (uses_kind(r->a, SYM_CONST)
                              || uses_kind(r->b, SYM_CONST))) {
            *quiet = 1;
            return 0;
        }
        if (uses_kind(r->a, SYM_LOOP) || uses_kind(r->b, SYM_LOOP))
            return 0;
        diag_error(c, r->loc, "range %lld..%lld is empty", lo, *hi);
        return -1;
    }
    b->sym->value = lo;
    c->nbound = k + 1;
    return 1;
}

/* Runs constraint S once per binding of its for clause. */
static void
expand_loops(fgmc *c, const fgmc_stmt *s)
{
    long long *hi;
    fgmc_node *b;
    fgmc_bindings log;
    int nb = 0, k = 0, r, quiet = 0, logged;
    long bodies = 0;

    c->bodies = 0;
    if (!s->binders) {
        c->bodies = 1;
        instance(c, s);
        return;
    }
    nb = s->binders->nkids;
    c->bound = arena_alloc(c, (size_t)nb * sizeof *c->bound);
    hi = arena_alloc(c, (size_t)nb * sizeof *hi);
    if (!c->bound || !hi)
        return;
    for (b = s->binders->kids; b; b = b->next)
        c->bound[k++] = b;
    logged = fgmc_bindings_open(s, &log);
    k = 0;
    r = enter(c, 0, &hi[0], &quiet);
    while (r >= 0) {
        if (++c->iters > FGMC_MAX_ITERS) {
            diag_error(c, s->loc, "more than %ld loop iterations in this "
                       "model", FGMC_MAX_ITERS);
            c->too_big = 1;
            break;
        }
        if (r == 1 && k < nb - 1) {
            k++;
            r = enter(c, k, &hi[k], &quiet);
            continue;
        }
        if (r == 1) {
            bodies++;
            c->bodies = bodies;
            if (logged && !fgmc_bindings_add(&log, c->bound, nb)) {
                c->oom = 1;
                break;
            }
            if (!instance(c, s))
                break;
        } else {
            k--;                /* level k is empty: step the one above */
        }
        while (k >= 0 && c->bound[k]->sym->value >= hi[k])
            k--;
        if (k < 0) {
            if (bodies == 0 && !quiet) {
                c->nbound = 0;
                diag_error(c, s->binders->kids->loc, "every binding of "
                           "this for clause has an empty range: the "
                           "constraint stands for nothing");
            }
            break;
        }
        c->bound[k]->sym->value++;
        c->nbound = k + 1;
        r = 1;
    }
    c->nbound = 0;
    c->bound = NULL;
    if (logged && !c->oom)
        (void)fgmc_bindings_check(c, s, &log);
    fgmc_bindings_free(&log);
}

/* The dirichlet_discrete links of var statement S. */
static void
expand_links(fgmc *c, const fgmc_stmt *s)
{
    const fgmc_sym *a = s->sym, *p;
    int e;

    if (!a || !a->link)
        return;
    p = a->link;
    for (e = 0; e < a->count; e++) {
        int v = a->first + e;

        if (!add(c, s, FGM_FACTOR_DIRICHLET_DISCRETE, &v, 1, NULL, 0,
                 p->first + (a->link_node >= 0 ? a->link_node
                                               : e / a->link_div)))
            return;
    }
}

/* Grows the per-variable arrays to the variables declared so far. */
static int
grow_vars(fgmc *c)
{
    int cap = c->var_cap ? c->var_cap : 256, v, *m, *f;

    if (c->nvars <= c->var_cap)
        return 1;
    while (cap < c->nvars)
        cap *= 2;
    m = realloc(c->mark, (size_t)cap * sizeof *m);
    if (m)
        c->mark = m;
    f = realloc(c->fixed, (size_t)cap * sizeof *f);
    if (f)
        c->fixed = f;
    if (!m || !f) {
        c->oom = 1;
        return 0;
    }
    for (v = c->var_cap; v < cap; v++) {
        c->mark[v] = 0;
        c->fixed[v] = -1;
    }
    c->var_cap = cap;
    return 1;
}

/* After comparison S expanded with no error: a warning when none of its
 * bindings added a factor (every value of its variables meets it:
 * `x != 7` on 0..2, a domain off by one), which is said rather than
 * passed over, as `x == 7` is an error. */
static void
warn_always_holds(fgmc *c, const fgmc_stmt *s)
{
    fgmc_loc at = refs_loc(s);

    if (s->kind == S_SUM) {
        at.end = s->value->loc.end;
        diag_warning(c, at, "'sum ... %s' holds for every value of its "
                     "variables%s: the statement adds no factor",
                     fgmc_cmp_text(s->op),
                     s->binders ? ", in every binding" : "");
        return;
    }
    if (s->rhs)
        at.end = s->rhs->loc.end;
    diag_warning(c, at, "'%s' holds for every value of %s%s: the statement "
                 "adds no factor (is a domain%s off?)",
                 fgmc_cmp_text(s->op), s->refs->nkids == 1 ? "its variable"
                                                           : "its variables",
                 s->binders ? ", in every binding" : "",
                 s->refs->nkids == 1 ? " or the number"
                 : s->value ? " or the offset" : "");
}

void
expand_stmt(fgmc *c, const fgmc_stmt *s)
{
    long insts = c->ninsts;
    int errors = c->nerrors;

    c->bodies = 0;

    if (s->bad || c->too_big)
        return;
    if (s->kind == S_VAR)
        expand_links(c, s);
    else if (s->kind >= S_ALLDIFF && s->kind <= S_DRAW && grow_vars(c))
        expand_loops(c, s);
    /* (A loop with no binding stands for nothing: no warning.) */
    if ((s->kind == S_NEQ || s->kind == S_SUM) && c->ninsts == insts
        && c->nerrors == errors && c->bodies > 0 && !c->too_big && !c->oom)
        warn_always_holds(c, s);
}
