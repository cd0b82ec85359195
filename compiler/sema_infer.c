/* compiler/sema_infer.c: the semantic check of the inference block.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `infer ALGO(iterations = N, damping = D, ...)`: the algorithm and
 * each setting checked (range, word among its words, given once) and
 * written to c->infer, c->infer_mask recording which were given (lower.c
 * keeps the IR's defaults for the others).  One infer block per model.
 *
 * requires: sema.c's expression resolution (the settings' values may use
 * consts); produces: c->infer, c->infer_mask, c->infer_stmt, s->bad;
 * breaks: nothing.
 */
#include <stdio.h>
#include <string.h>
#include "fgmc.h"

/* Indexed by fgmc_setting; NULL-terminated for join. */
static const char *const setting_names[NSETTINGS + 1] = {
    "iterations", "damping", "tolerance", "schedule", "alldiff", "projection",
    "burn_in", NULL
};

/* The words of each word-valued setting, in the order of its enum in
 * ir.h (fgm_schedule_order, fgm_alldiff_lowering, fgm_projection). */
static const char *const schedule_words[] = { "sequential", "parallel", NULL };
static const char *const alldiff_words[] = { "pairwise", "native", NULL };
static const char *const projection_words[] = { "mean", "mean-square", NULL };

/* Writes the word E spells ("parallel", "mean-square") into BUF. */
static int
word_of(const fgmc_node *e, char *buf, size_t size)
{
    char a[64], b[64];

    /* A word too long for BUF is no word of ours (none has 64 bytes). */
    if (e->kind == N_REF && e->nkids == 0)
        return snprintf(buf, size, "%s", e->name) < (int)size;
    if (e->kind == N_SUB && word_of(e->a, a, sizeof a)
        && word_of(e->b, b, sizeof b))
        return snprintf(buf, size, "%s-%s", a, b) < (int)size;
    return 0;
}

/* Joins WORDS with ", " into BUF. */
static const char *
join(const char *const *words, char *buf, size_t size)
{
    size_t len = 0;

    buf[0] = '\0';
    for (; *words && len < size; words++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                len ? ", " : "", *words);
    return buf;
}

/* Value index of word setting SET among WORDS, or -1 after reporting. */
static int
word_setting(fgmc *c, const fgmc_node *set, const char *const *words)
{
    char w[160], list[160];
    int i;

    join(words, list, sizeof list);
    if (!word_of(set->a, w, sizeof w)) {
        diag_error(c, set->a->loc, "%s takes one of: %s", set->name, list);
        return -1;
    }
    for (i = 0; words[i]; i++)
        if (strcmp(words[i], w) == 0)
            return i;
    diag_error(c, set->a->loc, "unknown %s '%s'; valid: %s", set->name, w,
               list);
    return -1;
}

/* Applies one setting of the inference block. */
static int
apply_setting(fgmc *c, const fgmc_node *set, int key)
{
    long long n;
    double d;
    int w;

    switch (key) {
    case SET_ITERATIONS:
        if (!sema_resolve_num(c, set->a)
            || !sema_eval_int(c, set->a, "iterations", &n))
            return 0;
        if (n < 1 || n > FGM_MAX_ITERATIONS) {
            diag_error(c, set->a->loc, "iterations must be an integer in "
                       "1..%d, not %lld", FGM_MAX_ITERATIONS, n);
            return 0;
        }
        c->infer.iterations = (int)n;
        break;
    case SET_DAMPING:
        if (!sema_resolve_num(c, set->a) || !sema_eval_real(c, set->a, &d))
            return 0;
        if (!(d >= 0 && d < 1)) {
            diag_error(c, set->a->loc, "damping must be in [0, 1), not %g",
                       d);
            return 0;
        }
        c->infer.damping = d + 0.0;    /* -0 as 0: the IR is canonical */
        break;
    case SET_TOLERANCE:
        if (!sema_resolve_num(c, set->a) || !sema_eval_real(c, set->a, &d))
            return 0;
        if (!(d >= 0)) {
            diag_error(c, set->a->loc, "tolerance must be >= 0, not %g", d);
            return 0;
        }
        c->infer.tolerance = d + 0.0;
        break;
    case SET_SCHEDULE:
        if ((w = word_setting(c, set, schedule_words)) < 0)
            return 0;
        c->infer.schedule = (fgm_schedule_order)w;
        break;
    case SET_ALLDIFF:
        if ((w = word_setting(c, set, alldiff_words)) < 0)
            return 0;
        c->infer.alldiff = (fgm_alldiff_lowering)w;
        break;
    case SET_BURN_IN:
        if (!sema_resolve_num(c, set->a)
            || !sema_eval_int(c, set->a, "burn_in", &n))
            return 0;
        if (n < 0 || n >= FGM_MAX_ITERATIONS) {
            diag_error(c, set->a->loc, "burn_in must be an integer in "
                       "0..%d, not %lld", FGM_MAX_ITERATIONS - 1, n);
            return 0;
        }
        c->infer.burn_in = (int)n;
        break;
    default:
        if ((w = word_setting(c, set, projection_words)) < 0)
            return 0;
        c->infer.projection = (fgm_projection)w;
        break;
    }
    c->infer_mask |= 1u << key;
    return 1;
}

