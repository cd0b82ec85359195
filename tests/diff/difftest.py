#!/usr/bin/env python3
# tests/diff/difftest.py: differential test of fgm run on random models.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Differential test of `fgm run` (Python 3 standard library only).

Model i of a run is drawn from seed N+i alone, so a failure reported for
seed S is reproduced by `--seed S --models 1`.  Each model is checked by
three oracles and a sanity check:

  1. compiled == interpreted to 1e-12 (the backends' contract: same
     schedule, same arithmetic), on the model's infer block and on one
     random --algo/--iters/--damping/--tolerance override; both backends
     run from one --out-dir per model, so each plugin is compiled once;
     and, one model in three, the gibbs sampler's draws from one seed
     equal to the bit (its own random stream: the other runs stay the
     seeds'), and one in three vmp's mean field (a third of those with
     --restarts) equal to the bit, its bound on log Z at most brute.py's
     log Z (and none where no assignment has weight);
  2. --backend exact == brute.py's enumeration to 1e-9 (Dirichlet priors
     integrated out; max-marginals for a bp-max model), and exit 1
     exactly when no assignment is possible; with its default method
     (variable elimination here) and with --exact-method enumeration;
     and --map by both methods: the log weight of brute force's best
     assignment to 1e-9, and an assignment of that weight; and each
     prior's exact posterior mean ("mean", not for bp-max models) to 1e-9,
     or for a bp-max model the log of the largest weight ("log_z") by
     both methods;
  3. on forests without priors, bp-sum (bp-max for a bp-max model) ==
     --backend exact to 1e-9;
  4. sanity, on every output: exit 0, no NaN, marginals >= 0 summing to 1,
     every variable reported, finite pseudo-counts, and each variable an
     --observe line sets (when the observations are satisfiable) has most
     of its mass on the value it was set to.

The regression models of REGRESSIONS run first, whatever the seed.
"""

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True         # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
import gen    # noqa: E402

COMPILED_TOL = 1e-12    # README: the backends agree to 1e-12 by contract
EXACT_TOL = 1e-9        # enumeration in C and in Python sum in other orders
CLUE_EPSILON = 1e-8     # fgm.h's FGM_CLUE_EPSILON: a clue's point mass
BRUTE_MAX = 20000       # assignments brute.py enumerates at most
TIMEOUT_S = 120         # per fgm process; a plugin build is most of it


class Failure(Exception):
    """One failed check: what, and the runs that show it."""

    def __init__(self, what, runs=(), diff=None, note=""):
        Exception.__init__(self, what)
        self.what, self.runs, self.diff = what, list(runs), diff
        self.note = note


class Case:
    """One model on disk and the fgm runs made on it."""

    def __init__(self, opts, label, model, algo, infer, obs_text, obs,
                 pseudo=False):
        self.opts, self.label, self.model = opts, label, model
        self.algo, self.text = algo, model.text(infer)
        self.pseudo = pseudo        # obs_text sets pseudo-counts
        self.obs_text, self.obs = obs_text, obs
        base = os.path.join(opts.workdir, model.name)
        self.path, self.obs_path = base + ".fgm", base + ".obs"
        self.out_dir = base + ".gen"
        with open(self.path, "w") as f:
            f.write(self.text)
        self.oargs = []
        if obs_text:
            with open(self.obs_path, "w") as f:
                f.write(obs_text)
            self.oargs = ["--observe", self.obs_path]

    def run(self, backend, extra=(), oargs=None):
        """Runs fgm run on the model; returns a dict with the command, exit
        status, outputs and parsed JSON (None unless it exited 0).  OARGS:
        other --observe arguments than the case's own."""
        cmd = [self.opts.fgm, "run", self.path, "--format", "json",
               "--backend", backend, "--out-dir", self.out_dir]
        cmd += (self.oargs if oargs is None else oargs) + list(extra)
        r = dict(cmd=" ".join(cmd), rc=None, out="", err="", json=None)
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            r["err"] = "(killed after %d s)" % TIMEOUT_S
            return r
        r.update(rc=p.returncode, out=p.stdout, err=p.stderr)
        if p.returncode == 0:
            try:
                r["json"] = json.loads(p.stdout)
            except ValueError:
                raise Failure("output is not JSON", [r])
        return r

    def clean(self):
        for p in (self.path, self.obs_path, self.obs_path + ".all"):
            if os.path.exists(p):
                os.remove(p)
        shutil.rmtree(self.out_dir, ignore_errors=True)


