/* tests/check_main.c: runs every suite listed in tests/suites.h.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
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
