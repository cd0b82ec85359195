# tests/cli/solve.sh: every solver on the shipped puzzles; output contract.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

solvers=$("$FGM" list | awk '/^solvers:/{on=1;next} /^[a-z]/{on=0} on && /\[exact\]/{print $1}')
[ -n "$solvers" ] || fail "fgm list names no solver"

# dlx's answers are the reference: every solver must print the same grids.
"$FGM" solve --solver dlx puzzles/seed002_top95.txt > "$TMP/ref" 2>/dev/null
[ "$(wc -l < "$TMP/ref")" = 10 ] || fail "dlx prints one line per puzzle"
! grep -q '\.' "$TMP/ref" || fail "dlx leaves no empty cell"
for s in $solvers; do
    [ "$s" = backtrack ] && continue   # minutes on top95; covered below
    expect_exit 0 "$s on top95 sample" -- "$FGM" solve --solver "$s" puzzles/seed002_top95.txt
    cmp -s "$TMP/out" "$TMP/ref" || fail "$s answers differ from dlx"
    expect_err "^fgm: solver=$s backend=exact solved=10/10 median_ms=[0-9.]+ mean_ms=[0-9.]+ timeouts=0" "$s summary"
done

# Parity counts of notebook 003 through the CLI's CSV nodes column.
for pair in "backtrack 4209 55 879418" "mrv 52 46 5565" "ac3 82 82 981113"; do
    set -- $pair
    got=$("$FGM" solve --solver "$1" --csv puzzles/seed003.txt 2>/dev/null |
          awk -F, 'NR>1{printf "%s ", $7}')
    [ "$got" = "$2 $3 $4 " ] || fail "$1 nodes: got '$got', want '$2 $3 $4'"
done

expect_exit 0 "csv" -- "$FGM" solve --csv puzzles/seed003.txt
head -1 "$TMP/out" | grep -qx 'index,solver,backend,solved,valid,ms,nodes,inferences,decisions,restarts,sweeps,contradictions,errors,timeout' ||
    fail "CSV header"
[ "$(awk -F, 'NR>1 && $4==1 && $5==1' "$TMP/out" | wc -l)" = 3 ] || fail "CSV rows solved+valid"

# A dataset's table (Kaggle's quizzes,solutions header): the puzzle
# column is solved, each answer on a line of its own as the puzzle is
# written, the other columns not read.
{ echo 'id,puzzle,solution'
  grep -v '^#' puzzles/seed002_top95.txt | awk '{ print NR "," $0 ",?" }'
} > "$TMP/table.csv"
expect_exit 0 "CSV table" -- "$FGM" solve "$TMP/table.csv"
cmp -s "$TMP/out" "$TMP/ref" || fail "a table's puzzles solved as the plain file's"
printf 'id,grid\n1,2\n' > "$TMP/nohdr.csv"
expect_exit 1 "table without a puzzle column" -- "$FGM" solve "$TMP/nohdr.csv"
expect_err "nohdr.csv:1: error: a header that names no puzzle column" "header error"

# Unsolved puzzles come back unchanged: a timeout of 8 ms on the hard grid
# (backtrack: 0.09 and 0.003 ms on the other two, 22 ms on it).
expect_exit 0 "timeout" -- "$FGM" solve --solver backtrack --timeout-ms 8 puzzles/seed003.txt
expect_err "timeouts=[1-9]" "timeout counted"
expect_err "solved=2/3 median_ms=[0-9.]+ mean_ms=[0-9.]+ timeouts=1 " "the puzzles solved in time are timed"
grep -v '^#' puzzles/seed003.txt | sed -n 3p > "$TMP/hard"
grep -qxFf "$TMP/hard" "$TMP/out" || fail "timed-out puzzle printed unchanged"
# Every puzzle timed out: no time to give (0 would read as instant).
grep -v '^#' puzzles/seed003.txt | sed -n 3p > "$TMP/hard1.txt"
expect_exit 0 "all timed out" -- "$FGM" solve --solver backtrack --timeout-ms 0.001 "$TMP/hard1.txt"
expect_err "solved=0/1 median_ms=nan mean_ms=nan timeouts=1 " "all timed out: no median"
expect_exit 0 "timeout csv" -- "$FGM" solve --solver backtrack --timeout-ms 0.001 --csv puzzles/seed003.txt
[ "$(awk -F, 'NR==4{print $4 $14}' "$TMP/out")" = 01 ] || fail "CSV: the timed-out puzzle's row says timeout=1"
[ "$(awk -F, 'NR>1 && $14!=0 && $14!=1' "$TMP/out" | wc -l)" = 0 ] || fail "CSV timeout column is 0 or 1"

