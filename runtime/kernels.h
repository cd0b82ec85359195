/* runtime/kernels.h: message arithmetic shared by the interpreter and plugins.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every number a run computes goes through the static inline functions of
 * runtime/ops/, one file per operator, whether the schedule is interpreted
 * (runtime/interp.c) or baked into generated C (compiler/codegen.c): same
 * operations in the same order, so compiled and interpreted marginals
 * agree to the last bit in practice and to 1e-12 by contract.  Generated
 * code calls them with constant sizes, which lets the C compiler unroll
 * and vectorize what the interpreter runs as generic loops.
 *
 *   ops/vec.h        four-lane vectors (AVX, or two SSE2/NEON halves)
 *   ops/common.h     normalizing, cavities, committing a message
 *   ops/seed.h       the seed's BP_EPS normalizations, in batches
 *   ops/neq.h        x != y
 *   ops/dirichlet.h  x ~ Discrete(p), p ~ Dirichlet
 *   ops/table.h      explicit potentials
 *   ops/alldiff.h    native arity-n alldiff: the factor update, with
 *   ops/alldiff_sum.h  its sum-product messages (subset DP) and
 *   ops/alldiff_max.h  its max-product messages (assignment, paths)
 *   ops/sum.h        sums of values in a range (partial-sum DP)
 *   ops/sweep.h      reset, belief refresh, damped variable-to-factor
 *   ops/gibbs.h      Gibbs sampling (no messages: draws and tallies)
 *   ops/vmp.h        variational message passing (mean field: q(x), q(p))
 *
 * Conventions: a message or belief is a vector of K doubles, normalized to
 * sum 1, stored with a stride padded to whole vector chunks.  Dead lanes
 * past K are zero in beliefs and unary vectors, finite and positive in
 * factor-to-variable messages (so belief / message is 0 there); readers
 * that need more mask them.  Factor-to-variable
 * messages are floored at FGM_K_FLOOR (a table's at FGM_K_TABLE_FLOOR)
 * so that a variable's cavity (belief / message) is always defined; a
 * hard zero still enters a belief through the unary message (clues,
 * evidence), which is never divided out.  A floored zero is outweighed
 * by other evidence stronger than 1 / floor (ops/common.h).
 * Damping mixes the new message with the previous one,
 * new = (1 - d) new + d old: both are normalized, so is the mix (the
 * scalar kernels still renormalize it; the vector ones do not).  The
 * seed's flooding BP (st->damp_v2f) keeps the seed's own arithmetic: its
 * messages floored at FGM_K_SEED_EPS and stored plus FGM_K_SEED_EPS, so
 * they sum to 1 + K FGM_K_SEED_EPS (ops/seed.h).
 *
 * Headers: <stdint.h> via plugin_abi.h, <math.h> for the alldiff
 * max-product messages (log, exp) and the exact belief product (frexp,
 * ldexp: ops/sweep.h), <float.h> and <limits.h> for DBL_MIN and LONG_MIN,
 * and <string.h> for the alldiff cache (memcmp, memcpy); plugins are
 * linked with -lm (runtime/plugin.c) and call the same libm as the
 * interpreter.  Nothing else.  fgm carries this file,
 * its ops/ headers inlined, and plugin_abi.h as text (tools/kernel_text.c,
 * runtime/kernel_text.h) and writes them next to each plugin's C source;
 * `make install` copies them to PREFIX/include/fgm only for C compiled by
 * hand (fgm compile --emit-c).
 */
#ifndef FGM_KERNELS_H
#define FGM_KERNELS_H

#include "ops/common.h"
#include "ops/seed.h"
#include "ops/neq.h"
#include "ops/dirichlet.h"
#include "ops/table.h"
#include "ops/dirichlet_gated.h"
#include "ops/alldiff.h"
#include "ops/sum.h"
#include "ops/sweep.h"
#include "ops/gibbs.h"
#include "ops/vmp.h"

#endif /* FGM_KERNELS_H */
