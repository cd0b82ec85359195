/* compiler/fgmc.h: internal header of the model compiler (AST, arena, passes).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pipeline, run straight-line by compile.c:
 *
 *   parse    lexer.l + parser.y: text -> AST (nodes built by ast.c in the
 *            per-compilation arena)
 *   sema     sema.c: names, types, constant values, shapes, settings
 *   expand   expand.c: loops, comprehensions, slices -> concrete factor
 *            instances (variable indices, parameters)
 *   lower    lower.c: declarations + instances -> fgm_ir
 *
 * Each pass stops at nothing: it reports every error it can (up to the cap)
 * and marks what it could not process, so later passes skip it silently
 * instead of reporting follow-on errors.  The IR is built only when no
 * error was reported.
 *
 * Source positions are byte offsets (fgmc_loc); lines and columns are
 * worked out by diag.c from a line map built on first need (an error, or
 * lowering the statement positions into the IR).
 */
#ifndef FGM_FGMC_H
#define FGM_FGMC_H

#include <setjmp.h>
#include <stddef.h>
#include "fgm.h"
#include "ir.h"

#define FGMC_MAX_ERRORS 20          /* default cap on reported errors */
#define FGMC_MAX_DEPTH 256          /* nesting of expressions and lists */
#define FGMC_MAX_INPUT (64L << 20)  /* bytes of model text */
/* Each cap may be lowered with -D (fuzz builds do, for throughput). */
#ifndef FGMC_MAX_VARS
#define FGMC_MAX_VARS (1 << 24)     /* variables (or Dirichlet nodes) */
#endif
#ifndef FGMC_MAX_FACTORS
#define FGMC_MAX_FACTORS (1L << 20) /* factor instances */
#endif
#ifndef FGMC_MAX_SCOPE
#define FGMC_MAX_SCOPE (1L << 25)   /* scope entries over all factors */
#endif
#ifndef FGMC_MAX_PARAMS
#define FGMC_MAX_PARAMS (1L << 25)  /* parameters over all factors */
#endif
#ifndef FGMC_MAX_ITERS
#define FGMC_MAX_ITERS (1L << 24)   /* loop iterations over all statements */
#endif
#ifndef FGMC_MAX_ARRAYS
#define FGMC_MAX_ARRAYS 16384       /* var and prior arrays (the IR builder
                                     * checks each name against all) */
#endif
#ifndef FGMC_MAX_LIST
#define FGMC_MAX_LIST (1L << 22)    /* items of one list: a table's most
                                     * entries (compiler/expand.c) */
#endif
#ifndef FGMC_MAX_STMTS
#define FGMC_MAX_STMTS (FGMC_MAX_FACTORS + (1L << 16))  /* statements: each
                                     * factor statement adds one factor or
                                     * more, besides declarations */
#endif
#ifndef FGMC_MAX_REFS
#define FGMC_MAX_REFS (1L << 26)    /* variable references expanded, over all
                                     * statements and bindings (>= twice
                                     * FGMC_MAX_SCOPE: every scope entry
                                     * plus fixes) */
#endif

/* A span of the source text: bytes [start, end). */
typedef struct fgmc_loc {
    int start, end;
} fgmc_loc;

/* ---- arena (ast.c) ------------------------------------------------------ */

typedef struct fgmc_chunk fgmc_chunk;

/* Bump allocator: every AST node, name and instance of one compilation
 * lives here and is freed by one arena_free (QBE's per-function pool). */
typedef struct fgmc_arena {
    fgmc_chunk *chunks;
    size_t used, cap;       /* in the newest chunk */
} fgmc_arena;

/* ---- AST ---------------------------------------------------------------- */

/* Expression-like nodes.  ORDER FACTOR: grep before reordering (the
 * operator spellings in sema_expr.c are indexed by it). */
