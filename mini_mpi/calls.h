/*
 * calls.h: enum mmpi_call, generated from the table of functions (api/mpi.api, through
 * generated/calls.def), and the entry protocol every MPI function
 * follows (STYLE.md "An MPI entry point reads top to bottom").
 */
#ifndef MMPI_CALLS_H
#define MMPI_CALLS_H

enum mmpi_call {
#define MMPI_CALL(name) MMPI_CALL_##name,
#define MMPIX_CALL(name) MMPIX_CALL_##name,
#include "generated/calls.def"
#undef MMPI_CALL
#undef MMPIX_CALL
    MMPI_CALL_COUNT
};

/* "MPI_Send" for MMPI_CALL_Send. */
const char *mmpi_call_name(enum mmpi_call call);
/* Looks up a call by its printed name ("MPI_Send", "MPIX_Comm_agree"); -1 if unknown. */
int mmpi_call_by_name(const char *name);

struct mmpi_rank;

/* Entry of an MPI call that requires an initialized, not finalized MPI: returns the calling
 * rank. Initialized means between MPI_Init and MPI_Finalize, or with a session open (MPI-4.1
 * §11.3); otherwise the error is fatal (§11.2.1). A failed rank unwinds here. */
struct mmpi_rank *mmpi_enter(enum mmpi_call call);
/* Entry of a call allowed at any time (MPI_Initialized, MPI_Get_version, ...). Returns NULL
 * when called from a thread that belongs to no rank. */
struct mmpi_rank *mmpi_enter_anytime(enum mmpi_call call);

/* Defines MPI_name as a weak alias of PMPI_name: a tool that defines MPI_name wins, and calls
 * PMPI_name to reach us (MPI-4.1 §15.2). */
#define MMPI_STR_(x) #x
/* Written `MMPI_PROFILED(Send);` on the line before the definition of PMPI_Send: with its
 * semicolon it reads as a declaration (the dummy extern below), so ctags and editors tag the
 * definition that follows as PMPI_Send rather than as a function named MMPI_PROFILED. */
#define MMPI_PROFILED(name) \
    _Pragma(MMPI_STR_(weak MPI_##name = PMPI_##name)) extern int mmpi_profiled_alias_
#define MMPIX_PROFILED(name) \
    _Pragma(MMPI_STR_(weak MPIX_##name = PMPIX_##name)) extern int mmpi_profiled_alias_

#endif