def must_succeed(case, r):
    if r["rc"] != 0:
        raise Failure("exit status %s" % r["rc"], [r])
    sanity(case, r)
    return r["json"]


def sanity(case, r):
    """No NaN, marginals that are distributions over every variable."""
    labels = [lab for lab, _ in case.model.vars]
    for o in r["json"]:
        got = o.get("marginals", {})
        if sorted(got) != sorted(labels):
            raise Failure("variables reported: %s, declared: %s"
                          % (sorted(got), sorted(labels)), [r])
        for v, lab in enumerate(labels):
            p = got[lab]
            if (len(p) != case.model.card(v)
                    or any(math.isnan(x) or x < -1e-15 for x in p)
                    or abs(sum(p) - 1) > 1e-9):
                raise Failure("%s: marginal %r is not a distribution"
                              % (lab, p), [r])
        for name, a in o.get("alpha", {}).items():
            if any(not math.isfinite(x) or x < 0 for x in a):
                raise Failure("%s: pseudo-counts %r" % (name, a), [r])


def observed_sanity(case, r):
    """Each variable set by --observe keeps most mass on its value."""
    los = [case.model.doms[d][0] for _, d in case.model.vars]
    for v, x in sorted(case.obs.items()):
        lab = case.model.vars[v][0]
        p = r["json"][0]["marginals"][lab]
        if p[x - los[v]] < 0.5:
            raise Failure("%s is observed = %d, its marginal is %r"
                          % (lab, x, p), [r])


def maxdiff(a, b):
    """Largest difference between two runs' marginals and pseudo-counts
    (inf when they do not have the same shape)."""
    if len(a) != len(b):
        return math.inf
    d = 0.0
    for oa, ob in zip(a, b):
        for key in ("marginals", "alpha"):
            xa, xb = oa.get(key, {}), ob.get(key, {})
            if sorted(xa) != sorted(xb):
                return math.inf
            for k in xa:
                if len(xa[k]) != len(xb[k]):
                    return math.inf
                for x, y in zip(xa[k], xb[k]):
                    d = max(d, abs(x - y))
    return d


def diff_to(labels, res, ref):
    """Largest difference between a run's marginals and per-variable
    lists in ref."""
    return max(abs(x - y) for v, lab in enumerate(labels)
               for x, y in zip(res[0]["marginals"][lab], ref[v]))


def check_map(case, labels, found):
    """--map by elimination and by enumeration (branch and bound) against
    FOUND, brute force's weighted assignments (not empty): the best log
    weight, and an assignment that has it."""
    m = case.model
    top = max(lw for lw, _ in found)
    weight = {a: lw for lw, a in found}
    los = [m.doms[d][0] for _, d in m.vars]
    # Elimination declines a draw whose prior a variable picks.
    methods = ("enumeration",) if m.gated else ("elimination", "enumeration")
    for method in methods:
        r = case.run("exact", ["--map", "--exact-method", method])
        if r["rc"] != 0:
            raise Failure("--map by %s: exit status %s" % (method, r["rc"]),
                          [r])
        got = r["json"][0]
        a = tuple(got["map"][lab] - los[v] for v, lab in enumerate(labels))
        # Branch and bound keeps a leaf within 1e-9 (1 + |top|) of the
        # best: ten times that here, so a near-tie cannot fail spuriously.
        tol = 10 * EXACT_TOL * (1.0 + abs(top))
        if abs(got["log_weight"] - top) > tol \
           or abs(weight.get(a, -math.inf) - top) > tol:
            raise Failure("--map by %s is not a best assignment" % method,
                          [r], note="brute force: best log weight %.17g; "
                          "this assignment's %s\n"
                          % (top, weight.get(a, "none (weight 0)")))


def check_log_z(case, what, r, want):
    """The log_z of run R (its first observation set) is WANT, to
    EXACT_TOL relative to its size; raises Failure."""
    got = r["json"][0].get("log_z")
    if got is None or abs(got - want) > EXACT_TOL * max(1.0, abs(want)):
        raise Failure("%s: log Z %s, brute force %.12g" % (what, got, want),
                      [r])


