/* runtime/fgm.h: the public API of libfgm (status codes, puzzles, IR, solvers).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This is the only header a user of libfgm includes.  The library never
 * prints and never exits: every function returns a status from the enum
 * below, and human-readable diagnostics go to the sink passed by the caller.
 * A NULL handle, input or output pointer is never dereferenced: a status
 * function returns FGM_EINVAL, any other returns the value its comment
 * names for it, and a void function does nothing.  A NULL DIAG sink
 * discards the diagnostics.
 */
#ifndef FGM_H
#define FGM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FGM_VERSION "0.4.0"   /* 0.4.0: the vmp algorithm */

/* Status codes.  ORDER FACTOR: grep before reordering (fgm_strerror). */
typedef enum fgm_status {
    FGM_OK = 0,
    FGM_ENOMEM,     /* out of memory */
    FGM_EINVAL,     /* invalid argument or input */
    FGM_EPARSE,     /* syntax error in a model or puzzle file */
    FGM_ESEMA,      /* semantic error in a model */
    FGM_EIO,        /* file could not be read or written */
    FGM_EPLUGIN,    /* plugin could not be loaded */
    FGM_EABI,       /* plugin built for another ABI */
    FGM_ESTALE,     /* plugin built from another model */
    FGM_ECC,        /* the C compiler failed */
    FGM_ETIMEOUT,   /* the deadline passed before an answer */
    FGM_EINTERNAL,  /* a bug in fgm */
    FGM_EUNSOLVED,  /* the solver ended without a verified solution */
    FGM_EUNSUPPORTED /* the solver cannot handle this model */
} fgm_status;

/* Returns a static string describing STATUS. */
const char *fgm_strerror(fgm_status status);

/* Diagnostic sink: receives one complete message (no trailing newline). */
typedef void (*fgm_diag_fn)(void *ctx, const char *msg);

/* Monotonic clock in seconds: the deadlines of this API are times on it. */
double fgm_now(void);

/* Writes PATH atomically: WRITE(ARG, f) fills a temporary file in the same
 * folder, which is renamed over PATH only when WRITE returned FGM_OK and
 * every byte reached the disk.  Errors are reported through DIAG as
 * "PATH: error: ...".  Returns FGM_OK, WRITE's status, FGM_EIO,
 * FGM_ENOMEM, or FGM_EINVAL (PATH or WRITE NULL, not reported). */
fgm_status fgm_write_atomic(const char *path,
                            fgm_status (*write)(void *arg, FILE *f),
                            void *arg, fgm_diag_fn diag, void *ctx);

/* Whether fgm_write_atomic can write PATH, checked before a long run (a
 * benchmark, a batch of 25x25 puzzles) rather than after it: PATH not a
 * folder, its name not too long for its folder, and its folder one to
 * make files in; or, for what is written
 * through (a device, a FIFO, a symbolic link), PATH itself writable (or
 * this process's standard output), and for a link to a file not made yet
 * the target's folder.  Returns FGM_OK, or FGM_EIO after "PATH: error:
 * cannot write: REASON" through DIAG (FGM_EINVAL for PATH NULL).  A
 * check, not a promise: the write still reports its own errors. */
fgm_status fgm_write_atomic_check(const char *path, fgm_diag_fn diag,
                                  void *ctx);

/* Kills the C compilers that plugin builds have running and removes the
 * temporary files and folders of the writes and builds in flight.
 * Async-signal-safe: meant for a handler of SIGINT or SIGTERM that then
 * ends the process, as the fgm command installs.  (The compilers run in
 * process groups of their own, which a terminal's Ctrl-C does not
 * reach; they get SIGTERM, so that they remove their own temporaries,
 * then SIGKILL 0.3 s later.)  From its call on, no plugin build starts a
 * compiler: builds in other threads fail, so that none outlives the
 * process.  So that every compiler can be killed, one is started only
 * when it can be listed: with more than about 256 plugin builds in flight
 * at once in one process, the others fail ("Resource temporarily
 * unavailable"). */
void fgm_abort_cleanup(void);

/* ------------------------------------------------------------------------
 * Puzzles: N x N grids (N = 4, 9, 16, 25 for Sudoku; any N for Latin squares).
 * Cell values are 1..N, 0 for empty.
 * ---------------------------------------------------------------------- */

#define FGM_PUZZLE_MAXN 25
#define FGM_PUZZLE_MAXCELLS (FGM_PUZZLE_MAXN * FGM_PUZZLE_MAXN)

typedef struct fgm_puzzle {
    int n;              /* side length */
    int box;            /* box side (n == box * box) or 0 for a Latin square */
    long line;          /* line of the input where the puzzle starts */
    int file;           /* which file of the reader's list it is in,
                         * from 0 (fgm_puzzle_reader_open_list) */
    char empty;         /* the symbol the input used for empty cells */
    unsigned char cells[FGM_PUZZLE_MAXCELLS];
} fgm_puzzle;

typedef struct fgm_puzzle_reader fgm_puzzle_reader;

/* PATH as messages name an input: "<stdin>" for "-", which the readers
 * take as standard input, else PATH itself. */
const char *fgm_input_name(const char *path);

/* The BOX of a grid whose rows and columns are not all units (each the
 * scope of an alldiff, fgm_ir_grid), a grid colouring's: a reader opened
 * with it refuses no repeated clue, the model's constraints being the
 * rules. */
#define FGM_GRID_NO_UNITS (-1)

/* Opens PATH for reading puzzles ("-" is stdin).  N is the expected side
 * (0: Sudoku, told by the length of the first grid); BOX is the expected box
 * side when N is given (0: no box constraint, a Latin square;
 * FGM_GRID_NO_UNITS: no row, column or box constraint).  On failure
 * returns NULL and reports through DIAG (PATH NULL: NULL, no report).  The
 * reader owns its FILE. */
fgm_puzzle_reader *fgm_puzzle_reader_open(const char *path, int n, int box,
                                          fgm_diag_fn diag, void *ctx);

/* Same, reading the open stream F (borrowed: the caller closes it), with
 * NAME (NULL: "<stream>") in messages.  F NULL: NULL, no report. */
fgm_puzzle_reader *fgm_puzzle_reader_file(FILE *f, const char *name, int n,
                                          int box, fgm_diag_fn diag,
                                          void *ctx);

/* Opens the NPATHS files PATHS (each as fgm_puzzle_reader_open; "-" at
 * most once: named twice, NULL after a report) as one input, as if
 * concatenated: the next file is read at the end of one, so a file may
 * hold no puzzle as long as another does, and messages name the file and
 * its own line (a grid does not run on into the next file).  Every file
 * is opened now: on failure returns NULL after reporting the first that
 * cannot be opened (PATHS NULL or NPATHS below 1: NULL, no report).  The
 * reader owns its FILEs. */
fgm_puzzle_reader *fgm_puzzle_reader_open_list(const char *const *paths,
                                               int npaths, int n, int box,
                                               fgm_diag_fn diag, void *ctx);

/* Reads the next puzzle into *OUT.  Returns FGM_OK, FGM_EIO at the end of
 * input (with *OUT untouched), or FGM_EPARSE/FGM_EINVAL after reporting a
 * malformed puzzle as "file:line: error: ..." through the sink; reading
 * on skips it.  An input with no puzzle at all, nor a malformed one, is
 * malformed: FGM_EPARSE, "no puzzle in the input", on the first read
 * (and FGM_EIO on the next).  A read error (a folder, a failing disk)
 * also ends the input with FGM_EIO, after a report: tell it from the end
 * of the input with fgm_puzzle_reader_failed.  FGM_EINVAL, reading nothing
 * and reporting nothing, when R or OUT is NULL. */
fgm_status fgm_puzzle_read(fgm_puzzle_reader *r, fgm_puzzle *out);

/* Reads the next puzzle into *OUT without consuming it: the next
 * fgm_puzzle_read returns it again.  Same statuses as fgm_puzzle_read. */
fgm_status fgm_puzzle_peek(fgm_puzzle_reader *r, fgm_puzzle *out);

/* Number of puzzles read so far (a peeked puzzle counts); 0 for R NULL. */
long fgm_puzzle_reader_count(const fgm_puzzle_reader *r);

/* 1 when the input ended on a read error (reported), not at its end: the
 * puzzles read so far are not all there were.  0 otherwise (R NULL too). */
int fgm_puzzle_reader_failed(const fgm_puzzle_reader *r);

/* Closes the reader; NULL is a no-op. */
void fgm_puzzle_reader_close(fgm_puzzle_reader *r);

/* Parses one puzzle from the text TEXT (one line, or a multi-line grid;
 * comments and blank lines around it are skipped, a second puzzle is an
 * error).  NAME (NULL: "<string>") is used in messages.  Returns FGM_OK,
 * or an error after reporting with *OUT untouched; FGM_EINVAL, not
 * reported, for TEXT or OUT NULL. */
