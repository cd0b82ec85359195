# tests/cli/exact.sh: --backend exact by variable elimination.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

# csv_p FILE: "variable value p" rows of an `fgm run --format csv`.
csv_p() { awk -F, 'NR > 1 { print $1, $3, $4, $5 }' "$1"; }

# agree A B WHAT: the p columns of two such row files agree to 1e-9,
# row for row, and have as many rows.
agree() {
    [ "$(wc -l < "$1")" -eq "$(wc -l < "$2")" ] && [ -s "$1" ] ||
        { fail "$3: $(wc -l < "$1") rows against $(wc -l < "$2")"; return; }
    paste -d' ' "$1" "$2" | awk -v what="$3" '
        $1 != $5 || $2 != $6 || $3 != $7 { print what ": rows differ: " $0; bad = 1; exit }
        { d = $4 - $8; if (d < 0) d = -d; if (d > 1e-9) { print what ": " $0; bad = 1; exit } }
        END { exit bad }' >&2 || fail "$3"
}

# The chain model, under several observation sets: elimination (the
# default) and enumeration give the same marginals.
printf 'x[2] = 1\n---\nx[5] = 0\nx[1] = 2\n---\nx[3] = 2\n' > "$TMP/obs.txt"
expect_exit 0 "chain, elimination" -- "$FGM" run models/chain.fgm --backend exact --observe "$TMP/obs.txt" --format csv
csv_p "$TMP/out" > "$TMP/elim"
expect_exit 0 "chain, enumeration" -- "$FGM" run models/chain.fgm --backend exact --exact-method enumeration --observe "$TMP/obs.txt" --format csv
csv_p "$TMP/out" > "$TMP/enum"
agree "$TMP/elim" "$TMP/enum" "chain: elimination against enumeration"
expect_exit 0 "chain, text" -- "$FGM" run models/chain.fgm --backend exact --observe "$TMP/obs.txt"
expect_out "^# observation 2: exact \(variable elimination\), width=2, log Z=" "header names the method"

# A die whose rolls are coupled through its Dirichlet prior
# and through evidence, some observed (the clues fold into the
# pseudo-counts, the free rolls share one table).
printf '%s\n' 'model die' 'prior p ~ dirichlet([1, 2, 0.5])' \
    'observed var r[6] in 1..3 ~ discrete(p)' \
    'evidence r[4] = [0.2, 0.3, 0.5]' 'table (r[0], r[5]) = [[1, 2, 3], [1, 1, 1], [4, 0, 1]]' \
    'infer ep' > "$TMP/die.fgm"
printf 'r[1] = 3\nr[2] = 3\nr[3] = 1\n' > "$TMP/rolls.txt"
for m in elimination enumeration; do
    expect_exit 0 "die, $m" -- "$FGM" run "$TMP/die.fgm" --backend exact --exact-method $m --observe "$TMP/rolls.txt" --format csv
    csv_p "$TMP/out" > "$TMP/die.$m"
done
agree "$TMP/die.elimination" "$TMP/die.enumeration" "die: elimination against enumeration"

# A hidden Markov chain of 2000 steps, 3^2000 assignments: elimination
# is exact at once, and so is bp-sum on a tree; both backends agree.
{
    echo 'model hmm'
    echo 'const T = 2000'
    echo 'var h[T] in 0..2'
    echo 'observed var y[T] in 0..1'
    echo 'table (h[t], h[t+1]) = [[8, 1, 1], [1, 8, 1], [2, 1, 7]] for t in 0..T-2'
    echo 'table (h[t], y[t]) = [[9, 1], [5, 5], [1, 9]] for t in 0..T-1'
    echo 'infer bp-sum(iterations = 2, schedule = sequential)'
} > "$TMP/hmm.fgm"
awk 'BEGIN { srand(3); for (t = 0; t < 2000; t++) printf "y[%d] = %d\n", t, rand() < 0.5 }' > "$TMP/ys.txt"
expect_exit 0 "hmm, elimination" -- "$FGM" run "$TMP/hmm.fgm" --backend exact --observe "$TMP/ys.txt" --format csv --show h
csv_p "$TMP/out" > "$TMP/hmm.exact"
expect_exit 0 "hmm, bp-sum" -- "$FGM" run "$TMP/hmm.fgm" --backend interpreted --observe "$TMP/ys.txt" --format csv --show h
csv_p "$TMP/out" > "$TMP/hmm.bp"
agree "$TMP/hmm.exact" "$TMP/hmm.bp" "hmm: elimination against bp-sum"
[ "$(wc -l < "$TMP/hmm.exact")" -eq 6000 ] || fail "hmm: 6000 rows"

