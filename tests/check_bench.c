/* tests/check_bench.c: benchmark statistics, censoring, reports, saving.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Nothing here is timed: the statistics are checked on synthetic samples,
 * and the end-to-end runs only check counts, never durations.
 */
#include <math.h>
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../runtime/bench.h"
#include "testutil.h"
#include "suites.h"

Suite *bench_suite(void);

/* Order statistics of small integers interpolate exactly in binary. */
#define EXACT 1e-12

/* ---- fixtures ------------------------------------------------------- */

typedef struct sink {
    int count;
    char last[1024];
} sink;

static void
capture(void *ctx, const char *msg)
{
    sink *s = ctx;

    s->count++;
    snprintf(s->last, sizeof s->last, "%s", msg);
}

static fgm_bench_sample
sample(double ms, int solved, int timed_out, long nodes)
{
    fgm_bench_sample s;

    memset(&s, 0, sizeof s);
    s.ms = ms;
    s.solved = solved;
    s.timed_out = timed_out;
    s.runs = timed_out ? 0 : 3;
    s.nodes = nodes;
    return s;
}

/* Fills ROW from N samples and computes its statistics. */
static void
make_row(fgm_bench_row *row, const char *corpus, const char *solver,
         fgm_bench_sample *samples, int n)
{
    double scratch[32];

    memset(row, 0, sizeof *row);
    row->corpus = corpus;
    row->solver = solver;
    row->samples = samples;
    row->n = n;
    fgm_bench_row_stats(row, scratch);
}

/* A 2 corpora x 3 solvers result: every kind of row once. */
typedef struct fixture {
    fgm_bench b;
    char *corpora[2];
    const char *solvers[3];
    fgm_bench_row rows[6];
    fgm_bench_sample s[6][4];
} fixture;

static char corpus_a[] = "easy&<x>.txt";
static char corpus_b[] = "hardest.txt";

static void
fixture_init(fixture *fx)
{
    int i, r;

    memset(fx, 0, sizeof *fx);
    fx->corpora[0] = corpus_a;
    fx->corpora[1] = corpus_b;
    fx->solvers[0] = "dlx";
    fx->solvers[1] = "backtrack";
    fx->solvers[2] = "ep-robust";
    for (r = 0; r < 6; r++)
        for (i = 0; i < 4; i++)
            fx->s[r][i] = sample(0.01 * (i + 1) * (r + 1), 1, 0, 10 * i);
    /* hardest/backtrack: one timeout; hardest/ep-robust: all timed out. */
    fx->s[4][3] = sample(10000, 0, 1, 0);
    for (i = 0; i < 4; i++)
        fx->s[5][i] = sample(10000, 0, 1, 0);
    for (r = 0; r < 6; r++)
        make_row(&fx->rows[r], fx->corpora[r / 3], fx->solvers[r % 3],
                 fx->s[r], 4);
    /* easy/ep-robust: refused. */
    memset(&fx->rows[2], 0, sizeof fx->rows[2]);
    fx->rows[2].corpus = fx->corpora[0];
    fx->rows[2].solver = fx->solvers[2];
    fx->rows[2].unsupported = "needs a model with priors";
    fx->b.ncorpora = 2;
    fx->b.nsolvers = 3;
    fx->b.corpora = fx->corpora;
    fx->b.solvers = fx->solvers;
    fx->b.rows = fx->rows;
    fx->b.timeout_ms = 10000;
    fx->b.repeat = 3;
    fx->b.fast_ms = 250;
}

/* B as a result of NCORPORA corpora x NSOLVERS solvers, ROWS corpus by
 * corpus, nothing else set. */
static void
bench_of(fgm_bench *b, char **corpora, int ncorpora, const char **solvers,
         int nsolvers, fgm_bench_row *rows)
{
    memset(b, 0, sizeof *b);
    b->ncorpora = ncorpora;
    b->nsolvers = nsolvers;
    b->corpora = corpora;
    b->solvers = solvers;
    b->rows = rows;
}

/* Runs WRITE on B into a new string (caller frees). */
static char *
render(fgm_bench_writer write, const fgm_bench *b)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(write(b, f), FGM_OK);
    fclose(f);
    return text;
}

static int
occurrences(const char *hay, const char *needle)
{
    int n = 0;

    for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle))
        n++;
    return n;
}

/* The highest point (least y) the SVG's vertical labels (11 px, rotated)
 * reach: the y they start at less their length at 6 px a byte,
 * bench_svg.c's own estimate (SMALL_W). */
static double
label_reach(const char *svg)
{
    const char *p, *gt, *end;
    double x, y, top, best = 1e9;
    int n;

    for (p = strstr(svg, "<text "); p; p = strstr(p + 1, "<text ")) {
        n = 0;
        if (sscanf(p, "<text x=\"%lf\" y=\"%lf\" font-size=\"11\" "
                   "transform=\"rotate(-90%n", &x, &y, &n) != 2 || n == 0
            || !(gt = strchr(p, '>')) || !(end = strstr(gt, "</text>")))
            continue;
        top = y - (double)(end - gt - 1) * 6;
        if (top < best)
            best = top;
    }
    return best;
}

static int
count_lines(const char *text)
{
    return occurrences(text, "\n");
}

/* Writes TEXT to DIR/NAME and returns the path in BUF. */
static const char *
write_file(char *buf, size_t size, const char *dir, const char *name,
           const char *text)
{
    FILE *f;

    snprintf(buf, size, "%s/%s", dir, name);
    f = fopen(buf, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return buf;
}

/* Number of entries in DIR (without . and ..); removes them when CLEAN. */
static int
dir_entries(const char *dir, int clean)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    int n = 0;

    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        if (clean) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    }
    closedir(d);
    return n;
}

static void
remove_dir(const char *dir)
{
    dir_entries(dir, 1);
    rmdir(dir);
}

