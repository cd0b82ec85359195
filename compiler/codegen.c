/* compiler/codegen.c: emit a model's message schedule as plugin C source.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The generated file is table-driven: consecutive schedule factors with
 * the same operator form a run, each run is one static const table and one
 * small loop calling the operator's kernel from kernels.h.  Sizes (domain
 * size, stride, counts) are compile-time constants, so the C compiler can
 * unroll and vectorize the kernels; that, not a different algorithm, is
 * what makes the plugin faster than the interpreter, and why both give the
 * same numbers.  Infer.NET unrolls every edge instead (1.19 MB of C# for
 * the seed's Sudoku model): here the code size grows with the number of
 * runs, the tables with the number of edges.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "codegen.h"
#include "../runtime/plugin.h"

/* A maximal block of consecutive schedule factors with one operator. */
typedef struct run {
    int first, count;
    fgm_op op;
} run;

void
fgm_codegen_int_table(FILE *f, const char *name, const char *what,
                      const int *x, int n)
{
    int i;

    fprintf(f, "/* %s */\nstatic const int %s[%d] = {", what, name,
            n > 0 ? n : 1);
    for (i = 0; i < n; i++)
        fprintf(f, "%s%d,", i % 12 == 0 ? "\n    " : " ", x[i]);
    if (n == 0)
        fprintf(f, " 0");
    fprintf(f, "\n};\n\n");
}

/* Writes S (a path or name the user chose) inside a C comment: "*" and
 * "/" next to each other get a backslash between them, so that a folder
 * called "a*" can neither end the comment nor open a nested one, and a
 * control character (a newline could start a preprocessor line) is
 * written as '?'. */
static void
comment_text(FILE *f, const char *s)
{
    int prev = 0, c;

    for (; (c = (unsigned char)*s) != '\0'; s++) {
        if ((c == '/' && prev == '*') || (c == '*' && prev == '/'))
            fputc('\\', f);
        fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
        prev = c;
    }
}

/* "f17 alldiff cell[3][0]..  (models/sudoku.fgm:9:1)" for a comment. */
static void
factor_comment(FILE *f, const fgm_sched *s, const fgm_sched_factor *sf)
{
    const fgm_ir *ir = s->ir;
    const fgm_ir_factor *fa = &ir->factors[sf->ir_factor];
    char name[FGM_IR_MAXNAME + 64];

    fprintf(f, "f%d %s %s", sf->ir_factor, fgm_ir_kind_name(fa->kind),
            fgm_ir_var_name(ir, fgm_ir_scope(ir, fa)[0], name, sizeof name));
    if (fa->arity > 1)
        fprintf(f, "..");
    if (fa->line > 0) {
        fprintf(f, "  (");
        comment_text(f, ir->source[0] ? ir->source : ir->name);
        fprintf(f, ":%d:%d)", fa->line, fa->col);
    }
}

/* Runs of more rows than this name a row's factor only where its source
 * statement changes: a 200,000-variable chain's C was 42 MB, most of it
 * one comment a row, and took its C compiler 7 s. */
#define ROW_COMMENT_LIMIT 10000

/* The comment above row SF of run R, where a new IR factor starts (*SHOWN:
 * the row last commented, or NULL). */
static void
row_comment(FILE *f, const fgm_sched *s, const run *r,
            const fgm_sched_factor *sf, const fgm_sched_factor **shown)
{
    const fgm_ir_factor *fa = &s->ir->factors[sf->ir_factor], *fb;
    int long_run = r->count > ROW_COMMENT_LIMIT;

    if (long_run && *shown && fa->line > 0) {
        /* (Factors built in C have no line: each is named.) */
        fb = &s->ir->factors[(*shown)->ir_factor];
        if (fa->line == fb->line && fa->col == fb->col
            && fa->kind == fb->kind)
            return;
    }
    fprintf(f, "    /* ");
    factor_comment(f, s, sf);
    if (long_run)
        fprintf(f, " and the rows below from its statement");
    fprintf(f, " */\n");
    *shown = sf;
}

/* The largest arity in run R, and whether every factor has it. */
static int
run_arity(const fgm_sched *s, const run *r, int *uniform)
{
    int i, a, n = 0;

    *uniform = 1;
    for (i = 0; i < r->count; i++) {
        a = s->factors[r->first + i].arity;
        if (i > 0 && a != n)
            *uniform = 0;
        n = a > n ? a : n;
    }
    return n;
}

