# tests/cli/plugin_cpu.sh: a plugin built for another CPU is rebuilt, not run.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Plugins are built with -march=native.  One built on a machine with
# instructions this one lacks (a generated/ folder shared or copied
# between machines) would die of SIGILL in its first sweep; its entry
# returns NULL instead (fgm_plugin_cpu_ok, runtime/plugin_abi.h) and the
# cascade rebuilds it.  Stood in for here by XOP, which no x86 CPU since
# AMD's 2017 Zen has (and no Intel CPU ever had): the test is skipped on
# a CPU that has it, or where the compiler does not take -mxop (not x86).
. "$(dirname "$0")/common.bash"
CC=${CC:-cc}
R="$TMP/cpu"
mkdir -p "$R/out"
if grep -qw xop /proc/cpuinfo 2>/dev/null \
    || ! echo 'int x;' | $CC -mxop -x c -c - -o "$R/probe.o" 2>/dev/null; then
    echo "skipped: this CPU has XOP, or $CC has no -mxop"
    finish
    exit 0
fi

# A foreign plugin: the model's own C, built for XOP.
"$FGM" compile models/dice.fgm --emit-c "$R/dice.c" >/dev/null 2>&1 \
    || fail "--emit-c"
$CC -O3 -mxop -fPIC -shared -ffp-contract=off -Iruntime "$R/dice.c" \
    -o "$R/out/dice.ep.so" -lm || fail "an XOP build of the plugin"

expect_exit 0 "a foreign plugin is rebuilt" -- \
    "$FGM" run models/dice.fgm --backend compiled --out-dir "$R/out"
expect_err 'dice\.ep\.so: fgm_plugin_entry returned NULL \(built for instructions this CPU lacks\?\); rebuilding' \
    "the reason for the rebuild"
expect_out '^# observation 0: compiled ep' "the rebuilt plugin runs"
expect_exit 0 "the rebuilt plugin is kept" -- \
    "$FGM" run models/dice.fgm --backend compiled --out-dir "$R/out"
grep -q . "$TMP/err" && fail "the rebuilt plugin loads silently: $(head -c 300 "$TMP/err")"

# Flags that keep building for instructions the CPU lacks: compiled fails
# with the reason, auto interprets, and no such plugin is left behind.
FGM_PLUGIN_CFLAGS="-O3 -mxop" expect_exit 1 "--backend compiled, XOP flags" -- \
    "$FGM" run models/dice.fgm --backend compiled --out-dir "$R/x"
expect_err 'returned NULL \(built for instructions this CPU lacks\?\)$' \
    "the compiled backend's reason"
FGM_PLUGIN_CFLAGS="-O3 -mxop" expect_exit 0 "--backend auto, XOP flags" -- \
    "$FGM" run models/dice.fgm --out-dir "$R/x"
expect_err 'this CPU lacks\?\); interpreting' "auto falls back"
expect_out '^# observation 0: interpreted ep' "and interprets"
[ -e "$R/x/dice.ep.so" ] && fail "a plugin this CPU cannot run was kept"
finish
