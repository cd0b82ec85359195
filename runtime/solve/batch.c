/* runtime/solve/batch.c: a streaming, ordered, multi-threaded solve loop.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The calling thread reads chunks of puzzles into a small ring of slots and
 * emits finished slots in order; worker threads take puzzles one at a time
 * from the oldest published slot that still has work.  Reading and writing
 * thus overlap with solving, the output order is the input order, and at
 * most NSLOTS chunks are in memory.  Each worker owns its runner (solver
 * workspace and RNG), so solving allocates nothing per puzzle.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "batch.h"
#include "diag_once.h"

#define NSLOTS 3
#define DEFAULT_CHUNK 512
#define GRAB 8          /* puzzles a worker takes per lock */

typedef struct slot {
    fgm_batch_item *items;
    unsigned char *finished;    /* per item: solved, ready to emit */
    int n;          /* items handed to the workers (published) */
    int next;       /* next item to hand out */
    int done;       /* items finished */
    int emitted;    /* items emitted (the calling thread's) */
    int live;       /* published and not yet emitted */
} slot;

typedef struct pool {
    const fgm_batch_opts *opts;
    pthread_mutex_t mu;
    pthread_cond_t work;    /* a slot was published, or shutdown */
    pthread_cond_t done;    /* a slot finished */
    clockid_t done_clock;   /* the clock of DONE's timed waits */
    slot slots[NSLOTS];
    long order[NSLOTS];     /* publication order of each slot (-1: free) */
    long published;
    int shutdown;
    fgm_status failed;      /* a worker could not start */
} pool;

typedef struct worker {
    pool *p;
    pthread_t tid;
    fgm_runner *runner;
    int *given;
    int *solution;
} worker;

/* Returns the live slot with work left that was published first, or NULL. */
static slot *
next_work(pool *p)
{
    slot *best = NULL;
    long best_order = 0;
    int i;

    for (i = 0; i < NSLOTS; i++) {
        slot *s = &p->slots[i];

        if (s->live && s->next < s->n
            && (!best || p->order[i] < best_order)) {
            best = s;
            best_order = p->order[i];
        }
    }
    return best;
}

static void
solve_item(worker *w, fgm_batch_item *it)
{
    const fgm_batch_opts *o = w->p->opts;
    unsigned long seed = o->seed_set ? o->seed + (unsigned long)it->index
                                     : (unsigned long)it->index;

    it->answer = it->puzzle;
    if (!fgm_puzzle_fits(o->csp, &it->puzzle)) {
        /* A reader may hand out any size (N = 0): the clues of a larger
         * grid would not fit GIVEN. */
        memset(&it->res, 0, sizeof it->res);
        it->res.status = FGM_EINVAL;
        return;
    }
    fgm_puzzle_clues(o->csp, &it->puzzle, w->given);
    fgm_runner_solve(w->runner, w->given, seed, o->timeout_ms, w->solution,
                     &it->res);
    if (it->res.solved)
        fgm_puzzle_from_solution(&it->answer, w->solution);
}

