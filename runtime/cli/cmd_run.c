/* runtime/cli/cmd_run.c: `fgm run`: per-variable marginals of a model.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * --backend auto|compiled|interpreted runs the model's inference block
 * (EP or BP) on the engine; --backend exact computes exact marginals, by
 * Dancing Links over all solutions on unweighted exact-cover models
 * (Sudoku, Latin squares), else by variable elimination where its
 * cliques are small, else by enumeration (--exact-method picks one;
 * --map, the most probable assignment, by elimination or by enumeration
 * with branch and bound): the oracle
 * approximate inference is checked against.  A count stopped by --cap or
 * --timeout-ms is reported as incomplete rather than passed off as exact,
 * and so is an engine run stopped by --timeout-ms (the marginals of its
 * last sweep); elimination stopped by --timeout-ms has no answer at all,
 * and the set is refused.
 *
 * Observations (--observe FILE, "-" for stdin) are either puzzles, one
 * observation set per puzzle, set on the model's first 2-D array (as a
 * point-mass prior where the cell has a Dirichlet prior, as the seed does,
 * else as an observed value), or sets of assignment lines, read by
 * run_observe.c.  -j N runs the sets on N threads (run_all), each set's
 * output and messages kept in memory until the sets before it are
 * printed (a thread runs at most 16 sets a thread ahead of them): what
 * -j 1 prints, in the same order.
 *
 * This file holds the options and the engine's runs; run_exact.c the
 * exact backend's, run_print.c the output, run_show.c --show.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"

/* Why CFG's run options cannot go with IR's algorithm (a sampler, mean
 * field or message passing), or NULL.  SEED_SET: --seed was given. */
static const char *
unused_setting(const run_cfg *cfg, const fgm_ir *ir, int seed_set)
{
    int gibbs = cli_algo_is(ir, "gibbs"), vmp = cli_algo_is(ir, "vmp");

    if (vmp && cfg->ro.use_damping && cfg->ro.damping > 0.0)
        return "--damping: vmp is coordinate ascent on a bound, each update "
               "the best one given the others: damping would lose that";
    if (!vmp && cfg->ro.restarts)
        return "--restarts runs vmp from random starts, keeping the best "
               "bound (--algo vmp)";
    if (vmp && seed_set && !cfg->ro.restarts)
        return "--seed seeds vmp's random starts: give --restarts K too";
    if (vmp)
        return NULL;
    if (gibbs && cfg->ro.use_damping)
        return "--damping: gibbs draws values, it has no messages to damp";
    if (gibbs && cfg->ro.use_tolerance && cfg->ro.tolerance > 0.0)
        return "--tolerance: gibbs has no fixed point to stop at, it runs "
               "every sweep (--chains gives its standard errors)";
    if (!gibbs && seed_set)
        return "--seed seeds the gibbs sampler; this run draws nothing "
               "(--algo gibbs samples)";
    if (!gibbs && cfg->ro.chains)
        return "--chains runs the gibbs sampler's chains; this run draws "
               "nothing (--algo gibbs samples)";
    return NULL;
}

static int
usage(void)
{
    fprintf(stderr, "usage: fgm run MODEL [--backend auto|compiled|"
            "interpreted|exact] [--algo A]\n"
            "               [--observe FILE|-] [--iters N] [--damping D] "
            "[--tolerance T]\n"
            "               [--format text|csv|json] [--show A1,A2] "
            "[--out-dir DIR]\n"
            "               [--exact-method auto|elimination|enumeration] "
            "[--map] [--cap N]\n"
            "               [--seed N] [--chains K] [--restarts K] "
            "[--timeout-ms T]\n"
            "               [-j N] [-D NAME=VALUE]...\n");
    return CLI_EUSAGE;
}

/* Says on stderr when the run of observation K left a variable no value
 * (fgm_model_contradiction): its marginal, printed as any other, is no
 * posterior, and the exact backend refuses such observations outright.
 * Returns that variable's name in NAME (SIZE bytes), or NULL. */
