/* tests/check_ir.c: IR builder, Sudoku/Latin builders, dump and hash.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "../runtime/ir.h"
#include "suites.h"

static char *
dump_to_string(const fgm_ir *ir)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fgm_ir_dump(ir, f), FGM_OK);
    fclose(f);
    return text;
}

START_TEST(test_sudoku_shape)
{
    static const int boxes[] = { 2, 3, 4, 5 };
    int i;

    for (i = 0; i < 4; i++) {
        int b = boxes[i], n = b * b, k;
        fgm_ir *ir = fgm_ir_sudoku(b);

        ck_assert_msg(ir != NULL, "sudoku box %d builds", b);
        ck_assert_int_eq(ir->nvars, n * n);
        ck_assert_int_eq(ir->nfactors, 3 * n);
        for (k = 0; k < ir->nfactors; k++) {
            ck_assert_int_eq(ir->factors[k].kind, FGM_FACTOR_ALLDIFF);
            ck_assert_int_eq(ir->factors[k].arity, n);
        }
        ck_assert_int_eq(fgm_ir_card(ir, n * n - 1), n);
        fgm_ir_free(ir);
    }
}
END_TEST

START_TEST(test_sudoku_box_scope)
{
    fgm_ir *ir = fgm_ir_sudoku(3);
    /* Factor 18 + 4 is the centre box: rows 3-5, columns 3-5. */
    const int *s = fgm_ir_scope(ir, &ir->factors[22]);

    ck_assert_int_eq(s[0], 3 * 9 + 3);
    ck_assert_int_eq(s[8], 5 * 9 + 5);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_latin_shape)
{
    fgm_ir *ir = fgm_ir_latin(5);

    ck_assert_int_eq(ir->nvars, 25);
    ck_assert_int_eq(ir->nfactors, 10);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_dump_hash_line)
{
    fgm_ir *ir = fgm_ir_sudoku(2);
    char *text = dump_to_string(ir), want[64];

    snprintf(want, sizeof want, "# fgm-ir 1 hash %016llx\n",
             (unsigned long long)fgm_ir_hash(ir));
    ck_assert_msg(strncmp(text, want, strlen(want)) == 0,
                  "first line carries the hash: %s", text);
    ck_assert_ptr_nonnull(strstr(text, "array cell[4][4] in 1..4 first 0 observed\n"));
    ck_assert_ptr_nonnull(strstr(text, "f0 alldiff cell[0][0] cell[0][1] cell[0][2] cell[0][3]\n"));
    free(text);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_hash_distinguishes)
{
    fgm_ir *a = fgm_ir_sudoku(3), *b = fgm_ir_sudoku(3), *c = fgm_ir_latin(9);
    int scope[2] = { 0, 1 };
    fgm_status st;

    ck_assert_msg(fgm_ir_hash(a) == fgm_ir_hash(b), "same IR, same hash");
    ck_assert_msg(fgm_ir_hash(a) != fgm_ir_hash(c), "Latin differs from Sudoku");
    ck_assert_int_ge(fgm_ir_add_factor(b, FGM_FACTOR_NEQ, 2, scope, 0, NULL, &st), 0);
    ck_assert_msg(fgm_ir_hash(a) != fgm_ir_hash(b), "an added factor changes the hash");
    fgm_ir_free(a);
    fgm_ir_free(b);
    fgm_ir_free(c);
}
END_TEST

START_TEST(test_table_and_evidence)
{
    fgm_ir *ir = fgm_ir_new("t");
    int dims[1] = { 2 }, scope[2] = { 0, 1 }, first;
    double pot[6] = { 1, 0, 1, 0, 1, 0 }, ev[3] = { 0.5, 0.5, 0 };
    fgm_status st;

    first = fgm_ir_add_array(ir, "x", 1, dims, 0, 3, 0, &st);
    ck_assert_int_eq(first, 0);
    ck_assert_int_eq(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, scope, 9,
                                       (double[9]){0}, &st), 0);
    /* 6 != 3*3 parameters */
    ck_assert_int_eq(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, scope, 6, pot,
                                       &st), -1);
    ck_assert_int_eq(st, FGM_EINVAL);
    ck_assert_int_eq(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, scope, 3,
                                       ev, &st), 1);
    fgm_ir_free(ir);
}
END_TEST

/* The dump writes each parameter as "%.17g" would, the integers it
 * writes without the float formatter and the repeated potentials of
 * consecutive factors included: the hash reads that text. */