# --timeout-ms stops elimination too (polled once a clique); it has no
# partial answer, so the set is refused (exit 1), as with --map.
for map in "" --map; do
    expect_exit 1 "elimination deadline $map" -- "$FGM" run "$TMP/hmm.fgm" --backend exact --observe "$TMP/ys.txt" --timeout-ms 0.000001 $map
    expect_err "ys.txt:1: error: observation 0: variable elimination ran past --timeout-ms \(it has no partial answer\)" "elimination deadline $map: says so"
done

# Max-marginals: the same on the chain by both methods.
for m in elimination enumeration; do
    expect_exit 0 "chain bp-max, $m" -- "$FGM" run models/chain.fgm --algo bp-max --backend exact --exact-method $m --format csv
    csv_p "$TMP/out" > "$TMP/max.$m"
done
agree "$TMP/max.elimination" "$TMP/max.enumeration" "bp-max: elimination against enumeration"

# JSON gives log Z as a number, from elimination and from enumeration.
expect_exit 0 "json log_z" -- "$FGM" run models/chain.fgm --backend exact --format json --show 'x[0]'
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))[0]; assert abs(d["log_z"] - 8.958797346) < 1e-8, d' "$TMP/out" || fail "json log_z: $(cat "$TMP/out")"
expect_exit 0 "json, enumeration" -- "$FGM" run models/chain.fgm --backend exact --exact-method enumeration --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))[0]; assert abs(d["log_z"] - 8.958797346) < 1e-8, d' "$TMP/out" || fail "json, enumeration: $(head -c 300 "$TMP/out")"
# Where elimination declines (a Dirichlet shared by 8 draws: one table of
# 8^8 entries) and auto enumerates: the 8! orders, each of weight
# 1 / (8 9 ... 15) (a Polya urn of pseudo-counts 1).
printf 'prior p ~ dirichlet(8)\nvar x[8] in 0..7 ~ discrete(p)\nalldiff x\n' > "$TMP/dperm.fgm"
expect_exit 0 "json, elimination declines" -- "$FGM" run "$TMP/dperm.fgm" --backend exact --format json
python3 -c 'import json, sys, math; d = json.load(open(sys.argv[1]))[0]; assert "enumeration" in d["info"] and abs(d["log_z"] - math.log(math.factorial(8) * math.factorial(7) / math.factorial(15))) < 1e-9, d' "$TMP/out" ||
    fail "json, elimination declines: $(head -c 300 "$TMP/out")"
# A walk the cap stops has no log Z: the header says incomplete, and the
# record has no log_z.
expect_exit 0 "json, enumeration capped" -- "$FGM" run "$TMP/dperm.fgm" --backend exact --cap 10 --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))[0]; assert "log_z" not in d and d["incomplete"], d' "$TMP/out" ||
    fail "json, enumeration capped: $(head -c 300 "$TMP/out")"

# Dancing Links counts the solutions of an unweighted exact cover, each
# of weight 1: log Z is the count's log (72 for this 4x4 puzzle).
printf '1...............\n' > "$TMP/p72.txt"
expect_exit 0 "dlx log Z" -- "$FGM" run sudoku:2 --backend exact --observe "$TMP/p72.txt"
expect_out "^# observation 0: exact \(dancing links\), solutions=72, log Z=4\.276666119$" "dlx log Z: log 72"
# Each solution weighs what the model's even weights give it: a 3x3
# Latin square's 12, each times an evidence of 0.5 (log 6), as
# enumeration sums them; and with a uniform prior a cell (1/4 a draw),
# the 4x4 puzzle's 72 times 4^-15: the clue is a point mass on its
# cell's prior, whose draw weighs 1.
printf 'var c[3][3] in 0..2\nalldiff c[i][*] for i in 0..2\nalldiff c[*][j] for j in 0..2\nevidence c[0][0] = [0.5, 0.5, 0.5]\n' > "$TMP/lat.fgm"
expect_exit 0 "dlx log Z, even evidence" -- "$FGM" run "$TMP/lat.fgm" --backend exact
expect_out "^# observation 0: exact \(dancing links\), solutions=12, log Z=1\.791759469$" "dlx log Z: 12 times 0.5"
expect_exit 0 "dlx log Z, priors" -- "$FGM" run models/sudoku.fgm -D B=2 --backend exact --observe "$TMP/p72.txt"
expect_out "^# observation 0: exact \(dancing links\), solutions=72, log Z=-16\.5177493$" "dlx log Z: 72 times 4^-15"
expect_exit 0 "enumeration log Z, priors" -- "$FGM" run models/sudoku.fgm -D B=2 --backend exact --exact-method enumeration --observe "$TMP/p72.txt"
expect_out "^# observation 0: exact \(enumeration\), assignments=72, log Z=-16\.5177493$" "enumeration: the same"

