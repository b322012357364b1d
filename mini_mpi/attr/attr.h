/*
 * attr/attr.h: attribute caching (MPI-4.1 §7.7), the internal interface: keyvals, the attribute
 * lists of communicators and datatypes, and the hooks other subsystems call when they duplicate
 * or free an object (comm/create*.c, datatype/construct_api.c, init/).
 *
 * Theory of operation. Attributes are per rank: each rank is one MPI process, so its keyvals
 * and its attribute values are its own, like its handles. A communicator's attributes hang off
 * the rank's handle object (struct mmpi_comm.attrs); a datatype's off a per-rank table keyed by
 * the datatype handle (predefined datatype objects are shared by every rank, so they cannot
 * carry per-rank state). One mutex per rank (struct mmpi_attr_rank.lock) protects the rank's
 * keyvals' reference counts and all its attribute lists; it is never held while a user callback
 * runs (callbacks may call MPI, even attribute functions on the same object):
 *  - delete: the entry is marked `busy`, the lock dropped, the delete callback run, and the
 *    entry unlinked only if it succeeded (a failing callback leaves the attribute in place and
 *    its error is the call's error, as in MPICH);
 *  - duplication: the source list is snapshotted under the lock (taking a keyval reference per
 *    entry), then the copy callbacks run unlocked, building the new object's list;
 *  - free of an object: its entries are deleted one by one, newest first (§7.7 leaves the order
 *    arbitrary; newest first is what §11.2.2 asks of MPI_COMM_SELF at MPI_Finalize); the first
 *    failing callback stops the free, which then fails and leaves the object valid.
 * A keyval is reference counted: its handle, plus one per attribute that uses it, so a keyval
 * freed while attributes still use it lives (and its old handle value still gets and deletes
 * them, §7.7.2) until the last is deleted. Predefined keyvals are static and never counted.
 */
#ifndef MMPI_ATTR_ATTR_H
#define MMPI_ATTR_ATTR_H

#include <pthread.h>
#include <stdbool.h>

#include "mmpi.h"

/* Predefined keys (mini_mpi/attr.h), by index. */
enum {
    MMPI_KV_TAG_UB,
    MMPI_KV_HOST,
    MMPI_KV_IO,
    MMPI_KV_WTIME_IS_GLOBAL,
    MMPI_KV_APPNUM,
    MMPI_KV_LASTUSEDCODE,
    MMPI_KV_UNIVERSE_SIZE,
    MMPI_KV_FT,
    MMPI_KV_INCARNATION, /* mini_mpi/restart.h */
    MMPI_KV_NPREDEFINED
};

/* Copy and delete callbacks of any object kind: every handle type is an int (mpi.h). */
typedef int mmpi_attr_copy_fn(int oldobj, int keyval, void *extra_state, void *in, void *out,
                              int *flag);
typedef int mmpi_attr_delete_fn(int obj, int keyval, void *value, void *extra_state);

struct mmpi_keyval {
    int kind;                     /* immutable: MMPI_HANDLE_KIND_COMM, _DATATYPE or _WIN */
    bool predefined;              /* immutable */
    int handle;                   /* immutable */
    mmpi_attr_copy_fn *copy_fn;   /* immutable; NULL: never copied */
    mmpi_attr_delete_fn *delete_fn; /* immutable; NULL: nothing to call */
    void *extra_state;            /* immutable */
    bool freed;                   /* attr lock: MPI_*_free_keyval was called */
    int refs;                     /* attr lock: handle + attributes; unused when predefined */
};

struct mmpi_attr {
    struct mmpi_attr *next;       /* attr lock */
    struct mmpi_keyval *kv;       /* immutable; holds a reference */
    void *value;                  /* attr lock */
    bool busy;                    /* attr lock: a delete callback is running for it */
};

struct mmpi_attr_type;            /* a datatype handle's list (object.c) */

/* Per-rank state. */
struct mmpi_attr_rank {
    pthread_mutex_t lock;
    struct mmpi_attr_type *types; /* lock: datatype handles that have had attributes */
    int predefined[MMPI_KV_NPREDEFINED]; /* the ints the predefined attributes point to */
};

/* An object attributes are cached on, as the callbacks see it. */
struct mmpi_attr_obj {
    int kind;                     /* MMPI_HANDLE_KIND_COMM, _DATATYPE or _WIN */
    int handle;                   /* passed to the callbacks */
    struct mmpi_attr **head;      /* its list; NULL for a datatype without one yet */
};

/* ---- Keyvals (keyval.c) ------------------------------------------------------------------ */

