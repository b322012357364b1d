/* probe.c: preprocessed with a target MPI's mpicc, tells inject/pmpi/gen_wrappers.py which
 * calls that MPI declares (inject/inject.mk). */
#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif
