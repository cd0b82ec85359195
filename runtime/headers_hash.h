/* runtime/headers_hash.h: one hash of the kernel headers a plugin includes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A plugin must be compiled from the very headers the running fgm was
 * built with: the interpreter runs the kernels compiled into fgm, a plugin
 * runs what its headers say, and the two must give the same bits.  The
 * build (tools/headers_id.c) hashes the headers into FGM_HEADERS_ID; before
 * compiling a plugin, runtime/plugin.c hashes the files of the include
 * folder it is about to pass to the compiler and refuses one that differs
 * (an installed copy from another version, a source tree edited since the
 * build, a wrong $FGM_INCLUDE_DIR).
 *
 * The hash: 64-bit FNV-1a over, for each header in the order given, its
 * path relative to the folder, a NUL byte, its length as 8 bytes (least
 * significant first) and its bytes.  Not a cryptographic hash: it tells
 * versions apart, it does not stop a forger (who could write the plugin
 * itself).  Shared by the library and the build tool, so static inline. */
#ifndef FGM_HEADERS_HASH_H
#define FGM_HEADERS_HASH_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FGM_FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FGM_FNV_PRIME UINT64_C(0x100000001b3)

/* fgm_headers_hash's failures that are not errno values. */
#define FGM_HEADERS_NOTREG (-1)     /* not a regular file */
#define FGM_HEADERS_CHANGED (-2)    /* its size changed while it was read */

static inline uint64_t
fgm_fnv_bytes(uint64_t h, const unsigned char *p, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= FGM_FNV_PRIME;
    }
    return h;
}

/* The text of fgm_headers_hash's nonzero return value E. */
static inline const char *
fgm_headers_strerror(int e)
{
    if (e == FGM_HEADERS_NOTREG)
        return "not a regular file";
    if (e == FGM_HEADERS_CHANGED)
        return "changed while it was read";
    return strerror(e);
}

/* Hashes the N headers NAMES (paths relative to DIR) into *OUT.  Returns
 * 0; else *BAD names the first header that could not be hashed, and the
 * value returned says why (fgm_headers_strerror): an errno value, or
 * FGM_HEADERS_NOTREG or FGM_HEADERS_CHANGED.  Only regular files are
 * read, opened without blocking, as plugin_sys.c's precheck does: a FIFO
 * would hang the open and a device need not end.  Close-on-exec, as
 * another thread may be forking a compiler meanwhile. */
static inline int
fgm_headers_hash(const char *dir, const char *const *names, int n,
                 uint64_t *out, const char **bad)
{
    unsigned char buf[8192], len[8];
    char path[4096];
    uint64_t h = FGM_FNV_OFFSET, size, total;
    struct stat sb;
    ssize_t got;
    int i, b, fd, e;

    for (i = 0; i < n; i++) {
        *bad = names[i];
        if (snprintf(path, sizeof path, "%s/%s", dir, names[i])
            >= (int)sizeof path)
            return ENAMETOOLONG;
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            return errno;
        if (fstat(fd, &sb) != 0)
            e = errno;
        else
            e = S_ISREG(sb.st_mode) ? 0 : FGM_HEADERS_NOTREG;
        if (e) {
            close(fd);
            return e;
        }
        /* The length first, so that moving bytes from one file to the
         * next changes the hash. */
        size = (uint64_t)sb.st_size;
        h = fgm_fnv_bytes(h, (const unsigned char *)names[i],
                          strlen(names[i]) + 1);
        for (b = 0; b < 8; b++)
            len[b] = (unsigned char)(size >> (8 * b));
        h = fgm_fnv_bytes(h, len, sizeof len);
        total = 0;
        while ((got = read(fd, buf, sizeof buf)) != 0) {
            if (got < 0) {
                if (errno == EINTR)
                    continue;
                e = errno;
                close(fd);
                return e;
            }
            h = fgm_fnv_bytes(h, buf, (size_t)got);
            total += (uint64_t)got;
        }
        close(fd);
        if (total != size)
            return FGM_HEADERS_CHANGED;
    }
    *bad = NULL;
    *out = h;
    return 0;
}

#endif /* FGM_HEADERS_HASH_H */
