# Makefile: builds libmini_mpi (shared, plus a static archive of the same objects for unit
# tests), the test programs and benchmarks; runs the test tiers. Non-recursive; outputs under
# build/. `make help` lists the targets.

CC      ?= cc
PREFIX  ?= /usr/local
BUILD   := build
URCU_CFLAGS := $(shell pkg-config --cflags liburcu-memb liburcu-cds 2>/dev/null)
URCU_LIBS   := $(shell pkg-config --libs liburcu-memb liburcu-cds 2>/dev/null || \
                 echo -lurcu-memb -lurcu-common -lurcu-cds)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

WARN    := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS  ?= -O2 -g
# The library is optimized across files at link time (a call on a hot path such as mmpi_enter
# or the fast collectives' checks gets inlined: 2-5% of a 2-rank collective or message). The
# objects keep machine code too, for the static archive of the unit tests. GCC only (the flags
# are GCC's); LTO= turns it off.
LTO     ?= $(if $(SAN),,$(if $(shell $(CC) --version 2>/dev/null | grep -q 'Free Software Foundation' && \
                echo gcc),-flto=auto -ffat-lto-objects))
LIB_CFLAGS := -std=c11 -D_GNU_SOURCE -pthread -fPIC -fvisibility=hidden $(WARN) \
              -Imini_mpi -Imini_mpi/include -Iinject -I. $(URCU_CFLAGS) -MMD -MP $(LTO)
# SAN=thread or SAN=address,undefined: the library, unit tests and MPI programs built with that
# sanitizer (without LTO: faster to build, and the reports name the real functions). Use
# another BUILD directory (make check-tsan / check-asan do). The library records its sanitizer
# in libmini_mpi.sanitize, from which bin/mpicc links every program with it.
comma := ,
ifdef SAN
  CFLAGS += -fsanitize=$(SAN) -fno-omit-frame-pointer
  LDFLAGS += -fsanitize=$(SAN)
  MPICC_SAN := -fsanitize=$(SAN) -fno-omit-frame-pointer
endif
# The C library functions the library interposes (mini_mpi/libc/: setrlimit, __cxa_atexit, ...)
# are called by ThreadSanitizer's and AddressSanitizer's runtimes while they initialize, before
# instrumented code may run (it crashes). They keep per-rank state only; their locks stay
# visible to ThreadSanitizer through its pthread interceptors.
ifneq ($(filter thread,$(subst $(comma), ,$(SAN))),)
  $(BUILD)/obj/mini_mpi/libc/%.o: CFLAGS += -fno-sanitize=thread
endif
ifneq ($(filter address,$(subst $(comma), ,$(SAN))),)
  $(BUILD)/obj/mini_mpi/libc/%.o: CFLAGS += -fno-sanitize=address
endif

# Every .c under mini_mpi/ is part of the library; launch_hook.c only of the shared one. So is the
# fault injector (inject/): the library's (inject.c, call_counts.c) and the parts it shares with
# the PMPI injector for other MPIs (inject/pmpi/, inject.mk).
INJECT_SHARED_SRCS := inject/fault_spec.c inject/call_names.c inject/call_counts_file.c
INJECT_LIB_SRCS    := inject/inject.c inject/call_counts.c
# The table of MPI functions (mini_mpi/api/mpi.api) generates the prototypes of mpi.h, the call
# names and the bindings written once for both forms of a large-count pair (mini_mpi/api/README.md).
# The outputs are not committed; a changed table rewrites only the files whose text changes.
API_TABLE  := mini_mpi/api/mpi.api
API_GEN    := mini_mpi/generated/calls.def mini_mpi/generated/api_impl.h \
              mini_mpi/generated/bindings.c mini_mpi/include/mini_mpi/functions.h
API_STAMP  := mini_mpi/generated/.stamp
.DEFAULT_GOAL := all
$(API_STAMP): $(API_TABLE) mini_mpi/api/api.py mini_mpi/api/gen_c.py
	python3 mini_mpi/api/gen_c.py $(API_TABLE) mini_mpi/generated mini_mpi/include/mini_mpi/functions.h
	@touch $@
$(API_GEN): $(API_STAMP) ;

LIB_SRCS   := $(sort $(filter-out mini_mpi/generated/% mini_mpi/fortran/glue/%,$(shell find mini_mpi -name '*.c')) \
                mini_mpi/generated/bindings.c $(INJECT_SHARED_SRCS) $(INJECT_LIB_SRCS))
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
# The generated bad-argument test (rule below).
MPI_BINS   += $(BUILD)/tests/mpi/bad_args
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))
EXAMPLE_BINS := $(patsubst examples/%.c,$(BUILD)/examples/%,$(EXAMPLE_SRCS))

