/* runtime/bench_svg.c: the benchmark chart as a self-contained SVG file.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Grouped bars, one group per corpus and one colour per solver (striped
 * past the palette's twelve), on a log-scale time axis: times span six
 * decades between dlx and a timed-out backtracker.  A bar is the median
 * time per puzzle, its whisker the IQR, its label solved/n.  A row
 * without a bar (solver refused the model, or every puzzle timed out)
 * keeps its slot as a labelled gap, as in the seed's chart, because "no
 * data" is a result.
 *
 * Text widths are estimated (no font metrics): CHAR_W pixels per byte.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"

enum {
    BAR_W = 26,         /* bar width */
    BAR_GAP = 4,        /* between bars of a group */
    GROUP_GAP = 28,     /* between groups and at both ends */
    PLOT_H = 320,
    LEFT = 86,          /* y tick labels and axis title */
    TOP = 76,           /* title and two protocol lines */
    BOTTOM = 40,        /* group labels */
    LEGEND_GAP = 24,
    KEY = 12,           /* legend swatch side */
    KEY_STEP = 20,
    RIGHT = 16,
    MARGIN = 16,        /* left edge of the titles */
    MIN_WIDTH = 600,    /* room for the title; measure() widens it */
    CHAR_W = 7,         /* estimated advance of a 12px sans-serif glyph */
    SMALL_W = 6,        /* same at 11px */
    MIN_DECADE = -6,    /* 1 ns */
    MAX_DECADE = 7      /* about 3 hours */
};

/* Okabe-Ito, then Paul Tol's muted scheme: distinguishable with colour
 * blindness, dark enough for a white-haloed label. */
static const char *const palette[] = {
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
    "#332288", "#117733", "#882255", "#999933", "#44AA99", "#666666",
};

#define NPALETTE ((int)FGM_COUNTOF(palette))

/* The fill of solver S into BUF: its palette colour, and from the
 * palette's second round on the same colour under white diagonal stripes
 * (a pattern defined by stripes()), so that up to twice as many solvers
 * as colours stay apart (fgm has over twenty solvers; `fgm bench` over
 * all of them would otherwise draw fc and alldiff-max alike). */
static void
fill_of(int s, char *buf, size_t size)
{
    if ((s / NPALETTE) % 2 == 0)
        snprintf(buf, size, "%s", palette[s % NPALETTE]);
    else
        snprintf(buf, size, "url(#stripe%d)", s % NPALETTE);
}

/* Defines the striped fills the chart's second-round solvers use. */
static void
stripes(int nsolvers, FILE *f)
{
    int c;

    if (nsolvers <= NPALETTE)
        return;
    fputs("<defs>\n", f);
    for (c = 0; c < NPALETTE && c < nsolvers - NPALETTE; c++)
        fprintf(f, "<pattern id=\"stripe%d\" patternUnits=\"userSpaceOnUse\" "
                "width=\"6\" height=\"6\" patternTransform=\"rotate(45)\">"
                "<rect width=\"6\" height=\"6\" fill=\"%s\"/>"
                "<rect width=\"2\" height=\"6\" fill=\"#ffffff\"/>"
                "</pattern>\n", c, palette[c]);
    fputs("</defs>\n", f);
}

/* Units of the decade labels, from 1 ns (decade -6 of a millisecond). */
static const char *const units[] = { "ns", "&#181;s", "ms", "s" };

/* The chart's geometry, computed once from the results. */
typedef struct layout {
    int lo, hi;         /* y range in decades of ms */
    int groupw;         /* width of one group's slot */
    int plotw;
    int width, height;
    int bottom;         /* y of the time axis */
} layout;

/* The length of the UTF-8 sequence at S that XML 1.0 admits as one
 * character, or 0 when S starts none: a control byte, a stray or
 * missing continuation byte, an overlong form, a surrogate, U+FFFE and
 * U+FFFF, or past U+10FFFF. */
