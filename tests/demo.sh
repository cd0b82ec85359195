#!/usr/bin/env bash
# tests/demo.sh: `make demo`: compile the Sudoku model, solve the shipped
# puzzles with the exact, the EP and the decimation solvers, and compare
# compiled against interpreted inference.  SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
FGM=${1:-build/fgm}
OUT=build/demo
mkdir -p "$OUT"
exact=$("$FGM" list | awk '/^solvers:/{on=1;next} /^[a-z]/{on=0} on && /\[exact\]/{print $1}')
corpora=(puzzles/seed003.txt puzzles/seed002_easy.txt puzzles/seed002_top95.txt
         puzzles/seed002_hardest.txt puzzles/seed002_expert.txt)

echo "== Compile models/sudoku.fgm (the seed's robust model) to a plugin"
rm -f generated/sudoku.ep.c generated/sudoku.ep.so
"$FGM" compile models/sudoku.fgm
echo
echo "== The three grids of notebook 003, solved by dlx:"
"$FGM" solve --solver dlx puzzles/seed003.txt
echo
echo "== Recursive calls (nodes) per solver on notebook 003's grids"
echo "   (seed parity: backtrack 4209/55/879418, mrv 52/46/5565, ac3 82/82/981113)"
for s in $exact; do
    printf '%-10s' "$s"
    "$FGM" solve --solver "$s" --csv puzzles/seed003.txt 2>/dev/null |
        awk -F, 'NR>1{printf " %10s", $7} END{print ""}'
done
echo
echo "== Every exact solver on every shipped corpus (timeout 2 s per puzzle)"
for s in $exact; do
    for c in "${corpora[@]}"; do
        "$FGM" solve --solver "$s" --timeout-ms 2000 "$c" 2>&1 >/dev/null |
            sed "s|^fgm: |$(basename "$c" .txt): |"
    done
done
echo
echo "== The seed's EP solvers on notebook 000's grids (2 Easy, 2 Medium)"
echo "   (seed: robust solves Easy and leaves 37 errors on its Medium grid, 3;"
echo "   iterative, fixing 1 cell a round, 3 on its Medium grid, 4; errors are"
echo "   the seed's NbErrors: per unit, its cells minus its distinct values)"
for s in ep-robust ep-robust2 ep-iterative ep-iterative/1 ep-naive; do
    fix=()
    [ "$s" = ep-iterative/1 ] && fix=(--fix 1)
    "$FGM" solve --model models/sudoku.fgm --solver "${s%/1}" ${fix[@]+"${fix[@]}"} \
        --csv puzzles/seed000.txt 2>"$OUT/${s%/1}.err" |
        awk -F, -v s="$s" 'NR>1{printf "%-14s grid %d: solved=%d errors=%-3s inferences=%-3s %8.2f ms (%s)\n", s, $1+1, $4, $13, $8, $6, $3}'
    grep -v rebuilding "$OUT/${s%/1}.err" || true
done
echo
echo "== The decimation solvers on notebook 002's hard grids (hardest.txt 1-10)"
echo "   (seed: v3 solved its Medium grid, hardest line 2, in 7 EP inferences
    and 10 decisions, 239 ms; v4, alldiff max-product, 9/11 of hardest at
    12-21 s a grid)"
for s in ep-hybrid ep-hybrid2 bp-decimate2 bp-decimate3 alldiff-max alldiff-max2; do
    "$FGM" solve --solver "$s" --timeout-ms 5000 --csv puzzles/seed002_hardest.txt \
        2>&1 >"$OUT/$s.hardest.csv" | grep -v rebuilding
done
for s in ep-hybrid ep-hybrid2; do
    awk -F, -v s="$s" 'NR == 3 {printf "%-10s hardest line 2: solved=%d inferences=%s decisions=%s %.2f ms\n", s, $4, $8, $9, $6}' \
        "$OUT/$s.hardest.csv"
done
echo
echo "== Compiled against interpreted: the same EP inference, both backends"
"$FGM" bench --solvers ep-robust,ep-robust2,ep-iterative,dlx,norvig --backends compiled,interpreted \
    --timeout-ms 5000 --csv "$OUT/bench.csv" --svg "$OUT/bench.svg" \
    puzzles/seed000.txt puzzles/seed003.txt puzzles/seed002_easy.txt
