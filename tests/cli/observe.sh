# tests/cli/observe.sh: `fgm run --observe` files, and outputs written
# atomically, against bad input (cases found by a review helper; each was
# a crash, a silent wrong answer or a replaced device node).
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
R="1 6 6 2 3 4 5 1 1 2 3 4 5 6 6 6 1 2 3 4"

# bad_observation NAME WHAT PATTERN FORMAT [ARG]: the observation line
# printf FORMAT ARG, in $TMP/NAME.txt, is refused (exit 1) on the dice
# model with stderr matching NAME.txt:PATTERN.
bad_observation() {
    local name=$1 what=$2 pattern=$3
    shift 3
    printf "$@" > "$TMP/$name.txt"
    expect_exit 1 "$what" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/$name.txt"
    expect_err "$name.txt:$pattern" "$what"
}

printf 'roll = %s\n' "$R" > "$TMP/ok.txt"
expect_exit 0 "20 rolls" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/ok.txt"
expect_out "^roll\[1\] 0 0 0 0 0 1" "an observed roll is a point mass"

# A missing observation file is reported before the model is opened: no
# plugin is built for nothing (it was, first).
expect_exit 1 "missing observation file" -- "$FGM" run models/dice.fgm --out-dir "$TMP/noplug" --observe "$TMP/nonexistent.txt"
expect_err "nonexistent.txt: error: cannot open" "missing observation file"
[ ! -e "$TMP/noplug" ] || fail "missing observation file: a plugin was built first"
# So is a malformed line anywhere in the file, assignment or puzzle: the
# error came after the plugin's build (half a second for Sudoku).
printf 'roll[0] = 2\n---\nroll[1] = 9\n' > "$TMP/late.txt"
expect_exit 1 "a bad line in the second set" -- "$FGM" run models/dice.fgm --out-dir "$TMP/noplug" --observe "$TMP/late.txt"
expect_err "late.txt:3:11: error: bad value '9' for roll\[1\]" "a bad line in the second set"
[ ! -s "$TMP/out" ] || fail "a bad line in the second set: the first set ran"
printf '1...............\n1..1............\n' > "$TMP/late4.txt"
expect_exit 1 "a bad second puzzle" -- "$FGM" run sudoku:2 --out-dir "$TMP/noplug" --observe "$TMP/late4.txt"
expect_err "late4.txt:2" "a bad second puzzle"
[ ! -e "$TMP/noplug" ] || fail "a bad observation line: a plugin was built first"
# ... on the exact backend too, for a line only it refuses (pseudo-counts).
printf 'roll[0] = 2\n---\np = 1 2 3 4 5 6\n' > "$TMP/latep.txt"
expect_exit 1 "pseudo-counts in the second set, exact" -- "$FGM" run models/dice.fgm --backend exact --observe "$TMP/latep.txt"
expect_err "latep.txt:3:5: error: pseudo-counts of p need an engine backend" "pseudo-counts in the second set, exact"
[ ! -s "$TMP/out" ] || fail "pseudo-counts in the second set, exact: the first set ran"

# Pseudo-counts past the limit name it.
bad_observation pbig "pseudo-counts 1e200" "1:[0-9]+: error: bad pseudo-counts for p: each > 0, their sum at most 1e\+150" 'p = 1e200 1 1 1 1 1\n'

# One element a line, as the whole array's line with '.' elsewhere (it was
# refused: "an observation line gives a whole array"); a bad subscript, a
# missing one, or an element given twice is an error naming it.
printf 'roll = %s\n' "$(printf '. %.0s' $(seq 19)) 6" > "$TMP/last.txt"
printf 'roll[19] = 6\n' > "$TMP/elem.txt"
expect_exit 0 "the last roll, whole-array line" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/last.txt"
mv "$TMP/out" "$TMP/last.out"
expect_exit 0 "the last roll, element line" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/elem.txt"
grep -v '^#' "$TMP/out" | cmp -s - <(grep -v '^#' "$TMP/last.out") || fail "roll[19] = 6 is not roll = . ... 6"
expect_out "^roll\[19\] 0 0 0 0 0 1" "the element is observed"
bad_observation elem "an element past the array" "1:5: error: 'roll\[20\]': a subscript of roll is an index 0..19" 'roll[20] = 2\n'
bad_observation elemd "two subscripts of a vector" "1:8: error: 'roll\[1\]\[2\]': roll has 1 dimension, so at most 1 subscript" 'roll[1][2] = 2\n'
bad_observation elemtwice "an element twice" "2:11: error: roll\[3\] is already observed on line 1" 'roll = . . . 4%s\nroll[3] = 4\n' "$(printf ' .%.0s' $(seq 16))"
bad_observation elemmany "two values for an element" "1:13: error: roll\[3\] wants 1 value, got more" 'roll[3] = 4 5\n'
bad_observation elem2 "an element of no array" "1:1: error: unknown array 'nosuch'" 'nosuch[3] = 2\n'
# Blanks around and inside the brackets (y[ 0 ] was cut at its blank and
# refused as "'y[': a subscript ...").
printf ' roll [ 19 ]= 6\n' > "$TMP/elemb.txt"
expect_exit 0 "an element with blanks" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/elemb.txt"
grep -v '^#' "$TMP/out" | cmp -s - <(grep -v '^#' "$TMP/last.out") || fail "roll [ 19 ] = 6 is not roll[19] = 6"
bad_observation elemsp "two numbers in one subscript" "1:5: error: 'roll\[1 2\]': a subscript of roll is an index 0..19" 'roll[1 2] = 2\n'
bad_observation elemafter "a word after the element" "1:11: error: expected '=' after roll\[3\], not 'x'" 'roll[ 3 ] x = 2\n'
bad_observation elemnode "a subscript of a single node" "1:2: error: 'p\[0\]': p has no dimensions: write it without a subscript" 'p[0] = 1 1 1 1 1 1\n'
bad_observation noname "no name" "1:1: error: expected a name before '='" '= 2\n'
# Fewer subscripts than dimensions name the block they lead: a row of a
# 2-D array, or of a prior array's nodes (it was "name one element with a
# subscript for each").
printf 'prior theta[2] ~ dirichlet([1, 1, 1])\nvar y[2][4] in 0..2 ~ discrete(theta)\n' > "$TMP/rows.fgm"
printf 'y[1] = 2 . 0 1\ntheta[0] = 1 2 3\n' > "$TMP/row.txt"
printf 'y = . . . . 2 . 0 1\ntheta = 1 2 3 1 1 1\n' > "$TMP/rowall.txt"
for b in interpreted exact; do
    [ $b = exact ] && sed -i '/theta/d' "$TMP/row.txt" "$TMP/rowall.txt"
    expect_exit 0 "a row, $b" -- "$FGM" run "$TMP/rows.fgm" --backend $b --observe "$TMP/row.txt"
    mv "$TMP/out" "$TMP/row.out"
    expect_exit 0 "the row as the whole array's line, $b" -- "$FGM" run "$TMP/rows.fgm" --backend $b --observe "$TMP/rowall.txt"
    cmp -s <(grep -v "^#" "$TMP/out") <(grep -v "^#" "$TMP/row.out") || fail "y[1] = ... is not the whole array's line with '.' elsewhere ($b)"