static int
xml_char_len(const unsigned char *s)
{
    unsigned long c;
    int n, i;

    if (s[0] < 0x80)
        return s[0] >= 0x20 ? 1 : 0;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        n = 2;
        c = s[0] & 0x1f;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        n = 3;
        c = s[0] & 0x0f;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        n = 4;
        c = s[0] & 0x07;
    } else {
        return 0;
    }
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;   /* the string's NUL included */
        c = c << 6 | (s[i] & 0x3f);
    }
    if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c > 0x10ffff
        || (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
        return 0;
    return n;
}

/* Writes S (a corpus or solver name: any bytes) as XML text: the five
 * special characters escaped, and U+FFFD for each byte that starts no
 * character XML admits (xml_char_len), so that a file name with a
 * control or Latin-1 byte still gives a well-formed chart (the CSV
 * keeps its bytes). */
static void
xmltext(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    int n;

    while (*p) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            n = xml_char_len(p);
            if (n == 0)
                fputs("\xef\xbf\xbd", f);     /* U+FFFD */
            else
                fwrite(p, 1, (size_t)n, f);
            p += n ? n : 1;
            continue;
        }
        p++;
    }
}

static int
maxlen(const char *const *names, int n)
{
    int i, m = 0;

    for (i = 0; i < n; i++)
        if ((int)strlen(names[i]) > m)
            m = (int)strlen(names[i]);
    return m;
}

/* Sizes the chart: the y range covers 1 us .. 10 s and every whisker; the
 * width holds the plot and legend, the title, and the protocol line, which
 * with a seed, a long timeout and many repeats outgrows MIN_WIDTH. */
static void
measure(const fgm_bench *b, layout *l)
{
    char line[FGM_BENCH_PROTOCOL_MAX];
    int i, bars, legendw, textw;

    l->lo = -3;
    l->hi = 4;
    for (i = 0; i < b->ncorpora * b->nsolvers; i++) {
        const fgm_bench_row *row = &b->rows[i];

        /* p25 <= median <= p75: the whisker spans the drawn values. */
        if (row->unsupported || row->ntimed == 0 || !(row->p25_ms > 0))
            continue;
        if (floor(log10(row->p25_ms)) < l->lo)
            l->lo = (int)floor(log10(row->p25_ms));
        if (ceil(log10(row->p75_ms)) > l->hi)
            l->hi = (int)ceil(log10(row->p75_ms));
    }
    if (l->lo < MIN_DECADE)
        l->lo = MIN_DECADE;
    if (l->hi > MAX_DECADE)
        l->hi = MAX_DECADE;
    bars = b->nsolvers * (BAR_W + BAR_GAP) - BAR_GAP;
    l->groupw = maxlen((const char *const *)b->corpora, b->ncorpora)
                * CHAR_W;
    if (l->groupw < bars)
        l->groupw = bars;
    l->plotw = b->ncorpora * (l->groupw + GROUP_GAP) + GROUP_GAP;
    legendw = KEY + 6 + maxlen(b->solvers, b->nsolvers) * CHAR_W;
    l->width = LEFT + l->plotw + LEGEND_GAP + legendw + RIGHT;
    if (l->width < MIN_WIDTH)
        l->width = MIN_WIDTH;
    fgm_bench_protocol(b, line, sizeof line);
    textw = MARGIN + (int)strlen(line) * SMALL_W + RIGHT;
    if (l->width < textw)
        l->width = textw;
    l->height = TOP + PLOT_H + BOTTOM;
    if (TOP + b->nsolvers * KEY_STEP + BOTTOM > l->height)
        l->height = TOP + b->nsolvers * KEY_STEP + BOTTOM;
    l->bottom = TOP + PLOT_H;
}

