/*
 * pmpi.h: the PMPI injector's state (state.c) as the generated wrappers (gen_wrappers.py) see
 * it. libmini_mpi_inject.so is loaded into one process of a job of another MPI (Open MPI,
 * MPICH): that process is one rank, and MINI_MPI_FAULTS kills it with raise(SIGKILL) where the
 * spec says, counting its MPI calls exactly as mini_mpi counts a rank's (fault_spec.h).
 */
#ifndef MMPI_PMPI_H
#define MMPI_PMPI_H

#include <stdbool.h>

#include "calls.h"

/* Every wrapper, before calling the PMPI_ function: counts the call and dies here if a
 * directive says so (`at`), or if the previous call was the one an `after` named. Safe from any
 * thread. */
void mmpi_pmpi_enter(enum mmpi_call call);
/* MPI_Init or MPI_Init_thread returned: learns this process's rank if the launcher's
 * environment did not tell, and starts the clock of time directives. */
void mmpi_pmpi_init_done(void);

/* Generated: which calls of calls.def the target MPI has, hence wrapped. */
extern const bool mmpi_pmpi_wrapped[MMPI_CALL_COUNT];

#endif
