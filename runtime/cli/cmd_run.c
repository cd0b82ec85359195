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
 */
#include <ctype.h>
#include <errno.h>
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

/* JSON's "values": for each variable array CFG prints, its first and
 * last value, so that a script reads entry i of a marginal as the value
 * first + i without the model at hand (CSV rows carry each value). */
static void
print_json_values(const fgm_ir *ir, const run_cfg *cfg, FILE *out)
{
    fgm_array_info ai;
    int a, v, shown, first = 1;

    fprintf(out, "\"values\": {");
    for (a = 0; fgm_ir_array_info(ir, a, &ai) == FGM_OK; a++) {
        if (ai.dirichlet)
            continue;
        for (shown = !cfg->show, v = 0; !shown && v < ai.count; v++)
            shown = cfg->show[ai.first + v];
        if (!shown)
            continue;
        fprintf(out, "%s\"%s\": [%d, %d]", first ? "" : ", ", ai.name,
                ai.lo, ai.lo + ai.card - 1);
        first = 0;
    }
    fprintf(out, "}, ");
}

/* Prints one vector of item NAME: a marginal, or a Dirichlet node's
 * pseudo-counts ("alpha") or exact posterior mean ("mean"), its kind
 * after its name in text. */
static void
print_vector(FILE *out, out_format fmt, long k, const char *kind,
             const char *name, int lo, const double *x, int n, int *first)
{
    int j;

    if (fmt == FMT_TEXT) {
        fprintf(out, "%s%s%s", name,
                strcmp(kind, "marginal") != 0 ? " " : "",
                strcmp(kind, "marginal") != 0 ? kind : "");
        for (j = 0; j < n; j++)
            fprintf(out, " %.6g", x[j]);
        fputc('\n', out);
    } else if (fmt == FMT_JSON) {
        fprintf(out, "%s\"%s\": [", *first ? "" : ", ", name);
        for (j = 0; j < n; j++)
            fprintf(out, "%s%.17g", j ? ", " : "", x[j]);
        fputc(']', out);
    } else {
        for (j = 0; j < n; j++)
            fprintf(out, "%ld,%s,%s,%d,%.17g\n", k, kind, name, lo + j,
                    x[j]);
    }
    *first = 0;
}

/* Prints each variable's vector of X (nvars x STRIDE) that CFG shows, as
 * KIND ("marginal", "stderr"), inside the JSON object the caller opened. */
static void
print_vars(const fgm_ir *ir, const run_cfg *cfg, long k, const char *kind,
           const double *x, int stride, run_tally *t)
{
    char name[FGM_IR_MAXNAME + 64];
    fgm_array_info ai;
    int v, first = 1;

    for (v = 0; v < fgm_ir_nvars(ir); v++) {
        if (cfg->show && !cfg->show[v])
            continue;
        fgm_ir_array_info(ir, fgm_ir_var_array(ir, v), &ai);
        print_vector(t->out, cfg->fmt, k, kind,
                     fgm_ir_var_name(ir, v, name, sizeof name), ai.lo,
                     x + (size_t)v * (size_t)stride, fgm_ir_card(ir, v),
                     &first);
    }
}

/* Prints each Dirichlet node's vector of X (ndirichlet x STRIDE; NULL:
 * none) that CFG shows, as KIND ("alpha", "mean"); in JSON, the object
 * KIND after the one before it. */
static void
print_nodes(const fgm_ir *ir, const run_cfg *cfg, long k, const char *kind,
            const double *x, int stride, run_tally *t)
{
    char name[FGM_IR_MAXNAME + 64];
    fgm_array_info ai;
    int v, first = 1;

    if (cfg->fmt == FMT_JSON)
        fprintf(t->out, "}, \"%s\": {", kind);
    for (v = 0; x && v < fgm_ir_ndirichlet(ir); v++) {
        if (cfg->show && !cfg->show[fgm_ir_nvars(ir) + v])
            continue;
        fgm_ir_array_info(ir, fgm_ir_node_array(ir, v), &ai);
        print_vector(t->out, cfg->fmt, k, kind,
                     fgm_ir_node_name(ir, v, name, sizeof name), 1,
                     x + (size_t)v * (size_t)stride, ai.card, &first);
    }
}

/* Prints the marginals M (nvars x stride) and, when POST is not NULL, the
 * Dirichlet posteriors (ndirichlet x stride) of observation K; when MEAN
 * is not NULL (the exact backend), the Dirichlet nodes' exact posterior
 * means (ndirichlet x MEAN_STRIDE: text and CSV kind "mean", JSON
 * "mean").  INFO goes
 * on its header (text, JSON); an INCOMPLETE result also says INFO on
 * stderr, in every format, so that one read without its header (CSV has
 * none; a script that takes the marginals' lines) does not pass for a
 * complete one; JSON marks it "incomplete": true for scripts, and gives
 * an engine run's RI (NULL: exact) as "sweeps", "change" and "ms", and
 * LOG_Z (NAN: none; variable elimination's, or the engine's estimate,
 * fgm_model_log_evidence) as "log_z" (vmp's bound as "log_z_bound").
 * CLASH names the variable the run left no value (warn_contradiction),
 * or is NULL; JSON records it too.  SE (nvars x stride, or NULL): the
 * marginals' standard errors over a gibbs run's chains, kind "stderr"
 * (JSON: the object "stderr" after "marginals"). */
