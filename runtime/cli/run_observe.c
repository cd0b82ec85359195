/* runtime/cli/run_observe.c: `fgm run --observe`'s assignment files.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An observation file holds puzzles (read by the library's puzzle reader)
 * or assignment lines, told apart by its first line of data
 * (observation_kind).  Assignment lines give each variable and node a
 * value on one line at most, in sets separated by lines of "---":
 *     roll = 1 6 6 2 .     # labels of a discrete array, '.' unobserved
 *     roll[3] = 2          # one element
 *     y[1] = 0 2 1 1 .     # row 1 of a 2-D array
 *     p = 2 1 1 1 1 1      # pseudo-counts of a Dirichlet array (K each)
 * Every error names the file, line and column (tests/fuzz/fuzz_observe.c
 * holds the reader to that).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* Records that value I of array A is given on line LINENO (column COL of
 * PATH): variable a->first + I, or for a prior node a->first + I / K.
 * With CLUE_NODE (fgm_ir_clue_nodes; for a variable's value, not its
 * weights) a variable's value is a point mass on its node, if it has
 * one, and gives the node too, marked by a negative line.  Returns 0
 * after an error when an earlier line gave it (GIVEN_ON: the line per
 * variable, then per node; 0 for none). */
static int
seen_once(const fgm_ir *ir, long *given_on, const int *clue_node,
          const fgm_array_info *a, int i, const char *path, long lineno,
          int col)
{
    char name[FGM_IR_MAXNAME + 64], node[FGM_IR_MAXNAME + 64];
    int nvars = fgm_ir_nvars(ir);
    int item = a->dirichlet ? a->first + i / a->card : a->first + i;
    long *at = given_on + (a->dirichlet ? nvars : 0) + item;
    int d = !a->dirichlet && clue_node ? clue_node[item] : -1;
    long *node_at = d >= 0 ? given_on + nvars + d : NULL;

    if ((*at == 0 || labs(*at) == lineno)
        && (!node_at || *node_at == 0 || labs(*node_at) == lineno)) {
        *at = lineno;
        if (node_at)
            *node_at = -lineno;
        return 1;
    }
    if (a->dirichlet)
        fgm_ir_node_name(ir, item, name, sizeof name);
    else
        fgm_ir_var_name(ir, item, name, sizeof name);
    if (*at == 0 || labs(*at) == lineno) {
        /* A clue after the pseudo-counts of its node. */
        fgm_ir_node_name(ir, d, node, sizeof node);
        cli_fail(CLI_EINPUT, "%s:%ld:%d: error: the value of %s is a point "
                 "mass on %s, whose pseudo-counts line %ld gives", path,
                 lineno, col, name, node, *node_at);
    } else if (*at < 0) {
        cli_fail(CLI_EINPUT, "%s:%ld:%d: error: %s is already observed on "
                 "line %ld, as the point mass of a clue on a variable that "
                 "alone draws from it", path, lineno, col, name, -*at);
    } else {
        cli_fail(CLI_EINPUT, "%s:%ld:%d: error: %s is already observed on "
                 "line %ld", path, lineno, col, name, *at);
    }
    return 0;
}

/* What separates the tokens of an observation line: every byte isspace
 * takes for a blank, as the line's leading blanks are skipped (a form
 * feed between a name and its '=' was quoted unseen in the name). */
#define OBS_BLANKS " \t\r\n\f\v"
/* Values a variable can have at most: the IR's FGM_IR_MAXCARD, which
 * the public API does not export. */
#define OBS_MAXCARD 64

/* Between values a comma separates too (o = 0, 1, 2), as in the lists of
 * a model and the cells of a puzzle file. */
#define OBS_VALUE_SEPS OBS_BLANKS ","

/* Reads the target of an assignment line, S (its '=' already cut off to
 * '\0', so S ends there; LINE is the whole line, for columns): "NAME", or
 * "NAME[i][j]..." with decimal subscripts for the leading dimensions
 * (one for each names one element; fewer, the block of the elements they
 * lead: y[1] is row 1 of a 2-D array), blanks allowed around and inside
 * the brackets (y[ 0 ][ 1 ] was cut at its first blank and refused as
 * "'y[': a subscript of y ...").  Sets *AI to NAME's array, *AT and
 * *COUNT to the row-major index of the first element named and how many
 * (0 and the array's count without subscripts) and WHAT to the target
 * without blanks, for messages.  Returns 0 after reporting an error. */
