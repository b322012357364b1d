/*
 * part/part.h: partitioned communication (MPI-4.1 chapter 4): MPI_Psend_init, MPI_Precv_init,
 * MPI_Pready, MPI_Pready_range, MPI_Pready_list, MPI_Parrived. The bindings are part_api.c; the
 * request, its activations and the delivery of partitions are part.c; the matching of a
 * send with a receive, once, in the order of the init calls, is match.c.
 *
 * A partitioned request is a persistent request (pt2pt/request.h: `persistent`, `inner`), so
 * MPI_Start, MPI_Startall, MPI_Wait, MPI_Test and their any/all/some forms, MPI_Request_free
 * and MPI_Request_get_status work on it through point-to-point's persistent-request machinery
 * unchanged; MPI_Start reaches mmpi_part_start through the one dispatch in pt2pt/persistent.c.
 * The theory of operation (rounds, the claim of each partition, failures) heads part.c.
 */
#ifndef MMPI_PART_PART_H
#define MMPI_PART_PART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct mmpi_comm;
struct mmpi_comm_core;
struct mmpi_datatype;
struct mmpi_rank;
struct mmpi_request;
struct mmpi_part_link;

/* One side of a partitioned communication: what its init call recorded, its activations, and
 * its per-partition words. Shared with the matched peer's threads through the link; freed by
 * the last of its references (its request, the request's current activation, the link). */
struct mmpi_part_side {
    int refs;                    /* atomic */
    bool send;                   /* immutable: MPI_Psend_init (else MPI_Precv_init) */
    int nparts;                  /* immutable: partitions, > 0 */
    size_t count;                /* immutable: elements per partition */
    struct mmpi_datatype *dt;    /* immutable; one reference, dropped with the side */
    void *buf;                   /* immutable */
    size_t part_bytes;           /* immutable: packed bytes of one partition */
    int peer;                    /* immutable: dest or source as given (may be MPI_PROC_NULL) */
    int peer_world;              /* immutable: the peer's world rank; -1 for MPI_PROC_NULL */
    int my_rank;                 /* immutable: the owner's rank in its group */
    int tag;                     /* immutable */
    MPI_Comm comm;               /* immutable: the user's communicator handle */
    struct mmpi_comm_core *core; /* immutable; one reference, dropped with the side */
    struct mmpi_rank *owner;     /* immutable */
    uint64_t round;              /* atomic: activations started; written by the owner at
                                 * MPI_Start, read by the peer's threads */
    uint64_t *words;             /* [nparts], atomic. send: (round << 2) | phase of each
                                 * partition (0 not ready, 1 ready, 2 claimed); recv: packed
                                 * bytes credited to the partition over all rounds */
    struct mmpi_part_link *link; /* atomic pointer, set once under the match lock */
    int broken;                  /* match lock: the error that ended an activation (after it,
                                 * the side is never matched) */
    /* match.c's queue of unmatched sides (match lock). */
    struct mmpi_part_side *qnext;
    bool queued;
    uint64_t key_ctx;     /* immutable: context id of the receiving group's core */
    int key_dst, key_src; /* immutable: receiver's and sender's ranks in their groups */
};

/* A matched pair (match.c creates it, part.c uses it). Freed when both requests are freed. */
struct mmpi_part_link {
    int refs;                    /* atomic: one per side's request */
    struct mmpi_part_side *send; /* immutable; one reference */
    struct mmpi_part_side *recv; /* immutable; one reference */
    size_t bytes;                /* immutable: packed bytes delivered per round, the smaller
                                    * of the two sides' totals */
    bool truncated;              /* immutable: the send side holds more than the receive */
    uint64_t delivered;          /* atomic: send partitions delivered, over all rounds */
    int inflight;                /* atomic: deliveries under way (part.c, "Failures") */
    int broken;                  /* atomic: 0, or the error class that ended the pair */
};

/* ---- The hook of point-to-point (pt2pt/persistent.c) ---- */

/* Whether req is a partitioned request (MPI_Psend_init, MPI_Precv_init). */
bool mmpi_part_is(const struct mmpi_request *req);
/* MPI_Start of the inactive partitioned request req on c (its communicator, still valid):
 * starts one activation and sets req->inner. Its errors (MPI_ERR_PROC_FAILED, MPI_ERR_REVOKED)
 * come at completion. Returns MPI_SUCCESS. Called only by the owning rank. Never blocks. */
int mmpi_part_start(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_request *req);

/* ---- part.c: the implementation behind the bindings ---- */

/* MPI_Psend_init / MPI_Precv_init once the arguments are checked (c the routed communicator,
 * dt valid, partitions > 0): a new inactive request in *request, matched with its peer's if
 * the peer has initialized it already. MPI_SUCCESS or MPI_ERR_NO_MEM. Never blocks. */
int mmpi_part_init(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm comm, bool send, void *buf,
                   int partitions, MPI_Count count, struct mmpi_datatype *dt, int peer, int tag,
                   MPI_Request *request);
/* The request behind a handle if it is an active partitioned request of the wanted kind:
 * MPI_SUCCESS with *req, MPI_ERR_REQUEST otherwise (*req set when the handle is valid). */
int mmpi_part_lookup(struct mmpi_rank *self, MPI_Request handle, bool send,
                     struct mmpi_request **req);
/* Marks the n partitions of parts (each checked: 0 <= p < partitions) ready in the current
 * activation of the send request req, and delivers those whose receiver is ready. MPI_SUCCESS,
 * or MPI_ERR_ARG for a partition already ready (the others are marked). Any thread of the
 * owner. Never blocks. */
int mmpi_part_ready(struct mmpi_request *req, const int *parts, int n, int low, int high);
/* MPI_Parrived on the receive request req (partition checked): *flag whether the partition has
 * arrived in the current activation (true when inactive). Returns MPI_SUCCESS, or, for a
 * partition that has not arrived and never will, MPI_ERR_REVOKED or MPI_ERR_PROC_FAILED. */
int mmpi_part_arrived(struct mmpi_rank *self, struct mmpi_request *req, int partition, int *flag);
/* The number of partitions of a partitioned request. */
int mmpi_part_partitions(const struct mmpi_request *req);

/* ---- match.c ---- */

/* Matches side with the oldest unmatched side of the other kind with the same key (init
 * order), or queues it. Takes the match lock. Returns the new link (with its two references,
 * published in both sides) or NULL. */
struct mmpi_part_link *mmpi_part_match(struct mmpi_part_side *side);
/* The side's request is being freed, or its activation failed with err (MPI_SUCCESS: freed):
 * unqueues it if unmatched; a failure marks it broken (never matched afterwards). Returns the
 * side's link (NULL: unmatched). Takes the match lock. */
struct mmpi_part_link *mmpi_part_detach(struct mmpi_part_side *side, int err);

void mmpi_part_side_release(struct mmpi_part_side *side);
void mmpi_part_link_release(struct mmpi_part_link *link);

#endif
