# tests/cli/errors.sh: bad input gives file:line messages and exit 1; bad
# usage exit 2; nothing crashes.  SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
E="003020600900305001001806400008102900700000008006708200002609500800203009005010300"

expect_exit 1 "missing file" -- "$FGM" solve /nonexistent/p.txt
expect_err "^/nonexistent/p.txt: error: cannot open" "missing file"

: > "$TMP/empty.txt"
expect_exit 1 "empty file" -- "$FGM" solve "$TMP/empty.txt"
expect_err "empty.txt:1: error: no puzzle in the input" "empty file"

# A folder is refused when the files are opened, before any is solved
# (it was a read error once the files before it had been solved); a line
# past 64 KiB is refused, not buffered whole (a file without newlines,
# /dev/zero).
mkdir "$TMP/dir"
expect_exit 1 "a folder" -- "$FGM" solve "$TMP/dir"
expect_err "dir: error: cannot read: Is a directory" "a folder"
expect_exit 1 "a folder after a file" -- "$FGM" solve puzzles/seed003.txt "$TMP/dir"
expect_err "dir: error: cannot read: Is a directory" "a folder after a file"
[ ! -s "$TMP/out" ] || fail "a folder after a file: nothing solved before the refusal"
# A NUL byte is placed by its column (it had only the line).
printf '12\000345\n' > "$TMP/nul.txt"
expect_exit 1 "a NUL byte" -- "$FGM" solve "$TMP/nul.txt"
expect_err "nul.txt:1:3: error: NUL byte in input" "a NUL byte"
head -c 70000 /dev/zero | tr '\0' 1 > "$TMP/long.txt"
expect_exit 1 "a 70000-byte line" -- "$FGM" solve "$TMP/long.txt"
expect_err "long.txt:1:65537: error: line longer than 65536 bytes" "a 70000-byte line"
# A line of exactly 65536 bytes, its newline after them, is read (it was
# refused as longer): blanks, then a puzzle.
{ head -c 65455 /dev/zero | tr '\0' ' '; printf '%s\n' "$E"; } > "$TMP/edge.txt"
expect_exit 0 "a 65536-byte line" -- "$FGM" solve "$TMP/edge.txt"
{ head -c 65456 /dev/zero | tr '\0' ' '; printf '%s\n' "$E"; } > "$TMP/edge1.txt"
expect_exit 1 "a 65537-byte line" -- "$FGM" solve "$TMP/edge1.txt"
expect_err "edge1.txt:1:65537: error: line longer than 65536 bytes" "a 65537-byte line"

# `fgm CMD --help`: the command's usage on stdout, exit 0.
for c in solve bench compile run generate dump graph; do
    expect_exit 0 "$c --help" -- "$FGM" $c --help
    expect_out "^usage: fgm $c" "$c --help prints its usage"
done
# `fgm help CMD` is `fgm CMD --help` (it printed every command's usage);
# an unknown CMD is a usage error.
expect_exit 0 "help run" -- "$FGM" help run
expect_out "^usage: fgm run MODEL" "help run prints run's usage"
[ "$(grep -c '^usage:' "$TMP/out")" = 1 ] || fail "help run: more than run's usage"
expect_exit 2 "help of an unknown command" -- "$FGM" help nope
expect_err "^fgm: help: unknown command 'nope'$" "help of an unknown command"
expect_exit 2 "help of two commands" -- "$FGM" help run solve
expect_err "^fgm: help: one command at a time$" "help of two commands"
expect_exit 0 "help help" -- "$FGM" help help
expect_out "^usage: fgm COMMAND" "help help: the commands"
# --help among other arguments asks for help too (it was an unknown
# option); after "--" it is an operand.
expect_exit 0 "solve FILE --help" -- "$FGM" solve puzzles/seed003.txt --solver dlx --help
expect_out "^usage: fgm solve" "solve FILE --help prints its usage"
expect_exit 1 "solve -- --help" -- "$FGM" solve -- --help
expect_err "^--help: error: cannot open" "after --, --help is a file name"
# list takes no arguments, but --help is still a request for its usage.
expect_exit 0 "list --help" -- "$FGM" list --help
expect_out "^usage: fgm list$" "list --help prints its usage"
# So does version, now that it takes none either (--help was exit 2).
expect_exit 0 "version --help" -- "$FGM" version --help
expect_out "^usage: fgm version$" "version --help prints its usage"
# Output that cannot be written is an error, not exit 0 (a full disk).
"$FGM" solve puzzles/seed003.txt >/dev/full 2>"$TMP/err"
[ $? = 1 ] || fail "solve to a full disk did not exit 1"
expect_err "solve: write error on standard output" "solve to a full disk"
# ... and stops the run (it went on solving every puzzle): 3000 lines
# fill stdio's buffer and fail long before the last puzzle.
for i in $(seq 1000); do cat puzzles/seed003.txt; done | grep -v '^#' > "$TMP/many3.txt"
"$FGM" solve "$TMP/many3.txt" >/dev/full 2>"$TMP/err"
[ $? = 1 ] || fail "solve of 3000 puzzles to a full disk did not exit 1"
n=$(sed -n 's/.*solved=[0-9]*\/\([0-9]*\) .*/\1/p' "$TMP/err")
[ -n "$n" ] && [ "$n" -lt 3000 ] || fail "solve to a full disk stops early (solved $n): $(head -c 300 "$TMP/err")"
"$FGM" run models/dice.fgm --backend interpreted >/dev/full 2>"$TMP/err"
[ $? = 1 ] || fail "run to a full disk did not exit 1"
"$FGM" version >/dev/full 2>"$TMP/err"
[ $? = 1 ] || fail "version to a full disk did not exit 1"
expect_err "version: write error on standard output" "version to a full disk"
# Every command says a write error the same way (dump said "write
# error", generate "input/output error").
for c in "dump models/dice.fgm" "graph models/dice.fgm" "generate --box 2" \
         "solve --help" "run --help" "list --help"; do
    $FGM $c >/dev/full 2>"$TMP/err"
    [ $? = 1 ] || fail "$c to a full disk did not exit 1"
    expect_err "${c%% *}: write error on standard output: " "$c to a full disk"
done
# A command's usage too (it went to a stderr sent to stdout, whose
# error was lost: exit 0).
$FGM help bench >/dev/full 2>"$TMP/err"
[ $? = 1 ] || fail "help bench to a full disk did not exit 1"
expect_err "^fgm: bench: write error on standard output: " "help bench to a full disk"
# ... or to a closed stdout (dup took its number: the usage went to
# stderr, exit 0).
for c in "solve --help" "help run"; do
    $FGM $c >&- 2>"$TMP/err"
    [ $? = 1 ] || fail "$c with stdout closed did not exit 1"
    expect_err "write error on standard output: Bad file descriptor" "$c with stdout closed"
