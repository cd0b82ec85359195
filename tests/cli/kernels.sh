# tests/cli/kernels.sh: the interpreter's and a plugin's builds of the kernels compute the same bits.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
CC=${CC:-cc}

# same_bits PROGRAM LINES WHAT: tests/PROGRAM.c built with the library's
# flags (-O2, the kernels' portable paths) and a plugin's (-O3
# -march=native, their AVX paths); each build must pass its own checks
# (exit 0) and print LINES lines, and the two outputs must be identical.
same_bits() {
    local prog=$1 lines=$2 what=$3 build name
    for build in lib:-O2 plugin:"-O3 -march=native"; do
        name=${build%%:*}
        $CC -std=c11 ${build#*:} -ffp-contract=off -D_POSIX_C_SOURCE=200809L \
            -Iruntime "tests/$prog.c" -o "$TMP/${prog}_$name" -lm \
            || fail "$prog.c builds with ${build#*:}"
        "$TMP/${prog}_$name" >"$TMP/${prog}_$name.txt" \
            || fail "$name build: $what"
    done
    [ "$(wc -l <"$TMP/${prog}_lib.txt")" -eq "$lines" ] \
        || fail "$prog: $lines lines, got $(wc -l <"$TMP/${prog}_lib.txt")"
    cmp -s "$TMP/${prog}_lib.txt" "$TMP/${prog}_plugin.txt" \
        || fail "library and plugin builds of $prog differ: $(diff "$TMP/${prog}_lib.txt" "$TMP/${prog}_plugin.txt" | head -c 300)"
}

# The alldiff max-product loops (vectors in a plugin, scalars in the
# library) on edge inputs, each build also agreeing with one assignment
# solve per minor (tests/kernel_paths.c).
same_bits kernel_paths 4090 "messages differ from one solve per minor"

# The x != y sum-product kernel (four-lane vectors, or pairs of halves;
# the last chunks of two variables divided together for 9 or 25 values),
# each build equal to a scalar reference (tests/neq_paths.c).
same_bits neq_paths 19800 "the neq kernel differs from its scalar reference"

# The whole alldiff update around those messages (cavities, point-mass
# rows, contradiction fallbacks, damping, floor, change, beliefs: vectors
# in a plugin), sum- and max-product, and the seed's v4 update in batches
# (tests/alldiff_paths.c).
same_bits alldiff_paths 12960 "the alldiff update differs between builds"

# The pairwise table kernel (the interpreter's and a plugin's call for
# a two-variable table, sizes constant in a plugin) equal to the general
# table kernel on the same updates (tests/table_paths.c).
same_bits table_paths 11616 "the pairwise table kernel differs from the general one"

# The flooding sweep's belief refresh with stored variable-to-factor
# messages, each build equal to the same refresh two edges at a time
# (tests/v2f_paths.c).
same_bits v2f_paths 4000 "the refresh differs from one edge at a time"

# Their AVX-512 paths (FGM_K_NEQ8; alldiff_paths for
# its 512-bit instruction selection) are what a plugin
# gets where the CPU has AVX-512; where it has not, -march=native leaves
# that code out, so they are built here for AVX-512 in any case, and run
# (against the library's output) only where the CPU can.
# (Not where the compiler has no -mavx512f: not x86.)
for prog in neq_paths v2f_paths alldiff_paths; do
    if echo 'int x;' | $CC -mavx2 -mavx512f -x c -c - -o "$TMP/probe.o" \
            2>/dev/null; then
        $CC -std=c11 -O3 -mavx2 -mavx512f -ffp-contract=off \
            -D_POSIX_C_SOURCE=200809L -Iruntime "tests/$prog.c" \
            -o "$TMP/${prog}_512" -lm \
            || fail "$prog.c builds with -mavx512f"
    fi
    if [ -x "$TMP/${prog}_512" ] && grep -qw avx512f /proc/cpuinfo 2>/dev/null
    then
        "$TMP/${prog}_512" >"$TMP/${prog}_512.txt" \
            || fail "AVX-512 build of $prog fails its own checks"
        cmp -s "$TMP/${prog}_lib.txt" "$TMP/${prog}_512.txt" \
            || fail "library and AVX-512 builds of $prog differ"
    fi
done

# A plugin built on a CPU that splits 512-bit operations in two (Zen 4,
# -DFGM_K_SPLIT512) keeps the x != y update on 256-bit vectors while the
# rest of it has AVX-512: the same bits again.
if [ -x "$TMP/neq_paths_512" ] && grep -qw avx512f /proc/cpuinfo 2>/dev/null
then
    $CC -std=c11 -O3 -mavx2 -mavx512f -DFGM_K_SPLIT512 -ffp-contract=off \
        -D_POSIX_C_SOURCE=200809L -Iruntime tests/neq_paths.c \
        -o "$TMP/neq_paths_split" -lm \
        || fail "neq_paths.c builds with -DFGM_K_SPLIT512"
    "$TMP/neq_paths_split" >"$TMP/neq_paths_split.txt" \
        || fail "the split build of neq_paths fails its own checks"
    cmp -s "$TMP/neq_paths_lib.txt" "$TMP/neq_paths_split.txt" \
        || fail "library and split AVX-512 builds of neq_paths differ"
fi

# The alldiff benchmark's methods agree in both builds before it times
# them (tests/bench_alldiff.c check; its rows once had the stride of
# their live lanes, which the vector paths read past).
for build in "-O2" "-O3 -march=native"; do
    $CC -std=c11 $build -ffp-contract=off -D_POSIX_C_SOURCE=200809L \
        -Iruntime tests/bench_alldiff.c -o "$TMP/bench_alldiff" \
        $(pkg-config --libs gsl) -lm || fail "bench_alldiff.c builds with $build"
    "$TMP/bench_alldiff" check >"$TMP/bench_alldiff.txt" \
        || fail "bench_alldiff built $build: $(cat "$TMP/bench_alldiff.txt")"
done

finish
