/* runtime/ops/common.h: normalizing, cavities and committing messages.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 */
#ifndef FGM_OPS_COMMON_H
#define FGM_OPS_COMMON_H

#include "../plugin_abi.h"

#define FGM_K_FLOOR 1e-30
/* The floor of a table's messages.  A table writes hard zeros (a
 * deterministic CPT) that other evidence must not outweigh: at 1e-30,
 * twelve features of odds 999 (1e36) made a value the table rules out
 * the likelier one on a tree.  The cavities of the `!=` and alldiff
 * operators keep FGM_K_FLOOR, to which Sudoku's numbers are tuned.
 * Low enough for evidence up to 1e290; high enough that a message times
 * a normalized cavity (a value >= 1/K) stays normal, and that 1 / (a
 * sum of such) stays finite. */
#define FGM_K_TABLE_FLOOR 1e-290
/* The seed's BP_EPS (notebook 001): its flooding BP floors every
 * normalized message at it and adds it to every message and evidence
 * entry inside its logs (ops/seed.h). */
#define FGM_K_SEED_EPS 1e-12
#define FGM_K_MAXCARD 64    /* = FGM_IR_MAXCARD: largest domain */

#include "vec.h"

/* Normalizes X[0..K-1] to sum 1; a zero (or non-positive) sum becomes the
 * uniform vector.  Returns the sum before normalizing. */
static inline double
fgm_k_normalize(double *x, int k)
{
    double s = 0.0, inv;
    int i;

    for (i = 0; i < k; i++)
        s += x[i];
    if (!(s > 0.0)) {
        for (i = 0; i < k; i++)
            x[i] = 1.0 / k;
        return s;
    }
    inv = 1.0 / s;
    for (i = 0; i < k; i++)
        x[i] *= inv;
    return s;
}

/* OUT = normalize(BELIEF / MSG): the variable's belief without this edge's
 * message (the EP cavity, the BP variable-to-factor message). */
static inline void
fgm_k_cavity(double *out, const double *belief, const double *msg, int k)
{
    int i;

    for (i = 0; i < k; i++)
        out[i] = belief[i] / msg[i];
    fgm_k_normalize(out, k);
}

/* Installs NEWM (K values, normalized here) as the message in MSG, damped
 * toward the old value by D and floored at FLOOR (FGM_K_FLOOR, or a
 * table's FGM_K_TABLE_FLOOR).  Returns the largest absolute change of an
 * entry. */
static inline double
fgm_k_commit(double *msg, double *newm, double d, double floor, int k)
{
    double change = 0.0, diff;
    int i;

    fgm_k_normalize(newm, k);
    if (d > 0.0) {
        for (i = 0; i < k; i++)
            newm[i] = (1.0 - d) * newm[i] + d * msg[i];
        fgm_k_normalize(newm, k);
    }
    for (i = 0; i < k; i++) {
        if (newm[i] < floor)
            newm[i] = floor;
        diff = newm[i] - msg[i];
        if (diff < 0.0)
            diff = -diff;
        if (diff > change)
            change = diff;
        msg[i] = newm[i];
    }
    return change;
}

/* The cavities belief / message of one chunk of two edges' messages MA
 * and MB, out of beliefs BA and BB (one variable's belief twice in the
 * flooding sweep's v2f step, runtime/ops/sweep.h), from one division of
 * the messages' product:
 * with d = 1 / (MA MB), *RA = BA (MB d) and *RB = BB (MA d).  Where the
 * divider bounds a sweep, half the divisions pay for the four
 * multiplications.  Two roundings more than BA / MA: the messages of
 * x != y and alldiff factors lie in [FGM_K_FLOOR, 1], so MA MB is at
 * least 1e-60 and MB d is 1 / MA within rounding.  Tables' and sums'
 * messages come here too (the flooding sweep's v2f step, which
 * bp-decimate runs on any model), floored at FGM_K_TABLE_FLOOR: in dead
 * lanes their product underflows to 0 and the lane's NaN is dropped by
 * the callers' fgm_v_keep; live ones stayed normal numbers in the runs
 * looked at (a 4x4 Futoshiki of 0/1 tables, bp-decimate with 20,000
 * sweeps: products down to 1e-299, no NaN in a stored message,
 * 2026-12-07), not a bound. */
FGM_K_HOT void
fgm_k_cavities2(fgm_v4 ba, fgm_v4 ma, fgm_v4 bb, fgm_v4 mb, fgm_v4 *ra,
                fgm_v4 *rb)
{
    fgm_v4 d = fgm_v_div(fgm_v_splat(1.0), fgm_v_mul(ma, mb));

    *ra = fgm_v_mul(ba, fgm_v_mul(mb, d));
    *rb = fgm_v_mul(bb, fgm_v_mul(ma, d));
}

/* BELIEF = normalize(CAV * MSG): the belief after a message update. */
static inline void
fgm_k_belief(double *belief, const double *cav, const double *msg, int k)
{
    int i;

    for (i = 0; i < k; i++)
        belief[i] = cav[i] * msg[i];
    fgm_k_normalize(belief, k);
}

/* Installs the NC chunks of NEWM (normalized, dead lanes zero) as the
 * message MSG: damped toward the old value by D (no renormalizing: see
 * runtime/kernels.h), floored at FGM_K_FLOOR.  Returns the largest
 * change of a live entry when TRACK is set, else 0. */
FGM_K_HOT double
fgm_v_commit(double *msg, fgm_v4 *newm, double d, int nc, int k, int track)
{
    fgm_v4 change = fgm_v_zero(), x, old;
    int c;

    if (d > 0.0) {
        for (c = 0; c < nc; c++) {
            old = fgm_v_keep(fgm_v_load(msg + c * FGM_K_LANES),
                             fgm_v_live(c, k));
            newm[c] = fgm_v_add(fgm_v_mul(fgm_v_splat(1.0 - d), newm[c]),
                                fgm_v_mul(fgm_v_splat(d), old));
        }
    }
    for (c = 0; c < nc; c++) {
        x = fgm_v_floor(newm[c], FGM_K_FLOOR);
        if (track) {
            old = fgm_v_load(msg + c * FGM_K_LANES);
            change = fgm_v_max(fgm_v_keep(fgm_v_abs(fgm_v_sub(x, old)),
                                          fgm_v_live(c, k)), change);
        }
        fgm_v_store(msg + c * FGM_K_LANES, x);
        newm[c] = x;
    }
    return fgm_v_hmax(change);
}

#endif /* FGM_OPS_COMMON_H */
