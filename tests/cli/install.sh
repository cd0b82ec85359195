#!/usr/bin/env bash
# tests/cli/install.sh: an installed fgm builds plugins from its own headers.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# `make install` puts bin/fgm next to include/fgm/ (the kernel headers a
# plugin is compiled from).  The installed binary must find them without
# $FGM_INCLUDE_DIR, and must prefer them to the source tree it was built
# in, which may since hold other kernels.
. "$(dirname "$0")/common.bash"

B=$(dirname "$FGM")
SRC=$(pwd -P)
FGM_ABS=$(cd "$B" && pwd)/$(basename "$FGM")
P=$TMP/prefix
make -s install PREFIX="$P" B="$B" >"$TMP/install.log" 2>&1 ||
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

# Broken installed headers: the installed fgm must be reading them, not
# the source tree's.
printf '#error installed-headers-read\n' > "$P/include/fgm/kernels.h"
expect_exit 1 "installed headers come first" -- \
    "$P/bin/fgm" compile dice.fgm --out-dir plug2
expect_err 'installed-headers-read' "installed headers come first"
expect_exit 1 "found on PATH, too" -- \
    env PATH="$P/bin:$PATH" fgm compile dice.fgm --out-dir plug3
expect_err 'installed-headers-read' "found on PATH, too"
# glibc's dladdr names the program by argv[0], which the caller chooses.
expect_exit 1 "argv[0] naming another file" -- \
    bash -c 'exec -a /nonexistent/fgm "$0" compile dice.fgm --out-dir plug6' \
    "$P/bin/fgm"
expect_err 'installed-headers-read' "argv[0] naming another file"
# A program linked with the installed libfgm.so, outside PREFIX, finds the
# headers from the library's location.
mkdir -p app/models && cp dice.fgm app/models/
expect_exit 0 "build against the installed libfgm.so" -- \
    cc -std=c11 -I"$P/include" "$SRC/tests/example/dice.c" "$P/lib/libfgm.so" \
    -Wl,-rpath,"$P/lib" $(pkg-config --libs gsl) -ldl -lpthread -lm -o app/dice
expect_exit 0 "libfgm.so finds its headers" -- \
    bash -c 'cd app && ./dice'
expect_out 'interpreted' "libfgm.so finds its headers"
expect_err 'installed-headers-read' "libfgm.so finds its headers"
expect_exit 0 "FGM_INCLUDE_DIR overrides them" -- \
    env FGM_INCLUDE_DIR="$SRC/runtime" "$P/bin/fgm" compile dice.fgm --out-dir plug4

# A build tree's fgm has no ../include/fgm: it uses the source tree's
# (a compiler wrapper records the -I it is given).
printf '#!/bin/sh\necho "$*" >> "%s/cc.log"\nexec cc "$@"\n' "$TMP" > cc-log
chmod +x cc-log
expect_exit 0 "build tree fgm uses the source headers" -- \
    env CC="$TMP/cc-log" "$FGM_ABS" compile dice.fgm --out-dir plug5
grep -qF -- "-I $SRC/runtime " cc.log ||
    fail "build tree fgm uses the source headers: cc ran with $(cat cc.log)"

[ "$fails" = 0 ] || exit 1
echo "install: ok"
