# tests/cli/compiler.sh: the model compiler through `fgm dump`: golden
# diagnostics and dumps, -D, exit codes, hostile input.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run from the repository root: the .err files hold the paths as given
# here (tests/golden/diag/NAME.fgm).
. "$(dirname "$0")/common.bash"
G=tests/golden

# Every diagnostic golden: exit 1, nothing on stdout, stderr exactly the
# .err file (message, source line, caret).
n=0
for f in "$G"/diag/*.fgm; do
    n=$((n + 1))
    "$FGM" dump "$f" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    [ "$rc" = 1 ] || fail "$f: exit $rc, want 1"
    [ -s "$TMP/out" ] && fail "$f: printed a dump"
    diff -u "${f%.fgm}.err" "$TMP/err" >"$TMP/diff" ||
        fail "$f: stderr differs from ${f%.fgm}.err:
$(head -c 3000 "$TMP/diff")"
done
[ "$n" -ge 12 ] || fail "only $n diagnostic goldens"

# Every dump golden NAME.ir: from NAME.args (dump's arguments), else
# NAME.fgm beside it, else models/NAME.fgm.
for ir in "$G"/dump/*.ir; do
    name=${ir%.ir}
    if [ -f "$name.args" ]; then
        args=$(cat "$name.args")
    elif [ -f "$name.fgm" ]; then
        args=$name.fgm
    else
        args=models/$(basename "$name").fgm
    fi
    # shellcheck disable=SC2086  # args is a word list on purpose
    "$FGM" dump $args >"$TMP/ir" 2>"$TMP/err" ||
        fail "dump $args: exit $?: $(head -c 300 "$TMP/err")"
    diff -u "$ir" "$TMP/ir" >"$TMP/diff" ||
        fail "dump $args differs from $ir:
$(head -c 3000 "$TMP/diff")"
done

# -D sets a const; unknown names and built-in models are refused.
expect_exit 0 "-D B=2" -- "$FGM" dump -D B=2 models/sudoku.fgm
expect_out "^array cell\[4\]\[4\] in 1\.\.4 first 0$" "-D B=2 gives 4x4"
expect_exit 0 "-DB=4 glued" -- "$FGM" dump -DB=4 models/sudoku.fgm
expect_out "^vars 256 factors 304$" "-DB=4 gives 16x16"
expect_exit 0 "graph with -D" -- "$FGM" graph -D B=2 models/sudoku.fgm
expect_out "^graph \"sudoku_B2\" \\{" "graph of the 4x4 model (named after its -D)"
# The later of two -D of one name wins (as with cc), and only it names
# the model: -D B=2 -D B=3 is the 9x9 model and its plugin sudoku_B3.
expect_exit 0 "graph -D B=2 -D B=3" -- "$FGM" graph -D B=2 -D B=3 models/sudoku.fgm
expect_out "^graph \"sudoku_B3\" \\{" "an overridden -D does not name the model"
# The name (and the IR hash) say what the -D set, not how they were
# written: their order and a value's spelling gave other names, hashes
# and plugins.
printf 'model two\nconst A = 2\nconst C = 3\nvar x[A] in 1..C\nx[0] != x[1]\n' > "$TMP/two.fgm"
"$FGM" dump -D A=2 -D C=3 "$TMP/two.fgm" > "$TMP/two1" 2>/dev/null || fail "dump -D A=2 -D C=3"
for d in "-D C=3 -D A=2" "-D C=03 -D A=+2"; do
    "$FGM" dump $d "$TMP/two.fgm" > "$TMP/two2" 2>/dev/null || fail "dump $d"
    cmp -s "$TMP/two1" "$TMP/two2" || fail "dump $d differs from -D A=2 -D C=3: $(head -2 "$TMP/two2")"
done
grep -q '^model two_A2_C3$' "$TMP/two1" || fail "-D A=2 -D C=3: name $(grep '^model' "$TMP/two1")"
expect_exit 1 "-D unknown const" -- "$FGM" dump -D C=2 models/sudoku.fgm
expect_err "^models/sudoku.fgm: error: -D C=2: the model has no const 'C'$" "-D unknown const"
# -D O=-1 and -D O=1 name different plugins: the sign was dropped, so
# both were off_O1 and each run rebuilt the other's plugin as stale.
printf 'model off\nconst O = 0\nvar x[2] in O..O+2\nx[0] != x[1]\n' > "$TMP/off.fgm"
expect_exit 0 "graph -D O=-1" -- "$FGM" graph -D O=-1 "$TMP/off.fgm"
expect_out "^graph \"off_O_n1\" \\{" "-D O=-1 names the model off_O_n1"
for v in -1 1 -1; do
    expect_exit 0 "run -D O=$v" -- "$FGM" run -D O=$v "$TMP/off.fgm" --out-dir "$TMP/offgen"
done
grep -q "stale" "$TMP/err" && fail "-D O=-1 after -D O=1 rebuilt a stale plugin: $(head -c 300 "$TMP/err")"
# A real -D sets a real const (a coupling swept from the command line),
# the model named after it with '.' as 'p' and the shortest text that
# reads back as it (1.50 and 1.5 are one plugin).
printf 'const J = 0.5\nvar s[2] in 0..1\ntable (s[0], s[1]) = [[exp(J), 1], [1, exp(J)]]\nevidence s[0] = [0.2, 0.8]\n' > "$TMP/coup.fgm"
expect_exit 0 "-D J=1.50" -- "$FGM" dump -D J=1.50 "$TMP/coup.fgm"
expect_out "^model coup_J1p5$" "-D J=1.50 names the model coup_J1p5"
expect_out "^f0 table s\[0\] s\[1\] params 4.4816890703380645 1 1 4.4816890703380645$" "-D J=1.50 sets the weights to exp(1.5)"
expect_exit 0 "-D J=-0.25" -- "$FGM" dump -D J=-0.25 "$TMP/coup.fgm"
expect_out "^model coup_J_n0p25$" "-D J=-0.25 names the model coup_J_n0p25"
# A whole real keeps its point (an integer const divides otherwise, and
# J=2 and J=2.0 were one plugin name for two models); an exponent is
# written short.
for dv in "2 J2" "2.0 J2p0" "1e2 J1e2" "1e-7 J1en7" "2.5e-300 J2p5en300"; do
    set -- $dv
    expect_exit 0 "-D J=$1" -- "$FGM" dump -D J=$1 "$TMP/coup.fgm"
    expect_out "^model coup_$2\$" "-D J=$1 names the model coup_$2"
done
# One name one variant: -D A1=1 and -D A=11 were both A11, -D An=1 and
# -D A=-1 both An1, and names with underscores met others' separators.
printf 'model cl\nconst A = 1\nconst A1 = 1\nconst An = 1\nconst A1_1_B = 1\nconst B = 1\nvar x in 0..1\n' > "$TMP/cl.fgm"
for d in "A=11:cl_A11" "A1=1:cl_A1_1" "A=-1:cl_A_n1" "An=1:cl_An1" "A1_1_B=2:cl_A1__1__B2"; do
    expect_exit 0 "dump -D ${d%%:*}" -- "$FGM" dump -D "${d%%:*}" "$TMP/cl.fgm"
    expect_out "^model ${d#*:}\$" "-D ${d%%:*} names the model ${d#*:}"
done
expect_exit 0 "dump -D A1=1 -D B=2" -- "$FGM" dump -D A1=1 -D B=2 "$TMP/cl.fgm"
expect_out "^model cl_A1_1_B2$" "-D A1=1 -D B=2 names the model cl_A1_1_B2"
# A name past a model's 63 bytes is cut and ends in a hash of the whole:
# each variant its own (they shared the name cut short, so one plugin).
L=$(printf 'L%.0s' $(seq 60))
printf 'model cl\nconst %s = 1\nvar x in 0..1\n' "$L" > "$TMP/long.fgm"
for v in 1 2; do
    expect_exit 0 "dump, long -D $v" -- "$FGM" dump -D "$L=$v" "$TMP/long.fgm"
    grep '^model ' "$TMP/out" > "$TMP/long$v"
done
grep -Eq '^model cl_L{37}_h[0-9a-f]{16}$' "$TMP/long1" || fail "long -D: name $(cat "$TMP/long1")"
cmp -s "$TMP/long1" "$TMP/long2" && fail "long -D: two variants, one name: $(cat "$TMP/long1")"
# A malformed -D is a usage error of the command, told before the model
# is read: it was the model file's error ("models/sudoku.fgm: error: -D
# B: expected NAME=VALUE", exit 1), though the option alone is at fault.
expect_exit 2 "-D not an integer" -- "$FGM" dump -D B=two models/sudoku.fgm
expect_err "^fgm: dump: -D B=two: the value must be a number \(an integer or a decimal real\)$" "-D not an integer"
expect_exit 2 "-D without a value" -- "$FGM" dump -D B models/sudoku.fgm
expect_err "^fgm: dump: -D B: expected NAME=VALUE$" "-D without a value"
expect_exit 2 "-D out of range" -- "$FGM" graph -D B=99999999999999999999 models/sudoku.fgm
expect_err "^fgm: graph: -D B=99999999999999999999: the value is out of range$" "-D out of range"
expect_exit 2 "-D before a missing model" -- "$FGM" dump -D B tests/golden/nonexistent.fgm
expect_err "^fgm: dump: -D B: expected NAME=VALUE$" "-D before a missing model"
expect_exit 2 "-D with a newline" -- "$FGM" dump -D "$(printf 'B=3\n4')" models/sudoku.fgm
expect_err '^fgm: dump: -D B=3\\n4: the value must be a number \(an integer or a decimal real\)$' "-D with a newline"
# A real from -D where an integer is needed names the -D, not only the
# model line where the const is used.
expect_exit 1 "-D real as a size" -- "$FGM" dump -D N=3.0 models/latin.fgm
expect_err "^models/latin.fgm:6:18: error: an array size must be an integer, not 3.0 \(it reads a real set by -D N=3.0\)$" "-D real as a size"
# ... through another const's value too.
printf 'const N = 2\nconst M = N * 2\nvar x[M] in 0..1\n' >"$TMP/dm.fgm"
expect_exit 1 "-D real through a const" -- "$FGM" dump -D N=3.0 "$TMP/dm.fgm"
expect_err "dm.fgm:3:7: error: an array size must be an integer, not 6.0 \(it reads a real set by -D N=3.0\)$" "-D real through a const"
# A name given twice: the later wins (as with cc), and says so.
printf 'const B = 3\nconst BB = 2\nvar x[B] in 0..BB\n' >"$TMP/bb.fgm"
expect_exit 0 "-D twice" -- "$FGM" dump models/sudoku.fgm -D B=3 -D B=2
expect_out "^vars 16 " "-D twice: the later wins"
expect_err "^fgm: dump: warning: -D B=2 overrides -D B=3$" "-D twice: said"
expect_exit 0 "-D three times" -- "$FGM" dump models/sudoku.fgm -D B=3 -D B=2 -D B=4 -D B=4
[ "$(grep -c warning "$TMP/err")" = 2 ] || fail "-D three times: one warning per change of the value in force: $(cat "$TMP/err")"
expect_err "^fgm: dump: warning: -D B=4 overrides -D B=2$" "-D three times: against the value in force"
expect_exit 0 "-D of two names that share a prefix" -- "$FGM" dump -D B=2 -D BB=3 "$TMP/bb.fgm"
[ ! -s "$TMP/err" ] || fail "-D B and -D BB: $(cat "$TMP/err")"
for c in "run models/dice.fgm --out-dir $TMP/dgen" \
         "compile models/dice.fgm --emit-c $TMP/d.c" \
         "solve --model models/sudoku.fgm --out-dir $TMP/dgen puzzles/seed003.txt" \
         "bench --model models/sudoku.fgm puzzles/seed003.txt"; do
    # shellcheck disable=SC2086  # c is a word list on purpose
    expect_exit 2 "${c%% *} -D 1B=2" -- "$FGM" $c -D 1B=2
    expect_err "^fgm: ${c%% *}: -D 1B=2: expected NAME=VALUE$" "${c%% *} -D 1B=2"
done
[ ! -e "$TMP/dgen" ] && [ ! -e "$TMP/d.c" ] || fail "a malformed -D still wrote something"
# The model's usage errors carry the command's name, as its own do (they
# said "fgm: -D B=2: ...", "fgm: model: sudoku:B ...", "fgm: unknown
# model ...").
expect_exit 2 "-D on a built-in model" -- "$FGM" dump -D B=2 sudoku:3
expect_err "^fgm: dump: -D B=2: only \.fgm models have consts to set$" "-D on a built-in model"
expect_exit 2 "sudoku:9" -- "$FGM" graph sudoku:9
expect_err "^fgm: graph: sudoku:B wants an integer in 2\.\.5, not '9'$" "sudoku:9"
expect_exit 2 "an unknown model" -- "$FGM" solve --model nosuch puzzles/seed003.txt
expect_err "^fgm: solve: unknown model 'nosuch' \(want MODEL\.fgm, sudoku:B or latin:N\)$" "an unknown model"
# A model file of another name is read as one (it was an unknown model).
cp models/chain.fgm "$TMP/chain.model"
expect_exit 0 "a model file not named .fgm" -- "$FGM" run "$TMP/chain.model" --backend interpreted --show 'x[0]'
expect_out "^x\[0\] 0.7 0.2 0.1$" "a model file not named .fgm: its marginals"
expect_exit 2 "dump without a model" -- "$FGM" dump -D B=2
expect_exit 1 "missing model file" -- "$FGM" dump tests/golden/nonexistent.fgm
expect_err "^tests/golden/nonexistent.fgm: error: cannot open: " "missing model file"

# .fgm models drive the solvers: the compiled Sudoku model gives the
# built-in model's answers, for 9x9 and (with -D) 4x4.
"$FGM" solve puzzles/seed003.txt >"$TMP/ref" 2>/dev/null
expect_exit 0 "solve --model sudoku.fgm" -- "$FGM" solve --model models/sudoku.fgm puzzles/seed003.txt
cmp -s "$TMP/out" "$TMP/ref" || fail "models/sudoku.fgm answers differ from sudoku:3"
echo "1...............
....2..........." >"$TMP/four.txt"
"$FGM" solve --model sudoku:2 "$TMP/four.txt" >"$TMP/ref" 2>/dev/null
expect_exit 0 "solve 4x4 with -D" -- "$FGM" solve --model models/sudoku.fgm -D B=2 "$TMP/four.txt"
cmp -s "$TMP/out" "$TMP/ref" || fail "-D B=2 answers differ from sudoku:2"
expect_exit 1 "9x9 puzzle, 4x4 model" -- "$FGM" solve --model models/sudoku.fgm -D B=2 puzzles/seed003.txt
expect_exit 0 "run the chain exactly" -- "$FGM" run models/chain.fgm --backend exact
expect_out "^x\[0\] 0\.7 0\.2 0\.1$" "chain marginals"
# Exact marginals of an exact-cover model with weights come from
# enumeration: Dancing Links' solution fractions ignored evidence and
# Dirichlet priors (0.5 for all four below).
printf '%s\n' 'model soft' 'var x[2] in 0..1' 'alldiff x' \
    'evidence x[0] = [3, 1]' >"$TMP/weighted_soft.fgm"
expect_exit 0 "exact, weighted exact cover" -- "$FGM" run "$TMP/weighted_soft.fgm" --backend exact
expect_out "^x\[0\] 0\.75 0\.25$" "evidence weighs the two solutions"
grep -q "dancing links" "$TMP/out" && fail "weighted model counted by Dancing Links"
printf '%s\n' 'model dir' 'prior p ~ dirichlet([5, 1])' \
    'var x[2] in 0..1 ~ discrete(p)' 'var y[2] in 0..1' \
    'alldiff(x[0], y[0])' 'alldiff(x[1], y[1])' >"$TMP/weighted_dir.fgm"
expect_exit 0 "exact, Dirichlet prior on exact cover" -- "$FGM" run "$TMP/weighted_dir.fgm" --backend exact
expect_out "^x\[0\] 0\.833333 0\.166667$" "x[0] = 0 has probability E[p0] = 5/6"
# Sudoku's own priors (one uniform Dirichlet per cell) weigh every
# solution alike: Dancing Links stays.
# Table factors are one loop over a row table, their potentials written
# once for every factor that shares them: a 2,000-factor chain emitted
# one inlined call and one potential array a factor (1.3 MB of C; at
# 10,000 factors the build took 146 s), now one call and one array of 4.
printf 'var x[2000] in 0..1\ntable (x[i], x[i+1]) = [[4, 1], [1, 4]] for i in 0..1998\n' > "$TMP/chain2k.fgm"
expect_exit 0 "chain of 2000 tables, C" -- "$FGM" compile "$TMP/chain2k.fgm" --emit-c "$TMP/chain2k.c"
[ "$(grep -c 'fgm_k_table2(' "$TMP/chain2k.c")" = 1 ] || fail "chain of 2000 tables: $(grep -c 'fgm_k_table2(' "$TMP/chain2k.c") pairwise kernel calls, want 1"
# Two-variable tables take the pairwise kernel, with the sizes as
# constants (every variable has K values) and no table of sizes.
grep -q 'edge_var\[run0\[i\]\[0\] + 1\], K, K,' "$TMP/chain2k.c" ||
    fail "chain of 2000 tables: domain sizes not constants: $(grep -A3 'fgm_k_table2(' "$TMP/chain2k.c")"
! grep -q 'run0_cards' "$TMP/chain2k.c" || fail "chain of 2000 tables: a table of sizes"
grep -q 'static const double run0_pot\[4\]' "$TMP/chain2k.c" || fail "chain of 2000 tables: its potentials not shared"
# A mistyped infer setting or algorithm gets the name it is close to.
printf 'var x in 0..1\ninfer bp-sum(iteration = 5)\n' > "$TMP/typo_set.fgm"
expect_exit 1 "a mistyped setting" -- "$FGM" dump "$TMP/typo_set.fgm"
expect_err "^$TMP/typo_set\.fgm:2:14: error: unknown setting 'iteration' \(did you mean 'iterations'\?\); valid: " "a mistyped setting"
# A comparison that every value meets adds no factor, and says so (a
# domain off by one passed unnoticed; one that no value meets is an
# error); one that adds a factor for some binding says nothing.
printf 'var x in 0..2\nvar z[3] in 0..2\nx != 7\nz[i] < 5 for i in 0..2\nz[i] >= i for i in 0..2\n' > "$TMP/holds.fgm"
expect_exit 0 "comparisons that always hold" -- "$FGM" dump "$TMP/holds.fgm"
expect_err "^$TMP/holds\.fgm:3:1: warning: '!=' holds for every value of its variable: the statement adds no factor \(is a domain or the number off\?\)$" "x != 7 on 0..2 warns"
expect_err "^$TMP/holds\.fgm:4:1: warning: '<' holds for every value of its variable, in every binding" "z[i] < 5 warns"
[ "$(grep -c 'warning' "$TMP/err")" = 2 ] || fail "comparisons that always hold: $(grep -c warning "$TMP/err") warnings, want 2 (z[i] >= i adds factors)"
expect_out "^vars 4 factors 2$" "z[i] >= i: factors for i = 1, 2 only"
# A weight still below the smallest normal double once scaled: the
# sweeps flush it to zero (a value ruled out; the exact backend keeps
# it), which is said, once a statement, not per binding.
printf 'var x[2] in 0..1\nevidence x[i] = [5e-324, 1] for i in 0..1\ntable (x[0], x[1]) = [[1e-310, 1], [1, 1]]\nevidence x[0] = [1e-300, 1]\nevidence x[1] = [5e-324, 1e9]\n' > "$TMP/tiny.fgm"
expect_exit 0 "subnormal weights" -- "$FGM" dump "$TMP/tiny.fgm"
expect_err "^$TMP/tiny\.fgm:2:17: warning: a weight is below the smallest normal double, about 1e-323 times the largest: ep, bp and gibbs read it as 0" "a subnormal evidence weight warns"
expect_err "^$TMP/tiny\.fgm:3:22: warning: a weight is below the smallest normal double" "a subnormal table weight warns"
expect_err "^$TMP/tiny\.fgm:5:17: warning: a weight is below the smallest normal double, about 1e-332 times the largest" "a ratio that underflows is still said"
[ "$(grep -c 'warning' "$TMP/err")" = 3 ] || fail "subnormal weights: $(grep -c warning "$TMP/err") warnings, want 3 (one a statement; 1e-300 is normal)"
# A list or a file far past a size cap stops the parse there, with the
# error: it was parsed whole first (a 63 MB list, 2.7 GB and 10 s).
python3 -c "print('var x in 0..1\nevidence x = [' + '1,' * 4194304 + '1]')" > "$TMP/biglist.fgm"
expect_exit 1 "a list past the cap" -- "$FGM" dump "$TMP/biglist.fgm"
expect_err "^$TMP/biglist\.fgm:2:8388623: error: too many items in one list \(more than 4194304\): the model is too large$" "a list past the cap"
[ "$(grep -c error "$TMP/err")" = 1 ] || fail "a list past the cap: $(grep -c error "$TMP/err") errors, want 1"

# A loop with no binding stands for nothing: no warning.
printf 'const N = 1\nvar x[3] in 0..2\nx[i] != x[i+1] for i in 0..N-2\n' > "$TMP/noloop.fgm"
expect_exit 0 "a comparison in an empty loop" -- "$FGM" dump "$TMP/noloop.fgm"
! grep -q warning "$TMP/err" || fail "a comparison in an empty loop warns: $(cat "$TMP/err")"
# Evidence statements that rule out every value are a contradiction the
# run reports (their product was normalized to a uniform row, silently).
printf 'var x in 0..1\nvar y in 0..1\ntable (x, y) = [[3, 1], [1, 3]]\nevidence x = [1, 0]\nevidence x = [0, 1]\ninfer bp-sum\n' > "$TMP/zev.fgm"
expect_exit 0 "contradictory evidence statements" -- "$FGM" run "$TMP/zev.fgm" --backend interpreted
expect_err "warning: observation 0: the run left x no value" "contradictory evidence statements"

# Past 10,000 rows a run names its factors once a statement: a comment a
# row made a 200,000-variable chain's C 42 MB.
printf 'var x[12000] in 0..1\ntable (x[i], x[i+1]) = [[4, 1], [1, 4]] for i in 0..11998\n' > "$TMP/chain12k.fgm"
expect_exit 0 "chain of 12000 tables, C" -- "$FGM" compile "$TMP/chain12k.fgm" --emit-c "$TMP/chain12k.c"
[ "$(sed -n '/^static const int run0\[/,/^};/p' "$TMP/chain12k.c" | grep -c '/\*')" = 1 ] ||
    fail "chain of 12000 tables: $(sed -n '/^static const int run0\[/,/^};/p' "$TMP/chain12k.c" | grep -c '/\*') comments in its run's table, want 1"
# Factors built in C have no source line: each is named, however long
# the run (sudoku:5's 20,000 != rows come from 75 alldiff factors).
expect_exit 0 "sudoku:5, C" -- "$FGM" compile sudoku:5 --emit-c "$TMP/s5.c"
[ "$(sed -n '/^static const int run0\[/,/^};/p' "$TMP/s5.c" | grep -c '/\*')" -gt 75 ] ||
    fail "sudoku:5: its factors not named in its long run"
# Each table says what it holds.
grep -q '^/\* the variable at each edge \*/$' "$TMP/chain2k.c" ||
    fail "chain of 2000 tables: no comment above edge_var"
