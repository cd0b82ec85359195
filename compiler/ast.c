/* compiler/ast.c: the arena and the AST builders the parser calls.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every node lives in the arena and is freed with it (arena_free), so the
 * parser never frees a node.  When the arena cannot grow, builders hand out
 * a scratch node instead of NULL and set c->oom: the parser's actions stay
 * one-line calls, the parse runs to its end, and the compilation then
 * reports FGM_ENOMEM without ever walking the damaged tree.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fgmc.h"
#include "parser.h"

#define CHUNK_MIN ((size_t)64 << 10)
#define ALIGN 16

struct fgmc_chunk {
    fgmc_chunk *next;
    size_t cap;
};

/* Chunk header rounded up so that the data after it stays aligned. */
#define HDR ((sizeof(fgmc_chunk) + ALIGN - 1) / ALIGN * ALIGN)

void *
arena_alloc(fgmc *c, size_t size)
{
    fgmc_arena *a = &c->arena;
    unsigned char *p;

    if (size > SIZE_MAX / 4) {
        c->oom = 1;
        return NULL;
    }
    size = (size + ALIGN - 1) / ALIGN * ALIGN;
    if (!a->chunks || a->used + size > a->cap) {
        size_t cap = size > CHUNK_MIN ? size : CHUNK_MIN;
        fgmc_chunk *k = malloc(HDR + cap);

        if (!k) {
            c->oom = 1;
            return NULL;
        }
        k->next = a->chunks;
        k->cap = cap;
        a->chunks = k;
        a->used = 0;
        a->cap = cap;
    }
    p = (unsigned char *)a->chunks + HDR + a->used;
    a->used += size;
    memset(p, 0, size);
    return p;
}

void
arena_free(fgmc_arena *a)
{
    fgmc_chunk *k = a->chunks, *next;

    for (; k; k = next) {
        next = k->next;
        free(k);
    }
    a->chunks = NULL;
    a->used = a->cap = 0;
}

char *
arena_text(fgmc *c, fgmc_loc loc)
{
    size_t n = (size_t)(loc.end - loc.start);
    char *s = arena_alloc(c, n + 1);

    if (s)
        memcpy(s, c->src + loc.start, n);
    return s;
}

/* A new node of KIND at LOC (the scratch node when out of memory). */
static fgmc_node *
node(fgmc *c, fgmc_kind kind, const fgmc_loc *loc)
{
    fgmc_node *n = arena_alloc(c, sizeof *n);

    if (!n) {
        n = &c->scratch;
        memset(n, 0, sizeof *n);
    }
    n->kind = kind;
    n->loc = *loc;
    return n;
}

static int
depth(const fgmc_node *n)
{
    return n ? n->depth : 0;
}

/* Deeply nested input would make the recursive passes recurse as deep:
 * report it once per statement, and the compilation stops after parsing.
 * The tree is built from the inside out, so the node named is the first
 * with more than the limit inside it (the 44th '[' of 300 nested lists),
 * which the message says. */
static void
check_depth(fgmc *c, fgmc_node *n, const char *what)
{
    if (n->depth > FGMC_MAX_DEPTH && !c->too_deep) {
        c->too_deep = 1;
        c->nsyntax++;
        diag_error(c, n->loc, "%s nested too deeply (more than %d levels "
                   "from here inward%s)",
                   what, FGMC_MAX_DEPTH, strcmp(what, "expression") == 0
                   ? "; each operator of a chain such as 1 + 1 + 1 is one"
                   : "");
    }
}

fgmc_node *
ast_int(fgmc *c, const fgmc_loc *loc)
{
    fgmc_node *n = node(c, N_INT, loc);
    const char *s = c->src + loc->start;
    long long v = 0;
    int i;

    for (i = 0; i < loc->end - loc->start; i++) {
        int d = s[i] - '0';

        if (v > (LLONG_MAX - d) / 10) {
            n->too_big = 1;     /* reported by sema_eval, where it is used */
            return n;
        }
        v = v * 10 + d;
    }
    n->ival = v;
    return n;
}

