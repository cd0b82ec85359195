/* runtime/bench.c: the benchmark protocol (runs, repeats, censoring, stats).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The protocol is the seeds' (notebook 002, RunBenchmark): cooperative
 * timeouts so that no run outlives its budget, fast runs repeated to damp
 * system noise, and timeouts kept in the denominator but out of the time
 * statistics (censored observations).  One difference, as the brief asks:
 * a repeated puzzle contributes one time, the median of its runs, so that
 * every puzzle weighs the same in the corpus statistics.
 *
 * Adjacent labels of one solver on several backends ("ep@compiled",
 * "ep@interpreted", as `--backends` lists them) run puzzle by puzzle, the
 * backends' order swapped every puzzle: the machines this runs on change
 * speed for seconds at a time, and a backend run over a whole corpus
 * before the other measured that as much as the backends.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include "bench.h"
#include "diag_once.h"
#include "solve/run.h"

/* Minimum seconds between two progress lines. */
#define PROGRESS_EVERY 0.1

/* A corpus read into memory: clues as value indices, nvars per puzzle. */
typedef struct corpus {
    int n, box;
    int nvars;
    int count, cap;
    int *given;
} corpus;

/* The state of one fgm_bench_run call. */
typedef struct runstate {
    const fgm_bench_opts *o;
    fgm_bench *b;
    const fgm_solver **solvers;
    fgm_backend *backends;  /* per solver: from a "name@backend" label */
    double last;            /* fgm_now() of the last progress line */
    int sent;               /* a progress line was sent */
    long order;             /* puzzles run so far (fgm_bench_sample.order) */
    fgm_diag_once once;     /* the solvers' sink, o->solve_opts->diag: a
                             * fallback's reason once, not per corpus
                             * (or per puzzle: ep-naive) */
} runstate;

void
fgm_bench_opts_init(fgm_bench_opts *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->timeout_ms = 10000;
    o->repeat = 3;
    o->fast_ms = 250;
}

void
fgm_bench_fmt_ms(double ms, char *buf, size_t size)
{
    int dec;

    /* Past 1e9 ms (11 days: a timeout no run reaches), %g: 1e+300 was
     * written with its 300 digits, cut by BUF's size.  Under 1e-6 ms
     * too: a timeout of 1e-300 ms read "0.000000", as if none. */
    if (!(ms > 0) || !isfinite(ms) || ms >= 1e9 || ms < 1e-6) {
        snprintf(buf, size, "%g", ms);
        return;
    }
    /* Three significant digits: 412, 41.2, 4.12, 0.412, 0.00412. */
    dec = 2 - (int)floor(log10(ms));
    if (dec > 6)
        dec = 6;
    /* 9.996 rounds to 10.0, not 10.00. */
    if (dec > 0 && round(ms * pow(10, dec)) >= 1000)
        dec--;
    if (dec < 0)
        dec = 0;
    snprintf(buf, size, "%.*f", dec, ms);
}

void
fgm_bench_protocol(const fgm_bench *b, char *buf, size_t size)
{
    char t[24], fast[24];
    size_t n;

    fgm_bench_fmt_ms(b->timeout_ms, t, sizeof t);
    fgm_bench_fmt_ms(b->fast_ms, fast, sizeof fast);
    if (b->timeout_ms > 0)
        snprintf(buf, size, "timeout %s ms per run", t);
    else
        snprintf(buf, size, "no timeout");
    n = strlen(buf);
    if (b->repeat > 1)
        snprintf(buf + n, size - n, "; runs under %s ms repeated %d times",
                 fast, b->repeat);
    else
        snprintf(buf + n, size - n, "; each puzzle run once");
    n = strlen(buf);
    if (b->seed)
        snprintf(buf + n, size - n, "; seed = puzzle index + %lu", b->seed);
}