/* Whether table run R is of two-variable factors only: rows of { edge,
 * offset in _pot }, the pairwise kernel (fgm_k_table2). */
static int
pairwise_run(const fgm_sched *s, const run *r)
{
    int uni;

    return r->op == FGM_OP_TABLE && run_arity(s, r, &uni) == 2 && uni;
}

/* Whether two-variable factors F and G share a variable. */
static int
shares_var(const fgm_sched *s, const fgm_sched_factor *f,
           const fgm_sched_factor *g)
{
    int a = s->edge_var[f->edge], b = s->edge_var[f->edge + 1];
    int c = s->edge_var[g->edge], d = s->edge_var[g->edge + 1];

    return a == c || a == d || b == c || b == d;
}

/* How many rows of run R from row I on (at most FGM_K_NEQ_GROUP) share
 * no variable with one another. */
static int
neq_group(const fgm_sched *s, const run *r, int i)
{
    int n, j;

    for (n = 1; n < FGM_K_NEQ_GROUP && i + n < r->count; n++)
        for (j = 0; j < n; j++)
            if (shares_var(s, &s->factors[r->first + i + j],
                           &s->factors[r->first + i + n]))
                return n;
    return n;
}

/* The potentials of row I of table run R. */
static const double *
row_pot(const fgm_sched *s, const run *r, int i, int *n)
{
    const fgm_ir_factor *fa =
        &s->ir->factors[s->factors[r->first + i].ir_factor];

    *n = fa->nparams;
    return fgm_ir_params(s->ir, fa);
}

/* For each row of table run R, the row whose potentials it shares (the
 * first with the same values; itself when none): FIRST[i].  Rows of
 * equal potentials are the rule (a chain's, the schedule's two visits of
 * a tree factor, the 63 distances of 4,032 queens tables).  Returns 0
 * when out of memory. */
static int
pot_owners(const fgm_sched *s, const run *r, int *first)
{
    size_t cap = 16, h, mask;
    int *slot, i, j, n, m;
    const double *p, *q;

    while (cap < 2 * (size_t)r->count)
        cap *= 2;
    mask = cap - 1;
    slot = malloc(cap * sizeof *slot);
    if (!slot)
        return 0;
    for (h = 0; h < cap; h++)
        slot[h] = -1;
    for (i = 0; i < r->count; i++) {
        uint64_t x = 14695981039346656037ull, w;    /* FNV-1a, by words */
        int k;

        p = row_pot(s, r, i, &n);
        for (k = 0; k < n; k++) {
            memcpy(&w, &p[k], sizeof w);
            x = (x ^ w) * 1099511628211ull;
        }
        first[i] = i;
        for (h = (size_t)x & mask; (j = slot[h]) >= 0; h = (h + 1) & mask) {
            q = row_pot(s, r, j, &m);
            if (m == n && memcmp(p, q, (size_t)n * sizeof *p) == 0) {
                first[i] = j;
                break;
            }
        }
        if (j < 0)
            slot[h] = i;
    }
    free(slot);
    return 1;
}

/* A table run's data: one row per factor, { edge, offset of its scope's
 * cards in runN_cards, arity, offset of its potentials in runN_pot },
 * each IR factor's source named above its first row; potentials written
 * once for all the rows that share them (pot_owners), under the first
 * one's source.  The run is one loop over the rows (run_code), as the
 * other operators' are: a call a factor, each with the kernel inlined,
 * and the potentials of each, made a 10,000-factor chain's C 6.6 MB and
 * its build 146 s (1.4 GB of compiler memory).  Returns 0 when out of
 * memory. */
static int
table_arrays(FILE *f, const fgm_sched *s, const run *r, int idx)
{
    int i, j, n, last = -1, ncards = 0, npot = 0, pair;
    const fgm_sched_factor *shown = NULL;
    int *first = malloc(2 * ((size_t)r->count + 1) * sizeof *first);
    int *off = first ? first + r->count + 1 : NULL;
    const double *p;

    if (!first || !pot_owners(s, r, first)) {
        free(first);
        return 0;
    }
    for (i = 0; i < r->count; i++) {
        row_pot(s, r, i, &n);
        off[i] = first[i] == i ? npot : off[first[i]];
        npot += first[i] == i ? n : 0;
    }
    pair = pairwise_run(s, r);
    fprintf(f, "static const int run%d[%d][%d] = {\n", idx, r->count,
            pair ? 2 : 4);
    for (i = 0; i < r->count; i++) {
        const fgm_sched_factor *sf = &s->factors[r->first + i];

        if (sf->ir_factor != last) {
            row_comment(f, s, r, sf, &shown);
            last = sf->ir_factor;
        }
        if (pair)
            fprintf(f, "    { %d, %d },\n", sf->edge, off[i]);
        else
            fprintf(f, "    { %d, %d, %d, %d },\n", sf->edge, ncards,
                    sf->arity, off[i]);
        ncards += sf->arity;
    }
    fprintf(f, "};\n\n");
    if (!pair) {
        fprintf(f, "static const int run%d_cards[%d] = {", idx, ncards);
        for (i = 0, ncards = 0; i < r->count; i++) {
            const fgm_sched_factor *sf = &s->factors[r->first + i];

            for (j = 0; j < sf->arity; j++, ncards++)
                fprintf(f, "%s%d,", ncards % 12 == 0 ? "\n    " : " ",
                        s->card[s->edge_var[sf->edge + j]]);
        }
        fprintf(f, "\n};\n\n");
    }
    fprintf(f, "static const double run%d_pot[%d] = {", idx, npot);
    for (i = 0; i < r->count; i++) {
        const fgm_sched_factor *sf = &s->factors[r->first + i];
        int w;

        if (first[i] != i)
            continue;
        /* A line a row of the table (its last variable's values), as the
         * model's nested lists are written; 4 a line past 8 values. */
        w = s->card[s->edge_var[sf->edge + sf->arity - 1]];
        w = w <= 8 ? w : 4;
        fprintf(f, "\n    /* ");
        factor_comment(f, s, sf);
        fprintf(f, " */");
        p = row_pot(s, r, i, &n);
        for (j = 0; j < n; j++)
            fprintf(f, "%s%.17g,", j % w == 0 ? "\n    " : " ", p[j]);
    }
    fprintf(f, "\n};\n\n");
    free(first);
    return 1;
}

/* Whether a factor of sum run R has a coefficient other than 1: the run
 * then has its coefficients' array (sum_coefs) and a fifth column, the
 * offset of each row's in it; else the kernel gets NULL, 1 each. */
static int
sum_weighted(const fgm_sched *s, const run *r)
{
    int i, j;

    for (i = 0; i < r->count; i++) {
        const fgm_sched_factor *sf = &s->factors[r->first + i];
        const double *a = fgm_sched_sum_coef(s, sf);

        for (j = 0; j < sf->arity; j++)
            if (a[j] != 1.0)
                return 1;
    }
    return 0;
}

/* The coefficients of weighted sum run R (number IDX), row after row:
 * "static const double runIDX_coef[] = { ... };". */
static void
sum_coefs(FILE *f, const fgm_sched *s, const run *r, int idx)
{
    int i, j, n = 0;

    fprintf(f, "/* run %d's coefficients, a row's from the offset in its "
            "column 4 */\nstatic const double run%d_coef[] = {", idx, idx);
    for (i = 0; i < r->count; i++) {
        const fgm_sched_factor *sf = &s->factors[r->first + i];
        const double *a = fgm_sched_sum_coef(s, sf);

        for (j = 0; j < sf->arity; j++, n++)
            fprintf(f, "%s%.0f,", n % 12 == 0 ? "\n    " : " ", a[j]);
    }
    fprintf(f, "\n};\n\n");
}

/* One row per factor of run R: NEQ "e, v0, v1, group length" (see
 * below); DIRICHLET "e, v, node, factor"; ALLDIFF "e, n, v0..v(n-1)";
 * SUM "e, n, lo, hi" and, weighted, its coefficients' offset, with a
 * comment where a new IR factor starts; TABLE rows point into pooled
 * arrays (table_arrays).  Returns 0 when out of memory. */
