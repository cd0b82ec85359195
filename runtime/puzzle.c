/* runtime/puzzle.c: reading and writing Sudoku / Latin-square puzzles.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Accepted input, one puzzle at a time:
 *   - one line of N*N symbols: 1-9 then A-Z for values above 9; '.', '0',
 *     '-' or 'x' for an empty cell; spaces are ignored;
 *   - a line of comma-separated fields: cells one to a field, or a record
 *     of a table whose header names a puzzle column (puzzle_csv.c);
 *   - a multi-line grid: N rows of N symbols, optionally in the seeds' boxed
 *     display, where '|' separates boxes and lines made of '-', '+', '=',
 *     '*' separate bands (a line of only '-' as long as a row: a row of
 *     empty cells inside a band, else a rule or ambiguous: dash_line).  Inside
 *     a boxed row a box may also be written with fixed-width cells and
 *     spaces for empties (notebook 000's display).
 * '#' starts a comment; blank lines are skipped.  Without an expected size
 * a one-line puzzle is told by its length (16, 81, 256, 625 for box side
 * 2..5), and the first puzzle fixes the size for the rest of the input.
 * A one-line puzzle of 16 symbols is always 4x4: write a 16x16 grid on
 * one line or in the boxed display.
 *
 * Every malformed puzzle is reported as "file:line: error: ..." and never
 * becomes a different puzzle.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include "internal.h"
#include "puzzle_csv.h"

struct fgm_puzzle_reader {
    FILE *f;
    int owns;               /* close f on free (not stdin) */
    char name[512];
    int file;               /* index of the current file in the list */
    long line;
    long count;
    int n, box;             /* expected size; 0 until known */
    enum {
        UNITS_GRID,         /* rows, columns and boxes (box side BOX, or
                             * the square root of N while unknown) */
        UNITS_LATIN,        /* rows and columns: the caller said box 0 */
        UNITS_NONE          /* none (FGM_GRID_NO_UNITS) */
    } units;                /* the units whose clues must differ */
    char empty;             /* the last puzzle's empty-cell symbol (0:
                             * none yet), for dash_line */
    char *buf;
    size_t cap;
    int csv_seen;           /* this file has had a puzzle or a table
                             * record: no header may follow */
    int csv_col;            /* and its records' puzzle field */
    int table;              /* this file's header names several columns:
                             * every line after it is a record */
    int peeked;             /* PENDING holds a puzzle read by peek */
    int failed;             /* the input ended on a read error */
    int bad_seen;           /* a malformed puzzle was reported */
    int waits;              /* reads may wait for input: 1, or 0 for a
                             * regular file; -1 until known */
    void (*on_wait)(void *ctx);     /* fgm_puzzle_reader_on_wait */
    void *wait_ctx;
    fgm_puzzle pending;
    fgm_diag_fn diag;
    void *ctx;
    fgm_puzzle_reader *next;    /* the files after this one, opened */
};

/* A grid being assembled from one or more lines. */
typedef struct grid {
    int n;                  /* side, once known */
    int rows;               /* rows filled so far */
    long first_line;
    char empty;
    unsigned char cells[FGM_PUZZLE_MAXCELLS];
    long line[FGM_PUZZLE_MAXCELLS];     /* where each cell was read: */
    int col[FGM_PUZZLE_MAXCELLS];       /* line and 1-based column */
} grid;

char
fgm_puzzle_symbol(int v)
{
    if (v <= 0)
        return '.';
    if (v <= 9)
        return (char)('0' + v);
    if (v <= 35)
        return (char)('A' + v - 10);
    return '?';
}

static int
is_empty_symbol(int c)
{
    return c == '.' || c == '0' || c == '-' || c == 'x';
}

