/* runtime/ir_query.c: the IR as users of fgm.h see it: names, arrays, grid.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fgm.h keeps fgm_ir opaque, so that ir.h (the compiler <-> runtime
 * contract) can change without breaking programs built on the library.
 * These accessors are all a user, the fgm tool included, reads of it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ir.h"
#include "schedule.h"

const char *
fgm_ir_name(const fgm_ir *ir)
{
    return ir ? ir->name : NULL;
}

/* The name becomes a file name (out_dir/NAME.ALGO.so) and a string
 * literal in the plugin's C: only what the language's `model NAME` takes
 * (an identifier), so that "../x" cannot leave out_dir and a quote cannot
 * break the plugin. */
fgm_status
fgm_ir_set_name(fgm_ir *ir, const char *name)
{
    size_t len = name ? strlen(name) : 0;

    if (!ir || len >= sizeof ir->name || !fgm_ir_is_ident(name, len))
        return FGM_EINVAL;
    memcpy(ir->name, name, len + 1);
    return FGM_OK;
}

const char *
fgm_ir_algo(const fgm_ir *ir)
{
    return ir ? fgm_ir_algo_name(ir->infer.algo) : NULL;
}

fgm_status
fgm_ir_set_algo(fgm_ir *ir, const char *name)
{
    int k = name ? fgm_ir_algo_find(name) : -1;

    if (!ir || k < 0)
        return FGM_EINVAL;
    fgm_ir_switch_algo(ir, (fgm_algo)k);
    return FGM_OK;
}

fgm_status
fgm_ir_add_evidence(fgm_ir *ir, int v, const double *w)
{
    fgm_status st = FGM_EINVAL;
    double top = 0.0;
    int k, card;

    if (!ir || !w || v < 0 || v >= ir->nvars)
        return FGM_EINVAL;
    card = ir->arrays[ir->var_array[v]].card;
    for (k = 0; k < card; k++) {
        if (!(w[k] >= 0.0 && isfinite(w[k])))
            return FGM_EINVAL;
        top = w[k] > top ? w[k] : top;
    }
    if (top == 0.0)
        return FGM_EINVAL;
    return fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, &v, card, w, &st)
           < 0 ? st : FGM_OK;
}

int
fgm_ir_nvars(const fgm_ir *ir)
{
    return ir ? ir->nvars : 0;
}

int
fgm_ir_ndirichlet(const fgm_ir *ir)
{
    return ir ? ir->ndirichlet : 0;
}

int
fgm_ir_narrays(const fgm_ir *ir)
{
    return ir ? ir->narrays : 0;
}

fgm_status
fgm_ir_array_info(const fgm_ir *ir, int i, fgm_array_info *out)
{
    const fgm_ir_array *a;

    if (!ir || !out || i < 0 || i >= ir->narrays)
        return FGM_EINVAL;
    a = &ir->arrays[i];
    memset(out, 0, sizeof *out);
    out->name = a->name;
    out->dirichlet = a->kind == FGM_ARRAY_DIRICHLET;
    out->ndims = a->ndims;
    memcpy(out->dims, a->dims, sizeof out->dims);
    out->first = a->first;
    out->count = a->count;
    out->lo = a->kind == FGM_ARRAY_DISCRETE ? a->lo : 0;
    out->card = a->card;
    return FGM_OK;
}

int
fgm_ir_array_index(const fgm_ir *ir, const char *name)
{
    const fgm_ir_array *a = ir && name ? fgm_ir_find_array(ir, name)
                                       : NULL;

    return a ? (int)(a - ir->arrays) : -1;
}

int
fgm_ir_var_array(const fgm_ir *ir, int v)
{
    return ir && v >= 0 && v < ir->nvars ? ir->var_array[v] : -1;
}

int
fgm_ir_node_array(const fgm_ir *ir, int d)
{
    return ir && d >= 0 && d < ir->ndirichlet ? ir->dir_array[d] : -1;
}

/* The units of an N x N grid whose repeats the puzzle reader refuses. */
enum { UNIT_ROW, UNIT_COLUMN, UNIT_BOX, NUNIT_KINDS };

/* The unit of kind KIND (0 .. N-1, row-major for boxes of side B) that
 * holds CELL of an N x N grid. */
static int
unit_of_cell(int kind, int cell, int n, int b)
{
    if (kind == UNIT_ROW)
        return cell / n;
    if (kind == UNIT_COLUMN)
        return cell % n;
    return fgm_box_of(cell / n, cell % n, b);
}

/* The unit of kind KIND whose every cell the scope S of ARITY variables
 * of array A (side N, box side B) holds, when it is exactly one unit's
 * cells (the IR refuses a variable twice in a scope); else -1. */
static int
unit_of_scope(int kind, const fgm_ir_array *a, const int *s, int arity,
              int n, int b)
{
    int j, k, unit = -1;

    if (arity != n)
        return -1;
    for (j = 0; j < arity; j++) {
        if (s[j] < a->first || s[j] >= a->first + a->count)
            return -1;
        k = unit_of_cell(kind, s[j] - a->first, n, b);
        if (j > 0 && k != unit)
            return -1;
        unit = k;
    }
    return unit;
}

