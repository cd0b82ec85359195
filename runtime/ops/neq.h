/* runtime/ops/neq.h: the x != y operator (sum- and max-product).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of the kernels shared by the interpreter and plugins: include
 * runtime/kernels.h, whose conventions hold here.
 */
#ifndef FGM_OPS_NEQ_H
#define FGM_OPS_NEQ_H

#include "common.h"
#include "seed.h"

/* Max-product message of x != y to x: m(v) = max_{w != v} q(w), from the
 * two largest entries of Q. */
static inline void
fgm_k_neq_max(double *out, const double *q, int k)
{
    double top = -1.0, second = -1.0;
    int i, arg = 0;

    for (i = 0; i < k; i++) {
        if (q[i] > top) {
            second = top;
            top = q[i];
            arg = i;
        } else if (q[i] > second) {
            second = q[i];
        }
    }
    for (i = 0; i < k; i++)
        out[i] = i == arg ? second : top;
}

/* Max-product update of x != y (see fgm_k_neq), one value at a time. */
static inline double
fgm_k_neq_max_update(fgm_state *st, int ea, int eb, int va, int vb,
                     int stride, int k)
{
    double ra[FGM_K_MAXCARD], rb[FGM_K_MAXCARD];
    double na[FGM_K_MAXCARD], nb[FGM_K_MAXCARD];
    double *ma = st->msg + (long)ea * stride;
    double *mb = st->msg + (long)eb * stride;
    double *ba = st->belief + (long)va * stride;
    double *bb = st->belief + (long)vb * stride;
    double c1, c2, za = 0.0, zb = 0.0;
    int i;

    for (i = 0; i < k; i++) {
        if (st->damp_v2f) {
            ra[i] = st->prev[(long)ea * stride + i];
            rb[i] = st->prev[(long)eb * stride + i];
        } else {
            ra[i] = ba[i] / ma[i];
            rb[i] = bb[i] / mb[i];
        }
        za += ra[i];
        zb += rb[i];
    }
    if (!(za > 0.0) || !(zb > 0.0)) {
        for (i = 0; i < k; i++)
            ra[i] = rb[i] = 1.0;
        za = zb = (double)k;
    }
    fgm_k_neq_max(na, rb, k);
    fgm_k_neq_max(nb, ra, k);
    c1 = fgm_k_commit(ma, na, st->damping, FGM_K_FLOOR, k);
    c2 = fgm_k_commit(mb, nb, st->damping, FGM_K_FLOOR, k);
    if (!st->parallel)
        for (i = 0; i < k; i++) {
            ba[i] = ra[i] * ma[i] * (1.0 / za);
            bb[i] = rb[i] * mb[i] * (1.0 / zb);
        }
    return c1 > c2 ? c1 : c2;
}

/* How many of the chunks of a domain of K values hold more than two live
 * lanes.  The cavities of x != y divide the last chunk of both variables
 * with one division (fgm_v_pack2) when it holds one or two (K = 9, 25):
 * the same quotients in the same lanes, and one division of seven fewer
 * per 9x9 update (two of thirteen in the portable build, whose EP sweep
 * ran 15% faster; a plugin's only 2%, its time going elsewhere). */
FGM_K_HOT int
fgm_k_unpacked_chunks(int k)
{
    int tail = k % FGM_K_LANES;

    return FGM_K_NCHUNKS(k) - (tail == 1 || tail == 2);
}

/* One sum-product update of x != y in flight: fgm_k_neq in two phases, so
 * that a plugin can interleave two updates that share no variable
 * (fgm_k_neq_group) and the CPU overlaps their long division chains.
 * Between the phases a job holds only the two cavities and their sums,
 * the second phase computing the messages from them: fewer vectors held
 * across the other job's first phase (the plugin's sweep has 62 stack
 * accesses instead of 77; no measurable change of speed). */
typedef struct fgm_k_neq_job {
    double *ma, *mb, *ba, *bb;      /* messages to x, y; beliefs of x, y */
    fgm_v4 ra[FGM_K_VCHUNKS], rb[FGM_K_VCHUNKS];  /* whole chunks */
    fgm_v4 tail;        /* both last chunks, fgm_v_pack2, when packed */
    double za, zb;      /* sum of each cavity */
    double ia, ib;      /* 1 / sum of each cavity */
    double la, lb;      /* each cavity's sum without the value that holds
                         * more than half of it, if one does
                         * (fgm_k_neq_others; left to fgm_k_neq_end
                         * when fgm_k_neq_onepass) */
} fgm_k_neq_job;

/* Chunk C of the cavities of J (A: x's, else y's). */
FGM_K_HOT fgm_v4
fgm_k_neq_cavity(const fgm_k_neq_job *j, int c, int k, int a)
{
    if (c < fgm_k_unpacked_chunks(k))
        return a ? j->ra[c] : j->rb[c];
    return a ? fgm_v_low2(j->tail) : fgm_v_high2(j->tail);
}

/* The sum of the other values of a cavity, lane by lane, for a chunk
 * R of it whose sum is Z: Z - R, but L, the sum without R's lane (lane
 * by lane), in a lane that holds more than half of Z.  There Z - R
 * cancels: with cavity [1, 1e16] Z rounds to 1e16 and Z - R(1) to 0,
 * where the others' sum is 1 (x != y under bp-sum with that evidence
 * gave marginals 1 and 1e-14, not 0.5 and 0.5).  In every other lane
 * Z - R is at least Z / 2 and as accurate as Z.  At most one value holds
 * more than half. */
FGM_K_HOT fgm_v4
fgm_k_neq_rest(fgm_v4 r, double z, fgm_v4 l)
{
    return fgm_v_select(fgm_v_lt(fgm_v_splat(0.5 * z), r), l,
                        fgm_v_sub(fgm_v_splat(z), r));
}