done
expect_out "^y\[1\]\[0\] 0 0 1$" "the row is observed"
# --show: only the arrays named, in every format; a name the model lacks
# is a usage error listing the arrays it has.
expect_exit 0 "--show theta" -- "$FGM" run "$TMP/rows.fgm" --backend interpreted --show theta --observe "$TMP/row.txt"
[ "$(grep -vc '^#' "$TMP/out")" = 2 ] || fail "--show theta: not the two nodes alone"
expect_out "^theta\[0\] alpha " "--show theta"
expect_exit 0 "--show y,theta, csv" -- "$FGM" run "$TMP/rows.fgm" --backend interpreted --show y,theta --format csv --observe "$TMP/row.txt"
[ "$(wc -l < "$TMP/out")" = $((1 + 8 * 3 + 2 * 3)) ] || fail "--show y,theta: every row"
# Weights of one variable ("x[0] = [0.7, 0.2, 0.1]"): soft evidence, the
# run equal to the model with that evidence statement (and to exact
# marginals on this chain), on both backends; the next set starts
# without it; wrong lists are errors at their column.
printf 'model soft\nvar x[3] in 0..2\ntable (x[i], x[i+1]) = [[4, 1, 1], [1, 4, 1], [1, 1, 4]] for i in 0..1\ninfer bp-sum(iterations = 5)\n' > "$TMP/soft.fgm"
sed 's/^model soft/model softev/; $i evidence x[0] = [0.7, 0.2, 0.1]' "$TMP/soft.fgm" > "$TMP/softev.fgm"
printf 'x[0] = [7, 2, 1]\n---\nx[1] = 2\n' > "$TMP/soft.txt"
expect_exit 0 "exact marginals with the evidence statement" -- "$FGM" run "$TMP/softev.fgm" --backend exact --format csv
grep -v '^observation,' "$TMP/out" | cut -d, -f3- > "$TMP/softev.exact"
# The exact backend takes them too, as that evidence statement (by
# elimination and by enumeration).
for b in compiled interpreted elimination enumeration; do
    case $b in
    compiled|interpreted) how="--backend $b --out-dir $TMP/softgen" ;;
    *) how="--backend exact --exact-method $b" ;;
    esac
    expect_exit 0 "weights, $b" -- "$FGM" run "$TMP/soft.fgm" $how --observe "$TMP/soft.txt" --format csv
    awk -F, '$1 == 0' "$TMP/out" | cut -d, -f3- > "$TMP/soft.$b"
    python3 - "$TMP/soft.$b" "$TMP/softev.exact" <<'PY' || fail "weights, $b: not the evidence statement's marginals"
import sys
a = [l.split(",") for l in open(sys.argv[1]).read().split()]
b = [l.split(",") for l in open(sys.argv[2]).read().split()]
assert len(a) == len(b) == 9, (a, b)
assert all(x[:2] == y[:2] and abs(float(x[2]) - float(y[2])) < 1e-12 for x, y in zip(a, b)), (a, b)
PY
    # The second set: x[1] = 2 alone, x[0]'s weights gone.
    awk -F, '$1 == 1 && $3 == "x[0]"' "$TMP/out" | cut -d, -f5 | tr '\n' ' ' > "$TMP/soft.x0"
    python3 -c 'import sys; v = [float(x) for x in open(sys.argv[1]).read().split()]; assert abs(v[0] - v[1]) < 1e-12 and v[2] > v[0], v' "$TMP/soft.x0" ||
        fail "weights, $b: the second set kept the first one's weights: $(cat "$TMP/soft.x0")"
done
cmp -s "$TMP/soft.compiled" "$TMP/soft.interpreted" || fail "weights: compiled and interpreted differ"
for bad in 'x[0] = [0, 0, 0]:1:8:every weight is zero for x\[0\]' \
           'x = [1, 2, 3]:1:5:a list of weights observes one variable: name one element' \
           'x[0] = [1, 2]:1:8:x\[0\] has 3 values: 3 weights, got 2' \
           'x[0] = [1, -2, 3]:1:12:bad weight for x\[0\]: a weight is a decimal number >= 0' \
           'x[0] = [1, 2, 3:1:8:the weights of x\[0\] have no' \
           'x[0] = [1, 2, 3] 4:1:17:nothing may follow' \
           'x[0] = [1.5.5, 1, 1]:1:9:bad weight' \
           'x[0] = [1, 2, 3,]:1:17:an empty weight for x\[0\]' \
           'x[0] = []:1:9:an empty weight'; do
    printf '%s\n' "${bad%%:*}" > "$TMP/softbad.txt"
    rest=${bad#*:}
    expect_exit 1 "weights: ${bad%%:*}" -- "$FGM" run "$TMP/soft.fgm" --backend interpreted --observe "$TMP/softbad.txt"
    expect_err "softbad.txt:${rest%%:*}:$(echo "$rest" | cut -d: -f2): error: $(echo "$rest" | cut -d: -f3-)" "weights: ${bad%%:*}"
done
# An engine run's JSON record gives its sweeps, last change and time as
# numbers (they were only in the "info" text).
expect_exit 0 "json fields" -- "$FGM" run models/chain.fgm --backend interpreted --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))[0]; assert d["sweeps"] == 10 and 0 <= d["change"] < 1e-9 and d["ms"] >= 0, d' "$TMP/out" || fail "json fields: $(head -c 200 "$TMP/out")"
# A prior's rows: CSV numbers the pseudo-counts from 1, as the text
# does; an EP record has exactly EP's fields (no sampler's "chains",
# "dead_draws" or "kept_sweeps").
printf 'model m\nprior p ~ dirichlet([1, 2])\nvar x in 0..1 ~ discrete(p)\n' >"$TMP/prior.fgm"
expect_exit 0 "prior, csv" -- "$FGM" run "$TMP/prior.fgm" --backend interpreted --format csv
expect_out "^0,alpha,p,1,1$" "prior, csv: the first pseudo-count is value 1"
expect_out "^0,alpha,p,2,2$" "prior, csv: the second"
expect_exit 0 "prior, json" -- "$FGM" run "$TMP/prior.fgm" --backend interpreted --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))[0]
assert set(d) == {"observation", "info", "sweeps", "change", "ms", "log_z",
                  "values", "marginals", "alpha"}, sorted(d)
