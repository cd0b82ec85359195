# tests/cli/vmp.sh: `fgm run` with vmp (mean field): exact where mean
# field is, its bound in the header and in JSON, both backends alike, the
# settings it refuses and the contradiction hard constraints give it.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

# Every roll observed: the posterior is exact, as EP's and the exact
# backend's, and the bound is the exact log Z (the same ten digits).
rolls='roll = 6 6 1 2 6 3 6 6 4 6 5 6 6 6 1 6 2 6 6 3'
echo "$rolls" | "$FGM" run models/dice.fgm --backend exact --observe - \
    > "$TMP/exact" 2>"$TMP/err" || fail "dice exact"
for b in interpreted compiled; do
    echo "$rolls" | "$FGM" run models/dice.fgm --algo vmp --backend "$b" \
        --out-dir "$TMP/gen" --observe - > "$TMP/vmp.$b" 2>"$TMP/err" ||
        fail "dice vmp $b"
    grep -q '^p alpha 3 3 3 2 2 13$' "$TMP/vmp.$b" ||
        fail "dice vmp $b: not Dirichlet(prior + counts): $(tail -1 "$TMP/vmp.$b")"
    z=$(sed -nE 's/.*log Z >= ([-0-9.e+]+).*/\1/p' "$TMP/vmp.$b")
    grep -q "log Z=$z\$" "$TMP/exact" ||
        fail "dice vmp $b: bound $z is not the exact log Z: $(head -1 "$TMP/exact")"
done

# The header: the algorithm, its sweeps and the bound.
expect_exit 0 "vmp header" -- "$FGM" run --algo vmp --backend interpreted \
    models/chain.fgm
expect_out "^# observation 0: interpreted vmp, [0-9]+ sweeps?, last change [0-9.e+-]+, [0-9.]+ ms, log Z >= -?[0-9.e+-]+\$" \
    "vmp header"

# The casino, its dice hidden: plugin and interpreter give the same bits;
# JSON names the bound log_z_bound, below the exact log Z.
echo 'roll = 3 1 5 6 6 6 4 6 6 6 2 6' > "$TMP/r12"
for b in interpreted compiled; do
    expect_exit 0 "casino vmp $b" -- "$FGM" run --algo vmp -D T=12 \
        --backend "$b" --out-dir "$TMP/gen" --observe "$TMP/r12" \
        --format csv models/casino.fgm
    cp "$TMP/out" "$TMP/casino.$b"
done
cmp -s "$TMP/casino.interpreted" "$TMP/casino.compiled" ||
    fail "vmp: the plugin and the interpreter differ"
expect_exit 0 "casino json" -- "$FGM" run --algo vmp -D T=12 \
    --backend interpreted --observe "$TMP/r12" --format json models/casino.fgm
expect_out '"log_z_bound": -17\.73' "casino bound in JSON"
grep -q '"log_z"' "$TMP/out" && fail "vmp's JSON calls its bound log_z"
expect_exit 0 "casino exact" -- "$FGM" run -D T=12 --backend exact \
    --observe "$TMP/r12" models/casino.fgm
expect_out "log Z=-17\.00" "casino exact log Z"

# --restarts: the best bound of K runs, at least the first run's, the
# header and JSON say so; another algorithm, or --seed alone, refuses.
rolls40='roll = 3 1 5 2 4 6 2 3 1 5 6 6 4 6 6 2 6 6 6 5 6 6 1 6 3 2 4 1 5 3 2 6 1 4 2 5 3 1 2 4'
echo "$rolls40" > "$TMP/r40"
expect_exit 0 "vmp one run" -- "$FGM" run --algo vmp --backend interpreted \
    --observe "$TMP/r40" --show 'die[10]' models/casino.fgm
one=$(sed -nE 's/.*log Z >= ([-0-9.e+]+).*/\1/p' "$TMP/out")
expect_exit 0 "vmp restarts" -- "$FGM" run --algo vmp --backend interpreted \
    --restarts 10 --seed 1 --observe "$TMP/r40" --show 'die[10]' \
    models/casino.fgm
