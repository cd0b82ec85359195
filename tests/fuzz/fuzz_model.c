/* tests/fuzz/fuzz_model.c: libFuzzer target for the .fgm model front end.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Feeds the input to fgm_compile_string (or, when the input holds a NUL
 * byte, to fgm_compile_file through a temporary file, as `fgm dump` does).
 * Leading lines "#D NAME=VALUE" (comments in the language) also become -D
 * options.  On success the IR is dumped (to /dev/null), hashed and
 * graphed; a small one (SMALL_VARS variables, SMALL_FACTORS factors) is
 * then opened interpreted and given INFER_SWEEPS sweeps of its own
 * algorithm, so that the engine sees what the front end accepts.
 *
 * Extra oracles (abort, so the fuzzer records them):
 *   - a failing status with no diagnostic at all (silent failure);
 *   - a diagnostic whose first line is not "NAME:LINE:COL: error: ..." or
 *     "NAME: error: ..." (positions must be >= 1), or the same with
 *     "warning" (a statement that adds no factor, a -D given twice);
 *   - a failing status with warnings only, or FGM_OK together with an
 *     error diagnostic;
 *   - an accepted model that the interpreter refuses to open (other than
 *     as unsupported by its algorithm) or run;
 *   - a marginal with a negative, infinite or NaN entry, or (unless the
 *     run reports a contradiction) one that does not sum to 1.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fgm.h"
#include "ir.h"

#define NAME "m.fgm"
#define SMALL_VARS 200
#define SMALL_FACTORS 2000
#define INFER_SWEEPS 3

static int ndiag;       /* diagnostics of this input */
static int nerror;      /* those that are errors, not warnings */
static FILE *devnull;
static char tmppath[64];

static const char *curname = NAME;

/* Whether MSG starts with KIND (error, warning) and ": ". */
static int
is_kind(const char *msg, const char *kind)
{
    size_t kl = strlen(kind);

    return strncmp(msg, kind, kl) == 0 && msg[kl] == ':' && msg[kl + 1] == ' ';
}

/* Checks the form of diagnostic MSG (see the top).  Returns 1 for an
 * error, 0 for a warning. */
static int
check_msg(const char *msg)
{
    size_t nl = strlen(curname);
    const char *p;
    long line, col;
    char *end;

    if (strncmp(msg, curname, nl) != 0 || msg[nl] != ':') {
        fprintf(stderr, "BAD DIAG (no file name): %s\n", msg);
        abort();
    }
    p = msg + nl + 1;
    if (*p == ' ' && (is_kind(p + 1, "error") || is_kind(p + 1, "warning")))
        return is_kind(p + 1, "error");
    line = strtol(p, &end, 10);
    if (end == p || *end != ':' || line < 1) {
        fprintf(stderr, "BAD DIAG (line): %s\n", msg);
        abort();
    }
    p = end + 1;
    col = strtol(p, &end, 10);
    if (end == p || *end != ':' || col < 1) {
        fprintf(stderr, "BAD DIAG (col): %s\n", msg);
        abort();
    }
    if (*end != ':' || *++end != ' '
        || !(is_kind(end + 1, "error") || is_kind(end + 1, "warning"))) {
        fprintf(stderr, "BAD DIAG (no error: or warning:): %s\n", msg);
        abort();
    }
    return is_kind(end + 1, "error");
}

/* Opens small IR (owned from now on) interpreted, runs it and checks its
 * marginals; frees IR either way. */
