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

/* One message of a two-variable table, into edge E of a variable of
 * belief B and cavity CAV (NOUT values): entry r is the sum (or max) over
 * c = 0..NIN-1, in that order, of POT[r RS + c CS] times OTHER[c], the
 * other variable's cavity, as fgm_k_table forms it; then committed and,
 * in a sequential sweep, the belief rebuilt.  OUT: NOUT doubles of
 * scratch.  Returns the message's largest change. */
static inline double
fgm_k_table2_send(fgm_state *st, int e, double *b, const double *cav,
                  const double *other, const double *pot, int nout, int nin,
                  int rs, int cs, int stride, int max_product, double *out)
{
    double w, c;
    int r, k;

    for (r = 0; r < nout; r++) {
        out[r] = 0.0;
        for (k = 0; k < nin; k++) {
            w = pot[r * rs + k * cs];
            if (w != 0.0)
                w *= other[k];
            if (!max_product)
                out[r] += w;
            else if (w > out[r])
                out[r] = w;
        }
    }
    c = fgm_k_commit(st->msg + (long)e * stride, out, st->damping,
                     FGM_K_TABLE_FLOOR, nout);
    if (!st->parallel)
        fgm_k_table_belief(st, b, cav, e, stride, nout);
    return c;
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
    double *out = scratch + 2L * stride, ca, cb;
    double *ba = st->belief + (long)a * stride;
    double *bb = st->belief + (long)b * stride;

    fgm_k_cavity(cava, ba, st->msg + (long)e0 * stride, ka);
    fgm_k_cavity(cavb, bb, st->msg + (long)(e0 + 1) * stride, kb);
    /* To A: row i of POT against B's cavity; to B: column j against
     * A's, summed down the rows. */
    ca = fgm_k_table2_send(st, e0, ba, cava, cavb, pot, ka, kb, kb, 1,
                           stride, max_product, out);
    cb = fgm_k_table2_send(st, e0 + 1, bb, cavb, cava, pot, kb, ka, 1, kb,
                           stride, max_product, out);
    return cb > ca ? cb : ca;
}

#endif /* FGM_OPS_TABLE_H */