static void
bench_opts(fgm_bench_opts *o, const char *const *solvers, int nsolvers,
           const char *const *corpora, int ncorpora, sink *diag)
{
    fgm_bench_opts_init(o);
    o->solvers = solvers;
    o->nsolvers = nsolvers;
    o->corpora = corpora;
    o->ncorpora = ncorpora;
    o->diag = capture;
    o->diag_ctx = diag;
}

/* ---- core ----------------------------------------------------------- */

START_TEST(test_stats_odd)
{
    static const double ms[9] = { 7, 3, 9, 1, 5, 2, 8, 4, 6 };
    fgm_bench_sample s[9];
    fgm_bench_row row;
    int i;

    /* Nodes in another order than the times: the middle sample's are
     * 80, the median 50. */
    for (i = 0; i < 9; i++)
        s[i] = sample(ms[i], 1, 0, 10 * (long)ms[(i + 2) % 9]);
    make_row(&row, "c", "dlx", s, 9);
    ck_assert_int_eq(row.n, 9);
    ck_assert_int_eq(row.solved, 9);
    ck_assert_int_eq(row.ntimed, 9);
    ck_assert_int_eq(row.nruns, 27);
    ck_assert_double_eq_tol(row.median_ms, 5, EXACT);
    ck_assert_double_eq_tol(row.p25_ms, 3, EXACT);
    ck_assert_double_eq_tol(row.p75_ms, 7, EXACT);
    ck_assert_double_eq_tol(row.mean_ms, 5, EXACT);
    ck_assert_double_eq_tol(row.min_ms, 1, EXACT);
    ck_assert_double_eq_tol(row.max_ms, 9, EXACT);
    ck_assert_double_eq_tol(row.total_ms, 45, EXACT);
    ck_assert_double_eq_tol(row.median_nodes, 50, EXACT);
    /* The samples stay in puzzle order: the statistics sort a copy. */
    ck_assert_double_eq_tol(s[0].ms, 7, EXACT);
}
END_TEST

START_TEST(test_stats_even)
{
    fgm_bench_sample s[4];
    fgm_bench_row row;
    int i;

    for (i = 0; i < 4; i++)
        s[i] = sample(4 - i, 1, 0, 0);
    make_row(&row, "c", "dlx", s, 4);
    /* Linear interpolation (GSL, seed PercentileSorted): positions 0.75,
     * 1.5 and 2.25 between the order statistics 1 2 3 4. */
    ck_assert_double_eq_tol(row.p25_ms, 1.75, EXACT);
    ck_assert_double_eq_tol(row.median_ms, 2.5, EXACT);
    ck_assert_double_eq_tol(row.p75_ms, 3.25, EXACT);
    ck_assert_double_eq_tol(row.mean_ms, 2.5, EXACT);
}
END_TEST

START_TEST(test_censoring)
{
    fgm_bench_sample s[5];
    fgm_bench_row row;

    s[0] = sample(1, 1, 0, 100);
    s[1] = sample(10000, 0, 1, 99999);
    s[2] = sample(2, 1, 0, 200);
    s[3] = sample(10000, 0, 1, 99999);
    s[4] = sample(3, 1, 0, 300);
    make_row(&row, "c", "backtrack", s, 5);
    ck_assert_msg(row.n == 5 && row.timeouts == 2 && row.solved == 3,
                  "timeouts stay in the denominator");
    ck_assert_int_eq(row.ntimed, 3);
    ck_assert_int_eq(row.nruns, 9);
    ck_assert_msg(row.median_ms == 2 && row.max_ms == 3,
                  "timeouts are excluded from the times (median %g, max %g)",
                  row.median_ms, row.max_ms);
    ck_assert_double_eq_tol(row.mean_ms, 2, EXACT);
    ck_assert_double_eq_tol(row.total_ms, 6, EXACT);
    ck_assert_double_eq_tol(row.median_nodes, 200, EXACT);
}
END_TEST

START_TEST(test_unsolved_timed)
{
    fgm_bench_sample s[3];
    fgm_bench_row row;

    s[0] = sample(5, 1, 0, 1);
    s[1] = sample(7, 0, 0, 1);
    s[2] = sample(9, 0, 1, 1);
    make_row(&row, "c", "ep-robust", s, 3);
    ck_assert_int_eq(row.solved, 1);
    ck_assert_int_eq(row.unsolved, 1);
    ck_assert_int_eq(row.timeouts, 1);
    ck_assert_msg(row.ntimed == 2 && row.median_ms == 6,
                  "an unsolved puzzle finished: its time counts");
}
END_TEST

START_TEST(test_fmt_ms)
{
    static const struct { double ms; const char *text; } cases[] = {
        { 412.3, "412" }, { 41.23, "41.2" }, { 4.123, "4.12" },
        { 0.4123, "0.412" }, { 0.004123, "0.00412" }, { 12345.6, "12346" },
        { 9.996, "10.0" }, { 0.0999, "0.0999" }, { 0, "0" },
        { 1e300, "1e+300" },    /* a timeout: not its 300 digits */
        { 1e-300, "1e-300" },   /* a timeout: not "0.000000", none */
        { 0.0000012, "0.000001" },
    };
    char buf[32];
    size_t i;

    for (i = 0; i < FGM_COUNTOF(cases); i++) {
        fgm_bench_fmt_ms(cases[i].ms, buf, sizeof buf);
        ck_assert_msg(strcmp(buf, cases[i].text) == 0,
                      "%g ms prints as %s, not %s", cases[i].ms,
                      cases[i].text, buf);
    }
}
END_TEST

