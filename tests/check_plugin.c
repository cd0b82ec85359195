/* tests/check_plugin.c: plugin loader, builder and the fallback cascade.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each test works in its own folder under /tmp (mkdtemp) and removes it.
 * Fixture plugins are written by emit_fixture, the stand-in for the code
 * generator, and compiled with the real C compiler ($CC or cc) against
 * runtime/plugin_abi.h: the tests run from the repository root.
 */
#include <check.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../runtime/plugin.h"
#include "fgm_build_id.h"
#include "suites.h"

#define HASH_A UINT64_C(0x0123456789abcdef)
#define HASH_B UINT64_C(0xfedcba9876543210)

/* What emit_fixture writes: a tiny plugin, right or wrong in one way. */
typedef struct fixture {
    uint64_t hash;
    unsigned abi;       /* FGM_PLUGIN_ABI_VERSION unless testing a mismatch */
    int no_entry;       /* export the entry under another name */
    int data_entry;     /* ... and an int under the entry's name */
    int null_desc;      /* the entry returns NULL */
    int no_sweep;       /* descriptor without a sweep function */
    int short_size;     /* descriptor claims 8 bytes */
    uint64_t build_id;  /* FGM_BUILD_ID unless testing another build */
    int broken;         /* a syntax error */
    int fail;           /* emit_c returns FGM_EINTERNAL after writing */
    int calls;          /* emit_c calls so far */
    int nvars;          /* the descriptor's (default 2) */
    int want_nvars;     /* what fits_fixture takes */
} fixture;

static fixture
fixture_ok(uint64_t hash)
{
    fixture fx;

    memset(&fx, 0, sizeof fx);
    fx.hash = hash;
    fx.nvars = 2;
    fx.abi = FGM_PLUGIN_ABI_VERSION;
    fx.build_id = fgm_plugin_build_id();
    return fx;
}

static fgm_status
emit_fixture(void *arg, FILE *f)
{
    fixture *fx = arg;
    const char *entry = fx->no_entry || fx->data_entry
                        ? "not_the_entry" : FGM_PLUGIN_ENTRY_NAME;

    fx->calls++;
    fprintf(f, "/* fixture plugin written by tests/check_plugin.c */\n"
               "#include \"plugin_abi.h\"\n\n");
    if (fx->broken)
        fprintf(f, "static int broken(void) { return 1 }\n\n");
    /* Sealed by the build, as a generated plugin is. */
    fprintf(f, "FGM_PLUGIN_SEAL;\n\n");
    fprintf(f, "static void\nfx_reset(fgm_state *st)\n{\n"
               "    st->damping = 0.25;\n}\n\n"
               "static double\nfx_sweep(fgm_state *st)\n{\n"
               "    return 2 * st->damping;\n}\n\n"
               "static void\nfx_finish(fgm_state *st)\n{\n"
               "    (void)st;\n}\n\n");
    fprintf(f, "static const fgm_plugin_desc desc = {\n"
               "    %uu, %s, UINT64_C(0x%016llx), \"fixture\", \"ep\",\n"
               "    %d, 3, 4, 0, 0, 0, fx_reset, %s, fx_finish,\n"
               "    UINT64_C(0x%016llx)\n};\n\n",
            fx->abi, fx->short_size ? "8" : "sizeof(fgm_plugin_desc)",
            (unsigned long long)fx->hash, fx->nvars,
            fx->no_sweep ? "0" : "fx_sweep",
            (unsigned long long)fx->build_id);
    fprintf(f, "const fgm_plugin_desc *%s(void);\n\n"
               "const fgm_plugin_desc *\n%s(void)\n{\n"
               "    return %s;\n}\n",
            entry, entry, fx->null_desc ? "0" : "&desc");
    if (fx->data_entry)
        fprintf(f, "\nconst int %s = 1;\n", FGM_PLUGIN_ENTRY_NAME);
    return fx->fail ? FGM_EINTERNAL : FGM_OK;
}

/* Diagnostics received: how many, and the last one. */
typedef struct diags {
    int n;
    char last[1024];
} diags;

static void
count_diag(void *ctx, const char *msg)
{
    diags *d = ctx;

    d->n++;
    snprintf(d->last, sizeof d->last, "%s", msg);
}

/* ---- files ------------------------------------------------------------- */

/* The current test's folder, made by setup and removed by teardown (a
 * check fixture, so that a failed test removes it too). */
static char tdir[64];

static void
rmtree(const char *path)
{
    struct stat sb;
    DIR *d;
    struct dirent *e;
    char sub[1024];

    if (lstat(path, &sb) != 0)
        return;
    if (!S_ISDIR(sb.st_mode)) {
        unlink(path);
        return;
    }
    chmod(path, 0700);
    d = opendir(path);
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        rmtree(sub);
    }
    if (d)
        closedir(d);
    rmdir(path);
}

/* Entries of DIR (without . and ..) whose name contains PART ("" for
 * all); -1 if DIR cannot be read. */
static int
count_entries(const char *dir, const char *part)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    if (!d)
        return -1;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0
            && strstr(e->d_name, part))
            n++;
    closedir(d);
    return n;
}

#define ck_assert_no_tmp(dir) \
    ck_assert_msg(count_entries(dir, ".tmp.") <= 0, \
                  "no temporary file is left in %s", dir)

static void
join(char *buf, size_t size, const char *dir, const char *name)
{
    snprintf(buf, size, "%s/%s", dir, name);
}

static int
exists(const char *path)
{
    struct stat sb;

    return stat(path, &sb) == 0;
}

/* fgm_plugin_build of the fixture FX, written as NAME.c into a build
 * folder of its own next to SO_PATH, with CC; the reason in WHY, and the
 * C file's path as the compiler was given it in C_SEEN (may be NULL). */
static fgm_status
build_c(const char *name, fixture *fx, const char *so_path, const char *cc,
        char *why, size_t whysize, char *c_seen, size_t seensize)
{
    char c_name[256];
    fgm_build_dir b;
    fgm_status st;
    FILE *f;

    snprintf(c_name, sizeof c_name, "%s.c", name);
    ck_assert_int_eq(fgm_build_dir_open(&b, so_path, c_name), 0);
    f = fopen(b.c, "w");
    ck_assert_ptr_nonnull(f);
    emit_fixture(fx, f);
    ck_assert_int_eq(fclose(f), 0);
    st = fgm_plugin_build(&b, so_path, cc, NULL, why, whysize);
    if (c_seen)
        snprintf(c_seen, seensize, "%s", b.c);
    fgm_build_dir_close(&b);
    return st;
}

