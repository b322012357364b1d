# inject/inject.mk: builds libmini_mpi_inject.so, the PMPI fault injector, for other MPI
# libraries (included by the top-level Makefile; docs/inject.md).
#
#   make inject                      one library per MPI found among Debian's: Open MPI
#                                    (mpicc.openmpi) and MPICH (mpicc.mpich), in
#                                    build/inject/<mpi>/libmini_mpi_inject.so
#   make inject MPICC=/path/mpicc    the library for that MPI, in build/inject/libmini_mpi_inject.so
#
# A PMPI library is built against one MPI's mpi.h and links with its libmpi (handles differ
# between MPIs), so there is one per MPI. The wrappers are generated from mini_mpi/api/mpi.api by
# inject/pmpi/gen_wrappers.py, for the calls the target's mpi.h declares.

INJECT_SRCS := inject/pmpi/state.c $(INJECT_SHARED_SRCS) mini_mpi/util/parse.c \
               mini_mpi/util/die.c mini_mpi/util/real.c
INJECT_DEPS := $(INJECT_SRCS) inject/pmpi/pmpi.h inject/fault_spec.h inject/call_counts_file.h \
               inject/pmpi/gen_wrappers.py inject/probe.c mini_mpi/calls.h \
               $(API_STAMP) $(API_TABLE) mini_mpi/api/api.py
INJECT_CFLAGS := -std=gnu11 -O2 -g -fPIC -shared -pthread -fvisibility=hidden -Wall -Wextra \
                 -Wno-unused-parameter -Wno-deprecated-declarations -Iinject -Imini_mpi
INJECT_MPIS := $(foreach m,openmpi mpich,$(if $(shell command -v mpicc.$(m) 2>/dev/null),$(m)))

.PHONY: inject
ifdef MPICC
inject: $(BUILD)/inject/libmini_mpi_inject.so
$(BUILD)/inject/libmini_mpi_inject.so: INJECT_MPICC := $(MPICC)
else
inject: $(foreach m,$(INJECT_MPIS),$(BUILD)/inject/$(m)/libmini_mpi_inject.so)
	@$(if $(INJECT_MPIS),:,echo "inject: no mpicc.openmpi or mpicc.mpich found; use MPICC=/path/mpicc")
endif
$(BUILD)/inject/%/libmini_mpi_inject.so: INJECT_MPICC = mpicc.$*

# The probe, the wrappers and the library, in one recipe per target directory.
define INJECT_RECIPE
	@mkdir -p $(dir $@)
	$(INJECT_MPICC) -E inject/probe.c -o $(dir $@)mpi.i
	python3 inject/pmpi/gen_wrappers.py $(API_TABLE) $(dir $@)mpi.i \
	    > $(dir $@)wrappers.c.tmp && mv $(dir $@)wrappers.c.tmp $(dir $@)wrappers.c
	$(INJECT_MPICC) $(INJECT_CFLAGS) -o $@ $(INJECT_SRCS) $(dir $@)wrappers.c -ldl
endef
$(BUILD)/inject/libmini_mpi_inject.so: $(INJECT_DEPS)
	$(INJECT_RECIPE)
$(BUILD)/inject/%/libmini_mpi_inject.so: $(INJECT_DEPS)
	$(INJECT_RECIPE)
