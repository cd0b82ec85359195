/* runtime/kernel_text.h: the kernel headers fgm was built with, as text.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A plugin's generated C includes plugin_abi.h and kernels.h, and must be
 * compiled from the very headers the interpreter in this fgm was compiled
 * from: the two backends must give the same bits.  So fgm carries them
 * (the build writes build/gen/kernel_text.c with tools/kernel_text.c) and
 * each plugin build writes them next to its C source (runtime/plugin.c),
 * where the compiler looks first for a quoted include.  Each file is
 * self-contained: kernels.h has its ops/ headers inlined, between #line
 * markers naming them.
 */
#ifndef FGM_KERNEL_TEXT_H
#define FGM_KERNEL_TEXT_H

#include "internal.h"

typedef struct fgm_kernel_file {
    const char *name;       /* as the generated C includes it */
    const char *text;
} fgm_kernel_file;

FGM_INTERNAL extern const fgm_kernel_file fgm_kernel_files[];
FGM_INTERNAL extern const int fgm_kernel_nfiles;

#endif /* FGM_KERNEL_TEXT_H */