START_TEST(test_dump_params_text)
{
    static const double vals[] = {
        0, 1, 7, 10, 99, 100, 123456789, 4294967295.0, 999999999999999.0,
        1e15, 1e16, 9007199254740993.0, 0.5, 2.5, 0.001, 1e-300, 4.9e-324,
        1e300, 3.0000000000000004, 1e14, 12345678901234.0
    };
    int n = (int)(sizeof vals / sizeof vals[0]);
    fgm_ir *ir = fgm_ir_new("t");
    int one[1] = { 1 }, two[1] = { 2 }, x = 0, y[2] = { 1, 2 }, i, f, len;
    double pot[9];
    char *text, want[64 * 32];
    fgm_status st;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 1, one, 0, n, 0, &st), 0);
    ck_assert_int_eq(fgm_ir_add_array(ir, "y", 1, two, 0, 3, 0, &st), 1);
    ck_assert_int_eq(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, &x, n,
                                       vals, &st), 0);
    /* Three tables of the same potentials, then one that differs in one
     * value: the text written again must be each factor's own. */
    for (f = 0; f < 4; f++) {
        for (i = 0; i < 9; i++)
            pot[i] = vals[i + 3] * (f == 3 && i == 4 ? 3 : 1);
        ck_assert_int_eq(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 2, y, 9,
                                           pot, &st), f + 1);
    }
    text = dump_to_string(ir);
    len = snprintf(want, sizeof want, "\nf0 evidence x[0] params");
    for (i = 0; i < n; i++)
        len += snprintf(want + len, sizeof want - (size_t)len, " %.17g",
                        vals[i]);
    ck_assert_msg(strstr(text, want) != NULL, "dump lacks '%s':\n%s", want,
                  text);
    for (f = 1; f <= 4; f++) {
        len = snprintf(want, sizeof want, "\nf%d table y[0] y[1] params",
                       f);
        for (i = 0; i < 9; i++)
            len += snprintf(want + len, sizeof want - (size_t)len, " %.17g",
                            vals[i + 3] * (f == 4 && i == 4 ? 3 : 1));
        ck_assert_msg(strstr(text, want) != NULL, "dump lacks '%s':\n%s",
                      want, text);
    }
    free(text);
    fgm_ir_free(ir);
}
END_TEST

START_TEST(test_bad_builder_input)
{
    fgm_ir *ir = fgm_ir_new("t");
    int dims[2] = { 3, 0 }, scope[2] = { 0, 7 };
    double neg = -1;
    fgm_status st;

    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 2, dims, 1, 3, 0, &st), -1);
    ck_assert_int_eq(st, FGM_EINVAL);
    dims[1] = 2;
    ck_assert_int_eq(fgm_ir_add_array(ir, "x", 2, dims, 1, 3, 0, &st), 0);
    ck_assert_int_eq(fgm_ir_add_factor(ir, FGM_FACTOR_NEQ, 2, scope, 0, NULL, &st), -1);
    scope[1] = 0;
    ck_assert_int_eq(fgm_ir_add_factor(ir, FGM_FACTOR_NEQ, 2, scope, 0, NULL, &st), -1);
    ck_assert_int_eq(fgm_ir_add_factor(ir, FGM_FACTOR_EVIDENCE, 1, scope, 1, &neg, &st), -1);
    /* A variable twice in a scope, as the compiler refuses it: the
     * operators take the positions as independent (an alldiff over
     * x0, x0, x1 passed, and dlx alone refused it). */
    {
        static const int three[3] = { 0, 0, 1 }, ok[3] = { 0, 1, 2 };
        double t[27];
        int i;

        for (i = 0; i < 27; i++)
            t[i] = 1.0;
        ck_assert_int_eq(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, 3, three,
                                           0, NULL, &st), -1);
        ck_assert_int_eq(st, FGM_EINVAL);
        ck_assert_int_eq(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 3, three,
                                           27, t, &st), -1);
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_ALLDIFF, 3, ok, 0,
                                           NULL, &st), 0);
        ck_assert_int_ge(fgm_ir_add_factor(ir, FGM_FACTOR_TABLE, 3, ok, 27,
                                           t, &st), 0);
    }
    /* Past 16 positions the scope is checked sorted: the repeat of the
     * first by the last. */
    {
        fgm_ir *wide = fgm_ir_new("wide");
        int d[1] = { 20 }, s20[20], i;

        for (i = 0; i < 20; i++)
            s20[i] = 19 - i;
        ck_assert_int_eq(fgm_ir_add_array(wide, "w", 1, d, 1, 20, 0, &st), 0);
        ck_assert_int_ge(fgm_ir_add_factor(wide, FGM_FACTOR_ALLDIFF, 20, s20,
                                           0, NULL, &st), 0);
        s20[19] = s20[0];
        ck_assert_int_eq(fgm_ir_add_factor(wide, FGM_FACTOR_ALLDIFF, 20, s20,
                                           0, NULL, &st), -1);
        ck_assert_int_eq(st, FGM_EINVAL);
        fgm_ir_free(wide);
    }
    ck_assert_ptr_null(fgm_ir_sudoku(6));
    ck_assert_ptr_null(fgm_ir_latin(1));
    fgm_ir_free(ir);
    fgm_ir_free(NULL);
}
END_TEST

Suite *
ir_suite(void)
{
    Suite *s = suite_create("ir");
    TCase *core = tcase_create("core"), *errors = tcase_create("errors");

    tcase_set_timeout(core, 10);
    tcase_set_timeout(errors, 10);
    tcase_add_test(core, test_sudoku_shape);
    tcase_add_test(core, test_sudoku_box_scope);
    tcase_add_test(core, test_latin_shape);
    tcase_add_test(core, test_dump_hash_line);
    tcase_add_test(core, test_hash_distinguishes);
    tcase_add_test(core, test_table_and_evidence);
    tcase_add_test(core, test_dump_params_text);
    tcase_add_test(errors, test_bad_builder_input);
    suite_add_tcase(s, core);
    suite_add_tcase(s, errors);
    return s;
}
