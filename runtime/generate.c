/* runtime/generate.c: random Sudoku puzzles with a unique solution.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Step 1, a random full grid: the BOX diagonal boxes share no row, column or
 * box, so each is filled with an independent random permutation; the rest is
 * completed by a search that takes the empty cell with the fewest candidates
 * and tries its candidates in a random order.  A search that exceeds its node
 * budget starts again from new diagonal boxes (rare; it keeps 25x25 fast).
 *
 * Step 2, digging holes: cells are visited in a random order
 * (gsl_ran_shuffle) and a clue is removed when the puzzle without it still
 * has exactly one solution, counted by Dancing Links with a cap of 2
 * (runtime/exact/dlx.c; one workspace reused for every check).  A check
 * that runs out of budget keeps its clue, so uniqueness never rests on a
 * guess.  This is the usual "dig holes from a full grid" method; one pass
 * gives a puzzle that is minimal for the visiting order when no check gave
 * up and no clue target stopped it early.  fgm_generate_puzzle, the public
 * entry, draws from an mt19937 of its own seeded by its caller.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include "generate.h"
#include "ir.h"
#include "exact/dlx.h"

/* One open node of the grid search: the cell it fills, its candidates
 * in the order they are tried, and how many of them were placed. */
typedef struct level {
    int cell, nv, k;
    int vals[FGM_PUZZLE_MAXN];
} level;

/* The grid search of step 1.  Masks hold the values used in each row,
 * column and box: bit a-1 for value a. */
typedef struct filler {
    int box, n;
    int *grid;          /* n*n, 0 empty */
    uint32_t row[FGM_PUZZLE_MAXN], col[FGM_PUZZLE_MAXN];
    uint32_t blk[FGM_PUZZLE_MAXN];
    level *levels;      /* n*n: the search's open nodes, root first */
    gsl_rng *rng;
    long nodes, budget;
} filler;

/* Default DLX node budget per uniqueness check, by box side (0: none).
 * Generous enough that 4x4 and 9x9 checks never give up. */
static const long default_check_nodes[6] = { 0, 0, 0, 1000000, 20000, 1000 };

static int
blk_of(const filler *f, int i)
{
    return fgm_box_of(i / f->n, i % f->n, f->box);
}

static void
put(filler *f, int i, int a)
{
    uint32_t bit = (uint32_t)1 << (a - 1);

    f->grid[i] = a;
    f->row[i / f->n] |= bit;
    f->col[i % f->n] |= bit;
    f->blk[blk_of(f, i)] |= bit;
}

static void
take(filler *f, int i)
{
    uint32_t bit = ~((uint32_t)1 << (f->grid[i] - 1));

    f->row[i / f->n] &= bit;
    f->col[i % f->n] &= bit;
    f->blk[blk_of(f, i)] &= bit;
    f->grid[i] = 0;
}

/* Opens the node at L: picks the empty cell with the fewest candidates
 * and shuffles them into L.  Returns 1 when the grid is full, 0 at a dead
 * end (a cell without candidates), 2 with L to try. */
static int
open_level(filler *f, level *l)
{
    uint32_t all = ((uint32_t)1 << f->n) - 1;  /* n <= 25 */
    uint32_t cand = 0;
    int i, best = -1, min = f->n + 1;

    for (i = 0; i < f->n * f->n; i++) {
        uint32_t m;
        int c;

        if (f->grid[i])
            continue;
        m = all & ~(f->row[i / f->n] | f->col[i % f->n] | f->blk[blk_of(f, i)]);
        c = __builtin_popcount(m);
        if (c < min) {
            min = c;
            best = i;
            cand = m;
            if (c <= 1)
                break;
        }
    }
    if (best < 0)
        return 1;
    if (min == 0)
        return 0;
    l->cell = best;
    l->nv = l->k = 0;
    for (; cand; cand &= cand - 1)
        l->vals[l->nv++] = __builtin_ctz(cand) + 1;
    gsl_ran_shuffle(f->rng, l->vals, (size_t)l->nv, sizeof *l->vals);
    return 2;
}

/* complete := full | pick the empty cell with fewest candidates; for each
 *             candidate in random order: place, complete, remove.
 * Returns 1 when the grid is full, 0 at a dead end, -1 over budget.
 * The open nodes are kept in f->levels, not on the C stack: a 25x25 grid
 * leaves 500 cells to fill, and the recursion that many frames deep
 * overflowed a 100 KiB stack (ulimit -s 100). */
static int
complete(filler *f)
{
    level *l;
    int depth = 0;

    for (;;) {
        if (++f->nodes > f->budget)
            return -1;
        switch (open_level(f, &f->levels[depth])) {
        case 1:
            return 1;
        case 2:
            depth++;
            break;
        default:
            break;
        }
        /* The next candidate of the deepest node with one left, the
         * nodes that have none closed on the way up. */
        for (;;) {
            if (depth == 0)
                return 0;
            l = &f->levels[depth - 1];
            if (l->k > 0)
                take(f, l->cell);
            if (l->k < l->nv) {
                put(f, l->cell, l->vals[l->k++]);
                break;
            }
            depth--;
        }
    }
}

/* Fills F->grid (n*n) with a random full grid, counting the fresh starts
 * in *RESTARTS.  Returns FGM_OK, or FGM_ETIMEOUT when DEADLINE (0: none)
 * passed first. */
