/* compiler/sema.c: names, types, constant values, array shapes and settings.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Statements are checked in order, so a name is known from the statement
 * that declares it on: consts, arrays and priors are global, loop variables
 * belong to their statement.  Every name the AST uses is resolved here
 * (node->sym); expand.c then only evaluates.  Arrays are numbered as the IR
 * will number them: variables densely across var arrays in declaration
 * order, Dirichlet nodes likewise across priors.
 *
 * A declaration that fails is still entered (marked bad), so its uses are
 * skipped quietly instead of drawing "unknown name" errors.  The symbol
 * table is symtab.c; numeric expressions, sema_expr.c; the inference
 * block's settings, sema_infer.c.
 *
 * Contract (sema_stmt, per statement in order):
 *   requires: the AST of a parse without syntax errors; earlier statements
 *             checked.
 *   produces: symbols, resolved names (node->sym), constant values, array
 *             numbering, the model name and inference settings; s->bad.
 *   breaks:   nothing.
 */
#include <stdlib.h>
#include <string.h>
#include "fgmc.h"

/* ---- declarations ------------------------------------------------------- */

/* Writes "[9][9]" (or "a scalar") for the shape of array A into BUF. */
static const char *
shape(const fgmc_sym *a, char *buf, size_t size)
{
    size_t len = 0;
    int d;

    if (a->ndims == 0)
        return "a scalar";
    buf[0] = '\0';
    for (d = 0; d < a->ndims && len < size; d++)
        len += (size_t)snprintf(buf + len, size - len, "[%d]", a->dims[d]);
    return buf;
}

/* Evaluates the sizes of declaration S into array A. */
static int
check_dims(fgmc *c, const fgmc_stmt *s, fgmc_sym *a)
{
    const fgmc_node *d;
    long long v, count = 1;

    if (s->dims->nkids > FGM_IR_MAXDIMS) {
        for (d = s->dims->kids, v = 0; v < FGM_IR_MAXDIMS; v++)
            d = d->next;
        diag_error(c, d->loc, "'%s' has %d dimensions; at most %d are "
                   "supported", s->name, s->dims->nkids, FGM_IR_MAXDIMS);
        return 0;
    }
    for (d = s->dims->kids; d; d = d->next) {
        if (!sema_resolve_num(c, (fgmc_node *)d)
            || !sema_eval_int(c, d, "an array size", &v))
            return 0;
        if (v < 1) {
            diag_error(c, d->loc, "an array size must be at least 1, not "
                       "%lld", v);
            return 0;
        }
        if (v > FGMC_MAX_VARS || (count *= v) > FGMC_MAX_VARS) {
            diag_error(c, d->loc, "'%s' is too large (more than %d "
                       "elements)", s->name, FGMC_MAX_VARS);
            return 0;
        }
        a->dims[a->ndims++] = (int)v;
    }
    a->count = (int)count;
    return 1;
}

/* Evaluates "in lo..hi" of var statement S into A. */
static int
check_domain(fgmc *c, const fgmc_stmt *s, fgmc_sym *a)
{
    fgmc_node *r = s->domain;
    long long lo, hi;
    int ok = sema_resolve_num(c, r->a);

    if (!sema_resolve_num(c, r->b) || !ok
        || !sema_eval_int(c, r->a, "a domain bound", &lo)
        || !sema_eval_int(c, r->b, "a domain bound", &hi))
        return 0;
    if (lo < -1000000000 || hi > 1000000000) {
        diag_error(c, r->loc, "domain bounds must lie within "
                   "-1000000000..1000000000");
        return 0;
    }
    if (hi < lo) {
        diag_error(c, r->loc, "domain %lld..%lld is empty", lo, hi);
        return 0;
    }
    if (hi - lo + 1 > FGM_IR_MAXCARD) {
        diag_error(c, r->loc, "domain %lld..%lld has %lld values; at most "
                   "%d are supported", lo, hi, hi - lo + 1, FGM_IR_MAXCARD);
        return 0;
    }
    a->lo = (int)lo;
    a->card = (int)(hi - lo + 1);
    return 1;
}

/* "~ discrete(p)": links var array A to a prior, elementwise when the
 * shapes match, by its leading dimensions when the prior has those
 * (var y[G][5] ~ discrete(theta), prior theta[G]: row g of y draws from
 * theta[g]), shared when the prior is a scalar or one element. */
/* The prior of CALL, "discrete(P...)" (a var declaration's or a draw's
 * right side), resolved into its reference; NULL after reporting. */
