/* runtime/solve/alldiff_local.c: a plateau draw's weights, from sum-product sweeps over the supports around the cell.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "../model.h"
#include "alldiff_decimate.h"

/* weigh_row: the share of uniform mixed into each first-sweep message (a
 * damping of the first sweep). */
#define LOCAL_MIX 0.7

/* Orders the N rows (bit masks of values) for the sparse subset DP,
 * whose sets at step t are subsets of the union U of the first t rows'
 * values, at most C(|U|, t) of them: each next row the one that adds
 * the fewest values to U (ties: the one of fewer values, then the
 * earlier), so that U grows no faster than it must.  ORD (NULL: unused)
 * gets each new position's old index.  The DP's sums are the same
 * numbers in another order (counts: the same integers). */
static void
order_rows(unsigned long *rows, int *ord, int n)
{
    unsigned long in[FGM_IR_MAXCARD], u = 0;
    int from[FGM_IR_MAXCARD], i, j, best, best_new, best_size, fresh, size;

    for (i = 0; i < n; i++) {
        in[i] = rows[i];
        from[i] = ord ? ord[i] : i;
    }
    for (i = 0; i < n; i++) {
        best = -1;
        best_new = best_size = 0;
        for (j = 0; j < n; j++) {
            if (from[j] < 0)
                continue;
            size = fgm_dom_count(in[j]);
            fresh = fgm_dom_count(in[j] & ~u);
            if (best < 0 || fresh < best_new
                || (fresh == best_new && size < best_size)) {
                best = j;
                best_new = fresh;
                best_size = size;
            }
        }
        rows[i] = in[best];
        if (ord)
            ord[i] = from[best];
        u |= in[best];
        from[best] = -1;
    }
}

/* The values of unit F (scope SC, K values) that none of its fixed cells
 * holds: the mask of the held ones is returned, their KR free values go
 * to VALS in order (*KR), and COL (NULL: unused) maps each value to its
 * place in VALS, or -1 for a held one. */
static unsigned long long
unit_free_values(const fgm_ad_ws *w, const fgm_ir_factor *f, const int *sc,
                 int k, int *vals, int *col, int *kr)
{
    unsigned long long used = 0;
    int a, j;

    for (a = 0; a < f->arity; a++)
        if (w->value[sc[a]] >= 0)
            used |= 1ULL << w->value[sc[a]];
    for (*kr = 0, j = 0; j < k; j++) {
        if (col)
            col[j] = used >> j & 1 ? -1 : *kr;
        if (!(used >> j & 1))
            vals[(*kr)++] = j;
    }
    return used;
}

/* The first-sweep message of unit G to its scope position A (a free
 * cell): one sum-product update from cavities uniform over the supports
 * (a fixed cell its value), K values in w->m1, kept while the unit's
 * supports stay the same (cfg->local 2).  By one forward subset DP over
 * the unit's other free cells: the permanents of the minors of A's
 * row. */
static const double *
row_msg1(fgm_ad_ws *w, int g, int a)
{
    const fgm_ir *ir = w->csp->ir;
    const fgm_ir_factor *f = &ir->factors[g];
    const int *sc = fgm_ir_scope(ir, f);
    int k = w->csp->card[sc[0]], b, j, kr, nr, x, same = 1;
    int vals[FGM_IR_MAXCARD];
    unsigned long long sp, kv;
    unsigned long rows[FGM_IR_MAXCARD];
    double cnt[FGM_IR_MAXCARD];
    unsigned long long *key = w->m1_key + (size_t)g * k;
    double *m = w->m1 + ((size_t)g * k + a) * k;

    if (w->m1_at[g] != w->m1_now) {
        w->m1_at[g] = w->m1_now;
        for (b = 0; b < f->arity; b++) {
            x = sc[b];
            kv = w->value[x] >= 0
                 ? (1ULL << 63) | (unsigned long long)w->value[x]
                 : w->supp[x];
            same &= key[b] == kv;
            key[b] = kv;
        }
        if (!same)
            w->m1_ver[g]++;
    }
    if (w->m1_row[(size_t)g * k + a] == w->m1_ver[g])
        return m;
    w->m1_row[(size_t)g * k + a] = w->m1_ver[g];
    unit_free_values(w, f, sc, k, vals, NULL, &kr);
    nr = 0;
    for (b = 0; b < f->arity; b++) {
        x = sc[b];
        if (w->value[x] >= 0 || b == a)
            continue;
        sp = 0;
        for (j = 0; j < kr; j++)
            sp |= (w->supp[x] >> vals[j] & 1) << j;
        rows[nr++] = sp;
    }
    for (j = 0; j < k; j++)
        m[j] = 0.0;
    if (nr >= kr)
        return m;
    order_rows(rows, NULL, nr);
    fgm_k_alldiff_count_free(rows, nr, kr, cnt, w->fw, w->masks);
    for (j = 0; j < kr; j++)
        m[vals[j]] = cnt[j];
    return m;
}