void
fgm_bench_row_stats(fgm_bench_row *row, double *scratch)
{
    size_t k = 0;
    int i;

    row->solved = row->unsolved = row->timeouts = 0;
    row->ntimed = row->nruns = 0;
    row->median_ms = row->p25_ms = row->p75_ms = row->mean_ms = 0;
    row->min_ms = row->max_ms = row->total_ms = row->median_nodes = 0;
    for (i = 0; i < row->n; i++) {
        const fgm_bench_sample *s = &row->samples[i];

        if (s->timed_out) {
            row->timeouts++;
            continue;
        }
        if (s->solved)
            row->solved++;
        else
            row->unsolved++;
        row->nruns += s->runs;
        row->total_ms += s->ms;
        scratch[k++] = s->ms;
    }
    row->ntimed = (int)k;
    if (k == 0)
        return;
    gsl_sort(scratch, 1, k);
    row->median_ms = gsl_stats_median_from_sorted_data(scratch, 1, k);
    row->p25_ms = gsl_stats_quantile_from_sorted_data(scratch, 1, k, 0.25);
    row->p75_ms = gsl_stats_quantile_from_sorted_data(scratch, 1, k, 0.75);
    row->mean_ms = gsl_stats_mean(scratch, 1, k);
    row->min_ms = scratch[0];
    row->max_ms = scratch[k - 1];

    k = 0;
    for (i = 0; i < row->n; i++)
        if (!row->samples[i].timed_out)
            scratch[k++] = (double)row->samples[i].nodes;
    row->median_nodes = gsl_stats_median(scratch, 1, k);    /* reorders */
}

void
fgm_bench_free(fgm_bench *b)
{
    int i;

    if (!b)
        return;
    if (b->rows)
        for (i = 0; i < b->ncorpora * b->nsolvers; i++)
            free(b->rows[i].samples);
    if (b->corpora)
        for (i = 0; i < b->ncorpora; i++)
            free(b->corpora[i]);
    free(b->corpora);
    free(b->solvers);
    free(b->rows);
    free(b);
}

/* The last component of PATH. */
static const char *
base_name(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash && slash[1] ? slash + 1 : path;
}

/* Returns a copy of the label of corpus C of PATHS (N): its file name,
 * or the path as given when another corpus has the same file name (two
 * hardest.txt rows could not be told apart); NULL when out of memory. */
static char *
label(const char *const *paths, int n, int c)
{
    const char *name = base_name(paths[c]);
    char *s;
    int i;

    for (i = 0; i < n; i++)
        if (i != c && strcmp(base_name(paths[i]), name) == 0)
            name = paths[c];
    s = malloc(strlen(name) + 1);
    if (s)
        strcpy(s, name);
    return s;
}

/* Allocates the result with its labels and empty rows. */
static fgm_bench *
bench_new(const fgm_bench_opts *o, const fgm_solver *const *solvers)
{
    fgm_bench *b = calloc(1, sizeof *b);
    int c, s;

    if (!b)
        return NULL;
    b->ncorpora = o->ncorpora;
    b->nsolvers = o->nsolvers;
    b->timeout_ms = o->timeout_ms;
    b->repeat = o->repeat;
    b->fast_ms = o->fast_ms;
    b->seed = o->seed;
    b->corpora = calloc((size_t)o->ncorpora, sizeof *b->corpora);
    b->solvers = calloc((size_t)o->nsolvers, sizeof *b->solvers);
    b->rows = calloc((size_t)o->ncorpora * (size_t)o->nsolvers,
                     sizeof *b->rows);
    if (!b->corpora || !b->solvers || !b->rows)
        goto fail;
    for (s = 0; s < o->nsolvers; s++)
        b->solvers[s] = o->solvers[s];     /* the label, "@backend" too */
    (void)solvers;
    for (c = 0; c < o->ncorpora; c++) {
        b->corpora[c] = label(o->corpora, o->ncorpora, c);
        if (!b->corpora[c])
            goto fail;
        for (s = 0; s < o->nsolvers; s++) {
            fgm_bench_row *row = &b->rows[c * o->nsolvers + s];

            row->corpus = b->corpora[c];
            row->solver = b->solvers[s];
        }
    }
    return b;
fail:
    fgm_bench_free(b);
    return NULL;
}

