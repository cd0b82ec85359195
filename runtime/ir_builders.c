/* runtime/ir_builders.c: IR builders for the Sudoku family and Latin squares.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Factor order is rows, then columns, then boxes: the same unit order as the
 * seed notebooks, so solvers that walk units see them as the seeds did.
 * fgm_ir_robust gives users the EP solvers' model of any of them.
 */
#include "ir.h"
#include "solve/ep_model.h"

/* Adds the 2N row and column alldiff factors over the N x N array at FIRST. */
static fgm_status
add_lines(fgm_ir *ir, int n, int first)
{
    int scope[FGM_PUZZLE_MAXN * 2], i, j;
    fgm_status st = FGM_OK;

    for (i = 0; i < n && st == FGM_OK; i++) {
        for (j = 0; j < n; j++)
            scope[j] = first + i * n + j;
        fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, n, scope, 0, NULL, &st);
    }
    for (j = 0; j < n && st == FGM_OK; j++) {
        for (i = 0; i < n; i++)
            scope[i] = first + i * n + j;
        fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, n, scope, 0, NULL, &st);
    }
    return st;
}

/* Returns a new IR with one observed N x N array "cell" in 1..N. */
static fgm_ir *
grid_ir(const char *name, int n, int *first)
{
    int dims[2] = { n, n };
    fgm_status st;
    fgm_ir *ir = fgm_ir_new(name);

    if (!ir)
        return NULL;
    *first = fgm_ir_add_array(ir, "cell", 2, dims, 1, n, FGM_ARRAY_OBSERVED,
                              &st);
    if (*first < 0 || add_lines(ir, n, *first) != FGM_OK) {
        fgm_ir_free(ir);
        return NULL;
    }
    return ir;
}

fgm_ir *
fgm_ir_sudoku(int box)
{
    int n = box * box, scope[FGM_PUZZLE_MAXN], a, b, i, j, k, first;
    char name[32];
    fgm_status st = FGM_OK;
    fgm_ir *ir;

    if (box < 2 || box > 5)
        return NULL;
    snprintf(name, sizeof name, "sudoku%d", n);
    ir = grid_ir(name, n, &first);
    if (!ir)
        return NULL;
    for (a = 0; a < box && st == FGM_OK; a++)
        for (b = 0; b < box && st == FGM_OK; b++) {
            k = 0;
            for (i = a * box; i < a * box + box; i++)
                for (j = b * box; j < b * box + box; j++)
                    scope[k++] = first + i * n + j;
            fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, n, scope, 0, NULL, &st);
        }
    if (st != FGM_OK) {
        fgm_ir_free(ir);
        return NULL;
    }
    return ir;
}

fgm_ir *
fgm_ir_latin(int n)
{
    char name[32];
    int first;

    if (n < 2 || n > FGM_PUZZLE_MAXN)
        return NULL;
    snprintf(name, sizeof name, "latin%d", n);
    return grid_ir(name, n, &first);
}

fgm_ir *
fgm_ir_robust(const fgm_ir *src)
{
    return src ? fgm_ep_robust_ir(src) : NULL;
}
