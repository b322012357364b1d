/*
 * mini_mpi/restart.h: included by mpi.h; restarting a failed rank in place, an extension of
 * this emulator (no other MPI has it): MPIX_Comm_restart_rank starts a new incarnation of a
 * failed rank of MPI_COMM_WORLD (a fresh private copy of the program, same rank, same
 * arguments) and returns once it has passed MPI_Init; MPIX_Comm_irestart_rank is the
 * nonblocking form. The MPI_ spellings name the same calls. Portable code tests
 * MINI_MPI_HAVE_RESTART. A restarted rank reads its incarnation (0 for the first) from the
 * MINI_MPI_INCARNATION attribute of MPI_COMM_WORLD. Semantics: README "Restarting a failed
 * rank" and docs/restart.md.
 */
#ifndef MINI_MPI_RESTART_H
#define MINI_MPI_RESTART_H

#ifdef __cplusplus
extern "C" {
#endif

#define MINI_MPI_HAVE_RESTART 1

/* Attribute key on MPI_COMM_WORLD: this rank's incarnation, 0 unless restarted. */
#define MINI_MPI_INCARNATION MMPI_KEYVAL(8)

#ifdef __cplusplus
}
#endif

#endif
