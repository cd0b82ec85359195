/* tests/check_puzzle.c: puzzle reader and writers, every malformed-input class.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../runtime/fgm.h"
#include "suites.h"

static fgm_status
parse(const char *text, fgm_puzzle *p)
{
    last_msg[0] = '\0';
    nmsgs = 0;
    return fgm_puzzle_parse(text, "t.txt", 0, 0, p, msg_sink, NULL);
}

#define EASY "003020600900305001001806400008102900700000008006708200002609500800203009005010300"

START_TEST(test_one_line_9x9)
{
    fgm_puzzle p;
    char buf[700];

    ck_assert_int_eq(parse(EASY "\n", &p), FGM_OK);
    ck_assert_int_eq(p.n, 9);
    ck_assert_int_eq(p.box, 3);
    ck_assert_int_eq(p.cells[2], 3);
    ck_assert_int_eq(p.cells[0], 0);
    ck_assert_int_eq(p.empty, '0');
    ck_assert_int_eq(fgm_puzzle_format_line(&p, buf, sizeof buf), 81);
    ck_assert_str_eq(buf, EASY);
}
END_TEST

/* '|' between the cells of a one-line puzzle, where the count is no
 * row's (a 16x16 row of 16 '|'-separated symbols stays a row): the
 * same cells ("line has 81 symbols; a puzzle has 16, 81, ..." before). */
START_TEST(test_one_line_boxed)
{
    fgm_puzzle p, q;

    ck_assert_int_eq(parse(EASY, &q), FGM_OK);
    ck_assert_int_eq(parse("003020600|900305001|001806400|008102900|"
                           "700000008|006708200|002609500|800203009|"
                           "005010300|\n", &p), FGM_OK);
    ck_assert_mem_eq(p.cells, q.cells, 81);
    ck_assert_int_eq(parse("| " EASY " |\n", &p), FGM_OK);
    ck_assert_mem_eq(p.cells, q.cells, 81);
    /* The size known: 16 symbols are a 4x4 puzzle, not a row of 4. */
    ck_assert_int_eq(fgm_puzzle_parse("12|34|34|12|21|43|43|21\n", "t.txt",
                                      4, 0, &p, msg_sink, NULL), FGM_OK);
    ck_assert_int_eq(p.n, 4);
    ck_assert_int_eq(p.cells[15], 1);
    /* Unknown, they are a 16x16 grid's first row. */
    ck_assert_int_eq(parse("12|34|34|12|21|43|43|21\n", &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, "grid ends after 1 of 16 rows"));
}
END_TEST

START_TEST(test_empty_symbols)
{
    static const char *forms[] = { ".", "0", "-", "x" };
    char line[100];
    fgm_puzzle p;
    int i, k;

    for (i = 0; i < 4; i++) {
        for (k = 0; k < 81; k++)
            line[k] = EASY[k] == '0' ? forms[i][0] : EASY[k];
        line[81] = '\0';
        ck_assert_msg(parse(line, &p) == FGM_OK, "empty symbol %s", forms[i]);
        ck_assert_int_eq(p.cells[0], 0);
        ck_assert_int_eq(p.empty, forms[i][0]);
    }
}
END_TEST

START_TEST(test_sizes_and_letters)
{
    char line[700];
    fgm_puzzle p;
    int i;

    ck_assert_int_eq(parse("1...\n....\n....\n...4", &p), FGM_OK);
    ck_assert_int_eq(p.n, 4);
    ck_assert_int_eq(p.cells[15], 4);
    memset(line, '.', 256);
    line[0] = 'G';
    line[256] = '\0';
    ck_assert_int_eq(parse(line, &p), FGM_OK);
    ck_assert_int_eq(p.n, 16);
    ck_assert_int_eq(p.cells[0], 16);
    memset(line, '.', 625);
    line[624] = 'P';
    line[625] = '\0';
    ck_assert_int_eq(parse(line, &p), FGM_OK);
    ck_assert_int_eq(p.n, 25);
    ck_assert_int_eq(p.box, 5);
    ck_assert_int_eq(p.cells[624], 25);
    for (i = 1; i <= 25; i++)
        ck_assert_int_eq(fgm_puzzle_symbol(i), i < 10 ? '0' + i : 'A' + i - 10);
}
END_TEST

/* Puzzles are numbered by their first line: a grid written over several
 * lines too (the line messages about it name), not by its last. */
