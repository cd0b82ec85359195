#!/usr/bin/env bash
# tests/bench.sh: `make bench`: the benchmark tables over the public corpora.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
FGM=${1:-build/fgm}
SHARED=${2:-../shared}
OUT=${3:-build/bench}
P=$SHARED/puzzles
mkdir -p "$OUT"
for f in easy50.txt top95.txt hardest.txt; do
    [ -r "$P/$f" ] || { echo "fgm: bench: $P/$f not found (set SHARED=...)" >&2; exit 1; }
done

echo "== Exact solvers on easy50, top95, hardest (timeout 10 s per puzzle)"
"$FGM" bench --timeout-ms 10000 --csv "$OUT/exact.csv" --svg "$OUT/exact.svg" \
    "$P/easy50.txt" "$P/top95.txt" "$P/hardest.txt"

echo
echo "== Throughput: dlx on the first 10,000 17-clue puzzles, -j 1 against -j 2"
head -n 10000 "$P/sudoku17.txt" > "$OUT/17clue-10k.txt"
for j in 1 2; do
    printf 'j=%s ' "$j"
    "$FGM" solve --solver dlx -j "$j" "$OUT/17clue-10k.txt" 2>&1 >/dev/null
done
echo
echo "Charts and CSV in $OUT/"

echo
echo "== Compiled against interpreted EP, and the plugin's build and load times"
"$FGM" bench --solvers ep-robust,ep-naive --backends compiled,interpreted \
    --timeout-ms 20000 --csv "$OUT/ep.csv" --svg "$OUT/ep.svg" \
    puzzles/seed000.txt "$P/easy50.txt"

echo
echo "== Marginal accuracy on 4x4 puzzles with several solutions"
bash "$(dirname "$0")/accuracy.sh" "$FGM" "$OUT/accuracy"
