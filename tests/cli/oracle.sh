# tests/cli/oracle.sh: small models whose message passing is exact (a
# tree, a fixed point that holds at once), each backend against the exact
# one.  SPDX-License-Identifier: GPL-3.0-or-later
#
# The difftest compares the backends on random models; these pin the
# corners it may not draw, each one a mutation that passed every other
# test (2026-12-07): a sum of +-1 coefficients in a plugin, a near-sure
# cell beside a native alldiff, pseudo-counts of 1e-4.
. "$(dirname "$0")/common.bash"

# agree NAME TOL [run options]: NAME.fgm's marginals (lines "VAR p1 ...")
# on the compiled and interpreted backends within TOL of the exact ones.
agree() {
    local name=$1 tol=$2 b; shift 2
    "$FGM" run "$TMP/$name.fgm" --backend exact "$@" >"$TMP/$name.exact" \
        2>"$TMP/err" || { fail "$name, exact: exit $?: $(head -c 300 "$TMP/err")"; return; }
    for b in compiled interpreted; do
        "$FGM" run "$TMP/$name.fgm" --backend $b --out-dir "$TMP/gen" "$@" \
            >"$TMP/$name.$b" 2>"$TMP/err" ||
            { fail "$name, $b: exit $?: $(head -c 300 "$TMP/err")"; continue; }
        python3 - "$TMP/$name.exact" "$TMP/$name.$b" "$tol" <<'EOF' ||
import sys
def marg(path):
    out = {}
    for line in open(path):
        w = line.split()
        if w and not line.startswith('#') and w[1] not in ('alpha', 'mean'):
            out[w[0]] = [float(x) for x in w[1:]]
    return out
a, b, tol = marg(sys.argv[1]), marg(sys.argv[2]), float(sys.argv[3])
assert a and a.keys() == b.keys(), (a, b)
bad = [(k, a[k], b[k]) for k in a
       if len(a[k]) != len(b[k]) or any(abs(x - y) > tol for x, y in zip(a[k], b[k]))]
assert not bad, bad
EOF
            fail "$name, $b: not within $tol of exact: $(cat "$TMP/$name.$b")"
    done
}

# A sum whose coefficients are +-1 (a plugin spells those without the
# multiplication): x == y holds on the diagonal, so y takes x's evidence.
printf 'model pm\nvar x in 0..2\nvar y in 0..2\nevidence x = [0.2, 0.3, 0.5]\nsum(x, -1 * y) == 0\ninfer bp-sum(iterations = 10)\n' > "$TMP/pm.fgm"
agree pm 1e-12
"$FGM" run "$TMP/pm.fgm" --backend compiled --out-dir "$TMP/gen" 2>/dev/null |
    grep -qx 'y 0.2 0.3 0.5' || fail "pm: y is not x's evidence"

# One native alldiff is a tree: bp-sum is exact on it.  A cell at
# 0.9991 is not fixed (only above 1 - 1e-9: the seed's given cells), so
# its message moves it to 0.998701.
printf 'model near\nvar x[3] in 1..3\nalldiff x[*]\nevidence x[0] = [0.9991, 0.0005, 0.0004]\nevidence x[1] = [0.5, 0.5, 0]\ninfer bp-sum(iterations = 50, alldiff = native)\n' > "$TMP/near.fgm"
agree near 1e-9

# EP with pseudo-counts of 1e-4: two draws observed, the others'
# predictive (alpha + counts) / (sum): 0.499975 0.499975 4.99925e-05,
# which the cavity's floor (1e-12) leaves alone.
printf 'model tiny\nprior p ~ dirichlet([0.0001, 0.0001, 0.0001])\nvar x[4] in 1..3 ~ discrete(p)\nx[0] != x[1]\ninfer ep(iterations = 50)\n' > "$TMP/tiny.fgm"
printf 'x = 1 2 . .\n' > "$TMP/tiny.obs"
agree tiny 1e-9 --observe "$TMP/tiny.obs"
finish
