/* tests/suites.h: every check suite, one X(name) row per tests/check_<name>.c.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * Include after <check.h>; declares <name>_suite() for each row.
 */
#ifndef FGM_SUITES_H
#define FGM_SUITES_H

#define FGM_TEST_SUITES(X) \
    X(ir)                  \
    X(puzzle)               \
    X(bench)                \
    X(exact)                \
    X(dlx)                  \
    X(norvig)               \
    X(generate)             \
    X(engine)               \
    X(plugin)               \
    X(compiler)             \
    X(alldiff)              \
    X(solvers)              \
    X(v4)                   \
    X(api)

#define FGM_TEST_DECLARE(name) Suite *name##_suite(void);
FGM_TEST_SUITES(FGM_TEST_DECLARE)
#undef FGM_TEST_DECLARE

#endif