START_TEST(test_comments_blank_lines)
{
    char *path = temp_file("# a corpus\n\n" EASY "  # first\n\n\n"
                           "4.....8.5.3..........7......2.....6.....8.4......"
                           "1.......6.3.7.5..2.....1.4......\r\n"
                           "1 2 . . . . . . .\n. . . . . . . . .\n"
                           ". . . . . . . . .\n. . . . . . . . .\n"
                           ". . . . . . . . .\n. . . . . . . . .\n"
                           ". . . . . . . . .\n. . . . . . . . .\n"
                           ". . . . . . . . 9\n");
    fgm_puzzle_reader *r = fgm_puzzle_reader_open(path, 0, 0, msg_sink, NULL);
    fgm_puzzle p;

    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
    ck_assert_int_eq(p.line, 3);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
    ck_assert_int_eq(p.line, 6);
    ck_assert_int_eq(p.cells[0], 4);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
    ck_assert_int_eq(p.line, 7);
    ck_assert_int_eq(p.cells[80], 9);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EIO);
    ck_assert_int_eq(fgm_puzzle_reader_count(r), 3);
    fgm_puzzle_reader_close(r);
    unlink(path);
    free(path);
}
END_TEST

/* Boxed displays of notebook 002's grid (EASY), each read as EASY:
 * notebook 002's own ('|' between boxes, rules of dashes), and HoDoKu's
 * and Sudoku Explainer's ('*' at the border's corners: it was "line has
 * 13 symbols"). */
START_TEST(test_boxed_displays)
{
    static const char *const displays[] = {
        ". . 3 | . 2 . | 6 . . \n"
        "9 . . | 3 . 5 | . . 1 \n"
        ". . 1 | 8 . 6 | 4 . . \n"
        "---------------------\n"
        ". . 8 | 1 . 2 | 9 . . \n"
        "7 . . | . . . | . . 8 \n"
        ". . 6 | 7 . 8 | 2 . . \n"
        "---------------------\n"
        ". . 2 | 6 . 9 | 5 . . \n"
        "8 . . | 2 . 3 | . . 9 \n"
        ". . 5 | . 1 . | 3 . . \n",
        "*-----------*\n"
        "|..3|.2.|6..|\n|9..|3.5|..1|\n|..1|8.6|4..|\n"
        "|---+---+---|\n"
        "|..8|1.2|9..|\n|7..|...|..8|\n|..6|7.8|2..|\n"
        "|---+---+---|\n"
        "|..2|6.9|5..|\n|8..|2.3|..9|\n|..5|.1.|3..|\n"
        "*-----------*\n",
    };
    fgm_puzzle p, q;
    size_t i;

    ck_assert_int_eq(parse(EASY, &q), FGM_OK);
    for (i = 0; i < sizeof displays / sizeof displays[0]; i++) {
        ck_assert_msg(parse(displays[i], &p) == FGM_OK, "display %zu: %s", i,
                      last_msg);
        ck_assert_mem_eq(p.cells, q.cells, 81);
    }
}
END_TEST

/* Notebook 000's display: fixed-width cells, spaces for empty cells. */
START_TEST(test_boxed_display_000)
{
    fgm_puzzle p, q;

    ck_assert_int_eq(parse(
        "-------------------------------\n"
        "| 9     2 |       5 | 4     3 | \n"
        "| 1       |    6  3 |    2  5 | \n"
        "| 5     8 | 4     7 |    6    | \n"
        "-------------------------------\n"
        "|    2  6 | 3     9 |       1 | \n"
        "|    5  7 |    1    | 2  9    | \n"
        "|    9    | 6  7    | 5  3    | \n"
        "-------------------------------\n"
        "| 2  4    | 5  3    | 6       | \n"
        "| 7     5 | 2       | 3     4 | \n"
        "|    8    |    4  1 | 9  5    | \n"
        "-------------------------------\n", &p), FGM_OK);
    ck_assert_int_eq(parse("902005403100063025508407060026309001057010290"
                           "090670530240530600705200304080041950", &q), FGM_OK);
    ck_assert_mem_eq(p.cells, q.cells, 81);
}
END_TEST

START_TEST(test_writers_roundtrip)
{
    fgm_puzzle p, q;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    ck_assert_int_eq(parse(EASY, &p), FGM_OK);
    fgm_puzzle_write_grid(&p, f);
    fclose(f);
    ck_assert_int_eq(parse(text, &q), FGM_OK);
    ck_assert_mem_eq(p.cells, q.cells, 81);
    free(text);
}
END_TEST

