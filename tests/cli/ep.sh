# tests/cli/ep.sh: the seed's EP solvers on notebook 000's grids, both backends.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
G="$TMP/gen"

# ep-robust: the two Easy grids solved, the Medium grids not (the seed
# leaves 37 errors on its Medium grid); compiled and interpreted agree.
for b in compiled interpreted; do
    expect_exit 0 "ep-robust $b" -- "$FGM" solve --solver ep-robust --backend $b --out-dir "$G" --csv puzzles/seed000.txt
    cp "$TMP/out" "$TMP/robust.$b"
    expect_err "solver=ep-robust backend=$b solved=2/4" "ep-robust $b solves the easy grids"
    [ "$(awk -F, 'NR==4 {print $13}' "$TMP/out")" -gt 10 ] || fail "medium grid left with many errors"
done
same "$TMP/robust.compiled" "$TMP/robust.interpreted" || fail "compiled and interpreted ep-robust agree"
[ -f "$G/sudoku_B3.ep.so" ] || fail "the plugin of models/sudoku.fgm (B=3) was built into --out-dir"

# ep-robust2 (exact clues, the updates around them skipped): the same
# grids solved, both backends give the same grids and counts.
for b in compiled interpreted; do
    expect_exit 0 "ep-robust2 $b" -- "$FGM" solve --solver ep-robust2 --backend $b --out-dir "$G" --csv puzzles/seed000.txt
    # Whole, as "same" expects: a cut copy lost the solved and inferences
    # columns to same's own cut (columns 3 and 6 of what was left).
    cp "$TMP/out" "$TMP/robust2.$b"
    expect_err "solver=ep-robust2 backend=$b solved=2/4" "ep-robust2 $b solves the easy grids"
done
same "$TMP/robust2.compiled" "$TMP/robust2.interpreted" || fail "compiled and interpreted ep-robust2 agree"

# A second compiled run loads the plugin without rebuilding (no message).
expect_exit 0 "ep-robust reuse" -- "$FGM" solve --solver ep-robust --backend compiled --out-dir "$G" puzzles/seed000.txt
grep -q rebuilding "$TMP/err" && fail "an up-to-date plugin is not rebuilt"

# ep-iterative, with its default 2 cells fixed a round, solves the easy
# grids.  The seed ran its Medium grid (the fourth) with NbIterationCells = 1
# and was left with 3 errors: --fix 1 reproduces that figure.
expect_exit 0 "ep-iterative" -- "$FGM" solve --solver ep-iterative --backend interpreted --csv puzzles/seed000.txt
expect_err "solved=2/4" "ep-iterative solves the easy grids"
# in the seed's "≈ 2150" EP iterations on the two (notebook 000 s.7): 18
# and 25 inferences of 50 sweeps, with Infer.NET's projection of the
# Dirichlet nodes (the engine's own, before, ranked cells otherwise:
# 950 + 1400).
[ "$(awk -F, 'NR==2 || NR==3 {s += $11} END {print s}' "$TMP/out")" = 2150 ] || fail "ep-iterative: the seed's 2150 EP iterations on the easy grids"
expect_exit 0 "ep-iterative --fix 1" -- "$FGM" solve --solver ep-iterative --fix 1 --backend interpreted --csv puzzles/seed000.txt
[ "$(awk -F, 'NR==5 {print $13}' "$TMP/out")" -le 3 ] || fail "ep-iterative --fix 1: at most the seed's 3 errors on its Medium grid"

# ep-naive compiles one plugin per puzzle and removes it.
grep -v '^#' puzzles/seed000.txt | head -1 > "$TMP/one.txt"
expect_exit 0 "ep-naive" -- "$FGM" solve --solver ep-naive --backend compiled --out-dir "$G" "$TMP/one.txt"
expect_err "solver=ep-naive backend=compiled solved=1/1" "ep-naive solves Easy #1"
ls "$G"/naive_* >/dev/null 2>&1 && fail "ep-naive leaves no plugin behind"

# A grid with every cell given runs no inference; its CSV row still names
# the backend the model runs (ep-iterative said "interpreted").
"$FGM" solve --solver dlx "$TMP/one.txt" > "$TMP/full.txt" 2>/dev/null
for s in ep-iterative ep-robust alldiff-max bp-decimate; do
    expect_exit 0 "$s on a full grid" -- "$FGM" solve --solver $s --backend compiled --out-dir "$G" --csv "$TMP/full.txt"
    [ "$(awk -F, 'NR==2 {print $3 "," $4}' "$TMP/out")" = compiled,1 ] || fail "$s: a full grid's row says compiled"
