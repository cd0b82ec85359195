/* runtime/exact/eliminate.c: exact marginals by variable elimination.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The same weights as the enumeration oracle (enumerate.c): tables,
 * evidence, neq and alldiff as "v != w" between peers (the csp view),
 * clues as fixed values, and each Dirichlet node integrated out as a
 * Dirichlet-multinomial over its children.  Instead of visiting every
 * assignment, the model's factors go into the cliques of a bucket tree
 * (elim_order.c: an elimination order by least fill-in); one pass of
 * messages from the leaves to the roots and one back (sum-product, or
 * max-product for max-marginals) give every variable's marginal.  The
 * cost is the cliques' table sizes: linear in the length of a chain or
 * tree, whatever its number of assignments.
 *
 * Clues are conditioned on, not multiplied in: a clue's variable has one
 * value (its effective card is 1), so that a factor over it shrinks to
 * its other variables and the clue joins no clique (on a Sudoku grid the
 * clues' peers lose their values, but the free cells' cliques stay far
 * too large: Dancing Links and enumeration take those).
 *
 * A Dirichlet node's observed children fold into its pseudo-counts
 * (a + c); its free children share one factor over all of them, whose
 * weight depends on their value counts m:
 *   prod_k (a_k + c_k)^(m_k rising) / (A + C)^(m rising),
 * one category's rising factorial per count (the constant for the
 * observed children goes into the log of the total weight); with
 * sum-product, the children in no other factor are summed out of it but
 * one, whose marginal they share (drop_loose).
 *
 * Every table is divided by its largest entry as it is made, its log
 * added to the log of the total weight: products of thousands of factors
 * neither overflow nor underflow.
 */
#include <float.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "eliminate.h"

/* The run: the model, its clues, and what the passes build. */
typedef struct elim {
    const fgm_csp *csp;
    const fgm_ir *ir;
    const int *given;
    int max;
    double deadline;        /* fgm_now() time to give up at; 0: none */
    int *ecard;             /* nvars: 1 for a clue, else its card */
    int *uses;              /* nvars: factors of the model holding each */
    int *slot;              /* nvars: a child's place in add_dirichlet's
                             * list, else -1 */
    int *twin;              /* nvars: the variable whose marginal this
                             * one's is (drop_loose), else -1 */
    double log_z;           /* log of the total weight so far */
    int zero;               /* a factor of weight 0 everywhere */
    fgm_etab *in;           /* the model's factors as tables */
    int nin, incap;
    double in_entries;      /* their entries, all together */
    fgm_elim_tree tree;
    fgm_etab *psi, *up, *down;   /* by place in the order */
    int *child_off, *child;      /* children of each place, by place */
} elim;

/* Whether E's deadline has passed (polled once a clique and a step of
 * the messages down: the passes are bounded, but a clique of 2^21
 * entries with many children can take seconds). */
static int
past_deadline(const elim *e)
{
    return e->deadline > 0 && fgm_now() > e->deadline;
}

/* The value of variable V at index I of its effective domain. */
static int
value_of(const elim *e, int v, int i)
{
    return e->given && e->given[v] >= 0 ? e->given[v] : i;
}

static int
cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

/* The free variables of SCOPE (N entries), ascending and unique, into
 * OUT; returns how many. */
static int
free_vars(const elim *e, const int *scope, int n, int *out)
{
    int i, m = 0;

    for (i = 0; i < n; i++)
        if (!(e->given && e->given[scope[i]] >= 0))
            out[m++] = scope[i];
    qsort(out, (size_t)m, sizeof *out, cmp_int);
    for (i = 0, n = m, m = 0; i < n; i++)
        if (m == 0 || out[m - 1] != out[i])
            out[m++] = out[i];
    return m;
}

/* A new input table over VARS (N, ascending), entries 1; NULL out of
 * memory (*ST set) or when its entries would pass MAX_ENTRIES (*ST
 * FGM_EUNSUPPORTED). */
static fgm_etab *
new_input(elim *e, const int *vars, int n, double max_entries,
          fgm_status *st)
{
    double size = 1.0;
    int j;

    for (j = 0; j < n; j++)
        size *= e->ecard[vars[j]];
    /* All of them bounded too: a Latin square of 48 made 2 GB of pair
     * tables before its cliques were found too large. */
    if (size > max_entries || n > FGM_ETAB_MAXVARS
        || (e->in_entries += size) > 8.0 * max_entries) {
        *st = FGM_EUNSUPPORTED;
        return NULL;
    }
    if (e->nin == e->incap) {
        int cap = e->incap ? 2 * e->incap : 16;
        fgm_etab *p = realloc(e->in, (size_t)cap * sizeof *p);

        if (!p) {
            *st = FGM_ENOMEM;
            return NULL;
        }
        e->in = p;
        e->incap = cap;
    }
    *st = fgm_etab_init(&e->in[e->nin], vars, n, e->ecard);
    return *st == FGM_OK ? &e->in[e->nin++] : NULL;
}

/* Folds a factor whose variables are all clues, of weight W, into the
 * total. */
