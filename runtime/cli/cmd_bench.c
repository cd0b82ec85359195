/* runtime/cli/cmd_bench.c: `fgm bench`: the seeds' benchmark protocol.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

/* Most solver rows of one table (--solvers times --backends). */
#define BENCH_MAXROWS 64

/* Progress on a terminal only, and only once the run has taken a second. */
typedef struct progress {
    double t0;
    int shown;
} progress;

static void
show_progress(void *ctx, const char *line)
{
    progress *p = ctx;

    if (!isatty(STDERR_FILENO))
        return;
    if (!line) {
        if (p->shown)
            fputs("\r\033[K", stderr);
        p->shown = 0;
        return;
    }
    if (fgm_now() - p->t0 < 1.0)
        return;
    fprintf(stderr, "\r\033[K%s", line);
    p->shown = 1;
}

/* The model `fgm bench` runs a corpus on (fgm_bench_model_fn): --model
 * (with -D) for every solver; without it, what `fgm solve` runs: the
 * shipped model for the puzzles' box side for the probabilistic solvers
 * (the file, or where it cannot be read the copy fgm carries), and the
 * built-in model for the exact ones. */
typedef struct bench_model {
    const char *spec;            /* --model, or NULL */
    const char *defs[CLI_MAXDEFINES];
    int ndefs;
    int code;                    /* the exit code of a failed open */
} bench_model;

static fgm_status
bench_model_for(void *ctx, const char *corpus, int n, int box, int exact,
                fgm_ir **out)
{
    bench_model *bm = ctx;
    int mn, mbox;

    *out = NULL;
    if (bm->spec) {
        *out = cli_model_open("bench", bm->spec, bm->defs, bm->ndefs, &mn,
                              &mbox, &bm->code);
        if (*out && mn != n) {
            fgm_ir_free(*out);
            *out = NULL;
            bm->code = mn ? cli_fail(CLI_EINPUT, "bench: %s: puzzles of "
                                     "%dx%d cells, but model %s has a "
                                     "%dx%d grid", corpus, n, n, bm->spec,
                                     mn, mn)
                          : cli_no_grid("bench: ", bm->spec);
        }
    } else if (!exact && box > 0) {
        *out = cli_default_model("bench", box, &mn, &mbox, &bm->code);
    } else {
        return FGM_OK;          /* the built-in model */
    }
    if (!*out)
        return FGM_EINVAL;
    bm->code = 0;
    return FGM_OK;
}

/* The grid of --model, so that its corpora are read as `fgm solve
 * --model` reads them: a Latin square of side 7 has 49 cells a line and
 * no boxes to check. */
static int
model_grid(bench_model *bm, fgm_bench_opts *o)
{
    int code = CLI_OK;
    fgm_ir *ir = cli_model_open("bench", bm->spec, bm->defs, bm->ndefs,
                                &o->grid_n, &o->grid_box, &code);

    if (!ir)
        return code;
    code = o->grid_n ? cli_grid_values("bench: ", bm->spec, ir, o->grid_n)
                     : cli_no_grid("bench: ", bm->spec);
    fgm_ir_free(ir);
    return code;
}

static int
usage(void)
{
    fprintf(stderr, "usage: fgm bench [--solvers S1,S2] [--backends B1,B2] "
            "[--repeat R] [--seed N]\n"
            "                 [--model MODEL [-D NAME=VALUE]...] "
            "[--timeout-ms T]\n"
            "                 [--csv FILE] [--detail FILE] "
            "[--svg FILE]\n"
            "                 PUZZLES...\n"
            "       fgm bench --model MODEL [-D NAME=VALUE]... "
            "[--observe FILE|-]\n"
            "                 [--backends B1,B2] [--repeat R]"
            "       (its inference alone)\n");
    return CLI_EUSAGE;
}

/* How `bench --backends` names the model it times: the --model with its
 * -D settings, e.g. "models/sudoku.fgm (B=2)", into LABEL (SIZE bytes). */
