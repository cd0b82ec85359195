/* runtime/plugin_stale.c: removes what killed plugin builds left behind.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A rebuild of SO (runtime/plugin.c) works in SO.tmp.XXXXXX/, a folder
 * holding the C source while it compiles, and SO.tmp.XXXXXX, the
 * compiler's output, and removes both when it ends.  A process killed in
 * between (Ctrl-C during the compiler run, a crash) leaves them there,
 * and nothing else would ever remove them.  The next rebuild of the same
 * plugin removes those that are old enough that no build can still be
 * using them (a compiler run is killed after FGM_CC_TIMEOUT seconds).
 * Only names of exactly that pattern are touched.  A folder is removed
 * only when it holds nothing but what a build writes there (the plugin's
 * C source NAME.ALGO.c, or plugin.c from `fgm compile -o SO`, and that
 * file's own write temporary; kernels.h and plugin_abi.h), and a file
 * only when
 * it is empty or starts as the linker's output does (the ELF magic, or
 * zeros while the linker has not yet written the header): a user's
 * folder or notes that happen to be named like one are kept.  Symbolic
 * links are never followed.  Everything is best effort: what
 * cannot be removed stays, and the build goes on.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "kernel_text.h"
#include "plugin.h"

#define TMP_SUFFIX ".tmp."
#define TMP_RANDOM 6        /* the XXXXXX of mkstemp and mkdtemp */

/* Whether NAME is BASE.tmp.XXXXXX, X from mkstemp's alphabet. */
static int
is_temp_of(const char *name, const char *base, size_t bl)
{
    const char *x;
    int i;

    if (strncmp(name, base, bl) != 0
        || strncmp(name + bl, TMP_SUFFIX, sizeof TMP_SUFFIX - 1) != 0)
        return 0;
    x = name + bl + sizeof TMP_SUFFIX - 1;
    for (i = 0; i < TMP_RANDOM; i++)
        if (!((x[i] >= 'a' && x[i] <= 'z') || (x[i] >= 'A' && x[i] <= 'Z')
              || (x[i] >= '0' && x[i] <= '9')))
            return 0;
    return x[TMP_RANDOM] == '\0';
}

/* Whether entry NAME of a build folder is one a build writes: the
 * plugin's C source C (C_LEN bytes) or FGM_PLUGIN_EMIT_C (`fgm compile
 * -o` may write to a cache plugin's path), or its write temporary, or one
 * of the kernel headers (fgm_build_dir_headers). */
static int
is_build_file(const char *name, const char *c, size_t c_len)
{
    int i;

    for (i = 0; i < fgm_kernel_nfiles; i++)
        if (strcmp(name, fgm_kernel_files[i].name) == 0)
            return 1;
    return strcmp(name, c) == 0 || is_temp_of(name, c, c_len)
           || strcmp(name, FGM_PLUGIN_EMIT_C) == 0
           || is_temp_of(name, FGM_PLUGIN_EMIT_C,
                         sizeof FGM_PLUGIN_EMIT_C - 1);
}

/* Removes folder NAME of DFD and the files in it, if those are only
 * plain files a build writes (is_build_file); else touches nothing. */
static void
remove_folder(int dfd, const char *name, const char *c, size_t c_len)
{
    int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    struct dirent *e;
    struct stat sb;
    int pass;
    DIR *d;

    if (fd < 0)
        return;
    d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    /* Pass 0 checks every entry, pass 1 removes them. */
    for (pass = 0; pass < 2; pass++) {
        rewinddir(d);
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            if (pass == 1) {
                unlinkat(fd, e->d_name, 0);
                continue;
            }
            if (!is_build_file(e->d_name, c, c_len)
                || fstatat(fd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0
                || !S_ISREG(sb.st_mode)) {
                closedir(d);
                return;
            }
        }
    }
    closedir(d);
    unlinkat(dfd, name, AT_REMOVEDIR);
}

/* Whether file NAME of DFD may be a killed link's output: empty, or its
 * first bytes are the ELF magic or zeros (GNU ld writes the header
 * last). */
static int
is_link_output(int dfd, const char *name)
{
    static const unsigned char elf[4] = { 0x7f, 'E', 'L', 'F' };
    static const unsigned char zero[4];
    unsigned char head[4];
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    ssize_t n;

    if (fd < 0)
        return 0;
    n = read(fd, head, sizeof head);
    close(fd);
    return n == 0
           || (n == (ssize_t)sizeof head
               && (memcmp(head, elf, sizeof head) == 0
                   || memcmp(head, zero, sizeof head) == 0));
}

void
fgm_plugin_sweep_stale(const char *so_path, const char *c_name,
                       double min_age_s)
{
    const char *slash = strrchr(so_path, '/');
    const char *base = slash ? slash + 1 : so_path;
    size_t bl = strlen(base);
    char *dir = slash ? strndup(so_path, (size_t)(slash - so_path) + 1)
                      : strdup(".");
    time_t now = time(NULL);
    struct dirent *e;
    struct stat sb;
    DIR *d;

    d = dir ? opendir(dir) : NULL;
    free(dir);
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        if (!is_temp_of(e->d_name, base, bl)
            || fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0
            || difftime(now, sb.st_mtime) < min_age_s)
            continue;
        if (S_ISDIR(sb.st_mode))
            remove_folder(dirfd(d), e->d_name, c_name, strlen(c_name));
        else if (S_ISREG(sb.st_mode) && is_link_output(dirfd(d), e->d_name))
            unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}
