/*
 * coll/check.h: argument checks shared by the collective entry points (api_*.c). Each returns
 * MPI_SUCCESS or the MPI error class the entry point raises; none raises itself. Only the
 * arguments the standard calls significant at the calling member are to be checked (the
 * receive buffer of a gather only at the root, ...), which the entry points decide.
 */
#ifndef MMPI_COLL_CHECK_H
#define MMPI_COLL_CHECK_H

#include <stdbool.h>

#include "api/poly.h"
#include "mpi.h"

struct mmpi_comm;
struct mmpi_datatype;
struct mmpi_op;
struct mmpi_rank;

/* A live communicator that is not revoked: MPI_ERR_COMM or MPI_ERR_REVOKED otherwise. */
int mmpi_coll_check_comm(const struct mmpi_comm *c);
/* 0 <= root < size, else MPI_ERR_ROOT; on an intercommunicator also MPI_ROOT and
 * MPI_PROC_NULL, and the size is the remote group's (§6.2.2). */
int mmpi_coll_check_root(const struct mmpi_comm *c, int root);
/* Whether the calling member is a rooted collective's root (MPI_ROOT on an intercomm). */
bool mmpi_coll_is_root(const struct mmpi_comm *c, int root);
/* Whether it is one of the members the root sends to or receives from: every member of an
 * intracommunicator, the other group's members (root >= 0) of an intercommunicator. */
bool mmpi_coll_is_leaf(const struct mmpi_comm *c, int root);
/* The count and displacement arrays of a regular form (no v or w arrays). */
#define MMPI_COLL_NO_ARRAY ((struct mmpi_poly_array){NULL, false})

/* Counts are MPI_Count throughout: the MPI_ binding's int arrives widened (api/poly.h). */

/* Count and type of data: count >= 0 (MPI_ERR_COUNT), a committed datatype (MPI_ERR_TYPE,
 * *dt set on success). */
int mmpi_coll_check_data(struct mmpi_rank *self, MPI_Count count, MPI_Datatype h,
                         const struct mmpi_datatype **dt);
/* One buffer: count >= 0 (MPI_ERR_COUNT), a committed datatype (MPI_ERR_TYPE, *dt set on
 * success), and a usable address (MPI_ERR_BUFFER: MPI_IN_PLACE, or NULL with data of a
 * predefined type; NULL is MPI_BOTTOM, legal with derived types, as in pt2pt). */
int mmpi_coll_check_buffer(struct mmpi_rank *self, const void *buf, MPI_Count count, MPI_Datatype h,
                           const struct mmpi_datatype **dt);
/* The same for a datatype h already resolved to dt by mmpi_coll_check_data (count >= 0). */
int mmpi_coll_check_address(const void *buf, MPI_Count count, const struct mmpi_datatype *dt,
                            MPI_Datatype h);
/* MPI-4.1 §2.3 forbids aliasing an input with an output: MPI_ERR_BUFFER when `mine` (count > 0
 * elements) is `whole` or, for index >= 0, the block of `whole` that holds the calling rank's
 * own data (block `index` of blockcount elements of dt, or at displs[index] elements when
 * displs is given, i.e. not MMPI_COLL_NO_ARRAY). Each member checks its own arguments, so no member blocks on an error
 * another member raised. */
int mmpi_coll_check_alias(const void *mine, MPI_Count count, const void *whole,
                          MPI_Count blockcount, struct mmpi_poly_array displs, int index,
                          const struct mmpi_datatype *dt);
/* A v-form buffer of n pieces: arrays present (MPI_ERR_ARG), counts >= 0, then as above. */
int mmpi_coll_check_vector(struct mmpi_rank *self, const void *buf, struct mmpi_poly_array counts,
                           struct mmpi_poly_array displs, int n, MPI_Datatype h,
                           const struct mmpi_datatype **dt);
/* A w-form buffer: arrays present, counts >= 0, every type committed (resolved into dts[n]),
 * and a usable address. */
int mmpi_coll_check_w(struct mmpi_rank *self, const void *buf, struct mmpi_poly_array counts,
                      struct mmpi_poly_array displs, const MPI_Datatype *types, int n,
                      const struct mmpi_datatype **dts);
/* A reduction op valid on dt (MPI_ERR_OP otherwise; MPI_REPLACE and MPI_NO_OP belong to RMA). */
int mmpi_coll_check_op(struct mmpi_rank *self, MPI_Op h, const struct mmpi_datatype *dt,
                       const struct mmpi_op **op);

/* How an entry point runs its collective: blocking, nonblocking (§6.12: *request receives the
 * operation's request) or persistent (§6.13, the MPI_*_init forms: *request receives an
 * inactive persistent request; info carries hints, validated and otherwise ignored). */
struct mmpi_coll_how {
    MPI_Request *request;   /* NULL exactly for blocking forms once checked */
    bool nonblocking;       /* the form has a request argument (nonblocking and persistent) */
    bool persistent;
    MPI_Info info;          /* persistent forms */
};
#define MMPI_COLL_BLOCKING ((struct mmpi_coll_how){NULL, false, false, MPI_INFO_NULL})
#define MMPI_COLL_NONBLOCKING(req) ((struct mmpi_coll_how){(req), true, false, MPI_INFO_NULL})
#define MMPI_COLL_PERSISTENT(info, req) ((struct mmpi_coll_how){(req), true, true, (info)})

/* The request argument of a nonblocking or persistent form (MPI_ERR_ARG when NULL) and the info
 * of a persistent one (MPI_ERR_INFO unless MPI_INFO_NULL, MPI_INFO_ENV or a valid handle). */
int mmpi_coll_check_how(struct mmpi_rank *self, const struct mmpi_coll_how *how);

#endif