/* J's la and lb: each cavity's sum over its lanes that hold at most half
 * of its sum z, chunk after chunk as z was summed, the packed tail
 * last.  That is the others' sum of the lane that holds more, if one
 * does (fgm_k_neq_rest), else z again (a plugin takes the same sums for
 * 9x9 in one pass: fgm_k_neq_onepass).  This second pass, after z, cost
 * 28% of a 9x9 EP inference (bench_ep, easy50 x 10, compiled, minima of
 * three alternate runs: 0.865-0.872 -> 1.113-1.209 ms, the Intel Xeon,
 * 2026-12-07); 93% of that benchmark's updates have a cavity with such
 * a lane (2.69 M of 2.89 M), so a branch around it would not pay. */
FGM_K_HOT void
fgm_k_neq_others(fgm_k_neq_job *j, int k)
{
    fgm_v4 ha = fgm_v_splat(0.5 * j->za), hb = fgm_v_splat(0.5 * j->zb);
    fgm_v4 la4 = fgm_v_zero(), lb4 = fgm_v_zero(), ra, rb;
    fgm_v2 l;
    int c, nc = FGM_K_NCHUNKS(k);

    for (c = 0; c < nc; c++) {
        ra = fgm_k_neq_cavity(j, c, k, 1);
        rb = fgm_k_neq_cavity(j, c, k, 0);
        ra = fgm_v_select(fgm_v_lt(ha, ra), fgm_v_zero(), ra);
        rb = fgm_v_select(fgm_v_lt(hb, rb), fgm_v_zero(), rb);
        la4 = c ? fgm_v_add(la4, ra) : ra;
        lb4 = c ? fgm_v_add(lb4, rb) : rb;
    }
    l = fgm_v_sum2(la4, lb4);
    j->la = l[0];
    j->lb = l[1];
}

/* Chunk C of the new message to x (A) or y: with r = belief / message
 * (the cavity before normalizing) and z = sum r, the sum-product message
 * 1 - r/z of the other variable (Infer.NET's DiscreteAreEqualOp with the
 * result observed false) is already normalized once divided by (K - 1):
 * m(v) = (z - r(v)) (1/z) (1/(K - 1)), z - r(v) the others' sum
 * (fgm_k_neq_rest). */
FGM_K_HOT fgm_v4
fgm_k_neq_message(const fgm_k_neq_job *j, int c, int k, int a)
{
    double k1 = 1.0 / (k - 1);

    if (a)
        return fgm_v_mul(fgm_k_neq_rest(fgm_k_neq_cavity(j, c, k, 0), j->zb,
                                        fgm_v_splat(j->lb)),
                         fgm_v_splat(j->ib * k1));
    return fgm_v_mul(fgm_k_neq_rest(fgm_k_neq_cavity(j, c, k, 1), j->za,
                                    fgm_v_splat(j->la)),
                     fgm_v_splat(j->ia * k1));
}

/* Whether a plain update (fgm_k_neq_end, fgm_k_neq_end8) takes the
 * others' sums of K's cavities in one pass (fgm_k_neq_lanes): K of at most
 * three chunks, 9x9 Sudoku's, in a plugin (AVX).  The library's portable
 * build (the interpreter) keeps the second pass, fgm_k_neq_others. */
FGM_K_HOT int
fgm_k_neq_onepass(int k)
{
#if defined(__AVX__)
    return FGM_K_NCHUNKS(k) <= 3;
#else
    (void)k;
    return 0;
#endif
}

/* L[i], for each of the NC (<= 3) chunks C[i] of a cavity (dead lanes
 * zero): in each lane, the sum of the cavity's other values exactly as
 * fgm_k_neq_others takes it when that lane is the one that holds more
 * than half of z -- chunk after chunk with that lane's value left out
 * (zeroed there; x + 0 is x), then the lanes as (l0 + l1) + (l2 + l3)
 * -- for every lane at once and without z, so the same bits.  With F
 * the chunks' lane-wise sum, lane l's sum is (E[l] + F[l ^ 1]) + (F[l ^
 * 2] + F[l ^ 3]), E the sum of the other chunks in lane l, in their
 * order: F swapped in pairs, and F's pair sums swapped in halves.
 * (x + y is y + x.)  Only the select of fgm_k_neq_rest waits for z,
 * where the masked second pass waited for it whole: bench_ep, easy50 x
 * 10, soft clues, compiled medians in alternate rounds (Zen 5,
 * 2026-12-07), the marginals unchanged to the bit:
 *     512-bit path (fgm_k_neq_end8)   0.660-0.675 -> 0.579-0.593 ms
 *     256-bit path (-march=x86-64-v3) 0.822-0.826 -> 0.714-0.745 ms
 * Past three chunks the sums of the other chunks grow quadratically,
 * and the second pass is kept.  The portable build's two-half vectors
 * (the interpreter) ran slower this way (2.10 -> 2.43 ms a soft-clue
 * inference), so it keeps the second pass: the same bits either way
 * (tests/neq_paths.c). */
FGM_K_HOT void
fgm_k_neq_lanes(const fgm_v4 *c, int nc, fgm_v4 *l)
{
    fgm_v4 f = c[0], s1, s2, e;
    int i, d, first;

    for (i = 1; i < nc; i++)
        f = fgm_v_add(f, c[i]);
    s1 = fgm_v_swap_pairs(f);
    s2 = fgm_v_swap_halves(fgm_v_add(f, s1));
    for (i = 0; i < nc; i++) {
        e = fgm_v_zero();
        for (d = 0, first = 1; d < nc; d++)
            if (d != i) {
                e = first ? c[d] : fgm_v_add(e, c[d]);
                first = 0;
            }
        l[i] = fgm_v_add(fgm_v_add(e, s1), s2);
    }
}

/* First phase: the cavities and their sums (reads only).  Both 1/z come
 * from one vector division (scalar ones would queue behind the cavities'
 * on the divider).  Dead lanes need no mask: a belief's are zero and a
 * message's finite and positive (kernels.h), so the cavity's are zero.
 * (The seed's flooding sweep, whose cavities are stored, has its own
 * update: fgm_k_neq_seed.) */
