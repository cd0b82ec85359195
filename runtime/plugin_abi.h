/* runtime/plugin_abi.h: the contract between the runtime and a generated plugin.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A plugin (generated/NAME.ALGO.so) exports one function, FGM_PLUGIN_ENTRY,
 * returning a pointer to a static const descriptor (or NULL on a CPU that
 * lacks an instruction set the plugin was compiled for,
 * fgm_plugin_cpu_ok).  The descriptor only
 * ever grows at the end (SQLite's sqlite3ext.h rule): a runtime reads the
 * fields it knows, after checking abi_version and size.  Plugins never
 * allocate: the runtime sizes an fgm_state from the descriptor and passes
 * it to every call.  This header and kernels.h are the only headers
 * generated code includes, so it depends on nothing but <stdint.h>.
 */
#ifndef FGM_PLUGIN_ABI_H
#define FGM_PLUGIN_ABI_H

#include <stdint.h>

/* Bump on any change to fgm_state or to the meaning of a descriptor
 * field.  Changes to the kernels, the code generator or the schedule's
 * lowering need no bump: build_id (below) covers them. */
#define FGM_PLUGIN_ABI_VERSION 17u
#define FGM_PLUGIN_ENTRY fgm_plugin_entry
#define FGM_PLUGIN_ENTRY_NAME "fgm_plugin_entry"
/* On the entry's declaration: exported even when FGM_PLUGIN_CFLAGS
 * holds -fvisibility=hidden (the plugin then had no entry to find). */
#define FGM_PLUGIN_EXPORT __attribute__((visibility("default")))
/* The seal a generated plugin carries: the 16 bytes "fgm-plugin-seal:"
 * (FGM_PLUGIN_SEAL_MAGIC, runtime/plugin.h), then 8 zero bytes that its
 * build fills with a digest of the file, checked before it is loaded
 * (runtime/plugin_seal.c); left zero, as in a plugin built by hand, it
 * is not checked.  Written a character at a time, so that no debug
 * section holds the magic again (-g3 keeps the macros' text), and
 * exported, so that --gc-sections keeps it. */
#define FGM_PLUGIN_SEAL \
    FGM_PLUGIN_EXPORT __attribute__((used)) const unsigned char \
        fgm_plugin_seal[24] = { 'f', 'g', 'm', '-', 'p', 'l', 'u', 'g', \
                                'i', 'n', '-', 's', 'e', 'a', 'l', ':' }

/* The message-passing state of one run, owned by the runtime.  Every array
 * is indexed [item * stride + value]; stride is the largest domain rounded
 * up to whole vector chunks (fgm_sched.stride). */
typedef struct fgm_state {
    double *unary;      /* nvars: evidence x observed weights or clamps */
    double *belief;     /* nvars: normalized beliefs */
    double *msg;        /* nedges: factor-to-variable messages */
    double *prev;       /* nedges: variable-to-factor messages, stored
                         * only when damp_v2f is set */
    double *dir_prior;  /* ndirichlet: observed or default pseudo-counts */
    const unsigned char *dir_point; /* ndirichlet (no stride): the prior is
                                     * a point mass at dir_prior/sum */
    double *dir_post;   /* ndirichlet: posterior pseudo-counts */
    double *dir_msg;    /* ndirfactors: pseudo-count messages to p */
    double *scratch;    /* nscratch doubles */
    double damping;     /* may differ from the model's (CLI override) */
    int parallel;       /* flooding schedule: factor updates leave beliefs
                         * as they were at the start of the sweep */
    int damp_v2f;       /* with parallel: neq and alldiff factors read
                         * the stored, damped variable-to-factor messages
                         * in prev (alldiff: ABI 14) */
    int track_change;   /* 1: a sweep returns the largest message change;
                         * 0: it may skip measuring it and return 0 (no
                         * tolerance test, not the last sweep) */
    const unsigned char *pinned;    /* nvars (no stride): 1 when the
                         * variable's belief is a point mass no message
                         * can move (a one-hot unary vector or point-mass
                         * Dirichlet prior); with damp_v2f (ABI 14), when
                         * the variable is a clue or decision of the
                         * seed's v4, whose stored messages stay frozen
                         * and which alldiff factors take as given
                         * (fgm_model_v2f_start) */
    int skip_pinned;    /* 1: neq and point-mass Dirichlet updates that
                         * touch a pinned variable are skipped -- their
                         * messages were computed, from one-hot cavities,
                         * by an earlier sweep of this run and cannot
                         * change (undamped schedules only) */
    const int *live;    /* with skip_pinned: the schedule's factor updates
                         * that are not skipped, ascending, NLIVE of them
                         * (or NULL: test each factor); a sweep walks it
                         * instead of testing hundreds of factors whose
                         * outcome the branch predictor cannot learn */
    int nlive;
    double *adcache;    /* 2 nedges (2 stride doubles an edge), or NULL
                         * (no cache): each alldiff factor's last
                         * cavities and the messages they gave, per edge
                         * of its scope (runtime/ops/alldiff.h); set to
                         * NaN bits before the first run */
    int lost;           /* ABI 15: a sequential update's belief lost a
                         * value to underflow (runtime/ops/table.h); the
                         * runtime then rebuilds every belief after the
                         * sweep, and clears it */
    /* ABI 16: Gibbs sampling (runtime/ops/gibbs.h); unused by the other
     * algorithms. */
    int *sample;        /* nvars: each variable's value, -1 for none */
    double *tally;      /* nvars: the kept sweeps' conditionals, summed */
    double *gsweep;     /* nvars: the conditionals of the sweep under
                         * way, added to tally when it is kept */
    double *gcount;     /* ndirichlet: the draws at each value (the
                         * prior apart, in dir_prior); vmp: their
                         * expected number */
    double *gtally;     /* ndirichlet: the kept sweeps' predictive
                         * means gcount / its sum, summed */
    double *gtotal;     /* ndirichlet (no stride): the kept sweeps'
                         * gcount totals, summed */
    long gibbs_sweeps;  /* sweeps of this run */
    long gibbs_burn;    /* the first gibbs_burn of them are not kept */
    long gibbs_kept;    /* sweeps kept */
    long gibbs_dead;    /* draws with no positive weight after the
                         * burn-in (their sweeps are not kept) */
    void *rng;          /* the runtime's random number generator, */
    double (*uniform)(void *rng);   /* and a draw in [0, 1) from it */
    /* ABI 17: variational message passing (runtime/ops/vmp.h), which
     * uses sample (-1: the variable was left no value) and gcount too. */
    double *elog;       /* ndirichlet: E[log p] under each node's q(p) */
    double (*digamma)(double x);    /* the runtime's (GSL's psi) */
} fgm_state;