# Under bp-max, the log of the largest weight, from each exact method: a
# solution's 4^-15 (Dancing Links: every solution weighs as much), and
# the chain's MAP weight by enumeration as by elimination, in JSON too.
expect_exit 0 "dlx log max weight" -- "$FGM" run models/sudoku.fgm -D B=2 --algo bp-max --backend exact --observe "$TMP/p72.txt"
expect_out "^# observation 0: exact max-marginals \(dancing links\), solutions=72, log max weight=-20\.79441542$" "dlx: log 4^-15"
expect_exit 0 "enumeration log max weight" -- "$FGM" run models/sudoku.fgm -D B=2 --algo bp-max --backend exact --exact-method enumeration --observe "$TMP/p72.txt"
expect_out "^# observation 0: exact max-marginals \(enumeration\), assignments=72, log max weight=-20\.79441542$" "enumeration: the same"
expect_exit 0 "json log_z, bp-max enumeration" -- "$FGM" run models/chain.fgm --algo bp-max --backend exact --exact-method enumeration --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))[0]; assert abs(d["log_z"] - 6.574796862) < 1e-8, d' "$TMP/out" || fail "json log_z, bp-max enumeration: $(head -c 300 "$TMP/out")"

# The engine's estimate of log Z, on its header and in JSON: bp-sum's
# Bethe free energy is exact on the chain (a tree), ep's evidence on the
# die whose rolls are all observed (a Dirichlet-multinomial).
expect_exit 0 "engine log Z" -- "$FGM" run models/chain.fgm --backend interpreted --observe "$TMP/obs.txt"
expect_out "^# observation 1: interpreted bp-sum, .*, log Z ~ 6\.266251332$" "engine log Z: the chain's, as elimination's"
printf 'prior p ~ dirichlet([1, 2, 0.5])\nvar r[4] in 1..3 ~ discrete(p)\n' > "$TMP/die4.fgm"
printf 'r[0] = 3\nr[1] = 3\nr[2] = 1\nr[3] = 2\n' > "$TMP/r4.txt"
expect_exit 0 "engine log Z, ep" -- "$FGM" run "$TMP/die4.fgm" --backend interpreted --observe "$TMP/r4.txt" --format json
python3 -c 'import json, sys, math; d = json.load(open(sys.argv[1]))[0]; want = math.log(0.5 / 3.5 * 1.5 / 4.5 * 1 / 5.5 * 2 / 6.5); assert abs(d["log_z"] - want) < 1e-9, (d["log_z"], want)' "$TMP/out" ||
    fail "engine log Z, ep: $(head -c 300 "$TMP/out")"
# bp-max's: the log of the largest weight, --map's on the chain (a tree).
expect_exit 0 "engine log max weight, bp-max" -- "$FGM" run models/chain.fgm --backend interpreted --algo bp-max
expect_out "^# observation 0: interpreted bp-max, .*, log max weight ~ 6\.574796862$" "bp-max: the MAP's log weight"

