/* compiler/symtab.c: the front end's symbol table, and "did you mean" for
 * unknown names.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Chained hashing in the compile's arena: consts, arrays and priors stay
 * for the whole model, loop variables are popped after their statement
 * (sema.c).  A name is looked up by sema.c only; expand.c reads the
 * resolved node->sym.
 *
 * requires: an fgmc with its arena; produces: symbols; breaks: nothing.
 */
#include <limits.h>
#include <string.h>
#include "fgmc.h"

/* Indexed by fgmc_sym_kind. */
const char *const sym_kind_words[] = {
    "a const", "a loop variable", "a variable array", "a prior"
};

static unsigned long
hash(const char *s)
{
    unsigned long h = 2166136261ul;    /* FNV-1a */

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619ul;
    return h;
}

fgmc_sym *
sym_lookup(const fgmc *c, const char *name)
{
    fgmc_sym *s;

    if (!c->tabcap || !name)
        return NULL;
    for (s = c->tab[hash(name) & (unsigned long)(c->tabcap - 1)]; s;
         s = s->chain)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

static int
grow_table(fgmc *c)
{
    int cap = c->tabcap ? c->tabcap * 2 : 64, i;
    fgmc_sym **tab = arena_alloc(c, (size_t)cap * sizeof *tab), *s, *next;

    if (!tab)
        return 0;
    for (i = 0; i < c->tabcap; i++)
        for (s = c->tab[i]; s; s = next) {
            unsigned long h = hash(s->name) & (unsigned long)(cap - 1);

            next = s->chain;
            s->chain = tab[h];
            tab[h] = s;
        }
    c->tab = tab;
    c->tabcap = cap;
    return 1;
}

void
sym_pop(fgmc *c, fgmc_sym *s)
{
    fgmc_sym **p;

    if (!s)
        return;
    for (p = &c->tab[hash(s->name) & (unsigned long)(c->tabcap - 1)]; *p;
         p = &(*p)->chain)
        if (*p == s) {
            *p = s->chain;
            c->nsyms--;
            return;
        }
}

fgmc_sym *
sym_declare(fgmc *c, fgmc_sym_kind kind, const char *name, fgmc_loc loc,
            const fgmc_stmt *decl)
{
    fgmc_sym *old = sym_lookup(c, name), *s;
    unsigned long h;

    if (!name)
        return NULL;
    if (old) {
        if (old->kind == SYM_LOOP)
            diag_error(c, loc, "'%s' is already a loop variable of this "
                       "statement", name);
        else
            diag_error(c, loc, "'%s' is already defined (%s, at line %d)",
                       name, sym_kind_words[old->kind],
                       diag_line(c, old->loc.start));
        return NULL;
    }
    if (strlen(name) >= FGM_IR_MAXNAME) {
        diag_error(c, loc, "name is too long (%zu bytes; at most %d)",
                   strlen(name), FGM_IR_MAXNAME - 1);
        return NULL;
    }
    if ((c->nsyms + 1) * 2 > c->tabcap && !grow_table(c))
        return NULL;
    s = arena_alloc(c, sizeof *s);
    if (!s)
        return NULL;
    s->kind = kind;
    s->name = name;
    s->loc = loc;
    s->decl = decl;
    s->link_node = -1;
    h = hash(name) & (unsigned long)(c->tabcap - 1);
    s->chain = c->tab[h];
    c->tab[h] = s;
    c->nsyms++;
    return s;
}

int
sym_distance(const char *a, const char *b)
{
    int row[FGM_IR_MAXNAME + 1], la = (int)strlen(a), lb = (int)strlen(b);
    int i, j;

    if (la > FGM_IR_MAXNAME || lb > FGM_IR_MAXNAME)
        return INT_MAX;
    for (j = 0; j <= lb; j++)
        row[j] = j;
    for (i = 1; i <= la; i++) {
        int diag = row[0];

        row[0] = i;
        for (j = 1; j <= lb; j++) {
            int up = row[j], best = diag + (a[i - 1] != b[j - 1]);

            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

int
sym_typo_limit(const char *name)
{
    return strlen(name) > 4 ? 2 : 1;
}

const char *
sym_closest(const char *word, const char *const *list, size_t n, int *exact)
{
    const char *best = NULL;
    int bestd = INT_MAX, limit = sym_typo_limit(word), d;
    size_t k;

    *exact = 0;
    for (k = 0; k < n; k++) {
        d = sym_distance(word, list[k]);
        if (d == 0)
            *exact = 1;
        if (d <= limit && d < bestd) {
            best = list[k];
            bestd = d;
        }
    }
    return best;
}

/* Whether WORD abbreviates NAME: NAME starts with WORD, or with WORD
 * less a plural 's' ("iters" for iterations, as the CLI's --iters), at
 * least two bytes of it, and goes on past them. */
static int
abbreviates(const char *word, const char *name)
{
    size_t n = strlen(word);

    if (n > 3 && word[n - 1] == 's')
        n--;
    return n >= 2 && strlen(name) > n && strncmp(word, name, n) == 0;
}

int
sym_suggest(const char *word, const char *const *list, size_t n, char *buf,
            size_t size)
{
    const char *near;
    size_t k, len = 0;
    int found = 0, exact;

    buf[0] = '\0';
    for (k = 0; k < n && len < size; k++)
        if (abbreviates(word, list[k])) {
            len += (size_t)snprintf(buf + len, size - len, "%s'%s'",
                                    found ? " or " : "", list[k]);
            found = 1;
        }
    if (found)
        return 1;
    near = sym_closest(word, list, n, &exact);
    if (near && !exact)
        snprintf(buf, size, "'%s'", near);
    return near && !exact;
}

/* A declared name of a kind in MASK close to NAME (a likely typo), or
 * NULL. */
static const fgmc_sym *
similar(const fgmc *c, const char *name, unsigned mask)
{
    const fgmc_sym *best = NULL, *s;
    int bestd = INT_MAX, i, limit = sym_typo_limit(name);

    if (strlen(name) < 2)
        return NULL;
    for (i = 0; i < c->tabcap; i++)
        for (s = c->tab[i]; s; s = s->chain) {
            int d;

            if (!(mask & (1u << s->kind)))
                continue;
            d = sym_distance(name, s->name);
            if (d <= limit && (d < bestd || (d == bestd
                                             && strcmp(s->name,
                                                       best->name) < 0))) {
                best = s;
                bestd = d;
            }
        }
    return best;
}

/* The declaration of NAME after LOC (statements are checked in order, so
 * a name used before its declaration is not known yet), or NULL. */
static const fgmc_stmt *
declared_later(const fgmc *c, fgmc_loc loc, const char *name)
{
    const fgmc_stmt *s;

    for (s = c->stmts; s; s = s->next)
        if ((s->kind == S_CONST || s->kind == S_VAR || s->kind == S_PRIOR)
            && s->loc.start > loc.start && s->name
            && strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

void
sym_unknown(fgmc *c, fgmc_loc loc, const char *what, const char *name,
            unsigned mask)
{
    const fgmc_sym *near = similar(c, name, mask);
    const fgmc_stmt *later = declared_later(c, loc, name);

    if (later)
        diag_error(c, loc, "%s '%s' (declared later, at line %d; declare "
                   "it before its use)", what, name,
                   diag_line(c, later->loc.start));
    else if (near)
        diag_error(c, loc, "%s '%s'; did you mean '%s'?", what, name,
                   near->name);
    else
        diag_error(c, loc, "%s '%s'", what, name);
}

