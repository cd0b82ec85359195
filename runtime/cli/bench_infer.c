/* runtime/cli/bench_infer.c: `fgm bench --model MODEL`: its inference timed.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `fgm run` runs (the model's inference block, on its evidence and
 * each observation set of --observe), timed on every backend of
 * --backends (compiled and interpreted by default): a set runs at least
 * --repeat times (3) and for SET_BUDGET_MS, once past 250 ms as the
 * seeds' protocol says, and its time is the median run; the table gives
 * the median and IQR over the sets (over the runs, with one set).  The
 * backends' marginals and pseudo-counts are compared set by set: the
 * plugin and the interpreter must give the same numbers, and the largest
 * difference is printed next to the ratio of their times.  The backend
 * "exact" runs variable elimination (fgm_eliminate), or enumeration
 * where it declines, on the same sets:
 * its time, and how far each engine backend's marginals are from the
 * exact ones (BP's error on a loopy model: reported, not a failure).
 */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* A set runs at least --repeat times and until its runs took
 * SET_BUDGET_MS, but at most MAX_RUNS times, and once past 250 ms (the
 * seeds' protocol): three runs of an inference of microseconds made
 * ratios that swung from 2.8x to 7.4x between invocations. */
#define SET_BUDGET_MS 100.0
#define MAX_RUNS 1000

/* One backend: its model, its walk over the observation sets, its times
 * (a median run per set) and its last marginals. */
typedef struct backend_run {
    const char *name;
    fgm_model *fm;
    int compiled;           /* it runs a plugin */
    obs_file walk;          /* with --observe */
    obs_sink sink;
    double *ms;             /* nsets */
    double *marg;           /* nvars x stride, then ndirichlet x stride:
                             * the last run's marginals and posterior
                             * pseudo-counts, zero past each one's size */
    double runs[MAX_RUNS];  /* the times of the current set's runs */
    int nruns;
    long total_runs;
    int sweeps;             /* of the first set's runs */
    double open_ms;         /* fgm_model_open_ir */
    int rebuilt;            /* it built its plugin */
    fgm_csp *csp;           /* "exact": the model for fgm_eliminate */
    fgm_csp *set_csp;       /* "exact": the set's, when it has weights */
    double *exact;          /* "exact": nvars x the csp's largest card */
    double log_z;           /* the last run's log Z, or its estimate
                             * (fgm_model_log_evidence); NaN: none */
} backend_run;

/* The variables and Dirichlet nodes of IR: the rows of a table of
 * marginals and posterior pseudo-counts. */
static size_t
items(const fgm_ir *ir)
{
    return (size_t)fgm_ir_nvars(ir) + (size_t)fgm_ir_ndirichlet(ir);
}

/* Opens B's model (a copy of IR) on its backend, with what its sets
 * need (OF: the observation file, or none).  Returns CLI_OK or the exit
 * code after saying why not. */
static int
open_backend(backend_run *b, const fgm_ir *ir, int stride, const obs_file *of,
             long nsets)
{
    int nvars = fgm_ir_nvars(ir), v;
    fgm_model_opts mo;
    fgm_ir *copy = fgm_ir_copy(ir);

    double t0;

    memset(&mo, 0, sizeof mo);
    mo.backend = (fgm_backend)fgm_bench_backend_find(b->name);
    b->ms = calloc((size_t)nsets, sizeof *b->ms);
    b->marg = calloc(items(ir) * (size_t)stride, sizeof *b->marg);
    b->sink.vec = malloc((size_t)stride * sizeof *b->sink.vec);
    b->sink.given = malloc(((size_t)nvars + 1) * sizeof *b->sink.given);
    if (!copy || !b->ms || !b->marg || !b->sink.vec || !b->sink.given) {
        fgm_ir_free(copy);
        return cli_fail(CLI_EINTERNAL, "bench: out of memory");
    }
    for (v = 0; v < nvars; v++)
        b->sink.given[v] = -1;
    if (strcmp(b->name, "exact") == 0) {
        fgm_status st;

        fgm_ir_free(copy);
        b->csp = fgm_csp_new(ir, &st);
        b->exact = b->csp ? malloc(((size_t)nvars + 1)
                                   * (size_t)fgm_csp_maxcard(b->csp)
                                   * sizeof *b->exact)
                          : NULL;
        if (!b->exact)
            return cli_fail(cli_exit_code(st), "bench: %s",
                            fgm_strerror(b->csp ? FGM_ENOMEM : st));
        b->sink.exact = 1;
        return of->text ? obs_file_walk(of, &b->walk) : CLI_OK;
    }
    t0 = fgm_now();
    if (fgm_model_open_ir(copy, &mo, &b->fm, cli_diag, NULL) != FGM_OK)
        return CLI_EINPUT;      /* the sink has said why */
    b->open_ms = (fgm_now() - t0) * 1e3;
    b->compiled = fgm_model_is_compiled(b->fm);
    fgm_model_plugin_info(b->fm, &b->rebuilt, NULL);
    b->sink.model = b->fm;
    return of->text ? obs_file_walk(of, &b->walk) : CLI_OK;
}

static void
close_backend(backend_run *b)
{
    fgm_model_free(b->fm);
    fgm_csp_free(b->csp);
    fgm_csp_free(b->set_csp);
    fgm_ir_free(b->sink.soft);
    free(b->exact);
    obs_file_stop(&b->walk);
    free(b->ms);
    free(b->marg);
    free(b->sink.vec);
    free(b->sink.given);
}

/* One run of B on the set observed, set K: its time into *MS.  The
 * exact backend's marginals are left in B->exact.  Returns CLI_OK or
 * the exit code after saying why not. */
static int
run_once(backend_run *b, const fgm_ir *ir, long k, double *ms,
         fgm_run_info *info)
{
    fgm_run_opts ro;
    fgm_status st;
    fgm_elim_info elim;
    double t0, shift;
    int max = cli_algo_is(ir, "bp-max");
    const fgm_csp *csp = b->set_csp ? b->set_csp : b->csp;

    memset(&ro, 0, sizeof ro);
    memset(info, 0, sizeof *info);
    if (!b->csp) {
        if (fgm_model_run(b->fm, &ro, info) != FGM_OK)
            return cli_fail(CLI_EINTERNAL, "bench: the %s run failed",
                            b->name);
        *ms = info->ms;
        return CLI_OK;
    }
    t0 = fgm_now();
    st = fgm_eliminate(csp, b->sink.given, 0, 0, max, b->exact, &elim);
    /* With MAX, the largest weight's log (enumeration's max has none). */
    b->log_z = st == FGM_OK ? elim.log_z : NAN;
    /* Where elimination declines, enumeration (as `fgm run` does), to
     * its default cap of assignments; the time counts both. */
    if (st == FGM_EUNSUPPORTED)
        st = max ? fgm_enumerate_max(csp, b->sink.given, CLI_ENUM_CAP, 0.0,
                                     b->exact, NULL)
                 : fgm_enumerate_log_z(csp, b->sink.given, CLI_ENUM_CAP, 0.0,
                                       b->exact, NULL, 0, NULL, &b->log_z);
    *ms = (fgm_now() - t0) * 1e3;
    if (st == FGM_EUNSUPPORTED || st == FGM_ETIMEOUT)
        return cli_fail(CLI_EINPUT, "bench: backend exact: the model is out "
                        "of variable elimination's reach (" CLI_ELIM_BOUND
                        ") and of enumeration's (more than %ld "
                        "assignments)", CLI_ELIM_BOUND_ARGS, CLI_ENUM_CAP);
    if (st == FGM_EUNSOLVED)
        return cli_fail(CLI_EINPUT, "bench: backend exact: observation "
                        "set %ld has no consistent assignment", k);
    if (st != FGM_OK)
        return cli_fail(cli_exit_code(st), "bench: %s", fgm_strerror(st));
    /* A clue on an observed prior is a point mass there (cmd_run.c's
     * run_exact). */
    shift = fgm_csp_point_mass_shift(csp, b->sink.given);
    if (isnan(shift))
        return cli_fail(CLI_EINTERNAL, "bench: out of memory");
    b->log_z += shift;
    return CLI_OK;
}

/* B's marginals (and pseudo-counts) of its last run into B->marg, and
 * an engine's estimate of log Z into B->log_z (not timed). */
static void
keep_marginals(backend_run *b, const fgm_ir *ir, int stride)
{
    int v, i, mc = b->csp ? fgm_csp_maxcard(b->csp) : 0;

    if (!b->csp && fgm_model_log_evidence(b->fm, &b->log_z) != FGM_OK)
        b->log_z = NAN;

    for (v = 0; v < fgm_ir_nvars(ir); v++)
        if (b->csp)
            for (i = 0; i < fgm_ir_card(ir, v); i++)
                b->marg[(size_t)v * (size_t)stride + (size_t)i]
                    = b->exact[(size_t)v * (size_t)mc + (size_t)i];
        else
            fgm_model_marginal(b->fm, v,
                               b->marg + (size_t)v * (size_t)stride);
    for (v = 0; !b->csp && v < fgm_ir_ndirichlet(ir); v++)
        fgm_model_dirichlet(b->fm, v, b->marg + ((size_t)fgm_ir_nvars(ir)
                                                 + (size_t)v)
                                                * (size_t)stride);
}

/* Runs set K (the next of B's walk, or the model alone) on B as the
 * protocol says (SET_BUDGET_MS; at least REPEAT runs), the first set
 * after a run not timed (the first touch of the model's state); its
 * median run into B->ms[K], its runs into B->runs, its marginals and
 * pseudo-counts into B->marg.  Returns CLI_OK or the exit code. */
static int
time_set(backend_run *b, const fgm_ir *ir, int stride, long k, int repeat)
{
    double spent = 0.0, sorted[MAX_RUNS], ms;
    fgm_run_info info;
    int r, n;

    if (b->walk.text && (r = obs_file_next(&b->walk, ir, &b->sink)) <= 0)
        return r < 0 ? b->walk.code
                     : cli_fail(CLI_EINTERNAL, "bench: the sets ran out");
    fgm_csp_free(b->set_csp);
    b->set_csp = NULL;
    if (b->sink.soft) {
        /* Weights: the exact backend's model with them, made before the
         * clock starts (the engines' setting of them is not timed
         * either). */
        fgm_status st;

        if (!(b->set_csp = fgm_csp_new(b->sink.soft, &st)))
            return cli_fail(cli_exit_code(st), "bench: %s",
                            fgm_strerror(st));
    }
    if (k == 0 && (r = run_once(b, ir, k, &ms, &info)) != CLI_OK)
        return r;
    for (n = 0; n < MAX_RUNS;) {
        if ((r = run_once(b, ir, k, &ms, &info)) != CLI_OK)
            return r;
        b->runs[n++] = ms;
        spent += ms;
        if (n == 1 && ms >= 250.0)
            break;              /* the protocol: long runs once */
        if (n >= repeat && spent >= SET_BUDGET_MS)
            break;
    }
    b->nruns = n;
    b->total_runs += b->nruns;
    if (k == 0)
        b->sweeps = info.sweeps;
    memcpy(sorted, b->runs, (size_t)b->nruns * sizeof *sorted);
    gsl_sort(sorted, 1, (size_t)b->nruns);
    b->ms[k] = gsl_stats_median_from_sorted_data(sorted, 1,
                                                 (size_t)b->nruns);
    keep_marginals(b, ir, stride);
    return CLI_OK;
}

/* The largest domain of IR's arrays (a Dirichlet's size included): the
 * stride of a table of marginals. */
static int
max_card(const fgm_ir *ir)
{
    fgm_array_info ai;
    int i, k = 1;

    for (i = 0; fgm_ir_array_info(ir, i, &ai) == FGM_OK; i++)
        if (ai.card > k)
            k = ai.card;
    return k;
}

/* Median of X[0..N-1] (sorted in place), and its quartiles. */
static double
quartiles(double *x, long n, double *p25, double *p75)
{
    gsl_sort(x, 1, (size_t)n);
    *p25 = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.25);
    *p75 = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.75);
    return gsl_stats_median_from_sorted_data(x, 1, (size_t)n);
}

