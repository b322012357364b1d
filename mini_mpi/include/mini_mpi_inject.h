/*
 * mini_mpi_inject.h: mini_mpi's own interface to its fault injector, for tests that decide at
 * run time which rank dies where. Not part of MPI: guard its use with `#ifdef MINI_MPI` so the
 * program still builds against Open MPI or MPICH. The same directives as MINI_MPI_FAULTS
 * (see README): "kill 2 at MPI_Allreduce#3", "kill 1 after MPIX_Comm_agree", "kill 0 at 5 ms".
 */
#ifndef MINI_MPI_INJECT_H
#define MINI_MPI_INJECT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Kills world rank `world_rank` now: the calling rank dies at once; another rank is failed at
 * once for everyone else and its threads stop at their next MPI call. MPI_SUCCESS, or
 * MPI_ERR_RANK for a rank out of range. */
__attribute__((visibility("default"))) int mini_mpi_kill(int world_rank);
/* Arms more directives (';'-separated). MPI_SUCCESS, or MPI_ERR_ARG (one line on stderr). */
__attribute__((visibility("default"))) int mini_mpi_arm(const char *directives);
/* How many ranks the injector has killed so far in this job. */
__attribute__((visibility("default"))) int mini_mpi_injected_deaths(void);

#ifdef __cplusplus
}
#endif

#endif
