/* runtime/plugin_seal.c: a digest of a plugin's bytes, written by its build
 * and checked before it is loaded.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The loader's other checks (the ELF header, the segments against the
 * file's size, the descriptor's ABI, hash and build id) read the file's
 * frame, not its contents: 64 bytes of .rodata overwritten in place left
 * a plugin that loaded and then hung in its sweep (its index tables
 * damaged), or died of SIGSEGV or SIGTRAP, with nothing said.  So every
 * generated plugin carries a seal (FGM_PLUGIN_SEAL in plugin_abi.h: the
 * magic, then 8 bytes), which the build fills with a digest of the whole
 * file, those 8 bytes taken as zeros; a plugin whose bytes no longer give
 * its digest is damaged, and rebuilt like any broken plugin.  A seal of
 * zeros (a plugin built by hand from `fgm compile --emit-c`) is not
 * checked; no seal at all, in a plugin whose descriptor says this fgm
 * generated it, is damage over the seal itself (runtime/plugin.c).  The
 * digest finds damage, not tampering: anyone who can write the file can
 * seal it again.
 *
 * Cost: one read of the file and 8 bytes hashed a step: 0.017 ms for
 * Sudoku's 9x9 plugin (57 KB; 2000 checks, the Intel Xeon, 2026-12-07),
 * where parsing the model and loading the plugin take 0.6-0.9 ms.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "plugin.h"
#include "plugin_abi.h"

#define MAGIC_LEN (sizeof FGM_PLUGIN_SEAL_MAGIC - 1)
#define DIGEST_LEN 8

/* Files larger than this are not read whole, and not checked. */
#define MAX_SEALED (1L << 30)

_Static_assert(MAGIC_LEN == 16, "FGM_PLUGIN_SEAL writes 16 characters");

/* The digest of the N bytes at P: a multiply-xorshift hash over 8-byte
 * words, the tail byte by byte; never 0 (0 means "not sealed"). */
static uint64_t
digest(const unsigned char *p, size_t n)
{
    const uint64_t k = UINT64_C(0x9e3779b97f4a7c15);
    uint64_t h = UINT64_C(0x6a09e667f3bcc909) ^ n, w;
    size_t i;

    for (i = 0; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * k;
    h ^= h >> 32;
    return h ? h : 1;
}

/* The file PATH read whole into *BUF (malloc'd), its size in *N.
 * Returns 0 or an errno value (EFBIG past MAX_SEALED, EINVAL for what is
 * not a regular file). */
static int
read_all(const char *path, unsigned char **buf, size_t *n)
{
    struct stat sb;
    size_t got = 0;
    ssize_t r;
    /* O_NONBLOCK: a FIFO at the path must not block the loader (it is
     * then refused, not read). */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), e = 0;

    *buf = NULL;
    if (fd < 0)
        return errno;
    if (fstat(fd, &sb) != 0)
        e = errno;
    else if (!S_ISREG(sb.st_mode))
        e = EINVAL;
    else if (sb.st_size > MAX_SEALED)
        e = EFBIG;
    else if (!(*buf = malloc((size_t)sb.st_size + 1)))
        e = ENOMEM;
    while (!e && got < (size_t)sb.st_size) {
        r = read(fd, *buf + got, (size_t)sb.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            e = r < 0 ? errno : EIO;
        else
            got += (size_t)r;
    }
    close(fd);
    if (e) {
        free(*buf);
        *buf = NULL;
        return e;
    }
    *n = got;
    return 0;
}

/* The offset of the seal's digest in the N bytes at P: just past the
 * only copy of the magic; -1 when there is none, or more than one (the
 * seal cannot be told). */
static long
seal_at(const unsigned char *p, size_t n)
{
    const unsigned char *hit = NULL, *at = p, *end = p + n;

    /* Lengths compared, never pointers past the end. */
    while ((size_t)(end - at) >= MAGIC_LEN + DIGEST_LEN) {
        const unsigned char *m = memchr(at, FGM_PLUGIN_SEAL_MAGIC[0],
                                        (size_t)(end - at));

        if (!m || (size_t)(end - m) < MAGIC_LEN + DIGEST_LEN)
            break;
        if (memcmp(m, FGM_PLUGIN_SEAL_MAGIC, MAGIC_LEN) == 0) {
            if (hit)
                return -1;
            hit = m;
        }
        at = m + 1;
    }
    return hit ? (long)(hit - p + (long)MAGIC_LEN) : -1;
}

fgm_status
fgm_plugin_seal(const char *path, char *why, size_t whysize)
{
    unsigned char *buf, zero[DIGEST_LEN] = { 0 };
    size_t n;
    uint64_t d;
    long at;
    int e = read_all(path, &buf, &n), fd;

    if (e == EFBIG)
        return FGM_OK;          /* too large to check: left unsealed */
    if (e)
        goto fail;
    at = seal_at(buf, n);
    if (at < 0 || memcmp(buf + at, zero, DIGEST_LEN) != 0) {
        free(buf);
        return FGM_OK;          /* no seal of ours to fill */
    }
    d = digest(buf, n);
    free(buf);
    fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        e = errno;
        goto fail;
    }
    errno = 0;
    if (pwrite(fd, &d, DIGEST_LEN, (off_t)at) != DIGEST_LEN)
        e = errno ? errno : EIO;
    if (close(fd) != 0 && !e)
        e = errno;
    if (!e)
        return FGM_OK;
fail:
    snprintf(why, whysize, "%s: cannot seal: %s", path, strerror(e));
    return e == ENOMEM ? FGM_ENOMEM : FGM_EIO;
}

fgm_status
fgm_plugin_seal_check(const char *path, int *found, char *why,
                      size_t whysize)
{
    unsigned char *buf, zero[DIGEST_LEN] = { 0 };
    uint64_t want, got;
    size_t n;
    long at;
    int e = read_all(path, &buf, &n);

    *found = 1;
    if (e)
        return FGM_OK;          /* the loader says what is wrong */
    at = seal_at(buf, n);
    *found = at >= 0;
    if (at < 0 || memcmp(buf + at, zero, DIGEST_LEN) == 0) {
        free(buf);
        return FGM_OK;          /* not sealed: not checked */
    }
    memcpy(&want, buf + at, DIGEST_LEN);
    memset(buf + at, 0, DIGEST_LEN);
    got = digest(buf, n);
    free(buf);
    if (got == want)
        return FGM_OK;
    snprintf(why, whysize, "damaged (its bytes no longer match the digest "
             "its build wrote)");
    return FGM_EPLUGIN;
}