static int
read_target(const fgm_ir *ir, const char *line, const char *s,
            const char *path, long lineno, fgm_array_info *ai, int *at,
            int *count, char *what, size_t size)
{
    char name[FGM_IR_MAXNAME];
    const char *start = s + strspn(s, OBS_BLANKS), *p;
    size_t len = strcspn(start, OBS_BLANKS "["), used;
    int shown = (int)strlen(start), d = 0;

    while (shown > 0 && strchr(OBS_BLANKS, start[shown - 1]))
        shown--;            /* the target as written, for messages */
    if (len < sizeof name) {
        memcpy(name, start, len);
        name[len] = '\0';
    }
    if (len == 0) {
        cli_fail(CLI_EINPUT, "%s:%ld:%d: error: expected a name before "
                 "'='", path, lineno, (int)(start - line) + 1);
        return 0;
    }
    if (len >= sizeof name
        || fgm_ir_array_info(ir, fgm_ir_array_index(ir, name), ai)
           != FGM_OK) {
        cli_fail(CLI_EINPUT, "%s:%ld:%d: error: unknown array '%.*s'",
                 path, lineno, (int)(start - line) + 1, (int)len, start);
        return 0;
    }
    *at = 0;
    *count = ai->count;
    used = (size_t)snprintf(what, size, "%s", name);
    for (p = start + len + strspn(start + len, OBS_BLANKS); *p == '[';
         p += strspn(p, OBS_BLANKS)) {
        const char *q = p + 1 + strspn(p + 1, OBS_BLANKS), *digits = q;
        long v = 0;

        if (d == ai->ndims)
            break;          /* one subscript too many: said below */
        while (isdigit((unsigned char)*q) && v <= ai->dims[d])
            v = 10 * v + (*q++ - '0');
        if (q == digits || q[strspn(q, OBS_BLANKS)] != ']'
            || v >= ai->dims[d]) {
            cli_fail(CLI_EINPUT, "%s:%ld:%d: error: '%.*s': a subscript of "
                     "%s is an index 0..%d", path, lineno,
                     (int)(p - line) + 1, shown, start, name,
                     ai->dims[d] - 1);
            return 0;
        }
        *at = *at * ai->dims[d] + (int)v;
        *count /= ai->dims[d++];
        if (used < size)
            used += (size_t)snprintf(what + used, size - used, "[%ld]", v);
        p = q + strspn(q, OBS_BLANKS) + 1;
    }
    if (*p == '[' && ai->ndims == 0) {
        cli_fail(CLI_EINPUT, "%s:%ld:%d: error: '%.*s': %s has no "
                 "dimensions: write it without a subscript", path, lineno, (int)(p - line) + 1,
                 shown, start, name);
        return 0;
    }
    if (*p == '[') {
        cli_fail(CLI_EINPUT, "%s:%ld:%d: error: '%.*s': %s has %d "
                 "dimension%s, so at most %d subscript%s", path, lineno,
                 (int)(p - line) + 1, shown, start, name, ai->ndims,
                 ai->ndims == 1 ? "" : "s", ai->ndims,
                 ai->ndims == 1 ? "" : "s");
        return 0;
    }
    *at *= *count;          /* the block's first element */
    if (*p) {
        cli_fail(CLI_EINPUT, "%s:%ld:%d: error: expected '=' after %s, not "
                 "'%.*s'", path, lineno, (int)(p - line) + 1, what,
                 (int)strcspn(p, OBS_BLANKS), p);
        return 0;
    }
    return 1;
}

/* Whether LINE (number LINENO of PATH, its comment cut off) is printable
 * ASCII and blanks; else reports its first other byte and returns 0.  In
 * a name or a value such a byte was quoted unseen: a UTF-8 byte-order
 * mark gave "unknown array 'roll'", the mark invisible before "roll".
 * Every such byte was refused already, as part of some token, so no line
 * that ran is refused now. */
