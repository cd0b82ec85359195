/* runtime/ops/dirichlet_gated.h: "x ~ Discrete(p[g])", a draw whose prior
 * a variable picks (EP and BP).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 *
 * The factor is f(x, g, p_0..p_{G-1}) = p_g(x): a mixture's component, an
 * HMM's transition, a Bayesian network's conditional table.  With each
 * node p_j replaced by its mean m_j (the cavity's under EP, the prior's
 * under BP or when the node is observed as a point mass), it is the table
 * T(x, g) = m_g(x), and the messages to x and g are that table's.
 *
 * EP's message to node p_j projects the tilted distribution
 *   (1 - r_j) Dir(a_j) + r_j sum_x w_j(x) Dir(a_j + e_x),
 * with a_j p_j's cavity (sum A_j), r_j = q_g(j) z_j / sum_i q_g(i) z_i the
 * probability that the draw came from p_j (z_j = sum_x q_x(x) m_j(x), q
 * the cavities of x and g) and w_j(x) ~ q_x(x) a_j(x):
 *   mean (MEAN_SQUARE 0): the mixture's mean, with the expected total
 *     A_j + r_j: a' = a_j + w_j when r_j = 1 (the ungated operator,
 *     runtime/ops/dirichlet.h), a_j when r_j = 0;
 *   mean and mean square (MEAN_SQUARE 1): the mixture's first two
 *     moments, matched as in runtime/ops/dirichlet.h.
 * A uniform cavity of x leaves the tilted distribution Dir(a_j) exactly
 * (sum_x m_j(x) Dir(a_j + e_x) = Dir(a_j)): no pseudo-counts, as the
 * ungated operator.
 */
#ifndef FGM_OPS_DIRICHLET_GATED_H
#define FGM_OPS_DIRICHLET_GATED_H

#include "common.h"
#include "dirichlet.h"
#include "table.h"

/* Doubles of scratch the operator needs for a gate of G values. */
static inline long
fgm_k_dirichlet_gated_scratch(int g, int stride)
{
    return (long)(g + 5) * stride;
}

/* Whether the K entries of Q are equal, to FGM_K_DIRICHLET_FLAT_TOL of
 * the largest (fgm_k_dirichlet_flat on scalars). */
static inline int
fgm_k_gated_flat(const double *q, int k)
{
    double lo = q[0], hi = q[0];
    int i;

    for (i = 1; i < k; i++) {
        lo = q[i] < lo ? q[i] : lo;
        hi = q[i] > hi ? q[i] : hi;
    }
    return hi - lo <= FGM_K_DIRICHLET_FLAT_TOL * hi;
}

/* Node D's new pseudo-counts from its cavity CAV (K entries, sum A): the
 * projection of (1 - R) Dir(CAV) + R sum_x W(x) Dir(CAV + e_x) (W
 * normalized), written to POST with the message POST - CAV into MSG. */
static inline void
fgm_k_gated_project(double *post, double *msg, const double *cav,
                    const double *w, double a, double r, int k,
                    int mean_square)
{
    double mean[FGM_K_MAXCARD], m2 = 0.0, sm2 = 0.0, s = a + r;
    int i;

    for (i = 0; i < k; i++)
        mean[i] = (1.0 - r) * cav[i] / a + r * (cav[i] + w[i]) / (a + 1.0);
    if (mean_square) {
        for (i = 0; i < k; i++) {
            double c1 = cav[i] + 1.0;

            m2 += (1.0 - r) * cav[i] * c1 / (a * (a + 1.0))
                  + r * (cav[i] * c1 + 2.0 * w[i] * c1)
                    / ((a + 1.0) * (a + 2.0));
            sm2 += mean[i] * mean[i];
        }
        if (m2 - sm2 > 0.0)
            s = (1.0 - m2) / (m2 - sm2);
    }
    for (i = 0; i < k; i++) {
        post[i] = s * mean[i];
        msg[i] = post[i] - cav[i];
    }
}

/* Update of "x ~ Discrete(p[g])": X and GATE the variables (edges E and
 * E + 1, KX and KG values), gate value j picking Dirichlet node D0 + j,
 * whose message rows are G0 + j of st->dir_msg.  EP: whether the nodes
 * learn (else their prior means stand); MAX_PRODUCT: bp-max's messages.
 * SCRATCH: fgm_k_dirichlet_gated_scratch doubles.  Returns the largest
 * message change. */