.PHONY: all lib tests test check check-long check-valgrind check-tsan check-asan check-conformance bench bench-compare demo deps \
        install uninstall clean help

all: lib tests inject

lib: $(SHARED_LIB) $(STATIC_LIB)

$(BUILD)/obj/%.o: %.c | $(API_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) $(CFLAGS) -c $< -o $@

$(SHARED_LIB): $(LIB_OBJS) mini_mpi/exports.map
	@mkdir -p $(dir $@)
	$(CC) -shared -pthread $(CFLAGS) $(LTO) $(LDFLAGS) -Wl,--version-script=mini_mpi/exports.map \
	    -Wl,-soname,libmini_mpi.so -o $@ $(LIB_OBJS) $(URCU_LIBS) -ldl
	$(if $(SAN),echo '$(SAN)' > $(dir $@)libmini_mpi.sanitize,rm -f $(dir $@)libmini_mpi.sanitize)

$(STATIC_LIB): $(CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $(CORE_OBJS)

tests: $(UNIT_BINS) $(MPI_BINS) $(EXAMPLE_BINS)

# Unit tests link the library objects directly: they reach internal functions and start their
# worlds themselves (no launch hook). Without LTO: they use the objects' machine code.
# UNIT_WRAP: the internal functions a test replaces with its own __wrap_ (ld --wrap).
$(BUILD)/tests/unit/%: tests/unit/%.c $(STATIC_LIB) tests/unit/unit_world.h
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) $(CFLAGS) -fno-lto -Itests/unit $< -o $@ $(LDFLAGS) \
	    $(patsubst %,-Wl$(comma)--wrap=%,$(UNIT_WRAP)) $(STATIC_LIB) \
	    $(CMOCKA_LIBS) $(URCU_LIBS) -pthread -ldl
$(BUILD)/tests/unit/test_hang: UNIT_WRAP := mmpi_fault_rank_died

# MPI programs are built exactly as users build theirs.
# bad_args: generated from the table, for every function the library defines (tests/gen/bad_args.py).
$(BUILD)/gen/bad_args.c: tests/gen/bad_args.py $(API_TABLE) mini_mpi/api/api.py $(SHARED_LIB)
	@mkdir -p $(dir $@)
	nm -D --defined-only $(SHARED_LIB) | awk '{print $$3}' > $(BUILD)/gen/exported_names.txt
	python3 tests/gen/bad_args.py $(API_TABLE) $(BUILD)/gen/exported_names.txt > $@.tmp && mv $@.tmp $@
