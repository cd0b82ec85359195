#!/usr/bin/env bash
# tests/bench.sh: `make bench`: the benchmark tables over the public corpora.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
FGM=${1:-build/fgm}
SHARED=${2:-../shared}
OUT=${3:-build/bench}
P=$SHARED/puzzles
mkdir -p "$OUT"
for f in easy50.txt easy51.txt top95.txt hardest.txt sudoku17.txt; do
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
"$FGM" bench --solvers ep-robust,ep-robust2,ep-naive --backends compiled,interpreted \
    --timeout-ms 20000 --csv "$OUT/ep.csv" --svg "$OUT/ep.svg" \
    puzzles/seed000.txt "$P/easy50.txt"

echo
echo "== One 50-sweep EP inference, compiled and interpreted back to back (tests/bench_ep.c)"
cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iruntime tests/bench_ep.c \
    "$(dirname "$FGM")/libfgm.a" $(pkg-config --libs gsl) -ldl -lpthread -lm \
    -o "$OUT/bench_ep"
"$OUT/bench_ep" "$P/easy50.txt" 20
echo "-- the divider's throughput (tests/bench_div.c): the soft-clue inference"
echo "   divides 891,000 doubles (22 a != update, 810 updates a sweep, 50 sweeps)"
cc -std=c11 -O2 -march=native tests/bench_div.c -o "$OUT/bench_div"
"$OUT/bench_div"

echo
echo "== Models other than Sudoku: each one's own inference, compiled, interpreted and exact (fgm bench --model)"
# A 2,000-step chain and a 100x100 Ising grid of pairwise tables, and
# the die with twenty sets of rolls (a Dirichlet prior under EP).
sed 's/x\[6\]/x[2000]/; s/0\.\.4$/0..1998/; s/^model chain/model chain2k/' \
    models/chain.fgm > "$OUT/chain2k.fgm"
printf '%s\n' 'model grid' 'const N = 100' 'var s[N][N] in 0..1' \
    'table (s[i][j], s[i][j+1]) = [[1.35, 0.74], [0.74, 1.35]] for i in 0..N-1, j in 0..N-2' \
    'table (s[i][j], s[i+1][j]) = [[1.35, 0.74], [0.74, 1.35]] for i in 0..N-2, j in 0..N-1' \
    'evidence s[0][0] = [0.45, 0.55]' 'infer bp-sum(iterations = 20)' > "$OUT/grid.fgm"
# The same grid 12x12: small enough for exact marginals by variable
# elimination, which measure loopy BP's error.
sed 's/^model grid/model grid12/; s/N = 100/N = 12/' "$OUT/grid.fgm" > "$OUT/grid12.fgm"
for i in $(seq 1 20); do
    [ "$i" -gt 1 ] && echo '---'
    printf 'roll ='; for r in $(seq 1 20); do printf ' %d' $(( (i * 31 + r * 17 + i * r) % 6 + 1 )); done; echo
done > "$OUT/rolls.txt"
"$FGM" bench --model "$OUT/chain2k.fgm" --backends compiled,interpreted,exact
"$FGM" bench --model "$OUT/grid.fgm"
"$FGM" bench --model "$OUT/grid12.fgm" --backends compiled,interpreted,exact
"$FGM" bench --model models/dice.fgm --observe "$OUT/rolls.txt"

echo
echo "== Marginal accuracy on 4x4 puzzles with several solutions"
bash "$(dirname "$0")/accuracy.sh" "$FGM" "$OUT/accuracy"

echo
echo "== One sweep of native alldiff messages over a 9x9 grid (ms per sweep)"
# Twice: with the library's portable flags (what the interpreter runs) and
# with a plugin's (-O3 -march=native: the vector paths of the kernels).
failed=
for flags in "-O2" "-O3 -march=native"; do
    echo "-- kernels built $flags"
    cc -std=c11 $flags -ffp-contract=off -D_POSIX_C_SOURCE=200809L -Iruntime \
        tests/bench_alldiff.c -o "$OUT/bench_alldiff" $(pkg-config --libs gsl) -lm
    # Not fatal for the rest of the tables, but said, and the run's exit
    # status at the end: exit 1 is a disagreement between the methods or
    # a ratio under 20x.  (A line in the middle of the tables was all a
    # native build timing a wrong computation got, for weeks.)
    "$OUT/bench_alldiff" || {
        echo "bench_alldiff: FAILED (exit $?)"
        failed="$failed bench_alldiff($flags)"
    }
