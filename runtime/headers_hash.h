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

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FGM_FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FGM_FNV_PRIME UINT64_C(0x100000001b3)

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

/* Hashes the N headers NAMES (paths relative to DIR) into *OUT.  Returns
 * 0, or -1 with *BAD set to the first name that could not be read. */
static inline int
fgm_headers_hash(const char *dir, const char *const *names, int n,
                 uint64_t *out, const char **bad)
{
    unsigned char buf[8192], len[8];
    char path[4096];
    uint64_t h = FGM_FNV_OFFSET, size;
    size_t got;
    FILE *f;
    int i, b;

    for (i = 0; i < n; i++) {
        *bad = names[i];
        if (snprintf(path, sizeof path, "%s/%s", dir, names[i])
            >= (int)sizeof path)
            return -1;
        f = fopen(path, "rb");
        if (!f)
            return -1;
        /* The length first, so that moving bytes from one file to the
         * next changes the hash. */
        if (fseek(f, 0, SEEK_END) != 0 || ftell(f) < 0) {
            fclose(f);
            return -1;
        }
        size = (uint64_t)ftell(f);
        rewind(f);
        h = fgm_fnv_bytes(h, (const unsigned char *)names[i],
                          strlen(names[i]) + 1);
        for (b = 0; b < 8; b++)
            len[b] = (unsigned char)(size >> (8 * b));
        h = fgm_fnv_bytes(h, len, sizeof len);
        while ((got = fread(buf, 1, sizeof buf, f)) > 0)
            h = fgm_fnv_bytes(h, buf, got);
        if (ferror(f)) {
            fclose(f);
            return -1;
        }
        fclose(f);
    }
    *bad = NULL;
    *out = h;
    return 0;
}

#endif /* FGM_HEADERS_HASH_H */
