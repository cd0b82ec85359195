# tests/cli/exact_paths.sh: answers that only an unusual path gives, each
# pinned where a mistake there still answers (the third mutation audit):
# the exact backend's weights past the doubles' range, huge pseudo-counts,
# soft evidence and max-marginals around Dancing Links, MAP ties, the
# elimination order's width; EP's log Z over many observed draws, a
# native alldiff's best assignment, the gated mean-square projection.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

model() { printf '%s\n' "$@" >"$TMP/m.fgm"; }
run() { expect_exit 0 "$1" -- "$FGM" run "$TMP/m.fgm" "${@:2}"; }

# Pseudo-counts 1e-200 and 1e-122: weights under the doubles' range, which
# elimination cannot hold to the digit; it hands the model to enumeration
# (it answered -742.1576895 and 0.285714 itself).
model 'model lost' 'prior p ~ dirichlet([1e-200, 1e-122, 1])' \
    'var r[2] in 0..2 ~ discrete(p)' 'evidence r[0] = [0.3, 0.7, 0]' \
    'evidence r[1] = [1, 1, 0]' 'r[0] != r[1]' 'infer bp-sum'
run "tiny pseudo-counts" --backend exact
expect_out "exact \(enumeration\), assignments=2, log Z=-742.1255471$" "tiny pseudo-counts: enumeration's log Z"
expect_out "^r\[0\] 0.3 0.7 0$" "tiny pseudo-counts: r[0]"

# A pseudo-count of 1e18: the Dirichlet's ratio of gamma functions past
# lgamma's digits (a log Z of 2.3979 and x[0] 0.18 0.82 otherwise).
model 'model big' 'prior p ~ dirichlet([1e18, 1])' \
    'var x[3] in 0..1 ~ discrete(p)' 'evidence x[0] = [1, 3]' 'infer ep'
run "huge pseudo-count" --backend exact
expect_out "width=2, log Z=0$" "huge pseudo-count: log Z"
expect_out "^x\[0\] 1 3e-18$" "huge pseudo-count: x[0]"

# A 3x3 Latin square: soft evidence is not an exact cover's, so Dancing
# Links gives way to elimination; under bp-max Dancing Links' max-marginals
# are normalized.
latin='model lat|const N = 3|var cell[N][N] in 1..N|alldiff cell[i][*] for i in 0..N-1|alldiff cell[*][j] for j in 0..N-1'
IFS='|' read -r -a lines <<<"$latin"
model "${lines[@]}" 'infer bp-sum'
printf 'cell[0][0] = 1\ncell[0][1] = [1, 9, 1]\n' >"$TMP/soft.txt"
run "soft evidence" --backend exact --observe "$TMP/soft.txt"
expect_out "exact \(variable elimination\), width=5, log Z=2.995732274$" "soft evidence: elimination"
expect_out "^cell\[0\]\[1\] 0 0.9 0.1$" "soft evidence: its weights"
model "${lines[@]}" 'infer bp-max'
echo 'cell[0][0] = 1' >"$TMP/one.txt"
run "dlx max-marginals" --backend exact --observe "$TMP/one.txt"
expect_out "max-marginals \(dancing links\), solutions=4" "dlx max-marginals"
expect_out "^cell\[0\]\[1\] 0 0.5 0.5$" "dlx max-marginals: normalized"

# MAP ties go to the lowest value, as enumeration's.
model 'model coin' 'var x in 0..1' 'infer bp-max'
run "MAP tie" --backend exact --map
expect_out "^x = 0$" "MAP tie: the lowest value"

# The elimination order rescores the neighbours of a fill edge's ends
# too: width 4 here (5 when it did not).
model 'model order' 'var x[7] in 0..1'
for e in 0,1 0,4 0,6 1,3 1,5 2,3 2,4 2,5 3,4 3,6 5,6; do
    echo "table (x[${e%,*}], x[${e#*,}]) = [[2, 1], [1, 2]]" >>"$TMP/m.fgm"
done
echo 'infer bp-sum' >>"$TMP/m.fgm"
run "elimination order" --backend exact
expect_out "width=4, log Z=9.46125472$" "elimination order: width"

# EP's log Z of 1200 observed draws under pseudo-counts 0.1 (the
# Dirichlet's gamma ratios: the small count below Stirling's range), as
# the exact backend's.
model 'model coins' 'prior p ~ dirichlet([0.1, 0.1])' \
    'observed var r[1200] in 0..1 ~ discrete(p)' 'infer ep'
{ printf 'r ='; for ((i = 0; i < 1200; i++)); do printf ' %d' $((i < 360)); done; echo; } >"$TMP/coins.txt"
run "coins, ep" --backend interpreted --observe "$TMP/coins.txt"
expect_out "log Z ~ -738.0202154$" "coins: EP's log Z"
run "coins, exact" --backend exact --observe "$TMP/coins.txt"
expect_out "log Z=-738.0202154$" "coins: the exact log Z"

# A native alldiff under bp-max: the log of the best assignment's weight
# (x = 1 0: 2 x 1), as the exact MAP's.
model 'model ad' 'var x[2] in 0..1' 'alldiff x' 'evidence x[0] = [1, 2]' \
    'evidence x[1] = [1, 3]' 'infer bp-max(alldiff = native, iterations = 3)'
run "native alldiff, bp-max" --backend interpreted
expect_out "log max weight ~ 1.098612289$" "native alldiff: log max weight"
run "native alldiff, MAP" --backend exact --map
expect_out "log weight=1.098612289$" "native alldiff: the exact MAP"

# A gated Dirichlet projected by mean and mean square: x = 0 drawn from
# t[g], g uniform.  The tilted mixture 1/2 Dir(2, 1) + 1/2 Dir(1, 1) has
# mean (7/12, 5/12) and E[p0^2] = 1/2 (1/2) + 1/2 (1/3) = 5/12; matching
# both gives alpha0 + alpha1 = (m - s)/(s - m^2) = 24/11: alpha =
# (14/11, 10/11) = 1.27273 0.909091.
model 'model g' 'prior t[2] ~ dirichlet([1, 1])' 'var g in 0..1' \
    'observed var x in 0..1' 'x ~ discrete(t[g])' \
    'infer ep(projection = mean-square)'
echo 'x = 0' >"$TMP/x0.txt"
run "gated, mean-square" --backend interpreted --observe "$TMP/x0.txt"
expect_out "^t\[0\] alpha 1.27273 0.909091$" "gated mean-square: t[0]"
finish
