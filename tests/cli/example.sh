# tests/cli/example.sh: the README's C API example builds against libfgm
# and prints the exact Dirichlet posterior.  SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
B=$(dirname "$FGM")
expect_exit 0 "build example" -- cc -std=c11 -Wall -Wextra -Werror -Iruntime \
    tests/example/dice.c "$B/libfgm.a" $(pkg-config --libs gsl) -ldl -lpthread -lm \
    -o "$TMP/dice"
expect_exit 0 "run example" -- "$TMP/dice"
expect_out 'p ~ Dirichlet\(6, 4, 4, 3, 3, 6\)' "posterior = 1 + counts"
finish
