/* runtime/atomic.c: write a file under a temporary name, then rename it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A crash or a write error never leaves a half-written file at PATH: the
 * content goes to PATH.tmp.XXXXXX, is flushed and synced, and only then
 * renamed over PATH (rename is atomic within a file system).  Devices,
 * FIFOs and symbolic links are written through instead (writes_through).
 */
#define _XOPEN_SOURCE 700    /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

/* Whether PATH is written in place rather than replaced: a device or
 * FIFO (/dev/null, /dev/full), or a symbolic link to one, to standard
 * output's file (/dev/stdout) or to a file not made yet (link_to_file
 * takes the others) -- renaming over it would replace the node or the
 * link itself.  A missing path, a regular file and a directory (which
 * fails later with its own message) are not. */
static int
writes_through(const char *path)
{
    struct stat sb;

    if (lstat(path, &sb) != 0)
        return 0;
    if (S_ISLNK(sb.st_mode))
        return stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode);
    return !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

int
fgm_is_stdout(const struct stat *sb)
{
    struct stat out;
    int fl = fcntl(1, F_GETFL);

    /* A read-only descriptor 1 is no output to write through: the CLI's
     * stand-in for a closed stdout (/dev/null, main.c), or `1<FILE`. */
    return fl >= 0 && (fl & O_ACCMODE) != O_RDONLY && fstat(1, &out) == 0
           && sb->st_dev == out.st_dev && sb->st_ino == out.st_ino;
}

fgm_status
fgm_stream_status(FILE *f)
{
    return fflush(f) == 0 && !ferror(f) ? FGM_OK : FGM_EIO;
}

int
fgm_dir_error(const char *dir)
{
    struct stat sb;
    char *probe;
    int fd, err = 0, token;

    if (stat(dir, &sb) != 0)
        return errno;
    if (!S_ISDIR(sb.st_mode))
        return ENOTDIR;
    if (sb.st_nlink == 0)
        return ENOENT;      /* removed, while some process is in it */
    if (access(dir, W_OK | X_OK) != 0)
        return errno;
    /* access() grants root everything, and knows nothing of file systems
     * that refuse new files (/proc, /sys): create one and remove it. */
    probe = malloc(strlen(dir) + sizeof "/.fgm-probe.XXXXXX");
    if (!probe)
        return ENOMEM;
    sprintf(probe, "%s/.fgm-probe.XXXXXX", dir);
    /* Listed while it exists: a signal in between left it behind. */
    fd = fgm_cleanup_mkstemp(probe, &token);
    if (fd < 0) {
        /* ENOENT in a folder that exists (/proc) reads as a missing
         * folder: say that writing there is refused. */
        err = errno == ENOENT ? EACCES : errno;
    } else {
        close(fd);
        if (unlink(probe) != 0)
            err = errno;
        fgm_cleanup_drop(token);
    }
    free(probe);
    return err;
}

/* The longest file name the folder of PATH (its first DL bytes; DL 0:
 * the current folder) takes. */
static size_t
name_max(const char *path, size_t dl)
{
    char *dir = malloc(dl + 2);
    long max = -1;

    if (dir) {
        memcpy(dir, dl ? path : ".", dl ? dl : 1);
        dir[dl ? dl : 1] = '\0';
        max = pathconf(dir, _PC_NAME_MAX);
        free(dir);
    }
    return max > 0 ? (size_t)max : 255;    /* NAME_MAX, where unknown */
}

/* The length of PATH's folder part, its last '/' included (0: none). */
static size_t
folder_len(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? (size_t)(slash - path) + 1 : 0;
}

/* fgm_dir_error of the folder PATH is in (its temporary goes there). */
static int
folder_error(const char *path)
{
    char *dir = strdup(path), *slash;
    int err;

    if (!dir)
        return ENOMEM;
    slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        slash[1] = '\0';       /* "/name": the root */
    else
        *slash = '\0';
    err = fgm_dir_error(dir);
    free(dir);
    return err;
}

/* folder_error of the file a dangling symbolic link PATH names, which
 * writing through it makes: a relative target is read from the link's
 * folder. */
static int
link_target_error(const char *path)
{
    char target[4096], *full;
    const char *slash = strrchr(path, '/');
    ssize_t len = readlink(path, target, sizeof target - 1);
    size_t dl;
    int err;

    if (len < 0)
        return errno;
    target[len] = '\0';
    dl = slash && target[0] != '/' ? (size_t)(slash - path) + 1 : 0;
    full = malloc(dl + (size_t)len + 1);
    if (!full)
        return ENOMEM;
    memcpy(full, path, dl);
    memcpy(full + dl, target, (size_t)len + 1);
    err = folder_error(full);
    free(full);
    return err;
}