/* Builds the fixture FX (C file NAME.c) into SO_PATH. */
static void
build_fixture(const char *name, fixture *fx, const char *so_path)
{
    char why[1024];

    ck_assert_msg(build_c(name, fx, so_path, NULL, why, sizeof why, NULL, 0)
                  == FGM_OK, "fixture %s builds: %s", name, why);
}

/* Reads the whole file PATH into a malloc'ed buffer. */
static unsigned char *
slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long n;

    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Replaces PATH by a new file holding BUF[0..LEN-1] (never in place: a
 * loaded object must not change under the loader). */
static void
spit(const char *path, const void *buf, size_t len)
{
    FILE *f;

    unlink(path);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

/* A request for DIR/m.ep.so built from FX. */
static fgm_plugin_req
request(const char *dir, fixture *fx, fgm_backend_mode mode)
{
    fgm_plugin_req req;

    memset(&req, 0, sizeof req);
    req.out_dir = dir;
    req.model_name = "m";
    req.algo = "ep";
    req.hash = fx->hash;
    req.mode = mode;
    req.emit_c = emit_fixture;
    req.emit_arg = fx;
    return req;
}

/* Runs the cascade in AUTO mode over a broken DIR/m.ep.so and checks that
 * it was rebuilt from FX, with one report ending in "; rebuilding" that
 * starts with WHY. */
static void
check_rebuilds(const char *dir, const char *why)
{
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req = request(dir, &fx, FGM_BACKEND_AUTO);
    fgm_plugin *p = NULL;
    diags d = { 0, "" };
    char want[1100];
    int rebuilt = 0;

    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_msg(p != NULL, "compiled after the rebuild");
    ck_assert_int_eq(rebuilt, 1);
    ck_assert_int_eq(fx.calls, 1);
    ck_assert_msg(d.n == 1, "the fallback is reported once (%d)", d.n);
    snprintf(want, sizeof want, "%s; rebuilding", why);
    ck_assert_str_eq(d.last, want);
    ck_assert_msg(fgm_plugin_descriptor(p)->ir_hash == HASH_A,
                  "the new plugin carries the model's hash");
    fgm_plugin_close(p);
    ck_assert_no_tmp(dir);
}

/* ---- core -------------------------------------------------------------- */

static void
setup(void)
{
    snprintf(tdir, sizeof tdir, "/tmp/fgm-plugin-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tdir));
}

static void
teardown(void)
{
    rmtree(tdir);
}

START_TEST(test_build_and_open)
{
    fixture fx = fixture_ok(HASH_A);
    char so[1024], why[1024];
    const fgm_plugin_desc *d;
    fgm_state st;
    fgm_plugin *p = NULL;

    join(so, sizeof so, tdir, "m.ep.so");
    build_fixture("src", &fx, so);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_OK);
    ck_assert_str_eq(why, "");
    d = fgm_plugin_descriptor(p);
    ck_assert_uint_eq(d->abi_version, FGM_PLUGIN_ABI_VERSION);
    ck_assert_uint_eq(d->size, sizeof(fgm_plugin_desc));
    ck_assert_str_eq(d->model, "fixture");
    ck_assert_str_eq(d->algo, "ep");
    ck_assert_int_eq(d->nvars, 2);
    ck_assert_int_eq(d->nedges, 4);
    ck_assert_str_eq(fgm_plugin_path(p), so);
    memset(&st, 0, sizeof st);
    d->reset(&st);
    /* 2 * 0.25 is exact in binary floating point. */
    ck_assert_double_eq(d->sweep(&st), 0.5);
    d->finish(&st);
    fgm_plugin_close(p);
    fgm_plugin_close(NULL);
    ck_assert_no_tmp(tdir);
}
END_TEST

START_TEST(test_load_missing_rebuilds)
{
    char path[1024], want[1100];
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req;
    fgm_plugin *p = NULL;
    diags d = { 0, "" };
    int rebuilt = 0;

    req = request(tdir, &fx, FGM_BACKEND_AUTO);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(rebuilt, 1);
    ck_assert_int_eq(d.n, 1);
    snprintf(want, sizeof want, "%s/m.ep.so: not found; rebuilding", tdir);
    ck_assert_str_eq(d.last, want);
    join(path, sizeof path, tdir, "m.ep.c");
    ck_assert_msg(exists(path), "the C source is kept next to the plugin");
    join(path, sizeof path, tdir, "m.ep.so");
    ck_assert_str_eq(fgm_plugin_path(p), path);
    ck_assert_int_eq(count_entries(tdir, ""), 2);
    fgm_plugin_close(p);
}
END_TEST

/* fgm_plugin_req.fits for a fixture: its want_nvars variables. */
static int
fits_fixture(void *arg, const struct fgm_plugin_desc *d)
{
    const fixture *fx = arg;

    return d->nvars == fx->want_nvars;
}

/* A plugin whose descriptor's sizes are not the caller's (one changed
 * byte there) is rebuilt, where it was interpreted every run and `fgm
 * compile` gave up; one that a rebuild leaves so is the generator's bug:
 * interpreted in AUTO mode, FGM_EINTERNAL in COMPILED. */
START_TEST(test_load_sizes)
{
    char want[1100], so[1024];
    struct stat before, after;
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req;
    fgm_plugin *p = NULL;
    diags d = { 0, "" };
    int rebuilt = 0;

    fx.nvars = 5;
    req = request(tdir, &fx, FGM_BACKEND_AUTO);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_nonnull(p);
    fgm_plugin_close(p);
    fx.nvars = fx.want_nvars = 2;
    req.fits = fits_fixture;
    d.n = 0;
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(rebuilt, 1);
    ck_assert_int_eq(fgm_plugin_descriptor(p)->nvars, 2);
    ck_assert_int_eq(d.n, 1);
    snprintf(want, sizeof want, "%s/m.ep.so: plugin sizes do not match the "
             "model's schedule; rebuilding", tdir);
    ck_assert_str_eq(d.last, want);
    fgm_plugin_close(p);
    fx.want_nvars = 3;
    d.n = 0;
    join(so, sizeof so, tdir, "m.ep.so");
    ck_assert_int_eq(stat(so, &before), 0);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(d.n, 2);
    /* The rebuilt one, refused, replaced nothing (it stayed installed,
     * to be rebuilt at every run). */
    ck_assert_int_eq(stat(so, &after), 0);
    ck_assert(before.st_ino == after.st_ino);
    ck_assert_int_eq(count_entries(tdir, ".tmp."), 0);
    snprintf(want, sizeof want, "%s/m.ep.so: plugin sizes do not match the "
             "model's schedule (the code generator's bug); interpreting",
             tdir);
    ck_assert_str_eq(d.last, want);
    req.mode = FGM_BACKEND_COMPILED;
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_EINTERNAL);
    ck_assert_ptr_null(p);
}
END_TEST