/* The y pixel of MS on the log axis, clamped to the plot. */
static double
ypos(const layout *l, double ms)
{
    double d = ms > 0 ? log10(ms) : l->lo;

    if (d < l->lo)
        d = l->lo;
    if (d > l->hi)
        d = l->hi;
    return TOP + PLOT_H * (l->hi - d) / (l->hi - l->lo);
}

/* Writes the label of decade D (10^D ms), e.g. "100 &#181;s", "10 s". */
static void
decade_label(FILE *f, int d)
{
    int u = (d - MIN_DECADE) / 3, e;
    long mant = 1;

    if (u >= (int)FGM_COUNTOF(units))
        u = (int)FGM_COUNTOF(units) - 1;
    for (e = d - MIN_DECADE - 3 * u; e > 0; e--)
        mant *= 10;
    fprintf(f, "%ld %s", mant, units[u]);
}

static void
axes(const fgm_bench *b, const layout *l, FILE *f)
{
    int d, c;
    double y, x;

    for (d = l->lo; d <= l->hi; d++) {
        y = ypos(l, pow(10, d));
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
                "stroke=\"#dddddd\"/>\n", LEFT, y, LEFT + l->plotw, y);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
                "dominant-baseline=\"middle\">", LEFT - 6, y);
        decade_label(f, d);
        fputs("</text>\n", f);
    }
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
            "stroke=\"#333333\"/>\n", LEFT, TOP, LEFT, l->bottom);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
            "stroke=\"#333333\"/>\n", LEFT, l->bottom, LEFT + l->plotw,
            l->bottom);
    y = TOP + PLOT_H / 2.0;
    fprintf(f, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
            "transform=\"rotate(-90 16 %.1f)\">median time per puzzle "
            "(log scale)</text>\n", y, y);
    for (c = 0; c < b->ncorpora; c++) {
        x = LEFT + GROUP_GAP + c * (l->groupw + GROUP_GAP)
            + l->groupw / 2.0;
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
                x, l->bottom + 20);
        xmltext(f, b->corpora[c]);
        fputs("</text>\n", f);
    }
}

/* Writes a vertical label reading upwards from (X, Y), dark text on a
 * white halo so that it stays legible over a bar or a grid line. */
static void
vlabel(FILE *f, double x, double y, const char *style, const char *text)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
            "transform=\"rotate(-90 %.1f %.1f)\" stroke=\"#ffffff\" "
            "stroke-width=\"3\" paint-order=\"stroke\" %s>",
            x, y, x, y, style);
    xmltext(f, text);
    fputs("</text>\n", f);
}

/* Draws ROW's bar (or its labelled gap) in the slot starting at X. */
static void
bar(const fgm_bench_row *row, const char *colour, const layout *l,
    double x, FILE *f)
{
    char text[160], m[24], lo[24], hi[24];
    double cx = x + BAR_W / 2.0, top, ymed, y25, y75;

    if (row->unsupported || row->ntimed == 0) {
        if (row->unsupported)
            snprintf(text, sizeof text, "unsupported");
        else
            snprintf(text, sizeof text, "%d/%d, all timed out",
                     row->solved, row->n);
        vlabel(f, cx + 4, l->bottom - 4,
               "fill=\"#555555\" font-style=\"italic\"", text);
        return;
    }
    ymed = ypos(l, row->median_ms);
    y25 = ypos(l, row->p25_ms);
    y75 = ypos(l, row->p75_ms);
    fgm_bench_fmt_ms(row->median_ms, m, sizeof m);
    fgm_bench_fmt_ms(row->p25_ms, lo, sizeof lo);
    fgm_bench_fmt_ms(row->p75_ms, hi, sizeof hi);
    fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" "
            "height=\"%.1f\" fill=\"%s\"><title>", x, ymed, BAR_W,
            l->bottom - ymed, colour);
    xmltext(f, row->corpus);
    fputc(' ', f);
    xmltext(f, row->solver);
    fprintf(f, ": median %s ms, IQR %s-%s ms, solved %d/%d, timeouts %d"
            "</title></rect>\n", m, lo, hi, row->solved, row->n,
            row->timeouts);
    if (y25 - y75 >= 1) {
        fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\" "
                "stroke=\"#222222\" stroke-width=\"1.5\" fill=\"none\"/>\n",
                cx, y75, y25, cx - 4, y75, cx - 4, y25);
    }
    /* The count goes above the whisker, or inside the bar near its foot
     * when the plot has no room left above (above TOP are the title and
     * protocol lines).  Well clear of the whisker's cap: 4 px below the
     * text, the cap read as a leading "1" ("12/11" for 2/11). */
    snprintf(text, sizeof text, "%d/%d", row->solved, row->n);
    top = (y75 < ymed ? y75 : ymed) - 9;
    if (top - (double)strlen(text) * SMALL_W < TOP)
        top = l->bottom - 4;
    vlabel(f, cx + 4, top, "fill=\"#111111\"", text);
}

