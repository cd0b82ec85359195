/* runtime/ops/dirichlet_gated.h: "x ~ Discrete(p[g])", a draw whose prior
 * a variable picks (EP and BP).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 *
 * The factor is f(x, g, p_0..p_{G-1}) = p_g(x): a mixture's component, an
 * HMM's transition, a Bayesian network's conditional table.  With several
 * gates, g is their joint value, one node per combination.  With each
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
 *     A_j + r_j: a' = a_j + w_j when r_j = 1 (what the ungated operator,
 *     runtime/ops/dirichlet.h, did until 2026-12-07; it now keeps the
 *     least likely value's count instead, as Infer.NET does, so a sure
 *     gate no longer gives the ungated update), a_j when r_j = 0;
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

/* Most gates of one draw (a prior's dimensions). */
#define FGM_K_GATED_MAXGATES 4

/* Doubles of scratch the operator needs for M gates picking among J
 * nodes. */
static inline long
fgm_k_dirichlet_gated_scratch(int m, int j, int stride)
{
    return (long)(m + 4) * stride + 2L * j + (long)j * stride;
}

/* Whether the K entries of Q are equal, to FGM_K_DIRICHLET_FLAT_TOL of
 * the largest: the ungated operator's test (fgm_k_dirichlet_range in
 * runtime/ops/dirichlet.h) on scalars (loaded into vectors for it, GCC
 * 12 took the unread lanes for uninitialized: -Werror). */
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
    int i, hot = 0;

    /* A node the gate cannot pick (R 0: its cavity is the mixture), or
     * picks for an observed x (R 1, W one value's: Dir(CAV + e_x)), keeps
     * the mixture as it is under either projection; the mean-square
     * moments would return it up to their cancellation only, which moved
     * a node no draw picks (Dir(1e-11, 1e-11, 330) to (8.2e-12, 8.2e-12,
     * 272)). */
    for (i = 0; i < k; i++)
        hot += w[i] != 0.0;
    if (r == 0.0 || (r == 1.0 && hot == 1)) {
        for (i = 0; i < k; i++) {
            post[i] = cav[i] + r * w[i];
            msg[i] = r * w[i];
        }
        return;
    }
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

/* The weight of the joint gate value whose digits (one per gate, of M)
 * are DIG, from each gate's row in GCAV, leaving gate SKIP out (-1:
 * none): the product of their cavities at those digits. */
FGM_K_HOT double
fgm_k_gated_weight(const double *gcav, const int *dig, int m, int skip,
                   int stride)
{
    double p = 1.0;
    int i;

    for (i = 0; i < m; i++)
        if (i != skip)
            p *= gcav[(long)i * stride + dig[i]];
    return p;
}

/* The next joint value's digits in DIG (row-major over CARDS, M gates):
 * an odometer, so that no value is divided into its digits. */
FGM_K_HOT void
fgm_k_gated_next(int *dig, const int *cards, int m)
{
    int i;

    for (i = m - 1; i >= 0 && ++dig[i] == cards[i]; i--)
        dig[i] = 0;
}

/* Update of "x ~ Discrete(p[g1]...[gm])": VARS[0] = x and VARS[1..M] the
 * gates (edges E..E + M), ARITY = M + 1; their domain sizes CARD[v] (or
 * K for all when CARD is NULL).  The gates' joint value J (row-major)
 * picks Dirichlet node D0 + J, whose message row is G0 + J of
 * st->dir_msg.  EP: whether the nodes learn (else their prior means
 * stand); MAX_PRODUCT: bp-max's messages.  SCRATCH:
 * fgm_k_dirichlet_gated_scratch doubles.  The joint gate's cavity is
 * the product of the gates' (they are distinct variables), and each
 * gate's message sums (or maximizes) the others out.  Returns the
 * largest message change. */