/* Value of symbol C (1..35), 0 for an empty cell, -1 if not a symbol. */
static int
symbol_value(int c)
{
    if (is_empty_symbol(c))
        return 0;
    if (c >= '1' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return -1;
}

static int
isqrt_exact(int n)
{
    int b;

    for (b = 1; b * b < n; b++)
        ;
    return b * b == n ? b : 0;
}

/* Whether a one-line puzzle of LEN symbols fits the expected size. */
static int
valid_total(const fgm_puzzle_reader *r, int len)
{
    if (r->n)
        return len == r->n * r->n;
    return len == 16 || len == 81 || len == 256 || len == 625;
}

static int
valid_side(const fgm_puzzle_reader *r, int n)
{
    if (r->n)
        return n == r->n;
    return n == 4 || n == 9 || n == 16 || n == 25;
}

#define ERR(r, line, ...) report((r), (line), __VA_ARGS__)

/* "NAME:LINE[:COL]: error: MSG" (COL 0: none) through R's sink. */
static void
vreport(const fgm_puzzle_reader *r, long line, int col, const char *fmt,
        va_list ap)
{
    char msg[768], at[32] = "";

    vsnprintf(msg, sizeof msg, fmt, ap);
    if (col > 0)
        snprintf(at, sizeof at, ":%d", col);
    fgm_diagf(r->diag, r->ctx, "%s:%ld%s: error: %s", r->name, line, at,
              msg);
}

static void report(const fgm_puzzle_reader *r, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
report(const fgm_puzzle_reader *r, long line, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(r, line, 0, fmt, ap);
    va_end(ap);
}

/* ERR at column COL (1-based) of line LINE. */
static void report_at(const fgm_puzzle_reader *r, long line, int col,
                      const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
report_at(const fgm_puzzle_reader *r, long line, int col, const char *fmt,
          ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(r, line, col, fmt, ap);
    va_end(ap);
}

/* ERR at cell I of grid G: its line and column. */
static void report_cell(const fgm_puzzle_reader *r, const struct grid *g,
                        int i, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
report_cell(const fgm_puzzle_reader *r, const grid *g, int i,
            const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(r, g->line[i], g->col[i], fmt, ap);
    va_end(ap);
}

/* Appends the K parsed symbols VALS, read at columns COLS of the
 * current line, to G's cells (a row, or the whole puzzle). */
static void
put_cells(grid *g, const fgm_puzzle_reader *r, const unsigned char *vals,
          const int *cols, int k)
{
    int i, at = g->rows * g->n;

    memcpy(g->cells + at, vals, (size_t)k);
    for (i = 0; i < k; i++) {
        g->line[at + i] = r->line;
        g->col[at + i] = cols[i];
    }
    g->rows += k / g->n;
}

/* Parses symbol string S (no spaces) into VALS; reports bad symbols with
 * the column COLS[i] of each symbol.  Returns 0 on a bad symbol. */
static int
parse_symbols(const fgm_puzzle_reader *r, const char *s, const int *cols,
              int len, int n, unsigned char *vals, char *empty)
{
    int i, v;

    for (i = 0; i < len; i++) {
        v = symbol_value((unsigned char)s[i]);
        if (v < 0 || v > n) {
            if (isprint((unsigned char)s[i]))
                fgm_diagf(r->diag, r->ctx,
                          "%s:%ld:%d: error: bad symbol '%c' (a %dx%d puzzle "
                          "uses 1-%c, and . 0 - x for empty cells)",
                          r->name, r->line, cols[i], s[i], n, n,
                          fgm_puzzle_symbol(n));
            else
                fgm_diagf(r->diag, r->ctx,
                          "%s:%ld:%d: error: bad byte 0x%02x in a puzzle",
                          r->name, r->line, cols[i], (unsigned char)s[i]);
            return 0;
        }
        if (v == 0 && *empty == 0)
            *empty = s[i];
        vals[i] = (unsigned char)v;
    }
    return 1;
}

/* Compacts LINE into symbols (dropping spaces, tabs and '|'), writing the
 * first MAX to OUT and each one's 1-based column to COLS (LINE starting
 * at column INDENT + 1).  Returns the symbol count, which may exceed
 * MAX. */
static int
compact(const char *line, int indent, char *out, int *cols, int max)
{
    int k = 0, i;

    for (i = 0; line[i]; i++) {
        if (line[i] == ' ' || line[i] == '\t' || line[i] == '|')
            continue;
        if (k < max) {
            out[k] = line[i];
            cols[k] = indent + i + 1;
        }
        k++;
    }
    return k;
}

/* Whether LINE separates bands of a displayed grid (only - + = * | and
 * blanks; '*' for the corners of HoDoKu's and Sudoku Explainer's
 * "*-----------*" borders). */
static int
is_rule(const char *line)
{
    int i, dash = 0;

    for (i = 0; line[i]; i++) {
        if (line[i] == '-' || line[i] == '+' || line[i] == '='
            || line[i] == '*')
            dash = 1;
        else if (line[i] != ' ' && line[i] != '\t' && line[i] != '|')
            return 0;
    }
    return dash;
}

/* What a rule-like line (is_rule) is in grid G: a separator, skipped; a
 * row of empty cells written with '-' (or, first, a whole puzzle of
 * them); or either, which the reader refuses.  A line of only '-'
 * (blanks and '|' aside) holding as many as a row has cells can be both,
 * and taken for the wrong one, the grid takes the next grid's row or
 * loses one of its own and a puzzle nobody wrote is solved.  Where the
 * display can hold no separator (inside a band of boxes, boxes of the
 * side's square root whatever the constraints: a Latin square can be
 * shown boxed) it is a row.  Where it can (the grid's start, between
 * bands), it is a separator when this grid, or else the puzzle before
 * it, writes its empty cells with another symbol, or has shown rows but
 * no empty cell yet (a band given in full, then a row of nothing but
 * empty cells, is far less likely than a rule under it); ambiguous when
 * that symbol is '-', or at a grid's start with nothing known.  A line
 * with '+', '=' or '*', or with a count of '-' no row has, is a
 * separator. */
enum { DASH_RULE, DASH_CELLS, DASH_AMBIGUOUS, DASH_AMBIGUOUS_PUZZLE };

static int
dash_line(const fgm_puzzle_reader *r, const grid *g, const char *line,
          int *dashes)
{
    int i, n, box;
    char empty = g->empty ? g->empty : r->empty;

    *dashes = 0;
    for (i = 0; line[i]; i++) {
        if (line[i] == '+' || line[i] == '=' || line[i] == '*')
            return DASH_RULE;
        *dashes += line[i] == '-';
    }
    /* A whole puzzle on one line, spaced or not (as compact reads it);
     * but 16 '-' alone, unspaced, before the file's size is known, are
     * as much the top rule of a 16x16 grid (its first row read next
     * then failed, and the rule was solved as an empty 4x4 puzzle). */
    if (g->rows == 0 && !strchr(line, '|') && valid_total(r, *dashes)) {
        if (!r->n && valid_side(r, *dashes)
            && strspn(line, "-") == (size_t)*dashes)
            return DASH_AMBIGUOUS_PUZZLE;
        return DASH_CELLS;
    }
    n = g->rows > 0 ? g->n : r->n;
    if (n ? *dashes != n : !valid_side(r, *dashes))
        return DASH_RULE;
    box = r->box ? r->box : isqrt_exact(*dashes);
    if (g->rows > 0 && !(box > 1 && g->rows % box == 0))
        return DASH_CELLS;
    if (empty)
        return empty != '-' ? DASH_RULE : DASH_AMBIGUOUS;
    return g->rows > 0 ? DASH_RULE : DASH_AMBIGUOUS;
}

/* Whether the LEN bytes at P are all spaces or tabs. */
static int
blank_span(const char *p, int len)
{
    int i;

    for (i = 0; i < len; i++)
        if (p[i] != ' ' && p[i] != '\t')
            return 0;
    return 1;
}

/* A boxed row written with fixed-width cells and spaces for empties
 * (notebook 000): "| 9     2 |       5 | 4     3 |".  Splits on '|' into
 * box segments and each segment into equal-width cells.  Returns the cell
 * count written to OUT/COLS (columns as compact's), or -1 if the row has
 * no such layout. */
static int
fixed_width_row(const char *line, int indent, char *out, int *cols, int max)
{
    const char *seg[FGM_PUZZLE_MAXN + 2];
    int seglen[FGM_PUZZLE_MAXN + 2], nseg = 0, lo, hi, i, j, k = 0, per;
    const char *p = line, *bar;

    for (;;) {
        bar = strchr(p, '|');
        if (nseg >= FGM_PUZZLE_MAXN + 2)
            return -1;
        seg[nseg] = p;
        seglen[nseg++] = bar ? (int)(bar - p) : (int)strlen(p);
        if (!bar)
            break;
        p = bar + 1;
    }
    /* Blank segments outside the first and last '|' are borders. */
    lo = blank_span(seg[0], seglen[0]) ? 1 : 0;
    hi = blank_span(seg[nseg - 1], seglen[nseg - 1]) ? nseg - 1 : nseg;
    /* A boxed Sudoku row has B boxes of B cells each. */
    per = hi - lo;
    if (per < 2)
        return -1;
    for (i = lo; i < hi; i++) {
        int w = seglen[i] / per;

        if (w < 1 || seglen[i] % per != 0)
            return -1;
        for (j = 0; j < per; j++) {
            const char *c = seg[i] + j * w;
            int m, found = 0;

            if (k >= max)
                return -1;
            out[k] = '.';
            cols[k] = indent + (int)(c - line) + 1;
            for (m = 0; m < w; m++)
                if (c[m] != ' ' && c[m] != '\t') {
                    if (found++)
                        return -1;
                    out[k] = c[m];
                    cols[k] = indent + (int)(c + m - line) + 1;
                }
            k++;
        }
    }
    return k;
}

/* Checks that no clue repeats in a row, column or (Sudoku) box: one pass
 * with a bit mask per unit; the earlier twin is looked up only to word the
 * message. */
static int
check_clues(const fgm_puzzle_reader *r, const grid *g, int box)
{
    uint32_t rowm[FGM_PUZZLE_MAXN] = { 0 }, colm[FGM_PUZZLE_MAXN] = { 0 };
    uint32_t boxm[FGM_PUZZLE_MAXN] = { 0 };
    int n = g->n, i, j, k;
    const unsigned char *c = g->cells;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            int v = c[i * n + j], b = box ? fgm_box_of(i, j, box) : 0;
            uint32_t bit = (uint32_t)1 << v;

            if (!v)
                continue;
            if (rowm[i] & bit) {
                for (k = 0; c[i * n + k] != v; k++)
                    ;
                report_cell(r, g, i * n + j, "clue %c repeated in row %d "
                            "(columns %d and %d)", fgm_puzzle_symbol(v),
                            i + 1, k + 1, j + 1);
                return 0;
            }
            if (colm[j] & bit) {
                for (k = 0; c[k * n + j] != v; k++)
                    ;
                report_cell(r, g, i * n + j, "clue %c repeated in column "
                            "%d (rows %d and %d)", fgm_puzzle_symbol(v),
                            j + 1, k + 1, i + 1);
                return 0;
            }
            if (box && (boxm[b] & bit)) {
                int bi = i / box * box, bj = j / box * box;

                for (k = 0; c[(bi + k / box) * n + bj + k % box] != v; k++)
                    ;
                report_cell(r, g, i * n + j, "clue %c repeated in box %d "
                            "(rows %d and %d)", fgm_puzzle_symbol(v), b + 1,
                            bi + k / box + 1, i + 1);
                return 0;
            }
            rowm[i] |= bit;
            colm[j] |= bit;
            boxm[b] |= bit;
        }
    return 1;
}

/* Turns the finished grid G into *OUT after validation. */
static fgm_status
finish(fgm_puzzle_reader *r, grid *g, fgm_puzzle *out)
{
    int box = r->units != UNITS_GRID ? 0
              : r->box ? r->box : isqrt_exact(g->n);

    if (r->units != UNITS_NONE && !check_clues(r, g, box))
        return FGM_EINVAL;
    if (!r->n) {
        r->n = g->n;
        r->box = box;
    }
    memset(out, 0, sizeof *out);
    out->n = g->n;
    out->box = box;
    out->line = g->first_line;
    out->file = r->file;
    out->empty = g->empty ? g->empty : '.';
    if (g->empty)
        r->empty = g->empty;
    memcpy(out->cells, g->cells, (size_t)g->n * (size_t)g->n);
    r->count++;
    r->csv_seen = 1;    /* a header may only come first */
    return FGM_OK;
}

/* Strips a comment, a trailing CR/LF and surrounding blanks in place. */
static char *
clean_line(char *s)
{
    char *hash = strchr(s, '#'), *e;

    if (hash)
        *hash = '\0';
    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' '
                     || e[-1] == '\t'))
        *--e = '\0';
    return s;
}

/* Whether the K symbols SYM (at columns COLS; only the first
 * FGM_PUZZLE_MAXCELLS are there) are all printable ASCII; else reports
 * the first other byte and returns 0.  Counted as symbols, such bytes
 * gave a count that matched no puzzle and said nothing of them: a line
 * of 16 clues after a UTF-8 byte-order mark "has 19 symbols". */
static int
ascii_symbols(const fgm_puzzle_reader *r, const char *sym, const int *cols,
              int k)
{
    int i;

    for (i = 0; i < k && i < FGM_PUZZLE_MAXCELLS; i++) {
        unsigned char c = (unsigned char)sym[i];

        if (c < 0x80 && isprint(c))
            continue;
        if (c == 0xef && i + 2 < k && (unsigned char)sym[i + 1] == 0xbb
            && (unsigned char)sym[i + 2] == 0xbf && cols[i] == 1)
            fgm_diagf(r->diag, r->ctx, "%s:%ld:1: error: UTF-8 byte-order "
                      "mark (bytes ef bb bf): a puzzle file is plain ASCII",
                      r->name, r->line);
        else
            fgm_diagf(r->diag, r->ctx, "%s:%ld:%d: error: bad byte 0x%02x "
                      "in a puzzle", r->name, r->line, cols[i], c);
        return 0;
    }
    return 1;
}

/* Handles one non-blank line of a grid, starting the grid if needed;
 * LINE is the line read past its INDENT leading blanks, which messages
 * count in their columns.  Returns FGM_OK to go on (a complete grid sets
 * *DONE), or an error. */
static fgm_status
feed(fgm_puzzle_reader *r, grid *g, const char *line, int indent, int *done)
{
    char sym[FGM_PUZZLE_MAXCELLS + 1];
    int cols[FGM_PUZZLE_MAXCELLS + 1], k, dashes;
    unsigned char vals[FGM_PUZZLE_MAXCELLS];
    int boxed = strchr(line, '|') != NULL;

    *done = 0;
    if (is_rule(line)) {
        switch (dash_line(r, g, line, &dashes)) {
        case DASH_RULE:
            return FGM_OK;
        case DASH_AMBIGUOUS:
            ERR(r, r->line, "a line of %d '-' only, where a rule may "
                "stand: a row of empty cells or a rule? write empty cells "
                "as '.' or a rule with '+'", dashes);
            return FGM_EPARSE;
        case DASH_AMBIGUOUS_PUZZLE:
            ERR(r, r->line, "a line of %d '-' only: an empty %dx%d puzzle "
                "or the rule of a %dx%d grid? write empty cells as '.' or "
                "a rule with '+'", dashes, isqrt_exact(dashes),
                isqrt_exact(dashes), dashes, dashes);
            return FGM_EPARSE;
        default:
            break;      /* cells, read below */
        }
    }
    if ((isalpha((unsigned char)line[0]) || line[0] == '_')
        && strchr(line, '=')) {
        /* Not a rule: never cells.  `fgm run --observe` judges a file
         * by its first line. */
        ERR(r, r->line, "an assignment line (NAME = values) among puzzles: "
            "a file holds puzzles or assignment lines, not both");
        return FGM_EPARSE;
    }
    if (strchr(line, '"')) {
        /* A quoted line is a table's record (csv_line); a quote anywhere
         * else was counted as a symbol ("line has 82 symbols"). */
        report_at(r, r->line, indent + (int)(strchr(line, '"') - line) + 1,
                  "a double quote in a puzzle: quote the whole puzzle, or "
                  "not at all");
        return FGM_EPARSE;
    }
    k = compact(line, indent, sym, cols, FGM_PUZZLE_MAXCELLS);
    if (k > FGM_PUZZLE_MAXCELLS) {
        ERR(r, r->line, "line has %d symbols; the largest puzzle (25x25) "
            "has 625", k);
        return FGM_EPARSE;
    }
    if (!ascii_symbols(r, sym, cols, k))
        return FGM_EPARSE;
    if (g->rows == 0 && valid_total(r, k) && !(boxed && valid_side(r, k))) {
        /* A whole puzzle on one line; with '|' between its cells too,
         * where no row has that many (16 '|'-separated symbols may be a
         * 16x16 grid's row: read as one). */
        int n = r->n ? r->n : isqrt_exact(k);

        g->n = n;
        g->first_line = r->line;
        if (!parse_symbols(r, sym, cols, k, n, vals, &g->empty))
            return FGM_EPARSE;
        put_cells(g, r, vals, cols, k);
        *done = 1;
        return FGM_OK;
    }
    if (boxed && (g->n ? k != g->n : !valid_side(r, k))) {
        int m = fixed_width_row(line, indent, sym, cols,
                                FGM_PUZZLE_MAXCELLS);

        if (m > 0)
            k = m;
    }
    if (g->rows == 0) {
        if (!valid_side(r, k)) {
            if (r->n)
                ERR(r, r->line, "line has %d symbol%s; expected %d (one "
                    "%dx%d puzzle) or a row of %d", k, k == 1 ? "" : "s",
                    r->n * r->n, r->n, r->n, r->n);
            else
                ERR(r, r->line, "line has %d symbol%s; a puzzle has 16, 81, "
                    "256 or 625 (4x4, 9x9, 16x16, 25x25), a grid row 4, 9, "
                    "16 or 25", k, k == 1 ? "" : "s");
            return FGM_EPARSE;
        }
        g->n = k;
        g->first_line = r->line;
    } else if (k != g->n) {
        ERR(r, r->line, "grid row %d has %d symbol%s; expected %d",
            g->rows + 1, k, k == 1 ? "" : "s", g->n);
        return FGM_EPARSE;
    }
    if (!parse_symbols(r, sym, cols, k, g->n, vals, &g->empty))
        return FGM_EPARSE;
    put_cells(g, r, vals, cols, k);
    *done = g->rows == g->n;
    return FGM_OK;
}

/* Handles a non-blank line S with a comma (past INDENT leading blanks),
 * as feed does.  Cells one to a field are the line with blanks for its
 * commas.  Else the line is a record of a table: the first record of a
 * file, when one of its fields names a puzzle column, is the header that
 * says which field holds the puzzle in the records after it; without
 * one, the first field does.  The puzzle field is a whole puzzle on one
 * line; the other fields (a dataset's solution, rating, ...) are not
 * read. */
static fgm_status
csv_line(fgm_puzzle_reader *r, grid *g, char *s, int indent, int *done)
{
    fgm_csv_field f[FGM_PUZZLE_MAXCELLS + 1];
    char sym[FGM_PUZZLE_MAXCELLS];
    int cols[FGM_PUZZLE_MAXCELLS];
    int nf = fgm_csv_split(s, f, (int)FGM_COUNTOF(f)), i, k, first = 0;
    fgm_status st;
    fgm_csv_field p;

    *done = 0;
    /* Cells one to a field need commas: a line of one field is a
     * record ("1", quoted, is a table's short puzzle, not a cell). */
    if (!r->table && nf > 1 && nf <= (int)FGM_COUNTOF(f)
        && fgm_csv_cells_only(f, nf)) {
        for (i = 0; i < nf; i++)
            if (f[i].len == 0) {
                report_at(r, r->line, indent + f[i].at + 1, "empty field "
                          "%d among cells written one to a field: write "
                          "an empty cell as '.' or '0'", i + 1);
                return FGM_EPARSE;
            }
        for (i = 0; s[i]; i++)
            if (s[i] == ',')
                s[i] = ' ';
        return feed(r, g, s, indent, done);
    }
    if (nf > (int)FGM_COUNTOF(f))
        nf = (int)FGM_COUNTOF(f);
    if (g->rows > 0) {
        ERR(r, r->line, "a record of %d comma-separated fields inside a "
            "grid, after %d of its %d rows", nf, g->rows, g->n);
        return FGM_EPARSE;
    }
    if (!r->csv_seen) {
        first = 1;
        r->csv_seen = 1;
        r->csv_col = fgm_csv_puzzle_column(s, f, nf);
        if (r->csv_col >= 0) {
            /* The header.  After one of several columns, "1,2" is a
             * short record, not two cells ("line has 2 symbols"). */
            r->table = nf > 1;
            return FGM_OK;
        }
        r->csv_col = 0;
    }
    if (r->csv_col >= nf) {
        ERR(r, r->line, "a record of %d field%s; the puzzle is field %d",
            nf, nf == 1 ? "" : "s", r->csv_col + 1);
        return FGM_EPARSE;
    }
    p = f[r->csv_col];
    s[p.at + p.len] = '\0';     /* the field alone; nothing reads past it */
    {
        const char *quote = memchr(s + p.at, '"', (size_t)p.len);

        /* One pair of quotes encloses a field: another is no symbol but
         * a slip ("1..., with no closing quote, was "17 symbols"). */
        if (quote) {
            report_at(r, r->line, indent + (int)(quote - s) + 1, "a double "
                      "quote inside field %d: quote a field whole, or not "
                      "at all", r->csv_col + 1);
            return FGM_EPARSE;
        }
    }
    k = compact(s + p.at, indent + p.at, sym, cols, FGM_PUZZLE_MAXCELLS);
    /* A byte no puzzle has is named where it stands, before its count
     * could be (feed's order). */
    if (!ascii_symbols(r, sym, cols, k))
        return FGM_EPARSE;
    if (!valid_total(r, k) || memchr(s + p.at, '|', (size_t)p.len)) {
        if (fgm_csv_looks_like_header(s, f, nf))
            ERR(r, r->line, first ? "a header that names no puzzle "
                "column: name it 'puzzle', 'quizzes' or 'question'"
                : "a header after the file's first record");
        else if (r->n)
            report_at(r, r->line, indent + p.at + 1, "field %d has %d "
                      "symbol%s; a %dx%d puzzle on one line has %d",
                      r->csv_col + 1, k, k == 1 ? "" : "s", r->n, r->n,
                      r->n * r->n);
        else
            report_at(r, r->line, indent + p.at + 1, "field %d has %d "
                      "symbol%s; a puzzle on one line has 16, 81, 256 or "
                      "625 (4x4, 9x9, 16x16, 25x25)", r->csv_col + 1, k,
                      k == 1 ? "" : "s");
        return FGM_EPARSE;
    }
    st = feed(r, g, s + p.at, indent + p.at, done);
    if (st == FGM_OK && !*done) {
        /* A rule of the boxed display (******** ... of a puzzle's
         * length), which feed skips. */
        report_at(r, r->line, indent + p.at + 1, "field %d is a rule, not "
                  "a puzzle", r->csv_col + 1);
        return FGM_EPARSE;
    }
    return st;
}

/* Whether boxes of side BOX fit a grid of side N (0: not known yet). */
static int
box_ok(int n, int box)
{
    /* The box is bounded before it is squared. */
    return box >= FGM_GRID_NO_UNITS && box <= FGM_PUZZLE_MAXN
           && !(n && box > 0 && box * box != n);
}

/* Whether fgm_puzzle holds grids of side N (0: not known yet). */
static int
side_ok(int n)
{
    return n >= 0 && n <= FGM_PUZZLE_MAXN;
}

int
fgm_puzzle_shape_ok(int n, int box)
{
    return box_ok(n, box) && side_ok(n);
}

/* Whether N x N puzzles (boxes of BOX, 0: none; FGM_GRID_NO_UNITS: no
 * units either) fit fgm_puzzle; reports when not. */
static int
shape_ok(const char *name, int n, int box, fgm_diag_fn diag, void *ctx)
{
    if (!box_ok(n, box)) {
        fgm_diagf(diag, ctx, "%s: error: a %dx%d grid cannot have boxes of "
                  "side %d", name, n, n, box);
        return 0;
    }
    if (!side_ok(n)) {
        fgm_diagf(diag, ctx, "%s: error: puzzles of side %d are not "
                  "supported; the largest is %dx%d", name, n,
                  FGM_PUZZLE_MAXN, FGM_PUZZLE_MAXN);
        return 0;
    }
    return 1;
}

fgm_puzzle_reader *
fgm_puzzle_reader_file(FILE *f, const char *name, int n, int box,
                       fgm_diag_fn diag, void *ctx)
{
    fgm_puzzle_reader *r;

    if (!f)
        return NULL;
    if (!name)
        name = "<stream>";
    if (!shape_ok(name, n, box, diag, ctx))
        return NULL;
    r = calloc(1, sizeof *r);
    if (!r) {
        fgm_diagf(diag, ctx, "%s: error: out of memory", name);
        return NULL;
    }
    r->f = f;
    r->waits = -1;
    r->diag = diag;
    r->ctx = ctx;
    r->n = n;
    r->box = n && box > 0 ? box : 0;
    r->units = !n || box > 0 ? UNITS_GRID
               : box == FGM_GRID_NO_UNITS ? UNITS_NONE : UNITS_LATIN;
    snprintf(r->name, sizeof r->name, "%s", name);
    return r;
}

const char *
fgm_input_name(const char *path)
{
    return path && strcmp(path, "-") == 0 ? "<stdin>" : path;
}

fgm_puzzle_reader *
fgm_puzzle_reader_open(const char *path, int n, int box, fgm_diag_fn diag,
                       void *ctx)
{
    fgm_puzzle_reader *r;
    struct stat sb;
    FILE *f;

    if (!path)
        return NULL;
    if (strcmp(path, "-") == 0)
        return fgm_puzzle_reader_file(stdin, fgm_input_name(path), n, box,
                                      diag, ctx);
    if (!shape_ok(path, n, box, diag, ctx))
        return NULL;
    f = fopen(path, "r");
    if (!f) {
        fgm_diagf(diag, ctx, "%s: error: cannot open: %s", path,
                  strerror(errno));
        return NULL;
    }
    /* fopen takes a folder; its first read fails.  Say so now, before
     * the files ahead of it in a list are solved. */
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fgm_diagf(diag, ctx, "%s: error: cannot read: %s", path,
                  strerror(EISDIR));
        fclose(f);
        return NULL;
    }
    r = fgm_puzzle_reader_file(f, path, n, box, diag, ctx);
    if (!r)
        fclose(f);
    else
        r->owns = 1;
    return r;
}

