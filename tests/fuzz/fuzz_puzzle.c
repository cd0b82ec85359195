/* tests/fuzz/fuzz_puzzle.c: libFuzzer target for the puzzle reader
 * (runtime/puzzle.c).  SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first byte picks the expected shape the way `fgm solve` passes it:
 * 0 -> (n=0, box=0) auto; otherwise a Sudoku (n=B*B, box=B, B=2..5) or a
 * Latin square (n=2..26, box=0; 26 must be refused with a message).  The rest is the input file, read through
 * fgm_puzzle_reader_file (peek first, like cmd_solve, then every puzzle),
 * and also given to fgm_puzzle_parse.
 *
 * Oracles: every diagnostic is "NAME[:LINE[:COL]]: error: ...", LINE a
 * line of the input and COL at most one past its last byte; a puzzle
 * read has 1 <= cells <= n, box*box == n when box, and no repeated clue.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fgm.h"

#define NAME "p.txt"

static int ndiag;
static const char *input;   /* what the reader reads, INPUT_SIZE bytes */
static size_t input_size;

/* The length of line LINE (1, 2, ...) of the input, or -1 past its end. */
static long
line_length(long line)
{
    size_t at = 0, end;
    long l;

    for (l = 1; l < line; l++) {
        const char *nl = memchr(input + at, '\n', input_size - at);

        if (!nl)
            return -1;
        at = (size_t)(nl - input) + 1;
    }
    for (end = at; end < input_size && input[end] != '\n'; end++)
        ;
    return (long)(end - at);
}

static void
diag(void *ctx, const char *msg)
{
    const char *p = msg + strlen(NAME) + 1;
    char *end;
    long line;

    (void)ctx;
    ndiag++;
    if (getenv("FUZZ_SHOW"))
        fprintf(stderr, "%s\n", msg);
    if (strncmp(msg, NAME ":", strlen(NAME) + 1) != 0) {
        fprintf(stderr, "BAD DIAG: %s\n", msg);
        abort();
    }
    if (strncmp(p, " error: ", 8) == 0)     /* about the whole input */
        return;
    line = strtol(p, &end, 10);
    if (end == p || line < 1 || *end != ':' || line_length(line) < 0) {
        fprintf(stderr, "BAD DIAG (line): %s\n", msg);
        abort();
    }
    if (end[1] >= '0' && end[1] <= '9') {
        long col = strtol(end + 1, &end, 10);

        if (col < 1 || col > line_length(line) + 1 || *end != ':') {
            fprintf(stderr, "BAD DIAG (col): %s\n", msg);
            abort();
        }
    }
    if (strstr(end, ": error: ") == NULL) {
        fprintf(stderr, "BAD DIAG (no error:): %s\n", msg);
        abort();
    }
}

static void
check_puzzle(const fgm_puzzle *p, int n, int box)
{
    int i, j;

    if (p->n < 1 || p->n > FGM_PUZZLE_MAXN || (n && p->n != n)) {
        fprintf(stderr, "bad n %d (expected %d)\n", p->n, n);
        abort();
    }
    if (p->box && p->box * p->box != p->n) {
        fprintf(stderr, "bad box %d for n %d\n", p->box, p->n);
        abort();
    }
    if (n && p->box != box) {
        fprintf(stderr, "box %d, expected %d\n", p->box, box);
        abort();
    }
    if (p->line < 1)
        abort();
    for (i = 0; i < p->n * p->n; i++)
        if (p->cells[i] > p->n) {
            fprintf(stderr, "cell %d = %d > n %d\n", i, p->cells[i], p->n);
            abort();
        }
    /* No repeated clue in a row, column, box. */
    for (i = 0; i < p->n * p->n; i++)
        for (j = i + 1; j < p->n * p->n; j++) {
            int ri = i / p->n, ci = i % p->n, rj = j / p->n, cj = j % p->n;
            int same = ri == rj || ci == cj;

            if (p->box)
                same |= ri / p->box == rj / p->box
                        && ci / p->box == cj / p->box;
            if (same && p->cells[i] && p->cells[i] == p->cells[j]) {
                fprintf(stderr, "repeated clue %d at %d and %d\n",
                        p->cells[i], i, j);
                abort();
            }
        }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int n = 0, box = 0, mode, i, st;
    FILE *f;
    fgm_puzzle_reader *r;
    fgm_puzzle p, q;
    char *text;

    if (size < 1)
        return 0;
    mode = data[0];
    data++;
    size--;
    if (mode >= '0' && mode <= '9')     /* readable seeds */
        mode -= '0';
    mode %= 30;
    if (mode == 0) {
        n = box = 0;
    } else if (mode <= 4) {
        box = mode + 1;
        n = box * box;
    } else {
        n = mode - 3;                   /* 2..26 */
        box = 0;
    }
    if (size == 0)
        return 0;
    input = (const char *)data;
    input_size = size;
    f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    ndiag = 0;
    r = fgm_puzzle_reader_file(f, NAME, n, box, diag, NULL);
    if (!r) {
        /* Only a shape fgm_puzzle cannot hold is refused, and said so. */
        if (n <= FGM_PUZZLE_MAXN || ndiag == 0)
            abort();
        fclose(f);
        return 0;
    }
    ndiag = 0;
    st = fgm_puzzle_peek(r, &q);
    if (st == FGM_OK)
        check_puzzle(&q, n, box);
    for (i = 0; st == FGM_OK && i < 100000; i++) {
        st = fgm_puzzle_read(r, &p);
        if (st == FGM_OK) {
            char buf[FGM_PUZZLE_MAXCELLS + 2];

            check_puzzle(&p, n ? n : q.n, n ? box : q.box);
            if (i == 0 && memcmp(&p, &q, sizeof p) != 0)
                abort();
            if (fgm_puzzle_format_line(&p, buf, sizeof buf) < 0)
                abort();
        }
    }
    if (st != FGM_OK && st != FGM_EIO && ndiag == 0) {
        fprintf(stderr, "SILENT FAILURE %d\n", st);
        abort();
    }
    fgm_puzzle_reader_close(r);
    fclose(f);

    text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    ndiag = 0;
    st = fgm_puzzle_parse(text, NAME, n, box, &p, diag, NULL);
    if (st == FGM_OK)
        check_puzzle(&p, n, box);
    else if (ndiag == 0) {
        fprintf(stderr, "SILENT FAILURE (parse) %d\n", st);
        abort();
    }
    free(text);
    return 0;
}
