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

/* FGM_IR_MAXDIMS and FGM_IR_MAXNAME: see fgm.h. */
#define FGM_IR_MAXCARD 64   /* domains fit a 64-bit mask in the exact solvers */

/* Factor kinds: X(ENUM, "dump name").  ORDER FACTOR: grep before reordering:
 * the dump prints the name, never the number, so only the table order and
 * fgm_ir_kind_name depend on it. */
#define FGM_FACTOR_KINDS(X)                                                  \
    X(FGM_FACTOR_NEQ, "neq")               /* x != y, arity 2 */             \
    X(FGM_FACTOR_ALLDIFF, "alldiff")       /* pairwise distinct, arity n */  \
    X(FGM_FACTOR_TABLE, "table")           /* potential over the scope */    \
    X(FGM_FACTOR_EVIDENCE, "evidence")     /* unary weights over a domain */ \
    X(FGM_FACTOR_DIRICHLET_DISCRETE, "dirichlet_discrete")                  \
                                /* x ~ Discrete(p), p ~ Dirichlet: aux = p */\
    X(FGM_FACTOR_DIRICHLET_GATED, "dirichlet_gated")                        \
                                /* x ~ Discrete(p[g]), scope (x, g): g's    \
                                 * value index j picks node aux + j */      \
    X(FGM_FACTOR_SUM, "sum")    /* a_1 y_1 + ... + a_n y_n in [lo, hi], y \
                                 * the value indices: params lo, hi,     \
                                 * a_1..a_n (integers, a_j != 0) */

typedef enum fgm_factor_kind {
#define FGM_X(e, s) e,
    FGM_FACTOR_KINDS(FGM_X)
#undef FGM_X
    FGM_FACTOR_NKINDS
} fgm_factor_kind;

/* Array flags. */
#define FGM_ARRAY_OBSERVED 1u   /* values may be set per run (puzzle clues) */
#define FGM_ARRAY_ALPHA_EACH 2u /* DIRICHLET: default pseudo-counts per node
                                 * (count * card of them), not one vector
                                 * for all */

/* What an array holds.  ORDER FACTOR: grep before reordering. */
typedef enum fgm_array_kind {
    FGM_ARRAY_DISCRETE,     /* discrete variables, numbered 0..nvars-1 */
    FGM_ARRAY_DIRICHLET     /* Dirichlet nodes (probability vectors of size
                             * card), numbered 0..ndirichlet-1 */
} fgm_array_kind;

typedef struct fgm_ir_array {
    char name[FGM_IR_MAXNAME];
    fgm_array_kind kind;
    int ndims;
    int dims[FGM_IR_MAXDIMS];
    int first;          /* index of its first variable (or Dirichlet node) */
    int count;          /* product of dims */
    int lo;             /* DISCRETE: label of value index 0 */
    int card;           /* domain size; DIRICHLET: vector length K */
    int alpha;          /* DIRICHLET: offset of K default pseudo-counts in
                         * param_pool (the prior when not observed), or of
                         * count * K, node by node, with
                         * FGM_ARRAY_ALPHA_EACH (fgm_ir_node_alpha) */
    unsigned flags;
} fgm_ir_array;

typedef struct fgm_ir_factor {
    fgm_factor_kind kind;
    int arity;
    int scope;          /* offset of the scope in ir->scope_pool */
    int params;         /* offset in ir->param_pool, or -1 */
    int nparams;        /* TABLE: product of cards; EVIDENCE: card;
                         * SUM: 2 + arity */
    int aux;            /* DIRICHLET_DISCRETE: the Dirichlet node;
                         * DIRICHLET_GATED: the node of the gate's first
                         * value; else -1 */
    int line, col;      /* source position, 0 when built in C */
} fgm_ir_factor;

/* Inference algorithms: X(ENUM, "name").  ORDER FACTOR: grep before
 * reordering (names are what the dump and the CLI use). */
#define FGM_ALGOS(X)                                                         \
    X(FGM_ALGO_EP, "ep")            /* Infer.NET's EP: Dirichlet projected */\
    X(FGM_ALGO_BP_SUM, "bp-sum")    /* loopy sum-product */                  \
    X(FGM_ALGO_BP_MAX, "bp-max")    /* loopy max-product */                  \
    X(FGM_ALGO_GIBBS, "gibbs")      /* Gibbs sampling, Dirichlet collapsed */ \
    X(FGM_ALGO_VMP, "vmp")          /* mean field: variational messages */

typedef enum fgm_algo {
#define FGM_X(e, s) e,
    FGM_ALGOS(FGM_X)
#undef FGM_X
    FGM_NALGOS
} fgm_algo;

/* Whether ALGO visits variables, not factor updates (gibbs, vmp): its
 * sweeps walk the factor graph's tables (fgm_k_gibbs_graph,
 * runtime/ops/gibbs.h) instead of runs of factor updates. */
