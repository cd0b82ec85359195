/* runtime/cli/cmd_solve.c: `fgm solve`: solve a stream of puzzles.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The puzzles of several files are one stream, as if concatenated (one
 * reader, fgm_puzzle_reader_open_list): the first puzzle picks the default
 * model, the index (and with it the default seed and the CSV index) runs
 * on across files.
 *
 * stdout: one line per puzzle (the solved grid, or the input unchanged when
 * unsolved), or CSV with --csv (DESIGN.md's ten columns, then sweeps,
 * contradictions, errors and timeout: 1 when the deadline stopped the
 * puzzle, so that an unsolved row says whether it was given up or cut
 * short).  stderr: one summary line,
 *   fgm: solver=S backend=B solved=K/N median_ms=M mean_ms=A timeouts=T
 * where the times cover every puzzle that did not time out (timeouts are
 * censored, as in the seeds' protocol; nan when every puzzle timed out),
 * followed by wall_s (the whole run,
 * reading and writing included) and max_rss_mib (peak resident memory).
 */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
#include <string.h>
#include "cli.h"

/* Puzzle files one solve reads (open together). */
#define SOLVE_MAXINPUTS 1024

typedef struct solve_out {
    const char *solver;
    const char *backend;
    int csv;
    int exact;              /* an exact solver: backend "exact" */
    const char *const *inputs;      /* the files read, as named */
    long n, solved, timeouts;
    double t0;              /* start of the run, for wall_s */
    double *ms;             /* times of the puzzles that did not time out */
    long nms, capms;
    int oom;
    size_t unflushed;       /* bytes written since stdout's last flush */
    int unsupported;        /* a puzzle's model could not run (ep-naive) */
    fgm_status failed;      /* a solver's own error (out of memory) */
    long failed_at;         /* its puzzle, 0-based */
} solve_out;

/* stdout leaves in whole lines: stdio's buffer (solve_buffer, given by
 * cmd_solve: with a NULL buffer glibc keeps its 4 KiB whatever the size)
 * is flushed here, after a line, once it holds SOLVE_FLUSH bytes, and
 * whenever the batch is about to wait for an answer (solve_idle); stdio
 * alone flushed every 4 KiB, mid-line, and an interrupted run left its
 * last line cut. */
#define SOLVE_BUFFER (1 << 20)
#define SOLVE_FLUSH (64 << 10)
static char solve_buffer[SOLVE_BUFFER];

static void
wrote_line(solve_out *o, size_t bytes)
{
    o->unflushed += bytes;
    if (o->unflushed >= SOLVE_FLUSH) {
        fflush(stdout);
        o->unflushed = 0;
    }
}

/* fgm_batch_opts.idle: what was written goes out before the wait. */
static void
solve_idle(void *ctx)
{
    solve_out *o = ctx;

    if (o->unflushed > 0) {
        fflush(stdout);
        o->unflushed = 0;
    }
}

