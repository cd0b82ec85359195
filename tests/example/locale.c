/* tests/example/locale.c: the library in a program that has set a locale
 * whose decimal point is a comma (tests/cli/locale.sh).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   locale LOCALE OUT_DIR
 *
 * A program that calls setlocale (as any localized one does) must get the
 * same model as one that does not: "1.5" in a model read as 1.5, not 1;
 * generated C whose tables the C compiler reads as written ("2,718" would
 * be two numbers); the same canonical IR and hash; messages that quote a
 * number with its point (the compiler's, and fgm_diagf's).  The model is
 * a tree,
 * so bp-sum's marginals are exact: P(x) is proportional to
 * e(x) sum_y T(x, y).  Exits 0 when all holds, 77 when LOCALE cannot be
 * set or has a point anyway (the test is then skipped), else 1.
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fgm.h"

static const char model[] =
    "var x in 0..1\n"
    "var y in 0..1\n"
    "evidence x = [1.5, 2.5]\n"
    "table (x, y) = [[exp(1), 0.25], [1, exp(2)]]\n"
    "infer bp-sum(iterations = 10)\n";

static void
print_diag(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "locale: %s\n", msg);
}

/* Keeps the first line of the last message in CTX (a 256-byte buffer). */
static void
keep_diag(void *ctx, const char *msg)
{
    snprintf(ctx, 256, "%.*s", (int)strcspn(msg, "\n"), msg);
}

/* Whether compiling SRC fails with a message holding WANT, or (SRC NULL)
 * opening the model with deadline -0.5 does.  Prints what it got. */
static int
says(const char *src, const char *want)
{
    char got[256] = "";
    fgm_model_opts mo;
    fgm_model *m = NULL;
    fgm_ir *ir = NULL;

    if (src) {
        if (fgm_compile_string(src, "bad.fgm", NULL, &ir, keep_diag, got)
            == FGM_OK) {
            fgm_ir_free(ir);
            return 0;
        }
    } else {
        if (fgm_compile_string(model, "locale.fgm", NULL, &ir, print_diag,
                               NULL) != FGM_OK)
            return 0;
        memset(&mo, 0, sizeof mo);
        mo.backend = FGM_BACKEND_INTERPRETED;
        mo.deadline = -0.5;
        if (fgm_model_open_ir(ir, &mo, &m, keep_diag, got) == FGM_OK) {
            fgm_model_free(m);
            return 0;
        }
    }
    if (!strstr(got, want)) {
        printf("FAIL: the message \"%s\" lacks \"%s\"\n", got, want);
        return 0;
    }
    return 1;
}

/* The canonical dump of IR into BUF (SIZE bytes): 0, or -1. */
static int
dump(const fgm_ir *ir, char *buf, size_t size)
{
    FILE *f = fmemopen(buf, size, "w");
    int ok;

    if (!f)
        return -1;
    ok = fgm_ir_dump(ir, f) == FGM_OK;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* x's marginal on BACKEND into P; 0, or -1. */
static int
marginal_x(fgm_backend backend, const char *out_dir, double *p)
{
    fgm_model_opts mo;
    fgm_model *m = NULL;
    fgm_ir *ir = NULL;
    int ok;

    if (fgm_compile_string(model, "locale.fgm", NULL, &ir, print_diag, NULL)
        != FGM_OK)
        return -1;
    memset(&mo, 0, sizeof mo);
    mo.backend = backend;
    mo.out_dir = out_dir;
    if (fgm_model_open_ir(ir, &mo, &m, print_diag, NULL) != FGM_OK)
        return -1;
    ok = fgm_model_run(m, NULL, NULL) == FGM_OK
         && fgm_model_marginal(m, fgm_model_find(m, "x", NULL), p) == FGM_OK
         && (backend != FGM_BACKEND_COMPILED || fgm_model_is_compiled(m));
    fgm_model_free(m);
    return ok ? 0 : -1;
}

int
main(int argc, char **argv)
{
    static char local_dump[1 << 14], c_dump[1 << 14];
    double e0 = 1.5 * (exp(1.0) + 0.25), e1 = 2.5 * (1.0 + exp(2.0));
    double want = e0 / (e0 + e1), pc[2], pi[2];
    fgm_ir *ir = NULL;
    uint64_t local_hash;
    int fails = 0;

    if (argc != 3) {
        fprintf(stderr, "usage: locale LOCALE OUT_DIR\n");
        return 1;
    }
    if (!setlocale(LC_ALL, argv[1])
        || strcmp(localeconv()->decimal_point, ",") != 0) {
        printf("locale: %s not set, or its decimal point is not a comma\n",
               argv[1]);
        return 77;
    }
    if (marginal_x(FGM_BACKEND_COMPILED, argv[2], pc) != 0
        || marginal_x(FGM_BACKEND_INTERPRETED, NULL, pi) != 0) {
        printf("FAIL: the model did not compile, open or run\n");
        return 1;
    }
    if (fabs(pc[0] - want) > 1e-12 || fabs(pi[0] - want) > 1e-12) {
        printf("FAIL: P(x = 0): compiled %.17g, interpreted %.17g, "
               "want %.17g\n", pc[0], pi[0], want);
        fails++;
    }
    if (!says("var z in 0..3\nz > 4.5\n", "is > 4.5") || !says(NULL, "-0.5"))
        fails++;
    if (fgm_compile_string(model, "locale.fgm", NULL, &ir, print_diag, NULL)
        != FGM_OK || dump(ir, local_dump, sizeof local_dump) != 0)
        return 1;
    local_hash = fgm_ir_hash(ir);
    fgm_ir_free(ir);
    setlocale(LC_ALL, "C");
    if (fgm_compile_string(model, "locale.fgm", NULL, &ir, print_diag, NULL)
        != FGM_OK || dump(ir, c_dump, sizeof c_dump) != 0)
        return 1;
    if (strcmp(local_dump, c_dump) != 0 || local_hash != fgm_ir_hash(ir)) {
        printf("FAIL: the IR dump or hash differs from the C locale's\n");
        fails++;
    }
    fgm_ir_free(ir);
    if (!fails)
        printf("locale: %s: P(x = 0) = %.17g on both backends, the same "
               "IR\n", argv[1], pc[0]);
    return fails ? 1 : 0;
}
