/*
 * ulfm/inter.h: agreement and shrink on intercommunicators (inter_agree.c, inter_shrink.c),
 * which run on the intercommunicator's bridge board (comm/intercomm.h) over both groups.
 * agree.c and shrink.c call these when the communicator is an intercommunicator.
 */
#ifndef MMPI_ULFM_INTER_H
#define MMPI_ULFM_INTER_H

#include "mmpi.h"

/* MPIX_Comm_agree (request NULL) or MPIX_Comm_iagree on intercommunicator c: each group gets
 * the AND of the other group's flags. Returns the uniform outcome (MPI_SUCCESS or
 * MPI_ERR_PROC_FAILED) when blocking; MPI_SUCCESS or MPI_ERR_NO_MEM when starting. The caller
 * raises. May block. */
int mmpi_inter_agree(struct mmpi_rank *self, struct mmpi_comm *c, int *flag,
                     MPI_Request *request);
/* MPIX_Comm_shrink / ishrink on intercommunicator c: an intercommunicator of both groups'
 * survivors, each group's order kept; MPI_COMM_NULL when a whole group failed. */
int mmpi_inter_shrink(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm *newcomm,
                      MPI_Request *request);

#endif
