# tests/cli/common.bash: assertions for the CLI tests (sourced).
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
FGM=${FGM:-build/fgm}
SHARED=${SHARED:-../shared}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0

fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
pass() { :; }

# expect_exit CODE DESCRIPTION -- command...
expect_exit() {
    local want=$1 what=$2; shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    [ "$got" = "$want" ] || fail "$what: exit $got, want $want; stderr: $(head -c 300 "$TMP/err")"
}

# expect_err PATTERN DESCRIPTION: the last command's stderr matches PATTERN.
expect_err() {
    grep -Eq -- "$1" "$TMP/err" || fail "$2: stderr lacks /$1/: $(head -c 300 "$TMP/err")"
}

expect_out() {
    grep -Eq -- "$1" "$TMP/out" || fail "$2: stdout lacks /$1/: $(head -c 300 "$TMP/out")"
}

# peak_kib command...: the command's peak resident memory in KiB (VmHWM,
# sampled every 50 ms while it runs; needs /proc), its output dropped.
peak_kib() {
    local pid hwm=0 h
    "$@" > /dev/null 2>&1 &
    pid=$!
    while h=$(awk '/^VmHWM:/ { print $2 }' /proc/$pid/status 2>/dev/null) && [ -n "$h" ]; do
        hwm=$h
        sleep 0.05
    done
    wait $pid
    echo "$hwm"
}

# col NAME ROW: the CSV field NAME of data row ROW (1-based) of $TMP/out.
col() {
    awk -F, -v name="$1" -v row="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
        NR == row + 1 { print (c ? $c : "missing") }' "$TMP/out"
}

# same FILE1 FILE2: the CSVs agree but for the time and the backend.
same() {
    cut -d, -f1-2,4-5,7- "$1" > "$TMP/s1"
    cut -d, -f1-2,4-5,7- "$2" > "$TMP/s2"
    cmp -s "$TMP/s1" "$TMP/s2"
}

finish() {
    if [ "$fails" -gt 0 ]; then echo "$fails failure(s)" >&2; exit 1; fi
    echo ok
}