/* The first copy of the N bytes at NEEDLE in the LEN bytes at BUF, or
 * NULL (memmem is no POSIX function). */
static unsigned char *
find_bytes(unsigned char *buf, size_t len, const char *needle, size_t n)
{
    size_t i;

    for (i = 0; i + n <= len; i++)
        if (memcmp(buf + i, needle, n) == 0)
            return buf + i;
    return NULL;
}

/* Writes COUNT bytes BYTE into the file PATH, SKIP bytes past the first
 * copy of the string NEEDLE there (which must be there). */
static void
overwrite(const char *path, const char *needle, size_t skip, int byte,
          size_t count)
{
    size_t len;
    unsigned char *buf = slurp(path, &len);
    unsigned char *at = find_bytes(buf, len, needle, strlen(needle));

    ck_assert_msg(at != NULL, "%s holds %s", path, needle);
    memset(at + skip, byte, count);
    spit(path, buf, len);
    free(buf);
}

/* A plugin's build seals it with a digest of its bytes; one byte changed
 * where the loader's other checks do not look (the model's name in
 * .rodata: tables there, damaged, made a plugin hang in its sweep) is
 * found before it is loaded, and the plugin rebuilt. */
START_TEST(test_load_sealed)
{
    char so[1024], want[1100];
    static const char zero[8];
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req;
    fgm_plugin *p = NULL;
    diags d = { 0, "" };
    int rebuilt = -1;
    size_t len;
    unsigned char *buf, *at;

    join(so, sizeof so, tdir, "m.ep.so");
    req = request(tdir, &fx, FGM_BACKEND_AUTO);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_nonnull(p);
    fgm_plugin_close(p);
    buf = slurp(so, &len);
    at = find_bytes(buf, len, FGM_PLUGIN_SEAL_MAGIC,
                    sizeof FGM_PLUGIN_SEAL_MAGIC - 1);
    ck_assert_ptr_nonnull(at);
    ck_assert_msg(memcmp(at + sizeof FGM_PLUGIN_SEAL_MAGIC - 1, zero, 8),
                  "the build filled the seal");
    free(buf);
    d.n = 0;
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_int_eq(rebuilt, 0);
    ck_assert_int_eq(d.n, 0);
    fgm_plugin_close(p);
    overwrite(so, "fixture", 6, 'f', 1);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(rebuilt, 1);
    snprintf(want, sizeof want, "%s: damaged (its bytes no longer match the "
             "digest its build wrote); rebuilding", so);
    ck_assert_str_eq(d.last, want);
    fgm_plugin_close(p);
    /* Damage over the seal itself: no seal left, in a plugin whose build
     * id says this fgm generated it (the check was skipped, the plugin
     * loaded). */
    overwrite(so, FGM_PLUGIN_SEAL_MAGIC, 0, 0xff, 24);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(rebuilt, 1);
    snprintf(want, sizeof want, "%s: damaged (its seal is gone); rebuilding",
             so);
    ck_assert_str_eq(d.last, want);
    fgm_plugin_close(p);
    /* A seal of zeros (a plugin built by hand from --emit-c) is not
     * checked: the changed byte goes unseen. */
    build_fixture("byhand", &fx, so);
    overwrite(so, FGM_PLUGIN_SEAL_MAGIC, 16, 0, 8);
    overwrite(so, "fixture", 6, 'f', 1);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_int_eq(rebuilt, 0);
    fgm_plugin_close(p);
}
END_TEST

START_TEST(test_load_up_to_date)
{
    char so[1024], c[1024];
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req;
    fgm_plugin *p = NULL;
    diags d = { 0, "" };
    struct stat before, after, cbefore, cafter;
    int rebuilt = -1, i;

    join(so, sizeof so, tdir, "m.ep.so");
    join(c, sizeof c, tdir, "m.ep.c");
    req = request(tdir, &fx, FGM_BACKEND_AUTO);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    fgm_plugin_close(p);
    ck_assert_int_eq(stat(so, &before), 0);
    ck_assert_int_eq(stat(c, &cbefore), 0);
    d.n = 0;
    for (i = 0; i < 2; i++) {
        req.mode = i ? FGM_BACKEND_COMPILED : FGM_BACKEND_AUTO;
        ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag,
                                         &d), FGM_OK);
        ck_assert_ptr_nonnull(p);
        ck_assert_msg(rebuilt == 0, "an up-to-date plugin is not rebuilt");
        fgm_plugin_close(p);
    }
    ck_assert_msg(d.n == 0, "nothing to report: %s", d.last);
    ck_assert_int_eq(fx.calls, 1);
    ck_assert_int_eq(stat(so, &after), 0);
    ck_assert_int_eq(stat(c, &cafter), 0);
    ck_assert_msg(before.st_ino == after.st_ino
                  && before.st_mtim.tv_sec == after.st_mtim.tv_sec
                  && before.st_mtim.tv_nsec == after.st_mtim.tv_nsec,
                  "the .so is untouched");
    ck_assert_msg(cbefore.st_ino == cafter.st_ino
                  && cbefore.st_mtim.tv_nsec == cafter.st_mtim.tv_nsec,
                  "the .c is untouched");
}
END_TEST

START_TEST(test_load_creates_dir)
{
    char gen[1024], want[1100];
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req;
    fgm_plugin *p = NULL;
    diags d = { 0, "" };
    int rebuilt = 0;

    join(gen, sizeof gen, tdir, "generated/");
    req = request(gen, &fx, FGM_BACKEND_COMPILED);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(rebuilt, 1);
    snprintf(want, sizeof want, "%sm.ep.so: not found; rebuilding", gen);
    ck_assert_str_eq(d.last, want);
    ck_assert_int_eq(count_entries(gen, ".so"), 1);
    fgm_plugin_close(p);
}
END_TEST

START_TEST(test_interpreted_touches_nothing)
{
    char gen[1024];
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req;
    fgm_plugin *p = (fgm_plugin *)&fx;
    diags d = { 0, "" };
    int rebuilt = -1;

    req = request(tdir, &fx, FGM_BACKEND_INTERPRETED);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(rebuilt, 0);
    ck_assert_int_eq(d.n, 0);
    ck_assert_int_eq(fx.calls, 0);
    ck_assert_msg(count_entries(tdir, "") == 0, "the folder stays empty");
    join(gen, sizeof gen, tdir, "generated");
    req.out_dir = gen;
    ck_assert_int_eq(fgm_plugin_load(&req, &p, NULL, count_diag, &d),
                     FGM_OK);
    ck_assert_msg(!exists(gen), "a missing folder is not created");
}
END_TEST