static void
add_constant(elim *e, double w)
{
    if (w > 0.0)
        e->log_z += log(w);
    else
        e->zero = 1;
}

/* Row-major position, in F's parameters, of the assignment at odometer
 * IDX of its input table, AT[j] being the table's place of F's scope
 * variable j (-1 for a clue: its value). */
static long
param_pos(const elim *e, const fgm_ir_factor *f, const int *at,
          const int *idx)
{
    const int *s = fgm_ir_scope(e->ir, f);
    long pos = 0;
    int j;

    for (j = 0; j < f->arity; j++)
        pos = pos * e->csp->card[s[j]]
              + value_of(e, s[j], at[j] < 0 ? -1 : idx[at[j]]);
    return pos;
}

/* Moves odometer IDX of T one entry on. */
static void
next_index(const elim *e, const fgm_etab *t, int *idx)
{
    int j;

    for (j = t->n - 1; j >= 0; j--) {
        if (++idx[j] < e->ecard[t->vars[j]])
            return;
        idx[j] = 0;
    }
}

/* The weight of table, evidence or sum factor F at odometer IDX of its
 * input table (AT as param_pos's): a table's entry, or 1 where the sum
 * of the values' indices lies in the sum's range and 0 elsewhere. */
static double
weight_at(const elim *e, const fgm_ir_factor *f, const int *at,
          const int *idx)
{
    const double *p = fgm_ir_params(e->ir, f);
    const int *s = fgm_ir_scope(e->ir, f);
    long total = 0;
    int j;

    if (f->kind != FGM_FACTOR_SUM)
        return p[param_pos(e, f, at, idx)];
    for (j = 0; j < f->arity; j++)
        total += fgm_ir_sum_term(p, j, value_of(e, s[j],
                                                at[j] < 0 ? -1 : idx[at[j]]));
    return fgm_ir_sum_meets(p, total) ? 1.0 : 0.0;
}

/* A table, evidence or sum factor F as an input table (a sum's 0/1
 * table, when it fits MAX_ENTRIES as any table must). */
static fgm_status
add_weights(elim *e, const fgm_ir_factor *f, double max_entries)
{
    const int *s = fgm_ir_scope(e->ir, f);
    int vars[FGM_ETAB_MAXVARS], idx[FGM_ETAB_MAXVARS] = { 0 };
    int at[FGM_ETAB_MAXVARS];
    fgm_status st = FGM_OK;
    fgm_etab *t;
    long i;
    int n, j, k;

    if (f->arity > FGM_ETAB_MAXVARS)
        return FGM_EUNSUPPORTED;
    n = free_vars(e, s, f->arity, vars);
    for (j = 0; j < f->arity; j++)
        for (at[j] = -1, k = 0; k < n; k++)
            if (vars[k] == s[j])
                at[j] = k;
    if (n == 0) {
        add_constant(e, weight_at(e, f, at, idx));
        return FGM_OK;
    }
    t = new_input(e, vars, n, max_entries, &st);
    for (i = 0; t && i < t->size; i++) {
        t->p[i] = weight_at(e, f, at, idx);
        next_index(e, t, idx);
    }
    return st;
}

/* "V != W" for every pair of peers V < W (neq and alldiff factors, as
 * the enumeration reads them: value indices compared). */
static fgm_status
add_peers(elim *e, double max_entries)
{
    const fgm_csp *c = e->csp;
    fgm_status st = FGM_OK;
    int v, j, w, a, b, vars[2];
    fgm_etab *t;

    for (v = 0; v < c->nvars; v++)
        for (j = c->peer_off[v]; j < c->peer_off[v + 1]; j++) {
            if ((w = c->peers[j]) <= v)
                continue;
            vars[0] = v;
            vars[1] = w;
            a = e->given && e->given[v] >= 0;
            b = e->given && e->given[w] >= 0;
            if (a && b) {
                add_constant(e, e->given[v] != e->given[w]);
                continue;
            }
            t = new_input(e, a ? vars + 1 : vars, 2 - a - b, max_entries,
                          &st);
            if (!t)
                return st;
            /* Row-major over (v, w) whichever is a clue (its card 1,
             * its index 0). */
            for (a = 0; a < e->ecard[v]; a++)
                for (b = 0; b < e->ecard[w]; b++)
                    if (value_of(e, v, a) == value_of(e, w, b))
                        t->p[a * e->ecard[w] + b] = 0.0;
        }
    return FGM_OK;
}

/* Sum-product only: drops the loose children among the N free children
 * KIDS (multiplicities MULT) of a Dirichlet node -- those in no factor
 * but their one draw (e->uses) -- all but one, which stands in for them
 * (e->twin: they get its marginal).  Summing a loose draw out leaves the
 * Dirichlet-multinomial of the others, and the loose draws are
 * exchangeable given them: each has the stand-in's marginal.  So the
 * unobserved rolls of a die, with one of them weighted by evidence, need
 * a table over two draws, not all of them.  Returns the children kept;
 * *TOTAL loses the dropped draws.  (The largest joint weight does not
 * factor so: max-product keeps every child.) */
