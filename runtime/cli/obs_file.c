/* runtime/cli/obs_file.c: observation files, read whole, checked, walked.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `fgm run --observe` and `fgm bench --model --observe` read their
 * observations through this: the whole input is read into memory (a pipe
 * can then be judged and walked more than once), its kind told from its
 * first line of data (puzzles or assignment sets, run_observe.c), and
 * every line checked before the first set is applied, so that a bad line
 * in the last set is reported before a plugin is built and before the
 * sets above it print their results.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* Largest observation input read whole (the model reader's limit). */
#define MAX_OBSERVE (64L << 20)

/* Reads IN to its end into O's text.  Returns CLI_OK, or the exit code
 * after saying what stopped it. */
static int
read_whole(obs_file *o, FILE *in)
{
    size_t got;

    do {
        char *q;

        if (o->len > MAX_OBSERVE)
            return cli_fail(CLI_EINPUT, "%s: error: larger than %ld bytes",
                            o->shown, MAX_OBSERVE);
        q = realloc(o->text, o->len + 65536);
        if (!q)
            return cli_fail(CLI_EINTERNAL, "%s: out of memory", o->cmd);
        o->text = q;
        got = fread(o->text + o->len, 1, 65536, in);
        o->len += got;
    } while (got > 0);
    /* A read error (a folder, an I/O error) is not an end of input: part
     * of a file would be observed as if it were all of it. */
    if (ferror(in))
        return cli_fail(CLI_EINPUT, "%s: error: cannot read: %s", o->shown,
                        strerror(errno));
    return CLI_OK;
}

/* Whether puzzle lines can observe IR's grid: a puzzle's symbols 1..N
 * (0 and '.' being empty cells) are read as the grid's values 1..N, the
 * labels an assignment line or a fix string would give, only when the
 * grid's labels are 1..N.  Otherwise ('in 0..2': symbol 1 would have been
 * the value 0) says so at O's first line of data. */
static int
grid_labels_ok(const obs_file *o, const fgm_ir *ir)
{
    fgm_array_info ai;

    if (fgm_ir_array_info(ir, fgm_ir_var_array(ir, 0), &ai) != FGM_OK
        || ai.lo == 1)
        return 1;
    cli_fail(CLI_EINPUT, "%s:%ld: error: a puzzle line gives the symbols "
             "1..%d, but %s takes the values %d..%d: write its values on "
             "an assignment line instead ('%s = ...', '.' for a free cell)",
             o->shown, o->first_line, ai.card, ai.name, ai.lo,
             ai.lo + ai.card - 1, ai.name);
    return 0;
}

/* Opens O's text for a walk from its first set.  Returns CLI_OK or the
 * exit code after saying why not. */
static int
start(obs_file *o)
{
    o->f = fmemopen(o->text, o->len, "r");
    if (!o->f)
        return cli_fail(CLI_EINTERNAL, "%s: out of memory", o->cmd);
    o->lineno = 0;
    o->more = 1;
    o->first = 1;
    if (o->assign)
        return CLI_OK;
    o->rd = fgm_puzzle_reader_file(o->f, o->shown, o->n, o->box, cli_diag,
                                   NULL);
    return o->rd ? CLI_OK : CLI_EINPUT;
}

static void
stop(obs_file *o)
{
    fgm_puzzle_reader_close(o->rd);
    o->rd = NULL;
    if (o->f)
        fclose(o->f);
    o->f = NULL;
}

/* Walks the whole of O, observing nothing (EXACT: as the exact backend
 * takes it).  Returns CLI_OK, or the exit code after the first error. */
static int
check_all(obs_file *o, const fgm_ir *ir, int exact)
{
    obs_sink none;
    int code, r;

    memset(&none, 0, sizeof none);
    none.exact = exact;
    if ((code = start(o)) != CLI_OK)
        return code;
    o->nsets = 0;
    while ((r = obs_file_next(o, ir, &none)) > 0)
        o->nsets++;
    stop(o);
    return r < 0 ? o->code : CLI_OK;
}

int
obs_file_open(obs_file *o, const char *cmd, const char *path,
              const fgm_ir *ir, const char *model, int n, int box, int exact)
{
    FILE *in;
    int code, kind;

    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->n = n;
    o->box = box;
    in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    o->shown = fgm_input_name(path);
    if (!in)
        return cli_fail(CLI_EINPUT, "%s: error: cannot open: %s", o->shown,
                        strerror(errno));
    code = read_whole(o, in);
    if (in != stdin)
        fclose(in);
    if (code != CLI_OK)
        return code;
    o->f = o->len ? fmemopen(o->text, o->len, "r") : NULL;
    if (o->len && !o->f)
        return cli_fail(CLI_EINTERNAL, "%s: out of memory", cmd);
    kind = o->f ? observation_kind(o->f, &o->first_line) : OBS_NONE;
    stop(o);
    if (kind == OBS_NONE)
        return cli_fail(CLI_EINPUT, "%s:1: error: no observation in the "
                        "input", o->shown);
    o->assign = kind == OBS_ASSIGN;
    if (!o->assign && n == 0)
        /* Said for a mistyped assignment too ("o[1] 1"): its form. */
        return cli_fail(CLI_EINPUT, "%s:%ld: error: a line without '=' is a "
                        "puzzle, but %s has no square 2-D var array starting "
                        "at its first variable to put puzzles on (an "
                        "assignment line is 'NAME = values')", o->shown,
                        o->first_line, model);
    if (!o->assign && !grid_labels_ok(o, ir))
        return CLI_EINPUT;
    if ((code = check_all(o, ir, exact)) != CLI_OK)
        return code;
    return start(o);
}

int
obs_file_next(obs_file *o, const fgm_ir *ir, obs_sink *sink)
{
    fgm_puzzle p;
    fgm_status st;
    int r, v;

    if (o->assign) {
        r = next_assignment_set(ir, o->f, o->shown, sink, o->first,
                                &o->lineno, &o->more);
        o->first = 0;
        if (r < 0)
            o->code = CLI_EINPUT;
        return r;
    }
    st = fgm_puzzle_read(o->rd, &p);
    if (st == FGM_EIO && !fgm_puzzle_reader_failed(o->rd))
        return 0;       /* the end of the input */
    if (st != FGM_OK) {
        o->code = cli_exit_code(st);
        return -1;
    }
    sink->set_line = p.line;
    if (sink->given) {
        fgm_puzzle_to_given(&p, sink->given);
        if (sink->model)
            for (v = 0; v < p.n * p.n; v++)
                fgm_model_observe_clue(sink->model, v, sink->given[v]);
    }
    return 1;
}

int
obs_file_walk(const obs_file *o, obs_file *walk)
{
    *walk = *o;
    walk->f = NULL;
    walk->rd = NULL;
    return start(walk);
}

void
obs_file_stop(obs_file *walk)
{
    stop(walk);
}

void
obs_file_close(obs_file *o)
{
    stop(o);
    free(o->text);
    o->text = NULL;
}