fgmc_node *
ast_real(fgmc *c, const fgmc_loc *loc)
{
    fgmc_node *n = node(c, N_REAL, loc);
    char *s = arena_text(c, *loc);

    if (!s)
        return n;
    n->rval = strtod(s, NULL);
    /* Reported by sema_eval: past the largest double, or a nonzero
     * literal below the smallest, which strtod reads as 0 (1e-400 as a
     * weight would forbid its value). */
    if (!isfinite(n->rval))
        n->too_big = 1;
    else if (n->rval == 0.0 && strcspn(s, "123456789") < strcspn(s, "eE"))
        n->too_big = 2;
    return n;
}

fgmc_node *
ast_name(fgmc *c, const fgmc_loc *loc)
{
    fgmc_node *n = node(c, N_NAME, loc);

    n->name = arena_text(c, *loc);
    n->nameloc = *loc;
    return n;
}

fgmc_node *
ast_word(fgmc *c, fgmc_node *word, const fgmc_loc *loc)
{
    fgmc_loc all = { word->loc.start, loc->end };
    fgmc_node *n = node(c, N_NAME, &all);
    size_t a = word->name ? strlen(word->name) : 0;
    size_t b = (size_t)(loc->end - loc->start);
    char *s;

    /* Every valid word is short: past the IR's name length keep the
     * spelling so far, or a long a-b-c-... chain costs quadratic memory. */
    if (a >= FGM_IR_MAXNAME) {
        n->name = word->name;
        n->nameloc = all;
        return n;
    }
    s = arena_alloc(c, a + b + 2);

    if (s) {
        if (a)
            memcpy(s, word->name, a);
        s[a] = '-';
        memcpy(s + a + 1, c->src + loc->start, b);
    }
    n->name = s;
    n->nameloc = all;
    return n;
}

fgmc_node *
ast_unary(fgmc *c, fgmc_kind kind, fgmc_node *a, const fgmc_loc *loc)
{
    fgmc_node *n = node(c, kind, loc);

    n->a = a;
    n->depth = depth(a) + 1;
    check_depth(c, n, "expression");
    return n;
}

fgmc_node *
ast_binary(fgmc *c, fgmc_kind kind, fgmc_node *a, fgmc_node *b,
           const fgmc_loc *loc)
{
    fgmc_node *n = node(c, kind, loc);

    n->a = a;
    n->b = b;
    n->depth = (depth(a) > depth(b) ? depth(a) : depth(b)) + 1;
    check_depth(c, n, "expression");
    return n;
}

/* Parentheses only group: the node keeps its own span, so a caret points
 * at the operation rather than at the brackets around it. */
fgmc_node *
ast_paren(fgmc *c, fgmc_node *a, const fgmc_loc *loc)
{
    (void)loc;
    return a ? a : node(c, N_INT, loc);
}

fgmc_node *
ast_all(fgmc *c, const fgmc_loc *loc)
{
    return node(c, N_ALL, loc);
}

/* A node of KIND at LOC made of the sequence SEQ (NULL: a new one with no
 * kids): a reference or a list takes over its subscripts' or items'
 * sequence node, which nothing else holds, instead of copying it into a
 * node of its own (one node less a reference). */
static fgmc_node *
from_seq(fgmc *c, fgmc_kind kind, fgmc_node *seq, const fgmc_loc *loc)
{
    if (!seq || c->oom || seq->kind != N_SEQ)
        return node(c, kind, loc);
    seq->kind = kind;
    seq->loc = *loc;
    return seq;
}

fgmc_node *
ast_ref(fgmc *c, const fgmc_loc *nameloc, fgmc_node *subs,
        const fgmc_loc *loc)
{
    fgmc_node *n = from_seq(c, N_REF, subs, loc);

    n->name = arena_text(c, *nameloc);
    n->nameloc = *nameloc;
    return n;
}

fgmc_node *
ast_list(fgmc *c, fgmc_node *items, const fgmc_loc *loc)
{
    fgmc_node *n = from_seq(c, N_LIST, items, loc), *k;

    for (k = n->kids; k && !c->oom; k = k->next)
        if (k->kind == N_LIST && k->depth > n->depth)
            n->depth = k->depth;
    n->depth++;
    check_depth(c, n, "list");
    return n;
}

