/* runtime/solve/alldiff_decimate.h: what the files of the alldiff decimation solvers share.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * alldiff-max, alldiff-sum (the seed's v4), their tuned variants and
 * bp-decimate3 (runtime/solve/alldiff_decimate.c: the algorithm, its
 * configurations and the measurements behind them) run on one
 * workspace, fgm_ad_ws.  Its other files each do one job for them:
 *   alldiff_belief.c   reading the beliefs: supports, margins, entropy,
 *                      the plateau's candidate cells, draws;
 *   alldiff_local.c    a plateau draw's weights: sum-product sweeps over
 *                      the supports around the drawn cell;
 *   alldiff_cache.c    the exact cache of model states shared between
 *                      attempts (the prefix and the tree).
 */
#ifndef FGM_ALLDIFF_DECIMATE_H
#define FGM_ALLDIFF_DECIMATE_H

#include "solver.h"

/* One configuration of the decimation. */
typedef struct fgm_ad_cfg {
    fgm_algo algo;          /* BP_MAX or BP_SUM */
    int init_sweeps;        /* sweeps of the cold run (at most) */
    int decim_sweeps;       /* sweeps after each round of decisions */
    int max_restarts;       /* attempts after the first */
    double damping;         /* cold run */
    double decim_damping;   /* warm runs */
    double tolerance;       /* stop a run when no message moves more;
                             * 0: run every sweep */
    int seed_eps;           /* the seed's arrays and arithmetic: flooding
                             * with stored, damped variable-to-factor
                             * messages, BP_EPS floors and offsets, clues
                             * and decisions (1e-12, ..., 1) normalized,
                             * their messages frozen, the noise on the
                             * variable-to-factor messages
                             * (fgm_model_v2f_start); not with cache,
                             * whose saved states hold neither the stored
                             * messages nor the pins */
    double noise;           /* log-uniform noise of every restart */
    int noise_decay;        /* restart r's noise is noise / (r + 1) */
    double plateau;         /* margin under which the value is drawn */
    double sure;            /* fix every free cell with this margin in one
                             * round; 0: one cell per round */
    int early_abort;        /* stop a doomed attempt at once */
    int entropy;            /* plateau: the least-entropy cell */
    int cache;              /* noise-free attempts share their prefix */
    int tree;               /* with cache: they share the states after
                             * their first draws too (the tree) */
    int cold;               /* every run after a decision starts from
                             * fresh messages */
    int snap;               /* the runs after a decision start from the
                             * last run's messages snapped to their
                             * supports (snap_messages), as a cold run
                             * would end but for rounding */
    int oneround;           /* draw in the round that fixes the sure
                             * cells, from the same beliefs */
    int empty;              /* a free cell that the messages leave no
                             * value dooms the attempt (fgm_ad_empty_cell) */
    int chunk;              /* with empty: test every this many sweeps */
    int local;              /* plateau: the value drawn from
                             * fgm_ad_local_belief after 1 or 2 sweeps,
                             * not uniformly */
    int bivalue;            /* plateau: among the least-entropy cells,
                             * those of nearly the widest reach
                             * (reach_of) */
    double zero;            /* > 0: a belief is read as its support, the
                             * values over zero times its largest, each
                             * equally likely (fgm_ad_margin_of); 0: as it
                             * is */
    int pairwise;           /* the alldiffs lowered to pairwise != factors
                             * (bp-decimate3), not native */
    int sequential;         /* factor by factor, each update seeing the
                             * last ones, not flooding */
    int sqrt_draw;          /* a plateau draw in proportion to the square
                             * root of the belief over its support, not
                             * uniform (with zero > 0; fgm_ad_sqrt_weights) */
} fgm_ad_cfg;

/* The tree of states after an attempt's first rounds (cfg->tree): the
 * rounds at most FGM_AD_TREE_DEPTH deep, at most FGM_AD_TREE_NODES of them. */
#ifndef FGM_AD_TREE_DEPTH
#define FGM_AD_TREE_DEPTH 2
#endif
#ifndef FGM_AD_TREE_NODES
#define FGM_AD_TREE_NODES 128
#endif

/* A value within this factor of a belief's largest is in its support. */
#define FGM_AD_SUPPORT 1e-3

/* A node of the tree (cfg->tree): the model state after the run that
 * followed a round of decisions, from its parent's state. */
typedef struct fgm_ad_tnode {
    int pick, value;    /* the round's draw; pick -1: sure cells only */
    int child, next;    /* first child, next sibling; -1: none */
    int depth;          /* rounds from the prefix */
    int failed;         /* the run left a free cell no value (no state) */
    double *state;      /* the messages, then the beliefs */
} fgm_ad_tnode;