FGM_K_HOT void
fgm_k_neq_begin(const fgm_state *st, fgm_k_neq_job *j, int ea, int eb, int va,
                int vb, int stride, int k)
{
    fgm_v4 za4 = fgm_v_zero(), zb4 = fgm_v_zero();   /* set by chunk 0 */
    fgm_v4 ra, rb;
    fgm_v2 z, inv;
    int c, nc = FGM_K_NCHUNKS(k), whole = fgm_k_unpacked_chunks(k);

    j->ma = st->msg + (long)ea * stride;
    j->mb = st->msg + (long)eb * stride;
    j->ba = st->belief + (long)va * stride;
    j->bb = st->belief + (long)vb * stride;
    j->tail = fgm_v_zero();     /* unused without a packed tail */
    for (c = 0; c < nc; c++) {
        long at = (long)c * FGM_K_LANES;

        if (c < whole) {
            ra = fgm_v_div(fgm_v_load(j->ba + at), fgm_v_load(j->ma + at));
            rb = fgm_v_div(fgm_v_load(j->bb + at), fgm_v_load(j->mb + at));
        } else {
            /* Both tails in one division: the same quotients. */
            j->tail = fgm_v_div(fgm_v_pack2(fgm_v_load(j->ba + at),
                                            fgm_v_load(j->bb + at)),
                                fgm_v_pack2(fgm_v_load(j->ma + at),
                                            fgm_v_load(j->mb + at)));
            ra = fgm_v_low2(j->tail);
            rb = fgm_v_high2(j->tail);
        }
        if (c < whole) {
            j->ra[c] = ra;
            j->rb[c] = rb;
        }
        /* The first chunk starts the sums (0 + x is x, one addition
         * less on the update's critical path). */
        za4 = c ? fgm_v_add(za4, ra) : ra;
        zb4 = c ? fgm_v_add(zb4, rb) : rb;
    }
    z = fgm_v_sum2(za4, zb4);
    if (!(z[0] > 0.0) || !(z[1] > 0.0)) {
        /* A contradiction (a belief with no mass): uniform cavities. */
        for (c = 0; c < nc; c++) {
            ra = fgm_v_keep(fgm_v_splat(1.0), fgm_v_live(c, k));
            if (c < whole)
                j->ra[c] = j->rb[c] = ra;
            else
                j->tail = fgm_v_pack2(ra, ra);
        }
        z[0] = z[1] = (double)k;
    }
    inv = 1.0 / z;
    j->za = z[0];
    j->zb = z[1];
    j->ia = inv[0];
    j->ib = inv[1];
    if (!fgm_k_neq_onepass(k))
        fgm_k_neq_others(j, k);
}

/* The plain path's last step for one chunk of x (M, B: its message and
 * belief there): with R and RO the chunk's cavities of x and of y, ZO
 * and LO y's cavity sum and others' sum (fgm_k_neq_others) and SO =
 * (1/ZO) (1/(K - 1)), the message to x is the rest of RO (ZO - RO,
 * fgm_k_neq_rest) times SO floored at FGM_K_FLOOR (fgm_k_neq_message,
 * committed without damping), and x's belief R times it times I = 1/z
 * of x (fgm_k_neq_install8: the same on 512-bit registers). */
FGM_K_HOT void
fgm_k_neq_install(double *m, double *b, fgm_v4 r, fgm_v4 ro, double zo,
                  fgm_v4 lo, double so, double i)
{
    fgm_v4 x = fgm_v_floor(fgm_v_mul(fgm_k_neq_rest(ro, zo, lo),
                                     fgm_v_splat(so)), FGM_K_FLOOR);

    fgm_v_store(m, x);
    fgm_v_store(b, fgm_v_mul(fgm_v_mul(r, x), fgm_v_splat(i)));
}

/* Second phase: install both messages; in a sequential schedule the new
 * belief is r times the new message, scaled by 1/z so that it stays near 1
 * in size (its sum lies between the message's least and largest entry;
 * the run's finish rebuilds and normalizes every belief).
 * Returns the largest message change (0 unless st->track_change). */
FGM_K_HOT double
fgm_k_neq_end(const fgm_state *st, fgm_k_neq_job *j, int k, int plain)
{
    fgm_v4 na[FGM_K_VCHUNKS], nb[FGM_K_VCHUNKS];
    fgm_v4 ia = fgm_v_splat(j->ia), ib = fgm_v_splat(j->ib);
    double c1 = 0.0, c2 = 0.0, k1 = 1.0 / (k - 1);
    int c, nc = FGM_K_NCHUNKS(k);

    if (plain) {
        /* fgm_v_commit without damping or tracking, one chunk at a time
         * once the others' sums are known. */
        fgm_v4 ra[FGM_K_VCHUNKS], rb[FGM_K_VCHUNKS];
        fgm_v4 la[FGM_K_VCHUNKS], lb[FGM_K_VCHUNKS];

        for (c = 0; c < nc; c++) {
            ra[c] = fgm_k_neq_cavity(j, c, k, 1);
            rb[c] = fgm_k_neq_cavity(j, c, k, 0);
        }
        if (fgm_k_neq_onepass(k)) {
            fgm_k_neq_lanes(ra, nc, la);
            fgm_k_neq_lanes(rb, nc, lb);
        } else {
            for (c = 0; c < nc; c++) {
                la[c] = fgm_v_splat(j->la);
                lb[c] = fgm_v_splat(j->lb);
            }
        }
        for (c = 0; c < nc; c++) {
            long at = (long)c * FGM_K_LANES;

            fgm_k_neq_install(j->ma + at, j->ba + at, ra[c], rb[c], j->zb,
                              lb[c], j->ib * k1, j->ia);
            fgm_k_neq_install(j->mb + at, j->bb + at, rb[c], ra[c], j->za,
                              la[c], j->ia * k1, j->ib);
        }
        return 0.0;
    }
    if (fgm_k_neq_onepass(k))   /* begin left them to the plain path */
        fgm_k_neq_others(j, k);
    for (c = 0; c < nc; c++) {
        na[c] = fgm_k_neq_message(j, c, k, 1);
        nb[c] = fgm_k_neq_message(j, c, k, 0);
    }
    c1 = fgm_v_commit(j->ma, na, st->damping, nc, k, st->track_change);
    c2 = fgm_v_commit(j->mb, nb, st->damping, nc, k, st->track_change);
    if (!st->parallel)
        for (c = 0; c < nc; c++) {
            fgm_v_store(j->ba + c * FGM_K_LANES,
                        fgm_v_mul(fgm_v_mul(fgm_k_neq_cavity(j, c, k, 1),
                                            na[c]), ia));
            fgm_v_store(j->bb + c * FGM_K_LANES,
                        fgm_v_mul(fgm_v_mul(fgm_k_neq_cavity(j, c, k, 0),
                                            nb[c]), ib));
        }
    return c1 > c2 ? c1 : c2;
}

