/* runtime/ops/table.h: the explicit-potential (table) operator.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 */
#ifndef FGM_OPS_TABLE_H
#define FGM_OPS_TABLE_H

#include <float.h>
#include "common.h"

#define FGM_K_TABLE_MAXARITY 16

/* After the message of edge E (a variable of belief B, cavity CAV, K
 * values) changed in a sequential sweep: the belief rebuilt, and a value
 * the belief lost to underflow flagged (fgm_state.lost). */
static inline void
fgm_k_table_belief(fgm_state *st, double *b, const double *cav, int e,
                   int stride, int k)
{
    int j;

    fgm_k_belief(b, cav, st->msg + (long)e * stride, k);
    /* A value of a normalized cavity times a message (>= the table
     * floor) that reached the doubles' bottom: lost, and no later update
     * in place brings it back (a hub with 244 strong messages gave its
     * neighbours messages from a belief with a value at 0).  The runtime
     * rebuilds every belief after this sweep (fgm_state.lost). */
    for (j = 0; j < k; j++)
        if (cav[j] > 0.0 && !(b[j] >= DBL_MIN))
            st->lost = 1;
}

/* Update of a table factor over ARITY variables VARS (edges E0..E0+ARITY-1,
 * domain sizes CARDS), potential POT in row-major order (last variable
 * fastest).  Every outgoing message is computed from the cavities taken
 * at the start: m_i(v) = sum (or max) over tuples with x_i = v of
 * pot(tuple) * prod_{j != i} cav_j(x_j).  Needs (ARITY + 1) * STRIDE
 * doubles of scratch.  Returns the largest message change. */
static inline double
fgm_k_table(fgm_state *st, int e0, const int *vars, const int *cards,
            int arity, const double *pot, int stride, int max_product,
            double *scratch)
{
    double *out = scratch + (long)arity * stride, change = 0.0, c, w;
    int idx[FGM_K_TABLE_MAXARITY], i, j, pos;

    for (i = 0; i < arity; i++)
        fgm_k_cavity(scratch + (long)i * stride,
                     st->belief + (long)vars[i] * stride,
                     st->msg + (long)(e0 + i) * stride, cards[i]);
    for (i = 0; i < arity; i++) {
        for (j = 0; j < cards[i]; j++)
            out[j] = 0.0;
        for (j = 0; j < arity; j++)
            idx[j] = 0;
        for (pos = 0;; pos++) {
            w = pot[pos];
            for (j = 0; j < arity && w != 0.0; j++)
                if (j != i)
                    w *= scratch[(long)j * stride + idx[j]];
            if (max_product) {
                if (w > out[idx[i]])
                    out[idx[i]] = w;
            } else {
                out[idx[i]] += w;
            }
            for (j = arity - 1; j >= 0; j--) {
                if (++idx[j] < cards[j])
                    break;
                idx[j] = 0;
            }
            if (j < 0)
                break;
        }
        c = fgm_k_commit(st->msg + (long)(e0 + i) * stride, out,
                         st->damping, FGM_K_TABLE_FLOOR, cards[i]);
        if (c > change)
            change = c;
        if (!st->parallel)
            fgm_k_table_belief(st, st->belief + (long)vars[i] * stride,
                               scratch + (long)i * stride, e0 + i, stride,
                               cards[i]);
    }
    return change;
}

/* fgm_k_table for ARITY 2: variables A, B (KA, KB values, edges E0 and
 * E0 + 1), POT a KA x KB row-major matrix.  The same operations in the
 * same order, so the same bits; without the general kernel's index
 * odometer and inner loop over the scope, a chain's 3x3 update ran in
 * half the time (the loops unroll where the plugin passes KA and KB as
 * constants). */
static inline double
fgm_k_table2(fgm_state *st, int e0, int a, int b, int ka, int kb,
             const double *pot, int stride, int max_product,
             double *scratch)
{
    double *cava = scratch, *cavb = scratch + stride;
    double *out = scratch + 2L * stride, change, c, w;
    double *ba = st->belief + (long)a * stride;
    double *bb = st->belief + (long)b * stride;
    int i, j;

    fgm_k_cavity(cava, ba, st->msg + (long)e0 * stride, ka);
    fgm_k_cavity(cavb, bb, st->msg + (long)(e0 + 1) * stride, kb);
    /* To A: row i of POT against B's cavity. */
    for (i = 0; i < ka; i++) {
        out[i] = 0.0;
        for (j = 0; j < kb; j++) {
            w = pot[i * kb + j];
            if (w != 0.0)
                w *= cavb[j];
            if (!max_product)
                out[i] += w;
            else if (w > out[i])
                out[i] = w;
        }
    }
    change = fgm_k_commit(st->msg + (long)e0 * stride, out, st->damping,
                          FGM_K_TABLE_FLOOR, ka);
    if (!st->parallel)
        fgm_k_table_belief(st, ba, cava, e0, stride, ka);
    /* To B: column j against A's cavity, summed down the rows. */
    for (j = 0; j < kb; j++)
        out[j] = 0.0;
    for (i = 0; i < ka; i++)
        for (j = 0; j < kb; j++) {
            w = pot[i * kb + j];
            if (w != 0.0)
                w *= cava[i];
            if (!max_product)
                out[j] += w;
            else if (w > out[j])
                out[j] = w;
        }
    c = fgm_k_commit(st->msg + (long)(e0 + 1) * stride, out, st->damping,
                     FGM_K_TABLE_FLOOR, kb);
    if (!st->parallel)
        fgm_k_table_belief(st, bb, cavb, e0 + 1, stride, kb);
    return c > change ? c : change;
}

#endif /* FGM_OPS_TABLE_H */