fgm_status fgm_puzzle_parse(const char *text, const char *name, int n,
                            int box, fgm_puzzle *out, fgm_diag_fn diag,
                            void *ctx);

/* Writes P on one line (N*N symbols, P->empty for empty cells) into BUF of
 * SIZE bytes, NUL-terminated.  Returns the length, or -1 if BUF is short,
 * P or BUF is NULL, or P's side is outside 1..FGM_PUZZLE_MAXN. */
int fgm_puzzle_format_line(const fgm_puzzle *p, char *buf, size_t size);

/* Writes P as the boxed multi-line display to F (nothing if either is
 * NULL or P's side is outside 1..FGM_PUZZLE_MAXN). */
void fgm_puzzle_write_grid(const fgm_puzzle *p, FILE *f);

/* Symbol for value V (1..35) in the one-line format: 1-9 then A-Z. */
char fgm_puzzle_symbol(int v);

/* Puzzle <-> assignment of a grid model (fgm_ir_grid): cell i is variable
 * i, value v its value index v-1.  GIVEN receives N*N value indices (-1
 * for an empty cell); SOL holds N*N value indices (-1, or any index
 * outside 0..N-1, leaves the cell empty).  Either pointer NULL, or P's
 * side outside 1..FGM_PUZZLE_MAXN: nothing is read or written. */
void fgm_puzzle_to_given(const fgm_puzzle *p, int *given);
void fgm_puzzle_from_solution(fgm_puzzle *p, const int *sol);

/* ------------------------------------------------------------------------
 * The IR: finite-domain variables and factors (see runtime/ir.h).
 * ---------------------------------------------------------------------- */

typedef struct fgm_ir fgm_ir;

/* Builds the Sudoku IR with box side BOX (2..5): N = BOX*BOX, one array
 * cell[N][N] in 1..N, and 3N alldiff factors (rows, columns, boxes).
 * Returns NULL on allocation failure. */
fgm_ir *fgm_ir_sudoku(int box);

/* Builds the N x N Latin square IR (2N alldiff factors). */
fgm_ir *fgm_ir_latin(int n);

void fgm_ir_free(fgm_ir *ir);

/* Writes the canonical text dump of IR to F (hash on the first line). */
fgm_status fgm_ir_dump(const fgm_ir *ir, FILE *f);

/* 64-bit FNV-1a hash of the canonical dump (without its first line); 0
 * for IR NULL or out of memory. */
uint64_t fgm_ir_hash(const fgm_ir *ir);

/* Writes Graphviz DOT of the factor graph of IR to F. */
fgm_status fgm_ir_graph(const fgm_ir *ir, FILE *f);

/* Returns a deep copy of SRC (owned by the caller), or NULL. */
fgm_ir *fgm_ir_copy(const fgm_ir *src);

/* Multiplies variable V's evidence by the weights W (one per value, each
 * finite and >= 0, not all 0): one more evidence factor, as an
 * `evidence` statement adds (soft evidence for the exact backend, which
 * runs on an IR, where a model takes fgm_model_observe_weights).
 * Returns FGM_OK, FGM_EINVAL, or FGM_ENOMEM. */
fgm_status fgm_ir_add_evidence(fgm_ir *ir, int v, const double *w);

/* The seed's robust model of SRC (a new IR, owned by the caller): a
 * uniform Dirichlet prior per variable, observed (clues become its point
 * mass, fgm_model_observe_clue), ahead of SRC's factors; a copy of SRC
 * when it already has priors.  Either way its algorithm is EP (SRC's
 * iterations and other settings kept).  NULL when out of memory. */
fgm_ir *fgm_ir_robust(const fgm_ir *src);

/* Names are at most FGM_IR_MAXNAME - 1 bytes; arrays have at most
 * FGM_IR_MAXDIMS dimensions. */
#define FGM_IR_MAXDIMS 4
#define FGM_IR_MAXNAME 64

/* The model's name: plugins are stored as NAME.ALGO.so.  NULL for IR
 * NULL. */
const char *fgm_ir_name(const fgm_ir *ir);

/* Renames IR.  Returns FGM_EINVAL (IR unchanged) when NAME is NULL, empty,
 * FGM_IR_MAXNAME bytes or longer, or not an identifier of the model
 * language (letters, digits and '_', not starting with a digit): it names
 * the plugin's file. */
fgm_status fgm_ir_set_name(fgm_ir *ir, const char *name);

/* The name of IR's inference algorithm (one of FGM_ALGO_NAMES); NULL
 * for IR NULL. */
const char *fgm_ir_algo(const fgm_ir *ir);

/* Sets IR's inference algorithm to NAME.  Sweeps its model did not set
 * become the new algorithm's default (1000 for gibbs, 50 else); its
 * other settings stay, unused where they mean nothing to it (a
 * sampler's damping).  Returns FGM_EINVAL (IR unchanged) when there is
 * no such algorithm. */
fgm_status fgm_ir_set_algo(fgm_ir *ir, const char *name);

/* Number of discrete variables, and of Dirichlet nodes (0 for IR
 * NULL). */
int fgm_ir_nvars(const fgm_ir *ir);
int fgm_ir_ndirichlet(const fgm_ir *ir);

/* Domain size of variable V (0..nvars-1); 0 for IR NULL or V out of
 * range. */
int fgm_ir_card(const fgm_ir *ir, int v);

/* Writes the name of variable V ("cell[3][4]"), or of Dirichlet node D
 * ("p[3][4]"), into BUF of SIZE bytes.  Returns BUF, which holds ""
 * when IR is NULL or V, D out of range; BUF NULL or SIZE 0: writes
 * nothing. */
char *fgm_ir_var_name(const fgm_ir *ir, int v, char *buf, size_t size);
char *fgm_ir_node_name(const fgm_ir *ir, int d, char *buf, size_t size);

/* One declared array of a model. */
typedef struct fgm_array_info {
    const char *name;           /* owned by the IR */
    int dirichlet;              /* 1: Dirichlet nodes, 0: variables */
    int ndims;
    int dims[FGM_IR_MAXDIMS];
    int first;                  /* its first variable (or node) */
    int count;                  /* its variables (nodes): product of dims */
    int lo;                     /* variables: the label of value index 0 */
    int card;                   /* variables: domain size; nodes: the
                                 * vector length K */
} fgm_array_info;

/* Number of arrays, in declaration order (variables and nodes are
 * numbered densely in that order, row-major within an array); 0 for IR
 * NULL. */
int fgm_ir_narrays(const fgm_ir *ir);

/* Describes array I into *OUT.  Returns FGM_EINVAL when I is out of
 * range or IR or OUT is NULL. */
fgm_status fgm_ir_array_info(const fgm_ir *ir, int i, fgm_array_info *out);

/* The index of array NAME, or -1 when there is none (or IR or NAME is
 * NULL). */
int fgm_ir_array_index(const fgm_ir *ir, const char *name);

/* The array holding variable V, or Dirichlet node D (-1 out of range or
 * for IR NULL). */
int fgm_ir_var_array(const fgm_ir *ir, int v);
int fgm_ir_node_array(const fgm_ir *ir, int d);

/* The largest K of IR's Dirichlet nodes (0: none, or IR NULL). */
int fgm_ir_dirichlet_maxk(const fgm_ir *ir);

/* NODE (nvars entries) = the Dirichlet node a clue on each variable is a
 * point mass on (fgm_model_observe_clue, and the exact backend alike: the
 * seed's robust model), or -1: the node of an observed prior that the
 * variable alone draws from (of two such, the later draw's).  A point
 * mass on a node that other
 * variables draw from would be every sharer's value, so a clue there is
 * observed on the variable.  Returns FGM_EINVAL for IR or NODE NULL,
 * FGM_ENOMEM. */
fgm_status fgm_ir_clue_nodes(const fgm_ir *ir, int *node);

/* The exact posterior mean of each Dirichlet node of IR, from exact
 * marginals (nvars x STRIDE, as fgm_enumerate and fgm_eliminate give
 * them, not max-marginals) into MEAN (ndirichlet x MEAN_STRIDE, at
 * least fgm_ir_dirichlet_maxk): E[p_k] = (a_k + E[n_k]) / (A + N), A
 * the node's pseudo-counts summed, N its draws, E[n_k] the draws'
 * marginals of k summed (p given the draws is Dirichlet(a + n), and the
 * mean is linear in n).  A posterior that is a mixture of Dirichlets
 * has no exact pseudo-counts to print; EP's alpha / sum(alpha) is its
 * estimate of this mean (equal where EP is exact: models/dice.fgm, every
 * roll seen).  A node that a draw's gate may pick (`y ~ discrete(t[c])`)
 * has a number of draws that varies with the gates, and no mean in the
 * marginals: its row is NaN (fgm_enumerate_means gives it).
 * Returns FGM_OK, FGM_EINVAL (a NULL, or a stride too small),
 * FGM_ENOMEM. */
