# tests/cli/decimate.sh: ep-hybrid(2, 3), bp-decimate(2, 3) and bp-backtrack from the command line.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
G="$TMP/gen"
P=puzzles/seed000.txt

# `fgm list` names the solvers.
expect_exit 0 "list" -- "$FGM" list
for s in ep-hybrid ep-hybrid3 bp-decimate bp-decimate2 bp-decimate3 bp-backtrack; do
    expect_out "^  $s " "fgm list shows $s"
done

# bp-decimate (seed 001 s.6): the Easy grids solved, the counters in the
# CSV; Easy #1 takes one decision per free cell and 50 + 3 per decision
# sweeps, as in the seed.
expect_exit 0 "bp-decimate" -- "$FGM" solve --solver bp-decimate --backend interpreted --csv $P
expect_err "solver=bp-decimate backend=interpreted solved=[234]/4" "bp-decimate solves the Easy grids"
head -1 "$TMP/out" | grep -q "nodes,inferences,decisions,restarts,sweeps,contradictions" \
    || fail "CSV header has the counters: $(head -1 "$TMP/out")"
[ "$(col solved 1)" = 1 ] && [ "$(col solved 2)" = 1 ] || fail "Easy #1 and #2 solved"
[ "$(col decisions 1)" = 36 ] || fail "Easy #1: 36 decisions, got $(col decisions 1)"
[ "$(col sweeps 1)" = 158 ] || fail "Easy #1: 158 sweeps, got $(col sweeps 1)"
[ "$(col restarts 1)" = 0 ] || fail "Easy #1: no restart"
for r in 1 2 3 4; do
    [ "$(col restarts $r)" -le 4 ] || fail "row $r: at most 4 attempts"
done
cp "$TMP/out" "$TMP/dec.interpreted"

