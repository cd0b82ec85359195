/* runtime/evidence_vmp.c: the evidence lower bound of a vmp run.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For any q(x) q(p) (runtime/ops/vmp.h), log Z >= ELBO =
 *   sum_i [ log s_i + sum_x q_i(x) (log u_i(x) - log q_i(x)) ]
 *   + sum_a E_q[log f_a]                    (tables, !=, alldiff)
 *   + sum_p sum_x n_p(x) E[log p_x]         (the draws: n_p the
 *                                            expected counts at node p)
 *   + sum_p [ log B(alpha_p) - log B(a_p) + sum_x (a_px - alpha_px)
 *             E[log p_x] ]                  (- KL(q(p) || Dir(a_p)))
 * with u_i the normalized evidence row of variable i and s_i its scale
 * (fgm_model's unary_log), a_p a node's prior and alpha_p its q(p).  Z
 * is the exact backend's: the model's total weight, priors integrated
 * out.  Every run leaves each node at its best for the q(x), alpha_p =
 * a_p + n_p, where a node's two terms come to log B(a_p + n_p) -
 * log B(a_p): that is the form used, with no E[log p] of a zero entry
 * (-inf) times zero.  The bound is tight where q is the exact posterior
 * (every draw observed: the dice), and each vmp update raises it, so
 * that it never falls from one sweep to the next (tests/check_vmp.c
 * checks both).  A point-mass node (an observed prior) is a fixed
 * vector: its draws weigh log(a_x / sum a), with no KL term.  The terms
 * are summed under the sweeps' MXCSR (runtime/model.h), so that a
 * product of probabilities the sweeps flushed to zero is zero here too.
 */
#include <math.h>
#include "model.h"

/* sum_x q(x) (log u(x) - log q(x)) of variable V, plus its row's scale. */
static double
variable_term(const fgm_model *m, int v)
{
    size_t S = (size_t)m->sched->stride;
    const double *q = m->st.belief + (size_t)v * S;
    const double *u = m->st.unary + (size_t)v * S;
    double t = m->unary_log[v];
    int x;

    for (x = 0; x < m->sched->card[v]; x++)
        if (q[x] > 0.0)
            t += q[x] * (log(u[x]) - log(q[x]));
    return t;
}

/* E_q[log f] of a `!=` or alldiff factor (F's scope, N variables): 0,
 * or -inf when two of them may share a value. */
static double
distinct_term(const fgm_model *m, const fgm_sched_factor *f)
{
    size_t S = (size_t)m->sched->stride;
    const int *vars = m->sched->edge_var + f->edge;
    int i, j, x;

    for (i = 0; i < f->arity; i++)
        for (j = i + 1; j < f->arity; j++) {
            const double *a = m->st.belief + (size_t)vars[i] * S;
            const double *b = m->st.belief + (size_t)vars[j] * S;

            for (x = 0; x < m->sched->card[vars[i]]; x++)
                if (a[x] > 0.0 && b[x] > 0.0)
                    return -HUGE_VAL;
        }
    return 0.0;
}

/* E_q[log f] of table factor F: the kernel's expectation at the first
 * position, weighed by that variable's q. */
static double
table_term(const fgm_model *m, const fgm_sched_factor *f)
{
    const fgm_sched *s = m->sched;
    const int *gf = s->gibbs_fac + (size_t)(f - s->factors) * FGM_K_GIBBS_FAC;
    int v = s->edge_var[f->edge], k = s->card[v], x;
    const double *q = m->st.belief + (size_t)v * (size_t)s->stride;
    double e[FGM_K_MAXCARD], t = 0.0;

    for (x = 0; x < k; x++)
        e[x] = 0.0;
    fgm_k_vmp_expect(&m->st, &s->gibbs, gf, 0, e, k);
    for (x = 0; x < k; x++)
        if (q[x] > 0.0)
            t += q[x] * e[x];
    return t;
}

/* E_q[log f] of sum factor F: 0, or -inf when its variables may take
 * values whose sum leaves its range. */
static double
sum_term(const fgm_model *m, const fgm_sched_factor *f)
{
    const fgm_sched *s = m->sched;
    const int *gf = s->gibbs_fac + (size_t)(f - s->factors) * FGM_K_GIBBS_FAC;
    const double *range = s->ir->param_pool + f->aux;
    long lo, hi;

    fgm_k_vmp_sum_support(&m->st, &s->gibbs, gf, -1, &lo, &hi);
    return lo < (long)range[0] || hi > (long)range[1] ? -HUGE_VAL : 0.0;
}

/* Node D's draws and its - KL(q(p) || prior), at its best q(p) (alpha
 * = a + n): log B(a + n) - log B(a); or a point mass's draws, which
 * weigh log(a_x / sum a) (its E[log p]).  K its categories. */
static double
node_term(const fgm_model *m, int d, int k)
{
    size_t S = (size_t)m->sched->stride;
    const double *n = m->st.gcount + (size_t)d * S;
    const double *el = m->st.elog + (size_t)d * S;
    double t = 0.0;
    int x;

    if (!m->st.dir_point[d])
        return fgm_evidence_log_beta_ratio(m->st.dir_prior + (size_t)d * S,
                                           n, k);
    for (x = 0; x < k; x++)
        if (n[x] > 0.0)
            t += n[x] * el[x];
    return t;
}

fgm_status
fgm_evidence_vmp(const fgm_model *m, double *out)
{
    const fgm_sched *s = m->sched;
    const fgm_ir *ir = s->ir;
    double total = 0.0;
    int v, i, d;
#ifdef FGM_MXCSR_FTZ_DAZ
    unsigned csr = _mm_getcsr();

    _mm_setcsr(csr | FGM_MXCSR_FTZ_DAZ);
#endif

    for (v = 0; v < s->nvars; v++)
        total += variable_term(m, v);
    for (i = 0; i < s->nfactors && total > -HUGE_VAL; i++) {
        const fgm_sched_factor *f = &s->factors[i];

        if (f->op == FGM_OP_NEQ || f->op == FGM_OP_ALLDIFF)
            total += distinct_term(m, f);
        else if (f->op == FGM_OP_TABLE)
            total += table_term(m, f);
        else if (f->op == FGM_OP_SUM)
            total += sum_term(m, f);
    }
    for (d = 0; d < s->ndirichlet && total > -HUGE_VAL; d++)
        total += node_term(m, d, ir->arrays[ir->dir_array[d]].card);
#ifdef FGM_MXCSR_FTZ_DAZ
    _mm_setcsr(csr);
#endif
    *out = total;
    /* NaN would be a bug here, not a bound. */
    return isnan(total) ? FGM_EINTERNAL : FGM_OK;
}