assert d["alpha"] == {"p": [1, 2]}, d' "$TMP/out" || fail "prior, json: $(head -c 300 "$TMP/out")"
expect_exit 0 "--show y, json, exact" -- "$FGM" run "$TMP/rows.fgm" --backend exact --show y --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d[0]["marginals"]) == 8 and d[0]["alpha"] == {} and d[0]["values"] == {"y": [0, 2]}, d' "$TMP/out" || fail "--show y, json"
expect_exit 2 "--show an unknown array" -- "$FGM" run "$TMP/rows.fgm" --show y,z
expect_err "^fgm: run: --show: the model has no array 'z'; its arrays: theta, y$" "--show an unknown array"
expect_exit 0 "--show twice" -- "$FGM" run "$TMP/rows.fgm" --backend interpreted --show theta --show y --format csv --observe "$TMP/row.txt"
[ "$(wc -l < "$TMP/out")" = $((1 + 8 * 3 + 2 * 3)) ] || fail "--show twice: both arrays"
# The exact backend prints each prior's exact posterior mean,
# (a + E[counts]) / (A + N): row 1 of y is 2 . 2 1, so theta[1] has
# counts 0, 1, 2 and y[1][1] the predictive (1, 2, 3) / 6 of them: the
# mean is (1 + 0 + 1/6, 1 + 1 + 2/6, 1 + 2 + 3/6) / 7 = (1, 2, 3) / 6;
# row 0 is free, and theta[0] stays uniform.
printf 'y[1] = 2 . 2 1\n' > "$TMP/row1.txt"
expect_exit 0 "--show a prior, exact" -- "$FGM" run "$TMP/rows.fgm" --backend exact --show theta --observe "$TMP/row1.txt" --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))[0]["mean"]; m = [1 / 6, 2 / 6, 3 / 6]
assert len(d) == 2 and all(abs(x - 1 / 3) < 1e-12 for x in d["theta[0]"]) and all(abs(x - y) < 1e-12 for x, y in zip(d["theta[1]"], m)), d' "$TMP/out" ||
    fail "--show a prior, exact: $(cat "$TMP/out")"
expect_exit 2 "--show a prior, exact max-marginals" -- "$FGM" run "$TMP/rows.fgm" --backend exact --algo bp-max --show theta
expect_err "^fgm: run: --show theta: --backend exact prints no prior with --map or max-marginals \(bp-max\)$" "--show a prior, exact max-marginals"
expect_exit 2 "--show an empty name" -- "$FGM" run "$TMP/rows.fgm" --show y,
expect_err "^fgm: run: --show has an empty name$" "--show an empty name"
# Elements and blocks: y[1][2] one variable, y[0] a row, theta[1] one
# node (a 200,000-variable chain could not print a few of its own).
expect_exit 0 "--show elements" -- "$FGM" run "$TMP/rows.fgm" --backend interpreted --show 'y[1][2],y[ 0 ],theta[1]' --observe "$TMP/row.txt"
[ "$(grep -v '^#' "$TMP/out" | cut -d' ' -f1 | tr '\n' ' ')" = "y[0][0] y[0][1] y[0][2] y[0][3] y[1][2] theta[1] " ] ||
    fail "--show elements: $(grep -v '^#' "$TMP/out" | cut -d' ' -f1 | tr '\n' ' ')"
expect_exit 2 "--show a subscript out of range" -- "$FGM" run "$TMP/rows.fgm" --show 'y[2]'
expect_err "^fgm: run: --show y\[2\]: subscript 2 out of range 0..1 of y's dimension 1$" "--show a subscript out of range"
expect_exit 2 "--show too many subscripts" -- "$FGM" run "$TMP/rows.fgm" --show 'y[0][0][0]'
expect_err "more subscripts than y has dimensions \(2\)$" "--show too many subscripts"
expect_exit 2 "--show a bad subscript" -- "$FGM" run "$TMP/rows.fgm" --show 'y[a]'
expect_err "^fgm: run: --show y\[a\]: a subscript is an integer, a range LO..HI or \* in brackets$" "--show a bad subscript"
# Ranges and * as the model language writes them, blanks around names.
expect_exit 0 "--show ranges" -- "$FGM" run "$TMP/rows.fgm" --backend interpreted --show ' y[*][1..2] , y[1][ 3 ]' --observe "$TMP/row.txt"
[ "$(grep -v '^#' "$TMP/out" | cut -d' ' -f1 | tr '\n' ' ')" = "y[0][1] y[0][2] y[1][1] y[1][2] y[1][3] " ] ||
    fail "--show ranges: $(grep -v '^#' "$TMP/out" | cut -d' ' -f1 | tr '\n' ' ')"
expect_exit 2 "--show an empty range" -- "$FGM" run "$TMP/rows.fgm" --show 'y[0][3..1]'
expect_err "^fgm: run: --show y\[0\]\[3..1\]: the range 3..1 is empty$" "--show an empty range"
expect_exit 2 "--show a range past the end" -- "$FGM" run "$TMP/rows.fgm" --show 'y[0..2]'
expect_err "^fgm: run: --show y\[0..2\]: subscript 2 out of range 0..1 of y's dimension 1$" "--show a range past the end"
printf 'y[1] = 2 0 1\n' > "$TMP/rowshort.txt"
expect_exit 1 "a short row" -- "$FGM" run "$TMP/rows.fgm" --backend interpreted --observe "$TMP/rowshort.txt"
expect_err "rowshort.txt:1:6: error: y\[1\] wants 4 values, not 3" "a short row"
# A line of '---' ends an observation set: each set runs as if alone
# (nothing of the one before stays observed), a set of no lines is none,
# and line numbers run on through the file.
printf 'roll = %s\n---\n# none\n---\nroll[2] = 3\n---\n' "$R" > "$TMP/sets.txt"
printf 'roll[2] = 3\n' > "$TMP/setb.txt"
for b in interpreted exact; do
    expect_exit 0 "two sets, $b" -- "$FGM" run models/dice.fgm --backend $b --observe "$TMP/sets.txt"
    [ "$(grep -c '^# observation' "$TMP/out")" = 2 ] || fail "two sets, $b: not two observations"
    sed -n '/^# observation 1/,$p' "$TMP/out" | grep -v '^#' > "$TMP/sets1"
    expect_exit 0 "the second set alone, $b" -- "$FGM" run models/dice.fgm --backend $b --observe "$TMP/setb.txt"
    grep -v '^#' "$TMP/out" | cmp -s - "$TMP/sets1" || fail "the second set ran otherwise than alone ($b)"
done
bad_observation setdup "an element twice in a set" "4:11: error: roll\[1\] is already observed on line 3" 'roll[1] = 2\n---\nroll[1] = 2\nroll[1] = 3\n'