done
# compile --emit-c - to a closed or read-only stdout says so (opening
# /dev/stdout said "Permission denied", "Invalid argument").
$FGM compile models/chain.fgm --emit-c - >&- 2>"$TMP/err"
[ $? = 1 ] || fail "emit-c - with stdout closed did not exit 1"
expect_err "^fgm: compile: write error on standard output: Bad file descriptor$" "emit-c - with stdout closed"
$FGM compile models/chain.fgm --emit-c - 1</dev/null 2>"$TMP/err"
[ $? = 1 ] || fail "emit-c - with stdout read-only did not exit 1"
expect_err "^fgm: compile: write error on standard output: Bad file descriptor$" "emit-c - with stdout read-only"
# ... and with stderr closed, the usage still goes to stdout, exit 0.
"$FGM" solve --help >"$TMP/help.out" 2>&-
[ $? = 0 ] && grep -q "^usage: fgm solve" "$TMP/help.out" \
    || fail "solve --help with stderr closed: $(head -c 200 "$TMP/help.out")"
# A summary or diagnostic that cannot be written on stderr (closed, a
# full disk) turns a success into exit 1: the caller would take the
# silence for success (it exited 0).  A run that writes nothing there
# still succeeds.
"$FGM" solve --solver dlx puzzles/seed003.txt >/dev/null 2>&-
[ $? = 1 ] || fail "solve with stderr closed: the lost summary did not exit 1"
"$FGM" solve --solver dlx puzzles/seed003.txt >/dev/null 2>/dev/full
[ $? = 1 ] || fail "solve with stderr on a full disk: the lost summary did not exit 1"
"$FGM" list >/dev/null 2>&- || fail "list with stderr closed did not exit 0"
# The stand-in for a closed stdout (/dev/null, read-only) is no stdout
# to write -o /dev/null through ("cannot write: Invalid argument").
"$FGM" generate --box 2 --count 1 --seed 1 -o /dev/null >&- 2>"$TMP/err" \
    || fail "generate -o /dev/null with stdout closed: $(cat "$TMP/err")"
# version, like list, takes no arguments.
expect_exit 2 "version extra" -- "$FGM" version extra
expect_err "^usage: fgm version$" "version extra"
# An option the solver would not read is refused, not ignored.
expect_exit 2 "solve --lcv with dlx" -- "$FGM" solve --solver dlx --lcv puzzles/seed003.txt
expect_err "solve: --lcv orders the values of --solver mrv only, not dlx" "solve --lcv with dlx"
expect_exit 2 "solve --cap without --count" -- "$FGM" solve --cap 3 puzzles/seed003.txt
expect_err "solve: --cap N goes with --count" "solve --cap without --count"
expect_exit 2 "solve --iters with norvig" -- "$FGM" solve --solver norvig --iters 5 puzzles/seed003.txt
expect_err "solve: --iters sets the sweeps of the probabilistic solvers; norvig is exact" "solve --iters with norvig"
expect_exit 2 "solve --count with norvig" -- "$FGM" solve --solver norvig --count puzzles/seed003.txt
expect_err "solve: --count needs --solver dlx" "solve --count with norvig"
expect_exit 0 "solve --lcv with mrv" -- "$FGM" solve --solver mrv --lcv puzzles/seed003.txt
# Backend exact is known, only not a probabilistic solver's (it was
# "unknown backend 'exact'").
expect_exit 2 "solve ep-robust --backend exact" -- "$FGM" solve --solver ep-robust --backend exact puzzles/seed003.txt
expect_err "solve: backend exact is the exact solvers'; ep-robust runs on auto, compiled or interpreted" "solve ep-robust --backend exact"
# An unknown backend is called unknown, whatever the solver (with dlx it
# was "runs on backend exact only, not 'bogus'").
expect_exit 2 "solve dlx --backend bogus" -- "$FGM" solve --backend bogus puzzles/seed003.txt
expect_err "solve: unknown backend 'bogus' \(auto, compiled, interpreted, exact\)" "solve dlx --backend bogus"
# "--" ends the options: a file may then start with '-' (it was an
# unknown option '--').
cp puzzles/seed003.txt "$TMP/-p.txt"
(F=$(realpath "$FGM"); cd "$TMP" && "$F" solve -- -p.txt) >"$TMP/out" 2>"$TMP/err" || fail "solve -- -p.txt: exit $?: $(head -c 300 "$TMP/err")"
expect_err "solved=3/3" "solve -- -p.txt"
cp models/dice.fgm "$TMP/-m.fgm"
(F=$(realpath "$FGM"); cd "$TMP" && "$F" dump -- -m.fgm) >"$TMP/out" 2>"$TMP/err" || fail "dump -- -m.fgm: exit $?"
# Two models: the usage, after the reason (it printed the usage alone).
expect_exit 2 "compile two models" -- "$FGM" compile models/dice.fgm models/chain.fgm
expect_err "compile: one model at a time \('models/chain.fgm' after 'models/dice.fgm'\)" "compile two models"
# dump and graph said only the usage.
for c in dump graph; do
    expect_exit 2 "$c two models" -- "$FGM" $c models/dice.fgm models/chain.fgm
    expect_err "$c: one model at a time \('models/chain.fgm' after 'models/dice.fgm'\)" "$c two models"
    expect_err "^usage: fgm $c " "$c two models: the usage too"
done
# fgm run refuses the settings it would ignore: message-passing ones with
# exact marginals, --cap without them (both ran, ignoring them).
expect_exit 2 "run exact --iters" -- "$FGM" run models/chain.fgm --backend exact --iters 5
expect_err "run: --iters has no effect with --backend exact" "run exact --iters"
expect_exit 2 "run exact --damping" -- "$FGM" run models/chain.fgm --backend exact --damping 0.5
expect_exit 2 "run --cap without exact" -- "$FGM" run models/chain.fgm --backend interpreted --cap 10
expect_err "run: --cap caps the assignments of --backend exact" "run --cap without exact"
expect_exit 0 "run exact --cap --algo" -- "$FGM" run models/chain.fgm --backend exact --cap 10 --algo bp-sum
# The usages name every option solve takes, and what --fix reaches.
expect_exit 0 "fgm --help" -- "$FGM" --help
expect_out "--restarts N" "fgm --help names solve --restarts"
expect_exit 0 "solve --help" -- "$FGM" solve --help
expect_out "--fix K \(ep-iterative, bp-decimate, bp-decimate2\)" "solve --help: --fix"
# An exact solver takes no backend, in bench as in solve; dump names an
# unknown option.
expect_exit 2 "bench dlx@compiled" -- "$FGM" bench --solvers dlx@compiled puzzles/seed003.txt
expect_err "dlx is an exact solver" "bench dlx@compiled"
expect_exit 2 "dump --bogus" -- "$FGM" dump --bogus models/dice.fgm
expect_err "dump: unknown option '--bogus'" "dump --bogus"

