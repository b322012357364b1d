/*
 * ulfm.h: fault-tolerance state shared by the ULFM entry points and the engines that must honour
 * it (point-to-point, collectives): what a rank has acknowledged on a communicator, and the
 * spelling macro for the four names of every call.
 */
#ifndef MMPI_ULFM_ULFM_H
#define MMPI_ULFM_ULFM_H

#include <stdbool.h>

#include "mmpi.h"

/* Defines MPIX_x, MPI_x and PMPI_x as weak aliases of PMPIX_x (the implementation). */
#define MMPI_FT_PROFILED(name)                                      \
    _Pragma(MMPI_STR_(weak MPIX_##name = PMPIX_##name))             \
    _Pragma(MMPI_STR_(weak MPI_##name = PMPIX_##name))              \
    _Pragma(MMPI_STR_(weak PMPI_##name = PMPIX_##name))            \
    extern int mmpi_profiled_alias_ /* as MMPI_PROFILED (calls.h): written with a ';' */

/* The board sequence number of c's next agreement or shrink: their own sequence, flagged so
 * they never share an instance with ordinary collectives (revoke never interrupts them, so
 * members stay in step even when ordinary collectives were abandoned). */
static inline uint64_t mmpi_ulfm_next_seq(struct mmpi_comm *c)
{
    return (1ULL << 63) | c->ft_seq++;
}

/* The group receives match against: the remote group of an intercommunicator. */
static inline const struct mmpi_comm_core *mmpi_ulfm_peer_group(const struct mmpi_comm *c)
{
    return c->core->remote ? c->core->remote : c->core;
}

/* Whether member `peer` (of the group a receive matches against) has failed and the calling
 * rank has not acknowledged that failure on c. */
bool mmpi_ulfm_unacked_failure(const struct mmpi_comm *c, int peer);
/* Whether any member of that group has an unacknowledged failure. */
bool mmpi_ulfm_any_unacked_failure(const struct mmpi_comm *c);

/* The implementations of the ULFM entry points (their bindings are ulfm/<topic>_api.c). Each
 * takes a valid communicator (the binding has checked every argument), is called only by the
 * calling rank on its own handle, and returns MPI_SUCCESS or an error class for the binding to
 * raise on c; none checks for revocation itself. */

/* ack.c: acknowledges every failure of c's group known to the calling rank (MPIX_Comm_failure_ack).
 * Never fails. */
void mmpi_ulfm_failure_ack(struct mmpi_rank *self, struct mmpi_comm *c);
/* ack.c: *failedgrp = the acknowledged failures of c's group, in failure order
 * (MPIX_Comm_failure_get_acked). MPI_ERR_NO_MEM if the group cannot be made. */
int mmpi_ulfm_failure_get_acked(struct mmpi_rank *self, struct mmpi_comm *c,
                                MPI_Group *failedgrp);
/* ack.c: *failedgrp = every failure of c's group so far, which the calling rank then knows of
 * (MPIX_Comm_get_failed). MPI_ERR_NO_MEM if the group cannot be made. */
int mmpi_ulfm_get_failed(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Group *failedgrp);
/* ack.c: acknowledges the first num_to_ack (>= 0) known failures in failure order; *num_acked =
 * how many are acknowledged now (MPIX_Comm_ack_failed, Open MPI 5). Never fails. */
void mmpi_ulfm_ack_failed(struct mmpi_rank *self, struct mmpi_comm *c, int num_to_ack,
                          int *num_acked);

/* shrink.c: MPIX_Comm_shrink: *newcomm = a new communicator of c's members that arrived (every
 * live member must call it; may block until each has arrived or failed). An intercommunicator
 * goes to mmpi_inter_shrink (ulfm/inter.h). MPI_ERR_OTHER if the members called different
 * collectives; never MPI_ERR_PROC_FAILED or MPI_ERR_REVOKED. */
int mmpi_ulfm_shrink(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm *newcomm);
/* shrink.c: MPIX_Comm_ishrink: the same as a nonblocking collective; *request gets its handle
 * (errors of the shrink itself are reported at completion). Does not block. */
int mmpi_ulfm_ishrink(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm *newcomm,
                      MPI_Request *request);
/* agree.c: MPIX_Comm_agree: *flag = the bitwise AND of the live members' flags (may block until
 * each has arrived or failed). MPI_ERR_PROC_FAILED, uniformly at every member, if a member
 * failed without contributing and some participant had not acknowledged it; MPI_ERR_OTHER if
 * the members called different collectives. An intercommunicator goes to mmpi_inter_agree. */
int mmpi_ulfm_agree(struct mmpi_rank *self, struct mmpi_comm *c, int *flag);
/* agree.c: MPIX_Comm_iagree: the same as a nonblocking collective (*flag read now, written at
 * completion); *request gets its handle. Does not block. */
int mmpi_ulfm_iagree(struct mmpi_rank *self, struct mmpi_comm *c, int *flag,
                     MPI_Request *request);

#endif
