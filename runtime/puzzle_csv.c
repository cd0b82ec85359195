/* runtime/puzzle_csv.c: the comma-separated lines the puzzle reader takes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two kinds, told apart by their fields:
 *   - cells written one to a field ("0,0,4,3,..."), a whole puzzle or one
 *     row of a grid: the commas only separate, as blanks do;
 *   - records of a table with a puzzle column, as the public datasets
 *     ship them (Kaggle's "1 million Sudoku games": quizzes,solutions;
 *     "3 million Sudoku puzzles with ratings": id,puzzle,solution,...;
 *     sudoku-extreme: source,question,answer,rating).  A header line
 *     names the column; without one, the first field is the puzzle.
 * This file splits and classifies; runtime/puzzle.c reads the cells.
 */
#include <ctype.h>
#include <string.h>
#include "puzzle_csv.h"

int
fgm_csv_split(const char *line, fgm_csv_field *fields, int max)
{
    int n = 0, at = 0;

    for (;;) {
        int end = at, start = at;

        while (line[end] && line[end] != ',')
            end++;
        /* Blanks around a field, then one pair of double quotes. */
        while (start < end && (line[start] == ' ' || line[start] == '\t'))
            start++;
        {
            int stop = end;

            while (stop > start
                   && (line[stop - 1] == ' ' || line[stop - 1] == '\t'))
                stop--;
            if (stop - start >= 2 && line[start] == '"'
                && line[stop - 1] == '"') {
                start++;
                stop--;
            }
            if (n < max) {
                fields[n].at = start;
                fields[n].len = stop - start;
            }
        }
        n++;
        if (!line[end])
            return n;
        at = end + 1;
    }
}

int
fgm_csv_cells_only(const fgm_csv_field *fields, int n)
{
    int i;

    for (i = 0; i < n; i++)
        if (fields[i].len > 1)
            return 0;
    return 1;
}

/* The names a dataset's header gives its puzzle column. */
static const char *const puzzle_names[] = {
    "puzzle", "puzzles", "quiz", "quizzes", "question", "questions",
};

/* Whether the LEN bytes at S spell NAME, in any case. */
static int
same_name(const char *s, int len, const char *name)
{
    int i;

    if ((int)strlen(name) != len)
        return 0;
    for (i = 0; i < len; i++)
        if (tolower((unsigned char)s[i]) != name[i])
            return 0;
    return 1;
}

int
fgm_csv_is_puzzle_name(const char *line)
{
    fgm_csv_field f;

    return fgm_csv_split(line, &f, 1) == 1
           && fgm_csv_puzzle_column(line, &f, 1) == 0;
}

int
fgm_csv_puzzle_column(const char *line, const fgm_csv_field *fields, int n)
{
    int i;
    size_t j;

    for (i = 0; i < n; i++)
        for (j = 0; j < sizeof puzzle_names / sizeof *puzzle_names; j++)
            if (same_name(line + fields[i].at, fields[i].len,
                          puzzle_names[j]))
                return i;
    return -1;
}

int
fgm_csv_looks_like_header(const char *line, const fgm_csv_field *fields,
                          int n)
{
    int i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < fields[i].len; j++)
            if (islower((unsigned char)line[fields[i].at + j])
                && line[fields[i].at + j] != 'x')     /* an empty cell */
                return 1;
    return 0;
}
