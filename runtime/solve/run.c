/* runtime/solve/run.c: the solve driver: deadline, RNG, timing, verification.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>
#include "run.h"

struct fgm_runner {
    const fgm_solver *solver;
    const fgm_csp *csp;
    const fgm_solve_opts *opts;
    void *ws;
    gsl_rng *rng;
};

fgm_runner *
fgm_runner_new(const fgm_solver *solver, const fgm_csp *csp,
               const fgm_solve_opts *opts, fgm_status *status,
               const char **reason)
{
    static const fgm_solve_opts no_opts;
    fgm_runner *r;
    const char *why = solver->refuses ? solver->refuses(csp) : NULL;

    *reason = NULL;
    if (opts && (opts->iterations < 0
                 || opts->iterations > FGM_MAX_ITERATIONS
                 || opts->fix_per_round < 0
                 || !fgm_backend_valid(opts->backend))) {
        /* Refused here, once: a solver's model run refused them too,
         * after which ep-robust read an answer from no run. */
        *status = FGM_EINVAL;
        return NULL;
    }
    if (why) {
        *reason = why;
        *status = FGM_EUNSUPPORTED;
        return NULL;
    }
    *status = FGM_ENOMEM;
    r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->solver = solver;
    r->csp = csp;
    r->opts = opts;
    r->rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r->rng)
        goto fail;
    if (solver->ws_new) {
        fgm_status why_not = FGM_ENOMEM;

        r->ws = solver->ws_new(csp, opts ? opts : &no_opts, &why_not);
        if (!r->ws) {
            /* Out of memory (FGM_ENOMEM, *status already), or a model
             * that cannot run on the requested backend, reported. */
            if (why_not == FGM_EUNSUPPORTED) {
                *status = FGM_EUNSUPPORTED;
                *reason = "the solver's model could not be prepared";
            }
            goto fail;
        }
    }
    *status = FGM_OK;
    return r;
fail:
    fgm_runner_free(r);
    return NULL;
}

fgm_status
fgm_job_infer(fgm_solve_job *job, fgm_model *m, fgm_run_opts *ro, int *ran)
{
    fgm_run_info info = { 0 };  /* a refused run writes none */
    fgm_status st;

    ro->deadline = job->deadline;
    st = fgm_model_run(m, ro, &info);
    job->stats.inferences++;
    job->stats.sweeps += info.sweeps;
    job->stats.compiled = fgm_model_is_compiled(m);
    if (ran)
        *ran = info.sweeps;
    return st;
}

fgm_model *
fgm_solve_open_model(fgm_ir *ir, const fgm_solve_opts *opts, fgm_status *st)
{
    return fgm_solve_open_model_until(ir, opts, 0.0, st);
}

fgm_model *
fgm_solve_open_model_until(fgm_ir *ir, const fgm_solve_opts *opts,
                           double deadline, fgm_status *st)
{
    fgm_model_opts mo;
    fgm_model *m = NULL;
    fgm_status s;

    memset(&mo, 0, sizeof mo);
    mo.backend = opts->backend;
    mo.out_dir = opts->out_dir;
    mo.cc = opts->cc;
    mo.deadline = deadline;
    s = fgm_model_open_ir(ir, &mo, &m, opts->diag, opts->diag_ctx);
    if (s != FGM_OK && s != FGM_ENOMEM && st)
        *st = s == FGM_ETIMEOUT ? s : FGM_EUNSUPPORTED;
    return s == FGM_OK ? m : NULL;
}

void
fgm_runner_free(fgm_runner *r)
{
    if (!r)
        return;
    if (r->ws && r->solver->ws_free)
        r->solver->ws_free(r->ws);
    if (r->rng)
        gsl_rng_free(r->rng);
    free(r);
}

