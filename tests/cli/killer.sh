# tests/cli/killer.sh: sums of values (`sum(...) == total`) through the
# CLI: models/killer.fgm, a Killer Sudoku (cages' sums, no clues), on the
# exact backend, the message-passing backends and the solvers.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
M=models/killer.fgm
# The solution tools/killer.py wrote the cages from.
SOL=962185473174963825538427169826359741357814296491672538249538617715296384683741952

# The argmax of each cell of `fgm run --format csv` on stdin, a grid line.
argmax_grid() {
    awk -F, '$2 == "marginal" {
                 if (!($3 in best) || $5 + 0 > best[$3]) {
                     best[$3] = $5 + 0; val[$3] = $4 } }
             END { for (i = 0; i < 9; i++) for (j = 0; j < 9; j++)
                       printf "%d", val["cell[" i "][" j "]"]; print "" }'
}

# The cages' sums have one solution: enumeration counts it.
expect_exit 0 "exact" -- "$FGM" run --backend exact "$M"
expect_out "assignments=1," "one solution"

# bp-sum alone puts every cell on it, both backends the same bits.
for b in interpreted compiled; do
    "$FGM" run --backend $b --format csv "$M" >"$TMP/$b.csv" 2>"$TMP/err" ||
        fail "bp-sum $b: exit $?"
    [ "$(argmax_grid <"$TMP/$b.csv")" = "$SOL" ] ||
        fail "bp-sum $b: argmax $(argmax_grid <"$TMP/$b.csv")"
done
cmp -s "$TMP/interpreted.csv" "$TMP/compiled.csv" ||
    fail "bp-sum: compiled and interpreted marginals differ"

# The dump names the factor, its range of value-index sums and its
# coefficients: the first cage, cell[0][0] + cell[0][1] == 15 on 1..9,
# is 13..13, 1 and 1.
expect_exit 0 "dump" -- "$FGM" dump "$M"
expect_out "^f[0-9]+ sum cell\[0\]\[0\] cell\[0\]\[1\] params 13 13 1 1$" "dump"

# Solvers on an empty grid: the search, EP and the purely probabilistic
# ones solve it (each answer checked against every constraint, the sums
# too); Dancing Links says why it cannot.
printf '%081d\n' 0 | tr 0 . >"$TMP/empty"
for s in mac norvig ep-robust ep-hybrid alldiff-max3 bp-decimate2; do
    expect_exit 0 "solve $s" -- "$FGM" solve --model "$M" --solver $s \
        --timeout-ms 30000 "$TMP/empty"
    expect_out "^$SOL$" "solve $s"
    expect_err "solved=1/1" "solve $s"
done
expect_exit 1 "solve dlx" -- "$FGM" solve --model "$M" --solver dlx \
    "$TMP/empty"
expect_err "exact-cover" "dlx refuses"

# models/killer_hard.fgm (cages of up to 5 cells): one solution, which
# the purely probabilistic alldiff-max3 finds.
H=models/killer_hard.fgm
expect_exit 0 "exact hard" -- "$FGM" run --backend exact "$H"
expect_out "assignments=1," "hard: one solution"
expect_exit 0 "solve hard" -- "$FGM" solve --model "$H" \
    --solver alldiff-max3 --timeout-ms 30000 "$TMP/empty"
expect_out "^$SOL$" "alldiff-max3 on the hard Killer"

# Observed cells that break their cage (cell[0][0] + cell[0][1] == 15):
# a warning that the run found no posterior; the right ones, none.
printf 'cell[0][0] = 1\ncell[0][1] = 6\n' >"$TMP/bad.obs"
expect_exit 0 "run against a cage" -- "$FGM" run --observe "$TMP/bad.obs" "$M"
expect_err "warning: observation 0: the run left cell\[0\]\[0\] no value" \
    "observations against a cage"
printf 'cell[0][0] = 9\ncell[0][1] = 6\n' >"$TMP/good.obs"
expect_exit 0 "run with its cage" -- "$FGM" run --observe "$TMP/good.obs" "$M"
grep -q warning "$TMP/err" && fail "observations of the solution: $(cat "$TMP/err")"

# A clue against the cages: no solution, said as unsolved.
{ printf 1; printf '%080d\n' 0 | tr 0 .; } >"$TMP/wrong"
expect_exit 0 "solve wrong clue" -- "$FGM" solve --model "$M" \
    --solver mac "$TMP/wrong"
expect_err "solved=0/1" "a clue the cages rule out"

finish
