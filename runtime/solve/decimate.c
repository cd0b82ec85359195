/* runtime/solve/decimate.c: pairwise sum-product BP with warm starts (seed 001, v3).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Notebook 001, section 6 (BeliefPropagationSolver, BPBacktrackingSolver):
 * messages live in probability space, normalized; the != message to x is
 * m(v) = 1 - q_y(v) with q_y the cavity of y; sum-product; damping 0.5;
 * flooding schedule; clues and decisions are hard evidence; messages are
 * kept from one decision to the next.  The engine computes the same
 * messages: the flooding schedule damps both directions (damp_both, the
 * stored variable-to-factor messages), clues are written as the seed's
 * (1e-12, ..., 1) (FGM_DECIMATE_CLUE_EPS), and its BP_EPS arithmetic is
 * kept (every normalized message floored at 1e-12, and 1e-12 added to
 * every message and evidence entry in its products: fgm_k_neq_seed,
 * fgm_k_v2f_batch, the unary vectors of runtime/model.c).  Checked
 * against a line-for-line NumPy transcription of the seed's
 * BeliefPropagationSolver (2026-12-04): the same solved flag, restarts
 * and decisions on every grid of Easy51 (36/51) and hardest (3/11:
 * grids 7, 9 and 10).  Without the BP_EPS arithmetic (floor 1e-30, no
 * offset) the engine solved 2/11 of hardest, as the transcription did
 * with that one change; earlier still, without the damped
 * variable-to-factor messages, 0/11.  Nor can the sweep skip the
 * messages toward clues and decisions (frozen from their pinning on,
 * which would save about half of a sweep late in an attempt): tried in
 * the interpreter (2026-12-06), 5 of the 62 grids of Easy51 and hardest
 * then left the transcription's solved flag, restarts or decisions
 * (37/51 and 4/11 solved), through the 1e-12 terms those messages keep
 * in a pinned cell's outgoing ones.
 *
 * The model is the engine's (compiled or interpreted: opts->backend).  A
 * run continues the last one through the public warm start
 * (fgm_run_opts.warm); this file reaches into the model's run state
 * (runtime/model.h) to read the factor messages for the exclusion test,
 * and to save and restore them during a search (alldiff_cache.c does the
 * same for the alldiff solvers).  The state is the runtime's in both
 * backends (plugins never allocate), so this works the same on both.
 */
#include <stdlib.h>
#include <string.h>
#include "../model.h"
#include "decimate.h"

struct fgm_decimate {
    const fgm_csp *csp;
    fgm_model *model;
    size_t nmsg;            /* doubles of factor messages */
    size_t nbelief;         /* doubles of beliefs */
    int v2f;                /* stored variable-to-factor messages (the
                             * seed's flooding schedule damps them) */
    double *saved;          /* nslots * (2 nmsg + nbelief) */
    int nslots;
};

void
fgm_decimate_free(fgm_decimate *d)
{
    if (!d)
        return;
    fgm_model_free(d->model);
    free(d->saved);
    free(d);
}

fgm_decimate *
fgm_decimate_new(const fgm_csp *csp, const fgm_solve_opts *opts,
                 fgm_decimate_schedule sched, fgm_status *st)
{
    fgm_decimate *d = calloc(1, sizeof *d);
    fgm_ir *ir = fgm_ir_copy(csp->ir);
    char name[FGM_IR_MAXNAME];

    if (!d || !ir) {
        free(d);
        fgm_ir_free(ir);
        return NULL;
    }
    d->csp = csp;
    d->v2f = sched == FGM_DECIMATE_FLOODING;
    /* Its own name: the plugin (generated/NAME_decim.bp-sum.so) must not
     * collide with another solver's BP settings for the same model. */
    snprintf(name, sizeof name, "%.*s_decim%s", FGM_IR_MAXNAME - 11,
             ir->name, sched == FGM_DECIMATE_SEQUENTIAL ? "_seq" : "");
    memcpy(ir->name, name, sizeof name);
    ir->infer.algo = FGM_ALGO_BP_SUM;
    ir->infer.alldiff = FGM_ALLDIFF_PAIRWISE;
    if (sched == FGM_DECIMATE_SEQUENTIAL) {
        ir->infer.schedule = FGM_SCHEDULE_SEQUENTIAL;
        ir->infer.damp_both = 0;
        ir->infer.damping = FGM_DECIMATE_SEQ_DAMPING;
    } else {
        ir->infer.schedule = FGM_SCHEDULE_PARALLEL;
        ir->infer.damp_both = 1;    /* the seed damps c2f and f2c */
        ir->infer.damping = FGM_DECIMATE_DAMPING;
    }
    ir->infer.iterations = FGM_DECIMATE_INIT_SWEEPS;
    ir->infer.tolerance = 0.0;
    d->model = fgm_solve_open_model(ir, opts, st);
    if (!d->model) {
        free(d);
        return NULL;
    }
    fgm_model_set_clamp_epsilon(d->model, FGM_DECIMATE_CLUE_EPS);
    d->nmsg = (size_t)d->model->sched->nedges
              * (size_t)d->model->sched->stride;
    d->nbelief = (size_t)d->model->sched->nvars
                 * (size_t)d->model->sched->stride;
    return d;
}

