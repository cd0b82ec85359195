/* runtime/bench.h: the benchmark protocol, its statistics and its reports.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Protocol (DESIGN "Benchmark protocol", seed notebook 002 RunBenchmark):
 * every solver runs on every puzzle of every corpus with seed = puzzle index
 * (0-based) and a cooperative timeout.  A run that completes in under
 * fast_ms is repeated, repeat runs in all, and the puzzle's time is the
 * median of its runs.  A timeout is a censored observation: it counts in the
 * denominator n and is left out of every time and node statistic.  Solved
 * and unsolved puzzles (verified answer or not) both have a measured time,
 * so both enter the statistics; solve counts are always shown with n.
 *
 * Stages, in order: fgm_bench_opts_init, fgm_bench_run (the only stage that
 * solves), then any of the writers, then fgm_bench_free.  Nothing here
 * prints: the writers take the FILE * to write to, errors go to the sink.
 */
#ifndef FGM_BENCH_H
#define FGM_BENCH_H

#include "internal.h"
#include "solve/solver.h"

/* Receives a one-line progress report such as "bench: hardest.txt dlx 7/11"
 * at most ten times a second, then LINE = NULL once at the end (only if a
 * line was sent) so that the caller can erase it. */
typedef void (*fgm_bench_progress_fn)(void *ctx, const char *line);

typedef struct fgm_bench_opts {
    const char *const *solvers;  /* registry names */
    int nsolvers;
    const char *const *corpora;  /* puzzle files, one corpus each */
    int ncorpora;
    double timeout_ms;           /* per run; <= 0: none (default 10000) */
    int repeat;                  /* runs of a fast puzzle (default 3) */
    double fast_ms;              /* "fast" threshold (default 250) */
    const fgm_solve_opts *solve_opts;  /* may be NULL */
    fgm_bench_progress_fn progress;    /* may be NULL */
    void *progress_ctx;
    fgm_diag_fn diag;            /* may be NULL */
    void *diag_ctx;
} fgm_bench_opts;

/* The outcome of one puzzle, from its first run. */
typedef struct fgm_bench_sample {
    int solved;          /* verified solution */
    int timed_out;       /* censored: no time, no nodes */
    double ms;           /* median of the runs (the first run on timeout) */
    int runs;            /* runs timed (repeats that timed out are dropped) */
    long nodes;          /* search nodes of the first run */
} fgm_bench_sample;

/* One (corpus, solver) row.  The counts always satisfy
 * n == solved + unsolved + timeouts.  The time fields hold the statistics
 * of the per-puzzle times over the ntimed = n - timeouts uncensored
 * puzzles and are 0 when ntimed is 0 (print them as absent). */
typedef struct fgm_bench_row {
    const char *corpus;          /* borrowed from the fgm_bench */
    const char *solver;
    const char *unsupported;     /* the solver's reason, or NULL */
    fgm_bench_sample *samples;   /* n, owned by the fgm_bench */
    int n;
    int solved, unsolved, timeouts;
    int ntimed;                  /* puzzles with a time */
    int nruns;                   /* timed runs, repeats included */
    double median_ms, p25_ms, p75_ms, mean_ms, min_ms, max_ms, total_ms;
    double median_nodes;
} fgm_bench_row;

/* The results: rows[c * nsolvers + s] for corpus c and solver s. */
typedef struct fgm_bench {
    int ncorpora, nsolvers;
    char **corpora;              /* labels: base names of the files */
    const char **solvers;        /* registry names (static strings) */
    fgm_bench_row *rows;
    double timeout_ms;           /* the protocol, for the report titles */
    int repeat;
    double fast_ms;
} fgm_bench;

/* Writes one report of B to F; returns FGM_OK or FGM_EIO. */
typedef fgm_status (*fgm_bench_writer)(const fgm_bench *b, FILE *f);

/* bench.c */

/* Sets the defaults above; the lists are left empty. */
FGM_INTERNAL void fgm_bench_opts_init(fgm_bench_opts *o);

/* The backend a solver label's "@NAME" names (auto, compiled,
 * interpreted), as an fgm_backend; -1 when NAME is none of them. */
FGM_INTERNAL int fgm_bench_backend_find(const char *name);

/* Runs the protocol.  On FGM_OK, *OUT is a new fgm_bench owned by the
 * caller (free with fgm_bench_free).  Otherwise *OUT is NULL and the error
 * was reported through o->diag: FGM_EINVAL (unknown solver, empty corpus,
 * a corpus mixing grid sizes), FGM_EPARSE or FGM_EIO (corpus unreadable),
 * FGM_ENOMEM, or the status of a solver that failed other than by timeout
 * or giving up.  A solver that refuses a corpus's model is not an error:
 * its row has unsupported set and n = 0. */
FGM_INTERNAL fgm_status fgm_bench_run(const fgm_bench_opts *o,
                                      fgm_bench **out);

/* Frees B and everything it owns; NULL is a no-op. */
FGM_INTERNAL void fgm_bench_free(fgm_bench *b);

/* Fills the counts and statistics of ROW from row->samples[0..row->n-1].
 * Pure: SCRATCH holds row->n doubles and is the only memory written
 * besides ROW.  Quantiles interpolate linearly between order statistics
 * (GSL, and the seed's PercentileSorted). */
FGM_INTERNAL void fgm_bench_row_stats(fgm_bench_row *row, double *scratch);

/* Formats MS with three significant digits (at most six decimals, so
 * microsecond-level values stay readable in ms) into BUF. */
FGM_INTERNAL void fgm_bench_fmt_ms(double ms, char *buf, size_t size);

/* bench_report.c */

/* The aligned text table: corpus, solver, solved/n, timeouts, median ms,
 * IQR (p25-p75) ms, mean ms, timed runs. */
FGM_INTERNAL fgm_status fgm_bench_write_table(const fgm_bench *b, FILE *f);

/* One CSV line per row, after the header FGM_BENCH_CSV_HEADER.  status is
 * ok, unsupported (note: the solver's reason) or timeout (every puzzle
 * timed out); time fields are empty when no puzzle has a time. */
#define FGM_BENCH_CSV_HEADER \
    "corpus,solver,status,n,solved,unsolved,timeouts,median_ms,p25_ms," \
    "p75_ms,mean_ms,min_ms,max_ms,total_ms,median_nodes,timed,runs,note"
FGM_INTERNAL fgm_status fgm_bench_write_csv(const fgm_bench *b, FILE *f);

/* One CSV line per (corpus, puzzle, solver), after FGM_BENCH_DETAIL_HEADER;
 * ms is empty for a timeout. */
#define FGM_BENCH_DETAIL_HEADER \
    "corpus,index,solver,solved,timeout,ms,runs,nodes"
FGM_INTERNAL fgm_status fgm_bench_write_detail(const fgm_bench *b, FILE *f);

/* Writes B with WRITE to PATH atomically: into PATH.tmp.XXXXXX, then
 * rename.  On failure PATH is untouched, the temporary file is removed and
 * FGM_EIO (or the writer's status) is returned after a report to DIAG. */
FGM_INTERNAL fgm_status fgm_bench_save(const fgm_bench *b, const char *path,
                                       fgm_bench_writer write,
                                       fgm_diag_fn diag, void *ctx);

/* bench_svg.c */

/* The SVG chart: grouped bars (one group per corpus, one colour per
 * solver), log-scale median ms with IQR whiskers, solved/n on each bar,
 * unsupported or fully censored rows as labelled gaps. */
FGM_INTERNAL fgm_status fgm_bench_write_svg(const fgm_bench *b, FILE *f);

#endif /* FGM_BENCH_H */