#if defined(__AVX512F__)
/* The plain update (fgm_k_neq_plain) with two chunks to a 512-bit
 * register (fgm_v8), for domains whose unpacked chunks pair up
 * (FGM_K_NEQ8: K = 2, 7-10, 15-18, 23-26, ...).  The same operations
 * lane by lane and the same sums in the same order as fgm_k_neq_begin
 * and fgm_k_neq_end, so the same bits as the interpreter, in fewer
 * instructions: a 9x9 update divides four times instead of six and
 * writes its messages and beliefs in two registers and a packed tail
 * instead of three.  The schedule pads rows to whole pairs of chunks
 * (runtime/schedule.c), so these 512-bit accesses stay within a cache
 * line.  bench_ep, easy50 x 20, this path and that padding together:
 * 0.653-0.666 -> 0.485-0.499 ms compiled a 50-sweep inference (Zen 5);
 * sharing two jobs' tail and 1/z divisions, or groups of four jobs,
 * were slower (0.53-0.55 ms).  On a Sapphire Rapids Xeon the divisions
 * b / m bound this path; cavities without them, as the prefix product of
 * a variable's messages updated so far this sweep times the suffix
 * product of those still to come (computed by a pass before the run),
 * took 0.52 ms for the updates but 0.24 ms for that pass, which streams
 * every message and suffix through L2: 0.73-0.78 ms against 0.71 ms
 * (bench_ep, easy50 x 10, alternate runs, 2026-12-04), so dropped.
 * Keeping 1 / m beside each message instead (the cavity a product, the
 * new message's reciprocal divided off the update's critical path, as
 * many divisions as before) took 0.713 ms: the divider's throughput,
 * not the chain's latency, is what binds.  Both cavities from one
 * division of the two messages' product (fgm_k_cavities2, as the v2f
 * step takes them) saved 4% only (0.738-0.743 against 0.764-0.788 ms,
 * three alternate runs): without the stores, the cavities and sums take
 * 0.47 ms with those divisions and 0.31 ms with none, so the vector
 * work around them binds as much.  Not kept, as every EP figure would
 * move in its last bits for that (ep-iterative --fix 2 on notebook 000's
 * Medium grid: 6 -> 8 errors).  The two 512-bit divisions as rcp14 and
 * two Newton steps with a final remainder correction (FMA, 8 operations
 * off the divider): 0.744-0.753 -> 0.677-0.684 ms (bench_ep, easy50 x
 * 10, alternate runs, 2026-12-05, the Intel Xeon), but not the same bits
 * where a quotient is small enough that the remainder underflows (32 M
 * random pairs: none apart in the normal range, 1% with beliefs down to
 * 1e-320), and one such difference moved a marginal by 1 against the
 * interpreter's division; correct rounding needs a proven sequence and a
 * fallback for tiny beliefs, for 9%.  Not kept. */
#if defined(FGM_K_SPLIT512)
/* On AMD's Zen 4, which runs each 512-bit operation as two 256-bit
 * halves (the plugin builder passes -DFGM_K_SPLIT512 there,
 * fgm_plugin_split512), the 256-bit path is faster for two unpacked
 * chunks, 9x9's, and slower for more (fgm bench --solvers ep-robust
 * --backends compiled, compiled medians, alternate runs on a Zen 4
 * EPYC, 2026-12-06; rows padded to pairs of chunks either way):
 *     9x9, bench_ep easy50 x 10   0.720 / 0.722 -> 0.589 / 0.588 ms
 *     16x16, 6 generated puzzles  4.48-4.75 -> 5.06-5.14 ms
 *     25x25, 2 generated puzzles  30.1 / 30.8 -> 35.3 / 39.1 ms
 * (the second figure of each line: the 256-bit path).  The same bits
 * either way (tests/cli/kernels.sh). */
#define FGM_K_NEQ8(k) \
    (fgm_k_unpacked_chunks(k) % 2 == 0 && fgm_k_unpacked_chunks(k) >= 4)
#else
#define FGM_K_NEQ8(k) (fgm_k_unpacked_chunks(k) % 2 == 0)
#endif

typedef struct fgm_k_neq_job8 {
    double *ma, *mb, *ba, *bb;      /* messages to x, y; beliefs of x, y */
    fgm_v8 ra[FGM_K_VCHUNKS / 2 + 1], rb[FGM_K_VCHUNKS / 2 + 1];
    fgm_v4 tail;        /* both last chunks, fgm_v_pack2, when packed */
    double za, zb, ia, ib, la, lb;
} fgm_k_neq_job8;