START_TEST(test_expected_size_latin)
{
    fgm_puzzle p;

    /* 25 symbols: a 5x5 Latin square when the caller says so. */
    ck_assert_int_eq(fgm_puzzle_parse("1....2....3....4....5....", "l", 5, 0,
                                      &p, msg_sink, NULL), FGM_OK);
    ck_assert_int_eq(p.n, 5);
    ck_assert_int_eq(p.box, 0);
    /* A value twice in one 2x2 box: wrong for Sudoku, fine for Latin. */
    ck_assert_int_eq(fgm_puzzle_parse("12..21..........", "l", 0, 0, &p,
                                      msg_sink, NULL), FGM_EINVAL);
    ck_assert_ptr_nonnull(strstr(last_msg, "repeated in box 1"));
    ck_assert_int_eq(fgm_puzzle_parse("12..21..........", "l", 4, 0, &p,
                                      msg_sink, NULL), FGM_OK);
    /* A value twice in a row and in a column: fine for a grid with no
     * units (a colouring), whose puzzles print without boxes. */
    ck_assert_int_eq(fgm_puzzle_parse("1212............", "l", 4, 0, &p,
                                      msg_sink, NULL), FGM_EINVAL);
    ck_assert_ptr_nonnull(strstr(last_msg, "repeated in row 1"));
    ck_assert_int_eq(fgm_puzzle_parse("1212............", "l", 4,
                                      FGM_GRID_NO_UNITS, &p, msg_sink, NULL),
                     FGM_OK);
    ck_assert_int_eq(fgm_puzzle_parse("1...1...........", "l", 4,
                                      FGM_GRID_NO_UNITS, &p, msg_sink, NULL),
                     FGM_OK);
    ck_assert_int_eq(p.box, 0);
    ck_assert_int_eq(p.cells[4], 1);
    /* Without a side the box side is not the caller's: a Sudoku's units
     * are checked. */
    ck_assert_int_eq(fgm_puzzle_parse("1212............", "l", 0,
                                      FGM_GRID_NO_UNITS, &p, msg_sink, NULL),
                     FGM_EINVAL);
    /* Below it, no box side at all. */
    ck_assert_int_eq(fgm_puzzle_parse("1...", "l", 2, FGM_GRID_NO_UNITS - 1,
                                      &p, msg_sink, NULL), FGM_EINVAL);
    ck_assert_ptr_nonnull(strstr(last_msg, "cannot have boxes of side -2"));
}
END_TEST

/* Grids larger than fgm_puzzle holds, or boxes that do not tile the grid,
 * are refused up front (found by fuzzing: a 26x26 model's puzzles were
 * written past a 25x25 buffer). */
START_TEST(test_unsupported_shapes)
{
    fgm_puzzle p;
    fgm_puzzle_reader *r;

    last_msg[0] = '\0';
    ck_assert_int_eq(fgm_puzzle_parse(".", "big", 26, 0, &p, msg_sink, NULL),
                     FGM_EINVAL);
    ck_assert_str_eq(last_msg, "big: error: puzzles of side 26 are not "
                               "supported; the largest is 25x25");
    r = fgm_puzzle_reader_file(stdin, "-", 36, 6, msg_sink, NULL);
    ck_assert_ptr_null(r);
    ck_assert_str_eq(last_msg, "-: error: puzzles of side 36 are not "
                               "supported; the largest is 25x25");
    r = fgm_puzzle_reader_open("/nonexistent", 9, 2, msg_sink, NULL);
    ck_assert_ptr_null(r);
    ck_assert_str_eq(last_msg, "/nonexistent: error: a 9x9 grid cannot have "
                               "boxes of side 2");
    /* A box too large to square (signed overflow before it was bounded). */
    r = fgm_puzzle_reader_file(stdin, "-", 9, 65536, msg_sink, NULL);
    ck_assert_ptr_null(r);
    ck_assert_str_eq(last_msg, "-: error: a 9x9 grid cannot have boxes of "
                               "side 65536");
}
END_TEST

START_TEST(test_bad_length)
{
    fgm_puzzle p;

    ck_assert_int_eq(parse(EASY "1", &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, "t.txt:1: error: line has 82 symbols"));
    ck_assert_int_eq(nmsgs, 1);
}
END_TEST

START_TEST(test_bad_symbol)
{
    fgm_puzzle p;
    char line[100];

    strcpy(line, EASY);
    line[40] = 'Z';
    ck_assert_int_eq(parse(line, &p), FGM_EPARSE);
    ck_assert_msg(strstr(last_msg, "t.txt:1:41: error: bad symbol 'Z'") != NULL,
                  "got: %s", last_msg);
    line[40] = 'A';     /* a value above 9 in a 9x9 puzzle */
    ck_assert_int_eq(parse(line, &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, "bad symbol 'A'"));
}
END_TEST