static int
run_table(FILE *f, const fgm_sched *s, const run *r, int idx)
{
    /* What a row holds, said once above each table for its reader. */
    static const char *const legend[] = {
        [FGM_OP_NEQ] = "{ edge to x (y's: the next), x, y, rows run "
                       "together (0: with a row above) }",
        [FGM_OP_DIRICHLET] = "{ edge to the variable, variable, Dirichlet "
                             "node, Dirichlet factor }",
        [FGM_OP_ALLDIFF] = "{ first edge, arity, its variables }",
        [FGM_OP_DIRICHLET_GATED] = "{ edge to x (the gates': the next), "
                                   "the gates' first node, its first row of "
                                   "Dirichlet messages, arity, x, the "
                                   "gates }",
        [FGM_OP_TABLE] = "{ first edge, offset of its variables' sizes "
                         "in _cards, arity, offset in _pot }",
        [FGM_OP_SUM] = "{ first edge, arity, the range of the weighted "
                       "sum of its variables' value indices[, offset of "
                       "its coefficients] }",
    };
    int i, j, last = -1, uni, group = 0, left = 0, coef_at = 0;
    int weighted = r->op == FGM_OP_SUM && sum_weighted(s, r);
    const fgm_sched_factor *shown = NULL;
    const char *what = (size_t)r->op < sizeof legend / sizeof legend[0]
                       ? legend[r->op] : NULL;

    if (pairwise_run(s, r))
        what = "{ edge to the first variable (the second's: the next), "
               "offset in _pot }";
    fprintf(f, "/* run %d: %d %s update%s", idx, r->count,
            fgm_sched_op_name(r->op), r->count == 1 ? "" : "s");
    if (what)
        fprintf(f, "; a row:\n   %s", what);
    fprintf(f, " */\n");
    if (r->op == FGM_OP_TABLE)
        return table_arrays(f, s, r, idx);
    if (weighted)
        sum_coefs(f, s, r, idx);
    fprintf(f, "static const int run%d[%d][%d] = {\n", idx, r->count,
            r->op == FGM_OP_NEQ ? 4 : r->op == FGM_OP_DIRICHLET ? 4
            : r->op == FGM_OP_DIRICHLET_GATED ? 4 + run_arity(s, r, &uni)
            : r->op == FGM_OP_ALLDIFF ? 2 + run_arity(s, r, &uni)
            : r->op == FGM_OP_SUM ? 4 + weighted : 2);
    for (i = 0; i < r->count; i++) {
        const fgm_sched_factor *sf = &s->factors[r->first + i];
        const int *vars = s->edge_var + sf->edge;

        if (sf->ir_factor != last) {
            row_comment(f, s, r, sf, &shown);
            last = sf->ir_factor;
        }
        switch (r->op) {
        case FGM_OP_NEQ:
            /* Column 3: the number of rows from this one on that share
             * no variable and run together (fgm_k_neq_group, one domain
             * size for all); 0 on the rows after the first. */
            if (left == 0)
                left = group = s->uniform_card ? neq_group(s, r, i) : 1;
            fprintf(f, "    { %d, %d, %d, %d },\n", sf->edge, vars[0], vars[1],
                    left == group ? group : 0);
            left--;
            break;
        case FGM_OP_DIRICHLET:
            fprintf(f, "    { %d, %d, %d, %d },\n", sf->edge, vars[0], sf->aux,
                    sf->dfac);
            break;
        case FGM_OP_DIRICHLET_GATED:
            fprintf(f, "    { %d, %d, %d, %d,", sf->edge, sf->aux, sf->dfac,
                    sf->arity);
            for (j = 0; j < sf->arity; j++)
                fprintf(f, " %d%s", vars[j], j + 1 < sf->arity ? "," : "");
            fprintf(f, " },\n");
            break;
        case FGM_OP_ALLDIFF:
            /* Shorter scopes leave the row's tail zero-filled. */
            fprintf(f, "    { %d, %d,", sf->edge, sf->arity);
            for (j = 0; j < sf->arity; j++)
                fprintf(f, "%s%d%s", j > 0 && j % 12 == 0 ? "\n      " : " ",
                        vars[j], j + 1 < sf->arity ? "," : "");
            fprintf(f, " },\n");
            break;
        case FGM_OP_SUM:
            fprintf(f, "    { %d, %d, %.0f, %.0f", sf->edge, sf->arity,
                    s->ir->param_pool[sf->aux],
                    s->ir->param_pool[sf->aux + 1]);
            if (weighted)
                fprintf(f, ", %d", coef_at);
            coef_at += sf->arity;
            fprintf(f, " },\n");
            break;
        default:
            break;
        }
    }
    fprintf(f, "};\n\n");
    return 1;
}

