#!/usr/bin/env python3
# tools/killer.py: writes a Killer Sudoku model (.fgm) from a solved grid.
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   tools/killer.py SOLUTION SEED [MAXCAGE]  > model.fgm
#
# SOLUTION is a solved 9x9 grid on one line (81 digits, row-major, as
# `fgm solve --solver dlx` prints it).  The cells are cut into cages of
# 1..MAXCAGE (default 4) orthogonally connected cells with distinct
# digits, grown from the cells in an order SEED shuffles; each cage's
# total is its digits' sum.  The model has no clues: the cages' sums and
# Sudoku's alldiffs alone (a cage of one cell is a clue in effect).
# Whether the puzzle has one solution is for fgm to say: `fgm run
# --backend exact` prints "assignments=1" then (models/killer.fgm and
# killer_hard.fgm, seeds 26 and 135, MAXCAGE 4 and 5, were checked so).
import random
import sys


def cages(grid, rng, maxcage):
    """Cells 0..80 cut into connected cages of distinct digits."""
    owner = [-1] * 81
    order = list(range(81))
    rng.shuffle(order)
    out = []
    for start in order:
        if owner[start] >= 0:
            continue
        want = rng.randint(1, maxcage)
        cage = [start]
        owner[start] = len(out)
        while len(cage) < want:
            grow = []
            for c in cage:
                r, k = divmod(c, 9)
                for dr, dk in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    if 0 <= r + dr < 9 and 0 <= k + dk < 9:
                        n = (r + dr) * 9 + k + dk
                        if owner[n] < 0 and grid[n] not in [
                                grid[x] for x in cage]:
                            grow.append(n)
            if not grow:
                break
            n = rng.choice(sorted(set(grow)))
            owner[n] = len(out)
            cage.append(n)
        out.append(sorted(cage))
    return sorted(out)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: tools/killer.py SOLUTION SEED [MAXCAGE]")
    grid = [int(ch) for ch in sys.argv[1]]
    if len(grid) != 81 or 0 in grid:
        sys.exit("killer.py: SOLUTION must be 81 digits 1-9")
    rng = random.Random(int(sys.argv[2]))
    maxcage = int(sys.argv[3]) if len(sys.argv) == 4 else 4
    print("# Killer Sudoku: no clues but the sums of the cages (a cage of one "
          "cell is a")
    print("# clue in effect).")
    print("# Written by tools/killer.py from a solved grid (seed %s)."
          % sys.argv[2])
    print("model killer")
    print("var cell[9][9] in 1..9")
    print("alldiff cell[i][*] for i in 0..8")
    print("alldiff cell[*][j] for j in 0..8")
    print("alldiff cell[3*a .. 3*a+2][3*b .. 3*b+2] for a, b in 0..2")
    for cage in cages(grid, rng, maxcage):
        refs = ", ".join("cell[%d][%d]" % divmod(c, 9) for c in cage)
        print("sum(%s) == %d" % (refs, sum(grid[c] for c in cage)))
    print("infer bp-sum(iterations = 50)")


if __name__ == "__main__":
    main()