static void
spec_label(const bench_model *bm, char *label, size_t size)
{
    size_t len;
    int i;

    snprintf(label, size, "%s", bm->spec);
    for (i = 0; i < bm->ndefs; i++) {
        len = strlen(label);
        snprintf(label + len, size - len, "%s%s%s", i ? ", " : " (",
                 bm->defs[i], i + 1 == bm->ndefs ? ")" : "");
    }
}

/* The name `bench --backends` reports for the model it times
 * (timed_model) into LABEL (SIZE bytes); *PARSED says whether it comes
 * from a model file. */
static void
timed_label(const bench_model *bm, char *label, size_t size, int *parsed)
{
    if (bm->spec) {
        spec_label(bm, label, size);
        *parsed = cli_is_model_file(bm->spec);
    } else {
        snprintf(label, size, "%s", cli_default_model_readable()
                 ? CLI_DEFAULT_MODEL " (B=3)"
                 : CLI_DEFAULT_MODEL " (B=3, the copy in fgm)");
        *parsed = 1;
    }
}

/* The model whose plugin build and load `bench --backends` times: the
 * --model, else the shipped model for 9x9 grids, else the built-in robust
 * 9x9 model.  NULL if it cannot be made (a message was printed). */
static fgm_ir *
timed_model(const bench_model *bm)
{
    int n, box, code;

    if (bm->spec)
        return cli_model_open("bench", bm->spec, bm->defs, bm->ndefs, &n,
                              &box, &code);
    return cli_default_model("bench", 3, &n, &box, &code);
}

/* A diagnostic sink that keeps the last message (CTX: a char[512]). */
static void
keep_last(void *ctx, const char *msg)
{
    snprintf(ctx, 512, "%s", msg);
}

/* Times opening BM's model (timed_model) with a compiled plugin, front
 * end included: first into an empty folder (code generation + C compiler
 * + load), then again (load only).  Returns 1; 0 if no plugin could be
 * had, WHY[512] then saying why (the cascade's last word); -1 if that
 * folder could not be made, WHY saying so. */
static int
plugin_times(const bench_model *bm, double *compile_ms, double *load_ms,
             char *why)
{
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    fgm_model_opts mo;
    fgm_model *m;
    int pass, ok = 1;

    if (snprintf(dir, sizeof dir, "%s/fgm_bench_XXXXXX",
                 tmp && *tmp ? tmp : "/tmp") >= (int)sizeof dir
        || !mkdtemp(dir)) {
        /* Not the plugin's fault: it builds in generated/ (a missing
         * $TMPDIR read "could not be built"). */
        snprintf(why, 512, "cannot make a folder %.400s: %s", dir,
                 strerror(errno));
        return -1;
    }
    if (!cli_tmpdir_list(dir)) {     /* not with dir's 4096 bytes */
        rmdir(dir);
        snprintf(why, 512, "a folder name too long: %.400s", dir);
        return -1;
    }
    memset(&mo, 0, sizeof mo);
    mo.backend = FGM_BACKEND_COMPILED;
    mo.out_dir = dir;
    for (pass = 0; pass < 2 && ok; pass++) {
        double t0 = fgm_now();
        fgm_ir *ir = timed_model(bm);

        ok = ir && fgm_model_open_ir(ir, &mo, &m, keep_last, why) == FGM_OK;
        *(pass ? load_ms : compile_ms) = (fgm_now() - t0) * 1e3;
        if (ok) {
            ok = fgm_model_is_compiled(m);
            fgm_model_free(m);
        }
    }
    if (!cli_tmpdir_remove())
        ok = 0;
    return ok;
}

/* What the plugin of BM's model (timed_model) costs to build and to load,
 * one line. */
static void
plugin_report(const bench_model *bm)
{
    /* "parse" for a model file; a built-in model's IR is built, not
     * parsed (that takes microseconds). */
    char label[512], why[512] = "";
    const char *front;
    double cms = 0.0, lms = 0.0;
    int parsed, got;

    timed_label(bm, label, sizeof label, &parsed);
    got = plugin_times(bm, &cms, &lms, why);
    if (got < 0) {
        printf("plugin for %s: not timed: %s\n", label, why);
    } else if (got) {
        front = parsed ? "parse" : "build the IR";
        printf("plugin for %s: %s + generate + compile + load %.0f ms, "
               "%s + load an up-to-date plugin %.2f ms\n", label, front,
               cms, front, lms);
    } else if (*why) {
        printf("plugin for %s: could not be built: %s\n", label, why);
    } else {
        printf("plugin for %s: could not be built\n", label);
    }
}

