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
        if (!st->parallel) {
            double *b = st->belief + (long)vars[i] * stride;
            const double *cav = scratch + (long)i * stride;

            fgm_k_belief(b, cav, st->msg + (long)(e0 + i) * stride,
                         cards[i]);
            /* A value of a normalized cavity times a message (>= the
             * table floor) that reached the doubles' bottom: lost, and
             * no later update in place brings it back (a hub with 244
             * strong messages gave its neighbours messages from a
             * belief with a value at 0).  The runtime rebuilds every
             * belief after this sweep (fgm_state.lost). */
            for (j = 0; j < cards[i]; j++)
                if (cav[j] > 0.0 && !(b[j] >= DBL_MIN))
                    st->lost = 1;
        }
    }
    return change;
}

#endif /* FGM_OPS_TABLE_H */