fgm_puzzle_reader *
fgm_puzzle_reader_open_list(const char *const *paths, int npaths, int n,
                            int box, fgm_diag_fn diag, void *ctx)
{
    fgm_puzzle_reader *r, **tail;
    int i, stdins = 0;

    if (!paths || npaths < 1)
        return NULL;
    /* Standard input read twice would be empty the second time: as two
     * names of one file, it is the caller's mistake, said before any
     * file is opened (fgm_puzzle_read would only find no puzzle). */
    for (i = 0; i < npaths; i++)
        if (paths[i] && strcmp(paths[i], "-") == 0 && ++stdins == 2) {
            fgm_diagf(diag, ctx, "error: '-' (standard input) is named "
                      "twice in the list of puzzle files");
            return NULL;
        }
    r = fgm_puzzle_reader_open(paths[0], n, box, diag, ctx);
    tail = r ? &r->next : NULL;
    for (i = 1; r && i < npaths; i++) {
        *tail = fgm_puzzle_reader_open(paths[i], n, box, diag, ctx);
        if (!*tail) {
            fgm_puzzle_reader_close(r);
            return NULL;
        }
        tail = &(*tail)->next;
    }
    return r;
}

/* Goes on with the file after R's current one (R->next, consumed): its
 * stream, name and lines; the count, the size and a peeked puzzle stay. */