static inline int
fgm_algo_by_variable(fgm_algo algo)
{
    return algo == FGM_ALGO_GIBBS || algo == FGM_ALGO_VMP;
}

/* A model's sweeps when its infer block does not say: Infer.NET's 50,
 * and for gibbs more (a sampler's error shrinks as one over the root of
 * its sweeps: 50 would leave it near 0.1). */
#define FGM_DEFAULT_ITERATIONS 50
#define FGM_GIBBS_ITERATIONS 1000

/* A sum factor's parameters: the range lo, hi, then the coefficients
 * from FGM_IR_SUM_COEF on, one a variable of its scope (whole numbers
 * as doubles).  A coefficient is at most FGM_IR_SUM_MAXCOEF in size,
 * so that the kernels' sums stay far inside a long. */
#define FGM_IR_SUM_COEF 2
#define FGM_IR_SUM_MAXCOEF 1000000

/* Term J of sum factor PARAMS at value index Y: a_J Y. */
static inline long
fgm_ir_sum_term(const double *params, int j, int y)
{
    return (long)params[FGM_IR_SUM_COEF + j] * y;
}

/* Whether TOTAL, a sum of the terms, lies in the range of a sum factor
 * of parameters PARAMS. */
static inline int
fgm_ir_sum_meets(const double *params, long total)
{
    return total >= (long)params[0] && total <= (long)params[1];
}

/* ALGO's sweeps when the model does not set them. */
static inline int
fgm_algo_default_iterations(fgm_algo algo)
{
    return algo == FGM_ALGO_GIBBS ? FGM_GIBBS_ITERATIONS
                                  : FGM_DEFAULT_ITERATIONS;
}

typedef enum fgm_schedule_order {
    FGM_SCHEDULE_SEQUENTIAL,    /* factor by factor, new messages used at once */
    FGM_SCHEDULE_PARALLEL       /* every message from the previous sweep */
} fgm_schedule_order;

typedef enum fgm_alldiff_lowering {
    FGM_ALLDIFF_PAIRWISE,       /* n(n-1)/2 neq factors (Infer.NET's model) */
    FGM_ALLDIFF_NATIVE          /* one arity-n factor */
} fgm_alldiff_lowering;

typedef enum fgm_projection {
    FGM_PROJECTION_MEAN,        /* match the mean, as Infer.NET's default */
    FGM_PROJECTION_MEAN_SQUARE  /* match mean and mean square (Minka 2002) */
} fgm_projection;

/* The inference block: how messages are computed and scheduled. */
typedef struct fgm_ir_infer {
    fgm_algo algo;
    int iterations;             /* sweeps at most (default 50) */
    double damping;             /* new = (1 - d) new + d old; 0: none */
    double tolerance;           /* stop when no message moves more; 0: never
                                 * (Infer.NET always runs every iteration) */
    fgm_schedule_order schedule;
    fgm_alldiff_lowering alldiff;
    fgm_projection projection;
    int damp_both;              /* parallel BP: the seed's Python BP
                                 * (notebook 001), which damps the
                                 * variable-to-factor messages too and
                                 * keeps BP_EPS = 1e-12 in its messages
                                 * (fgm_k_neq_seed) */
    int burn_in;                /* gibbs: sweeps not kept, at most all but
                                 * the last of a run; -1: a tenth of a
                                 * run's sweeps */
    int iterations_given;       /* the model set ITERATIONS (else it is
                                 * its algorithm's default, and changes
                                 * with it: fgm_ir_switch_algo); not in
                                 * the dump, which has ITERATIONS */
} fgm_ir_infer;