/* Points job J at its messages (edges EA, EB) and beliefs (VA, VB). */
FGM_K_HOT void
fgm_k_neq_job8_at(const fgm_state *st, fgm_k_neq_job8 *j, int ea, int eb,
                  int va, int vb, int stride)
{
    j->ma = st->msg + (long)ea * stride;
    j->mb = st->msg + (long)eb * stride;
    j->ba = st->belief + (long)va * stride;
    j->bb = st->belief + (long)vb * stride;
    j->tail = fgm_v_zero();
}

/* Adds pair P of J's cavities to the lane sums *ZA4, *ZB4 (pair 0 starts
 * them): chunk 2P, then 2P + 1, as fgm_k_neq_begin adds them. */
FGM_K_HOT void
fgm_k_neq_sum8(const fgm_k_neq_job8 *j, int p, fgm_v4 *za4, fgm_v4 *zb4)
{
    *za4 = fgm_v8_accum(*za4, j->ra[p], p == 0);
    *zb4 = fgm_v8_accum(*zb4, j->rb[p], p == 0);
}

/* The first part of fgm_k_neq_begin8: the job's pointers, the cavities
 * of the unpacked chunks, and their lane sums (*ZA4, *ZB4; unset when
 * there are none). */
FGM_K_HOT void
fgm_k_neq_whole8(const fgm_state *st, fgm_k_neq_job8 *j, int ea, int eb,
                 int va, int vb, int stride, int k, fgm_v4 *za4,
                 fgm_v4 *zb4)
{
    int p, np = fgm_k_unpacked_chunks(k) / 2;
    long at;

    fgm_k_neq_job8_at(st, j, ea, eb, va, vb, stride);
    for (p = 0; p < np; p++) {
        at = (long)p * 2 * FGM_K_LANES;
        j->ra[p] = fgm_v8_load(j->ba + at) / fgm_v8_load(j->ma + at);
        j->rb[p] = fgm_v8_load(j->bb + at) / fgm_v8_load(j->mb + at);
        fgm_k_neq_sum8(j, p, za4, zb4);
    }
}

/* Whether K's last chunk is packed (fgm_k_unpacked_chunks). */
FGM_K_HOT int
fgm_k_neq_packed8(int k)
{
    return fgm_k_unpacked_chunks(k) < FGM_K_NCHUNKS(k);
}

/* The packed tail's dividend and divisor: both beliefs' last chunks
 * and both messages', fgm_v_pack2. */
FGM_K_HOT void
fgm_k_neq_tail8(const fgm_k_neq_job8 *j, int k, fgm_v4 *num, fgm_v4 *den)
{
    long at = (long)(FGM_K_NCHUNKS(k) - 1) * FGM_K_LANES;

    *num = fgm_v_pack2(fgm_v_load(j->ba + at), fgm_v_load(j->bb + at));
    *den = fgm_v_pack2(fgm_v_load(j->ma + at), fgm_v_load(j->mb + at));
}

/* The cavities' sums (x's, y's), the packed tail (j->tail, divided) added
 * last, after fgm_k_neq_begin's fallback for a contradiction. */
FGM_K_HOT fgm_v2
fgm_k_neq_sums8(fgm_k_neq_job8 *j, int k, fgm_v4 za4, fgm_v4 zb4)
{
    int p, np = fgm_k_unpacked_chunks(k) / 2, nc = FGM_K_NCHUNKS(k);
    fgm_v4 one, ra;
    fgm_v2 z;

    if (fgm_k_neq_packed8(k)) {
        za4 = np ? fgm_v_add(za4, fgm_v_low2(j->tail)) : fgm_v_low2(j->tail);
        zb4 = np ? fgm_v_add(zb4, fgm_v_high2(j->tail))
                 : fgm_v_high2(j->tail);
    }
    z = fgm_v_sum2(za4, zb4);
    if (!(z[0] > 0.0) || !(z[1] > 0.0)) {
        /* A contradiction: uniform cavities, as fgm_k_neq_begin. */
        one = fgm_v_splat(1.0);
        for (p = 0; p < np; p++)
            j->ra[p] = j->rb[p]
                = fgm_v8_join(fgm_v_keep(one, fgm_v_live(2 * p, k)),
                              fgm_v_keep(one, fgm_v_live(2 * p + 1, k)));
        ra = fgm_v_keep(one, fgm_v_live(nc - 1, k));
        j->tail = fgm_v_pack2(ra, ra);
        z[0] = z[1] = (double)k;
    }
    j->za = z[0];
    j->zb = z[1];
    return z;
}

/* fgm_k_neq_others for a fgm_k_neq_job8: the same sums in the same
 * order (each pair's low chunk, then its high one, the tail last). */
FGM_K_HOT void
fgm_k_neq_others8(fgm_k_neq_job8 *j, int k)
{
    fgm_v8 ha = fgm_v8_splat(0.5 * j->za), hb = fgm_v8_splat(0.5 * j->zb);
    fgm_v8 zero = fgm_v8_splat(0.0);
    fgm_v4 la4 = fgm_v_zero(), lb4 = fgm_v_zero(), ta, tb;
    fgm_v2 l;
    int p, np = fgm_k_unpacked_chunks(k) / 2;

    for (p = 0; p < np; p++) {
        la4 = fgm_v8_accum(la4, fgm_v8_select_lt(ha, j->ra[p], zero,
                                                 j->ra[p]), p == 0);
        lb4 = fgm_v8_accum(lb4, fgm_v8_select_lt(hb, j->rb[p], zero,
                                                 j->rb[p]), p == 0);
    }
    if (fgm_k_neq_packed8(k)) {
        ta = fgm_v_low2(j->tail);
        tb = fgm_v_high2(j->tail);
        ta = fgm_v_select(fgm_v_lt(fgm_v8_lo(ha), ta), fgm_v_zero(), ta);
        tb = fgm_v_select(fgm_v_lt(fgm_v8_lo(hb), tb), fgm_v_zero(), tb);
        la4 = np ? fgm_v_add(la4, ta) : ta;
        lb4 = np ? fgm_v_add(lb4, tb) : tb;
    }
    l = fgm_v_sum2(la4, lb4);
    j->la = l[0];
    j->lb = l[1];
}