/* Appends the clues of P to CP, which takes its size from the first
 * puzzle.  Returns FGM_OK, FGM_EINVAL (another size) or FGM_ENOMEM. */
static fgm_status
corpus_add(corpus *cp, const fgm_puzzle *p, const char *path,
           const fgm_bench_opts *o)
{
    if (cp->count == 0) {
        cp->n = p->n;
        cp->box = p->box;
        cp->nvars = p->n * p->n;
    } else if (p->n != cp->n || p->box != cp->box) {
        fgm_diagf(o->diag, o->diag_ctx,
                  "%s:%ld: error: a %dx%d puzzle in a corpus of %dx%d "
                  "puzzles (one grid size per corpus)",
                  path, p->line, p->n, p->n, cp->n, cp->n);
        return FGM_EINVAL;
    }
    if (cp->count == cp->cap) {
        int cap = cp->cap ? 2 * cp->cap : 64;
        int *g = realloc(cp->given,
                         (size_t)cap * (size_t)cp->nvars * sizeof *g);

        if (!g)
            return FGM_ENOMEM;
        cp->given = g;
        cp->cap = cap;
    }
    fgm_puzzle_to_given(p, cp->given + (size_t)cp->count * cp->nvars);
    cp->count++;
    return FGM_OK;
}

/* Reads every puzzle of PATH into CP.  Returns FGM_OK or an error status
 * after reporting it. */
static fgm_status
corpus_load(corpus *cp, const char *path, const fgm_bench_opts *o)
{
    fgm_puzzle_reader *r;
    fgm_puzzle p;
    fgm_status st;

    r = fgm_puzzle_reader_open(path, o->grid_n, o->grid_box, o->diag,
                               o->diag_ctx);
    if (!r)
        return FGM_EIO;
    while ((st = fgm_puzzle_read(r, &p)) == FGM_OK)
        if ((st = corpus_add(cp, &p, path, o)) != FGM_OK)
            break;
    if (st == FGM_EIO && !fgm_puzzle_reader_failed(r))
        st = FGM_OK;            /* the end of the input, not a read error */
    fgm_puzzle_reader_close(r);
    if (st == FGM_ENOMEM)
        fgm_diagf(o->diag, o->diag_ctx, "%s: error: %s", path,
                  fgm_strerror(st));
    if (st == FGM_OK && cp->count == 0) {
        fgm_diagf(o->diag, o->diag_ctx, "%s: error: no puzzles", path);
        st = FGM_EINVAL;
    }
    return st;
}

/* Sends "bench: CORPUS SOLVER I/N" when the last line is old enough. */
static void
progress(runstate *rs, const fgm_bench_row *row, int i, int n)
{
    char line[512];
    double now;

    if (!rs->o->progress)
        return;
    now = fgm_now();
    if (now - rs->last < PROGRESS_EVERY)
        return;
    rs->last = now;
    rs->sent = 1;
    snprintf(line, sizeof line, "bench: %s %s %d/%d", row->corpus,
             row->solver, i, n);
    rs->o->progress(rs->o->progress_ctx, line);
}

/* Whether a runner status ends the whole benchmark (not a puzzle result). */
static int
fatal(fgm_status st)
{
    return st != FGM_OK && st != FGM_EUNSOLVED && st != FGM_ETIMEOUT;
}

/* Whether RES is a timeout: the runner says so of a run that ended past
 * the limit too (fgm_runner_solve). */
static int
past_timeout(const fgm_solve_result *res)
{
    return res->status == FGM_ETIMEOUT;
}

/* Runs puzzle I of CLUES (NVARS values per puzzle): the first run, then
 * repeats while fast.  TIMES holds o->repeat doubles, SOL NVARS ints.
 * Returns FGM_OK or a fatal status. */
