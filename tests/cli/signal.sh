# tests/cli/signal.sh: a signal that ends fgm during a plugin build.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The C compiler runs in a process group of its own (so that a timeout
# kills cc1 and as with it), which a terminal's Ctrl-C does not reach.
# Killed by SIGTERM (the same handler serves SIGINT and SIGHUP), fgm must
# kill the compiler and remove its temporaries (runtime/cleanup.c), then
# die of that signal.  Before, the compiler ran on, orphaned, and left
# NAME.ALGO.so.tmp.XXXXXX behind.
. "$(dirname "$0")/common.bash"
ulimit -c 0     # SIGQUIT's default action writes a core
R="$TMP/sig"
mkdir -p "$R/out"
printf '%s\n' 'model foo' 'var x[2] in 1..2' 'x[0] != x[1]' >"$R/a.fgm"
# A compiler that says it started, then takes a minute.
cat >"$R/cc" <<'SH'
#!/bin/sh
echo $$ >"$SIG/cc.pid"
sleep 60
exec cc "$@"
SH
chmod +x "$R/cc"

# group_alive PGID: whether a process of group PGID is alive, not a
# zombie (read from /proc: a bare Debian has no ps).  After the ") " that
# ends a process's name, /proc/PID/stat holds its state, parent and group.
group_alive() {
    cat /proc/[0-9]*/stat 2>/dev/null | awk -v g="$1" '
        { sub(/.*\) /, ""); if ($3 == g && $1 != "Z") live = 1 }
        END { exit !live }'
}

# wait_bounded PID: PID's exit status, or 137 once it has run 60 s more
# (killed: a hung fgm must fail the test, not stall the whole run).  The
# watchdog is ended with SIGKILL: a SIGTERM that reached the forked
# subshell before it had dropped this script's traps ran the EXIT trap
# there, which removed $TMP under the rest of the test (strace: the
# watchdog's rm -rf right after "kill -TERM"; seen on a loaded machine,
# where fgm exits before the subshell gets to run).
wait_bounded() {
    local w st
    (sleep 60; kill -KILL "$1") >/dev/null 2>&1 &
    w=$!
    wait "$1"
    st=$?
    kill -KILL "$w" 2>/dev/null
    wait "$w" 2>/dev/null
    return $st
}

# build MODE SIGNAL STATUS ARGS...: starts `fgm compile`, sends SIGNAL
# once the compiler runs, and checks fgm's exit STATUS and what is left.
# A background job starts with SIGQUIT ignored (job control is off here),
# which fgm keeps: env puts it back to its default first.
build() {
    local what=$1 sig=$2 want=$3 i=0 pid st
    shift 3
    rm -f "$R/cc.pid"
    SIG=$R CC=$R/cc env --default-signal=QUIT "$FGM" compile "$R/a.fgm" "$@" >/dev/null 2>&1 &
    pid=$!
    while [ ! -s "$R/cc.pid" ] && [ $i -lt 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ -s "$R/cc.pid" ] || fail "$what: the compiler never started"
    kill -$sig $pid
    wait_bounded $pid
    st=$?
    [ $st = $want ] || fail "$what: exit $st, want $want (killed by SIG$sig)"
    # The killed compiler may linger as a zombie until init reaps it;
    # its group must hold no live process (the wrapper or its sleep).
    sleep 0.2
    if group_alive "$(cat "$R/cc.pid")"; then
        fail "$what: the compiler outlived fgm"
        kill -KILL -- "-$(cat "$R/cc.pid")" 2>/dev/null
    fi
    ls -a "$R/out" | grep -q 'tmp' \
        && fail "$what: temporaries left: $(ls -a "$R/out")"
}
build "the plugin cascade (--out-dir)" TERM 143 --out-dir "$R/out"
build "an explicit plugin (-o)" TERM 143 -o "$R/out/foo.so"
# Ctrl-\ (SIGQUIT; 131): the compiler was left running, and the
# temporaries.
build "SIGQUIT" QUIT 131 --out-dir "$R/out"