static void
next_file(fgm_puzzle_reader *r)
{
    fgm_puzzle_reader *nx = r->next;

    if (r->owns)
        fclose(r->f);
    r->f = nx->f;
    r->owns = nx->owns;
    memcpy(r->name, nx->name, sizeof r->name);
    r->line = 0;
    r->file++;
    r->waits = -1;      /* another stream: looked at when first read */
    r->csv_seen = 0;    /* each file has its own header */
    r->table = 0;
    r->next = nx->next;
    nx->owns = 0;
    nx->next = NULL;
    fgm_puzzle_reader_close(nx);
}

/* Longest line a reader takes: a 25 x 25 grid on one line is 625 symbols,
 * with separators and a comment far less than this.  A longer line is
 * refused instead of buffered whole (a file with no newline, /dev/zero). */
#define MAX_LINE 65536

/* Whether reading R's descriptor goes on without waiting for input that
 * has not come: the end of the input, an error, a regular file, or bytes
 * (or a hang-up) waiting on it. */
static int
stream_ready(fgm_puzzle_reader *r)
{
    struct pollfd pfd;
    struct stat sb;

    if (feof(r->f) || ferror(r->f))
        return 1;
    if (r->waits < 0)
        r->waits = !(fstat(fileno(r->f), &sb) == 0 && S_ISREG(sb.st_mode));
    if (!r->waits)
        return 1;
    pfd.fd = fileno(r->f);
    pfd.events = POLLIN;
    pfd.revents = 0;
    /* A hang-up or an error is ready too: the read returns at once. */
    return poll(&pfd, 1, 0) != 0;
}

