/* runtime/ir.h: the factor-graph IR, the contract between compiler and runtime.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A model is a set of variable arrays (each variable has a finite domain of
 * CARD values labelled LO..LO+CARD-1) and a list of factors over them.  The
 * runtime only ever sees value *indices* 0..CARD-1; labels matter for dumps
 * and for reading puzzles.  Variables are numbered densely across arrays in
 * declaration order, row-major within an array.
 *
 * The IR owns all its memory: scopes and parameters live in two pools that
 * grow as factors are added (counts sit next to their arrays).
 */
#ifndef FGM_IR_H
#define FGM_IR_H

#include "fgm.h"
#include "internal.h"

#define FGM_IR_MAXDIMS 4
#define FGM_IR_MAXNAME 64
#define FGM_IR_MAXCARD 64   /* domains fit a 64-bit mask in the exact solvers */

/* Factor kinds: X(ENUM, "dump name").  ORDER FACTOR: grep before reordering:
 * the dump prints the name, never the number, so only the table order and
 * fgm_ir_kind_name depend on it. */
#define FGM_FACTOR_KINDS(X)                                                  \
    X(FGM_FACTOR_NEQ, "neq")               /* x != y, arity 2 */             \
    X(FGM_FACTOR_ALLDIFF, "alldiff")       /* pairwise distinct, arity n */  \
    X(FGM_FACTOR_TABLE, "table")           /* potential over the scope */    \
    X(FGM_FACTOR_EVIDENCE, "evidence")     /* unary weights over a domain */

typedef enum fgm_factor_kind {
#define FGM_X(e, s) e,
    FGM_FACTOR_KINDS(FGM_X)
#undef FGM_X
    FGM_FACTOR_NKINDS
} fgm_factor_kind;

/* Array flags. */
#define FGM_ARRAY_OBSERVED 1u   /* values may be set per run (puzzle clues) */

typedef struct fgm_ir_array {
    char name[FGM_IR_MAXNAME];
    int ndims;
    int dims[FGM_IR_MAXDIMS];
    int first;          /* index of its first variable */
    int count;          /* product of dims */
    int lo;             /* label of value index 0 */
    int card;           /* domain size */
    unsigned flags;
} fgm_ir_array;

typedef struct fgm_ir_factor {
    fgm_factor_kind kind;
    int arity;
    int scope;          /* offset of the scope in ir->scope_pool */
    int params;         /* offset in ir->param_pool, or -1 */
    int nparams;        /* TABLE: product of cards; EVIDENCE: card */
    int line, col;      /* source position, 0 when built in C */
} fgm_ir_factor;

struct fgm_ir {
    char name[FGM_IR_MAXNAME];
    fgm_ir_array *arrays;
    int narrays, arrays_cap;
    int nvars;
    int *var_array;     /* nvars entries: owning array */
    fgm_ir_factor *factors;
    int nfactors, factors_cap;
    int *scope_pool;
    int nscope, scope_cap;
    double *param_pool;
    int nparam, param_cap;
};

/* Returns a new empty IR named NAME, or NULL on allocation failure. */
FGM_INTERNAL fgm_ir *fgm_ir_new(const char *name);

/* Adds an array of variables.  Returns the index of its first variable, or
 * -1 with *STATUS set (FGM_EINVAL for bad sizes, FGM_ENOMEM). */
FGM_INTERNAL int fgm_ir_add_array(fgm_ir *ir, const char *name, int ndims,
                                  const int *dims, int lo, int card,
                                  unsigned flags, fgm_status *status);

/* Adds a factor over SCOPE[0..ARITY-1] (copied); PARAMS (NPARAMS values,
 * copied, may be NULL when NPARAMS is 0).  Validates indices and the
 * parameter count for the kind.  Returns the factor index or -1. */
FGM_INTERNAL int fgm_ir_add_factor(fgm_ir *ir, fgm_factor_kind kind,
                                   int arity, const int *scope,
                                   int nparams, const double *params,
                                   fgm_status *status);

/* Domain size of variable V. */
FGM_INTERNAL int fgm_ir_card(const fgm_ir *ir, int v);

/* Writes the name of variable V ("cell[3][4]") into BUF.  Returns BUF. */
FGM_INTERNAL char *fgm_ir_var_name(const fgm_ir *ir, int v, char *buf,
                                   size_t size);

/* Name of a factor kind ("alldiff"). */
FGM_INTERNAL const char *fgm_ir_kind_name(fgm_factor_kind kind);

/* Pointer to the scope of factor F. */
static inline const int *
fgm_ir_scope(const fgm_ir *ir, const fgm_ir_factor *f)
{
    return ir->scope_pool + f->scope;
}

/* Pointer to the parameters of factor F (NULL when it has none). */
static inline const double *
fgm_ir_params(const fgm_ir *ir, const fgm_ir_factor *f)
{
    return f->params < 0 ? NULL : ir->param_pool + f->params;
}

#endif /* FGM_IR_H */