static int
drop_loose(elim *e, int *kids, int *mult, int n, int *total)
{
    int j, m = 0, stand_in = -1;

    if (e->max)
        return n;
    for (j = 0; j < n; j++) {
        if (e->uses[kids[j]] == 1 && stand_in >= 0) {
            /* Summed out: one value of weight 1 left to it, for the
             * total weight (its marginal is the stand-in's). */
            e->twin[kids[j]] = stand_in;
            e->ecard[kids[j]] = 1;
            *total -= mult[j];
            continue;
        }
        if (e->uses[kids[j]] == 1)
            stand_in = kids[j];
        kids[m] = kids[j];
        mult[m++] = mult[j];
    }
    return m;
}

/* The status of a table T whose every entry is 0: no assignment has
 * weight, unless a weight went to 0 below the doubles on the way to it
 * (T->lost: weights that span more than the doubles' range, 1e-254 and
 * 5e273 in one table), where the answer is not known here
 * (FGM_EUNSUPPORTED: enumeration, in logs, takes over; it said "no
 * consistent assignment" of models that had one). */
static fgm_status
no_assignment(const fgm_etab *t)
{
    return t->lost > -HUGE_VAL ? FGM_EUNSUPPORTED : FGM_EUNSOLVED;
}

/* Whether T's loss below the doubles (fgm_etab_mul) may pass LOST_MAX
 * of its total weight Z (its largest with max-product): its answer is
 * then not known to that (FGM_EUNSUPPORTED, as no_assignment). */
#define LOST_MAX 1e-12

static int
lost_matters(const fgm_etab *t, double z)
{
    return t->lost > -HUGE_VAL && !(t->lost < log(z) + log(LOST_MAX));
}

/* log(A (A + 1) ... (A + C - 1)) = log Gamma(A + C) - log Gamma(A), the
 * Dirichlet-multinomial's factor for C draws of a category of
 * pseudo-count A.  The difference of GSL's lngammas is off by about
 * DBL_EPSILON A log A, so past A = 1000 the factors' logs are summed
 * instead (C counts variables, so few): with a pseudo-count of 1e18 the
 * difference gave P = 0.87 for a true 3e-18 (gsl_sf_lnpoch returns 0
 * there). */
#define LNGAMMA_MAX_A 1e3

static double
log_rising(double a, int c)
{
    double s = 0.0;
    int j;

    if (c == 0)
        return 0.0;
    if (a < LNGAMMA_MAX_A)
        return gsl_sf_lngamma(a + c) - gsl_sf_lngamma(a);
    for (j = 0; j < c; j++)
        s += log(a + j);
    return s;
}

/* Dirichlet node D integrated out (see the top of the file). */
static fgm_status
add_dirichlet(elim *e, int d, const int *draws, int ndraws, int *kids,
              int *mult, double max_entries)
{
    const fgm_ir *ir = e->ir;
    const fgm_ir_array *arr = &ir->arrays[ir->dir_array[d]];
    const double *alpha = fgm_ir_node_alpha(ir, d);
    int kc = arr->card, i, j, k, n = 0, nkids = 0, total = 0;
    int idx[FGM_ETAB_MAXVARS] = { 0 };
    double a[FGM_IR_MAXCARD], big = 0.0, w, top = 0.0;
    long under = 0;
    int cnt[FGM_IR_MAXCARD] = { 0 }, m[FGM_IR_MAXCARD];
    fgm_status st = FGM_OK;
    fgm_etab *t;

    if (kc > FGM_IR_MAXCARD)
        return FGM_EUNSUPPORTED;    /* the language's priors stop at 64 */
    for (i = 0; i < ndraws; i++) {
        int v = draws[i];

        if (e->given && e->given[v] >= 0) {
            cnt[e->given[v]]++;
            continue;
        }
        if ((j = e->slot[v]) < 0) {
            j = e->slot[v] = nkids++;
            kids[j] = v;
            mult[j] = 0;
        }
        mult[j]++;
        total++;
    }
    for (j = 0; j < nkids; j++)
        e->slot[kids[j]] = -1;      /* for the next node */
    for (k = 0; k < kc; k++) {
        a[k] = alpha[k] + cnt[k];
        big += alpha[k];
        n += cnt[k];
        e->log_z += log_rising(alpha[k], cnt[k]);
    }
    e->log_z -= log_rising(big, n);
    big += n;
    if (nkids == 0)
        return FGM_OK;
    nkids = drop_loose(e, kids, mult, nkids, &total);
    if (nkids > FGM_ETAB_MAXVARS)
        return FGM_EUNSUPPORTED;    /* a table past 2^64 entries anyway */
    /* Sort the children (and their multiplicities) for the table. */
    for (i = 1; i < nkids; i++)
        for (j = i; j > 0 && kids[j - 1] > kids[j]; j--) {
            k = kids[j], kids[j] = kids[j - 1], kids[j - 1] = k;
            k = mult[j], mult[j] = mult[j - 1], mult[j - 1] = k;
        }
    t = new_input(e, kids, nkids, max_entries, &st);
    for (i = 0; t && i < t->size; i++) {
        memset(m, 0, (size_t)kc * sizeof *m);
        for (j = 0; j < nkids; j++)
            m[idx[j]] += mult[j];
        w = -log_rising(big, total);
        for (k = 0; k < kc; k++)
            w += log_rising(a[k], m[k]);
        t->p[i] = w;    /* a log until the largest is known */
        top = i == 0 || w > top ? w : top;
        next_index(e, t, idx);
    }
    /* Exponentiated against the largest: a pseudo-count of 1e-300 gave
     * weights below the doubles, every one 0, and the model "no
     * consistent assignment". */
    for (i = 0; t && i < t->size; i++) {
        w = exp(t->p[i] - top);
        under += w < DBL_MIN && t->p[i] > -HUGE_VAL;
        t->p[i] = w;
    }
    if (t)
        t->lost = fgm_etab_lost_below(under);
    if (t)
        e->log_z += top;
    return st;
}