static int
emit(void *ctx, const fgm_batch_item *it)
{
    solve_out *o = ctx;
    char line[FGM_PUZZLE_MAXCELLS + 1];
    const fgm_solve_stats *s = &it->res.stats;

    if (it->res.status == FGM_EUNSUPPORTED) {
        /* --backend compiled cannot have this puzzle's plugin (ep-naive
         * builds one per puzzle): the run fails, as for any other
         * solver whose model cannot run there, rather than reporting
         * puzzles unsolved. */
        o->unsupported = 1;
        return 1;
    }
    if (it->res.status != FGM_OK && it->res.status != FGM_EUNSOLVED
        && it->res.status != FGM_ETIMEOUT) {
        /* The solver itself failed (out of memory: bp-backtrack's saved
         * levels on a large grid): the run fails with that, as fgm bench
         * does, rather than report the puzzle unsolved. */
        o->failed = it->res.status;
        o->failed_at = it->index;
        return 1;
    }
    o->n++;
    o->solved += it->res.solved;
    if (o->exact && it->res.status == FGM_EUNSOLVED)
        /* An exact solver's search is complete: it proved that there is
         * no solution, which the output alone (the puzzle echoed, solved
         * 0) did not tell from a solver giving up. */
        fprintf(stderr, "fgm: solve: %s:%ld: puzzle %ld has no solution: "
                "%s searched every branch\n",
                fgm_input_name(o->inputs[it->puzzle.file]), it->puzzle.line,
                it->index + 1, o->solver);
    if (it->res.status == FGM_ETIMEOUT) {
        o->timeouts++;
    } else {
        if (o->nms == o->capms) {
            long cap = o->capms ? 2 * o->capms : 1024;
            double *q = realloc(o->ms, (size_t)cap * sizeof *q);

            if (!q) {
                o->oom = 1;
                return 1;
            }
            o->ms = q;
            o->capms = cap;
        }
        o->ms[o->nms++] = it->res.ms;
    }
    if (!o->exact)
        o->backend = s->compiled ? "compiled" : "interpreted";
    if (o->csv) {
        int len = printf("%ld,%s,%s,%d,%d,%.4f,%ld,%ld,%ld,%ld,%ld,%ld,%ld,"
                         "%d\n", it->index, o->solver, o->backend,
                         it->res.solved, it->res.valid, it->res.ms, s->nodes,
                         s->inferences, s->decisions, s->restarts, s->sweeps,
                         s->contradictions, s->errors,
                         it->res.status == FGM_ETIMEOUT);

        wrote_line(o, len > 0 ? (size_t)len : 0);
    } else {
        fgm_puzzle_format_line(it->res.solved ? &it->answer : &it->puzzle,
                               line, sizeof line);
        puts(line);
        wrote_line(o, strlen(line) + 1);
    }
    /* Output that cannot be written (a full disk, a closed pipe) stops
     * the batch: the puzzles left would be solved for nothing.  The
     * caller reports the error. */
    return ferror(stdout) != 0;
}

static void
summary(const solve_out *o)
{
    /* Every puzzle timed out: no time to report, and 0 would read as
     * instant. */
    double median = NAN, mean = NAN;
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    if (o->nms > 0) {
        gsl_sort(o->ms, 1, (size_t)o->nms);
        median = gsl_stats_median_from_sorted_data(o->ms, 1, (size_t)o->nms);
        mean = gsl_stats_mean(o->ms, 1, (size_t)o->nms);
    }
    fprintf(stderr, "fgm: solver=%s backend=%s solved=%ld/%ld median_ms=%.4f "
            "mean_ms=%.4f timeouts=%ld wall_s=%.3f max_rss_mib=%.1f\n",
            o->solver, o->backend, o->solved, o->n, median, mean,
            o->timeouts, fgm_now() - o->t0, (double)ru.ru_maxrss / 1024.0);
}

/* `fgm solve --solver dlx --count`: the number of solutions of each puzzle,
 * counting stopped at CAP.  One line per puzzle: the count, prefixed by
 * ">=" when the cap or the deadline stopped it; CSV: index,solutions,
 * complete,ms,nodes.  Summary: how many puzzles have exactly one. */
