# tests/cli/batch.sh: -j N keeps input order and gives the same answers.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
P="$SHARED/puzzles"
head -n 2000 "$P/sudoku17.txt" > "$TMP/b.txt"
cat "$P/top95.txt" >> "$TMP/b.txt"
"$FGM" solve --solver dlx -j 1 "$TMP/b.txt" > "$TMP/j1" 2>/dev/null || fail "-j 1"
"$FGM" solve --solver dlx -j 4 "$TMP/b.txt" > "$TMP/j4" 2>"$TMP/err" || fail "-j 4"
cmp -s "$TMP/j1" "$TMP/j4" || fail "-j 4 output differs from -j 1"
grep -q "solved=2095/2095" "$TMP/err" || fail "-j 4 solves all: $(cat "$TMP/err")"
"$FGM" solve --solver norvig -j 3 "$TMP/b.txt" > "$TMP/n3" 2>/dev/null || fail "norvig -j 3"
cmp -s "$TMP/j1" "$TMP/n3" || fail "norvig answers differ from dlx"
# Workers are made as the puzzles read give them work: -j 256 on one
# puzzle makes one (it made 256 workspaces and threads, out of memory
# under ulimit -v 400000; 5.7 GB for one 25x25 puzzle with ep-hybrid2).
# Not where fgm cannot run under the limit at all (a sanitized build,
# whose probe report goes to its discarded stderr, not to make
# cli-asan's report files).
head -1 "$P/easy50.txt" > "$TMP/one.txt"
if (ulimit -v 200000 &&
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=stderr" \
        "$FGM" list >/dev/null 2>&1); then
    (ulimit -v 400000; exec "$FGM" solve -j 256 --solver dlx "$TMP/one.txt") >"$TMP/out" 2>"$TMP/err" \
        || fail "-j 256 on one puzzle under ulimit -v 400000: exit $?: $(head -c 300 "$TMP/err")"
    grep -q "solved=1/1" "$TMP/err" || fail "-j 256 on one puzzle: $(cat "$TMP/err")"
fi
# -j is a bound: where no more threads fit (8 MB of stack each, set
# here, under ulimit -v 100000), the workers running finish the batch,
# and it says so (it stopped, out of memory, after a few hundred
# puzzles).
if (ulimit -s 8192 && ulimit -v 100000 &&
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=stderr" \
        "$FGM" list >/dev/null 2>&1); then
    (ulimit -s 8192; ulimit -v 100000; exec "$FGM" solve -j 64 --solver dlx "$TMP/b.txt") >"$TMP/j64" 2>"$TMP/err" \
        || fail "-j 64 under ulimit -v 100000: exit $?: $(head -c 300 "$TMP/err")"
    cmp -s "$TMP/j1" "$TMP/j64" || fail "-j 64 under ulimit -v 100000: output differs from -j 1"
    grep -q "solved=2095/2095" "$TMP/err" || fail "-j 64 under ulimit -v 100000: $(cat "$TMP/err")"
    grep -Eq -- "-j 64: [0-9]+ workers?, no room for more" "$TMP/err" \
        || fail "-j 64 under ulimit -v 100000: no word of the workers it could not start: $(head -c 300 "$TMP/err")"
fi

# A program that writes one puzzle, then waits for its answer (or a
# terminal, a line at a time) gets each answer before it writes the
# next: the reader filled a 512-puzzle chunk first, and both sides
# waited for good.  Each read below gives up after 20 s.
# Shapes a puzzle Q is sent in: one line; one line and a blank line, or a
# comment (read as ready, and the read after them waited with the puzzle
# unanswered); nine rows and a blank line; a boxed grid, its bottom rule
# last.
shape_line() { echo "$1"; }
shape_blank() { printf '%s\n\n' "$1"; }
shape_comment() { printf '%s\n# next\n' "$1"; }
shape_rows() {
    local r
    for r in 0 1 2 3 4 5 6 7 8; do echo "${1:r*9:9}"; done
    echo
}
shape_boxed() {
    local r c row
    for r in 0 1 2 3 4 5 6 7 8; do
        [ $((r % 3)) = 0 ] && echo "+-------+-------+-------+"
        row="|"
        for c in 0 1 2 3 4 5 6 7 8; do
            row="$row ${1:r*9+c:1}"
            [ $((c % 3)) = 2 ] && row="$row |"
        done
        echo "$row"
    done
    echo "+-------+-------+-------+"
}
# interactive SHAPE HEADER ARGS...: three puzzles of easy50 through a
# coprocess, sent as SHAPE says, their answers in $TMP/inter (after a
# header line when HEADER is 1: --csv's).
interactive() {
    local shape=$1 header=$2 q line n=0 got="" pid
    shift 2
    coproc CO { exec "$FGM" solve "$@" - 2>/dev/null; }
    pid=$CO_PID     # bash unsets CO_PID once the coprocess has ended
    for q in $(head -n 3 "$P/easy50.txt"); do
        "shape_$shape" "$q" >&"${CO[1]}"
        if [ "$n" = 0 ] && [ "$header" = 1 ]; then
            IFS= read -r -t 20 -u "${CO[0]}" line || break
        fi
        IFS= read -r -t 20 -u "${CO[0]}" line || break
        n=$((n + 1))
        got="$got$line
"
    done
    exec {CO[1]}>&-
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    [ "$n" = 3 ] || fail "solve $*, a puzzle at a time, $shape: $n of 3 answers came"
    printf '%s' "$got" >"$TMP/inter"
}
head -n 3 "$P/easy50.txt" | "$FGM" solve --solver dlx - >"$TMP/piped" 2>/dev/null
for shape in line blank comment rows boxed; do
    interactive $shape 0 --solver dlx
    cmp -s "$TMP/inter" "$TMP/piped" || fail "solve --solver dlx, a puzzle at a time, $shape: other answers than piped at once"
done
interactive line 1 --csv --solver ep-robust -j 2
grep -c '^[0-2],ep-robust,' "$TMP/inter" | grep -qx 3 \
    || fail "solve --csv --solver ep-robust -j 2, a puzzle at a time: $(cat "$TMP/inter")"
# A file, then standard input that must be waited for: the file's
# answers come before the wait (they came once stdin closed).
head -n 2 "$P/easy50.txt" > "$TMP/two.txt"
coproc CO2 { exec "$FGM" solve --solver dlx "$TMP/two.txt" - 2>/dev/null; }
pid=$CO2_PID
n=0
while [ $n -lt 2 ] && IFS= read -r -t 20 -u "${CO2[0]}" line; do n=$((n + 1)); done
exec {CO2[1]}>&-
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ "$n" = 2 ] || fail "solve FILE -: $n of the file's 2 answers before stdin ended"
finish
