/*
 * fault/state.h: the fault layer's data, embedded in the world (struct mmpi_world.fault) and in
 * every communication object (struct mmpi_fault_core). Only the fault layer's own files (the
 * .c files of fault/) write these fields; everything else reads them through fault/fault.h.
 * This header has no dependencies so that runtime/rank.h and comm/comm.h can embed them.
 */
#ifndef MMPI_FAULT_STATE_H
#define MMPI_FAULT_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <urcu/list.h>

/* The world's failure record (fault/publish.c writes it, fault/fault.h reads it). */
struct mmpi_fault_world {
    pthread_mutex_t lock;  /* orders the appends to `order` and `pending` */
    int nfailed;           /* published failures (atomic reads; release store after the
                            * entry of `order` it counts) */
    int *order;            /* [MMPI_MAX_RANKS]: world ranks in the order they were published;
                            * entries below nfailed are immutable */
    uint32_t epoch;        /* bumped (atomic) after every publication: "anything new?" */
    int *pending;          /* [MMPI_MAX_RANKS], under lock: deaths not published yet */
    int npending;          /* under lock; atomic reads allowed */
    double pending_since;  /* under lock: when the oldest pending death happened */
    uint32_t quiescence;   /* bumped (atomic) by mmpi_fault_release_reports: deferred reports
                            * of blocking waits may be made (fault/report.c) */
    uint32_t held_under;   /* atomic, only grows: 1 + the highest quiescence count under which
                            * a blocking wait held a report back; 0: none ever did */
    bool no_monitor;       /* atomic, set once: nothing is deferred, nobody would release it */
};

struct mmpi_fault_core;

/* What an object kind does when the fault layer publishes a death or revokes the object. Both
 * run from the thread that publishes or revokes, inside an RCU read-side section: they must
 * not block or call into user code (they record, and the waiters, woken afterwards, act). */
struct mmpi_fault_ops {
    const char *kind;      /* "communicator", "window", "file": for reports */
    void (*on_death)(struct mmpi_fault_core *core, int member);
    void (*on_revoke)(struct mmpi_fault_core *core);
};

/* The part of a shared object core (a communicator's, a window's, a file's) that the fault
 * layer owns. Members are world ranks; the embedding object owns the array. */
struct mmpi_fault_core {
    const struct mmpi_fault_ops *ops; /* immutable; NULL: no hooks */
    int size;                         /* immutable */
    const int *world_ranks;           /* immutable: member -> world rank */
    struct mmpi_fault_core *linked[2];/* immutable: cores revoked together with this one (an
                                       * intercommunicator's other group and its bridge) */
    bool revoked;                     /* set once by mmpi_fault_revoke (seq_cst), never cleared */
    bool registered;                  /* immutable after mmpi_fault_core_register */
    struct cds_list_head node;        /* the registry (fault/registry.c): RCU-protected */
};

#endif