static fgm_status
run_puzzle(runstate *rs, fgm_runner *r, const int *clues, int nvars, int i,
           int *sol, double *times, fgm_bench_sample *s)
{
    const fgm_bench_opts *o = rs->o;
    const int *given = clues + (size_t)i * nvars;
    unsigned long seed = o->seed + (unsigned long)i;
    fgm_solve_result res;
    size_t k = 0;
    int rep;

    s->order = rs->order++;
    fgm_runner_solve(r, given, seed, o->timeout_ms, sol, &res);
    if (fatal(res.status))
        return res.status;
    s->timed_out = past_timeout(&res);
    s->solved = res.solved && !s->timed_out;
    s->ms = res.ms;
    s->nodes = res.stats.nodes;
    if (s->timed_out)
        return FGM_OK;
    times[k++] = res.ms;
    for (rep = 1; rep < o->repeat && res.ms < o->fast_ms; rep++) {
        fgm_solve_result again;

        fgm_runner_solve(r, given, seed, o->timeout_ms, sol, &again);
        if (fatal(again.status))
            return again.status;
        if (!past_timeout(&again))   /* a lost repeat is dropped */
            times[k++] = again.ms;
    }
    s->ms = gsl_stats_median(times, 1, k);  /* of the runs in any order */
    s->runs = (int)k;
    return FGM_OK;
}

/* Makes ROW's runner: SOLVER on BACKEND over CSP, with the options SO
 * (filled here; the runner keeps a pointer to them: they must outlive
 * it), and ROW's samples for the N puzzles.  *R stays NULL when the
 * solver refuses (ROW->unsupported set, FGM_OK).  Returns FGM_OK or an
 * error after reporting it. */
static fgm_status
row_begin(runstate *rs, const fgm_csp *csp, const fgm_solver *solver,
          fgm_backend backend, int n, fgm_solve_opts *so, fgm_bench_row *row,
          fgm_runner **r)
{
    const fgm_bench_opts *o = rs->o;
    fgm_status st;
    const char *why;

    memset(so, 0, sizeof *so);
    if (o->solve_opts)
        *so = *o->solve_opts;
    so->backend = backend;
    if (so->diag) {
        so->diag = fgm_diag_once_say;
        so->diag_ctx = &rs->once;
    }
    *r = fgm_runner_new(solver, csp, so, &st, &why);
    if (st == FGM_EUNSUPPORTED) {
        row->unsupported = why ? why : fgm_strerror(st);
        return FGM_OK;
    }
    if (*r) {
        row->samples = calloc((size_t)n, sizeof *row->samples);
        st = row->samples ? FGM_OK : FGM_ENOMEM;
    }
    if (st != FGM_OK) {
        fgm_diagf(o->diag, o->diag_ctx, "%s: solver %s: error: %s",
                  row->corpus, row->solver, fgm_strerror(st));
        fgm_runner_free(*r);
        *r = NULL;
        return st;
    }
    row->n = n;
    return FGM_OK;
}

/* Most labels of one solver run together (one per backend, and then
 * some: a label may repeat). */
#define GROUP_MAX 8

/* Fills the NG rows of solvers FIRST .. FIRST + NG - 1 (one solver, its
 * labels adjacent) on every puzzle of CP, whose clues CLUES holds as
 * CSP's variables (csp->nvars per puzzle): puzzle by puzzle, each label
 * in turn, in reverse order every other puzzle.  SCRATCH holds
 * max(cp->count, o->repeat) doubles, SOL csp->nvars ints. */
static fgm_status
run_group(runstate *rs, int c, int first, int ng, const corpus *cp,
          const fgm_csp *csp, const int *clues, int *sol, double *scratch)
{
    const fgm_bench_opts *o = rs->o;
    fgm_runner *r[GROUP_MAX] = { NULL };
    fgm_solve_opts so[GROUP_MAX];
    fgm_bench_row *row;
    fgm_status st = FGM_OK;
    int t, k, i;

    for (k = 0; k < ng && st == FGM_OK; k++)
        st = row_begin(rs, csp, rs->solvers[first + k],
                       rs->backends[first + k], cp->count, &so[k],
                       &rs->b->rows[c * o->nsolvers + first + k], &r[k]);
    for (i = 0; i < cp->count && st == FGM_OK; i++)
        for (t = 0; t < ng && st == FGM_OK; t++) {
            k = i % 2 ? ng - 1 - t : t;
            row = &rs->b->rows[c * o->nsolvers + first + k];
            if (!r[k])
                continue;
            progress(rs, row, i + 1, cp->count);
            st = run_puzzle(rs, r[k], clues, csp->nvars, i, sol, scratch,
                            &row->samples[i]);
            if (st != FGM_OK)
                fgm_diagf(o->diag, o->diag_ctx,
                          "%s: puzzle %d: solver %s: error: %s", row->corpus,
                          i, row->solver, fgm_strerror(st));
        }
    for (k = 0; k < ng; k++) {
        row = &rs->b->rows[c * o->nsolvers + first + k];
        if (st == FGM_OK && r[k])
            fgm_bench_row_stats(row, scratch);
        fgm_runner_free(r[k]);
    }
    return st;
}