# --map: the most probable assignment, as assignment lines.  On the chain
# every variable follows x[0]'s evidence: weight 0.7 * 4^5.  Observed
# back, it is the model's only assignment: its total weight is the MAP
# weight.
expect_exit 0 "map" -- "$FGM" run models/chain.fgm --backend exact --map
expect_out "^# observation 0: exact MAP \(variable elimination\), width=2, log weight=6\.574796862$" "map: log(0.7 * 4^5)"
[ "$(grep -c '^x\[[0-5]\] = 0$' "$TMP/out")" = 6 ] || fail "map: all 0: $(cat "$TMP/out")"
expect_exit 0 "map, hmm" -- "$FGM" run "$TMP/hmm.fgm" --backend exact --observe "$TMP/ys.txt" --map
w=$(sed -n 's/^# observation 0: .*log weight=//p' "$TMP/out")
grep -v "^#" "$TMP/out" > "$TMP/best.txt"    # y too, as observed
expect_exit 0 "map observed back" -- "$FGM" run "$TMP/hmm.fgm" --backend exact --observe "$TMP/best.txt" --show 'h[0]'
z=$(sed -n 's/^# observation 0: .*log Z=//p' "$TMP/out")
awk -v w="$w" -v z="$z" 'BEGIN { d = w - z; exit !(w != "" && d < 1e-6 && d > -1e-6) }' ||
    fail "map: observed back, log Z $z is not the MAP's log weight $w"
expect_exit 0 "map, csv" -- "$FGM" run models/chain.fgm --backend exact --map --format csv --show 'x[5]'
expect_out "^0,map,x\[5\],0,1$" "map, csv"
expect_exit 0 "map, json" -- "$FGM" run models/chain.fgm --backend exact --map --format json --show 'x[0],x[1]'
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))[0]; assert d["map"] == {"x[0]": 0, "x[1]": 0} and abs(d["log_weight"] - 6.574796862) < 1e-8, d' "$TMP/out" || fail "map, json: $(cat "$TMP/out")"
expect_exit 2 "map, not exact" -- "$FGM" run models/chain.fgm --map
expect_err "give --backend exact" "map, not exact"
# By enumeration, branch and bound: asked for, the chain's answer and
# weight; where elimination declines (eight queens: one clique of 8^8
# entries), auto takes it, and on hard constraints alone the first
# solution is proven best (it was refused, exit 1).
expect_exit 0 "map, enumeration" -- "$FGM" run models/chain.fgm --backend exact --exact-method enumeration --map
expect_out "^# observation 0: exact MAP \(enumeration, branch and bound\), nodes=[0-9]+, log weight=6\.574796862$" "map, enumeration: the weight"
[ "$(grep -c '^x\[[0-5]\] = 0$' "$TMP/out")" = 6 ] || fail "map, enumeration: all 0: $(cat "$TMP/out")"
expect_exit 0 "map, queens" -- "$FGM" run models/queens.fgm -D N=8 --backend exact --map
expect_out "^# observation 0: exact MAP \(enumeration, branch and bound\), nodes=[0-9]{1,2}, log weight=0$" "map, queens: proven at the first solution (under 100 nodes)"
python3 -c 'import sys
q = [int(l.split()[-1]) for l in open(sys.argv[1]) if l.startswith("q[")]
assert len(q) == 8 and len(set(q)) == 8 and len({r - i for i, r in enumerate(q)}) == 8 and len({r + i for i, r in enumerate(q)}) == 8, q' "$TMP/out" ||
    fail "map, queens: not a solution: $(cat "$TMP/out")"
# A prior a cell (models/sudoku.fgm): each draw is bounded by the most
# its node can give it, so the empty 16x16 grid's first solution is
# proven best too (a draw bounded by 1 left every branch open: minutes).
expect_exit 0 "map, 16x16 with priors" -- "$FGM" run models/sudoku.fgm -D B=4 --out-dir "$TMP/gen" --backend exact --map --show 'cell[0][*]'
expect_out "^# observation 0: exact MAP \(enumeration, branch and bound\), nodes=[0-9]{3}, log weight=-709\.7827129$" "map, 16x16 with priors: 256 log(1/16), proven at the first solution (under 1000 nodes)"
# A set with no consistent assignment is refused, nothing printed for it.
printf 'q[0] = 1\nq[1] = 1\n' > "$TMP/qbad.txt"
expect_exit 1 "map, contradiction" -- "$FGM" run models/queens.fgm -D N=8 --backend exact --map --observe "$TMP/qbad.txt"
expect_err "qbad.txt:1: error: observation 0 has no consistent assignment" "map, contradiction: said"
[ -s "$TMP/out" ] && fail "map, contradiction: printed $(head -c 200 "$TMP/out")"
expect_exit 1 "map, out of elimination's reach" -- "$FGM" run models/queens.fgm -D N=8 --backend exact --exact-method elimination --map
expect_err "queens.fgm: error: --map: the model is out of variable elimination's reach.*--exact-method enumeration searches it instead" "map, out of reach"
# Stopped by --cap (9 nodes: the root and one a variable) before it
# ends, the best found is printed and said to be no more than that
# (header, stderr, JSON).  Eight draws from one
# prior, all different, the evidence favouring the reverse of the
# search's first order: the best is x[i] = 7 - i, of weight 4^8 times
# the Dirichlet-multinomial's 1/8 * 1/9 * ... * 1/15 = 7!/15!.
{ printf 'prior p ~ dirichlet(8)\nvar x[8] in 0..7 ~ discrete(p)\nalldiff x\n'
  for i in 0 1 2 3 4 5 6 7; do printf 'evidence x[%d] = [%s]\n' $i "$(python3 -c "print(', '.join('4' if k == 7 - $i else '1' for k in range(8)))")"; done; } > "$TMP/perm.fgm"