# Each run's table says what its rows hold.
grep -q "^   { edge to the first variable (the second's: the next), offset in _pot } \*/$" "$TMP/chain2k.c" ||
    fail "chain of 2000 tables: no legend above its run's table"
# A table's potentials are written a row a line, as the model writes them.
grep -A2 'static const double run0_pot\[4\]' "$TMP/chain2k.c" | tail -1 | grep -q '^    4, 1,$' ||
    fail "chain of 2000 tables: potentials not a row a line: $(grep -A3 'run0_pot' "$TMP/chain2k.c")"
expect_exit 0 "chain of 2000 tables, compiled" -- "$FGM" run "$TMP/chain2k.fgm" --backend compiled --out-dir "$TMP/chain2k" --iters 3
grep -v '^#' "$TMP/out" > "$TMP/chain2k.compiled"
expect_exit 0 "chain of 2000 tables, interpreted" -- "$FGM" run "$TMP/chain2k.fgm" --backend interpreted --iters 3
grep -v '^#' "$TMP/out" > "$TMP/chain2k.interpreted"
same "$TMP/chain2k.interpreted" "$TMP/chain2k.compiled" || fail "chain of 2000 tables: compiled and interpreted differ"

# The exact searches recurse once a variable: past FGM_EXACT_MAXVARS
# (10000) they are refused, by name, where 100,000 free variables, or
# 120,000 alldiff pairs on Dancing Links, overflowed the stack (SIGSEGV).
printf 'const N = 100000\nvar x[N] in 0..2\n' > "$TMP/free100k.fgm"
printf 'const N = 6000\nvar x[2*N] in 1..2\nalldiff(x[2*i], x[2*i+1]) for i in 0..N-1\n' > "$TMP/pairs.fgm"
for m in free100k pairs; do
    expect_exit 1 "exact, $m" -- "$FGM" run "$TMP/$m.fgm" --backend exact --exact-method enumeration --cap 10
    expect_err "$m.fgm: error: --backend exact enumerates at most 10000 variables; this model has 1[02]000" "exact, $m: refused"
