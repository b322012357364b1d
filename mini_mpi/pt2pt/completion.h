/*
 * completion.h: what MPI_Wait/Test and friends do with one user request, shared with the other
 * calls that complete or inspect requests (MPI_Request_get_status, MPI_Cancel, ...).
 */
#ifndef MMPI_PT2PT_COMPLETION_H
#define MMPI_PT2PT_COMPLETION_H

#include <stdbool.h>

#include "pt2pt/request.h"

/* Resolves a user handle; *req = NULL for MPI_REQUEST_NULL. MPI_SUCCESS or MPI_ERR_REQUEST. */
int mmpi_completion_lookup(struct mmpi_rank *self, MPI_Request handle, struct mmpi_request **req);
/* True when a wait on req would return now (complete, or inactive persistent). */
bool mmpi_completion_ready(struct mmpi_request *req);
/* Hands a ready request back to the user: status out, persistent ones deactivated, others freed
 * and *handle set to MPI_REQUEST_NULL. Returns the operation's error (not raised). */
int mmpi_completion_finish(struct mmpi_rank *self, MPI_Request *handle, struct mmpi_request *req,
                           MPI_Status *status, bool with_error);

#endif