START_TEST(test_csv)
{
    fixture fx;
    char *text, *line2;

    fixture_init(&fx);
    text = render(fgm_bench_write_csv, &fx.b);
    ck_assert_msg(strncmp(text, FGM_BENCH_CSV_HEADER "\n",
                          strlen(FGM_BENCH_CSV_HEADER) + 1) == 0,
                  "CSV starts with its header");
    ck_assert_int_eq(count_lines(text), 1 + 6);
    line2 = strchr(text, '\n') + 1;
    ck_assert_msg(strncmp(line2, "easy&<x>.txt,dlx,ok,4,4,0,0,0.025,",
                          34) == 0, "first row: %.60s", line2);
    ck_assert_ptr_nonnull(strstr(text, "\neasy&<x>.txt,ep-robust,"
                                 "unsupported,0,0,0,0,,,,,,,,,0,0,"
                                 "needs a model with priors\n"));
    ck_assert_ptr_nonnull(strstr(text, "\nhardest.txt,ep-robust,timeout,"
                                 "4,0,0,4,,,,,,,,,0,0,\n"));
    ck_assert_ptr_nonnull(strstr(text, "\nhardest.txt,backtrack,ok,4,3,0,"
                                 "1,"));
    free(text);
}
END_TEST

START_TEST(test_csv_quoting)
{
    fixture fx;
    char *text;
    static char odd[] = "a,\"b\".txt";

    fixture_init(&fx);
    fx.corpora[1] = odd;
    fx.rows[3].corpus = fx.rows[4].corpus = fx.rows[5].corpus = odd;
    text = render(fgm_bench_write_csv, &fx.b);
    ck_assert_ptr_nonnull(strstr(text, "\n\"a,\"\"b\"\".txt\",dlx,ok,"));
    free(text);
}
END_TEST

START_TEST(test_detail)
{
    fixture fx;
    char *text;

    fixture_init(&fx);
    text = render(fgm_bench_write_detail, &fx.b);
    ck_assert_msg(strncmp(text, FGM_BENCH_DETAIL_HEADER "\n",
                          strlen(FGM_BENCH_DETAIL_HEADER) + 1) == 0,
                  "detail CSV starts with its header");
    /* 5 rows with samples (one refused) of 4 puzzles each. */
    ck_assert_int_eq(count_lines(text), 1 + 5 * 4);
    /* A timed-out run: no time, no nodes. */
    ck_assert_ptr_nonnull(strstr(text,
                                 "\nhardest.txt,3,backtrack,0,1,,0,,3\n"));
    ck_assert_ptr_nonnull(strstr(text,
                                 "\nhardest.txt,0,dlx,1,0,0.04,3,0,0\n"));
    free(text);
    /* With --seed 7, puzzle i's runs had seed 7 + i. */
    fx.b.seed = 7;
    text = render(fgm_bench_write_detail, &fx.b);
    ck_assert_ptr_nonnull(strstr(text,
                                 "\nhardest.txt,3,backtrack,0,1,,0,,10\n"));
    ck_assert_ptr_nonnull(strstr(text,
                                 "\nhardest.txt,0,dlx,1,0,0.04,3,0,7\n"));
    free(text);
}
END_TEST

/* The backends report: the ratio of the two medians, then the median and
 * quartiles of the per-puzzle ratios over the puzzles both backends
 * timed (a compiled timeout leaves its puzzle out). */
START_TEST(test_backends_per_puzzle)
{
    static const double cms[4] = { 1, 2, 4, 10000 }, ims[4] = { 3, 4, 4, 10 };
    static char corpus[] = "c.txt";
    char *corpora[1] = { corpus };
    const char *solvers[2] = { "ep@compiled", "ep@interpreted" };
    fgm_bench_sample s[2][4];
    fgm_bench_row rows[2];
    fgm_bench b;
    char *text;
    int i;

    for (i = 0; i < 4; i++) {
        s[0][i] = sample(cms[i], 1, i == 3, 0);
        s[1][i] = sample(ims[i], 1, 0, 0);
    }
    make_row(&rows[0], corpus, solvers[0], s[0], 4);
    make_row(&rows[1], corpus, solvers[1], s[1], 4);
    bench_of(&b, corpora, 1, solvers, 2, rows);
    text = render(fgm_bench_write_backends, &b);
    ck_assert_msg(strstr(text, "compiled 2 ms  interpreted 4 ms  ratio 2x  "
                         "per puzzle 2x (IQR 1.5-2.5x, 3 puzzles)"),
                  "got: %s", text);
    free(text);
    /* Timeouts on one backend only: the medians are over the puzzles
     * both timed (3: 1 2 3 against 2 4 6, 2x), not over each row's own
     * (2.5 against 4: 1.6x, from different puzzles). */
    {
        static const double c2[4] = { 1, 2, 3, 4 }, i2[4] = { 2, 4, 6, 9 };

        for (i = 0; i < 4; i++) {
            s[0][i] = sample(c2[i], 1, 0, 0);
            s[1][i] = sample(i2[i], 1, i == 3, 0);
        }
        make_row(&rows[0], corpus, solvers[0], s[0], 4);
        make_row(&rows[1], corpus, solvers[1], s[1], 4);
        text = render(fgm_bench_write_backends, &b);
        ck_assert_msg(strstr(text, "compiled 2 ms  interpreted 4 ms  ratio "
                             "2x"), "got: %s", text);
        ck_assert_msg(strstr(text, "(3 of 4 puzzles: timeouts 0 compiled, "
                             "1 interpreted)"), "got: %s", text);
        free(text);
    }
    /* One backend only: no pair, so no section at all (it printed its
     * title over nothing). */
    b.nsolvers = 1;
    text = render(fgm_bench_write_backends, &b);
    ck_assert_msg(text[0] == '\0', "one backend: got: %s", text);
    free(text);
}
END_TEST

/* The backends report's columns are as wide as its longest corpus name:
 * "seed002_easy.txt" (16 bytes, past the 12 the corpus column had) shifted
 * its line's figures against the other corpora's. */