def check(case, rng, counts):
    """Runs every oracle that applies to case; raises Failure."""
    m = case.model
    labels = [lab for lab, _ in m.vars]
    first = case.run("interpreted")
    if first["rc"] == 1 and ": error:" in first["err"]:
        # The generator avoids what the compiler rejects; a rejection is
        # counted, and main() fails the run when they become common.  A
        # regression model is one fgm ran once: its rejection is a
        # failure (skipped, it passed with no oracle run).
        if not case.label.startswith("seed "):
            raise Failure("a regression model was rejected", [first])
        counts["rejected"] += 1
        return
    must_succeed(case, first)

    # Oracle 1: compiled against interpreted.  Another --algo is another
    # plugin to compile, a second or so: one override in four has one.
    algo = case.algo
    if rng.random() < 0.25:
        algo = rng.choice([a for a in gen.ALGOS if a != algo])
    override = ["--algo", algo]
    if rng.random() < 0.7:
        override += ["--iters", str(rng.randint(1, 60))]
    if rng.random() < 0.6:
        override += ["--damping", str(rng.choice([0, 0.3, 0.5]))]
    if rng.random() < 0.4:
        override += ["--tolerance", str(rng.choice([0, 1e-9, 1e-4, 0.05]))]
    for extra in ([], override):
        a = case.run("interpreted", extra) if extra else first
        b = case.run("compiled", extra)
        ja, jb = must_succeed(case, a), must_succeed(case, b)
        counts["compiled"] += 1
        d = maxdiff(ja, jb)
        if d > COMPILED_TOL:
            raise Failure("compiled and interpreted differ", [a, b], d)

    # Oracle 1b: the gibbs sampler on both backends, one case in three: the
    # same seed gives the same draws, so the same bits.  Its choices come
    # from a stream of their own, so that the other oracles' runs stay
    # those of their seeds.
    grng = random.Random("gibbs " + case.label)
    if grng.random() < 1.0 / 3:
        extra = ["--algo", "gibbs", "--iters", str(grng.randint(1, 300)),
                 "--seed", str(grng.randint(0, 1000))]
        a, b = case.run("interpreted", extra), case.run("compiled", extra)
        counts["gibbs"] += 1
        d = maxdiff(must_succeed(case, a), must_succeed(case, b))
        if d > 0:
            raise Failure("gibbs: compiled and interpreted differ", [a, b], d)

    # Oracle 1c: vmp (mean field) on both backends, one case in three, on
    # a stream of its own: the same bits; its bound is checked against
    # brute force's log Z below.
    vrng = random.Random("vmp " + case.label)
    vmp = None
    if vrng.random() < 1.0 / 3:
        extra = ["--algo", "vmp", "--iters", str(vrng.randint(1, 200))]
        if vrng.random() < 1.0 / 3:     # restarts from random starts
            extra += ["--restarts", str(vrng.randint(2, 6)),
                      "--seed", str(vrng.randint(0, 1000))]
        vmp, b = case.run("interpreted", extra), case.run("compiled", extra)
        counts["vmp"] += 1
        d = maxdiff(must_succeed(case, vmp), must_succeed(case, b))
        bounds = [r["json"][0].get("log_z_bound") for r in (vmp, b)]
        if d > 0 or bounds[0] != bounds[1]:
            raise Failure("vmp: compiled and interpreted differ", [vmp, b],
                          d)

    # Oracle 2: exact backend against enumeration (not with pseudo-count
    # lines, which brute.py does not model, nor on big models).
    if case.pseudo or m.size() > BRUTE_MAX:
        return
    found = brute.leaves(m, case.obs)
    truth = brute.marginals(m, case.obs, case.algo == "bp-max")
    ex = case.run("exact")
    counts["exact"] += 1
    if truth is None:
        if ex["rc"] != 1:
            raise Failure("no assignment has weight, yet exact exits %s"
                          % ex["rc"], [ex])
        check_vmp_bound(case, vmp)
        return
    jex = must_succeed(case, ex)
    d = diff_to(labels, jex, truth)
    if d > EXACT_TOL:
        raise Failure("exact backend differs from brute force", [ex], d,
                      "brute force: %s\n" % json.dumps(dict(zip(labels,
                                                               truth))))
    # The backend's own enumeration too (auto runs elimination on these).
    en = case.run("exact", ["--exact-method", "enumeration"])
    d = diff_to(labels, must_succeed(case, en), truth)
    if d > EXACT_TOL:
        raise Failure("exact enumeration differs from brute force", [en], d,
                      "brute force: %s\n" % json.dumps(dict(zip(labels,
                                                               truth))))
    check_map(case, labels, found)
    if case.algo != "bp-max":
        check_log_z(case, "exact backend", ex, brute.log_z(found))
        check_log_z(case, "exact enumeration", en, brute.log_z(found))
        want = brute.dirichlet_means(m, found, case.obs)
        got = list(jex[0].get("mean", {}).values())
        if len(got) != len(want) or any(
                len(g) != len(w) or any(abs(x - y) > EXACT_TOL
                                        for x, y in zip(g, w))
                for g, w in zip(got, want)):
            raise Failure("exact posterior means differ from brute force",
                          [ex], note="brute force: %s\n" % json.dumps(want))
    else:
        # Max-marginals come with the log of the largest weight, from
        # every exact method.
        top = max(lw for lw, _ in found)
        check_log_z(case, "exact backend (max)", ex, top)
        check_log_z(case, "exact enumeration (max)", en, top)
    observed_sanity(case, ex)
    observed_sanity(case, first)
    check_vmp_bound(case, vmp)

    check_ep_observed(case, found, counts)

    # Oracle 3: BP is exact on a forest: sum-product's marginals, or for
    # a bp-max model (whose exact answer is max-marginals) max-product's.
    # A prior node drawn once keeps it exact (BP sends the node's mean,
    # the draw's predictive), a clue's point mass with its 1e-8 too: the
    # reference is brute force on the model BP ran, those 1e-8 kept.
    if m.tree and single_draws(m):
        bp_algo = "bp-max" if case.algo == "bp-max" else "bp-sum"
        bp = case.run("interpreted", ["--algo", bp_algo, "--iters", "60",
                                      "--damping", "0", "--tolerance", "0"])
        counts["tree"] += 1
        ref = brute.marginals(m, case.obs, bp_algo == "bp-max",
                              CLUE_EPSILON)
        d = diff_to(labels, must_succeed(case, bp), ref)
        if d > EXACT_TOL:
            raise Failure("%s on a forest differs from brute force"
                          % bp_algo, [bp, ex], d,
                          "brute force: %s\n" % json.dumps(ref))
        # The Bethe free energy is log Z there; with maxima, the log of
        # the largest weight.
        eps_found = brute.leaves(m, case.obs, CLUE_EPSILON)
        want = brute.log_z(eps_found) if bp_algo == "bp-sum" \
            else max(lw for lw, _ in eps_found)
        check_log_z(case, "%s on a forest" % bp_algo, bp, want)