fgm_status
fgm_runner_solve(fgm_runner *r, const int *given, unsigned long seed,
                 double timeout_ms, int *solution, fgm_solve_result *res)
{
    static const fgm_solve_opts no_opts;
    fgm_solve_job job;
    double t0;
    int v;

    memset(res, 0, sizeof *res);
    memset(&job, 0, sizeof job);
    job.csp = r->csp;
    job.given = given;
    job.solution = solution;
    job.opts = r->opts ? r->opts : &no_opts;
    job.rng = r->rng;
    job.ws = r->ws;
    /* Seeding mt19937 fills 624 words: only pay for it when it is used. */
    if (r->solver->flags & FGM_SOLVER_RANDOM)
        gsl_rng_set(r->rng, seed);
    for (v = 0; v < r->csp->nvars; v++)
        solution[v] = -1;
    t0 = fgm_now();
    job.deadline = timeout_ms > 0 ? t0 + timeout_ms * 1e-3 : 0;
    res->status = r->solver->solve(&job);
    res->ms = (fgm_now() - t0) * 1e3;
    res->stats = job.stats;
    if (res->status == FGM_OK) {
        /* A solver's FGM_OK is a claim: check it against every factor. */
        res->valid = fgm_csp_verify(r->csp, given, solution);
        res->solved = res->valid;
        if (!res->valid)
            res->status = FGM_EUNSOLVED;
        /* A wrong answer's errors (the seed's NbErrors), for every
         * solver that returns one (the EP solvers and bp-decimate return
         * their grid unverified, as the seeds do); the alldiff solvers
         * count their last attempt's grid themselves, as they return
         * none. */
        if (!res->valid && res->stats.errors == 0)
            res->stats.errors = fgm_csp_conflicts(r->csp, given, solution);
    }
    if (timeout_ms > 0 && res->ms > timeout_ms
        && (res->status == FGM_OK || res->status == FGM_EUNSOLVED)) {
        /* Solvers poll their deadline every few hundred steps, so one may
         * end, even solved, past it: the benchmark protocol counts that
         * run a timeout, out of the medians, and so does every caller
         * (dlx with a 0.001 ms timeout "solved" 9/11 of hardest at a
         * median of 0.016 ms in fgm solve, 0/11 in fgm bench). */
        res->status = FGM_ETIMEOUT;
        res->solved = 0;
    }
    return res->status;
}

void
fgm_puzzle_to_given(const fgm_puzzle *p, int *given)
{
    int i;

    if (!p || !given || p->n < 1 || p->n > FGM_PUZZLE_MAXN)
        return;
    for (i = 0; i < p->n * p->n; i++)
        given[i] = p->cells[i] ? p->cells[i] - 1 : -1;
}

void
fgm_puzzle_from_solution(fgm_puzzle *p, const int *sol)
{
    int i;

    if (!p || !sol || p->n < 1 || p->n > FGM_PUZZLE_MAXN)
        return;
    for (i = 0; i < p->n * p->n; i++)
        /* An index past N would make a symbol no N x N puzzle has (300
         * wrapped to 45): the cell is left empty, as for -1. */
        p->cells[i] = (unsigned char)(sol[i] >= 0 && sol[i] < p->n
                                      ? sol[i] + 1 : 0);
}

int
fgm_puzzle_fits(const fgm_csp *csp, const fgm_puzzle *p)
{
    int n, i;

    /* A model's grid may be larger than any puzzle (cells[] holds
     * FGM_PUZZLE_MAXCELLS). */
    fgm_ir_grid(csp->ir, &n, NULL);
    if (n == 0 || n > FGM_PUZZLE_MAXN || p->n != n || n * n > csp->nvars)
        return 0;
    for (i = 0; i < n * n; i++)
        if (p->cells[i] > n)
            return 0;
    return 1;
}

fgm_status
fgm_puzzle_clues(const fgm_csp *csp, const fgm_puzzle *p, int *given)
{
    int v;

    if (!csp || !given)
        return FGM_EINVAL;
    for (v = 0; v < csp->nvars; v++)
        given[v] = -1;
    /* GIVEN holds nvars entries: a puzzle of another grid would write
     * past them. */
    if (p && !fgm_puzzle_fits(csp, p))
        return FGM_EINVAL;
    fgm_puzzle_to_given(p, given);
    return FGM_OK;
}