START_TEST(test_cc_split_on_blanks)
{
    fixture fx = fixture_ok(HASH_A);
    char so[1024], why[1024];
    const char *cc = getenv("CC");
    char words[256];
    fgm_plugin *p = NULL;

    join(so, sizeof so, tdir, "m.ep.so");
    snprintf(words, sizeof words, "  %s \t -w  -DUNUSED=1 ",
             cc && *cc ? cc : "cc");
    ck_assert_msg(build_c("m.ep", &fx, so, words, why, sizeof why, NULL, 0)
                  == FGM_OK, "\"%s\" runs as words: %s", words, why);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_OK);
    fgm_plugin_close(p);
    ck_assert_no_tmp(tdir);
}
END_TEST

/* A plugin of the same path still open elsewhere in the process must not
 * be handed back for a rebuilt one (dlopen caches by path). */
START_TEST(test_rebuild_while_old_is_open)
{
    fixture old = fixture_ok(HASH_B), fx = fixture_ok(HASH_A);
    char so[1024], why[1024];
    fgm_plugin_req req;
    fgm_plugin *held = NULL, *p = NULL, *again = NULL;
    diags d = { 0, "" };
    fgm_state st;
    int rebuilt = 0;

    join(so, sizeof so, tdir, "m.ep.so");
    build_fixture("old", &old, so);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_B, &held, why, sizeof why),
                     FGM_OK);
    req = request(tdir, &fx, FGM_BACKEND_COMPILED);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_int_eq(rebuilt, 1);
    ck_assert_int_eq(d.n, 1);
    ck_assert_msg(fgm_plugin_descriptor(p)->ir_hash == HASH_A,
                  "the fresh image, not the cached old one");
    ck_assert_msg(fgm_plugin_descriptor(held)->ir_hash == HASH_B,
                  "the old image still works after its file was replaced");
    memset(&st, 0, sizeof st);
    fgm_plugin_descriptor(held)->reset(&st);
    ck_assert_double_eq(fgm_plugin_descriptor(held)->sweep(&st), 0.5);
    fgm_plugin_close(held);
    /* The installed file is the image already loaded under its temporary
     * name: same inode, so it is shared, not loaded twice. */
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &again, why, sizeof why),
                     FGM_OK);
    ck_assert_ptr_eq(fgm_plugin_descriptor(again), fgm_plugin_descriptor(p));
    fgm_plugin_close(again);
    fgm_plugin_close(p);
    ck_assert_no_tmp(tdir);
}
END_TEST

/* ---- errors: every broken plugin is reported and rebuilt --------------- */

START_TEST(test_corrupt_zeros)
{
    static const unsigned char zeros[1024];     /* the seed's corrupt DLL */
    char so[1024], why[1024], want[1100];
    fgm_plugin *p;

    p = (fgm_plugin *)(void *)tdir;  /* must come back NULL */
    join(so, sizeof so, tdir, "m.ep.so");
    spit(so, zeros, sizeof zeros);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_EPLUGIN);
    ck_assert_ptr_null(p);
    snprintf(want, sizeof want, "%s: invalid ELF header", so);
    ck_assert_str_eq(why, want);
    check_rebuilds(tdir, want);
}
END_TEST

START_TEST(test_corrupt_garbage)
{
    unsigned char bytes[4096];
    char so[1024], why[1024];
    unsigned long x = 12345;
    fgm_plugin *p = NULL;
    size_t i;
    int round;

    join(so, sizeof so, tdir, "m.ep.so");
    /* Random bytes, then random bytes behind a valid ELF identification
     * (the loader reads headers it cannot trust): fixed seeds. */
    for (round = 0; round < 16; round++) {
        for (i = 0; i < sizeof bytes; i++) {
            x = x * 6364136223846793005ul + 1442695040888963407ul;
            bytes[i] = (unsigned char)(x >> 33);
        }
        if (round > 0)
            memcpy(bytes, "\177ELF\002\001\001\000", 8);
        spit(so, bytes, sizeof bytes);
        ck_assert_msg(fgm_plugin_open(so, HASH_A, &p, why, sizeof why)
                      == FGM_EPLUGIN, "garbage round %d is refused", round);
        ck_assert_ptr_null(p);
        ck_assert_msg(strncmp(why, so, strlen(so)) == 0
                      && strchr(why, '\n') == NULL,
                      "one line naming the file: %s", why);
    }
    check_rebuilds(tdir, why);
}
END_TEST

START_TEST(test_truncated)
{
    fixture fx = fixture_ok(HASH_A);
    char so[1024], why[1024], want[1100];
    unsigned char *whole;
    size_t len, cut[8];
    fgm_plugin *p = NULL;
    int i;

    join(so, sizeof so, tdir, "m.ep.so");
    build_fixture("src", &fx, so);
    whole = slurp(so, &len);
    /* glibc maps segments past the end of a short file and faults later
     * (SIGBUS); every cut must be refused before that, or load fine. */
    cut[0] = 0; cut[1] = 10; cut[2] = 64; cut[3] = 200; cut[4] = 1000;
    cut[5] = 4096; cut[6] = len - 1; cut[7] = len / 2;
    for (i = 0; i < 8; i++) {
        fgm_status st;

        spit(so, whole, cut[i]);
        st = fgm_plugin_open(so, HASH_A, &p, why, sizeof why);
        ck_assert_msg(st == FGM_EPLUGIN || (st == FGM_OK && i == 6),
                      "cut at %zu of %zu: %s", cut[i], len, why);
        fgm_plugin_close(p);
        p = NULL;
    }
    ck_assert_msg(strstr(why, ": truncated (") != NULL, "%s", why);
    snprintf(want, sizeof want, "%s: truncated (%zu bytes, segments need",
             so, len / 2);
    ck_assert_msg(strncmp(why, want, strlen(want)) == 0, "%s", why);
    check_rebuilds(tdir, why);
    free(whole);
}
END_TEST

START_TEST(test_stale)
{
    fixture fx = fixture_ok(HASH_B);
    char so[1024], why[1200], want[1200];
    fgm_plugin *p = NULL;

    join(so, sizeof so, tdir, "m.ep.so");
    build_fixture("edited", &fx, so);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_ESTALE);
    ck_assert_ptr_null(p);
    snprintf(want, sizeof want, "%s: stale (built from IR fedcba9876543210 "
             "of model 'fixture', model is 0123456789abcdef)", so);
    ck_assert_str_eq(why, want);
    check_rebuilds(tdir, want);
}
END_TEST