done
# Variable elimination recurses nowhere and takes both, exactly (the
# default: Dancing Links refuses the pairs, as enumeration does).
expect_exit 0 "exact, free100k, elimination" -- "$FGM" run "$TMP/free100k.fgm" --backend exact --show 'x[99999]'
expect_out "^# observation 0: exact \(variable elimination\), width=1, log Z=109861\.2289" "free100k: 3^100000 assignments"
expect_out "^x\[99999\] 0\.333333 0\.333333 0\.333333$" "free100k: uniform"
expect_exit 0 "exact, pairs, elimination" -- "$FGM" run "$TMP/pairs.fgm" --backend exact --show 'x[11999]'
expect_out "^# observation 0: exact \(variable elimination\), width=2, log Z=4158\.88" "pairs: 2^6000 solutions"
expect_out "^x\[11999\] 0\.5 0\.5$" "pairs: either value"
expect_exit 0 "exact 9x9" -- "$FGM" run models/sudoku.fgm --backend exact --observe puzzles/seed000.txt
expect_out "^# observation 3: exact \(dancing links\), solutions=1, log Z=-127\.4390255$" "9x9 by Dancing Links (one solution; its 23 clues are point masses on their priors, and each of the 58 other cells draws 1/9)"

# The exact backend answers what the model's algorithm asks: marginals,
# or for bp-max the max-marginals (it printed marginals under bp-max):
# on a.b = [[4, 0], [3, 3]] the best pair is (0, 0), yet a = 1 has more
# mass.  bp-max itself agrees (a tree).
printf '%s\n' 'model map2' 'var a in 0..1' 'var b in 0..1' \
    'table (a, b) = [[4, 0], [3, 3]]' 'infer bp-max' >"$TMP/map2.fgm"
