/* runtime/schedule.h: the message schedule of a model, computed once from
 * its IR.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The schedule is the IR lowered for message passing: alldiff factors are
 * lowered to pairwise neq (deduplicated: a pair of cells sharing a row and
 * a box is one constraint, as in the seed's model) or kept native; unary
 * evidence is folded into a static unary vector; each remaining factor owns
 * a contiguous run of edges (one per scope position).  A sweep updates the
 * factors in this order.  The interpreter walks these tables; the code
 * generator bakes the same tables into C.  Both call runtime/kernels.h.
 */
#ifndef FGM_SCHEDULE_H
#define FGM_SCHEDULE_H

#include "ir.h"
#include "kernels.h"

/* Message operators.  ORDER FACTOR: grep before reordering (op_names in
 * schedule.c, whose names the code generator prints, is indexed by it). */
typedef enum fgm_op {
    FGM_OP_NEQ,         /* x != y */
    FGM_OP_TABLE,       /* explicit potential */
    FGM_OP_DIRICHLET,   /* x ~ Discrete(p), p ~ Dirichlet */
    FGM_OP_ALLDIFF,     /* native arity-n alldiff */
    FGM_OP_DIRICHLET_GATED, /* x ~ Discrete(p[g]): edges to x, then g */
    FGM_OP_SUM          /* sum of value indices in a range */
} fgm_op;

typedef struct fgm_sched_factor {
    fgm_op op;
    int arity;
    int edge;           /* first of its ARITY edges */
    int aux;            /* TABLE, SUM: offset in ir->param_pool (a
                         * table's potentials, a sum's range);
                         * DIRICHLET: node;
                         * DIRICHLET_GATED: the gate's first value's node */
    int dfac;           /* DIRICHLET: its row of Dirichlet messages
                         * (st->dir_msg); DIRICHLET_GATED: the first of
                         * its gate's card rows, one a node */
    int ir_factor;      /* the IR factor it comes from (source position) */
} fgm_sched_factor;

typedef struct fgm_sched {
    const fgm_ir *ir;           /* borrowed: must outlive the schedule */
    fgm_ir_infer infer;         /* copied from the IR */
    int nvars, stride;
    int *card;                  /* nvars */
    int uniform_card;           /* every domain has this size, or 0 */
    double *evidence;           /* nvars * stride: product of EVIDENCE
                                 * factors, normalized (1 where none) */
    double *evidence_log;       /* nvars: log of what normalizing divided
                                 * out (-inf where the product is 0), for
                                 * the log evidence (runtime/evidence.c) */
    int nfactors;               /* updates per sweep: on a forest each
                                 * factor twice (but one alone in its
                                 * tree), sharing its edges
                                 * (fgm_sched_tree_order) */
    fgm_sched_factor *factors;
    int nedges;
    int *edge_var;              /* nedges */
    int *var_edge_off;          /* nvars + 1 */
    int *var_edges;             /* edges of each variable, ascending */
    int ndirichlet, ndirfactors;    /* ndirfactors: rows of st->dir_msg */
    int nscratch;               /* doubles of scratch a sweep needs */
    int pin_sweeps;             /* full sweeps before updates around
                                 * pinned variables may be skipped: 1 when
                                 * every Dirichlet factor (whose point mass
                                 * pins a variable) runs before the other
                                 * factors in a sequential schedule, else
                                 * 2 */
    /* gibbs and vmp only (else NULL and zero): */
    int *edge_factor;           /* nedges: the factor of each edge */
    int *gibbs_fac;             /* nfactors x FGM_K_GIBBS_FAC */
    fgm_k_gibbs_graph gibbs;    /* the sampler's and mean field's view of
                                 * these tables */
} fgm_sched;

/* Whether rows of more than one chunk are padded to whole pairs of
 * chunks: where the CPU has AVX-512, whose plugins run the x != y update
 * on 512-bit registers (FGM_K_NEQ8, runtime/ops/neq.h).  Padded, each of
 * their 512-bit accesses stays within a cache line; with 9x9's 12 lanes
 * half of them split two (bench_ep, easy50 x 20, three runs on a Zen 5:
 * compiled 0.625/0.602/0.658 -> 0.506/0.498/0.485 ms).  Not elsewhere:
 * there the 256-bit path gained nothing and lost 7% to the longer rows
 * (the same machine, plugins built -march=x86-64-v3: 0.587-0.602 ->
 * 0.633-0.638 ms).  On a Zen 4, whose 9x9 plugins keep that update on
 * 256-bit vectors (FGM_K_NEQ8), padded rows still gained: 0.698 -> 0.588
 * ms (the same benchmark, 2026-12-06).  The interpreter reads the stride
 * from the schedule and runs as fast either way; plugins bake it in, so
 * the choice is part of their build id (fgm_plugin_build_id). */
FGM_INTERNAL int fgm_sched_pairs(void);

/* Builds the schedule of IR with its inference settings.  Returns NULL
 * with *STATUS set (FGM_ENOMEM, FGM_EUNSUPPORTED for a factor kind the
 * algorithm cannot handle). */
FGM_INTERNAL fgm_sched *fgm_sched_new(const fgm_ir *ir, fgm_status *status);

FGM_INTERNAL void fgm_sched_free(fgm_sched *s);

/* When fgm_sched_new refuses IR (FGM_EUNSUPPORTED): the index of the
 * first IR factor its algorithm has no operator for, with the reason in
 * WHY (SIZE bytes); -1 when every factor has one. */
FGM_INTERNAL int fgm_sched_unsupported(const fgm_ir *ir, char *why,
                                       size_t size);

/* Reports through DIAG which factor of IR its algorithm cannot run and
 * why (fgm_sched_unsupported), at the factor's source position when it
 * has one. */
FGM_INTERNAL void fgm_sched_explain(const fgm_ir *ir, fgm_diag_fn diag,
                                    void *ctx);

/* On a sequential schedule whose factor graph is a forest, orders the
 * updates leaves to roots and then roots to leaves, every factor twice
 * but one alone in its tree, so that one sweep reaches BP's fixed point
 * (runtime/schedule_tree.c); any other schedule stays as it is.  Returns
 * 0 when out of memory. */
FGM_INTERNAL int fgm_sched_tree_order(fgm_sched *s);

/* The coefficients of sum factor F of S, one a variable of its scope
 * (the IR's parameters after the range). */
static inline const double *
fgm_sched_sum_coef(const fgm_sched *s, const fgm_sched_factor *f)
{
    return s->ir->param_pool + f->aux + FGM_IR_SUM_COEF;
}

/* Whether S's sweeps are the seed's flooding BP (notebook 001): parallel,
 * both directions damped (the stored variable-to-factor messages of
 * fgm_state.damp_v2f, which runtime/model.c sets for this schedule only),
 * with its BP_EPS arithmetic (fgm_k_neq_seed).  The code generator emits
 * the batched flooding sweep (fgm_k_neq_seed_rows) for these alone. */
static inline int
fgm_sched_seed_flooding(const fgm_sched *s)
{
    return s->infer.schedule == FGM_SCHEDULE_PARALLEL && s->infer.damp_both;
}

/* Name of an operator ("neq"). */
FGM_INTERNAL const char *fgm_sched_op_name(fgm_op op);

#endif /* FGM_SCHEDULE_H */