static int
count_solutions(fgm_puzzle_reader *rd, const fgm_csp *csp, long cap,
                double timeout, int csv)
{
    fgm_status st;
    fgm_dlx *d = fgm_dlx_new(csp, &st);
    int *given = malloc((size_t)fgm_csp_nvars(csp) * sizeof *given);
    long n = 0, unique = 0;
    int code = CLI_OK;
    fgm_puzzle p;

    if (!d || !given) {
        fgm_dlx_free(d);
        free(given);
        if (st == FGM_EUNSUPPORTED)
            return cli_fail(CLI_EINPUT, "solve: --count counts by Dancing "
                            "Links: %s (`fgm run MODEL --backend exact "
                            "--exact-method enumeration` counts the "
                            "assignments of any model)",
                            fgm_dlx_refuses(csp));
        return cli_fail(cli_exit_code(st), "solve: %s", fgm_strerror(st));
    }
    if (csv)
        printf("index,solutions,complete,ms,nodes\n");
    while ((st = fgm_puzzle_read(rd, &p)) == FGM_OK) {
        /* One solution past the cap tells "exactly CAP" (complete) from
         * "at least CAP": the search stopped at CAP could not. */
        fgm_dlx_limits lim = { cap + 1, 0, 0 };  /* cap <= 1e12 */
        long count = 0, nodes = 0;
        double t0 = fgm_now();
        int complete;

        /* A model's variables past the grid free (fgm_puzzle_to_given
         * alone left them unset, read by dlx: 0 solutions counted). */
        fgm_puzzle_clues(csp, &p, given);
        lim.deadline = timeout > 0 ? t0 + timeout * 1e-3 : 0;
        st = fgm_dlx_run(d, given, &lim, &count, NULL, NULL, &nodes);
        if (st != FGM_OK && st != FGM_ETIMEOUT)
            break;
        complete = st == FGM_OK && count <= cap;
        if (count > cap)
            count = cap;
        if (csv)
            printf("%ld,%ld,%d,%.4f,%ld\n", n, count, complete,
                   (fgm_now() - t0) * 1e3, nodes);
        else
            printf("%s%ld\n", complete ? "" : ">=", count);
        /* Each count as it comes (one may take long): a whole line. */
        fflush(stdout);
        unique += complete && count == 1;
        n++;
    }
    if (st != FGM_EIO || fgm_puzzle_reader_failed(rd))
        code = cli_exit_code(st);   /* not the end of the input */
    code = cli_finish_stdout("solve", code);
    fprintf(stderr, "fgm: solver=dlx count: unique=%ld/%ld cap=%ld\n", unique,
            n, cap);
    fgm_dlx_free(d);
    free(given);
    return code;
}

static int
usage(void)
{
    fprintf(stderr,
            "usage: fgm solve [--solver S] [--model MODEL] [--backend B] "
            "[--seed N]\n"
            "                 [--timeout-ms T] [-j N] [--csv] [--lcv] "
            "PUZZLES...\n"
            "       fgm solve --solver dlx --count [--cap N] [--csv] "
            "PUZZLES...\n"
            "probabilistic solvers: --backend auto|compiled|interpreted, "
            "--iters N,\n  --fix K (ep-iterative, bp-decimate, "
            "bp-decimate2), --restarts N (alldiff-*,\n  bp-decimate3), "
            "--out-dir DIR; -D NAME=VALUE sets a const of a .fgm model\n");
    return CLI_EUSAGE;
}

/* What the command line asks of `fgm solve`. */
typedef struct solve_args {
    const char *solver_name, *model, *backend, *out_dir;
    const char *inputs[SOLVE_MAXINPUTS];
    const char *defs[CLI_MAXDEFINES];
    int ninputs, ndefs;
    long threads, seed, cap, iters, fix, restarts;
    double timeout;
    int seed_set, count, cap_set, solver_given, csv, lcv;
} solve_args;

/* Reads A's options and puzzle files into SA.  Returns CLI_OK, or the
 * exit code after saying what is wrong. */