/* Every factor of the model as an input table (or a constant). */
static fgm_status
add_factors(elim *e, double max_entries)
{
    const fgm_ir *ir = e->ir;
    size_t nf = (size_t)ir->nfactors + 1;
    /* Each node's draws (the variable of each of its factors, grouped by
     * node: OFF), and the work lists of add_dirichlet. */
    int *off = calloc((size_t)ir->ndirichlet + 2, sizeof *off);
    int *draws = malloc(3 * nf * sizeof *draws);
    fgm_status st = off && draws ? add_peers(e, max_entries) : FGM_ENOMEM;
    int i, j, d;

    for (i = 0; i < ir->nfactors && st == FGM_OK; i++) {
        const fgm_ir_factor *f = &ir->factors[i];

        /* A gated draw couples every node its gate may pick with the
         * gate: no table of draws per node (enumeration takes it). */
        if (f->kind == FGM_FACTOR_DIRICHLET_GATED)
            st = FGM_EUNSUPPORTED;
        for (j = 0; j < f->arity; j++)
            e->uses[fgm_ir_scope(ir, f)[j]]++;
        if (f->kind == FGM_FACTOR_DIRICHLET_DISCRETE)
            off[f->aux + 2]++;
    }
    for (d = 0; st == FGM_OK && d < ir->ndirichlet; d++)
        off[d + 2] += off[d + 1];
    for (i = 0; i < ir->nfactors && st == FGM_OK; i++) {
        const fgm_ir_factor *f = &ir->factors[i];

        if (f->kind == FGM_FACTOR_DIRICHLET_DISCRETE)
            draws[off[f->aux + 1]++] = fgm_ir_scope(ir, f)[0];
    }

    for (i = 0; i < ir->nfactors && st == FGM_OK; i++) {
        const fgm_ir_factor *f = &ir->factors[i];

        if (f->kind == FGM_FACTOR_TABLE || f->kind == FGM_FACTOR_EVIDENCE
            || f->kind == FGM_FACTOR_SUM)
            st = add_weights(e, f, max_entries);
    }
    for (d = 0; d < ir->ndirichlet && st == FGM_OK; d++)
        st = add_dirichlet(e, d, draws + off[d], off[d + 1] - off[d],
                           draws + nf, draws + 2 * nf, max_entries);
    free(off);
    free(draws);
    return st;
}

/* The bucket tree of the input tables' scopes, and each place's
 * children. */
static fgm_status
make_tree(elim *e, double max_entries)
{
    int n = e->csp->nvars, i, j, k, *off, *scopes, *fill;
    long total = 0;
    fgm_status st;

    for (i = 0; i < e->nin; i++)
        total += e->in[i].n;
    off = malloc(((size_t)e->nin + 1) * sizeof *off);
    scopes = malloc(((size_t)total + 1) * sizeof *scopes);
    if (!off || !scopes) {
        free(off);
        free(scopes);
        return FGM_ENOMEM;
    }
    for (i = 0, off[0] = 0; i < e->nin; i++) {
        memcpy(scopes + off[i], e->in[i].vars,
               (size_t)e->in[i].n * sizeof *scopes);
        off[i + 1] = off[i] + e->in[i].n;
    }
    st = fgm_elim_order(n, e->ecard, off, scopes, e->nin, max_entries,
                        &e->tree);
    free(off);
    free(scopes);
    if (st != FGM_OK)
        return st;
    e->child_off = calloc((size_t)n + 2, sizeof *e->child_off);
    e->child = malloc(((size_t)n + 1) * sizeof *e->child);
    fill = calloc((size_t)n + 1, sizeof *fill);
    if (!e->child_off || !e->child || !fill) {
        free(fill);
        return FGM_ENOMEM;
    }
    for (k = 0; k < n; k++)
        if ((j = e->tree.parent[e->tree.order[k]]) >= 0)
            e->child_off[e->tree.pos[j] + 1]++;
    for (k = 0; k < n; k++)
        e->child_off[k + 1] += e->child_off[k];
    for (k = 0; k < n; k++)
        if ((j = e->tree.parent[e->tree.order[k]]) >= 0) {
            j = e->tree.pos[j];
            e->child[e->child_off[j] + fill[j]++] = k;
        }
    free(fill);
    return FGM_OK;
}