printf '%s\n%s1\n' "$E" "$E" > "$TMP/len.txt"
expect_exit 1 "wrong length" -- "$FGM" solve "$TMP/len.txt"
expect_err "len.txt:2: error: line has 82 symbols" "wrong length"
[ "$(wc -l < "$TMP/out")" = 1 ] || fail "the puzzle before the bad line is still solved"

# bad_puzzle NAME WHAT PATTERN FORMAT ARGS...: the puzzle file
# $TMP/NAME.txt, printf FORMAT ARGS..., makes `fgm solve` exit 1 with
# "NAME.txt:PATTERN" on stderr.
bad_puzzle() {
    local name=$1 what=$2 pattern=$3
    shift 3
    printf "$@" > "$TMP/$name.txt"
    expect_exit 1 "$what" -- "$FGM" solve "$TMP/$name.txt"
    expect_err "$name.txt:$pattern" "$what"
}

bad_puzzle sym "bad symbol" "1:81: error: bad symbol 'Z'" '%sZ\n' "${E:0:80}"
# A byte outside printable ASCII is named where it stands; it was
# counted as a symbol, so that a UTF-8 byte-order mark or an accented
# letter gave a symbol count that fits no puzzle ("line has 84 symbols").
bad_puzzle bom "byte-order mark" "1:1: error: UTF-8 byte-order mark" '\357\273\277%s\n' "$E"
bad_puzzle utf8 "a UTF-8 letter" "1:81: error: bad byte 0xc3 in a puzzle" '%s\303\251\n' "${E:0:80}"
# Columns count the blanks a line starts with (an indented grid's were
# counted from its first symbol: 'Z' at byte 11 was column 7).
bad_puzzle indent "indented grid, bad symbol" "2:11: error: bad symbol 'Z'" '    1 . | . .\n    . . | Z .\n    ----+----\n    . . | . .\n    . . | . .\n'
bad_puzzle indent1 "indented line, bad symbol" "1:84: error: bad symbol 'Z'" '   %sZ\n' "${E:0:80}"

bad_puzzle dup "repeated clue" "1:3: error: clue 3 repeated in row 1 \\(columns 1 and 3\\)" '3%s\n' "${E:1}"
# In a grid of several lines, the line and column of the second clue (the
# grid's first line was named, with no column).
bad_puzzle dupgrid "repeated clue, boxed grid" "6:2: error: clue 2 repeated in column 2 \\(rows 1 and 4\\)" '# 4x4\n.2 | ..\n.. | ..\n---+---\n.. | ..\n.2 | ..\n'

bad_puzzle short "truncated grid" "2: error: grid ends after 2 of 4 rows" '12..\n....\n'

head -c 300 /dev/urandom > "$TMP/bin.txt"
expect_exit 1 "binary garbage" -- "$FGM" solve "$TMP/bin.txt"

expect_exit 2 "unknown solver" -- "$FGM" solve --solver nope "$TMP/len.txt"
expect_err "unknown solver 'nope'" "unknown solver"
expect_exit 2 "bench: unknown solver" -- "$FGM" bench --solvers dlx,nope "$TMP/len.txt"
expect_err "bench: unknown solver 'nope'" "bench: unknown solver"
expect_exit 2 "bench: unknown backend" -- "$FGM" bench --solvers ep-robust --backends compiled,bogus "$TMP/len.txt"
expect_err "bench: unknown backend 'bogus'" "bench: unknown backend"
# Backend exact is known (fgm list lists it), only not a probabilistic
# solver's, as solve says (it was "unknown backend 'exact'").
expect_exit 2 "bench --backends exact" -- "$FGM" bench --backends exact --solvers ep-robust puzzles/seed003.txt
expect_err "^fgm: bench: backend exact is the exact solvers', which take no --backends; the probabilistic solvers run on auto, compiled or interpreted$" "bench --backends exact"
expect_exit 2 "bench ep-robust@exact" -- "$FGM" bench --solvers ep-robust@exact puzzles/seed003.txt
expect_err "^fgm: bench: backend exact is the exact solvers'; ep-robust runs on auto, compiled or interpreted$" "bench ep-robust@exact"
expect_exit 2 "bench ep-robust@bogus" -- "$FGM" bench --solvers ep-robust@bogus puzzles/seed003.txt
expect_err "^fgm: bench: unknown backend 'bogus' \(auto, compiled, interpreted\)$" "bench ep-robust@bogus"
expect_exit 2 "bench: no solver" -- "$FGM" bench --solvers , "$TMP/len.txt"
expect_exit 2 "bench: no backend" -- "$FGM" bench --solvers dlx --backends '' "$TMP/len.txt"
expect_err "bench: --backends names no backend" "bench: no backend"
# Options without puzzle files say so before the usage (the usage came
# alone); a bare `fgm bench` prints the usage alone, as every command.
expect_exit 2 "bench: no puzzle files" -- "$FGM" bench --solvers dlx
expect_err "^fgm: bench: no puzzle files \(PUZZLES\.\.\.\)$" "bench: no puzzle files"
expect_err "^usage: fgm bench " "bench: no puzzle files, then the usage"
expect_exit 2 "bare bench" -- "$FGM" bench
grep -q "no puzzle files" "$TMP/err" && fail "bare bench: a reason before its usage"
# The other commands with an operand say the same of theirs.
expect_exit 2 "solve: no puzzle files" -- "$FGM" solve --solver dlx
expect_err "^fgm: solve: no puzzle files \(PUZZLES\.\.\.\)$" "solve: no puzzle files"
expect_err "^usage: fgm solve " "solve: no puzzle files, then the usage"
for c in compile run dump graph; do
    expect_exit 2 "$c: no model" -- "$FGM" $c -D N=4
    expect_err "^fgm: $c: no model \(MODEL\)$" "$c: no model"
    expect_err "^usage: fgm $c " "$c: no model, then the usage"
    expect_exit 2 "bare $c" -- "$FGM" $c
    grep -q "no model" "$TMP/err" && fail "bare $c: a reason before its usage"