# Same seed, same answer and counters; compiled and interpreted agree.
expect_exit 0 "bp-decimate again" -- "$FGM" solve --solver bp-decimate --backend interpreted --csv $P
same "$TMP/out" "$TMP/dec.interpreted" || fail "bp-decimate is reproducible"
expect_exit 0 "bp-decimate compiled" -- "$FGM" solve --solver bp-decimate --backend compiled --out-dir "$G" --csv $P
expect_err "backend=compiled" "bp-decimate runs compiled"
ls "$G"/*_decim.bp-sum.so >/dev/null 2>&1 || fail "the BP plugin was built into --out-dir"
same "$TMP/out" "$TMP/dec.interpreted" || fail "compiled and interpreted bp-decimate agree"

# Every grid of hardest and Easy51 as a transcription of the seed's code
# solved it: the same solved flag, attempts and decisions
# (tests/golden/bp_decimate_seed.txt; 2/11 of hardest without the seed's
# BP_EPS arithmetic).
for c in hardest easy51; do
    expect_exit 0 "bp-decimate $c" -- "$FGM" solve --solver bp-decimate \
        --out-dir "$G" --csv "$SHARED/puzzles/$c.txt"
    awk -F, -v c=$c 'NR > 1 { print c, $1, $4, $10, $9 }' "$TMP/out" \
        > "$TMP/dec.$c"
    grep "^$c " tests/golden/bp_decimate_seed.txt > "$TMP/seed.$c"
    same "$TMP/dec.$c" "$TMP/seed.$c" \
        || fail "bp-decimate on $c differs from the seed's code: $(diff "$TMP/dec.$c" "$TMP/seed.$c" | head -5)"
    # Each attempt before the one that finished (all 4 when none did)
    # ended in a contradiction: the column counts them.
    awk -F, 'NR > 1 && $10 != $12 { bad = 1 } END { exit bad }' "$TMP/out" \
        || fail "bp-decimate on $c: contradictions are not the failed attempts: $(head -4 "$TMP/out")"
done

# bp-backtrack on hardest as the seed's code ran it: the same solved flag,
# nodes, decisions and contradictions on every grid
# (tests/golden/bp_backtrack_seed.txt; the contradictions counted full
# grids that failed verification too, 124 on the first where the seed
# counts 0).
expect_exit 0 "bp-backtrack hardest" -- "$FGM" solve --solver bp-backtrack \
    --out-dir "$G" --csv "$SHARED/puzzles/hardest.txt"
awk -F, 'NR > 1 { print "hardest", $1, $4, $7, $9, $12 }' "$TMP/out" > "$TMP/bt.hardest"
grep "^hardest " tests/golden/bp_backtrack_seed.txt > "$TMP/btseed.hardest"
same "$TMP/bt.hardest" "$TMP/btseed.hardest" \
    || fail "bp-backtrack on hardest differs from the seed's code: $(diff "$TMP/bt.hardest" "$TMP/btseed.hardest" | head -5)"

# A grid bp-decimate returns unverified (as the seed) and the runner
# rejects has its errors counted (the column said 0).
expect_exit 0 "bp-decimate top95 #1" -- "$FGM" solve --solver bp-decimate \
    --out-dir "$G" --csv <(head -1 "$SHARED/puzzles/top95.txt")
[ "$(col valid 1)" = 0 ] && [ "$(col errors 1)" -gt 0 ] \
    || fail "top95 #1: an invalid grid with its errors counted: $(sed -n 2p "$TMP/out")"

# The solved grids are printed in the input's format.
expect_exit 0 "bp-decimate text" -- "$FGM" solve --solver bp-decimate --backend interpreted $P
[ "$(head -1 "$TMP/out")" = "962185473174963825538427169826359741357814296491672538249538617715296384683741952" ] \
    || fail "Easy #1 solved grid: $(head -1 "$TMP/out")"

# bp-backtrack: at most 301 nodes (the seed's budget test comes first).
expect_exit 0 "bp-backtrack" -- "$FGM" solve --solver bp-backtrack --backend interpreted --csv $P
expect_err "solver=bp-backtrack backend=interpreted solved=[234]/4" "bp-backtrack solves the Easy grids"
for r in 1 2 3 4; do
    [ "$(col nodes $r)" -le 301 ] || fail "row $r: at most 301 nodes"
done

# ep-hybrid (seed 000 s.7): the singles alone solve the Easy grids (no
# inference); the Medium grids are solved within 60 inferences.
expect_exit 0 "ep-hybrid" -- "$FGM" solve --solver ep-hybrid --backend interpreted --csv $P
expect_err "solver=ep-hybrid backend=interpreted solved=4/4" "ep-hybrid solves every grid"
[ "$(col inferences 1)" = 0 ] && [ "$(col decisions 1)" = 0 ] || fail "Easy #1 with no inference"
i=$(col inferences 4)
[ "$i" -ge 1 ] && [ "$i" -le 60 ] || fail "Medium grid within 60 inferences, got $i"

# bp-decimate2: the same Easy grids in fewer rounds (every sure cell of a
# round fixed together), compiled and interpreted alike.
expect_exit 0 "bp-decimate2" -- "$FGM" solve --solver bp-decimate2 --backend interpreted --csv $P
expect_err "solver=bp-decimate2 backend=interpreted solved=[234]/4" "bp-decimate2 solves the Easy grids"
[ "$(col decisions 1)" = 36 ] || fail "bp-decimate2 Easy #1: 36 decisions, got $(col decisions 1)"
[ "$(col inferences 1)" -lt 37 ] || fail "bp-decimate2 Easy #1: fewer rounds than 37, got $(col inferences 1)"
cp "$TMP/out" "$TMP/d2.interpreted"
expect_exit 0 "bp-decimate2 compiled" -- "$FGM" solve --solver bp-decimate2 --backend compiled --out-dir "$G" --csv $P
same "$TMP/out" "$TMP/d2.interpreted" || fail "compiled and interpreted bp-decimate2 agree"

# bp-decimate3: every grid, Medium ones included, by restarts; compiled
# and interpreted alike; --restarts 0 leaves one attempt.
expect_exit 0 "bp-decimate3" -- "$FGM" solve --solver bp-decimate3 --backend interpreted --seed 1 --csv $P
expect_err "solver=bp-decimate3 backend=interpreted solved=4/4" "bp-decimate3 solves all four"
[ "$(col decisions 1)" = 36 ] && [ "$(col restarts 1)" = 0 ] || fail "bp-decimate3 Easy #1: 36 decisions in one attempt"
cp "$TMP/out" "$TMP/d3.interpreted"
expect_exit 0 "bp-decimate3 compiled" -- "$FGM" solve --solver bp-decimate3 --backend compiled --out-dir "$G" --seed 1 --csv $P
same "$TMP/out" "$TMP/d3.interpreted" || fail "compiled and interpreted bp-decimate3 agree"
expect_exit 0 "bp-decimate3 --restarts 0" -- "$FGM" solve --solver bp-decimate3 --backend interpreted --restarts 0 --csv $P
for r in 1 2 3 4; do
    [ "$(col restarts $r)" = 0 ] || fail "bp-decimate3 --restarts 0, row $r: $(col restarts $r) restarts"
done

# A deadline: reported as timeouts, exit 0.
expect_exit 0 "timeout" -- "$FGM" solve --solver bp-backtrack --backend interpreted --timeout-ms 1 $P
expect_err "timeouts=[1-4]" "bp-backtrack times out on the Medium grids"
# ep-hybrid2 (exact clues, no inference budget, 1 sweep per inference) is complete:
# every grid of notebook 000, Medium ones included.
expect_exit 0 "ep-hybrid2" -- "$FGM" solve --solver ep-hybrid2 --backend interpreted puzzles/seed000.txt
expect_err "solver=ep-hybrid2 backend=interpreted solved=4/4" "ep-hybrid2 solves all four"
# ep-hybrid3 (Norvig's propagation, one inference per puzzle) too, and on
# a 16x16 grid.
expect_exit 0 "ep-hybrid3" -- "$FGM" solve --solver ep-hybrid3 --backend interpreted puzzles/seed000.txt
expect_err "solver=ep-hybrid3 backend=interpreted solved=4/4" "ep-hybrid3 solves all four"
expect_exit 0 "ep-hybrid3 16x16" -- "$FGM" solve --solver ep-hybrid3 --backend interpreted puzzles/generated_16x16.txt
expect_err "solver=ep-hybrid3 backend=interpreted solved=10/10" "ep-hybrid3 solves the 16x16 grids"
finish