/* The file a symbolic link PATH names, when that is a regular file other
 * than the one standard output goes to (malloc'd; NULL otherwise): it is
 * replaced as any file is, under a temporary name next to it then
 * renamed, and the link kept.  (Written through, it was truncated first:
 * an interrupt or a full disk lost what it held for half a report.) */
static char *
link_to_file(const char *path)
{
    struct stat sb, fd_sb;
    char target[16], *real;
    ssize_t n;
    int fd;

    if (lstat(path, &sb) != 0 || !S_ISLNK(sb.st_mode)
        || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return NULL;
    /* Not a file this process or its shell holds open: /dev/stderr,
     * /dev/fd/N, /proc/self/fd/N (or a link to one) name a descriptor,
     * and replacing its file would leave it writing to a removed one
     * (the rest of a `2>>log` lost). */
    n = readlink(path, target, sizeof target - 1);
    target[n > 0 ? n : 0] = '\0';
    if (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0
        || strncmp(target, "/dev/", 5) == 0
        || strncmp(target, "/proc/", 6) == 0)
        return NULL;
    for (fd = 0; fd <= 2; fd++)
        if (fstat(fd, &fd_sb) == 0 && fd_sb.st_dev == sb.st_dev
            && fd_sb.st_ino == sb.st_ino)
            return NULL;
    real = realpath(path, NULL);
    /* Its folder must take the temporary; where it cannot (a file
     * writable in a folder that is not), written through as before. */
    if (real && folder_error(real) != 0) {
        free(real);
        return NULL;
    }
    return real;
}

fgm_status
fgm_write_atomic_check(const char *path, fgm_diag_fn diag, void *ctx)
{
    struct stat sb;
    char *real;
    int err = 0;

    if (!path)
        return FGM_EINVAL;
    if (!*path) {
        err = ENOENT;
    } else if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        err = EISDIR;
    } else if ((real = link_to_file(path)) != NULL) {
        /* Replaced: its file's folder takes the temporary (checked). */
        free(real);
    } else if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        /* Written through: the node must be writable, not its folder (a
         * FIFO, /dev/null), unless it is standard output (open_through
         * writes a copy of descriptor 1). */
        int link = S_ISLNK(sb.st_mode);

        if (stat(path, &sb) != 0)
            /* A link to a file not made yet, which the write makes. */
            err = link && errno == ENOENT ? link_target_error(path) : errno;
        else if (!fgm_is_stdout(&sb) && access(path, W_OK) != 0)
            err = errno;
    } else {
        size_t dl = folder_len(path);

        err = folder_error(path);
        /* A new name too long for its folder ("File name too long" only
         * from the write, after the run). */
        if (!err && strlen(path + dl) > name_max(path, dl))
            err = ENAMETOOLONG;
    }
    if (!err)
        return FGM_OK;
    fgm_diagf(diag, ctx, "%s: error: cannot write: %s", path, strerror(err));
    return FGM_EIO;
}

/* A stream writing through PATH.  When PATH is this process's standard
 * output (/dev/stdout, or a link to the file stdout goes to), a copy of
 * descriptor 1: opening it anew would truncate a `>>` log. */
static FILE *
open_through(const char *path)
{
    struct stat target;
    FILE *f;
    int fd;

    if (stat(path, &target) == 0 && fgm_is_stdout(&target)) {
        fflush(stdout);
        if ((fd = dup(1)) < 0)
            return NULL;
        if (!(f = fdopen(fd, "w")))
            close(fd);
        return f;
    }
    return fopen(path, "w");
}

/* WRITE(ARG, F), and in *ERR the errno of a stream error it met: once
 * the output outgrows stdio's buffer, a full disk fails a write inside
 * WRITE, and the later fflush has nothing left to fail with. */
static fgm_status
write_keeping_errno(fgm_status (*write)(void *arg, FILE *f), void *arg,
                    FILE *f, int *err)
{
    fgm_status st;

    errno = 0;
    st = write(arg, f);
    if (ferror(f) && errno != 0)
        *err = errno;
    return st;
}

mode_t
fgm_umask(void)
{
    /* umask(2) reads it only by setting it, for every thread at once: a
     * file another thread creates meanwhile would get the wrong mode.
     * Linux says it in /proc/self/status (since 4.7). */
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned mask;
    mode_t m = 022;

    if (!f)
        return m;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &mask) == 1) {
            m = (mode_t)(mask & 0777);
            break;
        }
    fclose(f);
    return m;
}