fgm_status fgm_ir_dirichlet_mean(const fgm_ir *ir, const double *marginals,
                                 int stride, double *mean, int mean_stride);

/* The puzzles IR takes (see fgm_puzzle_to_given): *N is the side of its
 * first 2-D variable array when that array is square and starts at
 * variable 0, else 0 (no grid); *BOX is FGM_GRID_NO_UNITS when some row
 * or column of the grid is not the scope of an alldiff factor (a grid
 * colouring's rows may repeat a value), else B when N = B*B and each of
 * the N boxes of B x B cells is the scope of an alldiff factor (a
 * Sudoku's), else 0 (a Latin square, or a jigsaw, whose regions are not
 * boxes); 0 with no grid.  Either pointer may be NULL; IR NULL gives 0
 * and 0. */
void fgm_ir_grid(const fgm_ir *ir, int *n, int *box);

/* Lowers IR to its message schedule, as a model or plugin runs it, and
 * reports its size: *NUPDATES factor updates per sweep and *NEDGES
 * messages (either pointer may be NULL).  Returns FGM_OK,
 * FGM_EUNSUPPORTED (a factor has no operator for IR's algorithm) or
 * FGM_ENOMEM; nothing is reported. */
fgm_status fgm_ir_schedule(const fgm_ir *ir, int *nupdates, int *nedges);

/* ------------------------------------------------------------------------
 * Model compiler: .fgm text -> IR (compiler/; the language is described in
 * README.md, "The model language").  Stages, in order: parse, check names,
 * types and ranges, expand loops and slices, lower to the IR.  Errors are
 * reported through DIAG as "file:line:col: error: message", followed by the
 * source line and a caret line under the offending token; compilation goes
 * on past an error so that one run reports several, up to max_errors.
 * Warnings ("file:line:col: warning: message", the same lines after it:
 * a comparison that adds no factor) go to DIAG too, on a compile that
 * succeeds; they are not counted as errors.
 * ---------------------------------------------------------------------- */

typedef struct fgm_compile_opts {
    const char *const *defines; /* "NAME=VALUE": overrides `const NAME` (an
                                 * error when the model has no such const) */
    int ndefines;               /* > 0 with DEFINES NULL, or a NULL among
                                 * the first NDEFINES: FGM_EINVAL */
    int max_errors;             /* stop after this many errors (<= 0: 20) */
} fgm_compile_opts;

/* Compiles the model file PATH.  OPTS may be NULL.  Returns FGM_OK with a
 * new IR in *OUT (the caller frees it with fgm_ir_free; its source is
 * PATH), or FGM_EPARSE (syntax), FGM_ESEMA (meaning), FGM_EIO (unreadable
 * file) or FGM_ENOMEM with *OUT NULL, every diagnostic sent to DIAG. */
fgm_status fgm_compile_file(const char *path, const fgm_compile_opts *opts,
                            fgm_ir **out, fgm_diag_fn diag, void *ctx);

/* Compiles the model text TEXT; NAME (NULL: "<string>") stands for the
 * file in messages and in the IR's source.  Returns as fgm_compile_file
 * (FGM_EINVAL for a NULL argument or text over 64 MiB). */
fgm_status fgm_compile_string(const char *text, const char *name,
                              const fgm_compile_opts *opts, fgm_ir **out,
                              fgm_diag_fn diag, void *ctx);

/* Checks one define as fgm_compile_opts.defines takes it: "NAME=VALUE",
 * NAME a name of the model language, VALUE a decimal integer that fits a
 * long long (as strtoll reads one: blanks and a sign may lead; nothing
 * may follow), which sets an integer const, or else a finite decimal real
 * (digits, a point, an exponent; no hex, inf or nan), which sets a real
 * one.  Returns NULL when it is well formed, else what is wrong
 * ("expected NAME=VALUE", "the value must be a number (an integer or a
 * decimal real)", "the value is out of range"), a constant string: a
 * program can refuse a bad option before it reads any model, by the
 * compiler's own rule.  NULL is not well formed. */
const char *fgm_compile_check_define(const char *define);

/* DEFINE as messages quote it, into OUT (4 strlen(DEFINE) + 1 bytes):
 * printable ASCII as it is, \n, \r, \t and \xHH for the other bytes, so
 * that a value with a newline in it stays on the message's line. */
void fgm_compile_quote_define(const char *define, char *out);

/* ------------------------------------------------------------------------
 * Models: load, observe, infer, read marginals (Infer.NET's
 * ObservedValue / Execute / Marginal).  A model is compiled once; a run
 * resets the messages (unless fgm_run_opts.warm), so one model serves any
 * number of puzzles.
 * ---------------------------------------------------------------------- */

typedef struct fgm_model fgm_model;

/* How a model's message schedule runs.  ORDER FACTOR: grep before
 * reordering. */
typedef enum fgm_backend {
    FGM_BACKEND_AUTO,          /* plugin, rebuilt if needed, else interpret */
    FGM_BACKEND_COMPILED,      /* plugin or fail with the reason */
    FGM_BACKEND_INTERPRETED    /* never touch a plugin */
} fgm_backend;

/* The algorithms fgm_model_opts.algo and `--algo` take, for messages. */
#define FGM_ALGO_NAMES "ep, bp-sum, bp-max, gibbs, vmp"

typedef struct fgm_model_opts {
    fgm_backend backend;
    const char *algo;          /* one of FGM_ALGO_NAMES; NULL: the
                                * model's */
    const char *out_dir;       /* plugins; NULL: "generated" */
    const char *cc;            /* C compiler; NULL: $CC or "cc" */
    double deadline;           /* fgm_now() time: a plugin build still
                                * running then is stopped and the open
                                * fails with FGM_ETIMEOUT; 0: none (the
                                * compiler has $FGM_CC_TIMEOUT); negative
                                * or NaN: FGM_EINVAL.  (New in 0.2.0: a
                                * program built against 0.1.0's fgm.h
                                * must be rebuilt.) */
} fgm_model_opts;

/* Most sweeps an inference may ask for, in a model's inference block or
 * on the command line: a million sweeps of the 9x9 Sudoku take 10-40 s
 * (0.6 ms compiled and 2 ms interpreted per 50); more is a typo, not a
 * request. */
#define FGM_MAX_ITERATIONS 1000000

/* The largest restart noise fgm_model_run takes: exp(+-300) keeps a
 * message's entries within a factor 1e260 of each other, so that they
 * stay finite and none underflows to 0 once normalized (1e308 gave
 * infinite, then uniform, messages; the seed's noise is 0.6). */
#define FGM_MAX_NOISE 300.0

/* Run-time settings; zero fields keep the model's inference block. */
typedef struct fgm_run_opts {
    int iterations;            /* sweeps at most; 0: the model's */
    double damping;            /* < 0 or unset (0 with use_damping 0) */
    int use_damping;           /* 1: DAMPING replaces the model's */
    double tolerance;          /* stop when no message moves more */
    int use_tolerance;         /* 1: TOLERANCE replaces the model's */
    int warm;                  /* 1: continue from the last run's messages
                                * (decimation: observe a cell, sweep a few
                                * more times); the first run is always cold */
    double noise;              /* cold start: multiply each initial message
                                * (vmp: each initial q(x)) by
                                * exp(U(-noise, noise)) (restarts) */
    unsigned long seed;        /* the noise's RNG seed; gibbs: the
                                * sampler's, each cold run (a warm run
                                * goes on with the generator's stream) */
    int full_sweeps;           /* 1: update every factor in every sweep;
                                * 0 (default): after the first sweep (two
                                * when a point mass needs them to reach
                                * its belief) of an undamped run, skip the
                                * updates whose messages a pinned variable
                                * (a one-hot observation) makes constant.
                                * Over the same number of sweeps the
                                * marginals agree to 1e-12.  The messages
                                * into pinned variables are left as they
                                * were, and the change a tolerance test
                                * sees leaves them out: with a tolerance,
                                * the two modes may stop a sweep apart. */
    double deadline;           /* fgm_now() time after which the run stops
                                * within a few sweeps (FGM_ETIMEOUT; the
                                * beliefs are those of the sweeps run);
                                * 0: none.  Solvers pass their per-puzzle
                                * deadline, so that a long --iters cannot
                                * outrun --timeout-ms. */
    int chains;                /* gibbs, cold runs: this many independent
                                * chains, seeded SEED, SEED + 1, ...; the
                                * marginals and posteriors are the mean of
                                * theirs, fgm_model_marginal_stderr their
                                * standard error.  0 or 1: one chain;
                                * at most FGM_MAX_CHAINS.  (New in
                                * 0.3.0.) */
    int restarts;              /* vmp, cold runs: this many runs, the
                                * first from the evidence (with NOISE if
                                * any), each other from it perturbed by
                                * NOISE (FGM_VMP_RESTART_NOISE when 0)
                                * seeded SEED + 1, SEED + 2, ...; the run
                                * with the highest bound is kept (mean
                                * field's local optima: on the casino's
                                * forty rolls most restarts find a bound
                                * 1.8 higher than the first run's).  0 or
                                * 1: one run; at most FGM_MAX_RESTARTS.
                                * (New in 0.4.0: a program built against
                                * 0.3.0's fgm.h must be rebuilt.) */
} fgm_run_opts;