# Many builds at once (ep-naive compiles a plugin per puzzle; 200 puzzles,
# so that the batch's chunks keep 12 threads busy): every
# compiler must be killed, also those other threads start while the
# handler runs (before, 0-15 of 16 outlived fgm), and no build may leave
# temporaries, also those begun after the handler's sweep.  Each
# compiler starts a child that takes 2 s over SIGTERM (as a wrapper may):
# the handler's SIGTERM ends the driver at once, and its group must
# still get SIGKILL (before, the children outlived fgm).
cat >"$R/cc-many" <<'SH'
#!/bin/sh
echo $$ >"$SIG/pids/$$"
sh -c 'trap "sleep 2; exit 1" TERM; sleep 60 & wait' &
sleep 60
exec cc "$@"
SH
chmod +x "$R/cc-many"
mkdir -p "$R/pids" "$R/many"
"$FGM" generate --box 2 --count 200 --seed 7 -o "$R/p4.txt" 2>/dev/null ||
    fail "no 4x4 puzzles"
SIG=$R CC=$R/cc-many "$FGM" solve --solver ep-naive --backend compiled \
    -j 12 --out-dir "$R/many" "$R/p4.txt" >/dev/null 2>"$R/many.err" &
pid=$!
i=0
while [ "$(ls "$R/pids" | wc -l)" -lt 12 ] && [ $i -lt 300 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ "$(ls "$R/pids" | wc -l)" -ge 12 ] || fail "-j 12: not 12 compilers at once"
kill -TERM $pid
wait_bounded $pid
st=$?
[ $st = 143 ] || fail "-j 12: exit $st, want 143 (killed by SIGTERM)"
sleep 0.5
for g in $(ls "$R/pids"); do
    if group_alive "$g"; then
        fail "-j 12: compiler $g outlived fgm"
        kill -KILL -- "-$g" 2>/dev/null
    fi
done
ls -a "$R/many" | grep -q 'tmp' \
    && fail "-j 12: temporaries left: $(ls -a "$R/many")"
# ... nor the puzzles' own C files and plugins, which ep-naive removes
# once a puzzle is solved (they were left, a C file a puzzle in flight).
ls -a "$R/many" | grep -q 'naive_' \
    && fail "-j 12: per-puzzle files left: $(ls -a "$R/many" | head -5)"
# The other builds fail because the handler killed their compilers: that
# is not news, and was printed ("C compiler ... killed by signal 15",
# "Interrupted system call") as fgm died.
grep -q . "$R/many.err" && fail "-j 12: said as it died: $(head -3 "$R/many.err")"

# The compiler's own temporaries: while cc1 runs, gcc keeps its assembler
# output in $TMPDIR (ccXXXXXX.s).  Killed at once (SIGKILL), as fgm's
# handler did, it left that file behind; given SIGTERM first, the driver
# removes it.  A model whose plugin takes seconds to compile (the
# 64-queens model: 6 s here), killed once the file is there.
# gcc only: clang's driver leaves its empty plugin-XXXX.o on SIGTERM
# (Debian clang 14), which fgm cannot help.
mkdir -p "$R/tmpdir"
"${CC:-cc}" --version 2>/dev/null | grep -q 'Free Software Foundation' \
    || touch "$R/tmpdir/not-gcc"
TMPDIR="$R/tmpdir" "$FGM" compile models/queens.fgm -D N=64 \
    -o "$R/out/queens.so" >/dev/null 2>&1 &
pid=$!
i=0
while [ -z "$(ls -A "$R/tmpdir")" ] && [ $i -lt 1200 ] && kill -0 $pid 2>/dev/null; do
    sleep 0.05
    i=$((i + 1))
done
if [ -e "$R/tmpdir/not-gcc" ] || [ -z "$(ls -A "$R/tmpdir")" ]; then
    # Not gcc, or a compiler that keeps nothing in $TMPDIR: not checked.
    echo "signal.sh: note: \$TMPDIR not checked (not gcc, or no temporary kept there)"
    kill -TERM $pid 2>/dev/null
    wait_bounded $pid