START_TEST(test_repeated_clues)
{
    fgm_puzzle p;
    char line[100];

    strcpy(line, EASY);
    line[0] = '3';      /* row 1 already has a 3 in column 3 */
    ck_assert_int_eq(parse(line, &p), FGM_EINVAL);
    ck_assert_msg(strstr(last_msg, "t.txt:1:3: error: clue 3 repeated in row 1 (columns 1 and 3)") != NULL,
                  "got: %s", last_msg);
    strcpy(line, EASY);
    line[9 * 8] = '9';  /* column 1 has 9 in row 2 */
    ck_assert_int_eq(parse(line, &p), FGM_EINVAL);
    ck_assert_ptr_nonnull(strstr(last_msg, "repeated in column 1"));
    strcpy(line, EASY);
    line[10] = '3';     /* box 1: the 3 at (1,3) and (2,2); row 2 has a 3 at col 4 */
    line[12] = '0';
    ck_assert_int_eq(parse(line, &p), FGM_EINVAL);
    ck_assert_msg(strstr(last_msg, "repeated in box 1 (rows 1 and 2)")
                  != NULL, "got: %s", last_msg);
}
END_TEST

START_TEST(test_missing_and_empty_file)
{
    fgm_puzzle_reader *r;
    fgm_puzzle p;
    char *path;

    nmsgs = 0;
    r = fgm_puzzle_reader_open("/nonexistent/x.txt", 0, 0, msg_sink, NULL);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(strstr(last_msg, "/nonexistent/x.txt: error: cannot open"));
    path = temp_file("");
    r = fgm_puzzle_reader_open(path, 0, 0, msg_sink, NULL);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, ":1: error: no puzzle in the input"));
    fgm_puzzle_reader_close(r);
    unlink(path);
    free(path);
    path = temp_file("# only a comment\n\n");
    r = fgm_puzzle_reader_open(path, 0, 0, msg_sink, NULL);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, "no puzzle in the input"));
    /* Said once: reading on, as past a malformed puzzle, ends. */
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EIO);
    fgm_puzzle_reader_close(r);
    unlink(path);
    free(path);
    /* Malformed puzzles only: each reported, then the end, with no "no
     * puzzle in the input" (which every read after the last returned,
     * so that a loop reading past errors never ended). */
    path = temp_file("12Z4............\n123\n");
    r = fgm_puzzle_reader_open(path, 0, 0, msg_sink, NULL);
    nmsgs = 0;
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, ":1:3: error: bad symbol 'Z'"));
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, ":2: error: line has 3 symbols"));
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EIO);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EIO);
    ck_assert_int_eq(nmsgs, 2);
    fgm_puzzle_reader_close(r);
    unlink(path);
    free(path);
}
END_TEST

/* A line of only '-' as long as a row (dash_line): a row of empty cells
 * inside a band; where a rule may stand, a rule when the grid (or the
 * puzzle before it) writes empty cells otherwise, else refused as
 * ambiguous.  Skipped as a rule when it was a row, or read as a row when
 * it was a rule, it let a puzzle nobody wrote be solved. */
