/* runtime/exact/csp.h: the IR seen as a constraint-satisfaction problem.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The exact solvers work on value indices and 64-bit domain masks.  A csp is
 * built once per model (peers, alldiff units, tables, unary evidence) and is
 * read-only afterwards, so worker threads share it.  Per-puzzle clues come in
 * a separate GIVEN array (value index or -1), like Infer.NET's observed
 * values: the model is not rebuilt for each puzzle.
 *
 * Peers: v and w are peers when a neq factor or an alldiff factor holds
 * both.  Pairwise "v != w" over peers is exactly the binary decomposition of
 * the model's neq/alldiff constraints; tables and sums are checked
 * separately.
 */
#ifndef FGM_CSP_H
#define FGM_CSP_H

#include <stdint.h>
#include "../ir.h"

typedef uint64_t fgm_dom;

#define FGM_DOM_BIT(val) ((fgm_dom)1 << (val))

typedef struct fgm_csp {
    const fgm_ir *ir;       /* borrowed; must outlive the csp */
    int nvars;
    int maxcard;
    int *card;              /* nvars */
    fgm_dom *full;          /* nvars: values allowed by unary evidence */
    int *peer_off;          /* nvars + 1 */
    int *peers;             /* sorted, unique per variable */
    int nunits;             /* alldiff factors, in IR order */
    int *unit_off;          /* nunits + 1 */
    int *unit_vars;
    int *var_unit_off;      /* nvars + 1: units holding each variable */
    int *var_units;
    int ntables;
    int *tables;            /* ntables: factor indices of the TABLE
                             * factors with a zero weight (the others
                             * forbid nothing) and of the SUM factors */
    int *var_table_off;     /* nvars + 1 */
    int *var_tables;        /* indices into tables[] */
} fgm_csp;

/* fgm_csp_new, fgm_csp_free, fgm_csp_nvars and fgm_csp_maxcard are
 * public (fgm.h). */

/* Number of peers of V and a pointer to them. */
static inline int
fgm_csp_npeers(const fgm_csp *csp, int v)
{
    return csp->peer_off[v + 1] - csp->peer_off[v];
}

static inline const int *
fgm_csp_peers(const fgm_csp *csp, int v)
{
    return csp->peers + csp->peer_off[v];
}

/* Whether every clue of GIVEN (NULL: none) is -1 (free) or a value index
 * of its variable: what the exact solvers take. */
FGM_INTERNAL int fgm_csp_given_ok(const fgm_csp *csp, const int *given);

/* Initial domains: full[v], narrowed to {given[v]} where given[v] >= 0.
 * Returns 0 if a clue lies outside its variable's domain, 1 otherwise. */
FGM_INTERNAL int fgm_csp_init_domains(const fgm_csp *csp, const int *given,
                                      fgm_dom *dom);

/* Whether v = VAL is consistent with the partial assignment ASSIGN
 * (-1 = unassigned): no assigned peer holds VAL, VAL is allowed by unary
 * evidence, and every table over v still has a tuple with nonzero weight
 * that matches all assigned variables of its scope. */
FGM_INTERNAL int fgm_csp_consistent(const fgm_csp *csp, const int *assign,
                                    int v, int val);

/* Whether every assigned value of ASSIGN (-1 = unassigned) is consistent
 * with the others (fgm_csp_consistent): no two clues clash in a
 * constraint, whether or not the puzzle reader checks its unit. */
FGM_INTERNAL int fgm_csp_assigned_consistent(const fgm_csp *csp,
                                             const int *assign);

/* The first variable that ASSIGN (-1 = unassigned) leaves free and no
 * value: each value of its domain inconsistent (fgm_csp_consistent), so
 * that no completion of ASSIGN is a solution; -1 when there is none. */
FGM_INTERNAL int fgm_csp_dead_var(const fgm_csp *csp, const int *assign);

/* Whether the table factor csp->tables[T] has a nonzero tuple that agrees
 * with DOM on every variable of its scope, reading v = VAL instead of
 * DOM[V] for variable V (V = -1: none).  A sum factor there: whether the
 * least and the largest sums the domains allow leave one in its range
 * (bounds, exact once every domain is one value). */
FGM_INTERNAL int fgm_csp_table_supported(const fgm_csp *csp, int t,
                                         const fgm_dom *dom, int v, int val);

/* Whether alldiff unit U holds n distinct variables of n values each (a
 * "full" unit: every value must appear in it, so hidden singles apply). */
FGM_INTERNAL int fgm_csp_unit_is_full(const fgm_csp *csp, int u);

/* Verifies a complete assignment against every factor of the IR and the
 * clues.  Returns 1 when valid. */
FGM_INTERNAL int fgm_csp_verify(const fgm_csp *csp, const int *given,
                                const int *assign);

/* The seed's NbErrors (notebook 000: conflicts plus changed clues),
 * for any model: over every != and alldiff constraint, the variables
 * holding a value an earlier one of its scope holds (n - distinct values:
 * 37 on the seed's robust Medium grid, as it printed), plus the clues of
 * GIVEN (NULL: none) that ASSIGN changed, the variables it left out of
 * their domain (-1: unassigned), and each table, evidence or sum factor
 * it gives weight 0 (a sum it does not meet), counted only when ASSIGN
 * gives every variable of the factor a value.  0 exactly when
 * fgm_csp_verify accepts ASSIGN. */
FGM_INTERNAL long fgm_csp_conflicts(const fgm_csp *csp, const int *given,
                                    const int *assign);

/* Count of set bits (values) in a domain, and the lowest value. */
static inline int
fgm_dom_count(fgm_dom d)
{
    return __builtin_popcountll(d);
}

static inline int
fgm_dom_first(fgm_dom d)
{
    return __builtin_ctzll(d);
}

#endif /* FGM_CSP_H */