struct fgm_ir {
    char name[FGM_IR_MAXNAME];
    fgm_ir_array *arrays;
    int narrays, arrays_cap;
    int nvars;
    int *var_array;     /* nvars entries: owning array */
    int ndirichlet;
    int *dir_array;     /* ndirichlet entries: owning array */
    fgm_ir_infer infer;
    char source[4096];  /* the .fgm file it came from ("" when built in C;
                         * a path as long as PATH_MAX, which 256 bytes cut
                         * in the messages that name it); not part of the
                         * hash: it only names the origin */
    int source_is_file; /* SOURCE is the file read whole and compiled
                         * (fgm_compile_file), not a name given with the
                         * text (fgm_compile_string): messages may quote
                         * its lines */
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

/* Adds an array of Dirichlet nodes, each a probability vector of size K
 * with default pseudo-counts ALPHA[0..K-1] (all > 0), or with
 * FGM_ARRAY_ALPHA_EACH in FLAGS each node its own K, ALPHA holding them
 * node by node (row-major).  Returns the index of its first node, or -1
 * with *STATUS set. */
FGM_INTERNAL int fgm_ir_add_dirichlet_array(fgm_ir *ir, const char *name,
                                            int ndims, const int *dims, int k,
                                            const double *alpha,
                                            unsigned flags,
                                            fgm_status *status);

/* Adds "VAR ~ Discrete(p)" where p is Dirichlet node NODE; the variable's
 * domain size must equal the node's K.  Returns the factor index or -1. */
FGM_INTERNAL int fgm_ir_add_dirichlet_discrete(fgm_ir *ir, int var, int node,
                                               fgm_status *status);

/* Most nodes one gated draw may pick (its gates' values jointly). */
#define FGM_IR_MAXGATED 4096

/* Adds "x ~ Discrete(p[g1]...[gm])", SCOPE = (x, g1, ..., gm), ARITY =
 * m + 1: the gates' value indices (j1, ..., jm), read as one number
 * row-major, J, pick Dirichlet node NODE + J (fgm_ir_gated_nodes of
 * them, at most FGM_IR_MAXGATED).  Those nodes lie in one array, each of
 * x's domain size: the gates index its last m dimensions, every gate but
 * the first all of its own.  No variable twice.  Returns the factor
 * index or -1. */
FGM_INTERNAL int fgm_ir_add_dirichlet_gated(fgm_ir *ir, const int *scope,
                                            int arity, int node,
                                            fgm_status *status);

/* The K default pseudo-counts of Dirichlet node D. */
static inline const double *
fgm_ir_node_alpha(const fgm_ir *ir, int d)
{
    const fgm_ir_array *a = &ir->arrays[ir->dir_array[d]];

    return ir->param_pool + a->alpha
           + (a->flags & FGM_ARRAY_ALPHA_EACH ? (long)(d - a->first) * a->card
                                              : 0);
}

/* How many nodes gated draw F may pick: its gates' domain sizes
 * multiplied. */
static inline int
fgm_ir_gated_nodes(const fgm_ir *ir, const fgm_ir_factor *f)
{
    const int *s = ir->scope_pool + f->scope;
    int i, n = 1;

    for (i = 1; i < f->arity; i++)
        n *= ir->arrays[ir->var_array[s[i]]].card;
    return n;
}

/* A new array of ndirichlet + 1 flags (caller frees): 1 for each node a
 * gated draw may pick, whose number of draws varies with the gates.
 * NULL when out of memory. */
FGM_INTERNAL unsigned char *fgm_ir_gated_picks(const fgm_ir *ir);

/* Whether factor F draws from a Dirichlet node (fixed or gated). */
static inline int
fgm_ir_is_draw(const fgm_ir_factor *f)
{
    return f->kind == FGM_FACTOR_DIRICHLET_DISCRETE
           || f->kind == FGM_FACTOR_DIRICHLET_GATED;
}

/* Returns the array called NAME, or NULL. */
FGM_INTERNAL const fgm_ir_array *fgm_ir_find_array(const fgm_ir *ir,
                                                   const char *name);

/* Sets IR's algorithm to ALGO, and its sweeps to ALGO's default
 * (FGM_GIBBS_ITERATIONS or 50) unless the model set them. */
FGM_INTERNAL void fgm_ir_switch_algo(fgm_ir *ir, fgm_algo algo);

/* Name of an algorithm ("bp-sum"), and the algorithm called NAME (-1 when
 * there is none). */
FGM_INTERNAL const char *fgm_ir_algo_name(fgm_algo algo);
FGM_INTERNAL int fgm_ir_algo_find(const char *name);

/* Adds a factor over SCOPE[0..ARITY-1] (copied); PARAMS (NPARAMS values,
 * copied, may be NULL when NPARAMS is 0).  Validates indices, that no
 * variable repeats in SCOPE, and the parameter count for the kind.
 * Returns the factor index or -1. */
FGM_INTERNAL int fgm_ir_add_factor(fgm_ir *ir, fgm_factor_kind kind,
                                   int arity, const int *scope,
                                   int nparams, const double *params,
                                   fgm_status *status);

/* Name of a factor kind ("alldiff"). */
FGM_INTERNAL const char *fgm_ir_kind_name(fgm_factor_kind kind);

/* How many "x ~ Discrete(p)" factors draw from each Dirichlet node (a
 * gated draw counts on every node its gate may pick): a new
 * array of ndirichlet + 1 counts (caller frees), or NULL when out of
 * memory. */
FGM_INTERNAL int *fgm_ir_draws(const fgm_ir *ir);

/* Whether CH may appear in a name of the model language: an ASCII
 * letter, digit or '_' (a digit not first: fgm_ir_is_ident). */
static inline int
fgm_ir_ident_char(int ch)
{
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
           || (ch >= '0' && ch <= '9');
}

/* Whether the LEN bytes at S are a name of the model language (an
 * identifier: model, const and array names). */
static inline int
fgm_ir_is_ident(const char *s, size_t len)
{
    size_t i;

    if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (i = 0; i < len; i++)
        if (!fgm_ir_ident_char((unsigned char)s[i]))
            return 0;
    return 1;
}

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