typedef enum fgmc_kind {
    N_INT,          /* integer literal: ival */
    N_REAL,         /* real literal: rval */
    N_NAME,         /* name: name, resolved to sym by sema */
    N_NEG,          /* -a */
    N_ADD,          /* a + b */
    N_SUB,          /* a - b */
    N_MUL,          /* a * b */
    N_DIV,          /* a / b (integers: truncated, as in C) */
    N_MOD,          /* a % b (integers only) */
    N_RANGE,        /* a .. b, both inclusive */
    N_ALL,          /* '*' subscript: the whole dimension */
    N_REF,          /* name[sub][sub]...: kids are the subscripts */
    N_LIST,         /* [item, ...]: kids are numbers or lists */
    N_BIND,         /* loop variable name in range a */
    N_SET,          /* setting name = a */
    N_CALL,         /* distribution name(a) */
    N_SEQ           /* a sequence under construction: kids */
} fgmc_kind;

typedef struct fgmc_sym fgmc_sym;
typedef struct fgmc_node fgmc_node;

/* What a node holds depends on its kind: the fields no kind shares are
 * overlaid, so that a node takes 72 bytes rather than 112 (a model of
 * 250,000 "x[i] != x[j]" lines holds 1.25 million nodes at once). */
struct fgmc_node {
    fgmc_kind kind;
    int depth;              /* nesting depth (expressions, lists) */
    fgmc_loc loc;           /* the whole node */
    int too_big;            /* N_INT, N_REAL: the literal overflows
                             * (N_REAL: 2 when it underflows to 0) */
    int nkids;
    union {
        long long ival;     /* N_INT */
        double rval;        /* N_REAL */
        fgmc_loc nameloc;   /* N_NAME, N_REF, N_BIND, N_SET, N_CALL: the
                             * name */
    };
    const char *name;
    union {
        struct {
            fgmc_node *a, *b;   /* operands; range bounds; binder range;
                                 * N_SET, N_CALL: the value, argument */
        };
        struct {
            fgmc_node *kids, *tail; /* N_REF, N_LIST, N_SEQ: subscripts,
                                     * list items, sequence */
        };
    };
    fgmc_node *next;        /* next sibling */
    fgmc_sym *sym;          /* N_NAME, N_REF, N_BIND: resolved symbol */
};

/* Statements.  ORDER FACTOR: grep before reordering (expand_stmt in
 * expand.c takes S_ALLDIFF..S_DRAW as a range). */
typedef enum fgmc_stmt_kind {
    S_MODEL,        /* model NAME */
    S_CONST,        /* const NAME = value */
    S_VAR,          /* [observed] var NAME dims in lo..hi [~ dist(link)] */
    S_PRIOR,        /* [observed] prior NAME dims ~ dist(arg) */
    S_ALLDIFF,      /* alldiff REF  |  alldiff(REF, ...) */
    S_SUM,          /* sum REF OP total  |  sum(REF, ...) OP total: op
                     * FGMC_CMP_* (not '!='), value the total */
    S_NEQ,          /* REF OP REF  |  REF OP REF + offset (value)  |
                     * REF OP number (rhs; one ref): a comparison, op
                     * FGMC_CMP_* ('!=' of two the native factor) */
    S_TABLE,        /* table (REF, ...) = LIST */
    S_EVIDENCE,     /* evidence REF = LIST */
    S_FIX,          /* fix REF = "string"  |  fix REF = value */
    S_DRAW,         /* REF ~ discrete(P[...]): dist the call; rhs the
                     * gate, P's last subscript when it names a variable
                     * (set by sema), else NULL */
    S_INFER         /* infer ALGO(key = value, ...) */
} fgmc_stmt_kind;

typedef struct fgmc_stmt fgmc_stmt;

/* The comparisons of S_NEQ: x OP y + offset on the variables' values. */
typedef enum fgmc_cmp {
    FGMC_CMP_NE, FGMC_CMP_EQ, FGMC_CMP_LT, FGMC_CMP_LE, FGMC_CMP_GT,
    FGMC_CMP_GE
} fgmc_cmp;

