/* runtime/cleanup.c: what a signal that ends the process must undo.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * While fgm writes a file under a temporary name (runtime/atomic.c) or
 * builds a plugin (runtime/plugin.c), the temporaries and the C
 * compiler's process group are listed here.  A process ended by Ctrl-C or
 * SIGTERM would otherwise leave the temporaries behind, and -- since the
 * compiler runs in a process group of its own, out of reach of the
 * terminal's signals -- an orphan compiler that finishes its plugin for
 * nobody.  fgm_abort_cleanup, called from a signal handler, kills the
 * groups and removes the files, then the folders.
 *
 * The list is a fixed table so that the handler needs no lock and no
 * allocation: a slot is claimed with an atomic compare-and-swap, filled,
 * then published.  The handler acts on a published slot only while it
 * counts itself among the slot's readers (LISTED + READER each), and a
 * drop waits until none is left: otherwise, with other threads going on
 * while the handler runs, a slot dropped and claimed again could be read
 * half rewritten (a path made of two, a group id of 0: kill(0) ends our
 * own group).  The wait is short (one unlink or kill) and cannot
 * deadlock: a handler that interrupts a drop finishes before the drop
 * goes on, and handlers running at once, in one thread or several, all
 * read the slot.  A path too long for a slot, or a full table, is simply
 * not listed (the next rebuild sweeps a build's leftovers:
 * runtime/plugin_stale.c); a compiler without a slot is not started.
 *
 * Other threads go on while the handler runs.  So that nothing is made
 * behind its back, each temporary and each compiler is made and listed
 * inside a window (fgm_cleanup_begin/_end) that the handler waits out,
 * and none is made once the handler has begun.
 *
 * This table and its two counters are the library's only writable
 * file-scope objects, against
 * the house rule (STYLE.md: state lives in objects): a signal handler is
 * given no context to find an object through, so what it must undo has
 * to be where it can reach it (git's tempfile.c and GCC's driver keep
 * such a list for the same reason).  It holds no state any computation
 * reads; nothing but fgm_abort_cleanup acts on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "kernel_text.h"

/* A plugin build in flight holds at most four slots at once (its folder,
 * its C file or that file's write temporary, the plugin's temporary, the
 * compiler's group), and an ep-naive puzzle two once its build is done
 * (its C and plugin, runtime/solve/ep_naive.c): enough for `fgm solve -j
 * 256`, the CLI's cap.  (Listed from before the build, they ran out at
 * -j 256, "cannot run C compiler: Resource temporarily unavailable"; 1536
 * slots instead made the table 6 MiB, and `fgm list` died at exec under
 * `ulimit -v 8000`.)  With 64, ep-naive at -j 32 left compilers running
 * after SIGTERM.  A slot
 * holds any path the system takes (PATH_MAX, 4096 on Linux): with 1024
 * bytes, a longer --out-dir was never listed, so a signal left its
 * temporaries, and every build left its kernel headers (too long for
 * fgm_cleanup_unlink_headers).  The table is 4 MiB of zeroed memory; only
 * the slots claimed so far are ever touched. */
#define SLOTS 1024

/* Milliseconds compilers get between SIGTERM and SIGKILL when a signal
 * ends fgm: gcc's driver removes its temporaries within milliseconds of
 * SIGTERM, once it runs (a loaded machine may keep it waiting); a
 * signal's exit waits this long only while a build runs. */
#define ABORT_GRACE_MS 300
#define SLOT_PATH 4096

/* A slot's state: FREE, FILLING, or LISTED plus READER per handler
 * acting on it. */
enum { FREE, FILLING, LISTED, READER = 4 };
enum { GROUP, FILE_PATH, DIR_PATH };

typedef struct slot {
    int state;              /* atomic */
    int kind;
    pid_t pgid;
    char path[SLOT_PATH];
} slot;

static slot slots[SLOTS];

/* A compiler started, or a temporary made, between the handler's sweep
 * and its listing would outlive fgm (other threads' builds go on while
 * the handler runs): ABORTING, set by fgm_abort_cleanup before it sweeps,
 * stops new ones, and WINDOWS counts the threads between the decision to
 * make one and its listing (fgm_cleanup_begin/_end), which the handler
 * waits out.  Part of the handler's state, as the table. */
static int aborting;        /* atomic */
static int windows;         /* atomic */

