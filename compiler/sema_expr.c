/* compiler/sema_expr.c: numeric expressions: names resolved, constant values.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the semantic pass (sema.c): a number is a const, a loop
 * variable in scope, a literal, arithmetic on numbers or one of the
 * functions exp, log and sqrt of one real argument; its value is an
 * integer or a real, exact integer arithmetic checked for overflow.
 */
#include <limits.h>
#include <math.h>
#include <string.h>
#include "fgmc.h"

/* The functions a number may call, of one real argument: potentials of
 * log-linear and Ising models are written exp(J), exp(-J). */
typedef enum { FN_NONE, FN_EXP, FN_LOG, FN_SQRT } fgmc_fn;

static fgmc_fn
function_named(const char *name)
{
    if (strcmp(name, "exp") == 0)
        return FN_EXP;
    if (strcmp(name, "log") == 0)
        return FN_LOG;
    if (strcmp(name, "sqrt") == 0)
        return FN_SQRT;
    return FN_NONE;
}

/* *OUT = the function of call E at X, or an error naming E. */
static int
apply_function(fgmc *c, const fgmc_node *e, double x, fgmc_num *out)
{
    out->is_real = 1;
    switch (function_named(e->name)) {
    case FN_EXP:
        out->d = exp(x);
        if (!isfinite(out->d)) {
            diag_error(c, e->loc, "exp(%g) is too large for a double", x);
            return 0;
        }
        if (out->d == 0.0) {
            diag_error(c, e->loc, "exp(%g) is too small: it would be read "
                       "as 0", x);
            return 0;
        }
        return 1;
    case FN_LOG:
        if (!(x > 0.0)) {
            diag_error(c, e->loc, "log(%g): its argument must be > 0", x);
            return 0;
        }
        out->d = log(x);
        return 1;
    case FN_SQRT:
        if (x < 0.0) {
            diag_error(c, e->loc, "sqrt(%g): its argument must be >= 0", x);
            return 0;
        }
        out->d = sqrt(x);
        return 1;
    default:
        return 0;       /* refused by sema_resolve_num */
    }
}

int
sema_resolve_num(fgmc *c, fgmc_node *e)
{
    fgmc_sym *s;
    int ok;

    if (!e)
        return 0;
    switch (e->kind) {
    case N_INT:
    case N_REAL:
        return 1;
    case N_REF:
        s = sym_lookup(c, e->name);
        if (!s) {
            sym_unknown(c, e->nameloc, "undefined name", e->name,
                        SYM_MASK(SYM_CONST) | SYM_MASK(SYM_LOOP));
            return 0;
        }
        if (s->bad)
            return 0;
        if (s->kind == SYM_VAR || s->kind == SYM_PRIOR) {
            diag_error(c, e->loc, "'%s' is %s, not a number", e->name,
                       sym_kind_words[s->kind]);
            return 0;
        }
        if (e->nkids) {
            diag_error(c, e->loc, "'%s' is %s and takes no subscript",
                       e->name, sym_kind_words[s->kind]);
            return 0;
        }
        e->sym = s;
        s->uses++;
        return 1;
    case N_NEG:
        return sema_resolve_num(c, e->a);
    case N_CALL:
        if (function_named(e->name) == FN_NONE) {
            diag_error(c, e->nameloc, "unknown function '%s' (a number may "
                       "call exp, log or sqrt)", e->name);
            return 0;
        }
        return sema_resolve_num(c, e->a);
    case N_ADD:
    case N_SUB:
    case N_MUL:
    case N_DIV:
    case N_MOD:
        ok = sema_resolve_num(c, e->a);
        return sema_resolve_num(c, e->b) && ok;
    default:
        diag_error(c, e->loc, "expected a number here");
        return 0;
    }
}

int
sema_resolve_list(fgmc *c, fgmc_node *l)
{
    fgmc_node *k;
    int ok = 1;

    for (k = l->kids; k; k = k->next)
        if (!(k->kind == N_LIST ? sema_resolve_list(c, k)
                                 : sema_resolve_num(c, k)))
            ok = 0;
    return ok;
}