static const char *
warn_contradiction(const fgm_model *model, long k, char *name, size_t size,
                   FILE *err)
{
    int v = fgm_model_contradiction(model);

    if (v < 0)
        return NULL;
    fgm_ir_var_name(fgm_model_ir(model), v, name, size);
    fprintf(err, "fgm: run: warning: observation %ld: the run left %s "
            "no value the factors allow, so its marginal is no posterior: "
            "the observations contradict the model, or %s reached a "
            "contradiction of its own (--backend exact tells which on a "
            "small model)%s\n", k, name, fgm_ir_algo(fgm_model_ir(model)),
            !cli_algo_is(fgm_model_ir(model), "vmp") ? ""
            : "; vmp's updates start from q spread over every value and "
              "rule out each value that another variable of a hard "
              "constraint (!=, alldiff, a table's zeros) may still take, "
              "which can leave none (between two free variables of a != "
              "it always does): ep, bp-sum or gibbs runs this model");
    return name;
}

/* Says on stderr when a gibbs run's kept draws were all certain: every
 * marginal M (rows of STRIDE) one value, the mean of conditionals that
 * each held one value, so the chain never moved.  Single-site moves do
 * not leave a state that hard constraints pin so (a Sudoku's or a magic
 * square's solutions differ in many cells at once): other solutions, if
 * any, are not counted, and the marginals say nothing of them.  Not
 * when the set's clues GIVEN (NULL: none) leave no variable of two
 * values or more: nothing was left to move (a die's observed rolls). */
static void
warn_frozen(const fgm_ir *ir, const fgm_run_info *info, const double *m,
            int stride, long k, const int *given, FILE *err)
{
    int v, j, free_var = 0;

    if (info->kept < 2)
        return;
    for (v = 0; v < fgm_ir_nvars(ir); v++) {
        free_var |= fgm_ir_card(ir, v) > 1 && !(given && given[v] >= 0);
        for (j = 0; j < fgm_ir_card(ir, v); j++)
            if (m[(size_t)v * (size_t)stride + (size_t)j] != 0.0
                && m[(size_t)v * (size_t)stride + (size_t)j] != 1.0)
                return;
    }
    if (free_var)
        fprintf(err, "fgm: run: warning: observation %ld: every kept gibbs "
                "draw was certain, so the chain never moved: single-site "
                "moves cannot leave a state that hard constraints pin, and "
                "the marginals are that one state's; other states the "
                "model allows, if any, are not counted (--chains K shows "
                "their spread; --backend exact counts them on a small "
                "model)\n", k);
}

/* The last sweep's largest message change at and above which a run
 * with no --tolerance is said not to have settled: a hundredth of a
 * probability, plain in the printed marginals (m5's EP between two
 * states: 0.495; the shipped models' defaults: 0.0065 at most). */
#define UNSETTLED 0.01

/* Says on stderr when the run of observation K ended with its messages
 * still moving (INFO's change; not for gibbs, whose change is an
 * estimate's, nor a run the deadline cut): past --tolerance, or by
 * UNSETTLED without one.  The header prints the change; this says what
 * it means, as loopy EP and BP may oscillate for ever. */
static void
warn_unsettled(const fgm_ir *ir, const run_cfg *cfg,
               const fgm_run_info *info, long k, FILE *err)
{
    char tol[64] = "";
    int vmp = cli_algo_is(ir, "vmp");

    if (cli_algo_is(ir, "gibbs")
        || (cfg->ro.use_tolerance ? !(info->change > cfg->ro.tolerance)
                                  : !(info->change >= UNSETTLED)))
        return;
    if (cfg->ro.use_tolerance)
        snprintf(tol, sizeof tol, " to --tolerance %g", cfg->ro.tolerance);
    /* vmp climbs its bound, each update the best given the others: it
     * does not oscillate, and takes no damping. */
    fprintf(err, "fgm: run: warning: observation %ld: %s did not settle%s "
            "in %d sweep%s (the last moved a message by %.3g): the "
            "marginals are where the sweeps stopped%s\n", k,
            fgm_ir_algo(ir), tol, info->sweeps, info->sweeps == 1 ? "" : "s",
            info->change, vmp ? " (more --iters may help)"
                          : ", and may oscillate (--damping D or more "
                            "--iters may help)");
}