/* After a --backends run: interpreted/compiled ratios of the median time
 * per puzzle, and, when some row ran compiled, what the plugin costs to
 * build and to load. */
static void
backend_report(const fgm_bench *b, const bench_model *bm,
               const char *const *rows, int nrows)
{
    const char *at;
    int i, compiled = 0;

    fgm_bench_write_backends(b, stdout);
    for (i = 0; i < nrows; i++) {
        at = strchr(rows[i], '@');
        compiled |= at && strcmp(at + 1, "interpreted") != 0;
    }
    if (compiled)
        plugin_report(bm);
}

/* The length of NAME without an "@auto" suffix: a solver row without a
 * backend runs on auto, so "ep-robust" and "ep-robust@auto" are one. */
static size_t
canonical_len(const char *name)
{
    size_t n = strlen(name);

    return n > 5 && strcmp(name + n - 5, "@auto") == 0 ? n - 5 : n;
}

/* The first of the N names in LIST that an earlier one repeats, or
 * NULL. */
static const char *
repeated(const char *const *list, int n)
{
    int i, j;

    for (i = 1; i < n; i++)
        for (j = 0; j < i; j++)
            if (canonical_len(list[i]) == canonical_len(list[j])
                && strncmp(list[i], list[j], canonical_len(list[i])) == 0)
                return list[i];
    return NULL;
}

/* The files of --csv, --detail and --svg (each NULL when not asked for),
 * checked before a run of minutes rather than after it.  Returns CLI_OK,
 * or an exit code after saying why. */
static int
check_reports(const char *csv, const char *detail, const char *svg,
              const char *const *corpora, int ncorpora)
{
    const char *const reports[] = { csv, detail, svg };
    int i, j, n = (int)CLI_COUNTOF(reports);

    for (i = 0; i < n; i++)
        if (reports[i] && strcmp(reports[i], "-") == 0)
            /* Standard output carries the table; '-' would have been a
             * file named '-'. */
            return cli_fail(CLI_EUSAGE, "bench: --csv, --detail and --svg "
                            "name files; the table goes to standard "
                            "output");
    for (i = 0; i < n; i++)
        if (reports[i] && !cli_output_ok(reports[i]))
            return CLI_EINPUT;
    for (i = 1; i < n; i++)
        for (j = 0; j < i; j++)
            if (reports[i] && reports[j]
                && cli_same_file(reports[i], reports[j]))
                /* The last write would be all that is left. */
                return cli_fail(CLI_EUSAGE, "bench: --csv, --detail and "
                                "--svg name the same file");
    for (i = 0; i < n; i++)
        for (j = 0; j < ncorpora; j++)
            if (reports[i] && cli_same_file(reports[i], corpora[j]))
                /* The report would replace the puzzles it came from. */
                return cli_fail(CLI_EUSAGE, "bench: report '%s' names the "
                                "corpus '%s'", reports[i], corpora[j]);
    return CLI_OK;
}

/* Refuses backend NAME, which fgm_bench_backend_find does not know, of
 * SOLVER ("ep-robust@NAME"), or of --backends when SOLVER is NULL;
 * returns the exit code.  Backend exact is known, only not a
 * probabilistic solver's: "unknown backend 'exact'" misled, when `fgm
 * list` lists it, so it is told as `fgm solve --backend exact` tells it. */
static int
bad_backend(const char *name, const char *solver)
{
    if (strcmp(name, "exact") != 0)
        return cli_fail(CLI_EUSAGE, "bench: unknown backend '%s' (auto, "
                        "compiled, interpreted)", name);
    if (solver)
        return cli_fail(CLI_EUSAGE, "bench: backend exact is the exact "
                        "solvers'; %s runs on auto, compiled or "
                        "interpreted", solver);
    return cli_fail(CLI_EUSAGE, "bench: backend exact is the exact "
                    "solvers', which take no --backends; the probabilistic "
                    "solvers run on auto, compiled or interpreted");
}