fgmc_node *
ast_bind(fgmc *c, fgmc_node *names, fgmc_node *range)
{
    fgmc_node *k;

    if (!c->oom && names)
        for (k = names->kids; k; k = k->next)
            k->a = range;
    return names;
}

fgmc_node *
ast_names(fgmc *c, fgmc_node *seq, const fgmc_loc *loc)
{
    fgmc_node *n = node(c, N_BIND, loc);

    n->name = arena_text(c, *loc);
    n->nameloc = *loc;
    return ast_append(c, seq ? seq : ast_seq(c), n);
}

fgmc_node *
ast_set(fgmc *c, fgmc_node *key, fgmc_node *value, const fgmc_loc *loc)
{
    fgmc_node *n = node(c, N_SET, loc);

    n->name = key->name;
    n->nameloc = key->loc;
    n->a = value;
    return n;
}

fgmc_node *
ast_call(fgmc *c, const fgmc_loc *name, fgmc_node *arg, const fgmc_loc *loc)
{
    fgmc_node *n = node(c, N_CALL, loc);

    n->name = arena_text(c, *name);
    n->nameloc = *name;
    n->a = arg;
    return n;
}

fgmc_node *
ast_seq(fgmc *c)
{
    fgmc_loc none = { 0, 0 };

    return node(c, N_SEQ, &none);
}

/* Stops the parse at LOC after reporting WHAT: a file far past a size
 * cap was parsed whole first (a 63 MB list took 2.7 GB and 10 s before
 * its error).  No other error is reported after it. */
static void
stop_parse(fgmc *c, fgmc_loc loc, const char *what, long cap)
{
    diag_error(c, loc, "%s (more than %ld): the model is too large", what,
               cap);
    c->parse_stop = 1;
}

fgmc_node *
ast_append(fgmc *c, fgmc_node *seq, fgmc_node *item)
{
    if (c->oom || c->parse_stop || !seq || !item)
        return seq;
    if (seq->nkids == FGMC_MAX_LIST) {
        stop_parse(c, item->loc, "too many items in one list",
                   FGMC_MAX_LIST);
        return seq;
    }
    item->next = NULL;
    if (seq->tail)
        seq->tail->next = item;
    else
        seq->kids = item;
    seq->tail = item;
    seq->nkids++;
    return seq;
}

fgmc_node *
ast_concat(fgmc *c, fgmc_node *seq, fgmc_node *more)
{
    if (c->oom || !seq || !more || !more->kids)
        return seq;
    if (seq->tail)
        seq->tail->next = more->kids;
    else
        seq->kids = more->kids;
    seq->tail = more->tail;
    seq->nkids += more->nkids;
    return seq;
}

fgmc_stmt *
ast_stmt(fgmc *c, fgmc_stmt_kind kind, const fgmc_loc *loc)
{
    fgmc_stmt *s = arena_alloc(c, sizeof *s);

    if (!s) {
        s = &c->scratch_stmt;
        memset(s, 0, sizeof *s);
    }
    s->kind = kind;
    s->loc = *loc;
    return s;
}

/* A statement that declares the name at NAME. */
static fgmc_stmt *
named(fgmc *c, fgmc_stmt_kind kind, const fgmc_loc *name, const fgmc_loc *loc)
{
    fgmc_stmt *s = ast_stmt(c, kind, loc);

    s->name = arena_text(c, *name);
    s->nameloc = *name;
    return s;
}

fgmc_stmt *
ast_model(fgmc *c, const fgmc_loc *name, const fgmc_loc *loc)
{
    return named(c, S_MODEL, name, loc);
}

fgmc_stmt *
ast_const(fgmc *c, const fgmc_loc *name, fgmc_node *value,
          const fgmc_loc *loc)
{
    fgmc_stmt *s = named(c, S_CONST, name, loc);

    s->value = value;
    return s;
}