/* Runs the engine on the current observations and prints observation K;
 * STRIDE is at least every domain and every Dirichlet vector. */
int
run_engine(fgm_model *model, int stride, const run_cfg *cfg, long k,
           run_tally *t)
{
    const fgm_ir *ir = fgm_model_ir(model);
    int nvars = fgm_ir_nvars(ir), nodes = fgm_ir_ndirichlet(ir), v;
    double *m = calloc((size_t)nvars * (size_t)stride + 1, sizeof *m);
    double *post = calloc((size_t)nodes * (size_t)stride + 1, sizeof *post);
    double *se = calloc((size_t)nvars * (size_t)stride + 1, sizeof *se);
    fgm_run_opts ro = cfg->ro;
    fgm_run_info info;
    fgm_status st, ev;
    char text[360], evidence[48], dead[80], chains[64];
    char name[FGM_IR_MAXNAME + 64];
    const char *clash;
    double log_z, top = 0.0;
    int have_se = 0, j;

    if (!m || !post || !se) {
        free(m);
        free(post);
        free(se);
        return cli_fail_to(t->err, CLI_EINTERNAL, "run: out of memory");
    }
    if (cfg->timeout > 0)
        ro.deadline = fgm_now() + cfg->timeout * 1e-3;
    st = fgm_model_run(model, &ro, &info);
    if (st != FGM_OK && st != FGM_ETIMEOUT) {
        free(m);
        free(post);
        free(se);
        return cli_fail_to(t->err, cli_exit_code(st), "run: %s",
                           fgm_strerror(st));
    }
    for (v = 0; v < nvars; v++)
        fgm_model_marginal(model, v, m + (size_t)v * (size_t)stride);
    for (v = 0; v < nodes; v++)
        fgm_model_dirichlet(model, v, post + (size_t)v * (size_t)stride);
    /* Several chains: their estimates' standard errors, the largest in
     * the header. */
    for (v = 0; v < nvars; v++) {
        double *row = se + (size_t)v * (size_t)stride;

        if (fgm_model_marginal_stderr(model, v, row) != FGM_OK)
            break;
        have_se = 1;
        for (j = 0; j < fgm_ir_card(ir, v); j++)
            top = row[j] > top ? row[j] : top;
    }
    if (ro.restarts > 1)    /* vmp: the run kept out of several */
        snprintf(chains, sizeof chains, ", the best bound of %d restart%s",
                 info.chains, info.chains == 1 ? "" : "s");
    else if (have_se)
        snprintf(chains, sizeof chains, ", %d chains, largest standard "
                 "error %.3g", info.chains, top);
    else            /* the deadline left one chain, or none */
        snprintf(chains, sizeof chains, ", %d of %d chains, no standard "
                 "error", info.chains, ro.chains);
    /* bp-max's is the log of the largest weight, as the exact backend
     * names it for such a model; vmp's a lower bound on log Z. */
    if ((ev = fgm_model_log_evidence(model, &log_z)) != FGM_OK)
        log_z = NAN;
    if (ev == FGM_EINTERNAL)    /* a NaN: said, not left out in silence */
        fprintf(t->err, "fgm: run: warning: observation %ld: the run's "
                "log Z came out NaN, so it is not printed (a bug: please "
                "report the model)\n", k);
    snprintf(evidence, sizeof evidence, ", %s %.10g",
             cli_algo_is(ir, "bp-max") ? "log max weight ~"
             : cli_algo_is(ir, "vmp") ? "log Z >=" : "log Z ~", log_z);
    /* A sampler's draws that no value could take: the chain was in a
     * state the constraints rule out. */
    snprintf(dead, sizeof dead, ", %ld draws without weight, %ld sweeps "
             "kept", info.dead, info.kept);
    snprintf(text, sizeof text, "%s %s, %d sweep%s, last change %.3g, "
             "%.3f ms%s%s%s%s", fgm_model_is_compiled(model) ? "compiled"
                                                             : "interpreted",
             fgm_ir_algo(ir), info.sweeps, info.sweeps == 1 ? "" : "s",
             info.change, info.ms, isnan(log_z) ? "" : evidence,
             ro.chains > 1 || ro.restarts > 1 ? chains : "",
             info.dead > 0 ? dead : "",
             st == FGM_ETIMEOUT ? " (incomplete: timeout reached)" : "");
    clash = warn_contradiction(model, k, name, sizeof name, t->err);
    if (!clash && st != FGM_ETIMEOUT)
        warn_unsettled(ir, cfg, &info, k, t->err);
    if (!clash && cli_algo_is(ir, "gibbs") && ro.chains <= 1)
        warn_frozen(ir, &info, m, stride, k, t->given, t->err);
    /* Every value still has mass, yet no assignment has weight: a factor
     * that nothing its variables may take meets (a weighted sum's gaps,
     * `sum(2 * x, 3 * y) == 1`), whose messages are then uniform. */
    if (!clash && log_z == -HUGE_VAL)
        fprintf(t->err, "fgm: run: warning: observation %ld: %s under the "
                "run's messages: no assignment they allow has weight, so the "
                "marginals are no posterior (the observations contradict the "
                "model, or a factor holds for none of its variables' values; "
                "--backend exact tells which on a small model)\n", k,
                cli_algo_is(ir, "bp-max") ? "log max weight = -inf"
                                          : "log Z = -inf");
    run_print_result(ir, cfg, k, m, have_se ? se : NULL, post, stride, NULL,
                     0, text, &info, log_z, st == FGM_ETIMEOUT, clash, t);
    free(m);
    free(post);
    free(se);
    return CLI_OK;
}

