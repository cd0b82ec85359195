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
 * Only names of exactly that pattern are touched; a folder is removed
 * with the plain files in it (a build puts nothing else there), and
 * symbolic links are never followed.  Everything is best effort: what
 * cannot be removed stays, and the build goes on.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
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

/* Removes the plain files in folder NAME of DFD, then the folder. */
static void
remove_folder(int dfd, const char *name)
{
    int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    struct dirent *e;
    struct stat sb;
    DIR *d;

    if (fd < 0)
        return;
    d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    while ((e = readdir(d)) != NULL)
        if (fstatat(fd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0
            && !S_ISDIR(sb.st_mode))
            unlinkat(fd, e->d_name, 0);
    closedir(d);
    unlinkat(dfd, name, AT_REMOVEDIR);
}

void
fgm_plugin_sweep_stale(const char *so_path, double min_age_s)
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
            remove_folder(dirfd(d), e->d_name);
        else if (S_ISREG(sb.st_mode))
            unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}