static int
parse_args(cli_args *a, solve_args *sa)
{
    const char *val;
    int r, stdin_seen = 0;

    memset(sa, 0, sizeof *sa);
    sa->solver_name = "dlx";
    sa->backend = "auto";
    sa->threads = 1;
    sa->cap = 2;
    sa->restarts = -1;
    while (a->i < a->argc) {
        if (cli_end_of_options(a))
            continue;
        if ((r = cli_opt_value(a, "--solver", &val)) != 0) {
            if (r < 0)
                return usage();
            sa->solver_name = val;
            sa->solver_given = 1;
        } else if ((r = cli_opt_value(a, "--model", &val)) != 0) {
            if (r < 0)
                return usage();
            sa->model = val;
        } else if ((r = cli_opt_value(a, "--backend", &val)) != 0) {
            if (r < 0)
                return usage();
            sa->backend = val;
        } else if ((r = cli_opt_value(a, "--seed", &val)) != 0) {
            if (r < 0 || !cli_parse_long("solve", "--seed", val, 0,
                                         0x7fffffffL, &sa->seed))
                return CLI_EUSAGE;
            sa->seed_set = 1;
        } else if ((r = cli_opt_value(a, "--timeout-ms", &val)) != 0) {
            if (r < 0 || !cli_parse_double("solve", "--timeout-ms", val, 0,
                                           &sa->timeout))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "-j", &val)) != 0) {
            if (r < 0 || !cli_parse_long("solve", "-j", val, 1, 256,
                                         &sa->threads))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--iters", &val)) != 0) {
            if (r < 0 || !cli_parse_long("solve", "--iters", val, 1,
                                         FGM_MAX_ITERATIONS, &sa->iters))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--fix", &val)) != 0) {
            if (r < 0 || !cli_parse_long("solve", "--fix", val, 1, 100000,
                                         &sa->fix))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--restarts", &val)) != 0) {
            if (r < 0 || !cli_parse_long("solve", "--restarts", val, 0,
                                         10000000, &sa->restarts))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--out-dir", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_check_name("solve", "--out-dir", val, "folder"))
                return CLI_EUSAGE;
            sa->out_dir = val;
        } else if (cli_opt_flag(a, "--csv")) {
            sa->csv = 1;
        } else if (cli_opt_flag(a, "--lcv")) {
            sa->lcv = 1;
        } else if (cli_opt_flag(a, "--count")) {
            sa->count = 1;
        } else if ((r = cli_opt_value(a, "--cap", &val)) != 0) {
            if (r < 0 || !cli_parse_long("solve", "--cap", val, 1,
                                         1000000000000L, &sa->cap))
                return CLI_EUSAGE;
            sa->cap_set = 1;
        } else if ((r = cli_opt_value(a, "-D", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_add_define("solve", sa->defs, &sa->ndefs, val))
                return CLI_EUSAGE;
        } else if (cli_unknown_option(a)) {
            cli_fail(CLI_EUSAGE, "solve: unknown option '%s'", a->argv[a->i]);
            return usage();
        } else if (strcmp(a->argv[a->i], "-") == 0 && stdin_seen++) {
            return cli_fail(CLI_EUSAGE, "solve: '-' (standard input) given "
                            "twice");
        } else if (sa->ninputs == SOLVE_MAXINPUTS) {
            return cli_fail(CLI_EUSAGE, "solve: more than %d puzzle files "
                            "(cat them into one, or into '-')",
                            SOLVE_MAXINPUTS);
        } else if (!cli_check_name("solve", "PUZZLES", a->argv[a->i],
                                   "file")) {
            return CLI_EUSAGE;
        } else {
            sa->inputs[sa->ninputs++] = a->argv[a->i++];
        }
    }
    if (!sa->ninputs) {
        cli_missing(a, "puzzle files (PUZZLES...)");
        return usage();
    }
    return CLI_OK;
}

/* Checks SA's options against each other and its solver, and sets BO's
 * solver, SO and OUT from them.  Returns CLI_OK, or the exit code after
 * saying what is wrong: an option the run would not read is refused, not
 * ignored (the user meant something by it). */