/* What the command line asks of `fgm run`, besides the run_cfg. */
typedef struct run_args {
    const char *model, *backend, *observe, *format, *algo, *out_dir;
    const char *shows[16];      /* --show, each a list */
    const char *defs[CLI_MAXDEFINES];
    int nshow, ndefs;
    long iters, jobs, seed, chains, restarts;
    int cap_set, method_set, seed_set;
} run_args;

/* Reads A's options and model into RA and CFG.  Returns CLI_OK, or the
 * exit code after saying what is wrong. */
static int
parse_args(cli_args *a, run_args *ra, run_cfg *cfg)
{
    const char *val;
    int r;

    memset(ra, 0, sizeof *ra);
    ra->backend = "auto";
    ra->format = "text";
    ra->jobs = 1;
    cfg->cap = CLI_ENUM_CAP;
    while (a->i < a->argc) {
        if (cli_end_of_options(a))
            continue;
        if ((r = cli_opt_value(a, "--backend", &val)) != 0) {
            if (r < 0)
                return usage();
            ra->backend = val;
        } else if ((r = cli_opt_value(a, "--show", &val)) != 0) {
            if (r < 0)
                return usage();
            if (ra->nshow == (int)CLI_COUNTOF(ra->shows))
                return cli_fail(CLI_EUSAGE, "run: too many --show");
            ra->shows[ra->nshow++] = val;
        } else if ((r = cli_opt_value(a, "--observe", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_check_name("run", "--observe", val, "file"))
                return CLI_EUSAGE;
            /* The first file was dropped without a word. */
            if (ra->observe)
                return cli_fail(CLI_EUSAGE, "run: --observe given twice "
                                "('%s', '%s'): one file of observation sets "
                                "a run", ra->observe, val);
            ra->observe = val;
        } else if ((r = cli_opt_value(a, "--format", &val)) != 0) {
            if (r < 0)
                return usage();
            ra->format = val;
        } else if ((r = cli_opt_value(a, "--algo", &val)) != 0) {
            if (r < 0)
                return usage();
            ra->algo = val;
        } else if ((r = cli_opt_value(a, "--out-dir", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_check_name("run", "--out-dir", val, "folder"))
                return CLI_EUSAGE;
            ra->out_dir = val;
        } else if ((r = cli_opt_value(a, "--iters", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "--iters", val, 1,
                                         FGM_MAX_ITERATIONS, &ra->iters))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--damping", &val)) != 0) {
            if (r < 0)
                return CLI_EUSAGE;
            /* One message for every value out of [0, 1), NaN and -1
             * included (they said "wants a number >= 0"). */
            if (!cli_parse_double(NULL, "--damping", val, 0,
                                  &cfg->ro.damping)
                || cfg->ro.damping >= 1.0)
                return cli_fail(CLI_EUSAGE, "run: --damping wants 0 <= d "
                                "< 1, not '%s'", val);
            cfg->ro.use_damping = 1;
        } else if ((r = cli_opt_value(a, "--tolerance", &val)) != 0) {
            if (r < 0 || !cli_parse_double("run", "--tolerance", val, 0,
                                           &cfg->ro.tolerance))
                return CLI_EUSAGE;
            cfg->ro.use_tolerance = 1;
        } else if ((r = cli_opt_value(a, "--exact-method", &val)) != 0) {
            if (r < 0)
                return usage();
            if (strcmp(val, "auto") == 0)
                cfg->method = EXACT_AUTO;
            else if (strcmp(val, "elimination") == 0)
                cfg->method = EXACT_ELIMINATION;
            else if (strcmp(val, "enumeration") == 0)
                cfg->method = EXACT_ENUMERATION;
            else
                return cli_fail(CLI_EUSAGE, "run: unknown --exact-method "
                                "'%s' (auto, elimination, enumeration)", val);
            ra->method_set = 1;
        } else if (cli_opt_flag(a, "--map")) {
            cfg->map = 1;
        } else if ((r = cli_opt_value(a, "--cap", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "--cap", val, 1,
                                         1000000000000L, &cfg->cap))
                return CLI_EUSAGE;
            ra->cap_set = 1;
        } else if ((r = cli_opt_value(a, "--timeout-ms", &val)) != 0) {
            if (r < 0 || !cli_parse_double("run", "--timeout-ms", val, 0,
                                           &cfg->timeout))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--chains", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "--chains", val, 1,
                                         FGM_MAX_CHAINS, &ra->chains))
                return CLI_EUSAGE;
            cfg->ro.chains = (int)ra->chains;
        } else if ((r = cli_opt_value(a, "--restarts", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "--restarts", val, 1,
                                         FGM_MAX_RESTARTS, &ra->restarts))
                return CLI_EUSAGE;
            cfg->ro.restarts = (int)ra->restarts;
        } else if ((r = cli_opt_value(a, "--seed", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "--seed", val, 0,
                                         4294967295L, &ra->seed))
                return CLI_EUSAGE;
            cfg->ro.seed = (unsigned long)ra->seed;
            ra->seed_set = 1;
        } else if ((r = cli_opt_value(a, "-j", &val)) != 0) {
            if (r < 0
                || !cli_parse_long("run", "-j", val, 1, 256, &ra->jobs))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "-D", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_add_define("run", ra->defs, &ra->ndefs, val))
                return CLI_EUSAGE;
        } else if (cli_unknown_option(a)) {
            cli_fail(CLI_EUSAGE, "run: unknown option '%s'", a->argv[a->i]);
            return usage();
        } else if (!ra->model) {
            ra->model = a->argv[a->i++];
        } else {
            cli_fail(CLI_EUSAGE, "run: one model at a time ('%s' after "
                     "'%s')", a->argv[a->i], ra->model);
            return usage();
        }
    }
    if (!ra->model) {
        cli_missing(a, "model (MODEL)");
        return usage();
    }
    return CLI_OK;
}