/* Into BUF (SIZE bytes): the arity of row i of run R (number IDX) as C,
 * a constant when the run's scopes agree (the schedule gives each scope
 * one domain size), else column COL of its row table. */
static void
arity_expr(const fgm_sched *s, const run *r, int idx, int col, char *buf,
           size_t size)
{
    int uni, n = run_arity(s, r, &uni);

    if (uni)
        snprintf(buf, size, "%d", n);
    else
        snprintf(buf, size, "run%d[i][%d]", idx, col);
}

/* "c = fgm_k_dirichlet(...);" for row i of run IDX, indented by IND. */
static void
dirichlet_call(FILE *f, const fgm_sched *s, int idx, const char *kexpr,
               const char *ind)
{
    fprintf(f, "%sc = fgm_k_dirichlet(st, run%d[i][0], run%d[i][1], "
            "run%d[i][2],\n%s                    run%d[i][3], S, %s, %d, %d, "
            "st->scratch);\n", ind, idx, idx, idx, ind, idx, kexpr,
            s->infer.algo == FGM_ALGO_EP,
            s->infer.projection == FGM_PROJECTION_MEAN_SQUARE);
}

/* "LEADfgm_k_refresh(...);": every belief rebuilt from its messages (K:
 * the uniform domain size, or 0 for per-variable sizes), with V2F for
 * the stored variable-to-factor messages. */
static void
refresh_call(FILE *f, const char *lead, int k, const char *v2f)
{
    fprintf(f, "    %sfgm_k_refresh(st, NVARS, var_edge_off, var_edges, %s, "
            "K, S,\n%*s%s);\n", lead, k ? "0" : "card",
            (int)(18 + strlen(lead)), "", v2f);
}