echo
echo "== Beyond Sudoku: which model explains forty casino rolls better?"
echo "   (log Z, each model's evidence: EP's estimate, and the exact one where"
echo "   elimination reaches; the larger wins, by e^difference to 1)"
rolls='roll = 3 1 5 2 4 6 2 3 1 5 6 6 4 6 6 2 6 6 6 5 6 6 1 6 3 2 4 1 5 3 2 6 1 4 2 5 3 1 2 4'
# log_z MODEL BACKEND: the log Z on fgm run's header for the rolls.
log_z() {
    echo "$rolls" | "$FGM" run "models/$1.fgm" --backend "$2" --observe - \
        --show 'roll[0]' 2>/dev/null | sed -n 's/^# observation 0: .*log Z[ ~=]*//p'
}
printf '%-40s %s\n' "casino (a fair die and a loaded one), ep" "$(log_z casino auto)" \
    "one_die (one die), ep" "$(log_z one_die auto)" \
    "one_die (one die), exact" "$(log_z one_die exact)"
echo "$rolls" | "$FGM" run models/casino.fgm --algo vmp --restarts 10 \
    --observe - --show 'roll[0]' 2>/dev/null |
    sed -n 's/^# observation 0: .*log Z >= \([-0-9.e+]*\).*/casino, vmp: a lower bound on its log Z  \1/p'
echo
echo "== The same rolls, sampled: where did the loaded die play? (die[10..14])"
echo "   (P(loaded) by EP, by mean field (vmp, the best bound of 10 restarts:"
echo "   it settles in one mode and is sure of it, as mean field does) and by"
echo "   the gibbs sampler, 8 chains of 5,000 sweeps, with their standard error)"
echo "$rolls" | "$FGM" run models/casino.fgm --observe - --show 'die[10..14]' \
    2>/dev/null | awk '/^die/ {printf "  ep     %-8s %.4f\n", $1, $3}'
echo "$rolls" | "$FGM" run models/casino.fgm --observe - --algo vmp \
    --restarts 10 --show 'die[10..14]' 2>/dev/null |
    awk '/^die/ {printf "  vmp    %-8s %.4f\n", $1, $3}'
echo "$rolls" | "$FGM" run models/casino.fgm --observe - --algo gibbs \
    --iters 5000 --chains 8 --seed 1 --show 'die[10..14]' 2>/dev/null |
    awk '/^# obs/ {sub(/^# observation 0: /, "  "); print}
         /^die/ && $2 != "stderr" {p[$1] = $3}
         /^die/ && $2 == "stderr" {printf "  gibbs  %-8s %.4f +- %.4f\n", $1, p[$1], $4}'
echo
echo "== Killer Sudoku: no clues, the sums of cages (sum(...) == total factors)"
echo "   (models/killer.fgm and killer_hard.fgm, one solution each; a solver"
echo "   that answers is checked against every sum and alldiff)"
printf '%081d\n' 0 | tr 0 . >"$OUT/killer_empty.txt"
for m in killer killer_hard; do
    "$FGM" run --backend exact "models/$m.fgm" 2>/dev/null |
        sed -n "s/^# observation 0: exact (\(.*\)), \(assignments=[0-9]*\).*/  $m: exact \1, \2/p"
    for s in mac bp-decimate2 alldiff-max alldiff-max3; do
        "$FGM" solve --model "models/$m.fgm" --solver $s --timeout-ms 10000 \
            "$OUT/killer_empty.txt" 2>&1 >/dev/null |
            sed -n "s/^fgm: solver=\([^ ]*\) backend=\([^ ]*\) \(solved=[^ ]*\) \(median_ms=[^ ]*\).*/  $m: \1 (\2) \3 \4/p"
    done
done
echo
echo "== A knapsack: weighted sums (sum(23 * take[0], ...) <= 165), values as evidence"
echo "   (models/knapsack.fgm: bp-max's packing against the exact most probable one)"
for most in 4 10; do
    "$FGM" run --backend exact --map -D MOST=$most models/knapsack.fgm \
        2>/dev/null | awk -v most=$most '
            /^#/ { sub(/.*log weight=/, ""); lw = $0 }
            / = 1$/ { items = items " " substr($1, 6, length($1) - 6) }
            END { printf "  at most %2d items: exact MAP items%s, value %.0f\n",
                         most, items, lw * 5 }'
    "$FGM" run --backend compiled -D MOST=$most models/knapsack.fgm \
        2>/dev/null | awk -v most=$most '
            /^# observation/ { t = $0; sub(/.*sweeps, [^,]*, /, "", t)
                               sub(/,.*/, "", t) }
            /^take/ && $3 > $2 { items = items " " substr($1, 6, length($1) - 6) }
            END { printf "  at most %2d items: bp-max    items%s (%s compiled)\n",
                         most, items, t }'
done
echo
echo "== Magic squares: sums over rows, columns and diagonals (models/magic.fgm)"
for n in 3 4; do
    "$FGM" run --backend exact --exact-method enumeration -D N=$n \
        models/magic.fgm 2>/dev/null | sed -n \
        "s/^# observation 0: exact (enumeration), assignments=\([0-9]*\).*/  order $n: \1 squares (enumeration)/p"
done
echo
echo "Chart: $OUT/bench.svg   CSV: $OUT/bench.csv"
