# Makefile for fgm.  SPDX-License-Identifier: GPL-3.0-or-later
#
#   make            build build/fgm, build/libfgm.a, build/libfgm.so
#   make check      every test suite (unit, CLI, differential), then the
#                   unit tests, the CLI's own scripts and the differential
#                   models again under AddressSanitizer +
#                   UndefinedBehaviorSanitizer, then lint
#   make demo       compile the Sudoku model, solve the shipped puzzles with
#                   the exact, EP and decimation solvers; compiled against
#                   interpreted table
#   make bench      the benchmark tables (text, CSV, SVG) into build/bench/
#   make install PREFIX=/usr/local
#   make clean
#
# Build dependencies (flex, bison, GSL, check, pkg-config; python3 for the
# differential test) are checked first; as root they are installed with
# apt-get, otherwise the command is printed.

CC      ?= cc
PREFIX  ?= /usr/local
B       := build
SHARED  ?= ../shared
# For fgm.pc: the library's version, said once, in fgm.h.
VERSION := $(shell sed -n 's/^\#define FGM_VERSION "\([^"]*\)".*/\1/p' runtime/fgm.h)

DEPS_PKGS := flex bison libgsl-dev check pkg-config python3

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wundef -Wwrite-strings
# -ffp-contract=off: kernels give the same bits here and in plugins.
BASE    := -std=c11 -D_POSIX_C_SOURCE=200809L -fPIC -fvisibility=default \
           -ffp-contract=off
# Evaluated when a recipe runs, i.e. after the dependency check.
GSL_CFLAGS   = $(shell pkg-config --cflags gsl)
GSL_LIBS     = $(shell pkg-config --libs gsl)
CHECK_CFLAGS = $(shell pkg-config --cflags check)
CHECK_LIBS   = $(shell pkg-config --libs check)

CFLAGS  ?= -O2 -g
ALL_CFLAGS = $(BASE) $(WARN) $(CFLAGS) -Iruntime -Icompiler -I$(B)/gen \
             $(GSL_CFLAGS)
LIBS     = $(GSL_LIBS) -lpthread -ldl -lm