/* Splits the comma list S (modified in place) into OUT[0..MAX-1].
 * Returns the number of items, which is more than MAX when some did not
 * fit (the caller refuses the list rather than run part of it), or -1
 * when one is empty ("dlx,", "a,,b": a slip, refused as ",," is). */
static int
split(char *s, const char **out, int max)
{
    int n = 0;
    char *tok, *save = NULL;

    if (*s == ',' || strstr(s, ",,") || (*s && s[strlen(s) - 1] == ','))
        return -1;
    for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (n++ < max)
            out[n - 1] = tok;
    return n;
}

/* --backends LIST (modified) into BACKENDS[0..MAX-1], *N of them: each
 * a backend bench runs (bad_backend; "exact" too when EXACT_OK: a
 * model's inference timed against variable elimination), none empty or
 * twice, at most MAX.  Returns CLI_OK or the usage error after saying
 * why. */
static int
parse_backends(char *list, const char **backends, int max, int *n,
               int exact_ok)
{
    const char *twice;
    int i;

    *n = split(list, backends, max);
    if (*n <= 0)
        return cli_fail(CLI_EUSAGE, *n ? "bench: --backends has an empty "
                        "name" : "bench: --backends names no backend");
    if (*n > max)
        return cli_fail(CLI_EUSAGE, "bench: --backends names %d backends; "
                        "at most %d", *n, max);
    if ((twice = repeated(backends, *n)) != NULL)
        return cli_fail(CLI_EUSAGE, "bench: backend '%s' is listed twice",
                        twice);
    for (i = 0; i < *n; i++) {
        if (exact_ok && strcmp(backends[i], "exact") == 0)
            continue;
        if (exact_ok && fgm_bench_backend_find(backends[i]) < 0)
            return cli_fail(CLI_EUSAGE, "bench: unknown backend '%s' (auto, "
                            "compiled, interpreted, exact)", backends[i]);
        if (fgm_bench_backend_find(backends[i]) < 0)
            return bad_backend(backends[i], NULL);
    }
    return CLI_OK;
}

/* If argv[i] is option NAME, whose value names a file: the value into
 * *OUT, and NAME into *SEEN when SEEN is not NULL.  Returns 1, 0 for
 * another argument, -1 when the value is missing, -2 when it is empty
 * (each said). */
static int
file_option(cli_args *a, const char *name, const char **out,
            const char **seen)
{
    const char *val;
    int r = cli_opt_value(a, name, &val);

    if (r <= 0)
        return r;
    if (seen)
        *seen = name;
    if (!cli_check_name("bench", name, val, "file"))
        return -2;
    *out = val;
    return 1;
}

/* `fgm bench --model BM` without PUZZLES: its inference timed on the
 * backends of BLIST (compiled and interpreted when NULL; modified), with
 * the observation sets of OBSERVE, REPEAT runs a set.  SOLVER_OPT, an
 * option of the solvers' benchmark that was given, is refused rather than
 * ignored.  Returns the exit code. */
static int
model_only(const char *solver_opt, const bench_model *bm,
           const char *observe, char *blist, int repeat)
{
    const char *backends[4];   /* auto, compiled, interpreted, exact */
    char label[512];
    bench_infer_opts o;
    int code;

    if (solver_opt)
        return cli_fail(CLI_EUSAGE, "bench: %s is for the solvers on "
                        "PUZZLES; without PUZZLES, bench times the "
                        "inference of --model", solver_opt);
    memset(&o, 0, sizeof o);
    if (blist && (code = parse_backends(blist, backends,
                                        (int)CLI_COUNTOF(backends),
                                        &o.nbackends, 1)) != CLI_OK)
        return code;
    o.backends = backends;
    spec_label(bm, label, sizeof label);
    o.spec = bm->spec;
    o.label = label;
    o.defs = bm->defs;
    o.ndefs = bm->ndefs;
    o.observe = observe;
    o.repeat = repeat;
    return cli_finish_stdout("bench", bench_inference(&o));
}

/* Refuses two CORPORA (N) that are one file, under one name or two: the
 * table could not tell their rows apart, or would count one corpus
 * twice.  Returns CLI_OK, or the exit code after saying so. */