struct fgmc_stmt {
    fgmc_stmt_kind kind;
    fgmc_cmp op;            /* S_NEQ, S_SUM: the comparison */
    fgmc_loc loc;           /* the whole statement */
    const char *name;       /* declared name; infer: the algorithm */
    fgmc_loc nameloc;
    int observed;
    fgmc_node *dims;        /* N_SEQ of size expressions */
    fgmc_node *value;       /* const value; fix value; != offset; a
                             * sum's total */
    fgmc_node *rhs;         /* S_NEQ: the right side as written (a number
                             * when the comparison has one variable);
                             * S_DRAW: the gate or NULL */
    fgmc_node *domain;      /* var: N_RANGE */
    fgmc_node *dist;        /* var, prior, draw: N_CALL "~ dist(arg)", or
                             * NULL */
    fgmc_node *refs;        /* N_SEQ of N_REF: constraint scope (a sum's
                             * terms as parsed until sema) */
    fgmc_node **terms;      /* S_SUM: the terms, one a reference of refs
                             * in its order (sema_sum_terms) */
    fgmc_node *inner;       /* S_SUM, S_ALLDIFF: N_SEQ of N_BIND, the
                             * for clause inside its parentheses, or
                             * NULL */
    fgmc_node *weights;     /* table/evidence: N_LIST */
    fgmc_loc str;           /* fix: the string literal, quotes included */
    int has_str;
    fgmc_node *binders;     /* N_SEQ of N_BIND: the for clause, or NULL */
    fgmc_node *settings;    /* infer: N_SEQ of N_SET */
    int bad;                /* sema found an error: expand skips it */
    fgmc_sym *sym;          /* var, prior: the array declared */
    fgmc_stmt *next;
};

/* ---- symbols (sema.c) --------------------------------------------------- */

typedef enum fgmc_sym_kind {
    SYM_CONST,      /* integer constant */
    SYM_LOOP,       /* loop variable of a for clause */
    SYM_VAR,        /* array of discrete variables */
    SYM_PRIOR       /* array of Dirichlet nodes */
} fgmc_sym_kind;

struct fgmc_sym {
    fgmc_sym_kind kind;
    const char *name;
    fgmc_loc loc;           /* where it was declared */
    const fgmc_stmt *decl;  /* declaring statement (NULL for loop vars) */
    int bad;                /* its declaration had an error */
    long long value;        /* CONST; LOOP: current value in expand */
    int uses;               /* LOOP: names resolved to it in sema, in
                             * the statement (its clause's later ranges
                             * apart: range_uses) */
    int range_uses;         /* LOOP: in its clause's later ranges */
    int is_real;            /* CONST: a real, RVALUE, not VALUE */
    double rvalue;
    int ndims, dims[FGM_IR_MAXDIMS], count;
    int first;              /* first variable or Dirichlet node */
    int lo, card;           /* VAR: domain lo..lo+card-1; PRIOR: K */
    double *alpha;          /* PRIOR: K default pseudo-counts */
    unsigned flags;         /* FGM_ARRAY_* */
    fgmc_sym *link;         /* VAR: the prior of "~ discrete(p)", or NULL */
    int link_node;          /* VAR: one node of it for all, or -1: one each */
    int link_div;           /* VAR, link_node -1: its elements per node
                             * (1: shapes alike; a row per node when the
                             * prior has the leading dimensions) */
    fgmc_sym *chain;        /* next in the hash bucket */
    fgmc_sym *next_array;   /* arrays in declaration order */
};

/* ---- factor instances (expand.c -> lower.c) ----------------------------- */

typedef struct fgmc_inst fgmc_inst;

struct fgmc_inst {
    fgm_factor_kind kind;
    int arity;
    int *scope;
    int nparams;
    double *params;
    int aux;                /* DIRICHLET_DISCRETE: the node;
                             * DIRICHLET_GATED: the gate's first value's */
    const fgmc_stmt *stmt;  /* for its source position */
    fgmc_inst *next;
};

/* The settings of the inference block: bit i of fgmc.infer_mask says
 * that setting i was given.  ORDER FACTOR: setting_names in sema_infer.c. */