/* B as the two corpora CORPORA, each with an ep@compiled row (two runs
 * of 1 ms) and an ep@interpreted one (2 ms); S and ROWS hold them. */
static void
two_corpora(fgm_bench *b, char **corpora, fgm_bench_sample s[4][2],
            fgm_bench_row rows[4])
{
    static const char *solvers[2] = { "ep@compiled", "ep@interpreted" };
    int r, i;

    for (r = 0; r < 4; r++) {
        for (i = 0; i < 2; i++)
            s[r][i] = sample(1 + r % 2, 1, 0, 0);
        make_row(&rows[r], corpora[r / 2], solvers[r % 2], s[r], 2);
    }
    bench_of(b, corpora, 2, solvers, 2, rows);
}

START_TEST(test_backends_columns)
{
    static char short_name[] = "c.txt", long_name[] = "seed002_easy.txt";
    char *corpora[2] = { short_name, long_name };
    fgm_bench_sample s[4][2];
    fgm_bench_row rows[4];
    fgm_bench b;
    char *text, *second;

    two_corpora(&b, corpora, s, rows);
    text = render(fgm_bench_write_backends, &b);
    ck_assert_msg(strstr(text, "\nc.txt ") && strstr(text,
                         "\nseed002_easy.txt "), "got: %s", text);
    second = strstr(text, "\nseed002_easy.txt ");
    ck_assert_msg(strstr(text, "\nc.txt ") < second, "got: %s", text);
    /* "compiled" at the same column on both lines. */
    ck_assert_int_eq((int)(strstr(strstr(text, "\nc.txt "), " compiled ")
                           - strstr(text, "\nc.txt ")),
                     (int)(strstr(second, " compiled ") - second));
    free(text);
}
END_TEST

/* Terminal columns from LINE to AT (UTF-8 continuation bytes take
 * none). */
static int
columns_to(const char *line, const char *at)
{
    int n = 0;

    for (; line < at; line++)
        n += ((unsigned char)*line & 0xc0) != 0x80;
    return n;
}

/* Asserts that in both text tables of two corpora, the first labelled
 * "abcdefghijklm" and the second NAME, the second's row reads "\nSHOWN "
 * (one line) and its figures stand in the columns of the first's. */
static void
assert_rows_aligned(char *name, const char *shown)
{
    static char ascii[] = "abcdefghijklm";
    char *corpora[2] = { ascii, name };
    char want[64];
    fgm_bench_sample s[4][2];
    fgm_bench_row rows[4];
    fgm_bench b;
    char *text, *first, *second;
    int k;

    snprintf(want, sizeof want, "\n%s ", shown);
    two_corpora(&b, corpora, s, rows);
    for (k = 0; k < 2; k++) {
        const char *marker = k ? " compiled " : " ep@compiled ";

        text = render(k ? fgm_bench_write_backends : fgm_bench_write_table,
                      &b);
        first = strstr(text, "\nabcdefghijklm ");
        second = strstr(text, want);
        ck_assert_msg(first && second, "got: %s", text);
        ck_assert_int_eq(columns_to(first, strstr(first, marker)),
                         columns_to(second, strstr(second, marker)));
        free(text);
    }
}

/* A corpus file named with a non-ASCII letter ("grilles_\xc3\xa9.txt",
 * 13 columns in 14 bytes) pushed its line's figures one column left of
 * the others' in both reports: their widths counted bytes. */
START_TEST(test_columns_utf8)
{
    static char accented[] = "grilles_\xc3\xa9.txt";

    assert_rows_aligned(accented, accented);
}
END_TEST

/* A newline in a corpus file name split its row in both tables: the
 * name is written with '?' for it (and for a tab), the row on one line. */
START_TEST(test_columns_control)
{
    static char odd[] = "nl\nname\t.txt";

    assert_rows_aligned(odd, "nl?name?.txt");
}
END_TEST

START_TEST(test_table)
{
    fixture fx;
    char *text, *header, *row;
    int end_header, end_value;

    fixture_init(&fx);
    text = render(fgm_bench_write_table, &fx.b);
    ck_assert_msg(text[0] == '#', "the protocol line comes first");
    header = strchr(text, '\n') + 1;
    ck_assert_msg(strncmp(header, "corpus", 6) == 0, "header: %.40s",
                  header);
    ck_assert_ptr_nonnull(strstr(header, "IQR ms (p25-p75)"));
    ck_assert_int_eq(count_lines(text), 2 + 6);
    /* solved/n is right-aligned under its title. */
    row = strstr(text, "\nhardest.txt   backtrack");
    ck_assert_ptr_nonnull(row);
    row++;
    end_header = (int)(strstr(header, "solved") + 6 - header);
    end_value = (int)(strstr(row, "3/4") + 3 - row);
    ck_assert_int_eq(end_header, end_value);
    ck_assert_ptr_nonnull(strstr(text, "unsupported: needs a model"));
    ck_assert_ptr_nonnull(strstr(text, "all timed out"));
    free(text);
}
END_TEST