FGM_K_HOT void
fgm_k_neq_begin8(const fgm_state *st, fgm_k_neq_job8 *j, int ea, int eb,
                 int va, int vb, int stride, int k)
{
    fgm_v4 za4 = fgm_v_zero(), zb4 = fgm_v_zero(), num, den;
    fgm_v2 inv;

    fgm_k_neq_whole8(st, j, ea, eb, va, vb, stride, k, &za4, &zb4);
    if (fgm_k_neq_packed8(k)) {
        fgm_k_neq_tail8(j, k, &num, &den);
        j->tail = fgm_v_div(num, den);
    }
    inv = 1.0 / fgm_k_neq_sums8(j, k, za4, zb4);
    j->ia = inv[0];
    j->ib = inv[1];
}

/* fgm_k_neq_rest on 512-bit registers: Z - R, but L (lane by lane) in
 * a lane of R that holds more than half of Z. */
FGM_K_HOT fgm_v8
fgm_k_neq_rest8(fgm_v8 r, double z, fgm_v8 l)
{
    return fgm_v8_select_lt(fgm_v8_splat(0.5 * z), r, l,
                            fgm_v8_splat(z) - r);
}

/* The others' sums of both cavities of J (fgm_k_neq_lanes when K allows,
 * else fgm_k_neq_others8's, the same in every lane), x's into LA and
 * y's into LB, one register a pair of chunks as J's cavities, the packed
 * tail's (if K has one) after them, in the low lanes. */
FGM_K_HOT void
fgm_k_neq_others_lanes8(fgm_k_neq_job8 *j, int k, fgm_v8 *la, fgm_v8 *lb)
{
    fgm_v4 ca[3], cb[3], qa[3], qb[3];
    int p, np = fgm_k_unpacked_chunks(k) / 2, nc = FGM_K_NCHUNKS(k);

    if (!fgm_k_neq_onepass(k)) {
        fgm_k_neq_others8(j, k);
        for (p = 0; p <= np; p++) {
            la[p] = fgm_v8_splat(j->la);
            lb[p] = fgm_v8_splat(j->lb);
        }
        return;
    }
    for (p = 0; p < np; p++) {
        ca[2 * p] = fgm_v8_lo(j->ra[p]);
        ca[2 * p + 1] = fgm_v8_hi(j->ra[p]);
        cb[2 * p] = fgm_v8_lo(j->rb[p]);
        cb[2 * p + 1] = fgm_v8_hi(j->rb[p]);
    }
    if (fgm_k_neq_packed8(k)) {
        ca[nc - 1] = fgm_v_low2(j->tail);
        cb[nc - 1] = fgm_v_high2(j->tail);
    }
    fgm_k_neq_lanes(ca, nc, qa);
    fgm_k_neq_lanes(cb, nc, qb);
    for (p = 0; p < np; p++) {
        la[p] = fgm_v8_join(qa[2 * p], qa[2 * p + 1]);
        lb[p] = fgm_v8_join(qb[2 * p], qb[2 * p + 1]);
    }
    la[np] = fgm_v8_join(qa[nc - 1], fgm_v_zero());
    lb[np] = fgm_v8_join(qb[nc - 1], fgm_v_zero());
}

/* fgm_k_neq_install for the packed tail's chunk of x, its cavities R
 * (x's) and RO (y's) in the low lanes of 512-bit registers (the high
 * lanes zero, computed and not stored) and S = splat((1/ZO) (1/(K - 1))):
 * the same lane operations, on the registers and splats the whole
 * chunks use.  With 256-bit ones the compiler broadcast ZO, S and I once
 * for each width: bench_ep, easy50, three A/B runs, 0.479-0.481 ->
 * 0.441-0.447 ms compiled a 50-sweep inference (Zen 5). */
FGM_K_HOT void
fgm_k_neq_install8(double *m, double *b, fgm_v8 r, fgm_v8 ro, double zo,
                   fgm_v8 lo, fgm_v8 s, double i)
{
    fgm_v8 x = fgm_v8_floor(fgm_k_neq_rest8(ro, zo, lo) * s, FGM_K_FLOOR);

    fgm_v_store(m, fgm_v8_lo(x));
    fgm_v_store(b, fgm_v8_lo((r * x) * fgm_v8_splat(i)));
}

/* fgm_k_neq_end's plain path on a fgm_k_neq_job8. */
FGM_K_HOT void
fgm_k_neq_end8(fgm_k_neq_job8 *j, int k)
{
    double k1 = 1.0 / (k - 1);
    fgm_v8 sa = fgm_v8_splat(j->ib * k1), sb = fgm_v8_splat(j->ia * k1);
    fgm_v8 x, ra8, rb8, la[FGM_K_VCHUNKS / 2 + 1], lb[FGM_K_VCHUNKS / 2 + 1];
    int p, np = fgm_k_unpacked_chunks(k) / 2, nc = FGM_K_NCHUNKS(k);
    long at;

    fgm_k_neq_others_lanes8(j, k, la, lb);
    for (p = 0; p < np; p++) {
        at = (long)p * 2 * FGM_K_LANES;
        x = fgm_v8_floor(fgm_k_neq_rest8(j->rb[p], j->zb, lb[p]) * sa,
                         FGM_K_FLOOR);
        fgm_v8_store(j->ma + at, x);
        fgm_v8_store(j->ba + at, (j->ra[p] * x) * fgm_v8_splat(j->ia));
        x = fgm_v8_floor(fgm_k_neq_rest8(j->ra[p], j->za, la[p]) * sb,
                         FGM_K_FLOOR);
        fgm_v8_store(j->mb + at, x);
        fgm_v8_store(j->bb + at, (j->rb[p] * x) * fgm_v8_splat(j->ib));
    }
    if (fgm_k_neq_packed8(k)) {
        at = (long)(nc - 1) * FGM_K_LANES;
        ra8 = fgm_v8_join(fgm_v_low2(j->tail), fgm_v_zero());
        rb8 = fgm_v8_join(fgm_v_high2(j->tail), fgm_v_zero());
        fgm_k_neq_install8(j->ma + at, j->ba + at, ra8, rb8, j->zb, lb[np],
                           sa, j->ia);
        fgm_k_neq_install8(j->mb + at, j->bb + at, rb8, ra8, j->za, la[np],
                           sb, j->ib);
    }
}