/* Mode of the file written at PATH: that of the regular file it replaces,
 * else 0666 less the umask, as a file created by open (mkstemp made the
 * temporary 0600). */
static mode_t
target_mode(const char *path)
{
    struct stat sb;

    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
        return sb.st_mode & 0777;
    return 0666 & ~fgm_umask();
}

/* The temporary of DEST (malloc'd; NULL out of memory): DEST.tmp.XXXXXX,
 * its file name cut to the longest its folder takes (a 245-byte name
 * made a 256-byte temporary, and the write failed, "File name too long",
 * where DEST itself was fine and fgm_write_atomic_check had said so). */
static char *
temp_name(const char *dest)
{
    static const char suffix[] = ".tmp.XXXXXX";
    size_t dl = folder_len(dest), bl = strlen(dest + dl);
    size_t max = name_max(dest, dl);
    char *tmp = malloc(dl + bl + sizeof suffix);

    if (!tmp)
        return NULL;
    memcpy(tmp, dest, dl);
    if (bl + sizeof suffix - 1 > max && max > sizeof suffix - 1) {
        bl = max - (sizeof suffix - 1);
        /* Not inside a UTF-8 character (APFS refuses such names). */
        while (bl > 1 && ((unsigned char)dest[dl + bl] & 0xc0) == 0x80)
            bl--;
    }
    memcpy(tmp + dl, dest + dl, bl);
    memcpy(tmp + dl + bl, suffix, sizeof suffix);
    return tmp;
}

fgm_status
fgm_write_atomic(const char *path, fgm_status (*write)(void *arg, FILE *f),
                 void *arg, fgm_diag_fn diag, void *ctx)
{
    char *tmp, *real;
    const char *dest;       /* the file replaced: PATH, or its link's */
    fgm_status st = FGM_EIO;
    FILE *f = NULL;
    fgm_cleanup_window win;
    int fd, err = 0, token;

    if (!path || !write)
        return FGM_EINVAL;
    real = link_to_file(path);
    dest = real ? real : path;
    tmp = temp_name(dest);
    if (!tmp) {
        fgm_diagf(diag, ctx, "%s: error: %s", path,
                  fgm_strerror(FGM_ENOMEM));
        free(real);
        return FGM_ENOMEM;
    }
    if (!real && writes_through(path)) {
        free(tmp);
        if (!(f = open_through(path))) {
            err = errno;
        } else {
            st = write_keeping_errno(write, arg, f, &err);
            if (fflush(f) != 0 && !err)
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
    /* Made and listed in one window: never after fgm_abort_cleanup's
     * sweep, where nothing would remove it. */
    fd = fgm_cleanup_mkstemp(tmp, &token);
    if (fd < 0) {
        /* Said of PATH, as every other write error: the temporary name
         * is this function's business (and was quoted unmade, its
         * random letters still XXXXXX when mkstemp failed). */
        fgm_diagf(diag, ctx, "%s: error: cannot write: %s", path,
                  strerror(errno));
        free(tmp);
        free(real);
        return FGM_EIO;
    }
    /* mkstemp makes the file private; a report is meant to be read
     * (0666 less the umask), and a file replaced keeps its mode. */
    if (fchmod(fd, target_mode(dest)) != 0 || !(f = fdopen(fd, "w"))) {
        err = errno;
        close(fd);
        goto fail;
    }
    st = write_keeping_errno(write, arg, f, &err);
    if ((fflush(f) != 0 || fsync(fileno(f)) != 0) && !err)
        err = errno;
    if (fclose(f) != 0 && !err)
        err = errno;
    if (st == FGM_OK && err)
        st = FGM_EIO;
    if (st != FGM_OK)
        goto fail;
    /* In a window too: a rename after fgm_abort_cleanup's sweep would
     * make a file the sweep has passed (a build folder's C file, listed
     * before it exists, kept the folder).  Once aborting, the write
     * fails. */
    err = EINTR;
    if (fgm_cleanup_begin(&win) == 0) {
        err = rename(tmp, dest) != 0 ? errno : 0;
        fgm_cleanup_end(&win);
    }
    if (err) {
        st = FGM_EIO;
        goto fail;
    }
    fgm_cleanup_drop(token);
    free(tmp);
    free(real);
    return FGM_OK;
fail:
    fgm_diagf(diag, ctx, "%s: error: cannot write: %s", path,
              err ? strerror(err) : fgm_strerror(st));
    unlink(tmp);
    fgm_cleanup_drop(token);
    free(tmp);
    free(real);
    return st;
}