expect_exit 0 "exact bp-max" -- "$FGM" run "$TMP/map2.fgm" --backend exact --exact-method enumeration
expect_out "^# observation 0: exact max-marginals \(enumeration\), assignments=3, log max weight=1\.386294361$" "exact bp-max header: log 4"
expect_out "^a 0\.571429 0\.428571$" "exact max-marginal of a"
expect_exit 0 "exact bp-max, elimination" -- "$FGM" run "$TMP/map2.fgm" --backend exact
expect_out "^# observation 0: exact max-marginals \(variable elimination\), width=2, log max weight=1\.386294361$" "exact bp-max header, elimination: log 4"
expect_out "^a 0\.571429 0\.428571$" "exact max-marginal of a, elimination"
expect_exit 0 "exact bp-sum" -- "$FGM" run "$TMP/map2.fgm" --backend exact --algo bp-sum
expect_out "^a 0\.4 0\.6$" "exact marginal of a"
expect_exit 0 "bp-max" -- "$FGM" run "$TMP/map2.fgm" --backend interpreted
expect_out "^a 0\.571429 0\.428571$" "bp-max's belief of a"
# Through Dancing Links (an exact cover, every solution alike): the
# values some solution has, normalized, not the solution fractions.
echo '1....2..........' >"$TMP/latin4.txt"
expect_exit 0 "exact bp-max, dancing links" -- "$FGM" run latin:4 --backend exact --algo bp-max --observe "$TMP/latin4.txt"
expect_out "^# observation 0: exact max-marginals \(dancing links\), solutions=32, log max weight=0$" "dancing links max header: each solution weighs 1"
expect_out "^cell\[0\]\[2\] 0 0\.333333 0\.333333 0\.333333$" "dancing links max-marginal"
expect_exit 0 "exact, dancing links" -- "$FGM" run latin:4 --backend exact --observe "$TMP/latin4.txt"
expect_out "^cell\[0\]\[2\] 0 0\.5 0\.25 0\.25$" "dancing links marginal"