static inline double
fgm_k_dirichlet_gated(fgm_state *st, int e, int x, int gate, int d0, int g0,
                      int stride, int kx, int kg, int ep, int mean_square,
                      int max_product, double *scratch)
{
    double *cx = scratch, *cg = scratch + stride, *out = scratch + 2L * stride;
    double *w = scratch + 3L * stride, *cav = scratch + 4L * stride;
    double *mean = scratch + 5L * stride;
    double *bx = st->belief + (long)x * stride;
    double *bg = st->belief + (long)gate * stride;
    double z, zsum = 0.0, a, change, c;
    int i, j, learn;

    fgm_k_cavity(cx, bx, st->msg + (long)e * stride, kx);
    fgm_k_cavity(cg, bg, st->msg + (long)(e + 1) * stride, kg);
    /* Each node's mean (its cavity's, or its prior's), into row j of
     * MEAN; z_j (x's cavity against it) into OUT. */
    for (j = 0; j < kg; j++) {
        const double *post = st->dir_post + (long)(d0 + j) * stride;
        const double *mp = st->dir_msg + (long)(g0 + j) * stride;
        double *m = mean + (long)j * stride;

        learn = ep && !st->dir_point[d0 + j];
        for (i = 0; i < kx; i++)
            m[i] = learn ? post[i] - mp[i]
                         : st->dir_prior[(long)(d0 + j) * stride + i];
        for (i = 0; i < kx && learn; i++)
            m[i] = m[i] > 1e-12 ? m[i] : 1e-12;   /* as dirichlet.h */
        fgm_k_normalize(m, kx);
        for (i = 0, z = 0.0; i < kx; i++)
            z += cx[i] * m[i];
        out[j] = z;
        zsum += cg[j] * z;
    }
    /* The nodes first: their projections read the cavities' z_j. */
    for (j = 0; ep && zsum > 0.0 && j < kg; j++) {
        double *post = st->dir_post + (long)(d0 + j) * stride;
        double *mp = st->dir_msg + (long)(g0 + j) * stride;

        if (st->dir_point[d0 + j])
            continue;
        for (i = 0, a = 0.0; i < kx; i++) {
            cav[i] = post[i] - mp[i];
            cav[i] = cav[i] > 1e-12 ? cav[i] : 1e-12;
            a += cav[i];
            w[i] = cx[i] * cav[i];
        }
        if (fgm_k_gated_flat(cx, kx) || !(fgm_k_normalize(w, kx) > 0.0)) {
            for (i = 0; i < kx; i++) {
                post[i] = cav[i];
                mp[i] = 0.0;
            }
            continue;
        }
        fgm_k_gated_project(post, mp, cav, w, a, cg[j] * out[j] / zsum, kx,
                            mean_square);
    }
    /* To g: z_j (max-product: max_x q_x(x) m_j(x)). */
    for (j = 0; j < kg && max_product; j++)
        for (i = 0, out[j] = 0.0; i < kx; i++)
            if (cx[i] * mean[(long)j * stride + i] > out[j])
                out[j] = cx[i] * mean[(long)j * stride + i];
    change = fgm_k_commit(st->msg + (long)(e + 1) * stride, out, st->damping,
                          FGM_K_TABLE_FLOOR, kg);
    /* To x: sum_j q_g(j) m_j(x) (or the max). */
    for (i = 0; i < kx; i++) {
        for (j = 0, z = 0.0; j < kg; j++) {
            double t = cg[j] * mean[(long)j * stride + i];

            z = max_product ? (t > z ? t : z) : z + t;
        }
        out[i] = z;
    }
    c = fgm_k_commit(st->msg + (long)e * stride, out, st->damping,
                     FGM_K_TABLE_FLOOR, kx);
    if (!st->parallel) {
        fgm_k_table_belief(st, bg, cg, e + 1, stride, kg);
        fgm_k_table_belief(st, bx, cx, e, stride, kx);
    }
    return c > change ? c : change;
}

#endif /* FGM_OPS_DIRICHLET_GATED_H */
