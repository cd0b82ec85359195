/* runtime/plugin_sys.c: plugin loader platform layer (dlopen, posix_spawn).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The only file that calls dlopen, dlsym, dlclose and posix_spawnp, in the
 * manner of Lua's lsys_* functions: each failure becomes a status plus the
 * system's own text (dlerror() or strerror()), and plugin.c words the rest.
 *
 * Two traps it guards against:
 * - glibc maps the segments of an ELF object without checking that the file
 *   holds them; touching a page past the end of a truncated plugin raises
 *   SIGBUS long after dlopen "succeeded".  So the program headers are read
 *   and checked against the file size first (only for objects of this
 *   machine's class and byte order; anything else dlopen rejects by itself
 *   with read(), which is safe).  A file rewritten in place while it is
 *   being loaded can still fault; fgm never does that (it renames).
 * - The compiler is started with posix_spawnp, not fork: fork() in a
 *   threaded process takes every malloc arena's lock and stdio's list lock
 *   (glibc, musl; ASan's fork takes its allocator's), and a thread that
 *   holds one of them may be running fgm_abort_cleanup, which waits for
 *   this thread to list the child (runtime/cleanup.c): a deadlock.
 *   posix_spawn runs no atfork handler and takes no such lock (glibc and
 *   musl clone with CLONE_VFORK; the child resets the parent's signal
 *   handlers before it unblocks signals), and it hands back an exec
 *   failure's errno itself.  The pipe for the compiler's output is
 *   created close-on-exec at once by pipe2 on Linux (glibc and musl show
 *   it under _GNU_SOURCE): with pipe() then fcntl(FD_CLOEXEC), another
 *   thread's compiler started in between would inherit our write end and
 *   hold our read open until it exits.  Elsewhere (the BSDs hide pipe2
 *   under -D_POSIX_C_SOURCE) that window stays.
 */
#ifdef __linux__
#define _GNU_SOURCE     /* pipe2, hidden by -D_POSIX_C_SOURCE=200809L */
#define HAVE_PIPE2 1
#endif
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "plugin.h"

extern char **environ;  /* POSIX: the application declares it */

#if __SIZEOF_POINTER__ == 8
typedef Elf64_Ehdr elf_ehdr;
typedef Elf64_Phdr elf_phdr;
typedef Elf64_Dyn elf_dyn;
typedef Elf64_Sym elf_sym;
#define ELF_NATIVE_CLASS ELFCLASS64
#define ELF_SYM_TYPE(i) ELF64_ST_TYPE(i)
#else
typedef Elf32_Ehdr elf_ehdr;
typedef Elf32_Phdr elf_phdr;
typedef Elf32_Dyn elf_dyn;
typedef Elf32_Sym elf_sym;
#define ELF_NATIVE_CLASS ELFCLASS32
#define ELF_SYM_TYPE(i) ELF32_ST_TYPE(i)
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELF_NATIVE_DATA ELFDATA2LSB
#else
#define ELF_NATIVE_DATA ELFDATA2MSB
#endif

/* Copies TEXT into WHY (truncated, NUL-terminated). */
static void
say(char *why, size_t whysize, const char *text)
{
    if (why && whysize)
        snprintf(why, whysize, "%s", text);
}

/* Reads exactly SIZE bytes at OFFSET; returns 0, or -1 on a short read. */
static int
read_at(int fd, void *buf, size_t size, off_t offset)
{
    char *p = buf;

    while (size > 0) {
        ssize_t n = pread(fd, p, size, offset);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
        offset += n;
    }
    return 0;
}

/* Reads FD's ELF header into *EH: 0 when FD is an ELF object of this
 * machine's class and byte order, -1 otherwise (which dlopen's own
 * checks reject safely). */
static int
native_header(int fd, elf_ehdr *eh)
{
    return read_at(fd, eh, sizeof *eh, 0) == 0
           && memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0
           && eh->e_ident[EI_CLASS] == ELF_NATIVE_CLASS
           && eh->e_ident[EI_DATA] == ELF_NATIVE_DATA
           && eh->e_phentsize == sizeof(elf_phdr) ? 0 : -1;
}

/* Reads program header I of FD (header EH) into *PH: 0, or -1 on a
 * short read. */
static int
program_header(int fd, const elf_ehdr *eh, unsigned i, elf_phdr *ph)
{
    return read_at(fd, ph, sizeof *ph,
                   (off_t)(eh->e_phoff + (unsigned long long)i * sizeof *ph));
}