static int
ascii_line(const char *line, const char *path, long lineno)
{
    const unsigned char *p = (const unsigned char *)line;

    for (; *p; p++) {
        if ((*p < 0x7f && isprint(*p)) || isspace(*p))
            continue;
        if (lineno == 1 && p == (const unsigned char *)line
            && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
            cli_fail(CLI_EINPUT, "%s:1:1: error: UTF-8 byte-order mark "
                     "(bytes ef bb bf): an observation file is plain "
                     "ASCII", path);
        else
            cli_fail(CLI_EINPUT, "%s:%ld:%d: error: bad byte 0x%02x: an "
                     "observation file is plain ASCII outside comments",
                     path, lineno, (int)(p - (const unsigned char *)line)
                                   + 1, *p);
        return 0;
    }
    return 1;
}

/* The comma of values V that leaves an empty value before it or at the
 * end ("1,,2", "1, 2,"), or NULL: strtok would pass over the hole and
 * the values after it would shift by one.  ('.' leaves a value out.) */
static const char *
empty_value(const char *v)
{
    const char *comma = NULL;
    int have = 0;           /* a value since the last comma */

    for (; *v; v++) {
        if (*v == ',') {
            if (!have)
                return v;
            have = 0;
            comma = v;
        } else if (!strchr(OBS_BLANKS, *v)) {
            have = 1;
        }
    }
    return comma && !have ? comma : NULL;
}

/* Whether S (a line past its blanks, its comment cut off) is a line of
 * three or more '-' alone: the end of an observation set. */
static int
set_separator(const char *s)
{
    size_t n = strspn(s, "-");

    return n >= 3 && s[n + strspn(s + n, OBS_BLANKS)] == '\0';
}

/* The exact backend's soft evidence: weights W on variable V as one more
 * evidence factor, on O's copy of the model for this set (made on the
 * first weights of the set).  Returns 0 after reporting an error. */
static int
soft_evidence(const fgm_ir *ir, int v, const double *w, obs_sink *o)
{
    fgm_status st = FGM_ENOMEM;

    if (!o->soft)
        o->soft = fgm_ir_copy(ir);
    if (!o->soft || (st = fgm_ir_add_evidence(o->soft, v, w)) != FGM_OK) {
        cli_fail(cli_exit_code(st), "run: %s", fgm_strerror(st));
        return 0;
    }
    return 1;
}

/* The weights of one variable, "[w1, w2, ...]" at VAL (the value of an
 * assignment line LINE, LINENO of PATH), for element BASE of array A
 * (WHAT in messages; WANT elements named) into O: likelihoods, as an
 * evidence statement's list.  GIVEN_ON as apply_assignments keeps it.
 * Returns 0 after reporting an error. */
static int
apply_weights(const fgm_ir *ir, const char *line, char *val, const char *path,
              long lineno, const fgm_array_info *a, int base, int want,
              const char *what, long *given_on, obs_sink *o)
{
    double w[OBS_MAXCARD], top = 0.0;
    char *p = val + 1, *end;
    int n = 0, comma = 0, decimal;

#define COL(q) ((int)((q) - line) + 1)
    if (a->dirichlet || want != 1) {
        cli_fail(CLI_EINPUT, "%s:%ld:%d: error: a list of weights observes "
                 "one variable%s", path, lineno, COL(val), a->dirichlet
                 ? "; pseudo-counts are written without brackets"
                 : ": name one element");
        return 0;
    }
    for (;;) {
        p += strspn(p, OBS_BLANKS);
        if (*p == ']' && n > 0 && !comma)
            break;
        if (*p == ']' || *p == ',') {
            /* "[]", "[1,, 2]", "[1, 2,]": a hole, as values refuse it. */
            cli_fail(CLI_EINPUT, "%s:%ld:%d: error: an empty weight for %s",
                     path, lineno, COL(p), what);
            return 0;
        }
        if (!*p) {
            cli_fail(CLI_EINPUT, "%s:%ld:%d: error: the weights of %s have "
                     "no ']'", path, lineno, COL(val), what);
            return 0;
        }
        if (n == a->card || n == (int)(sizeof w / sizeof *w)) {
            cli_fail(CLI_EINPUT, "%s:%ld:%d: error: %s has %d values: %d "
                     "weights, got more", path, lineno, COL(p), what,
                     a->card, a->card);
            return 0;
        }
        errno = 0;
        w[n] = strtod(p, &end);
        /* Written in decimal: strtod also reads "0x10" and "inf". */
        decimal = p + strspn(p, "+-.0123456789eE") >= end;
        if (errno == ERANGE && w[n] == 0.0 && end > p && decimal) {
            /* As the model language says of such a number: a weight of 0
             * would rule the value out, where the file meant a tiny one. */
            cli_fail(CLI_EINPUT, "%s:%ld:%d: error: weight for %s too small "
                     "for a double: it would be read as 0", path, lineno,
                     COL(p), what);
            return 0;
        }
        if (end == p || !(w[n] >= 0.0 && isfinite(w[n]))
            /* Underflow to a subnormal is a weight; overflow not. */
            || (errno && !(errno == ERANGE && w[n] < 1.0))
            || !decimal
            /* One number a token: "1.5.5" and "1+2" were two. */
            || !(*end == ',' || *end == ']' || strchr(OBS_BLANKS, *end))) {
            cli_fail(CLI_EINPUT, "%s:%ld:%d: error: bad weight for %s: a "
                     "weight is a decimal number >= 0", path, lineno,
                     COL(p), what);
            return 0;
        }
        top = w[n] > top ? w[n] : top;
        n++;
        /* Commas or blanks between weights, as between values. */
        p = end + strspn(end, OBS_BLANKS);
        comma = *p == ',';
        p += comma;
    }
    if (n != a->card) {
        cli_fail(CLI_EINPUT, "%s:%ld:%d: error: %s has %d values: %d "
                 "weights, got %d", path, lineno, COL(val), what, a->card,
                 a->card, n);
        return 0;
    }
    if (top == 0.0 || p[1 + strspn(p + 1, OBS_BLANKS)]) {
        cli_fail(CLI_EINPUT, "%s:%ld:%d: error: %s%s", path, lineno,
                 COL(top == 0.0 ? val : p + 1), top == 0.0
                 ? "every weight is zero for " : "nothing may follow the "
                 "weights' ']'", top == 0.0 ? what : "");
        return 0;
    }
    if (!seen_once(ir, given_on, NULL, a, base, path, lineno, COL(val)))
        return 0;
    if (o->exact && o->given)
        return soft_evidence(ir, a->first + base, w, o);
    if (o->model && fgm_model_observe_weights(o->model, a->first + base, w)
                        != FGM_OK) {
        cli_fail(CLI_EINTERNAL, "run: out of memory");
        return 0;
    }
    return 1;
#undef COL
}

/* Applies the assignment lines of F to O, up to a set separator line
 * (set_separator: *MORE set, the lines after it another observation set)
 * or the end of F; *GOT says how many there were, *LINENO_IO counts F's
 * lines across calls.  Returns 0
 * after reporting a malformed line, or a variable or Dirichlet node
 * given a value on two lines of one set: the later line silently won, so
 * which observation ran depended on the order of lines that contradict
 * each other ('.' gives no value, so lines may share out an array). */
int
apply_assignments(const fgm_ir *ir, FILE *f, const char *path, obs_sink *o,
                  long *lineno_io, int *more, int *got)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = *lineno_io;
    int ok = 1, nvars = fgm_ir_nvars(ir);
    /* The line that gave each variable, then each node, its value. */
    long *given_on = calloc((size_t)nvars
                            + (size_t)fgm_ir_ndirichlet(ir) + 1,
                            sizeof *given_on);
    /* The node a value of each variable is a point mass on, or -1. */
    int *clue_node = malloc(((size_t)nvars + 1) * sizeof *clue_node);

    if (!given_on || !clue_node || fgm_ir_clue_nodes(ir, clue_node)
                                   != FGM_OK) {
        free(given_on);
        free(clue_node);
        cli_fail(CLI_EINTERNAL, "run: out of memory");
        return 0;
    }

/* The 1-based column of P in the current line (tokens point into it). */
#define COL(p) ((int)((p) - line) + 1)
    while (ok && (len = getline(&line, &cap, f)) >= 0) {
        char *s = line, *eq, *tok, *save = NULL;
        fgm_array_info ai, *a = NULL;
        int i = 0, want, base = 0;
        double node_sum = 0.0;  /* a checked node's pseudo-counts so far */
        char what[FGM_IR_MAXNAME + 64];     /* the array, or the element */

        lineno++;
        if ((size_t)len != strlen(line)) {
            /* The rest of the line would be dropped unseen. */
            cli_fail(CLI_EINPUT, "%s:%ld:%d: error: NUL byte in input", path,
                     lineno, COL(line + strlen(line)));
            ok = 0;
            break;
        }
        if ((eq = strchr(s, '#')))
            *eq = '\0';
        if (!ascii_line(line, path, lineno)) {
            ok = 0;
            break;
        }
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            continue;
        if (set_separator(s)) {
            *more = 1;
            break;
        }
        if (++*got == 1)
            o->set_line = lineno;
        eq = strchr(s, '=');
        if (!eq) {
            cli_fail(CLI_EINPUT, "%s:%ld:%d: error: expected NAME = values "
                     "(a file holds assignment lines or puzzles, not both, "
                     "judged by its first line)", path, lineno, COL(s));
            ok = 0;
            break;
        }
        *eq = '\0';
        if (!read_target(ir, line, s, path, lineno, &ai, &base, &want,
                         what, sizeof what)) {
            ok = 0;
            break;
        }
        a = &ai;
        /* Values: one per variable, or K pseudo-counts per node, of the
         * elements named, from value BASE. */
        if (a->dirichlet) {
            want *= a->card;
            base *= a->card;
        }
        tok = eq + 1 + strspn(eq + 1, OBS_BLANKS);
        if (*tok == '[') {
            /* Weights of one variable: soft evidence. */
            ok = apply_weights(ir, line, tok, path, lineno, a, base, want,
                               what, given_on, o);
            continue;
        }
        if ((tok = (char *)empty_value(eq + 1)) != NULL) {
            cli_fail(CLI_EINPUT, "%s:%ld:%d: error: an empty value before "
                     "this comma ('.' leaves a value out)", path, lineno,
                     COL(tok));
            ok = 0;
            break;
        }
        save = NULL;
        for (tok = strtok_r(eq + 1, OBS_VALUE_SEPS, &save); tok && ok;
             tok = strtok_r(NULL, OBS_VALUE_SEPS, &save), i++) {
            char *end;
            double x;

            if (i >= want)
                break;      /* tok stays set: too many values */
            if (!a->dirichlet && strcmp(tok, ".") == 0)
                continue;
            if (!seen_once(ir, given_on, clue_node, a, base + i, path,
                           lineno, COL(tok))) {
                ok = 0;
                break;
            }
            errno = 0;
            x = strtod(tok, &end);
            if (errno || *end || end == tok
                /* Written in decimal, a variable's value as an integer:
                 * strtod also reads "0x10" and "1.0" passed for 1. */
                || tok[strspn(tok, a->dirichlet ? "+-.0123456789eE"
                                                : "+-0123456789")] != '\0'
                /* Range first: (int)x is undefined outside int. */
                || (!a->dirichlet
                    && (!(x >= a->lo && x < a->lo + a->card)
                        || x != (int)x))
                || (a->dirichlet && !(x > 0.0 && isfinite(x)))) {
                if (a->dirichlet && errno == ERANGE && x > 1.0)
                    cli_fail(CLI_EINPUT, "%s:%ld:%d: error: bad value '%s' "
                             "for %s: too large for a double (a pseudo-"
                             "count's sum is at most %g)", path, lineno,
                             COL(tok), tok, what, FGM_MAX_PSEUDO_COUNT);
                else if (a->dirichlet)
                    cli_fail(CLI_EINPUT, "%s:%ld:%d: error: bad value '%s' "
                             "for %s: a pseudo-count is a decimal number "
                             "> 0", path, lineno, COL(tok), tok, what);
                else
                    cli_fail(CLI_EINPUT, "%s:%ld:%d: error: bad value '%s' "
                             "for %s: a value is an integer %d..%d, or '.'",
                             path, lineno, COL(tok), tok, what, a->lo,
                             a->lo + a->card - 1);
                ok = 0;
            } else if (!a->dirichlet) {
                if (o->model)
                    fgm_model_observe_clue(o->model, a->first + base + i,
                                           (int)x - a->lo);
                /* The engine's too: what its run's warnings know of
                 * the set (run_engine). */
                if (o->given)
                    o->given[a->first + base + i] = (int)x - a->lo;
            } else if (!o->model && !o->exact) {
                /* Checked only: fgm_model_observe_dirichlet's bound on
                 * the node's sum. */
                node_sum = i % a->card ? node_sum + x : x;
                if (i % a->card == a->card - 1
                    && !(node_sum <= FGM_MAX_PSEUDO_COUNT)) {
                    cli_fail(CLI_EINPUT, "%s:%ld:%d: error: bad pseudo-"
                             "counts for %s: each > 0, their sum at most "
                             "%g", path, lineno, COL(tok), what,
                             FGM_MAX_PSEUDO_COUNT);
                    ok = 0;
                }
            } else if (o->exact) {
                cli_fail(CLI_EINPUT, "%s:%ld:%d: error: pseudo-counts of %s "
                         "need an engine backend (the exact backend uses "
                         "the model's prior)", path, lineno, COL(tok),
                         a->name);
                ok = 0;
            } else {
                /* Pseudo-counts, K per node, nodes in order. */
                int node = a->first + (base + i) / a->card;

                o->vec[i % a->card] = x;
                if (i % a->card == a->card - 1
                    && fgm_model_observe_dirichlet(o->model, node, o->vec,
                                                   0) != FGM_OK) {
                    cli_fail(CLI_EINPUT, "%s:%ld:%d: error: bad pseudo-"
                             "counts for %s: each > 0, their sum at most "
                             "%g", path, lineno, COL(tok), what,
                             FGM_MAX_PSEUDO_COUNT);
                    ok = 0;
                }
            }
        }
        if (ok && (tok || i != want)) {
            if (tok)
                cli_fail(CLI_EINPUT, "%s:%ld:%d: error: %s wants %d "
                         "value%s, got more", path, lineno, COL(tok),
                         what, want, want == 1 ? "" : "s");
            else
                cli_fail(CLI_EINPUT, "%s:%ld:%d: error: %s wants %d "
                         "value%s, not %d", path, lineno, COL(eq), what,
                         want, want == 1 ? "" : "s", i);
            ok = 0;
        }
    }
#undef COL
    *lineno_io = lineno;
    free(line);
    free(given_on);
    free(clue_node);
    return ok;
}