static void
legend(const fgm_bench *b, const layout *l, FILE *f)
{
    int s, x = LEFT + l->plotw + LEGEND_GAP, y;
    char fill[32];

    for (s = 0; s < b->nsolvers; s++) {
        y = TOP + s * KEY_STEP;
        fill_of(s, fill, sizeof fill);
        fprintf(f, "<rect class=\"key\" x=\"%d\" y=\"%d\" width=\"%d\" "
                "height=\"%d\" fill=\"%s\"/>\n", x, y, KEY, KEY, fill);
        fprintf(f, "<text x=\"%d\" y=\"%d\">", x + KEY + 6, y + KEY - 2);
        xmltext(f, b->solvers[s]);
        fputs("</text>\n", f);
    }
}

/* The title, then the protocol in two lines (the chart is made wide
 * enough for the first: measure). */
static void
titles(const fgm_bench *b, FILE *f)
{
    char line[FGM_BENCH_PROTOCOL_MAX];

    fgm_bench_protocol(b, line, sizeof line);
    fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"15\" "
            "font-weight=\"bold\">fgm bench: median time per puzzle "
            "(whiskers: p25-p75)</text>\n", MARGIN);
    fprintf(f, "<text x=\"%d\" y=\"42\" font-size=\"11\" fill=\"#444444\">",
            MARGIN);
    xmltext(f, line);
    fputs("</text>\n", f);
    fprintf(f, "<text x=\"%d\" y=\"56\" font-size=\"11\" fill=\"#444444\">"
            "labels: solved/n; timeouts counted in n, not in times</text>\n",
            MARGIN);
}

static fgm_status
write_svg(const fgm_bench *b, FILE *f)
{
    layout l;
    char fill[32];
    int c, s;

    if (!b || !f)
        return FGM_EINVAL;
    measure(b, &l);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
            "font-size=\"12\">\n", l.width, l.height, l.width, l.height);
    fprintf(f, "<rect class=\"bg\" width=\"100%%\" height=\"100%%\" "
            "fill=\"#ffffff\"/>\n");
    stripes(b->nsolvers, f);
    titles(b, f);
    axes(b, &l, f);
    for (c = 0; c < b->ncorpora; c++) {
        double x0 = LEFT + GROUP_GAP + c * (l.groupw + GROUP_GAP)
                    + (l.groupw - (b->nsolvers * (BAR_W + BAR_GAP)
                                   - BAR_GAP)) / 2.0;

        for (s = 0; s < b->nsolvers; s++) {
            fill_of(s, fill, sizeof fill);
            bar(&b->rows[c * b->nsolvers + s], fill, &l,
                x0 + s * (BAR_W + BAR_GAP), f);
        }
    }
    legend(b, &l, f);
    fputs("</svg>\n", f);
    return fgm_stream_status(f);
}

fgm_status
fgm_bench_write_svg(const fgm_bench *b, FILE *f)
{
    return fgm_bench_in_c_locale(write_svg, b, f);
}