/* Most chains, and most vmp restarts, one run may ask for; a restart's
 * noise when fgm_run_opts.noise is 0. */
#define FGM_MAX_CHAINS 1000
#define FGM_MAX_RESTARTS 1000
#define FGM_VMP_RESTART_NOISE 2.0

typedef struct fgm_run_info {
    int sweeps;                /* sweeps run */
    double change;             /* largest message change of the last one
                                * (gibbs: of a marginal estimate) */
    double ms;                 /* wall time of the run */
    long dead;                 /* gibbs: draws after the burn-in where no
                                * value had weight (the chain was in a
                                * state the constraints rule out; those
                                * sweeps are not kept), else 0.
                                * (New in 0.3.0: a program built against
                                * 0.2.0's fgm.h must be rebuilt.) */
    int chains;                /* gibbs: the chains run (fewer than asked
                                * when the deadline came first; SWEEPS,
                                * KEPT, DEAD and MS are their sums); vmp:
                                * the restarts run (SWEEPS and MS their
                                * sums, CHANGE the kept one's); else 1 */
    long kept;                 /* gibbs: the sweeps whose draws make the
                                * estimates (past the burn-in, every draw
                                * of weight), else 0 */
} fgm_run_info;

/* Compiles the model file PATH (default fgm_compile_opts: no defines) and
 * opens it with OPTS: the usual entry point.  Diagnostics (file:line:col)
 * go to DIAG.  Returns FGM_OK and *OUT, or an error status. */
fgm_status fgm_model_open(const char *path, const fgm_model_opts *opts,
                          fgm_model **out, fgm_diag_fn diag, void *ctx);

/* The first index of array NAME (a variable index for a `var` array, a
 * Dirichlet node index for a `prior` array) and its element count in
 * *COUNT (nullable).  Returns -1 when there is no such array, or M or
 * NAME is NULL. */
int fgm_model_find(const fgm_model *m, const char *name, int *count);

/* Opens an IR as a model (the IR is copied by reference and owned by the
 * model from now on: do not free it -- nor after a failure, which has
 * freed it already).  With backend AUTO or COMPILED the plugin cascade of
 * DESIGN.md runs (fallback reasons go to DIAG once).  Returns FGM_OK and
 * *OUT, or an error status after reporting. */
fgm_status fgm_model_open_ir(fgm_ir *ir, const fgm_model_opts *opts,
                             fgm_model **out, fgm_diag_fn diag, void *ctx);

void fgm_model_free(fgm_model *m);

/* The IR the model runs (owned by the model); NULL for M NULL. */
const fgm_ir *fgm_model_ir(const fgm_model *m);

/* 1 when the model runs a compiled plugin, 0 when interpreted (or M is
 * NULL). */
int fgm_model_is_compiled(const fgm_model *m);

/* How the plugin was obtained: *REBUILT is 1 when it was generated and
 * compiled by this open, *MS the time the cascade took (0 when
 * interpreted, or M is NULL).  Either pointer may be NULL. */
void fgm_model_plugin_info(const fgm_model *m, int *rebuilt, double *ms);

/* Observes discrete variable V (flat index) at value index VALUE
 * (0..card-1), or clears it with VALUE < 0: in place of its weights
 * (fgm_model_observe_weights) or a clue (fgm_model_observe_clue's point
 * mass on its prior), which VALUE < 0 clears too. */
fgm_status fgm_model_observe_var(fgm_model *m, int v, int value);

/* Observes discrete variable V softly: likelihood WEIGHTS[0..card-1]
 * (>= 0, finite, not all 0; only their ratios count) multiply its static
 * evidence, in place of any observed value (fgm_model_observe_var's, or
 * the point mass fgm_model_observe_clue puts on its prior; either one
 * replaces the weights in turn); WEIGHTS NULL clears them.
 * Weights that rule out every value the evidence allows are a
 * contradiction the run reports (fgm_model_contradiction).  Returns
 * FGM_EINVAL, changing nothing, for M NULL, V out of range or other
 * weights; FGM_ENOMEM. */
fgm_status fgm_model_observe_weights(fgm_model *m, int v,
                                     const double *weights);

/* Observed values leave EPSILON (default 0) on the other values instead
 * of 0, then renormalized: the seed's Python BP writes clues as
 * (1e-12, ..., 1).  Applies to the observations made after the call.
 * Returns FGM_EINVAL, changing nothing, unless 0 <= EPSILON < 1. */
fgm_status fgm_model_set_clamp_epsilon(fgm_model *m, double epsilon);

/* Observes Dirichlet node D: pseudo-counts ALPHA[0..K-1] (all > 0, their
 * sum at most FGM_MAX_PSEUDO_COUNT) when POINT_MASS is 0, or when it is 1
 * a point mass at the probability vector ALPHA normalized (>= 0, not all
 * 0, their sum at most FGM_MAX_PSEUDO_COUNT too; the seed's clue: 1 -
 * 8e-8 on the clue, 1e-8 elsewhere; a one-hot vector is an exact clue,
 * which pins the variable).  ALPHA NULL resets the node to the model's
 * default prior.  Returns FGM_EINVAL for any other ALPHA or POINT_MASS. */
#define FGM_MAX_PSEUDO_COUNT 1e150 /* the mean-square projection
                                    * squares the total */
fgm_status fgm_model_observe_dirichlet(fgm_model *m, int d,
                                       const double *alpha, int point_mass);

/* Observes variable V at value index VALUE (or clears it, VALUE < 0) the
 * way the seed's robust model takes a clue: when V is drawn from an
 * observed Dirichlet prior (fgm_ir_robust, models/sudoku.fgm), that prior
 * becomes a point mass with FGM_CLUE_EPSILON on every other value;
 * otherwise V itself is observed (fgm_model_observe_var).  A clue
 * replaces V's observed value or weights, and VALUE < 0 clears those
 * too.  Returns FGM_EINVAL for M NULL, V or VALUE out of range. */
#define FGM_CLUE_EPSILON 1e-8   /* the seed's RobustSudokuModel.EpsilonProba:
                                 * 1 - (K-1) 1e-8 on the clue */
fgm_status fgm_model_observe_clue(fgm_model *m, int v, int value);

/* Clears every observation (nothing for M NULL). */
void fgm_model_clear(fgm_model *m);

/* Runs inference from fresh messages, or with OPTS->warm from the last
 * run's (when there was one).  OPTS and INFO may be NULL.
 * Returns FGM_OK, FGM_ETIMEOUT when OPTS->deadline stopped it (INFO and
 * the readers below then hold what its sweeps reached), or FGM_EINVAL,
 * running nothing, for M NULL or OPTS out of range: iterations < 0 or
 * over FGM_MAX_ITERATIONS, a damping outside [0, 1), a tolerance (with
 * use_tolerance) below 0, a noise below 0 or over FGM_MAX_NOISE, a
 * deadline below 0, or any NaN; for gibbs also a tolerance above 0, and
 * chains below 0 or over FGM_MAX_CHAINS, or over 1 with warm or on
 * another algorithm; for vmp also a damping (with use_damping) above 0;
 * restarts below 0 or over FGM_MAX_RESTARTS, or over 1 with warm or on
 * another algorithm than vmp.  FGM_ENOMEM when the chains' sums or the
 * restarts' saved state do not fit. */
fgm_status fgm_model_run(fgm_model *m, const fgm_run_opts *opts,
                         fgm_run_info *info);

/* The four readers below give the result of the last fgm_model_run;
 * before the first one there is none, and they fail (FGM_EINVAL, -1)
 * without touching OUT. */

/* Copies the marginal of variable V (card values) to OUT. */
fgm_status fgm_model_marginal(const fgm_model *m, int v, double *out);

/* After a gibbs run of two chains or more (fgm_run_opts.chains): OUT
 * (card entries) receives the standard error of each of variable V's
 * marginal values, the chains' estimates' standard deviation over the
 * root of their number.  FGM_EINVAL for a bad V or OUT, and when the
 * last run had one chain. */