static fgm_status
fill_grid(filler *f, double deadline, int *restarts)
{
    int perm[FGM_PUZZLE_MAXN], b, k, n = f->n;

    for (;;) {
        memset(f->grid, 0, (size_t)n * (size_t)n * sizeof *f->grid);
        memset(f->row, 0, sizeof f->row);
        memset(f->col, 0, sizeof f->col);
        memset(f->blk, 0, sizeof f->blk);
        for (b = 0; b < f->box; b++) {
            for (k = 0; k < n; k++)
                perm[k] = k + 1;
            gsl_ran_shuffle(f->rng, perm, (size_t)n, sizeof *perm);
            for (k = 0; k < n; k++)
                put(f, (b * f->box + k / f->box) * n + b * f->box
                           + k % f->box, perm[k]);
        }
        f->nodes = 0;
        if (complete(f) == 1)
            return FGM_OK;
        if (deadline > 0 && fgm_now() > deadline)
            return FGM_ETIMEOUT;
        (*restarts)++;
    }
}

fgm_status
fgm_generate(int box, gsl_rng *rng, int *cells, const fgm_generate_opts *opts,
             fgm_generate_stats *stats)
{
    static const fgm_generate_opts defaults;
    fgm_generate_stats local;
    fgm_generate_stats *st = stats ? stats : &local;
    double t0 = fgm_now(), total_end;
    int n = box * box, ncells = n * n, i, clues;
    int *grid = NULL, *order = NULL, *given = NULL;
    fgm_ir *ir = NULL;
    fgm_csp *csp = NULL;
    fgm_dlx *dlx = NULL;
    fgm_dlx_limits lim;
    fgm_status status;
    filler f;

    memset(st, 0, sizeof *st);
    memset(&f, 0, sizeof f);
    if (box < 2 || box > 5 || !rng || !cells)
        return FGM_EINVAL;
    if (!opts)
        opts = &defaults;
    total_end = opts->total_ms > 0 ? t0 + opts->total_ms * 1e-3 : 0;
    status = FGM_ENOMEM;
    grid = malloc((size_t)ncells * sizeof *grid);
    f.levels = malloc((size_t)ncells * sizeof *f.levels);
    order = malloc((size_t)ncells * sizeof *order);
    given = malloc((size_t)ncells * sizeof *given);
    ir = fgm_ir_sudoku(box);
    if (!grid || !f.levels || !order || !given || !ir)
        goto done;
    csp = fgm_csp_new(ir, &status);
    if (!csp)
        goto done;
    dlx = fgm_dlx_new(csp, &status);
    if (!dlx)
        goto done;

    /* Step 1: the full grid. */
    f.box = box;
    f.n = n;
    f.grid = grid;
    f.rng = rng;
    f.budget = 20L * ncells;
    status = fill_grid(&f, total_end, &st->fill_restarts);
    if (status != FGM_OK)
        goto done;
    for (i = 0; i < ncells; i++) {
        st->solution[i] = grid[i];
        given[i] = grid[i] - 1;
        order[i] = i;
    }

    /* Step 2: dig holes while the solution stays unique. */
    gsl_ran_shuffle(rng, order, (size_t)ncells, sizeof *order);
    lim.cap = 2;
    lim.max_nodes = opts->check_nodes != 0 ? opts->check_nodes
                                           : default_check_nodes[box];
    clues = ncells;
    for (i = 0; i < ncells; i++) {
        int c = order[i];
        long count, nodes;
        fgm_status cs;

        if (opts->min_clues > 0 && clues <= opts->min_clues)
            break;
        if (total_end > 0 && fgm_now() > total_end)
            break;
        given[c] = -1;
        lim.deadline = opts->check_ms > 0 ? fgm_now() + opts->check_ms * 1e-3
                                          : 0;
        cs = fgm_dlx_run(dlx, given, &lim, &count, NULL, NULL, &nodes);
        st->checks++;
        st->nodes += nodes;
        if (cs == FGM_OK && count == 1) {
            clues--;
        } else {
            given[c] = grid[c] - 1;
            if (cs == FGM_ETIMEOUT)
                st->gave_up++;
        }
    }
    for (i = 0; i < ncells; i++)
        cells[i] = given[i] + 1;
    st->clues = clues;
    status = FGM_OK;
done:
    fgm_dlx_free(dlx);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
    free(grid);
    free(f.levels);
    free(order);
    free(given);
    st->ms = (fgm_now() - t0) * 1e3;
    return status;
}

fgm_status
fgm_generate_puzzle(int box, unsigned long seed, const fgm_generate_opts *opts,
                    fgm_puzzle *out, fgm_generate_stats *stats)
{
    int cells[FGM_PUZZLE_MAXCELLS], i;
    gsl_rng *rng;
    fgm_status st;

    if (box < 2 || box > 5 || !out
        || (opts && (isnan(opts->check_ms) || isnan(opts->total_ms))))
        return FGM_EINVAL;
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return FGM_ENOMEM;
    gsl_rng_set(rng, seed);
    st = fgm_generate(box, rng, cells, opts, stats);
    gsl_rng_free(rng);
    if (st != FGM_OK)
        return st;
    memset(out, 0, sizeof *out);
    out->n = box * box;
    out->box = box;
    out->empty = '.';
    for (i = 0; i < out->n * out->n; i++)
        out->cells[i] = (unsigned char)cells[i];
    return FGM_OK;
}