/* Checks that FD (a regular file of FILE_SIZE bytes) holds every segment
 * its program headers describe, when it is a native ELF object.  Returns
 * 0, or -1 with the reason in WHY. */
static int
check_segments(int fd, off_t file_size, char *why, size_t whysize)
{
    elf_ehdr eh;
    unsigned long long need = 0;
    unsigned i;

    if (native_header(fd, &eh) != 0)
        return 0;
    for (i = 0; i < eh.e_phnum; i++) {
        elf_phdr ph;
        unsigned long long end;

        if (program_header(fd, &eh, i, &ph) != 0)
            return 0;   /* dlopen: "cannot read file data" */
        if (ph.p_filesz == 0)
            continue;
        end = (unsigned long long)ph.p_offset + ph.p_filesz;
        if (end < ph.p_offset)
            end = ~0ull;
        if (end > need)
            need = end;
    }
    if (need > (unsigned long long)file_size) {
        if (why && whysize)
            snprintf(why, whysize, "truncated (%lld bytes, segments need %llu)",
                     (long long)file_size, need);
        return -1;
    }
    return 0;
}

/* The file offset of address ADDR of the object FD (header EH), or -1
 * when no loaded segment holds it. */
static long long
file_offset(int fd, const elf_ehdr *eh, unsigned long long addr)
{
    elf_phdr ph;
    unsigned i;

    for (i = 0; i < eh->e_phnum; i++) {
        if (program_header(fd, eh, i, &ph) != 0)
            return -1;
        if (ph.p_type == PT_LOAD && addr >= ph.p_vaddr
            && addr - ph.p_vaddr < ph.p_filesz)
            return (long long)(addr - ph.p_vaddr + ph.p_offset);
    }
    return -1;
}

#define FGM_ELF_MAXDYN 256    /* dynamic entries read */

/* Whether the object FD, when native, needs AddressSanitizer's runtime
 * (a DT_NEEDED entry "libasan.so..." or "libhwasan.so...") and this
 * process does not have it: its constructor then ends the process ("ASan
 * runtime does not come first in initial library list"), no error that
 * dlopen could return (FGM_PLUGIN_CFLAGS=-fsanitize=address). */
static int
needs_absent_asan(int fd)
{
    static const char *const names[] = { "libasan.so", "libhwasan.so" };
    unsigned long long strtab = 0;
    long long dyn_at = -1, dyn_size = 0, str_at, k;
    char name[16];
    elf_ehdr eh;
    elf_phdr ph;
    elf_dyn dyn[FGM_ELF_MAXDYN];
    unsigned i, j;
    int nd;

    if (dlsym(RTLD_DEFAULT, "__asan_init")
        || dlsym(RTLD_DEFAULT, "__hwasan_init"))
        return 0;
    if (native_header(fd, &eh) != 0)
        return 0;
    for (i = 0; i < eh.e_phnum && dyn_at < 0; i++)
        if (program_header(fd, &eh, i, &ph) == 0 && ph.p_type == PT_DYNAMIC) {
            dyn_at = (long long)ph.p_offset;
            dyn_size = (long long)ph.p_filesz;
        }
    /* One read of at most FGM_ELF_MAXDYN entries (a plugin has about
     * thirty): a crafted section as large as the file cost a read per
     * entry. */
    if (dyn_at < 0)
        return 0;
    nd = dyn_size / (long long)sizeof *dyn < FGM_ELF_MAXDYN
         ? (int)(dyn_size / (long long)sizeof *dyn) : FGM_ELF_MAXDYN;
    if (nd <= 0 || read_at(fd, dyn, (size_t)nd * sizeof *dyn, (off_t)dyn_at))
        return 0;
    for (k = 0; k < nd && dyn[k].d_tag != DT_NULL; k++)
        if (dyn[k].d_tag == DT_STRTAB)
            strtab = dyn[k].d_un.d_ptr;
    str_at = strtab ? file_offset(fd, &eh, strtab) : -1;
    for (k = 0; str_at >= 0 && k < nd && dyn[k].d_tag != DT_NULL; k++) {
        if (dyn[k].d_tag != DT_NEEDED
            || read_at(fd, name, sizeof name,
                       (off_t)(str_at + (long long)dyn[k].d_un.d_val)) != 0)
            continue;
        for (j = 0; j < sizeof names / sizeof *names; j++)
            if (strncmp(name, names[j], strlen(names[j])) == 0)
                return 1;
    }
    return 0;
}