done
# More solvers (or solver rows) than the table holds: refused, not cut to
# the first 64 without a word.
many=$(printf 'dlx,%.0s' $(seq 65)); many=${many%,}
expect_exit 2 "bench: 65 solvers" -- "$FGM" bench --solvers "$many" "$TMP/len.txt"
expect_err "bench: --solvers names 65 solvers; at most 64" "bench: 65 solvers"
many=$(printf 'ep-robust,%.0s' $(seq 22)); many=${many%,}
expect_exit 2 "bench: 66 solver rows" -- "$FGM" bench --solvers "$many" --backends auto,compiled,interpreted "$TMP/len.txt"
expect_err "bench: more than 64 solver rows" "bench: 66 solver rows"
# '-' as an output file: stdout carries bench's table, and a plugin
# cannot go there; both made a file named '-'.
expect_exit 2 "bench --csv -" -- "$FGM" bench --solvers dlx --csv - "$TMP/len.txt"
expect_err "bench: --csv, --detail and --svg name files" "bench --csv -"
expect_exit 2 "compile -o -" -- "$FGM" compile models/dice.fgm -o -
expect_err "compile: -o names the plugin file" "compile -o -"
[ ! -e ./- ] || fail "a file named '-' was made"
# A row listed twice could not be told apart in the table: refused.
expect_exit 2 "bench: a solver twice" -- "$FGM" bench --solvers dlx,norvig,dlx "$TMP/len.txt"
expect_err "bench: solver row 'dlx' is listed twice" "bench: a solver twice"
expect_exit 2 "bench: a row twice" -- "$FGM" bench --solvers ep-robust@compiled,ep-robust --backends compiled,interpreted "$TMP/len.txt"
expect_err "bench: solver row 'ep-robust@compiled' is listed twice" "bench: a row twice"
expect_exit 2 "bench: a row twice, once without its backend" -- "$FGM" bench --solvers ep-robust,ep-robust@auto "$TMP/len.txt"
expect_err "bench: solver row 'ep-robust@auto' is listed twice" "bench: a row twice, once without its backend"
# A corpus twice is refused; two corpora of one file name are labelled by
# their paths (both rows said hardest.txt).
expect_exit 2 "bench: a corpus twice" -- "$FGM" bench --solvers dlx puzzles/seed003.txt puzzles/seed003.txt
expect_err "bench: corpus 'puzzles/seed003.txt' is listed twice" "bench: a corpus twice"
# An empty name in a list is a slip, refused (a trailing comma passed).
for l in "--solvers dlx," "--solvers ,dlx" "--solvers dlx,,mac" "--solvers dlx --backends compiled,"; do
    expect_exit 2 "bench $l" -- "$FGM" bench $l puzzles/seed003.txt
    expect_err "bench: --(solvers|backends) has an empty name" "bench $l"
done
expect_exit 2 "bench: a corpus under two names" -- "$FGM" bench --solvers dlx puzzles/seed003.txt ./puzzles/seed003.txt
expect_err "bench: corpora 'puzzles/seed003.txt' and './puzzles/seed003.txt' are one file" "bench: a corpus under two names"
mkdir -p "$TMP/other"
cp puzzles/seed003.txt "$TMP/other/seed003.txt"
expect_exit 0 "bench: two corpora of one name" -- "$FGM" bench --solvers dlx puzzles/seed003.txt "$TMP/other/seed003.txt"
expect_out "^puzzles/seed003.txt " "bench: two corpora of one name, the first"
expect_out "^$TMP/other/seed003.txt " "bench: two corpora of one name, the second"
expect_exit 2 "bench: a backend twice" -- "$FGM" bench --solvers ep-robust --backends compiled,compiled "$TMP/len.txt"
expect_err "bench: backend 'compiled' is listed twice" "bench: a backend twice"
expect_exit 2 "unknown command" -- "$FGM" frobnicate
expect_exit 2 "no arguments" -- "$FGM"
expect_exit 2 "bad -j" -- "$FGM" solve -j 0 "$TMP/len.txt"
expect_exit 2 "missing option value" -- "$FGM" solve --timeout-ms
expect_exit 2 "unknown option" -- "$FGM" solve --frob x
expect_exit 2 "bad model spec" -- "$FGM" dump sudoku:9
expect_exit 1 "model file missing" -- "$FGM" dump /nonexistent/m.fgm
expect_err "/nonexistent/m.fgm: error: cannot open" "model file missing"

# A Latin model refuses nothing, DLX refuses a model it cannot cover: none
# of the built-ins, so check the wrong puzzle size for a given model.
expect_exit 1 "puzzle size against model" -- "$FGM" solve --model sudoku:2 "$TMP/len.txt"
expect_err "len.txt:1: error: line has 81 symbols; expected 16" "size vs model"

# A model whose grid is larger than 25x25: refused, never read past the
# puzzle buffer (found by fuzzing: it exited 0 with a corrupt count).
printf '%036d\n' 0 > "$TMP/p36.txt"
expect_exit 1 "36x36 model" -- "$FGM" solve --solver backtrack --model models/sudoku.fgm -D B=6 "$TMP/p36.txt"
expect_err "p36.txt: error: puzzles of side 36 are not supported; the largest is 25x25" "36x36 model"
# A report or puzzle file that cannot be written is refused before the
# run (a bench of minutes, 25x25 puzzles) and nothing is solved: it used
# to fail only once everything had run.  A folder, a missing folder, a
# file where a folder should be, two reports to one file (the last would
# win); /dev/stdout is written through, so it still goes.  /proc takes
# no new file, though access() lets root write there (the check made a
# root run the whole bench first).
printf '%s\n' "$E" > "$TMP/one.txt"
: > "$TMP/plain"
procs=
[ -d /proc/self ] && procs=/proc/fgm-r.csv
for out in "$TMP" "$TMP/none/r.csv" "$TMP/plain/r.csv" $procs; do
    expect_exit 1 "bench --csv $out" -- "$FGM" bench --solvers dlx --csv "$out" "$TMP/one.txt"
    expect_err "^$out: error: cannot write: " "bench --csv $out"
    [ ! -s "$TMP/out" ] || fail "bench --csv $out ran before refusing: $(head -c 200 "$TMP/out")"
    expect_exit 1 "generate -o $out" -- "$FGM" generate --box 2 -o "$out"
    expect_err "^$out: error: cannot write: " "generate -o $out"
    [ "$(grep -c error "$TMP/err")" = 1 ] || fail "generate -o $out: one message: $(head -c 300 "$TMP/err")"
done
expect_exit 2 "bench: two reports, one file" -- "$FGM" bench --solvers dlx --csv "$TMP/r" --svg "$TMP/r" "$TMP/one.txt"
expect_err "bench: --csv, --detail and --svg name the same file" "bench: two reports, one file"
expect_exit 2 "bench: two reports, one new file, two paths" -- "$FGM" bench --solvers dlx --csv "$TMP/r2" --detail "$TMP/./r2" "$TMP/one.txt"
expect_err "bench: --csv, --detail and --svg name the same file" "bench: two reports, one new file, two paths"
# A report naming a corpus would replace the puzzles (exit 0).
cp "$TMP/one.txt" "$TMP/keep.txt"
for opt in --csv --detail --svg; do
    expect_exit 2 "bench: $opt names a corpus" -- "$FGM" bench --solvers dlx $opt "$TMP/./keep.txt" "$TMP/keep.txt"
    expect_err "bench: report '$TMP/./keep.txt' names the corpus '$TMP/keep.txt'" "bench: $opt names a corpus"
    cmp -s "$TMP/one.txt" "$TMP/keep.txt" || fail "bench: $opt names a corpus: the corpus was written"