typedef struct fgm_plugin_desc {
    uint32_t abi_version;   /* FGM_PLUGIN_ABI_VERSION when built */
    uint32_t size;          /* sizeof(fgm_plugin_desc) when built */
    uint64_t ir_hash;       /* fgm_ir_hash of the model it was built from */
    const char *model;      /* model name */
    const char *algo;       /* "ep", "bp-sum", "bp-max", "gibbs", "vmp" */
    int32_t nvars, stride, nedges, ndirichlet, ndirfactors, nscratch;
    /* Messages uniform, beliefs from the unary messages. */
    void (*reset)(fgm_state *st);
    /* One sweep of the schedule; returns the largest change of a message
     * (max-norm), for the tolerance test. */
    double (*sweep)(fgm_state *st);
    /* Every belief rebuilt from its unary vector and messages, and
     * normalized (st->skip_pinned cleared): after the last sweep of a
     * sequential schedule (the sweeps moved them in place, unnormalized),
     * and before the first of a warm run (observations may have changed
     * the unary vectors).  (ABI 12 and before: after the last sweep
     * only, and empty for a flooding schedule.) */
    void (*finish)(fgm_state *st);
    /* The generating runtime's FGM_BUILD_ID (a hash of the kernel
     * headers, the code generator and the schedule lowering) mixed with
     * the compiler flags, the schedule's row padding and, for
     * -march=native, the CPU's instruction sets (fgm_plugin_build_id,
     * runtime/plugin.h), so that a plugin written by another build of
     * fgm (other arithmetic or update order, same IR), built with other
     * flags or for another CPU is rebuilt rather than trusted. */
    uint64_t build_id;
} fgm_plugin_desc;

typedef const fgm_plugin_desc *(*fgm_plugin_entry_fn)(void);

/* Whether this CPU has the x86 instruction sets below, where the plugin
 * was compiled for them.  A plugin is built with -march=native, for the
 * machine that built it; its entry returns NULL where this fails, and the
 * runtime rebuilds it for the CPU at hand, instead of the first sweep
 * dying of SIGILL (a generated/ folder shared over NFS, copied, or cached
 * by a CI between machines of different CPUs).  The list is what the
 * kernels' double-precision code can use, by names every GCC and Clang
 * of the last years accepts (Clang 14 rejects "avx512fp16", which made
 * every plugin build fail on CPUs that have it); a plugin built with
 * -march=native also carries a fingerprint of all of the CPU's
 * instruction sets in its build id (fgm_plugin_build_id), which covers
 * the rest.  Elsewhere than x86, always 1. */
static inline int
fgm_plugin_cpu_ok(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define FGM_NEEDS(feature) \
    do { if (!__builtin_cpu_supports(feature)) return 0; } while (0)
    __builtin_cpu_init();
#ifdef __SSE3__
    FGM_NEEDS("sse3");
#endif
#ifdef __SSSE3__
    FGM_NEEDS("ssse3");
#endif
#ifdef __SSE4_1__
    FGM_NEEDS("sse4.1");
#endif
#ifdef __SSE4_2__
    FGM_NEEDS("sse4.2");
#endif
#ifdef __POPCNT__
    FGM_NEEDS("popcnt");
#endif
#ifdef __AVX__
    FGM_NEEDS("avx");
#endif
#ifdef __AVX2__
    FGM_NEEDS("avx2");
#endif
#ifdef __FMA__
    FGM_NEEDS("fma");
#endif
#ifdef __FMA4__
    FGM_NEEDS("fma4");
#endif
#ifdef __XOP__
    FGM_NEEDS("xop");
#endif
#ifdef __BMI__
    FGM_NEEDS("bmi");
#endif
#ifdef __BMI2__
    FGM_NEEDS("bmi2");
#endif
#ifdef __AVX512F__
    FGM_NEEDS("avx512f");
#endif
#ifdef __AVX512VL__
    FGM_NEEDS("avx512vl");
#endif
#ifdef __AVX512BW__
    FGM_NEEDS("avx512bw");
#endif
#ifdef __AVX512DQ__
    FGM_NEEDS("avx512dq");
#endif
#ifdef __AVX512CD__
    FGM_NEEDS("avx512cd");
#endif
#undef FGM_NEEDS
#endif
    return 1;
}

#endif /* FGM_PLUGIN_ABI_H */