/* Opens PATH without blocking (a FIFO must not hang us) and checks that it
 * is a regular file whose segments are all there. */
static fgm_status
precheck(const char *path, char *why, size_t whysize)
{
    struct stat sb;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), bad;

    if (fd < 0) {
        say(why, whysize, errno == ENOENT ? "not found" : strerror(errno));
        return FGM_EPLUGIN;
    }
    if (fstat(fd, &sb) != 0) {
        say(why, whysize, strerror(errno));
        close(fd);
        return FGM_EPLUGIN;
    }
    if (!S_ISREG(sb.st_mode)) {
        say(why, whysize, S_ISDIR(sb.st_mode) ? "is a directory"
                                              : "not a regular file");
        close(fd);
        return FGM_EPLUGIN;
    }
    bad = check_segments(fd, sb.st_size, why, whysize);
    if (!bad && needs_absent_asan(fd)) {
        say(why, whysize, "built with AddressSanitizer, whose runtime this "
            "process lacks (loading it would end the process): build "
            "plugins without -fsanitize=address, or run fgm with that "
            "runtime preloaded");
        bad = 1;
    }
    close(fd);
    return bad ? FGM_EPLUGIN : FGM_OK;
}

/* Copies dlerror()'s text into WHY, without the "NAME: " glibc puts in
 * front of errors about the object NAME itself. */
static void
say_dlerror(const char *name, char *why, size_t whysize)
{
    const char *msg = dlerror();
    size_t len = name ? strlen(name) : 0;

    if (!msg)
        msg = "unknown dynamic loader error";
    else if (len && strncmp(msg, name, len) == 0
             && strncmp(msg + len, ": ", 2) == 0)
        msg += len + 2;
    say(why, whysize, msg);
}

fgm_status
fgm_plugin_sys_load(const char *path, void **lib, char *why, size_t whysize)
{
    size_t len = strlen(path);
    char *name = malloc(len + 3);
    fgm_status st;

    *lib = NULL;
    if (!name) {
        say(why, whysize, strerror(ENOMEM));
        return FGM_ENOMEM;
    }
    /* dlopen searches the library path for a name without a slash. */
    snprintf(name, len + 3, "%s%s", strchr(path, '/') ? "" : "./", path);
    st = precheck(name, why, whysize);
    if (st == FGM_OK) {
        *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (!*lib) {
            say_dlerror(name, why, whysize);
            /* glibc's words for an ELF file it will not take (another
             * machine, a mangled header) although the file is there. */
            if (why && strncmp(why, "cannot open shared object file",
                               30) == 0)
                say(why, whysize, "not a shared object for this machine");
            st = FGM_EPLUGIN;
        }
    }
    free(name);
    return st;
}

fgm_status
fgm_plugin_sys_sym(void *lib, const char *name, fgm_plugin_sys_fn *fn,
                   char *why, size_t whysize)
{
    void *addr;

    *fn = NULL;
    dlerror();      /* a symbol may legitimately be NULL: clear, then ask */
    addr = dlsym(lib, name);
    if (!addr) {
        say_dlerror(NULL, why, whysize);
        return FGM_EPLUGIN;
    }
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
    {
        /* A data symbol of that name would be called, and crash
         * (glibc's dladdr1 tells the symbol's type). */
        Dl_info info;
        void *entry = NULL;
        const elf_sym *sym;

        if (dladdr1(addr, &info, &entry, RTLD_DL_SYMENT) && entry) {
            sym = entry;
            if (ELF_SYM_TYPE(sym->st_info) != STT_FUNC
                && ELF_SYM_TYPE(sym->st_info) != STT_GNU_IFUNC) {
                if (why && whysize)
                    snprintf(why, whysize, "%s is not a function", name);
                return FGM_EPLUGIN;
            }
        }
    }
#endif
    /* POSIX guarantees the object and function pointers convert; ISO C
     * does not, so copy the bits rather than cast. */
    memcpy(fn, &addr, sizeof *fn);
    return FGM_OK;
}