# Commas separate values as blanks do.
printf 'roll = %s\n' "$(echo $R | sed 's/ /, /g')" > "$TMP/commas.txt"
expect_exit 0 "rolls with commas" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/commas.txt"
expect_out "^roll\[1\] 0 0 0 0 0 1" "rolls with commas observed"
# An empty value between commas, or after the last, is an error: the
# values after it shifted by one.
bad_observation hole "an empty value" "1:10: error: an empty value before this comma" 'roll = 1,,%s\n' "$(echo ${R#1 } | sed 's/ /,/g')"
bad_observation trail "a trailing comma" "1:47: error: an empty value before this comma" 'roll = %s,\n' "$(echo $R | sed 's/ /,/g')"
# A file of sets may open with a separator.
printf -- '---\nroll[0] = 2\n' > "$TMP/lead.txt"
expect_exit 0 "a leading ---" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/lead.txt"
expect_out "^roll\[0\] 0 1 0 0 0 0" "a leading ---: roll[0] observed"

# A value out of range (1e300: no undefined cast to int on the way).
bad_observation big "roll 1e300" "1:8: error: bad value '1e300' for roll: a value is an integer 1..6, or '.'" 'roll = 1e300%s\n' "${R#1}"

# Decimal only, a roll an integer (strtod read "0x10" as 16 and "2.0" as 2).
bad_observation hexp "a hex pseudo-count" "1:5: error: bad value '0x10' for p: a pseudo-count is a decimal number > 0" 'p = 0x10 1 1 1 1 1\n'
bad_observation realroll "a roll written 2.0" "1:8: error: bad value '2.0' for roll: a value is an integer 1..6, or '.'" 'roll = 2.0%s\n' "${R#1}"

bad_observation word "a word after the name" "1:6: error: expected '=' after roll, not 'x'" 'roll x = %s\n' "$R"

# Too many or too few values: an error, not values dropped.
bad_observation many "22 rolls" "1:48: error: roll wants 20 values, got more" 'roll = %s 5 5\n' "$R"
bad_observation few "3 rolls" "1:6: error: roll wants 20 values, not 3" 'roll = 1 2 3\n'
bad_observation pfew "2 pseudo-counts" "1:3: error: p wants 6 values, not 2" 'p = 2 1\n'

# A variable or prior given values on two lines: an error naming both
# lines (the later line won silently); '.' lets lines share out an array.
printf 'roll = %s\nroll = 2%s\n' "$R" "${R#1}" > "$TMP/twice.txt"
for b in interpreted exact; do
    expect_exit 1 "roll twice, $b" -- "$FGM" run models/dice.fgm --backend $b --observe "$TMP/twice.txt"
    expect_err "twice.txt:2:8: error: roll\[0\] is already observed on line 1" "roll twice, $b"
done
bad_observation ptwice "p twice" "2:5: error: p is already observed on line 1" 'p = 2 1 1 1 1 1\np = 1 1 1 1 1 1\n'
bad_observation phuge "a pseudo-count past the doubles" "1:5: error: bad value '1e400' for p: too large for a double" 'p = 1e400 1 1 1 1 1\n'
# A file holds puzzles or assignment lines, judged by its first line: a
# line of the other kind says so.
printf '1...............\n---\ncell[0][1] = 2\n' > "$TMP/mixed1.txt"
expect_exit 1 "puzzles, then an assignment" -- "$FGM" run models/sudoku.fgm -D B=2 --backend interpreted --observe "$TMP/mixed1.txt"
expect_err "mixed1.txt:3: error: an assignment line \(NAME = values\) among puzzles: a file holds puzzles or assignment lines, not both" "puzzles, then an assignment"
printf 'cell[0][1] = 2\n---\n1...............\n' > "$TMP/mixed2.txt"
expect_exit 1 "assignments, then a puzzle" -- "$FGM" run models/sudoku.fgm -D B=2 --backend interpreted --observe "$TMP/mixed2.txt"
expect_err "mixed2.txt:3:1: error: expected NAME = values \(a file holds assignment lines or puzzles, not both" "assignments, then a puzzle"
# A clue on a cell of the robust Sudoku model is a point mass on the
# cell's prior: pseudo-counts for that prior in the same set contradict
# it, whichever line comes first (the later one won silently), while
# another cell's prior takes them.
for order in clue-first counts-first; do
    if [ $order = clue-first ]; then
        printf 'cell[0] = 1 . . .\np[0][0] = 5 1 1 1\n' > "$TMP/clue_counts.txt"
        want="clue_counts.txt:2:11: error: p\[0\]\[0\] is already observed on line 1, as the point mass of a clue"
    else
        printf 'p[0][0] = 5 1 1 1\ncell[0] = 1 . . .\n' > "$TMP/clue_counts.txt"
        want="clue_counts.txt:2:11: error: the value of cell\[0\]\[0\] is a point mass on p\[0\]\[0\], whose pseudo-counts line 1 gives"
    fi
    expect_exit 1 "clue and its prior's counts, $order" -- "$FGM" run models/sudoku.fgm -D B=2 --backend interpreted --observe "$TMP/clue_counts.txt"
    expect_err "$want" "clue and its prior's counts, $order"
done
printf 'p[0][1] = 5 1 1 1\ncell[0] = 1 . . .\n' > "$TMP/clue_other.txt"
expect_exit 0 "a clue and another cell's counts" -- "$FGM" run models/sudoku.fgm -D B=2 --backend interpreted --observe "$TMP/clue_other.txt" --show 'p[0][1]'
expect_out "^p\[0\]\[1\] alpha 5" "another cell's counts are taken"
printf 'roll = 1%s\nroll = . 6%s\n' "$(printf ' .%.0s' $(seq 19))" "$(printf ' .%.0s' $(seq 18))" > "$TMP/split.txt"
expect_exit 0 "roll shared out over two lines" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/split.txt"
expect_out "^roll\[1\] 0 0 0 0 0 1" "the second line's roll is observed"

# Pseudo-counts: positive and finite, and not so large that the
# projections overflow (5e307 gave uniform marginals, exit 0).
bad_observation pinf "inf pseudo-count" "1:5: error: bad value 'inf' for p" 'p = inf 1 1 1 1 1\n'
bad_observation phuge "huge pseudo-counts" "1:19: error: bad pseudo-counts for p" 'p = 5e307 1 1 1 1 1\n'

# A folder is unreadable, not an empty input (read errors were taken for
# the end of the file).
mkdir -p "$TMP/adir"
expect_exit 1 "a folder" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/adir"
expect_err "adir: error: cannot read: " "a folder cannot be read"
# Variables sharing an observed prior are observed themselves: a point
# mass on the shared prior made every sharer take the last clue's value
# (roll = 1 3 3 read as three 3s).  Exact: z ~ mean of Dir(2, 1, 3).
printf '%s\n' 'model shared' 'observed prior p ~ dirichlet(3)' \
    'observed var roll[3] in 1..3 ~ discrete(p)' 'var z in 1..3 ~ discrete(p)' \
    'infer ep(iterations = 20)' >"$TMP/shared.fgm"