/* Reads the next observation set of assignment file F (PATH in messages)
 * into O, passing over sets of no lines (--- twice).  *MORE says whether
 * a separator ended the set read last (set it before the first);
 * *LINENO counts F's lines.  Unless FIRST, the set before is cleared
 * first: nothing of it stays observed.  Returns 1 for a set, 0 when none
 * is left, -1 after reporting an error. */
int
next_assignment_set(const fgm_ir *ir, FILE *f, const char *path,
                    obs_sink *o, int first, long *lineno, int *more)
{
    int got = 0, v;

    while (*more && got == 0) {
        if (!first) {
            if (o->model)
                fgm_model_clear(o->model);
            if (o->given)
                for (v = 0; v < fgm_ir_nvars(ir); v++)
                    o->given[v] = -1;
        }
        fgm_ir_free(o->soft);   /* the weights of the set before */
        o->soft = NULL;
        *more = 0;
        if (!apply_assignments(ir, f, path, o, lineno, more, &got))
            return -1;
    }
    return got > 0 || first;
}

/* What an observation file holds: judged by its first line that is not
 * blank or a comment (whole lines: a long comment cut by a fixed buffer
 * looked like data). */
int
observation_kind(FILE *f, long *line)
{
    char *buf = NULL;
    size_t cap = 0;
    int kind = OBS_NONE;

    *line = 0;
    while (getline(&buf, &cap, f) >= 0) {
        char *s = buf;

        /* Judged past a byte-order mark, so that the reader of the kind
         * that follows it names the mark (a mark before a comment made
         * a puzzle line of the mark alone). */
        if (++*line == 1 && strncmp(s, "\xef\xbb\xbf", 3) == 0)
            s += 3;
        while (isspace((unsigned char)*s))
            s++;
        if (*s && *s != '#') {
            /* An '=' in a trailing comment does not make an assignment
             * ("1... # x=1" is a puzzle). */
            s[strcspn(s, "#")] = '\0';
            if (set_separator(s))
                continue;   /* sets of assignments may start with one */
            kind = strchr(s, '=') ? OBS_ASSIGN : OBS_PUZZLES;
            break;
        }
    }
    free(buf);
    rewind(f);
    return kind;
}
