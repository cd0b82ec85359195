/* tests/check_reader.c: a read error part way through a puzzle stream.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fopencookie (glibc, musl) makes a stream that serves a text and then
 * fails, as a failing disk would; elsewhere the suite is empty.  A file
 * of its own keeps _GNU_SOURCE out of the suites built, as the library
 * is, with -D_POSIX_C_SOURCE alone.
 */
#ifdef __linux__
#define _GNU_SOURCE     /* fopencookie */
#endif
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "../runtime/fgm.h"
#include "suites.h"

#ifdef __linux__
#define EASY "003020600900305001001806400008102900700000008006708200002609500800203009005010300"

/* A read-only stream serving TEXT, then failing with EIO. */
typedef struct failing_stream {
    const char *text;
    size_t len, at;
    size_t failat;          /* nonzero: fail once there, then serve on */
} failing_stream;

static ssize_t
failing_read(void *cookie, char *buf, size_t size)
{
    failing_stream *fs = cookie;
    size_t n = fs->len - fs->at < size ? fs->len - fs->at : size;

    if (fs->failat && fs->at < fs->failat && fs->at + n > fs->failat)
        n = fs->failat - fs->at;
    if (n == 0 || (fs->failat && fs->at == fs->failat)) {
        fs->failat = 0;
        errno = EIO;
        return -1;
    }
    memcpy(buf, fs->text + fs->at, n);
    fs->at += n;
    return (ssize_t)n;
}

/* A reader over TEXT that fails at its end (FAIL) or ends there; *F is
 * the stream to close after the reader. */
static fgm_puzzle_reader *
reader_over(failing_stream *fs, const char *text, int fail, FILE **f)
{
    static const cookie_io_functions_t io = { failing_read, NULL, NULL,
                                              NULL };
    fgm_puzzle_reader *r;

    fs->text = text;
    fs->len = strlen(text);
    fs->at = 0;
    fs->failat = 0;
    *f = fail ? fopencookie(fs, "r", io) : fmemopen((void *)text,
                                                    strlen(text), "r");
    ck_assert_ptr_nonnull(*f);
    r = fgm_puzzle_reader_file(*f, "disk.txt", 0, 0, msg_sink, NULL);
    ck_assert_ptr_nonnull(r);
    return r;
}

static int
count_items(void *ctx, const fgm_batch_item *it)
{
    int *n = ctx;

    *n += it->res.solved;
    return 0;
}

/* A read error ends the input with FGM_EIO, as its end does, but the
 * reader says it failed and a batch over it fails, after the puzzles
 * read before the error; at the true end neither happens. */
START_TEST(test_read_error_is_not_the_end)
{
    fgm_ir *ir = fgm_ir_sudoku(3);
    fgm_status st;
    fgm_csp *csp = fgm_csp_new(ir, &st);
    fgm_batch_opts bo;
    failing_stream fs;
    fgm_puzzle_reader *r;
    fgm_puzzle p;
    FILE *f;
    int fail, solved;

    ck_assert_ptr_nonnull(csp);
    memset(&bo, 0, sizeof bo);
    bo.solver = fgm_solver_find("dlx");
    bo.csp = csp;
    for (fail = 0; fail < 2; fail++) {
        r = reader_over(&fs, EASY "\n" EASY "\n", fail, &f);
        ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
        ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
        nmsgs = 0;
        ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EIO);
        ck_assert_int_eq(fgm_puzzle_reader_failed(r), fail);
        ck_assert_int_eq(nmsgs, fail);
        if (fail)
            ck_assert_msg(strstr(last_msg, "disk.txt:3: error: read error"),
                          "got: %s", last_msg);
        fgm_puzzle_reader_close(r);
        fclose(f);

        r = reader_over(&fs, EASY "\n" EASY "\n", fail, &f);
        solved = 0;
        ck_assert_int_eq(fgm_batch_run(r, &bo, count_items, &solved, NULL),
                         fail ? FGM_EIO : FGM_OK);
        ck_assert_int_eq(solved, 2);
        fgm_puzzle_reader_close(r);
        fclose(f);
    }
    ck_assert_int_eq(fgm_puzzle_reader_failed(NULL), 0);
    fgm_csp_free(csp);
    fgm_ir_free(ir);
}
END_TEST

/* A read error part way through a line ends the input there, at that
 * line: the part read is not taken for a line (a malformed one), nor is
 * the input read on past the error when the part read is blank or a
 * comment.  The stream fails once and would then serve the rest, as a
 * disk's retried read may. */
START_TEST(test_read_error_mid_line)
{
    static const char *const texts[] = {
        EASY "\n" EASY "\n" EASY "\n",
        EASY "\n#                    \n" EASY "\n",
    };
    failing_stream fs;
    fgm_puzzle_reader *r;
    fgm_puzzle p;
    FILE *f;
    int i;

    for (i = 0; i < 2; i++) {
        r = reader_over(&fs, texts[i], 1, &f);
        fs.failat = strlen(EASY) + 1 + 10;  /* line 2, ten bytes in */
        ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
        nmsgs = 0;
        ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EIO);
        ck_assert_int_eq(fgm_puzzle_reader_failed(r), 1);
        ck_assert_int_eq(nmsgs, 1);
        ck_assert_msg(strstr(last_msg, "disk.txt:2: error: read error"),
                      "text %d: got: %s", i, last_msg);
        ck_assert_int_eq(fgm_puzzle_reader_count(r), 1);
        fgm_puzzle_reader_close(r);
        fclose(f);
    }
}
END_TEST
#endif

Suite *
reader_suite(void)
{
    Suite *s = suite_create("reader");
    TCase *tc = tcase_create("core");

#ifdef __linux__
    tcase_add_test(tc, test_read_error_is_not_the_end);
    tcase_add_test(tc, test_read_error_mid_line);
#endif
    suite_add_tcase(s, tc);
    return s;
}