fgmc_stmt *
ast_var(fgmc *c, const fgmc_loc *name, fgmc_node *dims, fgmc_node *domain,
        fgmc_node *dist, const fgmc_loc *loc)
{
    fgmc_stmt *s = named(c, S_VAR, name, loc);

    s->dims = dims;
    s->domain = domain;
    s->dist = dist;
    return s;
}

fgmc_stmt *
ast_prior(fgmc *c, const fgmc_loc *name, fgmc_node *dims, fgmc_node *dist,
          const fgmc_loc *loc)
{
    fgmc_stmt *s = named(c, S_PRIOR, name, loc);

    s->dims = dims;
    s->dist = dist;
    return s;
}

fgmc_stmt *
ast_decl(fgmc *c, fgmc_stmt *s, int observed, const fgmc_loc *loc)
{
    (void)c;
    if (s) {
        s->observed = observed;
        s->loc = *loc;
    }
    return s;
}

fgmc_stmt *
ast_constraint(fgmc *c, fgmc_stmt_kind kind, fgmc_node *a, fgmc_node *b,
               fgmc_node *weights, const fgmc_loc *loc)
{
    fgmc_stmt *s = ast_stmt(c, kind, loc);

    s->refs = a && a->kind == N_SEQ ? a : ast_append(c, ast_seq(c), a);
    ast_append(c, s->refs, b);
    s->weights = weights;
    return s;
}

/* The variable of the right side of x != y + c: the leftmost term of a
 * chain of + and - (parentheses only group), the terms after it gathered
 * into *OFF, signs kept (NULL: none).  NULL when that term is not a
 * reference. */
static fgmc_node *
neq_split(fgmc *c, fgmc_node *e, fgmc_node **off)
{
    fgmc_node *r;
    fgmc_loc bl;

    if (!e)             /* "x != ( + 1": the parser gave up on it */
        return NULL;
    if (e->kind != N_ADD && e->kind != N_SUB)
        return e->kind == N_REF ? e : NULL;
    r = neq_split(c, e->a, off);
    if (!r)
        return NULL;
    /* A term the parser gave up on ("x != y - (" at the end of a line:
     * '(' error) is NULL, already reported; its operation's span stands
     * in for its own. */
    bl = e->b ? e->b->loc : e->loc;
    /* The terms' own span, so that an error in them points at them
     * rather than at the variable before them. */
    if (*off) {
        fgmc_loc at = { (*off)->loc.start, bl.end };

        *off = ast_binary(c, e->kind, *off, e->b, &at);
    } else {
        *off = e->kind == N_ADD ? e->b : ast_unary(c, N_NEG, e->b, &bl);
    }
    return r;
}

/* The leftmost term of a chain of + and -: NULL where the parser gave up
 * on it ("x != ( + 1"), which it has reported already. */
static const fgmc_node *
neq_lead(const fgmc_node *e)
{
    while (e && (e->kind == N_ADD || e->kind == N_SUB))
        e = e->a;
    return e;
}

const char *
fgmc_cmp_text(fgmc_cmp op)
{
    static const char *const text[] = { "!=", "==", "<", "<=", ">", ">=" };

    return text[op];
}

/* The comparison of the token at OPLOC: the lexer's CMP (== <= >= < >)
 * or NEQ ('!='). */
static fgmc_cmp
cmp_at(const fgmc *c, const fgmc_loc *oploc)
{
    const char *op = c->src + oploc->start;

    if (oploc->end - oploc->start == 1)
        return *op == '<' ? FGMC_CMP_LT : FGMC_CMP_GT;
    return *op == '=' ? FGMC_CMP_EQ : *op == '<' ? FGMC_CMP_LE
           : *op == '>' ? FGMC_CMP_GE : FGMC_CMP_NE;
}

fgmc_stmt *
ast_sum(fgmc *c, fgmc_node *refs, const fgmc_loc *oploc, fgmc_node *total,
        const fgmc_loc *loc)
{
    fgmc_stmt *s = ast_constraint(c, S_SUM, refs, NULL, NULL, loc);

    s->op = cmp_at(c, oploc);
    s->value = total;
    if (!total)
        s->bad = 1;     /* the parser gave up on it, and said so */
    return s;
}

