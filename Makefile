# vmsim - top-level Makefile.  Sources are found by glob: a new module is a
# new file pair in model/ or a folder of sim/ (sim/*/), a new test is a new file in tests/*/.
#
#   make            build ./vmsim (gcc, make and glibc only)
#   make check      install test deps if missing, run every suite + valgrind
#   make asan       ASan+UBSan build running the suites
#   make bench      performance figures beside same-run references (never asserted);
#                   BASELINE=path/to/vmsim adds an older binary's figures
#   make install    PREFIX=/usr/local DESTDIR=

.DEFAULT_GOAL := all

CC      ?= gcc
PREFIX  ?= /usr/local
BUILD   ?= build
CSTD    := -std=c11 -D_GNU_SOURCE
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wno-missing-field-initializers
# link-time optimisation for vmsim itself: 7% on a plain strace log, where
# the reader's and the model's calls cross files (docs/performance.md);
# fat objects, so that the test programs link the same archives without it
# (NO_LTO), in a fraction of the time.  A build that sets OPT (the
# sanitizers, the fuzzers) or CFLAGS (a packager) chooses for itself.
OPT     ?= -O2 -g -flto=auto -ffat-lto-objects
NO_LTO  := $(if $(findstring -flto,$(OPT) $(CFLAGS)),-fno-lto)
# A packager's CC, CPPFLAGS, CFLAGS and LDFLAGS (dpkg-buildflags) are used
# as given, and then warnings are warnings; the project's own builds (no
# CFLAGS given: developers, CI, make check) make them errors.  WERROR=
# turns that off, WERROR=-Werror on.
ifeq ($(origin CFLAGS),undefined)
CFLAGS  := $(OPT)
WERROR  ?= -Werror
endif
WERROR  ?=
# sim/ is one folder per subsystem (docs/architecture.md); every folder is on
# the include path, and tests/docs/layering.sh checks who includes what
SIM_DIRS  := $(sort $(dir $(wildcard sim/*/*.c)))
SIM_INC   := $(patsubst %/,-I%,$(SIM_DIRS))
ALL_CFLAGS = $(CSTD) $(WARN) $(WERROR) -Iinclude -Imodel $(SIM_INC) $(CPPFLAGS) $(CFLAGS)
LDLIBS  += -lm

MODEL_SRC := $(sort $(wildcard model/*.c))
SIM_SRC   := $(sort $(filter-out sim/cli/main.c,$(wildcard sim/*/*.c)))
MODEL_OBJ := $(MODEL_SRC:%.c=$(BUILD)/%.o)
SIM_OBJ   := $(SIM_SRC:%.c=$(BUILD)/%.o)
LIBMODEL  := $(BUILD)/libvmsim-model.a
LIBSIM    := $(BUILD)/libvmsim-sim.a

UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%)
CONF_SRC  := $(sort $(wildcard tests/conformance/*.c))
PROP_SRC  := $(sort $(wildcard tests/property/*.c))
LIVE_TESTS := $(sort $(wildcard tests/live/*.sh tests/docs/*.sh))
MANPAGES  := $(BUILD)/man/vmsim-trace.5 $(BUILD)/man/vmsim.1 $(BUILD)/man/vmsim.3
TESTLIB_SRC := $(sort $(wildcard tests/lib/*.c))

ifeq ($(BUILD),build)
VMSIM := vmsim
else
VMSIM := $(BUILD)/vmsim
endif

# ---- libvmsim: include/vmsim.h, a static and a shared library, vmsim.pc -----
SOVERSION := 0
LIBVER    := 0.1.0
LIBDIR    ?= $(PREFIX)/lib
PIC_BUILD := build-pic

$(BUILD)/libvmsim.a: $(SIM_OBJ) $(MODEL_OBJ)
	@rm -f $@
	ar rcs $@ $^

# the shared library from position-independent objects of its own
$(BUILD)/libvmsim.so.$(LIBVER): $(SIM_SRC) $(MODEL_SRC) include/vmsim.h include/vmsim.map
	@$(MAKE) --no-print-directory BUILD=$(PIC_BUILD) OPT="$(OPT) -fPIC -fvisibility=hidden" \
	    $(PIC_BUILD)/libvmsim-sim.a $(PIC_BUILD)/libvmsim-model.a
	$(CC) -shared -Wl,-soname,libvmsim.so.$(SOVERSION) -Wl,--version-script=include/vmsim.map \
	    $(LDFLAGS) -o $@ \
	    -Wl,--whole-archive $(PIC_BUILD)/libvmsim-sim.a $(PIC_BUILD)/libvmsim-model.a \
	    -Wl,--no-whole-archive $(LDLIBS)

# written anew each time: it holds PREFIX and LIBDIR
$(BUILD)/vmsim.pc: FORCE
	@mkdir -p $(dir $@)
	printf 'prefix=%s\nlibdir=%s\nincludedir=%s/include\n\nName: vmsim\nDescription: %s\nVersion: %s\nLibs: -L$${libdir} -lvmsim\nLibs.private: -lm\nCflags: -I$${includedir}\n' \
	    "$(PREFIX)" "$(LIBDIR)" "$(PREFIX)" "the simulated Linux VM of vmsim (memory locking)" "$(LIBVER)" > $@

# a release tarball that builds by itself: the tracked files of HEAD
dist:
	@mkdir -p $(BUILD)
	git archive --format=tar.gz --prefix=vmsim-$(LIBVER)/ -o $(BUILD)/vmsim-$(LIBVER).tar.gz HEAD
	@echo "$(BUILD)/vmsim-$(LIBVER).tar.gz"

FORCE:

lib: $(BUILD)/libvmsim.a $(BUILD)/libvmsim.so.$(LIBVER) $(BUILD)/vmsim.pc

.PHONY: all check check-deps test valgrind asan bench install uninstall man clean tables fuzz fuzz-build failalloc lib dist check-kernels

# the man pages come with the command: `man -l build/man/vmsim.1` at once
all: $(VMSIM) $(MANPAGES)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIBMODEL): $(MODEL_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(LIBSIM): $(SIM_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(VMSIM): $(BUILD)/sim/cli/main.o $(LIBSIM) $(LIBMODEL)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# ---- tests -------------------------------------------------------------
CHECK_CFLAGS  = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS    = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lpthread -lm)
CUNIT_LIBS    = -lcunit
TEST_CFLAGS   = $(ALL_CFLAGS) $(NO_LTO) -Itests/lib -DVMSIM_SRCDIR=\"$(CURDIR)\"

$(BUILD)/tests/lib/%.o: tests/lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(CHECK_CFLAGS) -MMD -MP -c $< -o $@

TESTLIB_OBJ := $(TESTLIB_SRC:%.c=$(BUILD)/%.o)
.SECONDARY: $(TESTLIB_OBJ)

$(BUILD)/tests/unit/%: tests/unit/%.c $(TESTLIB_OBJ) $(LIBSIM) $(LIBMODEL)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(TESTLIB_OBJ) $(LIBSIM) $(LIBMODEL) $(CHECK_LIBS) $(LDLIBS)

# CUnit suites: one binary per file in tests/conformance/ and tests/property/
$(BUILD)/tests/conformance/%: tests/conformance/%.c $(TESTLIB_OBJ) $(LIBSIM) $(LIBMODEL)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -o $@ $< $(TESTLIB_OBJ) $(LIBSIM) $(LIBMODEL) $(CUNIT_LIBS) $(CHECK_LIBS) $(LDLIBS)

$(BUILD)/tests/property/%: tests/property/%.c $(TESTLIB_OBJ) $(LIBSIM) $(LIBMODEL)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -o $@ $< $(TESTLIB_OBJ) $(LIBSIM) $(LIBMODEL) $(CUNIT_LIBS) $(CHECK_LIBS) $(LDLIBS)

CONF_BIN  := $(CONF_SRC:tests/conformance/%.c=$(BUILD)/tests/conformance/%)
PROP_BIN  := $(PROP_SRC:tests/property/%.c=$(BUILD)/tests/property/%)
TEST_BINS := $(UNIT_BIN) $(CONF_BIN) $(PROP_BIN)

check-deps:
	@sh tools/ensure-test-deps.sh

# `make check` = dependencies, build, every suite, then valgrind over every suite.
check: check-deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory test
	@$(MAKE) --no-print-directory valgrind

test: $(VMSIM) $(TEST_BINS)
	@sh tools/run-suites.sh "$(VMSIM)" plain $(TEST_BINS) $(LIVE_TESTS)

# the scenario corpus recorded inside Debian's 6.1 and 6.12 kernels under QEMU and
# replayed (opt-in: about 20 minutes under TCG; tests/kernels/corpus.sh)
check-kernels: check-deps $(VMSIM)
	@sh tools/run-suites.sh "$(VMSIM)" plain tests/kernels/corpus.sh

valgrind: $(VMSIM) $(TEST_BINS)
	@sh tools/run-suites.sh "$(VMSIM)" valgrind $(TEST_BINS)

asan: check-deps
	@$(MAKE) --no-print-directory BUILD=build-asan \
	    OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" build-asan/vmsim asan-run

# the vmsim binary whose Nth allocation fails (VMSIM_FAIL_AT=N), under ASan
failalloc:
	@$(MAKE) --no-print-directory BUILD=build-failalloc WERROR= \
	    OPT="-O1 -g -DVMSIM_FAILALLOC -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" build-failalloc/vmsim

asan-run: $(VMSIM) $(TEST_BINS)
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    sh tools/run-suites.sh "$(VMSIM)" plain $(TEST_BINS) $(LIVE_TESTS)

# ---- fuzzing (clang's libFuzzer) ------------------------------------------
FUZZ_BUILD   := build-fuzz
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all

fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang WERROR= \
	    OPT="-O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
	    $(FUZZ_BUILD)/libvmsim-sim.a $(FUZZ_BUILD)/libvmsim-model.a
	@for t in $(FUZZ_TARGETS); do \
	    clang $(CSTD) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -Iinclude -Imodel $(SIM_INC) \
	        -o $$t tests/fuzz/$$(basename $$t).c $(FUZZ_BUILD)/libvmsim-sim.a \
	        $(FUZZ_BUILD)/libvmsim-model.a -lm || exit 1; done

# each target FUZZ_SECONDS on its corpus, tests/fuzz/corpus-NAME for fuzz_NAME if there
# is one, else the traces of tests/fuzz/corpus (new inputs go to build-fuzz/corpus-*),
# with the dictionary tests/fuzz/NAME.dict if there is one, else trace.dict
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	    n=$$(basename $$t); mkdir -p $(FUZZ_BUILD)/corpus-$$n; \
	    d=tests/fuzz/$${n#fuzz_}.dict; test -f $$d || d=tests/fuzz/trace.dict; \
	    echo "== $$n for $(FUZZ_SECONDS) s ($$d)"; \
	    $$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -timeout=10 -close_fd_mask=1 -dict=$(CURDIR)/$$d \
	        -artifact_prefix=$(CURDIR)/$(FUZZ_BUILD)/$$n- -print_final_stats=1 \
	        $(CURDIR)/$(FUZZ_BUILD)/corpus-$$n $$(c=tests/fuzz/corpus-$${n#fuzz_}; test -d $$c && echo $(CURDIR)/$$c || echo $(CURDIR)/tests/fuzz/corpus) \
	        >$(FUZZ_BUILD)/$$n.log 2>&1; st=$$?; \
	    grep -E '^(stat::number_of_executed_units|stat::peak_rss|==|SUMMARY|Done)' $(FUZZ_BUILD)/$$n.log; \
	    test $$st = 0 || { tail -20 $(FUZZ_BUILD)/$$n.log; exit 1; }; \
	    if grep -q 'runtime error\|^SUMMARY: ' $(FUZZ_BUILD)/$$n.log; then \
	        grep -m 3 'runtime error\|ERROR: ' $(FUZZ_BUILD)/$$n.log; \
	        echo "$$n: a sanitizer report (a forked worker's is not a crash libFuzzer sees): $(FUZZ_BUILD)/$$n.log"; \
	        exit 1; fi; \
	    ls $(FUZZ_BUILD)/$$n-crash-* $(FUZZ_BUILD)/$$n-leak-* $(FUZZ_BUILD)/$$n-timeout-* \
	        $(FUZZ_BUILD)/$$n-oom-* 2>/dev/null && exit 1; true; done

man: $(MANPAGES)

$(BUILD)/man/vmsim.1: $(VMSIM) tools/gen-man1.sh
	@mkdir -p $(dir $@)
	sh tools/gen-man1.sh ./$(VMSIM) > $@

$(BUILD)/man/vmsim-trace.5: docs/trace-format.md tools/md2man.sh
	@mkdir -p $(dir $@)
	sh tools/md2man.sh vmsim-trace 5 "the vmsim trace format" < $< > $@

$(BUILD)/man/vmsim.3: docs/libvmsim.md tools/md2man.sh
	@mkdir -p $(dir $@)
	sh tools/md2man.sh vmsim 3 "the simulated Linux VM as a library" < $< > $@

bench: $(VMSIM)
	@sh tools/bench.sh ./$(VMSIM) $(BASELINE)

install: $(VMSIM) $(MANPAGES) lib
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man5 \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3 \
		$(DESTDIR)$(PREFIX)/share/doc/vmsim
	install -m 0755 $(VMSIM) $(DESTDIR)$(PREFIX)/bin/vmsim
	install -m 0644 $(BUILD)/man/vmsim-trace.5 $(DESTDIR)$(PREFIX)/share/man/man5/
	install -m 0644 $(BUILD)/man/vmsim.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 0644 $(BUILD)/man/vmsim.3 $(DESTDIR)$(PREFIX)/share/man/man3/
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 0644 include/vmsim.h $(DESTDIR)$(PREFIX)/include/
	install -m 0644 $(BUILD)/libvmsim.a $(DESTDIR)$(LIBDIR)/
	install -m 0755 $(BUILD)/libvmsim.so.$(LIBVER) $(DESTDIR)$(LIBDIR)/
	ln -sf libvmsim.so.$(LIBVER) $(DESTDIR)$(LIBDIR)/libvmsim.so.$(SOVERSION)
	ln -sf libvmsim.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libvmsim.so
	install -m 0644 $(BUILD)/vmsim.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	install -m 0644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/vmsim/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 0644 tools/completion/vmsim.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/vmsim
	install -m 0644 tools/completion/_vmsim $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_vmsim

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/vmsim $(DESTDIR)$(PREFIX)/share/man/man5/vmsim-trace.5 \
		$(DESTDIR)$(PREFIX)/share/man/man1/vmsim.1 $(DESTDIR)$(PREFIX)/share/man/man3/vmsim.3 \
		$(DESTDIR)$(PREFIX)/include/vmsim.h \
		$(DESTDIR)$(LIBDIR)/libvmsim.a $(DESTDIR)$(LIBDIR)/libvmsim.so* \
		$(DESTDIR)$(LIBDIR)/pkgconfig/vmsim.pc \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/vmsim \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_vmsim
	rm -rf $(DESTDIR)$(PREFIX)/share/doc/vmsim

clean:
	rm -rf build build-asan build-fuzz build-failalloc build-pic vmsim

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
