/* runtime/model.h: the fgm_model object, shared by model.c and its backends.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_MODEL_H
#define FGM_MODEL_H

#include <gsl/gsl_rng.h>
#include "interp.h"
#include "plugin_abi.h"

struct fgm_model {
    fgm_ir *ir;                 /* owned */
    fgm_sched *sched;           /* owned */
    struct fgm_plugin *plugin;  /* owned; NULL when interpreted */
    const fgm_plugin_desc *desc;/* the plugin's descriptor, or NULL */
    fgm_state st;
    double *mem;                /* every array of st */
    double *adcache;            /* st.adcache, when the model has alldiff
                                 * factors */
    unsigned char *dir_point;   /* ndirichlet */
    int *clamp;                 /* nvars: observed value index or -1 */
    double *soft;               /* nvars x stride, NULL until the first
                                 * fgm_model_observe_weights: each
                                 * variable's observed weights, largest 1 */
    unsigned char *has_soft;    /* nvars, with SOFT: the row is in force */
    double *soft_log;           /* nvars, with SOFT: the log of the largest
                                 * weight observed, divided out of the row */
    double *unary_log;          /* nvars: the log of what each unary
                                 * vector's normalizing divided out, as
                                 * its run weighs it (runtime/evidence.c) */
    unsigned char *pinned;      /* nvars: st.pinned, set by each run
                                 * that may skip, else by
                                 * fgm_model_v2f_start and the
                                 * observations after it */
    int *live;                  /* nfactors: st.live, set by each run */
    int *prior_of;              /* nvars: the observed Dirichlet node the
                                 * variable is drawn from, or -1 */
    int *sample;                /* nvars: st.sample (gibbs) */
    double *chain_se;           /* nvars x stride: the standard errors of
                                 * the last gibbs run of several chains,
                                 * or NULL (fgm_model_marginal_stderr) */
    int chains_run;             /* chains of the last run (gibbs) */
    gsl_rng *rng;               /* st.rng (gibbs), seeded by each cold
                                 * run */
    double clamp_eps;           /* weight of the other values of a clamp */
    int v2f_pins;               /* since fgm_model_v2f_start: clamps pin */
    int ran;                    /* messages hold a run's state */
    int observed_since_run;     /* an observation changed the unary
                                 * vectors or priors since: the run's
                                 * log evidence is gone */
    int rebuilt;                /* the plugin was (re)built on open */
    double open_ms;             /* time to get the plugin (build + load) */
};

/* Runs the plugin cascade for OPTS->backend and, on success, sets
 * m->plugin and m->desc (or leaves them NULL: interpreted).  Returns an
 * error only when the backend is COMPILED and no plugin could be had. */
FGM_INTERNAL fgm_status fgm_model_attach_plugin(fgm_model *m,
                                                const fgm_model_opts *opts,
                                                fgm_diag_fn diag, void *ctx);

FGM_INTERNAL void fgm_model_detach_plugin(fgm_model *m);

/* fgm_model_contradiction into *FOUND (-1: none, or no run yet), with
 * FGM_ENOMEM when it could not look (*FOUND then -1 too). */
FGM_INTERNAL fgm_status fgm_model_find_contradiction(const fgm_model *m,
                                                     int *found);

/* fgm_model_observe_clue with EPS on every other value of a clue (0: an
 * exact clue, which pins the variable). */
FGM_INTERNAL fgm_status fgm_model_observe_clue_eps(fgm_model *m, int v,
                                                   int value, double eps);

/* The seed's v4 (notebook 001 section 7) on a model whose sweeps are
 * the seed's flooding BP (fgm_ir_infer.damp_both), which reads the
 * stored variable-to-factor messages (fgm_state.prev).
 *
 * fgm_model_v2f_start: a cold start.  The messages are reset as a cold
 * run resets them, then every stored variable-to-factor message becomes
 * the normalized evidence row of its variable (the seed's m_c2f =
 * evidence[UNIT_CELLS]), with NOISE > 0 each entry times
 * exp(U(-NOISE, NOISE)) (a GSL MT19937 seeded with SEED) and
 * renormalized with the seed's floor; the variables clamped now are
 * pinned, their messages frozen (the seed's upd_mask), which the
 * kernels' refresh and alldiff updates honour (fgm_k_refresh,
 * fgm_k_alldiff_seed).  The next run continues from here
 * (fgm_run_opts.warm).  From then on, each fgm_model_observe_var of a
 * value pins its variable too, its stored messages its new normalized
 * evidence row (the seed's decision: m_c2f[UNIT_CELLS == i] =
 * evidence[i], then upd_mask off; the C# port, notebook 000, keeps
 * updating a decision's messages, as the Python original does not),
 * until fgm_model_clear or a cold run, which unpin everything.
 * Returns FGM_EINVAL on another model (FGM_ENOMEM: no RNG). */
FGM_INTERNAL fgm_status fgm_model_v2f_start(fgm_model *m, double noise,
                                            unsigned long seed);

/* log B(FROM + STEP) - log B(FROM), B the multivariate Beta function,
 * over K entries (FROM > 0, FROM + STEP > 0), keeping its digits where
 * the pseudo-counts are large (runtime/evidence.c). */
FGM_INTERNAL double fgm_evidence_log_beta_ratio(const double *from,
                                                const double *step, int k);

/* A vmp run's evidence lower bound (runtime/evidence_vmp.c) into *OUT,
 * its nodes at their best for its q(x) (as every run leaves them):
 * FGM_OK, or FGM_EINTERNAL for a NaN. */
FGM_INTERNAL fgm_status fgm_evidence_vmp(const fgm_model *m, double *out);

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
/* MXCSR flush-to-zero (FTZ, 0x8000) and denormals-are-zero (DAZ, 0x40):
 * a run's sweeps, and what reads their numbers as they did (the vmp
 * bound), run under them. */
#define FGM_MXCSR_FTZ_DAZ 0x8040u
#endif

#endif /* FGM_MODEL_H */
