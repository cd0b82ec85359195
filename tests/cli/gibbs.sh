# tests/cli/gibbs.sh: `fgm run` with the gibbs sampler: its estimates
# against the exact backend's, --seed, the settings it refuses, and the
# draws without weight in its header.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

# The chain (a tree): 100,000 sweeps within 0.01 of elimination's
# marginals, from the plugin and the interpreter alike (the same bits:
# the same draws from the same seed).
expect_exit 0 "exact chain" -- "$FGM" run --backend exact --format csv \
    models/chain.fgm
cp "$TMP/out" "$TMP/exact"
for b in interpreted compiled; do
    expect_exit 0 "gibbs chain $b" -- "$FGM" run --algo gibbs --backend "$b" \
        --iters 100000 --seed 5 --format csv --out-dir "$TMP/gen" \
        models/chain.fgm
    cp "$TMP/out" "$TMP/$b"
    paste -d, "$TMP/exact" "$TMP/$b" | awk -F, '
        NR > 1 { d = $5 - $10; if (d < 0) d = -d; if (d > m) m = d }
        END { exit !(NR > 10 && m < 0.01) }' ||
        fail "gibbs $b: marginals more than 0.01 off elimination's"
done
cmp -s "$TMP/interpreted" "$TMP/compiled" ||
    fail "gibbs: the plugin and the interpreter differ"

# A chain that never moved says so: the 3x3 magic square's eight
# solutions differ in every cell but the centre, and single-site draws
# stay in the first one reached.  A chain that moves (the chain model's)
# says nothing.
expect_exit 0 "gibbs frozen" -- "$FGM" run --algo gibbs --backend interpreted \
    --iters 500 models/magic.fgm
expect_err "observation 0: every kept gibbs draw was certain, so the chain never moved" \
    "gibbs frozen: warned"
expect_exit 0 "gibbs moving" -- "$FGM" run --algo gibbs --backend interpreted \
    --iters 500 models/chain.fgm
if grep -q "never moved" "$TMP/err"; then
    fail "gibbs moving: warned of a frozen chain"
fi
# Nor does a chain that had nothing to move: every roll of the die
# observed (it warned that hard constraints pinned the state, and the
# model has none).
echo "roll = 1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 1 2" > "$TMP/rolls.txt"
expect_exit 0 "gibbs, every roll observed" -- "$FGM" run --algo gibbs --backend interpreted \
    --observe "$TMP/rolls.txt" models/dice.fgm
if grep -q "never moved" "$TMP/err"; then
    fail "gibbs, every roll observed: warned of a frozen chain: $(cat "$TMP/err")"
fi

# The header: the algorithm and sweeps, no log Z (a sampler has none).
expect_exit 0 "gibbs header" -- "$FGM" run --algo gibbs --backend interpreted \
    --iters 300 models/chain.fgm
expect_out "^# observation 0: interpreted gibbs, 300 sweeps, last change [0-9.e+-]+, [0-9.]+ ms\$" \
    "gibbs header"

# --seed: the same seed the same marginals, another seed others.
for run in a:1 b:1 c:2; do
    expect_exit 0 "seed ${run#*:}" -- "$FGM" run --algo gibbs \
        --backend interpreted --iters 200 --seed "${run#*:}" --format csv \
        models/chain.fgm
    cp "$TMP/out" "$TMP/seed.${run%%:*}"
done
cmp -s "$TMP/seed.a" "$TMP/seed.b" || fail "--seed 1 twice differs"
cmp -s "$TMP/seed.a" "$TMP/seed.c" && fail "--seed 1 and 2 agree"

# Sets run on two threads give what one thread gives: each set's draws
# start from the seed, on each worker's own generator.
printf 'roll = 1 6 6 6 2 6 6 3\n---\nroll = 1 2 3 4 5 6 1 2\n---\nroll = 6 6 6 6 6 6 6 6\n' \
    > "$TMP/rolls.txt"
for j in 1 2; do
    expect_exit 0 "gibbs -j $j" -- "$FGM" run --algo gibbs -D T=8 --iters 500 \
        --backend interpreted --observe "$TMP/rolls.txt" --format csv -j "$j" \
        models/casino.fgm
    cp "$TMP/out" "$TMP/j$j"