/* Creates a keyval of `kind` for the calling rank; MPI_ERR_NO_MEM when the table is full. */
int mmpi_keyval_create(struct mmpi_rank *self, int kind, mmpi_attr_copy_fn *copy_fn,
                       mmpi_attr_delete_fn *delete_fn, void *extra_state, int *keyval);
/* MPI_*_free_keyval: MPI_ERR_KEYVAL for an invalid, predefined or other-kind keyval; a keyval
 * freed before but still used by attributes is freed again without effect. Takes the attr
 * lock. */
int mmpi_keyval_free(struct mmpi_rank *self, int kind, int keyval);
/* The live keyval behind a handle (predefined included), or NULL. Call with the attr lock. */
struct mmpi_keyval *mmpi_keyval_lookup(struct mmpi_rank *self, int handle);
/* Drops one reference; the last frees the keyval and its handle. Call with the attr lock. */
void mmpi_keyval_release(struct mmpi_rank *self, struct mmpi_keyval *kv);
/* The predefined keyval of index i (MMPI_KV_*). */
struct mmpi_keyval *mmpi_keyval_predefined(int i);

/* ---- Attribute lists (list.c). Each returns an MPI error class or a callback's code. ----- */

/* MPI_*_set_attr: MPI_ERR_KEYVAL for an invalid, predefined or other-kind keyval; an
 * existing value is deleted first (its delete callback runs). `internal` skips the predefined
 * check (MPI_Init sets the predefined attributes). */
int mmpi_attr_set(struct mmpi_rank *self, struct mmpi_attr_obj *obj, int keyval, void *value,
                  bool internal);
/* MPI_*_get_attr: *flag 0 when the object has no value for the key. */
int mmpi_attr_get(struct mmpi_rank *self, struct mmpi_attr_obj *obj, int keyval, void **value,
                  int *flag);
/* MPI_*_delete_attr: runs the delete callback; deleting an absent attribute succeeds (MPICH). */
int mmpi_attr_delete(struct mmpi_rank *self, struct mmpi_attr_obj *obj, int keyval);
/* Deletes every attribute of obj, newest first; stops at the first failing callback. */
int mmpi_attr_delete_all(struct mmpi_rank *self, struct mmpi_attr_obj *obj);
/* Runs the copy callbacks of src's attributes and puts the copies on dst (which has none);
 * on a failing callback, deletes the copies made so far and returns its code. */
int mmpi_attr_copy(struct mmpi_rank *self, struct mmpi_attr_obj *src, struct mmpi_attr_obj *dst);
/* Frees a list without callbacks (the rank is ending). */
void mmpi_attr_list_free(struct mmpi_attr **head);

/* ---- Hooks for the object owners (object.c) ------------------------------------------------ */

/* The rank's state (keyvals, attribute lock), made once whichever comes first: MPI_Init or
 * the rank's first MPI_Session_init. Any thread of the rank. */
void mmpi_attr_rank_init(struct mmpi_rank *self);
/* MPI_Init: the rank's state if not made yet, and MPI_COMM_WORLD's predefined attributes. */
void mmpi_attr_init(struct mmpi_rank *self);
/* MPI_Finalize: deletes MPI_COMM_SELF's attributes, then MPI_COMM_WORLD's (§11.2.2), while MPI
 * is still usable by the callbacks. */
void mmpi_attr_finalize(struct mmpi_rank *self);
/* The rank ends: frees what is left, without callbacks. Any thread, once the rank is gone. */
void mmpi_attr_rank_free(struct mmpi_rank *rank);

/* Communicators: Comm_dup and idup copy; Comm_free deletes. */
int mmpi_attr_comm_copy(struct mmpi_rank *self, struct mmpi_comm *src, struct mmpi_comm *dst);
int mmpi_attr_comm_free(struct mmpi_rank *self, struct mmpi_comm *c);
static inline struct mmpi_attr_obj mmpi_attr_comm_obj(struct mmpi_comm *c)
{
    return (struct mmpi_attr_obj){MMPI_HANDLE_KIND_COMM, c->handle, &c->attrs};
}

/* Datatypes: the object of a handle (creating its list when `create`); Type_dup copies,
 * Type_free deletes and forgets the handle. */
struct mmpi_attr_obj mmpi_attr_type_obj(struct mmpi_rank *self, MPI_Datatype h, bool create);
int mmpi_attr_type_copy(struct mmpi_rank *self, MPI_Datatype oldtype, MPI_Datatype newtype);
int mmpi_attr_type_free(struct mmpi_rank *self, MPI_Datatype h);

#endif