/* Into WANT: the reason a plugin SO of build id HAVE is stale where the
 * runtime's build id is NEED. */
static void
stale_build_message(char *want, size_t size, const char *so, uint64_t have,
                    uint64_t need)
{
    snprintf(want, size, "%s: stale (written by another build of fgm, with "
             "other compiler flags or for another CPU: %016llx, this one "
             "has %016llx)", so, (unsigned long long)have,
             (unsigned long long)need);
}

/* Same IR, written by a build of fgm with other kernels or another
 * generator (the build id differs): rebuilt, not trusted. */
START_TEST(test_other_build)
{
    fixture fx = fixture_ok(HASH_A);
    char so[512], why[1024], want[1024];
    fgm_plugin *p = NULL;

    join(so, sizeof so, tdir, "m.ep.so");
    fx.build_id = ~fgm_plugin_build_id();
    build_fixture("other_build", &fx, so);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_ESTALE);
    ck_assert_ptr_null(p);
    stale_build_message(want, sizeof want, so, fx.build_id,
                        fgm_plugin_build_id());
    ck_assert_str_eq(why, want);
    check_rebuilds(tdir, want);
}
END_TEST

/* A plugin built with other FGM_PLUGIN_CFLAGS (-O0 -g for a debugger) is
 * rebuilt once they change, and the one built with them is rebuilt again
 * once they are gone: the flags are part of the build id. */
START_TEST(test_other_flags)
{
    char *saved = getenv("FGM_PLUGIN_CFLAGS")
                  ? strdup(getenv("FGM_PLUGIN_CFLAGS")) : NULL;
    fixture fx;
    char so[512], why[1024], want[1024];
    fgm_plugin *p = NULL;
    uint64_t plain, other;

    /* Blank is unset, as CC is (it built unoptimized plugins). */
    ck_assert_int_eq(setenv("FGM_PLUGIN_CFLAGS", " ", 1), 0);
    ck_assert_str_eq(fgm_plugin_cflags(), "-O3 -march=native");
    unsetenv("FGM_PLUGIN_CFLAGS");
    ck_assert_str_eq(fgm_plugin_cflags(), "-O3 -march=native");
    plain = fgm_plugin_build_id();
    /* The CPU's fingerprint, in the id of -march=native plugins: stable,
     * and read from CPUID on x86. */
    ck_assert(fgm_plugin_cpu_fingerprint() == fgm_plugin_cpu_fingerprint());
#if defined(__x86_64__) || defined(__i386__)
    ck_assert(fgm_plugin_cpu_fingerprint() != UINT64_C(0xcbf29ce484222325));
#endif
    fx = fixture_ok(HASH_A);
    join(so, sizeof so, tdir, "m.ep.so");
    build_fixture("default_flags", &fx, so);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_OK);
    fgm_plugin_close(p);

    ck_assert_int_eq(setenv("FGM_PLUGIN_CFLAGS", "-O1", 1), 0);
    other = fgm_plugin_build_id();
    ck_assert_msg(other != plain, "the flags change the build id");
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_ESTALE);
    stale_build_message(want, sizeof want, so, plain, other);
    ck_assert_str_eq(why, want);
    check_rebuilds(tdir, want);     /* built with -O1 */

    unsetenv("FGM_PLUGIN_CFLAGS");
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_ESTALE);
    ck_assert_ptr_null(p);
    if (saved)
        setenv("FGM_PLUGIN_CFLAGS", saved, 1);
    free(saved);
}
END_TEST

/* fgm_plugin_split512 (CPUID) names the CPU that /proc/cpuinfo calls
 * AMD family 25 (Zen 3 and 4), and no other; skipped without that file. */
START_TEST(test_split512_is_amd_family_25)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    int amd = -1, family = -1;

    if (!f)
        return;
    while (fgets(line, sizeof line, f) && (amd < 0 || family < 0)) {
        if (amd < 0 && strncmp(line, "vendor_id", 9) == 0)
            amd = strstr(line, "AuthenticAMD") != NULL;
        else if (family < 0 && strncmp(line, "cpu family", 10) == 0)
            family = atoi(strchr(line, ':') ? strchr(line, ':') + 1 : "-1");
    }
    fclose(f);
    if (amd < 0 || family < 0)
        return;     /* not an x86 cpuinfo */
    ck_assert_int_eq(fgm_plugin_split512(), amd && family == 25);
}
END_TEST

START_TEST(test_wrong_abi)
{
    fixture fx = fixture_ok(HASH_A);
    char so[1024], why[1024], want[1100];
    fgm_plugin *p = NULL;

    join(so, sizeof so, tdir, "m.ep.so");
    fx.abi = 0;
    build_fixture("abi0", &fx, so);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_EABI);
    snprintf(want, sizeof want, "%s: built for ABI 0, runtime has %u", so,
             FGM_PLUGIN_ABI_VERSION);
    ck_assert_str_eq(why, want);
    check_rebuilds(tdir, want);
}
END_TEST

START_TEST(test_missing_symbol)
{
    fixture fx = fixture_ok(HASH_A);
    char so[1024], why[1024], want[1100];
    fgm_plugin *p = NULL;

    join(so, sizeof so, tdir, "m.ep.so");
    fx.no_entry = 1;
    build_fixture("noentry", &fx, so);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_EPLUGIN);
    snprintf(want, sizeof want, "%s: no symbol fgm_plugin_entry", so);
    ck_assert_str_eq(why, want);
    check_rebuilds(tdir, want);
}
END_TEST

/* An int under the entry's name was called: a crash. */
START_TEST(test_data_entry)
{
    fixture fx = fixture_ok(HASH_A);
    char so[1024], why[1024], want[1100];
    fgm_plugin *p = NULL;

    join(so, sizeof so, tdir, "m.ep.so");
    fx.data_entry = 1;
    build_fixture("dataentry", &fx, so);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_EPLUGIN);
    snprintf(want, sizeof want, "%s: fgm_plugin_entry is not a function",
             so);
    ck_assert_str_eq(why, want);
    check_rebuilds(tdir, want);
}
END_TEST

