/* runtime/atomic.c: write a file under a temporary name, then rename it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A crash or a write error never leaves a half-written file at PATH: the
 * content goes to PATH.tmp.XXXXXX, is flushed and synced, and only then
 * renamed over PATH (rename is atomic within a file system).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

fgm_status
fgm_write_atomic(const char *path, fgm_status (*write)(void *arg, FILE *f),
                 void *arg, fgm_diag_fn diag, void *ctx)
{
    static const char suffix[] = ".tmp.XXXXXX";
    size_t len = strlen(path);
    char *tmp = malloc(len + sizeof suffix);
    fgm_status st = FGM_EIO;
    FILE *f = NULL;
    struct stat sb;
    int fd, err = 0;

    if (!tmp) {
        fgm_diagf(diag, ctx, "%s: error: %s", path,
                  fgm_strerror(FGM_ENOMEM));
        return FGM_ENOMEM;
    }
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)
        && !S_ISDIR(sb.st_mode)) {
        /* A device or FIFO (/dev/stdout, /dev/null, /dev/full): write
         * through it; renaming over it would replace the node itself. */
        free(tmp);
        if (!(f = fopen(path, "w"))) {
            err = errno;
        } else {
            st = write(arg, f);
            if (fflush(f) != 0)
                err = errno;
            if (fclose(f) != 0 && !err)
                err = errno;
        }
        if (err)
            st = FGM_EIO;
        if (st != FGM_OK)
            fgm_diagf(diag, ctx, "%s: error: cannot write: %s", path,
                      err ? strerror(err) : fgm_strerror(st));
        return st;
    }
    memcpy(tmp, path, len);
    memcpy(tmp + len, suffix, sizeof suffix);
    fd = mkstemp(tmp);
    if (fd < 0) {
        fgm_diagf(diag, ctx, "%s: error: cannot create %s: %s", path, tmp,
                  strerror(errno));
        free(tmp);
        return FGM_EIO;
    }
    /* mkstemp makes the file private; a report is meant to be read. */
    if (fchmod(fd, 0644) != 0 || !(f = fdopen(fd, "w"))) {
        err = errno;
        close(fd);
        goto fail;
    }
    st = write(arg, f);
    if (fflush(f) != 0 || fsync(fileno(f)) != 0)
        err = errno;
    if (fclose(f) != 0 && !err)
        err = errno;
    if (st == FGM_OK && err)
        st = FGM_EIO;
    if (st != FGM_OK)
        goto fail;
    if (rename(tmp, path) != 0) {
        err = errno;
        st = FGM_EIO;
        goto fail;
    }
    free(tmp);
    return FGM_OK;
fail:
    fgm_diagf(diag, ctx, "%s: error: cannot write: %s", path,
              err ? strerror(err) : fgm_strerror(st));
    unlink(tmp);
    free(tmp);
    return st;
}
