/*
 * runtime/kind.h: one table of operations per object kind (communicator, window, file, request,
 * group, datatype, op, info, session), indexed by handle kind (MMPI_HANDLE_KIND_*, mpi.h).
 * Each kind's own subsystem fills its table and registers it when the library is loaded
 * (MMPI_KIND_REGISTER), so that the code beneath the subsystems acts on any object without
 * naming the subsystem above it: runtime/reclaim.c frees what a rank left at world end,
 * runtime/hang.c reports a frozen rank's objects, runtime/wait.c progresses what needs no poll,
 * comm/describe.c names the meeting on a handle-less communicator, errhan/ finds an object's
 * error handler. docs/design.md "Layers".
 *
 * A sibling of struct mmpi_fault_ops (fault/state.h), not an extension of it: the fault hooks
 * belong to a shared core (one per object, private communicators included), are called by the
 * fault layer from the thread that publishes a death, inside an RCU read-side section, and
 * must not wait; these operations act on one rank's handle objects, are called by the owning
 * rank (or with the world stopped or over), and may lock, free or lead to a user's error
 * handler. Kinds with no fault core (requests, groups, sessions) have a table here, and
 * communicators have no fault hooks. One struct for both would mix the two sets of rules.
 *
 * Every entry may be NULL: the kind has nothing to do there. A table is registered before any
 * rank runs and is immutable afterwards; lookups need no synchronization.
 */
#ifndef MMPI_RUNTIME_KIND_H
#define MMPI_RUNTIME_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mmpi_comm_core;
struct mmpi_errhandler;
struct mmpi_rank;

#define MMPI_KINDS 16 /* handle kinds: the size of struct mmpi_rank's handles[] */

struct mmpi_kind_ops {
    /* World end (runtime/reclaim.c): frees obj, which rank r left in its table of this kind
     * (already removed from it), without synchronizing with anyone and running no user
     * callback. No thread of the world runs. */
    void (*reclaim)(struct mmpi_rank *r, void *obj);
    /* Hang report (runtime/hang.c): a line on obj's state (a window's epochs and locks) into
     * buf; false when there is nothing worth reporting. obj's rank is frozen. */
    bool (*report)(const void *obj, char *buf, size_t len);
    /* Hang report (comm/describe.c): when obj meets its members on the handle-less
     * communicator core `core` (a window's or a file's private communicator), what obj is and
     * where it stands, into buf; false when core is not obj's. The owner is frozen. */
    bool (*describe_meeting)(struct mmpi_rank *owner, const void *obj,
                             const struct mmpi_comm_core *core, char *buf, size_t len);
    /* errhan/: the handler an error on obj goes to, and in *handle the handle it is called
     * with; obj NULL (no object: an invalid handle) gives the kind's default. Owning rank. */
    struct mmpi_errhandler *(*errhandler)(struct mmpi_rank *self, const void *obj, int *handle);
    /* runtime/wait.c, before a blocking wait of self sleeps: runs what self's pending
     * operations of this kind can do without being polled (a communicator's nonblocking
     * collectives, coll/progress.h). Any thread of self; never blocks. */
    void (*progress)(struct mmpi_rank *self);
};

/* Enters the table of handle kind `kind`. Once per kind, before any rank runs. */
void mmpi_kind_register(int kind, const struct mmpi_kind_ops *ops);

/* Registers `ops` for handle kind `kind` when the library is loaded. Place it in the file that
 * creates or frees the kind's objects, so that a static link which holds such objects holds
 * the registration too. */
#define MMPI_KIND_REGISTER(kind, ops)                                      \
    __attribute__((constructor)) static void mmpi_kind_register_here(void) \
    {                                                                      \
        mmpi_kind_register(kind, &(ops));                                  \
    }

/* The table of a handle kind; one with every entry NULL if none was registered. */
const struct mmpi_kind_ops *mmpi_kind_ops(int kind);

/* The next object of r's table of `kind` at or after index *i, *i moved past it; NULL at the
 * end. Lock-free (util/slots.h): only the owning rank, or while it is stopped. */
void *mmpi_handles_next(struct mmpi_rank *r, int kind, uint32_t *i);

#endif