int
fgm_plugin_sys_noexec(const char *dir)
{
#ifdef ST_NOEXEC
    struct statvfs sv;
    char *p = strdup(dir), *slash;
    int r = 0;

    /* A folder not made yet is on its nearest existing parent's file
     * system: the first run in a new out-dir built once for nothing. */
    while (p && *p) {
        if (statvfs(p, &sv) == 0) {
            r = (sv.f_flag & ST_NOEXEC) != 0;
            break;
        }
        if (errno != ENOENT || strcmp(p, ".") == 0 || strcmp(p, "/") == 0)
            break;
        slash = strrchr(p, '/');
        if (!slash)
            strcpy(p, ".");     /* a relative name's first part */
        else if (slash == p)
            p[1] = '\0';        /* "/" */
        else
            *slash = '\0';
    }
    free(p);
    return r;
#else
    (void)dir;
    return 0;
#endif
}

void
fgm_plugin_sys_unload(void *lib)
{
    if (lib)
        dlclose(lib);
}

/* pipe(FDS) with both ends close-on-exec; returns 0 or -1 (errno). */
static int
cloexec_pipe(int fds[2])
{
#ifdef HAVE_PIPE2
    return pipe2(fds, O_CLOEXEC);
#else
    int i, flags;

    if (pipe(fds) != 0)
        return -1;
    for (i = 0; i < 2; i++) {
        flags = fcntl(fds[i], F_GETFD);
        if (flags < 0 || fcntl(fds[i], F_SETFD, flags | FD_CLOEXEC) != 0) {
            int e = errno;

            close(fds[0]);
            close(fds[1]);
            fds[0] = fds[1] = -1;
            errno = e;
            return -1;
        }
    }
    return 0;
#endif
}

/* Whether process PID has ended (a zombie, not reaped: its group id is
 * not reused while fgm_abort_cleanup may still kill it). */
static int
ended(pid_t pid)
{
    siginfo_t si;

    si.si_pid = 0;
    return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0
           && si.si_pid == pid;
}

/* Stops the group of PID at its deadline: SIGTERM first, so that the
 * compiler driver removes its temporaries (killed at once, gcc left a
 * 153 MB .s and a 46 MB .o in /tmp), then SIGKILL for whatever still
 * runs after STOP_GRACE_MS (a compiler that ignores SIGTERM). */
#define STOP_GRACE_MS 500

static void
stop_group(pid_t pid)
{
    double until = fgm_now() + STOP_GRACE_MS * 1e-3;

    kill(-pid, SIGTERM);
    while (!ended(pid) && fgm_now() < until)
        poll(NULL, 0, 5);
    kill(-pid, SIGKILL);
}

/* Keeps N bytes just read from BUF in OUT (OUTSIZE bytes, *USED so far,
 * one kept for the NUL). */
static void
keep(char *out, size_t outsize, size_t *used, const char *buf, size_t n)
{
    size_t room = outsize > *used + 1 ? outsize - *used - 1 : 0;

    if (n > room)
        n = room;
    if (n)
        memcpy(out + *used, buf, n);
    *used += n;
}

/* Reads FD, the output of process PID (leader of its own group), keeping
 * the first OUTSIZE - 1 bytes in OUT, until its end or until PID has ended
 * and nothing more is waiting: a child the compiler left behind, in a
 * session of its own, may hold the pipe open long after (a 30 s sleep
 * held fgm 30 s, and past FGM_CC_TIMEOUT, which then blamed the
 * compiler).  At DEADLINE (fgm_now() seconds; 0: none) it stops PID's
 * group (stop_group) if PID is still running.  Returns whether it did. */
