# tests/cli/batch.sh: -j N keeps input order and gives the same answers.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
P="$SHARED/puzzles"
head -n 2000 "$P/sudoku17.txt" > "$TMP/b.txt"
cat "$P/top95.txt" >> "$TMP/b.txt"
"$FGM" solve --solver dlx -j 1 "$TMP/b.txt" > "$TMP/j1" 2>/dev/null || fail "-j 1"
"$FGM" solve --solver dlx -j 4 "$TMP/b.txt" > "$TMP/j4" 2>"$TMP/err" || fail "-j 4"
cmp -s "$TMP/j1" "$TMP/j4" || fail "-j 4 output differs from -j 1"
grep -q "solved=2095/2095" "$TMP/err" || fail "-j 4 solves all: $(cat "$TMP/err")"
"$FGM" solve --solver norvig -j 3 "$TMP/b.txt" > "$TMP/n3" 2>/dev/null || fail "norvig -j 3"
cmp -s "$TMP/j1" "$TMP/n3" || fail "norvig answers differ from dlx"
finish