else
    kill -TERM $pid
    wait_bounded $pid
    st=$?
    [ $st = 143 ] || fail "queens: exit $st, want 143 (killed by SIGTERM)"
    sleep 0.2
    [ -z "$(ls -A "$R/tmpdir")" ] \
        || fail "the compiler's temporaries left: $(ls -A "$R/tmpdir")"
fi
ls -a "$R/out" | grep -q 'tmp' \
    && fail "queens: temporaries left: $(ls -a "$R/out")"

# fgm bench times a plugin's build in a folder of its own under $TMPDIR
# (fgm_bench_XXXXXX): a signal during that build removes the folder and
# the C already written there (they were left).  The compiler waits only
# for that build, not for the solvers' plugin in generated/.
mkdir -p "$R/btmp"
cat >"$R/cc-bench" <<'SH'
#!/bin/sh
case "$*" in
*/btmp/*) echo $$ >"$SIG/cc.pid"; sleep 60 ;;
esac
exec cc "$@"
SH
chmod +x "$R/cc-bench"
rm -f "$R/cc.pid"
SIG=$R CC=$R/cc-bench TMPDIR=$R/btmp "$FGM" bench --solvers ep-robust \
    --backends compiled,interpreted puzzles/seed000.txt >/dev/null 2>&1 &
pid=$!
i=0
while [ ! -s "$R/cc.pid" ] && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ -s "$R/cc.pid" ] || fail "bench: the timed build never started"
kill -TERM $pid
wait_bounded $pid
st=$?
[ $st = 143 ] || fail "bench: exit $st, want 143 (killed by SIGTERM)"
[ -z "$(ls -A "$R/btmp")" ] || fail "bench: left in \$TMPDIR: $(ls -AR "$R/btmp" | head -5)"

# A solve ended by a signal leaves the answers it had, in whole lines:
# 600 copies of a grid that naive backtracking cannot finish in 20 ms,
# so each takes its whole timeout.  Before, the answers came a chunk of
# 512 at a time (none within 2 s) and stdio flushed every 4 KiB, which
# left the last line cut.
P='..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9'
for i in $(seq 600); do echo "$P"; done >"$R/bf.txt"
for fmt in text csv; do
    flag=; [ $fmt = csv ] && flag=--csv
    "$FGM" solve --solver backtrack --timeout-ms 20 $flag "$R/bf.txt" \
        >"$R/bf.$fmt" 2>/dev/null &
    pid=$!
    sleep 2
    kill -TERM $pid
    wait_bounded $pid
    st=$?
    [ $st = 143 ] || fail "solve $fmt: exit $st, want 143 (killed by SIGTERM)"
    n=$(grep -c . "$R/bf.$fmt")
    [ "$n" -ge 10 ] || fail "solve $fmt: $n lines within 2 s"
    [ -z "$(tail -c 1 "$R/bf.$fmt")" ] || fail "solve $fmt: the last line is cut"
    if [ $fmt = text ]; then
        awk -v p="$P" '$0 != p { bad++ } END { exit bad > 0 }' "$R/bf.$fmt" \
            || fail "solve text: a line is not the puzzle echoed"
    else
        awk -F, 'NR > 1 && NF != 14 { bad++ } END { exit bad > 0 }' \
            "$R/bf.$fmt" || fail "solve csv: a row without its 14 fields"
    fi
done
# And where answers come fast (Dancing Links, 200,000 easy grids), the
# output stops at a line's end: stdio's own 4 KiB flushes cut lines.
E=530070000600195000098000060800060003400803001700020006060000280000419005000080079
yes "$E" | head -200000 >"$R/fast.txt"
"$FGM" solve "$R/fast.txt" >"$R/fast.out" 2>/dev/null &
pid=$!
sleep 0.3
kill -TERM $pid
wait_bounded $pid
[ -z "$(tail -c 1 "$R/fast.out")" ] || fail "solve, fast: the last line is cut"
awk 'length($0) != 81 { bad++ } END { exit bad > 0 }' "$R/fast.out" \
    || fail "solve, fast: a line of another length"
finish
