/* runtime/solve/alldiff_cache.c: the exact cache of alldiff decimation states (the prefix and the tree).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>
#include "../model.h"
#include "alldiff_decimate.h"

/* Frees the tree (cfg->tree) and turns it off. */
void
fgm_ad_tree_free(fgm_ad_ws *w)
{
    int i;

    if (!w->tree)
        return;
    for (i = 0; i < FGM_AD_TREE_NODES; i++)
        free(w->tree[i].state);
    free(w->tree);
    w->tree = NULL;
}

/* Saves the model state before the attempt's first draw (cfg->cache). */
void
fgm_ad_save_prefix(fgm_ad_ws *w)
{
    const fgm_model *m = w->model;

    memcpy(w->prefix, m->st.msg, w->nmsg * sizeof *w->prefix);
    memcpy(w->prefix + w->nmsg, m->st.belief, w->nbelief * sizeof *w->prefix);
    memcpy(w->prefix_value, w->value,
           (size_t)w->csp->nvars * sizeof *w->value);
    w->prefix_ok = 1;
    if (w->tree) {
        w->tree[0].pick = -1;
        w->tree[0].child = w->tree[0].next = -1;
        w->tree[0].depth = w->tree[0].failed = 0;
        w->ntree = 1;
        w->at = 0;
    }
}

/* Puts the model back in the saved state: clamps, messages, beliefs. */
void
fgm_ad_load_prefix(fgm_ad_ws *w)
{
    fgm_model *m = w->model;
    int v;

    fgm_model_clear(m);
    memcpy(w->value, w->prefix_value,
           (size_t)w->csp->nvars * sizeof *w->value);
    for (v = 0; v < w->csp->nvars; v++)
        if (w->value[v] >= 0)
            fgm_model_observe_var(m, v, w->value[v]);
    memcpy(m->st.msg, w->prefix, w->nmsg * sizeof *w->prefix);
    memcpy(m->st.belief, w->prefix + w->nmsg, w->nbelief * sizeof *w->prefix);
    w->at = w->tree ? 0 : -1;
}

/* The child of node P for the round (PICK, VALUE), or -1. */
int
fgm_ad_tree_find(const fgm_ad_ws *w, int p, int pick, int value)
{
    int c;

    for (c = w->tree[p].child; c >= 0; c = w->tree[c].next)
        if (w->tree[c].pick == pick && w->tree[c].value == value)
            return c;
    return -1;
}

/* Adds to the tree the child of w->at for the round just run (w->dpick,
 * w->dvalue): the model's state after it, or FAILED when its run left a
 * free cell no value.  Returns the child, or -1 when it is too deep or
 * the tree is full (the attempt goes on off the tree), or out of
 * memory (the same). */
int
fgm_ad_tree_add(fgm_ad_ws *w, int failed)
{
    const fgm_model *m = w->model;
    fgm_ad_tnode *p = &w->tree[w->at], *c;
    int i = w->ntree;

    if (p->depth >= FGM_AD_TREE_DEPTH || i >= FGM_AD_TREE_NODES)
        return -1;
    c = &w->tree[i];
    if (!failed) {
        if (!c->state)
            c->state = malloc((w->nmsg + w->nbelief) * sizeof *c->state);
        if (!c->state)
            return -1;
        memcpy(c->state, m->st.msg, w->nmsg * sizeof *c->state);
        memcpy(c->state + w->nmsg, m->st.belief,
               w->nbelief * sizeof *c->state);
    }
    c->pick = w->dpick;
    c->value = w->dvalue;
    c->child = -1;
    c->next = p->child;
    c->depth = p->depth + 1;
    c->failed = failed;
    p->child = i;
    w->ntree++;
    return i;
}

/* Puts node I's messages and beliefs in the model: the state its run
 * left, which the clamps already are (the round fixed them). */
void
fgm_ad_tree_load(fgm_ad_ws *w, int i)
{
    fgm_model *m = w->model;

    memcpy(m->st.msg, w->tree[i].state, w->nmsg * sizeof *m->st.msg);
    memcpy(m->st.belief, w->tree[i].state + w->nmsg,
           w->nbelief * sizeof *m->st.belief);
}