echo 'roll = 1 3 3' >"$TMP/shared.obs"
for b in interpreted compiled exact; do
    expect_exit 0 "shared observed prior, $b" -- "$FGM" run "$TMP/shared.fgm" --backend $b --out-dir "$TMP/gen" --observe "$TMP/shared.obs"
    expect_out "^roll\[0\] 1 0 0$" "roll[0] keeps its own value ($b)"
    expect_out "^z 0\.333333 0\.166667 0\.5$" "z is the posterior predictive ($b)"
done

# Only comments: no observation (it was taken for a puzzle file); stdin is
# "<stdin>" in every message.
printf '# nothing here\n' >"$TMP/comments.txt"
expect_exit 1 "comments only" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/comments.txt"
expect_err "comments.txt:1: error: no observation in the input" "comments only"
expect_exit 1 "stdin, too few values" -- sh -c "echo 'roll = 1 2' | '$FGM' run models/dice.fgm --backend interpreted --observe -"
expect_err "^<stdin>:1:6: error: roll wants 20 values, not 2" "stdin is <stdin>"

# A NUL byte would hide the rest of its line; a comment longer than any
# fixed buffer is still one comment; a whole input past 64 MiB is refused
# rather than read into memory.
bad_observation nul "NUL byte" "1:[0-9]+: error: NUL byte in input" 'roll = 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6 6\0 1 zz\n'
# A byte outside ASCII is named where it stands; in a name or a value it
# was quoted unseen ("unknown array '<BOM>roll'").  In a comment it is
# fine, and a mark before a comment line leaves the file assignments (it
# made a puzzle line of the mark alone).
bad_observation bom "byte-order mark" "1:1: error: UTF-8 byte-order mark \(bytes ef bb bf\): an observation file is plain ASCII" '\357\273\277roll = %s\n' "$R"
bad_observation bomc "byte-order mark, then a comment" "1:1: error: UTF-8 byte-order mark" '\357\273\277# rolls\nroll = %s\n' "$R"
bad_observation utf8 "a UTF-8 letter" "2:16: error: bad byte 0xc3: an observation file is plain ASCII outside comments" '# caf\303\251\nroll = 1 6 6 2 \303\251%s\n' "${R#1 6 6 2 3}"
printf 'roll = %s   # caf\303\251\n' "$R" > "$TMP/utf8c.txt"
expect_exit 0 "a UTF-8 letter in a comment" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/utf8c.txt"
# A form feed or vertical tab separates tokens, as the blanks a line
# starts with (it was quoted unseen: "unknown array 'roll<VT>'").
printf 'roll\v= %s\f\n' "$R" > "$TMP/vtab.txt"
expect_exit 0 "vertical tab and form feed as blanks" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/vtab.txt"
expect_out "^roll\[1\] 0 0 0 0 0 1" "vertical tab and form feed as blanks"
{ printf '#'; head -c 5000 /dev/zero | tr '\0' x; printf '\n'; cat "$TMP/ok.txt"; } > "$TMP/longc.txt"
expect_exit 0 "a 5000-byte comment first" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/longc.txt"
expect_out "^roll\[1\] 0 0 0 0 0 1" "a 5000-byte comment first"
head -c 67108870 /dev/zero > "$TMP/huge.txt"
expect_exit 1 "64 MiB of observations" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/huge.txt"
expect_err "huge.txt: error: larger than 67108864 bytes" "64 MiB of observations"
rm -f "$TMP/huge.txt"
printf 'p = 100 1 1 1 1 1\n' > "$TMP/p100.txt"
expect_exit 1 "pseudo-counts, exact" -- "$FGM" run models/dice.fgm --backend exact --observe "$TMP/p100.txt"
expect_err "pseudo-counts of p need an engine backend" "pseudo-counts, exact"

# Puzzles need a square grid starting at the first variable: the dice
# model has none (a heap overflow before), nor has the chain.
printf '%081d\n' 0 > "$TMP/grid.txt"
expect_exit 1 "puzzle on dice" -- "$FGM" run models/dice.fgm --out-dir "$TMP/nogrid" --observe "$TMP/grid.txt"
expect_err "grid.txt:1: error: a line without '=' is a puzzle, but models/dice.fgm has no square 2-D var array" "puzzle on dice"
[ ! -e "$TMP/nogrid" ] || fail "puzzle on dice: a plugin was built before the refusal"
expect_exit 1 "solve on chain" -- "$FGM" solve --solver dlx --model models/chain.fgm "$TMP/grid.txt"
expect_err "has no square 2-D var array" "solve on chain"

# Exact enumeration stopped by its cap prints a distribution (over what it
# visited, and says so), never raw weight sums.  (Variable elimination,
# the default on these models, has no cap to reach.)
expect_exit 0 "enumeration cap" -- "$FGM" run models/chain.fgm --backend exact --exact-method enumeration --cap 3
expect_out "incomplete: cap or timeout reached" "enumeration cap"
expect_err "^fgm: run: observation 0: exact .*\(incomplete: cap or timeout reached\)$" "enumeration cap, on stderr too"
awk '$1 == "x[0]" { s = $2 + $3 + $4; if (s < 0.999999 || s > 1.000001) bad = 1 }
     END { exit bad }' "$TMP/out" || fail "capped enumeration: x[0] does not sum to 1"

# JSON says it in a field of its own, which a complete one lacks.
expect_exit 0 "enumeration cap, json" -- "$FGM" run models/chain.fgm --backend exact --exact-method enumeration --cap 3 --format json
expect_out '"alpha": \{\}, "incomplete": true\}\]$' "enumeration cap, json"
expect_exit 0 "enumeration, json" -- "$FGM" run models/chain.fgm --backend exact --exact-method enumeration --format json
grep -q incomplete "$TMP/out" && fail "a complete enumeration's JSON said incomplete"

# ... and stops at --timeout-ms (it ran on: 6^20 assignments).
expect_exit 0 "enumeration deadline" -- timeout 30 "$FGM" run models/dice.fgm --backend exact --exact-method enumeration --cap 1000000000000 --timeout-ms 200
expect_out "incomplete: cap or timeout reached" "enumeration deadline"
# A node's propagation polls the clock too: one node of this sum's
# enumeration checks each value of its 1,000 variables against the
# others, and the walk's poll every 4,096 nodes let it run 23 s past a
# 0.5 s limit.  The first assignment lies 1,000 nodes deep, out of reach.
printf 'var x[1000] in 0..1\nsum x[*] == 500\n' > "$TMP/sum1000.fgm"
expect_exit 1 "enumeration deadline, in propagation" -- timeout 10 "$FGM" run "$TMP/sum1000.fgm" --backend exact --timeout-ms 100
expect_err "sum1000.fgm: error: the model: no consistent assignment found before the cap or the deadline" "enumeration deadline, in propagation"