done
expect_exit 0 "bench --csv /dev/stdout" -- "$FGM" bench --solvers dlx --csv /dev/stdout "$TMP/one.txt"
expect_out "^corpus,solver,status" "bench --csv /dev/stdout"
expect_exit 0 "generate -o /dev/stdout" -- "$FGM" generate --box 2 -o /dev/stdout
expect_out "^# fgm generate" "generate -o /dev/stdout"
# A link to a file not made yet is written through, making the file (it
# was refused as "No such file or directory").
ln -s "$TMP/made.csv" "$TMP/link.csv"
expect_exit 0 "bench --csv a link to a new file" -- "$FGM" bench --solvers dlx --csv "$TMP/link.csv" "$TMP/one.txt"
grep -q "^corpus,solver,status" "$TMP/made.csv" || fail "bench --csv a link: the CSV did not reach the link's target"
[ -L "$TMP/link.csv" ] || fail "bench --csv a link: the link was replaced"
# ... but not one into a folder that does not exist (absolute or relative
# to the link's folder): refused before the run, as a plain path is.
ln -s /nonexistent/dir/x.csv "$TMP/nowhere.csv"
mkdir -p "$TMP/sub"
ln -s ../nofolder/x.csv "$TMP/sub/rel.csv"
ln -s ../made2.csv "$TMP/sub/rel2.csv"
for l in "$TMP/nowhere.csv" "$TMP/sub/rel.csv"; do
    expect_exit 1 "bench --csv a link into no folder" -- "$FGM" bench --solvers dlx --csv "$l" "$TMP/one.txt"
    expect_err "^$l: error: cannot write: No such file or directory" "bench --csv a link into no folder"
    [ ! -s "$TMP/out" ] || fail "bench --csv a link into no folder: the run went ahead"
done
expect_exit 0 "bench --csv a relative link" -- "$FGM" bench --solvers dlx --csv "$TMP/sub/rel2.csv" "$TMP/one.txt"
[ -s "$TMP/made2.csv" ] || fail "bench --csv a relative link: the CSV did not reach its target"
# A link to a file that exists: its file is replaced as a plain path's
# is, the link kept.  Written through, it was truncated first, and a
# write error (here a file size limit, SIGXFSZ ignored; a full disk, an
# interrupt) lost what it held for half a file.
echo "precious content" > "$TMP/kept.txt"
ln -s kept.txt "$TMP/sub/../kept.lnk"
(trap '' XFSZ; ulimit -f 8; exec "$FGM" generate --box 3 --count 200 -o "$TMP/kept.lnk") >/dev/null 2>"$TMP/err" \
    && fail "generate -o a link past the file size limit succeeded"
expect_err "^$TMP/kept.lnk: error: cannot write: File too large" "generate -o a link, write error: names the link"
[ "$(cat "$TMP/kept.txt")" = "precious content" ] || fail "generate -o a link, write error: the file it names was cut: $(head -c 100 "$TMP/kept.txt")"
[ -z "$(ls "$TMP" | grep 'kept\.txt\.tmp\.')" ] || fail "generate -o a link, write error: a temporary left: $(ls "$TMP")"
# ... but not /dev/stderr (a link to the log that `2>>` opened): the
# log, replaced, lost every later line of fgm and of its shell.
( "$FGM" generate --box 2 --count 1 -o /dev/stderr; echo after >&2 ) 2>>"$TMP/err.log"
grep -q "^fgm: generated=1 " "$TMP/err.log" && grep -q "^after$" "$TMP/err.log" \
    || fail "generate -o /dev/stderr into a 2>> log: $(cat "$TMP/err.log")"
expect_exit 0 "generate -o a link" -- "$FGM" generate --box 2 --count 2 -o "$TMP/kept.lnk"
[ -L "$TMP/kept.lnk" ] || fail "generate -o a link: the link was replaced"
grep -q "^# fgm generate" "$TMP/kept.txt" || fail "generate -o a link: the file it names was not written"

