/* runtime/cli/tmpdir.c: a scratch folder of the CLI's own, removed by
 * the fatal-signal handler.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fgm bench times a plugin's build and load in a folder under $TMPDIR
 * (cmd_bench.c's plugin_times).  The library's handler removes what a
 * build in flight makes (fgm_abort_cleanup), not that folder nor the C
 * and plugin already renamed into it: Ctrl-C left them in /tmp.  One
 * folder at a time, listed here, and removed here whether bench is done
 * with it or main.c's handler ends the run: with system calls only (open,
 * getdents64, unlinkat, rmdir), as a handler must.  The folder holds
 * files only.
 *
 * The listing is a writable file-scope object, as the library's cleanup
 * table is (runtime/cleanup.c says why a handler needs one).
 */
#define _GNU_SOURCE     /* getdents64 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include "cli.h"

static char listed[4096];
static volatile sig_atomic_t is_listed;

int
cli_tmpdir_list(const char *dir)
{
    is_listed = 0;
    if (snprintf(listed, sizeof listed, "%s", dir) >= (int)sizeof listed)
        return 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    is_listed = 1;
    return 1;
}

/* Empties and removes the listed folder.  Returns 1 once it is gone. */
static int
remove_listed(void)
{
    char buf[4096];
    ssize_t n, at;
    int fd, pass, gone = 0;

    fd = open(listed, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    /* A read of a folder whose entries go meanwhile may skip some: read
     * it again until it can be removed (a few passes at most). */
    for (pass = 0; !(gone = rmdir(listed) == 0) && pass < 4; pass++) {
        lseek(fd, 0, SEEK_SET);
        while ((n = getdents64(fd, buf, sizeof buf)) > 0)
            for (at = 0; at < n; at += ((struct dirent64 *)(buf + at))
                                           ->d_reclen) {
                const char *name = ((struct dirent64 *)(buf + at))->d_name;

                if (!(name[0] == '.' && (!name[1] || (name[1] == '.'
                                                      && !name[2]))))
                    unlinkat(fd, name, 0);
            }
    }
    close(fd);
    return gone;
}

int
cli_tmpdir_remove(void)
{
    int gone = is_listed && remove_listed();

    is_listed = 0;
    return gone;
}

void
cli_tmpdir_abort(void)
{
    if (!is_listed)
        return;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    remove_listed();
}