static int
apply_args(const solve_args *sa, fgm_batch_opts *bo, fgm_solve_opts *so,
           solve_out *out)
{
    const char *name = sa->solver_name;
    int engine;

    bo->solver = fgm_solver_find(name);
    if (!bo->solver)
        return cli_fail(CLI_EUSAGE, "solve: unknown solver '%s' (see `fgm "
                        "list`)", name);
    bo->seed_set = sa->seed_set;
    out->solver = name;
    out->exact = (fgm_solver_flags(bo->solver) & FGM_SOLVER_EXACT) != 0;
    out->inputs = sa->inputs;
    out->csv = sa->csv;
    if (sa->lcv && strcmp(name, "mrv") != 0)
        return cli_fail(CLI_EUSAGE, "solve: --lcv orders the values of "
                        "--solver mrv only, not %s", name);
    if (sa->iters && out->exact)
        return cli_fail(CLI_EUSAGE, "solve: --iters sets the sweeps of the "
                        "probabilistic solvers; %s is exact", name);
    if (sa->restarts >= 0
        && !(fgm_solver_flags(bo->solver) & FGM_SOLVER_RESTARTS))
        return cli_fail(CLI_EUSAGE, "solve: --restarts sets the restarts of "
                        "the solvers `fgm list` marks [restarts], not %s",
                        name);
    if (sa->cap_set && !sa->count)
        return cli_fail(CLI_EUSAGE, "solve: --cap N goes with --count");
    if (sa->count && strcmp(name, "dlx") != 0)
        return cli_fail(CLI_EUSAGE, "solve: --count needs --solver dlx");
    out->backend = out->exact ? "exact" : "auto";
    engine = fgm_bench_backend_find(sa->backend);   /* auto, compiled, ... */
    if (engine < 0 && strcmp(sa->backend, "exact") != 0)
        return cli_fail(CLI_EUSAGE, "solve: unknown backend '%s' (auto, "
                        "compiled, interpreted, exact)", sa->backend);
    if (out->exact) {
        /* The exact solvers search the model directly: they have no
         * compiled or interpreted message schedule. */
        if (engine > FGM_BACKEND_AUTO)
            return cli_fail(CLI_EUSAGE, "solve: solver %s runs on backend "
                            "exact only, not '%s'", name, sa->backend);
    } else if (engine < 0) {
        /* Backend exact: known, just not this solver's ("unknown"
         * misled). */
        return cli_fail(CLI_EUSAGE, "solve: backend exact is the exact "
                        "solvers'; %s runs on auto, compiled or interpreted",
                        name);
    } else {
        so->backend = (fgm_backend)engine;
    }
    so->lcv = sa->lcv;
    so->out_dir = sa->out_dir;
    so->iterations = (int)sa->iters;
    so->fix_per_round = (int)sa->fix;
    /* fgm_solve_opts: 0 is the solver's default, < 0 none. */
    so->max_restarts = sa->restarts < 0 ? 0
                       : sa->restarts == 0 ? -1 : (int)sa->restarts;
    so->diag = cli_diag;
    if (sa->ndefs && !sa->model)
        return cli_fail(CLI_EUSAGE, "solve: -D %s: -D sets a const of the "
                        "--model MODEL.fgm", sa->defs[0]);
    return CLI_OK;
}