/* Whether the next getc of R may have to read from its descriptor, the
 * stream's buffer empty (LEN bytes of the line read so far): where that
 * buffer cannot be seen (not glibc), at each line's start. */
static int
may_wait(const fgm_puzzle_reader *r, size_t len)
{
#if defined(__GLIBC__) && !defined(__UCLIBC__)
    (void)len;
    return r->f->_IO_read_ptr >= r->f->_IO_read_end;
#else
    (void)r;
    return len == 0;
#endif
}

/* Reads the next line, newline kept, into R->buf.  Returns its length
 * (NUL bytes included), -1 at the end of the input or on a read error
 * (even part way through a line: the part read is not a line, and a read
 * after the error may go on past the bytes lost), -2 past MAX_LINE bytes,
 * -3 when out of memory. */
static long
read_line(fgm_puzzle_reader *r)
{
    size_t len = 0;
    int c;

    for (;;) {
        /* Before a read that would wait for input not yet come, the
         * caller's hook (a batch's answers to what it has read). */
        if (r->on_wait && may_wait(r, len) && !stream_ready(r))
            r->on_wait(r->wait_ctx);
        if ((c = getc_unlocked(r->f)) == EOF)
            break;
        if (len == MAX_LINE && c != '\n')     /* its newline fits */
            return -2;
        if (len + 2 > r->cap) {
            size_t cap = r->cap ? 2 * r->cap : 256;
            char *b;

            if (cap > MAX_LINE + 2)
                cap = MAX_LINE + 2;
            b = realloc(r->buf, cap);
            if (!b)
                return -3;
            r->buf = b;
            r->cap = cap;
        }
        r->buf[len++] = (char)c;
        if (c == '\n')
            break;
    }
    if (len == 0 || ferror(r->f))
        return -1;
    r->buf[len] = '\0';
    return (long)len;
}

