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

# build MODE ARGS...: starts `fgm compile`, sends SIGTERM once the
# compiler runs, and checks what is left.
build() {
    local what=$1 i=0 pid st
    shift
    rm -f "$R/cc.pid"
    SIG=$R CC=$R/cc "$FGM" compile "$R/a.fgm" "$@" >/dev/null 2>&1 &
    pid=$!
    while [ ! -s "$R/cc.pid" ] && [ $i -lt 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ -s "$R/cc.pid" ] || fail "$what: the compiler never started"
    kill -TERM $pid
    wait $pid
    st=$?
    [ $st = 143 ] || fail "$what: exit $st, want 143 (killed by SIGTERM)"
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
build "the plugin cascade (--out-dir)" --out-dir "$R/out"
build "an explicit plugin (-o)" -o "$R/out/foo.so"
finish
