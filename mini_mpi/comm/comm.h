/*
 * comm.h: communicator objects. A communicator has one shared core (group, context id, revoke
 * flag: everything all members must agree on) and, per member rank, one handle object (rank in
 * the communicator, error handler, name: state the standard makes local). MPI_COMM_WORLD and
 * MPI_COMM_SELF resolve through the calling rank to that rank's own handle objects.
 * Context ids are 64-bit and never reused (docs/design.md "Handles and shared cores").
 */
#ifndef MMPI_COMM_COMM_H
#define MMPI_COMM_COMM_H

#include <stdbool.h>
#include <stdint.h>

#include "fault/state.h"
#include "mpi.h"

struct mmpi_attr;
struct mmpi_board;
struct mmpi_bsend_buffer;
struct mmpi_errhandler;
struct mmpi_info;
struct mmpi_mbox;
struct mmpi_rank;
struct mmpi_topo;

/* Matching contexts of a communicator: user point-to-point traffic, and the library's own
 * (collectives, ULFM), which must never match a user receive. */
enum { MMPI_CTX_USER = 0, MMPI_CTX_COLL = 1, MMPI_NCTX = 2 };

struct mmpi_comm_core {
    uint64_t context_id;       /* immutable; never reused */
    int size;                  /* immutable */
    int *world_ranks;          /* immutable: comm rank -> world rank */
    struct mmpi_mbox *mbox[MMPI_NCTX]; /* immutable arrays: one mailbox per member and context */
    struct mmpi_comm_core *remote; /* immutable: the other group's core (intercomm), or NULL */
    struct mmpi_comm_core *bridge; /* immutable: intercomm: the core over both groups whose
                                    * board runs its collectives and which owns both sides
                                    * (comm/intercomm.h); NULL otherwise */
    struct mmpi_board *board;  /* immutable: collective rendezvous (coll/board.h) */
    struct mmpi_fault_core fault; /* revocation and the registry link (fault/fault.h): members
                                   * are world_ranks; an intercommunicator's sides and bridge
                                   * are linked, so revoking one revokes all three */
    /* refcount changes at every nonblocking operation of every member: alone on its cache
     * line, so that it does not evict the immutable fields above, which every poll reads. */
    char refcount_pad_before[64];
    int refcount;              /* atomic: member handles and pending requests using the core */
    char refcount_pad_after[64];
    struct mmpi_topo *topo;    /* immutable: process topology (topo/topo.h) or NULL; one
                                * reference, dropped with the core */
};

struct mmpi_comm {
    struct mmpi_comm_core *core;         /* immutable */
    int rank;                            /* immutable: my rank in the communicator */
    MPI_Comm handle;                     /* immutable: the handle the user sees */
    struct mmpi_errhandler *errhandler;  /* owning rank; NULL means "not set" (COMM_SELF) */
    char name[MPI_MAX_OBJECT_NAME];      /* owning rank */
    uint64_t coll_seq;                   /* owning rank: collectives started on this comm */
    uint64_t pcoll_inits;                /* owning rank: persistent collectives initialized on
                                          * it (their activations are numbered apart:
                                          * coll/persistent.c) */
    int8_t word_express;                 /* owning rank: coll/fast.h's mmpi_coll_fast_word_ok,
                                          * 0 until first asked, then 1 (yes) or -1 */
    uint64_t ft_seq;                     /* owning rank: agreements and shrinks started; kept
                                          * apart because revoke never interrupts them */
    uint8_t *acked;                      /* owning rank: [remote size] failures acknowledged
                                          * (MPIX_Comm_failure_ack/ack_failed); NULL: none */
    struct mmpi_attr *attrs;             /* the rank's attribute lock (attr/attr.h): cached
                                          * attributes, newest first; NULL: none */
    struct mmpi_info *info;              /* owning rank: hints (MPI_Comm_set_info); NULL: none */
    struct mmpi_bsend_buffer *bsend;     /* MPI_Comm_attach_buffer's (pt2pt/bsend.h), under the
                                          * rank's bsend_lock; NULL: none */
    MPI_Session session;                 /* immutable: the session it derives from (made from a
                                          * session's group, or from such a communicator), else
                                          * MPI_SESSION_NULL (pt2pt/bsend.c picks its buffer) */
};

/* A fresh context id, unique in the process for its lifetime. Thread-safe. */
uint64_t mmpi_context_id_new(void);

/* Resolves a communicator handle for the calling rank; NULL if the handle is not a valid,
 * live communicator of that rank (then the caller raises MPI_ERR_COMM). */
struct mmpi_comm *mmpi_comm_get(struct mmpi_rank *self, MPI_Comm handle);

/* Point-to-point addressing. `peer` is a rank of the remote group for an intercommunicator,
 * of the communicator otherwise (callers have checked its range). */
static inline int mmpi_comm_remote_size(const struct mmpi_comm *c)
{
    return c->core->remote ? c->core->remote->size : c->core->size;
}
static inline int mmpi_comm_peer_world(const struct mmpi_comm *c, int peer)
{
    const struct mmpi_comm_core *g = c->core->remote ? c->core->remote : c->core;
    return g->world_ranks[peer];
}

static inline void mmpi_comm_core_retain(struct mmpi_comm_core *core)
{
    __atomic_add_fetch(&core->refcount, 1, __ATOMIC_RELAXED);
}

/* Names a communicator in reports: the name `owner` gave it, or its id and size. Reads owner's
 * handle table without locks: only while owner is stopped (comm/describe.c). */
void mmpi_comm_describe(struct mmpi_rank *owner, const struct mmpi_comm_core *core, char *buf,
                        size_t len);

/* Creates a core for `size` ranks; world_ranks is taken over (freed with the core). */
struct mmpi_comm_core *mmpi_comm_core_new(int size, int *world_ranks);
void mmpi_comm_core_release(struct mmpi_comm_core *core);
/* Frees a core whose last reference is gone (the release path; intercomm.c for bridges). */
void mmpi_comm_core_destroy(struct mmpi_comm_core *core);

#endif