START_TEST(test_svg)
{
    fixture fx;
    char *text;
    size_t len;

    fixture_init(&fx);
    text = render(fgm_bench_write_svg, &fx.b);
    len = strlen(text);
    ck_assert_msg(strncmp(text, "<svg ", 5) == 0, "starts with <svg");
    ck_assert_msg(len > 7 && strcmp(text + len - 7, "</svg>\n") == 0,
                  "ends with </svg>");
    ck_assert_int_eq(occurrences(text, "<svg"), 1);
    ck_assert_msg(occurrences(text, "<rect class=\"bar\"") == 4,
                  "one bar per row with times (6 rows, 2 without)");
    ck_assert_int_eq(occurrences(text, "<rect class=\"key\""), 3);
    ck_assert_int_eq(occurrences(text, "<text"),
                     occurrences(text, "</text>"));
    ck_assert_int_eq(occurrences(text, "<title>"),
                     occurrences(text, "</title>"));
    ck_assert_ptr_nonnull(strstr(text, ">dlx</text>"));
    ck_assert_ptr_nonnull(strstr(text, ">backtrack</text>"));
    ck_assert_ptr_nonnull(strstr(text, ">ep-robust</text>"));
    ck_assert_ptr_nonnull(strstr(text, ">easy&amp;&lt;x&gt;.txt</text>"));
    ck_assert_msg(strstr(text, "easy&<") == NULL, "names are escaped");
    ck_assert_ptr_nonnull(strstr(text, ">unsupported</text>"));
    ck_assert_ptr_nonnull(strstr(text, ">0/4, all timed out</text>"));
    ck_assert_ptr_nonnull(strstr(text, ">3/4</text>"));
    ck_assert_ptr_nonnull(strstr(text, ">10 s</text>"));
    ck_assert_ptr_nonnull(strstr(text, ">1 &#181;s</text>"));
    free(text);
}
END_TEST

START_TEST(test_save_atomic)
{
    char dir[] = "/tmp/fgm_bench_XXXXXX", path[1024], line[512];
    fixture fx;
    sink diag = { 0 };
    FILE *f;

    fixture_init(&fx);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/out.csv", dir);
    ck_assert_int_eq(fgm_bench_save(&fx.b, path, fgm_bench_write_csv,
                                    capture, &diag), FGM_OK);
    ck_assert_int_eq(diag.count, 0);
    ck_assert_msg(dir_entries(dir, 0) == 1, "no temporary file is left");
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    fclose(f);
    ck_assert_str_eq(line, FGM_BENCH_CSV_HEADER "\n");
    /* Saving again replaces the file. */
    ck_assert_int_eq(fgm_bench_save(&fx.b, path, fgm_bench_write_svg,
                                    capture, &diag), FGM_OK);
    ck_assert_int_eq(dir_entries(dir, 0), 1);
    remove_dir(dir);
}
END_TEST

/* The exact solvers on the three seed grids and a 4x4 corpus. */
START_TEST(test_run_end_to_end)
{
    static const char *const solvers[] = { "dlx", "backtrack" };
    char dir[] = "/tmp/fgm_bench_XXXXXX", p9[1024], p4[1024];
    const char *corpora[2];
    fgm_bench_opts o;
    fgm_bench *b = NULL;
    sink diag = { 0 };
    int r, i;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    corpora[0] = write_file(p9, sizeof p9, dir, "seed003.txt",
                            "# easy, medium, hard\n" SEED003_EASY "\n"
                            SEED003_MEDIUM "\n" SEED003_HARD "\n");
    corpora[1] = write_file(p4, sizeof p4, dir, "four.txt",
                            "1.3.3...2.4...2.\n....3412........\n");
    bench_opts(&o, solvers, 2, corpora, 2, &diag);
    ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_OK);
    ck_assert_int_eq(diag.count, 0);
    ck_assert_int_eq(b->ncorpora * b->nsolvers, 4);
    ck_assert_str_eq(b->corpora[0], "seed003.txt");
    ck_assert_str_eq(b->rows[1].solver, "backtrack");
    for (r = 0; r < 4; r++) {
        const fgm_bench_row *row = &b->rows[r];

        ck_assert_msg(row->unsupported == NULL, "%s accepts Sudoku",
                      row->solver);
        ck_assert_int_eq(row->n, r < 2 ? 3 : 2);
        ck_assert_msg(row->solved == row->n && row->timeouts == 0,
                      "%s solves %s: %d/%d", row->solver, row->corpus,
                      row->solved, row->n);
        ck_assert(row->ntimed == row->n);
        ck_assert(row->p25_ms <= row->median_ms);
        ck_assert(row->median_ms <= row->p75_ms);
        for (i = 0; i < row->n; i++)
            ck_assert_msg(row->samples[i].runs >= 1
                          && row->samples[i].runs <= 3,
                          "1 to repeat runs per puzzle");
    }
    /* dlx takes far under 250 ms on a 4x4 grid: repeated 3 times. */
    ck_assert_int_eq(b->rows[2].samples[0].runs, 3);
    fgm_bench_free(b);
    remove_dir(dir);
}
END_TEST

/* What the model hook of test_run_model_hook saw and does. */
typedef struct hook_log {
    int calls[2];               /* by EXACT */
    int n, box;
    int wrong_size;             /* answer a 3x3 Latin square instead */
    fgm_status fail;            /* answer this status */
    int extra;                  /* answer a 4x4 grid and one more var */
} hook_log;

static fgm_status
model_hook(void *ctx, const char *corpus, int n, int box, int exact,
           fgm_ir **out)
{
    hook_log *h = ctx;

    (void)corpus;
    h->calls[exact != 0]++;
    h->n = n;
    h->box = box;
    *out = NULL;
    if (h->fail != FGM_OK) {
        /* An IR set before failing is the bench's to free (it leaked:
         * the ASan build's leak check sees it). */
        *out = fgm_ir_latin(n);
        return h->fail;
    }
    if (h->extra)
        return fgm_compile_string("var cell[4][4] in 1..4\n"
                                  "var z in 1..2\n"
                                  "alldiff cell[i][*] for i in 0..3\n"
                                  "alldiff cell[*][j] for j in 0..3\n",
                                  "extra.fgm", NULL, out, NULL, NULL);
    if (h->wrong_size)
        *out = fgm_ir_latin(3);
    else if (!exact)
        *out = fgm_ir_latin(n);     /* the probabilistic rows' own model */
    return FGM_OK;
}

/* The model hook is asked once per corpus for each kind of solver, with
 * the puzzles' size; a model of another size, or a failing hook, ends the
 * bench with a message or the hook's status. */