# An engine run stops at --timeout-ms too, and says so (a million sweeps
# of the 9x9 model take 10-40 s).
expect_exit 0 "engine deadline" -- timeout 60 "$FGM" run models/sudoku.fgm --backend interpreted --iters 1000000 --timeout-ms 50
expect_out "^# observation 0: interpreted ep, [0-9]+ sweeps, .*\(incomplete: timeout reached\)$" "engine deadline"
# The clock is read before the first sweep, then before every sweep when
# the first was slow: a deadline already passed stops the run after one
# sweep (it ran four), and a model of few but costly factors (Latin 19,
# native alldiff sum-product: 0.6 s a sweep) stops two sweeps in, not
# four (2.5 s past a 0.1 s limit).
expect_exit 0 "engine deadline, first sweep" -- "$FGM" run models/sudoku.fgm --backend interpreted --timeout-ms 0.000001
expect_out "^# observation 0: interpreted ep, 1 sweep, .*\(incomplete: timeout reached\)$" "engine deadline, first sweep"
printf 'const N = 19\nvar c[N][N] in 1..N\nalldiff c[i][*] for i in 0..N-1\nalldiff c[*][j] for j in 0..N-1\ninfer bp-sum(alldiff = native, iterations = 1000)\n' > "$TMP/lat19.fgm"
expect_exit 0 "engine deadline, slow sweeps" -- "$FGM" run "$TMP/lat19.fgm" --backend interpreted --timeout-ms 100
expect_out "^# observation 0: interpreted bp-sum, [12] sweeps?, .*\(incomplete: timeout reached\)$" "engine deadline, slow sweeps"
expect_exit 0 "engine, no deadline" -- "$FGM" run models/dice.fgm --timeout-ms 60000
if grep -q incomplete "$TMP/out"; then fail "engine run within its deadline said incomplete"; fi
# CSV has no header line for the marker: an incomplete result says so on
# stderr (it passed for a complete one), a complete one says nothing.
expect_exit 0 "engine deadline, csv" -- timeout 60 "$FGM" run models/sudoku.fgm --backend interpreted --iters 1000000 --timeout-ms 50 --format csv
expect_err "^fgm: run: observation 0: interpreted ep, [0-9]+ sweeps, .*\(incomplete: timeout reached\)$" "engine deadline, csv"
expect_exit 0 "exact cap, csv" -- "$FGM" run models/dice.fgm --backend exact --exact-method enumeration --cap 10 --format csv
expect_err "^fgm: run: observation 0: exact .*\(incomplete: cap or timeout reached\)$" "exact cap, csv"
expect_exit 0 "engine, csv, no deadline" -- "$FGM" run models/dice.fgm --backend interpreted --timeout-ms 60000 --format csv
[ ! -s "$TMP/err" ] || fail "a complete csv run said: $(head -c 300 "$TMP/err")"

# ... also when the search prunes every branch and never reaches a
# complete assignment (13 pigeons, 12 holes), and then says it found none.
printf 'var x[13] in 1..12\nx[i] != x[j] for i in 0..11, j in i+1..12\n' > "$TMP/pigeons.fgm"
expect_exit 1 "enumeration deadline, no leaf" -- timeout 30 "$FGM" run "$TMP/pigeons.fgm" --backend exact --timeout-ms 200
expect_err "pigeons.fgm: error: the model: no consistent assignment found before the cap or the deadline" "enumeration deadline, no leaf"

# Puzzle symbols 1..N are the values 1..N: on a grid of 0..2 they would
# have been read as the 1st..3rd values (symbol 1 = label 0), unlike an
# assignment line's labels; refused with the way to say it.
printf '%s\n' 'var g[3][3] in 0..2' 'alldiff g[i][*] for i in 0..2' \
    'alldiff g[*][j] for j in 0..2' >"$TMP/lat0.fgm"
printf '12.......\n' >"$TMP/lat0.txt"
expect_exit 1 "puzzle on a 0-based grid" -- "$FGM" run "$TMP/lat0.fgm" --backend exact --observe "$TMP/lat0.txt"
expect_err "lat0.txt:1: error: a puzzle line gives the symbols 1..3, but g takes the values 0..2" "puzzle on a 0-based grid"
printf 'g = 1 2 . . . . . . .\n' >"$TMP/lat0.obs"
expect_exit 0 "assignment on a 0-based grid" -- "$FGM" run "$TMP/lat0.fgm" --backend exact --observe "$TMP/lat0.obs"
expect_out '^g\[0\]\[0\] 0 1 0$' "labels on an assignment line"


# Assignment lines: the first line decides the kind even when indented; a
# later line without '=' is an error placed at its first word (past any
# indent), and nothing is printed.
printf '  \t roll = %s\n' "$R" > "$TMP/indent.txt"
expect_exit 0 "an indented assignment line" -- "$FGM" run models/dice.fgm --backend interpreted --observe "$TMP/indent.txt"
expect_out "^roll\[1\] 0 0 0 0 0 1" "an indented assignment line"
bad_observation noeq "a line without '='" "2:1: error: expected NAME = values" 'roll = %s\nroll 1 2\n' "$R"
[ ! -s "$TMP/out" ] || fail "a line without '=': printed $(head -c 200 "$TMP/out")"
bad_observation noeq2 "an indented line without '='" "2:4: error: expected NAME = values" 'roll = %s\n \t junk\n' "$R"

# Puzzle lines with an engine backend: each puzzle is observed afresh (the
# first puzzle's clue is gone in the second); a bad puzzle later in the
# file stops the run with exit 1 after the ones before it; a grid past
# 25x25 is refused before anything runs.
printf '1...............\n....2...........\n' > "$TMP/four.txt"
expect_exit 0 "puzzles, interpreted" -- "$FGM" run models/sudoku.fgm -D B=2 --backend interpreted --observe "$TMP/four.txt"
[ "$(grep -c '^# observation' "$TMP/out")" = 2 ] || fail "puzzles, interpreted: not two observations"
awk '$1 == "cell[0][0]" { n++; if (n == 2 && $2 > 0.5) bad = 1 }
     $1 == "cell[1][0]" { m++; if (m == 2 && $3 < 0.99) bad = 1 }
     END { exit bad }' "$TMP/out" || fail "puzzles, interpreted: the second puzzle kept the first one's clue"
printf '1...............\n12..............1\n' > "$TMP/four_bad.txt"
for b in interpreted exact; do
    expect_exit 1 "a bad second puzzle, $b" -- "$FGM" run models/sudoku.fgm -D B=2 --backend $b --observe "$TMP/four_bad.txt"
    expect_err "four_bad.txt:2: error: line has 17 symbols; expected 16" "a bad second puzzle, $b"
    # The whole input is read before any set runs: nothing printed.
    [ ! -s "$TMP/out" ] || fail "a bad second puzzle, $b: the first was run"
