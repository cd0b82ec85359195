# tests/diff/brute.py: exact marginals of a generated model by enumeration.
# SPDX-License-Identifier: GPL-3.0-or-later
"""The brute-force oracle: every assignment, weighted by its factors and
by the Dirichlet-multinomial of each prior node (its pseudo-counts alpha
integrated out).  Slow and obviously right; models stay small."""

import math


def node_alpha(m, pname, node):
    """The pseudo-counts of node NODE of prior PNAME, as floats."""
    p = next(q for q in m.priors if q["name"] == pname)
    rows = p.get("alphas")
    return [float(a) for a in (rows[node] if rows else p["alpha"])]


def link_draws(m):
    """{(prior name, node): [the variables its links draw]}: the plain
    draws, which no gate moves."""
    nodes = {}
    for v, pname, node in m.links:
        nodes.setdefault((pname, node), []).append(v)
    return nodes


def node_draws(m, assign):
    """{(prior name, node): [the variables drawn from it]} at ASSIGN (value
    indices): the links, and each gated draw at the node its gate picks."""
    nodes = link_draws(m)
    for v, pname, gates, base in getattr(m, "gated", ()):
        j = 0
        for g in gates:
            j = j * m.card(g) + assign[g]
        nodes.setdefault((pname, base + j), []).append(v)
    return nodes


def point_masses(m, obs):
    """{(prior name, node): (variable, value index)} for the clues of OBS
    that fgm takes as point masses on a node (fgm_ir_clue_nodes): those
    on a variable that alone draws from a node of an observed prior, no
    gated draw able to pick the node either."""
    draws = link_draws(m)
    for v, pname, gates, base in getattr(m, "gated", ()):
        n = 1
        for g in gates:
            n *= m.card(g)
        for j in range(n):
            draws.setdefault((pname, base + j), []).extend([v, v])
    observed = {p["name"] for p in m.priors if p.get("observed")}
    # A variable drawn from two such nodes: the last link's wins.
    node_of = {}
    for v, pname, node in m.links:
        if pname in observed and len(draws[pname, node]) == 1:
            node_of[v] = (pname, node)
    los = [m.doms[d][0] for _, d in m.vars]
    return {key: (v, obs[v] - los[v]) for v, key in node_of.items()
            if v in obs}


def leaves(m, obs, clue_eps=0.0):
    """m: a gen.Model; obs: {var: observed value}.  Returns every
    assignment of nonzero weight as (log weight, value indices).  A
    clue that is a point mass on a node (point_masses) weighs 1 - (K-1)
    clue_eps on its value and clue_eps on the others, as fgm's message
    passing observes it (FGM_CLUE_EPSILON); with clue_eps 0, as the exact
    backend takes it, the variable keeps its value alone and the draw
    weighs 1."""
    n = len(m.vars)
    los = [m.doms[d][0] for _, d in m.vars]
    allowed = [set(range(m.card(v))) for v in range(n)]
    masses = point_masses(m, obs)
    free = {v for v, _ in masses.values()} if clue_eps > 0 else set()
    for v, x in obs.items():
        if v not in free:
            allowed[v] &= {x - los[v]}
    # Hard and soft factors are checked once the last variable of their
    # scope is assigned, which prunes the enumeration early.
    hard_at = [[] for _ in range(n)]
    soft_at = [[] for _ in range(n)]
    for f in m.factors:
        kind, scope = f[0], f[1]
        if kind == "fix":
            allowed[scope[0]] &= {f[2] - los[scope[0]]}
        elif kind in ("neq", "alldiff"):
            hard_at[max(scope)].append(scope)
        elif kind == "neqoff":
            # x != y + off: the pair's value indices (one domain) may not
            # differ by exactly off.
            off = f[2]
            k = m.card(scope[0])
            soft_at[max(scope)].append((scope, [
                0 if a == b + off else 1 for a in range(k) for b in range(k)]))
        else:
            soft_at[max(scope)].append((scope, [float(w) for w in f[2]]))
    # Variables drawn from one prior node: p(counts) = B(alpha + counts) /
    # B(alpha), in logs.

    leaves = []
    assign = [0] * n

    def rec(v, logw):
        if v == n:
            for (pname, node), vs in sorted(node_draws(m, assign).items()):
                if (pname, node) in masses:
                    k, x = m.card(vs[0]), assign[vs[0]]
                    if clue_eps > 0:
                        logw += math.log(1 - (k - 1) * clue_eps
                                         if x == masses[pname, node][1]
                                         else clue_eps)
                    continue
                a = node_alpha(m, pname, node)
                cnt = [0] * len(a)
                for u in vs:
                    cnt[assign[u]] += 1
                for k, c in enumerate(cnt):
                    if c:
                        logw += math.lgamma(a[k] + c) - math.lgamma(a[k])
                logw += math.lgamma(sum(a)) - math.lgamma(sum(a) + len(vs))
            leaves.append((logw, tuple(assign)))
            return
        for x in sorted(allowed[v]):
            assign[v] = x
            if any(len(set(assign[u] for u in sc)) != len(sc)
                   for sc in hard_at[v]):
                continue
            lw = logw
            for sc, w in soft_at[v]:
                pos = 0
                for u in sc:
                    pos = pos * m.card(u) + assign[u]
                if w[pos] == 0:
                    break
                lw += math.log(w[pos])
            else:
                rec(v + 1, lw)

    rec(0, 0.0)
    return leaves


def log_z(found):
    """The log of the total weight of the leaves FOUND (leaves())."""
    top = max(lw for lw, _ in found)
    return top + math.log(sum(math.exp(lw - top) for lw, _ in found))


def marginals(m, obs, max_product=False, clue_eps=0.0):
    """Returns one list of probabilities per variable of m (value order
    lo..hi) given obs, or None when no assignment has nonzero weight.
    With max_product, the max-marginals instead: each value's largest
    assignment weight, normalized (what `fgm run --backend exact` gives
    for a bp-max model).  clue_eps: as leaves() takes it."""
    found = leaves(m, obs, clue_eps)
    if not found:
        return None
    top = max(lw for lw, _ in found)
    acc = [[0.0] * m.card(v) for v in range(len(m.vars))]
    for lw, a in found:
        x = math.exp(lw - top)
        for v in range(len(m.vars)):
            acc[v][a[v]] = max(acc[v][a[v]], x) if max_product \
                else acc[v][a[v]] + x
    return [[x / sum(row) for x in row] for row in acc]


def dirichlet_means(m, found, obs):
    """Each prior node's exact posterior mean [E[p_k]], in fgm's order of
    the nodes (the priors' declaration order, row-major within one), over
    FOUND (leaves(m, obs)'s assignments, not empty): the weighted average
    over the assignments of (alpha_k + n_k) / (A + N), n the node's
    draws; a point mass of OBS's clues (point_masses) for its node."""
    top = max(lw for lw, _ in found)
    means = []
    masses = point_masses(m, obs)
    for p in m.priors:
        for node in range(p["count"] or 1):
            a = node_alpha(m, p["name"], node)
            if (p["name"], node) in masses:
                means.append([float(k == masses[p["name"], node][1])
                              for k in range(len(a))])
                continue
            acc, z = [0.0] * len(a), 0.0
            for lw, assign in found:
                draws = node_draws(m, assign).get((p["name"], node), [])
                x = math.exp(lw - top)
                z += x
                for k in range(len(a)):
                    n = sum(1 for v in draws if assign[v] == k)
                    acc[k] += x * (a[k] + n) / (sum(a) + len(draws))
            means.append([v / z for v in acc])
    return means