START_TEST(test_bad_descriptors)
{
    char so[1024], why[1024], want[1100];
    fgm_plugin *p = NULL;
    fixture fx;

    join(so, sizeof so, tdir, "m.ep.so");
    fx = fixture_ok(HASH_A);
    fx.null_desc = 1;
    build_fixture("null", &fx, so);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_EPLUGIN);
    snprintf(want, sizeof want, "%s: fgm_plugin_entry returned NULL (built "
             "for instructions this CPU lacks?)", so);
    ck_assert_str_eq(why, want);
    check_rebuilds(tdir, want);

    fx = fixture_ok(HASH_A);
    fx.short_size = 1;
    build_fixture("short", &fx, so);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_EABI);
    ck_assert_ptr_nonnull(strstr(why, ": descriptor has 8 bytes"));

    fx = fixture_ok(HASH_A);
    fx.no_sweep = 1;
    build_fixture("nosweep", &fx, so);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_EPLUGIN);
    snprintf(want, sizeof want, "%s: descriptor is incomplete", so);
    ck_assert_str_eq(why, want);
    ck_assert_ptr_null(p);
}
END_TEST

START_TEST(test_open_not_a_plugin)
{
    char so[1024], why[1024], want[1100];
    fgm_plugin *p = NULL;

    join(so, sizeof so, tdir, "m.ep.so");
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_EPLUGIN);
    snprintf(want, sizeof want, "%s: not found", so);
    ck_assert_str_eq(why, want);
    ck_assert_int_eq(mkdir(so, 0755), 0);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_EPLUGIN);
    snprintf(want, sizeof want, "%s: is a directory", so);
    ck_assert_str_eq(why, want);
    ck_assert_int_eq(rmdir(so), 0);
    /* A FIFO must not block the loader. */
    ck_assert_int_eq(mkfifo(so, 0644), 0);
    ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                     FGM_EPLUGIN);
    snprintf(want, sizeof want, "%s: not a regular file", so);
    ck_assert_str_eq(why, want);
    ck_assert_ptr_null(p);
    /* A name without a slash is a file here, never a library search. */
    ck_assert_int_eq(fgm_plugin_open("libm.so.6", HASH_A, &p, why,
                                     sizeof why), FGM_EPLUGIN);
    ck_assert_str_eq(why, "libm.so.6: not found");
}
END_TEST

/* out_dir that no one can write, even root: a regular file, or a path
 * below one. */
START_TEST(test_unwritable_dir)
{
    static const char *const sub[] = { "", "/generated" };
    char file[1024], gen[1100], want[1200];
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req;
    fgm_plugin *p = NULL;
    diags d;
    int i, rebuilt = -1;

    join(file, sizeof file, tdir, "plain-file");
    spit(file, "x", 1);
    for (i = 0; i < 2; i++) {
        snprintf(gen, sizeof gen, "%s%s", file, sub[i]);
        req = request(gen, &fx, FGM_BACKEND_AUTO);
        memset(&d, 0, sizeof d);
        ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag,
                                         &d), FGM_OK);
        ck_assert_msg(p == NULL, "interpreted");
        ck_assert_int_eq(rebuilt, 0);
        ck_assert_msg(d.n == 2, "rebuilding, then interpreting: %d", d.n);
        snprintf(want, sizeof want, "%s/: cannot write: Not a directory; "
                 "interpreting", gen);
        ck_assert_str_eq(d.last, want);

        req.mode = FGM_BACKEND_COMPILED;
        memset(&d, 0, sizeof d);
        ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag,
                                         &d), FGM_EIO);
        ck_assert_ptr_null(p);
        ck_assert_int_eq(d.n, 2);
        snprintf(want, sizeof want, "%s/: cannot write: Not a directory",
                 gen);
        ck_assert_str_eq(d.last, want);
    }
    ck_assert_int_eq(fx.calls, 0);
    ck_assert_int_eq(count_entries(tdir, ""), 1);
}
END_TEST

/* Permissions only stop non-root users. */
START_TEST(test_readonly_dir)
{
    char gen[1024], want[1100];
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req;
    fgm_plugin *p = NULL;
    diags d = { 0, "" };

    join(gen, sizeof gen, tdir, "generated");
    ck_assert_int_eq(mkdir(gen, 0555), 0);
    req = request(gen, &fx, FGM_BACKEND_AUTO);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, NULL, count_diag, &d),
                     FGM_OK);
    if (geteuid() != 0) {
        ck_assert_ptr_null(p);
        snprintf(want, sizeof want, "%s/: cannot write: Permission denied; "
                 "interpreting", gen);
        ck_assert_str_eq(d.last, want);
        ck_assert_int_eq(count_entries(gen, ""), 0);
    }
    fgm_plugin_close(p);
}
END_TEST

START_TEST(test_no_compiler)
{
    static const char *const cc = "/nonexistent";
    static const char *const reason =
        "cannot run C compiler '/nonexistent': No such file or directory";
    char so[1024], why[1024], want[1100];
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req;
    fgm_plugin *p = NULL;
    char *saved = getenv("CC") ? strdup(getenv("CC")) : NULL;
    diags d = { 0, "" };
    int rebuilt = -1;

    join(so, sizeof so, tdir, "m.ep.so");
    req = request(tdir, &fx, FGM_BACKEND_AUTO);
    req.cc = cc;
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(rebuilt, 0);
    ck_assert_int_eq(d.n, 2);
    snprintf(want, sizeof want, "%s; interpreting", reason);
    ck_assert_str_eq(d.last, want);

    req.mode = FGM_BACKEND_COMPILED;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, count_diag, &d),
                     FGM_ECC);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(d.n, 2);
    ck_assert_str_eq(d.last, reason);
    ck_assert_msg(!exists(so), "no plugin appears");
    ck_assert_no_tmp(tdir);

    ck_assert_int_eq(build_c("m.ep", &fx, so, cc, why, sizeof why, NULL, 0),
                     FGM_ECC);
    ck_assert_str_eq(why, reason);
    /* cc NULL reads $CC. */
    ck_assert_int_eq(setenv("CC", cc, 1), 0);
    ck_assert_int_eq(build_c("m.ep", &fx, so, NULL, why, sizeof why, NULL,
                             0), FGM_ECC);
    ck_assert_str_eq(why, reason);
    if (saved)
        setenv("CC", saved, 1);
    else
        unsetenv("CC");
    free(saved);
    ck_assert_no_tmp(tdir);
}
END_TEST