static int
distinct_corpora(const char *const *corpora, int n)
{
    int i, j;

    for (i = 1; i < n; i++)
        for (j = 0; j < i; j++) {
            if (!cli_same_file(corpora[i], corpora[j]))
                continue;
            if (strcmp(corpora[i], corpora[j]) == 0)
                return cli_fail(CLI_EUSAGE, "bench: corpus '%s' is listed "
                                "twice", corpora[i]);
            return cli_fail(CLI_EUSAGE, "bench: corpora '%s' and '%s' are "
                            "one file", corpora[j], corpora[i]);
        }
    return CLI_OK;
}

/* The table's solver rows, into SOLVERS (*NROWS of them, at most
 * BENCH_MAXROWS; LABELS holds the "name@backend" ones): the solvers LIST
 * names (comma-separated, split in place; NULL: every exact solver),
 * each probabilistic one once per backend of BLIST (nullable; their
 * number into *NBACKENDS) unless it names its own.  Returns CLI_OK, or
 * the exit code after saying what is wrong. */
static int
solver_rows(char *list, char *blist, const char **solvers,
            char labels[][64], int *nrows, int *nbackends)
{
    const char *names[64], *backends[4] = { NULL }, *val;
    int nnames = 0, rows = 0, nb = 0, i, j, code;
    int expanded = 0;   /* a solver ran once per --backends */

    if (list) {
        nnames = split(list, names, (int)CLI_COUNTOF(names));
    } else {
        /* Default: the exact solvers (the probabilistic ones are named:
         * ep-naive compiles a plugin per puzzle). */
        for (j = 0; j < fgm_solver_count(); j++)
            if (fgm_solver_flags(fgm_solver_at(j)) & FGM_SOLVER_EXACT)
                names[nnames++] = fgm_solver_name(fgm_solver_at(j));
    }
    if (nnames <= 0)
        return cli_fail(CLI_EUSAGE, nnames ? "bench: --solvers has an empty "
                        "name" : "bench: --solvers names no solver");
    if (nnames > (int)CLI_COUNTOF(names))
        return cli_fail(CLI_EUSAGE, "bench: --solvers names %d solvers; at "
                        "most %d", nnames, (int)CLI_COUNTOF(names));
    if (blist && (code = parse_backends(blist, backends,
                                        (int)CLI_COUNTOF(backends), &nb,
                                        0)) != CLI_OK)
        return code;
    /* --backends: one row per backend for each probabilistic solver
     * ("ep-robust@compiled"); exact solvers have one backend. */
    for (i = 0; i < nnames; i++) {
        const fgm_solver *sv;
        size_t base = strcspn(names[i], "@");
        char name[64];
        int exact, own = names[i][base] != '\0';  /* names its backend */

        /* An unknown solver or backend is a usage error, as in `fgm
         * solve`. */
        snprintf(name, sizeof name, "%.*s", (int)base, names[i]);
        sv = fgm_solver_find(name);
        if (!sv)
            return cli_fail(CLI_EUSAGE, "bench: unknown solver '%s' (see "
                            "`fgm list`)", name);
        exact = (fgm_solver_flags(sv) & FGM_SOLVER_EXACT) != 0;
        if (own && exact)       /* as `fgm solve --solver dlx --backend
                                 * compiled` */
            return cli_fail(CLI_EUSAGE, "bench: %s is an exact solver: it "
                            "takes no @backend ('%s')", name, names[i]);
        if (own && fgm_bench_backend_find(names[i] + base + 1) < 0)
            return bad_backend(names[i] + base + 1, name);
        /* Rows past the table's size were dropped without a word. */
        if (rows + (!nb || exact || own ? 1 : nb) > BENCH_MAXROWS)
            return cli_fail(CLI_EUSAGE, "bench: more than %d solver rows "
                            "(--solvers times --backends)", BENCH_MAXROWS);
        if (!nb || exact || own) {
            solvers[rows++] = names[i];
            continue;
        }
        expanded = 1;
        for (j = 0; j < nb; j++, rows++) {
            snprintf(labels[rows], sizeof labels[0], "%s@%s", names[i],
                     backends[j]);
            solvers[rows] = labels[rows];
        }
    }
    /* Refused, as `fgm solve --solver dlx --backend compiled` is: the run
     * timed no backend and said nothing of it. */
    if (nb && !expanded && !list)
        return cli_fail(CLI_EUSAGE, "bench: --backends times the "
                        "probabilistic solvers, and the default solvers are "
                        "the exact ones: name some with --solvers");
    if (nb && !expanded)
        return cli_fail(CLI_EUSAGE, "bench: --backends times the "
                        "probabilistic solvers, and --solvers names none "
                        "that takes it (%s)", nnames == 1 ? names[0]
                        : "exact solvers, or solver@backend rows");
    /* Two rows of one name (dlx,dlx; ep-robust@compiled and ep-robust
     * with --backends compiled): the table could not tell them apart. */
    if ((val = repeated(solvers, rows)) != NULL)
        return cli_fail(CLI_EUSAGE, "bench: solver row '%s' is listed "
                        "twice", val);
    *nrows = rows;
    *nbackends = nb;
    return CLI_OK;
}