static fgmc_sym *
discrete_prior(fgmc *c, fgmc_node *call)
{
    fgmc_node *r = call->a;
    fgmc_sym *p;

    if (strcmp(call->name, "discrete") != 0) {
        diag_error(c, call->nameloc, "unknown distribution '%s' for a "
                   "variable; valid: discrete", call->name);
        return NULL;
    }
    if (!r || r->kind != N_REF) {
        diag_error(c, r ? r->loc : call->loc, "discrete() takes a prior, "
                   "as in discrete(p)");
        return NULL;
    }
    p = sym_lookup(c, r->name);
    if (!p) {
        sym_unknown(c, r->nameloc, "unknown prior", r->name,
                    SYM_MASK(SYM_PRIOR));
        return NULL;
    }
    if (p->bad)
        return NULL;
    if (p->kind != SYM_PRIOR) {
        diag_error(c, r->nameloc, "'%s' is %s, not a prior", r->name,
                   sym_kind_words[p->kind]);
        return NULL;
    }
    r->sym = p;
    return p;
}

int
sema_prior_index(fgmc *c, const fgmc_node *e, const fgmc_sym *p, int d,
                 long long *out)
{
    if (!sema_eval_int(c, e, "an index", out))
        return 0;
    if (*out < 0 || *out >= p->dims[d]) {
        diag_error(c, e->loc, "index %lld is out of range for '%s' "
                   "(dimension %d has indices 0..%d)", *out, p->name, d + 1,
                   p->dims[d] - 1);
        return 0;
    }
    return 1;
}

static int names_var(fgmc *c, const fgmc_node *e);

/* Whether subscript K of a prior names a variable (a draw's gate). */
static int
names_variable(fgmc *c, const fgmc_node *k)
{
    const fgmc_sym *g = k->kind == N_REF ? sym_lookup(c, k->name) : NULL;

    return g && g->kind == SYM_VAR;
}

static int
check_link(fgmc *c, const fgmc_stmt *s, fgmc_sym *a)
{
    fgmc_node *call = s->dist, *r = call->a, *k;
    char b1[64], b2[64];
    fgmc_sym *p = discrete_prior(c, call);
    long long v;
    int d, node = 0;

    if (!p)
        return 0;
    a->link_div = 1;
    if (r->nkids == 0 && p->ndims > 0) {
        int same = p->ndims <= a->ndims;

        for (d = 0; same && d < p->ndims; d++)
            same = p->dims[d] == a->dims[d];
        if (!same) {
            diag_error(c, r->loc, "shape mismatch: '%s' is %s but '%s' is "
                       "%s; give a prior of the same shape or of its "
                       "leading dimensions, a scalar prior or one element",
                       s->name, shape(a, b1, sizeof b1), p->name,
                       shape(p, b2, sizeof b2));
            return 0;
        }
        for (d = p->ndims; d < a->ndims; d++)
            a->link_div *= a->dims[d];
        node = -1;
    } else if (r->nkids > 0) {
        if (r->nkids != p->ndims) {
            diag_error(c, r->loc, "'%s' has %d dimension%s; %d subscript%s "
                       "given", p->name, p->ndims, p->ndims == 1 ? "" : "s",
                       r->nkids, r->nkids == 1 ? "" : "s");
            return 0;
        }
        for (k = r->kids, d = 0; k; k = k->next, d++) {
            if (k->kind == N_ALL || k->kind == N_RANGE) {
                diag_error(c, k->loc, "discrete() takes a whole prior or "
                           "one element of it, not a slice");
                return 0;
            }
            if (names_variable(c, k)) {
                diag_error(c, k->loc, "a prior picked by a variable is "
                           "drawn by a statement of its own: %s%s ~ "
                           "discrete(%.*s)", s->name,
                           a->ndims > 0 ? "[...]" : "",
                           r->loc.end - r->loc.start > 40 ? 40
                           : r->loc.end - r->loc.start,
                           c->src + r->loc.start);
                return 0;
            }
            if (!sema_resolve_num(c, k) || !sema_prior_index(c, k, p, d, &v))
                return 0;
            node = node * p->dims[d] + (int)v;
        }
    }
    if (p->card != a->card) {
        diag_error(c, r->loc, "discrete(%s): '%s' has %d categories but "
                   "'%s' has %d values (%d..%d)", p->name, p->name, p->card,
                   s->name, a->card, a->lo, a->lo + a->card - 1);
        return 0;
    }
    a->link = p;
    a->link_node = node;
    return 1;
}

/* Numbers array A from *NEXT (variables or Dirichlet nodes) and appends
 * it to the declaration-order list. */
static int
number(fgmc *c, fgmc_sym *a, int *next, const char *what)
{
    if (c->narrays >= FGMC_MAX_ARRAYS) {
        diag_error(c, a->loc, "too many arrays in the model (more than %d)",
                   FGMC_MAX_ARRAYS);
        return 0;
    }
    if (*next > FGMC_MAX_VARS - a->count) {
        diag_error(c, a->loc, "too many %s in the model (more than %d)",
                   what, FGMC_MAX_VARS);
        return 0;
    }
    if (a->kind == SYM_VAR && c->nvarrays == c->varrays_cap) {
        int cap = c->varrays_cap ? 2 * c->varrays_cap : 16;
        fgmc_sym **p = realloc(c->varrays, (size_t)cap * sizeof *p);

        if (!p) {
            c->oom = 1;
            return 0;
        }
        c->varrays = p;
        c->varrays_cap = cap;
    }
    if (a->kind == SYM_VAR)
        c->varrays[c->nvarrays++] = a;
    a->first = *next;
    *next += a->count;
    c->narrays++;
    if (c->last_array)
        c->last_array->next_array = a;
    else
        c->arrays = a;
    c->last_array = a;
    return 1;
}