START_TEST(test_run_model_hook)
{
    static const char *const solvers[] = { "dlx", "ep-robust@interpreted",
                                           "mac", "ep-robust2@interpreted" };
    char dir[] = "/tmp/fgm_bench_XXXXXX", p4[1024];
    const char *corpora[1], *corpora2[2];
    hook_log h = { { 0, 0 }, 0, 0, 0, FGM_OK, 0 };
    fgm_bench_opts o;
    fgm_bench *b = NULL;
    sink diag = { 0 };
    int r;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    corpora[0] = write_file(p4, sizeof p4, dir, "four.txt",
                            "1.3.3...2.4...2.\n....3412........\n");
    bench_opts(&o, solvers, 4, corpora, 1, &diag);
    o.model = model_hook;
    o.model_ctx = &h;
    ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_OK);
    ck_assert_int_eq(diag.count, 0);
    ck_assert_int_eq(h.calls[0], 1);
    ck_assert_int_eq(h.calls[1], 1);
    ck_assert_int_eq(h.n, 4);
    ck_assert_int_eq(h.box, 2);
    for (r = 0; r < 4; r++)
        ck_assert_msg(b->rows[r].n == 2 && !b->rows[r].unsupported,
                      "%s ran", b->rows[r].solver);
    fgm_bench_free(b);
    b = NULL;

    /* A model with variables past the puzzles' cells leaves them free,
     * as `fgm solve` does (refused before, as of another size). */
    h.extra = 1;
    ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_OK);
    ck_assert_int_eq(diag.count, 0);
    ck_assert_msg(b->rows[2].n == 2 && b->rows[2].solved == 2,
                  "mac solved %d/%d", b->rows[2].solved, b->rows[2].n);
    ck_assert_msg(b->rows[1].n == 2 && !b->rows[1].unsupported,
                  "ep-robust ran");
    fgm_bench_free(b);
    b = NULL;
    h.extra = 0;

    h.wrong_size = 1;
    ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_EINVAL);
    ck_assert_ptr_null(b);
    ck_assert_msg(diag.count == 1
                  && strstr(diag.last, "the model has 9 variables, the "
                            "puzzles 16 cells"), "got: %s", diag.last);

    h.fail = FGM_EPARSE;
    ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_EPARSE);
    ck_assert_ptr_null(b);

    /* A corpus that cannot be read ends the bench before any corpus
     * runs: the hook is never asked for the first one's model. */
    h.fail = FGM_OK;
    h.calls[0] = h.calls[1] = 0;
    corpora2[0] = corpora[0];
    corpora2[1] = "/nonexistent/later.txt";
    o.corpora = corpora2;
    o.ncorpora = 2;
    ck_assert_int_ne(fgm_bench_run(&o, &b), FGM_OK);
    ck_assert_ptr_null(b);
    ck_assert_msg(strstr(diag.last, "later.txt"), "got: %s", diag.last);
    ck_assert_int_eq(h.calls[0] + h.calls[1], 0);
    remove_dir(dir);
}
END_TEST

/* Adjacent labels of one solver run puzzle by puzzle, their order swapped
 * every other puzzle (so that both backends of --backends see the machine
 * in the same state); other solvers run a whole corpus at a time. */
START_TEST(test_run_interleaves_labels)
{
    static const char *const solvers[] = { "dlx", "ep-robust@interpreted",
                                           "ep-robust@interpreted", "mac" };
    static const long order[4][3] = {
        { 0, 1, 2 }, { 3, 6, 7 }, { 4, 5, 8 }, { 9, 10, 11 }
    };
    char dir[] = "/tmp/fgm_bench_XXXXXX", p4[1024];
    const char *corpora[1];
    fgm_bench_opts o;
    fgm_bench *b = NULL;
    sink diag = { 0 };
    int r, i;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    corpora[0] = write_file(p4, sizeof p4, dir, "four.txt",
                            "1.3.3...2.4...2.\n....3412........\n"
                            "1...............\n");
    bench_opts(&o, solvers, 4, corpora, 1, &diag);
    o.repeat = 1;
    ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_OK);
    ck_assert_int_eq(diag.count, 0);
    for (r = 0; r < 4; r++)
        for (i = 0; i < 3; i++)
            ck_assert_msg(b->rows[r].samples[i].order == order[r][i],
                          "%s puzzle %d ran %ldth, not %ldth",
                          b->rows[r].solver, i, b->rows[r].samples[i].order,
                          order[r][i]);
    ck_assert_int_eq(b->rows[1].solved, b->rows[2].solved);
    fgm_bench_free(b);
    remove_dir(dir);
}
END_TEST

/* ---- limits --------------------------------------------------------- */

START_TEST(test_stats_empty)
{
    fgm_bench_row row;

    make_row(&row, "c", "dlx", NULL, 0);
    ck_assert_int_eq(row.ntimed, 0);
    ck_assert_double_eq_tol(row.median_ms, 0, EXACT);
}
END_TEST

START_TEST(test_run_timeout_censored)
{
    static const char *const solvers[] = { "backtrack" };
    char dir[] = "/tmp/fgm_bench_XXXXXX", path[1024];
    const char *corpora[1];
    fgm_bench_opts o;
    fgm_bench *b = NULL;
    sink diag = { 0 };
    char *svg;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    corpora[0] = write_file(path, sizeof path, dir, "hard.txt",
                            SEED003_HARD "\n");
    bench_opts(&o, solvers, 1, corpora, 1, &diag);
    o.timeout_ms = 1e-9;    /* the start itself: past at the first poll */
    ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_OK);
    ck_assert_msg(b->rows[0].n == 1 && b->rows[0].timeouts == 1
                  && b->rows[0].ntimed == 0,
                  "a timeout is in n and nowhere else");
    ck_assert_int_eq(b->rows[0].samples[0].runs, 0);
    svg = render(fgm_bench_write_svg, b);
    ck_assert_int_eq(occurrences(svg, "<rect class=\"bar\""), 0);
    ck_assert_ptr_nonnull(strstr(svg, "all timed out"));
    free(svg);
    fgm_bench_free(b);
    remove_dir(dir);
}
END_TEST

