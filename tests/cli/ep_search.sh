# tests/cli/ep_search.sh: the EP search solvers' documented rules, pinned
# where a wrong rule still solves: ties go to the first cell and the
# first value (ep-hybrid, ep-hybrid3), ep-iterative's fixing and its
# counters, hidden singles' contradictions, and the batch's seeds (seed
# + puzzle index).  The grids and counts are this build's (interpreted,
# whose bits the plugins share: tests/diff); a changed rule moves them.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

echo '................' >"$TMP/empty.txt"
echo '1...............' >"$TMP/one.txt"
run() {   # run SOLVER FILE [ARGS...]: the CSV in $TMP/out
    local s=$1 f=$2; shift 2
    expect_exit 0 "$s $(basename "$f") $*" -- "$FGM" solve --solver "$s" --backend interpreted --csv "$@" "$f"
}
field() { [ "$(col "$1" 1)" = "$2" ] || fail "$3: $1 $(col "$1" 1), want $2"; }
grid() {  # grid SOLVER FILE WANT: the solved grid
    expect_exit 0 "$1 grid" -- "$FGM" solve --solver "$1" --backend interpreted "$2"
    expect_out "^$3$" "$1 on $(basename "$2"): the first cell and value on ties"
}

# ep-hybrid: the best margin, the first cell on ties (every cell of the
# empty grid ties), values in order on ties.
grid ep-hybrid "$TMP/empty.txt" 1234342121434312
run ep-hybrid "$TMP/empty.txt"
field nodes 8 "ep-hybrid, empty"
field inferences 7 "ep-hybrid, empty"

# ep-hybrid3: the same rules after propagation.
grid ep-hybrid3 "$TMP/empty.txt" 1234341221434321
grid ep-hybrid3 "$TMP/one.txt" 1234342121434312
run ep-hybrid3 "$TMP/one.txt"
field nodes 6 "ep-hybrid3, one clue"
field decisions 5 "ep-hybrid3, one clue"

# Contradictions counted: a 9x9 grid where ep-hybrid3 meets two.
echo '85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.' >"$TMP/c.txt"
run ep-hybrid3 "$TMP/c.txt"
field solved 1 "ep-hybrid3, 9x9"
field contradictions 2 "ep-hybrid3, 9x9"

# Hidden singles' contradiction (a value with no place left in a unit)
# ends a branch: without it, ep-hybrid spends its 60 inferences on this
# top95 grid and fails.
echo '52...6.........7.13...........4..8..6......5...........418.........3..2...87.....' >"$TMP/h.txt"
run ep-hybrid "$TMP/h.txt"
field solved 1 "ep-hybrid, hidden singles"
field nodes 124 "ep-hybrid, hidden singles"
field inferences 58 "ep-hybrid, hidden singles"

# ep-iterative: every cell it fixes is a decision; --fix 3 keeps the
# three most confident, the first on ties.
run ep-iterative "$TMP/empty.txt"
field decisions 16 "ep-iterative, empty"
run ep-iterative "$TMP/one.txt" --fix 3
field inferences 7 "ep-iterative --fix 3"
field errors 9 "ep-iterative --fix 3"

# The batch draws puzzle i with seed N + i: three empty grids under
# --seed 7 are the single runs with seeds 7, 8 and 9, which differ.
cat "$TMP/empty.txt" "$TMP/empty.txt" "$TMP/empty.txt" >"$TMP/three.txt"
expect_exit 0 "batch seeds" -- "$FGM" solve --solver alldiff-max --backend interpreted --seed 7 "$TMP/three.txt"
cp "$TMP/out" "$TMP/batch"
: >"$TMP/single"
for s in 7 8 9; do
    "$FGM" solve --solver alldiff-max --backend interpreted --seed $s "$TMP/empty.txt" >>"$TMP/single" 2>/dev/null
done
cmp -s "$TMP/batch" "$TMP/single" || fail "batch seeds: $(tr '\n' ' ' <"$TMP/batch") against $(tr '\n' ' ' <"$TMP/single")"
[ "$(sort -u "$TMP/single" | wc -l)" = 3 ] || fail "batch seeds: seeds 7-9 give $(sort -u "$TMP/single" | wc -l) grids, want 3"
finish