/* The model one kind of solver (exact or probabilistic) runs a corpus
 * on, made before any run when some solver of that kind is listed (IR
 * set). */
typedef struct corpus_model {
    fgm_ir *ir;
    fgm_csp *csp;             /* NULL when refused */
    const char *refused;      /* fgm_csp_new's reason, or NULL */
    int *given;               /* the clues, csp->nvars per puzzle, when the
                               * model has variables past the grid (free,
                               * as in fgm_puzzle_clues); else NULL */
    int *sol;                 /* csp->nvars ints */
} corpus_model;

/* Makes M for corpus C (read into CP) and solvers of kind EXACT: the
 * hook's model (fgm_bench_opts.model) or the built-in one.  Returns
 * FGM_OK (M->refused set if the exact engine cannot take the model) or
 * an error after reporting it. */
static fgm_status
model_make(const runstate *rs, const corpus *cp, int c, int exact,
           corpus_model *m)
{
    const fgm_bench_opts *o = rs->o;
    const char *path = o->corpora[c];
    fgm_status st = FGM_OK;

    if (o->model) {
        st = o->model(o->model_ctx, path, cp->n, cp->box, exact, &m->ir);
        if (st != FGM_OK) {
            fgm_ir_free(m->ir);     /* ours even then (fgm.h) */
            m->ir = NULL;
            return st;
        }
    }
    if (!m->ir)
        m->ir = cp->box ? fgm_ir_sudoku(cp->box) : fgm_ir_latin(cp->n);
    m->csp = m->ir ? fgm_csp_new(m->ir, &st) : NULL;
    if (!m->ir || (!m->csp && st == FGM_ENOMEM)) {
        fgm_diagf(o->diag, o->diag_ctx, "%s: error: %s", path,
                  fgm_strerror(FGM_ENOMEM));
        return FGM_ENOMEM;
    }
    if (!m->csp) {
        m->refused = fgm_strerror(st);
        return FGM_OK;
    }
    if (m->csp->nvars < cp->nvars) {
        /* Only a hook's model can differ: the built-in one is made for
         * the puzzles' size.  One with more variables than the grid's
         * cells leaves the others free, as `fgm solve` does. */
        fgm_diagf(o->diag, o->diag_ctx, "%s: error: the model has %d "
                  "variables, the puzzles %d cells", path, m->csp->nvars,
                  cp->nvars);
        return FGM_EINVAL;
    }
    m->sol = malloc((size_t)m->csp->nvars * sizeof *m->sol);
    if (m->sol && m->csp->nvars > cp->nvars) {
        size_t nv = (size_t)m->csp->nvars, i, v;

        m->given = malloc((size_t)cp->count * nv * sizeof *m->given);
        for (i = 0; m->given && i < (size_t)cp->count; i++)
            for (v = 0; v < nv; v++)
                m->given[i * nv + v] = v < (size_t)cp->nvars
                                       ? cp->given[i * cp->nvars + v] : -1;
    }
    if (!m->sol || (m->csp->nvars > cp->nvars && !m->given)) {
        fgm_diagf(o->diag, o->diag_ctx, "%s: error: %s", path,
                  fgm_strerror(FGM_ENOMEM));
        return FGM_ENOMEM;
    }
    return FGM_OK;
}