/* The loop of run R: one kernel call per row. */
static void
run_code(FILE *f, const fgm_sched *s, const run *r, int idx)
{
    int maxp = s->infer.algo == FGM_ALGO_BP_MAX;
    /* The domain size of the row's first variable, as a constant when
     * every domain has the same size. */
    char kexpr[32];

    if (s->uniform_card)
        snprintf(kexpr, sizeof kexpr, "K");
    else
        snprintf(kexpr, sizeof kexpr, "card[run%d[i][%d]]", idx,
                 r->op == FGM_OP_ALLDIFF ? 2 : 1);

    fprintf(f, "static double\nsweep_run%d(fgm_state *st)\n{\n", idx);
    fprintf(f, "    double change = 0.0, c;\n");
    if (r->op == FGM_OP_NEQ || r->op == FGM_OP_DIRICHLET) {
        /* A skipping sweep walks the run's live updates only (the
         * kernel's own skip test then always fails).  One call
         * site for both walks: the kernels are inlined, and each copy
         * costs the C compiler time. */
        fprintf(f, "    const int *l = 0;\n    int i,%s j, n = %d, g = 1;\n\n",
                r->op == FGM_OP_NEQ ? " i2, plain," : "", r->count);
        fprintf(f,
                "    if (st->skip_pinned && st->live)\n"
                "        l = fgm_k_live_range(st, %d, %d, &n);\n",
                r->first, r->count);
        /* Tested once a sweep (fgm_k_neq_group): a live list holds no
         * update that a skip test would skip. */
        if (r->op == FGM_OP_NEQ)
            fprintf(f, "    plain = fgm_k_neq_plain(st) "
                    "&& (!st->skip_pinned || l);\n");
        fprintf(f,
                "    for (j = 0; j < n; j += g) {\n"
                "        i = l ? l[j] - %d : j;\n", r->first);
    } else {
        fprintf(f, "    int i;\n\n    for (i = 0; i < %d; i++) {\n",
                r->count);
    }
    switch (r->op) {
    case FGM_OP_NEQ:
        /* Independent updates overlap (the same numbers as one by
         * one): a row group of the table, or two live updates in a row
         * that share no variable.  Only with one domain size for all
         * (fgm_k_neq_group runs both rows with the first row's; the
         * table's groups are 1 otherwise, see run_table). */
        if (s->uniform_card && !maxp && fgm_sched_seed_flooding(s))
            /* The seed's flooding sweep: any rows go together. */
            fprintf(f, "        if (st->damp_v2f) {\n"
                    "            const int *rows[FGM_K_NEQ_SEED_ROWS];\n\n"
                    "            for (g = 0; g < FGM_K_NEQ_SEED_ROWS "
                    "&& j + g < n; g++)\n"
                    "                rows[g] = run%d[l ? l[j + g] - %d : "
                    "j + g];\n"
                    "            c = fgm_k_neq_seed_rows(st, rows, g, S, K);\n"
                    "            if (c > change)\n"
                    "                change = c;\n"
                    "            continue;\n"
                    "        }\n", idx, r->first);
        if (s->uniform_card)
            fprintf(f, "        if (l) {\n"
                    "            i2 = j + 1 < n ? l[j + 1] - %d : i;\n"
                    "            g = 1 + (i2 != i && fgm_k_neq_disjoint("
                    "run%d[i], run%d[i2]));\n"
                    "        } else {\n"
                    "            g = run%d[i][3];\n"
                    "            i2 = g > 1 ? i + 1 : i;\n"
                    "        }\n", r->first, idx, idx, idx);
        else
            fprintf(f, "        i2 = i;\n");
        fprintf(f, "        c = fgm_k_neq_group(st, run%d[i], run%d[i2], g, "
                "S, %s, %d,\n                            plain, "
                "st->scratch);\n",
                idx, idx, kexpr, maxp);
        break;
    case FGM_OP_DIRICHLET:
        dirichlet_call(f, s, idx, kexpr, "        ");
        break;
    case FGM_OP_DIRICHLET_GATED:
        fprintf(f, "        c = fgm_k_dirichlet_gated(st, run%d[i][0], "
                "&run%d[i][4], run%d[i][3],\n"
                "                                  run%d[i][1], run%d[i][2], "
                "S, %s,\n                                  %d, %d, %d, "
                "st->scratch);\n", idx, idx, idx, idx, idx,
                s->uniform_card ? "0, K" : "card, 0",
                s->infer.algo == FGM_ALGO_EP,
                s->infer.projection == FGM_PROJECTION_MEAN_SQUARE, maxp);
        break;
    case FGM_OP_ALLDIFF: {
        char nexpr[32];

        arity_expr(s, r, idx, 1, nexpr, sizeof nexpr);
        fprintf(f, "        c = fgm_k_alldiff(st, run%d[i][0], &run%d[i][2], "
                "%s, S,\n                          %s, %d, st->scratch);\n",
                idx, idx, nexpr, kexpr, maxp);
        break;
    }
    case FGM_OP_SUM: {
        char coef[64] = "NULL";

        if (sum_weighted(s, r))
            snprintf(coef, sizeof coef, "run%d_coef + run%d[i][4]", idx, idx);
        fprintf(f, "        c = fgm_k_sum(st, run%d[i][0], edge_var + "
                "run%d[i][0], %s,\n                      %s, run%d[i][1], "
                "run%d[i][2], run%d[i][3], S,\n                      %d, "
                "st->scratch);\n", idx, idx,
                s->uniform_card ? "0, K" : "card, 0", coef, idx, idx, idx,
                maxp);
        break;
    }
    default: {
        char nexpr[32];

        if (pairwise_run(s, r)) {
            /* Pairwise tables: the kernel without the odometer, with the
             * domain sizes as constants where every variable has K. */
            fprintf(f, "        c = fgm_k_table2(st, run%d[i][0], "
                    "edge_var[run%d[i][0]],\n                         "
                    "edge_var[run%d[i][0] + 1], ", idx, idx, idx);
            if (s->uniform_card)
                fprintf(f, "K, K");
            else
                fprintf(f, "card[edge_var[run%d[i][0]]],\n"
                        "                         card[edge_var[run%d[i][0] "
                        "+ 1]]", idx, idx);
            fprintf(f, ",\n                         run%d_pot + run%d[i][1], "
                    "S, %d, st->scratch);\n", idx, idx, maxp);
            break;
        }
        arity_expr(s, r, idx, 2, nexpr, sizeof nexpr);
        fprintf(f, "        c = fgm_k_table(st, run%d[i][0], edge_var + "
                "run%d[i][0],\n                        run%d_cards + "
                "run%d[i][1], %s,\n                        run%d_pot + "
                "run%d[i][3], S, %d, st->scratch);\n", idx, idx, idx, idx,
                nexpr, idx, idx, maxp);
        break;
    }
    }
    fprintf(f, "        if (c > change)\n            change = c;\n    }\n");
    fprintf(f, "    return change;\n}\n\n");
}