expect_out ", the best bound of 10 restarts\$" "restarts in the header"
best=$(sed -nE 's/.*log Z >= ([-0-9.e+]+).*/\1/p' "$TMP/out")
awk -v a="$best" -v b="$one" 'BEGIN { exit !(a > b + 1) }' ||
    fail "restarts: best bound $best not above the first run's $one"
expect_exit 0 "vmp restarts json" -- "$FGM" run --algo vmp \
    --backend interpreted --restarts 4 --observe "$TMP/r40" --format json \
    models/casino.fgm
expect_out '"restarts": 4, ' "restarts in JSON"
expect_exit 2 "ep --restarts" -- "$FGM" run --restarts 3 models/chain.fgm
expect_err "^fgm: run: --restarts runs vmp" "--restarts without vmp"
expect_exit 2 "exact --restarts" -- "$FGM" run --backend exact --restarts 3 \
    models/chain.fgm
expect_err "^fgm: run: --restarts has no effect with --backend exact" \
    "--restarts with exact"

# Refused: damping in a vmp block (with its place), --damping,
# --seed without --restarts.
printf 'var x in 0..1\ninfer vmp(damping = 0.5)\n' > "$TMP/damped.fgm"
expect_exit 1 "damped vmp block" -- "$FGM" run "$TMP/damped.fgm"
expect_err "damped.fgm:2:11: error: vmp is coordinate ascent" "damped block"
expect_exit 2 "vmp --damping" -- "$FGM" run --algo vmp --damping 0.5 \
    models/chain.fgm
expect_err "^fgm: run: --damping: vmp is coordinate ascent" "--damping"
expect_exit 2 "vmp --seed" -- "$FGM" run --algo vmp --seed 3 models/chain.fgm
expect_err "^fgm: run: --seed seeds vmp's random starts: give --restarts" \
    "--seed without --restarts"

# Hard constraints between free variables leave mean field no value: a
# warning that says so, and no evidence.
echo 'cell[0][0] = 1' > "$TMP/clue"
expect_exit 0 "vmp sudoku" -- "$FGM" run --algo vmp --backend interpreted \
    --observe "$TMP/clue" sudoku:2
expect_err "warning: observation 0: the run left cell\[0\]\[0\] no value.*vmp's updates start from q spread" \
    "vmp contradiction"
expect_out "log Z >= -inf" "vmp contradiction's bound"

# A sum that every assignment meets, at its bound exactly (x sums to at
# most 2 with x[2] = 0; to at least 1 with x[2] = 1): vmp's q keeps the
# evidence and its bound is 0 (a value on the bound was taken as past
# it: the mutation audit).
for c in "1, 0]\nsum x <= 2" "0, 1]\nsum x >= 1"; do
    printf "model bound\nvar x[3] in 0..1\nevidence x[0] = [0.3, 0.7]\nevidence x[1] = [0.4, 0.6]\nevidence x[2] = [$c\ninfer vmp(iterations = 20)\n" > "$TMP/bound.fgm"
    expect_exit 0 "vmp, sum at its bound: $c" -- "$FGM" run "$TMP/bound.fgm" --out-dir "$TMP/gen"
    expect_out "log Z >= 0$" "vmp, sum at its bound: $c"
    expect_out "^x\[0\] 0\.3 0\.7$" "vmp, sum at its bound: $c"
done
# A run left without a value does not settle: its header says the last
# sweep changed a message by 1, and the tolerance did not stop it.
printf 'model dead\nvar x[2] in 0..1\nevidence x[0] = [0, 1]\nevidence x[1] = [0, 1]\nx[0] != x[1]\ninfer vmp(iterations = 50, tolerance = 1e-6)\n' > "$TMP/dead.fgm"
expect_exit 0 "vmp, dead run" -- "$FGM" run "$TMP/dead.fgm" --out-dir "$TMP/gen"
expect_out "^# observation 0: compiled vmp, 50 sweeps, last change 1," "vmp, dead run: its header"
finish