/* Prints the table of the NB backends B over NSETS sets, and the ratio
 * of each to the first, with DIFF[i], the largest difference of backend
 * i's results from backend REF[i]'s.  With one set, the IQR is over its
 * runs.  Returns 0 when out of memory. */
static int
report(const bench_infer_opts *o, const fgm_ir *ir, const backend_run *b,
       int nb, long nsets, const double *diff, const int *ref,
       const double *zdiff)
{
    long nx = nsets > MAX_RUNS ? nsets : MAX_RUNS, k;
    double *x = malloc((size_t)nx * sizeof *x), p25, p75, med, t0, t;
    int i;

    if (!x)
        return 0;
    printf("# %s: %s, %d variables; %ld observation set%s%s; a set run "
           "at least %d times and for %.0f ms (once past 250 ms), its time "
           "the median run; median and IQR over %s\n", o->label,
           fgm_ir_algo(ir), fgm_ir_nvars(ir), nsets, nsets == 1 ? "" : "s",
           o->observe ? "" : " (the model's own evidence)", o->repeat,
           SET_BUDGET_MS, nsets == 1 ? "its runs" : "the sets");
    printf("%-20s %6s %6s %10s %18s %10s %6s\n", "backend", "sets",
           "sweeps", "median ms", "IQR ms (p25-p75)", "mean ms", "runs");
    for (i = 0; i < nb; i++) {
        char iqr[64], name[32];
        long n = nsets == 1 ? b[i].nruns : nsets;

        /* auto says where it ran. */
        snprintf(name, sizeof name, "%s%s", b[i].name,
                 strcmp(b[i].name, "auto") != 0 ? ""
                 : b[i].compiled ? " (compiled)" : " (interpreted)");
        memcpy(x, nsets == 1 ? b[i].runs : b[i].ms, (size_t)n * sizeof *x);
        med = quartiles(x, n, &p25, &p75);
        snprintf(iqr, sizeof iqr, "%.4g-%.4g", p25, p75);
        printf("%-20s %6ld %6d %10.4g %18s %10.4g %6ld\n", name, nsets,
               b[i].sweeps, nsets == 1 ? b[i].ms[0] : med, iqr,
               gsl_stats_mean(x, 1, (size_t)n), b[i].total_runs);
    }
    memcpy(x, b[0].ms, (size_t)nsets * sizeof *x);
    t0 = quartiles(x, nsets, &p25, &p75);
    for (i = 1; i < nb; i++) {
        memcpy(x, b[i].ms, (size_t)nsets * sizeof *x);
        t = quartiles(x, nsets, &p25, &p75);
        printf("# backends: %s / %s: ratio of the medians %.3gx", b[i].name,
               b[0].name, t / t0);
        if (nsets > 1) {
            for (k = 0; k < nsets; k++)
                x[k] = b[i].ms[k] / b[0].ms[k];
            med = quartiles(x, nsets, &p25, &p75);
            printf(", median ratio per set %.3gx (IQR %.3g-%.3gx)", med, p25,
                   p75);
        }
        if (b[i].csp || b[ref[i]].csp)
            printf("; largest difference of the marginals from exact "
                   "%.3g\n", diff[i]);
        else if (ref[i] != 0)
            printf("; largest difference of the marginals and "
                   "pseudo-counts from %s %.3g\n", b[ref[i]].name, diff[i]);
        else
            printf("; largest difference of the marginals and "
                   "pseudo-counts %.3g\n", diff[i]);
        if (!isnan(zdiff[i]))
            printf("# %s: %s against %s: largest difference %.3g\n",
                   cli_algo_is(ir, "bp-max") ? "log max weight"
                   : cli_algo_is(ir, "vmp")
                       ? "log Z (vmp: its lower bound)" : "log Z",
                   b[i].name, b[ref[i]].name, zdiff[i]);
    }
    free(x);
    return 1;
}

