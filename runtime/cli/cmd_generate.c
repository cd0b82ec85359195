/* runtime/cli/cmd_generate.c: `fgm generate`: puzzles with one solution.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Puzzle i is generated from a GSL mt19937 seeded with SEED + i, so any
 * puzzle of a batch can be regenerated alone.  Output goes to stdout or,
 * with -o, to a file written under a temporary name and renamed.
 */
#include <string.h>
#include "cli.h"

typedef struct gen_job {
    int box;
    long count;
    unsigned long seed;
    fgm_generate_opts opts;
    long clues_total, gave_up;
    double ms_total;
} gen_job;

static fgm_status
write_puzzles(void *arg, FILE *f)
{
    gen_job *g = arg;
    fgm_generate_stats stats;
    char line[FGM_PUZZLE_MAXCELLS + 1];
    fgm_status st = FGM_OK;
    fgm_puzzle p;
    long k;

    fprintf(f, "# fgm generate --box %d --count %ld --seed %lu", g->box,
            g->count, g->seed);
    if (g->opts.min_clues)
        fprintf(f, " --min-clues %d", g->opts.min_clues);
    fputc('\n', f);
    for (k = 0; k < g->count && st == FGM_OK; k++) {
        st = fgm_generate_puzzle(g->box, g->seed + (unsigned long)k,
                                 &g->opts, &p, &stats);
        if (st != FGM_OK)
            break;
        fgm_puzzle_format_line(&p, line, sizeof line);
        fprintf(f, "%s\n", line);
        /* Each puzzle out as soon as it is made (a 25x25 one takes
         * seconds): a reader that has gone (EPIPE with SIGPIPE ignored),
         * or a full disk, stops the run here, not after every puzzle is
         * generated for nothing. */
        if (fflush(f) != 0 || ferror(f))
            return FGM_EIO;
        g->clues_total += stats.clues;
        g->gave_up += stats.gave_up;
        g->ms_total += stats.ms;
    }
    return st;
}

static int
usage(void)
{
    fprintf(stderr, "usage: fgm generate --box B [--count K] [--seed S] "
            "[--min-clues C] [-o FILE]\n");
    return CLI_EUSAGE;
}

int
cmd_generate(cli_args *a)
{
    const char *out = NULL, *val;
    long box = 0, count = 1, seed = 1, min_clues = 0;
    gen_job g;
    fgm_status st;
    int r, code;

    while (a->i < a->argc) {
        if ((r = cli_opt_value(a, "--box", &val)) != 0) {
            if (r < 0 || !cli_parse_long("generate", "--box", val, 2, 5, &box))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--count", &val)) != 0) {
            if (r < 0 || !cli_parse_long("generate", "--count", val, 1,
                                         100000000L, &count))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--seed", &val)) != 0) {
            if (r < 0 || !cli_parse_long("generate", "--seed", val, 0,
                                         0x7fffffffL, &seed))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "--min-clues", &val)) != 0) {
            if (r < 0 || !cli_parse_long("generate", "--min-clues", val, 0,
                                         625, &min_clues))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "-o", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_check_name("generate", "-o", val, "file"))
                return CLI_EUSAGE;
            out = val;
        } else {
            cli_fail(CLI_EUSAGE, "generate: unknown argument '%s'",
                     a->argv[a->i]);
            return usage();
        }
    }
    if (!box) {
        cli_missing(a, "box side (--box B)");
        return usage();
    }
    if (out && strcmp(out, "-") == 0)
        out = NULL;     /* standard output, as without -o */
    if (seed > 0x7fffffffL - (count - 1))
        /* Puzzle K is made from seed + K: each must be a --seed too, so
         * that any puzzle of a batch can be made again alone. */
        return cli_fail(CLI_EUSAGE, "generate: --seed %ld --count %ld: "
                        "the puzzles' seeds would pass %ld, the largest "
                        "--seed", seed, count, 0x7fffffffL);
    if (min_clues > box * box * box * box)
        /* Every puzzle would come back a full grid. */
        return cli_fail(CLI_EUSAGE, "generate: --min-clues %ld: a %ldx%ld "
                        "grid has %ld cells", min_clues, box * box,
                        box * box, box * box * box * box);
    memset(&g, 0, sizeof g);
    g.box = (int)box;
    g.count = count;
    g.seed = (unsigned long)seed;
    g.opts.min_clues = (int)min_clues;
    /* Checked before the puzzles are made: 25x25 ones take seconds each. */
    if (out && !cli_output_ok(out))
        return CLI_EINPUT;
    if (out) {
        st = fgm_write_atomic(out, write_puzzles, &g, cli_diag, NULL);
        if (st == FGM_EIO)
            return CLI_EINPUT;  /* said, naming the file */
    } else {
        st = write_puzzles(&g, stdout);
        /* A write error is said as every command says it. */
        if (st == FGM_OK || st == FGM_EIO) {
            code = cli_finish_stdout("generate", CLI_OK);
            if (code != CLI_OK)
                return code;
        }
    }
    if (st != FGM_OK)
        return cli_fail(cli_exit_code(st), "generate: %s", fgm_strerror(st));
    fprintf(stderr, "fgm: generated=%ld box=%d mean_clues=%.1f "
            "mean_ms=%.1f checks_over_budget=%ld\n", count, g.box,
            (double)g.clues_total / (double)count, g.ms_total / (double)count,
            g.gave_up);
    return CLI_OK;
}