done
printf '%036d\n' 0 > "$TMP/p36.txt"
expect_exit 1 "run, 36x36 puzzles" -- "$FGM" run models/sudoku.fgm -D B=6 --backend interpreted --observe "$TMP/p36.txt"
expect_err "p36.txt: error: puzzles of side 36 are not supported; the largest is 25x25" "run, 36x36 puzzles"

# A puzzle line with a comment holding '=' is still a puzzle (it was
# sniffed as an assignment: "expected NAME = values" at 1:1).
printf '1............... # x=1\n' >"$TMP/eqcomment.txt"
expect_exit 0 "puzzle, '=' in its comment" -- "$FGM" run sudoku:2 --backend exact --observe "$TMP/eqcomment.txt"
expect_out "^# observation 0: exact \(dancing links\), solutions=72, log Z=4\.276666119$" "puzzle, '=' in its comment"

# -o and --emit-c name their files: --out-dir beside them (ignored
# before) is a usage error, and nothing is written.
expect_exit 2 "compile -o --out-dir" -- "$FGM" compile models/dice.fgm -o "$TMP/od.so" --out-dir "$TMP/od"
expect_err "give one or the other" "-o with --out-dir"
expect_exit 2 "compile --emit-c --out-dir" -- "$FGM" compile models/dice.fgm --emit-c "$TMP/od.c" --out-dir "$TMP/od"
[ -e "$TMP/od.so" ] || [ -e "$TMP/od.c" ] || [ -e "$TMP/od" ] && fail "a refused compile wrote something"

# Outputs that are not regular files are written through (or refused for
# a plugin), never renamed over: as root, -o /dev/null replaced the node.
mkfifo "$TMP/fifo"
expect_exit 1 "plugin to a FIFO" -- "$FGM" compile models/dice.fgm -o "$TMP/fifo"
expect_err "^$TMP/fifo: error: cannot write: not a regular file$" "plugin to a FIFO"
[ -p "$TMP/fifo" ] || fail "the FIFO was replaced"
# Every write error of compile is "PATH: error: cannot write: REASON",
# naming the path given, -o as --emit-c: -o said "fgm: PATH: cannot write:
# not a regular file" of a folder (--emit-c "Is a directory"), and a
# missing folder was "cannot create PATH.tmp.XXXXXX" (--emit-c: the
# temporary name mkstemp made).
mkdir "$TMP/outdir"
for o in -o --emit-c; do
    expect_exit 1 "compile $o a folder" -- "$FGM" compile models/dice.fgm $o "$TMP/outdir"
    expect_err "^$TMP/outdir: error: cannot write: Is a directory$" "compile $o a folder"
    expect_exit 1 "compile $o into no folder" -- "$FGM" compile models/dice.fgm $o "$TMP/nofolder/x"
    expect_err "^$TMP/nofolder/x: error: cannot write: No such file or directory$" "compile $o into no folder"
done
[ "$(find "$TMP" -maxdepth 1 -name 'outdir.tmp.*' | wc -l)" = 0 ] || fail "compile -o a folder left a build folder"
# A usage error in the model's spec still comes first, exit 2 (the
# --emit-c check, made before the model was opened, hid it: exit 1).
expect_exit 2 "compile sudoku:9 --emit-c a folder" -- "$FGM" compile sudoku:9 --emit-c "$TMP/outdir"
expect_err "^fgm: compile: sudoku:B wants an integer in 2\.\.5, not '9'$" "compile sudoku:9 --emit-c a folder"
# A symbolic link is written through, not replaced: to a file elsewhere,
# and to this process's stdout, whose `>>` log is appended to, not cut.
: > "$TMP/real.c"
ln -s "$TMP/real.c" "$TMP/link.c"
expect_exit 0 "C through a link" -- "$FGM" compile models/dice.fgm --emit-c "$TMP/link.c"
[ -L "$TMP/link.c" ] || fail "the link was replaced"
grep -q "Generated by fgm" "$TMP/real.c" || fail "the C did not reach the link's target"
ln -s /proc/self/fd/1 "$TMP/stdout"
echo first > "$TMP/log"
"$FGM" compile models/dice.fgm --emit-c "$TMP/stdout" >> "$TMP/log" 2>/dev/null \
    || fail "C to a link to stdout"
[ "$(head -n 1 "$TMP/log")" = first ] || fail "the >> log was truncated"
grep -q "Generated by fgm" "$TMP/log" || fail "the C did not reach stdout"
# --emit-c - is standard output, not a file named '-'; with -o the plugin
# is built from the same C, generated again from the IR.
(F=$(realpath "$FGM"); M=$(realpath models/dice.fgm); cd "$TMP" && "$F" compile "$M" --emit-c - -o d2.so > dash.c 2>/dev/null) \
    || fail "C to -"
grep -q "Generated by fgm" "$TMP/dash.c" || fail "--emit-c - wrote no C to stdout"
[ ! -e "$TMP/-" ] || fail "--emit-c - made a file named '-'"
nm -D "$TMP/d2.so" | grep -q fgm_plugin_entry || fail "--emit-c - -o: the plugin has no entry"
# Standard output appended to a log: the plugin is built from the IR, not
# from a copy of the log (its earlier lines went to the C compiler).
echo first > "$TMP/dash.log"
"$FGM" compile models/dice.fgm --emit-c - -o "$TMP/d3.so" >> "$TMP/dash.log" 2>"$TMP/err" \
    || fail "--emit-c - -o >> log: $(head -c 300 "$TMP/err")"
