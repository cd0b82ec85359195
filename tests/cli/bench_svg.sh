# tests/cli/bench_svg.sh: fgm bench's chart is wide enough for its text.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"

# The protocol line under the title, with a seed, a 7-digit timeout and
# 100 repeats, is 98 bytes: at runtime/bench_svg.c's estimate of 6 px a
# byte at 11 px, from x = 16, it ran past the 600 px the chart kept for
# one solver on one corpus.
expect_exit 0 "bench --svg with a long protocol line" -- "$FGM" bench \
    --solvers dlx --repeat 100 --seed 2147483647 --timeout-ms 1234567 \
    --svg "$TMP/chart.svg" puzzles/seed003.txt
width=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)".*/\1/p' "$TMP/chart.svg")
line=$(sed -n 's/^<text [^>]*y="42"[^>]*>\([^<]*\)<.*/\1/p' "$TMP/chart.svg")
case $line in
*"seed = puzzle index + 2147483647") ;;
*) fail "no protocol line with the seed: '$line'" ;;
esac
[ "${width:-0}" -ge $((16 + ${#line} * 6)) ] ||
    fail "chart $width px wide, its protocol line ${#line} bytes from x = 16"

# A corpus name with a control byte, a Latin-1 byte, a lone surrogate's
# UTF-8 and an overlong one (U+07FF in three bytes): each byte becomes
# U+FFFD, and the chart stays well-formed XML (the bytes went out as they
# were); a valid UTF-8 character is kept.
odd="$TMP/a$(printf '\001')b$(printf '\351')c$(printf '\355\240\200')d$(printf '\303\251')e$(printf '\340\237\277')f.txt"
cp puzzles/seed003.txt "$odd"
expect_exit 0 "bench --svg, odd bytes in a corpus name" -- "$FGM" bench \
    --solvers dlx --svg "$TMP/odd.svg" "$odd"
grep -q "a$(printf '\357\277\275')b$(printf '\357\277\275')c$(printf '\357\277\275\357\277\275\357\277\275')d$(printf '\303\251')e$(printf '\357\277\275\357\277\275\357\277\275')f.txt" "$TMP/odd.svg" ||
    fail "odd bytes: the corpus name not written with U+FFFD"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' \
        "$TMP/odd.svg" || fail "odd bytes: the chart is not well-formed XML"
fi

finish
