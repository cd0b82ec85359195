/* runtime/cli/cmd_compile.c: `fgm compile`: model -> C -> .so plugin.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Without -o, the plugin goes where the runtime looks for it
 * (DIR/NAME.ALGO.so, DIR = --out-dir or generated/), through the same
 * cascade as a run: an up-to-date plugin is kept.  With -o, the C is
 * compiled to that path whatever exists.  --emit-c also keeps the C.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"

static int
usage(void)
{
    fprintf(stderr, "usage: fgm compile MODEL [-D NAME=VALUE]... [--algo A] "
            "[-o OUT.so]\n"
            "                   [--emit-c OUT.c] [--out-dir DIR]\n");
    return CLI_EUSAGE;
}

/* Whether output PATH would replace the model file MODEL (a spec such
 * as sudoku:3 names no file). */
static int
names_model(const char *path, const char *model)
{
    struct stat st;

    return stat(model, &st) == 0 && cli_same_file(path, model);
}

int
cmd_compile(cli_args *a)
{
    const char *model = NULL, *algo = NULL, *out = NULL, *emit_c = NULL;
    const char *out_dir = NULL, *val;
    const char *defines[CLI_MAXDEFINES];
    int ndefines = 0;
    fgm_model_opts mo;
    fgm_model *m = NULL;
    fgm_ir *ir;
    fgm_status st;
    int r, n, box, code, rebuilt = 0, nupdates, nedges;
    double t0 = fgm_now(), ms;

    while (a->i < a->argc) {
        if (cli_end_of_options(a))
            continue;
        if ((r = cli_opt_value(a, "--algo", &val)) != 0) {
            if (r < 0)
                return usage();
            algo = val;
        } else if ((r = cli_opt_value(a, "--emit-c", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_check_name("compile", "--emit-c", val, "file"))
                return CLI_EUSAGE;
            emit_c = val;
        } else if ((r = cli_opt_value(a, "--out-dir", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_check_name("compile", "--out-dir", val, "folder"))
                return CLI_EUSAGE;
            out_dir = val;
        } else if ((r = cli_opt_value(a, "-D", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_add_define("compile", defines, &ndefines, val))
                return CLI_EUSAGE;
        } else if ((r = cli_opt_value(a, "-o", &val)) != 0) {
            if (r < 0)
                return usage();
            if (!cli_check_name("compile", "-o", val, "file"))
                return CLI_EUSAGE;
            out = val;
        } else if (cli_unknown_option(a)) {
            cli_fail(CLI_EUSAGE, "compile: unknown option '%s'",
                     a->argv[a->i]);
            return usage();
        } else if (!model) {
            model = a->argv[a->i++];
        } else {
            cli_fail(CLI_EUSAGE, "compile: one model at a time ('%s' after "
                     "'%s')", a->argv[a->i], model);
            return usage();
        }
    }
    if (!model) {
        cli_missing(a, "model (MODEL)");
        return usage();
    }
    if (emit_c && strcmp(emit_c, "-") == 0) {
        /* Standard output, as "-" is standard input elsewhere; the
         * C is written through to it (fgm_write_atomic's rule for what
         * is not a regular file).  Closed or read-only, it is said so
         * (opening /dev/stdout said "Permission denied", "Invalid
         * argument"). */
        if (!cli_stdout_open("compile"))
            return CLI_EINPUT;
        emit_c = "/dev/stdout";
    }
    if (out && strcmp(out, "-") == 0)
        /* '-' would have been a plugin file named '-'. */
        return cli_fail(CLI_EUSAGE, "compile: -o names the plugin file; a "
                        "plugin cannot go to standard output");
    if (out_dir && (out || emit_c))
        /* Those name their files themselves; the folder was ignored. */
        return cli_fail(CLI_EUSAGE, "compile: --out-dir is where the "
                        "plugin cache goes, which %s bypasses: give one or "
                        "the other", out ? "-o" : "--emit-c");
    if (!out_dir)
        out_dir = "generated";
    if (out && names_model(out, model))
        return cli_fail(CLI_EUSAGE, "compile: -o '%s' names the model "
                        "file", out);
    if (emit_c && names_model(emit_c, model))
        return cli_fail(CLI_EUSAGE, "compile: --emit-c '%s' names the "
                        "model file", emit_c);
    if (out && emit_c && cli_same_file(out, emit_c))
        /* The plugin would be renamed over the C just written. */
        return cli_fail(CLI_EUSAGE, "compile: -o and --emit-c name the "
                        "same file '%s'", out);
    ir = cli_model_open("compile", model, defines, ndefines, &n, &box,
                        &code);
    if (!ir)
        return code;
    /* Both outputs checked before the C is generated, as generate and
     * bench check theirs: a path that cannot be written is said as they
     * say it, naming it (fgm_write_atomic named its temporary file), and
     * nothing is written when either cannot be (an -o naming a folder
     * left the --emit-c C behind a failed command).  After the model is
     * opened, so that a usage error in its spec ('sudoku:9', an unknown
     * name) is still told as one, exit 2.  fgm_plugin_emit_so checks the
     * plugin's path again when it writes it. */
    if ((emit_c && !cli_output_ok(emit_c)) || (out && !cli_output_ok(out))) {
        fgm_ir_free(ir);
        return CLI_EINPUT;
    }
    if (algo && !cli_set_algo(a->cmd, ir, algo)) {
        fgm_ir_free(ir);
        return CLI_EUSAGE;
    }
    if (out || emit_c) {
        /* The emitters say why a model cannot be scheduled (which factor,
         * where); its size is asked for once they have succeeded. */
        code = CLI_OK;
        if (emit_c && fgm_plugin_emit_c(ir, emit_c, cli_diag, NULL)
                      != FGM_OK)
            code = CLI_EINPUT;
        if (code == CLI_OK && out) {
            st = fgm_plugin_emit_so(ir, out, emit_c, NULL, cli_diag, NULL);
            code = cli_exit_code(st);
        }
        if (code == CLI_OK) {
            st = fgm_ir_schedule(ir, &nupdates, &nedges);
            code = cli_exit_code(st);
        }
        if (code == CLI_OK)
            fprintf(stderr, "fgm: compiled %s (%s, hash %016" PRIx64 ", %d "
                    "%s, %d edges) -> %s in %.0f ms\n", model,
                    fgm_ir_algo(ir), fgm_ir_hash(ir), nupdates,
                    cli_algo_is(ir, "gibbs") || cli_algo_is(ir, "vmp")
                        ? "factors" : "factor updates", nedges,
                    out ? out : emit_c, (fgm_now() - t0) * 1e3);
        fgm_ir_free(ir);
        return code;
    }
    memset(&mo, 0, sizeof mo);
    mo.backend = FGM_BACKEND_COMPILED;
    mo.out_dir = out_dir;
    st = fgm_model_open_ir(ir, &mo, &m, cli_diag, NULL);
    if (st == FGM_ENOMEM)
        return cli_fail(CLI_EINTERNAL, "compile: %s: no plugin: out of "
                        "memory", model);
    if (st != FGM_OK)
        return cli_fail(cli_exit_code(st), "compile: %s: no plugin",
                        model);
    fgm_model_plugin_info(m, &rebuilt, &ms);
    /* The folder as the cascade names it: one slash before the file. */
    fprintf(stderr, "fgm: %s %s -> %s%s%s.%s.so (hash %016" PRIx64 ") in "
            "%.0f ms\n", rebuilt ? "compiled" : "up to date:", model,
            out_dir, *out_dir && out_dir[strlen(out_dir) - 1] == '/'
                     ? "" : "/", fgm_ir_name(fgm_model_ir(m)),
            fgm_ir_algo(fgm_model_ir(m)), fgm_ir_hash(fgm_model_ir(m)),
            (fgm_now() - t0) * 1e3);
    fgm_model_free(m);
    return CLI_OK;
}