/* Declares the array of statement S as KIND, linked to S.  Returns the
 * symbol, or NULL with S marked bad. */
static fgmc_sym *
declare_array(fgmc *c, fgmc_stmt *s, fgmc_sym_kind kind)
{
    fgmc_sym *a = sym_declare(c, kind, s->name, s->nameloc, s);

    if (!a) {
        s->bad = 1;
        return NULL;
    }
    s->sym = a;
    a->flags = s->observed ? FGM_ARRAY_OBSERVED : 0;
    return a;
}

static void
check_var(fgmc *c, fgmc_stmt *s)
{
    fgmc_sym *a = declare_array(c, s, SYM_VAR);
    int ok;

    if (!a)
        return;
    ok = check_dims(c, s, a) && check_domain(c, s, a)
         && number(c, a, &c->nvars, "variables");
    if (!ok) {
        a->bad = s->bad = 1;
        return;
    }
    /* A bad link leaves the array usable: constraints on it are still
     * checked. */
    if (s->dist && !check_link(c, s, a))
        s->bad = 1;
}

/* The pseudo-counts of flat list L (one node's) into OUT: numbers > 0
 * whose sum stays within FGM_MAX_PSEUDO_COUNT.  Returns 1, or 0 after
 * reporting. */
static int
pseudo_counts(fgmc *c, const fgmc_node *l, double *out)
{
    double total = 0.0;
    fgmc_node *k;
    int i;

    for (k = l->kids, i = 0; k; k = k->next, i++) {
        if (k->kind == N_LIST) {
            diag_error(c, k->loc, "Dirichlet pseudo-counts are a flat "
                       "list of numbers (or one such list a node)");
            return 0;
        }
        if (!sema_resolve_num(c, k) || !sema_eval_real(c, k, &out[i]))
            return 0;
        if (!(out[i] > 0)) {
            diag_error(c, k->loc, "Dirichlet alpha must be > 0, not %g",
                       out[i]);
            return 0;
        }
        /* Larger totals overflow the EP projections (uniform
         * marginals, silently): the limit observations have too. */
        total += out[i];
        if (!(total <= FGM_MAX_PSEUDO_COUNT)) {
            diag_error(c, k->loc, "Dirichlet pseudo-counts must sum to "
                       "at most %g", FGM_MAX_PSEUDO_COUNT);
            return 0;
        }
    }
    return 1;
}

/* The rows of nested list L, level LEVEL of prior A's dimensions, into
 * A's per-node pseudo-counts from *AT on (each row a->card long); with
 * a->alpha NULL, the shape alone is checked. */
static int
node_rows(fgmc *c, const fgmc_node *l, fgmc_sym *a, int level, long *at)
{
    const fgmc_node *k;

    if (level == a->ndims) {
        if (l->kind != N_LIST || l->nkids != a->card) {
            diag_error(c, l->loc, "every node of '%s' takes %d pseudo-"
                       "counts, as its first", a->name, a->card);
            return 0;
        }
        if (a->alpha && !pseudo_counts(c, l, a->alpha + *at))
            return 0;
        *at += a->card;
        return 1;
    }
    if (l->kind != N_LIST || l->nkids != a->dims[level]) {
        diag_error(c, l->loc, "pseudo-counts a node: dimension %d of '%s' "
                   "needs a list of %d", level + 1, a->name,
                   a->dims[level]);
        return 0;
    }
    for (k = l->kids; k; k = k->next)
        if (!node_rows(c, k, a, level + 1, at))
            return 0;
    return 1;
}

/* "~ dirichlet([[...], ...])" on prior A: one list of pseudo-counts a
 * node, nested as A's dimensions (FGM_ARRAY_ALPHA_EACH). */