# stdin, multi-line input, 4x4 and 16x16 through the default model.
expect_exit 0 "stdin" -- sh -c "grep -v '^#' puzzles/seed003.txt | '$FGM' solve -"
[ "$(wc -l < "$TMP/out")" = 3 ] || fail "stdin: three answers"
printf '1 . | . .\n. . | 1 .\n----+----\n. 1 | . .\n. . | . 1\n' > "$TMP/four.txt"
expect_exit 0 "boxed 4x4" -- "$FGM" solve --solver norvig "$TMP/four.txt"
expect_out '^1[0-9]{15}$' "boxed 4x4 answer"

# Several files are one stream, as if concatenated: the same lines, the
# CSV index and the seeds running on (alldiff-max3 draws at random), one
# summary; every file is opened before the first puzzle is solved.
(grep -v '^#' puzzles/seed003.txt; grep -v '^#' puzzles/seed000.txt) > "$TMP/cat.txt"
"$FGM" solve --solver alldiff-max3 --csv "$TMP/cat.txt" 2>/dev/null | cut -d, -f1-5,7- > "$TMP/one.csv"
expect_exit 0 "two files" -- "$FGM" solve --solver alldiff-max3 --csv puzzles/seed003.txt puzzles/seed000.txt
cut -d, -f1-5,7- "$TMP/out" | cmp -s - "$TMP/one.csv" || fail "two files differ from their concatenation"
expect_err "solved=7/7" "two files: one summary"
expect_exit 0 "two files, count" -- "$FGM" solve --count puzzles/seed003.txt puzzles/seed000.txt
[ "$(wc -l < "$TMP/out")" = 7 ] || fail "two files, count: seven lines"
expect_exit 1 "a missing second file" -- "$FGM" solve puzzles/seed003.txt "$TMP/nonexistent.txt"
expect_err "nonexistent.txt: error: cannot open" "a missing second file"
[ ! -s "$TMP/out" ] || fail "a missing second file: puzzles solved before the error"
printf '1...\n..1.\n.1..\n...1\n' > "$TMP/one4.txt"
expect_exit 1 "files of two sizes" -- "$FGM" solve --solver norvig "$TMP/one4.txt" puzzles/seed003.txt
expect_err "seed003.txt:4: error: line has 81 symbols; expected 16" "files of two sizes"
expect_exit 2 "stdin twice" -- "$FGM" solve - -
expect_err "'-' \(standard input\) given twice" "stdin twice"
# A file with no puzzle (empty, comments only) is part of the stream, as
# in the concatenation (it stopped the solve: "no puzzle in the input",
# exit 1); the stream as a whole still needs one.  One reader: the plugin
# cascade runs once, and says its fallback once (a runner per file did it
# again for every file).
: > "$TMP/empty.txt"
printf '# comments only\n\n' > "$TMP/comments.txt"
expect_exit 0 "files with no puzzle" -- "$FGM" solve --solver alldiff-max3 --csv "$TMP/empty.txt" puzzles/seed003.txt "$TMP/comments.txt" puzzles/seed000.txt
cut -d, -f1-5,7- "$TMP/out" | cmp -s - "$TMP/one.csv" || fail "files with no puzzle differ from the concatenation"
expect_exit 0 "count, a file with no puzzle" -- "$FGM" solve --count puzzles/seed003.txt "$TMP/comments.txt"
expect_err "unique=3/3" "count, a file with no puzzle"
expect_exit 1 "no puzzle in any file" -- "$FGM" solve "$TMP/empty.txt" "$TMP/comments.txt"
expect_err "comments.txt:2: error: no puzzle in the input" "no puzzle in any file"
expect_exit 0 "three files, no compiler" -- env CC=false "$FGM" solve --solver ep-robust --out-dir "$TMP/nocc" puzzles/seed003.txt puzzles/seed003.txt puzzles/seed003.txt
[ "$(grep -c 'interpreting' "$TMP/err")" = 1 ] || fail "three files, no compiler: the fallback said $(grep -c 'interpreting' "$TMP/err") times"

