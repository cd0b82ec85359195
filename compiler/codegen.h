/* compiler/codegen.h: C code generation for a model's message schedule.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef FGM_CODEGEN_H
#define FGM_CODEGEN_H

#include <stdio.h>
#include "../runtime/schedule.h"

/* Writes the plugin source of schedule S to F: readable C that includes
 * only plugin_abi.h and kernels.h, exports FGM_PLUGIN_ENTRY, and bakes the
 * schedule into static const tables.  The output depends on nothing but
 * the IR and its schedule (no time, no path but ir->source), so identical
 * IR gives byte-identical C, whatever the caller's locale.  Returns
 * FGM_OK, FGM_EIO or FGM_ENOMEM.
 * requires: a schedule built by fgm_sched_new; produces: C text;
 * breaks: nothing. */
FGM_INTERNAL fgm_status fgm_codegen_emit(const fgm_sched *s, FILE *f);

/* Prints an int table NAME of N entries, 12 per line, under a comment
 * saying WHAT it holds. */
FGM_INTERNAL void fgm_codegen_int_table(FILE *f, const char *name,
                                        const char *what, const int *x,
                                        int n);

/* The part of a gibbs or vmp plugin that visits variables
 * (compiler/codegen_byvar.c): its tables and its reset, sweep and
 * finish, calling runtime/ops/gibbs.h or runtime/ops/vmp.h.  The tables edge_var, var_edge_off, var_edges and (when domains differ)
 * card are already written. */
FGM_INTERNAL void fgm_codegen_by_variable(FILE *f, const fgm_sched *s);

/* fgm_write_atomic-style adapter: ARG is a const fgm_sched *. */
FGM_INTERNAL fgm_status fgm_codegen_write(void *arg, FILE *f);

#endif /* FGM_CODEGEN_H */
