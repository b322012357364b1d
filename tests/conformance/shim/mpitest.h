/*
 * mpitest.h: our own minimal stand-in for MPICH's test harness header (test/mpi/include/mpitest.h),
 * just enough for MPICH's fault-tolerance tests (test/mpi/ft) to build against mini_mpi. Not
 * MPICH code: only the names and the observable behaviour of the three calls those tests use.
 */
#ifndef MINI_MPI_CONFORMANCE_MPITEST_H
#define MINI_MPI_CONFORMANCE_MPITEST_H

#include <mpi.h>

void MTest_Init(int *argc, char ***argv);
void MTest_Finalize(int errs);
int MTestReturnValue(int errs);

#endif