#else
#define FGM_K_NEQ8(k) 0
#endif /* __AVX512F__ */

/* Puts into rows I and I + 1 of the batch X (messages M) the seed's
 * flooding messages of x != y (notebook 001,
 * BeliefPropagationSolver.sweep; edges EA to x, EB to y): to each
 * variable new = 1 - R, R the other's stored variable-to-factor message
 * (live lanes normalized, dead ones zero), at SRC[I], SRC[I + 1], to be
 * committed as the seed commits (fgm_k_seed_commit_n) once
 * fgm_k_neq_seed_tails has put the batch's packed last values. */
FGM_K_HOT void
fgm_k_neq_seed_put(const fgm_state *st, fgm_k_seed_rows x, double **m,
                   double **src, int i, int ea, int eb, int stride, int k)
{
    int c, side, own = fgm_k_seed_own(FGM_K_NCHUNKS(k), k);

    for (side = 0; side < 2; side++) {
        double *r = st->prev + (long)(side ? ea : eb) * stride;

        for (c = 0; c < own; c++)
            x[i + side][c] = fgm_v_sub(fgm_v_splat(1.0),
                                       fgm_v_load(r + c * FGM_K_LANES));
        src[i + side] = r;
        m[i + side] = st->msg + (long)(side ? eb : ea) * stride;
    }
}

/* The packed last values (fgm_k_seed_packed) of the NG groups of a
 * batch that fgm_k_neq_seed_put filled: 1 - R, lane by lane. */
FGM_K_HOT void
fgm_k_neq_seed_tails(fgm_k_seed_rows x, double *const *src, int ng, int k)
{
    int g, nc = FGM_K_NCHUNKS(k);

    for (g = 0; fgm_k_seed_packed(k) && g < ng; g++)
        fgm_k_seed_tail(x, g, nc)
            = fgm_v_sub(fgm_v_splat(1.0),
                        fgm_k_seed_gather(src + g * FGM_K_LANES, k - 1));
}

/* The seed's flooding update of one x != y (edges EA to x, EB to y; a
 * parallel schedule whose variable-to-factor messages are stored,
 * st->damp_v2f): both messages damped, no belief moved.  Returns the
 * largest change when st->track_change, else 0. */
FGM_K_HOT double
fgm_k_neq_seed(fgm_state *st, int ea, int eb, int stride, int k)
{
    fgm_k_seed_rows x;
    double *m[FGM_K_SEED_BATCH], *src[FGM_K_SEED_BATCH];
    fgm_v4 ch;

    fgm_k_neq_seed_put(st, x, m, src, 0, ea, eb, stride, k);
    fgm_k_neq_seed_put(st, x, m, src, 2, ea, eb, stride, k);  /* dropped */
    fgm_k_neq_seed_tails(x, src, 1, k);
    ch = fgm_k_seed_commit_n(m, x, 0x3, 1, k, st->damping, st->track_change,
                             fgm_v_zero());
    return st->track_change ? fgm_v_hmax(ch) : 0.0;
}

/* Whether a run's sweeps can take the PLAIN path of fgm_k_neq_end. */
FGM_K_HOT int
fgm_k_neq_plain(const fgm_state *st)
{
    return !st->damp_v2f && st->damping == 0.0 && !st->track_change
           && !st->parallel;
}

/* Whether a skipping sweep skips x != y over VA and VB: one of them is
 * pinned (see fgm_state.skip_pinned; runtime/model.c lists the updates
 * that remain with this test). */
FGM_K_HOT int
fgm_k_neq_pinned(const fgm_state *st, int va, int vb)
{
    return st->pinned[va] | st->pinned[vb];
}

/* Whether the update of x != y over VA and VB is skipped this sweep. */
FGM_K_HOT int
fgm_k_skip2(const fgm_state *st, int va, int vb)
{
    return st->skip_pinned && fgm_k_neq_pinned(st, va, vb);
}

/* Most rows one fgm_k_neq_seed_rows call takes. */
#define FGM_K_NEQ_SEED_ROWS (FGM_K_SEED_BATCH / 2)

/* The seed's flooding updates (fgm_k_neq_seed) of the N factors x != y
 * of a plugin's table ROWS[0..N-1] ({ edge, x, y, group }, 0 < N <=
 * FGM_K_NEQ_SEED_ROWS, every variable with K values), their messages
 * committed as one batch: in a flooding sweep no update reads what
 * another writes, so any rows may go together.  Skipped ones
 * (fgm_k_skip2) are computed and dropped.  Returns the largest change
 * when st->track_change, else 0. */
FGM_K_HOT double
fgm_k_neq_seed_rows(fgm_state *st, const int *const *rows, int n, int stride,
                    int k)
{
    fgm_k_seed_rows x;
    double *m[FGM_K_SEED_BATCH], *src[FGM_K_SEED_BATCH];
    const int *r;
    unsigned store = 0;
    fgm_v4 ch;
    int i;

    for (i = 0; i < FGM_K_NEQ_SEED_ROWS; i++) {
        r = rows[i < n ? i : 0];
        fgm_k_neq_seed_put(st, x, m, src, 2 * i, r[0], r[0] + 1, stride, k);
        if (i < n && !fgm_k_skip2(st, r[1], r[2]))
            store |= 3u << 2 * i;
    }
    if (!store)
        return 0.0;
    fgm_k_neq_seed_tails(x, src, FGM_K_NEQ_SEED_ROWS / 2, k);
    ch = fgm_k_seed_commit_n(m, x, store, FGM_K_NEQ_SEED_ROWS / 2, k,
                             st->damping, st->track_change, fgm_v_zero());
    return st->track_change ? fgm_v_hmax(ch) : 0.0;
}