/* The reset, sweep and finish of a message-passing plugin: the NRUNS
 * runs in schedule order, then (FLOOD) the refresh ending a flooding
 * sweep. */
static void
message_functions(FILE *f, const fgm_sched *s, int nruns, int k, int flood)
{
    int i;

    fprintf(f, "static void\nreset(fgm_state *st)\n{\n");
    fprintf(f, "    fgm_k_reset(st, NVARS, NEDGES, %d, %d, edge_var, %s, K, "
            "S);\n}\n\n", s->ndirichlet, s->ndirfactors, k ? "0" : "card");
    fprintf(f, "static double\nsweep(fgm_state *st)\n{\n"
            "    double change = 0.0, c;\n\n");
    for (i = 0; i < nruns; i++)
        fprintf(f, "    c = sweep_run%d(st);\n    if (c > change)\n"
                "        change = c;\n", i);
    /* A flooding schedule's beliefs move only here; a sequential one's
     * move with every update and are rebuilt once, by finish. */
    if (flood) {
        refresh_call(f, "c = ", k, "st->damp_v2f");
        fprintf(f, "    if (c > change)\n        change = c;\n");
    }
    fprintf(f, "    return change;\n}   /* end sweep */\n\n");
    /* Run by the runtime after a sequential schedule's last sweep and
     * before a warm run's first (plugin_abi.h). */
    fprintf(f, "static void\nfinish(fgm_state *st)\n{\n");
    refresh_call(f, "", k, "0");
    fprintf(f, "}\n\n");
}

