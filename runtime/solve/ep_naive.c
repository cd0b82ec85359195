/* runtime/solve/ep_naive.c: ep-naive, the seed's NaiveProbabilisticSolver.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Notebook 000, section 4: the clues are baked into the model (observed
 * cells), so every puzzle is a new model, and with the compiled backend a
 * new plugin: generate C, run the C compiler, load, infer (50 EP sweeps),
 * take each cell's argmax.  Its time is dominated by compilation, which is
 * the point of measuring it next to ep-robust (compiled once).  The plugin
 * is named after the puzzle's IR hash (so parallel workers never share a
 * file) and removed after use: a per-puzzle plugin is never reused.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ep_model.h"

/* The model of CSP->ir with the clues GIVEN as one-hot evidence. */
static fgm_ir *
naive_ir(const fgm_csp *csp, const int *given)
{
    fgm_ir *ir = fgm_ep_robust_ir(csp->ir), *out;
    double onehot[FGM_IR_MAXCARD];
    fgm_status st;
    int v, j, ok = 1;

    if (!ir)
        return NULL;
    /* Only the constraints and the clues: drop the priors again. */
    out = fgm_ir_new("naive");
    for (v = 0; out && v < ir->narrays && ok; v++) {
        const fgm_ir_array *a = &ir->arrays[v];

        if (a->kind == FGM_ARRAY_DISCRETE)
            ok = fgm_ir_add_array(out, a->name, a->ndims, a->dims, a->lo,
                                  a->card, 0, &st) >= 0;
    }
    for (j = 0; out && j < ir->nfactors && ok; j++) {
        const fgm_ir_factor *f = &ir->factors[j];

        if (!fgm_ir_is_draw(f))
            ok = fgm_ir_add_factor(out, f->kind, f->arity,
                                   fgm_ir_scope(ir, f), f->nparams,
                                   fgm_ir_params(ir, f), &st) >= 0;
    }
    for (v = 0; out && v < csp->nvars && ok; v++) {
        if (given[v] < 0)
            continue;
        for (j = 0; j < csp->card[v]; j++)
            onehot[j] = j == given[v];
        ok = fgm_ir_add_factor(out, FGM_FACTOR_EVIDENCE, 1, &v, csp->card[v],
                               onehot, &st) >= 0;
    }
    fgm_ir_free(ir);
    if (out && ok) {
        out->infer = csp->ir->infer;
        out->infer.algo = FGM_ALGO_EP;
        snprintf(out->name, sizeof out->name, "naive_%016" PRIx64,
                 fgm_ir_hash(out));
        return out;
    }
    fgm_ir_free(out);
    return NULL;
}

/* The per-puzzle plugin files of one model: its C and its plugin, both
 * removed once the puzzle is solved, whichever backend the model ended
 * on (with no working compiler each puzzle left its C).  Listed for
 * fgm_abort_cleanup while the puzzle runs: Ctrl-C mid-batch left the
 * puzzle's plugin and C behind.  The paths are sized to the folder's
 * name (a fixed 1024 bytes cut a long --out-dir, and the unlinks
 * missed). */
typedef struct naive_files {
    char *path[2];
    int token[2];
} naive_files;

/* Names and lists the files of model NAME (none on the interpreter,
 * which writes nothing; a path that could not be had is not removed). */
static void
naive_files_list(naive_files *f, const fgm_solve_opts *opts,
                 const char *name)
{
    static const char *const ext[2] = { "c", "so" };
    const char *dir = opts->out_dir ? opts->out_dir : "generated";
    size_t size = strlen(dir) + strlen(name) + sizeof "/.ep.so";
    int i;

    for (i = 0; i < 2; i++) {
        f->path[i] = NULL;
        f->token[i] = -1;
        if (opts->backend == FGM_BACKEND_INTERPRETED
            || !(f->path[i] = malloc(size)))
            continue;
        snprintf(f->path[i], size, "%s/%s.ep.%s", dir, name, ext[i]);
        f->token[i] = fgm_cleanup_path(f->path[i], 0);
    }
}

static void
naive_files_remove(naive_files *f)
{
    int i;

    for (i = 0; i < 2; i++)
        if (f->path[i]) {
            unlink(f->path[i]);
            fgm_cleanup_drop(f->token[i]);
            free(f->path[i]);
        }
}

/* A per-puzzle plugin is never there before: "not found; rebuilding" is
 * the normal path, not a fallback worth a line per puzzle, and a build
 * stopped at the puzzle's deadline is a timeout the run counts.  Every
 * other message (a compiler failure, interpreting instead) goes
 * through. */
static void
quiet_diag(void *ctx, const char *msg)
{
    const fgm_solve_opts *o = ctx;
    const char *tail = "not found; rebuilding";
    size_t n = strlen(msg), t = strlen(tail);

    if (n >= t && strcmp(msg + n - t, tail) == 0)
        return;
    if (strstr(msg, "stopped at the deadline")
        || strstr(msg, "the deadline passed before the build"))
        return;
    if (o->diag)
        o->diag(o->diag_ctx, msg);
}

static fgm_status
solve(fgm_solve_job *job)
{
    fgm_ir *ir = naive_ir(job->csp, job->given);
    char name[FGM_IR_MAXNAME];
    fgm_solve_opts opts;
    naive_files files;
    fgm_ep *ep;
    fgm_status st, why_not = FGM_ENOMEM;
    int v;

    if (!ir)
        return FGM_ENOMEM;
    snprintf(name, sizeof name, "%s", ir->name);
    opts = *job->opts;
    opts.diag = quiet_diag;
    opts.diag_ctx = (void *)job->opts;
    /* The plugin's build is part of the puzzle's time: stopped at its
     * deadline (it ran its 0.3-0.6 s past --timeout-ms 1). */
    ep = fgm_ep_new_until(job->csp, ir, &opts, job->deadline, &why_not);
    /* Listed once the build has let go of its own slots (the table holds
     * four a build, runtime/cleanup.c): a signal between the build's
     * rename and this leaves the files, as it did before. */
    naive_files_list(&files, job->opts, name);
    if (!ep) {
        /* FGM_EUNSUPPORTED: this puzzle's plugin could not be had on
         * --backend compiled (reported); the caller stops the run. */
        naive_files_remove(&files);
        /* Stopped in its plugin's build: the puzzle was on the compiled
         * path, and nothing was interpreted (it was reported so). */
        if (why_not == FGM_ETIMEOUT
            && job->opts->backend != FGM_BACKEND_INTERPRETED)
            job->stats.compiled = 1;
        return why_not == FGM_EUNSUPPORTED || why_not == FGM_ETIMEOUT
               ? why_not : FGM_ENOMEM;
    }
    st = fgm_ep_infer(ep, job);
    for (v = 0; v < job->csp->nvars && st == FGM_OK; v++)
        job->solution[v] = fgm_ep_answer(ep, v, NULL);
    fgm_ep_free(ep);
    naive_files_remove(&files);
    return st;          /* the runner counts a wrong grid's errors */
}

const fgm_solver fgm_solver_ep_naive = {
    "ep-naive",
    "EP with the clues baked in: one model (and plugin build) per puzzle "
    "(seed 000 s.4)",
    0,
    NULL,
    NULL,
    NULL,
    solve,
};
