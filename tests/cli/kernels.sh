# tests/cli/kernels.sh: the interpreter's and a plugin's builds of the kernels compute the same bits.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
CC=${CC:-cc}

# The alldiff max-product loops run on AVX vectors in a plugin (-O3
# -march=native) and on scalars in the library (-O2): same outputs, to
# the bit, on edge inputs; each build also agrees with one assignment
# solve per minor (tests/kernel_paths.c).
for build in lib:-O2 plugin:"-O3 -march=native"; do
    name=${build%%:*}
    $CC -std=c11 ${build#*:} -ffp-contract=off -D_POSIX_C_SOURCE=200809L \
        -Iruntime tests/kernel_paths.c -o "$TMP/paths_$name" -lm \
        || fail "kernel_paths.c builds with ${build#*:}"
    "$TMP/paths_$name" >"$TMP/$name.txt" \
        || fail "$name build: messages differ from one solve per minor"
done
[ "$(wc -l <"$TMP/lib.txt")" -eq 4090 ] || fail "kernel_paths: 4090 matrices, got $(wc -l <"$TMP/lib.txt")"
cmp -s "$TMP/lib.txt" "$TMP/plugin.txt" \
    || fail "library and plugin builds of the alldiff kernel differ: $(diff "$TMP/lib.txt" "$TMP/plugin.txt" | head -c 300)"

# The x != y sum-product kernel (four-lane vectors, or pairs of halves;
# the last chunks of two variables divided together for 9 or 25 values):
# the same bits in both builds, each equal to a scalar reference
# (tests/neq_paths.c).
for build in lib:-O2 plugin:"-O3 -march=native"; do
    name=${build%%:*}
    $CC -std=c11 ${build#*:} -ffp-contract=off -D_POSIX_C_SOURCE=200809L \
        -Iruntime tests/neq_paths.c -o "$TMP/neq_$name" -lm \
        || fail "neq_paths.c builds with ${build#*:}"
    "$TMP/neq_$name" >"$TMP/neq_$name.txt" \
        || fail "$name build: the neq kernel differs from its scalar reference"
done
[ "$(wc -l <"$TMP/neq_lib.txt")" -eq 3600 ] || fail "neq_paths: 3600 updates, got $(wc -l <"$TMP/neq_lib.txt")"
cmp -s "$TMP/neq_lib.txt" "$TMP/neq_plugin.txt" \
    || fail "library and plugin builds of the neq kernel differ"

finish
