/* runtime/cli/run_exact.c: `fgm run --backend exact`: one observation's
 * exact marginals (Dancing Links, variable elimination or enumeration) or
 * its most probable assignment (--map).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"

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
        if (st == FGM_OK && count == cfg->cap && cfg->cap < LONG_MAX) {
            /* The search stops at the cap: exactly CAP solutions read as
             * more (enumeration, which looks one past, said complete).
             * One more search, for CAP + 1, tells them apart. */
            fgm_dlx_limits more = lim;
            long n = 0;

            more.cap = cfg->cap + 1;
            incomplete = fgm_dlx_run(dlx, given, &more, &n, NULL, NULL, NULL)
                         != FGM_OK || n > cfg->cap;
        }
        snprintf(text, sizeof text, "%s (dancing links), solutions=%ld%s",
                 what, count, incomplete ? " (incomplete: cap or timeout "
                                           "reached)" : "");
        /* Every solution weighs the same (or Dancing Links would not
         * take the model): the count times that weight, which for
         * max-product is the largest. */
        if (!incomplete && count > 0)
            log_z = (max ? 0.0 : log((double)count))
                    + fgm_csp_solution_log_weight(csp) + shift;
        if (!isnan(log_z))
            append_log_z(text, sizeof text, max, log_z);
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
        st = max ? fgm_enumerate_max_log(csp, given, cfg->cap, deadline, m,
                                         &count, &log_z)
                 : fgm_enumerate_log_z(csp, given, cfg->cap, deadline, m,
                                       mean, mstride, &count, &log_z);
        walked = mean != NULL;
        incomplete = st != FGM_OK;
        log_z += shift;
        snprintf(text, sizeof text, "%s (enumeration), assignments=%ld%s",
                 what, count, incomplete ? " (incomplete: cap or timeout "
                                           "reached)" : "");
        if (!incomplete)
            append_log_z(text, sizeof text, max, log_z);
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
    run_print_result(ir, cfg, k, m, NULL, NULL, stride, mean, mstride, text,
                     NULL, log_z, incomplete, NULL, t);
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