/* Applies the arithmetic operator of E to A and B. */
static int
arith(fgmc *c, const fgmc_node *e, const fgmc_num *a, const fgmc_num *b,
      fgmc_num *out)
{
    static const char ops[] = "+-*/%";  /* N_ADD .. N_MOD */
    char op = ops[e->kind - N_ADD];

    if (a->is_real || b->is_real) {
        double x = a->is_real ? a->d : (double)a->i;
        double y = b->is_real ? b->d : (double)b->i;

        out->is_real = 1;
        switch (e->kind) {
        case N_ADD: out->d = x + y; break;
        case N_SUB: out->d = x - y; break;
        case N_MUL: out->d = x * y; break;
        case N_DIV:
            if (y == 0) {
                diag_error(c, e->loc, "division by zero");
                return 0;
            }
            out->d = x / y;
            break;
        default:
            diag_error(c, e->loc, "'%%' needs integers");
            return 0;
        }
        if (!isfinite(out->d)) {
            diag_error(c, e->loc, "number overflow in '%c'", op);
            return 0;
        }
        if (out->d == 0.0 && x != 0.0
            && (e->kind == N_DIV || (e->kind == N_MUL && y != 0.0))) {
            /* As a literal or exp() that small: a weight of 0 rules its
             * value out, where the model meant a tiny one. */
            diag_error(c, e->loc, "number underflow in '%c': %g %c %g is "
                       "too small: it would be read as 0", op, x, op, y);
            return 0;
        }
        return 1;
    }
    out->is_real = 0;
    switch (e->kind) {
    case N_ADD:
        if (__builtin_add_overflow(a->i, b->i, &out->i))
            goto overflow;
        return 1;
    case N_SUB:
        if (__builtin_sub_overflow(a->i, b->i, &out->i))
            goto overflow;
        return 1;
    case N_MUL:
        if (__builtin_mul_overflow(a->i, b->i, &out->i))
            goto overflow;
        return 1;
    default:
        if (b->i == 0) {
            diag_error(c, e->loc, "division by zero");
            return 0;
        }
        if (a->i == LLONG_MIN && b->i == -1)
            goto overflow;
        out->i = e->kind == N_DIV ? a->i / b->i : a->i % b->i;
        return 1;
    }
overflow:
    diag_error(c, e->loc, "integer overflow: %lld %c %lld does not fit in "
               "64 bits", a->i, op, b->i);
    return 0;
}

int
sema_eval(fgmc *c, const fgmc_node *e, fgmc_num *out)
{
    fgmc_num a, b;

    switch (e->kind) {
    case N_INT:
        if (e->too_big) {
            diag_error(c, e->loc, "integer literal is too large (the "
                       "largest is %lld)", LLONG_MAX);
            return 0;
        }
        out->is_real = 0;
        out->i = e->ival;
        return 1;
    case N_REAL:
        if (e->too_big) {
            diag_error(c, e->loc, e->too_big == 2
                       ? "number is too small: it would be read as 0 (the "
                         "smallest double is about 4.9e-324)"
                       : "number is too large");
            return 0;
        }
        out->is_real = 1;
        out->d = e->rval;
        return 1;
    case N_REF:
        if (!e->sym)
            return 0;
        out->is_real = e->sym->is_real;
        out->i = e->sym->value;
        out->d = e->sym->rvalue;
        return 1;
    case N_NEG:
        if (!sema_eval(c, e->a, &a))
            return 0;
        *out = a;
        if (a.is_real) {
            out->d = -a.d;
        } else if (a.i == LLONG_MIN) {
            diag_error(c, e->loc, "integer overflow: -(%lld) does not fit "
                       "in 64 bits", a.i);
            return 0;
        } else {
            out->i = -a.i;
        }
        return 1;
    case N_CALL:
        return sema_eval(c, e->a, &a)
            && apply_function(c, e, a.is_real ? a.d : (double)a.i, out);
    case N_ADD:
    case N_SUB:
    case N_MUL:
    case N_DIV:
    case N_MOD:
        return sema_eval(c, e->a, &a) && sema_eval(c, e->b, &b)
            && arith(c, e, &a, &b, out);
    default:
        return 0;
    }
}

/* A -D ("N=3.0") that set to a real a const that E reads, directly or
 * through the value of another const, or NULL: where an integer is
 * wanted of E, the message names it beside the model line (the -D may
 * be the slip, though E could be real on its own too: the message says
 * only what holds). */
static const char *
real_define(const fgmc *c, const fgmc_node *e)
{
    const char *t;
    int d;

    if (!e)
        return NULL;
    switch (e->kind) {
    case N_REF:
        if (!e->sym || e->sym->kind != SYM_CONST || !e->sym->is_real)
            return NULL;
        for (d = 0; d < c->ndefines; d++)
            if (strcmp(c->define_names[d], e->sym->name) == 0)
                return c->define_texts[d];
        return e->sym->decl ? real_define(c, e->sym->decl->value) : NULL;
    case N_NEG:
    case N_CALL:
        return real_define(c, e->a);
    case N_ADD:
    case N_SUB:
    case N_MUL:
    case N_DIV:
    case N_MOD:
        return (t = real_define(c, e->a)) ? t : real_define(c, e->b);
    default:
        return NULL;
    }
}

int
sema_eval_int(fgmc *c, const fgmc_node *e, const char *what, long long *out)
{
    fgmc_num v;

    if (!sema_eval(c, e, &v))
        return 0;
    if (v.is_real) {
        const char *def = real_define(c, e);

        /* 3.0 shows as "3.0": "not 3" would puzzle. */
        diag_error(c, e->loc, fabs(v.d) < 1e15 && v.d == trunc(v.d)
                   ? "%s must be an integer, not %.1f%s%s%s"
                   : "%s must be an integer, not %g%s%s%s", what, v.d,
                   def ? " (it reads a real set by -D " : "",
                   def ? def : "", def ? ")" : "");
        return 0;
    }
    *out = v.i;
    return 1;
}

int
sema_eval_real(fgmc *c, const fgmc_node *e, double *out)
{
    fgmc_num v;

    if (!sema_eval(c, e, &v))
        return 0;
    *out = v.is_real ? v.d : (double)v.i;
    return 1;
}