START_TEST(test_dash_rows)
{
    /* Notebook 002's grid (EASY) with 9-dash rules between its bands. */
    static const char *boxed9 =
        ". . 3 | . 2 . | 6 . .\n9 . . | 3 . 5 | . . 1\n"
        ". . 1 | 8 . 6 | 4 . .\n---|---|---\n"
        ". . 8 | 1 . 2 | 9 . .\n7 . . | . . . | . . 8\n"
        ". . 6 | 7 . 8 | 2 . .\n---|---|---\n"
        ". . 2 | 6 . 9 | 5 . .\n8 . . | 2 . 3 | . . 9\n"
        ". . 5 | . 1 . | 3 . .\n";
    fgm_puzzle p, q, e;
    char *path;
    fgm_puzzle_reader *r;

    ck_assert_int_eq(parse("1---\n----\n-3--\n----\n", &p), FGM_OK);
    ck_assert_int_eq(parse("1--------3------", &q), FGM_OK);
    ck_assert_mem_eq(p.cells, q.cells, 16);
    ck_assert_int_eq(parse("1---\n----\n----\n-3--\n", &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, "t.txt:3: error: a line of 4 '-' "
                                 "only, where a rule may stand"));
    ck_assert_int_eq(parse("- - | - -\n1---\n----\n----\n-3--\n", &p),
                     FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, "t.txt:1: error: a line of 4"));
    /* Rules of another length, or with '+', stay rules. */
    ck_assert_int_eq(parse("1-|--\n--|--\n--+--\n-3|--\n--|--\n", &p),
                     FGM_OK);
    ck_assert_mem_eq(p.cells, q.cells, 16);
    ck_assert_int_eq(parse("1-|--\n--|--\n-----\n-3|--\n--|--\n", &p),
                     FGM_OK);
    ck_assert_mem_eq(p.cells, q.cells, 16);
    /* A rule as long as a row under a band with no empty cell. */
    ck_assert_int_eq(parse("12|34\n34|12\n--|--\n21|43\n43|21\n", &p),
                     FGM_OK);
    ck_assert_int_eq(p.cells[15], 1);
    /* A rule as long as a row, in a grid whose empty cells are '.'. */
    ck_assert_int_eq(parse("1.|..\n..|..\n--|--\n.3|..\n..|..\n", &p),
                     FGM_OK);
    ck_assert_mem_eq(p.cells, q.cells, 16);
    ck_assert_int_eq(parse(boxed9, &p), FGM_OK);
    ck_assert_int_eq(parse(EASY, &e), FGM_OK);
    ck_assert_mem_eq(p.cells, e.cells, 81);
    /* So for a Latin reader (no box constraint, the display's boxes). */
    ck_assert_int_eq(fgm_puzzle_parse(boxed9, "t.txt", 9, 0, &p, msg_sink,
                                      NULL), FGM_OK);
    ck_assert_mem_eq(p.cells, e.cells, 81);
    /* An empty puzzle on one line, spaced, is a puzzle, not a rule. */
    ck_assert_int_eq(parse("- - - - - - - - - - - - - - - -", &p), FGM_OK);
    ck_assert_int_eq(p.n, 4);
    /* Unspaced, 16 '-' first in a file are as much a 16x16 grid's top
     * rule: refused (the rule was solved as an empty 4x4 puzzle, and the
     * grid's first row then failed). */
    ck_assert_int_eq(parse("----------------\n....|E...|..A.|....\n", &p),
                     FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, "t.txt:1: error: a line of 16 '-' "
                                 "only: an empty 4x4 puzzle or the rule of "
                                 "a 16x16 grid?"));
    /* Once the file's size is known, they are a 4x4 puzzle. */
    path = temp_file("1234341221434321\n----------------\n");
    r = fgm_puzzle_reader_open(path, 0, 0, msg_sink, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
    ck_assert_int_eq(p.n, 4);
    ck_assert_int_eq(p.cells[0], 0);
    fgm_puzzle_reader_close(r);
    unlink(path);
    free(path);
    /* Mixed symbols: '-' rows inside a band, '.' elsewhere. */
    ck_assert_int_eq(parse(
        "1 - - | - - - | - - -\n"
        "- - - | - - - | - - -\n"
        ". 3 . | . . . | . . .\n"
        "---------------------\n"
        ". . . | . . . | . . .\n"
        ". . . | . . . | . . .\n"
        ". . . | . . . | . . .\n"
        "---------------------\n"
        ". . . | . . . | . . .\n"
        ". . . | . . . | . . .\n"
        ". . . | . . . | . . .\n", &p), FGM_OK);
    ck_assert_int_eq(p.cells[0], 1);
    ck_assert_int_eq(p.cells[19], 3);
    /* Between two grids, the first one's '.' makes a rule of it. */
    path = temp_file("..3.2.6..\n9..3.5..1\n..18.64..\n..81.29..\n"
                     "7.......8\n..67.82..\n..26.95..\n8..2.3..9\n"
                     "..5.1.3..\n---------\n..3.2.6..\n9..3.5..1\n"
                     "..18.64..\n..81.29..\n7.......8\n..67.82..\n"
                     "..26.95..\n8..2.3..9\n..5.1.3..\n");
    r = fgm_puzzle_reader_open(path, 0, 0, msg_sink, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
    ck_assert_int_eq(fgm_puzzle_read(r, &q), FGM_OK);
    ck_assert_mem_eq(p.cells, e.cells, 81);
    ck_assert_mem_eq(q.cells, e.cells, 81);
    fgm_puzzle_reader_close(r);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(test_truncated_grid_and_bad_row)
{
    fgm_puzzle p;

    ck_assert_int_eq(parse("1 . . | . . .\n", &p), FGM_EPARSE);
    ck_assert_int_eq(parse("12..\n....\n", &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, "t.txt:2: error: grid ends after 2 of 4 rows"));
    ck_assert_int_eq(parse("12..\n.....\n", &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, "t.txt:2: error: grid row 2 has 5 symbols"));
}
END_TEST

START_TEST(test_mixed_sizes_rejected)
{
    char *path = temp_file(EASY "\n1...............\n");
    fgm_puzzle_reader *r = fgm_puzzle_reader_open(path, 0, 0, msg_sink, NULL);
    fgm_puzzle p;

    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, ":2: error: line has 16 symbols; expected 81"));
    fgm_puzzle_reader_close(r);
    unlink(path);
    free(path);
}
END_TEST