# Observations the model forbids: the exact backend refuses them; EP and
# BP print marginals (x says 0 for sure) but warn that they are no
# posterior, naming the variable; consistent ones bring no warning.
printf '%s\n' 'model clash' 'var x in 0..2' 'var y in 0..2' 'var z in 0..2' \
    'x != y' 'y != z' 'evidence x = [1, 0, 0]' >"$TMP/clash.fgm"
cp "$TMP/clash.fgm" "$TMP/fine.fgm"
echo 'evidence y = [1, 0, 0]' >>"$TMP/clash.fgm"
echo 'evidence y = [0, 1, 0]' >>"$TMP/fine.fgm"
expect_exit 1 "exact, contradiction" -- "$FGM" run "$TMP/clash.fgm" --backend exact
expect_err "clash.fgm: error: the model has no consistent assignment" "exact refuses a contradiction"
# The same through Dancing Links (an exact-cover model): a clue pair that
# leaves a cell no value is no cap or deadline reached.
echo '12....3...4.....' >"$TMP/contra4.txt"
expect_exit 1 "exact (dlx), contradiction" -- "$FGM" run sudoku:2 --backend exact --observe "$TMP/contra4.txt"
expect_err "contra4.txt:1: error: observation 0 has no consistent assignment" "exact (dlx) refuses a contradiction"
# One such set among others: the others are still run and printed (the
# first one ended the run), and the exit says that one was refused.
printf '1...............\n12....3...4.....\n.2..............\n' >"$TMP/contra4b.txt"
expect_exit 1 "exact, one contradiction of three" -- "$FGM" run sudoku:2 --backend exact --observe "$TMP/contra4b.txt"
expect_err "contra4b.txt:2: error: observation 1 has no consistent assignment" "the refused set named"
[ "$(grep -c '^# observation [02]: exact' "$TMP/out")" = 2 ] || fail "the sets around a refused one are printed"
# A set of assignment lines is named by its first line (past the ---).
printf 'x = 0\n---\n# none\n\ny = 0\nx = 0\n' >"$TMP/clash.obs"
expect_exit 1 "exact, assignment sets, one contradiction" -- "$FGM" run "$TMP/fine.fgm" --backend exact --observe "$TMP/clash.obs"
expect_err "clash.obs:5: error: observation 1 has no consistent assignment" "a refused assignment set named by its first line"
# JSON stays a list when the refused set is the first (it began "[,").
printf '12....3...4.....\n1...............\n' >"$TMP/contra4c.txt"
expect_exit 1 "exact, the first set refused, JSON" -- "$FGM" run sudoku:2 --backend exact --observe "$TMP/contra4c.txt" --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert [o["observation"] for o in d] == [1], d' "$TMP/out" || fail "JSON after a refused first set"
for a in ep bp-sum bp-max; do
    expect_exit 0 "$a, contradiction" -- "$FGM" run "$TMP/clash.fgm" --backend interpreted --algo $a
    expect_err "warning: observation 0: the run left x no value the factors allow" "$a warns of a contradiction"
    expect_out "^x 1 0 0$" "$a still prints the marginals"
    expect_exit 0 "$a, contradiction, JSON" -- "$FGM" run "$TMP/clash.fgm" --backend interpreted --algo $a --format json
    expect_out '"alpha": \{\}, "contradiction": "x"\}\]$' "$a's JSON names the variable"
    expect_exit 0 "$a, no contradiction" -- "$FGM" run "$TMP/fine.fgm" --backend interpreted --algo $a
    grep -q warning "$TMP/err" && fail "$a warns without a contradiction: $(cat "$TMP/err")"