/* PSI[k]: the input tables of place k's clique (each goes to the clique
 * of its first variable to be eliminated, which holds its whole scope),
 * multiplied and rescaled. */
static fgm_status
fill_cliques(elim *e)
{
    const fgm_elim_tree *t = &e->tree;
    int i, j, k, first;
    fgm_status st;

    for (k = 0; k < t->nvars; k++) {
        st = fgm_etab_init(&e->psi[k], t->clique + t->clique_off[k],
                           t->clique_off[k + 1] - t->clique_off[k],
                           e->ecard);
        if (st != FGM_OK)
            return st;
    }
    for (i = 0; i < e->nin; i++) {
        /* Each input at most 1, so that products stay at most 1. */
        double s = fgm_etab_rescale(&e->in[i]);

        if (s == -HUGE_VAL)
            return FGM_EUNSOLVED;   /* all zero as written */
        e->log_z += s;
        for (j = 0, first = e->in[i].vars[0]; j < e->in[i].n; j++)
            if (t->pos[e->in[i].vars[j]] < t->pos[first])
                first = e->in[i].vars[j];
        fgm_etab_mul(&e->psi[t->pos[first]], &e->in[i], e->ecard,
                     &e->log_z);
        fgm_etab_free(&e->in[i]);
    }
    for (k = 0; k < t->nvars; k++) {
        double s = fgm_etab_rescale(&e->psi[k]);

        if (s == -HUGE_VAL)
            return no_assignment(&e->psi[k]);
        e->log_z += s;
    }
    return FGM_OK;
}

/* OUT, over place K's clique less its own variable, receives TAB reduced
 * onto it and rescaled; returns the scale's log (-HUGE_VAL: all 0). */
static double
to_separator(elim *e, int k, const fgm_etab *tab, fgm_etab *out,
             fgm_status *st)
{
    const fgm_elim_tree *t = &e->tree;
    int v = t->order[k], vars[FGM_ETAB_MAXVARS], i, n = 0;

    for (i = t->clique_off[k]; i < t->clique_off[k + 1]; i++)
        if (t->clique[i] != v)
            vars[n++] = t->clique[i];
    if ((*st = fgm_etab_init(out, vars, n, e->ecard)) != FGM_OK)
        return 0.0;
    fgm_etab_reduce(tab, out, e->ecard, e->max);
    return fgm_etab_rescale(out);
}

/* Place K's variable's marginal from its clique's belief B, normalized
 * (max-marginals over their own sum, as fgm_enumerate_max). */
static fgm_status
write_marginal(elim *e, int k, const fgm_etab *b, double *marginals)
{
    int v = e->tree.order[k], mc = e->csp->maxcard, i;
    fgm_etab one;
    fgm_status st = fgm_etab_init(&one, &v, 1, e->ecard);
    double z = 0.0;

    if (st != FGM_OK)
        return st;
    fgm_etab_reduce(b, &one, e->ecard, e->max);
    for (i = 0; i < one.size; i++)
        z += one.p[i];
    if (lost_matters(&one, z)) {
        fgm_etab_free(&one);
        return FGM_EUNSUPPORTED;
    }
    for (i = 0; i < one.size; i++) {
        /* A subnormal is a product that left the doubles (a value
         * against thousands of factors): its digits are gone, and 0 is
         * as near the truth. */
        double p = one.p[i] / z;

        marginals[(long)v * mc + value_of(e, v, i)] = p < DBL_MIN ? 0.0 : p;
    }
    fgm_etab_free(&one);
    return FGM_OK;
}

/* Fewest children grouped: one or two cost less alone than a sort (a
 * chain's 2,000 cliques ran 40% slower grouped). */
#define GROUP_MIN 3

/* Children of one clique that share a separator: their places
 * C[FIRST..FIRST+N-1] and the product of their messages, over it. */
typedef struct child_group {
    int first, n;
    fgm_etab prod;
} child_group;

static fgm_status down_halves(elim *e, const int *c, const child_group *g,
                              int lo, int hi, const fgm_etab *p);

/* The messages down to group G's children (in C), P the product over
 * the parent's clique of everything but theirs: P reduced onto their
 * separator once, which they share out (down_halves).  Leaves that hang
 * off one variable of a large clique (a hub) cost one pass over the
 * clique, not one per leaf: 200 of them on a 2.1M-entry clique took
 * 27 s. */
static fgm_status
down_group(elim *e, const int *c, const child_group *g, const fgm_etab *p)
{
    fgm_etab sep;
    fgm_status st = fgm_etab_init(&sep, g->prod.vars, g->prod.n, e->ecard);

    if (st != FGM_OK)
        return st;
    fgm_etab_reduce(p, &sep, e->ecard, e->max);
    fgm_etab_rescale(&sep);
    st = down_halves(e, c + g->first, NULL, 0, g->n, &sep);
    fgm_etab_free(&sep);
    return st;
}