static int
check_dirichlet_each(fgmc *c, fgmc_node *arg, fgmc_sym *a)
{
    const fgmc_node *row = arg;
    long at = 0;
    int d;

    if (a->ndims == 0) {
        diag_error(c, arg->loc, "Dirichlet pseudo-counts are a flat list "
                   "of numbers (one list a node only for an array of "
                   "priors)");
        return 0;
    }
    for (d = 0; d < a->ndims && row->kind == N_LIST && row->kids; d++)
        row = row->kids;
    if (row->kind != N_LIST && d > 0) {   /* nested less deep than A */
        diag_error(c, arg->loc, "pseudo-counts a node: '%s' has %d "
                   "dimension%s, so a list nested %d deep", a->name,
                   a->ndims, a->ndims == 1 ? "" : "s", a->ndims + 1);
        return 0;
    }
    if (row->kind != N_LIST || row->nkids < 1
        || row->nkids > FGM_IR_MAXCARD) {
        diag_error(c, row->loc, "a Dirichlet node needs a list of 1 to %d "
                   "pseudo-counts", FGM_IR_MAXCARD);
        return 0;
    }
    a->card = row->nkids;
    a->alpha = NULL;    /* the shape first: the list's size bounds it */
    if (!node_rows(c, arg, a, 0, &at))
        return 0;
    a->alpha = arena_alloc(c, (size_t)at * sizeof *a->alpha);
    if (!a->alpha)
        return 0;
    a->flags |= FGM_ARRAY_ALPHA_EACH;
    at = 0;
    return node_rows(c, arg, a, 0, &at);
}

/* "~ dirichlet(K)" (alpha 1 each), "~ dirichlet([a1, ..., aK])" or, on
 * an array of priors, one such list a node, nested as its dimensions. */
static int
check_dirichlet(fgmc *c, const fgmc_stmt *s, fgmc_sym *a)
{
    fgmc_node *call = s->dist, *arg = call->a;
    long long kk;
    int i;

    if (strcmp(call->name, "dirichlet") != 0) {
        diag_error(c, call->nameloc, "unknown distribution '%s' for a "
                   "prior; valid: dirichlet", call->name);
        return 0;
    }
    if (arg->kind == N_LIST && arg->kids && arg->kids->kind == N_LIST)
        return check_dirichlet_each(c, arg, a);
    if (arg->kind == N_LIST) {
        if (arg->nkids < 1 || arg->nkids > FGM_IR_MAXCARD) {
            diag_error(c, arg->loc, "a Dirichlet needs 1 to %d pseudo-"
                       "counts, not %d", FGM_IR_MAXCARD, arg->nkids);
            return 0;
        }
        a->card = arg->nkids;
        a->alpha = arena_alloc(c, (size_t)a->card * sizeof *a->alpha);
        return a->alpha && pseudo_counts(c, arg, a->alpha);
    }
    if (!sema_resolve_num(c, arg)
        || !sema_eval_int(c, arg, "a Dirichlet size", &kk))
        return 0;
    if (kk < 1 || kk > FGM_IR_MAXCARD) {
        diag_error(c, arg->loc, "a Dirichlet size must be in 1..%d, not "
                   "%lld", FGM_IR_MAXCARD, kk);
        return 0;
    }
    a->card = (int)kk;
    a->alpha = arena_alloc(c, (size_t)a->card * sizeof *a->alpha);
    if (!a->alpha)
        return 0;
    for (i = 0; i < a->card; i++)
        a->alpha[i] = 1.0;
    return 1;
}

static void
check_prior(fgmc *c, fgmc_stmt *s)
{
    fgmc_sym *a = declare_array(c, s, SYM_PRIOR);
    int ok;

    if (!a)
        return;
    ok = check_dims(c, s, a) && check_dirichlet(c, s, a)
         && number(c, a, &c->ndirichlet, "Dirichlet nodes");
    /* The IR holds one row of pseudo-counts an array, a run two a node
     * (prior and posterior): a million nodes of 64 values opened at 2.1
     * GB.  They count as the factors' parameters do. */
    if (ok && (long)a->count * a->card > FGMC_MAX_PARAMS - c->ndircounts) {
        diag_error(c, s->nameloc, "too many Dirichlet pseudo-counts in the "
                   "model: %ld nodes of %d values here, %ld before them: "
                   "more than %ld in all", (long)a->count, a->card,
                   c->ndircounts, FGMC_MAX_PARAMS);
        ok = 0;
    }
    if (ok)
        c->ndircounts += (long)a->count * a->card;
    if (!ok)
        a->bad = s->bad = 1;
}

/* A const is an integer or a real (const p = 0.3, for weights); a real
 * one where an integer is needed is sema_eval_int's error there.  -D
 * gives either. */
static void
check_const(fgmc *c, fgmc_stmt *s)
{
    fgmc_num v = { 0, 0, 0.0 };
    int ok = sema_resolve_num(c, s->value), d;
    fgmc_sym *sym;

    for (d = 0; d < c->ndefines; d++)
        if (strcmp(c->define_names[d], s->name) == 0)
            break;
    if (d < c->ndefines) {
        c->define_used[d] = 1;
        v = c->define_values[d];
    } else if (ok) {
        ok = sema_eval(c, s->value, &v);    /* finite, or an error */
    }
    sym = sym_declare(c, SYM_CONST, s->name, s->nameloc, s);
    if (!sym) {
        s->bad = 1;
        return;
    }
    sym->is_real = v.is_real;
    sym->value = v.i;
    sym->rvalue = v.d;
    if (!ok && d == c->ndefines)
        sym->bad = s->bad = 1;
}

