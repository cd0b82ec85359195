#!/usr/bin/env bash
# tests/accuracy.sh: how far approximate marginals are from the exact ones on
# 4x4 Sudoku puzzles with several solutions (a figure, not a pass/fail).
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
FGM=${1:-build/fgm}
OUT=${2:-build/accuracy}
mkdir -p "$OUT"
# Puzzles with 2..many solutions: few clues, from a fixed list.
cat > "$OUT/four.txt" <<'P'
1...............
12..............
1....2..........
1.....3...4.....
12..34..........
1..2............
.2.......3......
4...........1...
P
"$FGM" solve --count --cap 100000 "$OUT/four.txt" > "$OUT/counts.txt" 2>/dev/null
"$FGM" run sudoku:2 --backend exact --observe "$OUT/four.txt" --format csv > "$OUT/exact.csv"
"$FGM" run models/sudoku.fgm -D B=2 --backend interpreted --observe "$OUT/four.txt" \
    --format csv > "$OUT/ep.csv"
"$FGM" run sudoku:2 --backend interpreted --algo bp-sum --observe "$OUT/four.txt" \
    --format csv > "$OUT/bp.csv"
compare() {
    awk -F, 'FNR == 1 { next }
             NR == FNR { if ($2 == "marginal") x[$1 "," $3 "," $4] = $5; next }
             $2 == "marginal" { d = $5 - x[$1 "," $3 "," $4]; if (d < 0) d = -d;
                                if (d > m[$1]) m[$1] = d; if (d > all) all = d }
             END { for (k in m) printf "%s %.4f\n", k, m[k]; printf "all %.4f\n", all }' \
        "$OUT/exact.csv" "$1" | sort -n
}
echo "puzzle  solutions  max|ep - exact|  max|bp-sum - exact|"
paste <(seq 0 7) "$OUT/counts.txt" <(compare "$OUT/ep.csv" | grep -v all | awk '{print $2}') \
      <(compare "$OUT/bp.csv" | grep -v all | awk '{print $2}') |
    awk '{printf "%6d  %9s  %15s  %19s\n", $1, $2, $3, $4}'
printf "all puzzles: ep %s, bp-sum %s\n" "$(compare "$OUT/ep.csv" | awk '/all/{print $2}')" \
    "$(compare "$OUT/bp.csv" | awk '/all/{print $2}')"
