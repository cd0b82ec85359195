# tests/cli/sudoku_x.sh: an alldiff with a for clause of its own (the
# diagonals of models/sudoku_x.fgm, `alldiff(cell[i][i] for i in
# 0..N-1)`): the count of 4x4 grids against the script's own brute
# force, the 9x9 solvers' answers, both backends' bits.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
M=models/sudoku_x.fgm

# Every 4x4 grid of rows that are permutations, checked by columns,
# boxes and both diagonals.
want=$(python3 -c '
import itertools
rows = list(itertools.permutations(range(4)))
def ok(g):
    units = [[(r, c) for r in range(4)] for c in range(4)]
    units += [[(2 * a + i, 2 * b + j) for i in (0, 1) for j in (0, 1)]
              for a in (0, 1) for b in (0, 1)]
    units += [[(i, i) for i in range(4)], [(i, 3 - i) for i in range(4)]]
    return all(len({g[r][c] for r, c in u}) == 4 for u in units)
print(sum(ok(g) for g in itertools.product(rows, repeat=4)))')
expect_exit 0 "count" -- "$FGM" run --backend exact -D B=2 "$M"
expect_out "solutions=$want," "the 4x4 grids ($want by brute force)"

# The dump: the diagonals as two more alldiffs.
expect_exit 0 "dump" -- "$FGM" dump -D B=2 "$M"
expect_out "^f28 alldiff cell\[0\]\[0\] cell\[1\]\[1\] cell\[2\]\[2\] cell\[3\]\[3\]$" "diagonal"
expect_out "^f29 alldiff cell\[0\]\[3\] cell\[1\]\[2\] cell\[2\]\[1\] cell\[3\]\[0\]$" "anti-diagonal"

# An empty 9x9 grid: the solvers' answers, which fgm solve checks
# against every alldiff, and the diagonals here once more.
printf '%081d\n' 0 | tr 0 . >"$TMP/empty.txt"
for s in dlx mac ep-hybrid3; do
    expect_exit 0 "solve $s" -- "$FGM" solve --model "$M" --solver $s "$TMP/empty.txt"
    expect_err "solved=1/1" "solve $s"
    grid=$(grep -E '^[1-9]{81}$' "$TMP/out")
    d1= d2=
    for ((i = 0; i < 9; i++)); do
        d1+=${grid:$((i * 10)):1}
        d2+=${grid:$((i * 8 + 8)):1}
    done
    for d in "$d1" "$d2"; do
        [ "$(echo "$d" | fold -w1 | sort -u | tr -d '\n')" = 123456789 ] ||
            fail "solve $s: diagonal $d of $grid"
    done
done

# EP on the 4x4 model with two clues, compiled and interpreted to the bit.
printf 'cell[0][0] = 1\ncell[1][2] = 3\n' >"$TMP/clues.obs"
for b in interpreted compiled; do
    "$FGM" run --backend $b --format csv -D B=2 --observe "$TMP/clues.obs" \
        "$M" >"$TMP/$b.csv" 2>"$TMP/err" || fail "ep $b: exit $?"
done
cmp -s "$TMP/interpreted.csv" "$TMP/compiled.csv" ||
    fail "ep: compiled and interpreted marginals differ"

# Two clues that clash on a diagonal (a unit the puzzle reader does not
# check) end ep-hybrid's search at its root: ep-hybrid2, complete and
# unbudgeted, filled the empty grid every way and was still at it when
# --timeout-ms stopped it.
printf '1.......................................1........................................\n' > "$TMP/clash.txt"
for s in ep-hybrid ep-hybrid2; do
    expect_exit 0 "$s, diagonal clash" -- "$FGM" solve --solver $s --model "$M" --csv --timeout-ms 5000 "$TMP/clash.txt"
    awk -F, 'NR == 2 { ok = $4 == 0 && $8 == 0 && $12 == 1 && $14 == 0 } END { exit !ok }' "$TMP/out" \
        || fail "$s, diagonal clash: not refused at the root: $(cat "$TMP/out")"
done
# Every exact solver refuses the clash too, at once, and dlx counts 0
# (taking the second clue out of a column the first covered crashed it:
# the mutation audit).
for s in dlx mac norvig ac3 fc mrv backtrack; do
    expect_exit 0 "$s, diagonal clash" -- "$FGM" solve --solver $s --model "$M" --csv --timeout-ms 5000 "$TMP/clash.txt"
    awk -F, 'NR == 2 { ok = $4 == 0 && $14 == 0 } END { exit !ok }' "$TMP/out" \
        || fail "$s, diagonal clash: not refused: $(cat "$TMP/out")"
done
expect_exit 0 "dlx --count, diagonal clash" -- "$FGM" solve --solver dlx --model "$M" --count --cap 5 "$TMP/clash.txt"
[ "$(cat "$TMP/out")" = 0 ] || fail "dlx --count, diagonal clash: $(cat "$TMP/out")"
finish
