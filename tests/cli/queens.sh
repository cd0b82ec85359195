# tests/cli/queens.sh: x != y + offset, on the N-queens model.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

# The exact backend counts the published numbers of solutions (OEIS
# A000170: 2, 10, 4, 40, 92 for N = 4..8): enumeration visits them, and
# variable elimination's total weight is their number (every solution
# weighs 1).
for nc in 4:2 5:10 6:4 7:40 8:92; do
    n=${nc%%:*} count=${nc#*:}
    expect_exit 0 "exact queens N=$n" -- "$FGM" run --backend exact \
        --exact-method enumeration -D "N=$n" models/queens.fgm
    lz=$(awk -v c="$count" 'BEGIN { printf "%.10g", log(c) }')
    expect_out "^# observation 0: exact \(enumeration\), assignments=$count, log Z=$lz\$" \
        "N=$n has $count solutions, log Z their log"
    expect_exit 0 "elimination, queens N=$n" -- \
        "$FGM" run --backend exact -D "N=$n" models/queens.fgm
    if [ "$n" = 8 ]; then
        # Eight queens all see each other: a clique of 8^8 entries, past
        # elimination's bound, so the default falls back to enumeration.
        expect_out "^# observation 0: exact \(enumeration\), assignments=92, log Z=4\.521788577\$" \
            "N=8 falls back to enumeration"
        continue
    fi
    z=$(sed -n 's/^# observation 0: exact (variable elimination), width=[0-9]*, log Z=//p' \
        "$TMP/out")
    awk -v z="$z" -v c="$count" 'BEGIN { d = z - log(c); exit !(z != "" && d < 1e-9 && d > -1e-9) }' ||
        fail "N=$n: log Z '$z' is not log $count"
done

# Its marginals are those of a brute force over all N^N placements,
# written here without the model language (N = 6: each queen's row
# over the four solutions).
expect_exit 0 "exact queens csv" -- \
    "$FGM" run --backend exact --format csv models/queens.fgm
awk -F, 'NR > 1 { print $3, $4, $5 }' "$TMP/out" > "$TMP/got"
awk 'BEGIN {
    n = 6
    for (c = 0; c < n ^ n; c++) {
        x = c
        for (i = 0; i < n; i++) { q[i] = x % n + 1; x = int(x / n) }
        ok = 1
        for (i = 0; i < n && ok; i++)
            for (j = i + 1; j < n; j++) {
                d = q[i] - q[j]
                if (d == 0 || d == j - i || d == i - j) { ok = 0; break }
            }
        if (!ok) continue
        sols++
        for (i = 0; i < n; i++) hit[i, q[i]]++
    }
    for (i = 0; i < n; i++)
        for (v = 1; v <= n; v++)
            printf "q[%d] %d %.17g\n", i, v, hit[i, v] / sols
}' > "$TMP/want"
awk 'NR == FNR { want[$1 " " $2] = $3; next }
     { d = $3 - want[$1 " " $2]; if (d < 0) d = -d; if (d > 1e-12) bad++ }
     END { exit bad ? 1 : 0 }' "$TMP/want" "$TMP/got" ||
    fail "exact marginals differ from the brute force: $(paste "$TMP/want" "$TMP/got" | head -5)"
[ "$(wc -l < "$TMP/got")" -eq 36 ] || fail "36 marginal rows"

# BP runs it on both backends, with the same numbers.
expect_exit 0 "compiled bp-sum" -- "$FGM" run --backend compiled \
    --out-dir "$TMP/gen" --format csv models/queens.fgm
cp "$TMP/out" "$TMP/compiled"
expect_exit 0 "interpreted bp-sum" -- "$FGM" run --backend interpreted \
    --format csv models/queens.fgm
cmp -s "$TMP/compiled" "$TMP/out" ||
    fail "compiled and interpreted marginals differ"

# The offset's sign: x != y + 1 rules out (2, 1) and (3, 2), leaving 7
# pairs, 3 of them with x = 1.
printf 'model s\nvar x in 1..3\nvar y in 1..3\nx != y + 1\n' > "$TMP/s.fgm"
expect_exit 0 "exact x != y + 1" -- "$FGM" run --backend exact \
    --exact-method enumeration "$TMP/s.fgm"
expect_out "^# observation 0: exact \(enumeration\), assignments=7, log Z=1\.945910149\$" "7 pairs"
expect_out "^x 0\.428571 0\.285714 0\.285714\$" "x = 1 in 3 of 7"

# An offset the domain cannot reach rules nothing out and adds no factor;
# a zero offset is the plain != factor.
printf 'model o\nvar x in 1..3\nvar y in 1..3\nx != y + 3\nx != y - 0\n' \
    > "$TMP/o.fgm"
expect_exit 0 "dump offsets" -- "$FGM" dump "$TMP/o.fgm"
expect_out "^vars 2 factors 1$" "one factor"
expect_out "^f0 neq x y$" "x != y - 0 is x != y"

finish