/* The second sweep's cavity of free cell X toward unit U, on the KR
 * values VALS of U's free part, into ROW (which holds X's support there):
 * the product over X's other units of their first-sweep messages
 * (row_msg1), each normalized and mixed with LOCAL_MIX of uniform, then
 * scaled to a largest entry of 1. */
static void
weigh_row(fgm_ad_ws *w, int x, int u, double *row, const int *vals, int kr,
          int k)
{
    const fgm_ir *ir = w->csp->ir;
    const double *mm;
    const int *sc;
    double t, mx = 0.0;
    int i, a, b, j, g;

    for (i = w->unit_off[x]; i < w->unit_off[x + 1]; i++) {
        g = w->units[i];
        if (g == u)
            continue;
        sc = fgm_ir_scope(ir, &ir->factors[g]);
        for (a = 0; sc[a] != x; a++)
            ;
        mm = row_msg1(w, g, a);
        for (t = 0.0, j = 0; j < k; j++)
            t += mm[j];
        t = t > 0.0 ? (1.0 - LOCAL_MIX) / t : 0.0;
        for (b = 0; b < kr && t > 0.0; b++)
            row[b] *= LOCAL_MIX / k + t * mm[vals[b]];
    }
    for (b = 0; b < kr; b++)
        mx = row[b] > mx ? row[b] : mx;
    for (b = 0; mx > 0.0 && b < kr; b++)
        row[b] /= mx;
}

/* V's belief after one sum-product update of each of its alldiff factors
 * (cfg->local 1), into w->bel: the product over its units of the share
 * of each unit's perfect matchings that give V each value, every peer's
 * cavity uniform over its support (w->supp; a fixed cell its value).
 * With cfg->local 2, two sweeps: each free peer's cavity is its support
 * weighed by its other units' first-sweep messages (weigh_row).  A
 * unit's message to V alone, by the sparse DP over its other free cells
 * (fgm_k_alldiff_free_weight), as row_msg1 takes the first sweep's.
 * Returns 1, or 0 (w->bel not a belief) when the domains are too large
 * for the subset DP or no unit's matching is left. */
int
fgm_ad_local_belief(fgm_ad_ws *w, int v)
{
    const fgm_ir *ir = w->csp->ir;
    int k = w->csp->card[v], i, j, a, b, r, nr, kr, found, x;
    int vals[FGM_IR_MAXCARD], col[FGM_IR_MAXCARD], ord[FGM_IR_MAXCARD];
    int two = w->cfg->local == 2;
    double sum, *qr, cnt[FGM_IR_MAXCARD];
    unsigned long long used, sp;
    unsigned long rows[FGM_IR_MAXCARD], mask;

    if (!w->fw)
        return 0;
    if (two)
        w->m1_now++;
    for (j = 0; j < k; j++)
        w->bel[j] = (double)(w->supp[v] >> j & 1);
    for (i = w->unit_off[v]; i < w->unit_off[v + 1]; i++) {
        const fgm_ir_factor *f = &ir->factors[w->units[i]];
        const int *sc = fgm_ir_scope(ir, f);

        used = unit_free_values(w, f, sc, k, vals, col, &kr);
        /* The other free cells' rows in w->q, in arrival order; then
         * ORD orders them for the DP (order_rows). */
        nr = 0;
        found = 0;
        for (a = 0; a < f->arity; a++) {
            x = sc[a];
            if (w->value[x] >= 0)
                continue;
            if (x == v) {
                found = 1;
                continue;
            }
            sp = w->supp[x] & ~used;
            qr = w->q + nr * kr;
            for (b = 0; b < kr; b++)
                qr[b] = (double)(sp >> vals[b] & 1);
            if (two)
                weigh_row(w, x, w->units[i], qr, vals, kr, k);
            for (mask = 0, b = 0; b < kr; b++)
                mask |= (unsigned long)(qr[b] > 0.0) << b;
            rows[nr] = mask;
            ord[nr] = nr;
            nr++;
        }
        if (!found || nr + 1 > kr)
            continue;
        order_rows(rows, ord, nr);
        for (r = 0; r < nr; r++)
            for (b = 0; b < kr; b++)
                w->out[r * kr + b] = w->q[ord[r] * kr + b];
        fgm_k_alldiff_free_weight(rows, w->out, nr, kr, cnt, w->fw,
                                  w->masks);
        for (sum = 0.0, b = 0; b < kr; b++)
            sum += cnt[b];
        for (j = 0; j < k; j++)
            w->bel[j] *= col[j] >= 0 && sum > 0.0 ? cnt[col[j]] / sum : 0.0;
    }
    sum = 0.0;
    for (j = 0; j < k; j++)
        sum += w->bel[j];
    if (!(sum > 0.0))
        return 0;
    for (j = 0; j < k; j++)
        w->bel[j] /= sum;
    return 1;
}