START_TEST(test_compile_error)
{
    char c[1024], so[1024], why[1024], want[1100];
    fixture old = fixture_ok(HASH_B), fx = fixture_ok(HASH_A);
    unsigned char *before, *after;
    size_t nbefore, nafter;
    fgm_plugin_req req;
    fgm_plugin *p = NULL;
    diags d = { 0, "" };

    join(so, sizeof so, tdir, "m.ep.so");
    fx.broken = 1;
    ck_assert_int_eq(build_c("m.ep", &fx, so, NULL, why, sizeof why, c,
                             sizeof c), FGM_ECC);
    ck_assert_msg(strstr(why, "' failed (exit status ") != NULL
                  && strstr(why, c) != NULL && strstr(why, "error") != NULL
                  && strchr(why, '\n') == NULL,
                  "the compiler's first error, on one line: %s", why);
    ck_assert_msg(!exists(so), "no plugin appears");
    ck_assert_no_tmp(tdir);

    /* A failed rebuild leaves the old plugin exactly as it was. */
    build_fixture("old", &old, so);
    before = slurp(so, &nbefore);
    req = request(tdir, &fx, FGM_BACKEND_COMPILED);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, NULL, count_diag, &d),
                     FGM_ECC);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(d.n, 2);
    ck_assert_msg(strncmp(d.last, "C compiler '", 12) == 0
                  && strstr(d.last, "error") != NULL, "%s", d.last);
    after = slurp(so, &nafter);
    ck_assert_msg(nbefore == nafter && memcmp(before, after, nafter) == 0,
                  "the old plugin is untouched");
    req.mode = FGM_BACKEND_AUTO;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, NULL, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(d.n, 2);
    snprintf(want, sizeof want, "; interpreting");
    ck_assert_str_eq(d.last + strlen(d.last) - strlen(want), want);
    ck_assert_no_tmp(tdir);
    free(before);
    free(after);
}
END_TEST

START_TEST(test_emit_fails)
{
    char c[1024], want[1100];
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req;
    fgm_plugin *p = NULL;
    diags d = { 0, "" };

    join(c, sizeof c, tdir, "m.ep.c");
    fx.fail = 1;
    req = request(tdir, &fx, FGM_BACKEND_AUTO);
    ck_assert_int_eq(fgm_plugin_load(&req, &p, NULL, count_diag, &d),
                     FGM_OK);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(d.n, 2);
    snprintf(want, sizeof want, "%s: cannot write: internal error; "
             "interpreting", c);
    ck_assert_str_eq(d.last, want);
    req.mode = FGM_BACKEND_COMPILED;
    ck_assert_int_eq(fgm_plugin_load(&req, &p, NULL, count_diag, &d),
                     FGM_EINTERNAL);
    ck_assert_msg(count_entries(tdir, "") == 0, "nothing half-written");
}
END_TEST

START_TEST(test_bad_requests)
{
    fixture fx = fixture_ok(HASH_A);
    fgm_plugin_req req = request("/nonexistent-dir", &fx, FGM_BACKEND_AUTO);
    fgm_plugin *p = NULL;
    diags d = { 0, "" };

    ck_assert_int_eq(fgm_plugin_load(NULL, &p, NULL, count_diag, &d),
                     FGM_EINVAL);
    ck_assert_int_eq(fgm_plugin_load(&req, NULL, NULL, count_diag, &d),
                     FGM_EINVAL);
    req.emit_c = NULL;
    ck_assert_int_eq(fgm_plugin_load(&req, &p, NULL, count_diag, &d),
                     FGM_EINVAL);
    req.emit_c = emit_fixture;
    req.model_name = "";
    ck_assert_int_eq(fgm_plugin_load(&req, &p, NULL, count_diag, &d),
                     FGM_EINVAL);
    req.model_name = "m";
    req.mode = (fgm_backend_mode)7;
    ck_assert_int_eq(fgm_plugin_load(&req, &p, NULL, count_diag, &d),
                     FGM_EINVAL);
    ck_assert_int_eq(d.n, 0);
    ck_assert_ptr_null(p);
}
END_TEST

/* ---- limits ------------------------------------------------------------ */

/* Resident set size in bytes. */
static long
rss_bytes(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");

    if (!f)
        return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
        resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE);
}

START_TEST(test_open_close_1000)
{
    fixture fx = fixture_ok(HASH_A);
    char so[1024], why[1024];
    fgm_plugin_req req;
    fgm_plugin *p;
    long before, after;
    int i, rebuilt;
    void *h;

    join(so, sizeof so, tdir, "m.ep.so");
    build_fixture("src", &fx, so);
    req = request(tdir, &fx, FGM_BACKEND_COMPILED);
    for (i = 0; i < 50; i++) {      /* warm up malloc and the loader */
        ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                         FGM_OK);
        fgm_plugin_close(p);
    }
    before = rss_bytes();
    for (i = 0; i < 1000; i++) {
        ck_assert_int_eq(fgm_plugin_open(so, HASH_A, &p, why, sizeof why),
                         FGM_OK);
        fgm_plugin_close(p);
        ck_assert_int_eq(fgm_plugin_load(&req, &p, &rebuilt, NULL, NULL),
                         FGM_OK);
        ck_assert_int_eq(rebuilt, 0);
        fgm_plugin_close(p);
    }
    after = rss_bytes();
    /* ASan keeps freed memory in quarantine: RSS says nothing there (LSan
     * checks for leaks instead). */
#if !defined(__SANITIZE_ADDRESS__)
    ck_assert_msg(after - before < 256 * 1024,
                  "1000 loads grow RSS by %ld bytes", after - before);
#else
    (void)before;
    (void)after;
#endif
    /* Closed means unmapped, not just released. */
    h = dlopen(so, RTLD_NOW | RTLD_NOLOAD);
    ck_assert_msg(h == NULL, "the plugin is unloaded after close");
    ck_assert_msg(fx.calls == 1, "built once, by the fixture");
}
END_TEST


/* ---- cleanup ----------------------------------------------------------- */

/* runtime/cleanup.c: fgm_abort_cleanup, from a signal handler, reads the
 * listed slots while other threads drop and list (the batch's workers
 * build plugins at the same time).  It must act only on a path that was
 * listed whole, never on one half rewritten by the next claim of the
 * slot: one thread lists and drops A and B in turn, the other cleans up,
 * and the files named by every mix of A and B must survive. */
#define MIX_LEN 47

typedef struct churn {
    const char *a, *b;
    int stop;           /* atomic: set by the cleaning thread */
} churn;

static void *
churn_main(void *arg)
{
    churn *c = arg;
    long i;

    for (i = 0; !__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE); i++)
        fgm_cleanup_drop(fgm_cleanup_path(i & 1 ? c->a : c->b, 0));
    return NULL;
}

/* Writes into PATH DIR/ followed by FIRST up to byte K of the name, then
 * OTHER's bytes. */