/* Whether setting SET, applied, means something to algorithm ALGO: a
 * sampler has no messages to damp, schedule or project, nor a fixed
 * point to stop at, and burn_in is a sampler's alone; mean field's
 * coordinate ascent updates one variable at a time, undamped, and its
 * q(p) is a Dirichlet with nothing to project.  Reports the setting when
 * not. */
static int
setting_fits(fgmc *c, const fgmc_node *set, int key, int algo)
{
    int gibbs = algo == FGM_ALGO_GIBBS, vmp = algo == FGM_ALGO_VMP;
    const char *why = NULL;

    if (vmp && key == SET_DAMPING && c->infer.damping > 0.0)
        why = "vmp is coordinate ascent on a bound: each update is the "
              "best one given the others, and damping it would lose that";
    else if (vmp && key == SET_SCHEDULE
             && c->infer.schedule == FGM_SCHEDULE_PARALLEL)
        why = "vmp updates one variable at a time: no parallel schedule";
    else if (vmp && key == SET_PROJECTION
             && c->infer.projection == FGM_PROJECTION_MEAN_SQUARE)
        why = "vmp's Dirichlet posteriors are exact updates: no projection";
    else if (gibbs && key == SET_DAMPING && c->infer.damping > 0.0)
        why = "gibbs draws values: it has no messages to damp";
    else if (gibbs && key == SET_SCHEDULE
             && c->infer.schedule == FGM_SCHEDULE_PARALLEL)
        why = "gibbs draws one variable at a time: no parallel schedule";
    else if (gibbs && key == SET_TOLERANCE && c->infer.tolerance > 0.0)
        why = "gibbs has no fixed point to stop at: it runs every sweep "
              "(--chains gives its standard errors)";
    else if (gibbs && key == SET_PROJECTION
             && c->infer.projection == FGM_PROJECTION_MEAN_SQUARE)
        why = "gibbs integrates the Dirichlet nodes out: no projection";
    else if (!gibbs && key == SET_BURN_IN)
        why = "burn_in is a setting of gibbs, the sampler";
    if (why)
        diag_error(c, set->nameloc, "%s", why);
    return !why;
}

void
sema_infer(fgmc *c, fgmc_stmt *s)
{
    const char *algos[FGM_NALGOS + 1], *near;
    char list[160], guess[160];
    const fgmc_node *set;
    unsigned seen;
    int i, algo, ok = 1;

    if (c->infer_stmt) {
        diag_error(c, s->loc, "second infer block (the first is at line %d)",
                   diag_line(c, c->infer_stmt->loc.start));
        s->bad = 1;
        return;
    }
    c->infer_stmt = s;
    algo = s->name ? fgm_ir_algo_find(s->name) : -1;
    if (algo < 0) {
        for (i = 0; i < FGM_NALGOS; i++)
            algos[i] = fgm_ir_algo_name((fgm_algo)i);
        algos[FGM_NALGOS] = NULL;
        near = s->name && sym_suggest(s->name, algos, FGM_NALGOS, guess,
                                      sizeof guess) ? guess : NULL;
        diag_error(c, s->nameloc, "unknown algorithm '%s'%s%s%s; valid: %s",
                   s->name ? s->name : "", near ? " (did you mean " : "",
                   near ? near : "", near ? "?)" : "",
                   join(algos, list, sizeof list));
        ok = 0;
    } else {
        c->infer.algo = (fgm_algo)algo;
        c->infer_mask |= 1u << SET_ALGO;
    }
    /* The settings given, valid or not: a repeat after an invalid first
     * value is a repeat too. */
    seen = c->infer_mask;
    for (set = s->settings ? s->settings->kids : NULL; set; set = set->next) {
        for (i = 0; i < NSETTINGS; i++)
            if (strcmp(setting_names[i], set->name) == 0)
                break;
        if (i == NSETTINGS) {
            near = sym_suggest(set->name, setting_names, NSETTINGS, guess,
                               sizeof guess) ? guess : NULL;
            diag_error(c, set->nameloc, "unknown setting '%s'%s%s%s; valid: "
                       "%s", set->name, near ? " (did you mean " : "",
                       near ? near : "", near ? "?)" : "",
                       join(setting_names, list, sizeof list));
            ok = 0;
        } else if (seen & (1u << i)) {
            diag_error(c, set->nameloc, "setting '%s' is given twice",
                       set->name);
            ok = 0;
        } else {
            seen |= 1u << i;
            if (!apply_setting(c, set, i)
                || (algo >= 0 && !setting_fits(c, set, i, algo)))
                ok = 0;
        }
    }
    if (!ok)
        s->bad = 1;
}