done

# A factor the algorithm has no operator for is named, with its place and
# the way out: native sum-product alldiff over 21 values (the subset DP's
# limit is 20), through run, compile and compile -o (which said only
# "not supported by this solver").
{ echo 'var x[21] in 1..21'; echo 'alldiff x'
  echo 'infer bp-sum(alldiff = native)'; } >"$TMP/ad21.fgm"
for args in "run $TMP/ad21.fgm" "compile $TMP/ad21.fgm --out-dir $TMP/gen21" \
            "compile $TMP/ad21.fgm -o $TMP/ad21.so"; do
    expect_exit 1 "$args" -- "$FGM" $args
    expect_err "ad21.fgm:2:1: error: bp-sum cannot run this alldiff: bp-sum over 21 values: .* at most 20 .*bp-max, or alldiff = pairwise" "$args names the factor"
    # ... and shows the statement with a caret, as the compiler's errors.
    [ "$(grep -A2 -- 'cannot run this alldiff' "$TMP/err" | sed -n '2,3p' |
         tr '\n' '|')" = "alldiff x|^|" ] ||
        fail "$args: no source line and caret: $(head -c 300 "$TMP/err")"
done
[ -e "$TMP/ad21.so" ] && fail "a refused compile -o wrote the plugin"
# The same from a path past 256 bytes, which the message named cut short.
long="$TMP/$(printf 'd%.0s' $(seq 120))/$(printf 'e%.0s' $(seq 120))"
mkdir -p "$long" && cp "$TMP/ad21.fgm" "$long/ad21.fgm"
expect_exit 1 "a long path" -- "$FGM" run "$long/ad21.fgm"
[ "$(head -n 3 "$TMP/err" | sed 's/: error: .*//' | tr '\n' '|')" = \
  "$long/ad21.fgm:2:1|alldiff x|^|" ] ||
    fail "a long path is not named whole: $(head -c 400 "$TMP/err")"