/* Claims a free slot; -1 when every slot is taken. */
static int
claim(void)
{
    int i;

    for (i = 0; i < SLOTS; i++) {
        int want = FREE;

        /* A plain load first: a taken slot's line is not taken exclusive
         * by a compare-and-swap that is bound to fail. */
        if (__atomic_load_n(&slots[i].state, __ATOMIC_RELAXED) != FREE)
            continue;
        if (__atomic_compare_exchange_n(&slots[i].state, &want, FILLING, 0,
                                        __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return i;
    }
    return -1;
}

static void
publish(int i)
{
    __atomic_store_n(&slots[i].state, LISTED, __ATOMIC_RELEASE);
}

int
fgm_cleanup_path(const char *path, int is_dir)
{
    size_t len = strlen(path);
    int i;

    if (len >= SLOT_PATH || (i = claim()) < 0)
        return -1;
    slots[i].kind = is_dir ? DIR_PATH : FILE_PATH;
    memcpy(slots[i].path, path, len + 1);
    publish(i);
    return i;
}

void
fgm_cleanup_drop(int token)
{
    int want;

    if (token < 0 || token >= SLOTS)
        return;
    /* With readers, fgm_abort_cleanup is acting on the slot in another
     * thread: wait until it is done.  (Acquire: its reads of the slot
     * come before the next claim's writes.) */
    do
        want = LISTED;
    while (!__atomic_compare_exchange_n(&slots[token].state, &want, FREE, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
           && want > LISTED);
}

int
fgm_cleanup_claim_group(void)
{
    return claim();
}

void
fgm_cleanup_set_group(int token, pid_t pgid)
{
    if (token < 0 || token >= SLOTS)
        return;
    if (pgid <= 1) {
        /* kill(-0) and kill(-1) would reach far more than a compiler;
         * nothing started: the slot goes back unpublished. */
        __atomic_store_n(&slots[token].state, FREE, __ATOMIC_RELEASE);
        return;
    }
    slots[token].kind = GROUP;
    slots[token].pgid = pgid;
    publish(token);
}

int
fgm_cleanup_begin(fgm_cleanup_window *w)
{
    sigset_t all;

    /* This thread cannot run the handler while in the window, so the
     * handler's wait below never waits on its own thread. */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &w->mask);
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &w->cancel);
    __atomic_add_fetch(&windows, 1, __ATOMIC_SEQ_CST);
    /* Either this load sees the handler's store, or the handler's load of
     * WINDOWS sees this thread's increment (both sequentially
     * consistent): nothing slips between. */
    if (__atomic_load_n(&aborting, __ATOMIC_SEQ_CST)) {
        fgm_cleanup_end(w);
        return -1;
    }
    return 0;
}

int
fgm_cleanup_aborting(void)
{
    return __atomic_load_n(&aborting, __ATOMIC_SEQ_CST);
}

void
fgm_cleanup_end(const fgm_cleanup_window *w)
{
    int ignored;

    __atomic_sub_fetch(&windows, 1, __ATOMIC_SEQ_CST);
    pthread_setcancelstate(w->cancel, &ignored);
    pthread_sigmask(SIG_SETMASK, &w->mask, NULL);
}

void
fgm_cleanup_unlink_headers(const char *dir)
{
    char p[SLOT_PATH + 64];
    size_t dl = strlen(dir), nl;
    int i;

    for (i = 0; i < fgm_kernel_nfiles; i++) {
        nl = strlen(fgm_kernel_files[i].name);
        if (dl + 1 + nl >= sizeof p)
            continue;
        memcpy(p, dir, dl);
        p[dl] = '/';
        memcpy(p + dl + 1, fgm_kernel_files[i].name, nl + 1);
        unlink(p);
    }
}

int
fgm_cleanup_mkstemp(char *tmpl, int *token)
{
    fgm_cleanup_window win;
    int fd, e;

    *token = -1;
    if (fgm_cleanup_begin(&win) != 0) {
        errno = EINTR;      /* what an abort under way reports */
        return -1;
    }
    fd = mkstemp(tmpl);
    e = errno;
    if (fd >= 0)
        *token = fgm_cleanup_path(tmpl, 0);
    fgm_cleanup_end(&win);
    errno = e;
    return fd;
}

int
fgm_cleanup_open_new(const char *path)
{
    fgm_cleanup_window win;
    int fd, e;

    if (fgm_cleanup_begin(&win) != 0) {
        errno = EINTR;
        return -1;
    }
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    e = errno;
    fgm_cleanup_end(&win);
    errno = e;
    return fd;
}

/* Acts on every listed slot of KIND (a group gets SIG, 0: none);
 * returns how many it acted on. */
static int
sweep(int kind, int sig)
{
    int i, n = 0;

    for (i = 0; i < SLOTS; i++) {
        int want = __atomic_load_n(&slots[i].state, __ATOMIC_RELAXED);

        /* One reader more, unless the slot is not (or no longer) listed. */
        while (want >= LISTED
               && !__atomic_compare_exchange_n(&slots[i].state, &want,
                                               want + READER, 0,
                                               __ATOMIC_ACQUIRE,
                                               __ATOMIC_RELAXED))
            ;
        if (want < LISTED)
            continue;
        if (slots[i].kind == kind) {
            n++;
            if (kind == GROUP) {
                if (sig)    /* 0: only counted */
                    kill(-slots[i].pgid, sig);
            } else if (kind == FILE_PATH)
                unlink(slots[i].path);
            else {
                fgm_cleanup_unlink_headers(slots[i].path);
                rmdir(slots[i].path);
            }
        }
        __atomic_fetch_sub(&slots[i].state, READER, __ATOMIC_RELEASE);
    }
    return n;
}

void
fgm_abort_cleanup(void)
{
    int saved = errno, waited;

    /* Nothing is started or made from now on; what another thread is
     * making is listed before the sweep (see ABORTING).  The wait yields:
     * under a real-time policy on one CPU a bare spin could starve the
     * thread it waits for. */
    __atomic_store_n(&aborting, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&windows, __ATOMIC_SEQ_CST) > 0)
        sched_yield();
    /* The compilers first, so that none writes a file after its removal;
     * folders last, once the files in them are gone.  SIGTERM, then
     * SIGKILL after a grace period, as at a timeout
     * (runtime/plugin_sys.c): a compiler driver killed at once leaves its
     * own temporaries in $TMPDIR (gcc: its ccXXXXXX.s, seen empty), while
     * on SIGTERM gcc removes them. */
    if (sweep(GROUP, SIGTERM)) {
        /* Until every build thread has seen its compiler end and dropped
         * it (sweep's signal 0 only counts), or the grace is over.  poll
         * is async-signal-safe; nanosleep is not listed. */
        for (waited = 0; waited < ABORT_GRACE_MS && sweep(GROUP, 0);
             waited += 10)
            poll(NULL, 0, 10);
        sweep(GROUP, SIGKILL);
    }
    sweep(FILE_PATH, 0);
    sweep(DIR_PATH, 0);
    errno = saved;
}