/* A list of files reads as their concatenation: a file with no puzzle
 * passes, the size the first puzzle set holds in the next file, and a
 * message names the file and its own line; a list that cannot open one
 * file is not made, nor one naming standard input twice, and one holding
 * no puzzle at all says so. */
START_TEST(test_reader_list)
{
    char *a = temp_file(EASY "\n"), *none = temp_file("# nothing\n\n");
    char *b = temp_file("# b\n" EASY "\n1...............\n");
    const char *paths[] = { a, none, b }, *bad[] = { a, "/nonexistent/x" };
    const char *empty[] = { none, none }, *stdin2[] = { "-", a, "-" };
    fgm_puzzle_reader *r;
    fgm_puzzle p;

    nmsgs = 0;
    r = fgm_puzzle_reader_open_list(paths, 3, 0, 0, msg_sink, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
    ck_assert_int_eq(fgm_puzzle_reader_count(r), 2);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, b));
    ck_assert_ptr_nonnull(strstr(last_msg, ":3: error: line has 16 symbols; "
                                           "expected 81"));
    fgm_puzzle_reader_close(r);
    r = fgm_puzzle_reader_open_list(bad, 2, 0, 0, msg_sink, NULL);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(strstr(last_msg, "/nonexistent/x: error: cannot "
                                           "open"));
    r = fgm_puzzle_reader_open_list(empty, 2, 0, 0, msg_sink, NULL);
    ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, "no puzzle in the input"));
    fgm_puzzle_reader_close(r);
    ck_assert_ptr_null(fgm_puzzle_reader_open_list(paths, 0, 0, 0, msg_sink,
                                                   NULL));
    ck_assert_ptr_null(fgm_puzzle_reader_open_list(stdin2, 3, 0, 0,
                                                   msg_sink, NULL));
    ck_assert_ptr_nonnull(strstr(last_msg, "'-' (standard input) is named "
                                           "twice"));
    unlink(a);
    unlink(none);
    unlink(b);
    free(a);
    free(none);
    free(b);
}
END_TEST

/* fgm_puzzle_parse takes one puzzle: a second one, or anything malformed
 * after the first, is an error (it used to be ignored); comments and
 * blank lines around it are not. */
START_TEST(test_parse_one_puzzle)
{
    fgm_puzzle p;

    ck_assert_int_eq(parse("# one\n\n" EASY "  # grid\n\n", &p), FGM_OK);
    ck_assert_int_eq(p.cells[2], 3);
    p.n = -1;
    ck_assert_int_eq(parse(EASY "\n" EASY "\n", &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg,
                                 "t.txt:2: error: more than one puzzle"));
    ck_assert_int_eq(p.n, -1);  /* untouched on failure */
    ck_assert_int_eq(parse(EASY "\n12\n", &p), FGM_EPARSE);
    ck_assert_ptr_nonnull(strstr(last_msg, "t.txt:2: error:"));
}
END_TEST

/* Reads every puzzle of TEXT (a temporary file, so that its CSV header
 * state is a file's) into CELLS (up to MAX puzzles of 81 cells); returns
 * how many were read, or -1 - that count on an error (last_msg). */
static int
read_all(const char *text, unsigned char (*cells)[81], int max)
{
    char *path = temp_file(text);
    fgm_puzzle_reader *r = fgm_puzzle_reader_open(path, 0, 0, msg_sink,
                                                  NULL);
    fgm_puzzle p;
    fgm_status st;
    int k = 0;

    last_msg[0] = '\0';
    while ((st = fgm_puzzle_read(r, &p)) == FGM_OK) {
        if (k < max)
            memcpy(cells[k], p.cells, 81);
        k++;
    }
    fgm_puzzle_reader_close(r);
    unlink(path);
    free(path);
    return st == FGM_EIO ? k : -1 - k;
}