done
cmp -s "$TMP/j1" "$TMP/j2" || fail "gibbs: -j 2 differs from -j 1"

# --chains K: the mean of K chains, each one's standard error in the
# output (text, JSON, CSV) and the largest in the header.
expect_exit 0 "gibbs chains" -- "$FGM" run --algo gibbs --backend interpreted \
    --iters 2000 --chains 6 --seed 3 models/chain.fgm
expect_out "^# observation 0: interpreted gibbs, 12000 sweeps, last change [0-9.e+-]+, [0-9.]+ ms, 6 chains, largest standard error 0\.0[0-9]+\$" \
    "chains in the header"
expect_out "^x\[5\] stderr 0\.0[0-9]+ 0\.0[0-9]+ 0\.0[0-9]+\$" "a variable's standard errors"
expect_exit 0 "gibbs chains json" -- "$FGM" run --algo gibbs --backend interpreted \
    --iters 2000 --chains 6 --seed 3 --format json models/chain.fgm
expect_out '"chains": 6, .*"stderr": \{"x\[0\]": \[' "chains in JSON"
expect_exit 0 "gibbs chains csv" -- "$FGM" run --algo gibbs --backend interpreted \
    --iters 2000 --chains 6 --seed 3 --format csv models/chain.fgm
[ "$(grep -c '^0,stderr,x\[' "$TMP/out")" = 18 ] ||
    fail "chains: 18 stderr rows in CSV"
expect_exit 2 "--chains without a sampler" -- "$FGM" run models/chain.fgm --chains 4
expect_err "--chains runs the gibbs sampler's chains" "--chains with bp-sum"
expect_exit 2 "--chains with exact" -- "$FGM" run --backend exact \
    models/chain.fgm --chains 4
expect_exit 2 "--chains 0" -- "$FGM" run --algo gibbs models/chain.fgm --chains 0

# Settings the run would not use are refused, not ignored.
expect_exit 2 "--seed without a sampler" -- "$FGM" run models/chain.fgm --seed 3
expect_err "--seed seeds the gibbs sampler" "--seed with bp-sum"
expect_exit 2 "--damping with gibbs" -- "$FGM" run --algo gibbs \
    models/chain.fgm --damping 0.5
expect_err "gibbs draws values, it has no messages to damp" "--damping with gibbs"
expect_exit 2 "--seed with exact" -- "$FGM" run --backend exact \
    models/chain.fgm --seed 3
expect_err "--seed has no effect with --backend exact" "--seed with exact"
expect_exit 2 "--seed not a number" -- "$FGM" run --algo gibbs \
    models/chain.fgm --seed x
printf 'var x in 1..2\ninfer gibbs(damping = 0.5)\n' > "$TMP/damped.fgm"
expect_exit 1 "damping in a gibbs model" -- "$FGM" run "$TMP/damped.fgm"
expect_err "damped.fgm:2:13: error: gibbs draws values: it has no messages to damp" \
    "damping in a gibbs model, at its line and column"

# Hard constraints the values cannot meet: the header counts the draws
# that had no value to take, and the run warns of the contradiction.
printf 'var x in 0..1\nvar y in 0..1\nx != y\nevidence x = [1, 0]\nevidence y = [1, 0]\ninfer gibbs(iterations = 20)\n' \
    > "$TMP/clash.fgm"
expect_exit 0 "gibbs clash" -- "$FGM" run --backend interpreted "$TMP/clash.fgm"
expect_out ", 36 draws without weight, 0 sweeps kept$" "draws without weight in the header"
expect_exit 0 "gibbs clash, JSON" -- "$FGM" run --backend interpreted \
    --format json "$TMP/clash.fgm"
expect_out '"dead_draws": 36, "kept_sweeps": 0, ' "draws without weight in JSON"
expect_err "no value" "the contradiction is said"

# JSON names two chains as it names six.
expect_exit 0 "gibbs 2 chains, json" -- "$FGM" run --algo gibbs --backend interpreted \
    --iters 200 --chains 2 --seed 3 --format json models/chain.fgm
expect_out '"chains": 2, ' "gibbs 2 chains, json"
finish
