/* runtime/internal.h: declarations shared across runtime files, not public.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_INTERNAL_H
#define FGM_INTERNAL_H

#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>
#include "fgm.h"

/* Cross-file internal functions are hidden from the shared library. */
#define FGM_INTERNAL __attribute__((visibility("hidden")))

#define FGM_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

/* Formats a message and passes it to DIAG (if not NULL). */
FGM_INTERNAL void fgm_diagf(fgm_diag_fn diag, void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes LINE (LEN bytes, without its newline; a CR at its end is
 * dropped) and, on the next line, a caret under byte START and '~' under
 * the rest up to END, as the model compiler shows a source line in its
 * messages (compiler/diag.c: a long line cut to a window around the
 * caret, control bytes and bytes that are not UTF-8 as '?'); nothing
 * after the caret line. */
FGM_INTERNAL void fgm_show_source(const char *line, int len, int start,
                                  int end, FILE *f);

/* Numbers in text -- the model language, -D values, the IR dump and its
 * hash, generated C, messages, reports -- are read and written with a
 * decimal point whatever locale the program that links the library has
 * set (a "1.5" read as 1, a plugin's "2,718" as two numbers).  Begin
 * switches the calling thread to the C locale (L->c; 0 when it could not:
 * then nothing changes), end restores the thread's locale before it
 * (L->old) and frees L->c; the pairs may nest.  A caller's diagnostic
 * callback called in between runs in the C locale. */
typedef struct fgm_c_locale {
    locale_t old;
    locale_t c;
} fgm_c_locale;

FGM_INTERNAL void fgm_c_locale_begin(fgm_c_locale *l);
FGM_INTERNAL void fgm_c_locale_end(const fgm_c_locale *l);

/* strtod in the C locale (see fgm_c_locale_begin). */
FGM_INTERNAL double fgm_strtod_c(const char *s, char **end);

struct stat;

/* Whether SB (a stat of a path or descriptor) is the file this process's
 * standard output goes to: written through descriptor 1, which may be
 * open for writing (and appending) where the path is not.  Never when
 * descriptor 1 is read-only. */
FGM_INTERNAL int fgm_is_stdout(const struct stat *sb);

/* The process's umask, read without changing it (022 where it cannot be
 * read): new files are made with mode 0666 (a plugin 0777) less it. */
FGM_INTERNAL mode_t fgm_umask(void);

/* Has R call FN(CTX) (FN NULL: nothing) before each read from its input
 * that would wait for bytes not yet come: a terminal, a program that
 * writes a puzzle and waits for its answer before it writes the next.
 * fgm_batch_run then answers what it has read first, or both sides would
 * wait.  On glibc the check is made each time the stream's buffer runs
 * out, elsewhere at each line's start (a line sent in parts may then
 * wait unannounced). */
FGM_INTERNAL void fgm_puzzle_reader_on_wait(fgm_puzzle_reader *r,
                                            void (*fn)(void *ctx),
                                            void *ctx);

/* Whether B is one of fgm_backend's values: options come from callers,
 * and the runner and the model open check them alike. */
static inline int
fgm_backend_valid(fgm_backend b)
{
    return b >= FGM_BACKEND_AUTO && b <= FGM_BACKEND_INTERPRETED;
}

/* Whether a puzzle reader takes puzzles of side N and boxes of side BOX
 * (fgm_puzzle_reader_open's N and BOX), as its open checks. */
FGM_INTERNAL int fgm_puzzle_shape_ok(int n, int box);

/* The box (0 .. B*B-1, row-major) of the cell in ROW and COL of a Sudoku
 * grid with boxes of side B: the puzzle reader's clue check, the
 * generator's and fgm_ir_grid's boxes are the same ones. */
static inline int
fgm_box_of(int row, int col, int b)
{
    return row / b * b + col / b;
}

/* FGM_OK when everything written to F so far has gone out, else
 * FGM_EIO: F is flushed first, so that a report that fits the stdio
 * buffer is not called written when the disk is full. */
FGM_INTERNAL fgm_status fgm_stream_status(FILE *f);

/* 0 when DIR is a folder this process may create files in, else the
 * errno value that says why not. */
FGM_INTERNAL int fgm_dir_error(const char *dir);

/* Reports an internal invariant violation and aborts (a bug, not bad input). */
FGM_INTERNAL void fgm_die(const char *file, int line, const char *msg)
    __attribute__((noreturn));
#define FGM_DIE(msg) fgm_die(__FILE__, __LINE__, (msg))

/* What fgm_abort_cleanup undoes (runtime/cleanup.c): the temporary file,
 * or folder PATH (emptied of the kernel headers a plugin build writes
 * there, runtime/kernel_text.h, then removed); compiler process groups
 * (killed: fgm_cleanup_claim_group below).  Returns a token for
 * fgm_cleanup_drop, called once the thing is gone or renamed into place,
 * or -1 when it could not be listed (best effort). */
FGM_INTERNAL int fgm_cleanup_path(const char *path, int is_dir);
FGM_INTERNAL void fgm_cleanup_drop(int token);

/* A window around the making and listing of something fgm_abort_cleanup
 * must undo (a temporary, a compiler's process group).  Begin blocks
 * every signal in this thread and turns its cancellation off (the old
 * mask in W->mask, which a process started inside must get back) and
 * returns 0; the handler waits for the window's end before it sweeps, so
 * what is made inside is listed by then.  (Cancelled inside, a thread
 * would leave the window open for good, and the handler waiting.)  Once
 * fgm_abort_cleanup has begun, begin returns -1 (nothing to end): then
 * nothing may be made.  Inside, only system calls and the listing: no
 * malloc, stdio or lock, which a thread the handler interrupted may hold.
 * End leaves the window and restores the mask and cancellation state. */
typedef struct fgm_cleanup_window {
    sigset_t mask;
    int cancel;
} fgm_cleanup_window;

FGM_INTERNAL int fgm_cleanup_begin(fgm_cleanup_window *w);
FGM_INTERNAL void fgm_cleanup_end(const fgm_cleanup_window *w);

/* mkstemp of TMPL, made and listed (*TOKEN, -1 when not listed) in one
 * window: the descriptor, or -1 with errno (EINTR once fgm_abort_cleanup
 * has begun). */
FGM_INTERNAL int fgm_cleanup_mkstemp(char *tmpl, int *token);

/* Opens the new file PATH (0644, for writing) in a folder already listed:
 * made in a window, so never after the sweep that empties the folder.
 * The descriptor, or -1 with errno (EINTR once aborting). */
FGM_INTERNAL int fgm_cleanup_open_new(const char *path);

/* Removes from the folder DIR the kernel headers a plugin build writes
 * there (runtime/kernel_text.h), those present.  Async-signal-safe: the
 * handler empties a listed build folder with it, and fgm_build_dir_close
 * too. */
FGM_INTERNAL void fgm_cleanup_unlink_headers(const char *dir);

/* Whether fgm_abort_cleanup has begun: the process is ending on a
 * signal, and a build that failed for it (its compiler killed, a file
 * refused) says nothing of it. */
FGM_INTERNAL int fgm_cleanup_aborting(void);

/* A compiler's slot, claimed before it is started (a compiler that could
 * not be listed would outlive a signal): the token, or -1 when the table
 * is full (then start nothing).  Set publishes it with the group PGID; a
 * PGID <= 1 (nothing started) frees it.  Dropped by fgm_cleanup_drop. */
FGM_INTERNAL int fgm_cleanup_claim_group(void);
FGM_INTERNAL void fgm_cleanup_set_group(int token, pid_t pgid);

#endif /* FGM_INTERNAL_H */