fgm_status fgm_model_marginal_stderr(const fgm_model *m, int v, double *out);

/* The most probable value index of variable V (-1 when M is NULL, V out
 * of range or no run yet). */
int fgm_model_argmax(const fgm_model *m, int v);

/* The first variable whose every value the last run rules out -- a zero
 * in its evidence, clamp or prior message, or an incoming factor message
 * at the floor (1e-30; a table's, a sum's or a gated draw's 1e-290: a
 * factor's exact zero, or a weight under the floor times the message's
 * largest, which the floor cannot tell apart) -- or whose
 * point-mass belief takes the value of another's in a native alldiff, or
 * -1 when there is none (or M is NULL, or no run yet).  Its marginal is
 * then no posterior: the observations contradict the model (Infer.NET
 * throws AllZeroException there), or the approximation itself reached a
 * contradiction (a point mass on a wrong value).  Damping keeps a message
 * above the floor for many sweeps, so a damped run may not show one.
 * After a gibbs run (no messages): the first variable no kept sweep gave
 * an estimate (fgm_run_info.kept 0: every sweep past the burn-in had a
 * draw no value could take), or a clash of point masses as above.
 * After a vmp run: the first variable whose last update found every
 * value ruled out (each met a hard zero with positive probability: the
 * usual outcome of `!=` or alldiff between free variables, whose q
 * start spread over every value), or a clash as above. */
int fgm_model_contradiction(const fgm_model *m);

/* Copies the posterior pseudo-counts of Dirichlet node D to OUT (K); for
 * a node observed as a point mass, its vector as observed. */
fgm_status fgm_model_dirichlet(const fgm_model *m, int d, double *out);

/* The log of the model's evidence as the last run approximates it into
 * *OUT: log Z, the total weight of its assignments with the observations
 * (their weights as observed) and its Dirichlet priors integrated out, as
 * the exact backend's "log Z".  bp-sum gives the Bethe free energy of its
 * messages, exact on a forest at its fixed point, where a Dirichlet prior
 * counts as its mean (as BP sends it); ep gives EP's evidence, exact where
 * each draw's variable is observed; bp-max gives the same with maxima for
 * sums, the log of the largest weight (exact on a forest, as `--map`'s
 * log weight); vmp gives its evidence lower bound (ELBO: log Z is at
 * least it; equal where every draw is observed).  -inf when some variable or factor has no weight left or
 * the run reports a contradiction.  Returns FGM_EINVAL (no run yet, an
 * observation made since it, or M or OUT NULL), FGM_EUNSUPPORTED (bp-max
 * over a native alldiff of more than 20 values; gibbs, which has no
 * estimate of it), FGM_ENOMEM, or
 * FGM_EINTERNAL (a NaN: a bug). */
fgm_status fgm_model_log_evidence(const fgm_model *m, double *out);

/* ------------------------------------------------------------------------
 * Constraint problems: a model seen as a CSP (value indices, peers,
 * alldiff units, tables), built once and shared read-only by threads.
 * Clues come with each call, never in the problem.
 * ---------------------------------------------------------------------- */

typedef struct fgm_csp fgm_csp;

/* Builds the CSP of IR (borrowed: it must outlive the CSP).  Returns NULL
 * with *STATUS set: FGM_ENOMEM, FGM_EINVAL (IR NULL), or FGM_EUNSUPPORTED
 * when a domain has more than 64 values.  STATUS may be NULL. */
fgm_csp *fgm_csp_new(const fgm_ir *ir, fgm_status *status);

void fgm_csp_free(fgm_csp *csp);

/* Number of variables, and the largest domain (the row length of the
 * marginal arrays below); 0 for CSP NULL. */
int fgm_csp_nvars(const fgm_csp *csp);
int fgm_csp_maxcard(const fgm_csp *csp);

/* GIVEN (CSP's nvars) = the clues of P, a puzzle of CSP's grid
 * (fgm_puzzle_to_given), and -1 for every variable past the grid, as for
 * an empty cell.  Returns FGM_OK; FGM_EINVAL, with nothing written, for
 * CSP or GIVEN NULL, and with every entry -1 for a P that is not a
 * puzzle of CSP's grid (another side, a value past it, or a model with
 * no grid: fgm_ir_grid); every entry -1 for P NULL, FGM_OK. */
fgm_status fgm_puzzle_clues(const fgm_csp *csp, const fgm_puzzle *p,
                            int *given);

/* Whether some factor of CSP weighs the assignments it allows unevenly
 * (evidence or a table with unequal non-zero entries, a Dirichlet prior
 * with unequal pseudo-counts or drawn from twice): then the fraction of
 * solutions taking a value (fgm_dlx_run's marginals) is not its
 * probability, and exact marginals need enumeration.  Returns 1 when out
 * of memory (enumeration is right either way), 0 for CSP NULL. */
int fgm_csp_weighted(const fgm_csp *csp);

/* Where CSP weighs its solutions evenly (fgm_csp_weighted 0), the log of
 * the weight each one has: the evidence and tables' constant non-zero
 * weights, 1/K for each prior of K equal pseudo-counts drawn from once;
 * the log Z of a count of solutions is its log plus this (plus
 * fgm_csp_point_mass_shift where clues are point masses).  NaN for a
 * weighted CSP, CSP NULL, or out of memory. */
double fgm_csp_solution_log_weight(const fgm_csp *csp);

/* A clue in GIVEN on a variable that alone draws from an observed
 * Dirichlet node (fgm_ir_clue_nodes) is a point mass on that node, as
 * fgm_model_observe_clue takes it (its epsilon taken to 0), not an
 * observation of the variable: the draw weighs 1, where the exact
 * engines below (fgm_dlx_run with fgm_csp_solution_log_weight,
 * fgm_enumerate*, fgm_eliminate*), which pin the variable, weigh it
 * a_x / A.  The shift is what that adds to their log Z, log max weight
 * or MAP log weight: the sum of -log(a_x / A) over those clues (0 for
 * GIVEN NULL, no clues; NaN for CSP NULL, a clue neither -1 nor a value
 * index, or out of memory).  The means
 * call sets each such node's row of MEAN (rows of MEAN_STRIDE, as
 * fgm_enumerate_means and fgm_ir_dirichlet_mean give them) to its point
 * mass; it returns FGM_EINVAL for CSP or MEAN NULL, a short stride or
 * such a clue, FGM_ENOMEM. */
double fgm_csp_point_mass_shift(const fgm_csp *csp, const int *given);
fgm_status fgm_csp_point_mass_means(const fgm_csp *csp, const int *given,
                                    double *mean, int mean_stride);

/* ------------------------------------------------------------------------
 * Solvers: the registry of `fgm list`.  Every answer is verified against
 * all constraints and the clues before it is reported: a solver's
 * success is a claim, not a result.
 * ---------------------------------------------------------------------- */

typedef struct fgm_solver fgm_solver;

/* Solver flags. */
#define FGM_SOLVER_EXACT 1u   /* complete: finds a solution when one exists */
#define FGM_SOLVER_RANDOM 2u  /* draws random numbers (seeded per puzzle) */
#define FGM_SOLVER_RESTARTS 4u /* reads fgm_solve_opts.max_restarts */

/* Number of solvers, and solver I (0..count-1, `fgm list` order; NULL
 * out of range). */
int fgm_solver_count(void);
const fgm_solver *fgm_solver_at(int i);

/* The solver called NAME ("dlx", "ep-robust"), or NULL. */
const fgm_solver *fgm_solver_find(const char *name);

/* Its name, one-line summary and FGM_SOLVER_* flags (NULL, NULL and 0 for
 * S NULL). */
const char *fgm_solver_name(const fgm_solver *s);
const char *fgm_solver_summary(const fgm_solver *s);
unsigned fgm_solver_flags(const fgm_solver *s);

/* Options of a solve; all zero is the default everywhere. */
typedef struct fgm_solve_opts {
    int lcv;             /* mrv: order values least-constraining first */
    long count_cap;      /* dlx --count: stop counting at this many */
    /* Probabilistic solvers. */
    fgm_backend backend; /* how models run (AUTO: compiled if possible) */
    const char *out_dir; /* plugins; NULL: "generated" */
    const char *cc;      /* C compiler; NULL: $CC or "cc" */
    int iterations;      /* sweeps per inference (bp-decimate*,
                          * bp-backtrack and alldiff-*: of the first,
                          * the later ones taking their own); 0: the
                          * solver's default */
    int fix_per_round;   /* ep-iterative: cells fixed per inference; 0: 2 */
    fgm_diag_fn diag;    /* where plugin fallbacks are reported */
    void *diag_ctx;
    int max_restarts;    /* the FGM_SOLVER_RESTARTS solvers (alldiff-*,
                          * bp-decimate3): attempts after the first; 0:
                          * the solver's default (29, the seed's 30
                          * attempts; alldiff-sum 1; 10000 for the tuned
                          * ones), < 0: none */
    size_t search_bytes; /* bp-backtrack: memory for the search's saved
                          * message states (at least two are kept); 0:
                          * 256 MiB.  Past it, a backtrack recomputes
                          * its node's messages from the nearest saved
                          * ancestor: the same search, more inferences.
                          * Per solving thread (-j). */
} fgm_solve_opts;