void
fgm_decimate_observe(fgm_decimate *d, const int *given)
{
    int v;

    fgm_model_clear(d->model);
    for (v = 0; v < d->csp->nvars; v++)
        if (given[v] >= 0)
            fgm_model_observe_var(d->model, v, given[v]);
}

void
fgm_decimate_fix(fgm_decimate *d, int v, int value)
{
    fgm_model_observe_var(d->model, v, value);
}

fgm_status
fgm_decimate_run(fgm_decimate *d, int sweeps, int fresh, fgm_solve_job *job)
{
    fgm_run_opts ro;

    if (job->deadline > 0 && fgm_now() > job->deadline)
        return FGM_ETIMEOUT;
    /* A fresh run starts from uniform messages in both directions, as the
     * seed does (so its first sweep changes nothing, as the seed's);
     * decisions continue from the current messages. */
    memset(&ro, 0, sizeof ro);
    ro.iterations = sweeps;
    ro.warm = !fresh;
    return fgm_job_infer(job, d->model, &ro, NULL);
}

const double *
fgm_decimate_belief(const fgm_decimate *d, int v)
{
    return d->model->st.belief + (size_t)v * (size_t)d->model->sched->stride;
}

double
fgm_decimate_margin(const fgm_decimate *d, int v, int *top)
{
    const double *b = fgm_decimate_belief(d, v);
    double top1 = -1.0, top2 = -1.0;
    int j, arg = 0;

    for (j = 0; j < d->csp->card[v]; j++) {
        if (b[j] > top1) {
            top2 = top1;
            top1 = b[j];
            arg = j;
        } else if (b[j] > top2) {
            top2 = b[j];
        }
    }
    if (top)
        *top = arg;
    if (!(top1 > 0.0))
        return 0.0;
    return top2 > 0.0 ? 1.0 - top2 / top1 : 1.0;
}

int
fgm_decimate_excluded(const fgm_decimate *d, int v, int value)
{
    const fgm_sched *s = d->model->sched;
    const double *msg = d->model->st.msg;
    /* The seed's flooding messages are stored plus BP_EPS
     * (fgm_k_neq_seed). */
    double eps = d->v2f ? FGM_K_SEED_EPS : 0.0;
    int k;

    for (k = s->var_edge_off[v]; k < s->var_edge_off[v + 1]; k++)
        if (msg[(size_t)s->var_edges[k] * (size_t)s->stride + value] - eps
            < FGM_DECIMATE_EXCLUDE)
            return 1;
    return 0;
}

int
fgm_decimate_dead(const fgm_decimate *d, int v)
{
    int j;

    for (j = 0; j < d->csp->card[v]; j++)
        if (!fgm_decimate_excluded(d, v, j))
            return 0;
    return 1;
}

/* The doubles of one saved state: both message directions (factor
 * messages in msg, the stored variable-to-factor ones in prev) and the
 * beliefs. */
static size_t
state_doubles(const fgm_decimate *d)
{
    return 2 * d->nmsg + d->nbelief;
}

size_t
fgm_decimate_state_bytes(const fgm_decimate *d)
{
    return state_doubles(d) * sizeof(double);
}

int
fgm_decimate_save(fgm_decimate *d, int slot, int nslots)
{
    size_t per = state_doubles(d);
    double *p;

    if (slot >= d->nslots) {
        int n = d->nslots ? d->nslots : 8;

        while (n <= slot)
            n *= 2;
        if (n > nslots)
            n = nslots;
        p = realloc(d->saved, (size_t)n * per * sizeof *p);
        if (!p)
            return 0;
        d->saved = p;
        d->nslots = n;
    }
    p = d->saved + (size_t)slot * per;
    memcpy(p, d->model->st.msg, d->nmsg * sizeof *p);
    if (d->v2f)
        memcpy(p + d->nmsg, d->model->st.prev, d->nmsg * sizeof *p);
    memcpy(p + 2 * d->nmsg, d->model->st.belief, d->nbelief * sizeof *p);
    return 1;
}

void
fgm_decimate_restore(fgm_decimate *d, int slot)
{
    const double *p = d->saved + (size_t)slot * state_doubles(d);

    memcpy(d->model->st.msg, p, d->nmsg * sizeof *p);
    if (d->v2f)
        memcpy(d->model->st.prev, p + d->nmsg, d->nmsg * sizeof *p);
    memcpy(d->model->st.belief, p + 2 * d->nmsg, d->nbelief * sizeof *p);
}

int
fgm_decimate_compiled(const fgm_decimate *d)
{
    return fgm_model_is_compiled(d->model);
}
