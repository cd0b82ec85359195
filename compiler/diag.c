/* compiler/diag.c: messages with file:line:col, the source line and a caret.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A message reaches the sink as one string:
 *
 *   models/sudoku.fgm:9:9: error: unknown array 'cel'; did you mean 'cell'?
 *   alldiff cel[i][*] for i in 0..N-1
 *           ^~~
 *
 * Columns are 1-based bytes.  Positions travel as byte offsets; the map
 * from offsets to lines is built the first time one is needed.  The source
 * line is shown as it is, except that control bytes, bytes that are not
 * UTF-8, and UTF-8 controls and bidirectional overrides become '?', and a very long line is cut to a window around the
 * caret; the caret line copies the tabs of the source line and counts a
 * UTF-8 character as one column, so the caret lands under the token.
 *
 * Syntax errors wait in c->pending until the parser's error production has
 * had its chance to add a hint (diag_hint); any later message, or the end
 * of parsing, sends it.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "fgmc.h"

#define WINDOW 160      /* longest source line shown whole */
#define BEFORE 60       /* bytes shown before the caret in a cut line */
#define MAX_BINDINGS 8  /* loop variables shown in " (when ...)" */

/* Builds the line map.  Returns 0 when out of memory. */
static int
line_map(fgmc *c)
{
    int i, n = 1;

    if (c->lines)
        return 1;
    for (i = 0; i < c->len; i++)
        n += c->src[i] == '\n';
    c->lines = malloc((size_t)n * sizeof *c->lines);
    if (!c->lines)
        return 0;
    c->lines[0] = 0;
    c->nlines = 1;
    for (i = 0; i < c->len; i++)
        if (c->src[i] == '\n')
            c->lines[c->nlines++] = i + 1;
    return 1;
}

