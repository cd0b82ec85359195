/* tests/check_main.c: runs every suite listed in tests/suites.h.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "suites.h"

/* Test fixture: file-scope state is allowed here. */
char last_msg[1024];
int nmsgs;

void
msg_sink(void *ctx, const char *msg)
{
    (void)ctx;
    snprintf(last_msg, sizeof last_msg, "%s", msg);
    nmsgs++;
}

char *
temp_file(const char *text)
{
    char *path = strdup("/tmp/fgm_test_XXXXXX");
    int fd = mkstemp(path);
    FILE *f;

    ck_assert_int_ge(fd, 0);
    f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

int
main(void)
{
    SRunner *sr = srunner_create(NULL);
    int failed;

#define ADD(name) srunner_add_suite(sr, name##_suite());
    FGM_TEST_SUITES(ADD)
#undef ADD
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
