# tests/cli/run_jobs.sh: fgm run -j N, observation sets on N threads.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

# untimed FILE: FILE without the times an engine run prints (its header's
# "0.492 ms", JSON's "ms"), which differ from run to run.
untimed() { sed -E 's/, [0-9.]+ ms/, X ms/; s/"ms": [0-9.e+-]+/"ms": X/g' "$1"; }

# agree_jobs WHAT ARGS...: `fgm run ARGS -j N` prints, for N = 2, 3 and 7,
# what -j 1 prints, on stdout and stderr, with the same exit status: the
# sets run on N threads, their output in their own order.
agree_jobs() {
    local what=$1 j; shift
    "$FGM" run "$@" -j 1 >"$TMP/j1.out" 2>"$TMP/j1.err"
    echo "exit $?" >> "$TMP/j1.err"
    untimed "$TMP/j1.out" > "$TMP/j1.cmp"
    [ -s "$TMP/j1.cmp" ] || [ -s "$TMP/j1.err" ] || fail "$what: -j 1 printed nothing"
    for j in 2 3 7; do
        "$FGM" run "$@" -j $j >"$TMP/jn.out" 2>"$TMP/jn.err"
        echo "exit $?" >> "$TMP/jn.err"
        untimed "$TMP/jn.out" > "$TMP/jn.cmp"
        cmp -s "$TMP/j1.cmp" "$TMP/jn.cmp" || fail "$what: -j $j: stdout differs from -j 1"
        cmp -s "$TMP/j1.err" "$TMP/jn.err" || fail "$what: -j $j: stderr or exit differs: $(diff "$TMP/j1.err" "$TMP/jn.err" | head -5)"
    done
}

# Puzzles on the Sudoku model, its EP, every format; compiled (each
# thread loads the plugin the first one built) and interpreted.
head -12 puzzles/seed002_easy.txt > "$TMP/p.txt"
"$FGM" run models/sudoku.fgm --out-dir "$TMP/gen" --observe "$TMP/p.txt" > /dev/null 2>&1
agree_jobs "sudoku, compiled" models/sudoku.fgm --out-dir "$TMP/gen" --observe "$TMP/p.txt" --backend compiled
for fmt in text csv json; do
    agree_jobs "sudoku, $fmt" models/sudoku.fgm --observe "$TMP/p.txt" --format $fmt --backend interpreted
done
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert [s["observation"] for s in d] == list(range(len(d))) and len(d) >= 10, len(d)' "$TMP/jn.out" ||
    fail "sudoku, json: not the sets in order: $(head -c 200 "$TMP/jn.out")"
# Exact marginals of the same puzzles by Dancing Links, on every thread.
agree_jobs "sudoku, dancing links" models/sudoku.fgm --observe "$TMP/p.txt" --backend exact
[ "$(grep -c '^# observation [0-9]*: exact (dancing links)' "$TMP/jn.out")" -ge 10 ] ||
    fail "sudoku, dancing links: $(grep '^#' "$TMP/jn.out" | head -3)"

# Exact marginals with sets refused in the middle (no consistent
# assignment): each said on stderr in its place, the others printed, JSON
# without a comma too many, exit 1.
printf 'var x in 0..1\nvar y in 0..1\nx != y\n' > "$TMP/xy.fgm"
printf 'x = 0\n---\nx = 1\ny = 1\n---\ny = 0\n---\nx = 1\ny = 1\n---\nx = 1\n' > "$TMP/xy.obs"
for fmt in text csv json; do
    agree_jobs "refusals, $fmt" "$TMP/xy.fgm" --backend exact --observe "$TMP/xy.obs" --format $fmt
done
grep -q "^exit 1$" "$TMP/j1.err" || fail "refusals: exit $(tail -1 "$TMP/j1.err"), want 1"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert [s["observation"] for s in d] == [0, 2, 4], d' "$TMP/jn.out" ||
    fail "refusals, json: $(cat "$TMP/jn.out")"
[ "$(grep -c 'no consistent assignment' "$TMP/jn.err")" = 2 ] || fail "refusals: $(cat "$TMP/jn.err")"

