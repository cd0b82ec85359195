# tests/cli/knapsack.sh: weighted sums (`sum(23 * take[0], ...) <= 165`)
# through the CLI: models/knapsack.fgm, a 0/1 knapsack whose values are
# evidence, against the exact backend's most probable assignment.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
M=models/knapsack.fgm

# The packing of `fgm run --format csv` on stdin: each item's argmax
# (bp-max: its max-marginal) or its MAP value, one digit an item.
packing() {
    awk -F, '$2 == "marginal" && $4 == 0 { p0[$3] = $5 + 0 }
             $2 == "marginal" && $4 == 1 { p1[$3] = $5 + 0 }
             $2 == "map" { p1[$3] = $4; p0[$3] = 1 - $4 }
             END { for (i = 0; i < 10; i++) {
                       t = "take[" i "]"; printf "%d", (p1[t] > p0[t]) }
                   print "" }'
}

# The item budgets: P01's best (309 = 5 x 61.8, items 0-3 and 5) without
# one, with four and three items the exact backend's. bp-max on the loopy
# graph of the two sums finds the same packing, both backends to the bit.
for most in 10 4 3; do
    case $most in
    10) want=1111010000 ;;
    4) want=1101001000 ;;
    3) want=1001000010 ;;
    esac
    expect_exit 0 "map $most" -- "$FGM" run --backend exact --map \
        --format csv -D MOST=$most "$M"
    [ "$(packing <"$TMP/out")" = "$want" ] ||
        fail "MOST=$most: exact MAP $(packing <"$TMP/out"), want $want"
    for b in interpreted compiled; do
        "$FGM" run --backend $b --format csv -D MOST=$most "$M" \
            >"$TMP/$b.csv" 2>"$TMP/err" || fail "bp-max $b MOST=$most: exit $?"
        [ "$(packing <"$TMP/$b.csv")" = "$want" ] ||
            fail "bp-max $b MOST=$most: $(packing <"$TMP/$b.csv"), want $want"
    done
    cmp -s "$TMP/interpreted.csv" "$TMP/compiled.csv" ||
        fail "MOST=$most: compiled and interpreted max-marginals differ"
done
expect_exit 0 "log weight" -- "$FGM" run --backend exact --map "$M"
expect_out "log weight=56.8" "the value of items 0, 1, 3 and 6 over 5"

# The dump keeps the coefficients after the range; the count's are 1.
expect_exit 0 "dump" -- "$FGM" dump "$M"
expect_out "^f10 sum take\[0\] .* take\[9\] params 0 165 23 31 29 44 53 38 63 85 89 82$" "dump"
expect_out "^f11 sum take\[0\] .* take\[9\] params 0 4 1 1 1 1 1 1 1 1 1 1$" "dump"
# The graph labels a weighted sum's edges with their coefficients.
expect_exit 0 "graph" -- "$FGM" graph "$M"
expect_out '^  f10 -- v0 \[label="23"\];$' "graph: the weight of item 0"
expect_out '^  f11 -- v0;$' "graph: the count's unit edge"

# Enumeration counts the packings within both budgets, as the test's own
# loop over the 1,024 subsets does.
w=(23 31 29 44 53 38 63 85 89 82)
count=0
for ((s = 0; s < 1024; s++)); do
    weight=0 items=0
    for ((i = 0; i < 10; i++)); do
        if ((s >> i & 1)); then weight=$((weight + w[i])); items=$((items + 1)); fi
    done
    ((weight <= 165 && items <= 4)) && count=$((count + 1))
done
expect_exit 0 "exact" -- "$FGM" run --backend exact --exact-method enumeration "$M"
# ... and the log of the largest weight, the MAP's above.
expect_out "assignments=$count, log max weight=56\.8\$" "enumeration's count ($count by brute force)"
# A weighted sum that its bounds let through but no assignment meets:
# the exact backend refuses it, message passing says log Z = -inf.
printf 'var x in 0..3\nvar y in 0..3\nsum(2 * x, 3 * y) == 1\ninfer bp-sum\n' \
    >"$TMP/gaps.fgm"
expect_exit 1 "exact on gaps" -- "$FGM" run --backend exact "$TMP/gaps.fgm"
expect_err "no consistent assignment" "exact on gaps"
expect_exit 0 "bp-sum on gaps" -- "$FGM" run --backend interpreted "$TMP/gaps.fgm"
expect_err "observation 0: log Z = -inf under the run's messages" "bp-sum on gaps"
# JSON, which has no -inf, says it in a field of its own (the record had
# no log_z and nothing else: a run without a log Z, to a reader).
expect_exit 0 "bp-sum on gaps, json" -- "$FGM" run --backend interpreted --format json "$TMP/gaps.fgm"
expect_out '"zero_weight": true' "bp-sum on gaps, json"
grep -q '"log_z"' "$TMP/out" && fail "bp-sum on gaps, json: a log_z"
expect_exit 0 "bp-sum, json" -- "$FGM" run --backend interpreted --format json "$M"
grep -q 'zero_weight' "$TMP/out" && fail "knapsack, json: zero_weight on a finite log Z"
# vmp's bound of -inf (x != y between two free variables rules out
# every value under mean field) says nothing of Z, which is 2.
printf 'var x[2] in 0..1\nx[0] != x[1]\ninfer vmp\n' > "$TMP/vneq.fgm"
expect_exit 0 "vmp's -inf bound, json" -- "$FGM" run --backend interpreted --format json "$TMP/vneq.fgm"
grep -q 'zero_weight' "$TMP/out" && fail "vmp's -inf bound, json: zero_weight"
# Min-conflicts gibbs where weighted sums miss their ranges by millions
# (the evidence leaves v no value): the broken counts saturate, and the
# odds' exponent stays an int (UBSan, under make cli-asan, saw 720000059
# * -3 overflow).
{
    printf 'var v in 0..63\nvar u[12] in 0..1\n'
    printf 'sum(1000000 * v, u[k]) <= 0 for k in 0..11\n'
    printf 'sum(v) >= 1\nsum(v) <= 0\ninfer gibbs(iterations = 50)\n'
} >"$TMP/miss.fgm"
expect_exit 0 "gibbs, sums missed by millions" -- "$FGM" run --backend interpreted "$TMP/miss.fgm"
expect_err "left v no value" "gibbs, sums missed by millions"
expect_exit 0 "bp-sum on the knapsack" -- "$FGM" run --backend interpreted "$M"
grep -q "warning" "$TMP/err" && fail "knapsack: $(cat "$TMP/err")"
finish