typedef enum fgmc_setting {
    SET_ITERATIONS, SET_DAMPING, SET_TOLERANCE, SET_SCHEDULE, SET_ALLDIFF,
    SET_PROJECTION, SET_BURN_IN, NSETTINGS,
    SET_ALGO = NSETTINGS        /* the algorithm itself */
} fgmc_setting;

/* A number: integer unless is_real. */
typedef struct fgmc_num {
    int is_real;
    long long i;
    double d;
} fgmc_num;

/* ---- the compilation ---------------------------------------------------- */

typedef struct fgmc {
    const char *file;       /* name used in messages */
    const char *src;        /* the whole input, NUL-terminated */
    int len;
    const fgm_compile_opts *opts;
    fgmc_arena arena;
    int oom;                /* an allocation failed: result is ENOMEM */

    /* diag.c */
    fgm_diag_fn diag;
    void *diag_ctx;
    int nerrors, nsyntax, max_errors;
    long bodies;            /* bindings expanded by the last statement */
    int *lines, nlines;     /* line start offsets, built on first need */
    char *pending;          /* syntax error waiting for a hint */
    fgmc_loc pending_loc;
    int holding;            /* diag_hold: messages kept for diag_release */
    struct fgmc_held *held; /* nheld of them (room for capheld) */
    int nheld, capheld;

    /* lexer.l */
    int lexoff;             /* byte offset of the next token */
    int invalid_at;         /* start of the latest INVALID token, or -1 */
    int tok_now;            /* the token just returned (the lookahead) */
    int tok_prev;           /* the last token before it that is not NL */
    int eof_nl;             /* the NL that ends the last line was sent */
    jmp_buf lexjmp;         /* flex's "fatal error" (out of memory) */

    /* parser.y, ast.c */
    fgmc_stmt *stmts, *last_stmt;
    int too_deep;           /* nesting reported in this statement */
    int parse_stop;         /* a size cap was hit while parsing: the
                             * lexer ends the input there (ast_append) */
    long nstmts;            /* statements parsed */
    fgmc_node scratch;      /* handed out when the arena is exhausted */
    fgmc_stmt scratch_stmt;

    /* sema.c */
    fgmc_sym **tab;
    int tabcap, nsyms;
    fgmc_sym *arrays, *last_array;  /* in declaration order */
    fgmc_sym **varrays;     /* var arrays in numbering order (malloc) */
    int nvarrays, varrays_cap;
    const fgmc_stmt *model_stmt, *infer_stmt;
    char model_name[FGM_IR_MAXNAME];
    int nvars, ndirichlet, narrays;
    long ndircounts;        /* pseudo-counts over all Dirichlet nodes */
    fgm_ir_infer infer;     /* the fields infer_mask marks as given */
    unsigned infer_mask;
    int ndefines;           /* -D NAME=VALUE, parsed by compile.c */
    const char **define_names;
    const char **define_texts;      /* as given: "B=4" */
    fgmc_num *define_values;
    unsigned char *define_used;

    /* expand.c (diag.c shows the bindings in messages) */
    fgmc_node **bound;      /* binders of the comprehension being expanded */
    int nbound;             /* how many of them hold a value now */
    fgmc_inst *insts, *last_inst;
    long ninsts, nscope, nparams, iters, refs;
    int too_big;            /* a size cap was reported */
    const fgmc_stmt *warned_tiny;   /* the last statement warned of a
                                     * weight below DBL_MIN */
    int *mark, stamp;       /* nvars: duplicate detection (malloc) */
    int *fixed;             /* nvars: value index fixed by `fix`, or -1 */
    int var_cap;            /* entries of mark and fixed */
    int *scope;             /* scratch scope being built */
    const fgmc_node **scope_src;    /* the reference each entry came from */
    long long *scope_coef;  /* a sum's: each entry's coefficient */
    fgmc_node **sum_bound;  /* inner_scope's binders, the statement's and */
    long long *sum_hi;      /* the sum's own, and their ranges' ends: */
    int sum_cap;            /* room for SUM_CAP (arena) */
    long scope_len, scope_cap;
} fgmc;