/* Counters of one solve (the CSV columns of `fgm solve --csv`). */
typedef struct fgm_solve_stats {
    long nodes;          /* recursive calls, counted as the seeds count them */
    long inferences;     /* message-passing inferences run */
    long decisions;      /* branching decisions or decimations: the
                          * exact searches count each value they set
                          * at a branch point (dlx: each row) */
    long restarts;
    long contradictions; /* dead ends: the exact searches count each
                          * value set at a branch point that a check or
                          * propagation refutes, and each variable met
                          * with no value left (dlx: a column with no
                          * row) */
    long sweeps;         /* message sweeps */
    long errors;         /* cells in a violated constraint (unsolved) */
    int compiled;        /* the inferences ran a compiled plugin */
} fgm_solve_stats;

/* The outcome of one solve. */
typedef struct fgm_solve_result {
    fgm_status status;   /* FGM_OK, FGM_EUNSOLVED, FGM_ETIMEOUT, ... */
    int solved;          /* a solution was returned and verified */
    int valid;           /* the returned assignment passed verification */
    double ms;           /* wall time of the solve call */
    fgm_solve_stats stats;
} fgm_solve_result;

/* Solves puzzle P with SOLVER on CSP, a grid model whose grid has P's
 * side (fgm_ir_grid).  The model's constraints are the rules: P's box
 * side is not checked against them (a 9x9 Sudoku on fgm_ir_latin(9) is
 * solved as a Latin square).  OPTS may be NULL.  SEED seeds the solver's
 * random numbers; TIMEOUT_MS <= 0: no deadline (a run that ends past it
 * is FGM_ETIMEOUT, not solved, whatever the solver found: solvers poll
 * the deadline, so one may overrun it; fgm bench's protocol counts that
 * a timeout).  On a verified solution writes it to *ANSWER (nullable).
 * *RES (nullable) receives the outcome.  Returns FGM_OK (solved),
 * FGM_EUNSOLVED, FGM_ETIMEOUT, FGM_EINVAL (a NULL argument, a puzzle of
 * another size, a NaN TIMEOUT_MS, or OPTS out of range: iterations < 0
 * or over FGM_MAX_ITERATIONS, fix_per_round < 0, an unknown backend),
 * FGM_EUNSUPPORTED (the solver refuses the model: the reason goes to
 * opts->diag) or FGM_ENOMEM. */
fgm_status fgm_solve_puzzle(const fgm_solver *solver, const fgm_csp *csp,
                            const fgm_solve_opts *opts, const fgm_puzzle *p,
                            unsigned long seed, double timeout_ms,
                            fgm_puzzle *answer, fgm_solve_result *res);

/* Batches: a stream of puzzles solved on N threads, reported in order. */
typedef struct fgm_batch_item {
    long index;             /* 0-based position in the input */
    fgm_puzzle puzzle;      /* as read */
    fgm_puzzle answer;      /* the verified solution when res.solved */
    fgm_solve_result res;
} fgm_batch_item;

/* Receives each item in input order, on the calling thread.  Returns 0 to
 * go on, nonzero to stop the batch. */
typedef int (*fgm_batch_emit)(void *ctx, const fgm_batch_item *item);

typedef struct fgm_batch_opts {
    const fgm_solver *solver;
    const fgm_csp *csp;         /* the model every puzzle is solved on */
    const fgm_solve_opts *sopts;/* may be NULL */
    int threads;                /* worker threads (below 1: one); a bound:
                                 * past the first, one that cannot be
                                 * started (no thread, no workspace)
                                 * leaves the batch to those running,
                                 * sopts->diag told */
    double timeout_ms;          /* per puzzle; <= 0: none */
    int seed_set;               /* seed = seed + index, else seed = index */
    unsigned long seed;
    int chunk;                  /* puzzles per chunk; 0: default */
    /* May be NULL.  Called with the emit callback's CTX, on the calling
     * thread, each time the batch is about to wait for the next answer
     * to emit: a consumer flushes what it wrote (fgm solve's stdout), so
     * that an answer is not held back while a slow puzzle is solved. */
    void (*idle)(void *ctx);
} fgm_batch_opts;

/* Reads puzzles from R until its end and solves them.  Memory stays bounded
 * (a few chunks in flight) whatever the input length.  OPTS->sopts->diag may be
 * called from the worker threads, one call at a time.  A puzzle that does
 * not fit the grid of the CSP's model (see fgm_solve_puzzle) is emitted
 * with res.status FGM_EINVAL, unsolved.  Returns FGM_OK at the
 * end of input, the reader's error on a malformed puzzle or FGM_EIO on a
 * read error (fgm_puzzle_reader_failed; either way the items before it
 * have been emitted), FGM_EUNSUPPORTED with *REASON (a static string;
 * REASON may be NULL) when the solver refuses the model, FGM_EINVAL (R,
 * OPTS, its solver or CSP, or EMIT NULL; a NaN OPTS->timeout_ms;
 * OPTS->sopts out of range, as fgm_solve_puzzle says), FGM_ENOMEM. */
fgm_status fgm_batch_run(fgm_puzzle_reader *r, const fgm_batch_opts *opts,
                         fgm_batch_emit emit, void *ctx,
                         const char **reason);

/* ------------------------------------------------------------------------
 * Exact answers: solution counts and marginals by Dancing Links on
 * exact-cover models (every constraint an alldiff of n variables over n
 * values: Sudoku, Latin squares), by enumeration on small models.  The
 * oracles approximate inference is checked against.
 * ---------------------------------------------------------------------- */

/* A Dancing Links workspace for one CSP, reused across runs (one per
 * thread). */
typedef struct fgm_dlx fgm_dlx;

/* Returns NULL when Dancing Links accepts CSP, otherwise a static reason. */
const char *fgm_dlx_refuses(const fgm_csp *csp);

/* Returns a workspace for CSP (borrowed: must outlive it), or NULL with
 * *STATUS set: FGM_EUNSUPPORTED when fgm_dlx_refuses(CSP) is not NULL,
 * FGM_EINVAL (CSP NULL), FGM_ENOMEM.  STATUS may be NULL. */
fgm_dlx *fgm_dlx_new(const fgm_csp *csp, fgm_status *status);

/* Frees D; NULL is a no-op. */
void fgm_dlx_free(fgm_dlx *d);

/* Limits of one counting run. */
typedef struct fgm_dlx_limits {
    long cap;           /* stop at this many solutions; <= 0: no cap */
    double deadline;    /* fgm_now() time to give up at; 0: none */
    long max_nodes;     /* give up after this many search nodes; <= 0: none */
} fgm_dlx_limits;

/* Counts the solutions with clues GIVEN (nvars value indices, -1 = free;
 * NULL: no clues) under LIM (NULL: no limits).  Writes the number found to
 * *COUNT (a lower bound when the run gave up).  MARGINALS (nullable,
 * nvars * fgm_csp_maxcard doubles, row-major by variable) receives, for
 * each value of each variable, the fraction of the counted solutions
 * taking it (all zeros when none were found).  FIRST (nullable, nvars)
 * receives the first solution found, untouched when there is none.
 * *NODES (nullable) receives the number of search calls.
 * Returns FGM_OK when the count is complete (every solution, or the cap
 * reached; clues that conflict give a count of 0), FGM_ETIMEOUT when the
 * deadline or node budget ran out first, FGM_EINVAL for a clue neither -1
 * nor a value index, or a deadline below 0 or NaN. */
fgm_status fgm_dlx_run(fgm_dlx *d, const int *given,
                       const fgm_dlx_limits *lim, long *count,
                       double *marginals, int *first, long *nodes);

/* Exact marginals of the model of CSP with clues GIVEN (NULL: none; value
 * indices, -1 free): MARGINALS (nvars * fgm_csp_maxcard, row-major)
 * receives P(x_v = k).  Dirichlet nodes are integrated out with their
 * default pseudo-counts.  Visits at most MAX_LEAVES consistent
 * assignments (<= 0: ten million) and stops at DEADLINE (fgm_now()
 * seconds, 0: none); *LEAVES (nullable) gets the number visited.  Returns
 * FGM_OK, FGM_ETIMEOUT when the bound or the deadline was hit (marginals
 * then normalized over the assignments visited), FGM_EUNSOLVED when no
 * assignment has positive weight, FGM_EUNSUPPORTED (more than
 * FGM_EXACT_MAXVARS variables), FGM_ENOMEM, FGM_EINVAL (CSP or MARGINALS
 * NULL, a clue neither -1 nor a value index, or a DEADLINE below 0 or
 * NaN). */
