/* runtime/cli/run_jobs.c: `fgm run -j N`: observation sets on N threads.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every worker walks the whole observation file (checked whole before, so
 * a walk only fails when memory runs out) and runs the sets K with K mod
 * N its own, each into memory (open_memstream): its output and its
 * messages.  The caller's thread prints the sets in their order as they
 * are done, so that stdout and stderr are what one worker prints, byte
 * for byte (timings aside).  With one worker no thread is started.
 *
 * A worker runs no set more than RUN_AHEAD sets a worker past the first
 * set not printed: behind one slow set, the others' output waits in
 * memory, and without a bound a long file's whole output would.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"

/* Sets a worker may run past the first one not printed, per worker. */
#define RUN_AHEAD 16

/* Prints the sets done in order from SH->next on (SH->mu held), and
 * notes how the run stands; past a set that ended the run, prints
 * nothing more. */
static void
print_ready(run_shared *sh)
{
    set_out *o;
    int werr = 0;

    while (sh->code == CLI_OK && sh->next < sh->nsets
           && sh->next <= sh->stop_at && sh->sets[sh->next].done) {
        o = &sh->sets[sh->next++];
        if (o->errlen)
            fwrite(o->err, 1, o->errlen, stderr);
        if (o->outlen) {
            if (sh->cfg->fmt == FMT_JSON && sh->printed)
                fputs(",\n", stdout);
            fwrite(o->out, 1, o->outlen, stdout);
            sh->printed = 1;
            werr = ferror(stdout) ? errno : 0;
        }
        sh->refused |= o->refused;
        sh->code = o->code;
        if (ferror(stdout) && sh->code == CLI_OK) {
            /* A write error (a full disk, a reader gone with SIGPIPE
             * ignored) ends the run now: it ran every set first.  Said
             * here, with its errno, and cleared: cmd_run's last flush
             * has nothing left to say. */
            sh->code = cli_fail(CLI_EINPUT, "run: write error on standard "
                                "output: %s", strerror(werr));
            clearerr(stdout);
        }
        free(o->out);
        free(o->err);
        o->out = o->err = NULL;
    }
}

/* Waits (SH->mu held) until set K may run: it is within RUN_AHEAD sets
 * a worker of the first set not printed.  Returns 0 when the run ends
 * before K (a set before it ended the run). */
static int
wait_turn(run_shared *sh, long k)
{
    long ahead = (long)RUN_AHEAD * sh->nworkers;

    while (k <= sh->stop_at && sh->code == CLI_OK && k - sh->next >= ahead)
        pthread_cond_wait(&sh->cv, &sh->mu);
    return k <= sh->stop_at && sh->code == CLI_OK;
}

/* Runs set K (in W's sink) into its set_out.  Returns its code. */
static int
run_set(run_worker *w, long k)
{
    run_shared *sh = w->sh;
    set_out *o = &sh->sets[k];
    run_tally t = { NULL, NULL, 0, NULL, 0, NULL };
    int code;

    t.out = open_memstream(&o->out, &o->outlen);
    t.err = open_memstream(&o->err, &o->errlen);
    if (!t.out || !t.err) {
        if (t.out)
            fclose(t.out);
        if (t.err)
            fclose(t.err);
        free(o->out);
        free(o->err);
        o->out = o->err = NULL;
        o->outlen = o->errlen = 0;
        return cli_fail(CLI_EINTERNAL, "run: out of memory");
    }
    t.file = sh->of ? sh->of->shown : sh->cfg->model;
    t.line = sh->of ? w->sink.set_line : 0;
    t.given = w->given;
    code = sh->cfg->exact ? run_exact_set(sh->ir, sh->csp, w->dlx, &w->sink,
                                          sh->cfg, k, &t)
                          : run_engine(w->fm, sh->stride, sh->cfg, k, &t);
    if (fclose(t.out) != 0 || fclose(t.err) != 0)
        code = cli_fail(CLI_EINTERNAL, "run: out of memory");
    o->refused = t.refused;
    return code;
}