# Soft evidence per set, on the exact backend and the engine; --map.
printf 'x = [1, 3]\n---\ny = [2, 1]\n---\nx = [0.5, 0.5]\n---\n' > "$TMP/soft.obs"
agree_jobs "soft, exact" "$TMP/xy.fgm" --backend exact --observe "$TMP/soft.obs"
agree_jobs "soft, engine" "$TMP/xy.fgm" --backend interpreted --observe "$TMP/soft.obs" --format json
printf 'x[2] = 1\n---\nx[5] = 0\nx[1] = 2\n---\nx[3] = 2\n' > "$TMP/chain.obs"
agree_jobs "map, chain" models/chain.fgm --backend exact --map --observe "$TMP/chain.obs"
agree_jobs "chain, dancing links off" models/chain.fgm --backend exact --exact-method enumeration --observe "$TMP/chain.obs" --format csv

# A run that ends at its first set (out of elimination's reach) says so
# once, prints nothing, and exits 1 however many threads run.
printf 'q[0] = 1\n---\nq[0] = 2\n---\nq[0] = 3\n---\nq[1] = 1\n' > "$TMP/q.obs"
agree_jobs "fatal" models/queens.fgm -D N=9 --backend exact --exact-method elimination --observe "$TMP/q.obs"
[ "$(grep -c 'out of its reach' "$TMP/jn.err")" = 1 ] || fail "fatal: said $(grep -c 'out of its reach' "$TMP/jn.err") times"
grep -q "^exit 1$" "$TMP/jn.err" || fail "fatal: $(tail -1 "$TMP/jn.err")"

# No observation file: one set, whatever -j says.
"$FGM" run models/dice.fgm --out-dir "$TMP/gen" > /dev/null 2>&1
agree_jobs "no sets" models/dice.fgm --out-dir "$TMP/gen"

# With --backend auto and no working C compiler, the plugin's build fails
# once and every thread interprets: one message, not one a thread (each
# thread opened the model on auto and tried the build again).
CC=/bin/false agree_jobs "no compiler" models/chain.fgm --out-dir "$TMP/nocc" --observe "$TMP/chain.obs"
[ "$(grep -c 'interpreting' "$TMP/jn.err")" = 1 ] || fail "no compiler: $(cat "$TMP/jn.err")"
grep -q "^# observation 2: interpreted" "$TMP/jn.out" || fail "no compiler: $(head -3 "$TMP/jn.out")"

# Behind one slow set the other threads run only so far ahead: their
# output waits in memory until the slow set is printed.  An empty grid
# counted to 10^6 solutions, then 2,000 grids of 2.4 KB output each
# (4.8 MB), run on one thread and on two: the peak resident memory
# (VmHWM, sampled while the run lasts) may grow by the second thread's
# model, not by the output held (unbounded: +8 MB here).  Only in the
# plain build: under AddressSanitizer the peak is its shadow memory and
# quarantine (116 MB), whose noise is the size of the effect -- with no
# bound at all (RUN_AHEAD 10^6) -j 2 peaked 0.1-0.4 MB over -j 1, with the
# bound 0.8-4.7 MB (the CI run of d611b9d failed here on 4.6 MB).
if [ -r /proc/self/status ] && [ -z "${ASAN_OPTIONS:-}" ]; then
    { printf '%081d\n' 0; for i in $(seq 40); do grep -v '^#' "$SHARED/puzzles/easy50.txt"; done; } > "$TMP/slow.txt"
    p1=$(peak_kib "$FGM" run models/sudoku.fgm --backend exact --cap 1000000 --observe "$TMP/slow.txt" -j 1)
    p2=$(peak_kib "$FGM" run models/sudoku.fgm --backend exact --cap 1000000 --observe "$TMP/slow.txt" -j 2)
    [ "$p2" -lt $((p1 + 4096)) ] || fail "slow first set: -j 2 peaked at $p2 KiB, -j 1 at $p1 KiB"
fi

# Usage.
expect_exit 2 "-j 0" -- "$FGM" run models/chain.fgm -j 0
expect_err "run: -j wants an integer in 1\.\.256" "-j 0: says the range"
expect_exit 2 "-j x" -- "$FGM" run models/chain.fgm -j x

finish