fgm_status fgm_enumerate(const fgm_csp *csp, const int *given,
                         long max_leaves, double deadline,
                         double *marginals, long *leaves);

/* fgm_enumerate, and each prior node's exact posterior mean into row d
 * of MEANS (ndirichlet rows of MEAN_STRIDE >= fgm_ir_dirichlet_maxk
 * doubles): over the assignments, E[(a_k + n_k) / (A + n)], n the
 * node's draws.  Where a draw's prior is picked by a variable (`y ~
 * discrete(t[c])`) a node's draws in all, n, differ between assignments
 * and the mean is summed over them; elsewhere it is fgm_ir_dirichlet_mean
 * of the marginals.  Returns as fgm_enumerate (FGM_EINVAL also for a
 * NULL MEANS or a short stride). */
fgm_status fgm_enumerate_means(const fgm_csp *csp, const int *given,
                               long max_leaves, double deadline,
                               double *marginals, double *means,
                               int mean_stride, long *leaves);

/* fgm_enumerate_means (MEANS NULL: fgm_enumerate), and into *LOG_Z the
 * log of the total weight of the assignments, the model's evidence log Z
 * (as variable elimination's fgm_elim_info.log_z): -inf when no
 * assignment has weight, NaN when the bound or the deadline stopped the
 * walk.  Each clue is an observation of its variable: where one is a
 * point mass on its prior instead (the engines' and `fgm run`'s reading),
 * add fgm_csp_point_mass_shift and set the means with
 * fgm_csp_point_mass_means. */
fgm_status fgm_enumerate_log_z(const fgm_csp *csp, const int *given,
                               long max_leaves, double deadline,
                               double *marginals, double *means,
                               int mean_stride, long *leaves,
                               double *log_z);

/* Most variables the exact searches take (fgm_enumerate, Dancing Links):
 * each recurses once per variable, and 100,000 overflowed the stack
 * (SIGSEGV); past it fgm_enumerate returns FGM_EUNSUPPORTED and
 * fgm_dlx_refuses says why. */
#define FGM_EXACT_MAXVARS 10000

/* The same walk for max-product: MAXMARGINALS row v receives, for each
 * value k, the largest weight of an assignment with x_v = k, normalized
 * over k -- what bp-max's beliefs are on a tree.  Returns as
 * fgm_enumerate. */
fgm_status fgm_enumerate_max(const fgm_csp *csp, const int *given,
                             long max_leaves, double deadline,
                             double *maxmarginals, long *leaves);

/* fgm_enumerate_max, and into *LOG_MAX the log of the largest weight of
 * an assignment (bp-max's log Z; -inf when none has weight, NaN when the
 * bound or the deadline stopped the walk; not written when the walk
 * cannot start: FGM_EINVAL, also for LOG_MAX NULL, FGM_EUNSUPPORTED,
 * FGM_ENOMEM).  Clues as fgm_enumerate_log_z takes them. */
fgm_status fgm_enumerate_max_log(const fgm_csp *csp, const int *given,
                                 long max_leaves, double deadline,
                                 double *maxmarginals, long *leaves,
                                 double *log_max);

/* The most probable assignment by the same walk, branch and bound: a
 * branch is left out when its weight so far times the largest weight
 * each factor not yet complete can add (a node's r draws ahead: prod_t
 * (top + t) / (A + n + t), top its largest a_k + n_k after n draws; 1 a
 * draw for a node a gate may pick) cannot pass the best assignment found
 * by a relative 1e-9 of its log weight, so that ties prune: the answer
 * weighs at least e^(-1e-9 (1 + |log weight|)) times the largest weight.
 * ASSIGNMENT
 * (nvars value indices; the clues' own) receives the best found (among
 * equals the first in the search's order), *LOG_WEIGHT (nullable) its
 * log weight (-HUGE_VAL: none found), *NODES (nullable) the search's
 * nodes (partial assignments entered).  On a model of hard constraints
 * alone the first solution is proven best at once.  Returns FGM_OK (the
 * search ended: ASSIGNMENT is a most probable one), FGM_ETIMEOUT when
 * MAX_NODES nodes (<= 0: 10^7) or DEADLINE stopped it first
 * (ASSIGNMENT, if any was found, is the best so far, not known to be the
 * best), FGM_EUNSOLVED (no assignment of positive weight), or as
 * fgm_enumerate. */
fgm_status fgm_enumerate_map(const fgm_csp *csp, const int *given,
                             long max_nodes, double deadline,
                             int *assignment, double *log_weight,
                             long *nodes);

/* Exact marginals by variable elimination: the same weights as
 * fgm_enumerate (Dirichlet nodes integrated out, clues GIVEN conditioned
 * on), computed on a bucket tree whose cliques come from a greedy
 * min-fill elimination order.  Its cost is the size of the cliques'
 * tables, not the number of assignments: any chain or tree is cheap, a
 * Sudoku grid is not.  MAX_ENTRIES (<= 0: FGM_ELIM_MAX_ENTRIES) bounds
 * the largest clique's table, four times it all of them together, and
 * eight times it the model's factors as tables; a table holds at most
 * FGM_ELIM_MAX_VARS variables.
 * MAX nonzero: max-marginals, as fgm_enumerate_max.  *INFO (nullable)
 * says how large the tree was, and the log of the total weight (the sum
 * over assignments of their weights; with MAX the largest weight).
 * DEADLINE (fgm_now() seconds, 0: none) is polled once a clique.
 * Returns FGM_OK, FGM_EUNSUPPORTED when the tables would pass the bound,
 * or when weights that span more than the doubles' range (1e300 and
 * 1e-300 in one table) lost, below the doubles, more than 1e-12 of an
 * answer (use fgm_enumerate then: it weighs in logs), FGM_EUNSOLVED when
 * no assignment has positive weight, FGM_ETIMEOUT (no marginals: there is no partial answer),
 * FGM_ENOMEM, FGM_EINVAL (CSP or MARGINALS NULL, a clue neither -1 nor a
 * value index, or a DEADLINE below 0 or NaN). */
#define FGM_ELIM_MAX_ENTRIES (1L << 21)
#define FGM_ELIM_MAX_VARS 64    /* most variables in one table */

typedef struct fgm_elim_info {
    int width;          /* most variables in a clique */
    long largest;       /* entries of the largest clique table */
    long entries;       /* entries of all clique tables */
    double log_z;       /* log of the total (MAX: largest) weight */
} fgm_elim_info;

fgm_status fgm_eliminate(const fgm_csp *csp, const int *given,
                         long max_entries, double deadline, int max,
                         double *marginals, fgm_elim_info *info);

/* The most probable assignment (MAP; on a hidden Markov chain, Viterbi's
 * path) by the same elimination, max-product, and a traceback: ASSIGNMENT
 * (nvars value indices; the clues' own) receives one assignment of the
 * largest weight (among equals, each variable's lowest value given those
 * decided before it in the traceback, which runs in the reverse of the
 * elimination order, not in variable order), INFO->log_z that weight's
 * log.  Returns as fgm_eliminate (FGM_EINVAL when ASSIGNMENT is NULL). */
fgm_status fgm_eliminate_map(const fgm_csp *csp, const int *given,
                             long max_entries, double deadline,
                             int *assignment, fgm_elim_info *info);

/* ------------------------------------------------------------------------
 * Puzzle generation: a random full grid, then clues removed in a random
 * order while the puzzle keeps exactly one solution (counted by Dancing
 * Links, cap 2).  A check that runs out of budget keeps its clue, so the
 * result is always unique.
 * ---------------------------------------------------------------------- */

typedef struct fgm_generate_opts {
    int min_clues;      /* stop removing clues at this many; 0: as few as
                         * the budgets allow */
    long check_nodes;   /* DLX search nodes per uniqueness check; 0: a
                         * default by size; < 0: no budget */
    double check_ms;    /* wall time per uniqueness check; 0: none (makes
                         * the result depend on the machine's speed) */
    double total_ms;    /* stop removing clues after this long; 0: none
                         * (same caveat) */
} fgm_generate_opts;

typedef struct fgm_generate_stats {
    int clues;          /* clues left in the puzzle */
    int checks;         /* uniqueness checks run */
    int gave_up;        /* checks that ran out of budget (clue kept) */
    int fill_restarts;  /* full-grid searches restarted */
    long nodes;         /* DLX nodes over all checks */
    double ms;          /* wall time of the whole generation */
    int solution[FGM_PUZZLE_MAXCELLS];  /* N*N values 1..N: the full grid */
} fgm_generate_stats;