def check_ep_observed(case, found, counts):
    """Oracle 4: with every variable observed, at an assignment of FOUND
    (leaves() of the case's observations) drawn on a stream of its own,
    EP's evidence
    is exact: each Dirichlet node's Dirichlet-multinomial times the
    factors' weights there (a clue's point mass keeps its 1e-8: brute
    force on the model EP ran).  Its formula and the operators' posteriors
    meet every prior, gate, projection and factor the generator writes
    (tiny pseudo-counts once gave -1327 for log 1/3)."""
    m = case.model
    orng = random.Random("observed " + case.label)
    _, assign = found[orng.randrange(len(found))]
    obs, lines = {}, []
    for aname, cnt, di, _, first in m.arrays:
        lo = m.doms[di][0]
        vals = [lo + assign[first + j] for j in range(cnt or 1)]
        obs.update((first + j, x) for j, x in enumerate(vals))
        lines.append("%s = %s\n" % (aname, " ".join(map(str, vals))))
    path = case.obs_path + ".all"
    with open(path, "w") as f:
        f.write("".join(lines))
    ep = case.run("interpreted", ["--algo", "ep", "--iters", "50"],
                  ["--observe", path])
    counts["observed"] += 1
    must_succeed(case, ep)
    check_log_z(case, "ep with every variable observed", ep,
                brute.log_z(brute.leaves(m, obs, CLUE_EPSILON)))


def check_vmp_bound(case, vmp):
    """Mean field's bound (run VMP, or None) never passes log Z (JSON
    leaves out -inf), nor is a number where no assignment has weight: the
    log Z of the model it ran, its clues' point masses of FGM_CLUE_EPSILON,
    not their limit the exact backend takes (a clue of 3 on a variable
    that a `fix` sets to 0 leaves the exact backend no assignment, the
    model vmp ran one of weight 1e-8)."""
    bound = vmp["json"][0].get("log_z_bound") if vmp else None
    if bound is None:
        return
    eps_found = brute.leaves(case.model, case.obs, CLUE_EPSILON)
    if not eps_found:
        raise Failure("no assignment has weight, yet vmp bounds log Z "
                      "by a number", [vmp])
    z = brute.log_z(eps_found)
    if bound > z + EXACT_TOL * max(1.0, abs(z)):
        raise Failure("vmp's bound %.12g passes log Z %.12g" % (bound, z),
                      [vmp])