/* fgm_codegen_emit in the caller's locale. */
static fgm_status
emit(const fgm_sched *s, FILE *f)
{
    const fgm_ir *ir = s->ir;
    run *runs;
    int nruns = 0, i, k = s->uniform_card;
    int flood = s->infer.schedule == FGM_SCHEDULE_PARALLEL;
    uint64_t hash = fgm_ir_hash(ir);

    runs = calloc((size_t)s->nfactors + 1, sizeof *runs);
    if (!runs)
        return FGM_ENOMEM;
    for (i = 0; i < s->nfactors; i++) {
        if (nruns > 0 && runs[nruns - 1].op == s->factors[i].op) {
            runs[nruns - 1].count++;
            continue;
        }
        runs[nruns].first = i;
        runs[nruns].count = 1;
        runs[nruns].op = s->factors[i].op;
        nruns++;
    }

    fprintf(f, "/* Generated by fgm compile %s from ", FGM_VERSION);
    comment_text(f, ir->source[0] ? ir->source : "(built in C)");
    fprintf(f, ": DO NOT EDIT;\n"
            "   edit the .fgm and rerun \"fgm compile\". */\n");
    fprintf(f, "/* model %s, algorithm %s, IR hash %016" PRIx64 ", ABI %u\n",
            ir->name, fgm_ir_algo_name(s->infer.algo), hash,
            FGM_PLUGIN_ABI_VERSION);
    if (s->infer.algo == FGM_ALGO_GIBBS) {
        char burn[32] = "a tenth of a run's";

        if (s->infer.burn_in >= 0)
            snprintf(burn, sizeof burn, "%d", s->infer.burn_in);
        fprintf(f, "   sampler: %d variables drawn a sweep, %d factors, %d "
                "edges,\n   %d iterations, burn-in %s sweeps, tolerance "
                "%.17g */\n\n", s->nvars, s->nfactors, s->nedges,
                s->infer.iterations, burn, s->infer.tolerance);
    } else if (s->infer.algo == FGM_ALGO_VMP) {
        fprintf(f, "   mean field: %d variables updated a sweep, then %d "
                "Dirichlet nodes,\n   %d factors, %d edges, %d iterations, "
                "tolerance %.17g */\n\n", s->nvars, s->ndirichlet,
                s->nfactors, s->nedges, s->infer.iterations,
                s->infer.tolerance);
    } else {
        fprintf(f, "   schedule: %d factor updates in %d runs, %d edges, %s,\n"
                "   alldiff %s, projection %s, %d iterations, damping %.17g,\n"
                "   tolerance %.17g */\n\n", s->nfactors, nruns, s->nedges,
                s->infer.schedule == FGM_SCHEDULE_PARALLEL ? "parallel"
                                                           : "sequential",
                s->infer.alldiff == FGM_ALLDIFF_NATIVE ? "native"
                                                       : "pairwise",
                s->infer.projection == FGM_PROJECTION_MEAN_SQUARE
                    ? "mean-square" : "mean",
                s->infer.iterations, s->infer.damping, s->infer.tolerance);
    }
    /* Kernel vectors sized for this model's largest domain. */
    fprintf(f, "#define FGM_K_VCHUNKS %d\n", s->stride / FGM_K_LANES);
    fprintf(f, "#include \"plugin_abi.h\"\n#include \"kernels.h\"\n\n");
    fprintf(f, "#define NVARS  %-8d /* variables */\n"
            "#define NEDGES %-8d /* factor-variable edges%s */\n"
            "#define S      %-8d /* doubles a %s: the values, padded to "
            "whole vectors */\n", s->nvars, s->nedges,
            fgm_algo_by_variable(s->infer.algo) ? "" : ", a message each",
            s->stride,
            fgm_algo_by_variable(s->infer.algo) ? "row" : "message");
    /* K is the domain size when all are equal; otherwise kernels read the
     * per-variable size from CARD (K is then unused but defined). */
    fprintf(f, "#define K      %-8d /* %s */\n\n", k ? k : s->stride,
            k ? "values of every variable"
              : "unused: card[] holds each variable's number of values");
    fgm_codegen_int_table(f, "edge_var", "the variable at each edge",
                          s->edge_var, s->nedges);
    fgm_codegen_int_table(f, "var_edge_off", "variable v's edges are "
                          "var_edges[i] for var_edge_off[v] <= i < "
                          "var_edge_off[v + 1]", s->var_edge_off,
                          s->nvars + 1);
    fgm_codegen_int_table(f, "var_edges", "the edges of each variable, "
                          "variable by variable", s->var_edges, s->nedges);
    if (!k)
        fgm_codegen_int_table(f, "card", "each variable's number of values",
                              s->card, s->nvars);
    if (fgm_algo_by_variable(s->infer.algo)) {
        /* A sampler and mean field visit variables: no runs of factor
         * updates. */
        fgm_codegen_by_variable(f, s);
        nruns = 0;
    }
    for (i = 0; i < nruns; i++)
        if (!run_table(f, s, &runs[i], i)) {
            free(runs);
            return FGM_ENOMEM;
        }
    for (i = 0; i < nruns; i++)
        run_code(f, s, &runs[i], i);
    if (!fgm_algo_by_variable(s->infer.algo))
        message_functions(f, s, nruns, k, flood);

    fprintf(f, "FGM_PLUGIN_SEAL;\n\n");
    fprintf(f, "static const fgm_plugin_desc desc = {\n");
    fprintf(f, "    FGM_PLUGIN_ABI_VERSION, sizeof(fgm_plugin_desc),\n");
    fprintf(f, "    UINT64_C(0x%016" PRIx64 "),\n", hash);
    fprintf(f, "    \"%s\", \"%s\",\n", ir->name,
            fgm_ir_algo_name(s->infer.algo));
    fprintf(f, "    NVARS, S, NEDGES, %d, %d, %d,\n", s->ndirichlet,
            s->ndirfactors, s->nscratch);
    fprintf(f, "    reset, sweep, finish,\n    UINT64_C(0x%016" PRIx64 ")\n"
            "};\n\n", fgm_plugin_build_id());
    fprintf(f, "FGM_PLUGIN_EXPORT const fgm_plugin_desc "
            "*FGM_PLUGIN_ENTRY(void);\n\n");
    fprintf(f, "const fgm_plugin_desc *\nFGM_PLUGIN_ENTRY(void)\n{\n"
            "    /* NULL on a CPU without the instructions this was built "
            "for:\n       the runtime then rebuilds it. */\n"
            "    return fgm_plugin_cpu_ok() ? &desc : 0;\n}\n");
    free(runs);
    return ferror(f) ? FGM_EIO : FGM_OK;
}

fgm_status
fgm_codegen_emit(const fgm_sched *s, FILE *f)
{
    /* The tables' doubles (%.17g) with a decimal point whatever locale
     * the program has set: "2,718" would be two numbers to the C
     * compiler. */
    fgm_c_locale cl;
    fgm_status st;

    fgm_c_locale_begin(&cl);
    st = emit(s, f);
    fgm_c_locale_end(&cl);
    return st;
}

fgm_status
fgm_codegen_write(void *arg, FILE *f)
{
    return fgm_codegen_emit(arg, f);
}