done

echo
echo "== Decimation solvers (seed-faithful and improved) on the public corpora"
"$FGM" bench --solvers ep-hybrid,ep-hybrid2,ep-hybrid3,bp-decimate,bp-decimate2,bp-decimate3,bp-backtrack,alldiff-max,alldiff-max2,alldiff-sum,alldiff-sum2,alldiff-max3,alldiff-sum3 \
    --timeout-ms 60000 --csv "$OUT/decimation.csv" --svg "$OUT/decimation.svg" \
    "$P/easy50.txt" "$P/hardest.txt" "$P/top95.txt"

echo
echo "== Seed spread: the seed-faithful randomized solvers on hardest, --seed 0-9"
# A randomized solver's count in the table above is one draw (seed =
# puzzle index); the seeds' own figures are single runs too.
spread=
for seed in 0 1 2 3 4 5 6 7 8 9; do
    "$FGM" bench --solvers alldiff-max,alldiff-sum,bp-decimate --seed "$seed" \
        --repeat 1 --timeout-ms 60000 --csv "$OUT/seed$seed.csv" \
        "$P/hardest.txt" >/dev/null
    spread="$spread $OUT/seed$seed.csv"
done
# Columns of FGM_BENCH_CSV_HEADER: 2 solver, 4 n, 5 solved.
awk -F, 'FNR > 1 { got[$2] = got[$2] " " $5; n[$2] = $4; t[$2] += $5;
                   k[$2]++ }
         END { for (s in got)
                   printf "%-12s solved of %d:%s (mean %.1f)\n", s, n[s],
                          got[s], t[s] / k[s] }' \
    $spread | sort

echo "== BP decimation on easy51 (the seed's corpus for it)"
"$FGM" bench --solvers bp-decimate,bp-decimate2,bp-decimate3,bp-backtrack \
    --timeout-ms 60000 --csv "$OUT/easy51.csv" "$P/easy51.txt"

echo
echo "== Compiled against interpreted, decimation solvers"
"$FGM" bench --solvers ep-hybrid2,bp-decimate2,alldiff-max,alldiff-max2 \
    --backends compiled,interpreted --timeout-ms 60000 \
    --csv "$OUT/backends.csv" "$P/easy50.txt" "$P/hardest.txt"

echo
echo "== Every solver on the generated 16x16 puzzles (timeout 10 s)"
"$FGM" bench --solvers backtrack,mrv,ac3,fc,mac,norvig,dlx,ep-naive,ep-robust,ep-iterative,ep-hybrid,ep-hybrid2,ep-hybrid3,bp-decimate,bp-decimate2,bp-decimate3,bp-backtrack,alldiff-max,alldiff-sum,alldiff-max2,alldiff-sum2,alldiff-max3,alldiff-sum3 \
    --timeout-ms 10000 --csv "$OUT/sixteen.csv" --svg "$OUT/sixteen.svg" \
    puzzles/generated_16x16.txt

# The forum's lists of the hardest known puzzles go beyond the seeds'
# corpora; they are optional (skipped when $SHARED/puzzles lacks them).
echo
H=$P/forum_hardest_1106.txt
if [ -r "$H" ]; then
    echo "== The forum's hardest list (forum_hardest_1106): the strongest solvers of each kind (timeout 10 s)"
    "$FGM" bench --solvers dlx,norvig,ep-hybrid,ep-hybrid2,ep-hybrid3,alldiff-max2 \
        --timeout-ms 10000 --csv "$OUT/forum1106.csv" "$H"
else
    echo "== $H not found: the forum's hardest list skipped"
fi
echo
H=$P/forum_hardest_1905_11plus.txt
if [ -r "$H" ]; then
    echo "== Throughput on the puzzles rated 11+ (forum_hardest_1905_11plus), -j 2"
    for s in dlx ep-hybrid2 ep-hybrid3; do
        "$FGM" solve --solver "$s" -j 2 --timeout-ms 10000 "$H" 2>&1 >/dev/null
    done
else
    echo "== $H not found: the 11+ list skipped"
fi
if [ -n "$failed" ]; then
    echo "fgm: bench: failed:$failed" >&2
    exit 1
fi