/* fgm_puzzle_read past a peeked puzzle. */
static fgm_status
read_next(fgm_puzzle_reader *r, fgm_puzzle *out)
{
    grid g;
    long len;
    int done;
    fgm_status st;

    memset(&g, 0, sizeof g);
again:
    while ((len = read_line(r)) >= 0) {
        char *s;

        r->line++;
        if ((size_t)len != strlen(r->buf)) {
            fgm_diagf(r->diag, r->ctx, "%s:%ld:%zu: error: NUL byte in input",
                      r->name, r->line, strlen(r->buf) + 1);
            return FGM_EPARSE;
        }
        s = clean_line(r->buf);
        if (*s == '\0')
            continue;
        /* Spreadsheets write their CSV with a UTF-8 byte-order mark; a
         * table's first line, a record or a header (one column's too),
         * may have one (elsewhere it is an error). */
        if (r->line == 1 && strncmp(s, "\xef\xbb\xbf", 3) == 0
            && (strchr(s, ',') || fgm_csv_is_puzzle_name(s + 3)))
            s += 3;
        /* A table of one column may quote its fields ("12.4...") too;
         * a record of a table with a header is one even when it is too
         * short to hold a comma. */
        if (r->table || strchr(s, ',') || *s == '"'
            || (!r->csv_seen && fgm_csv_is_puzzle_name(s)))
            st = csv_line(r, &g, s, (int)(s - r->buf), &done);
        else
            st = feed(r, &g, s, (int)(s - r->buf), &done);
        if (st != FGM_OK)
            return st;
        if (done)
            return finish(r, &g, out);
    }
    /* Errors name the line being read: the one after the last whole
     * line (line 1 of a folder). */
    if (len == -2) {
        /* At the first byte past the limit, as every message has a
         * column where one can be named. */
        report_at(r, r->line + 1, MAX_LINE + 1, "line longer than %d bytes",
                  MAX_LINE);
        return FGM_EPARSE;
    }
    if (len == -3) {
        ERR(r, r->line + 1, "out of memory");
        return FGM_ENOMEM;
    }
    if (ferror(r->f)) {
        ERR(r, r->line + 1, "read error: %s", strerror(errno));
        r->failed = 1;
        return FGM_EIO;
    }
    if (g.rows > 0) {
        ERR(r, r->line, "grid ends after %d of %d rows", g.rows, g.n);
        return FGM_EPARSE;
    }
    if (r->next) {
        /* The end of one file of a list: the next one goes on. */
        next_file(r);
        goto again;
    }
    if (r->count == 0 && !r->bad_seen) {
        /* Once (fgm_puzzle_read counts it): the next read is the end. */
        ERR(r, r->line ? r->line : 1, "no puzzle in the input");
        return FGM_EPARSE;
    }
    return FGM_EIO;     /* end of input */
}