# A read error part way through a line (strace makes the file's second
# read fail; its lines of 82 bytes never end on a stdio buffer's edge) is
# one read error on that line: the part read was taken for a malformed
# line ("line has 78 symbols").  Skipped without a working strace.
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
    for i in 1 2 3 4 5 6 7 8 9 10; do
        grep -v '^#' puzzles/seed002_top95.txt | grep .
    done > "$TMP/many.txt"
    # nth_read ARGS...: which read() of the run is the file's second.
    nth_read() {
        ASAN_OPTIONS=detect_leaks=0 strace -f -o "$TMP/trace" \
            -e trace=openat,read "$FGM" "$@" >/dev/null 2>&1
        awk '/ read\(/ { n++ }
             /openat\(.*many\.txt"/ { fd = $NF; k = 0; next }
             fd != "" && index($0, "read(" fd ",") && ++k == 2 { print n; exit }' "$TMP/trace"
    }
    for args in "solve --solver dlx" "solve --solver dlx -j 2" \
                "solve --solver dlx --count" "bench --solvers dlx"; do
        n=$(nth_read $args "$TMP/many.txt")
        # (LeakSanitizer cannot run under ptrace: off for a sanitized fgm.)
        expect_exit 1 "read error mid-line, $args" -- env ASAN_OPTIONS=detect_leaks=0 \
            strace -f -o /dev/null -e trace=read -e inject=read:error=EIO:when=$n \
            $FGM $args "$TMP/many.txt"
        expect_err "many.txt:[0-9]+: error: read error: Input/output error" "read error mid-line, $args"
        [ "$(grep -c 'error' "$TMP/err")" = 1 ] || fail "read error mid-line, $args: one message: $(head -c 300 "$TMP/err")"
    done
else
    echo "skip: read errors mid-line (no working strace)" >&2
fi

# Out of memory (address space capped): exit 3 and "out of memory", or
# the run goes through -- never exit 1 (the solver's workspace failing
# for want of memory read as a model it cannot run: "could not be
# prepared"), never a crash.  Limits too low for the loader to map the
# libraries (exit 127) are passed over; so is a sanitized fgm, whose
# shadow memory needs far more than these (the probe's ASan report goes
# to its discarded stderr, not to make cli-asan's report files).
if (ulimit -v 200000 &&
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=stderr" \
        "$FGM" list >/dev/null 2>&1); then
    for v in 8000 10000 12000 14000 16000 20000; do
        # auto with no compiler: the notes of the fallback come first,
        # then the workspace runs out (it was read as an unsupported
        # model when the runner counted diagnostics).
        for s in "dlx" "alldiff-max --backend interpreted" \
                 "alldiff-max --backend auto --out-dir $TMP/oomgen"; do
            (ulimit -v $v; CC=/nonexistent exec "$FGM" solve --solver $s puzzles/seed003.txt) >"$TMP/out" 2>"$TMP/err"
            rc=$?
            case $rc in
            0|127) ;;
            3) expect_err "out of memory" "$s under ulimit -v $v" ;;
            *) fail "$s under ulimit -v $v: exit $rc: $(head -c 300 "$TMP/err")" ;;
            esac
        done
    done
    # A solver that runs out of memory mid-search (bp-backtrack keeps
    # every level's messages: 16x16 grids outgrow 300 MB) fails the run,
    # exit 3, as in bench; solve printed those puzzles unsolved, exit 0,
    # the search cut at node 65 of 301.
    grep -v '^#' puzzles/generated_16x16.txt | head -2 > "$TMP/g16.txt"
    (ulimit -v 300000; exec "$FGM" solve --solver bp-backtrack --backend interpreted --csv "$TMP/g16.txt") >"$TMP/out" 2>"$TMP/err"
    rc=$?
    case $rc in
    3) expect_err "solve: puzzle 1: solver bp-backtrack: out of memory" "bp-backtrack out of memory" ;;
    0) [ "$(awk -F, 'NR > 1 && $7 != 301' "$TMP/out")" = "" ] \
           || fail "bp-backtrack under ulimit -v 300000: exit 0 with its search cut short: $(cat "$TMP/out")" ;;
    *) fail "bp-backtrack under ulimit -v 300000: exit $rc: $(head -c 300 "$TMP/err")" ;;
    esac
    # Out of memory is said, whatever the command (run exited 1 in
    # silence when the model's state did not fit; compile said only "no
    # plugin"; dump lost its front end's message, which needed memory to
    # be formatted, and exited 3 in silence).
    # Limits where the loader itself cannot run (exit 127) or where the
    # run fits (exit 0) vary by machine and are passed over; exit 1, or 3
    # without the message, fails.
    # oom_check WHAT WANT LIMITS CMD...: CMD under each limit of LIMITS.
    oom_check() {
        local what=$1 want=$2 limits=$3 v rc
        shift 3
        for v in $limits; do
            (ulimit -v $v; exec "$@") >/dev/null 2>"$TMP/err"
            rc=$?
            case $rc in
            0|127) ;;
            3) grep -q "$want" "$TMP/err" \
                   || fail "$what under ulimit -v $v: exit 3, no message" ;;
            *) fail "$what under ulimit -v $v: exit $rc: $(head -c 300 "$TMP/err")" ;;
            esac
        done
    }
    printf 'const N = 1048577\nvar x[N] in 0..2\nx[i] != x[i+1] for i in 0..N-2\n' > "$TMP/neqbig.fgm"
    oom_check dump "neqbig.fgm: error: out of memory" "30000 60000 90000" \
        "$FGM" dump "$TMP/neqbig.fgm"
    oom_check run "run: out of memory" "12000 16000 20000 24000 28000 32000" \
        "$FGM" run models/sudoku.fgm -D B=5 --backend interpreted
else
    echo "skip: out of memory (fgm does not run under ulimit -v 200000)" >&2
fi

# compile and run: every option that takes a value says when it has none;
# unknown options, algorithms, formats and backends are named; "--" ends
# the options; a model with errors stops both with exit 1, writing
# nothing.
for o in --algo --emit-c --out-dir -D -o; do
    expect_exit 2 "compile $o without a value" -- "$FGM" compile models/dice.fgm $o
    expect_err "^fgm: compile: option $o needs a value$" "compile $o without a value"
done
# An empty -o names no file: a usage error that says so (it reached the
# writer, which said only ": error: cannot write: No such file or
# directory", and exit 1).
expect_exit 2 "compile -o ''" -- "$FGM" compile models/dice.fgm -o ''
expect_err "^fgm: compile: -o wants a file name, not an empty one$" "compile -o ''"
expect_exit 2 "compile -o=" -- "$FGM" compile models/dice.fgm -o=
expect_err "^fgm: compile: -o wants a file name, not an empty one$" "compile -o="
expect_exit 2 "generate -o ''" -- "$FGM" generate --box 2 -o ''
expect_err "^fgm: generate: -o wants a file name, not an empty one$" "generate -o ''"
# Options without --box: what is missing is said (the usage alone was).
expect_exit 2 "generate without --box" -- "$FGM" generate --count 2
expect_err "^fgm: generate: no box side \(--box B\)$" "generate without --box"
# So do an empty --emit-c, --observe ('-' is standard input there, '' is
# nothing) and bench's --csv, --detail and --svg: each failed at its open
# or write with exit 1 and ": error: cannot write: No such file or
# directory" (--observe: "cannot open"), naming neither option nor file.
expect_exit 2 "compile --emit-c ''" -- "$FGM" compile models/dice.fgm --emit-c ''
expect_err "^fgm: compile: --emit-c wants a file name, not an empty one$" "compile --emit-c ''"
expect_exit 2 "compile --emit-c= -o" -- "$FGM" compile models/dice.fgm --emit-c= -o "$TMP/emit-empty.so"
expect_err "^fgm: compile: --emit-c wants a file name, not an empty one$" "compile --emit-c= -o"
[ ! -e "$TMP/emit-empty.so" ] || fail "compile --emit-c= -o built the plugin"
expect_exit 2 "run --observe ''" -- "$FGM" run models/dice.fgm --observe ''
expect_err "^fgm: run: --observe wants a file name, not an empty one$" "run --observe ''"
expect_exit 2 "run --observe=" -- "$FGM" run models/dice.fgm --observe=
expect_err "^fgm: run: --observe wants a file name, not an empty one$" "run --observe="
for o in --csv --detail --svg; do
    expect_exit 2 "bench $o ''" -- "$FGM" bench --solvers dlx $o '' puzzles/seed003.txt
    expect_err "^fgm: bench: $o wants a file name, not an empty one$" "bench $o ''"
    [ ! -s "$TMP/out" ] || fail "bench $o '': ran the bench"