/* Makes the models the solvers of corpus C (read into CP) run on:
 * MODELS[0] for the probabilistic ones, [1] for the exact ones, each only
 * if some solver needs it.  Returns FGM_OK or an error after reporting
 * it. */
static fgm_status
models_make(const runstate *rs, const corpus *cp, int c,
            corpus_model models[2])
{
    fgm_status st = FGM_OK;
    int s, k;

    for (s = 0; s < rs->o->nsolvers && st == FGM_OK; s++) {
        k = (rs->solvers[s]->flags & FGM_SOLVER_EXACT) != 0;
        if (!models[k].ir)
            st = model_make(rs, cp, c, k, &models[k]);
    }
    return st;
}

static void
models_free(corpus_model models[2])
{
    int k;

    for (k = 0; k < 2; k++) {
        fgm_csp_free(models[k].csp);
        fgm_ir_free(models[k].ir);
        free(models[k].given);
        free(models[k].sol);
    }
}

/* Fills the rows of corpus C (read into CP, its models made). */
static fgm_status
run_corpus(runstate *rs, int c, const corpus *cp,
           const corpus_model models[2])
{
    const fgm_bench_opts *o = rs->o;
    double *scratch;
    fgm_status st = FGM_OK;
    int s, ng, k;

    scratch = malloc((size_t)(cp->count > o->repeat ? cp->count : o->repeat)
                     * sizeof *scratch);
    if (!scratch) {
        fgm_diagf(o->diag, o->diag_ctx, "%s: error: %s", o->corpora[c],
                  fgm_strerror(FGM_ENOMEM));
        return FGM_ENOMEM;
    }
    for (s = 0; s < o->nsolvers && st == FGM_OK; s += ng) {
        const corpus_model *m = &models[(rs->solvers[s]->flags
                                         & FGM_SOLVER_EXACT) != 0];

        /* The labels of this solver that follow this one. */
        for (ng = 1; s + ng < o->nsolvers && ng < GROUP_MAX
                     && rs->solvers[s + ng] == rs->solvers[s]; ng++)
            ;
        if (m->refused) {
            for (k = 0; k < ng; k++)
                rs->b->rows[c * o->nsolvers + s + k].unsupported =
                    m->refused;
        } else {
            st = run_group(rs, c, s, ng, cp, m->csp,
                           m->given ? m->given : cp->given, m->sol,
                           scratch);
        }
    }
    free(scratch);
    return st;
}

int
fgm_bench_backend_find(const char *name)
{
    static const char *const names[] = { "auto", "compiled", "interpreted" };
    int k;

    for (k = 0; name && k < 3; k++)
        if (strcmp(name, names[k]) == 0)
            return k;
    return -1;
}

/* Whether one of the N strings of V is NULL. */
static int
has_null(const char *const *v, int n)
{
    int i;

    for (i = 0; i < n; i++)
        if (!v[i])
            return 1;
    return 0;
}

/* Looks up every solver label, "name" or "name@backend" (auto, compiled,
 * interpreted); reports the unknown ones. */
static fgm_status
find_solvers(const fgm_bench_opts *o, const fgm_solver **out,
             fgm_backend *backends)
{
    fgm_status st = FGM_OK;
    char base[128];
    const char *at;
    int s, k;

    for (s = 0; s < o->nsolvers; s++) {
        at = strchr(o->solvers[s], '@');
        snprintf(base, sizeof base, "%.*s",
                 at ? (int)(at - o->solvers[s]) : 127, o->solvers[s]);
        backends[s] = FGM_BACKEND_AUTO;
        if (at) {
            k = fgm_bench_backend_find(at + 1);
            if (k < 0) {
                fgm_diagf(o->diag, o->diag_ctx, "error: unknown backend "
                          "'%s' (auto, compiled, interpreted)", at + 1);
                st = FGM_EINVAL;
                continue;
            }
            backends[s] = (fgm_backend)k;
        }
        out[s] = fgm_solver_find(base);
        if (!out[s]) {
            fgm_diagf(o->diag, o->diag_ctx,
                      "error: unknown solver '%s' (fgm list shows them)",
                      base);
            st = FGM_EINVAL;
        }
    }
    return st;
}

