# tests/cli/generate.sh: generated puzzles have one solution; seeds reproduce.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

for b in 2 3 4; do
    expect_exit 0 "generate box $b" -- "$FGM" generate --box $b --count 3 --seed 11 -o "$TMP/g$b.txt"
    [ "$(grep -vc '^#' "$TMP/g$b.txt")" = 3 ] || fail "box $b: three puzzles"
    expect_exit 0 "count box $b" -- "$FGM" solve --solver dlx --count "$TMP/g$b.txt"
    expect_err "unique=3/3" "box $b puzzles have exactly one solution"
    expect_exit 0 "solve box $b" -- "$FGM" solve --solver norvig "$TMP/g$b.txt"
    expect_err "solved=3/3" "box $b puzzles solve"
done
"$FGM" generate --box 3 --count 3 --seed 11 > "$TMP/again.txt" 2>/dev/null
cmp -s "$TMP/again.txt" "$TMP/g3.txt" || fail "same seed, same puzzles"
"$FGM" generate --box 3 --count 3 --seed 12 > "$TMP/other.txt" 2>/dev/null
! cmp -s "$TMP/other.txt" "$TMP/g3.txt" || fail "another seed, other puzzles"
ls "$TMP"/g3.txt.tmp.* >/dev/null 2>&1 && fail "no temporary file left behind"

# --count: the empty 4x4 has 288 solutions; a cap stops the count early.
printf '................\n' > "$TMP/empty4.txt"
expect_exit 0 "count empty 4x4" -- "$FGM" solve --count --cap 1000 "$TMP/empty4.txt"
expect_out '^288$' "288 solutions"
expect_exit 0 "capped count" -- "$FGM" solve --count --cap 10 "$TMP/empty4.txt"
expect_out '^>=10$' "capped at 10"
# Exactly CAP solutions is a complete count, not ">=CAP" (the search that
# stopped at the cap could not tell the two apart); one fewer is not.
expect_exit 0 "count capped at its total" -- "$FGM" solve --count --cap 288 "$TMP/empty4.txt"
expect_out '^288$' "cap 288: exactly 288"
expect_exit 0 "count capped below its total" -- "$FGM" solve --count --cap 287 --csv "$TMP/empty4.txt"
expect_out '^0,287,0,' "cap 287: at least 287, incomplete"

# Exact marginals of the empty 4x4 Sudoku: every value 1/4.
expect_exit 0 "run exact" -- "$FGM" run sudoku:2 --backend exact --format csv
[ "$(awk -F, 'NR>1 && $5 != 0.25' "$TMP/out" | wc -l)" = 0 ] || fail "uniform marginals"
[ "$(awk -F, 'NR>1' "$TMP/out" | wc -l)" = 64 ] || fail "16 cells x 4 values"
expect_exit 0 "run json" -- "$FGM" run sudoku:2 --backend exact --format json --observe "$TMP/g2.txt"
expect_out '"info": "exact \(dancing links\), solutions=1, log Z=0"' "json per observation"