START_TEST(test_run_no_repeats)
{
    static const char *const solvers[] = { "dlx" };
    char dir[] = "/tmp/fgm_bench_XXXXXX", path[1024];
    const char *corpora[1];
    fgm_bench_opts o;
    fgm_bench *b = NULL;
    sink diag = { 0 };
    int pass;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    corpora[0] = write_file(path, sizeof path, dir, "easy.txt",
                            SEED003_EASY "\n");
    for (pass = 0; pass < 2; pass++) {
        bench_opts(&o, solvers, 1, corpora, 1, &diag);
        if (pass == 0)
            o.repeat = 1;
        else
            o.fast_ms = 0;  /* nothing is fast */
        ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_OK);
        ck_assert_msg(b->rows[0].nruns == 1, "pass %d: one run", pass);
        fgm_bench_free(b);
    }
    remove_dir(dir);
}
END_TEST

START_TEST(test_svg_extremes)
{
    fixture fx;
    const char *many[14];
    fgm_bench_row rows[14];
    fgm_bench_sample s[14];
    char *text;
    int i;

    fixture_init(&fx);
    for (i = 0; i < 14; i++) {
        many[i] = fx.solvers[i % 3];
        s[i] = sample(i % 2 ? 1e-9 : 1e9, 1, 0, 0);
        make_row(&rows[i], corpus_b, many[i], &s[i], 1);
    }
    fx.b.ncorpora = 1;
    fx.b.corpora = &fx.corpora[1];
    fx.b.nsolvers = 14;
    fx.b.solvers = many;
    fx.b.rows = rows;
    text = render(fgm_bench_write_svg, &fx.b);
    ck_assert_int_eq(occurrences(text, "<rect class=\"bar\""), 14);
    /* Past the palette's twelve colours, solvers 12 and 13 get solvers 0
     * and 1's colours striped: defined once each, used by bar and key. */
    ck_assert_int_eq(occurrences(text, "<pattern id=\"stripe"), 2);
    ck_assert_int_eq(occurrences(text, "fill=\"url(#stripe0)\""), 2);
    ck_assert_int_eq(occurrences(text, "fill=\"url(#stripe1)\""), 2);
    ck_assert_int_eq(occurrences(text, "fill=\"#0072B2\""), 2 + 1);
    /* Bars clamped to the top of the plot (76 px down, TOP in
     * bench_svg.c) have no room for their count above the whisker; it must
     * not run into the title and protocol lines above the plot. */
    ck_assert_msg(label_reach(text) >= 76,
                  "solved/n labels stay inside the plot (reach y = %g)",
                  label_reach(text));
    ck_assert_msg(strstr(text, "y=\"-") == NULL
                  && strstr(text, "\"nan") == NULL
                  && strstr(text, "\"-nan") == NULL
                  && strstr(text, "\"inf") == NULL,
                  "out-of-range times are clamped to the plot");
    free(text);
    fgm_bench_free(NULL);
}
END_TEST

/* The time axis ends at the decade above the largest p75: with p75 at
 * 50 s it reaches 100 s (a floor there cut the axis at 10 s and clipped
 * the whisker). */
START_TEST(test_svg_axis_top)
{
    fixture fx;
    fgm_bench_row row;
    fgm_bench_sample s[3];
    char *text;

    fixture_init(&fx);
    s[0] = sample(5000, 1, 0, 0);
    s[1] = sample(20000, 1, 0, 0);
    s[2] = sample(50000, 1, 0, 0);
    make_row(&row, corpus_b, fx.solvers[0], s, 3);
    ck_assert(row.p75_ms > 10000 && row.p75_ms <= 100000);
    fx.b.ncorpora = 1;
    fx.b.corpora = &fx.corpora[1];
    fx.b.nsolvers = 1;
    fx.b.rows = &row;
    text = render(fgm_bench_write_svg, &fx.b);
    ck_assert_ptr_nonnull(strstr(text, ">100 s</text>"));
    ck_assert_ptr_null(strstr(text, ">1000 s</text>"));
    free(text);
}
END_TEST

/* ---- errors --------------------------------------------------------- */

START_TEST(test_unknown_solver)
{
    static const char *const solvers[] = { "dlx", "nosuch" };
    static const char *const corpora[] = { "/nonexistent/x.txt" };
    fgm_bench_opts o;
    fgm_bench dummy, *b = &dummy;
    sink diag = { 0 };

    bench_opts(&o, solvers, 2, corpora, 1, &diag);
    ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_EINVAL);
    ck_assert_ptr_null(b);
    ck_assert_msg(diag.count == 1 && strstr(diag.last, "'nosuch'"),
                  "solvers are checked before any corpus: %s", diag.last);
}
END_TEST

START_TEST(test_no_solvers)
{
    static const char *const corpora[] = { "x.txt" };
    fgm_bench_opts o;
    fgm_bench *b = NULL;
    sink diag = { 0 };

    bench_opts(&o, NULL, 0, corpora, 1, &diag);
    ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_EINVAL);
    ck_assert_int_eq(diag.count, 1);
}
END_TEST

/* A NaN timeout or fast threshold is refused (it ran with no timeout,
 * the header saying "runs under nan ms repeated"). */