static void
mix(char *path, size_t size, const char *first, const char *other, int k)
{
    char name[MIX_LEN + 1];

    memset(name, first[0], (size_t)k);
    memset(name + k, other[0], (size_t)(MIX_LEN - k));
    name[MIX_LEN] = '\0';
    join(path, size, tdir, name);
}

START_TEST(test_cleanup_never_acts_on_a_torn_path)
{
    char a[1024], b[1024], path[1024];
    churn c;
    pthread_t t;
    double end;
    pid_t pid;
    int k, made = 0, gone = 0, status;

    mix(a, sizeof a, "a", "a", MIX_LEN);
    mix(b, sizeof b, "b", "b", MIX_LEN);
    for (k = 1; k < MIX_LEN; k++) {
        mix(path, sizeof path, "a", "b", k);
        fclose(fopen(path, "w"));
        mix(path, sizeof path, "b", "a", k);
        fclose(fopen(path, "w"));
        made += 2;
    }
    c.a = a;
    c.b = b;
    c.stop = 0;
    /* In a child process: after fgm_abort_cleanup no build may start in
     * the process (it is meant to end), which would fail the tests that
     * follow in an unforked run (CK_FORK=no). */
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (pthread_create(&t, NULL, churn_main, &c) != 0)
            _exit(2);
        /* Two seconds of it: before the fix, 3 runs in 4 on two shared
         * cores removed some. */
        for (end = fgm_now() + 2.0; fgm_now() < end;)
            fgm_abort_cleanup();
        __atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
        pthread_join(t, NULL);
        _exit(0);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "the cleaning child ended with status %d", status);
    for (k = 1; k < MIX_LEN; k++) {
        mix(path, sizeof path, "a", "b", k);
        gone += access(path, F_OK) != 0;
        mix(path, sizeof path, "b", "a", k);
        gone += access(path, F_OK) != 0;
    }
    ck_assert_msg(gone == 0, "%d of %d files named by no listed path "
                  "were removed", gone, made);
}
END_TEST

/* fgm_abort_cleanup, run by a signal in a thread interrupted inside
 * malloc or free, waits for builds between starting their compiler and
 * listing its group; a build that started it with fork() needed that
 * thread's malloc lock (fork takes them all): a deadlock, 1 run in 4 of
 * the child below.  In a child process, since the abort is for good. */
static void
abort_and_exit(int sig)
{
    (void)sig;
    fgm_abort_cleanup();
    _exit(0);
}

static void *
churn_malloc(void *arg)
{
    unsigned r = 1;

    (void)arg;
    for (;;) {
        void *p[64];
        int i;

        for (i = 0; i < 64; i++) {
            r = r * 1103515245u + 12345u;
            p[i] = malloc(16 + (r >> 20));
        }
        for (i = 0; i < 64; i++)
            free(p[i]);
    }
    return NULL;
}

static void *
run_true(void *arg)
{
    char prog[] = "true";
    char *argv[] = { prog, NULL };
    char out[64];
    int code;

    (void)arg;
    for (;;)
        fgm_plugin_sys_run(argv, 0, &code, out, sizeof out);
    return NULL;
}

START_TEST(test_abort_cleanup_in_malloc_never_deadlocks)
{
    int k, status;

    for (k = 0; k < 20; k++) {
        pid_t pid = fork();

        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            struct sigaction sa;
            struct timespec ts = { 0, (20 + k) * 1000000L };
            pthread_t c, f;
            int i;

            memset(&sa, 0, sizeof sa);
            sa.sa_handler = abort_and_exit;
            sigaction(SIGTERM, &sa, NULL);
            if (pthread_create(&c, NULL, churn_malloc, NULL) != 0)
                _exit(2);
            for (i = 0; i < 2; i++)
                if (pthread_create(&f, NULL, run_true, NULL) != 0)
                    _exit(2);
            nanosleep(&ts, NULL);
            pthread_kill(c, SIGTERM);
            sleep(5);
            _exit(3);       /* the handler never returned */
        }
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                      "try %d: the aborting child ended with status %d "
                      "(exit 3: deadlocked)", k, status);
    }
}
END_TEST

Suite *
plugin_suite(void)
{
    Suite *s = suite_create("plugin");
    TCase *core = tcase_create("core"), *errors = tcase_create("errors"),
          *limits = tcase_create("limits"),
          *cleanup = tcase_create("cleanup");

    /* Tests run the C compiler: seconds, not milliseconds. */
    tcase_set_timeout(core, 60);
    tcase_set_timeout(errors, 60);
    tcase_set_timeout(limits, 60);
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_checked_fixture(limits, setup, teardown);
    tcase_add_checked_fixture(cleanup, setup, teardown);
    tcase_add_test(core, test_build_and_open);
    tcase_add_test(core, test_load_missing_rebuilds);
    tcase_add_test(core, test_load_up_to_date);
    tcase_add_test(core, test_load_sizes);
    tcase_add_test(core, test_load_sealed);
    tcase_add_test(core, test_load_creates_dir);
    tcase_add_test(core, test_interpreted_touches_nothing);
    tcase_add_test(core, test_cc_split_on_blanks);
    tcase_add_test(core, test_rebuild_while_old_is_open);
    tcase_add_test(errors, test_corrupt_zeros);
    tcase_add_test(errors, test_corrupt_garbage);
    tcase_add_test(errors, test_truncated);
    tcase_add_test(errors, test_stale);
    tcase_add_test(errors, test_other_build);
    tcase_add_test(errors, test_other_flags);
    tcase_add_test(errors, test_split512_is_amd_family_25);
    tcase_add_test(errors, test_wrong_abi);
    tcase_add_test(errors, test_missing_symbol);
    tcase_add_test(errors, test_data_entry);
    tcase_add_test(errors, test_bad_descriptors);
    tcase_add_test(errors, test_open_not_a_plugin);
    tcase_add_test(errors, test_unwritable_dir);
    tcase_add_test(errors, test_readonly_dir);
    tcase_add_test(errors, test_no_compiler);
    tcase_add_test(errors, test_compile_error);
    tcase_add_test(errors, test_emit_fails);
    tcase_add_test(errors, test_bad_requests);
    tcase_add_test(limits, test_open_close_1000);
    tcase_add_test(cleanup, test_cleanup_never_acts_on_a_torn_path);
    tcase_add_test(cleanup, test_abort_cleanup_in_malloc_never_deadlocks);
    suite_add_tcase(s, core);
    suite_add_tcase(s, errors);
    suite_add_tcase(s, limits);
    suite_add_tcase(s, cleanup);
    return s;
}