static void
infer(fgm_ir *ir)
{
    fgm_model_opts mo;
    fgm_run_opts ro;
    fgm_model *m = NULL;
    fgm_status st;
    double p[FGM_IR_MAXCARD], sum;
    int v, j, card, contradiction;

    if (ir->nvars > SMALL_VARS || ir->nfactors > SMALL_FACTORS) {
        fgm_ir_free(ir);
        return;
    }
    memset(&mo, 0, sizeof mo);
    mo.backend = FGM_BACKEND_INTERPRETED;
    st = fgm_model_open_ir(ir, &mo, &m, NULL, NULL);
    if (st == FGM_EUNSUPPORTED)
        return;     /* said so: bp-sum over a native alldiff of > 20 values
                     * (the front end takes it, for --algo bp-max) */
    if (st != FGM_OK) {
        fprintf(stderr, "accepted model not opened: %s\n",
                fgm_strerror(st));
        abort();
    }
    memset(&ro, 0, sizeof ro);
    ro.iterations = INFER_SWEEPS;
    st = fgm_model_run(m, &ro, NULL);
    if (st != FGM_OK) {
        fprintf(stderr, "accepted model not run: %s\n", fgm_strerror(st));
        abort();
    }
    contradiction = fgm_model_contradiction(m) >= 0;
    for (v = 0; v < ir->nvars; v++) {
        card = fgm_ir_card(ir, v);
        if (fgm_model_marginal(m, v, p) != FGM_OK)
            abort();
        for (sum = 0.0, j = 0; j < card; j++) {
            if (!(p[j] >= 0.0 && p[j] <= 1.0)) {
                fprintf(stderr, "variable %d value %d: marginal %g\n", v, j,
                        p[j]);
                abort();
            }
            sum += p[j];
        }
        if (!contradiction && !(sum > 1.0 - 1e-9 && sum < 1.0 + 1e-9)) {
            fprintf(stderr, "variable %d: marginal sums to %.17g\n", v, sum);
            abort();
        }
    }
    /* The run's log evidence: a number or -inf (at a contradiction),
     * never NaN (FGM_EINTERNAL) or +inf; refused only for bp-max over a
     * wide alldiff. */
    st = fgm_model_log_evidence(m, &sum);
    if (st == FGM_OK ? isnan(sum) || sum == HUGE_VAL
                       || (contradiction && sum != -HUGE_VAL)
                     : st != FGM_EUNSUPPORTED) {
        fprintf(stderr, "log evidence: %s, %.17g\n", fgm_strerror(st), sum);
        abort();
    }
    fgm_model_free(m);
}

static void
diag(void *ctx, const char *msg)
{
    (void)ctx;
    ndiag++;
    if (getenv("FUZZ_SHOW"))
        fprintf(stderr, "%s\n", msg);
    nerror += check_msg(msg);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    const char *defs[4];
    char defbuf[4][64];
    int ndefs = 0;
    size_t off = 0;
    fgm_compile_opts opts;
    fgm_ir *ir = NULL;
    fgm_status st;

    if (!devnull)
        devnull = fopen("/dev/null", "w");
    memcpy(text, data, size);
    text[size] = '\0';
    /* -D options from leading "#D NAME=VALUE" lines. */
    while (ndefs < 4 && off + 3 <= size && memcmp(text + off, "#D ", 3) == 0) {
        const char *nlp = memchr(text + off, '\n', size - off);
        size_t l = (nlp ? (size_t)(nlp - text) : size) - off - 3;

        if (l >= sizeof defbuf[0])
            l = sizeof defbuf[0] - 1;
        memcpy(defbuf[ndefs], text + off + 3, l);
        defbuf[ndefs][l] = '\0';
        defs[ndefs] = defbuf[ndefs];
        ndefs++;
        if (!nlp)
            break;
        off = (size_t)(nlp - text) + 1;
    }
    memset(&opts, 0, sizeof opts);
    opts.defines = defs;
    opts.ndefines = ndefs;
    ndiag = nerror = 0;
    if (memchr(text, '\0', size)) {
        FILE *f;

        if (!tmppath[0])
            snprintf(tmppath, sizeof tmppath, "/tmp/fuzz_model_%d.fgm",
                     (int)getpid());
        f = fopen(tmppath, "wb");
        if (!f)
            abort();
        fwrite(data, 1, size, f);
        fclose(f);
        curname = tmppath;
        st = fgm_compile_file(tmppath, &opts, &ir, diag, NULL);
        curname = NAME;
    } else {
        st = fgm_compile_string(text, NAME, &opts, &ir, diag, NULL);
    }
    {
        if (st != FGM_OK && nerror == 0) {
            fprintf(stderr, "SILENT FAILURE: status %d, %d warnings and no "
                    "error\n", (int)st, ndiag);
            abort();
        }
        if (st == FGM_OK && nerror != 0) {
            fprintf(stderr, "OK with %d errors\n", nerror);
            abort();
        }
        if (st != FGM_OK && st != FGM_EPARSE && st != FGM_ESEMA) {
            fprintf(stderr, "unexpected status %d (%s)\n", (int)st,
                    fgm_strerror(st));
            abort();
        }
    }
    if (st == FGM_OK) {
        if (!ir)
            abort();
        fgm_ir_dump(ir, devnull);
        (void)fgm_ir_hash(ir);
        fgm_ir_graph(ir, devnull);
        infer(ir);
    } else if (ir) {
        abort();
    }
    free(text);
    return 0;
}
