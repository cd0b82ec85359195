# tests/diff/gen.py: random .fgm models and --observe files for difftest.py.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Random models for the differential test.

gen_model() and gen_cover() return a Model: its source text (lines) and a
structured description of the same graph that brute.py enumerates.  Both
sides are written from one set of random draws, so the oracle never parses
.fgm.  Everything is drawn from the random.Random passed in: one seed, one
model, on any Python 3.
"""

import brute

ALGOS = ("ep", "bp-sum", "bp-max")


class Model:
    """A generated model.

    doms:    [(lo, hi)] value ranges (offsets: lo may be -1, 0, 1 or 3)
    vars:    [(label, dom index)] in declaration order, as fgm numbers them
    arrays:  [(name, count or None for a scalar, dom index, observed, first)]
    priors:  [{name, count (None: scalar), alpha, observed, alphas}]:
             alphas, when given, a list of pseudo-counts a node
    links:   [(var, prior name, node index)] from '~ discrete(P)'
    gated:   [(var, prior name, [gate vars], node of the gates' first
             values)] from 'x ~ discrete(P[g])' or 'P[g][h]': the gates'
             value indices, one number row-major, J, pick node base + J
    factors: ('neq', [a, b]) ('alldiff', [...]) ('table', [...], weights)
             ('evid', [v], weights) ('fix', [v], value)
    tree:    True when the factors (Dirichlet links aside) form a forest
    """

    def __init__(self, name):
        self.name = name
        self.lines = ["model %s" % name]
        self.doms, self.vars, self.arrays = [], [], []
        self.priors, self.links, self.factors = [], [], []
        self.gated = []
        self.tree = False

    def card(self, v):
        lo, hi = self.doms[self.vars[v][1]]
        return hi - lo + 1

    def size(self):
        """The number of assignments."""
        n = 1
        for v in range(len(self.vars)):
            n *= self.card(v)
        return n

    def text(self, infer):
        return "\n".join(self.lines + [infer]) + "\n"


def weight(rng):
    """A table or evidence weight: zeros, small integers and reals of a few
    precisions (the parser must read them all to the same double)."""
    r = rng.random()
    if r < 0.10:
        return 0
    if r < 0.35:
        return rng.randint(1, 5)
    return round(rng.uniform(0.05, 4.0), rng.choice([1, 2, 3, 6]))


def weights(rng, n):
    """N weights, one in ten times all one value or zero: an even factor,
    which leaves a model exact cover (Dancing Links weighs its solutions
    by that value)."""
    if rng.random() < 0.1:
        c = rng.choice([2, 0.5, 3])
        w = [c if rng.random() < 0.8 else 0 for _ in range(n)]
    else:
        w = [weight(rng) for _ in range(n)]
    if not any(w):
        w[rng.randrange(n)] = 1
    return w


def nest(w, dims):
    """Row-major weights as the nested list a table statement takes."""
    if len(dims) == 1:
        return "[" + ", ".join(str(x) for x in w) + "]"
    step = len(w) // dims[0]
    return "[" + ", ".join(nest(w[i * step:(i + 1) * step], dims[1:])
                           for i in range(dims[0])) + "]"


def add_prior(rng, m, card, cnt, scalar):
    """Declares a Dirichlet prior (or reuses one of the right size) for an
    array of cnt variables; returns the '~ discrete(...)' suffix and each
    variable's node index.  Kinds: one node shared by the array, one node
    per element, one element of a prior array, or an earlier prior reused
    (so that variables of several arrays share a node)."""
    kind = rng.choice(["shared", "per", "per", "elem", "reuse"])
    fits = [p for p in m.priors if len(p["alpha"]) == card]
    if kind == "reuse" and fits:
        p = rng.choice(fits)
        if p["count"] is None:
            return p, " ~ discrete(%s)" % p["name"], [0] * cnt
        e = rng.randrange(p["count"])
        return p, " ~ discrete(%s[%d])" % (p["name"], e), [e] * cnt
    if kind == "reuse" or (kind == "per" and scalar):
        kind = "shared"
    name = "p%d" % len(m.priors)
    # Per-variable nodes observed more often: a clue there is a point mass
    # on the node, which the exact backend and brute.py must read alike.
    observed = rng.random() < (0.7 if kind == "per" else 0.35)
    if rng.random() < 0.6:
        alpha = [rng.choice([0.5, 1, 2, 0.3, 1.5, 3, 0.1, 1e-15])
                 for _ in range(card)]
        dist = "dirichlet([%s])" % ", ".join(str(a) for a in alpha)
    else:
        alpha = [1.0] * card
        dist = "dirichlet(%d)" % card
    obs = "observed " if observed else ""
    if kind == "shared":
        count, dims, suffix, nodes = None, "", name, [0] * cnt
    elif kind == "per":
        count, dims, suffix = cnt, "[%d]" % cnt, name
        nodes = list(range(cnt))
    else:
        count = rng.randint(2, 3)
        e = rng.randrange(count)
        dims, suffix, nodes = "[%d]" % count, "%s[%d]" % (name, e), [e] * cnt
    m.lines.append("%sprior %s%s ~ %s" % (obs, name, dims, dist))
    p = dict(name=name, count=count, alpha=alpha, observed=observed)
    m.priors.append(p)
    return p, " ~ discrete(%s)" % suffix, nodes


def gen_model(rng, name, tree=False):
    """A random model of 2..8 variables in 1..3 domains, with 1..10 factors
    and some whole-array statements (slices, comprehensions, fix strings).
    tree: keep the factor graph a forest and draw no priors most of the
    time, so that bp-sum is exact on it."""
    m = Model(name)
    m.tree = tree
    for _ in range(rng.choice([1, 1, 2, 3])):
        lo = rng.choice([0, 0, 1, -1, 3])
        m.doms.append((lo, lo + rng.randint(2, 5) - 1))
    use_priors = rng.random() < (0.3 if tree else 0.5)
    target = rng.randint(2, 8)
    while len(m.vars) < target:
        di = rng.randrange(len(m.doms))
        lo, hi = m.doms[di]
        scalar = rng.random() < 0.4
        cnt = 1 if scalar else rng.randint(1, min(4, target - len(m.vars)))
        aname = "v%d" % len(m.arrays)
        observed = rng.random() < 0.3
        first = len(m.vars)
        suffix = ""
        if use_priors and rng.random() < 0.6:
            p, suffix, nodes = add_prior(rng, m, hi - lo + 1, cnt, scalar)
            for j in range(cnt):
                m.links.append((first + j, p["name"], nodes[j]))
            # Clues (gen_observe favours observed arrays) on variables
            # of an observed prior, as on a Sudoku's cells.
            observed = observed or (p["observed"] and rng.random() < 0.6)
        dims = "" if scalar else "[%d]" % cnt
        m.lines.append("%svar %s%s in %d..%d%s" % (
            "observed " if observed else "", aname, dims, lo, hi, suffix))
        m.arrays.append((aname, None if scalar else cnt, di, observed, first))
        for j in range(cnt):
            m.vars.append((aname if scalar else "%s[%d]" % (aname, j), di))
    add_factors(rng, m, tree)
    add_array_statements(rng, m, tree)
    if not tree and rng.random() < 0.35:
        add_gated(rng, m)
    return m


def add_gated(rng, m):
    """One or two draws whose prior variables pick, 'x ~ discrete(P[g])',
    'P[g][h]' or 'P[g][h][k]' (the gates after the first labelled from 0,
    P's dimensions after g's their sizes), a quarter of the time behind a
    leading constant subscript ('P[1][g]'): P a new prior array with a
    node for each of g's labels 0..hi, or an earlier one of the same
    shape (whose nodes the draws then share with its other draws)."""
    n = len(m.vars)
    for _ in range(rng.randint(1, 2)):
        gates = [g for g in range(n) if m.doms[m.vars[g][1]][0] >= 0]
        if n < 2 or not gates:
            return
        g = rng.choice(gates)
        x = rng.choice([v for v in range(n) if v != g])
        pool = [h for h in range(n) if h not in (g, x)
                and m.doms[m.vars[h][1]][0] == 0]
        more = []
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            if pool:
                more.append(pool.pop(rng.randrange(len(pool))))
        glo, ghi = m.doms[m.vars[g][1]]
        k = m.card(x)
        inner = [m.card(h) for h in more]
        lead = rng.randint(1, 2) if rng.random() < 0.25 else 0
        # An earlier prior of the same shape (a one-gate draw may also
        # take a one-dimensional prior of links).
        fits = [p for p in m.priors if len(p["alpha"]) == k
                and p["count"] is not None
                and p.get("dims", [p["count"]])[-1 - len(inner):]
                [1:] == inner
                and len(p.get("dims", [p["count"]])) == 1 + len(inner)
                + (1 if lead else 0)
                and p.get("dims", [p["count"]])[-1 - len(inner)] > ghi
                and (not lead or p["dims"][0] == lead + 1)]
        if fits and rng.random() < 0.4:
            p = rng.choice(fits)
        else:
            name = "p%d" % len(m.priors)
            dims = ([lead + 1] if lead else []) \
                + [ghi + 1 + rng.randint(0, 1)] + inner
            count = 1
            for d in dims:
                count *= d
            # Pseudo-counts a node, or one list for all.
            rows = [[rng.choice([0.5, 1, 2, 0.3, 1.5, 3]) for _ in range(k)]
                    for _ in range(count if rng.random() < 0.5 else 1)]
            p = dict(name=name, count=count, alpha=rows[0], dims=dims,
                     observed=rng.random() < 0.3,
                     alphas=rows if len(rows) > 1 else None)
            cells = ["[%s]" % ", ".join(str(a) for a in r) for r in rows]
            m.lines.append("%sprior %s%s ~ dirichlet(%s)" % (
                "observed " if p["observed"] else "", name,
                "".join("[%d]" % d for d in dims),
                nest(cells, dims) if len(rows) > 1 else cells[0]))
            m.priors.append(p)
        dims = p.get("dims", [p["count"]])
        span = 1                # nodes a value of g spans
        for c in inner:
            span *= c
        base = (lead * dims[-1 - len(inner)] + glo) * span
        m.lines.append("%s ~ discrete(%s%s[%s]%s)" % (
            m.vars[x][0], p["name"], "[%d]" % lead if lead else "",
            m.vars[g][0], "".join("[%s]" % m.vars[h][0] for h in more)))
        m.gated.append((x, p["name"], [g] + more, base))


CMP = {
    "!=": lambda x, y: x != y,
    "==": lambda x, y: x == y, "<": lambda x, y: x < y,
    "<=": lambda x, y: x <= y, ">": lambda x, y: x > y,
    ">=": lambda x, y: x >= y,
}


def sum_term(a, name):
    """A sum's term with coefficient A, in one of the forms the language
    takes: x, -x, 2 * x, x * -3."""
    if a == 1:
        return name
    if a == -1:
        return "-" + name
    return "%d * %s" % (a, name) if a > 0 else "%s * %d" % (name, a)


def fixed(m, v):
    return any(f[0] == "fix" and f[1][0] == v for f in m.factors)


def add_factors(rng, m, tree):
    """Single-scope factors, one statement each."""
    n = len(m.vars)
    bydom = {}
    for v, (_, d) in enumerate(m.vars):
        bydom.setdefault(d, []).append(v)
    groups = [g for g in bydom.values() if len(g) >= 2]
    parent = list(range(n))            # union-find: is the graph a forest?

    def root(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def joins(scope):
        roots = [root(v) for v in scope]
        if tree and len(set(roots)) != len(roots):
            return False
        for r in roots[1:]:
            parent[r] = roots[0]
        return True

    want, tries = rng.randint(1, 10), 0
    while len(m.factors) < want and tries < 50:
        tries += 1
        r = rng.random()
        if r < 0.2 and groups:
            a, b = rng.sample(rng.choice(groups), 2)
            if joins([a, b]):
                # Four in seven with an offset (x != y + off), written as
                # a run of terms as a modeller would: "+ 2", "- (1 - 3)".
                off = rng.choice([0, 0, 0, 1, -1, 2, -2])
                if off == 0:
                    m.factors.append(("neq", [a, b]))
                    m.lines.append("%s != %s" % (m.vars[a][0], m.vars[b][0]))
                else:
                    m.factors.append(("neqoff", [a, b], off))
                    m.lines.append("%s != %s %s" % (
                        m.vars[a][0], m.vars[b][0],
                        "+ %d" % off if off > 0 else "- (1 - %d)" % (1 + off)
                        if rng.random() < 0.5 else "- %d" % -off))
        elif r < 0.4 and groups:
            g = rng.choice(groups)
            scope = rng.sample(g, rng.randint(2, min(5, len(g), m.card(g[0]))))
            if joins(scope):
                m.factors.append(("alldiff", scope))
                m.lines.append("alldiff(%s)" % ", ".join(
                    m.vars[v][0] for v in scope))
        elif r < 0.43:
            # x OP number (an integer or a half), evidence of 0s and 1s;
            # one that no value meets is a compile error, not generated.
            a = rng.randrange(n)
            op = rng.choice(["!=", "==", "<", "<=", ">", ">="])
            lo, hi = m.doms[m.vars[a][1]]
            num = rng.randint(lo - 1, hi + 1) + rng.choice([0, 0, 0.5])
            w = [1 if CMP[op](x, num) else 0 for x in range(lo, hi + 1)]
            if any(w):
                m.factors.append(("evid", [a], w))
                m.lines.append("%s %s %s" % (m.vars[a][0], op, num))
        elif 0.5 <= r < 0.54:
            # sum(x, y, ...) OP total on the values, any domains: for the
            # oracle the 0/1 table it stands for.  One that no assignment
            # meets is a compile error, one that all meet a warning: not
            # generated.
            # Half of them weighted: 2 * x, -y, z * 3.
            scope = rng.sample(range(n), rng.randint(1, min(4, n)))
            op = rng.choice(["==", "==", "<", "<=", ">", ">="])
            coef = [1] * len(scope)
            if rng.random() < 0.5:
                coef = [rng.choice([-3, -2, -1, 1, 2, 3]) for _ in scope]
            rows = [[]]
            for v in scope:
                lo, hi = m.doms[m.vars[v][1]]
                rows = [t + [x] for t in rows for x in range(lo, hi + 1)]
            sums = [sum(a * x for a, x in zip(coef, t)) for t in rows]
            total = rng.randint(min(sums), max(sums))
            w = [1 if CMP[op](t, total) else 0 for t in sums]
            if any(w) and not all(w) and joins(scope):
                m.factors.append(("table", scope, w))
                m.lines.append("sum(%s) %s %d" % (", ".join(
                    sum_term(a, m.vars[v][0]) for a, v in zip(coef, scope)),
                    op, total))
        elif r < 0.5 and n >= 2:
            # x OP y + off on the values, any two domains; one that no
            # pair meets is a compile error, not generated.
            a, b = rng.sample(range(n), 2)
            op = rng.choice(["==", "<", "<=", ">", ">="])
            off = rng.choice([0, 0, 1, -1, 2])
            (la, ha), (lb, hb) = m.doms[m.vars[a][1]], m.doms[m.vars[b][1]]
            w = [1 if CMP[op](x, y + off) else 0
                 for x in range(la, ha + 1) for y in range(lb, hb + 1)]
            if any(w) and joins([a, b]):
                m.factors.append(("table", [a, b], w))
                m.lines.append("%s %s %s%s" % (
                    m.vars[a][0], op, m.vars[b][0],
                    " + %d" % off if off > 0 else
                    " - %d" % -off if off < 0 else ""))
        elif r < 0.75:
            scope = rng.sample(range(n), min(rng.choice([1, 2, 2, 2, 3]), n))
            if joins(scope):
                dims = [m.card(v) for v in scope]
                size = 1
                for c in dims:
                    size *= c
                w = weights(rng, size)
                m.factors.append(("table", scope, w))
                m.lines.append("table (%s) = %s" % (", ".join(
                    m.vars[v][0] for v in scope), nest(w, dims)))
        elif r < 0.96:
            v = rng.randrange(n)
            w = weights(rng, m.card(v))
            m.factors.append(("evid", [v], w))
            m.lines.append("evidence %s = %s" % (m.vars[v][0], nest(w, [0])))
        else:
            v = rng.randrange(n)
            if fixed(m, v):         # fixing twice is an error
                continue
            lo, hi = m.doms[m.vars[v][1]]
            x = rng.randint(lo, hi)
            m.factors.append(("fix", [v], x))
            m.lines.append("fix %s = %d" % (m.vars[v][0], x))


def add_array_statements(rng, m, tree):
    """Statements over a whole array: alldiff of an array or a slice, a
    chain of tables and all pairs of != by comprehension, fix strings,
    evidence on every element.  In tree mode only the unary ones."""
    for aname, cnt, di, _, first in m.arrays:
        if cnt is None or cnt < 2 or rng.random() < 0.6:
            continue
        lo, hi = m.doms[di]
        card = hi - lo + 1
        vs = list(range(first, first + cnt))
        r = 0.9 if tree else rng.random()
        if tree and rng.random() < 0.2:
            r = 0.7
        if r < 0.15 and cnt <= card:
            m.lines.append("alldiff %s" % aname)
            m.factors.append(("alldiff", vs))
        elif r < 0.3:
            a = rng.randrange(cnt - 1)
            b = rng.randint(a + 1, min(cnt - 1, a + card - 1))
            m.lines.append("alldiff %s[%d .. %d]" % (aname, a, b))
            m.factors.append(("alldiff", vs[a:b + 1]))
        elif r < 0.5:
            w = weights(rng, card * card)
            m.lines.append("const L%d = %d" % (first, cnt))
            m.lines.append("table (%s[i], %s[i+1]) = %s for i in 0..L%d-2" % (
                aname, aname, nest(w, [card, card]), first))
            for i in range(cnt - 1):
                m.factors.append(("table", [vs[i], vs[i + 1]], w))
        elif r < 0.65:
            m.lines.append("%s[i] != %s[j] for i in 0..%d, j in i+1..%d" % (
                aname, aname, cnt - 1, cnt - 1))
            for i in range(cnt):
                for j in range(i + 1, cnt):
                    m.factors.append(("neq", [vs[i], vs[j]]))
        elif r < 0.8 and lo >= 1 and hi <= 9:
            sym = []
            for v in vs:
                if rng.random() < 0.4 and not fixed(m, v):
                    x = rng.randint(lo, hi)
                    sym.append(str(x))
                    m.factors.append(("fix", [v], x))
                else:
                    sym.append(rng.choice(".-"))
            m.lines.append('fix %s = "%s"' % (aname, "".join(sym)))
        else:
            w = weights(rng, card)
            m.lines.append("evidence %s = %s" % (aname, nest(w, [0])))
            for v in vs:
                m.factors.append(("evid", [v], w))


def gen_cover(rng, name):
    """An exact-cover model (rows of alldiff over as many values, maybe the
    columns too) with a Dirichlet prior and evidence that may weigh its
    solutions unevenly: what --backend exact may give to Dancing Links."""
    m = Model(name)
    c = rng.randint(2, 4)
    r = rng.randint(1, max(1, 8 // c))
    lo = rng.choice([0, 1])
    m.doms = [(lo, lo + c - 1)]
    kind = rng.choice(["none", "shared", "per", "uniform"])
    suffix = ""
    if kind != "none":
        alpha = ([1.0] * c if kind == "uniform" else
                 [rng.choice([0.5, 1, 2, 3]) for _ in range(c)])
        dims = "" if kind == "shared" else "[%d][%d]" % (r, c)
        m.lines.append("prior p%s ~ dirichlet([%s])" % (
            dims, ", ".join(str(a) for a in alpha)))
        m.priors.append(dict(name="p", count=None if kind == "shared"
                             else r * c, alpha=alpha, observed=False))
        suffix = " ~ discrete(p)"
    m.lines.append("var x[%d][%d] in %d..%d%s" % (r, c, lo, lo + c - 1,
                                                  suffix))
    m.arrays.append(("x", r * c, 0, False, 0))
    for i in range(r):
        for j in range(c):
            v = i * c + j
            m.vars.append(("x[%d][%d]" % (i, j), 0))
            if kind != "none":
                m.links.append((v, "p", 0 if kind == "shared" else v))
    m.lines.append("alldiff x[i][*] for i in 0..%d" % (r - 1))
    for i in range(r):
        m.factors.append(("alldiff", [i * c + j for j in range(c)]))
    if r == c and rng.random() < 0.5:
        m.lines.append("alldiff x[*][j] for j in 0..%d" % (c - 1))
        for j in range(c):
            m.factors.append(("alldiff", [i * c + j for i in range(r)]))
    for _ in range(rng.randint(0, 3)):
        v = rng.randrange(r * c)
        w = weights(rng, c)
        m.lines.append("evidence %s = %s" % (m.vars[v][0], nest(w, [0])))
        m.factors.append(("evid", [v], w))
    return m


def infer_block(rng, force=None):
    """An infer statement with a random subset of every key; force: keys
    to set regardless.  Returns (algo, its text)."""
    algo = rng.choice(ALGOS)
    opts = {}
    if rng.random() < 0.9:
        opts["iterations"] = rng.choice([1, 2, 3, 5, 10, 20, 37, 60])
    if rng.random() < 0.7:
        opts["damping"] = rng.choice([0, 0.3, 0.5])
    if rng.random() < 0.5:
        opts["tolerance"] = rng.choice([0, 1e-6, 1e-3, 0.01])
    if rng.random() < 0.8:
        opts["schedule"] = rng.choice(["sequential", "parallel"])
    if rng.random() < 0.8:
        opts["alldiff"] = rng.choice(["pairwise", "native"])
    if rng.random() < 0.6:
        opts["projection"] = rng.choice(["mean", "mean-square"])
    opts.update(force or {})
    return algo, "infer %s(%s)" % (algo, ", ".join(
        "%s = %s" % kv for kv in opts.items()))


def gen_observe(rng, m, pseudo_counts):
    """A random --observe file: assignment lines for some arrays (observed
    ones mostly), '.' leaving a variable free; with pseudo_counts, lines
    that set priors' pseudo-counts too, which the brute-force oracle does
    not model.  Returns (text, {var: value})."""
    out, obs = [], {}
    for aname, cnt, di, observed, first in m.arrays:
        if (not observed and rng.random() < 0.8) or rng.random() < 0.3:
            continue
        lo, hi = m.doms[di]
        vals = []
        for j in range(cnt or 1):
            if rng.random() < 0.6:
                x = rng.randint(lo, hi)
                vals.append(str(x))
                obs[first + j] = x
            else:
                vals.append(".")
        out.append("%s = %s" % (aname, " ".join(vals)))
    if pseudo_counts:
        # Not on a prior a clue is a point mass on: both would observe
        # its node, which the observation reader refuses.
        clued = {name for name, _ in brute.point_masses(m, obs)}
        for p in m.priors:
            if rng.random() < 0.5 and p["name"] not in clued:
                k = len(p["alpha"]) * (p["count"] or 1)
                out.append("%s = %s" % (p["name"], " ".join(
                    str(rng.choice([0.5, 1, 2, 7.5, 1e-8, 3]))
                    for _ in range(k))))
    return "".join(line + "\n" for line in out), obs