START_TEST(test_nan_limits)
{
    static const char *const solvers[] = { "dlx" };
    static const char *const corpora[] = { "x.txt" };
    fgm_bench_opts o;
    fgm_bench *b = NULL;
    sink diag = { 0 };
    int t;

    for (t = 0; t < 2; t++) {
        bench_opts(&o, solvers, 1, corpora, 1, &diag);
        if (t)
            o.fast_ms = NAN;
        else
            o.timeout_ms = NAN;
        ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_EINVAL);
        ck_assert_ptr_null(b);
    }
    ck_assert_int_eq(diag.count, 2);
    /* So is a grid no puzzle has: the corpus was "unreadable", FGM_EIO. */
    for (t = 0; t < 3; t++) {
        bench_opts(&o, solvers, 1, corpora, 1, &diag);
        o.grid_n = t == 0 ? 30 : 9;
        o.grid_box = t == 1 ? 2 : t == 2 ? -2 : 0;
        ck_assert_int_eq(fgm_bench_run(&o, &b), FGM_EINVAL);
        ck_assert_ptr_null(b);
    }
    ck_assert_int_eq(diag.count, 5);
}
END_TEST

START_TEST(test_missing_corpus)
{
    static const char *const solvers[] = { "dlx" };
    static const char *const corpora[] = { "/nonexistent/x.txt" };
    fgm_bench_opts o;
    fgm_bench *b = NULL;
    sink diag = { 0 };

    bench_opts(&o, solvers, 1, corpora, 1, &diag);
    ck_assert_int_ne(fgm_bench_run(&o, &b), FGM_OK);
    ck_assert_ptr_null(b);
    ck_assert_msg(diag.count >= 1 && strstr(diag.last, "x.txt"),
                  "the message names the file: %s", diag.last);
}
END_TEST

START_TEST(test_bad_corpora)
{
    static const char *const solvers[] = { "dlx" };
    static const char *const texts[] = {
        "1.3.3...2.4...2.\n" SEED003_EASY "\n",     /* mixed sizes */
        "# only a comment\n\n",                     /* no puzzles */
        SEED003_EASY "\n12345\n",                   /* malformed line */
    };
    char dir[] = "/tmp/fgm_bench_XXXXXX", path[1024];
    const char *corpora[1];
    fgm_bench_opts o;
    fgm_bench *b = NULL;
    sink diag;
    size_t i;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (i = 0; i < FGM_COUNTOF(texts); i++) {
        memset(&diag, 0, sizeof diag);
        corpora[0] = write_file(path, sizeof path, dir, "bad.txt", texts[i]);
        bench_opts(&o, solvers, 1, corpora, 1, &diag);
        ck_assert_msg(fgm_bench_run(&o, &b) != FGM_OK && b == NULL,
                      "bad corpus %zu is an error", i);
        ck_assert_msg(diag.count >= 1 && strstr(diag.last, "bad.txt"),
                      "bad corpus %zu: message names the file: %s", i,
                      diag.last);
    }
    remove_dir(dir);
}
END_TEST

static fgm_status
failing_writer(const fgm_bench *b, FILE *f)
{
    (void)b;
    fputs("partial", f);
    return FGM_EIO;
}

START_TEST(test_save_failures)
{
    char dir[] = "/tmp/fgm_bench_XXXXXX", path[1024];
    fixture fx;
    sink diag = { 0 };

    fixture_init(&fx);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/missing/out.svg", dir);
    ck_assert_int_eq(fgm_bench_save(&fx.b, path, fgm_bench_write_svg,
                                    capture, &diag), FGM_EIO);
    ck_assert_msg(diag.count == 1 && strstr(diag.last, "missing/out.svg"),
                  "an unwritable path is reported: %s", diag.last);
    snprintf(path, sizeof path, "%s/out.svg", dir);
    ck_assert_int_eq(fgm_bench_save(&fx.b, path, failing_writer, capture,
                                    &diag), FGM_EIO);
    ck_assert_int_eq(diag.count, 2);
    ck_assert_msg(dir_entries(dir, 0) == 0,
                  "a failed writer leaves neither the file nor a .tmp");
    remove_dir(dir);
}
END_TEST

Suite *
bench_suite(void)
{
    Suite *s = suite_create("bench");
    TCase *core = tcase_create("core"), *limits = tcase_create("limits");
    TCase *errors = tcase_create("errors");

    tcase_set_timeout(core, 30);
    tcase_set_timeout(limits, 30);
    tcase_set_timeout(errors, 10);
    tcase_add_test(core, test_stats_odd);
    tcase_add_test(core, test_stats_even);
    tcase_add_test(core, test_censoring);
    tcase_add_test(core, test_unsolved_timed);
    tcase_add_test(core, test_fmt_ms);
    tcase_add_test(core, test_csv);
    tcase_add_test(core, test_csv_quoting);
    tcase_add_test(core, test_detail);
    tcase_add_test(core, test_table);
    tcase_add_test(core, test_backends_per_puzzle);
    tcase_add_test(core, test_backends_columns);
    tcase_add_test(core, test_columns_utf8);
    tcase_add_test(core, test_columns_control);
    tcase_add_test(core, test_svg);
    tcase_add_test(core, test_save_atomic);
    tcase_add_test(core, test_run_end_to_end);
    tcase_add_test(core, test_run_model_hook);
    tcase_add_test(core, test_run_interleaves_labels);
    tcase_add_test(limits, test_stats_empty);
    tcase_add_test(limits, test_run_timeout_censored);
    tcase_add_test(limits, test_run_no_repeats);
    tcase_add_test(limits, test_svg_extremes);
    tcase_add_test(limits, test_svg_axis_top);
    tcase_add_test(errors, test_unknown_solver);
    tcase_add_test(errors, test_no_solvers);
    tcase_add_test(errors, test_nan_limits);
    tcase_add_test(errors, test_missing_corpus);
    tcase_add_test(errors, test_bad_corpora);
    tcase_add_test(errors, test_save_failures);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    suite_add_tcase(s, errors);
    return s;
}