/* The plugin line: the front end's time (PARSE_MS), what the first
 * compiled backend of B took to get its plugin, and the time to load an
 * up-to-date one (a second open of IR). */
static void
plugin_line(const bench_infer_opts *o, const fgm_ir *ir,
            const backend_run *b, int nb, double parse_ms)
{
    fgm_model_opts mo;
    fgm_model *fm;
    double t0;
    int i;

    for (i = 0; i < nb && !b[i].compiled; i++)
        ;
    if (i == nb)
        return;
    printf("plugin for %s: parse %.2f ms; ", o->label, parse_ms);
    if (b[i].rebuilt)
        printf("generate + compile + load %.0f ms (built by this run); ",
               b[i].open_ms);
    else
        printf("up to date when opened; ");
    memset(&mo, 0, sizeof mo);
    mo.backend = FGM_BACKEND_COMPILED;
    t0 = fgm_now();
    if (fgm_model_open_ir(fgm_ir_copy(ir), &mo, &fm, NULL, NULL) == FGM_OK) {
        printf("load an up-to-date plugin %.2f ms\n", (fgm_now() - t0) * 1e3);
        fgm_model_free(fm);
    } else {
        printf("it could not be opened again\n");
    }
}

int
bench_inference(const bench_infer_opts *o)
{
    static const char *const both[] = { "compiled", "interpreted" };
    const char *const *names = o->nbackends ? o->backends : both;
    int nb = o->nbackends ? o->nbackends : 2, n, box, code, i, j, stride;
    int exact = 0;
    backend_run *b = calloc(4, sizeof *b);
    double diff[4] = { 0.0, 0.0, 0.0, 0.0 }, d, worst = 0.0;
    double zdiff[4] = { NAN, NAN, NAN, NAN };   /* NaN: no log Z */
    int ref[4] = { 0, 0, 0, 0 };    /* the backend each is compared with */
    double t0 = fgm_now(), parse_ms;
    long nsets = 1, k;
    size_t e, nm, nv;
    obs_file of;
    fgm_ir *ir;

    memset(&of, 0, sizeof of);
    if (!b)
        return cli_fail(CLI_EINTERNAL, "bench: out of memory");
    ir = cli_model_open("bench", o->spec, o->defs, o->ndefs, &n, &box,
                        &code);
    parse_ms = (fgm_now() - t0) * 1e3;
    if (!ir) {
        free(b);
        return code;
    }
    code = CLI_OK;
    /* Each backend's results are compared with the first's, but with
     * exact first, an engine backend after the first engine backend is
     * compared with that one: the plugin and the interpreter are always
     * held to the same numbers. */
    for (i = 0, j = -1; i < nb; i++) {
        int engine = strcmp(names[i], "exact") != 0;

        exact |= !engine;
        ref[i] = engine && j >= 0 && !strcmp(names[0], "exact") ? j : 0;
        if (engine && j < 0)
            j = i;
    }
    if (o->observe) {
        /* With exact, what it cannot take (pseudo-counts) is refused
         * before anything runs. */
        if ((code = obs_file_open(&of, "bench", o->observe, ir, o->spec, n,
                                  box, exact)) != CLI_OK)
            goto done;
        nsets = of.nsets;
    }
    stride = max_card(ir);
    nm = items(ir) * (size_t)stride;
    nv = (size_t)fgm_ir_nvars(ir) * (size_t)stride;
    /* Every model is opened (its plugin built) before any is timed. */
    for (i = 0; i < nb && code == CLI_OK; i++) {
        b[i].name = names[i];
        code = open_backend(&b[i], ir, stride, &of, nsets);
    }
    /* Set by set, the backends' order turned each set, so that a shared
     * machine whose speed changes for seconds at a time slows them
     * alike (as `bench --backends` runs its rows).  Each backend's
     * results against the first's, relative past 1 (pseudo-counts). */
    for (k = 0; k < nsets && code == CLI_OK; k++) {
        for (j = 0; j < nb && code == CLI_OK; j++)
            code = time_set(&b[(j + k) % nb], ir, stride, k, o->repeat);
        for (i = 1; i < nb && code == CLI_OK; i++) {
            /* Against exact: the marginals only (it gives no
             * pseudo-counts), and an approximation's error, no bug. */
            int r = ref[i], vs_exact = b[i].csp || b[r].csp;

            for (e = 0; e < (vs_exact ? nv : nm); e++) {
                d = fabs(b[i].marg[e] - b[r].marg[e])
                    / fmax(1.0, fabs(b[r].marg[e]));
                if (!(d <= diff[i]))
                    diff[i] = d;    /* NaN included */
                if (!vs_exact && !(d <= worst))
                    worst = d;
            }
            /* log Z (bp-max: the largest weight's log) where both have
             * one (-inf alike is no difference; enumeration's max has
             * none): a log already, so the difference is the log of
             * their ratio. */
            if (isnan(b[i].log_z) || isnan(b[r].log_z))
                continue;
            d = b[i].log_z == b[r].log_z ? 0.0
                : fabs(b[i].log_z - b[r].log_z);
            if (!(d <= zdiff[i]))   /* NaN: the first set */
                zdiff[i] = d;
            if (!vs_exact && !(d <= worst))
                worst = d;
        }
    }
    if (code != CLI_OK)
        goto done;
    if (!report(o, ir, b, nb, nsets, diff, ref, zdiff))
        code = cli_fail(CLI_EINTERNAL, "bench: out of memory");
    else if (!(worst <= 1e-12))
        code = cli_fail(CLI_EINTERNAL, "bench: the backends' results "
                        "differ by %.3g (at most 1e-12 expected): a bug in "
                        "fgm", worst);
    else
        plugin_line(o, ir, b, nb, parse_ms);
done:
    for (i = 0; i < nb; i++)
        close_backend(&b[i]);
    free(b);
    obs_file_close(&of);
    fgm_ir_free(ir);
    return code;
}
