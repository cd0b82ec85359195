# tests/cli/plugin_stale.sh: temporaries of killed builds are removed.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A build killed midway leaves SO.tmp.XXXXXX (a file) and SO.tmp.XXXXXX/
# (a folder with the C source) next to its plugin; the next rebuild of
# that plugin removes those older than an hour, or than twice
# FGM_CC_TIMEOUT (runtime/plugin_stale.c), and nothing else: not a
# user's folder or notes that happen to bear such a name.
. "$(dirname "$0")/common.bash"
R="$TMP/stale"
O="$R/out"
mkdir -p "$O"
printf '%s\n' 'model foo' 'var x[2] in 1..2' 'x[0] != x[1]' \
    'infer ep(iterations = 10)' >"$R/a.fgm"
"$FGM" compile "$R/a.fgm" --out-dir "$O" >/dev/null 2>"$R/err" \
    || fail "first build: $(head -c 300 "$R/err")"

# Leftovers as a killed build leaves them, two hours old; a fresh one (a
# build that may still be running); names that are not a build's.
old() { touch -h -d '2 hours ago' "$@"; }
mkdir "$O/foo.ep.so.tmp.Ab3dE9"     # killed with its kernel headers
echo 'int x;' >"$O/foo.ep.so.tmp.Ab3dE9/foo.ep.c"
echo '/* kernels */' >"$O/foo.ep.so.tmp.Ab3dE9/kernels.h"
echo '/* abi */' >"$O/foo.ep.so.tmp.Ab3dE9/plugin_abi.h"
old "$O/foo.ep.so.tmp.Ab3dE9"/* "$O/foo.ep.so.tmp.Ab3dE9"
printf '\177ELF\2\1' >"$O/foo.ep.so.tmp.Zz9yX1"
: >"$O/foo.ep.so.tmp.Empty0"
head -c 4096 /dev/zero >"$O/foo.ep.so.tmp.Zeros0"
old "$O/foo.ep.so.tmp.Zz9yX1" "$O/foo.ep.so.tmp.Empty0" \
    "$O/foo.ep.so.tmp.Zeros0"
mkdir "$O/foo.ep.so.tmp.Emit01"      # killed `fgm compile -o foo.ep.so`
echo 'int z;' >"$O/foo.ep.so.tmp.Emit01/plugin.c"
old "$O/foo.ep.so.tmp.Emit01/plugin.c" "$O/foo.ep.so.tmp.Emit01"
mkdir "$O/foo.ep.so.tmp.mydocs"
echo 'my notes' >"$O/foo.ep.so.tmp.mydocs/notes.txt"
echo 'int y;' >"$O/foo.ep.so.tmp.mydocs/foo.ep.c"
old "$O/foo.ep.so.tmp.mydocs/notes.txt" "$O/foo.ep.so.tmp.mydocs/foo.ep.c" \
    "$O/foo.ep.so.tmp.mydocs"
echo 'my notes' >"$O/foo.ep.so.tmp.backup"
old "$O/foo.ep.so.tmp.backup"
mkdir "$O/foo.ep.so.tmp.Fresh1"
echo keep >"$O/foo.ep.so.tmp.toolong"
# Empty, as a killed build's file may be: only its name, one letter
# longer than mkstemp's six, says it is not one.
: >"$O/foo.ep.so.tmp.Abcdef1"
echo keep >"$O/bar.ep.so.tmp.Ab3dE9"
echo keep >"$R/target"
ln -s "$R/target" "$O/foo.ep.so.tmp.Link12"
old "$O/foo.ep.so.tmp.toolong" "$O/bar.ep.so.tmp.Ab3dE9" \
    "$O/foo.ep.so.tmp.Link12" "$O/foo.ep.so.tmp.Abcdef1"

# An up-to-date plugin is only loaded: nothing is swept.
"$FGM" compile "$R/a.fgm" --out-dir "$O" >/dev/null 2>"$R/err" \
    || fail "reload: $(head -c 300 "$R/err")"
[ -e "$O/foo.ep.so.tmp.Zz9yX1" ] || fail "a load swept temporaries"

# With a compiler time limit of two hours, two-hour-old leftovers may
# still be a running build's.
sed 's/= 10/= 11/' "$R/a.fgm" >"$R/b.fgm"
FGM_CC_TIMEOUT=7200 "$FGM" compile "$R/b.fgm" --out-dir "$O" >/dev/null \
    2>"$R/err" || fail "second build: $(head -c 300 "$R/err")"
[ -d "$O/foo.ep.so.tmp.Ab3dE9" ] \
    || fail "a folder younger than twice FGM_CC_TIMEOUT was removed"

# A rebuild (the model changed) sweeps what is old enough.
"$FGM" compile "$R/a.fgm" --out-dir "$O" >/dev/null 2>"$R/err" \
    || fail "third build: $(head -c 300 "$R/err")"
[ -e "$O/foo.ep.so.tmp.Ab3dE9" ] && fail "stale folder left: $(ls "$O")"
[ -e "$O/foo.ep.so.tmp.Emit01" ] && fail "stale compile -o folder left: $(ls "$O")"
for f in foo.ep.so.tmp.Zz9yX1 foo.ep.so.tmp.Empty0 foo.ep.so.tmp.Zeros0; do
    [ -e "$O/$f" ] && fail "stale file $f left: $(ls "$O")"
done
for f in foo.ep.so.tmp.mydocs/notes.txt foo.ep.so.tmp.mydocs/foo.ep.c \
    foo.ep.so.tmp.backup; do
    [ -e "$O/$f" ] || fail "a user's $f was removed"
done
for f in foo.ep.so.tmp.Fresh1 foo.ep.so.tmp.toolong bar.ep.so.tmp.Ab3dE9 \
    foo.ep.so.tmp.Link12 foo.ep.so.tmp.Abcdef1 foo.ep.so foo.ep.c; do
    [ -e "$O/$f" ] || [ -L "$O/$f" ] || fail "$f was removed: $(ls "$O")"
done
[ -e "$R/target" ] || fail "a link's target was removed"

# `fgm compile -o SO` sweeps what its own killed builds left (it never
# did: each kill left SO.tmp.XXXXXX and its folder for good).
E="$R/emit"
mkdir -p "$E/x.so.tmp.Emit02" "$E/x.so.tmp.Fresh2"
echo 'int z;' >"$E/x.so.tmp.Emit02/plugin.c"
printf '\177ELF\2\1' >"$E/x.so.tmp.Zz9yX2"
old "$E/x.so.tmp.Emit02/plugin.c" "$E/x.so.tmp.Emit02" "$E/x.so.tmp.Zz9yX2"
"$FGM" compile "$R/a.fgm" -o "$E/x.so" >/dev/null 2>"$R/err" \
    || fail "compile -o: $(head -c 300 "$R/err")"
[ -e "$E/x.so.tmp.Emit02" ] && fail "compile -o left its stale folder: $(ls "$E")"
[ -e "$E/x.so.tmp.Zz9yX2" ] && fail "compile -o left its stale file: $(ls "$E")"
[ -d "$E/x.so.tmp.Fresh2" ] || fail "compile -o removed a fresh folder"
[ -f "$E/x.so" ] || fail "compile -o built nothing"

# A write error of its C file names the plugin asked for, not the
# build folder's file, gone by then (a full disk said
# "x.so.tmp.XXXXXX/plugin.c: error: cannot write"): here a file size
# limit, with SIGXFSZ ignored so that the write fails instead.
(trap '' XFSZ; ulimit -f 16; exec "$FGM" compile models/sudoku.fgm -o "$E/s.so") \
    >/dev/null 2>"$R/err" && fail "compile -o past the file size limit succeeded"
grep -q "^$E/s.so: error: cannot write: " "$R/err" \
    || fail "compile -o, write error: $(head -c 300 "$R/err")"
[ -n "$(ls "$E" | grep '^s\.so')" ] && fail "compile -o, write error, left: $(ls "$E")"

# Files are made as the umask says (a plugin was always 0755 and its C
# 0644, under umask 077 too).
U="$R/umask"
(umask 077
 "$FGM" compile "$R/a.fgm" --out-dir "$U" &&
 "$FGM" compile "$R/a.fgm" -o "$U/o.so" &&
 "$FGM" compile "$R/a.fgm" --emit-c "$U/e.c") >/dev/null 2>"$R/err" \
    || fail "umask 077: $(head -c 300 "$R/err")"
for f in foo.ep.so foo.ep.c o.so e.c; do
    [ "$(stat -c %a "$U/$f")" = "$(case $f in *.so) echo 700 ;; *) echo 600 ;; esac)" ] \
        || fail "umask 077: $f has mode $(stat -c %a "$U/$f")"
done
(umask 022; "$FGM" compile "$R/a.fgm" -o "$U/p.so") >/dev/null 2>&1
[ "$(stat -c %a "$U/p.so")" = 755 ] || fail "umask 022: a plugin has mode $(stat -c %a "$U/p.so")"
# An out-dir mounted noexec, where dlopen maps no plugin: said at once,
# with no build (each run built the plugin, 1.2 s, for the loader to
# refuse it in glibc's words).  Only where a tmpfs can be mounted (root,
# outside a container that forbids it).
NX="$TMP/noexec"
mkdir -p "$NX"
if mount -t tmpfs -o size=4m,noexec tmpfs "$NX" 2>/dev/null; then
    expect_exit 0 "noexec out-dir, auto" -- "$FGM" run models/dice.fgm --out-dir "$NX"
    expect_err "^fgm: $NX: mounted noexec, where no plugin can be loaded \(--out-dir elsewhere\); interpreting$" "noexec out-dir, auto"
    expect_exit 1 "noexec out-dir, compiled" -- "$FGM" run models/dice.fgm --backend compiled --out-dir "$NX"
    expect_err "mounted noexec" "noexec out-dir, compiled"
    # An out-dir not made yet, on that mount: its parent tells (the first
    # run built once for nothing).
    expect_exit 0 "new noexec out-dir" -- "$FGM" run models/dice.fgm --out-dir "$NX/new/out"
    expect_err "^fgm: $NX/new/out: mounted noexec" "new noexec out-dir"
    [ -z "$(ls -A "$NX")" ] || fail "noexec out-dir: a build was left: $(ls -A "$NX")"
    umount "$NX" || fail "noexec out-dir: cannot unmount $NX"
else
    echo "skip: noexec out-dir (no tmpfs can be mounted here)" >&2
fi
finish
