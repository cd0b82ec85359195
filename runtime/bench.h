/* runtime/bench.h: the benchmark protocol, its statistics and its reports.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Protocol (DESIGN "Benchmark protocol", seed notebook 002 RunBenchmark):
 * every solver runs on every puzzle of every corpus with seed = puzzle index
 * (0-based) plus opts->seed, and a cooperative timeout.  A run that
 * completes in under fast_ms is repeated, repeat runs in all, and the
 * puzzle's time is the median of its runs.  A timeout is a censored
 * observation: it counts in the denominator n and is left out of every
 * time and node statistic.  Solved and unsolved puzzles (verified answer
 * or not) both have a measured time, so both enter the statistics; solve
 * counts are always shown with n.
 *
 * Stages, in order: fgm_bench_opts_init, fgm_bench_run (the only stage that
 * solves), then any of the writers, then fgm_bench_free.  Nothing here
 * prints: the writers take the FILE * to write to, errors go to the sink.
 * Those stages and fgm_bench_opts are public (fgm.h); the results below
 * are opaque to users and read by the writers.
 */
#ifndef FGM_BENCH_H
#define FGM_BENCH_H

#include "internal.h"
#include "solve/solver.h"

/* The outcome of one puzzle, from its first run. */
typedef struct fgm_bench_sample {
    int solved;          /* verified solution */
    int timed_out;       /* censored: no time, no nodes */
    double ms;           /* median of the runs (the first run on timeout) */
    int runs;            /* runs timed (repeats that timed out are dropped) */
    long nodes;          /* search nodes of the first run */
    long order;          /* when it ran: 0 for the bench's first puzzle */
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
struct fgm_bench {
    int ncorpora, nsolvers;
    char **corpora;              /* labels: file names (paths when two
                                  * corpora share a file name) */
    const char **solvers;        /* registry names (static strings) */
    fgm_bench_row *rows;
    double timeout_ms;           /* the protocol, for the report titles */
    int repeat;
    double fast_ms;
    unsigned long seed;          /* added to each puzzle's index */
};

/* bench.c (fgm_bench_run: a solver that refuses a corpus's model gets a
 * row with unsupported set and n = 0) */

/* Fills the counts and statistics of ROW from row->samples[0..row->n-1].
 * Pure: SCRATCH holds row->n doubles and is the only memory written
 * besides ROW.  Quantiles interpolate linearly between order statistics
 * (GSL, and the seed's PercentileSorted). */
FGM_INTERNAL void fgm_bench_row_stats(fgm_bench_row *row, double *scratch);

/* Formats MS with three significant digits (at most six decimals, so
 * microsecond-level values stay readable in ms) into BUF. */
FGM_INTERNAL void fgm_bench_fmt_ms(double ms, char *buf, size_t size);

/* WRITE(B, F) with numbers written with a decimal point whatever the
 * caller's locale (fgm_c_locale_begin): the public writers. */
FGM_INTERNAL fgm_status fgm_bench_in_c_locale(fgm_bench_writer write,
                                              const fgm_bench *b, FILE *f);

/* The protocol as both reports state it, into BUF (SIZE bytes, at most
 * FGM_BENCH_PROTOCOL_MAX needed: under 160): the timeout, the repeats and
 * the seed as given, e.g. "timeout 10000 ms per run; runs under 250 ms
 * repeated 3 times". */
#define FGM_BENCH_PROTOCOL_MAX 256
FGM_INTERNAL void fgm_bench_protocol(const fgm_bench *b, char *buf,
                                     size_t size);

/* bench_report.c: the writers of fgm.h.  fgm_bench_write_csv writes one
 * line per row after the header FGM_BENCH_CSV_HEADER: status is ok,
 * unsupported (note: the solver's reason) or timeout (every puzzle timed
 * out), and time fields are empty when no puzzle has a time.
 * fgm_bench_write_detail writes one line per (corpus, puzzle, solver)
 * after FGM_BENCH_DETAIL_HEADER, ms empty for a timeout, seed the one the
 * puzzle's runs had (its index plus --seed), so that a seeded run's file
 * says what reruns it.  fgm_bench_save
 * writes into PATH.tmp.XXXXXX, then renames. */
#define FGM_BENCH_CSV_HEADER \
    "corpus,solver,status,n,solved,unsolved,timeouts,median_ms,p25_ms," \
    "p75_ms,mean_ms,min_ms,max_ms,total_ms,median_nodes,timed,runs,note"
#define FGM_BENCH_DETAIL_HEADER \
    "corpus,index,solver,solved,timeout,ms,runs,nodes,seed"

/* bench_svg.c: fgm_bench_write_svg draws grouped bars (one group per
 * corpus, one colour per solver), log-scale median ms with IQR whiskers,
 * solved/n on each bar, unsupported or fully censored rows as labelled
 * gaps. */

#endif /* FGM_BENCH_H */