expect_exit 2 "generate without --box" -- "$FGM" generate
expect_exit 2 "generate box 6" -- "$FGM" generate --box 6
# -o - is standard output, not a file named '-'.
(F=$(realpath "$FGM"); cd "$TMP" && "$F" generate --box 2 --seed 5 -o - > dash.out 2>/dev/null) || fail "generate -o -"
"$FGM" generate --box 2 --seed 5 > "$TMP/plain.out" 2>/dev/null
cmp -s "$TMP/dash.out" "$TMP/plain.out" || fail "generate -o - differs from stdout"
[ ! -e "$TMP/-" ] || fail "generate -o - made a file named '-'"
expect_exit 2 "more clues than cells" -- "$FGM" generate --box 3 --min-clues 82
expect_err "^fgm: generate: --min-clues 82: a 9x9 grid has 81 cells$" "more clues than cells"
expect_exit 0 "as many clues as cells" -- "$FGM" generate --box 2 --min-clues 16
# The header is the command that makes the file again, --min-clues and
# all (it said "(min clues set)").
expect_out "^# fgm generate --box 2 --count 1 --seed 1 --min-clues 16$" "header names --min-clues"
expect_exit 1 "unwritable output" -- "$FGM" generate --box 2 -o /nonexistent/dir/x.txt
expect_err "/nonexistent/dir/x.txt: error: cannot" "unwritable output"
# Outputs are written to a temporary name and renamed: a new file is
# 0644, a replaced one keeps its mode.
expect_exit 0 "new output" -- "$FGM" generate --box 2 --count 1 -o "$TMP/new.txt"
[ "$(stat -c %a "$TMP/new.txt")" = 644 ] || fail "a new output is $(stat -c %a "$TMP/new.txt"), want 644"
chmod 600 "$TMP/new.txt"
expect_exit 0 "replaced output" -- "$FGM" generate --box 2 --count 1 -o "$TMP/new.txt"
[ "$(stat -c %a "$TMP/new.txt")" = 600 ] || fail "a replaced 0600 output is $(stat -c %a "$TMP/new.txt")"
# A reader that goes away stops the run at the next puzzle, SIGPIPE
# ignored or not: with it ignored, generate made every puzzle (3000: 4-11 s)
# before saying "Broken pipe".
( trap '' PIPE; timeout 5 "$FGM" generate --box 3 --count 100000 2>"$TMP/err" | head -1 >/dev/null; echo "${PIPESTATUS[0]}" > "$TMP/rc" )
[ "$(cat "$TMP/rc")" = 1 ] && grep -q "write error on standard output" "$TMP/err" \
    || fail "generate to a closed pipe: exit $(cat "$TMP/rc"): $(head -c 200 "$TMP/err")"
# Puzzle K of a batch is made from seed + K, each one a --seed that
# makes it again alone: a batch whose seeds would pass the largest is
# refused (puzzle 2 of --seed 2147483647 could not be made alone).
expect_exit 2 "seeds past the largest" -- "$FGM" generate --box 2 --seed 2147483647 --count 2
expect_err "generate: --seed 2147483647 --count 2: the puzzles' seeds would pass 2147483647" "seeds past the largest"
expect_exit 0 "seeds up to the largest" -- "$FGM" generate --box 2 --seed 2147483646 --count 2
"$FGM" generate --box 2 --seed 2147483647 --count 1 2>/dev/null | tail -n 1 > "$TMP/alone"
tail -n 1 "$TMP/out" | cmp -s - "$TMP/alone" || fail "the last puzzle of a batch is not made again alone"
# A write error of -o FILE is said once, naming the file (a vague
# "fgm: generate: input/output error" followed).
(trap '' XFSZ; ulimit -f 8; exec "$FGM" generate --box 3 --count 200 -o "$TMP/big.txt") >/dev/null 2>"$TMP/err"
[ $? = 1 ] || fail "generate -o past the file size limit: exit status"
[ "$(wc -l < "$TMP/err")" = 1 ] && grep -q "^$TMP/big.txt: error: cannot write: File too large$" "$TMP/err" \
    || fail "generate -o, write error: $(cat "$TMP/err")"
# The same without the test's trap: SIGXFSZ, at its default, killed fgm
# (exit 153) with its temporary half written beside the file.
(ulimit -f 8; exec "$FGM" generate --box 3 --count 200 -o "$TMP/big2.txt") >/dev/null 2>"$TMP/err"
[ $? = 1 ] || fail "generate -o past the file size limit, SIGXFSZ at its default: exit status"
grep -q "^$TMP/big2.txt: error: cannot write: File too large$" "$TMP/err" || fail "generate -o, SIGXFSZ at its default: $(cat "$TMP/err")"
ls "$TMP"/big2.txt* >/dev/null 2>&1 && fail "generate -o past the file size limit: a file or temporary left"

# A 25x25 grid's search keeps its 500 open nodes on the heap: recursing
# that deep, it overflowed a 100 KiB stack (exit 139).  Not where fgm
# cannot run in so little stack at all (a sanitized build).
if (ulimit -s 100 && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=stderr" \
        "$FGM" list >/dev/null 2>&1); then
    (ulimit -s 100 && exec "$FGM" generate --box 5 --count 1 --seed 3) >"$TMP/g25" 2>"$TMP/err"
    [ $? = 0 ] || fail "generate --box 5 in a 100 KiB stack: exit status ($(cat "$TMP/err"))"
    [ "$(grep -vc "^#" "$TMP/g25")" = 1 ] || fail "generate --box 5 in a 100 KiB stack: no puzzle"
fi
finish
