/* runtime/cli/run_show.c: `fgm run --show`: which variables and Dirichlet
 * nodes to print ("x,h[0],y[1..2]").
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"

/* Reads one subscript of a --show item at P (after its '['; ITEM in
 * messages) into LO..HI for dimension D of AI: "3", "0..2" or "*" (the
 * whole dimension), as the model language writes them.  Returns the
 * byte after its ']', or NULL after saying what is wrong. */
static const char *
show_subscript(const fgm_array_info *ai, int d, const char *p,
               const char *item, long *lo, long *hi)
{
    char *end;

    while (*p == ' ')
        p++;
    if (*p == '*') {
        *lo = 0;
        *hi = ai->dims[d] - 1;
        end = (char *)p + 1;
    } else {
        /* Digits, as the language writes them (strtol would also take a
         * '+' or a tab). */
        errno = 0;
        if (!isdigit((unsigned char)*p) && *p != '-')
            goto bad;
        *lo = *hi = strtol(p, &end, 10);
        while (*end == ' ')
            end++;
        if (end[0] == '.' && end[1] == '.') {
            p = end + 2;
            while (*p == ' ')
                p++;
            if (!isdigit((unsigned char)*p) && *p != '-')
                goto bad;
            *hi = strtol(p, &end, 10);
        }
    }
    while (*end == ' ')
        end++;
    if (*end != ']')
        goto bad;
    if (errno == ERANGE) {
        cli_fail(CLI_EUSAGE, "run: --show %s: a subscript out of range "
                 "0..%d of %s's dimension %d", item, ai->dims[d] - 1,
                 ai->name, d + 1);
        return NULL;
    }
    if (*lo > *hi) {
        cli_fail(CLI_EUSAGE, "run: --show %s: the range %ld..%ld is empty",
                 item, *lo, *hi);
        return NULL;
    }
    if (*lo < 0 || *hi >= ai->dims[d]) {
        cli_fail(CLI_EUSAGE, "run: --show %s: subscript %ld out of range "
                 "0..%d of %s's dimension %d", item, *lo < 0 ? *lo : *hi,
                 ai->dims[d] - 1, ai->name, d + 1);
        return NULL;
    }
    return end + 1;
bad:
    cli_fail(CLI_EUSAGE, "run: --show %s: a subscript is an integer, a "
             "range LO..HI or * in brackets", item);
    return NULL;
}

/* Reads the subscripts of a --show item after its array's name, TEXT
 * (ITEM in messages: "y[1]", "h[0..2]", "s[*][3]", blanks allowed around
 * brackets) into each dimension's range LO[d]..HI[d] (a dimension
 * without a subscript: the whole of it).  Returns CLI_OK or the usage
 * error after saying what is wrong. */
static int
show_subscripts(const fgm_array_info *ai, const char *text, const char *item,
                long *lo, long *hi)
{
    const char *p = text;
    int d;

    for (d = 0; d < ai->ndims; d++) {
        lo[d] = 0;
        hi[d] = ai->dims[d] - 1;
    }
    for (d = 0;; d++) {
        while (*p == ' ')
            p++;
        if (!*p)
            return CLI_OK;
        if (*p == '[' && d == ai->ndims)
            return cli_fail(CLI_EUSAGE, "run: --show %s: more subscripts "
                            "than %s has dimensions (%d)", item, ai->name,
                            ai->ndims);
        if (*p != '[')
            return cli_fail(CLI_EUSAGE, "run: --show %s: '%c' where '[' or "
                            "the end of the name was expected", item, *p);
        if (!(p = show_subscript(ai, d, p + 1, item, &lo[d], &hi[d])))
            return CLI_EUSAGE;
    }
}

/* Sets MASK[i] for each element i (row-major in AI's array) whose every
 * index d lies in LO[d]..HI[d]. */
static void
show_mark(const fgm_array_info *ai, const long *lo, const long *hi,
          unsigned char *mask)
{
    long at, rest;
    int i, d, in;

    for (i = 0; i < ai->count; i++) {
        rest = i;
        in = 1;
        for (d = ai->ndims - 1; d >= 0 && in; d--) {
            at = rest % ai->dims[d];
            rest /= ai->dims[d];
            in = at >= lo[d] && at <= hi[d];
        }
        if (in)
            mask[i] = 1;
    }
}

int
run_parse_show(const fgm_ir *ir, const char *list, run_cfg *cfg)
{
    int nvars = fgm_ir_nvars(ir), i, code;
    long lo[FGM_IR_MAXDIMS], hi[FGM_IR_MAXDIMS];
    const char *p = list;

    if (!cfg->show)
        cfg->show = calloc((size_t)nvars + (size_t)fgm_ir_ndirichlet(ir)
                           + 1, 1);
    if (!cfg->show)
        return cli_fail(CLI_EINTERNAL, "run: out of memory");
    for (;;) {
        size_t len, nlen;
        char name[FGM_IR_MAXNAME], item[FGM_IR_MAXNAME + 64];
        fgm_array_info ai;

        p += strspn(p, " ");
        len = strcspn(p, ",");
        nlen = strcspn(p, "[ ,");
        while (len > 0 && p[len - 1] == ' ')
            len--;

        if (len == 0)
            return cli_fail(CLI_EUSAGE, "run: --show has an empty name");
        if (len >= sizeof item)
            return cli_fail(CLI_EUSAGE, "run: --show: '%.20s...' is longer "
                            "than any name", p);
        snprintf(item, sizeof item, "%.*s", (int)len, p);
        i = -1;
        if (nlen < sizeof name) {
            memcpy(name, p, nlen);
            name[nlen] = '\0';
            i = fgm_ir_array_index(ir, name);
        }
        if (i < 0) {
            fprintf(stderr, "fgm: run: --show: the model has no array "
                    "'%.*s'; its arrays:", (int)nlen, p);
            for (i = 0; fgm_ir_array_info(ir, i, &ai) == FGM_OK; i++)
                fprintf(stderr, "%s %s", i ? "," : "", ai.name);
            fputc('\n', stderr);
            return CLI_EUSAGE;
        }
        fgm_ir_array_info(ir, i, &ai);
        /* The exact backend prints the priors' posterior means, but
         * neither with --map nor beside max-marginals: it would print
         * nothing, and say nothing of why. */
        if (cfg->exact && ai.dirichlet
            && (cfg->map || cli_algo_is(ir, "bp-max")))
            return cli_fail(CLI_EUSAGE, "run: --show %s: --backend exact "
                            "prints no prior with --map or max-marginals "
                            "(bp-max)", item);
        if ((code = show_subscripts(&ai, item + nlen, item, lo, hi))
                != CLI_OK)
            return code;
        show_mark(&ai, lo, hi, cfg->show + (ai.dirichlet ? nvars : 0)
                               + ai.first);
        p += len + strspn(p + len, " ");
        if (!*p)
            return CLI_OK;
        p++;        /* the comma */
    }
}
