/* runtime/cli/main.c: `fgm` entry point: dispatch to the commands.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gsl/gsl_errno.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

/* Ctrl-C, Ctrl-\, SIGTERM, a closed terminal or a reader of our output
 * gone (`fgm solve ... | head -1`): the C compilers of plugin builds in
 * flight are killed and their temporary files removed (fgm_abort_cleanup),
 * then the signal ends fgm as it would have.  The compilers run in a
 * process group of their own, which the terminal's keys do not reach:
 * Ctrl-\ left one running, and its temporaries, until SIGQUIT was
 * caught here too. */
static void
on_fatal_signal(int sig)
{
    fgm_abort_cleanup();
    cli_tmpdir_abort();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Installs on_fatal_signal, except for signals ignored at start (a
 * background job's SIGINT keeps being ignored).  The handler blocks the
 * others: one that interrupted it would end fgm before it is done.
 * SIGXCPU (`ulimit -t`) ends fgm the same way.  SIGXFSZ is ignored: a
 * write past `ulimit -f` then fails with EFBIG, which every writer
 * reports ("cannot write: File too large") and cleans up after, where
 * the signal killed fgm with its temporaries half written. */
static void
catch_fatal_signals(void)
{
    static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE,
                                SIGXCPU };
    struct sigaction sa, old;
    size_t i;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < CLI_COUNTOF(sigs); i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    for (i = 0; i < CLI_COUNTOF(sigs); i++)
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
    signal(SIGXFSZ, SIG_IGN);
}

static int
usage(FILE *f)
{
    fprintf(f,
        "usage: fgm COMMAND [ARGS]\n"
        "\n"
        "  solve [--solver S] [--model M] [-D NAME=VALUE]... [--backend B]\n"
        "        [--seed N] [--timeout-ms T] [-j N] [--csv] [--lcv]\n"
        "        [--count [--cap N]] [--iters N] [--fix K] [--restarts N]\n"
        "        [--out-dir DIR] PUZZLES... (- for stdin)\n"
        "                                        solve puzzles, one line each\n"
        "  bench [--solvers S1,S2] [--backends B1,B2] [--repeat R]\n"
        "        [--seed N] [--model M] [-D NAME=VALUE]... [--timeout-ms T]\n"
        "        [--csv FILE] [--detail FILE] [--svg FILE] PUZZLES...\n"
        "                                        benchmark table\n"
        "  bench --model M [-D NAME=VALUE]... [--observe FILE|-]\n"
        "        [--backends B1,B2] [--repeat R]\n"
        "                                        time M's inference per "
        "backend\n"
        "  compile MODEL [-D NAME=VALUE]... [--algo A] [-o OUT.so]\n"
        "        [--emit-c OUT.c] [--out-dir DIR]\n"
        "                                        model -> C -> plugin\n"
        "  run MODEL [--backend auto|compiled|interpreted|exact] [--algo A]\n"
        "        [--observe FILE|-] [--iters N] [--damping D] [--tolerance T]\n"
        "        [--format text|csv|json] [--show A1,A2] [--out-dir DIR]\n"
        "        [--exact-method auto|elimination|enumeration] [--map]\n"
        "        [--cap N] [--seed N] [--chains K] [--restarts K]\n"
        "        [--timeout-ms T] [-j N] [-D NAME=VALUE]...\n"
        "                                        marginals and posteriors\n"
        "  generate --box B [--count K] [--seed S] [--min-clues C] [-o FILE]\n"
        "                                        unique-solution puzzles\n"
        "  dump [-D NAME=VALUE]... MODEL         canonical IR, hash first\n"
        "  graph [-D NAME=VALUE]... MODEL        Graphviz DOT factor graph\n"
        "  list                                  solvers, algorithms,\n"
        "                                        backends, model forms\n"
        "  version\n"
        "\n"
        "MODEL is a model file, MODEL.fgm (-D NAME=VALUE sets a const; a file "
        "of another\nname is read as one too), sudoku:B (box side 2..5) or "
        "latin:N.  A command run\nwithout arguments prints its own usage.\n");
    return CLI_EUSAGE;
}

static int
cmd_graph(cli_args *a)
{
    return cmd_dump(a, 1);
}

static int
cmd_dump_ir(cli_args *a)
{
    return cmd_dump(a, 0);
}

/* Puts /dev/null on each of descriptors 0-2 that fgm was started without
 * (`2>&-`): a file fgm opens would take the free number, and what is
 * written to stderr (or stdout) would land in it.  Opened the wrong way
 * round (stdin for writing, stdout and stderr for reading), so that
 * their reads and writes still fail as on a closed descriptor (EBADF)
 * and are reported as before. */
static void
hold_standard_fds(void)
{
    int fd, nul;

    for (fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        /* The lower numbers are open: open takes FD itself. */
        nul = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (nul >= 0 && nul != fd)
            close(nul);
    }
}

/* CODE, or CLI_EINPUT when a diagnostic or summary could not be written
 * on stderr (closed, or a full disk): the caller would take silence for
 * success (coreutils exits with failure there too).  Nothing can say
 * why. */
static int
finish_stderr(int code)
{
    if ((fflush(stderr) != 0 || ferror(stderr)) && code == CLI_OK)
        return CLI_EINPUT;
    return code;
}

/* The commands that take arguments; each, run bare, prints its usage. */
static const struct {
    const char *name;
    int (*run)(cli_args *a);
} commands[] = {
    { "solve", cmd_solve },     { "bench", cmd_bench },
    { "compile", cmd_compile }, { "run", cmd_run },
    { "generate", cmd_generate }, { "dump", cmd_dump_ir },
    { "graph", cmd_graph },
};

/* `fgm CMD --help` for a command RUN that, bare, prints its usage on
 * stderr: run so, with stderr sent to stdout, then put back, so that a
 * usage that could not be written (a full disk) is said there, exit 1
 * (it was lost, exit 0). */
static int
usage_to_stdout(cli_args *a, int (*run)(cli_args *))
{
    int saved, failed, err;

    /* A closed stdout (>&-) is a write error: dup below would take its
     * number, and the usage went to stderr, exit 0. */
    if (!cli_stdout_open(a->cmd))
        return CLI_EINPUT;
    fflush(stderr);
    /* A stderr that cannot be saved (no descriptor left) stays closed. */
    saved = dup(STDERR_FILENO);
    if (dup2(STDOUT_FILENO, STDERR_FILENO) < 0) {
        if (saved >= 0)
            close(saved);
        return CLI_EINTERNAL;
    }
    clearerr(stderr);
    a->argc = 2;
    (void)run(a);
    failed = fflush(stderr) != 0 || ferror(stderr);
    err = errno;
    if (saved >= 0) {
        dup2(saved, STDERR_FILENO);
        close(saved);
    } else {
        close(STDERR_FILENO);
    }
    clearerr(stderr);
    if (failed)
        return cli_fail(CLI_EINPUT, "%s: write error on standard output: %s",
                        a->cmd, strerror(err));
    return cli_finish_stdout(a->cmd, CLI_OK);
}

/* Runs command A->cmd; with HELP (`fgm CMD --help`), a command of the
 * table, list or version, prints its usage on stdout and the exit code is
 * 0.  Returns -1 when HELP is asked of any other command. */
static int
dispatch(cli_args *a, int help)
{
    const char *cmd = a->cmd;
    size_t i;

    for (i = 0; i < CLI_COUNTOF(commands); i++) {
        if (strcmp(cmd, commands[i].name) != 0)
            continue;
        if (!help)
            return commands[i].run(a);
        return usage_to_stdout(a, commands[i].run);
    }
    if (help && (strcmp(cmd, "list") == 0 || strcmp(cmd, "version") == 0)) {
        /* list and version take no arguments: the usage is one line. */
        printf("usage: fgm %s\n", cmd);
        return cli_finish_stdout(cmd, CLI_OK);
    }
    if (help)
        return -1;
    if (strcmp(cmd, "list") == 0)
        return cmd_list(a);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        /* Takes no arguments, as list; a full disk is an error. */
        if (a->argc - a->i != 0) {
            fprintf(stderr, "usage: fgm version\n");
            return CLI_EUSAGE;
        }
        printf("fgm %s\n", FGM_VERSION);
        return cli_finish_stdout("version", CLI_OK);
    }
    if (strcmp(cmd, "help") == 0 && a->argc > 3) {
        cli_fail(CLI_EUSAGE, "help: one command at a time");
        return usage(stderr);
    }
    if (strcmp(cmd, "help") == 0 && a->argc == 3
        && strcmp(a->argv[2], "help") != 0 && strcmp(a->argv[2], "-h") != 0
        && strcmp(a->argv[2], "--help") != 0) {
        /* `fgm help run`: as `fgm run --help` (it printed them all). */
        int code;

        a->cmd = a->argv[2];
        a->i = a->first = 3;
        code = dispatch(a, 1);
        if (code >= 0)
            return code;
        cli_fail(CLI_EUSAGE, "help: unknown command '%s'", a->cmd);
        return usage(stderr);
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0
        || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return cli_finish_stdout("help", CLI_OK);
    }
    cli_fail(CLI_EUSAGE, "unknown command '%s'", cmd);
    return usage(stderr);
}

/* Whether an argument after the command, before any "--", asks for help
 * (`fgm solve puzzles.txt --help` as `fgm solve --help`). */
static int
asks_help(int argc, char **argv)
{
    int i;

    for (i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

int
main(int argc, char **argv)
{
    cli_args a;
    const char *cmd;

    /* GSL's default handler aborts; the library checks statuses instead. */
    gsl_set_error_handler_off();
    hold_standard_fds();
    catch_fatal_signals();
    if (argc < 2)
        return finish_stderr(usage(stderr));
    cmd = argv[1];
    a.argc = argc;
    a.argv = argv;
    a.i = a.first = 2;
    a.cmd = cmd;
    a.operands = 0;
    /* `fgm COMMAND ... --help`: the command's usage, on stdout, exit 0. */
    if (asks_help(argc, argv)) {
        int code = dispatch(&a, 1);

        if (code >= 0)
            return finish_stderr(code);
    }
    return finish_stderr(dispatch(&a, 0));
}