static void
check_model(fgmc *c, fgmc_stmt *s)
{
    if (c->model_stmt) {
        diag_error(c, s->loc, "second model line (the first is at line %d)",
                   diag_line(c, c->model_stmt->loc.start));
        s->bad = 1;
        return;
    }
    c->model_stmt = s;
    if (strlen(s->name) >= FGM_IR_MAXNAME) {
        diag_error(c, s->nameloc, "model name is too long (at most %d "
                   "bytes)", FGM_IR_MAXNAME - 1);
        s->bad = 1;
        return;
    }
    snprintf(c->model_name, sizeof c->model_name, "%s", s->name);
}

/* No model line: the file name without folder and extension, with bytes
 * other than letters, digits and '_' turned into '_', and a '_' put
 * before a leading digit, so that the name is one the language (and
 * fgm_ir_set_name, which the CLI's -D suffixes go through) accepts. */
static void
default_name(fgmc *c)
{
    const char *base = strrchr(c->file, '/');
    size_t n, i, at = 0;

    base = base ? base + 1 : c->file;
    n = strcspn(base, ".");
    if (n == 0) {
        snprintf(c->model_name, sizeof c->model_name, "model");
        return;
    }
    if (base[0] >= '0' && base[0] <= '9')
        c->model_name[at++] = '_';
    if (n + at >= sizeof c->model_name)
        n = sizeof c->model_name - 1 - at;
    for (i = 0; i < n; i++)
        c->model_name[at + i] = fgm_ir_ident_char((unsigned char)base[i])
                                ? base[i] : '_';
    c->model_name[at + n] = '\0';
}

/* ---- constraints -------------------------------------------------------- */

/* Whether expression E names a variable or prior array anywhere. */
static int
mentions_array(const fgmc *c, const fgmc_node *e)
{
    const fgmc_sym *a;

    if (!e)
        return 0;
    if (e->kind == N_REF) {
        a = sym_lookup(c, e->name);
        return a && (a->kind == SYM_VAR || a->kind == SYM_PRIOR);
    }
    return mentions_array(c, e->a) || mentions_array(c, e->b);
}

/* Whether reference R (the right side's first term of a comparison)
 * names a const or a loop variable: a number, not a variable. */
static int
number_name(const fgmc *c, const fgmc_node *r)
{
    const fgmc_sym *a = sym_lookup(c, r->name);

    return r->nkids == 0 && a
           && (a->kind == SYM_CONST || a->kind == SYM_LOOP);
}

/* Makes comparison S one of a single variable: its second reference is
 * dropped (the right side stays whole in s->rhs). */
static void
drop_second_ref(fgmc_stmt *s)
{
    s->refs->kids->next = NULL;
    s->refs->tail = s->refs->kids;
    s->refs->nkids = 1;
}

/* Tells the two forms of comparison S apart, where the parser could not:
 * the first term of the right side names a variable (x < y + 1), or a
 * const or loop variable (x < N, x != i + 1: a number, and S compares
 * one variable).  Returns 0 after reporting that name unknown (S is then
 * left with one reference and no right side, reported no further). */
static int
comparison_form(fgmc *c, fgmc_stmt *s)
{
    fgmc_node *y = s->refs->nkids == 2 ? s->refs->kids->next : NULL;

    if (y && !sym_lookup(c, y->name)) {
        /* A variable, a const or a loop variable may stand there. */
        sym_unknown(c, y->nameloc, "undefined name", y->name,
                    SYM_MASK(SYM_VAR) | SYM_MASK(SYM_CONST)
                    | SYM_MASK(SYM_LOOP));
        drop_second_ref(s);
        s->rhs = NULL;
        return 0;
    }
    if (y && number_name(c, y)) {
        drop_second_ref(s);
        s->value = NULL;
    }
    return 1;
}

/* Resolves the right side of comparison S of one variable: a number. */
static int
check_compared_number(fgmc *c, const fgmc_stmt *s)
{
    if (mentions_array(c, s->rhs)) {
        /* x != 1 + y, x != y * 2: a variable, but not first or not
         * plus integers. */
        diag_error(c, s->rhs->loc, "the right side of '%s' must be a "
                   "variable, optionally plus or minus integers (x %s y, "
                   "x %s y + 1, x %s y - (j - i)), or a number",
                   fgmc_cmp_text(s->op), fgmc_cmp_text(s->op),
                   fgmc_cmp_text(s->op), fgmc_cmp_text(s->op));
        return 0;
    }
    return sema_resolve_num(c, s->rhs);
}

/* Resolves constraint reference R: a variable array with no subscript
 * (the whole array) or one per dimension.  SINGLE, when not NULL, says
 * what the comparison whose side R is compares ("'<' compares two
 * variables"): R must name one variable. */