int
cmd_solve(cli_args *a)
{
    const char *reason;
    solve_args sa;
    fgm_batch_opts bo;
    fgm_solve_opts so;
    solve_out out;
    int code, n = 0, box = 0;
    fgm_puzzle first;
    fgm_puzzle_reader *rd;
    fgm_ir *ir = NULL;
    fgm_csp *csp;
    fgm_status st;

    /* Before anything is written (wrote_line); a terminal keeps its
     * line buffering, and where the buffer cannot be had, none. */
    if (!isatty(STDOUT_FILENO)
        && setvbuf(stdout, solve_buffer, _IOFBF, sizeof solve_buffer) != 0)
        setvbuf(stdout, NULL, _IONBF, 0);
    memset(&bo, 0, sizeof bo);
    memset(&so, 0, sizeof so);
    memset(&out, 0, sizeof out);
    if ((code = parse_args(a, &sa)) != CLI_OK
        || (code = apply_args(&sa, &bo, &so, &out)) != CLI_OK)
        return code;
    if (sa.model && !(ir = cli_model_open("solve", sa.model, sa.defs,
                                          sa.ndefs, &n, &box, &code)))
        return code;
    if (ir && n == 0) {
        fgm_ir_free(ir);
        return cli_no_grid("solve: ", sa.model);
    }
    /* Its answers must be puzzles: a 4x4 grid's cells are written 1-4,
     * so a fifth value has no symbol the reader takes. */
    if (ir && (code = cli_grid_values("solve: ", sa.model, ir, n)) != CLI_OK) {
        fgm_ir_free(ir);
        return code;
    }
    /* Every file is opened before any puzzle is solved: a missing one is
     * said first. */
    rd = fgm_puzzle_reader_open_list(sa.inputs, sa.ninputs, n, box,
                                     cli_diag, NULL);
    if (!rd) {
        fgm_ir_free(ir);
        return CLI_EINPUT;
    }
    /* The first puzzle read before any model is prepared: a malformed
     * input is said before a plugin is built for it.  Without --model,
     * the default model is the Sudoku of its size; the reader then holds
     * every later puzzle to that size. */
    st = fgm_puzzle_peek(rd, &first);
    if (st != FGM_OK) {
        fgm_puzzle_reader_close(rd);
        fgm_ir_free(ir);
        return cli_exit_code(st == FGM_EIO ? FGM_EPARSE : st);
    }
    if (!ir) {
        /* Probabilistic solvers run the shipped model (DESIGN.md),
         * compiled for this size into generated/ on first use; the exact
         * ones search the built-in model directly. */
        if (!out.exact) {
            ir = cli_default_model("solve", first.box, &n, &box, &code);
            if (!ir && code) {
                fgm_puzzle_reader_close(rd);
                return code;
            }
        }
        if (!ir)
            ir = fgm_ir_sudoku(first.box);
        if (!ir) {
            fgm_puzzle_reader_close(rd);
            return cli_fail(CLI_EINTERNAL, "out of memory");
        }
    }
    csp = fgm_csp_new(ir, &st);
    if (!csp) {
        fgm_puzzle_reader_close(rd);
        fgm_ir_free(ir);
        return cli_fail(cli_exit_code(st), "solve: %s", fgm_strerror(st));
    }
    if (!sa.solver_given && !sa.count && fgm_dlx_refuses(csp)) {
        /* The default solver takes exact-cover models only (Sudoku,
         * Latin squares); a grid model with other constraints (a
         * Futoshiki's <) is searched by maintaining arc consistency,
         * exact on any model, and the summary names it. */
        bo.solver = fgm_solver_find("mac");
        out.solver = "mac";
    }
    if (sa.count) {
        code = count_solutions(rd, csp, sa.cap, sa.timeout, out.csv);
        fgm_csp_free(csp);
        fgm_puzzle_reader_close(rd);
        fgm_ir_free(ir);
        return code;
    }
    bo.csp = csp;
    bo.sopts = &so;
    bo.threads = (int)sa.threads;
    bo.timeout_ms = sa.timeout;
    bo.seed = (unsigned long)sa.seed;
    bo.idle = solve_idle;
    if (out.csv)
        printf("index,solver,backend,solved,valid,ms,nodes,inferences,"
               "decisions,restarts,sweeps,contradictions,errors,timeout\n");
    out.t0 = fgm_now();
    st = fgm_batch_run(rd, &bo, emit, &out, &reason);
    if (st == FGM_EUNSUPPORTED)
        code = cli_fail(CLI_EINPUT, "solve: %s", reason);
    else if (out.oom)
        code = cli_fail(CLI_EINTERNAL, "solve: out of memory");
    else if (out.unsupported)
        code = cli_fail(CLI_EINPUT, "solve: puzzle %ld: the solver's model "
                        "could not be prepared", out.n + 1);
    else if (out.failed)
        code = cli_fail(CLI_EINTERNAL, "solve: puzzle %ld: solver %s: %s",
                        out.failed_at + 1, out.solver,
                        fgm_strerror(out.failed));
    else if ((code = cli_exit_code(st)) == CLI_EINTERNAL)
        /* The reader reports bad input itself; this it does not. */
        cli_fail(code, "solve: %s", fgm_strerror(st));
    code = cli_finish_stdout("solve", code);
    /* No summary of nothing: a run that failed on its first puzzle said
     * why (it printed "backend=auto solved=0/0" after an out of memory). */
    if ((st == FGM_OK && !out.unsupported && !out.failed) || out.n > 0)
        summary(&out);
    free(out.ms);
    fgm_csp_free(csp);
    fgm_puzzle_reader_close(rd);
    fgm_ir_free(ir);
    return code;
}
