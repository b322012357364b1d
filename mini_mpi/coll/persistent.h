/*
 * coll/persistent.h: the one hook point-to-point's MPI_Start and MPI_Startall (pt2pt/persistent.c)
 * call for a persistent collective request (MPI-4.1 §6.13; created by coll/persistent.c).
 */
#ifndef MMPI_COLL_PERSISTENT_H
#define MMPI_COLL_PERSISTENT_H

#include <stdbool.h>

struct mmpi_comm;
struct mmpi_rank;
struct mmpi_request;

/* Whether req is a persistent collective request. */
bool mmpi_coll_persistent_is(const struct mmpi_request *req);
/* Whether req is a nonblocking collective's request or an active persistent collective one:
 * MPI_Request_free on it is erroneous (MPI-4.1 §6.12, §6.13), MPI_ERR_REQUEST. */
bool mmpi_coll_request_active(const struct mmpi_request *req);
/* Starts one activation of the inactive persistent collective req on c (its communicator, still
 * valid): sets req->inner to the activation's engine request, numbered by req's place among
 * c's persistent inits and its own activation count, so members may start their requests in
 * any order (§6.13: they match by the order of the init calls). Its errors
 * (MPI_ERR_PROC_FAILED, MPI_ERR_REVOKED, ...) come at completion. Returns MPI_SUCCESS.
 * Called only by the owning rank. Never blocks. */
int mmpi_coll_persistent_start(struct mmpi_rank *self, struct mmpi_comm *c,
                               struct mmpi_request *req);

#endif