/* Update of x != y (edges EA to x, EB to y), sum- or max-product.
 * Returns the largest message change. */
FGM_K_HOT double
fgm_k_neq(fgm_state *st, int ea, int eb, int va, int vb, int stride, int k,
          int max_product, double *scratch)
{
    fgm_k_neq_job j;

    (void)scratch;
    if (fgm_k_skip2(st, va, vb))
        return 0.0;
    if (max_product)
        return fgm_k_neq_max_update(st, ea, eb, va, vb, stride, k);
    if (fgm_k_neq_plain(st)) {
#if defined(__AVX512F__)
        if (FGM_K_NEQ8(k)) {
            fgm_k_neq_job8 j8;

            fgm_k_neq_begin8(st, &j8, ea, eb, va, vb, stride, k);
            fgm_k_neq_end8(&j8, k);
            return 0.0;
        }
#endif
        fgm_k_neq_begin(st, &j, ea, eb, va, vb, stride, k);
        return fgm_k_neq_end(st, &j, k, 1);
    }
    /* Unlikely: the seed's flooding sweeps batch their updates
     * (fgm_k_neq_seed_rows); the hint keeps this path's code, inlined
     * into every plugin's sweep, off the hot path's registers (without
     * it the 9x9 EP sweep ran 6% slower once the packed last values had
     * grown this path: bench_ep, easy50 x 10, compiled 0.621-0.627
     * against 0.581-0.594 ms, a Zen 4 EPYC, 2026-12-06). */
    if (__builtin_expect(st->damp_v2f, 0))
        return fgm_k_neq_seed(st, ea, eb, stride, k);
    fgm_k_neq_begin(st, &j, ea, eb, va, vb, stride, k);
    return fgm_k_neq_end(st, &j, k, 0);
}

/* Most neq updates one fgm_k_neq_group call runs together. */
#define FGM_K_NEQ_GROUP 2

/* Whether two rows of a plugin's neq table ({ edge, x, y, group }) share
 * no variable. */
FGM_K_HOT int
fgm_k_neq_disjoint(const int *r0, const int *r1)
{
    return r0[1] != r1[1] && r0[1] != r1[2] && r0[2] != r1[1]
           && r0[2] != r1[2];
}

/* N (1 or 2) neq updates, rows R0 and R1 (with N = 2) of a plugin's table
 * ({ edge, x, y, group }), that share no variable and come one after the
 * other in the schedule, all four variables with K values.  PLAIN: the
 * caller's word, once a sweep, that its updates are plain
 * (fgm_k_neq_plain) and need no skip test (none skipped, or a live list
 * walked, which holds no skipped update): tested on every pair, those
 * loads and branches took 4% of a 9x9 soft-clue EP inference (bench_ep,
 * easy50 x 10, compiled medians 0.599-0.615 -> 0.563-0.581 ms in clean
 * alternate rounds, Zen 5, 2026-12-07).  Two plain sum-product updates
 * run their first phases, then their second phases:
 * each reads and writes only its own messages and its two beliefs, so
 * this computes the same numbers as two fgm_k_neq calls, and the CPU
 * overlaps their long division chains, which one update at a time it
 * cannot (an update is too long for the reorder window to reach into the
 * next).  Anything else runs one update at a time (but the seed's
 * flooding updates: fgm_k_neq_seed_rows).  (Groups of four were
 * no faster, and each inlined copy of an update lengthens the plugin's
 * compile.  Four updates in the four lanes of each vector -- beliefs and
 * messages transposed in 4 x 4 blocks, same bits -- were 27% slower: the
 * transposes and sixteen row pointers cost more instructions than the
 * horizontal sums they save.  A driver loop for live lists without the
 * per-update tests ran 11% fewer instructions yet 10% slower.) */
FGM_K_HOT double
fgm_k_neq_group(fgm_state *st, const int *r0, const int *r1, int n,
                int stride, int k, int max_product, int plain,
                double *scratch)
{
    fgm_k_neq_job j1, j2;
    double c1, c2;

    if (n == 2 && !max_product && plain) {
#if defined(__AVX512F__)
        if (FGM_K_NEQ8(k)) {
            fgm_k_neq_job8 k1, k2;

            fgm_k_neq_begin8(st, &k1, r0[0], r0[0] + 1, r0[1], r0[2],
                             stride, k);
            fgm_k_neq_begin8(st, &k2, r1[0], r1[0] + 1, r1[1], r1[2],
                             stride, k);
            fgm_k_neq_end8(&k1, k);
            fgm_k_neq_end8(&k2, k);
            return 0.0;
        }
#endif
        fgm_k_neq_begin(st, &j1, r0[0], r0[0] + 1, r0[1], r0[2], stride, k);
        fgm_k_neq_begin(st, &j2, r1[0], r1[0] + 1, r1[1], r1[2], stride, k);
        c1 = fgm_k_neq_end(st, &j1, k, 1);
        c2 = fgm_k_neq_end(st, &j2, k, 1);
        return c1 > c2 ? c1 : c2;
    }
    c1 = fgm_k_neq(st, r0[0], r0[0] + 1, r0[1], r0[2], stride, k,
                   max_product, scratch);
    if (n == 2) {
        c2 = fgm_k_neq(st, r1[0], r1[0] + 1, r1[1], r1[2], stride, k,
                       max_product, scratch);
        c1 = c2 > c1 ? c2 : c1;
    }
    return c1;
}

#endif /* FGM_OPS_NEQ_H */