/* A worker's loop: every set is read by every worker (reading is cheap
 * next to a run, and each walk has its own state), set K is run by
 * worker K mod nworkers.  With one worker it runs on the caller's
 * thread and prints each set as it is done. */
static void *
run_sets(void *arg)
{
    run_worker *w = arg;
    run_shared *sh = w->sh;
    long k;
    int r, code;

    /* Until run_all knows how many workers it could start: set K is
     * worker K mod that many's. */
    pthread_mutex_lock(&sh->mu);
    while (!sh->go)
        pthread_cond_wait(&sh->cv, &sh->mu);
    r = w->id >= sh->nworkers;
    pthread_mutex_unlock(&sh->mu);
    if (r)
        return NULL;
    for (k = 0; k < sh->nsets; k++) {
        pthread_mutex_lock(&sh->mu);
        r = k > sh->stop_at;
        pthread_mutex_unlock(&sh->mu);
        if (r)
            break;
        if (sh->of && (r = obs_file_next(&w->walk, sh->ir, &w->sink)) <= 0) {
            /* The file was checked whole, so only memory runs out here;
             * this walk cannot go on: the sets before K are printed,
             * none from K on (another worker may be running K). */
            code = r < 0 ? w->walk.code : cli_fail(CLI_EINTERNAL, "run: "
                                                   "the sets ran out");
            pthread_mutex_lock(&sh->mu);
            sh->stop_at = k - 1 < sh->stop_at ? k - 1 : sh->stop_at;
            sh->failed = sh->failed ? sh->failed : code;
            pthread_cond_broadcast(&sh->cv);
            pthread_mutex_unlock(&sh->mu);
            break;
        }
        if (k % sh->nworkers != w->id)
            continue;
        pthread_mutex_lock(&sh->mu);
        r = wait_turn(sh, k);
        pthread_mutex_unlock(&sh->mu);
        if (!r)
            break;
        code = run_set(w, k);
        pthread_mutex_lock(&sh->mu);
        sh->sets[k].code = code;
        sh->sets[k].done = 1;
        if (code != CLI_OK && k < sh->stop_at)
            sh->stop_at = k;
        if (sh->nworkers == 1)
            print_ready(sh);
        pthread_cond_broadcast(&sh->cv);
        pthread_mutex_unlock(&sh->mu);
    }
    return NULL;
}

/* Worker W's model, clue arrays and walk, for a run on IR with options
 * MO (worker 0's, W0, are the caller's).  Returns CLI_OK or the exit
 * code. */
static int
worker_open(run_worker *w, const run_worker *w0, const fgm_ir *ir,
            const fgm_model_opts *mo)
{
    run_shared *sh = w->sh;
    int nvars = fgm_ir_nvars(ir), v;
    fgm_status st = FGM_OK;

    if (!w->given && !(w->given = malloc(((size_t)nvars + 1)
                                         * sizeof *w->given)))
        return cli_fail(CLI_EINTERNAL, "run: out of memory");
    for (v = 0; v < nvars; v++)
        w->given[v] = -1;
    /* Dancing Links where worker 0 has it (cmd_run.c decides), so that
     * every set is counted the same way whichever worker runs it. */
    if (w0->dlx && !w->dlx && !(w->dlx = fgm_dlx_new(sh->csp, &st)))
        return cli_fail(cli_exit_code(st), "run: %s", fgm_strerror(st));
    if (!sh->cfg->exact && !w->fm) {
        /* On the backend worker 0 got: the plugin it loaded (or built),
         * up to date now, for a state of its own; or the interpreter
         * where it fell back (with auto, each worker tried the build
         * again and said why it failed again). */
        fgm_ir *copy = fgm_ir_copy(ir);
        fgm_model_opts o = *mo;

        o.backend = fgm_model_is_compiled(w0->fm) ? FGM_BACKEND_COMPILED
                                                  : FGM_BACKEND_INTERPRETED;
        w->vec = malloc((size_t)sh->stride * sizeof *w->vec);
        if (!copy || !w->vec) {
            fgm_ir_free(copy);
            return cli_fail(CLI_EINTERNAL, "run: out of memory");
        }
        if (fgm_model_open_ir(copy, &o, &w->fm, cli_diag, NULL) != FGM_OK)
            return CLI_EINPUT;      /* the sink has said why */
    }
    w->sink.model = w->fm;
    w->sink.vec = w->vec;
    w->sink.given = w->given;
    w->sink.exact = sh->cfg->exact;
    return sh->of ? obs_file_walk(sh->of, &w->walk) : CLI_OK;
}

