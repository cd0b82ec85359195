/* runtime/cli/cli.h: shared pieces of the fgm command-line tool.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only the CLI prints.  Exit codes (DESIGN.md): 0 ok, 1 bad input or model,
 * 2 usage error, 3 internal error.  The CLI is a user of the public API:
 * it includes fgm.h and no internal header.
 */
#ifndef FGM_CLI_H
#define FGM_CLI_H

#include "../fgm.h"

enum { CLI_OK = 0, CLI_EINPUT = 1, CLI_EUSAGE = 2, CLI_EINTERNAL = 3 };

#define CLI_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

/* Diagnostic sink printing "fgm: MSG" or "MSG" (for file:line messages)
 * on stderr. */
void cli_diag(void *ctx, const char *msg);

/* Prints "fgm: " + message on stderr and returns CODE. */
int cli_fail(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* cli_fail on ERR: a message kept with the output of one observation set
 * until the sets before it are printed (fgm run -j). */
int cli_fail_to(FILE *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A scratch folder of the CLI's own (tmpdir.c), of plain files, listed
 * while it exists so that a fatal signal removes it and its files: list
 * returns 0 when the name is too long to list; remove empties and removes
 * it, and unlists it, returning 0 if something was left; abort does the
 * same from the signal handler (only). */
int cli_tmpdir_list(const char *dir);
int cli_tmpdir_remove(void);
void cli_tmpdir_abort(void);

/* Maps a library status to an exit code. */
int cli_exit_code(fgm_status st);

/* Flushes stdout; on a write error (a full disk, a closed pipe) reports it
 * for command CMD and returns CLI_EINPUT (as `fgm dump` does), else CODE.
 * Output lost on the way must not exit 0. */
int cli_finish_stdout(const char *cmd, int code);

/* Whether stdout is open for writing; if not (closed, >&-, or read-only,
 * 1</dev/null), says so for command CMD as cli_finish_stdout would, and
 * returns 0 (the caller exits CLI_EINPUT).  For what would not reach
 * stdio's error flag: a dup that takes fd 1's number, a write through
 * /dev/stdout. */
int cli_stdout_open(const char *cmd);

/* fgm_write_atomic_check of PATH, told on stderr: 1 when it can be
 * written, else 0 after "PATH: error: cannot write: REASON". */
int cli_output_ok(const char *path);

/* Whether paths A and B name one file: the same inode when both exist
 * ("x", "./x" and a link to it alike), else the same name in the same
 * folder (the folders compared as files), so that two outputs not yet
 * written are compared too. */
int cli_same_file(const char *a, const char *b);

/* Command-line cursor: "--name value", "--name=value" and "-j4" forms. */
typedef struct cli_args {
    int argc;
    char **argv;
    int i;              /* next argument */
    int first;          /* the first argument after the command's name */
    const char *cmd;    /* command name for messages */
    int operands;       /* past "--": every argument is an operand */
} cli_args;

/* Consumes a first "--" at argv[i] (the end of the options: a file may
 * then start with '-') and returns 1; else 0. */
int cli_end_of_options(cli_args *a);

/* Before the usage a command prints when its operand is missing: says
 * that WHAT ("a model (MODEL)", "puzzle files (PUZZLES...)") is missing
 * when the command was given arguments; a bare `fgm CMD` asks for the
 * usage alone. */
void cli_missing(const cli_args *a, const char *what);

/* Whether argv[i] is an option no command knows: "-x", not "-" (standard
 * input) nor anything after "--". */
int cli_unknown_option(const cli_args *a);

/* If argv[i] is option NAME taking a value, stores it in *VAL, advances and
 * returns 1; returns -1 (after a message) when the value is missing. */
int cli_opt_value(cli_args *a, const char *name, const char **val);

/* If argv[i] is flag NAME, advances and returns 1. */
int cli_opt_flag(cli_args *a, const char *name);

/* Parses an integer option value in LO..HI (or a double >= LO) into *OUT;
 * returns 0 and prints a usage error when malformed or out of range
 * (cli_parse_double with CMD NULL prints none: the caller words it). */
int cli_parse_long(const char *cmd, const char *name, const char *s,
                   long lo, long hi, long *out);
int cli_parse_double(const char *cmd, const char *name, const char *s,
                     double lo, double *out);

/* Whether S, the value of option NAME, names a WHAT ("file", "folder");
 * returns 0 and prints a usage error when S is empty, which is no name:
 * taken as one, it failed later as ": cannot write", naming neither the
 * option nor the empty name, or (--out-dir) meant the current folder. */
int cli_check_name(const char *cmd, const char *name, const char *s,
                   const char *what);

/* The shipped Sudoku model (box side const B), relative to the working
 * directory: what `fgm solve` and `fgm bench` run their probabilistic
 * solvers on without --model (DESIGN.md). */
#define CLI_DEFAULT_MODEL "models/sudoku.fgm"

/* Most -D NAME=VALUE options one command takes. */
#define CLI_MAXDEFINES 64

/* Adds D, the value of a -D of command CMD, to DEFS (*N of them so far,
 * room for CLI_MAXDEFINES); else returns 0 after a usage error: too many
 * -D, or D not NAME=VALUE with VALUE an integer, as
 * fgm_compile_opts.defines wants (fgm_compile_check_define: "fgm: CMD:
 * -D D: expected NAME=VALUE").  The option's text alone is at fault, so
 * it is told before any model is read (the compiler's message named the
 * model file). */
int cli_add_define(const char *cmd, const char **defs, int *n,
                   const char *d);

/* Whether the model SPEC names is a file: a name ending in .fgm, or a
 * file that exists (else a built-in model, sudoku:B or latin:N). */
int cli_is_model_file(const char *spec);

/* Builds the IR named by SPEC: "sudoku:B" (box side 2..5), "latin:N", or a
 * .fgm file compiled with DEFINES[0..NDEFINES-1] ("NAME=VALUE", from -D:
 * they override the model's consts; .fgm only), and the puzzle side *N and
 * box side *BOX (0 for Latin squares, FGM_GRID_NO_UNITS for a grid with
 * no units) its puzzles have (fgm_ir_grid for a .fgm model).  Returns
 * NULL after a message (a usage error says "CMD: " first, as the
 * command's own do); *CODE is the exit code. */
fgm_ir *cli_model_open(const char *cmd, const char *spec,
                       const char *const *defines, int ndefines, int *n,
                       int *box, int *code);

/* Whether CLI_DEFAULT_MODEL can be read (else fgm's copy of it runs). */
int cli_default_model_readable(void);

/* The text of CLI_DEFAULT_MODEL as fgm was built with it. */
extern const char fgm_default_model_text[];

/* CLI_DEFAULT_MODEL for box side BOX (-D B=BOX), through cli_model_open,
 * or from fgm_default_model_text where the file cannot be read.  NULL
 * after a message, with *CODE the exit code. */
fgm_ir *cli_default_model(const char *cmd, int box, int *n, int *nbox,
                          int *code);

/* The error for puzzles given to MODEL when cli_model_open found no grid
 * for them (*N = 0), after WHERE ("solve: " or "FILE: error: "); returns
 * its exit code.  A puzzle's cells would otherwise land on (and past)
 * whatever variables come first. */
int cli_no_grid(const char *where, const char *model);

/* Whether puzzles of side N can stand for values of IR's grid (its first
 * variable array, cli_model_open's *N): a puzzle's symbols 1..N are read
 * as the grid's values 1..N, so the grid must take exactly those.  Else
 * says so after WHERE ("solve: ") and returns the exit code; CLI_OK.
 * (A grid in 5..13 was solved as if in 1..9 and printed in symbols that
 * are none of its values; `fgm run` refuses such puzzle lines.) */
int cli_grid_values(const char *where, const char *model, const fgm_ir *ir,
                    int n);

/* Sets IR's algorithm to NAME; returns 0 after a usage message naming CMD
 * when there is no such algorithm. */
int cli_set_algo(const char *cmd, fgm_ir *ir, const char *name);

/* Whether IR's algorithm is NAME ("vmp": its log Z is a lower bound). */
int cli_algo_is(const fgm_ir *ir, const char *name);

/* Commands. */
/* Where observations go: the engine's model, or the exact clues; with
 * neither, nowhere: the lines are only checked. */
typedef struct obs_sink {
    fgm_model *model;       /* engine backends */
    double *vec;            /* engine backends: one node's pseudo-counts */
    int *given;             /* exact backend: nvars */
    long set_line;          /* the line of the set's first assignment */
    int exact;              /* the exact backend: pseudo-counts refused */
    fgm_ir *soft;           /* exact backend (GIVEN set): the set's weights
                             * as evidence factors on a copy of the
                             * model, NULL when it has none; the caller
                             * frees the last one */
} obs_sink;

/* Variable elimination's bounds in words, for a printf format, and the
 * arguments that go with it: what a refusal of a model out of its reach
 * says (fgm run, fgm bench). */
#define CLI_ELIM_BOUND \
    "a clique or factor table of more than %ld entries or %d variables, " \
    "weights past the doubles' range, or a draw whose prior a variable " \
    "picks"
#define CLI_ELIM_BOUND_ARGS (long)FGM_ELIM_MAX_ENTRIES, FGM_ELIM_MAX_VARS

/* The assignments the exact backend's enumeration visits at most by
 * default (`fgm run --cap`; `fgm bench`'s exact backend). */
#define CLI_ENUM_CAP 1000000L

/* What an observation file holds, judged by its first line of data
 * (run_observe.c; the file is rewound, *LINE says which line it was). */
enum { OBS_NONE, OBS_PUZZLES, OBS_ASSIGN };
int observation_kind(FILE *f, long *line);

/* Applies one set of assignment lines of F (PATH in messages) to O, up to
 * a "---" line (*MORE set) or the end; *GOT counts its lines, *LINENO_IO
 * F's lines across calls.  Returns 0 after reporting an error. */
int apply_assignments(const fgm_ir *ir, FILE *f, const char *path,
                      obs_sink *o, long *lineno_io, int *more, int *got);

/* The next non-empty set of F into O (cleared first unless FIRST).
 * Returns 1 for a set, 0 when none is left, -1 after an error. */
int next_assignment_set(const fgm_ir *ir, FILE *f, const char *path,
                        obs_sink *o, int first, long *lineno, int *more);

/* An observation file read whole and checked (obs_file.c). */
typedef struct obs_file {
    const char *cmd;        /* "run", "bench": for messages */
    const char *shown;      /* the file as messages name it */
    char *text;
    size_t len;
    int assign;             /* assignment sets; else puzzles */
    long first_line;        /* its first line of data */
    int n, box;             /* the model's grid, for puzzles */
    int code;               /* the exit code of a failed obs_file_next */
    long nsets;             /* its sets, counted by the check */
    FILE *f;                /* the walk: text, its reader, where it is */
    fgm_puzzle_reader *rd;
    long lineno;
    int more, first;
} obs_file;

/* Reads PATH ("-": standard input) whole into O and checks every line
 * against IR (the model file MODEL, grid side N and box BOX for puzzle
 * lines; EXACT: as the exact backend takes them), observing nothing; O is
 * then at its first set.  Returns CLI_OK, or the exit code after saying
 * what is wrong (obs_file_close O in any case). */
int obs_file_open(obs_file *o, const char *cmd, const char *path,
                  const fgm_ir *ir, const char *model, int n, int box,
                  int exact);

/* Applies O's next set to SINK (a puzzle: its clues into SINK->given,
 * and to SINK->model when set; SINK->set_line its first line).  Returns
 * 1 for a set, 0 at the end, -1 after an error (O->code: the exit
 * code). */
int obs_file_next(obs_file *o, const fgm_ir *ir, obs_sink *sink);

/* Starts WALK, a second walk over O's sets from the first, sharing O's
 * text (end it with obs_file_stop, before O's obs_file_close); returns
 * CLI_OK or the exit code. */
int obs_file_walk(const obs_file *o, obs_file *walk);
void obs_file_stop(obs_file *walk);

void obs_file_close(obs_file *o);

/* `fgm bench --model MODEL` without puzzles (bench_infer.c). */
typedef struct bench_infer_opts {
    const char *spec;               /* --model */
    const char *label;              /* it with its -D settings */
    const char *const *defs;        /* -D */
    int ndefs;
    const char *observe;            /* --observe, or NULL */
    const char *const *backends;    /* --backends; none: compiled and
                                     * interpreted */
    int nbackends;                  /* at most 3 */
    int repeat;                     /* runs of a set at least */
} bench_infer_opts;

/* Times the model's inference on each backend, set by set, and prints
 * the table, the ratios, the largest difference of the backends' results
 * and what the plugin cost.  Returns CLI_OK or the exit code after saying
 * what failed (CLI_EINTERNAL when the backends' results differ by over
 * 1e-12). */
int bench_inference(const bench_infer_opts *o);

int cmd_solve(cli_args *a);
int cmd_compile(cli_args *a);
int cmd_bench(cli_args *a);
int cmd_run(cli_args *a);
int cmd_generate(cli_args *a);
int cmd_dump(cli_args *a, int graph);
int cmd_list(cli_args *a);

#endif /* FGM_CLI_H */
