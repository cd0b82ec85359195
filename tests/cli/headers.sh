#!/usr/bin/env bash
# tests/cli/headers.sh: plugins are compiled only from this build's headers.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The interpreter runs the kernels compiled into fgm; a plugin runs what
# the include folder's headers say.  A folder whose headers are not this
# build's (runtime/headers_hash.h) must be refused with the reason, and
# the auto backend must then interpret, never run other kernels.
. "$(dirname "$0")/common.bash"

obs='roll = 1 6 6 2 3 1 4 6 5 5 1 1 3 6 4 2 2 6 1 3'
cp -r runtime "$TMP/same"
cp -r runtime "$TMP/edited"
echo '/* one more line */' >> "$TMP/edited/ops/neq.h"
cp -r runtime "$TMP/short"
rm "$TMP/short/ops/table.h"

expect_exit 0 "a copy of this build's headers" -- \
    env FGM_INCLUDE_DIR="$TMP/same" "$FGM" compile models/dice.fgm --out-dir "$TMP/p1"

expect_exit 1 "edited headers are refused" -- \
    env FGM_INCLUDE_DIR="$TMP/edited" "$FGM" compile models/dice.fgm --out-dir "$TMP/p2"
expect_err "kernel headers in $TMP/edited are not the ones this fgm was built with" \
    "edited headers are refused"
[ ! -e "$TMP/p2/dice.ep.so" ] || fail "edited headers: a plugin was written"

expect_exit 1 "a missing header is refused" -- \
    env FGM_INCLUDE_DIR="$TMP/short" "$FGM" compile models/dice.fgm --out-dir "$TMP/p3"
expect_err "kernel header $TMP/short/ops/table.h: cannot read" \
    "a missing header is refused"

# Only regular files are read: a FIFO must not hang the open (timeout),
# nor a device that never ends the read.
cp -r runtime "$TMP/fifo"
rm "$TMP/fifo/ops/table.h"
mkfifo "$TMP/fifo/ops/table.h"
expect_exit 1 "a FIFO as a header is refused" -- \
    timeout 20 env FGM_INCLUDE_DIR="$TMP/fifo" "$FGM" compile models/dice.fgm \
    --out-dir "$TMP/p6"
expect_err "kernel header $TMP/fifo/ops/table.h: cannot read: not a regular file" \
    "a FIFO as a header is refused"
cp -r runtime "$TMP/dev"
ln -sf /dev/zero "$TMP/dev/ops/table.h"
expect_exit 1 "a device as a header is refused" -- \
    timeout 20 env FGM_INCLUDE_DIR="$TMP/dev" "$FGM" compile models/dice.fgm \
    --out-dir "$TMP/p7"
expect_err "ops/table.h: cannot read: not a regular file" \
    "a device as a header is refused"

# auto: the reason, then the interpreter's answer; compiled: exit 1.
echo "$obs" > "$TMP/obs.txt"
expect_exit 0 "auto interprets" -- \
    env FGM_INCLUDE_DIR="$TMP/edited" "$FGM" run models/dice.fgm \
    --out-dir "$TMP/p4" --observe "$TMP/obs.txt"
expect_err "not the ones this fgm was built with.*interpreting" "auto interprets"
expect_out '^# observation 0: interpreted ep' "auto interprets"
expect_out '^p alpha 6 4 4 3 3 6$' "auto interprets"
expect_exit 1 "compiled fails" -- \
    env FGM_INCLUDE_DIR="$TMP/edited" "$FGM" run models/dice.fgm \
    --backend compiled --out-dir "$TMP/p5" --observe "$TMP/obs.txt"
expect_err "not the ones this fgm was built with" "compiled fails"

[ "$fails" = 0 ] || exit 1
echo "headers: ok"