fgm_status
fgm_bench_run(const fgm_bench_opts *o, fgm_bench **out)
{
    corpus_model (*models)[2] = NULL;
    corpus *cps = NULL;
    runstate rs;
    fgm_status st;
    int c;

    if (out)
        *out = NULL;
    if (!o || !out)
        return FGM_EINVAL;
    if (o->nsolvers < 1 || o->ncorpora < 1 || o->repeat < 1
        || !o->solvers || !o->corpora) {
        fgm_diagf(o->diag, o->diag_ctx, "error: bench needs at least one "
                  "solver, one corpus and a repeat count of 1 or more");
        return FGM_EINVAL;
    }
    if (has_null(o->solvers, o->nsolvers)
        || has_null(o->corpora, o->ncorpora)) {
        fgm_diagf(o->diag, o->diag_ctx, "error: a solver or corpus name "
                  "is NULL");
        return FGM_EINVAL;
    }
    if (isnan(o->timeout_ms) || isnan(o->fast_ms)) {
        fgm_diagf(o->diag, o->diag_ctx, "error: a NaN timeout or fast "
                  "threshold");
        return FGM_EINVAL;
    }
    if (!fgm_puzzle_shape_ok(o->grid_n, o->grid_box)) {
        /* The options' fault, not the corpora's (the reader's refusal
         * came back as FGM_EIO, an unreadable corpus). */
        fgm_diagf(o->diag, o->diag_ctx, "error: no puzzle grid of side %d "
                  "with boxes of side %d (sides up to %d)", o->grid_n,
                  o->grid_box, FGM_PUZZLE_MAXN);
        return FGM_EINVAL;
    }
    memset(&rs, 0, sizeof rs);
    rs.o = o;
    rs.last = fgm_now();
    fgm_diag_once_init(&rs.once, o->solve_opts ? o->solve_opts->diag : NULL,
                       o->solve_opts ? o->solve_opts->diag_ctx : NULL);
    rs.solvers = calloc((size_t)o->nsolvers, sizeof *rs.solvers);
    rs.backends = calloc((size_t)o->nsolvers, sizeof *rs.backends);
    st = rs.solvers && rs.backends
         ? find_solvers(o, rs.solvers, rs.backends) : FGM_ENOMEM;
    if (st == FGM_OK) {
        rs.b = bench_new(o, rs.solvers);
        if (!rs.b)
            st = FGM_ENOMEM;
    }
    if (st == FGM_ENOMEM)
        fgm_diagf(o->diag, o->diag_ctx, "error: %s", fgm_strerror(st));
    /* Every corpus is read, and its models made, before any runs: a
     * corpus that cannot be read or a model that does not fit it ends the
     * bench at once, not after minutes of work on the others. */
    if (st == FGM_OK) {
        cps = calloc((size_t)o->ncorpora, sizeof *cps);
        models = calloc((size_t)o->ncorpora, sizeof *models);
        if (!cps || !models) {
            st = FGM_ENOMEM;
            fgm_diagf(o->diag, o->diag_ctx, "error: %s", fgm_strerror(st));
        }
    }
    for (c = 0; st == FGM_OK && c < o->ncorpora; c++)
        st = corpus_load(&cps[c], o->corpora[c], o);
    for (c = 0; st == FGM_OK && c < o->ncorpora; c++)
        st = models_make(&rs, &cps[c], c, models[c]);
    for (c = 0; st == FGM_OK && c < o->ncorpora; c++)
        st = run_corpus(&rs, c, &cps[c], models[c]);
    if (rs.sent)
        o->progress(o->progress_ctx, NULL);
    for (c = 0; cps && models && c < o->ncorpora; c++) {
        free(cps[c].given);
        models_free(models[c]);
    }
    free(cps);
    free(models);
    free(rs.solvers);
    free(rs.backends);
    fgm_diag_once_free(&rs.once);
    if (st != FGM_OK) {
        fgm_bench_free(rs.b);
        return st;
    }
    *out = rs.b;
    return FGM_OK;
}
