# tests/cli/plugin_race.sh: builds of one plugin name at the same time.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Each build writes and compiles its C in a folder of its own before
# renaming into place (runtime/plugin.c, rebuild): another build of the
# same NAME.ALGO must not swap or delete the source a compiler is about
# to read.  The compiler wrappers below hold one compiler back so that
# the two builds overlap every time.
. "$(dirname "$0")/common.bash"
R="$TMP/race"
mkdir -p "$R/out"

# Two processes, two models named foo with different hashes.  The first
# compiler waits until the second build has finished: before the fix it
# then compiled the second model's C, and its plugin was "stale".
printf '%s\n' 'model foo' 'var x[2] in 1..2' 'x[0] != x[1]' \
    'infer ep(iterations = 10)' >"$R/a.fgm"
sed 's/= 10/= 11/' "$R/a.fgm" >"$R/b.fgm"
cat >"$R/cc" <<'SH'
#!/bin/sh
if mkdir "$RACE/first" 2>/dev/null; then
    i=0
    while [ ! -e "$RACE/second-done" ] && [ $i -lt 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    exec cc "$@"
fi
cc "$@"
s=$?
touch "$RACE/second-done"
exit $s
SH
chmod +x "$R/cc"
RACE=$R CC=$R/cc "$FGM" compile "$R/a.fgm" --out-dir "$R/out" \
    >/dev/null 2>"$R/a.err" &
pa=$!
i=0
while [ ! -d "$R/first" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
RACE=$R CC=$R/cc "$FGM" compile "$R/b.fgm" --out-dir "$R/out" \
    >/dev/null 2>"$R/b.err"
sb=$?
wait $pa
sa=$?
[ -e "$R/second-done" ] || fail "the builds did not overlap"
[ $sa = 0 ] || fail "first build of foo: exit $sa: $(head -c 300 "$R/a.err")"
[ $sb = 0 ] || fail "second build of foo: exit $sb: $(head -c 300 "$R/b.err")"
ls "$R/out" | grep -q tmp && fail "temporary files left: $(ls "$R/out")"

# One process, two workers: ep-naive builds one plugin per puzzle and
# removes it after solving; with a grid repeated, one worker removed the
# source the other's compiler was about to read.  Nine copies of a grid:
# one worker takes eight (runtime/solve/batch.c, GRAB), the other one;
# the second compiler to start waits until the eight others are done.
printf '1...\n..3.\n.2..\n...4\n' >"$TMP/g4"
p=$(tr -d '\n' <"$TMP/g4")
for i in 1 2 3 4 5 6 7 8 9; do echo "$p"; done >"$TMP/dup.txt"
mkdir -p "$R/naive" "$R/done"
cat >"$R/cc2" <<'SH'
#!/bin/sh
mkdir "$RACE/n1" 2>/dev/null || if mkdir "$RACE/n2" 2>/dev/null; then
    i=0
    while [ "$(ls "$RACE/done" | wc -l)" -lt 8 ] && [ $i -lt 600 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    sleep 1
    exec cc "$@"
fi
cc "$@"
s=$?
mktemp "$RACE/done/XXXXXX" >/dev/null
exit $s
SH
chmod +x "$R/cc2"
expect_exit 0 "ep-naive -j 2, one grid nine times" -- env RACE=$R CC=$R/cc2 \
    "$FGM" solve --solver ep-naive --backend compiled -j 2 \
    --out-dir "$R/naive" "$TMP/dup.txt"
expect_err "backend=compiled solved=9/9" "every repeat solved by its plugin"
finish
