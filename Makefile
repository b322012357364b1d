# Makefile: builds libmini_mpi (shared, plus a static archive of the same objects for unit
# tests), the test programs and benchmarks; runs the test tiers. Non-recursive; outputs under
# build/. `make help` lists the targets.

CC      ?= cc
PREFIX  ?= /usr/local
BUILD   := build
URCU_CFLAGS := $(shell pkg-config --cflags liburcu-memb liburcu-cds 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

WARN    := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS  ?= -O2 -g
# The library is optimized across files at link time (a call on a hot path such as mmpi_enter
# or the fast collectives' checks gets inlined: 2-5% of a 2-rank collective or message). The
# objects keep machine code too, for the static archive of the unit tests. GCC only (the flags
# are GCC's); LTO= turns it off.
LTO     ?= $(if $(shell $(CC) --version 2>/dev/null | grep -q 'Free Software Foundation' && \
                echo gcc),-flto=auto -ffat-lto-objects)
LIB_CFLAGS := -std=c11 -D_GNU_SOURCE -pthread -fPIC -fvisibility=hidden $(WARN) \
              -Imini_mpi -Imini_mpi/include -Iinject $(URCU_CFLAGS) -MMD -MP $(LTO)
ifdef SAN
  CFLAGS += -fsanitize=$(SAN) -fno-omit-frame-pointer
  LDFLAGS += -fsanitize=$(SAN)
endif

# Every .c under mini_mpi/ is part of the library; launch_hook.c only of the shared one. So are
# the parts of the fault injector shared with the PMPI injector for other MPIs (inject/).
INJECT_SHARED_SRCS := inject/fault_spec.c inject/call_names.c inject/call_counts_file.c
LIB_SRCS   := $(sort $(shell find mini_mpi -name '*.c') $(INJECT_SHARED_SRCS))
HOOK_SRC   := mini_mpi/runtime/launch_hook.c
LIB_OBJS   := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
CORE_OBJS  := $(filter-out $(BUILD)/obj/$(HOOK_SRC:.c=.o),$(LIB_OBJS))
SHARED_LIB := $(BUILD)/lib/libmini_mpi.so
STATIC_LIB := $(BUILD)/lib/libmini_mpi_internal.a

UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(UNIT_SRCS))
MPI_SRCS   := $(sort $(wildcard tests/mpi/*.c))
MPI_BINS   := $(patsubst tests/mpi/%.c,$(BUILD)/tests/mpi/%,$(MPI_SRCS))
# C++ MPI programs, built by bin/mpicxx.
MPI_CXX_SRCS := $(sort $(wildcard tests/mpi/*.cpp))
MPI_BINS   += $(patsubst tests/mpi/%.cpp,$(BUILD)/tests/mpi/%,$(MPI_CXX_SRCS))
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))
EXAMPLE_BINS := $(patsubst examples/%.c,$(BUILD)/examples/%,$(EXAMPLE_SRCS))

.PHONY: all lib tests test check check-long check-valgrind check-conformance bench bench-compare demo deps \
        install uninstall clean help

all: lib tests inject

lib: $(SHARED_LIB) $(STATIC_LIB)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) $(CFLAGS) -c $< -o $@

$(SHARED_LIB): $(LIB_OBJS) mini_mpi/exports.map
	@mkdir -p $(dir $@)
	$(CC) -shared -pthread $(CFLAGS) $(LTO) $(LDFLAGS) -Wl,--version-script=mini_mpi/exports.map \
	    -Wl,-soname,libmini_mpi.so -o $@ $(LIB_OBJS) -ldl

$(STATIC_LIB): $(CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $(CORE_OBJS)

tests: $(UNIT_BINS) $(MPI_BINS) $(EXAMPLE_BINS)

# Unit tests link the library objects directly: they reach internal functions and start their
# worlds themselves (no launch hook). Without LTO: they use the objects' machine code.
$(BUILD)/tests/unit/%: tests/unit/%.c $(STATIC_LIB) tests/unit/unit_world.h
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) $(CFLAGS) -fno-lto -Itests/unit $< -o $@ $(LDFLAGS) $(STATIC_LIB) \
	    $(CMOCKA_LIBS) -pthread -ldl

# MPI programs are built exactly as users build theirs.
$(BUILD)/tests/mpi/%: tests/mpi/%.c $(wildcard tests/mpi/include/*.h) $(SHARED_LIB) bin/mpicc
	@mkdir -p $(dir $@)
	bin/mpicc -std=gnu11 -O1 -g -Wall -Itests/mpi/include $< -o $@

$(BUILD)/tests/mpi/%: tests/mpi/%.cpp $(SHARED_LIB) bin/mpicc
	@mkdir -p $(dir $@)
	bin/mpicxx -std=c++17 -O1 -g -Wall -Wextra -pedantic $< -o $@

$(BUILD)/examples/%: examples/%.c $(SHARED_LIB) bin/mpicc
	@mkdir -p $(dir $@)
	bin/mpicc -std=gnu11 -O2 -g -Wall $< -o $@

deps:
	scripts/install-deps.sh

test: all
	tests/run.sh

check: test

check-long: all
	MINI_MPI_TEST_LONG=1 tests/run.sh

# A representative subset under memcheck (tests/valgrind.list), timeouts scaled. Tests where
# a rank dies (tests/valgrind-faults.list) are checked for every memory error except leaks: a
# killed rank's own heap blocks can never be freed (there is no process to exit), so they would
# be reported as lost; the library's own objects are reclaimed at world end (runtime/reclaim.c).
# --fair-sched=yes: valgrind runs one thread at a time, and by default a thread that spins
# (hang_scenarios compute) can keep the others from running for seconds.
VALGRIND := valgrind -q --fair-sched=yes --error-exitcode=99 --leak-check=full
check-valgrind: all
	MINI_MPI_TEST_PREFIX="$(VALGRIND) --errors-for-leak-kinds=definite" \
	MINI_MPI_TEST_TIMEOUT_SCALE=10 tests/run.sh --list tests/valgrind.list
	MINI_MPI_TEST_PREFIX="$(VALGRIND) --errors-for-leak-kinds=none" \
	MINI_MPI_TEST_TIMEOUT_SCALE=10 tests/run.sh --list tests/valgrind-faults.list

# The public ULFM suites (docs/conformance.md), from local checkouts: SUITES=dir (holding
# them), or MINI_MPI_CONFORMANCE_CACHE=dir to fetch them. Needs no network otherwise.
check-conformance: lib
	tests/conformance/run.sh $(SUITES)

bench: lib
	bench/run.sh

bench-compare: lib
	bench/run.sh --compare

demo: deps
	$(MAKE) all
	scripts/demo.sh

install: lib
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/mini_mpi \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 bin/mpicc bin/mpiexec bin/mini_mpi_sweep $(DESTDIR)$(PREFIX)/bin/
	for w in mpicxx mpic++ mpiCC; do ln -sf mpicc $(DESTDIR)$(PREFIX)/bin/$$w; done
	ln -sf mpiexec $(DESTDIR)$(PREFIX)/bin/mpirun
	install -m 644 mini_mpi/include/*.h $(DESTDIR)$(PREFIX)/include/
	if ls mini_mpi/include/mini_mpi/*.h >/dev/null 2>&1; then \
	    install -m 644 mini_mpi/include/mini_mpi/*.h $(DESTDIR)$(PREFIX)/include/mini_mpi/; fi
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|g' mini_mpi/mini_mpi.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/mini_mpi.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/mpicxx $(DESTDIR)$(PREFIX)/bin/mpic++ $(DESTDIR)$(PREFIX)/bin/mpiCC
	rm -f $(DESTDIR)$(PREFIX)/bin/mpicc $(DESTDIR)$(PREFIX)/bin/mpiexec $(DESTDIR)$(PREFIX)/bin/mpirun \
	    $(DESTDIR)$(PREFIX)/bin/mini_mpi_sweep
	rm -f $(DESTDIR)$(PREFIX)/include/mpi.h $(DESTDIR)$(PREFIX)/include/mpi-ext.h
	rm -rf $(DESTDIR)$(PREFIX)/include/mini_mpi
	rm -f $(DESTDIR)$(PREFIX)/lib/libmini_mpi.so $(DESTDIR)$(PREFIX)/lib/pkgconfig/mini_mpi.pc

clean:
	rm -rf $(BUILD)

help:
	@echo "make [all]        build the library, tests and examples"
	@echo "make test         fast test gate (tests/run.sh)"
	@echo "make check-long   long soaks and sweeps"
	@echo "make check-valgrind  memcheck on tests/valgrind.list"
	@echo "make check-conformance SUITES=dir  public ULFM suites (docs/conformance.md)"
	@echo "make bench        benchmarks (numbers, never pass/fail)"
	@echo "make bench-compare  side by side with Debian's MPICH and Open MPI"
	@echo "make demo         install dependencies, build, run the flagship example"
	@echo "make install PREFIX=/path"

include inject/inject.mk

-include $(LIB_OBJS:.o=.d)