done

# --backend compiled with no C compiler fails with the reason; auto falls
# back to the interpreter and says why.
rm -rf "$G"
expect_exit 0 "no compiler, auto" -- env CC=/nonexistent "$FGM" solve --solver ep-robust --out-dir "$G" "$TMP/one.txt"
expect_err "interpreting" "auto says why it interprets"
expect_err "backend=interpreted solved=1/1" "auto falls back"
expect_exit 1 "no compiler, compiled" -- env CC=/nonexistent "$FGM" solve --solver ep-robust --backend compiled --out-dir "$G" "$TMP/one.txt"
expect_err "/nonexistent" "compiled names the compiler"
# Every worker of -j 2 opens the model; the fallback is said once.
expect_exit 0 "fallback, two workers" -- "$FGM" solve --solver ep-robust --out-dir /dev/null/x -j 2 puzzles/seed000.txt
[ "$(grep -c 'interpreting' "$TMP/err")" = 1 ] || fail "the fallback was said $(grep -c 'interpreting' "$TMP/err") times with -j 2"
# fgm bench says it too (its rows were timed on the interpreter, and
# nothing said so), once over two corpora and ep-naive's plugin per
# puzzle; with --backends compiled, the reason is on stderr and on the
# plugin's line.
# (In a folder of its own: bench builds into generated/.)
cp "$TMP/one.txt" "$TMP/two.txt"
mkdir -p "$TMP/bw"
fgm_abs=$(cd "$(dirname "$FGM")" && pwd)/$(basename "$FGM")
expect_exit 0 "bench, no compiler" -- env -C "$TMP/bw" CC=/nonexistent "$fgm_abs" bench --solvers ep-robust,ep-naive "$TMP/one.txt" "$TMP/two.txt"
[ "$(grep -c "/nonexistent'.*; interpreting" "$TMP/err")" = 1 ] || fail "bench, no compiler: the fallback was said $(grep -c 'interpreting' "$TMP/err") times"
expect_exit 0 "bench --backends compiled, no compiler" -- env -C "$TMP/bw" CC=/nonexistent "$fgm_abs" bench --solvers ep-robust --backends compiled "$TMP/one.txt"
expect_err "cannot run C compiler '/nonexistent'" "bench --backends compiled, no compiler: says why"
expect_out "could not be built: cannot run C compiler '/nonexistent'" "bench --backends compiled, no compiler: the plugin line says why"
# A compiler stopped at FGM_CC_TIMEOUT gets SIGTERM first, so that the
# driver removes its own temporaries: killed at once, cc left its .s in
# $TMPDIR (153 MB of it for a large model).
mkdir -p "$TMP/cctmp"
# (The 9x9 plugin builds in 0.4-0.5 s here: 0.05 s leaves a margin for a
# faster machine.)
expect_exit 1 "compiler stopped mid-build" -- env TMPDIR="$TMP/cctmp" FGM_CC_TIMEOUT=0.05 "$FGM" compile models/sudoku.fgm --out-dir "$TMP/stopped"
expect_err "did not finish in 0.05 s" "compiler stopped mid-build"
[ -z "$(ls -A "$TMP/cctmp")" ] || fail "the stopped compiler left in TMPDIR: $(ls -A "$TMP/cctmp" | head -3)"

# A compiler that hangs is killed after FGM_CC_TIMEOUT seconds, with the
# processes it started, and the reason is given.
printf '#!/bin/sh\nsleep 300 &\nwait\n' > "$TMP/hangcc"
chmod +x "$TMP/hangcc"
t0=$(date +%s)
expect_exit 1 "hung compiler" -- env FGM_CC_TIMEOUT=1 CC="$TMP/hangcc" "$FGM" compile models/dice.fgm --out-dir "$TMP/hang"
expect_err "C compiler '.*hangcc' did not finish in 1 s" "hung compiler"
[ $(( $(date +%s) - t0 )) -lt 30 ] || fail "a hung compiler held fgm past its timeout"
# A compiler that leaves a child holding its output open (in a session of
# its own, out of the kill's reach) is done when it exits: fgm held on to
# the pipe for the child's 30 s, and past FGM_CC_TIMEOUT blamed the
# compiler.  The child sleeps 8 s here; the build takes well under 1 s.
printf '#!/bin/sh\nsetsid sleep 8 &\nexec cc "$@"\n' > "$TMP/daemoncc"
chmod +x "$TMP/daemoncc"
t0=$(date +%s)
expect_exit 0 "compiler leaving a child" -- env FGM_CC_TIMEOUT=4 CC="$TMP/daemoncc" "$FGM" compile models/dice.fgm --out-dir "$TMP/daemon"
[ $(( $(date +%s) - t0 )) -lt 4 ] || fail "a compiler's leftover child held fgm $(( $(date +%s) - t0 )) s"
[ -s "$TMP/daemon/dice.ep.so" ] || fail "compiler leaving a child: no plugin"
# ... and a child that writes to it without a pause (the read went on
# while the data did; the child dies of SIGPIPE once fgm is gone).
printf '#!/bin/sh\nsetsid sh -c "while :; do echo noise; done" &\nexec cc "$@"\n' > "$TMP/chattycc"
chmod +x "$TMP/chattycc"
t0=$(date +%s)
expect_exit 0 "compiler leaving a writer" -- env FGM_CC_TIMEOUT=4 CC="$TMP/chattycc" "$FGM" compile models/dice.fgm --out-dir "$TMP/chatty"
[ $(( $(date +%s) - t0 )) -lt 4 ] || fail "a compiler's leftover writer held fgm $(( $(date +%s) - t0 )) s"
# Relative outputs that start with '-' reach the compiler as files, not
# options: "-o -xc.so" built an empty plugin (exit 0), "--out-dir -foo"
# failed on "unrecognized command-line option".
mkdir -p "$TMP/dash"
(cd "$TMP/dash" && "$fgm_abs" compile "$OLDPWD/models/dice.fgm" -o -xc.so) >"$TMP/out" 2>"$TMP/err" \
    || fail "compile -o -xc.so: $(cat "$TMP/err")"
nm -D "$TMP/dash/-xc.so" | grep -q fgm_plugin_entry || fail "compile -o -xc.so: no entry in the plugin"
(cd "$TMP/dash" && "$fgm_abs" run "$OLDPWD/models/dice.fgm" --backend compiled --out-dir -foo) >"$TMP/out" 2>"$TMP/err" \
    || fail "run --out-dir -foo: $(cat "$TMP/err")"
# A plugin whose sizes differ from its schedule (made here by hand, as one
# changed byte of its descriptor would) is rebuilt, with --backend
# compiled too; the rebuilt one is used from then on (it was interpreted
# at every run, and --backend compiled exited 1).
mkdir -p "$TMP/sizes"
"$FGM" compile models/dice.fgm --emit-c "$TMP/sizes/d.c" 2>/dev/null || fail "emit dice C"
sed 's/^#define NVARS  *20 /#define NVARS 21 /' "$TMP/sizes/d.c" > "$TMP/sizes/d2.c"
grep -q '^#define NVARS 21 ' "$TMP/sizes/d2.c" || fail "sizes: the C has no NVARS 20 to edit"
${CC:-cc} -O1 -fPIC -shared -ffp-contract=off -Iruntime -o "$TMP/sizes/dice.ep.so" "$TMP/sizes/d2.c" -lm \
    || fail "sizes: the edited plugin does not build"
cp "$TMP/sizes/dice.ep.so" "$TMP/sizes/bad.so"
expect_exit 0 "plugin of other sizes, compiled" -- "$FGM" run models/dice.fgm --backend compiled --out-dir "$TMP/sizes"
expect_err "dice.ep.so: plugin sizes do not match the model's schedule; rebuilding$" "plugin of other sizes, compiled"
expect_exit 0 "plugin of other sizes, rebuilt" -- "$FGM" run models/dice.fgm --backend compiled --out-dir "$TMP/sizes"
[ -s "$TMP/err" ] && fail "plugin of other sizes, rebuilt: $(head -c 300 "$TMP/err")"
cp "$TMP/sizes/bad.so" "$TMP/sizes/dice.ep.so"
expect_exit 0 "plugin of other sizes, auto" -- "$FGM" run models/dice.fgm --backend auto --out-dir "$TMP/sizes"
expect_err "plugin sizes do not match the model's schedule; rebuilding" "plugin of other sizes, auto"
# ep-naive's per-puzzle build is part of the puzzle's time: stopped at
# --timeout-ms, the puzzle a timeout (not a failed run, even on --backend
# compiled), nothing left behind.  Each puzzle took its whole compile,
# 0.4-0.6 s, past a 50 ms limit.
grep -v '^#' puzzles/seed000.txt | head -2 > "$TMP/two.txt"
for b in auto compiled; do
    expect_exit 0 "ep-naive, 50 ms, $b" -- "$FGM" solve --solver ep-naive --backend $b --timeout-ms 50 --out-dir "$TMP/naive50" --csv "$TMP/two.txt"
    expect_err "solved=0/2 .*timeouts=2 " "ep-naive, 50 ms, $b: two timeouts"
    # On the compiled path, stopped in its build: nothing interpreted (the
    # rows and the summary said "interpreted").
    expect_err "backend=compiled solved=0/2" "ep-naive, 50 ms, $b: compiled"
    awk -F, 'NR > 1 && $3 != "compiled" { bad = 1 } END { exit bad }' \
        "$TMP/out" || fail "ep-naive, 50 ms, $b: rows not compiled: $(cat "$TMP/out")"
    awk -F, 'NR > 1 && $6 > 250 { bad = 1 } END { exit bad }' "$TMP/out" \
        || fail "ep-naive, 50 ms, $b: a puzzle ran past 250 ms: $(cat "$TMP/out")"
    [ -z "$(ls -A "$TMP/naive50" 2>/dev/null)" ] || fail "ep-naive, 50 ms, $b, left: $(ls -A "$TMP/naive50" | head -3)"
done

# ep-naive cleans up its per-puzzle files whatever backend each puzzle
# ended on: with no working compiler it left one C file a puzzle.
expect_exit 0 "ep-naive, no compiler" -- env CC=false "$FGM" solve --solver ep-naive --out-dir "$TMP/naive" puzzles/seed003.txt
[ -z "$(ls -A "$TMP/naive" 2>/dev/null)" ] || fail "ep-naive, no compiler, left: $(ls "$TMP/naive" | head -3)"
# fgm compile -o installs only a plugin that loads and matches the model:
# a compiler that exits 0 after writing garbage, or another model's
# plugin, was installed and "compiled" said (exit 0).
printf '#!/bin/sh\nwhile [ "$1" != -o ]; do shift; done\necho garbage > "$2"\n' > "$TMP/garbcc"
"$FGM" compile models/chain.fgm -o "$TMP/chain.so" 2>/dev/null || fail "build chain.so"
printf '#!/bin/sh\nwhile [ "$1" != -o ]; do shift; done\ncp "%s" "$2"\n' "$TMP/chain.so" > "$TMP/othercc"
chmod +x "$TMP/garbcc" "$TMP/othercc"
for c in garbcc othercc; do
    echo keep > "$TMP/keep.so"
    expect_exit 1 "compile -o, $c" -- env CC="$TMP/$c" "$FGM" compile models/dice.fgm -o "$TMP/keep.so"
    expect_err "keep.so: error: " "compile -o, $c"
    [ "$(cat "$TMP/keep.so")" = keep ] || fail "compile -o, $c: the output was replaced"
    [ -z "$(ls -d "$TMP"/keep.so.tmp.* 2>/dev/null)" ] || fail "compile -o, $c: temporaries left"
done
# An --out-dir past 1024 bytes: the build leaves its C and plugin only
# (each build left a folder with its kernel headers, too long for the
# cleanup's fixed buffers).
long="$TMP/long"
for i in 1 2 3 4 5 6; do long="$long/$(printf '%0180d' 0)"; done
mkdir -p "$long"
expect_exit 0 "long --out-dir" -- "$FGM" compile models/dice.fgm --out-dir "$long"
[ "$(ls -A "$long" | tr '\n' ' ')" = "dice.ep.c dice.ep.so " ] || fail "long --out-dir left: $(ls -A "$long")"
# The entry is exported even when the flags hide every symbol ("no symbol
# fgm_plugin_entry" before).
expect_exit 0 "-fvisibility=hidden" -- env FGM_PLUGIN_CFLAGS='-O1 -fvisibility=hidden' "$FGM" run models/dice.fgm --backend compiled --out-dir "$TMP/hidden"
expect_out "compiled ep" "-fvisibility=hidden"
# A folder where the plugin goes: said before anything is compiled (each
# run compiled the model, and wrote its C, before the rename failed).
mkdir -p "$TMP/dirso/dice.ep.so"
expect_exit 0 "folder at the plugin path" -- "$FGM" run models/dice.fgm --out-dir "$TMP/dirso"
expect_err "dice.ep.so: cannot write: Is a directory; interpreting" "folder at the plugin path"
[ ! -e "$TMP/dirso/dice.ep.c" ] || fail "folder at the plugin path: the model was compiled"
# The first error is found after 160 KB of warnings (past 16 KB of output
# the reason quoted a warning).
cat > "$TMP/loudcc" <<'SH'
#!/bin/sh
i=0
while [ $i -lt 2000 ]; do
    echo "x.c:1:1: warning: a line of noise, number $i, long enough to count"
    i=$((i + 1))
done
echo "x.c:9:9: error: the real reason" >&2
exit 3
SH
chmod +x "$TMP/loudcc"
expect_exit 1 "loud compiler" -- env CC="$TMP/loudcc" "$FGM" compile models/dice.fgm --out-dir "$TMP/loud"
expect_err "failed \(exit status 3\): x.c:9:9: error: the real reason" "loud compiler"
# A limit that is no number is said, not replaced by the default.
expect_exit 1 "FGM_CC_TIMEOUT=abc" -- env FGM_CC_TIMEOUT=abc "$FGM" compile models/dice.fgm --out-dir "$TMP/badtimeout"
expect_err "FGM_CC_TIMEOUT='abc' is not a number of seconds" "FGM_CC_TIMEOUT=abc"
# Blanks around the number are taken, on either side (' 5' was, '5 ' was
# refused).
expect_exit 0 "FGM_CC_TIMEOUT='60 '" -- env FGM_CC_TIMEOUT='60 ' "$FGM" compile models/dice.fgm --out-dir "$TMP/blanktimeout"
# A compiler's own "error:", quoted in the reason, does not make the
# reason a located message: it keeps its "fgm: " prefix.
printf '#!/bin/sh\necho "cc1: error: no such flag" >&2\nexit 1\n' > "$TMP/badcc"
chmod +x "$TMP/badcc"
expect_exit 1 "failing compiler" -- env CC="$TMP/badcc" "$FGM" compile models/dice.fgm --out-dir "$TMP/bad"
expect_err "^fgm: C compiler '.*badcc' failed \(exit status 1\): cc1: error: no such flag" "failing compiler"
# A plugin built with AddressSanitizer: its runtime's constructor ended
# fgm (exit 1, no fallback, temporaries left behind) in a process
# without that runtime (the plain build: fgm_asan has it, and loads it).
if echo 'int f(void) { return 0; }' | cc -fsanitize=address -shared -fPIC -x c - -o "$TMP/asan_probe.so" 2>/dev/null; then
    expect_exit 0 "an ASan plugin" -- env FGM_PLUGIN_CFLAGS="-O2 -fsanitize=address" "$FGM" run models/chain.fgm --out-dir "$TMP/asanp"
    if [ -z "${ASAN_OPTIONS:-}" ]; then
        expect_err "chain.bp-sum.so: built with AddressSanitizer, whose runtime this process lacks .*; interpreting$" "an ASan plugin: says why"
        expect_out "interpreted bp-sum" "an ASan plugin: interpreted"
    fi
    [ -z "$(ls "$TMP/asanp" | grep tmp)" ] || fail "an ASan plugin: temporaries left: $(ls "$TMP/asanp")"
fi
# The linker's error has no "error:": the reason quoted the warning
# before it, or gcc's context lines around warnings, not the line that
# says why.
cat > "$TMP/ldcc" <<'SH'
#!/bin/sh
echo 'In file included from x.c:9:' >&2
echo 'x.c: In function '"'"'f'"'"':' >&2
echo 'x.c:3:7: warning: comparing floating-point with == is unsafe [-Wfloat-equal]' >&2
echo '    3 |   if (a == b)' >&2
echo '      |         ^~' >&2
echo '<command-line>: warning: "N" redefined' >&2
echo '<command-line>: note: this is the location of the previous definition' >&2
echo '/usr/bin/ld: /tmp/cc1.o: in function `g'"'"':' >&2
echo '/usr/bin/ld: cannot find -lnosuch: No such file or directory' >&2
echo 'collect2: error: ld returned 1 exit status' >&2
exit 1
SH
chmod +x "$TMP/ldcc"
expect_exit 1 "linker error" -- env CC="$TMP/ldcc" "$FGM" compile models/dice.fgm --out-dir "$TMP/ld"
expect_err "failed \(exit status 1\): /usr/bin/ld: cannot find -lnosuch" "linker error: quoted, not the warning"
expect_exit 2 "bad backend" -- "$FGM" solve --solver ep-robust --backend gpu "$TMP/one.txt"
# ep-naive on --backend compiled with a compiler that fails: exit 1 with
# the reason, as ep-robust (it reported the puzzles unsolved, exit 0,
# and labelled them interpreted).
expect_exit 1 "ep-naive, failing compiler, compiled" -- env CC="$TMP/badcc" "$FGM" solve --solver ep-naive --backend compiled --out-dir "$G" "$TMP/one.txt"
expect_err "solve: puzzle 1: the solver's model could not be prepared" "ep-naive, failing compiler, compiled"
[ ! -s "$TMP/out" ] || fail "ep-naive, failing compiler: no puzzle printed"
# bench --backends with no solver that takes it: a usage error, as `fgm
# solve --solver dlx --backend compiled` (it timed dlx alone and said
# nothing of the --backends; before that, it printed an empty section and
# spent half a second compiling the Sudoku model).
expect_exit 2 "bench, exact solver only" -- "$FGM" bench --solvers dlx --backends compiled "$TMP/one.txt"
expect_err "^fgm: bench: --backends times the probabilistic solvers, and --solvers names none that takes it \(dlx\)$" "bench, exact solver only"
[ ! -s "$TMP/out" ] || fail "bench, exact solver only: nothing run"
expect_exit 2 "bench, default solvers, --backends" -- "$FGM" bench --backends compiled "$TMP/one.txt"
expect_err "^fgm: bench: --backends times the probabilistic solvers, and the default solvers are the exact ones: name some with --solvers$" "bench, default solvers, --backends"

# x != y's message is the other values' sum, not z - q(v), where one
# value holds nearly all of q: with evidence [1, 1e16] z rounds to 1e16
# and z - q(1) to 0, and bp-sum, exact on this tree, printed 1 1e-14
# (1e12: 6e-6 off) where the answer is 0.5 0.5.  Both backends, every
# neq path: sum-product and EP, plain and damped (damped, the messages
# halve their way down to 1e-16: 200 sweeps).
for algo in "bp-sum(iterations = 20)" "ep(iterations = 20)" \
            "bp-sum(iterations = 200, damping = 0.5)"; do
    for r in 1e16 1e12; do
        printf 'var x[2] in 0..1\nevidence x = [1, %s]\nx[0] != x[1]\ninfer %s\n' "$r" "$algo" > "$TMP/neq_$r.fgm"
        for b in compiled interpreted; do
            expect_exit 0 "neq, evidence [1, $r], $algo, $b" -- "$FGM" run "$TMP/neq_$r.fgm" --backend $b
            awk '$1 ~ /^x\[/ { n++; d = $2 - 0.5; if (d < 0) d = -d; if (d > 1e-12) bad = 1 }
                 END { exit bad || n != 2 }' "$TMP/out" \
                || fail "neq, evidence [1, $r], $algo, $b: not 0.5 0.5: $(cat "$TMP/out")"
        done
    done
done
# A run whose messages still move says so on stderr: EP between the two
# states of x[0] != x[1] under a shared, nearly one-sided prior swings
# by 0.495 a sweep for ever; past a --tolerance it names it; a settled
# run (the die) says nothing.  Both backends.
printf 'prior p ~ dirichlet([1e-15, 1])\nvar x[2] in 0..1 ~ discrete(p)\nx[0] != x[1]\ninfer ep(iterations = 20)\n' > "$TMP/swing.fgm"
for b in compiled interpreted; do
    expect_exit 0 "unsettled ep, $b" -- "$FGM" run "$TMP/swing.fgm" --backend $b
    expect_err "^fgm: run: warning: observation 0: ep did not settle in 20 sweeps \(the last moved a message by 0\.495\): the marginals are where the sweeps stopped" "unsettled ep, $b"
    expect_exit 0 "ep past --tolerance, $b" -- "$FGM" run "$TMP/swing.fgm" --backend $b --damping 0.5 --iters 100 --tolerance 1e-9
    expect_err "^fgm: run: warning: observation 0: ep did not settle to --tolerance 1e-09 in 100 sweeps" "ep past --tolerance, $b"
    expect_exit 0 "settled ep, $b" -- "$FGM" run models/dice.fgm --backend $b
    [ ! -s "$TMP/err" ] || [ "$b" = compiled ] || fail "settled ep, $b: stderr: $(head -c 300 "$TMP/err")"
    grep -q "did not settle" "$TMP/err" && fail "settled ep, $b: warned"
done
finish