int
cmd_bench(cli_args *a)
{
    const char *solvers[BENCH_MAXROWS], *csv = NULL, *svg = NULL;
    const char *val, **corpora, *observe = NULL, *detail = NULL;
    const char *solver_opt = NULL;  /* the last option only solvers take */
    char *list = NULL, *blist = NULL, labels[BENCH_MAXROWS][64];
    int nbackends = 0;
    fgm_bench_opts o;
    fgm_solve_opts so;
    fgm_bench *b = NULL;
    bench_model bm;
    progress prog;
    fgm_status st;
    long repeat = 3, seed = 0;
    int r, ncorpora = 0, code;

    corpora = calloc((size_t)a->argc, sizeof *corpora);
    if (!corpora)
        return cli_fail(CLI_EINTERNAL, "out of memory");
    fgm_bench_opts_init(&o);
    memset(&so, 0, sizeof so);
    memset(&bm, 0, sizeof bm);
    while (a->i < a->argc) {
        if (cli_end_of_options(a))
            continue;
        if ((r = cli_opt_value(a, "--backends", &val)) != 0) {
            if (r < 0)
                goto usage;
            free(blist);
            blist = strdup(val);
            if (!blist)
                goto usage;
        } else if ((r = cli_opt_value(a, "--solvers", &val)) != 0) {
            solver_opt = "--solvers";
            if (r < 0)
                goto usage;
            free(list);
            list = strdup(val);
            if (!list)
                goto usage;
        } else if ((r = cli_opt_value(a, "--repeat", &val)) != 0) {
            if (r < 0 || !cli_parse_long("bench", "--repeat", val, 1, 100,
                                         &repeat)) {
                code = CLI_EUSAGE;  /* said (as solve and run) */
                goto out;
            }
        } else if ((r = cli_opt_value(a, "--seed", &val)) != 0) {
            solver_opt = "--seed";
            if (r < 0 || !cli_parse_long("bench", "--seed", val, 0,
                                         0x7fffffffL, &seed)) {
                code = CLI_EUSAGE;
                goto out;
            }
            o.seed = (unsigned long)seed;
        } else if ((r = cli_opt_value(a, "--timeout-ms", &val)) != 0) {
            solver_opt = "--timeout-ms";
            if (r < 0 || !cli_parse_double("bench", "--timeout-ms", val, 0,
                                           &o.timeout_ms)) {
                code = CLI_EUSAGE;
                goto out;
            }
        } else if ((r = file_option(a, "--observe", &val, NULL)) != 0) {
            if (r == -1)
                goto usage;
            if (r < 0) {
                code = CLI_EUSAGE;
                goto out;
            }
            /* The first file was dropped without a word. */
            if (observe) {
                code = cli_fail(CLI_EUSAGE, "bench: --observe given twice "
                                "('%s', '%s'): one file of observation "
                                "sets a run", observe, val);
                goto out;
            }
            observe = val;
        } else if ((r = cli_opt_value(a, "--model", &val)) != 0) {
            if (r < 0)
                goto usage;
            bm.spec = val;
        } else if ((r = cli_opt_value(a, "-D", &val)) != 0) {
            if (r < 0)
                goto usage;
            if (!cli_add_define("bench", bm.defs, &bm.ndefs, val)) {
                code = CLI_EUSAGE;
                goto out;
            }
        } else if ((r = file_option(a, "--csv", &csv, &solver_opt)) != 0
                   || (r = file_option(a, "--detail", &detail,
                                       &solver_opt)) != 0
                   || (r = file_option(a, "--svg", &svg, &solver_opt)) != 0) {
            if (r == -1)
                goto usage;
            if (r < 0) {
                code = CLI_EUSAGE;
                goto out;
            }
        } else if (cli_unknown_option(a)) {
            cli_fail(CLI_EUSAGE, "bench: unknown option '%s'", a->argv[a->i]);
            goto usage;
        } else if (!cli_check_name("bench", "PUZZLES", a->argv[a->i],
                                   "file")) {
            code = CLI_EUSAGE;
            goto out;
        } else {
            corpora[ncorpora++] = a->argv[a->i++];
        }
    }
    if (ncorpora == 0 && bm.spec) {
        code = model_only(solver_opt, &bm, observe, blist, (int)repeat);
        goto out;
    }
    if (ncorpora == 0 && observe) {
        code = cli_fail(CLI_EUSAGE, "bench: --observe gives the observation "
                        "sets of a --model MODEL's inference");
        goto out;
    }
    if (ncorpora == 0) {
        cli_missing(a, "puzzle files (PUZZLES...)");
        goto usage;
    }
    if (observe) {
        code = cli_fail(CLI_EUSAGE, "bench: --observe gives the observation "
                        "sets of --model's inference, timed without "
                        "PUZZLES; the puzzles are the solvers' "
                        "observations");
        goto out;
    }
    if ((code = distinct_corpora(corpora, ncorpora)) != CLI_OK)
        goto out;
    if (bm.ndefs && !bm.spec) {
        code = cli_fail(CLI_EUSAGE, "bench: -D %s: -D sets a const of the "
                        "--model MODEL.fgm", bm.defs[0]);
        goto out;
    }
    if ((code = solver_rows(list, blist, solvers, labels, &o.nsolvers,
                            &nbackends)) != CLI_OK)
        goto out;
    if ((code = check_reports(csv, detail, svg, corpora, ncorpora)) != CLI_OK)
        goto out;
    if (bm.spec && (code = model_grid(&bm, &o)) != CLI_OK)
        goto out;
    o.solvers = solvers;
    o.corpora = corpora;
    o.ncorpora = ncorpora;
    o.repeat = (int)repeat;
    o.solve_opts = &so;
    o.diag = cli_diag;
    /* Why a solver's model falls back to the interpreter (or, with
     * --backends compiled, cannot be had), once (bench.c). */
    so.diag = cli_diag;
    prog.t0 = fgm_now();
    prog.shown = 0;
    o.progress = show_progress;
    o.progress_ctx = &prog;
    o.model = bench_model_for;
    o.model_ctx = &bm;
    st = fgm_bench_run(&o, &b);
    code = bm.code && st != FGM_OK ? bm.code : cli_exit_code(st);
    if (st == FGM_OK) {
        fgm_bench_write_table(b, stdout);
        if (csv && fgm_bench_save(b, csv, fgm_bench_write_csv, cli_diag,
                                  NULL) != FGM_OK)
            code = CLI_EINPUT;
        if (detail && fgm_bench_save(b, detail, fgm_bench_write_detail,
                                     cli_diag, NULL) != FGM_OK)
            code = CLI_EINPUT;
        if (svg && fgm_bench_save(b, svg, fgm_bench_write_svg, cli_diag,
                                  NULL) != FGM_OK)
            code = CLI_EINPUT;
    }
    if (st == FGM_OK && nbackends)
        backend_report(b, &bm, solvers, o.nsolvers);
    code = cli_finish_stdout("bench", code);
    fgm_bench_free(b);
out:
    free(list);
    free(blist);
    free(corpora);
    return code;
usage:
    free(list);
    free(blist);
    free(corpora);
    return usage();
}