/* Checks RA's options against each other and the backend, and sets CFG
 * and MO from them.  Returns CLI_OK, or the exit code after saying what
 * is wrong. */
static int
apply_args(const run_args *ra, run_cfg *cfg, fgm_model_opts *mo)
{
    int engine;

    cfg->model = ra->model;
    cfg->ro.iterations = (int)ra->iters;
    if (strcmp(ra->format, "text") == 0)
        cfg->fmt = FMT_TEXT;
    else if (strcmp(ra->format, "csv") == 0)
        cfg->fmt = FMT_CSV;
    else if (strcmp(ra->format, "json") == 0)
        cfg->fmt = FMT_JSON;
    else
        return cli_fail(CLI_EUSAGE, "run: unknown format '%s' (text, csv, "
                        "json)", ra->format);
    cfg->exact = strcmp(ra->backend, "exact") == 0;
    engine = fgm_bench_backend_find(ra->backend);   /* auto, compiled, ... */
    if (engine < 0 && !cfg->exact)
        return cli_fail(CLI_EUSAGE, "run: unknown backend '%s' (auto, "
                        "compiled, interpreted, exact)", ra->backend);
    if (engine >= 0)
        mo->backend = (fgm_backend)engine;
    /* A setting of the message passing is refused with exact marginals,
     * not ignored (as `fgm solve` refuses --iters for exact solvers): the
     * user meant something by it.  --algo and --out-dir are let through,
     * so that one command line can loop over the backends. */
    if (cfg->exact
        && (ra->iters || cfg->ro.use_damping || cfg->ro.use_tolerance
            || ra->seed_set || ra->chains || ra->restarts))
        return cli_fail(CLI_EUSAGE, "run: %s has no effect with "
                        "--backend exact, which runs no message passing",
                        ra->iters ? "--iters"
                        : cfg->ro.use_damping ? "--damping"
                        : cfg->ro.use_tolerance ? "--tolerance"
                        : ra->seed_set ? "--seed" : ra->chains ? "--chains"
                        : "--restarts");
    if (!cfg->exact && ra->cap_set)
        return cli_fail(CLI_EUSAGE, "run: --cap caps the assignments of "
                        "--backend exact");
    if (cfg->map && !cfg->exact)
        return cli_fail(CLI_EUSAGE, "run: --map is the most probable "
                        "assignment, an exact answer: give --backend exact");
    if (!cfg->exact && ra->method_set)
        return cli_fail(CLI_EUSAGE, "run: --exact-method is how --backend "
                        "exact computes; give --backend exact too");
    mo->out_dir = ra->out_dir;
    return CLI_OK;
}