static int
drain(int fd, char *out, size_t outsize, double deadline, pid_t pid)
{
    size_t used = 0, after = 0;
    char buf[4096];
    int killed = 0, done = 0;

    while (!done) {
        struct pollfd p = { fd, POLLIN, 0 };
        int slice = 50, r;      /* ms between looks at PID */
        ssize_t n;

        if (deadline > 0 && !killed) {
            double left = deadline - fgm_now();

            if (left <= 0) {
                stop_group(pid);
                killed = 1;
            } else if (left * 1e3 < slice) {
                slice = (int)(left * 1e3) + 1;
            }
        }
        r = poll(&p, 1, slice);
        if (r < 0 && errno == EINTR)
            continue;
        if (r > 0) {
            n = read(fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;      /* the end: every writer has closed it */
            keep(out, outsize, &used, buf, (size_t)n);
            /* Once PID has ended, what is already written is read, but
             * a writer left behind is not waited for, nor read forever
             * (nor while it writes on without a pause). */
            if (after) {
                if ((after += (size_t)n) > (1u << 20))
                    break;
            } else if (ended(pid)) {
                after = 1;
            }
            continue;
        }
        if (r < 0)
            break;
        /* Nothing to read for a slice: over if PID has ended (one more
         * pass picks up anything written since). */
        if (after)
            done = 1;
        else if (ended(pid))
            after = 1;
    }
    if (outsize)
        out[used] = '\0';
    return killed;
}

int
fgm_plugin_sys_run(char *const argv[], double timeout_s, int *code, char *out,
                   size_t outsize)
{
    int outp[2] = { -1, -1 }, nul, e = 0, status;
    int killed, token, have_fa = 0, have_at = 0;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    fgm_cleanup_window win;
    siginfo_t si;
    double deadline = timeout_s > 0 ? fgm_now() + timeout_s : 0;
    pid_t pid;

    *code = -1;
    if (outsize)
        out[0] = '\0';
    nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (nul < 0)
        return errno;
    if (cloexec_pipe(outp) != 0) {
        e = errno;
        goto out;
    }
    /* stdin from /dev/null, stdout and stderr into the pipe (dup2 clears
     * close-on-exec on the copies). */
    if ((e = posix_spawn_file_actions_init(&fa)) != 0)
        goto out;
    have_fa = 1;
    if ((e = posix_spawn_file_actions_adddup2(&fa, nul, 0)) != 0
        || (e = posix_spawn_file_actions_adddup2(&fa, outp[1], 1)) != 0
        || (e = posix_spawn_file_actions_adddup2(&fa, outp[1], 2)) != 0
        || (e = posix_spawnattr_init(&at)) != 0)
        goto out;
    have_at = 1;
    /* A process group of its own: a timeout kills the compiler's own
     * children (cc1, as) with it. */
    if ((e = posix_spawnattr_setpgroup(&at, 0)) != 0)
        goto out;
    /* Out of reach of the terminal's Ctrl-C, the compiler must be listed
     * for fgm_abort_cleanup to kill if a signal ends fgm first: no slot,
     * no compiler. */
    token = fgm_cleanup_claim_group();
    if (token < 0) {
        e = EAGAIN;
        goto out;
    }
    if (fgm_cleanup_begin(&win) != 0) {
        fgm_cleanup_set_group(token, 0);
        e = EINTR;      /* fgm is ending on a signal */
        goto out;
    }
    /* The compiler gets this thread's mask from before the window. */
    e = posix_spawnattr_setsigmask(&at, &win.mask);
    if (!e)
        e = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP
                                          | POSIX_SPAWN_SETSIGMASK);
    if (!e)
        e = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
    if (e) {
        fgm_cleanup_set_group(token, 0);
        fgm_cleanup_end(&win);
        goto out;
    }
    setpgid(pid, pid);      /* as the child does: whichever runs first */
    fgm_cleanup_set_group(token, pid);
    fgm_cleanup_end(&win);
    close(outp[1]);
    outp[1] = -1;
    killed = drain(outp[0], out, outsize, deadline, pid);
    /* A compiler that closed its output and runs on still has the
     * deadline to meet. */
    while (!killed && deadline > 0 && !ended(pid)) {
        if (fgm_now() >= deadline) {
            stop_group(pid);
            killed = 1;
        } else {
            poll(NULL, 0, 20);
        }
    }
    /* Unlisted while the child is a zombie not yet reaped, which keeps
     * its process group id from being reused: fgm_abort_cleanup never
     * kills a group that is no longer the compiler's. */
    while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0
           && errno == EINTR)
        ;
    /* The driver has ended, but what it started may run on.  During an
     * abort the handler gave the group SIGTERM and, once this compiler is
     * dropped, no longer sees it: the group gets SIGKILL here, as at a
     * timeout (stop_group), before the drop (the handler waits for it)
     * and after (an abort that began in between). */
    if (fgm_cleanup_aborting())
        kill(-pid, SIGKILL);
    fgm_cleanup_drop(token);
    if (fgm_cleanup_aborting())
        kill(-pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            if (!e)
                e = errno;
            break;
        }
    }
    if (!e)
        *code = killed ? FGM_PLUGIN_SYS_TIMEOUT
              : WIFEXITED(status) ? WEXITSTATUS(status)
              : WIFSIGNALED(status) ? -WTERMSIG(status) : -1;
out:
    if (have_at)
        posix_spawnattr_destroy(&at);
    if (have_fa)
        posix_spawn_file_actions_destroy(&fa);
    close(nul);
    if (outp[0] >= 0)
        close(outp[0]);
    if (outp[1] >= 0)
        close(outp[1]);
    return e;
}
