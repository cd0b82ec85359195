# tests/cli/grid.sh: which models take puzzles, and which clue checks
# the puzzle reader makes for them (fgm_ir_grid): a Sudoku's boxes are
# checked, a jigsaw's regions are not boxes, a grid whose rows or
# columns are not alldiffs (a colouring) has no units to check, and a
# grid that does not start at variable 0 takes no puzzle (the reader
# fills variables 0 .. N*N-1).
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

# latin4 NAME LINE...: $TMP/NAME.fgm, a 4x4 grid with its rows and
# columns, then the LINEs.
latin4() {
    local name=$1; shift
    printf '%s\n' "model $name" 'var cell[4][4] in 1..4' \
        'alldiff cell[i][*] for i in 0..3' 'alldiff cell[*][j] for j in 0..3' \
        "$@" >"$TMP/$name.fgm"
}

# Four regions of two half-rows each: 3N alldiffs over the grid, none of
# them a 2x2 box.
latin4 jigsaw \
    'alldiff(cell[0][0], cell[0][1], cell[1][2], cell[1][3])' \
    'alldiff(cell[0][2], cell[0][3], cell[1][0], cell[1][1])' \
    'alldiff(cell[2][0], cell[2][1], cell[3][2], cell[3][3])' \
    'alldiff(cell[2][2], cell[2][3], cell[3][0], cell[3][1])'
# 1 at r1c1 and r2c2: the same 2x2 box, different regions.
echo '1....1..........' >"$TMP/p.txt"
expect_exit 0 "jigsaw" -- "$FGM" solve --solver dlx --model "$TMP/jigsaw.fgm" "$TMP/p.txt"
expect_out "^1234214334124321$" "jigsaw: a solution (dlx's first of 24)"
expect_err "solved=1/1" "jigsaw"
# Its count, against the script's own brute force over the regions.
want=$(python3 -c '
import itertools
rows = list(itertools.permutations(range(1, 5)))
regions = [[(0, 0), (0, 1), (1, 2), (1, 3)], [(0, 2), (0, 3), (1, 0), (1, 1)],
           [(2, 0), (2, 1), (3, 2), (3, 3)], [(2, 2), (2, 3), (3, 0), (3, 1)]]
units = regions + [[(r, c) for r in range(4)] for c in range(4)]
print(sum(g[0][0] == 1 and g[1][1] == 1
          and all(len({g[r][c] for r, c in u}) == 4 for u in units)
          for g in itertools.product(rows, repeat=4)))')
expect_exit 0 "jigsaw, count" -- "$FGM" solve --solver dlx --count --cap 1000 --model "$TMP/jigsaw.fgm" "$TMP/p.txt"
expect_out "^$want$" "jigsaw: $want solutions by brute force"

# The same clues under the 4x4 Sudoku: a box repeat, refused.
expect_exit 1 "sudoku" -- "$FGM" solve --solver dlx --model models/sudoku.fgm -D B=2 "$TMP/p.txt"
expect_err "p.txt:1:6: error: clue 1 repeated in box 1 \\(rows 1 and 2\\)" "sudoku: the box"

# One box of four constrained: the others are not boxes of the model, so
# a repeat in the last box is no input error.  (The Latin square puts each
# value twice in rows 0-1 and columns 0-1, so the first box would need it
# twice: dlx finds no solution.)
latin4 onebox 'alldiff(cell[0][0], cell[0][1], cell[1][0], cell[1][1])'
echo '..........1....1' >"$TMP/r.txt"
expect_exit 0 "one box" -- "$FGM" solve --solver dlx --model "$TMP/onebox.fgm" "$TMP/r.txt"
expect_err "puzzle 1 has no solution" "one box: a repeat in an unconstrained box is the search's"

# A grid colouring: neighbours differ, rows and columns may repeat a
# value, so the reader refuses no repeat (the reader took its rows for
# units and refused "1212", "clue 1 repeated in row 1").  mac's answer
# keeps the clues and colours every neighbour apart (checked here).
cat >"$TMP/colour.fgm" <<'M'
model colour
var c[4][4] in 1..4
c[i][j] != c[i][j+1] for i in 0..3, j in 0..2
c[i][j] != c[i+1][j] for i in 0..2, j in 0..3
M
printf '%s\n' '1212............' '1.......1.......' >"$TMP/c.txt"
expect_exit 0 "colouring" -- "$FGM" solve --solver mac --model "$TMP/colour.fgm" "$TMP/c.txt"
expect_err "solved=2/2" "colouring: both puzzles"
python3 - "$TMP/out" "$TMP/c.txt" <<'P' || fail "colouring: an answer breaks the clues or the colouring"
import sys
answers = [l.strip() for l in open(sys.argv[1]) if l.strip()]
clues = [l.strip() for l in open(sys.argv[2]) if l.strip()]
assert len(answers) == 2
for a, p in zip(answers, clues):
    assert len(a) == 16 and all(x in '1234' for x in a)
    assert all(q == '.' or q == x for q, x in zip(p, a))
    for r in range(4):
        for c in range(4):
            if c < 3: assert a[4*r+c] != a[4*r+c+1]
            if r < 3: assert a[4*r+c] != a[4*r+c+4]
P
# Its rows are no units for `fgm bench` either.
expect_exit 0 "colouring, bench" -- "$FGM" bench --solvers mac --model "$TMP/colour.fgm" "$TMP/c.txt"
expect_out "^c.txt +mac +2/2 " "colouring, bench: both solved"
# Rows without columns: the grid has no units; a repeat in a column is
# the search's to refute (a Latin row pattern solves it).
cat >"$TMP/rows.fgm" <<'M'
model rows
var cell[4][4] in 1..4
alldiff cell[i][*] for i in 0..3
M
echo '1...1...........' >"$TMP/s.txt"
expect_exit 0 "rows only" -- "$FGM" solve --solver mac --model "$TMP/rows.fgm" "$TMP/s.txt"
expect_err "solved=1/1" "rows only: a column repeat is allowed"

# A variable before the grid: puzzles would fill z and the grid's first
# 15 cells; refused.
cat >"$TMP/late.fgm" <<'M'
model late
var z in 1..4
var cell[4][4] in 1..4
alldiff cell[i][*] for i in 0..3
alldiff cell[*][j] for j in 0..3
alldiff cell[2*a .. 2*a+1][2*b .. 2*b+1] for a, b in 0..1
M
echo '1234............' >"$TMP/q.txt"
expect_exit 1 "late grid" -- "$FGM" solve --solver mac --model "$TMP/late.fgm" "$TMP/q.txt"
expect_err "no square 2-D var array starting" "late grid"
finish
