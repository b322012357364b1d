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

/* What a kind of shared core does when the fault layer publishes the death of one of its
 * members (a revoke needs nothing of a kind: the flag and the wake-up are the fault layer's).
 * on_death runs in the publishing thread (a dying rank, the hang monitor, the injector's
 * timer), inside the registry walk's RCU read-side section, before the members are woken. It
 * records and the waiters, woken afterwards, act: it must not wait for another rank, call user
 * code, or wait for a grace period (mmpi_fault_core_unregister, mmpi_fault_synchronize). It
 * may take a mutex that is held only briefly elsewhere, never across a wait, a kill point or a
 * grace period: the window's hook takes each target's `lock` (osc/win_fault.c). The
 * operations on a rank's handle objects (reclaim, reports, error handlers) are a sibling
 * table, runtime/kind.h. */
struct mmpi_fault_ops {
    const char *kind; /* "window", "file": for MPI_T events (communicators have no table) */
    void (*on_death)(struct mmpi_fault_core *core, int member); /* NULL: nothing to do */
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
    bool registered;                  /* in the registry: set by mmpi_fault_core_register,
                                       * cleared by mmpi_fault_core_unregister (then a second
                                       * unregister does nothing); only the creating and then
                                       * the destroying thread touch it, never at once */
    struct cds_list_head node;        /* the registry (fault/registry.c): RCU-protected */
};

#endif