LIB_SRC := $(wildcard runtime/*.c runtime/exact/*.c runtime/solve/*.c \
                      runtime/ops/*.c compiler/*.c)
CLI_SRC := $(wildcard runtime/cli/*.c)
TEST_SRC := $(wildcard tests/check_*.c)

# The DSL front end: flex and bison output, compiled into the library.
GEN_SRC  := $(if $(wildcard compiler/lexer.l),$(B)/gen/lexer.c) \
            $(if $(wildcard compiler/parser.y),$(B)/gen/parser.c) \
            $(B)/gen/kernel_text.c
GEN_HDR  := $(patsubst %.c,%.h,$(filter %/lexer.c %/parser.c,$(GEN_SRC))) \
            $(B)/gen/fgm_build_id.h
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/obj/%.o) $(GEN_SRC:$(B)/gen/%.c=$(B)/obj/gen/%.o)
# The CLI's own generated source: the shipped Sudoku model as text.
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/obj/%.o) $(B)/obj/gen/default_model.o
TEST_OBJ := $(TEST_SRC:%.c=$(B)/obj/%.o)
ASAN_OBJ := $(LIB_SRC:%.c=$(B)/asan/%.o) $(TEST_SRC:%.c=$(B)/asan/%.o) \
            $(GEN_SRC:$(B)/gen/%.c=$(B)/asan/gen/%.o)
ASAN_CLI_OBJ := $(LIB_SRC:%.c=$(B)/asan/%.o) $(CLI_SRC:%.c=$(B)/asan/%.o) \
                $(GEN_SRC:$(B)/gen/%.c=$(B)/asan/gen/%.o) \
                $(B)/asan/gen/default_model.o

SAN := -fsanitize=address,undefined -fno-omit-frame-pointer \
       -fno-sanitize-recover=all

.PHONY: all check unit unit-asan cli-tests cli-asan diff-tests diff-asan \
        demo bench install \
        clean deps lint fuzz

all: $(B)/fgm $(B)/libfgm.a $(B)/libfgm.so

# ---- build dependencies --------------------------------------------------
deps: $(B)/.deps-ok

$(B)/.deps-ok:
	@mkdir -p $(B)
	@missing() { m=""; \
	  command -v flex >/dev/null 2>&1 || m="$$m flex"; \
	  command -v bison >/dev/null 2>&1 || m="$$m bison"; \
	  command -v pkg-config >/dev/null 2>&1 || m="$$m pkg-config"; \
	  pkg-config --atleast-version=2.5 gsl 2>/dev/null || m="$$m libgsl-dev"; \
	  pkg-config --exists check 2>/dev/null || m="$$m check"; \
	  command -v python3 >/dev/null 2>&1 || m="$$m python3"; \
	  echo "$$m"; }; \
	m=$$(missing); \
	if [ -n "$$m" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "fgm: installing build dependencies:$$m (apt-get)"; \
	    apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEPS_PKGS) \
	      >/dev/null || exit 1; \
	    m=$$(missing); \
	    if [ -n "$$m" ]; then \
	      echo "fgm: still missing after apt-get:$$m"; exit 1; fi; \
	  else \
	    echo "fgm: missing build dependencies:$$m"; \
	    echo "fgm: install them with: sudo apt-get install $(DEPS_PKGS)"; \
	    exit 1; \
	  fi; \
	fi
	@touch $@

# ---- library and tool ----------------------------------------------------
# One run makes both files (&: a grouped target, GNU make >= 4.3), so that
# make -j never runs bison or flex twice at once.
$(B)/gen/parser.c $(B)/gen/parser.h &: compiler/parser.y | $(B)/.deps-ok
	@mkdir -p $(B)/gen
	bison -Wall -Werror --defines=$(B)/gen/parser.h -o $(B)/gen/parser.c $<

$(B)/gen/lexer.c $(B)/gen/lexer.h &: compiler/lexer.l | $(B)/.deps-ok
	@mkdir -p $(B)/gen
	flex --header-file=$(B)/gen/lexer.h -o $(B)/gen/lexer.c $<

# The kernel headers a plugin includes, relative to runtime/: hashed into
# FGM_BUILD_ID and carried by fgm as text (kernel_text.c), below.
KERNEL_HDRS := kernels.h plugin_abi.h \
               $(patsubst runtime/%,%,$(sort $(wildcard runtime/ops/*.h)))

# FGM_BUILD_ID: a hash of everything that decides a plugin's code beyond
# its IR (kernels, generator, schedule lowering).  The runtime rejects a
# plugin written by a build with another id; the header is rewritten only
# when the id changes, so unchanged sources rebuild nothing.
BUILD_ID_SRC := $(addprefix runtime/,$(KERNEL_HDRS)) compiler/codegen.c \
                compiler/codegen_byvar.c \
                compiler/codegen.h runtime/schedule.c runtime/schedule.h \
                runtime/schedule_tree.c \
                tools/kernel_text.c
$(B)/gen/fgm_build_id.h: $(BUILD_ID_SRC) Makefile
	@mkdir -p $(B)/gen
	@id=$$(cat $(BUILD_ID_SRC) | sha256sum | cut -c1-16); \
	printf '/* Generated by the Makefile: a hash of %s. */\n#define FGM_BUILD_ID UINT64_C(0x%s)\n' \
	  "the kernels, generator and schedule lowering" "$$id" > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# The kernel headers as text, compiled into fgm (runtime/kernel_text.h):
# what each plugin build writes next to its C source.  The roots are the
# two headers the generated C includes; the rest are inlined into them.
$(B)/gen/kernel_text_tool: tools/kernel_text.c | $(B)/.deps-ok
	@mkdir -p $(B)/gen
	$(CC) $(BASE) $(WARN) -O2 $< -o $@
$(B)/gen/kernel_text.c: $(B)/gen/kernel_text_tool \
                        $(addprefix runtime/,$(KERNEL_HDRS)) Makefile
	@$(B)/gen/kernel_text_tool runtime plugin_abi.h kernels.h > $@.tmp
	@mv $@.tmp $@

# The shipped Sudoku model as text, compiled into fgm (the CLI's object,
# not the library's): `fgm solve` and `fgm bench` run it where
# models/sudoku.fgm cannot be read (another folder, an installed fgm),
# the same model as from the file.
$(B)/gen/default_model.c: models/sudoku.fgm Makefile | $(B)/.deps-ok
	@mkdir -p $(B)/gen
	@{ echo '/* Generated by the Makefile from models/sudoku.fgm. */'; \
	  echo 'extern const char fgm_default_model_text[];'; \
	  echo 'const char fgm_default_model_text[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' \
	      -e 's/$$/\\n"/' $<; \
	  echo '    ;'; } > $@.tmp
	@mv $@.tmp $@

# Everything may include the generated headers: build them first.
$(B)/obj/%.o: %.c | $(B)/.deps-ok $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# flex/bison output is not ours to restyle: keep -Werror, drop the
# prototype/shadow lints it cannot meet.
GEN_RELAX := -Wno-missing-prototypes -Wno-shadow -Wno-unused-function \
             -Wno-sign-compare -Wno-unused-parameter
$(B)/obj/gen/%.o: $(B)/gen/%.c $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(GEN_RELAX) -MMD -MP -c $< -o $@

$(B)/libfgm.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/libfgm.so: $(LIB_OBJ)
	$(CC) -shared -o $@ $^ $(LIBS)

$(B)/fgm: $(CLI_OBJ) $(B)/libfgm.a
	$(CC) -o $@ $(CLI_OBJ) $(B)/libfgm.a $(LIBS)

# ---- tests -----------------------------------------------------------------
$(B)/check_fgm: $(TEST_OBJ) $(B)/libfgm.a
	$(CC) -o $@ $(TEST_OBJ) $(B)/libfgm.a $(CHECK_LIBS) $(LIBS)

$(B)/asan/%.o: %.c | $(B)/.deps-ok $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN) -O1 -MMD -MP -c $< -o $@