fgmc_stmt *
ast_alldiff_for(fgmc *c, fgmc_node *refs, fgmc_node *binders,
                const fgmc_loc *loc)
{
    fgmc_stmt *s = ast_constraint(c, S_ALLDIFF, refs, NULL, NULL, loc);

    s->inner = binders;
    return s;
}

fgmc_stmt *
ast_sum_for(fgmc *c, fgmc_node *terms, fgmc_node *binders,
            const fgmc_loc *oploc, fgmc_node *total, const fgmc_loc *loc)
{
    fgmc_stmt *s = ast_sum(c, terms, oploc, total, loc);

    s->inner = binders;
    return s;
}

fgmc_stmt *
ast_compare(fgmc *c, fgmc_node *ref, const fgmc_loc *oploc, fgmc_node *rhs,
            const fgmc_loc *loc)
{
    /* neq_split recurses once a term: not on a side nested past the
     * limit (reported by check_depth; the compilation stops after
     * parsing), where 150,000 terms overflowed the stack. */
    int deep = rhs && rhs->depth > FGMC_MAX_DEPTH;
    fgmc_node *off = NULL, *y = rhs && !deep ? neq_split(c, rhs, &off)
                                             : NULL;
    fgmc_stmt *s = ast_constraint(c, S_NEQ, ref, y, NULL, loc);

    s->op = cmp_at(c, oploc);
    s->rhs = rhs;
    if (deep || (!y && !(rhs && neq_lead(rhs))))
        s->bad = 1;     /* the parser gave up on it, and said so */
    s->value = y ? off : NULL;
    return s;
}

fgmc_stmt *
ast_fix(fgmc *c, fgmc_node *ref, fgmc_node *value, const fgmc_loc *str,
        const fgmc_loc *loc)
{
    fgmc_stmt *s = ast_constraint(c, S_FIX, ref, NULL, NULL, loc);

    s->value = value;
    if (str) {
        s->str = *str;
        s->has_str = 1;
    }
    return s;
}

fgmc_stmt *
ast_draw(fgmc *c, fgmc_node *ref, fgmc_node *dist, const fgmc_loc *loc)
{
    fgmc_stmt *s = ast_constraint(c, S_DRAW, ref, NULL, NULL, loc);

    s->dist = dist;
    if (!dist || dist->kind != N_CALL)
        s->bad = 1;     /* the parser gave up on it, and said so */
    return s;
}

fgmc_stmt *
ast_for(fgmc *c, fgmc_stmt *s, fgmc_node *binders, const fgmc_loc *loc)
{
    (void)c;
    if (s) {
        s->binders = binders;
        s->loc = *loc;
    }
    return s;
}

fgmc_stmt *
ast_infer(fgmc *c, fgmc_node *algo, fgmc_node *settings, const fgmc_loc *loc)
{
    fgmc_stmt *s = ast_stmt(c, S_INFER, loc);

    s->name = algo->name;
    s->nameloc = algo->loc;
    s->settings = settings;
    return s;
}

int
ast_line_done(fgmc *c, fgmc_stmt *s)
{
    if (s && !c->oom && !c->parse_stop && s != &c->scratch_stmt) {
        if (++c->nstmts > FGMC_MAX_STMTS) {
            stop_parse(c, s->loc, "too many statements", FGMC_MAX_STMTS);
            return 1;
        }
        s->next = NULL;
        if (c->last_stmt)
            c->last_stmt->next = s;
        else
            c->stmts = s;
        c->last_stmt = s;
    }
    c->too_deep = 0;
    return diag_full(c) || c->oom || c->parse_stop;
}

/* Whether token TOK can end an operand or an item, so that a closing
 * bracket could come next. */
static int
ends_item(int tok)
{
    return tok == IDENT || tok == INT || tok == REAL || tok == STRING
        || tok == ')' || tok == ']' || tok == '*';
}

void *
ast_unclosed(fgmc *c, const fgmc_loc *open, const char *close, void *keep)
{
    int line, col;

    diag_linecol(c, open->start, &line, &col);
    diag_hint(c, close, c->src[open->start], line, ends_item(c->tok_prev));
    return keep;
}
