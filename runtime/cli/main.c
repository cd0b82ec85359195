/* runtime/cli/main.c: `fgm` entry point: dispatch to the commands.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gsl/gsl_errno.h>
#include <string.h>
#include "cli.h"

static int
usage(FILE *f)
{
    fprintf(f,
        "usage: fgm COMMAND [ARGS]\n"
        "\n"
        "  solve [--solver S] [--model M] [--backend B] [--seed N]\n"
        "        [--timeout-ms T] [-j N] [--csv] PUZZLES|-\n"
        "                                        solve puzzles, one line each\n"
        "  bench [--solvers S1,S2] [--backends B1,B2] [--repeat R]\n"
        "        [--timeout-ms T] [--csv FILE] [--svg FILE] PUZZLES...\n"
        "                                        benchmark table\n"
        "  compile MODEL [--algo A] [-o OUT.so] [--emit-c OUT.c] "
        "[--out-dir DIR]\n"
        "                                        model -> C -> plugin\n"
        "  run MODEL [--backend auto|compiled|interpreted|exact] [--algo A]\n"
        "        [--observe FILE|-] [--iters N] [--format text|csv|json]\n"
        "                                        marginals and posteriors\n"
        "  generate --box B [--count K] [--seed S] [--min-clues C] [-o FILE]\n"
        "                                        unique-solution puzzles\n"
        "  dump MODEL                            canonical IR, hash first\n"
        "  graph MODEL                           Graphviz DOT factor graph\n"
        "  list                                  solvers, algorithms, backends\n"
        "  version\n"
        "\n"
        "MODEL is MODEL.fgm (-D NAME=VALUE sets a const), sudoku:B (box "
        "side 2..5)\nor latin:N.  A command run without arguments prints its "
        "own usage.\n");
    return CLI_EUSAGE;
}

int
main(int argc, char **argv)
{
    cli_args a;
    const char *cmd;

    /* GSL's default handler aborts; the library checks statuses instead. */
    gsl_set_error_handler_off();
    if (argc < 2)
        return usage(stderr);
    cmd = argv[1];
    a.argc = argc;
    a.argv = argv;
    a.i = 2;
    a.cmd = cmd;
    if (strcmp(cmd, "solve") == 0)
        return cmd_solve(&a);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench(&a);
    if (strcmp(cmd, "compile") == 0)
        return cmd_compile(&a);
    if (strcmp(cmd, "run") == 0)
        return cmd_run(&a);
    if (strcmp(cmd, "generate") == 0)
        return cmd_generate(&a);
    if (strcmp(cmd, "dump") == 0)
        return cmd_dump(&a, 0);
    if (strcmp(cmd, "graph") == 0)
        return cmd_dump(&a, 1);
    if (strcmp(cmd, "list") == 0)
        return cmd_list(&a);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("fgm %s\n", FGM_VERSION);
        return CLI_OK;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0
        || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    cli_fail(CLI_EUSAGE, "unknown command '%s'", cmd);
    return usage(stderr);
}
