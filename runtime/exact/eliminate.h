/* runtime/exact/eliminate.h: the parts of variable elimination.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fgm_eliminate (fgm.h) computes exact marginals on a bucket tree: an
 * elimination order (elim_order.c), dense tables over its cliques
 * (elim_table.c), and two passes of messages over the tree (eliminate.c).
 * Its cost is the size of the largest clique's table, not the number of
 * assignments: a chain or a tree of any length is cheap, a Sudoku grid is
 * not (it is left to Dancing Links and enumeration).
 */
#ifndef FGM_ELIMINATE_H
#define FGM_ELIMINATE_H

#include "csp.h"

/* A dense nonnegative table over N variables VARS (ascending), row-major:
 * the last variable varies fastest.  CARD (given to every operation)
 * gives each variable's number of values. */
/* Most variables in a table (a clique). */
#define FGM_ETAB_MAXVARS FGM_ELIM_MAX_VARS

typedef struct fgm_etab {
    int n;
    int *vars;
    long size;          /* product of the cards: entries of P */
    double *p;
    double lost;        /* the log of a bound on the weight (in P's
                         * units) that went below the doubles, here or in
                         * the tables that made this one; -HUGE_VAL: none
                         * (see fgm_etab_mul) */
} fgm_etab;

/* T over VARS[0..N-1] (ascending, unique), every entry 1.  Returns FGM_OK
 * or FGM_ENOMEM (T then empty, safe to free). */
FGM_INTERNAL fgm_status fgm_etab_init(fgm_etab *t, const int *vars, int n,
                                      const int *card);
FGM_INTERNAL void fgm_etab_free(fgm_etab *t);

/* D, a new table over S's variables, holds S's entries.  Returns as
 * fgm_etab_init. */
FGM_INTERNAL fgm_status fgm_etab_copy(fgm_etab *d, const fgm_etab *s,
                                      const int *card);

/* T = T * G, G's variables a subset of T's; the product divided by its
 * largest entry when that is below FGM_ETAB_TINY, the divisor's log
 * added to *LOG_SCALE (nullable).  Entries of T and G at most 1 (every
 * table is rescaled as it is made) keep T at most 1 too.  Returns T's
 * largest entry (0: every entry is 0).  A product below DBL_MIN (0 or
 * subnormal) has lost its value, all but at most DBL_MIN of it: T->lost
 * bounds the total so lost, and what T's and G's own bounds become in
 * the product, so that a caller can tell a loss that cannot matter
 * (weights e^1000 below the rest) from one that may (weights that span
 * more than the doubles, where the assignments left after the zeros
 * were the ones lost). */
#define FGM_ETAB_TINY 1e-100
FGM_INTERNAL double fgm_etab_mul(fgm_etab *t, const fgm_etab *g,
                                 const int *card, double *log_scale);

/* The log of a bound on what N values that fell below the doubles lost
 * (each less than DBL_MIN); -HUGE_VAL for none (fgm_etab.lost). */
FGM_INTERNAL double fgm_etab_lost_below(long n);

/* OUT (already initialised over a subset of T's variables) receives T
 * summed (MAX: maximized) over the variables OUT lacks. */
FGM_INTERNAL void fgm_etab_reduce(const fgm_etab *t, fgm_etab *out,
                                  const int *card, int max);

/* Divides T by its largest entry and returns that entry's log (-HUGE_VAL,
 * T unchanged, when every entry is 0). */
FGM_INTERNAL double fgm_etab_rescale(fgm_etab *t);

/* An elimination order and the bucket tree it makes: variable v's clique
 * is v and its neighbours when it is eliminated; its parent the clique
 * of the first of those neighbours to go (-1: a root). */
typedef struct fgm_elim_tree {
    int nvars;
    int *order;         /* nvars: the variables, first eliminated first */
    int *pos;           /* nvars: each variable's place in ORDER */
    int *parent;        /* nvars */
    int *clique_off;    /* nvars + 1, by place in ORDER: ORDER[k]'s clique
                         * is CLIQUE[CLIQUE_OFF[k]..CLIQUE_OFF[k+1]-1] */
    int *clique;        /* each clique's variables, ascending */
    int width;          /* most variables in a clique */
    double largest;     /* most entries in a clique's table */
    double entries;     /* entries of every clique's table */
} fgm_elim_tree;

/* Orders the NVARS variables (cards CARD) of the factors whose scopes are
 * SCOPES[SCOPE_OFF[f]..SCOPE_OFF[f+1]-1] for f < NSCOPES, greedily by
 * least fill-in, then by the smallest clique table.  Returns FGM_OK,
 * FGM_EUNSUPPORTED when a clique's table would pass MAX_ENTRIES entries
 * or all of them 4 MAX_ENTRIES, or a clique more than FGM_ETAB_MAXVARS
 * variables (TREE then empty), or FGM_ENOMEM. */
FGM_INTERNAL fgm_status fgm_elim_order(int nvars, const int *card,
                                       const int *scope_off,
                                       const int *scopes, int nscopes,
                                       double max_entries,
                                       fgm_elim_tree *tree);
FGM_INTERNAL void fgm_elim_tree_free(fgm_elim_tree *tree);

#endif /* FGM_ELIMINATE_H */
