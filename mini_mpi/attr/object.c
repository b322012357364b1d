/*
 * attr/object.c: which objects carry attribute lists, and the hooks their owners call (attr.h):
 * the rank's state (at MPI_Init or its first session, whichever comes first),
 * MPI_COMM_WORLD's predefined attributes at MPI_Init, their deletion at
 * MPI_Finalize, communicator and datatype duplication and free. Datatype lists live in a small
 * per-rank table keyed by handle (few types ever carry attributes; a scan is enough).
 */
#include <stdlib.h>

#include "attr/attr.h"
#include "pt2pt/pt2pt.h"

struct mmpi_attr_type {
    struct mmpi_attr_type *next; /* attr lock */
    MPI_Datatype handle;         /* immutable */
    struct mmpi_attr *attrs;     /* attr lock */
};

void mmpi_attr_rank_init(struct mmpi_rank *self)
{
    if (__atomic_load_n(&self->attr, __ATOMIC_ACQUIRE))
        return;
    struct mmpi_attr_rank *st = mmpi_xcalloc(1, sizeof(*st));
    const struct mmpi_launch_config *cfg = &self->world->config;
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&st->lock, NULL));
    /* Values (§11.1): what the point-to-point layer accepts; no host process; every rank can
     * do I/O (MPI_ANY_SOURCE, as MPICH and Open MPI say); one clock for all ranks; a single
     * application started with the world's size. */
    st->predefined[MMPI_KV_TAG_UB] = MMPI_TAG_UB;
    st->predefined[MMPI_KV_HOST] = MPI_PROC_NULL;
    st->predefined[MMPI_KV_IO] = MPI_ANY_SOURCE;
    st->predefined[MMPI_KV_WTIME_IS_GLOBAL] = 1;
    st->predefined[MMPI_KV_APPNUM] = self->appnum; /* spawn_multiple's command index */
    st->predefined[MMPI_KV_LASTUSEDCODE] = mmpi_error_lastused();
    /* MINI_MPI_UNIVERSE_SIZE, by default the initial world's size; never below it. */
    st->predefined[MMPI_KV_UNIVERSE_SIZE] = cfg->universe_size > self->world->initial_size
                                                ? cfg->universe_size
                                                : self->world->initial_size;
    st->predefined[MMPI_KV_FT] = cfg->fault_tolerant;
    st->predefined[MMPI_KV_INCARNATION] = self->incarnation; /* restart/restart.h */
    /* Threads of the rank may open sessions at once: the first state published wins. */
    struct mmpi_attr_rank *none = NULL;
    if (!__atomic_compare_exchange_n(&self->attr, &none, st, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        pthread_mutex_destroy(&st->lock);
        free(st);
    }
}

void mmpi_attr_init(struct mmpi_rank *self)
{
    mmpi_attr_rank_init(self); /* a session may have made it already */
    struct mmpi_attr_rank *st = self->attr;
    struct mmpi_attr_obj world = mmpi_attr_comm_obj(&self->world_comm);
    for (int i = MMPI_KV_NPREDEFINED - 1; i >= 0; i--) /* newest first: TAG_UB at the head */
        mmpi_attr_set(self, &world, MMPI_KEYVAL(i), &st->predefined[i], true);
}

void mmpi_attr_finalize(struct mmpi_rank *self)
{
    struct mmpi_attr_obj o = mmpi_attr_comm_obj(&self->self_comm);
    mmpi_attr_delete_all(self, &o); /* a failing callback cannot stop MPI_Finalize */
    o = mmpi_attr_comm_obj(&self->world_comm);
    mmpi_attr_delete_all(self, &o);
}

void mmpi_attr_rank_free(struct mmpi_rank *rank)
{
    struct mmpi_attr_rank *st = rank->attr;
    if (!st)
        return;
    mmpi_attr_list_free(&rank->world_comm.attrs);
    mmpi_attr_list_free(&rank->self_comm.attrs);
    while (st->types) {
        struct mmpi_attr_type *t = st->types;
        st->types = t->next;
        mmpi_attr_list_free(&t->attrs);
        free(t);
    }
    pthread_mutex_destroy(&st->lock);
    free(st);
    rank->attr = NULL;
}

int mmpi_attr_comm_copy(struct mmpi_rank *self, struct mmpi_comm *src, struct mmpi_comm *dst)
{
    struct mmpi_attr_obj s = mmpi_attr_comm_obj(src), d = mmpi_attr_comm_obj(dst);
    return mmpi_attr_copy(self, &s, &d);
}

int mmpi_attr_comm_free(struct mmpi_rank *self, struct mmpi_comm *c)
{
    struct mmpi_attr_obj o = mmpi_attr_comm_obj(c);
    return mmpi_attr_delete_all(self, &o);
}

struct mmpi_attr_obj mmpi_attr_type_obj(struct mmpi_rank *self, MPI_Datatype h, bool create)
{
    struct mmpi_attr_rank *st = self->attr;
    struct mmpi_attr_obj o = {MMPI_HANDLE_KIND_DATATYPE, h, NULL};
    struct mmpi_attr_type *t;
    pthread_mutex_lock(&st->lock);
    for (t = st->types; t && t->handle != h; t = t->next)
        ;
    if (!t && create) {
        t = mmpi_xcalloc(1, sizeof(*t));
        t->handle = h;
        t->next = st->types;
        st->types = t;
    }
    if (t)
        o.head = &t->attrs; /* stable until the handle is freed (mmpi_attr_type_free) */
    pthread_mutex_unlock(&st->lock);
    return o;
}

int mmpi_attr_type_copy(struct mmpi_rank *self, MPI_Datatype oldtype, MPI_Datatype newtype)
{
    struct mmpi_attr_obj s = mmpi_attr_type_obj(self, oldtype, false);
    if (!s.head)
        return MPI_SUCCESS;
    struct mmpi_attr_obj d = mmpi_attr_type_obj(self, newtype, true);
    int rc = mmpi_attr_copy(self, &s, &d);
    if (rc != MPI_SUCCESS)
        mmpi_attr_type_free(self, newtype); /* its list is empty again: forget the handle */
    return rc;
}

int mmpi_attr_type_free(struct mmpi_rank *self, MPI_Datatype h)
{
    struct mmpi_attr_rank *st = self->attr;
    struct mmpi_attr_obj o = mmpi_attr_type_obj(self, h, false);
    int rc = o.head ? mmpi_attr_delete_all(self, &o) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS || !o.head)
        return rc;
    /* The handle value may be reused by a later type: drop its (now empty) entry. */
    pthread_mutex_lock(&st->lock);
    for (struct mmpi_attr_type **p = &st->types; *p; p = &(*p)->next) {
        if (&(*p)->attrs == o.head) {
            struct mmpi_attr_type *t = *p;
            *p = t->next;
            free(t);
            break;
        }
    }
    pthread_mutex_unlock(&st->lock);
    return rc;
}