static inline double
fgm_k_dirichlet_gated(fgm_state *st, int e, const int *vars, int arity,
                      int d0, int g0, int stride, const int *card, int k,
                      int ep, int mean_square, int max_product,
                      double *scratch)
{
    int m = arity - 1, cards[FGM_K_GATED_MAXGATES], i, j, g, nj = 1, kx;
    int dig[FGM_K_GATED_MAXGATES];
    double *cx = scratch, *gcav = scratch + stride;
    double *out = gcav + (long)m * stride, *w = out + stride;
    double *cav = w + stride, *cj = cav + stride, *zj, *mean;
    double *bx = st->belief + (long)vars[0] * stride;
    double z, zsum = 0.0, a, change = 0.0, c, t;
    int learn, flat;

    kx = card ? card[vars[0]] : k;
    for (g = 0; g < m; g++) {
        cards[g] = card ? card[vars[1 + g]] : k;
        nj *= cards[g];
        dig[g] = 0;
    }
    zj = cj + nj;
    mean = zj + nj;
    fgm_k_cavity(cx, bx, st->msg + (long)e * stride, kx);
    for (g = 0; g < m; g++)
        fgm_k_cavity(gcav + (long)g * stride,
                     st->belief + (long)vars[1 + g] * stride,
                     st->msg + (long)(e + 1 + g) * stride, cards[g]);
    /* Each node's mean (its cavity's, or its prior's), into row j of
     * MEAN; z_j (x's cavity against it) into ZJ, the joint cavity into
     * CJ. */
    for (j = 0; j < nj; j++) {
        const double *post = st->dir_post + (long)(d0 + j) * stride;
        const double *mp = st->dir_msg + (long)(g0 + j) * stride;
        double *mj = mean + (long)j * stride;

        learn = ep && !st->dir_point[d0 + j];
        for (i = 0; i < kx; i++)
            mj[i] = learn ? post[i] - mp[i]
                          : st->dir_prior[(long)(d0 + j) * stride + i];
        for (i = 0; i < kx && learn; i++)
            mj[i] = mj[i] > 1e-12 ? mj[i] : 1e-12;  /* as dirichlet.h */
        fgm_k_normalize(mj, kx);
        for (i = 0, z = 0.0; i < kx; i++)
            z += cx[i] * mj[i];
        zj[j] = z;
        cj[j] = fgm_k_gated_weight(gcav, dig, m, -1, stride);
        zsum += cj[j] * z;
        fgm_k_gated_next(dig, cards, m);
    }
    /* The nodes first: their projections read the cavities' z_j.  A
     * uniform cavity of x leaves each node as it is. */
    flat = ep && zsum > 0.0 && fgm_k_gated_flat(cx, kx);
    for (j = 0; ep && zsum > 0.0 && j < nj; j++) {
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
        if (flat || !(fgm_k_normalize(w, kx) > 0.0)) {
            for (i = 0; i < kx; i++) {
                post[i] = cav[i];
                mp[i] = 0.0;
            }
            continue;
        }
        fgm_k_gated_project(post, mp, cav, w, a, cj[j] * zj[j] / zsum, kx,
                            mean_square);
    }
    /* Max-product: z_j becomes max_x q_x(x) m_j(x). */
    for (j = 0; j < nj && max_product; j++)
        for (i = 0, zj[j] = 0.0; i < kx; i++)
            if (cx[i] * mean[(long)j * stride + i] > zj[j])
                zj[j] = cx[i] * mean[(long)j * stride + i];
    /* To gate g: z_j times the other gates' cavities, summed (or
     * maximized) over the joint values with its own digit v. */
    for (g = 0; g < m; g++) {
        for (i = 0; i < cards[g]; i++)
            out[i] = 0.0;
        for (j = 0; j < nj; j++) {      /* DIG went round to 0 */
            i = dig[g];
            t = zj[j] * fgm_k_gated_weight(gcav, dig, m, g, stride);
            out[i] = max_product ? (t > out[i] ? t : out[i]) : out[i] + t;
            fgm_k_gated_next(dig, cards, m);
        }
        c = fgm_k_commit(st->msg + (long)(e + 1 + g) * stride, out,
                         st->damping, FGM_K_TABLE_FLOOR, cards[g]);
        change = c > change ? c : change;
    }
    /* To x: sum_j cj m_j(x) (or the max). */
    for (i = 0; i < kx; i++) {
        for (j = 0, z = 0.0; j < nj; j++) {
            t = cj[j] * mean[(long)j * stride + i];
            z = max_product ? (t > z ? t : z) : z + t;
        }
        out[i] = z;
    }
    c = fgm_k_commit(st->msg + (long)e * stride, out, st->damping,
                     FGM_K_TABLE_FLOOR, kx);
    change = c > change ? c : change;
    if (!st->parallel) {
        for (g = 0; g < m; g++)
            fgm_k_table_belief(st, st->belief + (long)vars[1 + g] * stride,
                               gcav + (long)g * stride, e + 1 + g, stride,
                               cards[g]);
        fgm_k_table_belief(st, bx, cx, e, stride, kx);
    }
    return change;
}

#endif /* FGM_OPS_DIRICHLET_GATED_H */