/* Puzzles are read into variables 0 .. N*N-1 (fgm_puzzle_to_given, the
 * solvers): a grid that does not start there cannot take them.  The
 * reader refuses a clue repeated in a row, a column or a box, so each
 * must be the model's rule: every row and column the scope of an
 * alldiff, and every box for a box side (a jigsaw's 3N units are not
 * boxes; a grid colouring, whose rows may repeat a value, has no
 * units). */
void
fgm_ir_grid(const fgm_ir *ir, int *n, int *box)
{
    const fgm_ir_array *a = NULL;
    unsigned char seen[NUNIT_KINDS][FGM_PUZZLE_MAXN] = { { 0 } };
    int units[NUNIT_KINDS] = { 0 };
    int i, b, k, kind, nkinds, side = 0;

    for (i = 0; ir && i < ir->narrays && !a; i++)
        if (ir->arrays[i].kind == FGM_ARRAY_DISCRETE
            && ir->arrays[i].ndims == 2)
            a = &ir->arrays[i];
    if (a && a->dims[0] == a->dims[1] && a->first == 0)
        side = a->dims[0];
    for (b = 2; b * b < side; b++)
        ;
    nkinds = b * b == side ? NUNIT_KINDS : UNIT_BOX;    /* boxes, or none */
    /* A side past the reader's takes no puzzle: no units to look for. */
    for (i = 0; side > 0 && side <= FGM_PUZZLE_MAXN && i < ir->nfactors;
         i++) {
        const fgm_ir_factor *f = &ir->factors[i];

        for (kind = 0; f->kind == FGM_FACTOR_ALLDIFF && kind < nkinds;
             kind++) {
            k = unit_of_scope(kind, a, fgm_ir_scope(ir, f), f->arity, side,
                              b);
            if (k >= 0 && !seen[kind][k]) {
                seen[kind][k] = 1;
                units[kind]++;
            }
        }
    }
    if (n)
        *n = side;
    if (box && (side == 0 || side > FGM_PUZZLE_MAXN))
        *box = 0;
    else if (box && (units[UNIT_ROW] < side || units[UNIT_COLUMN] < side))
        *box = FGM_GRID_NO_UNITS;
    else if (box)
        *box = units[UNIT_BOX] == side ? b : 0;
}

fgm_status
fgm_ir_schedule(const fgm_ir *ir, int *nupdates, int *nedges)
{
    fgm_status st;
    fgm_sched *s;

    if (!ir)
        return FGM_EINVAL;
    s = fgm_sched_new(ir, &st);
    if (!s)
        return st;
    if (nupdates)
        *nupdates = s->nfactors;
    if (nedges)
        *nedges = s->nedges;
    fgm_sched_free(s);
    return FGM_OK;
}

int
fgm_ir_dirichlet_maxk(const fgm_ir *ir)
{
    int d, k = 0;

    for (d = 0; ir && d < ir->ndirichlet; d++)
        if (ir->arrays[ir->dir_array[d]].card > k)
            k = ir->arrays[ir->dir_array[d]].card;
    return k;
}

fgm_status
fgm_ir_dirichlet_mean(const fgm_ir *ir, const double *marginals,
                      int stride, double *mean, int mean_stride)
{
    unsigned char *picks;
    int *drawn, d, i, j, k;

    if (!ir || !marginals || !mean || mean_stride < fgm_ir_dirichlet_maxk(ir))
        return FGM_EINVAL;
    for (i = 0; i < ir->nvars; i++)
        if (stride < ir->arrays[ir->var_array[i]].card)
            return FGM_EINVAL;
    drawn = calloc((size_t)ir->ndirichlet + 1, sizeof *drawn);
    picks = fgm_ir_gated_picks(ir);
    if (!drawn || !picks) {
        free(drawn);
        free(picks);
        return FGM_ENOMEM;
    }
    for (d = 0; d < ir->ndirichlet; d++) {
        const fgm_ir_array *a = &ir->arrays[ir->dir_array[d]];

        for (k = 0; k < a->card; k++)
            mean[(long)d * mean_stride + k] = fgm_ir_node_alpha(ir, d)[k];
    }
    /* E[n_k] of a node: its draws' marginals of k, summed. */
    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *s = fgm_ir_scope(ir, f);

        if (f->kind != FGM_FACTOR_DIRICHLET_DISCRETE)
            continue;
        for (j = 0; j < ir->arrays[ir->var_array[s[0]]].card; j++)
            mean[(long)f->aux * mean_stride + j]
                += marginals[(long)s[0] * stride + j];
        drawn[f->aux]++;
    }
    for (d = 0; d < ir->ndirichlet; d++) {
        const fgm_ir_array *a = &ir->arrays[ir->dir_array[d]];
        double total = drawn[d];

        for (k = 0; k < a->card; k++)
            total += fgm_ir_node_alpha(ir, d)[k];
        for (k = 0; k < a->card; k++)
            mean[(long)d * mean_stride + k] /= total;
    }
    /* A gated draw's nodes: no mean from the marginals. */
    for (d = 0; d < ir->ndirichlet; d++)
        for (k = 0; picks[d] && k < mean_stride; k++)
            mean[(long)d * mean_stride + k] = NAN;
    free(picks);
    free(drawn);
    return FGM_OK;
}