typedef struct fgm_ad_ws {
    const fgm_csp *csp;
    const fgm_ad_cfg *cfg;
    fgm_model *model;
    int *value;         /* nvars: clue or decision, -1 when free */
    int *best;          /* nvars: most probable value of a free cell */
    int *tied;          /* nvars: candidate cells */
    double *margin;     /* nvars: margin (or entropy) of a free cell;
                         * fgm_ad_least_entropy with cfg->bivalue then
                         * keeps each tied cell's reach there */
    double *bel;        /* maxcard: one belief, normalized */
    double *raw;        /* maxcard: one belief as BP left it
                         * (cfg->sqrt_draw) */
    unsigned long long *supp;   /* nvars: support of a free cell's belief
                                 * (cfg->bivalue) */
    /* Each cell's alldiff factors (cfg->local). */
    int *unit_off, *units;  /* nvars + 1, then the factor indices */
    double *q, *out;        /* a unit's rows, in arrival order, then
                             * sorted for the subset DP */
    double *m1;             /* cfg->local 2: each unit's first-sweep
                             * messages, K K per factor */
    int *m1_at, m1_now;     /* nfactors: the draw they are of */
    int *m1_ver, *m1_row;   /* nfactors, nfactors K: versions */
    unsigned long *masks;   /* 2^K: the sparse subset DP's sets */
    double *fw;             /* 2^K: their weights, zero between calls
                             * (NULL over FGM_K_ALLDIFF_SUM_MAXK values) */
    unsigned long long *m1_key; /* nfactors K: the supports they are of */
    /* The deterministic prefix (cfg->cache). */
    size_t nmsg, nbelief;   /* doubles of messages and of beliefs */
    double *prefix;         /* nmsg + nbelief: its messages, beliefs */
    int *prefix_value;      /* nvars: its clues and decisions */
    int prefix_ok;          /* they hold this puzzle's prefix */
    int drawn;              /* this attempt reached a draw */
    /* The tree (cfg->tree): node 0 the prefix. */
    fgm_ad_tnode *tree;            /* FGM_AD_TREE_NODES */
    int ntree;              /* nodes of this puzzle */
    int at;                 /* the attempt's node; -1: off the tree */
    int dpick, dvalue;      /* the last round's draw (fgm_ad_tnode.pick) */
} fgm_ad_ws;

/* ---- alldiff_cache.c ---------------------------------------------------- */

/* Frees the tree (cfg->tree) and turns it off. */
FGM_INTERNAL void fgm_ad_tree_free(fgm_ad_ws *w);

/* Saves the model state before the attempt's first draw (cfg->cache), as
 * the tree's node 0. */
FGM_INTERNAL void fgm_ad_save_prefix(fgm_ad_ws *w);

/* Puts the model back in the saved state: clamps, messages, beliefs. */
FGM_INTERNAL void fgm_ad_load_prefix(fgm_ad_ws *w);

/* The child of node P for the round (PICK, VALUE), or -1. */
FGM_INTERNAL int fgm_ad_tree_find(const fgm_ad_ws *w, int p, int pick,
                                  int value);

/* Adds the child of w->at for the round just run (w->dpick, w->dvalue):
 * the model's state after it, or FAILED.  Returns the child, or -1 (too
 * deep, full, or out of memory: the attempt goes on off the tree). */
FGM_INTERNAL int fgm_ad_tree_add(fgm_ad_ws *w, int failed);

/* Puts node I's messages and beliefs in the model. */
FGM_INTERNAL void fgm_ad_tree_load(fgm_ad_ws *w, int i);

/* ---- alldiff_belief.c --------------------------------------------------- */

/* The values of the K entries of BEL over ZERO times the largest, as
 * bits. */
FGM_INTERNAL unsigned long long fgm_ad_support_mask(const double *bel, int k,
                                                    double zero);

/* Reads V's belief into w->bel, normalized (with cfg->zero, uniform over
 * its support), and returns its margin top1 - top2; *TOP receives the
 * first most probable value. */
FGM_INTERNAL double fgm_ad_margin_of(fgm_ad_ws *w, int v, int *top);

/* A value of V drawn from w->bel. */
FGM_INTERNAL int fgm_ad_draw(const fgm_ad_ws *w, int v, gsl_rng *rng);

/* w->bel, V's support, weighted by the square roots of V's belief
 * (cfg->sqrt_draw). */
FGM_INTERNAL void fgm_ad_sqrt_weights(fgm_ad_ws *w, int v);

/* Whether the last run's messages leave some free cell no value
 * (cfg->empty). */
FGM_INTERNAL int fgm_ad_empty_cell(const fgm_ad_ws *w);

/* The candidate cells of a plateau decision into w->tied; their count. */
FGM_INTERNAL int fgm_ad_least_entropy(fgm_ad_ws *w);

/* ---- alldiff_local.c ---------------------------------------------------- */

/* V's belief after one or two sum-product sweeps of its units over the
 * supports (cfg->local), into w->bel.  Returns 1, or 0 when w->bel is not
 * a belief (domains too large for the subset DP, or no matching left). */
FGM_INTERNAL int fgm_ad_local_belief(fgm_ad_ws *w, int v);

#endif /* FGM_ALLDIFF_DECIMATE_H */
