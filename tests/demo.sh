#!/usr/bin/env bash
# tests/demo.sh: `make demo`: solve the shipped puzzles with every exact solver,
# then print the benchmark table.  SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
FGM=${1:-build/fgm}
solvers=$("$FGM" list | awk '/^solvers:/{on=1;next} /^[a-z]/{on=0} on && /\[exact\]/{print $1}')
corpora=(puzzles/seed003.txt puzzles/seed002_easy.txt puzzles/seed002_top95.txt
         puzzles/seed002_hardest.txt puzzles/seed002_expert.txt)

echo "== The three grids of notebook 003, solved by dlx:"
"$FGM" solve --solver dlx puzzles/seed003.txt
echo
echo "== Recursive calls (nodes) per solver on notebook 003's grids"
echo "   (seed parity: backtrack 4209/55/879418, mrv 52/46/5565, ac3 82/82/981113)"
for s in $solvers; do
    printf '%-10s' "$s"
    "$FGM" solve --solver "$s" --csv puzzles/seed003.txt 2>/dev/null |
        awk -F, 'NR>1{printf " %10s", $7} END{print ""}'
done
echo
echo "== Every solver on every shipped corpus (timeout 2 s per puzzle)"
for s in $solvers; do
    for c in "${corpora[@]}"; do
        "$FGM" solve --solver "$s" --timeout-ms 2000 "$c" 2>&1 >/dev/null |
            sed "s|^fgm: |$(basename "$c" .txt): |"
    done
done
echo
echo "== Benchmark table (median and IQR per corpus and solver)"
mkdir -p build/demo
"$FGM" bench --timeout-ms 2000 --csv build/demo/bench.csv \
    --svg build/demo/bench.svg "${corpora[@]}"
echo
echo "Chart: build/demo/bench.svg   CSV: build/demo/bench.csv"