def single_draws(m):
    """Whether every prior node of m is drawn from once at most, by a
    plain draw (none picked by a gate)."""
    nodes = [(pname, node) for _, pname, node in m.links]
    return len(nodes) == len(set(nodes)) and not getattr(m, "gated", ())


def random_case(opts, seed):
    """The model, infer block and observations of one seed."""
    rng = random.Random(seed)
    name = "m%d" % seed
    r = rng.random()
    if r < 0.2:
        m, force = gen.gen_cover(rng, name), None
    else:
        tree = r < 0.45
        m = gen.gen_model(rng, name, tree)
        force = {"alldiff": "native"} if tree else None
    algo, infer = gen.infer_block(rng, force)
    pseudo = rng.random() < 0.25
    obs_text, obs = gen.gen_observe(rng, m, pseudo)
    return Case(opts, "seed %d" % seed, m, algo, infer, obs_text, obs,
                pseudo), rng


def report(case, err, opts):
    """Everything needed to see the failure without rerunning it."""
    w = sys.stderr.write
    w("\n==== difftest FAILURE (%s): %s\n" % (case.label, err.what))
    if err.diff is not None:
        w("max difference: %g\n" % err.diff)
    w(err.note)
    w("---- model %s\n%s" % (case.path, case.text))
    if case.obs_text:
        w("---- observations %s\n%s" % (case.obs_path, case.obs_text))
    for r in err.runs:
        w("---- $ %s\nexit %s\n%s" % (r["cmd"], r["rc"], r["out"][:4000]))
        if r["err"]:
            w("stderr:\n%s" % r["err"][-2000:])
        if not r["out"].endswith("\n"):
            w("\n")
    if case.label.startswith("seed "):
        again = "--seed %s --models 1" % case.label[5:]
    else:
        again = "--models 0"
    w("---- reproduce: python3 %s --fgm %s %s --workdir %s\n"
      % (sys.argv[0], opts.fgm, again, opts.workdir))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fgm", required=True, help="the fgm binary")
    ap.add_argument("--seed", type=int, default=1,
                    help="model i is drawn from seed SEED+i")
    ap.add_argument("--models", type=int, default=34,
                    help="random models to check")
    ap.add_argument("--workdir", required=True,
                    help="folder for models and plugins (kept on failure)")
    ap.add_argument("--no-regressions", action="store_true",
                    help="skip the fixed regression models")
    opts = ap.parse_args()
    opts.fgm = os.path.abspath(opts.fgm)
    os.makedirs(opts.workdir, exist_ok=True)
    t0 = time.time()
    counts = dict(models=0, rejected=0, compiled=0, gibbs=0, vmp=0, exact=0,
                  observed=0, tree=0)
    failed = []
    cases = [] if opts.no_regressions else list(REGRESSIONS)
    cases += [opts.seed + i for i in range(opts.models)]
    for c in cases:
        if isinstance(c, int):
            case, rng = random_case(opts, c)
        else:
            case, rng = c(opts), random.Random(c.__name__)
        counts["models"] += 1
        try:
            check(case, rng, counts)
            case.clean()
        except Failure as err:
            report(case, err, opts)
            failed.append(case.label)
    # Rejected models run no oracle: an fgm that refused every model
    # passed ("37 rejected, 0 compiled pairs ... ok").  Seeds 1..34 draw
    # none; more than a quarter of the random ones is a failure.
    if opts.models and counts["rejected"] * 4 > opts.models:
        sys.stderr.write("\n==== difftest FAILURE: %d of %d random models "
                         "rejected\n" % (counts["rejected"], opts.models))
        failed.append("%d rejected" % counts["rejected"])
    seeds = ("seeds %d..%d" % (opts.seed, opts.seed + opts.models - 1)
             if opts.models else "no random ones")
    print("difftest: %d models (%s), %d rejected, %d compiled pairs "
          "(%d gibbs, %d vmp), %d exact (%d fully observed), %d forests: "
          "%s, %.1f s"
          % (counts["models"], seeds,
             counts["rejected"], counts["compiled"], counts["gibbs"],
             counts["vmp"], counts["exact"], counts["observed"],
             counts["tree"], "%d FAILED (%s)" % (len(failed),
                                                ", ".join(failed))
             if failed else "ok", time.time() - t0))
    return 1 if failed else 0


# ---- regression models -------------------------------------------------
# Bugs the random models found, as the smallest models that show them; they
# run first so that no change of the generator or the seed loses them.