static void
print_result(const fgm_ir *ir, const run_cfg *cfg, long k, const double *m,
             const double *se, const double *post, int stride,
             const double *mean, int mean_stride, const char *info,
             const fgm_run_info *ri, double log_z, int incomplete,
             const char *clash, run_tally *t)
{
    out_format fmt = cfg->fmt;

    if (fmt == FMT_TEXT)
        fprintf(t->out, "# observation %ld: %s\n", k, info);
    if (incomplete)
        fprintf(t->err, "fgm: run: observation %ld: %s\n", k, info);
    if (fmt == FMT_JSON) {
        fprintf(t->out, "{\"observation\": %ld, \"info\": \"%s\", ", k,
                info);
        /* What the header says in words, as fields for scripts. */
        if (ri)
            fprintf(t->out, "\"sweeps\": %d, \"change\": %.17g, "
                    "\"ms\": %.6f, ", ri->sweeps, ri->change, ri->ms);
        if (ri && ri->dead > 0)     /* gibbs: as the header's words */
            fprintf(t->out, "\"dead_draws\": %ld, \"kept_sweeps\": %ld, ",
                    ri->dead, ri->kept);
        if (ri && ri->chains > 1)   /* gibbs's chains, vmp's restarts */
            fprintf(t->out, "\"%s\": %d, ",
                    cli_algo_is(ir, "vmp") ? "restarts" : "chains",
                    ri->chains);
        /* JSON has no inf.  vmp's is a lower bound, not an estimate. */
        if (isfinite(log_z))
            fprintf(t->out, "\"%s\": %.17g, ",
                    cli_algo_is(ir, "vmp") ? "log_z_bound"
                                                        : "log_z", log_z);
        print_json_values(ir, cfg, t->out);
        fprintf(t->out, "\"marginals\": {");
    }
    print_vars(ir, cfg, k, "marginal", m, stride, t);
    if (se && fmt == FMT_JSON)
        fprintf(t->out, "}, \"stderr\": {");
    if (se)
        print_vars(ir, cfg, k, "stderr", se, stride, t);
    print_nodes(ir, cfg, k, "alpha", post, stride, t);
    if (mean)
        print_nodes(ir, cfg, k, "mean", mean, mean_stride, t);
    if (fmt == FMT_JSON) {
        fprintf(t->out, "}");
        if (incomplete)
            fprintf(t->out, ", \"incomplete\": true");
        if (clash)
            fprintf(t->out, ", \"contradiction\": \"%s\"", clash);
        fprintf(t->out, "}");
    }
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
 * any, are not counted, and the marginals say nothing of them. */
static void
warn_frozen(const fgm_ir *ir, const fgm_run_info *info, const double *m,
            int stride, long k, FILE *err)
{
    int v, j, free_var = 0;

    if (info->kept < 2)
        return;
    for (v = 0; v < fgm_ir_nvars(ir); v++) {
        free_var |= fgm_ir_card(ir, v) > 1;
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
    if (!clash && cli_algo_is(ir, "gibbs") && ro.chains <= 1)
        warn_frozen(ir, &info, m, stride, k, t->err);
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
    print_result(ir, cfg, k, m, have_se ? se : NULL, post, stride, NULL, 0,
                 text, &info, log_z, st == FGM_ETIMEOUT, clash, t);
    free(m);
    free(post);
    free(se);
    return CLI_OK;
}

/* Solution fractions M (NVARS x STRIDE) as max-marginals: every solution
 * of an exact cover weighs the same, so a value's best is 1 when some
 * solution has it, normalized over the variable's values. */
static void
fractions_to_max(const fgm_ir *ir, double *m, int stride)
{
    int v, j, n, card;

    for (v = 0; v < fgm_ir_nvars(ir); v++) {
        card = fgm_ir_card(ir, v);
        for (n = 0, j = 0; j < card; j++)
            n += m[(size_t)v * (size_t)stride + j] > 0.0;
        for (j = 0; j < card; j++)
            m[(size_t)v * (size_t)stride + j] =
                m[(size_t)v * (size_t)stride + j] > 0.0 ? 1.0 / n : 0.0;
    }
}

/* Says that observation K has no marginals, WHY, where the set came from
 * (T's file and line), and notes it in T; returns CLI_OK, so that the
 * sets after it are still run (the first such set of a puzzle file ended
 * the run and lost the rest): the command exits 1 at the end. */
static int
refuse_set(run_tally *t, long k, const char *why)
{
    if (t->line > 0)
        cli_fail_to(t->err, CLI_EINPUT, "%s:%ld: error: observation %ld%s",
                    t->file, t->line, k, why);
    else
        cli_fail_to(t->err, CLI_EINPUT, "%s: error: the model%s", t->file,
                    why);
    t->refused = 1;
    return CLI_OK;
}

/* Refuses observation K (refuse_set) for variable elimination's status
 * ST: FGM_EUNSOLVED or FGM_ETIMEOUT. */
static int
refuse_elimination(run_tally *t, long k, fgm_status st)
{
    return refuse_set(t, k, st == FGM_EUNSOLVED
                      ? " has no consistent assignment"
                      : ": variable elimination ran past --timeout-ms (it "
                        "has no partial answer)");
}

/* The model of CFG is past the exact searches' FGM_EXACT_MAXVARS
 * variables (CSP has NVARS): says so on T's stream.  Returns the exit
 * code. */
static int
refuse_too_large(const run_cfg *cfg, const fgm_csp *csp, run_tally *t)
{
    return cli_fail_to(t->err, CLI_EINPUT, "%s: error: --backend exact "
                       "enumerates at most %d variables; this model has %d",
                       cfg->model, FGM_EXACT_MAXVARS, fgm_csp_nvars(csp));
}

/* The fgm_now() time --timeout-ms gives an observation set from now; 0
 * without it. */
static double
deadline_of(const run_cfg *cfg)
{
    return cfg->timeout > 0 ? fgm_now() + cfg->timeout * 1e-3 : 0;
}

/* Ends the header words TEXT (SIZE bytes) with the exact LOG_Z: the log
 * of the total weight, or with MAX of the largest. */
static void
append_log_z(char *text, size_t size, int max, double log_z)
{
    size_t n = strlen(text);

    snprintf(text + n, size - n, ", %s=%.10g",
             max ? "log max weight" : "log Z", log_z);
}

/* Variable elimination's marginals (MAX: max-marginals) of CSP with
 * clues GIVEN into M, the header's words into TEXT (SIZE bytes) and the
 * log of the total weight into *LOG_Z (NaN unless it succeeded: where it
 * declines, enumeration's answer has none).
 * Returns fgm_eliminate's status: FGM_EUNSUPPORTED when its tables would
 * be too large, for enumeration to take over. */
static fgm_status
run_elimination(const fgm_csp *csp, const int *given, const run_cfg *cfg,
                int max, double shift, double *m, char *text, size_t size,
                double *log_z)
{
    fgm_elim_info info;
    fgm_status st = fgm_eliminate(csp, given, 0, deadline_of(cfg), max, m,
                                  &info);

    *log_z = st == FGM_OK ? info.log_z + shift : NAN;
    snprintf(text, size, "%s (variable elimination), width=%d",
             max ? "exact max-marginals" : "exact", info.width);
    append_log_z(text, size, max, info.log_z + shift);
    return st;
}

/* Exact marginals of IR (the model of CSP) with the current clues GIVEN
 * -- max-marginals when IR's algorithm is bp-max, its exact answer --;
 * prints observation K.  A clue on a variable that alone draws from an
 * observed prior is a point mass on the prior, as message passing takes
 * it: fgm_csp_point_mass_shift and _means mend log Z and its mean.  An
 * observation with no consistent assignment (or none found within the
 * cap or deadline) is refused (refuse_set). */
static int
run_exact(const fgm_ir *ir, const fgm_csp *csp, fgm_dlx *dlx,
          const int *given, const run_cfg *cfg, long k, run_tally *t)
{
    int stride = fgm_csp_maxcard(csp);
    double *m = malloc((size_t)fgm_csp_nvars(csp) * (size_t)stride
                       * sizeof *m + 1);
    int max = cli_algo_is(ir, "bp-max");
    const char *what = max ? "exact max-marginals" : "exact";
    char text[160];
    fgm_status st;
    long count = 0;
    int incomplete;
    double log_z = NAN;     /* elimination's or enumeration's */
    double shift = fgm_csp_point_mass_shift(csp, given);
    /* The priors' posterior means (not from max-marginals, which have
     * none): from the marginals, or from the enumeration's walk. */
    int mstride = fgm_ir_dirichlet_maxk(ir), walked = 0;
    double *mean = !max && fgm_ir_ndirichlet(ir) > 0
                   ? malloc((size_t)fgm_ir_ndirichlet(ir) * (size_t)mstride
                            * sizeof *mean) : NULL;

    if (!m || (!max && fgm_ir_ndirichlet(ir) > 0 && !mean)
        || isnan(shift)) {
        free(m);
        free(mean);
        return cli_fail_to(t->err, CLI_EINTERNAL, "run: out of memory");
    }
    if (dlx) {
        fgm_dlx_limits lim = { cfg->cap, 0, 0 };

        lim.deadline = deadline_of(cfg);
        st = fgm_dlx_run(dlx, given, &lim, &count, m, NULL, NULL);
        incomplete = !(st == FGM_OK && count < cfg->cap);
        snprintf(text, sizeof text, "%s (dancing links), solutions=%ld%s",
                 what, count, incomplete ? " (incomplete: cap or timeout "
                                           "reached)" : "");
        /* Every solution weighs the same (or Dancing Links would not
         * take the model): the count times that weight. */
        if (!incomplete && !max && count > 0)
            log_z = log((double)count) + fgm_csp_solution_log_weight(csp)
                    + shift;
        if (!isnan(log_z))
            append_log_z(text, sizeof text, 0, log_z);
        if (st == FGM_OK && count == 0) {
            /* The search ended, with nothing to stop it early. */
            free(m);
            free(mean);
            return refuse_set(t, k, " has no consistent assignment");
        }
        if (max && count > 0)
            fractions_to_max(ir, m, stride);
    } else if (cfg->method != EXACT_ENUMERATION
               && (st = run_elimination(csp, given, cfg, max, shift, m,
                                        text, sizeof text, &log_z))
                  != FGM_EUNSUPPORTED) {
        incomplete = 0;
        count = 1;
        if (st == FGM_EUNSOLVED || st == FGM_ETIMEOUT) {
            free(m);
            free(mean);
            return refuse_elimination(t, k, st);
        }
    } else if (cfg->method == EXACT_ELIMINATION) {
        free(m);
        free(mean);
        return cli_fail_to(t->err, CLI_EINPUT, "%s: error: --exact-method "
                           "elimination: the model is out of its reach ("
                           CLI_ELIM_BOUND "); --exact-method enumeration "
                           "visits its assignments instead", cfg->model,
                           CLI_ELIM_BOUND_ARGS);
    } else {
        double deadline = deadline_of(cfg);

        /* The means from the walk itself: a gated draw's node has no
         * mean in the marginals alone. */
        st = max ? fgm_enumerate_max(csp, given, cfg->cap, deadline, m,
                                     &count)
                 : fgm_enumerate_log_z(csp, given, cfg->cap, deadline, m,
                                       mean, mstride, &count, &log_z);
        walked = mean != NULL;
        incomplete = st != FGM_OK;
        log_z += shift;
        snprintf(text, sizeof text, "%s (enumeration), assignments=%ld%s",
                 what, count, incomplete ? " (incomplete: cap or timeout "
                                           "reached)" : "");
        if (!incomplete && !max)
            append_log_z(text, sizeof text, 0, log_z);
        if (st == FGM_EUNSOLVED) {
            free(m);
            free(mean);
            return refuse_set(t, k, " has no consistent assignment");
        }
    }
    if (st == FGM_EUNSUPPORTED) {
        free(m);
        free(mean);
        return refuse_too_large(cfg, csp, t);
    }
    if (st != FGM_OK && st != FGM_ETIMEOUT) {
        free(m);
        free(mean);
        return cli_fail_to(t->err, cli_exit_code(st), "run: %s",
                           fgm_strerror(st));
    }
    if (count == 0) {
        /* Stopped before the first solution: all zeros is no
         * distribution. */
        free(m);
        free(mean);
        return refuse_set(t, k, ": no consistent assignment found before "
                          "the cap or the deadline");
    }
    if (mean && !walked
        && fgm_ir_dirichlet_mean(ir, m, stride, mean, mstride) != FGM_OK) {
        free(m);
        free(mean);
        return cli_fail_to(t->err, CLI_EINTERNAL, "run: out of memory");
    }
    if (mean && fgm_csp_point_mass_means(csp, given, mean, mstride)
                != FGM_OK) {
        free(m);
        free(mean);
        return cli_fail_to(t->err, CLI_EINTERNAL, "run: out of memory");
    }
    print_result(ir, cfg, k, m, NULL, NULL, stride, mean, mstride, text, NULL,
                 log_z, incomplete, NULL, t);
    free(mean);
    free(m);
    return CLI_OK;
}

/* --map by enumeration, branch and bound (fgm_enumerate_map, at most
 * --cap search nodes), into X: the header's words into TEXT (SIZE
 * bytes), the log weight plus SHIFT (fgm_csp_point_mass_shift's) into
 * *LW.
 * Returns FGM_OK with an assignment (*INCOMPLETE set when the cap or the
 * deadline stopped the search: X is the best found, not known to be the
 * best), FGM_ETIMEOUT when they stopped it before any, or
 * fgm_enumerate_map's failure. */
static fgm_status
map_by_enumeration(const fgm_csp *csp, const int *given, const run_cfg *cfg,
                   double shift, int *x, char *text, size_t size, double *lw,
                   int *incomplete)
{
    long nodes = 0;
    fgm_status st = fgm_enumerate_map(csp, given, cfg->cap, deadline_of(cfg),
                                      x, lw, &nodes);

    *incomplete = st == FGM_ETIMEOUT;
    if (st != FGM_OK && !(st == FGM_ETIMEOUT && *lw > -HUGE_VAL))
        return st;
    *lw += shift;
    snprintf(text, size, "exact MAP (enumeration, branch and bound), "
             "nodes=%ld, log weight=%.10g%s", nodes, *lw,
             *incomplete ? " (incomplete: cap or timeout reached; the best "
                           "found)" : "");
    return FGM_OK;
}

/* --map: the most probable assignment of IR (the model of CSP) with
 * clues GIVEN, by variable elimination (fgm_eliminate_map) or, where it
 * declines (or --exact-method enumeration), by enumeration with branch
 * and bound, printed for observation K as assignment lines (an
 * observation file's syntax: the answer can be observed back), CSV rows
 * of kind "map" (p 1) or a JSON "map" object of labels. */
static int
run_map(const fgm_ir *ir, const fgm_csp *csp, const int *given,
        const run_cfg *cfg, long k, run_tally *t)
{
    int n = fgm_ir_nvars(ir), v, lo, first = 1, incomplete = 0;
    int *x = malloc(((size_t)n + 1) * sizeof *x);
    char text[200], name[FGM_IR_MAXNAME + 64];
    fgm_array_info ai;
    fgm_elim_info info;
    fgm_status st = FGM_EUNSUPPORTED;
    double lw, shift = fgm_csp_point_mass_shift(csp, given);

    if (!x || isnan(shift)) {
        free(x);
        return cli_fail_to(t->err, CLI_EINTERNAL, "run: out of memory");
    }
    if (cfg->method != EXACT_ENUMERATION)
        st = fgm_eliminate_map(csp, given, 0, deadline_of(cfg), x, &info);
    if (st == FGM_EUNSUPPORTED && cfg->method != EXACT_ELIMINATION) {
        st = map_by_enumeration(csp, given, cfg, shift, x, text,
                                sizeof text, &lw, &incomplete);
        if (st != FGM_OK)
            free(x);
        if (st == FGM_EUNSOLVED)
            return refuse_set(t, k, " has no consistent assignment");
        if (st == FGM_ETIMEOUT)
            return refuse_set(t, k, ": enumeration found no assignment "
                              "within --cap or --timeout-ms");
        if (st == FGM_EUNSUPPORTED)
            return refuse_too_large(cfg, csp, t);
        if (st != FGM_OK)
            return cli_fail_to(t->err, cli_exit_code(st), "run: %s",
                               fgm_strerror(st));
    } else if (st != FGM_OK) {
        free(x);
        if (st == FGM_EUNSOLVED || st == FGM_ETIMEOUT)
            return refuse_elimination(t, k, st);
        if (st == FGM_EUNSUPPORTED)
            return cli_fail_to(t->err, CLI_EINPUT, "%s: error: --map: the "
                               "model is out of variable elimination's reach "
                               "(" CLI_ELIM_BOUND "); --exact-method "
                               "enumeration searches it instead", cfg->model,
                               CLI_ELIM_BOUND_ARGS);
        return cli_fail_to(t->err, cli_exit_code(st), "run: %s",
                           fgm_strerror(st));
    } else {
        lw = info.log_z + shift;
        snprintf(text, sizeof text, "exact MAP (variable elimination), "
                 "width=%d, log weight=%.10g", info.width, lw);
    }
    if (cfg->fmt == FMT_TEXT)
        fprintf(t->out, "# observation %ld: %s\n", k, text);
    if (incomplete)
        fprintf(t->err, "fgm: run: observation %ld: %s\n", k, text);
    if (cfg->fmt == FMT_JSON)
        fprintf(t->out, "{\"observation\": %ld, \"info\": \"%s\", "
                "\"log_weight\": %.17g, %s\"map\": {", k, text, lw,
                incomplete ? "\"incomplete\": true, " : "");
    for (v = 0; v < n; v++) {
        if (cfg->show && !cfg->show[v])
            continue;
        fgm_ir_array_info(ir, fgm_ir_var_array(ir, v), &ai);
        lo = ai.lo;
        fgm_ir_var_name(ir, v, name, sizeof name);
        if (cfg->fmt == FMT_TEXT)
            fprintf(t->out, "%s = %d\n", name, lo + x[v]);
        else if (cfg->fmt == FMT_CSV)
            fprintf(t->out, "%ld,map,%s,%d,1\n", k, name, lo + x[v]);
        else
            fprintf(t->out, "%s\"%s\": %d", first ? "" : ", ", name,
                    lo + x[v]);
        first = 0;
    }
    if (cfg->fmt == FMT_JSON)
        fprintf(t->out, "}}");
    free(x);
    return CLI_OK;
}

/* run_exact, or run_map with --map, on the set in SINK: with weights
 * (soft evidence), on the model with them as evidence factors (never
 * Dancing Links, which counts solutions unweighted). */
int
run_exact_set(const fgm_ir *ir, const fgm_csp *csp, fgm_dlx *dlx,
              const obs_sink *sink, const run_cfg *cfg, long k,
              run_tally *t)
{
    fgm_csp *soft = NULL;
    fgm_status st;
    int code;

    if (sink->soft) {
        if (!(soft = fgm_csp_new(sink->soft, &st)))
            return cli_fail_to(t->err, cli_exit_code(st), "run: %s",
                               fgm_strerror(st));
        ir = sink->soft;
        csp = soft;
        dlx = NULL;
    }
    code = cfg->map ? run_map(ir, csp, sink->given, cfg, k, t)
                    : run_exact(ir, csp, dlx, sink->given, cfg, k, t);
    fgm_csp_free(soft);
    return code;
}

/* Reads one subscript of a --show item at P (after its '['; ITEM in
 * messages) into LO..HI for dimension D of AI: "3", "0..2" or "*" (the
 * whole dimension), as the model language writes them.  Returns the
 * byte after its ']', or NULL after saying what is wrong. */
static const char *
show_subscript(const fgm_array_info *ai, int d, const char *p,
               const char *item, long *lo, long *hi)
{
    char *end;

    while (*p == ' ')
        p++;
    if (*p == '*') {
        *lo = 0;
        *hi = ai->dims[d] - 1;
        end = (char *)p + 1;
    } else {
        /* Digits, as the language writes them (strtol would also take a
         * '+' or a tab). */
        errno = 0;
        if (!isdigit((unsigned char)*p) && *p != '-')
            goto bad;
        *lo = *hi = strtol(p, &end, 10);
        while (*end == ' ')
            end++;
        if (end[0] == '.' && end[1] == '.') {
            p = end + 2;
            while (*p == ' ')
                p++;
            if (!isdigit((unsigned char)*p) && *p != '-')
                goto bad;
            *hi = strtol(p, &end, 10);
        }
    }
    while (*end == ' ')
        end++;
    if (*end != ']')
        goto bad;
    if (errno == ERANGE) {
        cli_fail(CLI_EUSAGE, "run: --show %s: a subscript out of range "
                 "0..%d of %s's dimension %d", item, ai->dims[d] - 1,
                 ai->name, d + 1);
        return NULL;
    }
    if (*lo > *hi) {
        cli_fail(CLI_EUSAGE, "run: --show %s: the range %ld..%ld is empty",
                 item, *lo, *hi);
        return NULL;
    }
    if (*lo < 0 || *hi >= ai->dims[d]) {
        cli_fail(CLI_EUSAGE, "run: --show %s: subscript %ld out of range "
                 "0..%d of %s's dimension %d", item, *lo < 0 ? *lo : *hi,
                 ai->dims[d] - 1, ai->name, d + 1);
        return NULL;
    }
    return end + 1;
bad:
    cli_fail(CLI_EUSAGE, "run: --show %s: a subscript is an integer, a "
             "range LO..HI or * in brackets", item);
    return NULL;
}

/* Reads the subscripts of a --show item after its array's name, TEXT
 * (ITEM in messages: "y[1]", "h[0..2]", "s[*][3]", blanks allowed around
 * brackets) into each dimension's range LO[d]..HI[d] (a dimension
 * without a subscript: the whole of it).  Returns CLI_OK or the usage
 * error after saying what is wrong. */
static int
show_subscripts(const fgm_array_info *ai, const char *text, const char *item,
                long *lo, long *hi)
{
    const char *p = text;
    int d;

    for (d = 0; d < ai->ndims; d++) {
        lo[d] = 0;
        hi[d] = ai->dims[d] - 1;
    }
    for (d = 0;; d++) {
        while (*p == ' ')
            p++;
        if (!*p)
            return CLI_OK;
        if (*p == '[' && d == ai->ndims)
            return cli_fail(CLI_EUSAGE, "run: --show %s: more subscripts "
                            "than %s has dimensions (%d)", item, ai->name,
                            ai->ndims);
        if (*p != '[')
            return cli_fail(CLI_EUSAGE, "run: --show %s: '%c' where '[' or "
                            "the end of the name was expected", item, *p);
        if (!(p = show_subscript(ai, d, p + 1, item, &lo[d], &hi[d])))
            return CLI_EUSAGE;
    }
}

/* Sets MASK[i] for each element i (row-major in AI's array) whose every
 * index d lies in LO[d]..HI[d]. */
static void
show_mark(const fgm_array_info *ai, const long *lo, const long *hi,
          unsigned char *mask)
{
    long at, rest;
    int i, d, in;

    for (i = 0; i < ai->count; i++) {
        rest = i;
        in = 1;
        for (d = ai->ndims - 1; d >= 0 && in; d--) {
            at = rest % ai->dims[d];
            rest /= ai->dims[d];
            in = at >= lo[d] && at <= hi[d];
        }
        if (in)
            mask[i] = 1;
    }
}

/* --show LIST (arrays, or their elements or blocks: "x,h[0],y[1..2]",
 * comma-separated, blanks around the names allowed) added to CFG's mask
 * of the variables and Dirichlet nodes of IR to print (several --show add
 * up).  Returns CLI_OK, or the
 * exit code after naming a name the model does not have (and the arrays
 * it has), a subscript it cannot take, or a prior with --backend exact. */
static int
parse_show(const fgm_ir *ir, const char *list, run_cfg *cfg)
{
    int nvars = fgm_ir_nvars(ir), i, code;
    long lo[FGM_IR_MAXDIMS], hi[FGM_IR_MAXDIMS];
    const char *p = list;

    if (!cfg->show)
        cfg->show = calloc((size_t)nvars + (size_t)fgm_ir_ndirichlet(ir)
                           + 1, 1);
    if (!cfg->show)
        return cli_fail(CLI_EINTERNAL, "run: out of memory");
    for (;;) {
        size_t len, nlen;
        char name[FGM_IR_MAXNAME], item[FGM_IR_MAXNAME + 64];
        fgm_array_info ai;

        p += strspn(p, " ");
        len = strcspn(p, ",");
        nlen = strcspn(p, "[ ,");
        while (len > 0 && p[len - 1] == ' ')
            len--;

        if (len == 0)
            return cli_fail(CLI_EUSAGE, "run: --show has an empty name");
        if (len >= sizeof item)
            return cli_fail(CLI_EUSAGE, "run: --show: '%.20s...' is longer "
                            "than any name", p);
        snprintf(item, sizeof item, "%.*s", (int)len, p);
        i = -1;
        if (nlen < sizeof name) {
            memcpy(name, p, nlen);
            name[nlen] = '\0';
            i = fgm_ir_array_index(ir, name);
        }
        if (i < 0) {
            fprintf(stderr, "fgm: run: --show: the model has no array "
                    "'%.*s'; its arrays:", (int)nlen, p);
            for (i = 0; fgm_ir_array_info(ir, i, &ai) == FGM_OK; i++)
                fprintf(stderr, "%s %s", i ? "," : "", ai.name);
            fputc('\n', stderr);
            return CLI_EUSAGE;
        }
        fgm_ir_array_info(ir, i, &ai);
        /* The exact backend prints the priors' posterior means, but
         * neither with --map nor beside max-marginals: it would print
         * nothing, and say nothing of why. */
        if (cfg->exact && ai.dirichlet
            && (cfg->map || cli_algo_is(ir, "bp-max")))
            return cli_fail(CLI_EUSAGE, "run: --show %s: --backend exact "
                            "prints no prior with --map or max-marginals "
                            "(bp-max)", item);
        if ((code = show_subscripts(&ai, item + nlen, item, lo, hi))
                != CLI_OK)
            return code;
        show_mark(&ai, lo, hi, cfg->show + (ai.dirichlet ? nvars : 0)
                               + ai.first);
        p += len + strspn(p + len, " ");
        if (!*p)
            return CLI_OK;
        p++;        /* the comma */
    }
}

int
cmd_run(cli_args *a)
{
    const char *model = NULL, *backend = "auto", *observe = NULL, *val;
    const char *format = "text", *algo = NULL, *out_dir = NULL, *why;
    const char *shows[16];      /* --show, each a list */
    int nshow = 0;
    const char *defs[CLI_MAXDEFINES];
    int ndefs = 0;
    run_cfg cfg;
    fgm_model_opts mo;
    long iters = 0, jobs = 1, seed = 0, chains = 0, restarts = 0;
    int r, code = CLI_OK, n, box, v, nvars, stride = 1;
    int cap_set = 0, method_set = 0, seed_set = 0, engine;
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
    cfg.cap = CLI_ENUM_CAP;
    while (a->i < a->argc) {
        if (cli_end_of_options(a))
            continue;
        if ((r = cli_opt_value(a, "--backend", &val)) != 0) {
            if (r < 0)
                return usage();
            backend = val;
        } else if ((r = cli_opt_value(a, "--show", &val)) != 0) {
            if (r < 0)
                return usage();
            if (nshow == (int)CLI_COUNTOF(shows))
                return cli_fail(CLI_EUSAGE, "run: too many --show");
            shows[nshow++] = val;
        } else if ((r = cli_opt_value(a, "--observe", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_check_name("run", "--observe", val, "file"))
                return CLI_EUSAGE;
            observe = val;
        } else if ((r = cli_opt_value(a, "--format", &val)) != 0) {
            if (r < 0)
                return usage();
            format = val;
        } else if ((r = cli_opt_value(a, "--algo", &val)) != 0) {
            if (r < 0)
                return usage();
            algo = val;
        } else if ((r = cli_opt_value(a, "--out-dir", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_check_name("run", "--out-dir", val, "folder"))
                return CLI_EUSAGE;
            out_dir = val;
        } else if ((r = cli_opt_value(a, "--iters", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "--iters", val, 1,
                                         FGM_MAX_ITERATIONS, &iters))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--damping", &val)) != 0) {
            if (r < 0)
                return CLI_EUSAGE;
            /* One message for every value out of [0, 1), NaN and -1
             * included (they said "wants a number >= 0"). */
            if (!cli_parse_double(NULL, "--damping", val, 0,
                                  &cfg.ro.damping)
                || cfg.ro.damping >= 1.0)
                return cli_fail(CLI_EUSAGE, "run: --damping wants 0 <= d "
                                "< 1, not '%s'", val);
            cfg.ro.use_damping = 1;
        } else if ((r = cli_opt_value(a, "--tolerance", &val)) != 0) {
            if (r < 0 || !cli_parse_double("run", "--tolerance", val, 0,
                                           &cfg.ro.tolerance))
                return CLI_EUSAGE;
            cfg.ro.use_tolerance = 1;
        } else if ((r = cli_opt_value(a, "--exact-method", &val)) != 0) {
            if (r < 0)
                return usage();
            if (strcmp(val, "auto") == 0)
                cfg.method = EXACT_AUTO;
            else if (strcmp(val, "elimination") == 0)
                cfg.method = EXACT_ELIMINATION;
            else if (strcmp(val, "enumeration") == 0)
                cfg.method = EXACT_ENUMERATION;
            else
                return cli_fail(CLI_EUSAGE, "run: unknown --exact-method "
                                "'%s' (auto, elimination, enumeration)", val);
            method_set = 1;
        } else if (cli_opt_flag(a, "--map")) {
            cfg.map = 1;
        } else if ((r = cli_opt_value(a, "--cap", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "--cap", val, 1,
                                         1000000000000L, &cfg.cap))
                return CLI_EUSAGE;
            cap_set = 1;
        } else if ((r = cli_opt_value(a, "--timeout-ms", &val)) != 0) {
            if (r < 0 || !cli_parse_double("run", "--timeout-ms", val, 0,
                                           &cfg.timeout))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--chains", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "--chains", val, 1,
                                         FGM_MAX_CHAINS, &chains))
                return CLI_EUSAGE;
            cfg.ro.chains = (int)chains;
        } else if ((r = cli_opt_value(a, "--restarts", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "--restarts", val, 1,
                                         FGM_MAX_RESTARTS, &restarts))
                return CLI_EUSAGE;
            cfg.ro.restarts = (int)restarts;
        } else if ((r = cli_opt_value(a, "--seed", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "--seed", val, 0,
                                         4294967295L, &seed))
                return CLI_EUSAGE;
            cfg.ro.seed = (unsigned long)seed;
            seed_set = 1;
        } else if ((r = cli_opt_value(a, "-j", &val)) != 0) {
            if (r < 0 || !cli_parse_long("run", "-j", val, 1, 256, &jobs))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "-D", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_add_define("run", defs, &ndefs, val))
                return CLI_EUSAGE;
        } else if (cli_unknown_option(a)) {
            cli_fail(CLI_EUSAGE, "run: unknown option '%s'", a->argv[a->i]);
            return usage();
        } else if (!model) {
            model = a->argv[a->i++];
        } else {
            cli_fail(CLI_EUSAGE, "run: one model at a time ('%s' after "
                     "'%s')", a->argv[a->i], model);
            return usage();
        }
    }
    if (!model) {
        cli_missing(a, "model (MODEL)");
        return usage();
    }
    cfg.model = model;
    cfg.ro.iterations = (int)iters;
    if (strcmp(format, "text") == 0)
        cfg.fmt = FMT_TEXT;
    else if (strcmp(format, "csv") == 0)
        cfg.fmt = FMT_CSV;
    else if (strcmp(format, "json") == 0)
        cfg.fmt = FMT_JSON;
    else
        return cli_fail(CLI_EUSAGE, "run: unknown format '%s' (text, csv, "
                        "json)", format);
    cfg.exact = strcmp(backend, "exact") == 0;
    engine = fgm_bench_backend_find(backend);   /* auto, compiled, ... */
    if (engine < 0 && !cfg.exact)
        return cli_fail(CLI_EUSAGE, "run: unknown backend '%s' (auto, "
                        "compiled, interpreted, exact)", backend);
    if (engine >= 0)
        mo.backend = (fgm_backend)engine;
    /* A setting of the message passing is refused with exact marginals,
     * not ignored (as `fgm solve` refuses --iters for exact solvers): the
     * user meant something by it.  --algo and --out-dir are let through,
     * so that one command line can loop over the backends. */
    if (cfg.exact && (iters || cfg.ro.use_damping || cfg.ro.use_tolerance
                      || seed_set || chains || restarts))
        return cli_fail(CLI_EUSAGE, "run: %s has no effect with "
                        "--backend exact, which runs no message passing",
                        iters ? "--iters" : cfg.ro.use_damping ? "--damping"
                        : cfg.ro.use_tolerance ? "--tolerance"
                        : seed_set ? "--seed" : chains ? "--chains"
                        : "--restarts");
    if (!cfg.exact && cap_set)
        return cli_fail(CLI_EUSAGE, "run: --cap caps the assignments of "
                        "--backend exact");
    if (cfg.map && !cfg.exact)
        return cli_fail(CLI_EUSAGE, "run: --map is the most probable "
                        "assignment, an exact answer: give --backend exact");
    if (!cfg.exact && method_set)
        return cli_fail(CLI_EUSAGE, "run: --exact-method is how --backend "
                        "exact computes; give --backend exact too");
    mo.out_dir = out_dir;

    ir = cli_model_open("run", model, defs, ndefs, &n, &box, &code);
    if (!ir)
        return code;
    code = CLI_OK;
    if (algo && !cli_set_algo(a->cmd, ir, algo)) {
        fgm_ir_free(ir);
        return CLI_EUSAGE;
    }
    /* Settings the algorithm has no use for are refused, not ignored. */
    if (!cfg.exact
        && (why = unused_setting(&cfg, ir, seed_set)) != NULL) {
        fgm_ir_free(ir);
        return cli_fail(CLI_EUSAGE, "run: %s", why);
    }
    for (v = 0; v < nshow; v++)
        if ((code = parse_show(ir, shows[v], &cfg)) != CLI_OK)
            goto done;
    /* Before the model is opened: a missing or unusable file is
     * reported before a plugin is built for nothing. */
    if (observe && (code = obs_file_open(&of, "run", observe, ir, model, n,
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
    sh.of = observe ? &of : NULL;
    sh.stride = stride;
    sh.nsets = observe ? of.nsets : 1;
    if (cfg.fmt == FMT_CSV)
        printf("observation,kind,variable,value,p\n");
    if (cfg.fmt == FMT_JSON)
        printf("[");
    code = run_all(&sh, &w0, &mo, (int)jobs);
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