$(BUILD)/tests/mpi/bad_args: $(BUILD)/gen/bad_args.c $(wildcard tests/mpi/include/*.h) bin/mpicc
	@mkdir -p $(dir $@)
	MINI_MPI_BUILD=$(BUILD) bin/mpicc $(MPICC_SAN) -std=gnu11 -O1 -g -Wall -Itests/mpi/include $< -o $@

$(BUILD)/tests/mpi/%: tests/mpi/%.c $(wildcard tests/mpi/include/*.h) $(SHARED_LIB) bin/mpicc
	@mkdir -p $(dir $@)
	MINI_MPI_BUILD=$(BUILD) bin/mpicc $(MPICC_SAN) -std=gnu11 -O1 -g -Wall -Itests/mpi/include $< -o $@ \
	    $(MPI_LINK)

# Shared libraries of the private-library tests (tests/mpi/lib/<name>.c -> lib<name>.so), built
# by mpicc -shared as a user's project builds its own; every tests/mpi/privlib_* program links
# them all (found through its RUNPATH) but libplugin.so, which privlib_dlopen opens itself.
TESTLIB_DIR := $(BUILD)/tests/mpi/lib
TESTLIBS := $(patsubst tests/mpi/lib/%.c,$(TESTLIB_DIR)/lib%.so,$(wildcard tests/mpi/lib/*.c))
$(TESTLIB_DIR)/lib%.so: tests/mpi/lib/%.c $(SHARED_LIB) bin/mpicc
	@mkdir -p $(dir $@)
	MINI_MPI_BUILD=$(BUILD) bin/mpicc $(MPICC_SAN) -shared -O1 -g -Wall $< -o $@ $(LIB_LINK)
$(TESTLIB_DIR)/libchain_a.so $(TESTLIB_DIR)/libplugin.so: $(TESTLIB_DIR)/libchain_b.so
$(TESTLIB_DIR)/libchain_a.so $(TESTLIB_DIR)/libplugin.so: LIB_LINK = -L$(TESTLIB_DIR) -lchain_b
# A library built without mpicc, which never needs libmini_mpi: shared unless named.
$(TESTLIB_DIR)/libnompi.so: tests/mpi/lib/nompi.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O1 -g -Wall $< -o $@
PRIVLIB_LINK = -Wl,--no-as-needed -L$(TESTLIB_DIR) -Wl,-rpath,$(abspath $(TESTLIB_DIR)) \
               $(patsubst $(TESTLIB_DIR)/lib%.so,-l%,$(filter-out %/libplugin.so,$(TESTLIBS)))
$(BUILD)/tests/mpi/privlib_%: MPI_LINK = $(PRIVLIB_LINK)

# The per-rank C library tests again, compiled as executable code (-fPIE, the compiler's
# default) instead of mpicc's -fPIC: the program then reaches libc variables such as optind
# through copy relocations in its own image (libc/bind.c).
# The private-library tests too: a -fPIE program reaches a library's variables through copy
# relocations (runtime/private_libs.c).
LIBC_PIE_BINS := $(patsubst tests/mpi/%.c,$(BUILD)/tests/mpi/%_pie,\
                   $(wildcard tests/mpi/libc_*.c tests/mpi/privlib_*.c))
tests: $(LIBC_PIE_BINS)
$(filter $(BUILD)/tests/mpi/privlib_%,$(MPI_BINS) $(LIBC_PIE_BINS)): $(TESTLIBS)
$(BUILD)/tests/mpi/%_pie: tests/mpi/%.c $(wildcard tests/mpi/include/*.h) $(SHARED_LIB) bin/mpicc
	@mkdir -p $(dir $@)
	MINI_MPI_BUILD=$(BUILD) bin/mpicc -std=gnu11 -O1 -g -Wall -Itests/mpi/include -fPIE $< -o $@ $(MPI_LINK)

$(BUILD)/tests/mpi/%: tests/mpi/%.cpp $(SHARED_LIB) bin/mpicc
	@mkdir -p $(dir $@)
	MINI_MPI_BUILD=$(BUILD) bin/mpicxx -std=c++17 -O1 -g -Wall -Wextra -pedantic $< -o $@

$(BUILD)/examples/%: examples/%.c $(SHARED_LIB) bin/mpicc
	@mkdir -p $(dir $@)
	MINI_MPI_BUILD=$(BUILD) bin/mpicc $(MPICC_SAN) -std=gnu11 -O2 -g -Wall $< -o $@

deps:
	@scripts/install-deps.sh

# Installs what is missing first (silent when everything is there), then builds: the build runs
# in a sub-make so that it starts only after the installation, even under -j.
test:
	@scripts/install-deps.sh --quiet
	@$(MAKE) --no-print-directory all
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

# The same subset (tests/sanitizer.list) built with a sanitizer in its own directory: library,
# unit tests and MPI programs (bin/mpicc links them as a user's would). Any report fails the test
# (MINI_MPI_TEST_FAIL_GREP). Leak checking is off under ASan: a killed rank's heap blocks can
# never be freed (check-valgrind checks leaks where no rank dies). Both run in .ci/run: each
# builds the tree again without LTO (a few minutes on 2 cores), then runs in about 45 s
# (check-tsan) and 2-3 min (check-asan).
SAN_REPORT := ThreadSanitizer|AddressSanitizer|LeakSanitizer|runtime error:
check-tsan:
	$(MAKE) SAN=thread BUILD=build-tsan all
	MINI_MPI_TEST_BUILD=build-tsan MINI_MPI_TEST_TIMEOUT_SCALE=10 \
	MINI_MPI_TEST_FAIL_GREP='$(SAN_REPORT)' TSAN_OPTIONS='halt_on_error=0 history_size=4' \
	tests/run.sh --list tests/sanitizer.list
check-asan:
	$(MAKE) SAN=address,undefined BUILD=build-asan all
	MINI_MPI_TEST_BUILD=build-asan MINI_MPI_TEST_TIMEOUT_SCALE=5 \
	MINI_MPI_TEST_FAIL_GREP='$(SAN_REPORT)' ASAN_OPTIONS='detect_leaks=0' \
	UBSAN_OPTIONS='print_stacktrace=1' tests/run.sh --list tests/sanitizer.list

# The public ULFM suites (docs/conformance.md), from local checkouts: SUITES=dir (holding
# them), or MINI_MPI_CONFORMANCE_CACHE=dir to fetch them. Needs no network otherwise.
check-conformance: lib
	tests/conformance/run.sh $(SUITES)

bench: lib
	bench/run.sh

bench-compare: lib
	bench/run.sh --compare

# Builds only what the demo runs, silently and on every CPU unless -j was given (compiler
# warnings still show).
NPROC := $(shell nproc 2>/dev/null || echo 2)
demo: deps
	@echo "building the library and the examples ..."
	@$(MAKE) --no-print-directory -s $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) lib $(EXAMPLE_BINS)
	@scripts/demo.sh

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
	rm -rf $(BUILD) mini_mpi/generated mini_mpi/include/mini_mpi/functions.h

help:
	@echo "make [all]        build the library, tests and examples"
	@echo "make test         install missing dependencies, build, fast test gate (tests/run.sh)"
	@echo "make check-long   long soaks and sweeps"
	@echo "make check-valgrind  memcheck on tests/valgrind.list"
	@echo "make check-tsan / check-asan  tests/sanitizer.list under ThreadSanitizer / ASan+UBSan"
	@echo "make check-conformance SUITES=dir  public ULFM suites (docs/conformance.md)"
	@echo "make bench        benchmarks (numbers, never pass/fail)"
	@echo "make bench-compare  side by side with Debian's MPICH and Open MPI"
	@echo "make demo         install missing dependencies, build quietly, run the examples"
	@echo "make install PREFIX=/path"

# ---- Fortran (docs/fortran.md) ------------------------------------------------------------
# The bindings are generated from the table (mini_mpi/api/gen_fortran.py) for every function
# libmini_mpi.so defines; the constants are printed by a C program compiled against mpi.h, so
# they are the C values. Everything lands in $(BUILD)/fortran: include/ (mpif.h, the .mod files)
# and lib/libmini_mpi_fortran.a (the C glue and the modules' code), which bin/mpifort links into
# the program image (the glue compares addresses of the program's COMMON blocks). Built by
# `make all` when $(MINI_MPI_FC) (default gfortran) exists.
FORT_FC    := $(or $(MINI_MPI_FC),gfortran)
FORT_HAVE  := $(shell command -v $(firstword $(FORT_FC)) 2>/dev/null)
FORT_DIR   := $(BUILD)/fortran
FORT_LIB   := $(FORT_DIR)/lib/libmini_mpi_fortran.a
FORT_HAND  := $(sort $(wildcard mini_mpi/fortran/glue/*.c))
FORT_MODS  := mpi mpi_f08_types mpi_f08 mpi_ext
FORT_OBJS  := $(FORT_DIR)/obj/glue.o $(FORT_HAND:mini_mpi/fortran/glue/%.c=$(FORT_DIR)/obj/hand_%.o) \
              $(FORT_MODS:%=$(FORT_DIR)/obj/%.o) $(FORT_DIR)/obj/mpi_f08_procs.o
FORT_CFLAGS := -std=gnu11 -D_GNU_SOURCE -fPIC -ftls-model=global-dynamic -O2 -g $(WARN) \
               -Imini_mpi -Imini_mpi/include
FORT_FFLAGS := -fPIC -ftls-model=global-dynamic -O2 -g -J$(FORT_DIR)/include -I$(FORT_DIR)/include
FORT_TEST_SRCS := $(sort $(wildcard tests/fortran/*.f90 tests/fortran/*.f))
FORT_TEST_BINS := $(addprefix $(BUILD)/tests/fortran/,$(basename $(notdir $(FORT_TEST_SRCS))))
FORT_GEN   := $(FORT_DIR)/gen
.PHONY: fortran
ifneq ($(FORT_HAVE),)
all: fortran
fortran: $(FORT_LIB) $(FORT_TEST_BINS)
else
all: fortran
fortran:
	@echo "fortran: skipped ($(firstword $(FORT_FC)) not found; set MINI_MPI_FC)"
endif

$(FORT_GEN)/values.txt: mini_mpi/api/gen_fortran.py $(API_STAMP) $(wildcard mini_mpi/include/*.h \
                        mini_mpi/include/mini_mpi/*.h)
	@mkdir -p $(dir $@)
	python3 mini_mpi/api/gen_fortran.py consts mini_mpi/include $(FORT_GEN)/consts.c
	$(CC) -std=gnu11 -Imini_mpi/include $(FORT_GEN)/consts.c -o $(FORT_GEN)/consts
	$(FORT_GEN)/consts > $@.tmp && mv $@.tmp $@
$(FORT_GEN)/.stamp: $(FORT_GEN)/values.txt $(API_TABLE) mini_mpi/api/api.py \
                    mini_mpi/api/gen_fortran.py $(SHARED_LIB)
	nm -D --defined-only $(SHARED_LIB) | awk '{print $$3}' > $(FORT_GEN)/exported_names.txt
	python3 mini_mpi/api/gen_fortran.py bindings $(API_TABLE) $(FORT_GEN)/exported_names.txt \
	    $(FORT_GEN)/values.txt $(FORT_GEN)
	@mkdir -p $(FORT_DIR)/include
	cp $(FORT_GEN)/mpif.h $(FORT_GEN)/mpif-ext.h $(FORT_GEN)/mpi_constants.h $(FORT_DIR)/include/
	@touch $@
$(FORT_DIR)/obj/glue.o: $(FORT_GEN)/.stamp mini_mpi/fortran/glue.h
	@mkdir -p $(dir $@)
	$(CC) $(FORT_CFLAGS) -c $(FORT_GEN)/glue.c -o $@
$(FORT_DIR)/obj/hand_%.o: mini_mpi/fortran/glue/%.c mini_mpi/fortran/glue.h $(API_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(FORT_CFLAGS) -c $< -o $@
# One module at a time (each writes its .mod), each after the ones it uses.
$(FORT_DIR)/obj/mpi.o: $(FORT_GEN)/.stamp
$(FORT_DIR)/obj/mpi_f08_types.o: $(FORT_DIR)/obj/mpi.o
$(FORT_DIR)/obj/mpi_f08.o: $(FORT_DIR)/obj/mpi_f08_types.o
$(FORT_DIR)/obj/mpi_ext.o: $(FORT_DIR)/obj/mpi_f08.o
$(FORT_MODS:%=$(FORT_DIR)/obj/%.o): $(FORT_DIR)/obj/%.o: $(FORT_GEN)/.stamp
	@mkdir -p $(dir $@) $(FORT_DIR)/include
	$(FORT_FC) $(FORT_FFLAGS) -c $(FORT_GEN)/$*.f90 -o $@
# mpi_f08's procedures under their specific names; the MPI_ ones weak, so that a program's own
# MPI_Send_f08ts replaces the library's (the profiling interface, docs/fortran.md).
$(FORT_DIR)/obj/mpi_f08_procs.o: $(FORT_DIR)/obj/mpi_ext.o
	$(FORT_FC) $(FORT_FFLAGS) -c $(FORT_GEN)/mpi_f08_procs.f90 -o $@.tmp
	objcopy --wildcard --weaken-symbol='mpi_*' --weaken-symbol='mpix_*' $@.tmp $@ && rm -f $@.tmp
$(FORT_LIB): $(FORT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $(FORT_OBJS)

$(BUILD)/tests/fortran/%: tests/fortran/%.f90 $(FORT_LIB) $(SHARED_LIB) bin/mpifort
	@mkdir -p $(dir $@)
	MINI_MPI_BUILD=$(BUILD) bin/mpifort $(MPICC_SAN) -O1 -g -Wall -J$(@D) $< -o $@
$(BUILD)/tests/fortran/%: tests/fortran/%.f $(FORT_LIB) $(SHARED_LIB) bin/mpifort
	@mkdir -p $(dir $@)
	MINI_MPI_BUILD=$(BUILD) bin/mpifort $(MPICC_SAN) -O1 -g -Wall -J$(@D) $< -o $@

# make install: the wrapper (and its mpif77, mpif90 names), mpif.h, mpif-ext.h and the modules
# in include/ (where the installed mpifort looks), the bindings' archive in lib/, and
# lib/pkgconfig/mini_mpi-fort.pc. Nothing when there is no Fortran compiler.
.PHONY: install-fortran uninstall-fortran
ifneq ($(FORT_HAVE),)
install: install-fortran
uninstall: uninstall-fortran
endif
install-fortran: $(FORT_LIB) lib
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 bin/mpifort $(DESTDIR)$(PREFIX)/bin/
	for w in mpif77 mpif90; do ln -sf mpifort $(DESTDIR)$(PREFIX)/bin/$$w; done
	install -m 644 $(FORT_DIR)/include/mpif.h $(FORT_DIR)/include/mpif-ext.h \
	    $(FORT_DIR)/include/mpi_constants.h $(FORT_MODS:%=$(FORT_DIR)/include/%.mod) \
	    $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(FORT_LIB) $(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|g' mini_mpi/fortran/mini_mpi-fort.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/mini_mpi-fort.pc
uninstall-fortran:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,mpifort mpif77 mpif90) \
	    $(addprefix $(DESTDIR)$(PREFIX)/include/,mpif.h mpif-ext.h mpi_constants.h \
	    $(FORT_MODS:%=%.mod)) $(DESTDIR)$(PREFIX)/lib/libmini_mpi_fortran.a \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig/mini_mpi-fort.pc

include inject/inject.mk

-include $(LIB_OBJS:.o=.d)