static void
worker_close(run_worker *w)
{
    if (w->sh->of)
        obs_file_stop(&w->walk);
    fgm_ir_free(w->sink.soft);
    if (w->id == 0)
        return;     /* the caller's */
    fgm_model_free(w->fm);
    fgm_dlx_free(w->dlx);
    free(w->given);
    free(w->vec);
}

/* Runs SH's sets on NJOBS workers (at most one a set), worker 0 on
 * W0's model and arrays, and prints them in order.  Returns the exit
 * code. */
int
run_all(run_shared *sh, run_worker *w0, const fgm_model_opts *mo, int njobs)
{
    run_worker *ws;
    int i, made = 0, started = 0, code = CLI_OK, err, asked = njobs;

    if (njobs > sh->nsets)
        njobs = sh->nsets > 0 ? (int)sh->nsets : 1;
    sh->sets = calloc((size_t)sh->nsets + 1, sizeof *sh->sets);
    ws = calloc((size_t)njobs, sizeof *ws);
    if (!sh->sets || !ws) {
        free(sh->sets);
        free(ws);
        return cli_fail(CLI_EINTERNAL, "run: out of memory");
    }
    pthread_mutex_init(&sh->mu, NULL);
    pthread_cond_init(&sh->cv, NULL);
    sh->nworkers = njobs;
    sh->stop_at = LONG_MAX;
    ws[0] = *w0;
    for (i = 0; i < njobs && code == CLI_OK; i++, made++) {
        ws[i].sh = sh;
        ws[i].id = i;
        code = worker_open(&ws[i], &ws[0], sh->ir, mo);
    }
    for (i = 0; code == CLI_OK && njobs > 1 && i < njobs; i++, started++)
        if ((err = pthread_create(&ws[i].tid, NULL, run_sets, &ws[i]))
            != 0) {
            /* -j is a bound, as for fgm solve: the workers started run
             * every set (it failed the run, saying no more than
             * "cannot start a thread"). */
            fprintf(stderr, "fgm: run: -j %d: %d worker%s, no room for "
                    "more (%s)\n", asked, started > 0 ? started : 1,
                    started > 1 ? "s" : "", strerror(err));
            break;
        }
    pthread_mutex_lock(&sh->mu);
    sh->nworkers = started > 0 ? started : 1;
    sh->go = 1;
    pthread_cond_broadcast(&sh->cv);
    pthread_mutex_unlock(&sh->mu);
    if (code == CLI_OK && started == 0)
        run_sets(&ws[0]);   /* on this thread, printing as it goes */
    pthread_mutex_lock(&sh->mu);
    if (code != CLI_OK)
        sh->stop_at = -1;   /* no set more: the run has failed */
    while (started > 0) {
        print_ready(sh);
        pthread_cond_broadcast(&sh->cv);    /* wait_turn: room ahead */
        if (sh->next >= sh->nsets || sh->next > sh->stop_at
            || sh->code != CLI_OK)
            break;
        pthread_cond_wait(&sh->cv, &sh->mu);
    }
    pthread_mutex_unlock(&sh->mu);
    for (i = 0; i < started; i++)
        pthread_join(ws[i].tid, NULL);
    print_ready(sh);    /* the threads are done: no lock needed */
    if (code == CLI_OK)
        code = sh->code != CLI_OK ? sh->code : sh->failed;
    for (i = 0; i < made; i++)
        worker_close(&ws[i]);
    for (i = 0; i < sh->nsets; i++) {
        free(sh->sets[i].out);
        free(sh->sets[i].err);
    }
    free(sh->sets);
    free(ws);
    pthread_mutex_destroy(&sh->mu);
    pthread_cond_destroy(&sh->cv);
    return code;
}