# A malformed first puzzle is said before the model is prepared: no
# plugin built for it (one was, then the error).
expect_exit 1 "misfit input, no plugin" -- "$FGM" solve --model models/sudoku.fgm -D B=2 --solver ep-robust --out-dir "$TMP/misfit" puzzles/seed003.txt
expect_err "seed003.txt:4: error: line has 81 symbols; expected 16" "misfit input, no plugin"
[ -z "$(ls -A "$TMP/misfit" 2>/dev/null)" ] || fail "misfit input: a plugin was built: $(ls "$TMP/misfit")"

# Latin squares through --model.
printf '1....\n.....\n.....\n.....\n....1\n' > "$TMP/latin.txt"
expect_exit 0 "latin" -- "$FGM" solve --model latin:5 --solver mac "$TMP/latin.txt"
expect_err "solved=1/1" "latin solved"
# A grid model that is not an exact cover (a 4x4 Futoshiki: Latin rows
# and columns, inequalities): without --solver, mac searches it, as the
# summary says (dlx, the default, refused it with exit 1).
printf '%s\n' 'var g[4][4] in 1..4' 'alldiff g[i][*] for i in 0..3' \
    'alldiff g[*][j] for j in 0..3' 'g[0][0] < g[0][1]' 'g[1][1] > g[2][1]' \
    'g[3][2] < g[3][3]' 'g[2][3] < g[1][3]' > "$TMP/futo.fgm"
printf '1...............\n' > "$TMP/futo.txt"
expect_exit 0 "futoshiki, default solver" -- "$FGM" solve --model "$TMP/futo.fgm" "$TMP/futo.txt"
expect_err "^fgm: solver=mac backend=exact solved=1/1 " "futoshiki: mac, said"
python3 -c 'import sys; g = [int(c) for c in open(sys.argv[1]).read().strip()]; r = [g[4*i:4*i+4] for i in range(4)]
assert len(g) == 16 and g[0] == 1 and all(sorted(x) == [1, 2, 3, 4] for x in r + [list(c) for c in zip(*r)])
assert r[0][0] < r[0][1] and r[1][1] > r[2][1] and r[3][2] < r[3][3] and r[2][3] < r[1][3], r' "$TMP/out" ||
    fail "futoshiki: not a solution: $(cat "$TMP/out")"
expect_exit 1 "futoshiki, dlx asked" -- "$FGM" solve --model "$TMP/futo.fgm" --solver dlx "$TMP/futo.txt"
expect_err "dlx needs every constraint to be an alldiff" "futoshiki, dlx asked: says why"
# --count on a model with variables past the grid: they are free (they
# were read unset, and the count came out 0 for a solvable puzzle).  One
# 4x4 grid times the 4! orders of a free alldiff of 4.
printf '%s\n' 'model extra' 'const B = 2' 'const N = B * B' 'var cell[N][N] in 1..N' \
    'var extra[N] in 1..N' 'alldiff cell[i][*] for i in 0..N-1' \
    'alldiff cell[*][j] for j in 0..N-1' \
    'alldiff cell[B*a .. B*a+B-1][B*b .. B*b+B-1] for a, b in 0..B-1' \
    'alldiff extra[*]' > "$TMP/extra.fgm"
printf '.2..4.3.......14\n' > "$TMP/extra.txt"
expect_exit 0 "count with extra variables" -- "$FGM" solve --count --cap 100 --model "$TMP/extra.fgm" "$TMP/extra.txt"
[ "$(cat "$TMP/out")" = 24 ] || fail "count with extra variables: $(cat "$TMP/out"), want 24"
# A count that ends at the cap exactly is complete: the empty 4x4 grid
# has 288 solutions, so --cap 288 prints 288 and --cap 287 ">=287".
printf '................\n' > "$TMP/empty4.txt"
for c in 287 288; do
    expect_exit 0 "count, cap $c" -- "$FGM" solve --count --cap $c "$TMP/empty4.txt"