/* The messages down to items LO..HI-1 -- the groups G, or without G the
 * children C (places) -- P being the product over their parent's clique
 * (or their group's separator) of the parent's inputs, its own parent's
 * message and the messages of every other item: halves in turn, each
 * with the other half's messages multiplied in, so that no item's own
 * message is ever taken out (a division would meet zeros), and M items
 * cost M log M products of P's table, with log M tables alive at a time
 * (a hub over 16,000 leaves took 54 s recomputing every other child's
 * product for each).  An item alone: a child's message is P reduced
 * onto its separator (its scale does not matter, marginals are
 * normalized; all 0 cannot be, the total weight is not 0), a group's
 * down_group. */
static fgm_status
down_halves(elim *e, const int *c, const child_group *g, int lo, int hi,
            const fgm_etab *p)
{
    fgm_etab half;
    fgm_status st = FGM_OK;
    int mid = lo + (hi - lo) / 2, side, j;

    if (past_deadline(e))
        return FGM_ETIMEOUT;
    if (hi - lo == 1 && g)
        return down_group(e, c, &g[lo], p);
    if (hi - lo == 1) {
        to_separator(e, c[lo], p, &e->down[c[lo]], &st);
        return st;
    }
    for (side = 0; side < 2 && st == FGM_OK; side++) {
        /* Side 0 recurses into the low half with the high half's
         * messages multiplied in; side 1 the other way round. */
        if ((st = fgm_etab_copy(&half, p, e->ecard)) != FGM_OK)
            break;
        for (j = side ? lo : mid; j < (side ? mid : hi); j++)
            fgm_etab_mul(&half, g ? &g[j].prod : &e->up[c[j]], e->ecard,
                         NULL);
        st = side ? down_halves(e, c, g, mid, hi, &half)
                  : down_halves(e, c, g, lo, mid, &half);
        fgm_etab_free(&half);
    }
    return st;
}

/* A child's place with a hash of its separator, for sorting. */
typedef struct keyed {
    uint64_t hash;
    int place;
} keyed;

static int
cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;

    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return (x->place > y->place) - (x->place < y->place);
}

/* Whether tables A and B have the same variables. */
static int
same_vars(const fgm_etab *a, const fgm_etab *b)
{
    return a->n == b->n
           && (a->n == 0 || memcmp(a->vars, b->vars,
                                   (size_t)a->n * sizeof *a->vars) == 0);
}

/* Place K's M children (e->child from C0) sorted by separator into C,
 * and grouped (G, *NG of them) with their messages' products, whose
 * rescalings' logs go to *LOG_SCALE (nullable).  Returns FGM_OK or
 * FGM_ENOMEM. */
static fgm_status
group_children(elim *e, int c0, int m, int *c, child_group *g, int *ng,
               double *log_scale)
{
    keyed *kd = malloc((size_t)m * sizeof *kd);
    fgm_status st = FGM_OK;
    int i, j;

    *ng = 0;
    if (!kd)
        return FGM_ENOMEM;
    for (i = 0; i < m; i++) {
        const fgm_etab *u = &e->up[e->child[c0 + i]];
        uint64_t h = 1469598103934665603ULL;    /* FNV-1a */

        for (j = 0; j < u->n; j++)
            h = (h ^ (uint64_t)u->vars[j]) * 1099511628211ULL;
        kd[i].hash = h;
        kd[i].place = e->child[c0 + i];
    }
    qsort(kd, (size_t)m, sizeof *kd, cmp_keyed);
    for (i = 0; i < m && st == FGM_OK; i++) {
        const fgm_etab *u = &e->up[kd[i].place];

        c[i] = kd[i].place;
        if (*ng == 0 || !same_vars(&g[*ng - 1].prod, u)) {
            /* (Equal hashes of unequal separators only split a group.) */
            g[*ng].first = i;
            g[*ng].n = 0;
            if ((st = fgm_etab_init(&g[*ng].prod, u->vars, u->n, e->ecard))
                != FGM_OK)
                break;
            ++*ng;
        }
        g[*ng - 1].n++;
        fgm_etab_mul(&g[*ng - 1].prod, u, e->ecard, log_scale);
    }
    free(kd);
    return st;
}

/* Frees the NG groups G (nullable) and the list C that group_children
 * filled. */
static void
free_groups(child_group *g, int ng, int *c)
{
    int j;

    for (j = 0; g && j < ng; j++)
        fgm_etab_free(&g[j].prod);
    free(g);
    free(c);
}

/* Leaves to roots: UP[k], place k's message to its parent, is its
 * clique's inputs times its children's messages, reduced.  A root's
 * reduction is its tree's total weight.  Children with one separator
 * are multiplied together first (group_children): 200 leaves on one
 * variable of a 2.1M-entry clique are one pass over it, not 200. */
