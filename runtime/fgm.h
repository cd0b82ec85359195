/* runtime/fgm.h: the public API of libfgm (status codes, puzzles, IR, solvers).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This is the only header a user of libfgm includes.  The library never
 * prints and never exits: every function returns a status from the enum
 * below, and human-readable diagnostics go to the sink passed by the caller.
 */
#ifndef FGM_H
#define FGM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FGM_VERSION "0.1.0"

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
    char empty;         /* the symbol the input used for empty cells */
    unsigned char cells[FGM_PUZZLE_MAXCELLS];
} fgm_puzzle;

typedef struct fgm_puzzle_reader fgm_puzzle_reader;

/* Opens PATH for reading puzzles ("-" is stdin).  N is the expected side
 * (0: Sudoku, told by the length of the first grid); BOX is the expected box
 * side when N is given (0: no box constraint, a Latin square).  On failure
 * returns NULL and reports through DIAG.  The reader owns its FILE. */
fgm_puzzle_reader *fgm_puzzle_reader_open(const char *path, int n, int box,
                                          fgm_diag_fn diag, void *ctx);

/* Same, reading the open stream F (borrowed: the caller closes it), with
 * NAME in messages. */
fgm_puzzle_reader *fgm_puzzle_reader_file(FILE *f, const char *name, int n,
                                          int box, fgm_diag_fn diag,
                                          void *ctx);

/* Reads the next puzzle into *OUT.  Returns FGM_OK, FGM_EIO at the end of
 * input (with *OUT untouched), or FGM_EPARSE/FGM_EINVAL after reporting a
 * malformed puzzle as "file:line: error: ..." through the sink. */
fgm_status fgm_puzzle_read(fgm_puzzle_reader *r, fgm_puzzle *out);

/* Reads the next puzzle into *OUT without consuming it: the next
 * fgm_puzzle_read returns it again.  Same statuses as fgm_puzzle_read. */
fgm_status fgm_puzzle_peek(fgm_puzzle_reader *r, fgm_puzzle *out);

/* Number of puzzles read so far (a peeked puzzle counts). */
long fgm_puzzle_reader_count(const fgm_puzzle_reader *r);

/* Closes the reader; NULL is a no-op. */
void fgm_puzzle_reader_close(fgm_puzzle_reader *r);

/* Parses one puzzle from the text TEXT (one line, or a multi-line grid).
 * NAME is used in messages.  Returns FGM_OK or an error after reporting. */
fgm_status fgm_puzzle_parse(const char *text, const char *name, int n,
                            int box, fgm_puzzle *out, fgm_diag_fn diag,
                            void *ctx);

/* Writes P on one line (N*N symbols, P->empty for empty cells) into BUF of
 * SIZE bytes, NUL-terminated.  Returns the length or -1 if BUF is short. */
int fgm_puzzle_format_line(const fgm_puzzle *p, char *buf, size_t size);

/* Writes P as the boxed multi-line display to F. */
void fgm_puzzle_write_grid(const fgm_puzzle *p, FILE *f);

/* Symbol for value V (1..35) in the one-line format: 1-9 then A-Z. */
char fgm_puzzle_symbol(int v);

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

/* 64-bit FNV-1a hash of the canonical dump (without its first line). */
uint64_t fgm_ir_hash(const fgm_ir *ir);

/* Writes Graphviz DOT of the factor graph of IR to F. */
fgm_status fgm_ir_graph(const fgm_ir *ir, FILE *f);

/* ------------------------------------------------------------------------
 * Model compiler: .fgm text -> IR (compiler/; the language is described in
 * README.md, "The model language").  Stages, in order: parse, check names,
 * types and ranges, expand loops and slices, lower to the IR.  Errors are
 * reported through DIAG as "file:line:col: error: message", followed by the
 * source line and a caret line under the offending token; compilation goes
 * on past an error so that one run reports several, up to max_errors.
 * ---------------------------------------------------------------------- */