done
expect_exit 2 "bench --svg=" -- "$FGM" bench --solvers dlx --svg= puzzles/seed003.txt
expect_err "^fgm: bench: --svg wants a file name, not an empty one$" "bench --svg="
# An empty puzzle file name too (it was opened: exit 1, ": error: cannot
# open: No such file or directory"), and before anything runs.
expect_exit 2 "solve ''" -- "$FGM" solve puzzles/seed003.txt ''
expect_err "^fgm: solve: PUZZLES wants a file name, not an empty one$" "solve ''"
[ ! -s "$TMP/out" ] || fail "solve '': solved the first file"
expect_exit 2 "bench ''" -- "$FGM" bench --solvers dlx puzzles/seed003.txt ''
expect_err "^fgm: bench: PUZZLES wants a file name, not an empty one$" "bench ''"
expect_exit 2 "compile --bogus" -- "$FGM" compile models/dice.fgm --bogus
expect_err "^fgm: compile: unknown option '--bogus'$" "compile --bogus"
expect_exit 2 "compile --algo bogus" -- "$FGM" compile models/dice.fgm --algo bogus --emit-c "$TMP/bogus.c"
expect_err "^fgm: compile: unknown algorithm 'bogus' \(ep, bp-sum, bp-max, gibbs, vmp\)$" "compile --algo bogus"
[ ! -e "$TMP/bogus.c" ] || fail "compile --algo bogus wrote its C"
expect_exit 0 "compile -- MODEL" -- "$FGM" compile --emit-c "$TMP/dashdash.c" -- models/dice.fgm
[ -s "$TMP/dashdash.c" ] || fail "compile -- MODEL: no C written"
expect_exit 2 "compile -- MODEL --emit-c" -- "$FGM" compile -- models/dice.fgm --emit-c "$TMP/x.c"
expect_err "compile: one model at a time \('--emit-c' after 'models/dice.fgm'\)" "after --, an option is a second model"
printf 'model bad\nvar x[2] in 0..1\nalldiff y\n' > "$TMP/bad.fgm"
expect_exit 1 "compile a model with an error" -- "$FGM" compile "$TMP/bad.fgm" --emit-c "$TMP/bad.c"
expect_err "bad.fgm:3:9: error: unknown array 'y'" "compile a model with an error"
[ ! -e "$TMP/bad.c" ] || fail "compile of a bad model wrote its C"
# 64 -D is the most (both commands exit 2 and say why; compile printed
# its usage alone).
defs=$(for i in $(seq 65); do printf -- '-D A%d=1 ' "$i"; done)
# shellcheck disable=SC2086  # defs is a word list on purpose
expect_exit 2 "compile with 65 -D" -- "$FGM" compile models/dice.fgm $defs
expect_err "^fgm: compile: too many -D$" "compile with 65 -D"
# shellcheck disable=SC2086
expect_exit 2 "run with 65 -D" -- "$FGM" run models/dice.fgm $defs
expect_err "^fgm: run: too many -D$" "run with 65 -D"

for o in --backend --observe --format --algo --out-dir --iters --damping --tolerance --cap --timeout-ms -D; do
    expect_exit 2 "run $o without a value" -- "$FGM" run models/chain.fgm $o
    expect_err "^fgm: run: option $o needs a value$" "run $o without a value"
done
# An empty --out-dir names no folder: a usage error (run, compile and solve
# took it for the current one and wrote their plugins there).
F=$(realpath "$FGM")
for c in run compile solve; do
    case $c in
    solve) args=(--solver ep-robust "$PWD/puzzles/seed000.txt") ;;
    *) args=("$PWD/models/dice.fgm") ;;
    esac
    mkdir "$TMP/cwd-$c"
    (cd "$TMP/cwd-$c" && exec "$F" $c "${args[@]}" --out-dir '') >"$TMP/out" 2>"$TMP/err"
    rc=$?
    [ $rc = 2 ] || fail "$c --out-dir '': exit $rc, want 2; stderr: $(head -c 300 "$TMP/err")"
    expect_err "^fgm: $c: --out-dir wants a folder name, not an empty one$" "$c --out-dir ''"
    [ -z "$(ls -A "$TMP/cwd-$c")" ] || fail "$c --out-dir '' wrote into the current folder: $(ls -A "$TMP/cwd-$c")"
done
bad_run() {     # PATTERN ARGS...: exit 2, stderr matching PATTERN
    local pattern=$1
    shift
    expect_exit 2 "run $*" -- "$FGM" run models/chain.fgm "$@"
    expect_err "$pattern" "run $*"
}
bad_run "^fgm: run: --iters wants an integer in 1\.\.1000000, not '0'$" --iters 0
bad_run "^fgm: run: --iters wants an integer in 1\.\.1000000, not '5x'$" --iters 5x
bad_run "^fgm: run: --damping wants 0 <= d < 1, not '-0\.5'$" --damping -0.5
bad_run "^fgm: run: --damping wants 0 <= d < 1, not '1'$" --damping 1
bad_run "^fgm: run: --tolerance wants a number >= 0, not '-1'$" --tolerance -1
bad_run "^fgm: run: --damping wants 0 <= d < 1, not '1e400'$" --damping 1e400
bad_run "^fgm: run: --damping wants 0 <= d < 1, not 'nan'$" --damping nan
# Underflow is a number: it said ">= 0, not '1e-400'".  One that rounds to
# 0 keeps its sign, as the smallest double: --timeout-ms 1e-400 is a
# deadline, every puzzle timed out (it was 0, no timeout, all solved).
expect_exit 0 "run --damping 1e-400" -- "$FGM" run models/chain.fgm --backend interpreted --damping 1e-400
expect_exit 0 "solve --timeout-ms 1e-400" -- "$FGM" solve --timeout-ms 1e-400 puzzles/seed003.txt
expect_err "solved=0/3 .*timeouts=3 " "solve --timeout-ms 1e-400"
bad_run "^fgm: run: --tolerance wants a number >= 0, not '-1e-400'$" --tolerance -1e-400
bad_run "^fgm: run: --cap wants an integer in 1\.\.1000000000000, not '0'$" --backend exact --cap 0
bad_run "^fgm: run: --timeout-ms wants a number >= 0, not 'soon'$" --timeout-ms soon
# Decimal only, as the integer options (strtod took "0x10" as 16 and
# "inf" as no bound at all).
bad_run "^fgm: run: --timeout-ms wants a number >= 0, not '0x10'$" --timeout-ms 0x10
bad_run "^fgm: run: --tolerance wants a number >= 0, not 'inf'$" --tolerance inf
bad_run "^fgm: run: unknown format 'xml' \(text, csv, json\)$" --format xml
bad_run "^fgm: run: unknown backend 'gpu' \(auto, compiled, interpreted, exact\)$" --backend gpu
bad_run "^fgm: run: unknown algorithm 'bogus' \(ep, bp-sum, bp-max, gibbs, vmp\)$" --algo bogus
bad_run "^fgm: run: unknown option '--bogus'$" --bogus
bad_run "^fgm: run: one model at a time \('models/dice\.fgm' after 'models/chain\.fgm'\)$" models/dice.fgm
bad_run "^fgm: run: one model at a time \('--backend' after 'models/chain\.fgm'\)$" -- --backend exact
expect_exit 0 "run -- MODEL" -- "$FGM" run --backend exact -- models/chain.fgm
expect_out "^x\[0\] 0\.7 0\.2 0\.1$" "run -- MODEL"
expect_exit 1 "run a model with an error" -- "$FGM" run "$TMP/bad.fgm" --backend interpreted
expect_err "bad.fgm:3:9: error: unknown array 'y'" "run a model with an error"
[ ! -s "$TMP/out" ] || fail "run of a bad model printed: $(head -c 300 "$TMP/out")"