expect_exit 0 "map, capped" -- "$FGM" run "$TMP/perm.fgm" --backend exact --map --cap 9 --format json
expect_err "observation 0: exact MAP \(enumeration, branch and bound\), nodes=9, .*\(incomplete: cap or timeout reached; the best found\)" "map, capped: said"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))[0]; assert d["incomplete"] is True and sorted(d["map"].values()) == list(range(8)), d' "$TMP/out" ||
    fail "map, capped: $(cat "$TMP/out")"
# A node's draws ahead are bounded from its counts so far (the largest
# a_k + n_k), not by the largest pseudo-count taking every draw before:
# 27 latent draws from one prior with evidence took 142,959 nodes that
# way (the same answer), and take about 10,000 now.
python3 - > "$TMP/n27.fgm" <<'PY'
import random
r = random.Random(3)
print("prior p ~ dirichlet([1, 1, 1])")
print("var x[27] in 0..2 ~ discrete(p)")
for i in range(27):
    print("evidence x[%d] = [%s]" % (i, ", ".join(str(r.choice([1, 2, 3])) for _ in range(3))))
PY
expect_exit 0 "map, 27 latent draws" -- "$FGM" run "$TMP/n27.fgm" --backend exact --map --cap 30000
expect_out "^# observation 0: exact MAP \(enumeration, branch and bound\), nodes=[0-9]+, log weight=14\.74949729$" "map, 27 latent draws: proven within 30,000 nodes"
# --cap counts the search's nodes (most branches end above the leaves):
# 8 nodes reach no assignment, and the set is refused.
expect_exit 1 "map, capped before a leaf" -- "$FGM" run "$TMP/perm.fgm" --backend exact --map --cap 8
expect_err "error: the model: enumeration found no assignment within --cap or --timeout-ms" "map, capped before a leaf: said"
expect_exit 0 "map, uncapped" -- "$FGM" run "$TMP/perm.fgm" --backend exact --map
python3 -c 'import math, sys
t = open(sys.argv[1]).read(); q = [int(l.split()[-1]) for l in t.splitlines() if l.startswith("x[")]
assert q == [7 - i for i in range(8)] and "incomplete" not in t, t
w = float(t.split("log weight=")[1].split()[0]); assert abs(w - (8 * math.log(4) + math.log(math.factorial(7) / math.factorial(15)))) < 1e-8, w' "$TMP/out" ||
    fail "map, uncapped: $(cat "$TMP/out")"

# Out of elimination's reach (eight queens: one clique of 8^8 entries):
# --exact-method elimination says so, by file, and exits 1.
expect_exit 1 "elimination refused" -- "$FGM" run models/queens.fgm -D N=8 --backend exact --exact-method elimination
expect_err "queens.fgm: error: --exact-method elimination: the model is out of its reach" "elimination refused: says why"
# A contradiction is refused as with enumeration.
printf 'var x in 0..1\nvar y in 0..1\nx != y\nevidence x = [1, 0]\nevidence y = [1, 0]\n' > "$TMP/no.fgm"
expect_exit 1 "contradiction" -- "$FGM" run "$TMP/no.fgm" --backend exact
expect_err "no.fgm: error: the model has no consistent assignment" "contradiction: says so"
# Enumeration past its cap, where auto falls back to it (a 40x40 Ising
# grid, out of elimination's reach): "incomplete" in the header and on
# stderr, a distribution over what it visited, at once (each factor is
# weighed where its last variable is set, each variable's sums kept at
# its own nodes: at every leaf over all of them, a 30x30 grid ran 10 s
# to its cap of 10^6 and a 100x100 one 2.5 min).
printf '%s\n' 'const N = 40' 'var s[N][N] in 0..1' \
    'table (s[i][j], s[i][j+1]) = [[2, 1], [1, 2]] for i in 0..N-1, j in 0..N-2' \
    'table (s[i][j], s[i+1][j]) = [[2, 1], [1, 2]] for i in 0..N-2, j in 0..N-1' > "$TMP/grid40.fgm"