#define EASY_DOTS "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
#define EASY_SOL "483921657967345821251876493548132976729564138136798245372689514814253769695417382"

/* The public datasets' tables: the header names the puzzle column
 * (Kaggle's quizzes,solutions; id,puzzle,solution,...; sudoku-extreme's
 * question), blanks and quotes around a field are dropped, and without
 * a header the first field is the puzzle; the other fields are not
 * read.  Cells one to a field read as the line with blanks. */
START_TEST(test_csv_tables)
{
    static const char *const tables[] = {
        "quizzes,solutions\n" EASY "," EASY_SOL "\n",
        "id,puzzle,solution,clues,difficulty\n0," EASY_DOTS "," EASY_SOL
        ",32,1.2\n",
        "source,question,answer,rating\r\nx, \"" EASY_DOTS "\" ,zz,0\r\n",
        "Puzzle\n" EASY "\n",
        "puzzle\n\"" EASY_DOTS "\"\n",  /* one column, quoted */
        "\"" EASY_DOTS "\"\n",
        "\xef\xbb\xbfquizzes,solutions\n" EASY ",x\n",  /* a spreadsheet's */
        "\xef\xbb\xbfpuzzle\n" EASY "\n",     /* its one column */
        "\xef\xbb\xbf\"Puzzle\"\n" EASY "\n",
        EASY "," EASY_SOL ",hard\n",
        "0,0,3,0,2,0,6,0,0,9,0,0,3,0,5,0,0,1,0,0,1,8,0,6,4,0,0,0,0,8,1,0,2,"
        "9,0,0,7,0,0,0,0,0,0,0,8,0,0,6,7,0,8,2,0,0,0,0,2,6,0,9,5,0,0,8,0,0,"
        "2,0,3,0,0,9,0,0,5,0,1,0,3,0,0\n",
        "0,0,3,0,2,0,6,0,0\n9,0,0,3,0,5,0,0,1\n0,0,1,8,0,6,4,0,0\n"
        "0,0,8,1,0,2,9,0,0\n7,0,0,0,0,0,0,0,8\n0,0,6,7,0,8,2,0,0\n"
        "0,0,2,6,0,9,5,0,0\n8,0,0,2,0,3,0,0,9\n0,0,5,0,1,0,3,0,0\n",
    };
    unsigned char got[2][81];
    fgm_puzzle q;
    size_t i;

    ck_assert_int_eq(parse(EASY, &q), FGM_OK);
    for (i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        ck_assert_msg(read_all(tables[i], got, 2) == 1, "table %zu: %s", i,
                      last_msg);
        ck_assert_mem_eq(got[0], q.cells, 81);
    }
    /* Each file of a list has its own header. */
    {
        char *a = temp_file("quizzes,solutions\n" EASY ",x\n");
        char *b = temp_file("id,puzzle\n7," EASY_DOTS "\n");
        const char *paths[] = { a, b };
        fgm_puzzle_reader *r = fgm_puzzle_reader_open_list(paths, 2, 0, 0,
                                                           msg_sink, NULL);
        fgm_puzzle p;

        ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
        ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_OK);
        ck_assert_mem_eq(p.cells, q.cells, 81);
        ck_assert_int_eq(fgm_puzzle_read(r, &p), FGM_EIO);
        fgm_puzzle_reader_close(r);
        unlink(a);
        unlink(b);
        free(a);
        free(b);
    }
}
END_TEST

/* Each malformed table is refused with its line (and column where a
 * field is at fault), after the puzzles before it. */