# A path longer than the 1024-byte message buffer (25 folders of 200
# bytes) is said whole, with what went wrong after it: the message was cut
# inside the path, reason and all.
deep=/nonexistent
for i in $(seq 25); do deep="$deep/$(printf '%0200d' 0)"; done
expect_exit 1 "dump a model at a 5000-byte path" -- "$FGM" dump "$deep/m.fgm"
expect_err "/m\.fgm: error: cannot open: " "dump a model at a 5000-byte path"
expect_exit 1 "compile --emit-c to a 5000-byte path" -- "$FGM" compile models/chain.fgm --emit-c "$deep/m.c"
expect_err "^$deep/m\.c: error: cannot write: [^/]*$" "compile --emit-c to a 5000-byte path"
# So is a plugin's fallback reason (it was cut at 1024 bytes too): a
# --out-dir 3000 bytes deep in folders that exist, its last name a file.
far=$TMP/far
for i in $(seq 15); do far="$far/$(printf '%0200d' 0)"; done
mkdir -p "$far" && : > "$far/plug"
expect_exit 0 "run --out-dir at a 3000-byte path" -- "$FGM" run models/chain.fgm --out-dir "$far/plug"
expect_err "/plug/: cannot write: Not a directory; interpreting$" "run --out-dir at a 3000-byte path"
# ... and a reason about a path that long: a --out-dir 41 bytes short of
# PATH_MAX holds the build folder and its C file, not the C file's
# temporary, and the reason names the C file whole (it named the
# temporary too, and what followed was kept in 512 bytes).
pm=$(getconf PATH_MAX "$TMP")
near=$TMP/near
while [ ${#near} -lt $((pm - 250)) ]; do near="$near/$(printf '%0200d' 0)"; done
near="$near/$(printf "%0$((pm - 42 - ${#near}))d" 0)"
mkdir -p "$near"
expect_exit 0 "run --out-dir near PATH_MAX" -- "$FGM" run models/chain.fgm --out-dir "$near"
expect_err "/chain\.bp-sum\.c: cannot write: [^/]*; interpreting$" "run --out-dir near PATH_MAX"
# fgm compile -o kept its build's reason in 1024 bytes too: an -o 3000
# bytes deep that names a folder lost ": cannot write: not a regular
# file" (one through a file failed before the build, whole).  A folder
# is now refused before anything is written (the --emit-c C was left
# behind the failed command), and said whole as other write errors are.
mkdir "$far/plug.so"
expect_exit 1 "compile -o a folder at a 3000-byte path" -- "$FGM" compile models/chain.fgm -o "$far/plug.so" --emit-c "$far/plug.c"
expect_err "/plug\.so: error: cannot write: Is a directory$" "compile -o a folder at a 3000-byte path"
[ ! -e "$far/plug.c" ] || fail "compile -o a folder at a 3000-byte path wrote the --emit-c C"
# A stand-in C compiler that fails as gcc does on the C file: its "In
# function" line, then the line $DIAG, both about the file.
cat > "$TMP/diagcc" <<'EOS'
#!/bin/sh
for a; do case $a in *.c) c=$a ;; esac; done
echo "$c: In function 'sweep':" >&2
echo "$c$DIAG" >&2
exit 1
EOS
chmod +x "$TMP/diagcc"
# A compiler's error about the C file in a build folder 3000 bytes deep:
# 4096 bytes of its output held the "In function" line and no error,
# and the line quoted was cut at 512 bytes, inside the path.
expect_exit 0 "a compiler's error about a 3000-byte path" -- env CC="$TMP/diagcc" DIAG=":202:1: error: made-up failure" "$FGM" run models/chain.fgm --out-dir "$far/cc"
expect_err "failed \(exit status 1\): \.\.\.[0/]*/cc/chain\.bp-sum\.so\.tmp\.[^/]*/chain\.bp-sum\.c:202:1: error: made-up failure; interpreting$" "a compiler's error about a 3000-byte path"

# A build folder under a path with "error" in it: the line quoted was
# the first with the word anywhere, gcc's "In function" line about the
# C file, not the error after it.
mkdir "$TMP/errorlogs"
for d in ":202:1: error: made-up failure" \
         ":1:10: fatal error: made-up.h: No such file or directory"; do
    expect_exit 0 "a compiler's '$d' under errorlogs/" -- env CC="$TMP/diagcc" DIAG="$d" "$FGM" run models/chain.fgm --out-dir "$TMP/errorlogs/p"
    expect_err "failed \(exit status 1\): [^ ]*/errorlogs/p/chain\.bp-sum\.so\.tmp\.[^/]*/chain\.bp-sum\.c$d; interpreting$" "a compiler's '$d' under errorlogs/"
done

# A line longer than the 511 bytes quoted kept only its end after
# "...", without the "FILE:LINE:COL: error:" that says where, and could
# start that end inside a UTF-8 character (gcc's quotes): at each of three
# offsets the start stays, up to "error:", and the end is whole UTF-8.
q=$(printf '\342\200\230')
long=
for i in $(seq 200); do long="$long$q"; done
mkdir "$TMP/utf"
for pad in "" . ..; do
    d=":202:1: error: made-up $long$pad end"
    expect_exit 0 "a compiler's 600-byte line ($pad)" -- env CC="$TMP/diagcc" DIAG="$d" "$FGM" run models/chain.fgm --out-dir "$TMP/utf"
    expect_err "failed \(exit status 1\): [^ ]*/utf/chain\.bp-sum\.so\.tmp\.[^/]*/chain\.bp-sum\.c:202:1: error:\.\.\.[^ ]*$pad end; interpreting$" "a compiler's 600-byte line ($pad)"
    iconv -f UTF-8 -t UTF-8 "$TMP/err" > /dev/null 2>&1 || fail "a compiler's 600-byte line ($pad): not UTF-8"
done

# A bad option value is one line, as solve and run say it: bench added
# its whole usage after it.
for opt in "--repeat 0" "--seed -1" "--timeout-ms -5"; do
    # shellcheck disable=SC2086  # opt is an option and its value
    expect_exit 2 "bench $opt" -- "$FGM" bench $opt puzzles/seed000.txt
    expect_err "^fgm: bench: ${opt%% *} wants " "bench $opt"
    [ "$(wc -l < "$TMP/err")" = 1 ] || fail "bench $opt: more than its line: $(head -c 300 "$TMP/err")"
done
finish