int
cmd_run(cli_args *a)
{
    const char *why;
    run_args ra;
    run_cfg cfg;
    fgm_model_opts mo;
    int code = CLI_OK, n, box, v, nvars, stride = 1;
    run_shared sh;
    run_worker w0;
    obs_file of;
    fgm_ir *ir;
    fgm_csp *csp = NULL;
    fgm_dlx *dlx = NULL;
    fgm_model *fm = NULL;
    fgm_status st;
    int *given = NULL;
    double *vec = NULL;

    memset(&cfg, 0, sizeof cfg);
    memset(&of, 0, sizeof of);
    memset(&sh, 0, sizeof sh);
    memset(&w0, 0, sizeof w0);
    memset(&mo, 0, sizeof mo);
    if ((code = parse_args(a, &ra, &cfg)) != CLI_OK
        || (code = apply_args(&ra, &cfg, &mo)) != CLI_OK)
        return code;

    ir = cli_model_open("run", ra.model, ra.defs, ra.ndefs, &n, &box,
                        &code);
    if (!ir)
        return code;
    code = CLI_OK;
    if (ra.algo && !cli_set_algo(a->cmd, ir, ra.algo)) {
        fgm_ir_free(ir);
        return CLI_EUSAGE;
    }
    /* Settings the algorithm has no use for are refused, not ignored. */
    if (!cfg.exact
        && (why = unused_setting(&cfg, ir, ra.seed_set)) != NULL) {
        fgm_ir_free(ir);
        return cli_fail(CLI_EUSAGE, "run: %s", why);
    }
    for (v = 0; v < ra.nshow; v++)
        if ((code = run_parse_show(ir, ra.shows[v], &cfg)) != CLI_OK)
            goto done;
    /* Before the model is opened: a missing or unusable file is
     * reported before a plugin is built for nothing. */
    if (ra.observe
        && (code = obs_file_open(&of, "run", ra.observe, ir, ra.model, n,
                                 box, cfg.exact)) != CLI_OK)
        goto done;
    nvars = fgm_ir_nvars(ir);
    csp = fgm_csp_new(ir, &st);
    given = malloc(((size_t)nvars + 1) * sizeof *given);
    if (!csp || !given) {
        code = cli_fail(cli_exit_code(st), "run: %s", fgm_strerror(st));
        goto done;
    }
    if (cfg.exact) {
        /* Dancing Links counts solutions: their fractions are the
         * marginals only when no factor weighs them. */
        if (cfg.method == EXACT_AUTO && !cfg.map && !fgm_dlx_refuses(csp)
            && !fgm_csp_weighted(csp))
            dlx = fgm_dlx_new(csp, &st);
    } else {
        /* The model owns a copy of the IR; csp keeps reading IR. */
        fgm_ir *copy = fgm_ir_copy(ir);
        fgm_array_info ai;

        for (v = 0; fgm_ir_array_info(ir, v, &ai) == FGM_OK; v++)
            if (ai.card > stride)
                stride = ai.card;
        vec = malloc((size_t)stride * sizeof *vec);
        if (!copy || !vec) {
            fgm_ir_free(copy);
            code = cli_fail(CLI_EINTERNAL, "run: out of memory");
            goto done;
        }
        st = fgm_model_open_ir(copy, &mo, &fm, cli_diag, NULL);
        if (st == FGM_ENOMEM) {
            /* Said: the model's state did not fit (exit 1 in silence). */
            code = cli_fail(CLI_EINTERNAL, "run: out of memory");
            goto done;
        }
        if (st != FGM_OK) {
            code = CLI_EINPUT;      /* the sink has said why */
            goto done;
        }
    }
    /* Worker 0 runs on these; -j N opens N - 1 more of its own. */
    w0.fm = fm;
    w0.dlx = dlx;
    w0.given = given;
    w0.vec = vec;
    sh.ir = ir;
    sh.csp = csp;
    sh.cfg = &cfg;
    sh.of = ra.observe ? &of : NULL;
    sh.stride = stride;
    sh.nsets = ra.observe ? of.nsets : 1;
    if (cfg.fmt == FMT_CSV)
        printf("observation,kind,variable,value,p\n");
    if (cfg.fmt == FMT_JSON)
        printf("[");
    code = run_all(&sh, &w0, &mo, (int)ra.jobs);
    if (cfg.fmt == FMT_JSON)
        printf("]\n");
    if (code == CLI_OK && sh.refused)
        code = CLI_EINPUT;      /* each such set has said so */
    code = cli_finish_stdout("run", code);
done:
    free(cfg.show);
    obs_file_close(&of);
    free(given);
    free(vec);
    fgm_dlx_free(dlx);
    fgm_model_free(fm);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
    return code;
}
