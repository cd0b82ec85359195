/* runtime/puzzle_csv.h: splitting and classifying comma-separated puzzle
 * lines (runtime/puzzle_csv.c), for the puzzle reader.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_PUZZLE_CSV_H
#define FGM_PUZZLE_CSV_H

#include "internal.h"

/* One field of a line: LEN bytes from offset AT, blanks around it and one
 * pair of enclosing double quotes left out. */
typedef struct fgm_csv_field {
    int at, len;
} fgm_csv_field;

/* Splits LINE at every comma into FIELDS (the first MAX of them).
 * Returns the number of fields, which may exceed MAX; a line without a
 * comma is one field. */
FGM_INTERNAL int fgm_csv_split(const char *line, fgm_csv_field *fields,
                               int max);

/* Whether each of the N fields holds at most one byte: cells written one
 * to a field, the commas mere separators. */
FGM_INTERNAL int fgm_csv_cells_only(const fgm_csv_field *fields, int n);

/* The index of the field of LINE (split into N FIELDS) that names a
 * puzzle column ("puzzle", "quizzes", "question", ..., in any case), or
 * -1 when none does. */
FGM_INTERNAL int fgm_csv_puzzle_column(const char *line,
                                       const fgm_csv_field *fields, int n);

/* Whether LINE, without a comma, names a puzzle column: the header of a
 * table of one column. */
FGM_INTERNAL int fgm_csv_is_puzzle_name(const char *line);

/* Whether LINE's fields hold a lower-case letter other than 'x', which
 * no puzzle symbol is: a header, when it is a file's first record. */
FGM_INTERNAL int fgm_csv_looks_like_header(const char *line,
                                           const fgm_csv_field *fields,
                                           int n);

#endif /* FGM_PUZZLE_CSV_H */