# Hostile input: exit 1 with a message, never a crash or a hang.
hostile() {     # DESCRIPTION FILE
    timeout 60 "$FGM" dump "$2" >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    [ "$rc" = 1 ] || fail "$1: exit $rc, want 1: $(head -c 300 "$TMP/err")"
    grep -q ": error: " "$TMP/err" || fail "$1: no error message"
}
: >"$TMP/empty.fgm"
hostile "empty file" "$TMP/empty.fgm"
head -c 4096 /dev/urandom >"$TMP/garbage.fgm"
hostile "random bytes" "$TMP/garbage.fgm"
head -c 1048576 /dev/urandom >"$TMP/big.fgm"
hostile "1 MB of random bytes" "$TMP/big.fgm"
[ "$(grep -c ': error: ' "$TMP/err")" -le 21 ] || fail "error cap"
{ printf 'const A = '; head -c 300000 /dev/zero | tr '\0' '('; echo 1; } >"$TMP/deep.fgm"
hostile "300000 open parentheses" "$TMP/deep.fgm"
{ printf 'var x in 0..1\nevidence x = '; head -c 300000 /dev/zero | tr '\0' '['; echo; } >"$TMP/deepl.fgm"
hostile "300000 open brackets" "$TMP/deepl.fgm"
{ printf 'const A = '; head -c 100000 /dev/zero | tr '\0' '-'; echo 1; } >"$TMP/neg.fgm"
hostile "100000 unary minuses" "$TMP/neg.fgm"
# A comparison's right side split into variable and offset once a term:
# 200,000 terms overflowed the stack (SIGSEGV), whatever the comparison.
for op in '!=' '==' '<'; do
    { printf 'var x[2] in 0..1\nx[0] %s x[1]' "$op"; yes ' + 0' | head -n 200000 | tr -d '\n'; echo; } >"$TMP/chain.fgm"
    hostile "x[0] $op x[1] + 0 + ... (200000 terms)" "$TMP/chain.fgm"
done
printf 'const A = 123456789012345678901234567890\nvar x[A] in 1..2\n' >"$TMP/int.fgm"
hostile "huge integer" "$TMP/int.fgm"
printf 'var x[2] in 1..2\nx[0] != x[1] for i in 0..9223372036854775807\n' >"$TMP/loop.fgm"
hostile "endless loop" "$TMP/loop.fgm"
# Bindings whose comparison always holds add no factor, and keep no
# memory: 8M of each kind held 256 MB of unused tables (x != y + i) and
# 128 MB of evidence vectors (x <= 5 + i).  Plain build only: ASan's
# shadow and quarantine are most of its peak.
if [ -r /proc/self/status ] && [ -z "${ASAN_OPTIONS:-}" ]; then
    printf 'var x[4] in 0..1\nx[0] != x[1] + i for i in 2..8000000\nx[2] <= 5 + i for i in 0..8000000\n' >"$TMP/idle.fgm"
    p=$(peak_kib "$FGM" dump "$TMP/idle.fgm")
    [ "$p" -lt 65536 ] || fail "16M bindings that add nothing peaked at $p KiB"
