# tests/cli/example.sh: the README's C API example builds against libfgm
# and prints the exact Dirichlet posterior.  SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
B=$(dirname "$FGM")
expect_exit 0 "build example" -- cc -std=c11 -Wall -Wextra -Werror -Iruntime \
    tests/example/dice.c "$B/libfgm.a" $(pkg-config --libs gsl) -ldl -lpthread -lm \
    -o "$TMP/dice"
expect_exit 0 "run example" -- "$TMP/dice"
expect_out 'p ~ Dirichlet\(6, 4, 4, 3, 3, 6\)' "posterior = 1 + counts"
expect_out '^log P\(rolls\) = -38\.671317$' "the evidence: the Dirichlet-multinomial's"
# The EP benchmark program of `make bench` (tests/bench_ep.c), on the
# public API too: it builds, runs small, and the backends agree.
expect_exit 0 "build bench_ep" -- cc -std=c11 -Wall -Wextra -Werror -Iruntime \
    tests/bench_ep.c "$B/libfgm.a" $(pkg-config --libs gsl) -ldl -lpthread -lm \
    -o "$TMP/bench_ep"
expect_exit 0 "run bench_ep" -- "$TMP/bench_ep" puzzles/seed000.txt 1 "$TMP/plugins"
expect_out "^seed +compiled +[0-9.]+ +[0-9.]+ +[0-9.]+$" "bench_ep times the seed's clues compiled"
expect_out "^exact +interpreted " "bench_ep times exact clues interpreted"
expect_out "^largest \|compiled - interpreted\| marginal: 0$" "bench_ep: the backends agree to the bit"
finish