/* ---- ast.c -------------------------------------------------------------- */

/* Zeroed memory from the arena, or NULL (and c->oom set). */
FGM_INTERNAL void *arena_alloc(fgmc *c, size_t size);
/* Frees every allocation of the arena at once. */
FGM_INTERNAL void arena_free(fgmc_arena *a);
/* Copies the bytes of LOC into the arena, NUL-terminated. */
FGM_INTERNAL char *arena_text(fgmc *c, fgmc_loc loc);

/* Parser actions.  Each returns an arena node (the scratch node when the
 * arena is exhausted, so actions never test for NULL). */
FGM_INTERNAL fgmc_node *ast_int(fgmc *c, const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_real(fgmc *c, const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_name(fgmc *c, const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_word(fgmc *c, fgmc_node *word,
                                 const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_unary(fgmc *c, fgmc_kind kind, fgmc_node *a,
                                  const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_binary(fgmc *c, fgmc_kind kind, fgmc_node *a,
                                   fgmc_node *b, const fgmc_loc *loc);
/* REF OP RHS, OP the comparison written at OPLOC ('!=', '==', '<', '<=',
 * '>', '>='), RHS a variable optionally plus or minus integer terms
 * (x != y + 1, x < y - (j - i)): the variable becomes the second ref, the
 * terms the statement's value.  RHS is kept whole as the statement's rhs:
 * when it is a number (x < 3, x != N + 1: sema tells a const from a
 * variable), the comparison has one variable. */
FGM_INTERNAL fgmc_stmt *ast_compare(fgmc *c, fgmc_node *ref,
                                    const fgmc_loc *oploc, fgmc_node *rhs,
                                    const fgmc_loc *loc);
/* `sum REFS OP TOTAL` (REFS one reference or an N_SEQ of them; OPLOC
 * the comparison's token): an S_SUM whose value is TOTAL. */
FGM_INTERNAL fgmc_stmt *ast_sum(fgmc *c, fgmc_node *refs,
                                const fgmc_loc *oploc, fgmc_node *total,
                                const fgmc_loc *loc);
/* `alldiff(REFS for BINDERS)`: the references once per binding. */
FGM_INTERNAL fgmc_stmt *ast_alldiff_for(fgmc *c, fgmc_node *refs,
                                        fgmc_node *binders,
                                        const fgmc_loc *loc);
/* `sum(TERMS for BINDERS) OP TOTAL`: the terms once per binding. */
FGM_INTERNAL fgmc_stmt *ast_sum_for(fgmc *c, fgmc_node *terms,
                                    fgmc_node *binders,
                                    const fgmc_loc *oploc, fgmc_node *total,
                                    const fgmc_loc *loc);
/* The text of comparison OP ("<="). */
FGM_INTERNAL const char *fgmc_cmp_text(fgmc_cmp op);
FGM_INTERNAL fgmc_node *ast_paren(fgmc *c, fgmc_node *a,
                                  const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_all(fgmc *c, const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_ref(fgmc *c, const fgmc_loc *nameloc,
                                fgmc_node *subs, const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_list(fgmc *c, fgmc_node *items,
                                 const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_bind(fgmc *c, fgmc_node *names,
                                 fgmc_node *range);
FGM_INTERNAL fgmc_node *ast_set(fgmc *c, fgmc_node *key, fgmc_node *value,
                                const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_seq(fgmc *c);
FGM_INTERNAL fgmc_node *ast_append(fgmc *c, fgmc_node *seq,
                                   fgmc_node *item);
FGM_INTERNAL fgmc_node *ast_concat(fgmc *c, fgmc_node *seq,
                                   fgmc_node *more);
FGM_INTERNAL fgmc_stmt *ast_stmt(fgmc *c, fgmc_stmt_kind kind,
                                 const fgmc_loc *loc);
FGM_INTERNAL fgmc_stmt *ast_model(fgmc *c, const fgmc_loc *name,
                                  const fgmc_loc *loc);
FGM_INTERNAL fgmc_stmt *ast_const(fgmc *c, const fgmc_loc *name,
                                  fgmc_node *value, const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_call(fgmc *c, const fgmc_loc *name,
                                 fgmc_node *arg, const fgmc_loc *loc);
FGM_INTERNAL fgmc_node *ast_names(fgmc *c, fgmc_node *seq,
                                  const fgmc_loc *loc);
FGM_INTERNAL fgmc_stmt *ast_var(fgmc *c, const fgmc_loc *name,
                                fgmc_node *dims, fgmc_node *domain,
                                fgmc_node *dist, const fgmc_loc *loc);
FGM_INTERNAL fgmc_stmt *ast_prior(fgmc *c, const fgmc_loc *name,
                                  fgmc_node *dims, fgmc_node *dist,
                                  const fgmc_loc *loc);
/* Sets the observed flag and the full span of a var or prior statement. */
FGM_INTERNAL fgmc_stmt *ast_decl(fgmc *c, fgmc_stmt *s, int observed,
                                 const fgmc_loc *loc);
/* A constraint over A (a reference or a sequence of them) and B (a second
 * reference or NULL), with WEIGHTS for table and evidence. */
FGM_INTERNAL fgmc_stmt *ast_constraint(fgmc *c, fgmc_stmt_kind kind,
                                       fgmc_node *a, fgmc_node *b,
                                       fgmc_node *weights,
                                       const fgmc_loc *loc);
FGM_INTERNAL fgmc_stmt *ast_fix(fgmc *c, fgmc_node *ref, fgmc_node *value,
                                const fgmc_loc *str, const fgmc_loc *loc);
/* REF ~ DIST: a draw statement. */
FGM_INTERNAL fgmc_stmt *ast_draw(fgmc *c, fgmc_node *ref, fgmc_node *dist,
                                 const fgmc_loc *loc);
FGM_INTERNAL fgmc_stmt *ast_for(fgmc *c, fgmc_stmt *s, fgmc_node *binders,
                                const fgmc_loc *loc);
FGM_INTERNAL fgmc_stmt *ast_infer(fgmc *c, fgmc_node *algo,
                                  fgmc_node *settings, const fgmc_loc *loc);
/* Ends a line: appends S (NULL after a syntax error) to the program and
 * returns whether to stop parsing (error cap reached, out of memory). */
FGM_INTERNAL int ast_line_done(fgmc *c, fgmc_stmt *s);
/* Error productions "OPEN error": hints "expected CLOSE (to close OPEN at
 * line L)" on the pending syntax error when an unclosed bracket is the
 * likely cause.  Returns KEEP (what the rule yields instead of a node). */
FGM_INTERNAL void *ast_unclosed(fgmc *c, const fgmc_loc *open,
                                const char *close, void *keep);

/* ---- diag.c ------------------------------------------------------------- */

/* Reports "file:line:col: error: MSG", the source line and a caret line
 * under LOC. */
FGM_INTERNAL void diag_error(fgmc *c, fgmc_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reports "file:line:col: warning: MSG", the source line and a caret
 * line under LOC: said, not counted, the compile goes on. */
FGM_INTERNAL void diag_warning(fgmc *c, fgmc_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reports "file: error: MSG" (no position: options, I/O). */
FGM_INTERNAL void diag_file_error(fgmc *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The parser's yyerror: keeps MSG pending so an error production can add
 * a hint; the next diagnostic or diag_flush sends it. */
FGM_INTERNAL void diag_syntax(fgmc *c, fgmc_loc loc, const char *msg);
/* Adds "expected CLOSE (to close 'OPEN' at line LINE)" to the pending
 * syntax error when CLOSE is among the tokens bison lists as expected (the
 * list is replaced: ',' stays when it was in it), or, when bison gave no
 * list, when LIKELY is set. */
FGM_INTERNAL void diag_hint(fgmc *c, const char *close, int open, int line,
                            int likely);
FGM_INTERNAL void diag_flush(fgmc *c);
/* Between diag_hold and diag_release the messages (errors and warnings)
 * are kept, then sent in source order (those without a place last):
 * one statement's checks find its errors in the order of their passes
 * (a sum's own for clause before the terms it binds, on the line
 * above), which a reader takes for the order of the text. */
FGM_INTERNAL void diag_hold(fgmc *c);
FGM_INTERNAL void diag_release(fgmc *c);
/* Whether the error cap is reached. */
FGM_INTERNAL int diag_full(const fgmc *c);
/* 1-based line and byte column of offset OFF (0, 0 when out of memory). */
FGM_INTERNAL void diag_linecol(fgmc *c, int off, int *line, int *col);
/* The line of offset OFF alone, for "(the first is at line L)". */
FGM_INTERNAL int diag_line(fgmc *c, int off);
FGM_INTERNAL void diag_free(fgmc *c);

/* ---- lexer.l (generated: build/gen/lexer.c) ---------------------------- */

/* Parses c->src into c->stmts with the parser of parser.y.  Returns 0, or
 * nonzero after reporting (or with c->oom set). */
FGM_INTERNAL int parse_program(fgmc *c);

/* ---- symtab.c ----------------------------------------------------------- */

/* How each fgmc_sym_kind reads in a message ("a const", ...). */
FGM_INTERNAL extern const char *const sym_kind_words[];
/* The mask of symbol kind K, for sym_unknown's suggestions. */
#define SYM_MASK(k) (1u << (k))
/* The symbol NAME is bound to (NULL: none). */
FGM_INTERNAL fgmc_sym *sym_lookup(const fgmc *c, const char *name);
/* Edit distance between A and B, or INT_MAX when either is longer than a
 * name may be (typo suggestions). */
FGM_INTERNAL int sym_distance(const char *a, const char *b);
/* The largest edit distance at which a name is taken for a typo of
 * NAME: 2 for a name of five or more bytes, else 1. */
FGM_INTERNAL int sym_typo_limit(const char *name);
/* What WORD, not one of the N words of LIST, likely meant, into BUF
 * (SIZE bytes) as "'bp-sum' or 'bp-max'": the words it abbreviates
 * ("bp", "iters"), else the closest within sym_typo_limit.  Returns
 * whether there is one. */
FGM_INTERNAL int sym_suggest(const char *word, const char *const *list,
                             size_t n, char *buf, size_t size);
/* Of the N words of LIST, the closest to WORD within sym_typo_limit (the
 * first of equals), or NULL; *EXACT set when WORD is one of them. */
FGM_INTERNAL const char *sym_closest(const char *word,
                                     const char *const *list, size_t n,
                                     int *exact);
/* Declares NAME of KIND at LOC (DECL: its statement).  Returns the new
 * symbol, or NULL after reporting a duplicate or a name too long for the
 * IR. */
FGM_INTERNAL fgmc_sym *sym_declare(fgmc *c, fgmc_sym_kind kind,
                                   const char *name, fgmc_loc loc,
                                   const fgmc_stmt *decl);
/* Removes loop variable S from the table (it stays valid in the arena:
 * the expressions of its statement still point at it). */
FGM_INTERNAL void sym_pop(fgmc *c, fgmc_sym *s);
/* Reports WHAT ("unknown array") NAME at LOC, with the declared name of a
 * kind in MASK closest to it as a suggestion, if one is close. */
FGM_INTERNAL void sym_unknown(fgmc *c, fgmc_loc loc, const char *what,
                              const char *name, unsigned mask);

/* ---- sema.c ------------------------------------------------------------- */

/* Checks one statement; compile.c runs sema_stmt then expand_stmt on each
 * statement in order, so messages come out in source order.
 * requires: c->stmts parsed without syntax errors; the statements before
 *           S checked.
 * produces: its symbols (consts evaluated, arrays numbered as the IR will
 *           number them and listed in c->arrays and c->varrays), every
 *           name in S resolved (node->sym), the model name, c->infer;
 *           s->bad when S has an error.
 * breaks:   nothing (loop variables are popped after their statement). */
FGM_INTERNAL void sema_stmt(fgmc *c, fgmc_stmt *s);
/* After the last statement: unused -D options, the default model name. */
FGM_INTERNAL void sema_finish(fgmc *c);
/* Subscript E of prior P's dimension D (loop variables as bound now)
 * into *OUT; 0 after reporting one out of range. */
FGM_INTERNAL int sema_prior_index(fgmc *c, const fgmc_node *e,
                                  const fgmc_sym *p, int d, long long *out);
/* ---- sema_expr.c: numeric expressions. */
/* Resolves the names of numeric expression E: each must be a const or a
 * loop variable in scope.  Returns 1, or 0 after reporting (quietly when a
 * name's own declaration failed). */
FGM_INTERNAL int sema_resolve_num(fgmc *c, fgmc_node *e);
/* sema_resolve_num on the numbers of list L and of its sublists. */
FGM_INTERNAL int sema_resolve_list(fgmc *c, fgmc_node *l);
/* Evaluates the resolved expression E (loop variables at their current
 * values).  Returns 1, or 0 after reporting at E's position. */
FGM_INTERNAL int sema_eval(fgmc *c, const fgmc_node *e, fgmc_num *out);
/* Like sema_eval, as a real number. */
FGM_INTERNAL int sema_eval_real(fgmc *c, const fgmc_node *e, double *out);
/* Like sema_eval, but the value must be an integer; WHAT names it in the
 * message ("index"). */
FGM_INTERNAL int sema_eval_int(fgmc *c, const fgmc_node *e, const char *what,
                               long long *out);
/* ---- sema_infer.c: the inference block (one per model) into c->infer. */
FGM_INTERNAL void sema_infer(fgmc *c, fgmc_stmt *s);

/* ---- expand.c ----------------------------------------------------------- */

/* requires: sema_stmt(c, S) done (S is skipped when bad).
 * produces: S's concrete factors appended to c->insts (a var statement
 *           gives its dirichlet_discrete links in place); index, slice,
 *           domain, shape and duplicate checks.
 * breaks:   loop variables' values (left at their last binding). */
FGM_INTERNAL void expand_stmt(fgmc *c, const fgmc_stmt *s);

/* ---- bindings.c --------------------------------------------------------- */

/* The bindings expand_loops ran, for a for clause with a loop variable
 * named only in a later binding's range (see bindings.c). */
typedef struct fgmc_bindings {
    long long *v;       /* N records of WIDTH values */
    long n, cap;
    int width;
} fgmc_bindings;

/* Sets LOG up for S's for clause; returns whether it needs the check. */
FGM_INTERNAL int fgmc_bindings_open(const fgmc_stmt *s, fgmc_bindings *log);
/* Logs the binding BOUND[0..NB-1] holds; 0 when out of memory. */
FGM_INTERNAL int fgmc_bindings_add(fgmc_bindings *log,
                                   fgmc_node *const *bound, int nb);
/* An error, at that loop variable, when two bindings logged give the
 * same values to every variable S names.  Returns 0 after reporting. */
FGM_INTERNAL int fgmc_bindings_check(fgmc *c, const fgmc_stmt *s,
                                     fgmc_bindings *log);
FGM_INTERNAL void fgmc_bindings_free(fgmc_bindings *log);

/* ---- lower.c ------------------------------------------------------------ */

/* requires: every statement checked and expanded, no error reported.
 * produces: a new fgm_ir (arrays in declaration order, factors in
 *           instance order, statement positions, the inference settings).
 * breaks:   nothing.  Returns FGM_OK with *OUT set, or FGM_ENOMEM /
 *           FGM_EINTERNAL with *OUT NULL. */
FGM_INTERNAL fgm_status lower_program(fgmc *c, fgm_ir **out);

#endif /* FGM_FGMC_H */
