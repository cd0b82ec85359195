/* runtime/bench_report.c: benchmark text tables, CSV files, atomic saving.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include "bench.h"

/* Table columns after corpus and solver, all right-aligned. */
enum { COL_SOLVED, COL_TIMEOUTS, COL_MEDIAN, COL_IQR, COL_MEAN, COL_RUNS,
       NCOLS };

static const char *const col_title[NCOLS] = {
    "solved", "timeouts", "median ms", "IQR ms (p25-p75)", "mean ms", "runs"
};

/* The formatted numeric cells of one table row. */
typedef struct cells {
    char c[NCOLS][64];
    const char *note;
} cells;

/* Columns S takes on a terminal: its bytes less UTF-8 continuation
 * bytes (a corpus is named by its file, whose name may not be ASCII;
 * printf's widths count bytes). */
static int
text_width(const char *s)
{
    int n = 0;

    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* S, then blanks to W columns.  A control character (a newline or a tab
 * in a file name) is written '?', so that a row stays on one line and
 * its columns in place (the CSV keeps the bytes, quoting a field with a
 * newline; the SVG writes U+FFFD). */
static void
put_left(FILE *f, const char *s, int w)
{
    const char *p;

    for (p = s; *p; p++)
        fputc((unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p, f);
    for (w -= text_width(s); w > 0; w--)
        fputc(' ', f);
}

/* Formats the cells of ROW; a censored or refused row shows "-". */
static void
format_row(const fgm_bench_row *row, cells *out)
{
    char lo[24], hi[24];
    int i;

    for (i = 0; i < NCOLS; i++)
        strcpy(out->c[i], "-");
    out->note = NULL;
    if (row->unsupported) {
        out->note = "unsupported";
        return;
    }
    snprintf(out->c[COL_SOLVED], sizeof out->c[0], "%d/%d", row->solved,
             row->n);
    snprintf(out->c[COL_TIMEOUTS], sizeof out->c[0], "%d", row->timeouts);
    snprintf(out->c[COL_RUNS], sizeof out->c[0], "%d", row->nruns);
    if (row->ntimed == 0) {
        out->note = "all timed out";
        return;
    }
    fgm_bench_fmt_ms(row->median_ms, out->c[COL_MEDIAN], sizeof out->c[0]);
    fgm_bench_fmt_ms(row->mean_ms, out->c[COL_MEAN], sizeof out->c[0]);
    fgm_bench_fmt_ms(row->p25_ms, lo, sizeof lo);
    fgm_bench_fmt_ms(row->p75_ms, hi, sizeof hi);
    snprintf(out->c[COL_IQR], sizeof out->c[0], "%s-%s", lo, hi);
}

/* Writes the protocol in one line, so that a table explains itself. */
static void
protocol(const fgm_bench *b, FILE *f)
{
    char line[FGM_BENCH_PROTOCOL_MAX];

    fgm_bench_protocol(b, line, sizeof line);
    fprintf(f, "# %s; median and IQR over puzzles; timeouts counted in n, "
            "not in times\n", line);
}

static fgm_status
write_table(const fgm_bench *b, FILE *f)
{
    int wcorpus = (int)strlen("corpus"), wsolver = (int)strlen("solver");
    int w[NCOLS];
    int nrows, i, k;
    cells cl;

    if (!b || !f)
        return FGM_EINVAL;
    nrows = b->ncorpora * b->nsolvers;
    for (k = 0; k < NCOLS; k++)
        w[k] = (int)strlen(col_title[k]);
    for (i = 0; i < nrows; i++) {
        const fgm_bench_row *row = &b->rows[i];

        if (text_width(row->corpus) > wcorpus)
            wcorpus = text_width(row->corpus);
        if ((int)strlen(row->solver) > wsolver)
            wsolver = (int)strlen(row->solver);
        format_row(row, &cl);
        for (k = 0; k < NCOLS; k++)
            if ((int)strlen(cl.c[k]) > w[k])
                w[k] = (int)strlen(cl.c[k]);
    }
    protocol(b, f);
    fprintf(f, "%-*s  %-*s", wcorpus, "corpus", wsolver, "solver");
    for (k = 0; k < NCOLS; k++)
        fprintf(f, "  %*s", w[k], col_title[k]);
    fputc('\n', f);
    for (i = 0; i < nrows; i++) {
        const fgm_bench_row *row = &b->rows[i];

        format_row(row, &cl);
        put_left(f, row->corpus, wcorpus);
        fprintf(f, "  %-*s", wsolver, row->solver);
        for (k = 0; k < NCOLS; k++)
            fprintf(f, "  %*s", w[k], cl.c[k]);
        if (row->unsupported)
            fprintf(f, "  unsupported: %s", row->unsupported);
        else if (cl.note)
            fprintf(f, "  %s", cl.note);
        fputc('\n', f);
    }
    return fgm_stream_status(f);
}

/* The row of B for corpus C labelled SOLVER, or NULL. */
static const fgm_bench_row *
find_row(const fgm_bench *b, int c, const char *solver)
{
    int s;

    for (s = 0; s < b->nsolvers; s++)
        if (strcmp(b->solvers[s], solver) == 0)
            return &b->rows[c * b->nsolvers + s];
    return NULL;
}

/* The puzzles RC and RI both timed: their number, and (when X and Y are
 * not NULL) RC's times into X and RI's into Y, puzzle by puzzle. */
static size_t
both_timed(const fgm_bench_row *rc, const fgm_bench_row *ri, double *x,
           double *y)
{
    size_t n = 0;
    int i;

    if (rc->n != ri->n || !rc->samples || !ri->samples)
        return 0;
    for (i = 0; i < rc->n; i++)
        if (!rc->samples[i].timed_out && !ri->samples[i].timed_out) {
            if (x) {
                x[n] = rc->samples[i].ms;
                y[n] = ri->samples[i].ms;
            }
            n++;
        }
    return n;
}

/* Writes RC's and RI's line of the backends report (CORPUS and NAME, NAME
 * LEN bytes long, padded to WCORPUS and WNAME columns), over
 * the N puzzles both timed (both_timed): their median times and the
 * ratio -- over those puzzles only (DESIGN.md: compare on the same
 * puzzles; the rows' own medians gave 0.29x where every puzzle both
 * timed ran 1.44x) -- then " per puzzle Mx (IQR P-Qx, N puzzles)", the
 * median and quartiles of RI's time over RC's, puzzle by puzzle: steadier
 * than the ratio of the medians, whose times may span 100x.  Nothing
 * when out of memory. */
static void
backend_line(const char *corpus, const char *name, int len, int wcorpus,
             int wname, const fgm_bench_row *rc, const fgm_bench_row *ri,
             size_t n, FILE *f)
{
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    double *r = malloc(n * sizeof *r), mc, mi;
    size_t i, nr = 0;

    if (!x || !y || !r) {
        free(x);
        free(y);
        free(r);
        return;
    }
    both_timed(rc, ri, x, y);
    for (i = 0; i < n; i++)
        if (x[i] > 0 && y[i] > 0)
            r[nr++] = y[i] / x[i];
    gsl_sort(x, 1, n);
    gsl_sort(y, 1, n);
    mc = gsl_stats_median_from_sorted_data(x, 1, n);
    mi = gsl_stats_median_from_sorted_data(y, 1, n);
    put_left(f, corpus, wcorpus);
    fprintf(f, " %-*.*s compiled %.4g ms  interpreted %.4g ms"
            "  ratio %.3gx", wname, len, name, mc, mi, mi / mc);
    if (nr > 0) {
        gsl_sort(r, 1, nr);
        fprintf(f, "  per puzzle %.3gx (IQR %.3g-%.3gx, %zu puzzle%s)",
                gsl_stats_median_from_sorted_data(r, 1, nr),
                gsl_stats_quantile_from_sorted_data(r, 1, nr, 0.25),
                gsl_stats_quantile_from_sorted_data(r, 1, nr, 0.75), nr,
                nr == 1 ? "" : "s");
    }
    if ((int)n < rc->n)
        fprintf(f, "  (%zu of %d puzzles: timeouts %d compiled, %d "
                "interpreted)", n, rc->n, rc->timeouts, ri->timeouts);
    fputc('\n', f);
    free(x);
    free(y);
    free(r);
}

/* The NAME@interpreted row of corpus C that pairs with solver S's
 * NAME@compiled row there, both with timed runs; NULL when S is no
 * compiled row or has no such partner. */
static const fgm_bench_row *
interpreted_pair(const fgm_bench *b, int c, int s)
{
    const char *label = b->solvers[s], *at = strchr(label, '@');
    const fgm_bench_row *rc = &b->rows[c * b->nsolvers + s], *ri;
    char other[96];

    if (!at || strcmp(at + 1, "compiled") != 0 || rc->ntimed == 0)
        return NULL;
    snprintf(other, sizeof other, "%.*s@interpreted", (int)(at - label),
             label);
    ri = find_row(b, c, other);
    return ri && ri->ntimed > 0 ? ri : NULL;
}

/* For `fgm bench --backends`: each NAME@compiled row next to its
 * NAME@interpreted row (backend_line), over the puzzles both timed.
 * Nothing at all without such a pair (one backend, exact solvers only,
 * or no puzzle both timed). */
static fgm_status
write_backends(const fgm_bench *b, FILE *f)
{
    /* The columns are as wide as the longest corpus and solver name (at
     * least 12 and 14), so that a long one does not shift its line. */
    int c, s, pairs = 0, wcorpus = 12, wname = 14;

    if (!b || !f)
        return FGM_EINVAL;
    for (c = 0; c < b->ncorpora; c++)
        for (s = 0; s < b->nsolvers; s++) {
            const fgm_bench_row *ri = interpreted_pair(b, c, s);
            const char *label = b->solvers[s];

            if (!ri || both_timed(&b->rows[c * b->nsolvers + s], ri, NULL,
                                  NULL) == 0)
                continue;
            pairs++;
            if (text_width(b->corpora[c]) > wcorpus)
                wcorpus = text_width(b->corpora[c]);
            if ((int)(strchr(label, '@') - label) > wname)
                wname = (int)(strchr(label, '@') - label);
        }
    if (pairs == 0)
        return FGM_OK;
    fprintf(f, "\n# backends: median ms per puzzle over the puzzles both "
            "backends timed, interpreted / compiled: ratio of the medians, "
            "and median (IQR) of the per-puzzle ratios\n");
    for (c = 0; c < b->ncorpora; c++)
        for (s = 0; s < b->nsolvers; s++) {
            const char *label = b->solvers[s], *at = strchr(label, '@');
            const fgm_bench_row *rc = &b->rows[c * b->nsolvers + s];
            const fgm_bench_row *ri = interpreted_pair(b, c, s);
            size_t n = ri ? both_timed(rc, ri, NULL, NULL) : 0;

            if (n > 0)
                backend_line(b->corpora[c], label, (int)(at - label),
                             wcorpus, wname, rc, ri, n, f);
        }
    return fgm_stream_status(f);
}

/* Writes S as one CSV field, quoted when it holds a comma, quote or
 * newline (RFC 4180). */
static void
csvfield(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Writes ",X" with X in ms to 6 significant digits (the table's 3 and
 * more: a fixed 4 decimals left 0.0057 for 0.00568), or "," when the
 * row has no times. */
static void
csvms(FILE *f, const fgm_bench_row *row, double ms)
{
    if (row->ntimed > 0)
        fprintf(f, ",%.6g", ms);
    else
        fputc(',', f);
}

static fgm_status
write_csv(const fgm_bench *b, FILE *f)
{
    int i;

    if (!b || !f)
        return FGM_EINVAL;
    fputs(FGM_BENCH_CSV_HEADER "\n", f);
    for (i = 0; i < b->ncorpora * b->nsolvers; i++) {
        const fgm_bench_row *row = &b->rows[i];
        const char *status = row->unsupported ? "unsupported"
                             : row->ntimed == 0 ? "timeout" : "ok";

        csvfield(f, row->corpus);
        fputc(',', f);
        csvfield(f, row->solver);
        fprintf(f, ",%s,%d,%d,%d,%d", status, row->n, row->solved,
                row->unsolved, row->timeouts);
        csvms(f, row, row->median_ms);
        csvms(f, row, row->p25_ms);
        csvms(f, row, row->p75_ms);
        csvms(f, row, row->mean_ms);
        csvms(f, row, row->min_ms);
        csvms(f, row, row->max_ms);
        csvms(f, row, row->total_ms);
        if (row->ntimed > 0)
            fprintf(f, ",%.1f", row->median_nodes);
        else
            fputc(',', f);
        fprintf(f, ",%d,%d,", row->ntimed, row->nruns);
        if (row->unsupported)
            csvfield(f, row->unsupported);
        fputc('\n', f);
    }
    return fgm_stream_status(f);
}

static fgm_status
write_detail(const fgm_bench *b, FILE *f)
{
    int c, s, i, n;

    if (!b || !f)
        return FGM_EINVAL;
    fputs(FGM_BENCH_DETAIL_HEADER "\n", f);
    for (c = 0; c < b->ncorpora; c++) {
        const fgm_bench_row *rows = &b->rows[c * b->nsolvers];

        /* Puzzle-major, so that solvers sit side by side per puzzle. */
        for (n = 0, s = 0; s < b->nsolvers; s++)
            if (rows[s].n > n)
                n = rows[s].n;
        for (i = 0; i < n; i++)
            for (s = 0; s < b->nsolvers; s++) {
                const fgm_bench_sample *x;

                if (i >= rows[s].n)
                    continue;
                x = &rows[s].samples[i];
                csvfield(f, rows[s].corpus);
                fprintf(f, ",%d,", i);
                csvfield(f, rows[s].solver);
                fprintf(f, ",%d,%d,", x->solved, x->timed_out);
                if (!x->timed_out)
                    fprintf(f, "%.6g", x->ms);
                /* A timed-out run has no nodes either (bench.h). */
                if (x->timed_out)
                    fprintf(f, ",%d,", x->runs);
                else
                    fprintf(f, ",%d,%ld", x->runs, x->nodes);
                fprintf(f, ",%lu\n", b->seed + (unsigned long)i);
            }
    }
    return fgm_stream_status(f);
}

/* Adapts a report writer to fgm_write_atomic's callback. */
typedef struct save_arg {
    const fgm_bench *b;
    fgm_bench_writer write;
} save_arg;

static fgm_status
save_cb(void *arg, FILE *f)
{
    const save_arg *sa = arg;

    return sa->write(sa->b, f);
}

fgm_status
fgm_bench_save(const fgm_bench *b, const char *path, fgm_bench_writer write,
               fgm_diag_fn diag, void *ctx)
{
    save_arg sa = { b, write };

    if (!b || !path || !write)
        return FGM_EINVAL;
    return fgm_write_atomic(path, save_cb, &sa, diag, ctx);
}

fgm_status
fgm_bench_write_table(const fgm_bench *b, FILE *f)
{
    return fgm_bench_in_c_locale(write_table, b, f);
}

fgm_status
fgm_bench_write_backends(const fgm_bench *b, FILE *f)
{
    return fgm_bench_in_c_locale(write_backends, b, f);
}

fgm_status
fgm_bench_write_csv(const fgm_bench *b, FILE *f)
{
    return fgm_bench_in_c_locale(write_csv, b, f);
}

fgm_status
fgm_bench_write_detail(const fgm_bench *b, FILE *f)
{
    return fgm_bench_in_c_locale(write_detail, b, f);
}

fgm_status
fgm_bench_in_c_locale(fgm_bench_writer write, const fgm_bench *b, FILE *f)
{
    fgm_c_locale cl;
    fgm_status st;

    fgm_c_locale_begin(&cl);
    st = write(b, f);
    fgm_c_locale_end(&cl);
    return st;
}