fgm_status
fgm_puzzle_read(fgm_puzzle_reader *r, fgm_puzzle *out)
{
    fgm_status st;

    if (!r || !out)
        return FGM_EINVAL;
    if (r->peeked) {
        r->peeked = 0;
        *out = r->pending;
        return FGM_OK;
    }
    st = read_next(r, out);
    /* An input of malformed puzzles only has had its errors: its end is
     * FGM_EIO, not "no puzzle in the input" at every read after it. */
    if (st == FGM_EPARSE || st == FGM_EINVAL)
        r->bad_seen = 1;
    return st;
}

fgm_status
fgm_puzzle_peek(fgm_puzzle_reader *r, fgm_puzzle *out)
{
    fgm_status st;

    if (!r || !out)
        return FGM_EINVAL;
    if (!r->peeked) {
        st = fgm_puzzle_read(r, &r->pending);
        if (st != FGM_OK)
            return st;
        r->peeked = 1;
    }
    *out = r->pending;
    return FGM_OK;
}

void
fgm_puzzle_reader_on_wait(fgm_puzzle_reader *r, void (*fn)(void *ctx),
                          void *ctx)
{
    if (!r)
        return;
    r->on_wait = fn;
    r->wait_ctx = ctx;
}

int
fgm_puzzle_reader_failed(const fgm_puzzle_reader *r)
{
    return r ? r->failed : 0;
}