static fgm_status
upward(elim *e)
{
    const fgm_elim_tree *t = &e->tree;
    int n = t->nvars, *c = malloc(((size_t)n + 1) * sizeof *c);
    child_group *g = calloc((size_t)n + 1, sizeof *g);
    fgm_status st = c && g ? FGM_OK : FGM_ENOMEM;
    fgm_etab w, none;
    double s = -HUGE_VAL;
    int k, j, ng = 0, m;

    for (k = 0; k < n && st == FGM_OK; k++) {
        if (past_deadline(e)) {
            st = FGM_ETIMEOUT;
            break;
        }
        m = e->child_off[k + 1] - e->child_off[k];
        if ((m >= GROUP_MIN
             && (st = group_children(e, e->child_off[k], m, c, g, &ng,
                                     &e->log_z)) != FGM_OK)
            || (st = fgm_etab_copy(&w, &e->psi[k], e->ecard)) != FGM_OK)
            break;
        for (j = 0; j < ng; j++) {
            fgm_etab_mul(&w, &g[j].prod, e->ecard, &e->log_z);
            fgm_etab_free(&g[j].prod);
        }
        for (j = 0; m < GROUP_MIN && j < m; j++)
            fgm_etab_mul(&w, &e->up[e->child[e->child_off[k] + j]], e->ecard,
                         &e->log_z);
        ng = 0;
        if (t->parent[t->order[k]] >= 0) {
            s = to_separator(e, k, &w, &e->up[k], &st);
        } else if ((st = fgm_etab_init(&none, NULL, 0, e->ecard)) == FGM_OK) {
            /* A root: its total (or best), which no loss below the
             * doubles may come near (log Z, and the MAP's traceback). */
            fgm_etab_reduce(&w, &none, e->ecard, e->max);
            s = none.p[0] > 0.0 ? log(none.p[0]) : -HUGE_VAL;
            if (s > -HUGE_VAL && lost_matters(&none, none.p[0]))
                st = FGM_EUNSUPPORTED;
            fgm_etab_free(&none);
        }
        if (st == FGM_OK && s == -HUGE_VAL)
            st = no_assignment(&w);
        fgm_etab_free(&w);
        if (st == FGM_OK)
            e->log_z += s;
    }
    free_groups(g, ng, c);
    return st;
}

/* Roots to leaves: place K's clique belief (its inputs, the message from
 * its parent, its children's) gives its marginal, and each child's
 * message DOWN is that belief without the child's own message, reduced
 * (down_halves). */
static fgm_status
downward_one(elim *e, int k, double *marginals)
{
    int c0 = e->child_off[k], m = e->child_off[k + 1] - c0, ng = 0, j;
    int *c = malloc(((size_t)m + 1) * sizeof *c);
    child_group *g = calloc((size_t)m + 1, sizeof *g);
    fgm_etab pre;
    fgm_status st = c && g ? fgm_etab_copy(&pre, &e->psi[k], e->ecard)
                           : FGM_ENOMEM;

    if (st == FGM_OK) {
        if (e->tree.parent[e->tree.order[k]] >= 0)
            fgm_etab_mul(&pre, &e->down[k], e->ecard, NULL);
        if (m >= GROUP_MIN) {
            st = group_children(e, c0, m, c, g, &ng, NULL);
            if (st == FGM_OK)
                st = down_halves(e, c, g, 0, ng, &pre);
        } else if (m > 0) {
            st = down_halves(e, e->child + c0, NULL, 0, m, &pre);
        }
        for (j = 0; j < ng && st == FGM_OK; j++)
            fgm_etab_mul(&pre, &g[j].prod, e->ecard, NULL);
        for (j = 0; m < GROUP_MIN && j < m && st == FGM_OK; j++)
            fgm_etab_mul(&pre, &e->up[e->child[c0 + j]], e->ecard, NULL);
        if (st == FGM_OK)
            st = write_marginal(e, k, &pre, marginals);
        fgm_etab_free(&pre);
    }
    free_groups(g, ng, c);
    return st;
}

static void
elim_free(elim *e)
{
    int k, n = e->tree.nvars;

    for (k = 0; k < e->nin; k++)
        fgm_etab_free(&e->in[k]);
    for (k = 0; k < n; k++) {
        if (e->psi)
            fgm_etab_free(&e->psi[k]);
        if (e->up)
            fgm_etab_free(&e->up[k]);
        if (e->down)
            fgm_etab_free(&e->down[k]);
    }
    free(e->in);
    free(e->psi);
    free(e->up);
    free(e->down);
    free(e->ecard);
    free(e->uses);
    free(e->slot);
    free(e->twin);
    free(e->child_off);
    free(e->child);
    fgm_elim_tree_free(&e->tree);
}

/* Everything up to the messages to the roots: E set up for CSP with
 * clues GIVEN (MAX: max-product), its tables bounded by CAP, given up at
 * DEADLINE.  E must be freed (elim_free) whatever the status. */