def model(name, doms, arrays, priors=(), links=(), factors=(), lines=()):
    """A hand-written gen.Model: arrays are (name, count or None, dom
    index, observed); lines are the model's statements."""
    m = gen.Model(name)
    m.doms, m.priors = list(doms), list(priors)
    m.links, m.factors = list(links), list(factors)
    m.lines += list(lines)
    for aname, cnt, di, observed in arrays:
        m.arrays.append((aname, cnt, di, observed, len(m.vars)))
        m.vars += [(aname, di)] if cnt is None else [
            ("%s[%d]" % (aname, j), di) for j in range(cnt)]
    return m


def reg_shared_observed_prior(opts):
    """A clue on a variable drawn from an observed prior was a point mass
    on that prior even when other variables drew from it too: every
    sharer took the last clue's value (roll[0] = 1 came out as 3)."""
    m = model("reg_shared_observed_prior", [(1, 3)],
              [("roll", 3, 0, True), ("z", None, 0, False)],
              [dict(name="p", count=None, alpha=[1.0] * 3, observed=True)],
              [(v, "p", 0) for v in range(4)],
              lines=["observed prior p ~ dirichlet(3)",
                     "observed var roll[3] in 1..3 ~ discrete(p)",
                     "var z in 1..3 ~ discrete(p)"])
    return Case(opts, "regression shared_observed_prior", m, "ep",
                "infer ep(iterations = 20)", "roll = 1 3 3\n",
                {0: 1, 1: 3, 2: 3})


def reg_dlx_dirichlet(opts):
    """--backend exact took Dancing Links' solution counts for marginals
    on an exact-cover model whose Dirichlet prior weighs the solutions
    (Dir(5, 1) drawn from twice: x[0] = 0 has 35/42, not 1/2)."""
    m = model("reg_dlx_dirichlet", [(0, 1)],
              [("x", 2, 0, False), ("y", 2, 0, False)],
              [dict(name="p", count=None, alpha=[5, 1], observed=False)],
              [(0, "p", 0), (1, "p", 0)],
              [("alldiff", [0, 2]), ("alldiff", [1, 3])],
              ["prior p ~ dirichlet([5, 1])",
               "var x[2] in 0..1 ~ discrete(p)", "var y[2] in 0..1",
               "alldiff(x[0], y[0])", "alldiff(x[1], y[1])"])
    return Case(opts, "regression dlx_dirichlet", m, "ep",
                "infer ep(iterations = 50)", "", {})


def reg_bp_max_exact(opts):
    """A bp-max model's exact answer is its max-marginals: the best pair
    of a.b = [[4, 0], [3, 3]] is (0, 0), yet a = 1 carries more mass
    (a = 0: 4/7 against the marginal 0.4).  The exact backend printed
    sum marginals for it; then this test compared its max-marginals with
    brute-force sums.  A tree: bp-max itself must give them too."""
    m = model("reg_bp_max_exact", [(0, 1)],
              [("a", None, 0, False), ("b", None, 0, False)],
              factors=[("table", [0, 1], [4, 0, 3, 3])],
              lines=["var a in 0..1", "var b in 0..1",
                     "table (a, b) = [[4, 0], [3, 3]]"])
    m.tree = True
    return Case(opts, "regression bp_max_exact", m, "bp-max",
                "infer bp-max(iterations = 10)", "", {})


def reg_clue_point_mass(opts):
    """A clue on a variable that alone draws from an observed prior is a
    point mass on the prior, as message passing takes it: the exact
    backend weighed the draw a_x / A instead (log Z log(3/16) against
    bp-sum's log(1/4), and x[0]'s node a mean of (1, 4) / 5 where it is
    the point mass (0, 1)), and vmp's bound passed that log Z (seed
    7105)."""
    m = model("reg_clue_point_mass", [(0, 1)], [("x", 2, 0, True)],
              [dict(name="p", count=2, alpha=[1.0, 3.0], observed=True)],
              [(0, "p", 0), (1, "p", 1)], [("neq", [0, 1])],
              ["observed prior p[2] ~ dirichlet([1, 3])",
               "observed var x[2] in 0..1 ~ discrete(p)", "x[0] != x[1]"])
    m.tree = True
    return Case(opts, "regression clue_point_mass", m, "bp-sum",
                "infer bp-sum(iterations = 20)", "x[0] = 1\n", {0: 1})


REGRESSIONS = [reg_shared_observed_prior, reg_dlx_dirichlet,
               reg_bp_max_exact, reg_clue_point_mass]

if __name__ == "__main__":
    sys.exit(main())