static void *
worker_main(void *arg)
{
    worker *w = arg;
    pool *p = w->p;

    pthread_mutex_lock(&p->mu);
    for (;;) {
        slot *s = NULL;
        int k, m, i;

        while (!p->shutdown && !(s = next_work(p)))
            pthread_cond_wait(&p->work, &p->mu);
        if (p->shutdown)
            break;
        /* A few puzzles per hand-out: fewer hand-offs, and with many
         * workers the last ones of a chunk still spread out. */
        k = s->next;
        m = s->n - k < GRAB ? s->n - k : GRAB;
        s->next += m;
        for (i = 0; i < m; i++) {
            /* Each answer ready as soon as it is solved (the emitter
             * looks every EMIT_POLL_NS, or is woken for a slot's last). */
            pthread_mutex_unlock(&p->mu);
            solve_item(w, &s->items[k + i]);
            pthread_mutex_lock(&p->mu);
            s->finished[k + i] = 1;
            if (++s->done == s->n)
                pthread_cond_broadcast(&p->done);
        }
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Gives worker W of pool P its runner and buffers.  Returns FGM_OK, or
 * the runner's status (*REASON set by it) or FGM_ENOMEM. */
static fgm_status
worker_init(worker *w, pool *p, const fgm_solve_opts *sopts,
            const char **reason)
{
    const fgm_batch_opts *opts = p->opts;
    fgm_status st = FGM_OK;
    size_t nvars = (size_t)opts->csp->nvars;

    w->p = p;
    w->runner = fgm_runner_new(opts->solver, opts->csp, sopts, &st, reason);
    w->given = malloc(nvars * sizeof *w->given);
    w->solution = malloc(nvars * sizeof *w->solution);
    if (!w->runner || !w->given || !w->solution)
        return st == FGM_OK ? FGM_ENOMEM : st;
    return FGM_OK;
}

static void
workers_free(worker *ws, int n)
{
    int i;

    for (i = 0; i < n; i++) {
        fgm_runner_free(ws[i].runner);
        free(ws[i].given);
        free(ws[i].solution);
    }
    free(ws);
}

/* P->done on the monotonic clock, as wait_done times it (a wall-clock
 * jump would stall the emitter); the default clock where it cannot be. */
static void
done_cond_init(pool *p)
{
    pthread_condattr_t a;

    if (pthread_condattr_init(&a) == 0) {
        if (pthread_condattr_setclock(&a, CLOCK_MONOTONIC) == 0
            && pthread_cond_init(&p->done, &a) == 0) {
            pthread_condattr_destroy(&a);
            p->done_clock = CLOCK_MONOTONIC;
            return;
        }
        pthread_condattr_destroy(&a);
    }
    pthread_cond_init(&p->done, NULL);
    p->done_clock = CLOCK_REALTIME;
}

/* Waits (P->mu held) until a slot is finished or EMIT_POLL_NS have
 * passed: the emitter looks for finished items that often, where a
 * wake-up by the worker at each GRAB items made norvig's batch of 49,158
 * 17-clue puzzles 15% slower. */
#define EMIT_POLL_NS 20000000L
static void
wait_done(pool *p)
{
    struct timespec t;

    clock_gettime(p->done_clock, &t);
    t.tv_nsec += EMIT_POLL_NS;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&p->done, &p->mu, &t);
}

/* Emits the items of slot I published so far and not yet emitted, in
 * order, each as soon as it and those before it are solved (not once the
 * whole chunk is: a slow solver's answers came a chunk at a time, and an
 * interrupted run lost the finished part of its chunk).  Returns nonzero
 * when the consumer asked to stop. */
static int
emit_published(pool *p, int i, fgm_batch_emit emit, void *ctx)
{
    slot *s = &p->slots[i];
    int k, n, stop = 0;

    pthread_mutex_lock(&p->mu);
    n = s->n;
    pthread_mutex_unlock(&p->mu);
    for (k = s->emitted; k < n && !stop; k++) {
        pthread_mutex_lock(&p->mu);
        if (!s->finished[k] && p->opts->idle) {
            pthread_mutex_unlock(&p->mu);
            p->opts->idle(ctx);
            pthread_mutex_lock(&p->mu);
        }
        while (!s->finished[k])
            wait_done(p);
        pthread_mutex_unlock(&p->mu);
        stop = emit(ctx, &s->items[k]);
        s->emitted = k + 1;
    }
    return stop;
}

/* Emits what is left of slot I (emit_published), its reading done, then
 * frees it once every item is finished.  Returns nonzero when the
 * consumer asked to stop. */
static int
emit_slot(pool *p, int i, fgm_batch_emit emit, void *ctx)
{
    slot *s = &p->slots[i];
    int stop = emit_published(p, i, emit, ctx);

    /* After a stop, no more of the slot is handed out (the rest of its
     * chunk was solved for nothing: 10 s on a full disk); those workers
     * hold are waited for, and the slot is reused only then. */
    pthread_mutex_lock(&p->mu);
    if (stop)
        s->n = s->next;
    while (s->done < s->n)
        pthread_cond_wait(&p->done, &p->mu);
    s->live = 0;
    s->n = s->next = s->done = s->emitted = 0;
    p->order[i] = -1;
    pthread_mutex_unlock(&p->mu);
    return stop;
}

/* Index of the oldest live slot (with PENDING, the oldest with items
 * published and not emitted yet), or -1. */
static int
oldest_where(const pool *p, int pending)
{
    int i, best = -1;

    for (i = 0; i < NSLOTS; i++)
        if (p->slots[i].live
            && (!pending || p->slots[i].emitted < p->slots[i].n)
            && (best < 0 || p->order[i] < p->order[best]))
            best = i;
    return best;
}

static int
oldest(const pool *p)
{
    return oldest_where(p, 0);
}

/* Hands the first N items of slot I to the workers (the slot published
 * with its first). */
static void
publish(pool *p, int i, int n)
{
    slot *s = &p->slots[i];

    pthread_mutex_lock(&p->mu);
    s->n = n;
    if (!s->live) {
        s->live = 1;
        p->order[i] = p->published++;
    }
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
}

/* The calling thread's reading: the slot being filled and the items read
 * into it, for the reader's hook. */
typedef struct feeder {
    pool *p;
    int cur;            /* the slot being filled, or -1 */
    int got;            /* items read into it */
    fgm_batch_emit emit;
    void *ctx;
    int stop;           /* the consumer asked to stop */
} feeder;

/* The reader's hook (fgm_puzzle_reader_on_wait), before a read that
 * waits for input not yet come (a terminal; a program that writes a
 * puzzle, then waits for its answer): every puzzle read is handed out,
 * solved and emitted, and the output flushed (opts->idle), or both sides
 * would wait.  (The reader filled a 512-puzzle chunk first.) */
static void
answer_before_wait(void *arg)
{
    feeder *f = arg;
    pool *p = f->p;
    int i;

    if (f->stop)
        return;
    if (f->cur >= 0 && f->got > p->slots[f->cur].n)
        publish(p, f->cur, f->got);
    /* Oldest first: the order the items were read in. */
    while (!f->stop && (i = oldest_where(p, 1)) >= 0)
        f->stop = emit_published(p, i, f->emit, f->ctx);
    if (!f->stop && p->opts->idle)
        p->opts->idle(f->ctx);
}

fgm_status
fgm_batch_run(fgm_puzzle_reader *r, const fgm_batch_opts *opts,
              fgm_batch_emit emit, void *ctx, const char **reason)
{
    int nthreads, chunk, i, made, started = 0, stop = 0;
    feeder fd;
    long items = 0;
    fgm_status st = FGM_OK, rst = FGM_OK;
    const char *why;
    worker *ws;
    pool p;
    fgm_solve_opts so;
    const fgm_solve_opts *sopts;
    fgm_diag_once o;

    /* As fgm_solve_puzzle: a missing argument is FGM_EINVAL. */
    if (!reason)
        reason = &why;
    *reason = NULL;
    if (!r || !opts || !opts->solver || !opts->csp || !emit
        || isnan(opts->timeout_ms))
        return FGM_EINVAL;
    nthreads = opts->threads > 0 ? opts->threads : 1;
    chunk = opts->chunk > 0 ? opts->chunk : DEFAULT_CHUNK;
    memset(&p, 0, sizeof p);
    p.opts = opts;
    sopts = opts->sopts;
    /* Every worker opens the solver's model: a fallback's reason once. */
    fgm_diag_once_init(&o, sopts ? sopts->diag : NULL,
                       sopts ? sopts->diag_ctx : NULL);
    if (sopts && sopts->diag) {
        so = *sopts;
        so.diag = fgm_diag_once_say;
        so.diag_ctx = &o;
        sopts = &so;
    }
    ws = calloc((size_t)nthreads, sizeof *ws);
    if (!ws) {
        fgm_diag_once_free(&o);
        return FGM_ENOMEM;
    }
    /* The first worker before any puzzle is read: a solver that cannot
     * run on the model says so before any output. */
    st = worker_init(&ws[0], &p, sopts, reason);
    if (st != FGM_OK) {
        workers_free(ws, nthreads);
        fgm_diag_once_free(&o);
        return st;
    }
    made = 1;
    for (i = 0; i < NSLOTS; i++) {
        p.order[i] = -1;
        p.slots[i].items = malloc((size_t)chunk * sizeof(fgm_batch_item));
        p.slots[i].finished = malloc((size_t)chunk);
        if (!p.slots[i].items || !p.slots[i].finished)
            st = FGM_ENOMEM;
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.work, NULL);
    done_cond_init(&p);
    if (st == FGM_OK) {
        if (pthread_create(&ws[0].tid, NULL, worker_main, &ws[0]) != 0)
            st = FGM_ENOMEM;
        else
            started++;
    }

    memset(&fd, 0, sizeof fd);
    fd.p = &p;
    fd.cur = -1;
    fd.emit = emit;
    fd.ctx = ctx;
    if (st == FGM_OK)
        fgm_puzzle_reader_on_wait(r, answer_before_wait, &fd);
    /* Producer/consumer loop on the calling thread. */
    while (st == FGM_OK && rst == FGM_OK && !stop) {
        int free_slot = -1;
        slot *s;

        for (i = 0; i < NSLOTS; i++)
            if (!p.slots[i].live) {
                free_slot = i;
                break;
            }
        if (free_slot < 0) {
            stop = emit_slot(&p, oldest(&p), emit, ctx);
            continue;
        }
        s = &p.slots[free_slot];
        /* Cleared before any item is handed out (the workers set them). */
        memset(s->finished, 0, (size_t)chunk);
        fd.cur = free_slot;
        fd.got = 0;
        while (fd.got < chunk && !fd.stop) {
            fgm_batch_item *it = &s->items[fd.got];

            /* May call answer_before_wait, which hands out and emits the
             * items read so far. */
            rst = fgm_puzzle_read(r, &it->puzzle);
            if (rst != FGM_OK)
                break;
            it->index = fgm_puzzle_reader_count(r) - 1;
            fd.got++;
        }
        fd.cur = -1;
        stop = fd.stop;
        if (!stop && fd.got > s->n)     /* stopped: not solved for nothing */
            publish(&p, free_slot, fd.got);
        /* More workers only as the puzzles read give them something to
         * take (GRAB at a time): -j 256 on one 25x25 puzzle built 256
         * workspaces, 5.7 GB, for one worker's work. */
        items += fd.got;
        while (st == FGM_OK && started == made && made < nthreads
               && (long)made * GRAB < items) {
            fgm_status wst = worker_init(&ws[made], &p, sopts, reason);
            int err = wst == FGM_OK ? pthread_create(&ws[made].tid, NULL,
                                                     worker_main, &ws[made])
                                    : 0;

            made++;
            if (wst == FGM_OK && err == 0) {
                started++;
            } else if (wst == FGM_OK || wst == FGM_ENOMEM) {
                /* -j is a bound: with no room for another worker (a
                 * workspace, a thread), the ones running finish the
                 * batch.  started < made: the pool grows no more.  (The
                 * run stopped here, out of memory, its later puzzles
                 * never read.) */
                *reason = NULL;
                if (sopts && sopts->diag)
                    fgm_diagf(sopts->diag, sopts->diag_ctx, "-j %d: %d "
                              "worker%s, no room for more (%s)", nthreads,
                              started, started == 1 ? "" : "s",
                              err ? strerror(err) : "out of memory");
            } else {
                st = wst;
            }
        }
    }
    fgm_puzzle_reader_on_wait(r, NULL, NULL);
    /* Drain what is in flight, in order (also after a read error: the
     * puzzles before the bad one are still reported). */
    while (!stop && oldest(&p) >= 0)
        stop = emit_slot(&p, oldest(&p), emit, ctx);

    pthread_mutex_lock(&p.mu);
    p.shutdown = 1;
    pthread_cond_broadcast(&p.work);
    pthread_mutex_unlock(&p.mu);
    for (i = 0; i < started; i++)
        pthread_join(ws[i].tid, NULL);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.work);
    pthread_cond_destroy(&p.done);
    for (i = 0; i < NSLOTS; i++) {
        free(p.slots[i].items);
        free(p.slots[i].finished);
    }
    workers_free(ws, nthreads);
    fgm_diag_once_free(&o);
    if (st != FGM_OK)
        return st;
    /* The end of the input is FGM_EIO; so is a read error, which ended
     * the batch early (the reader reported it). */
    return rst == FGM_EIO && !fgm_puzzle_reader_failed(r) ? FGM_OK : rst;
}
