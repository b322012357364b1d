/*
 * pt2pt/bsend.h: the buffers of buffered sends (MPI-4.1 §3.6): the process's (MPI_Buffer_attach)
 * and a communicator's (MPI_Comm_attach_buffer), their accounting, and flushing them.
 *
 * A buffered message is packed into its envelope at once and queued at the receiver (match.c),
 * so the attached memory itself is never written; the buffer is the bound the standard sets on
 * what may be pending. A message of up to MMPI_EAGER_MAX bytes is transmitted when it is
 * queued, as an eager message is (the receiver holds it); a larger one stays charged to the
 * buffer, its size plus MPI_BSEND_OVERHEAD, until the receiver takes it, as a rendezvous message
 * would: a ticket records it. A ticket whose destination failed, or whose communicator was
 * revoked, can never be taken: the buffer drops it (the message is lost) and the next flush
 * reports MPI_ERR_PROC_FAILED or MPI_ERR_REVOKED. MPI_BUFFER_AUTOMATIC bounds nothing.
 *
 * Tickets: two references, the buffer's list and the message's; the receiver settles the
 * message's (done, then a wake-up of the owner). Buffers and lists: the owning rank's threads
 * only, under its bsend_lock.
 */
#ifndef MMPI_PT2PT_BSEND_H
#define MMPI_PT2PT_BSEND_H

#include <stdbool.h>
#include <stdint.h>

#include "mpi.h"

struct mmpi_comm;
struct mmpi_comm_core;
struct mmpi_rank;

struct mmpi_bsend_ticket {
    uint32_t done;                  /* atomic: the receiver took the message (or it is gone) */
    int refs;                       /* atomic */
    MPI_Count bytes;                /* charged to the buffer */
    int dest_world;                 /* immutable */
    struct mmpi_comm_core *core;    /* immutable, retained: revocation ends the wait */
    struct mmpi_rank *owner;        /* immutable: woken when done */
    uint64_t seq;                   /* immutable: order of the sends (iflush waits for older) */
    struct mmpi_bsend_ticket *next; /* the buffer's list; owner's bsend_lock */
};

struct mmpi_bsend_buffer {
    void *addr; /* as attached: MPI_BUFFER_AUTOMATIC, or memory */
    MPI_Count size;
    MPI_Count used; /* charged by pending tickets */
    uint64_t next_seq;
    int lost; /* first loss since the last flush: MPI_ERR_PROC_FAILED or
                                    * MPI_ERR_REVOKED, else MPI_SUCCESS */
    struct mmpi_bsend_ticket *pending;
};

/* The buffer a buffered send on c uses (MPI-4.1 §3.6: the communicator's if attached, else
 * that of the session it derives from if one is attached, else the process's); NULL: none.
 * Call with self->bsend_lock held. */
struct mmpi_bsend_buffer *mmpi_bsend_buffer_of(struct mmpi_rank *self, struct mmpi_comm *c);

/* Attaches to *slot (the rank's or a communicator's) buffer of size bytes (size >= 0; buffer
 * MPI_BUFFER_AUTOMATIC or non-NULL when size > 0). MPI_ERR_BUFFER if one is attached. */
int mmpi_bsend_attach(struct mmpi_rank *self, struct mmpi_bsend_buffer **slot, void *buffer,
                      MPI_Count size);
/* Flushes, then detaches *slot: *(void **)buffer_addr, *size as attached (NULL and 0 when none
 * was). Returns the flush's error (the buffer is detached all the same). May block. */
int mmpi_bsend_detach(struct mmpi_rank *self, struct mmpi_bsend_buffer **slot, void *buffer_addr,
                      MPI_Count *size);
/* Waits until every message charged to *slot is transmitted or lost; MPI_SUCCESS, or the
 * first loss (see above). MPI_SUCCESS with no buffer. May block. */
int mmpi_bsend_flush(struct mmpi_rank *self, struct mmpi_bsend_buffer **slot);
/* The same as a request (comm: the handle its error is raised on), complete once the
 * messages charged now are. MPI_SUCCESS or MPI_ERR_NO_MEM. */
int mmpi_bsend_iflush(struct mmpi_rank *self, struct mmpi_bsend_buffer **slot, MPI_Comm comm,
                      MPI_Request *request);
/* Frees a buffer no longer reachable (its communicator or rank is gone); tickets live on. */
void mmpi_bsend_buffer_free(struct mmpi_bsend_buffer *b);

/* A buffered send of `bytes` packed bytes to dest (not MPI_PROC_NULL) on c: MPI_ERR_BUFFER if no
 * buffer is attached or it cannot hold the message now; else the charge is made, and the
 * ticket, if the message needs one, handed to the calling thread's next buffered send
 * (mmpi_bsend_take_ticket, in match.c). */
int mmpi_bsend_reserve(struct mmpi_rank *self, struct mmpi_comm *c, int dest, size_t bytes);
/* The ticket of the calling thread's buffered send being posted (NULL: none). */
struct mmpi_bsend_ticket *mmpi_bsend_take_ticket(void);
/* The message of t is taken, or gone: done, wakes the owner, drops the message's reference.
 * NULL is fine. Any thread. */
void mmpi_bsend_settle(struct mmpi_bsend_ticket *t);

#endif
