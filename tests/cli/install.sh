#!/usr/bin/env bash
# tests/cli/install.sh: an installed fgm builds plugins from its own headers.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# `make install` puts bin/fgm next to include/fgm/ (the kernel headers a
# plugin is compiled from).  The installed binary must find them without
# $FGM_INCLUDE_DIR, and must prefer them to the source tree it was built
# in, which may since hold other kernels; headers that are not its build's
# are passed over (tests/cli/headers.sh: refused when named).
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
unset FGM_INCLUDE_DIR

expect_exit 0 "installed fgm compiles" -- \
    "$P/bin/fgm" compile dice.fgm --out-dir plug
echo 'roll = 1 6 6 2 3 1 4 6 5 5 1 1 3 6 4 2 2 6 1 3' > obs.txt
expect_exit 0 "installed fgm runs its plugin" -- \
    "$P/bin/fgm" run dice.fgm --backend compiled --out-dir plug --observe obs.txt
expect_out '^# observation 0: compiled ep' "installed fgm runs its plugin"
expect_out '^p alpha 6 4 4 3 3 6$' "installed fgm prints the posterior"

# Which headers a plugin build used: a compiler wrapper records the -I it
# is given (cc.log, one line per run).
printf '#!/bin/sh\necho "$*" > "%s/cc.log"\nexec cc "$@"\n' "$TMP" > cc-log
chmod +x cc-log
export CC=$TMP/cc-log
INC=$(cd "$P/include/fgm" && pwd -P)
used() {    # used DIR WHAT: the last plugin build ran with -I DIR
    grep -qF -- "-I $1 " cc.log 2>/dev/null ||
        fail "$2: cc ran with $(cat cc.log 2>/dev/null || echo nothing)"
    rm -f cc.log    # so that the next check sees its own run only
}

expect_exit 0 "installed headers come first" -- \
    "$P/bin/fgm" compile dice.fgm --out-dir plug2
used "$INC" "installed headers come first"
expect_exit 0 "found on PATH, too" -- \
    env PATH="$P/bin:$PATH" fgm compile dice.fgm --out-dir plug3
used "$INC" "found on PATH, too"
# glibc's dladdr names the program by argv[0], which the caller chooses.
expect_exit 0 "argv[0] naming another file" -- \
    bash -c 'exec -a /nonexistent/fgm "$0" compile dice.fgm --out-dir plug6' \
    "$P/bin/fgm"
used "$INC" "argv[0] naming another file"
# A program linked with the installed libfgm.so, outside PREFIX, finds the
# headers from the library's location.
mkdir -p app/models && cp dice.fgm app/models/
expect_exit 0 "build against the installed libfgm.so" -- \
    cc -std=c11 -I"$P/include" "$SRC/tests/example/dice.c" "$P/lib/libfgm.so" \
    -Wl,-rpath,"$P/lib" $(pkg-config --libs gsl) -ldl -lpthread -lm -o app/dice
expect_exit 0 "libfgm.so finds its headers" -- \
    bash -c 'cd app && ./dice'
expect_out 'compiled' "libfgm.so finds its headers"
used "$INC" "libfgm.so finds its headers"
expect_exit 0 "FGM_INCLUDE_DIR overrides them" -- \
    env FGM_INCLUDE_DIR="$SRC/runtime" "$P/bin/fgm" compile dice.fgm --out-dir plug4
used "$SRC/runtime" "FGM_INCLUDE_DIR overrides them"

# Installed headers of another version (here: edited) are passed over for
# the source tree's, which this build's are.
echo '/* another version */' >> "$P/include/fgm/ops/neq.h"
expect_exit 0 "installed headers of another build are passed over" -- \
    "$P/bin/fgm" compile dice.fgm --out-dir plug7
used "$SRC/runtime" "installed headers of another build are passed over"

# A build tree's fgm has no ../include/fgm: it uses the source tree's.
expect_exit 0 "build tree fgm uses the source headers" -- \
    "$FGM_ABS" compile dice.fgm --out-dir plug5
used "$SRC/runtime" "build tree fgm uses the source headers"

[ "$fails" = 0 ] || exit 1
echo "install: ok"
