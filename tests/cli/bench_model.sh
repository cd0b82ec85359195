# tests/cli/bench_model.sh: `fgm bench --model MODEL` without puzzles times the model's own inference.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

# The chain on its own evidence: one set, a row per backend, the ratio,
# the backends' marginals compared (equal to the bit: difference 0), and
# what the plugin costs to build and load.
expect_exit 0 "bench the chain" -- "$FGM" bench --model models/chain.fgm
expect_out "^# models/chain\.fgm: bp-sum, 6 variables; 1 observation set \(the model's own evidence\)" "chain: header"
expect_out "^compiled +1 +10 " "chain: compiled row (1 set, 10 sweeps)"
expect_out "^interpreted +1 +10 " "chain: interpreted row"
expect_out "^# backends: interpreted / compiled: ratio of the medians [0-9.]+x; largest difference of the marginals and pseudo-counts 0$" "chain: ratio and difference"
expect_out "^plugin for models/chain\.fgm: parse [0-9.]+ ms; (generate \+ compile \+ load [0-9]+ ms \(built by this run\)|up to date when opened); load an up-to-date plugin [0-9.]+ ms$" "chain: plugin line"
# With one set, its runs: at least 3, and more until 100 ms (at most
# 1000), the IQR over them.
expect_out "median and IQR over its runs$" "chain: one set, IQR over its runs"
runs=$(awk '$1 == "compiled" { print $7 }' "$TMP/out")
[ "$runs" -ge 3 ] && [ "$runs" -le 1000 ] || fail "chain: $runs runs"
[ "$(grep -c '^compiled\|^interpreted' "$TMP/out")" = 2 ] || fail "chain: two backend rows"

# Sets of assignment lines: each one run on each backend (the dice's
# rolls, three sets), --repeat runs a set.
printf 'roll = 1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 6 6\n---\nroll = 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6\n---\nroll[0] = 3\n' >"$TMP/rolls.txt"
expect_exit 0 "bench the dice, three sets" -- "$FGM" bench --model models/dice.fgm --observe "$TMP/rolls.txt" --repeat 5
expect_out "; 3 observation sets;" "dice: three sets"
runs=$(awk '$1 == "compiled" { print $7 }' "$TMP/out")
[ "$runs" -ge 15 ] || fail "dice: $runs runs, want at least 5 for each of 3 sets"
expect_out "median ratio per set [0-9.]+x \(IQR [0-9.]+-[0-9.]+x\); largest difference of the marginals and pseudo-counts 0$" "dice: same results"

# Domains of several sizes: each variable's row holds its own values
# only (rows as wide as the largest domain were once compared past them,
# uninitialised, and reported a bug in fgm).
printf 'model mixd\nvar a[200] in 0..1\nvar b in 0..2\ntable (a[0], b) = [[1, 2, 3], [4, 5, 6]]\ninfer bp-sum(iterations = 1)\n' >"$TMP/mixd.fgm"
expect_exit 0 "bench, mixed domain sizes" -- "$FGM" bench --model "$TMP/mixd.fgm"
expect_out "pseudo-counts 0$" "mixed domain sizes: the same results"

# Puzzle lines observe the grid, as `fgm run --observe` does.
grep -v '^#' puzzles/seed002_easy.txt | head -2 >"$TMP/two.txt"
expect_exit 0 "bench sudoku on two puzzles" -- "$FGM" bench --model models/sudoku.fgm --observe "$TMP/two.txt" --backends interpreted
expect_out "; 2 observation sets;" "sudoku: two puzzles"
[ "$(grep -c '^interpreted' "$TMP/out")" = 1 ] || fail "sudoku: one backend row"
grep -q '^# backends\|^plugin for' "$TMP/out" && fail "sudoku: interpreted alone has no ratio and built no plugin"

# auto says where it ran.
expect_exit 0 "bench on auto" -- "$FGM" bench --model models/chain.fgm --backends auto
expect_out "^auto \((compiled|interpreted)\) " "auto: says where it ran"

# -D sets the model's consts, named in the header.
expect_exit 0 "bench with -D" -- "$FGM" bench --model models/latin.fgm -D N=3 --backends interpreted
expect_out "^# models/latin\.fgm \(N=3\): " "-D in the header"

# Refusals: the solvers' options, --observe with puzzles, a bad backend,
# a bad observation line (before anything runs), no C compiler with
# --backends compiled.
expect_exit 2 "--solvers without puzzles" -- "$FGM" bench --model models/chain.fgm --solvers ep-robust
expect_err "bench: --solvers is for the solvers on PUZZLES; without PUZZLES, bench times the inference of --model" "--solvers without puzzles"
expect_exit 2 "--csv without puzzles" -- "$FGM" bench --model models/chain.fgm --csv "$TMP/x.csv"
expect_err "bench: --csv is for the solvers on PUZZLES" "--csv without puzzles"
[ ! -e "$TMP/x.csv" ] || fail "--csv without puzzles wrote a file"
expect_exit 2 "--observe with puzzles" -- "$FGM" bench --model models/sudoku.fgm --observe "$TMP/two.txt" "$TMP/two.txt"
expect_err "bench: --observe gives the observation sets of --model's inference" "--observe with puzzles"
expect_exit 2 "--observe without --model" -- "$FGM" bench --observe "$TMP/two.txt"
expect_err "bench: --observe gives the observation sets of a --model MODEL's inference" "--observe without --model"
# Three backends: each line its own pair's difference.
expect_exit 0 "three backends" -- "$FGM" bench --model models/chain.fgm --backends interpreted,compiled,auto --repeat 1
[ "$(grep -c '^# backends: .*pseudo-counts 0$' "$TMP/out")" = 2 ] || fail "three backends: two ratio lines"
# The exact backend (variable elimination) times the same sets, and
# gives each engine backend's distance from the exact marginals: none on
# the chain (a tree), BP's error on schedule.fgm's loop (no failure).
printf 'x[2] = 1\n---\nx[4] = 0\n' >"$TMP/chain_obs.txt"
expect_exit 0 "backend exact" -- "$FGM" bench --model models/chain.fgm --observe "$TMP/chain_obs.txt" --backends exact,interpreted --repeat 1
expect_out "^exact +2 +0 " "backend exact: a row, no sweeps"
grep -Eq '^# backends: interpreted / exact: .*largest difference of the marginals from exact [0-9.e-]+$' "$TMP/out" ||
    fail "backend exact: the distance line: $(cat "$TMP/out")"