done
[ "$(cat "$TMP/out")" = 288 ] || fail "count, cap 288: $(cat "$TMP/out"), want 288"
"$FGM" solve --count --cap 287 "$TMP/empty4.txt" 2>/dev/null | grep -qx '>=287' ||
    fail "count, cap 287: not >=287"
# A model whose grid cells take more values than a puzzle's symbols is
# refused: its answers could not be read back (it printed a 5 in a 4x4).
printf '%s\n' 'model wide' 'const N = 4' 'var cell[N][N] in 1..N+1' \
    'alldiff cell[i][*] for i in 0..N-1' 'alldiff cell[*][j] for j in 0..N-1' > "$TMP/wide.fgm"
printf '1234............\n' > "$TMP/w4.txt"
expect_exit 1 "grid of 5 values" -- "$FGM" solve --solver alldiff-max2 --model "$TMP/wide.fgm" "$TMP/w4.txt"
expect_err "wide.fgm: its grid cell takes the values 1..5; a 4x4 puzzle's symbols stand for 1..4" "grid of 5 values"
# So is one whose grid takes other values than 1..N, by solve and bench
# alike: its puzzles were read and printed as if in 1..N (fgm run
# refuses such puzzle lines).
sed 's/in 1..N+1/in 0..N-1/' "$TMP/wide.fgm" > "$TMP/zero.fgm"
for cmd in "solve --solver dlx" "bench --solvers dlx"; do
    expect_exit 1 "$cmd: grid in 0..3" -- "$FGM" $cmd --model "$TMP/zero.fgm" "$TMP/w4.txt"
    expect_err "zero.fgm: its grid cell takes the values 0..3; a 4x4 puzzle's symbols stand for 1..4" "$cmd: grid in 0..3"
done
# bench counts a run that ends past its timeout as a timeout, solved or
# not (dlx polls its deadline every 256 nodes: with 0.000001 ms it
# "solved" every puzzle, its times far past the limit in the medians).
expect_exit 0 "bench, runs past the timeout" -- "$FGM" bench --solvers dlx --timeout-ms 0.000001 puzzles/seed003.txt
expect_out "seed003.txt +dlx +0/3 +3 " "bench, runs past the timeout"
# and so does solve, on the same rule (it said solved=3/3 timeouts=0,
# the medians far past the limit).
expect_exit 0 "solve, runs past the timeout" -- "$FGM" solve --solver dlx --timeout-ms 0.000001 --csv puzzles/seed003.txt
expect_err "solved=0/3 median_ms=nan mean_ms=nan timeouts=3 " "solve, runs past the timeout"
[ "$(awk -F, 'NR>1{print $4 $14}' "$TMP/out" | sort -u)" = 01 ] || fail "solve, runs past the timeout: rows unsolved, timeout=1"
# A puzzle with no solution: an exact solver's search is complete, so it
# says so (the echoed puzzle and solved=0 looked like a solver giving up);
# a timed-out search says nothing of the kind.
printf '1234341221434321\n..12....3...4...\n' >"$TMP/nosol.txt"
printf '# solvable\n1234341221434321\n' >"$TMP/sol4.txt"
for s in dlx norvig mac; do
    # The second file's puzzle is named by its own file and line.
    expect_exit 0 "no solution, $s" -- "$FGM" solve --solver $s "$TMP/sol4.txt" - <"$TMP/nosol.txt"
    expect_err "^fgm: solve: <stdin>:2: puzzle 3 has no solution: $s searched every branch$" "no solution, $s"
    [ "$(grep -c 'has no solution' "$TMP/err")" = 1 ] || fail "no solution, $s: the solved puzzle named"
done
expect_exit 0 "no solution, one file" -- "$FGM" solve "$TMP/nosol.txt"
expect_err "^fgm: solve: $TMP/nosol.txt:2: puzzle 2 has no solution: dlx searched every branch$" "no solution, one file"
expect_exit 0 "no solution, timed out" -- "$FGM" solve --solver dlx --timeout-ms 0.000001 "$TMP/nosol.txt"
grep -q 'has no solution' "$TMP/err" && fail "a timed-out search said there is no solution"
finish