/* Index of the line holding offset OFF. */
static int
line_of(const fgmc *c, int off)
{
    int lo = 0, hi = c->nlines - 1;

    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;

        if (c->lines[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

void
diag_linecol(fgmc *c, int off, int *line, int *col)
{
    int l;

    if (!line_map(c)) {
        *line = *col = 0;
        return;
    }
    l = line_of(c, off);
    *line = l + 1;
    *col = off - c->lines[l] + 1;
}

int
diag_line(fgmc *c, int off)
{
    int line, col;

    diag_linecol(c, off, &line, &col);
    return line;
}

/* Length of the UTF-8 character at S (at most N bytes), or 0 when S does
 * not start a well-formed one. */
static int
utf8_len(const unsigned char *s, int n)
{
    int len, i;

    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        len = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        len = 3;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        len = 4;
    else
        return 0;
    if (len > n)
        return 0;
    for (i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return len;
}

/* Whether the N-byte UTF-8 character at S is one a terminal acts on
 * rather than shows: a C1 control (U+0080..U+009F; U+009B starts an
 * escape sequence on some terminals), a bidirectional mark or override
 * (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), which can
 * make the line shown read otherwise than the line the compiler read, or
 * a line or paragraph separator (U+2028, U+2029). */
static int
utf8_control(const unsigned char *s, int n)
{
    if (n == 2)
        return (s[0] == 0xc2 && s[1] < 0xa0)
               || (s[0] == 0xd8 && s[1] == 0x9c);
    if (n == 3 && s[0] == 0xe2 && s[1] == 0x80)
        return s[2] == 0x8e || s[2] == 0x8f
               || (s[2] >= 0xa8 && s[2] <= 0xae);
    if (n == 3 && s[0] == 0xe2 && s[1] == 0x81)
        return s[2] >= 0xa6 && s[2] <= 0xa9;
    return 0;
}

/* The source line and its caret line (runtime/internal.h); the schedule
 * shows its refusals with it too. */
void
fgm_show_source(const char *line, int len, int start, int end, FILE *f)
{
    const unsigned char *src = (const unsigned char *)line;
    int ws = 0, we, p, n, marked = 0;
    char *cols;

    if (len > 0 && src[len - 1] == '\r')
        len--;
    start = start < 0 ? 0 : start > len ? len : start;
    we = len;
    if (len > WINDOW) {
        ws = start - BEFORE > 0 ? start - BEFORE : 0;
        we = ws + WINDOW < len ? ws + WINDOW : len;
    }
    /* cols[p - ws]: how many columns byte p takes on screen (0 or 1). */
    cols = malloc((size_t)(we - ws) + 1);
    if (!cols)
        return;
    if (ws > 0)
        fputs("...", f);
    for (p = ws; p < we; p += n) {
        n = src[p] >= 0x80 ? utf8_len(src + p, we - p) : 1;
        if (n == 0) {
            fputc('?', f);
            n = 1;
        } else if (n > 1 && utf8_control(src + p, n)) {
            fputc('?', f);
        } else if (n > 1) {
            fwrite(src + p, 1, (size_t)n, f);
        } else {
            fputc(src[p] == '\t' || (src[p] >= 0x20 && src[p] != 0x7f)
                  ? src[p] : '?', f);
        }
        memset(cols + (p - ws), 0, (size_t)n);
        cols[p - ws] = 1;
    }
    if (we < len)
        fputs("...", f);
    fputc('\n', f);
    if (ws > 0)
        fputs("   ", f);
    for (p = ws; p < start && p < we; p++)
        if (cols[p - ws])
            fputc(src[p] == '\t' ? '\t' : ' ', f);
    end = end < we ? end : we;
    for (p = start; p < end; p++)
        if (cols[p - ws] && marked && src[p] == '\t')
            fputc('\t', f);    /* as wide as the line's, so the rest aligns */
        else if (cols[p - ws])
            fputc(marked++ ? '~' : '^', f);
    if (!marked)
        fputc('^', f);
    free(cols);
}

/* Writes the source line around LOC and the caret line under it to F. */
static void
show_line(fgmc *c, fgmc_loc loc, FILE *f)
{
    int ls = c->lines[line_of(c, loc.start)], le = ls;

    while (le < c->len && c->src[le] != '\n')
        le++;
    fgm_show_source(c->src + ls, le - ls, loc.start - ls, loc.end - ls, f);
}

/* Appends " (when i = 3, j = 4)": the loop variables bound while a
 * comprehension is expanded; past the first MAX_BINDINGS, ", ...".  A
 * statement may bind any number of them (40,000 made every message
 * 470 KB long, one line), like the source line the caret is cut from. */
static void
show_bindings(const fgmc *c, FILE *f)
{
    int i;

    for (i = 0; i < c->nbound && i < MAX_BINDINGS; i++)
        fprintf(f, "%s%s = %lld", i ? ", " : " (when ", c->bound[i]->name,
                c->bound[i]->sym ? c->bound[i]->sym->value : 0);
    if (c->nbound > MAX_BINDINGS)
        fputs(", ...", f);
    if (c->nbound > 0)
        fputc(')', f);
}

/* Sends "FILE: error: MSG" from a buffer of its own: what is said when
 * there is no memory to format a message with its source line (the
 * message was lost, and fgm dump exited 3 in silence). */
static void
emit_plain(fgmc *c, const char *msg)
{
    char buf[1024];

    c->oom = 1;
    snprintf(buf, sizeof buf, "%s: error: %s", c->file, msg);
    c->diag(c->diag_ctx, buf);
}

/* A message kept by diag_hold: its place (INT_MAX: none) and rank. */
struct fgmc_held {
    int start, seq;
    char *text;
};

/* Sends TEXT (owned) to the caller, or keeps it while holding (START:
 * its place in the source); one that cannot be kept (out of memory) is
 * sent at once. */
static void
send(fgmc *c, char *text, int start)
{
    struct fgmc_held *h;

    if (c->holding && c->nheld == c->capheld) {
        int cap = c->capheld ? 2 * c->capheld : 8;

        h = realloc(c->held, (size_t)cap * sizeof *h);
        if (h) {
            c->held = h;
            c->capheld = cap;
        }
    }
    if (c->holding && c->nheld < c->capheld) {
        h = &c->held[c->nheld];
        h->start = start;
        h->seq = c->nheld++;
        h->text = text;
        return;
    }
    c->diag(c->diag_ctx, text);
    free(text);
}

void
diag_hold(fgmc *c)
{
    c->holding = 1;
}

static int
held_order(const void *a, const void *b)
{
    const struct fgmc_held *x = a, *y = b;

    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

void
diag_release(fgmc *c)
{
    int i;

    c->holding = 0;
    if (c->nheld > 1)
        qsort(c->held, (size_t)c->nheld, sizeof *c->held, held_order);
    for (i = 0; i < c->nheld; i++) {
        c->diag(c->diag_ctx, c->held[i].text);
        free(c->held[i].text);
    }
    c->nheld = 0;
}

/* Sends one message: "FILE:LINE:COL: error: MSG" plus the source line
 * when LOC is given, else "FILE: error: MSG" ("warning" for WARN). */
static void
emit_as(fgmc *c, const fgmc_loc *loc, const char *msg, int bindings,
        int warn)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f;
    fgmc_loc at;

    if (!c->diag)
        return;
    f = open_memstream(&text, &size);
    if (!f) {
        emit_plain(c, msg);
        return;
    }
    if (loc && line_map(c)) {
        int line, col;

        at = *loc;
        /* The end of input is shown at the end of the last line. */
        if (at.start >= c->len && c->len > 0 && c->src[c->len - 1] == '\n')
            at.start = at.end = c->len - 1;
        diag_linecol(c, at.start, &line, &col);
        fprintf(f, "%s:%d:%d: %s: %s", c->file, line, col,
                warn ? "warning" : "error", msg);
        if (bindings)
            show_bindings(c, f);
        fputc('\n', f);
        show_line(c, at, f);
    } else {
        fprintf(f, "%s: %s: %s", c->file, warn ? "warning" : "error",
                msg);
    }
    if (fclose(f) != 0 || !text) {
        free(text);
        emit_plain(c, msg);
        return;
    }
    send(c, text, loc ? loc->start : INT_MAX);
}

static void
emit(fgmc *c, const fgmc_loc *loc, const char *msg, int bindings)
{
    emit_as(c, loc, msg, bindings, 0);
}

/* Counts an error; returns 0 when it must be dropped (cap reached). */
static int
count(fgmc *c)
{
    if (c->nerrors >= c->max_errors)
        return 0;
    c->nerrors++;
    return 1;
}

/* After the last error the cap allows, say that the rest goes unreported. */
static void
maybe_stop(fgmc *c)
{
    char msg[64];

    if (c->nerrors == c->max_errors) {
        snprintf(msg, sizeof msg, "too many errors (%d); stopping",
                 c->max_errors);
        emit(c, NULL, msg, 0);
    }
}

void
diag_flush(fgmc *c)
{
    if (!c->pending)
        return;
    emit(c, &c->pending_loc, c->pending, 0);
    free(c->pending);
    c->pending = NULL;
    maybe_stop(c);
}

/* Formats a message into a new string (NULL when out of memory). */
static char *
vformat(fgmc *c, const char *fmt, va_list ap)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);

    if (!f) {
        c->oom = 1;
        return NULL;
    }
    vfprintf(f, fmt, ap);
    if (fclose(f) != 0) {
        free(text);
        c->oom = 1;
        return NULL;
    }
    return text;
}

/* Reports the error FMT/AP at LOC (NULL: the file as a whole). */
static void
verror(fgmc *c, const fgmc_loc *loc, const char *fmt, va_list ap)
{
    char *msg;

    diag_flush(c);
    if (!count(c))
        return;
    msg = vformat(c, fmt, ap);
    if (msg)
        emit(c, loc, msg, loc != NULL);
    else if (c->diag)
        emit_plain(c, "out of memory");
    free(msg);
    maybe_stop(c);
}

void
diag_error(fgmc *c, fgmc_loc loc, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    verror(c, &loc, fmt, ap);
    va_end(ap);
}

void
diag_warning(fgmc *c, fgmc_loc loc, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    diag_flush(c);
    va_start(ap, fmt);
    msg = vformat(c, fmt, ap);
    va_end(ap);
    if (msg)
        emit_as(c, &loc, msg, 0, 1);
    free(msg);
}

void
diag_file_error(fgmc *c, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    verror(c, NULL, fmt, ap);
    va_end(ap);
}

/* Replaces the first FROM in *S by TO (a new string; *S freed). */
static void
replace(fgmc *c, char **s, const char *from, const char *to)
{
    char *at = strstr(*s, from), *t;
    size_t a, b, rest;

    if (!at)
        return;
    a = (size_t)(at - *s);
    b = strlen(to);
    rest = strlen(at + strlen(from));
    t = malloc(a + b + rest + 1);
    if (!t) {
        c->oom = 1;
        return;
    }
    memcpy(t, *s, a);
    memcpy(t + a, to, b);
    memcpy(t + a + b, at + strlen(from), rest + 1);
    free(*s);
    *s = t;
}

/* What an INVALID token at LOC is. */
static void
invalid_message(const fgmc *c, fgmc_loc loc, char *buf, size_t size)
{
    unsigned char b = (unsigned char)c->src[loc.start];

    if (b == '"')
        snprintf(buf, size, "unterminated string (it must end on the same "
                 "line)");
    else if (b == ';')
        /* C's habit: here a line ends a statement. */
        snprintf(buf, size, "invalid character ';' (a statement ends with "
                 "its line: no ';' is needed)");
    else if (b >= 0x80)
        snprintf(buf, size, "non-ASCII character outside a comment or "
                 "string");
    else if (b >= 0x20 && b < 0x7f)
        snprintf(buf, size, "invalid character '%c'", b);
    else
        snprintf(buf, size, "invalid byte 0x%02x", b);
}

/* Offset of the first byte after the blanks that open the line of LOC
 * (LOC's own start at most). */
static int
line_word_start(const fgmc *c, fgmc_loc loc)
{
    int start = loc.start;

    while (start > 0 && c->src[start - 1] != '\n')
        start--;
    while (start < loc.start && (c->src[start] == ' '
                                 || c->src[start] == '\t'))
        start++;
    return start;
}

/* Whether the syntax error at LOC, where a statement's first name was
 * read, follows a line's first word, a mistyped keyword ("evidense x =
 * ...", read as the name of an array, drew "unexpected name, expected
 * '!=' or comparison or '~' or '['"): then BUF says which keyword it is likely
 * to be, and *AT is the word. */
static int
keyword_slip(const fgmc *c, fgmc_loc loc, char *buf, size_t size,
             fgmc_loc *at)
{
    static const char *const keywords[] = {
        "model", "const", "var", "prior", "observed", "alldiff", "table",
        "evidence", "fix", "infer",
    };
    char word[FGM_IR_MAXNAME];
    const char *best;
    int start = line_word_start(c, loc), end, i, exact;

    for (end = start; end < loc.start && (isalnum((unsigned char)c->src[end])
                                          || c->src[end] == '_'); end++)
        ;
    if (end == start || end - start >= (int)sizeof word)
        return 0;
    for (i = end; i < loc.start; i++)
        if (c->src[i] != ' ' && c->src[i] != '\t')
            return 0;
    memcpy(word, c->src + start, (size_t)(end - start));
    word[end - start] = '\0';
    best = sym_closest(word, keywords, sizeof keywords / sizeof *keywords,
                       &exact);
    if (exact || !best)
        return 0;   /* the keyword itself: the error is past it */
    snprintf(buf, size, "unknown statement '%s' (did you mean '%s'?)", word,
             best);
    at->start = start;
    at->end = end;
    return 1;
}

/* Whether S starts with P. */
static int
starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* Whether the line of LOC starts with the word W (after blanks). */
static int
line_starts_with(const fgmc *c, fgmc_loc loc, const char *w)
{
    int start = line_word_start(c, loc), n = (int)strlen(w);

    return start + n <= c->len && strncmp(c->src + start, w, (size_t)n) == 0
           && !(isalnum((unsigned char)c->src[start + n])
                || c->src[start + n] == '_');
}

void
diag_syntax(fgmc *c, fgmc_loc loc, const char *msg)
{
    char buf[FGM_IR_MAXNAME + 64];

    diag_flush(c);
    c->nsyntax++;
    if (!count(c))
        return;
    if (c->invalid_at == loc.start && loc.end > loc.start) {
        invalid_message(c, loc, buf, sizeof buf);
        msg = buf;
    } else if (strcmp(msg, "memory exhausted") == 0) {
        msg = "input nested too deeply (the parser's stack is full)";
    } else if (strstr(msg, "expecting '!=' or comparison or '~' or '['")
               && keyword_slip(c, loc, buf, sizeof buf, &loc)) {
        /* The parser read the word as a statement's first name (an
         * array's, before a comparison or '['): not inside a list running on
         * over lines, where "val 2]" suggested 'var'. */
        msg = buf;
    }
    c->pending = strdup(msg);
    if (!c->pending) {
        c->oom = 1;
        return;
    }
    c->pending_loc = loc;
    replace(c, &c->pending, "syntax error, ", "");
    replace(c, &c->pending, ", expecting ", ", expected ");
    /* The parser's CMP stands for five operators: named as written
     * where one was read, listed where one was wanted. */
    if (starts(c->pending, "unexpected comparison")
        && loc.end - loc.start <= 2) {
        snprintf(buf, sizeof buf, "unexpected '%.*s'", loc.end - loc.start,
                 c->src + loc.start);
        replace(c, &c->pending, "unexpected comparison", buf);
    }
    /* Other languages' spellings, read as two tokens: '<' then '>',
     * '==' then '='. */
    if (loc.start >= 2 && strncmp(c->src + loc.start - 1, "<>", 2) == 0)
        replace(c, &c->pending, "unexpected '>'", "unexpected '>' ('<>' "
                "is no operator here: write '!=' for 'differs')");
    else if (loc.start >= 2
             && strncmp(c->src + loc.start - 2, "===", 3) == 0)
        replace(c, &c->pending, "unexpected '='", "unexpected '=' ('===' "
                "is no operator here: write '==' for 'equals')");
    /* Where a statement's first reference is followed by '=': a value
     * set as in other languages. */
    else if (starts(c->pending, "unexpected '=', expected '!=' or "
                    "comparison or '~'"))
        replace(c, &c->pending, "unexpected '='", "unexpected '=' (a "
                "value is fixed with 'fix x = 2', or constrained with "
                "'x == 2')");
    /* alldiff x, y: the list of several variables is parenthesized
     * (a ',' after a whole reference, where the line could end). */
    if (starts(c->pending, "unexpected ','")
        && strstr(c->pending, "end of line")
        && line_starts_with(c, loc, "alldiff"))
        replace(c, &c->pending, "unexpected ','", "unexpected ',' "
                "(several variables go in parentheses: alldiff(x, y, z))");
    replace(c, &c->pending, "'!=' or comparison or '~' or '['",
            "a comparison ('!=', '==', '<', '<=', '>', '>='), '~' (a draw) "
            "or '['");
    replace(c, &c->pending, "'!=' or comparison",
            "a comparison ('!=', '==', '<', '<=', '>', '>=')");
    if (loc.start >= c->len)
        replace(c, &c->pending, "unexpected end of line",
                "unexpected end of file");
}

void
diag_hint(fgmc *c, const char *close, int open, int line, int likely)
{
    char *list, *t;
    size_t keep, size;
    int comma, named;

    if (!c->pending)
        return;
    list = strstr(c->pending, ", expected ");
    if (list ? !strstr(list, close) : !likely)
        return;
    comma = list && strstr(list, "','");
    named = list && strstr(list, " name");
    keep = list ? (size_t)(list - c->pending) : strlen(c->pending);
    size = keep + 80;
    t = malloc(size);
    if (!t) {
        c->oom = 1;
        return;
    }
    memcpy(t, c->pending, keep);
    /* A name the list allows stays in it: 'infer ep(3 = 4)' wants a
     * setting's name as much as the ')'. */
    snprintf(t + keep, size - keep, ", expected %s%s%s (to close '%c' at "
             "line %d)", comma ? "',' or " : "", named ? "a name or " : "",
             close, open, line);
    free(c->pending);
    c->pending = t;
}

int
diag_full(const fgmc *c)
{
    return c->nerrors >= c->max_errors;
}

void
diag_free(fgmc *c)
{
    diag_release(c);
    free(c->held);
    c->held = NULL;
    c->capheld = 0;
    free(c->pending);
    c->pending = NULL;
    free(c->lines);
    c->lines = NULL;
}
