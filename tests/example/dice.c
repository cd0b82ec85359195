/* tests/example/dice.c: the README's example of the public C API.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Build: cc -Iruntime tests/example/dice.c build/libfgm.a \
 *            $(pkg-config --libs gsl) -ldl -lpthread -lm
 * Is the die of models/dice.fgm fair?  Observe twenty rolls, run EP, read
 * the posterior pseudo-counts of p (Dirichlet(1 + counts), exactly) and
 * the log evidence, log P(rolls) (the Dirichlet-multinomial's, exactly).
 */
#include <stdio.h>
#include "fgm.h"

static void
print_diag(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "%s\n", msg);
}

int
main(void)
{
    static const int rolls[20] = { 1, 6, 6, 2, 3, 1, 4, 6, 5, 5,
                                   1, 1, 3, 6, 4, 2, 2, 6, 1, 3 };
    fgm_model_opts opts = { .backend = FGM_BACKEND_AUTO,
                            .out_dir = "generated" };
    fgm_model *m;
    fgm_run_info info;
    double alpha[6], log_z;
    int first, count, p, i;

    if (fgm_model_open("models/dice.fgm", &opts, &m, print_diag, NULL)
        != FGM_OK)
        return 1;
    first = fgm_model_find(m, "roll", &count);
    p = fgm_model_find(m, "p", NULL);
    for (i = 0; i < count && i < 20; i++)
        fgm_model_observe_var(m, first + i, rolls[i] - 1);  /* 1..6 -> 0..5 */
    fgm_model_run(m, NULL, &info);
    fgm_model_dirichlet(m, p, alpha);
    printf("%s, %d sweeps: p ~ Dirichlet(", fgm_model_is_compiled(m)
           ? "compiled" : "interpreted", info.sweeps);
    for (i = 0; i < 6; i++)
        printf("%s%g", i ? ", " : "", alpha[i]);
    printf(")\n");
    if (fgm_model_log_evidence(m, &log_z) == FGM_OK)
        printf("log P(rolls) = %.6f\n", log_z);
    fgm_model_free(m);
    return 0;
}