typedef struct fgm_compile_opts {
    const char *const *defines; /* "NAME=VALUE": overrides `const NAME` (an
                                 * error when the model has no such const) */
    int ndefines;
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

/* ------------------------------------------------------------------------
 * Models: load, observe, infer, read marginals (Infer.NET's
 * ObservedValue / Execute / Marginal).  A model is compiled once; every
 * run resets the messages, so one model serves any number of puzzles.
 * ---------------------------------------------------------------------- */

typedef struct fgm_model fgm_model;

/* How a model's message schedule runs.  ORDER FACTOR: grep before
 * reordering. */
typedef enum fgm_backend {
    FGM_BACKEND_AUTO,          /* plugin, rebuilt if needed, else interpret */
    FGM_BACKEND_COMPILED,      /* plugin or fail with the reason */
    FGM_BACKEND_INTERPRETED    /* never touch a plugin */
} fgm_backend;

typedef struct fgm_model_opts {
    fgm_backend backend;
    const char *algo;          /* "ep", "bp-sum", "bp-max"; NULL: model's */
    const char *out_dir;       /* plugins; NULL: "generated" */
    const char *cc;            /* C compiler; NULL: $CC or "cc" */
} fgm_model_opts;

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
                                * by exp(U(-noise, noise)) (restarts) */
    unsigned long seed;        /* the noise's RNG seed */
    int full_sweeps;           /* 1: update every factor in every sweep;
                                * 0 (default): after the first sweep (two
                                * when a point mass needs them to reach
                                * its belief) of an undamped run, skip the
                                * updates whose messages a pinned variable
                                * (a one-hot observation) makes constant.
                                * The marginals agree to 1e-12; the
                                * messages into pinned variables are left
                                * as they were, and the change a tolerance
                                * test sees leaves them out. */
} fgm_run_opts;

typedef struct fgm_run_info {
    int sweeps;                /* sweeps run */
    double change;             /* largest message change of the last one */
    double ms;                 /* wall time of the run */
} fgm_run_info;

/* Compiles the model file PATH (with OPTS->defines-free defaults) and opens
 * it: the usual entry point.  Diagnostics (file:line:col) go to DIAG.
 * Returns FGM_OK and *OUT, or an error status. */
fgm_status fgm_model_open(const char *path, const fgm_model_opts *opts,
                          fgm_model **out, fgm_diag_fn diag, void *ctx);

/* The first index of array NAME (a variable index for a `var` array, a
 * Dirichlet node index for a `prior` array) and its element count in
 * *COUNT (nullable).  Returns -1 when there is no such array. */
int fgm_model_find(const fgm_model *m, const char *name, int *count);

/* Opens an IR as a model (the IR is copied by reference and owned by the
 * model from now on: do not free it).  With backend AUTO or COMPILED the
 * plugin cascade of DESIGN.md runs (fallback reasons go to DIAG once).
 * Returns FGM_OK and *OUT, or an error status after reporting. */
fgm_status fgm_model_open_ir(fgm_ir *ir, const fgm_model_opts *opts,
                             fgm_model **out, fgm_diag_fn diag, void *ctx);

void fgm_model_free(fgm_model *m);

/* The IR the model runs (owned by the model). */
const fgm_ir *fgm_model_ir(const fgm_model *m);

/* 1 when the model runs a compiled plugin, 0 when interpreted. */
int fgm_model_is_compiled(const fgm_model *m);

/* How the plugin was obtained: *REBUILT is 1 when it was generated and
 * compiled by this open, *MS the time the cascade took (0 when
 * interpreted).  Either pointer may be NULL. */
void fgm_model_plugin_info(const fgm_model *m, int *rebuilt, double *ms);

/* Observes discrete variable V (flat index) at value index VALUE
 * (0..card-1), or clears it with VALUE < 0. */
fgm_status fgm_model_observe_var(fgm_model *m, int v, int value);

/* Observed values leave EPSILON (default 0) on the other values instead
 * of 0, then renormalized: the seed's Python BP writes clues as
 * (1e-12, ..., 1).  Applies to the observations made after the call. */
void fgm_model_set_clamp_epsilon(fgm_model *m, double epsilon);

/* Observes Dirichlet node D: pseudo-counts ALPHA[0..K-1] (all > 0, their
 * sum at most FGM_MAX_PSEUDO_COUNT), or a point mass at the probability
 * vector ALPHA when POINT_MASS is 1 (>= 0, not all 0; the seed's clue:
 * 1 - 8e-8 on the clue, 1e-8 elsewhere; a one-hot vector is an exact clue,
 * which pins the variable).  ALPHA NULL resets the node to the model's
 * default prior.  Returns FGM_EINVAL for any other ALPHA. */
#define FGM_MAX_PSEUDO_COUNT 1e150 /* the mean-square projection
                                    * squares the total */
fgm_status fgm_model_observe_dirichlet(fgm_model *m, int d,
                                       const double *alpha, int point_mass);

/* Clears every observation. */
void fgm_model_clear(fgm_model *m);

/* Runs inference from fresh messages.  OPTS and INFO may be NULL. */
fgm_status fgm_model_run(fgm_model *m, const fgm_run_opts *opts,
                         fgm_run_info *info);

/* Copies the marginal of variable V (card values) to OUT. */
fgm_status fgm_model_marginal(const fgm_model *m, int v, double *out);

/* The most probable value index of variable V. */
int fgm_model_argmax(const fgm_model *m, int v);

/* Copies the posterior pseudo-counts of Dirichlet node D to OUT (K). */
fgm_status fgm_model_dirichlet(const fgm_model *m, int d, double *out);

#endif /* FGM_H */