static fgm_status
elim_up(elim *e, const fgm_csp *csp, const int *given, int max, double cap,
        double deadline)
{
    fgm_status st;
    int v, n = csp->nvars;

    memset(e, 0, sizeof *e);
    e->csp = csp;
    e->ir = csp->ir;
    e->given = given;
    e->max = max != 0;
    e->deadline = deadline;
    e->ecard = malloc(((size_t)n + 1) * sizeof *e->ecard);
    e->uses = calloc((size_t)n + 1, sizeof *e->uses);
    e->slot = malloc(((size_t)n + 1) * sizeof *e->slot);
    e->twin = malloc(((size_t)n + 1) * sizeof *e->twin);
    if (!e->ecard || !e->uses || !e->slot || !e->twin)
        return FGM_ENOMEM;
    for (v = 0; v < n; v++) {
        e->ecard[v] = given && given[v] >= 0 ? 1 : csp->card[v];
        e->slot[v] = e->twin[v] = -1;
    }
    st = add_factors(e, cap);
    if (st == FGM_OK && e->zero)
        st = FGM_EUNSOLVED;
    if (st == FGM_OK)
        st = make_tree(e, cap);
    if (st == FGM_OK) {
        e->psi = calloc((size_t)n + 1, sizeof *e->psi);
        e->up = calloc((size_t)n + 1, sizeof *e->up);
        e->down = calloc((size_t)n + 1, sizeof *e->down);
        st = e->psi && e->up && e->down ? fill_cliques(e) : FGM_ENOMEM;
    }
    return st == FGM_OK ? upward(e) : st;
}

/* *INFO (nullable) from E after a run that ended with ST. */
static void
elim_info(const elim *e, fgm_status st, fgm_elim_info *info)
{
    if (!info)
        return;
    info->width = e->tree.width;
    info->largest = (long)e->tree.largest;
    info->entries = (long)e->tree.entries;
    info->log_z = st == FGM_OK ? e->log_z : -HUGE_VAL;
}

/* *INFO (nullable) as a refusal leaves it. */
static void
no_info(fgm_elim_info *info)
{
    if (info) {
        memset(info, 0, sizeof *info);
        info->log_z = -HUGE_VAL;
    }
}

fgm_status
fgm_eliminate(const fgm_csp *csp, const int *given, long max_entries,
              double deadline, int max, double *marginals,
              fgm_elim_info *info)
{
    elim e;
    fgm_status st;
    double cap = max_entries > 0 ? (double)max_entries : FGM_ELIM_MAX_ENTRIES;
    int v, k, n;

    no_info(info);
    if (!csp || !marginals || !fgm_csp_given_ok(csp, given)
        || !(deadline >= 0.0))
        return FGM_EINVAL;
    n = csp->nvars;
    st = elim_up(&e, csp, given, max, cap, deadline);
    if (st == FGM_OK) {
        memset(marginals, 0, (size_t)n * (size_t)csp->maxcard
                             * sizeof *marginals);
        for (k = n - 1; k >= 0 && st == FGM_OK; k--)
            st = past_deadline(&e) ? FGM_ETIMEOUT
                                   : downward_one(&e, k, marginals);
        for (v = 0; v < n; v++)
            if (e.twin[v] >= 0)
                memcpy(marginals + (size_t)v * (size_t)csp->maxcard,
                       marginals + (size_t)e.twin[v] * (size_t)csp->maxcard,
                       (size_t)csp->maxcard * sizeof *marginals);
    }
    elim_info(&e, st, info);
    elim_free(&e);
    return st;
}

/* The log of T's entry at the assignment X (effective value indices, by
 * variable). */
static double
log_at(const fgm_etab *t, const int *x, const int *card)
{
    long i = 0;
    int j;

    for (j = 0; j < t->n; j++)
        i = i * card[t->vars[j]] + x[t->vars[j]];
    return t->p[i] > 0.0 ? log(t->p[i]) : -HUGE_VAL;
}

/* Roots to leaves after a max-product upward pass: each place's
 * variable takes its best value given those of its separator, decided
 * before it (they are eliminated after it): its clique's inputs times
 * its children's messages there, in logs (a hub's thousands of messages
 * would underflow a product), the lowest value among equals.  X
 * receives effective value indices.  The standard traceback: the
 * messages up hold, for each separator value, the best the subtree
 * below can do, so these choices make one assignment of the largest
 * weight. */
static void
traceback(const elim *e, int *x)
{
    const fgm_elim_tree *t = &e->tree;
    double w, best;
    int k, v, i, j, top;

    for (k = t->nvars - 1; k >= 0; k--) {
        v = t->order[k];
        best = -HUGE_VAL;
        top = 0;
        for (i = 0; i < e->ecard[v]; i++) {
            x[v] = i;
            w = log_at(&e->psi[k], x, e->ecard);
            for (j = e->child_off[k]; j < e->child_off[k + 1]; j++)
                w += log_at(&e->up[e->child[j]], x, e->ecard);
            if (w > best) {
                best = w;
                top = i;
            }
        }
        x[v] = top;
    }
}

fgm_status
fgm_eliminate_map(const fgm_csp *csp, const int *given, long max_entries,
                  double deadline, int *assignment, fgm_elim_info *info)
{
    elim e;
    fgm_status st;
    double cap = max_entries > 0 ? (double)max_entries : FGM_ELIM_MAX_ENTRIES;
    int v;

    no_info(info);
    if (!csp || !assignment || !fgm_csp_given_ok(csp, given)
        || !(deadline >= 0.0))
        return FGM_EINVAL;
    st = elim_up(&e, csp, given, 1, cap, deadline);
    if (st == FGM_OK) {
        traceback(&e, assignment);
        for (v = 0; v < csp->nvars; v++)
            assignment[v] = value_of(&e, v, assignment[v]);
    }
    elim_info(&e, st, info);
    elim_free(&e);
    return st;
}
