/* tests/fuzz/fuzz_observe.c: libFuzzer target for `fgm run --observe`'s
 * assignment lines (runtime/cli/run_observe.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The reader lives in the CLI: this file links run_observe.c, the CLI's
 * common.c and the library.  The
 * model is a die with a Dirichlet prior (models/dice.fgm, with a second,
 * two-dimensional array): a discrete array whose labels start at 1, and
 * pseudo-counts; and two cells of the robust Sudoku model's kind, each
 * alone drawn from an observed prior, whose clues are point masses on
 * it (and clash with its pseudo-counts).  Each input goes through observation_kind, as `fgm run`
 * reads a file; an assignment file is then applied twice, to an
 * interpreted engine model and to the exact backend's list of given
 * values (a fresh model each time: observations accumulate).
 *
 * Oracles: apply_assignments fails exactly when it said why, and on the
 * dry check of a sink with neither model nor clues (obs_file.c's
 * check_all) exactly when it fails on the backend's; every
 * message is "o.txt:LINE:COL: error: ..." with LINE and COL >= 1 (the
 * messages are caught by pointing stderr at a memory stream); a value
 * it accepts is within its variable's labels.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#define NAME "o.txt"

static const char model_text[] =
    "model dice\n"
    "prior p ~ dirichlet([1, 1, 1, 1, 1, 1])\n"
    "observed var roll[20] in 1..6 ~ discrete(p)\n"
    "observed var grid[2][3] in 0..2\n"
    "observed prior q[2] ~ dirichlet(3)\n"
    "var cell[2] in 0..2 ~ discrete(q)\n"
    "infer ep(iterations = 2)\n";

static fgm_ir *model_ir;

/* Aborts unless every line of TEXT (LEN bytes) is a located error. */
static void
check_messages(const char *text, size_t len)
{
    const char *p = text, *end = text + len, *nl;
    char *after;
    long line, col;

    for (; p < end; p = nl + 1) {
        nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            nl = end;
        if (strncmp(p, NAME ":", strlen(NAME) + 1) != 0) {
            fprintf(stderr, "BAD MESSAGE (name): %.*s\n", (int)(nl - p), p);
            abort();
        }
        line = strtol(p + strlen(NAME) + 1, &after, 10);
        if (line < 1 || *after != ':') {
            fprintf(stderr, "BAD MESSAGE (line): %.*s\n", (int)(nl - p), p);
            abort();
        }
        col = strtol(after + 1, &after, 10);
        if (col < 1 || strncmp(after, ": error: ", 9) != 0) {
            fprintf(stderr, "BAD MESSAGE (column): %.*s\n", (int)(nl - p),
                    p);
            abort();
        }
    }
}

/* Applies the assignment file DATA to SINK with stderr caught; checks
 * the result against what was said.  Returns whether it was accepted
 * (1 for a file of puzzles, which goes elsewhere). */
static int
apply_checked(const uint8_t *data, size_t size, obs_sink *sink)
{
    FILE *f = fmemopen((void *)data, size, "r"), *saved = stderr;
    char *said = NULL;
    size_t said_len = 0;
    long first, lineno = 0;
    int ok = 1, more = 1, got;

    if (!f)
        abort();
    if (observation_kind(f, &first) != OBS_ASSIGN) {
        fclose(f);
        return 1;
    }
    stderr = open_memstream(&said, &said_len);
    if (!stderr)
        abort();
    /* Every set of the file in turn, as cmd_run splits them (without
     * clearing the sink between them, as cmd_run does: the oracles hold
     * line by line). */
    while (ok && more) {
        more = got = 0;
        ok = apply_assignments(model_ir, f, NAME, sink, &lineno, &more,
                               &got);
    }
    fclose(stderr);
    stderr = saved;
    fclose(f);
    if (getenv("FUZZ_SHOW") && said_len)
        fprintf(stderr, "%s", said);
    if (ok != (said_len == 0)) {
        fprintf(stderr, "apply_assignments returned %d after saying "
                "\"%s\"\n", ok, said);
        abort();
    }
    check_messages(said, said_len);
    free(said);
    return ok;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fgm_compile_opts co;
    fgm_model_opts mo;
    fgm_model *fm = NULL;
    obs_sink sink;
    double vec[6];
    int given[40], v, nvars, engine_ok, exact_ok;

    if (size == 0)
        return 0;
    memset(&co, 0, sizeof co);
    if (!model_ir
        && fgm_compile_string(model_text, "dice", &co, &model_ir, NULL,
                              NULL) != FGM_OK)
        abort();
    nvars = fgm_ir_nvars(model_ir);
    if (nvars > (int)(sizeof given / sizeof *given))
        abort();
    memset(&mo, 0, sizeof mo);
    mo.backend = FGM_BACKEND_INTERPRETED;
    if (fgm_model_open_ir(fgm_ir_copy(model_ir), &mo, &fm, NULL, NULL)
        != FGM_OK)
        abort();
    memset(&sink, 0, sizeof sink);
    sink.model = fm;
    sink.vec = vec;
    engine_ok = apply_checked(data, size, &sink);
    fgm_model_free(fm);

    for (v = 0; v < nvars; v++)
        given[v] = -1;
    sink.model = NULL;
    sink.given = given;
    sink.exact = 1;
    exact_ok = apply_checked(data, size, &sink);
    for (v = 0; v < nvars; v++)
        if (given[v] < -1 || given[v] >= 6) {
            fprintf(stderr, "variable %d given label index %d\n", v,
                    given[v]);
            abort();
        }

    /* The check `fgm run` makes of the whole file before any set runs
     * (a sink with neither model nor clues) accepts exactly what the
     * backend's own pass does: a set run after it never fails. */
    sink.given = NULL;
    for (sink.exact = 0; sink.exact <= 1; sink.exact++)
        if (apply_checked(data, size, &sink)
            != (sink.exact ? exact_ok : engine_ok)) {
            fprintf(stderr, "the dry check (exact %d) and the backend's "
                    "pass disagree\n", sink.exact);
            abort();
        }
    /* The last set's soft evidence, as cmd_run's worker frees it. */
    fgm_ir_free(sink.soft);
    return 0;
}
