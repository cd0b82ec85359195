#!/usr/bin/env bash
# tests/cli/install.sh: an installed fgm builds plugins from its own headers.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# fgm carries the kernel headers it was built with (runtime/kernel_text.h)
# and writes them next to each plugin's C source: no include folder is
# looked for, so neither the installed copy in include/fgm/ (there for
# users who compile emitted C themselves) nor the source tree, edited or
# gone, can give a plugin other kernels than the interpreter's.
. "$(dirname "$0")/common.bash"

B=$(dirname "$FGM")
SRC=$(pwd -P)
FGM_ABS=$(cd "$B" && pwd)/$(basename "$FGM")
P=$TMP/prefix
env -u MAKEFLAGS -u MAKELEVEL make -s install PREFIX="$P" B="$B" >"$TMP/install.log" 2>&1 ||
    fail "make install: $(tail -3 "$TMP/install.log")"
[ -r "$P/include/fgm/kernels.h" ] || fail "make install: no include/fgm/kernels.h"
cp models/dice.fgm "$TMP/dice.fgm"
cd "$TMP" || exit 1

expect_exit 0 "installed fgm compiles" -- \
    "$P/bin/fgm" compile dice.fgm --out-dir plug
echo 'roll = 1 6 6 2 3 1 4 6 5 5 1 1 3 6 4 2 2 6 1 3' > obs.txt
expect_exit 0 "installed fgm runs its plugin" -- \
    "$P/bin/fgm" run dice.fgm --backend compiled --out-dir plug --observe obs.txt
expect_out '^# observation 0: compiled ep' "installed fgm runs its plugin"
expect_out '^p alpha 6 4 4 3 3 6$' "installed fgm prints the posterior"

# What each plugin build was given: a compiler wrapper records its
# arguments (cc.log) and copies the headers next to the C file (seen/).
cat > cc-log <<EOF
#!/bin/sh
echo "\$*" > "$TMP/cc.log"
for a; do case \$a in *.c) c=\$a;; esac; done
rm -rf "$TMP/seen"; mkdir "$TMP/seen"
cp "\$(dirname "\$c")"/*.h "$TMP/seen/" 2>/dev/null
exec cc "\$@"
EOF
chmod +x cc-log
export CC=$TMP/cc-log
own() {     # own WHAT: the last build used fgm's own headers, no -I
    if grep -qF -- "-I " cc.log 2>/dev/null; then
        fail "$1: cc ran with $(cat cc.log)"
    elif [ ! -s seen/kernels.h ] || [ ! -s seen/plugin_abi.h ]; then
        fail "$1: no kernels.h and plugin_abi.h next to the C file"
    elif grep -q '^ *# *include *"' seen/kernels.h; then
        fail "$1: kernels.h includes other headers"
    fi
    rm -f cc.log
}

expect_exit 0 "installed fgm uses its own headers" -- \
    "$P/bin/fgm" compile dice.fgm --out-dir plug2
own "installed fgm uses its own headers"
ls plug2 | grep -q '\.tmp\.' && fail "a build folder was left: $(ls plug2)"
expect_exit 0 "found on PATH, too" -- \
    env PATH="$P/bin:$PATH" fgm compile dice.fgm --out-dir plug3
own "found on PATH, too"

# The copy in include/fgm/ is not read: edited, or with a header missing,
# it changes nothing.
echo '#error not these headers' >> "$P/include/fgm/ops/neq.h"
rm "$P/include/fgm/ops/table.h"
expect_exit 0 "the installed copy is not read" -- \
    "$P/bin/fgm" compile dice.fgm --out-dir plug7
own "the installed copy is not read"

# A program linked with the installed libfgm.so builds its plugins too.
mkdir -p app/models && cp dice.fgm app/models/
expect_exit 0 "build against the installed libfgm.so" -- \
    cc -std=c11 -I"$P/include" "$SRC/tests/example/dice.c" "$P/lib/libfgm.so" \
    -Wl,-rpath,"$P/lib" $(pkg-config --libs gsl) -ldl -lpthread -lm -o app/dice
expect_exit 0 "libfgm.so builds its plugin" -- \
    bash -c 'cd app && ./dice'
expect_out 'compiled' "libfgm.so builds its plugin"
own "libfgm.so builds its plugin"
# ... and one built with the flags of the installed fgm.pc.
pc=$(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --cflags --libs fgm) ||
    fail "pkg-config finds no fgm.pc in $P/lib/pkgconfig"
# Its Version is fgm.h's FGM_VERSION string alone (the define's comment
# once followed it into the field).
v=$(sed -n 's/^#define FGM_VERSION "\([^"]*\)".*/\1/p' "$SRC/runtime/fgm.h")
[ -n "$v" ] && grep -qx "Version: $v" "$P/lib/pkgconfig/fgm.pc" ||
    fail "fgm.pc's Version line: $(grep Version "$P/lib/pkgconfig/fgm.pc")"
expect_exit 0 "build with pkg-config's flags for fgm" -- \
    cc -std=c11 "$SRC/tests/example/dice.c" $pc -Wl,-rpath,"$P/lib" \
    -o app/dice-pc
expect_exit 0 "the pkg-config build runs" -- bash -c 'cd app && ./dice-pc'
expect_out 'compiled' "the pkg-config build runs"

# The build tree's fgm does the same.
expect_exit 0 "build tree fgm uses its own headers" -- \
    "$FGM_ABS" compile dice.fgm --out-dir plug5
own "build tree fgm uses its own headers"

# fgm's headers (kernels.h with its ops/ headers inlined) give the same
# machine code as the source tree's (on the 9x9 Sudoku model).
mkdir -p byhand && cp seen/*.h byhand/ 2>/dev/null
"$P/bin/fgm" compile sudoku:3 --emit-c byhand/dice.c
cc -O2 -fPIC -shared -ffp-contract=off -o byhand/own.so byhand/dice.c -lm ||
    fail "emitted C does not build with fgm's own headers"
mkdir -p bytree && cp byhand/dice.c bytree/
cc -O2 -fPIC -shared -ffp-contract=off -I "$SRC/runtime" -o bytree/tree.so \
    bytree/dice.c -lm || fail "emitted C does not build with the source headers"
code() { objdump -d --no-show-raw-insn "$1" | tail -n +4; }
if command -v objdump >/dev/null; then
    [ -n "$(code byhand/own.so)" ] &&
        [ "$(code byhand/own.so)" = "$(code bytree/tree.so)" ] ||
        fail "fgm's own headers and the source tree's give other machine code"
fi

[ "$fails" = 0 ] || exit 1
echo "install: ok"