expect_exit 0 "grid40, auto past the cap" -- "$FGM" run "$TMP/grid40.fgm" --backend exact --cap 100000 --show 's[39][39],s[39][38]'
expect_out "^# observation 0: exact \(enumeration\), assignments=100000 \(incomplete: cap or timeout reached\)$" "grid40: incomplete, said"
expect_err "observation 0: exact \(enumeration\), assignments=100000 \(incomplete" "grid40: incomplete, on stderr"
awk '!/^#/ { s = $2 + $3; if (s < 1 - 1e-12 || s > 1 + 1e-12) bad = 1; n++ } END { exit bad || n != 2 }' "$TMP/out" ||
    fail "grid40: not two distributions: $(cat "$TMP/out")"

# A clue on a variable that alone draws from an observed prior is a point
# mass on the prior (message passing's clue): the draw weighs 1, not the
# prior's a_x / A = 3/4, and the node's mean is the point mass.  So log Z
# = log(1/4), x[1]'s own draw, on every exact method and in --map, and
# bp-sum (a tree) gives it too, 2e-8 above: the clue's 1e-8 lets x[0] = 0
# in, with x[1] = 1 at 3/4.
printf '%s\n' 'observed prior p[2] ~ dirichlet([1, 3])' \
    'var x[2] in 0..1 ~ discrete(p)' 'x[0] != x[1]' 'infer bp-sum(iterations = 20)' >"$TMP/clue.fgm"
printf 'x[0] = 1\n' >"$TMP/clue.obs"
for method in elimination enumeration; do
    expect_exit 0 "clue point mass, $method" -- "$FGM" run "$TMP/clue.fgm" --backend exact --exact-method $method --observe "$TMP/clue.obs"
    expect_out ", log Z=-1\.386294361$" "clue point mass, $method: log Z = log(1/4)"
    expect_out "^p\[0\] mean 0 1$" "clue point mass, $method: the node's mean is its point mass"
    expect_out "^p\[1\] mean 0\.4 0\.6$" "clue point mass, $method: the free draw's node, (1 + 1, 3) / 5"
    expect_exit 0 "clue point mass, --map by $method" -- "$FGM" run "$TMP/clue.fgm" --backend exact --exact-method $method --observe "$TMP/clue.obs" --map
    expect_out ", log weight=-1\.386294361$" "clue point mass, --map by $method: log weight = log(1/4)"
done
expect_exit 0 "clue point mass, bp-sum" -- "$FGM" run "$TMP/clue.fgm" --backend interpreted --observe "$TMP/clue.obs"
expect_out ", log Z ~ -1\.38629434[0-9]$" "clue point mass, bp-sum: log(1/4) and 2e-8"

# Usage errors (exit 2).
expect_exit 2 "unknown method" -- "$FGM" run models/chain.fgm --backend exact --exact-method guess
expect_err "unknown --exact-method 'guess' \(auto, elimination, enumeration\)" "unknown method: lists them"
expect_exit 2 "method without exact" -- "$FGM" run models/chain.fgm --exact-method elimination
expect_err "give --backend exact too" "method without exact: says what"

# A cap equal to the number of solutions: Dancing Links said
# "incomplete" (it stops at the cap) and gave no log Z; enumeration,
# which looks one past, said complete.  A 3x3 Latin square has 12.
for m in "" "--exact-method enumeration"; do
    expect_exit 0 "--cap 12 on 12 solutions $m" -- "$FGM" run models/latin.fgm -D N=3 --backend exact --cap 12 $m --show 'cell[0][0]'
    expect_out "^# observation 0: exact .*=12, log Z=-7.4026039" "--cap 12 on 12 solutions $m: complete"
    expect_exit 0 "--cap 11 on 12 solutions $m" -- "$FGM" run models/latin.fgm -D N=3 --backend exact --cap 11 $m --show 'cell[0][0]'
    expect_out "=11 \(incomplete: cap or timeout reached\)" "--cap 11 on 12 solutions $m: incomplete"
done

finish
