/* runtime/cli/run.h: `fgm run`'s pieces (cmd_run.c, run_exact.c, run_jobs.c,
 * run_print.c, run_show.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_CLI_RUN_H
#define FGM_CLI_RUN_H

#include <pthread.h>
#include <stdio.h>
#include "cli.h"

typedef enum { FMT_TEXT, FMT_CSV, FMT_JSON } out_format;

/* --exact-method: how --backend exact computes its marginals. */
typedef enum {
    EXACT_AUTO,             /* Dancing Links, elimination, enumeration */
    EXACT_ELIMINATION,      /* variable elimination only */
    EXACT_ENUMERATION       /* enumeration only */
} exact_method;

typedef struct run_cfg {
    out_format fmt;
    int exact;              /* --backend exact */
    exact_method method;    /* --exact-method */
    int map;                /* --map: the most probable assignment */
    long cap;               /* exact: stop counting here */
    double timeout;         /* ms per observation; 0: none */
    fgm_run_opts ro;        /* engine: iterations, damping, tolerance */
    const char *model;      /* the model as given, for messages */
    unsigned char *show;    /* --show: 1 for each variable, then each
                             * Dirichlet node, printed; NULL: all */
} run_cfg;

/* What the observation sets of one run came to. */
typedef struct run_tally {
    FILE *out, *err;        /* where the set's output and messages go */
    int refused;            /* a set had no marginals: the exit is 1 */
    const char *file;       /* where the set being run was read */
    long line;              /* its first line in FILE; 0: FILE is the
                             * model, run with no observation file */
    const int *given;       /* the set's clues (nvars: a value index, -1
                             * where none), or NULL */
} run_tally;

/* Runs the engine on the current observations of MODEL and prints
 * observation K (cmd_run.c); STRIDE is at least every domain and every
 * Dirichlet vector.  Returns CLI_OK or the exit code that ends the run. */
int run_engine(fgm_model *model, int stride, const run_cfg *cfg, long k,
               run_tally *t);

/* Exact marginals (or --map) of the set in SINK on IR and CSP (DLX:
 * Dancing Links, or NULL), printed as observation K (run_exact.c). */
int run_exact_set(const fgm_ir *ir, const fgm_csp *csp, fgm_dlx *dlx,
                  const obs_sink *sink, const run_cfg *cfg, long k,
                  run_tally *t);

/* Prints the marginals M (nvars x stride) and, when POST is not NULL, the
 * Dirichlet posteriors (ndirichlet x stride) of observation K; when MEAN
 * is not NULL (the exact backend), the Dirichlet nodes' exact posterior
 * means (ndirichlet x MEAN_STRIDE: text and CSV kind "mean", JSON
 * "mean").  INFO goes on its header (text, JSON); an INCOMPLETE result
 * also says INFO on stderr, in every format, so that one read without
 * its header (CSV has none; a script that takes the marginals' lines)
 * does not pass for a complete one; JSON marks it "incomplete": true for
 * scripts, and gives an engine run's RI (NULL: exact) as "sweeps",
 * "change" and "ms", and LOG_Z (NAN: none; variable elimination's, or
 * the engine's estimate, fgm_model_log_evidence) as "log_z" (vmp's bound
 * as "log_z_bound").  CLASH names the variable the run left no value, or
 * is NULL; JSON records it too.  SE (nvars x stride, or NULL): the
 * marginals' standard errors over a gibbs run's chains, kind "stderr"
 * (JSON: the object "stderr" after "marginals").  (run_print.c) */
void run_print_result(const fgm_ir *ir, const run_cfg *cfg, long k,
                      const double *m, const double *se, const double *post,
                      int stride, const double *mean, int mean_stride,
                      const char *info, const fgm_run_info *ri, double log_z,
                      int incomplete, const char *clash, run_tally *t);

/* --show LIST (arrays, or their elements or blocks: "x,h[0],y[1..2]",
 * comma-separated, blanks around the names allowed) added to CFG's mask
 * of the variables and Dirichlet nodes of IR to print (several --show add
 * up).  Returns CLI_OK, or the exit code after naming a name the model
 * does not have (and the arrays it has), a subscript it cannot take, or a
 * prior with --backend exact.  (run_show.c) */
int run_parse_show(const fgm_ir *ir, const char *list, run_cfg *cfg);

/* One observation set's output and messages, kept until the sets before
 * it are printed: with -j N they are run N at a time, in any order, and
 * printed in theirs. */
typedef struct set_out {
    char *out, *err;
    size_t outlen, errlen;
    int code;               /* CLI_OK, or the exit code that ends the run */
    int refused;            /* it had no marginals (the exit is then 1) */
    int done;
} set_out;

/* What the workers of one run share. */
typedef struct run_shared {
    const fgm_ir *ir;
    const fgm_csp *csp;
    const run_cfg *cfg;
    const obs_file *of;     /* the observation file; NULL: one set, the
                             * model alone */
    int stride, nworkers;
    long nsets;
    set_out *sets;          /* nsets */
    pthread_mutex_t mu;     /* guards the sets' done, stop_at, next,
                             * code (run_jobs.c's wait_turn reads it) */
    pthread_cond_t cv;      /* a set is done, or printed */
    long stop_at;           /* the first set that ended the run (LONG_MAX:
                             * none yet): the sets after it are not run,
                             * those before it are, and printed */
    long next;              /* the first set not printed */
    int printed;            /* a set printed output (JSON's commas) */
    int refused, code;
    int failed;             /* a walk's exit code: it could not read a set */
    int go;                 /* the workers are all started: nworkers is
                             * how many (run_jobs.c's run_all) */
} run_shared;

/* One worker: its own walk over the sets, model state and clue arrays. */
typedef struct run_worker {
    run_shared *sh;
    int id;
    obs_file walk;
    obs_sink sink;
    fgm_model *fm;          /* engine backends */
    fgm_dlx *dlx;           /* exact backend, on exact-cover models */
    int *given;             /* nvars */
    double *vec;            /* stride: one node's pseudo-counts */
    pthread_t tid;
} run_worker;

/* Runs SH's sets on NJOBS workers (run_jobs.c), worker 0 on W0's
 * model and arrays (the caller's: it frees them), the others on their
 * own, opened with MO; prints them in order.  Returns the exit code. */
int run_all(run_shared *sh, run_worker *w0, const fgm_model_opts *mo,
            int njobs);

#endif /* FGM_CLI_RUN_H */