$(B)/asan/gen/%.o: $(B)/gen/%.c $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(GEN_RELAX) $(SAN) -O1 -MMD -MP -c $< -o $@

$(B)/check_fgm_asan: $(ASAN_OBJ)
	$(CC) $(SAN) -o $@ $(ASAN_OBJ) $(CHECK_LIBS) $(LIBS)

$(B)/fgm_asan: $(ASAN_CLI_OBJ)
	$(CC) $(SAN) -o $@ $(ASAN_CLI_OBJ) $(LIBS)

# Test fixtures are read relative to the repository root.
unit: $(B)/check_fgm
	FGM_SHARED=$(SHARED) $(B)/check_fgm

unit-asan: $(B)/check_fgm_asan
	FGM_SHARED=$(SHARED) CK_FORK=no \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $(B)/check_fgm_asan

cli-tests: $(B)/fgm
	@set -e; for t in tests/cli/*.sh; do \
	  echo "== $$t"; FGM=$(B)/fgm SHARED=$(SHARED) bash $$t; done

# The CLI's own code (options, file and model errors, the plugin cascade's
# messages, run and observe) under ASan and UBSan: the scripts that drive
# it, on fgm built with both.  Every report goes to a file under
# $(B)/cli-asan/, and any such file fails the target, whether or not the
# script looked at the exit status of the command that hit it.  Left out:
# solve.sh and signal.sh, whose deadlines and signals are timed for the
# plain build (solve.sh's 20 s become 80 s), and install.sh, example.sh,
# kernels.sh and the others that build their own programs.
CLI_ASAN_TESTS := errors compiler observe v4 ep decimate generate \
                  plugin_stale queens batch bench_svg bench_model exact \
                  run_jobs gibbs vmp killer knapsack

# $(call san_env,DIR): the sanitizers' options for a run whose reports go
# to files DIR/report.PID; $(call san_reports,DIR,TARGET): fails TARGET,
# printing them, when there are any.
san_log = log_path=$(abspath $(1))/report
san_env = ASAN_OPTIONS=detect_leaks=1:$(san_log) \
          UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:$(san_log)
san_reports = if ls $(1)/report* >/dev/null 2>&1; then \
              cat $(1)/report*; \
              echo "$(2): the sanitizer reports above" >&2; exit 1; fi

cli-asan: $(B)/fgm_asan
	@rm -rf $(B)/cli-asan && mkdir -p $(B)/cli-asan
	@set -e; for t in $(CLI_ASAN_TESTS); do \
	  echo "== tests/cli/$$t.sh (ASan, UBSan)"; \
	  $(call san_env,$(B)/cli-asan) \
	  FGM=$(B)/fgm_asan SHARED=$(SHARED) bash tests/cli/$$t.sh; done
	@$(call san_reports,$(B)/cli-asan,cli-asan)

# The differential test (tests/diff/difftest.py): random models run
# compiled against interpreted, exact against brute force, bp-sum against
# exact on forests.  A fixed seed, so that a failure is the code's, not the
# draw's; DIFF_SEED and DIFF_MODELS to explore further.
DIFF_SEED   ?= 1
DIFF_MODELS ?= 34
diff-tests: $(B)/fgm
	@rm -rf $(B)/difftest
	python3 tests/diff/difftest.py --fgm $(B)/fgm --seed $(DIFF_SEED) \
	    --models $(DIFF_MODELS) --workdir $(B)/difftest

# The same models on fgm_asan, reports handled as in cli-asan: the
# random models reach the compiler and engine paths no script names.
diff-asan: $(B)/fgm_asan
	@rm -rf $(B)/difftest-asan && mkdir -p $(B)/difftest-asan
	@$(call san_env,$(B)/difftest-asan) \
	python3 tests/diff/difftest.py --fgm $(B)/fgm_asan --seed $(DIFF_SEED) \
	    --models $(DIFF_MODELS) --workdir $(B)/difftest-asan/work
	@$(call san_reports,$(B)/difftest-asan,diff-asan)

check: all
	$(MAKE) unit
	$(MAKE) cli-tests
	$(MAKE) diff-tests
	$(MAKE) unit-asan
	$(MAKE) cli-asan
	$(MAKE) diff-asan
	$(MAKE) lint
	@echo "fgm: all tests passed"

# No writable globals in the library (STYLE.md: no global state): a global
# data object may only live in a read-only section.  (.data.rel.ro holds
# const objects with pointers, read-only once relocated.)  The one
# file-scope writable object, runtime/cleanup.c's list for a signal
# handler, is static; its header says why it must exist.
#
# The CLI is a user of the public API (README "The C API"): it includes no
# library header but fgm.h (its own, cli.h and run.h, aside), and it links
# against libfgm.so, where internal functions are hidden.
lint: $(B)/libfgm.a $(B)/libfgm.so $(CLI_OBJ)
	@bad=$$(objdump -t $(B)/libfgm.a | awk '$$2 == "g" && $$3 == "O" && \
	  ($$4 ~ /^\.(data|bss)/ && $$4 !~ /^\.data\.rel\.ro/ || $$4 == "*COM*")'); \
	if [ -n "$$bad" ]; then echo "fgm: writable globals:"; \
	echo "$$bad"; exit 1; fi; echo "lint: no writable globals"
	@bad=$$(grep -n '^#include "' runtime/cli/*.[ch] | \
	  grep -v '"cli.h"$$' | grep -v '"run.h"$$' | grep -v '"../fgm.h"$$'); \
	if [ -n "$$bad" ]; then echo "fgm: the CLI includes internal headers:"; \
	echo "$$bad"; exit 1; fi
	@$(CC) -o $(B)/fgm-shared $(CLI_OBJ) $(B)/libfgm.so $(LIBS) || \
	{ echo "fgm: the CLI needs functions libfgm.so hides"; exit 1; }
	@rm -f $(B)/fgm-shared; echo "lint: the CLI uses fgm.h only"

# ---- fuzzing (clang's libFuzzer; not part of make check) -----------------
# make fuzz builds build/fuzz/{fuzz_model,fuzz_model_small,fuzz_puzzle,
# fuzz_observe};
# tests/fuzz/README.md says how to run them.  fuzz_model_small is the front
# end with its size caps lowered, so inputs that run into a cap cost
# milliseconds under ASan instead of seconds.
FUZZ_CC    ?= clang
FUZZ_FLAGS  = $(BASE) -O1 -g -fno-omit-frame-pointer \
              -fsanitize=address,undefined -fno-sanitize-recover=all \
              -Iruntime -Icompiler -I$(B)/gen $(GSL_CFLAGS)
FUZZ_SMALL := -DFGMC_MAX_VARS='(1 << 14)' -DFGMC_MAX_FACTORS='(1L << 12)' \
              -DFGMC_MAX_SCOPE='(1L << 15)' -DFGMC_MAX_PARAMS='(1L << 15)' \
              -DFGMC_MAX_ITERS='(1L << 14)' -DFGMC_MAX_REFS='(1L << 18)'
FUZZ_OBJ   := $(LIB_SRC:%.c=$(B)/fuzz/obj/%.o) $(GEN_SRC:%.c=$(B)/fuzz/obj/%.o)
FUZZ_SOBJ  := $(LIB_SRC:%.c=$(B)/fuzz/small/%.o) \
              $(GEN_SRC:%.c=$(B)/fuzz/small/%.o)

$(B)/fuzz/obj/%.o: %.c | $(B)/.deps-ok $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(B)/fuzz/small/%.o: %.c | $(B)/.deps-ok $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_SMALL) -fsanitize=fuzzer-no-link \
	    -MMD -MP -c $< -o $@

$(B)/fuzz/fuzz_model: tests/fuzz/fuzz_model.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(LIBS)

$(B)/fuzz/fuzz_model_small: tests/fuzz/fuzz_model.c $(FUZZ_SOBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(LIBS)

$(B)/fuzz/fuzz_puzzle: tests/fuzz/fuzz_puzzle.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(LIBS)

# `fgm run --observe`'s reader is the CLI's own (run_observe.c), so the
# CLI's common.c comes too, with the model text it carries.
$(B)/fuzz/fuzz_observe: tests/fuzz/fuzz_observe.c runtime/cli/common.c \
                        runtime/cli/run_observe.c \
                        $(B)/gen/default_model.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Iruntime/cli -fsanitize=fuzzer -o $@ $^ $(LIBS)

fuzz: $(B)/fuzz/fuzz_model $(B)/fuzz/fuzz_model_small $(B)/fuzz/fuzz_puzzle \
      $(B)/fuzz/fuzz_observe

# ---- demo and benchmarks -------------------------------------------------
demo: all
	@bash tests/demo.sh $(B)/fgm

bench: all
	@bash tests/bench.sh $(B)/fgm $(SHARED) $(B)/bench

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
	    $(DESTDIR)$(PREFIX)/include
	install -m 755 $(B)/fgm $(DESTDIR)$(PREFIX)/bin/fgm
	install -m 644 $(B)/libfgm.a $(DESTDIR)$(PREFIX)/lib/libfgm.a
	install -m 755 $(B)/libfgm.so $(DESTDIR)$(PREFIX)/lib/libfgm.so
	install -m 644 runtime/fgm.h $(DESTDIR)$(PREFIX)/include/fgm.h
	install -d $(DESTDIR)$(PREFIX)/include/fgm/ops
	install -m 644 runtime/plugin_abi.h runtime/kernels.h \
	    $(DESTDIR)$(PREFIX)/include/fgm/
	install -m 644 runtime/ops/*.h $(DESTDIR)$(PREFIX)/include/fgm/ops/
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' \
	    'includedir=$${prefix}/include' '' 'Name: fgm' \
	    'Description: probabilistic inference with a model compiler' \
	    'Version: $(VERSION)' 'Requires.private: gsl' \
	    'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lfgm' \
	    'Libs.private: -ldl -lpthread -lm' \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/fgm.pc

clean:
	rm -rf $(B) generated/*.c generated/*.so

-include $(shell find $(B)/obj $(B)/asan $(B)/fuzz -name '*.d' 2>/dev/null)