long
fgm_puzzle_reader_count(const fgm_puzzle_reader *r)
{
    return r ? r->count : 0;
}

void
fgm_puzzle_reader_close(fgm_puzzle_reader *r)
{
    if (!r)
        return;
    fgm_puzzle_reader_close(r->next);
    if (r->owns && r->f)
        fclose(r->f);
    free(r->buf);
    free(r);
}

fgm_status
fgm_puzzle_parse(const char *text, const char *name, int n, int box,
                 fgm_puzzle *out, fgm_diag_fn diag, void *ctx)
{
    FILE *f;
    fgm_puzzle_reader *r;
    fgm_puzzle first;
    fgm_status st;

    if (!text || !out)
        return FGM_EINVAL;
    if (!name)
        name = "<string>";
    if (!shape_ok(name, n, box, diag, ctx))
        return FGM_EINVAL;
    f = fmemopen((void *)text, strlen(text), "r");
    if (!f || !*text) {
        if (f)
            fclose(f);
        fgm_diagf(diag, ctx, "%s:1: error: no puzzle in the input", name);
        return FGM_EPARSE;
    }
    r = fgm_puzzle_reader_file(f, name, n, box, diag, ctx);
    if (!r) {
        fclose(f);
        return FGM_ENOMEM;
    }
    r->owns = 1;
    st = fgm_puzzle_read(r, &first);
    if (st == FGM_OK) {
        /* One puzzle: whatever follows it is an error, not ignored. */
        fgm_puzzle next;

        st = fgm_puzzle_read(r, &next);
        if (st == FGM_OK) {
            fgm_diagf(diag, ctx, "%s:%ld: error: more than one puzzle in "
                      "the text", name, next.line);
            st = FGM_EPARSE;
        } else if (st == FGM_EIO && !fgm_puzzle_reader_failed(r)) {
            st = FGM_OK;    /* the end of the text */
        }
    }
    fgm_puzzle_reader_close(r);
    if (st == FGM_OK)
        *out = first;   /* untouched on failure */
    return st;
}

int
fgm_puzzle_format_line(const fgm_puzzle *p, char *buf, size_t size)
{
    int i, total;

    if (!p || !buf || p->n < 1 || p->n > FGM_PUZZLE_MAXN)
        return -1;
    total = p->n * p->n;
    if ((size_t)total + 1 > size)
        return -1;
    for (i = 0; i < total; i++)
        buf[i] = p->cells[i] ? fgm_puzzle_symbol(p->cells[i]) : p->empty;
    buf[total] = '\0';
    return total;
}

void
fgm_puzzle_write_grid(const fgm_puzzle *p, FILE *f)
{
    int n, b, i, j, w, rule;

    if (!p || !f || p->n < 1 || p->n > FGM_PUZZLE_MAXN)
        return;
    n = p->n;
    b = p->box;
    w = n > 9 ? 2 : 1;
    rule = n * (w + 1) + (b ? 2 * (n / b - 1) : 0) - 1;
    for (i = 0; i < n; i++) {
        if (b && i > 0 && i % b == 0) {
            for (j = 0; j < rule; j++)
                fputc('-', f);
            fputc('\n', f);
        }
        for (j = 0; j < n; j++) {
            int v = p->cells[i * n + j];

            if (j > 0)
                fputs(b && j % b == 0 ? " | " : " ", f);
            fprintf(f, "%*c", w, v ? fgm_puzzle_symbol(v) : '.');
        }
        fputc('\n', f);
    }
}