awk '/from exact/ { exit !($NF + 0 < 1e-12) }' "$TMP/out" || fail "chain: bp-sum is exact on a tree"
# And the log Z line: bp-sum's Bethe free energy, exact on the tree too.
awk '/^# log Z: interpreted against exact: largest difference / { found = 1; ok = $NF + 0 < 1e-12 } END { exit !(found && ok) }' "$TMP/out" ||
    fail "chain: bp-sum's log Z is exact on a tree: $(cat "$TMP/out")"
expect_exit 0 "backend exact, a loop" -- "$FGM" bench --model models/schedule.fgm --backends interpreted,exact --repeat 1
awk '/from exact/ { exit !($NF + 0 > 1e-3) }' "$TMP/out" || fail "schedule: BP's error on a loop shows: $(cat "$TMP/out")"
expect_exit 1 "backend exact, out of reach" -- "$FGM" bench --model models/sudoku.fgm --backends exact
expect_err "bench: backend exact: the model is out of variable elimination's reach .* and of enumeration's \(more than 1000000 assignments\)" "backend exact, out of reach"
# Where elimination declines and enumeration reaches (draws whose prior
# the previous die picks), enumeration times the sets.
printf 'roll = 6 6 1 6 6 2 6 6\n' >"$TMP/rolls.txt"
expect_exit 0 "backend exact, enumeration" -- "$FGM" bench --model models/casino.fgm -D T=8 --observe "$TMP/rolls.txt" --backends interpreted,exact --repeat 1
awk '/from exact/ { exit !($NF + 0 > 0 && $NF + 0 < 0.1) }' "$TMP/out" || fail "casino: EP near the exact marginals: $(cat "$TMP/out")"
awk '/^# log Z: exact against interpreted: / { found = 1; ok = $NF + 0 > 0 && $NF + 0 < 0.5 } END { exit !(found && ok) }' "$TMP/out" ||
    fail "casino: EP's log Z near enumeration's: $(cat "$TMP/out")"
# With exact first, the plugin is still held to the interpreter's
# numbers (the second engine backend against the first).
expect_exit 0 "exact first" -- "$FGM" bench --model models/dice.fgm --backends exact,compiled,interpreted --repeat 1
expect_out "^# backends: interpreted / exact: .*largest difference of the marginals and pseudo-counts from compiled 0$" "exact first: the engines compared"
expect_out "^# log Z: interpreted against compiled: largest difference 0$" "exact first: the engines' log Z compared"
# Weights (soft evidence): on every backend, the same marginals.
printf 'x[2] = [1, 2, 3]\n---\nx[4] = [0, 1, 5]\nx[0] = 1\n' >"$TMP/soft.txt"
expect_exit 0 "backend exact, weights" -- "$FGM" bench --model models/chain.fgm --observe "$TMP/soft.txt" --backends interpreted,exact --repeat 1
awk '/from exact/ { exit !($NF + 0 < 1e-12) }' "$TMP/out" || fail "weights: bp-sum is exact on a tree: $(cat "$TMP/out")"
expect_exit 2 "backend unknown" -- "$FGM" bench --model models/chain.fgm --backends exakt
expect_err "unknown backend 'exakt' \(auto, compiled, interpreted, exact\)" "backend unknown"
expect_exit 2 "a backend twice" -- "$FGM" bench --model models/chain.fgm --backends compiled,compiled
expect_err "backend 'compiled' is listed twice" "a backend twice"
printf 'roll[0] = 1\n---\nroll[0] = 9\n' >"$TMP/bad.txt"
expect_exit 1 "a bad observation line" -- "$FGM" bench --model models/dice.fgm --observe "$TMP/bad.txt"
expect_err "^$TMP/bad\.txt:3:[0-9]+: error: " "a bad observation line: file:line:col"
[ ! -s "$TMP/out" ] || fail "a bad observation line: a table printed: $(head -c 200 "$TMP/out")"
# (From a folder of its own, so that no plugin is up to date there.)
mkdir "$TMP/cwd"
fgm_abs=$(cd "$(dirname "$FGM")" && pwd)/$(basename "$FGM")
expect_exit 1 "no C compiler" -- env -C "$TMP/cwd" CC=/nonexistent "$fgm_abs" bench --model "$PWD/models/chain.fgm" --backends compiled,interpreted
expect_err "nonexistent" "no C compiler: says why"
expect_exit 1 "no such model" -- "$FGM" bench --model "$TMP/none.fgm"

# A second --observe is refused: the first file was dropped unread.
printf 'x[0] = 1\n' > "$TMP/obs1.txt"
expect_exit 2 "bench: --observe twice" -- "$FGM" bench --model models/chain.fgm --observe /nonexistent --observe "$TMP/obs1.txt"
expect_err "bench: --observe given twice \('/nonexistent', '$TMP/obs1.txt'\)" "bench: --observe twice: says so"
finish