/* Generates a Sudoku puzzle with box side BOX (2..5) into *OUT (empty
 * cells '.'), drawing from a GSL mt19937 seeded with SEED: the same seed
 * and options give the same puzzle (unless a time budget is set).  OPTS
 * and STATS may be NULL.  Returns FGM_OK, FGM_EINVAL (bad box side, OUT
 * NULL, a NaN time budget), FGM_ENOMEM, or FGM_ETIMEOUT when the total time budget ran out
 * while the full grid was still sought, a search failed past it (*OUT
 * then untouched).  A full grid found, even late, is kept: the budget
 * then only stops the digging, and may leave every clue in. */
fgm_status fgm_generate_puzzle(int box, unsigned long seed,
                               const fgm_generate_opts *opts,
                               fgm_puzzle *out, fgm_generate_stats *stats);

/* ------------------------------------------------------------------------
 * Plugins by hand (`fgm compile -o`, `--emit-c`); fgm_model_open builds
 * and loads them by itself.  Both write atomically and report every
 * failure through DIAG.
 * ---------------------------------------------------------------------- */

/* Writes the C source of IR's plugin (its schedule baked into tables; the
 * same IR gives the same bytes) to C_PATH.  Returns FGM_OK,
 * FGM_EUNSUPPORTED (no schedule for IR's algorithm), FGM_EIO or
 * FGM_ENOMEM. */
fgm_status fgm_plugin_emit_c(const fgm_ir *ir, const char *c_path,
                             fgm_diag_fn diag, void *ctx);

/* Builds IR's plugin at SO_PATH with the C compiler CC (NULL: $CC, else
 * "cc").  C_PATH (nullable) names the source fgm_plugin_emit_c wrote for
 * IR: when it is a regular file, a copy of it is compiled; otherwise
 * (NULL, missing, a device, this process's standard output) the source
 * is generated from IR.  The copy goes to a temporary directory of this
 * call's own next to SO_PATH (threads may build the same SO_PATH), with
 * the kernel headers this library was built with, and is removed after.
 * Returns FGM_OK, FGM_EINVAL (IR or SO_PATH NULL, or SO_PATH past 4,084
 * bytes), FGM_EUNSUPPORTED, FGM_ECC (the compiler failed or could not be
 * run), FGM_EPLUGIN, FGM_EABI or FGM_ESTALE (what was built does not load
 * as IR's plugin: a C_PATH edited into another model's), FGM_EIO or
 * FGM_ENOMEM. */
fgm_status fgm_plugin_emit_so(const fgm_ir *ir, const char *so_path,
                              const char *c_path, const char *cc,
                              fgm_diag_fn diag, void *ctx);

/* ------------------------------------------------------------------------
 * Benchmarks (DESIGN "Benchmark protocol"): every solver on every puzzle
 * of every corpus, seed = puzzle index plus fgm_bench_opts.seed, a
 * cooperative timeout per run; a fast run is repeated and its puzzle timed
 * by the median; a timeout is a censored observation (counted in n, left
 * out of every time).  Stages: fgm_bench_opts_init, fgm_bench_run (the
 * only stage that solves), any writers, fgm_bench_free.  Nothing prints:
 * writers take a FILE *.
 * ---------------------------------------------------------------------- */

/* The results: one row per (corpus, solver). */
typedef struct fgm_bench fgm_bench;

/* Receives a one-line progress report such as "bench: hardest.txt dlx 7/11"
 * at most ten times a second, then LINE = NULL once at the end (only if a
 * line was sent) so that the caller can erase it. */
typedef void (*fgm_bench_progress_fn)(void *ctx, const char *line);

/* Chooses the model the corpus file CORPUS (puzzles of N x N cells, box
 * side BOX, 0 for a Latin square) runs on: for its exact solvers when
 * EXACT is 1, for its probabilistic ones when 0.  Sets *OUT to a new IR
 * (the bench takes it; its first N * N variables take the clues, any
 * others stay free, fewer end the bench with FGM_EINVAL), or to NULL for
 * the built-in model (fgm_ir_sudoku or fgm_ir_latin); any other status
 * than FGM_OK, after a report, ends the bench with it (an IR set in *OUT
 * is freed then).  The CLI's hook gives the probabilistic solvers the
 * model `fgm solve` would run (models/sudoku.fgm). */
typedef fgm_status (*fgm_bench_model_fn)(void *ctx, const char *corpus,
                                         int n, int box, int exact,
                                         fgm_ir **out);

typedef struct fgm_bench_opts {
    const char *const *solvers;  /* registry names, "NAME@BACKEND" for a
                                  * probabilistic solver on one backend */
    int nsolvers;
    const char *const *corpora;  /* puzzle files, one corpus each */
    int ncorpora;
    double timeout_ms;           /* per run; <= 0: none (default 10000) */
    int repeat;                  /* runs of a fast puzzle (default 3) */
    double fast_ms;              /* "fast" threshold (default 250) */
    const fgm_solve_opts *solve_opts;  /* may be NULL */
    fgm_bench_progress_fn progress;    /* may be NULL */
    void *progress_ctx;
    fgm_diag_fn diag;            /* may be NULL */
    void *diag_ctx;
    fgm_bench_model_fn model;    /* may be NULL: the built-in models */
    void *model_ctx;
    unsigned long seed;          /* a puzzle's runs are seeded with its
                                  * index plus this (default 0), as
                                  * fgm solve --seed */
    int grid_n, grid_box;        /* the corpora's grid as
                                  * fgm_puzzle_reader_open takes it (a
                                  * Latin square of side 7: 7, 0); 0, 0
                                  * (default): Sudoku, its size guessed */
} fgm_bench_opts;

/* Sets the defaults above; the lists are left empty.  O NULL: nothing. */
void fgm_bench_opts_init(fgm_bench_opts *o);

/* The backend a solver label's "@NAME" names (auto, compiled,
 * interpreted), as an fgm_backend; -1 when NAME is none of them. */
int fgm_bench_backend_find(const char *name);

/* Runs the protocol; every corpus is read, and its models made (the
 * model hook called), before any solver runs.  On FGM_OK, *OUT is a new
 * fgm_bench owned by the caller (free with fgm_bench_free).  Otherwise
 * *OUT is NULL (OUT permitting) and the error was reported through o->diag:
 * FGM_EINVAL (O or OUT NULL, unreported; no solver or corpus, a NULL in
 * either list, a NaN timeout_ms or fast_ms, a grid_n and grid_box
 * fgm_puzzle_reader_open refuses, unknown solver, empty corpus, a corpus
 * mixing grid sizes),
 * FGM_EPARSE or FGM_EIO (corpus unreadable),
 * FGM_ENOMEM, or the status of a solver that failed other than by timeout
 * or giving up.  A solver that refuses a corpus's model is not an error:
 * its row says so. */
fgm_status fgm_bench_run(const fgm_bench_opts *o, fgm_bench **out);

/* Frees B and everything it owns; NULL is a no-op. */
void fgm_bench_free(fgm_bench *b);

/* Writes one report of B to F; returns FGM_OK or FGM_EIO. */
typedef fgm_status (*fgm_bench_writer)(const fgm_bench *b, FILE *f);

/* The reports: the aligned text table (corpus, solver, solved/n,
 * timeouts, median, IQR and mean ms, timed runs); one CSV line per row;
 * one CSV line per (corpus, puzzle, solver); the SVG bar chart; and a
 * title line then, for each solver run both as NAME@compiled and as
 * NAME@interpreted, their median times per corpus over the puzzles both
 * timed and the ratio, then the median and IQR of the per-puzzle
 * interpreted/compiled ratios over those puzzles, and how many they are
 * when timeouts left some out. */
fgm_status fgm_bench_write_table(const fgm_bench *b, FILE *f);
fgm_status fgm_bench_write_csv(const fgm_bench *b, FILE *f);
fgm_status fgm_bench_write_detail(const fgm_bench *b, FILE *f);
fgm_status fgm_bench_write_svg(const fgm_bench *b, FILE *f);
fgm_status fgm_bench_write_backends(const fgm_bench *b, FILE *f);

/* Writes B with WRITE to PATH atomically (fgm_write_atomic).  On failure
 * PATH is untouched and FGM_EIO (or the writer's status) is returned
 * after a report to DIAG; FGM_EINVAL, not reported, for B, PATH or WRITE
 * NULL. */
fgm_status fgm_bench_save(const fgm_bench *b, const char *path,
                          fgm_bench_writer write, fgm_diag_fn diag,
                          void *ctx);

#endif /* FGM_H */
