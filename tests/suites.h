/* tests/suites.h: every check suite, one X(name) row per tests/check_<name>.c,
 * and the helpers tests/check_main.c defines for them.
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
    X(eliminate)            \
    X(dlx)                  \
    X(norvig)               \
    X(generate)             \
    X(engine)               \
    X(plugin)               \
    X(compiler)             \
    X(alldiff)              \
    X(solvers)              \
    X(v4)                   \
    X(v4seed)               \
    X(api)                  \
    X(gated)                \
    X(evidence)             \
    X(gibbs)                \
    X(vmp)                  \
    X(sum)                  \
    X(reader)

#define FGM_TEST_DECLARE(name) Suite *name##_suite(void);
FGM_TEST_SUITES(FGM_TEST_DECLARE)
#undef FGM_TEST_DECLARE

/* A diagnostic sink for the suites that see fgm.h only (check_main.c):
 * the last message and the count since a test reset it. */
extern char last_msg[1024];
extern int nmsgs;
void msg_sink(void *ctx, const char *msg);

/* Writes TEXT to a new temporary file; returns its path (the caller
 * unlinks it and frees the path). */
char *temp_file(const char *text);

#endif