START_TEST(test_csv_errors)
{
    static const struct {
        const char *text;
        int read;           /* puzzles read before the error */
        const char *msg;
    } bad[] = {
        { "name,grid\n" EASY ",1\n", 0,
          ":1: error: a header that names no puzzle column" },
        { "puzzle,solution\n" EASY ",1\npuzzle,solution\n", 1,
          ":3: error: a header after the file's first record" },
        { "id,rating,puzzle\n1,2," EASY "\n12,34\n", 1,
          ":3: error: a record of 2 fields; the puzzle is field 3" },
        { "quizzes,solutions\n" EASY "1,2\n", 0,
          ":2:1: error: field 1 has 82 symbols; a puzzle on one line has "
          "16, 81" },
        { "id,puzzle\n1, 12|34\n", 0, ":2:4: error: field 2 has 4 symbols" },
        { "003020600\n900305001\n" EASY ",1\n", 0,
          ":3: error: a record of 2 comma-separated fields inside a grid, "
          "after 2 of its 9 rows" },
        { EASY "\nquizzes,solutions\n", 1,
          ":2: error: a header after the file's first record" },
        { "quizzes,solutions\n\x01" EASY ",x\n", 0,
          ":2:1: error: bad byte 0x01" },
        { "id,puzzle\n1,****************\n", 0,
          ":2:3: error: field 2 is a rule, not a puzzle" },
        { "1,,3\n", 0, ":1:3: error: empty field 2 among cells written one "
          "to a field" },
        { "1,2,3\n", 0, ":1: error: line has 3 symbols" },
        { "1\n", 0, ":1: error: line has 1 symbol;" },
        /* Records too short for a comma, or for the puzzle's field, after
         * a header of several columns: "line has 1 symbols", "2 symbols"
         * before. */
        { "id,puzzle\n1\n", 0,
          ":2: error: a record of 1 field; the puzzle is field 2" },
        { "a,b,puzzle\n1,2\n", 0,
          ":2: error: a record of 2 fields; the puzzle is field 3" },
        { "puzzle,solution\n1,2\n", 0, ":2:1: error: field 1 has 1 symbol;" },
        /* A quote that opens no field: counted as a symbol, it was "line
         * has 82 symbols". */
        { EASY "\"\n", 0, ":1:82: error: a double quote in a puzzle" },
        { "1. |\"3 4\n", 0, ":1:5: error: a double quote in a puzzle" },
        /* A byte-order mark only before a table's line. */
        { "\xef\xbb\xbf" EASY "\n", 0, ":1:1: error: UTF-8 byte-order mark" },
        { "0,0,3,0,2,0,6,0,y\n", 0, ":1:17: error: bad symbol 'y'" },
        /* A quote not closed was "17 symbols", counted as one. */
        { "\"1...............\n", 0, ":1:1: error: a double quote inside "
          "field 1: quote a field whole, or not at all" },
        { "id,puzzle\n1, 1..\"............\n", 0, ":2:7: error: a double "
          "quote inside field 2" },
        { "\"1\"\n", 0, ":1:2: error: field 1 has 1 symbol;" },
        { "\"\n", 0, ":1:1: error: a double quote inside field 1" },
        /* 'x' is an empty cell, not a header's letter. */
        { "1x3x,42\n", 0, ":1:1: error: field 1 has 4 symbols" },
        /* A quoted empty field is empty, quotes and all. */
        { "1,2,\"\",4\n", 0, ":1:6: error: empty field 3 among cells" },
    };
    unsigned char got[2][81];
    size_t i;

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(read_all(bad[i].text, got, 2), -1 - bad[i].read);
        ck_assert_msg(strstr(last_msg, bad[i].msg) != NULL, "case %zu: %s",
                      i, last_msg);
    }
}
END_TEST

START_TEST(test_binary_garbage)
{
    fgm_puzzle p;

    ck_assert_int_eq(parse("\x01\x02\x7f", &p), FGM_EPARSE);
    ck_assert_int_eq(nmsgs, 1);
}
END_TEST

Suite *
puzzle_suite(void)
{
    Suite *s = suite_create("puzzle");
    TCase *core = tcase_create("core"), *errors = tcase_create("errors");

    tcase_set_timeout(core, 10);
    tcase_set_timeout(errors, 10);
    tcase_add_test(core, test_one_line_9x9);
    tcase_add_test(core, test_one_line_boxed);
    tcase_add_test(core, test_empty_symbols);
    tcase_add_test(core, test_sizes_and_letters);
    tcase_add_test(core, test_comments_blank_lines);
    tcase_add_test(core, test_boxed_displays);
    tcase_add_test(core, test_boxed_display_000);
    tcase_add_test(core, test_writers_roundtrip);
    tcase_add_test(core, test_expected_size_latin);
    tcase_add_test(core, test_csv_tables);
    tcase_add_test(errors, test_bad_length);
    tcase_add_test(errors, test_unsupported_shapes);
    tcase_add_test(errors, test_bad_symbol);
    tcase_add_test(errors, test_repeated_clues);
    tcase_add_test(errors, test_missing_and_empty_file);
    tcase_add_test(errors, test_truncated_grid_and_bad_row);
    tcase_add_test(errors, test_dash_rows);
    tcase_add_test(errors, test_mixed_sizes_rejected);
    tcase_add_test(errors, test_reader_list);
    tcase_add_test(errors, test_binary_garbage);
    tcase_add_test(errors, test_csv_errors);
    tcase_add_test(errors, test_parse_one_puzzle);
    suite_add_tcase(s, core);
    suite_add_tcase(s, errors);
    return s;
}
