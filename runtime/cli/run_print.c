/* runtime/cli/run_print.c: `fgm run`'s output: one observation's marginals
 * and Dirichlet posteriors as text, CSV or JSON.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>
#include "run.h"

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

void
run_print_result(const fgm_ir *ir, const run_cfg *cfg, long k,
                 const double *m, const double *se, const double *post,
                 int stride, const double *mean, int mean_stride,
                 const char *info, const fgm_run_info *ri, double log_z,
                 int incomplete, const char *clash, run_tally *t)
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
        /* JSON has no inf: a log Z of -inf (no assignment the messages
         * allow has weight) is a field of its own, since a model may
         * leave no variable to name in "contradiction" (a sum that no
         * assignment meets).  vmp's is a lower bound, not an estimate,
         * and a bound of -inf says nothing of Z. */
        if (isfinite(log_z))
            fprintf(t->out, "\"%s\": %.17g, ",
                    cli_algo_is(ir, "vmp") ? "log_z_bound"
                                                        : "log_z", log_z);
        else if (log_z < 0 && !cli_algo_is(ir, "vmp"))
            fprintf(t->out, "\"zero_weight\": true, ");
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