[ "$(head -n 1 "$TMP/dash.log")" = first ] || fail "--emit-c - truncated the >> log"
nm -D "$TMP/d3.so" | grep -q fgm_plugin_entry || fail "--emit-c - -o >> log: the plugin has no entry"
ln -s "$TMP/x.so" "$TMP/link.so"
expect_exit 1 "plugin to a link" -- "$FGM" compile models/dice.fgm -o "$TMP/link.so"
expect_err "^$TMP/link.so: error: cannot write: not a regular file$" "plugin to a link"
# C emitted through a device, plugin built anyway: from a temporary copy
# (it compiled /dev/null into a plugin without an entry, exit 0).
expect_exit 0 "C to /dev/null and a plugin" -- "$FGM" compile models/dice.fgm --emit-c /dev/null -o "$TMP/d.so"
nm -D "$TMP/d.so" | grep -q fgm_plugin_entry || fail "the plugin has no entry"
# -o and --emit-c naming one file: refused before anything is written (the
# plugin was renamed over the C, exit 0), by name or through another path.
echo keep > "$TMP/same.c"
expect_exit 2 "-o and --emit-c one file" -- "$FGM" compile models/dice.fgm -o "$TMP/same.c" --emit-c "$TMP/same.c"
expect_err "compile: -o and --emit-c name the same file" "-o and --emit-c one file"
expect_exit 2 "-o and --emit-c one file, two paths" -- "$FGM" compile models/dice.fgm -o "$TMP/same.c" --emit-c "$TMP/../$(basename "$TMP")/same.c"
[ "$(cat "$TMP/same.c")" = keep ] || fail "-o and --emit-c one file: the file was written"
# Two new files reached two ways (./x and x): refused too.
expect_exit 2 "-o and --emit-c one new file, two paths" -- "$FGM" compile models/dice.fgm -o "$TMP/new.c" --emit-c "$TMP/./new.c"
[ ! -e "$TMP/new.c" ] || fail "-o and --emit-c one new file: the file was written"
# An output naming the model itself: refused, the model kept (it was
# replaced by the C or the plugin, exit 0).
cp models/dice.fgm "$TMP/self.fgm"
for opt in -o --emit-c; do
    expect_exit 2 "compile $opt the model" -- "$FGM" compile "$TMP/self.fgm" $opt "$TMP/./self.fgm"
    expect_err "compile: $opt '$TMP/./self.fgm' names the model file" "compile $opt the model"
    cmp -s models/dice.fgm "$TMP/self.fgm" || fail "compile $opt the model: the model was written"
done

# A device node of our own (root only, on a file system that allows
# devices), so that a regression replaces it and not the machine's
# /dev/full.
if mknod "$TMP/full" c 1 7 2>/dev/null \
   && { printf x > "$TMP/full"; } 2>&1 | grep -q "No space left"; then
    expect_exit 1 "C to a full device" -- "$FGM" compile models/dice.fgm --emit-c "$TMP/full"
    expect_err "full: error: cannot write: No space left on device" "C to a full device"
    [ -c "$TMP/full" ] || fail "the device node was replaced"
fi
# A second --observe is refused: the first file was dropped unread.
printf 'x[0] = 1\n' > "$TMP/obs1.txt"
expect_exit 2 "run: --observe twice" -- "$FGM" run models/chain.fgm --observe /nonexistent --observe "$TMP/obs1.txt"
expect_err "run: --observe given twice \('/nonexistent', '$TMP/obs1.txt'\)" "run: --observe twice: says so"

# A write error on stdout ends the run there (it ran every set, 4 s on
# 2,000 casino sets, and said "Success" as the error where the failed
# write's errno was gone): the last set, which has no solution, is not
# reached, with one worker or three.
"$FGM" generate --box 2 --count 60 --seed 3 > "$TMP/g60.txt" 2>/dev/null
echo '..12....3...4...' >> "$TMP/g60.txt"
for j in 1 3; do
    "$FGM" run sudoku:2 --backend exact -j $j --observe "$TMP/g60.txt" >/dev/full 2>"$TMP/err"
    [ $? = 1 ] || fail "run -j $j to a full disk: exit status"
    [ "$(cat "$TMP/err")" = "fgm: run: write error on standard output: No space left on device" ] \
        || fail "run -j $j to a full disk: $(cat "$TMP/err")"
done
# -j is a bound: where no more threads can start (stacks of 100 MB in
# 500 MB of address space), the workers started run every set, as
# fgm solve's do (it failed, "cannot start a thread", exit 3).  Not
# where fgm cannot run under the limit at all (a sanitized build: see
# batch.sh).
head -60 "$TMP/g60.txt" > "$TMP/g59.txt"
"$FGM" run sudoku:2 --backend exact --observe "$TMP/g59.txt" > "$TMP/j1.out"
if (ulimit -s 100000 && ulimit -v 500000 &&
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=stderr" \
        "$FGM" list >/dev/null 2>&1); then
    (ulimit -s 100000 && ulimit -v 500000 && exec "$FGM" run sudoku:2 --backend exact -j 12 --observe "$TMP/g59.txt") >"$TMP/j12.out" 2>"$TMP/err"
    [ $? = 0 ] || fail "run -j 12 short of threads: exit status ($(cat "$TMP/err"))"
    cmp -s "$TMP/j1.out" "$TMP/j12.out" || fail "run -j 12 short of threads: not every set's output"
    grep -Eq -- "^fgm: run: -j 12: [0-9]+ workers?, no room for more" "$TMP/err" \
        || fail "run -j 12 short of threads: no word of the workers it could not start: $(cat "$TMP/err")"
fi
# The contradiction a run reports names the first variable left no
# value, in declaration order: a, not b (the table allows only a = 1,
# b = 1, and the set observes a = 1, b = 2).
printf 'model clash\nvar a in 1..2\nvar b in 1..2\ntable (a, b) = [[1, 0],\n                [0, 0]]\ninfer bp-sum(iterations = 10)\n' > "$TMP/clash.fgm"
printf 'a = 1\nb = 2\n' > "$TMP/clash.obs"
expect_exit 0 "contradiction, json" -- "$FGM" run "$TMP/clash.fgm" --out-dir "$TMP/gen" --observe "$TMP/clash.obs" --format json
expect_out '"contradiction": "a"' "contradiction names a"
expect_err "the run left a no value" "contradiction names a: warning"
# A weight is a decimal number, 0x10 is not.  1e-400 is refused, as the
# model language refuses it: read as 0 it ruled its value out; 1e-320, a
# subnormal, is a weight, and 0 rules the value out as written.
printf 'x[1] = [1, 1e-400, 1]\n' > "$TMP/under.obs"
expect_exit 1 "weight 1e-400" -- "$FGM" run models/chain.fgm --out-dir "$TMP/gen" --observe "$TMP/under.obs"
expect_err "under.obs:1:12: error: weight for x\[1\] too small for a double: it would be read as 0" "weight 1e-400 refused"
printf 'x[1] = [1, 0, 1]\n' > "$TMP/zero.obs"
expect_exit 0 "weight 0" -- "$FGM" run models/chain.fgm --out-dir "$TMP/gen" --observe "$TMP/zero.obs"
expect_out "^x\[1\] 0\.704545 0 0\.295455$" "weight 0 rules the value out"
printf 'x[1] = [1, 1e-320, 1]\n' > "$TMP/sub.obs"
expect_exit 0 "weight 1e-320" -- "$FGM" run models/chain.fgm --out-dir "$TMP/gen" --observe "$TMP/sub.obs"
printf 'x[1] = [0x10, 1, 1]\n' > "$TMP/hex.obs"
expect_exit 1 "weight 0x10" -- "$FGM" run models/chain.fgm --out-dir "$TMP/gen" --observe "$TMP/hex.obs"
expect_err "hex.obs:1:9: error: bad weight for x\[1\]: a weight is a decimal number >= 0" "weight 0x10 refused"
finish
