# tests/cli/magic.sh: a sum with a for clause of its own (the diagonals
# of models/magic.fgm, `sum(sq[i][i] for i in 0..N-1) == M`): the exact
# counts of magic squares against the published ones, an answer checked
# line by line, and both backends' bits.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
M=models/magic.fgm

# 8 squares of order 3 (one, turned and mirrored), 7,040 of order 4
# (Frenicle de Bessy, 1693: 880 up to symmetry).
expect_exit 0 "count 3" -- "$FGM" run --backend exact --exact-method enumeration "$M"
expect_out "assignments=8," "eight 3x3 squares"
expect_exit 0 "count 4" -- "$FGM" run --backend exact --exact-method enumeration -D N=4 "$M"
expect_out "assignments=7040," "7,040 4x4 squares"

# The centre of every 3x3 square is 5.
expect_exit 0 "centre" -- "$FGM" run --backend exact "$M"
expect_out "^sq\[1\]\[1\] 0 0 0 0 1 0 0 0 0$" "the centre is 5"

# The dump: the two diagonals, the second from the top right.
expect_exit 0 "dump" -- "$FGM" dump "$M"
expect_out "^f7 sum sq\[0\]\[0\] sq\[1\]\[1\] sq\[2\]\[2\] params 12 12 1 1 1$" "diagonal"
expect_out "^f8 sum sq\[0\]\[2\] sq\[1\]\[1\] sq\[2\]\[0\] params 12 12 1 1 1$" "anti-diagonal"

# A line may break inside the clause, after `for` and after a comma.
printf 'var y[2][2] in 0..3\nsum(y[i][j] for\n    i in 0..1,\n    j in 0..1) <= 5\n' \
    >"$TMP/breaks.fgm"
expect_exit 0 "line breaks" -- "$FGM" dump "$TMP/breaks.fgm"
expect_out "^f0 sum y\[0\]\[0\] y\[0\]\[1\] y\[1\]\[0\] y\[1\]\[1\] params 0 5 1 1 1 1$" \
    "line breaks"

# The most probable assignment (all weigh the same: the first found) is
# a magic square: every row, column and diagonal of the 4x4 sums to 34.
expect_exit 0 "map 4" -- "$FGM" run --backend exact --map -D N=4 "$M"
awk -F'[][ =]+' '/^sq/ { v[$2, $3] = $4 }
    END { n = 4; bad = 0
          for (i = 0; i < n; i++) { r = c = 0
              for (j = 0; j < n; j++) { r += v[i, j]; c += v[j, i] }
              bad += r != 34 || c != 34 }
          for (i = 0; i < n; i++) { d += v[i, i]; a += v[i, n - 1 - i] }
          bad += d != 34 || a != 34
          for (k in v) seen[v[k]]++
          for (x = 1; x <= 16; x++) bad += seen[x] != 1
          exit bad != 0 }' "$TMP/out" || fail "map 4: not a magic square: $(cat "$TMP/out")"

# bp-sum on the native alldiff, compiled and interpreted to the bit.
for b in interpreted compiled; do
    "$FGM" run --backend $b --format csv "$M" >"$TMP/$b.csv" 2>"$TMP/err" ||
        fail "bp-sum $b: exit $?"
done
cmp -s "$TMP/interpreted.csv" "$TMP/compiled.csv" ||
    fail "bp-sum: compiled and interpreted marginals differ"
finish