fi
printf 'var x in 1..2\n\0\0\0\n' >"$TMP/nul.fgm"
hostile "NUL bytes" "$TMP/nul.fgm"
mkdir "$TMP/dir.fgm"
hostile "a directory" "$TMP/dir.fgm"
# A model file past 64 MiB is refused while it is read, not read whole:
# an endless one (/dev/zero through a link) too.
ln -s /dev/zero "$TMP/zero.fgm"
expect_exit 1 "an endless model file" -- timeout 60 "$FGM" dump "$TMP/zero.fgm"
expect_err "^$TMP/zero.fgm: error: model file too large \(more than 67108864 bytes\)$" "an endless model file"
[ ! -s "$TMP/out" ] || fail "an endless model file: printed a dump"
# The emitted C of every shipped model builds clean with warnings as
# errors, as a plugin is built (a table run's unread row table failed
# -Wunused-const-variable), and also for the portable (SSE2) kernel paths,
# without -march.  GCC's -Wmaybe-uninitialized was left out until
# 2026-12-05, for false reports on those paths that no longer appear
# (GCC 12, -O2 and -O3, -march haswell, znver3, znver4, x86-64-v2,
# skylake-avx512, x86-64-v4, native or none).
for m in models/*.fgm; do
    for a in ep bp-sum bp-max; do
        "$FGM" compile "$m" --algo $a --emit-c "$TMP/w.c" 2>/dev/null || continue
        for march in -march=native -mtune=generic; do
            ${CC:-cc} -std=c11 -O2 $march -ffp-contract=off -Wall -Wextra \
                -Werror -Iruntime -c -o /dev/null "$TMP/w.c" 2>"$TMP/werr" \
                || fail "$m ($a, $march): emitted C: $(head -c 300 "$TMP/werr")"
        done
    done
done
# Both sides of a comparison observed, and the pair ruled out: the updates
# between pinned variables are skipped, so no message showed it; the
# engine backends now warn, as the exact one refuses.
printf 'var x in 0..2\nvar y in -1..1\nx < y\ninfer bp-sum(iterations = 5)\n' >"$TMP/cmpobs.fgm"
printf 'x = 1\ny = 0\n' >"$TMP/cmpobs.txt"
expect_exit 0 "a comparison's pair observed against it" -- "$FGM" run "$TMP/cmpobs.fgm" --backend interpreted --observe "$TMP/cmpobs.txt"
expect_err "warning: observation 0: the run left x no value the factors allow" "a comparison's pair observed against it"
printf 'x = 0\ny = 1\n' >"$TMP/cmpobs2.txt"
expect_exit 0 "a comparison's pair observed, consistent" -- "$FGM" run "$TMP/cmpobs.fgm" --backend interpreted --observe "$TMP/cmpobs2.txt"
[ ! -s "$TMP/err" ] || fail "a consistent observed pair warned: $(cat "$TMP/err")"
# Comparisons of two variables' values, on different domains: x < y over
# 0..2 and 1..3 leaves the pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3), so x
# is 0 with 1/2, 1 with 1/3, 2 with 1/6; z == y + 1 ties z to y.  A chain:
# BP is exact, and all three backends print the same.
printf 'var x in 0..2\nvar y in 1..3\nvar z in 0..5\nx < y\nz == y + 1\ninfer bp-sum(iterations = 5)\n' >"$TMP/cmp.fgm"
for b in compiled interpreted exact; do
    expect_exit 0 "comparisons, $b" -- "$FGM" run "$TMP/cmp.fgm" --backend $b --out-dir "$TMP/cmpgen"
    expect_out "^x 0.5 0.333333 0.166667$" "comparisons, $b: x"
    # (BP leaves a ruled-out value the table messages' floor, 1e-290.)
    expect_out "^z (0|1e-290) (0|1e-290) 0.166667 0.333333 0.5 (0|1e-290)$" "comparisons, $b: z"
done
# models/schedule.fgm: comparisons in a shipped model.  Its exact
# marginals against a brute force of the same rules written here; bp-sum
# (loopy) compiled and interpreted alike to the digit, and picking the
# exact argmax of every start.
expect_exit 0 "schedule, exact" -- "$FGM" run models/schedule.fgm --backend exact --format csv
python3 - "$TMP/out" <<'PY' || fail "schedule: exact marginals against the brute force"
import csv, itertools, sys
T, w = 8, [8, 7, 6, 5, 4, 3, 2, 1]
m = [[0.0] * T for _ in range(4)]
for s in itertools.product(range(T), repeat=4):
    if (s[1] >= s[0] + 2 and s[2] >= s[0] + 2 and s[3] >= s[1] + 3
            and s[3] >= s[2] + 1 and s[1] != s[2]):
        p = w[s[0]] * w[s[1]] * w[s[2]] * w[s[3]]
        for v in range(4):
            m[v][s[v]] += p
got = {(r["variable"], int(r["value"])): float(r["p"])
       for r in csv.DictReader(open(sys.argv[1]))}
for v in range(4):
    z = sum(m[v])
    for t in range(T):
        assert abs(got["start[%d]" % v, t] - m[v][t] / z) < 1e-9, (v, t)
PY
cp "$TMP/out" "$TMP/sched_exact.csv"
expect_exit 0 "schedule, bp-sum compiled" -- "$FGM" run models/schedule.fgm --backend compiled --out-dir "$TMP/schedgen" --format csv
cp "$TMP/out" "$TMP/sched_comp.csv"
expect_exit 0 "schedule, bp-sum interpreted" -- "$FGM" run models/schedule.fgm --backend interpreted --format csv
cmp -s "$TMP/out" "$TMP/sched_comp.csv" || fail "schedule: compiled and interpreted differ"
python3 - "$TMP/sched_exact.csv" "$TMP/out" <<'PY' || fail "schedule: bp-sum's argmax is not exact's"
import csv, sys
def best(path):
    b = {}
    for r in csv.DictReader(open(path)):
        k, p = r["variable"], float(r["p"])
        if k not in b or p > b[k][1]:
            b[k] = (int(r["value"]), p)
    return {k: v[0] for k, v in b.items()}
assert best(sys.argv[1]) == best(sys.argv[2]), (best(sys.argv[1]), best(sys.argv[2]))
PY

# --out-dir makes its missing parents too, as mkdir -p (it made one
# level: "plug/sub" with no plug ended in "no plugin").
expect_exit 0 "out-dir, nested" -- "$FGM" compile models/chain.fgm --out-dir "$TMP/plug/sub/dir"
[ -f "$TMP/plug/sub/dir/chain.bp-sum.so" ] || fail "out-dir, nested: no plugin in it: $(ls -R "$TMP/plug")"
printf 'x' > "$TMP/afile"
expect_exit 1 "out-dir under a file" -- "$FGM" compile models/chain.fgm --out-dir "$TMP/afile/sub"
expect_err "afile/sub/: cannot write: Not a directory" "out-dir under a file: says why"
# The summary names the plugin with one slash after a folder given with
# one (it said "DIR//chain.bp-sum.so").
expect_exit 0 "out-dir with a trailing slash" -- "$FGM" compile models/chain.fgm --out-dir "$TMP/plug/"
expect_err "^fgm: (compiled|up to date:) models/chain.fgm -> $TMP/plug/chain.bp-sum.so " "out-dir with a trailing slash: the summary"

# A model saved with classic Mac OS line ends (lone CRs) is named as such
# at its first line end; it read as one line whose comment swallowed the
# rest ("declares no variables").  CRLF stays a line end.
tr '\n' '\r' < models/chain.fgm > "$TMP/cr.fgm"
expect_exit 1 "bare CR line ends" -- "$FGM" dump "$TMP/cr.fgm"
expect_err "^$TMP/cr.fgm:1:[0-9]+: error: the lines end with bare carriage returns" "bare CR line ends"
sed 's/$/\r/' models/chain.fgm > "$TMP/crlf.fgm"
expect_exit 0 "CRLF line ends" -- "$FGM" dump "$TMP/crlf.fgm"
finish