static int
resolve_vref(fgmc *c, fgmc_node *r, const char *single)
{
    fgmc_sym *a = sym_lookup(c, r->name);
    fgmc_node *k;
    int ok = 1, one;

    if (!a) {
        sym_unknown(c, r->nameloc, "unknown array", r->name,
                    SYM_MASK(SYM_VAR));
        return 0;
    }
    if (a->bad)
        return 0;
    if (a->kind != SYM_VAR) {
        diag_error(c, r->nameloc, "'%s' is %s, not a variable array",
                   r->name, sym_kind_words[a->kind]);
        return 0;
    }
    /* Fewer subscripts than dimensions lead a block: the dimensions
     * after them whole (`g[0]`, row 0 of a grid), as in observation
     * files and --show. */
    if (r->nkids > a->ndims) {
        diag_error(c, r->loc, "'%s' has %d dimension%s; %d subscript%s "
                   "given", r->name, a->ndims, a->ndims == 1 ? "" : "s",
                   r->nkids, r->nkids == 1 ? "" : "s");
        return 0;
    }
    one = r->nkids == a->ndims;
    for (k = r->kids; k; k = k->next) {
        if (k->kind == N_ALL) {
            one = 0;
        } else if (k->kind == N_RANGE) {
            one = 0;
            if (!sema_resolve_num(c, k->a))
                ok = 0;
            if (!sema_resolve_num(c, k->b))
                ok = 0;
        } else if (!sema_resolve_num(c, k)) {
            ok = 0;
        }
    }
    if (ok && single && !one && r->nkids == 0) {
        /* Even an array of one variable: the rule is one element, shown
         * with a [0] per dimension (the string's last NDIMS of four). */
        _Static_assert(FGM_IR_MAXDIMS == 4, "one [0] per dimension");
        diag_error(c, r->loc, "%s; '%s' alone is its whole array (write "
                   "one element, such as '%s%s')", single, r->name, r->name,
                   &"[0][0][0][0]"[3 * (4 - a->ndims)]);
        return 0;
    }
    if (ok && single && !one) {
        diag_error(c, r->loc, "%s, and this is not a single variable of "
                   "'%s'", single, r->name);
        return 0;
    }
    r->sym = a;
    return ok;
}

/* Checks the right side of draw S, `X ~ discrete(P[i]...[j])`: P a
 * prior with one subscript a dimension, each a number but the last ones,
 * which may name variables (the gates, the first kept in s->rhs, the
 * others after it in the list) whose values all index their dimensions,
 * the whole of it after the first; P's categories are X's values.  X
 * (ref, resolved) is one variable.  The numbers are checked per binding
 * by expand. */
static int
check_draw(fgmc *c, fgmc_stmt *s)
{
    fgmc_node *call = s->dist, *r, *k;
    const fgmc_sym *x = s->refs->kids->sym, *g;
    fgmc_sym *p = discrete_prior(c, call);
    long nodes = 1;
    int d, ok = 1;

    if (!p)
        return 0;
    r = call->a;
    if (r->nkids != p->ndims) {
        diag_error(c, r->loc, "'%s' has %d dimension%s; a draw names one "
                   "of its elements (%d subscript%s given)", p->name,
                   p->ndims, p->ndims == 1 ? "" : "s", r->nkids,
                   r->nkids == 1 ? "" : "s");
        return 0;
    }
    for (k = r->kids, d = 0; k; k = k->next, d++) {
        if (k->kind == N_ALL || k->kind == N_RANGE) {
            diag_error(c, k->loc, "a draw takes one element of a prior, "
                       "not a slice");
            ok = 0;
        } else if (!names_variable(c, k) && names_var(c, k)) {
            /* `t[g - 1]`: the gate's values must be the indices. */
            diag_error(c, k->loc, "a prior's subscript that picks by a "
                       "variable is the variable alone, with no "
                       "arithmetic: declare it with the values 0..%d of "
                       "dimension %d of '%s'", p->dims[d] - 1, d + 1,
                       p->name);
            ok = 0;
        } else if (names_variable(c, k) && k->next
                   && !names_var(c, k->next)) {
            diag_error(c, k->loc, "only the last subscripts of a prior may "
                       "be variables");
            ok = 0;
        } else if (names_variable(c, k)) {
            if (!resolve_vref(c, k, "a prior's subscript picks by one "
                              "variable"))
                return 0;
            g = k->sym;
            if (g->lo < 0 || g->lo + g->card > p->dims[d]) {
                diag_error(c, k->loc, "'%s' takes values %d..%d, but "
                           "dimension %d of '%s' has indices 0..%d",
                           g->name, g->lo, g->lo + g->card - 1, d + 1,
                           p->name, p->dims[d] - 1);
                return 0;
            }
            /* The gates' joint value numbers the nodes they pick
             * (fgm_ir_add_dirichlet_gated): a gate after the first
             * takes its whole dimension. */
            if (s->rhs && (g->lo != 0 || g->card != p->dims[d])) {
                diag_error(c, k->loc, "'%s' takes values %d..%d; a gate "
                           "after the first takes every index of its "
                           "dimension (0..%d of '%s')", g->name, g->lo,
                           g->lo + g->card - 1, p->dims[d] - 1, p->name);
                return 0;
            }
            if (!s->rhs)
                s->rhs = k;
            if ((nodes *= g->card) > FGM_IR_MAXGATED) {
                diag_error(c, r->loc, "the gates of this draw pick among "
                           "%ld nodes; at most %d", nodes, FGM_IR_MAXGATED);
                return 0;
            }
        } else if (!sema_resolve_num(c, k)) {
            ok = 0;
        }
    }
    if (ok && p->card != x->card) {
        diag_error(c, r->loc, "discrete(%s): '%s' has %d categories but "
                   "'%s' has %d values (%d..%d)", p->name, p->name, p->card,
                   x->name, x->card, x->lo, x->lo + x->card - 1);
        return 0;
    }
    return ok;
}

/* Checks the symbols of `fix REF = "..."`: values 1-9 and letters, '.',
 * '0' or '-' for no clue.  The length is checked against the reference
 * when it is expanded. */
static int
check_string(fgmc *c, const fgmc_stmt *s)
{
    int i;

    for (i = s->str.start + 1; i < s->str.end - 1; i++) {
        unsigned char ch = (unsigned char)c->src[i];
        fgmc_loc at = { i, i + 1 };

        if ((ch >= '0' && ch <= '9') || ch == '.' || ch == '-'
            || (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z'))
            continue;
        if (ch >= 0x20 && ch < 0x7f)
            diag_error(c, at, "bad symbol '%c' in a fix string (values are "
                       "1-9 then A-Z; '.', '0' or '-' leave a variable "
                       "free)", ch);
        else
            diag_error(c, at, "bad byte 0x%02x in a fix string", ch);
        return 0;
    }
    return 1;
}

/* Whether expression E names a variable array (its own name, not a
 * subscript's). */
static int
names_var(fgmc *c, const fgmc_node *e)
{
    const fgmc_sym *a;

    switch (e->kind) {
    case N_REF:
        a = sym_lookup(c, e->name);
        return a && a->kind == SYM_VAR;
    case N_NEG:
    case N_CALL:
        return names_var(c, e->a);
    case N_ADD:
    case N_SUB:
    case N_MUL:
    case N_DIV:
    case N_MOD:
        return names_var(c, e->a) || names_var(c, e->b);
    default:
        return 0;
    }
}

/* The reference of sum term T: a variable reference, negated or
 * multiplied by numbers (2 * x, -y, z * N, -(2 * w)), whose numbers it
 * resolves.  NULL after reporting what else T is. */
static fgmc_node *
sum_term_ref(fgmc *c, fgmc_node *t)
{
    int va, vb;

    if (t->kind == N_REF && names_var(c, t))
        return t;
    if (t->kind == N_NEG && names_var(c, t->a))
        return sum_term_ref(c, t->a);
    if (t->kind == N_MUL) {
        va = names_var(c, t->a);
        vb = names_var(c, t->b);
        if (va && vb) {
            diag_error(c, t->loc, "a sum's term multiplies two variables; "
                       "a sum is linear (each term a variable times an "
                       "integer)");
            return NULL;
        }
        if (va || vb) {
            if (!sema_resolve_num(c, va ? t->b : t->a))
                return NULL;
            return sum_term_ref(c, va ? t->a : t->b);
        }
    }
    if (names_var(c, t)) {
        diag_error(c, t->loc, "a sum's term is a variable reference times "
                   "an integer (2 * x, -x, x * N); this one is not");
        return NULL;
    }
    if (t->kind == N_REF && !sym_lookup(c, t->name)) {
        sym_unknown(c, t->nameloc, "unknown array", t->name,
                    SYM_MASK(SYM_VAR));
        return NULL;
    }
    if (sema_resolve_num(c, t))
        diag_error(c, t->loc, "this term of the sum names no variable (a "
                   "number belongs in the total, on the right)");
    return NULL;
}

/* Splits sum S's terms as parsed into S->terms and the N_SEQ of their
 * references, S->refs, which the checks and the expansion read as any
 * constraint's.  Returns 0 after reporting, S->refs then empty. */
static int
sema_sum_terms(fgmc *c, fgmc_stmt *s)
{
    fgmc_node *t, *next, *ref, *refs = ast_seq(c);
    int n = 0, ok = 1;

    s->terms = arena_alloc(c, ((size_t)s->refs->nkids + 1)
                              * sizeof *s->terms);
    if (!s->terms || !refs)
        return 0;
    for (t = s->refs->kids; t; t = next) {
        next = t->next;     /* ast_append relinks a bare reference */
        ref = sum_term_ref(c, t);
        if (!ref) {
            ok = 0;
            continue;
        }
        s->terms[n++] = t;
        ast_append(c, refs, ref);
    }
    s->refs = ok ? refs : ast_seq(c);
    return ok && s->refs;
}

/* Declares the loop variables of for clause BINDERS (NULL: none), each
 * range resolved among the loop variables before it, not its own.
 * Returns 0 after reporting. */
static int
declare_binders(fgmc *c, fgmc_node *binders)
{
    fgmc_node *b, *range = NULL;
    int ok = 1;

    for (b = binders ? binders->kids : NULL; b; b = b->next) {
        if (b->a != range) {
            range = b->a;
            if (!sema_resolve_num(c, range->a))
                ok = 0;
            if (!sema_resolve_num(c, range->b))
                ok = 0;
        }
        b->sym = sym_declare(c, SYM_LOOP, b->name, b->nameloc, NULL);
        if (!b->sym)
            ok = 0;
    }
    /* Uses in a later binding's range apart: a loop variable that only
     * shapes another's range may repeat the statement's factors
     * (expand_loops checks that it does not). */
    for (b = binders ? binders->kids : NULL; b; b = b->next)
        if (b->sym) {
            b->sym->range_uses = b->sym->uses;
            b->sym->uses = 0;
        }
    return ok;
}

/* After a statement: an error for each loop variable of BINDERS (NULL:
 * none) that it never names, when OK (a loop variable the statement
 * never names repeats its factors, once per value: `evidence x = [1, 2]
 * for i in 0..1` squared the weights; surely a slip, a name mistyped or
 * a loop left over; one named only in the ranges of later bindings is
 * checked when the loops run, expand_loops); then the variables go out
 * of scope.  Returns OK, or 0 after reporting. */
static int
close_binders(fgmc *c, fgmc_node *binders, int ok)
{
    fgmc_node *b;

    for (b = binders ? binders->kids : NULL; ok && b; b = b->next)
        if (b->sym && b->sym->uses == 0 && b->sym->range_uses == 0) {
            diag_error(c, b->nameloc, "loop variable '%s' is used nowhere "
                       "in this statement: each of its values would add "
                       "the same factors again", b->name);
            ok = 0;
        }
    for (b = binders ? binders->kids : NULL; b; b = b->next)
        sym_pop(c, b->sym);
    return ok;
}

static void
check_constraint(fgmc *c, fgmc_stmt *s)
{
    fgmc_node *r;
    int ok = 1, inner_ok;
    char single[64];        /* what a comparison compares */

    if (!declare_binders(c, s->binders))
        ok = 0;
    if (s->kind == S_NEQ && !comparison_form(c, s))
        ok = 0;
    if (s->kind == S_NEQ)
        snprintf(single, sizeof single, "'%s' compares %s",
                 fgmc_cmp_text(s->op), s->refs->nkids == 2 ? "two variables"
                 : "a variable with a number");
    if (s->kind == S_DRAW)
        snprintf(single, sizeof single, "'~' draws one variable");
    /* A sum's own for clause, inside its parentheses, binds its terms
     * only: not the total, nor the statement's for clause. */
    inner_ok = declare_binders(c, s->inner);
    if (s->kind == S_SUM && !sema_sum_terms(c, s))
        inner_ok = 0;
    for (r = s->refs ? s->refs->kids : NULL; r; r = r->next)
        if (!resolve_vref(c, r, s->kind == S_NEQ || s->kind == S_DRAW
                                ? single : NULL))
            inner_ok = 0;
    if (!close_binders(c, s->inner, inner_ok))
        ok = 0;
    if (s->kind == S_DRAW && ok && !check_draw(c, s))
        ok = 0;
    if (s->kind == S_NEQ && s->refs->nkids == 1 && s->rhs
        && !check_compared_number(c, s))
        ok = 0;
    if (s->weights && !sema_resolve_list(c, s->weights))
        ok = 0;
    if (s->value && !sema_resolve_num(c, s->value))
        ok = 0;
    if (s->has_str && !check_string(c, s))
        ok = 0;
    if (!close_binders(c, s->binders, ok))
        ok = 0;
    if (!ok)
        s->bad = 1;
}

/* ---- the pass ----------------------------------------------------------- */

void
sema_stmt(fgmc *c, fgmc_stmt *s)
{
    switch (s->kind) {
    case S_MODEL:
        check_model(c, s);
        break;
    case S_CONST:
        check_const(c, s);
        break;
    case S_VAR:
        check_var(c, s);
        break;
    case S_PRIOR:
        check_prior(c, s);
        break;
    case S_INFER:
        sema_infer(c, s);
        break;
    default:
        check_constraint(c, s);
        break;
    }
}

void
sema_finish(fgmc *c)
{
    int d;

    for (d = 0; d < c->ndefines && !diag_full(c); d++)
        if (!c->define_used[d])
            diag_file_error(c, "-D %s: the model has no const '%s'",
                            c->define_texts[d], c->define_names[d]);
    if (!c->model_stmt)
        default_name(c);
    if (c->nvars == 0 && !c->nerrors)
        diag_file_error(c, "the model declares no variables (it needs a "
                        "`var` statement)");
}
