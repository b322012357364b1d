/*
 * mpit/event.c: raising and delivering events (MPI-4.1 §15.3.8; mpit.h "Theory of
 * operation"). A raise point copies an instance into each matching registration of the
 * observing rank, under that rank's MPI_T lock, and runs nothing: raise points sit inside the
 * fault layer and the matching engine, where library locks may be held. Delivery runs the
 * callbacks on the observer's own thread at points that hold no library lock, choosing for each
 * registration the callback whose declared safety the point allows: the least restrictive
 * level s >= the point's level (NONE where the callback may call MPI, as an error handler may;
 * MPI_RESTRICTED inside a blocking wait; THREAD_SAFE on another thread). A registration with
 * no callback the point allows keeps its instances for a later point; a full queue (its
 * length a hint, event_info.c) drops the newest and counts them for the dropped handler.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmpi.h"
#include "mpit/mpit.h"
#include "mpit/objects.h"

uint64_t mmpi_mpit_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The least restrictive callback of r that a point of `level` may run: index, or -1. */
static int choose(const struct MPIR_T_event_registration_s *r, int level)
{
    for (int s = level; s <= MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE; s++)
        if (r->cb[s])
            return s;
    return -1;
}

/* Queues one instance to every registration of `event` that observer's state holds. */
static void raise_to(struct mmpi_mpit_rank *st, int event, int e0, int e1, int e2)
{
    if (!st || !__atomic_load_n(&st->nregistered[event], __ATOMIC_ACQUIRE))
        return; /* nobody listens: the common case costs one load */
    struct MPIR_T_event_instance_s inst = {event, mmpi_mpit_now_ns(), {e0, e1, e2}};
    pthread_mutex_lock(&st->lock);
    for (struct MPIR_T_event_registration_s *r = st->registrations; r; r = r->next) {
        if (r->event != event || choose(r, MPI_T_CB_REQUIRE_NONE) < 0)
            continue; /* no callback registered yet: nothing would receive it */
        if (r->count >= r->queue_max) {
            r->dropped++;
        } else {
            r->queue[(r->head + r->count++) % MMPI_EVENT_QUEUE] = inst;
        }
        __atomic_add_fetch(&st->npending, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&st->lock);
}

void mmpi_mpit_failure_noticed(struct mmpi_rank *observer, int failed_world_rank)
{
    /* Not a per-thread counter: the fault layer may notice for a rank on another thread. */
    struct mmpi_mpit_rank *st = mmpi_mpit_state_of(observer);
    __atomic_add_fetch(&st->failures_noticed, 1, __ATOMIC_RELAXED);
    raise_to(st, MMPI_EVENT_FAILURE_DETECTED, failed_world_rank, 0, 0);
}

void mmpi_mpit_error_reported(struct mmpi_rank *self, int object_kind, int handle, int errcode)
{
    int cls = errcode;
    if (!self)
        return;
    mmpi_error_class_of(errcode, &cls);
    if (cls != MPI_ERR_PROC_FAILED && cls != MPI_ERR_PROC_FAILED_PENDING && cls != MPI_ERR_REVOKED)
        return;
    raise_to(mmpi_mpit_state_peek(self), MMPI_EVENT_ERROR_REPORTED, object_kind, handle, cls);
}

/* The object kinds of the mini_mpi_object_kind enumeration (enum_api.c), by the fault
 * layer's name for them. */
static int kind_of(const struct mmpi_fault_core *fc)
{
    const char *k = fc->ops ? fc->ops->kind : "";
    return !strcmp(k, "window") ? 1 : !strcmp(k, "file") ? 2 : 0;
}

void mmpi_mpit_revoked(const struct mmpi_fault_core *fc)
{
    int object_kind = kind_of(fc);
    struct mmpi_world *w = __atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE);
    int revoker = mmpi_self ? mmpi_self->world_rank : -1;
    /* The object's members are those of its core and of its linked cores (an
     * intercommunicator's other group and bridge, a file's communicator): each once. */
    uint8_t *seen = mmpi_xcalloc((size_t)mmpi_world_nranks(w) / 8 + 1, 1);
    const struct mmpi_fault_core *all[3] = {fc, fc->linked[0], fc->linked[1]};
    for (int k = 0; k < 3; k++)
        for (int i = 0; all[k] && i < all[k]->size; i++) {
            int r = all[k]->world_ranks[i];
            if (seen[r / 8] & (1u << (r % 8)))
                continue;
            seen[r / 8] |= (uint8_t)(1u << (r % 8));
            struct mmpi_mpit_rank *st = mmpi_mpit_state_of(w->ranks[r]);
            __atomic_add_fetch(&st->revocations, 1, __ATOMIC_RELAXED);
            raise_to(st, MMPI_EVENT_REVOKED, object_kind, revoker, 0);
        }
    free(seen);
}

void mmpi_mpit_injected_death(const struct mmpi_rank *victim)
{
    struct mmpi_world *w = victim->world;
    for (int i = 0; i < mmpi_world_nranks(w); i++)
        raise_to(mmpi_mpit_state_peek(w->ranks[i]), MMPI_EVENT_INJECTED_DEATH,
                 victim->world_rank, 0, 0);
}

static bool is_live(const struct mmpi_rank *r)
{
    return !mmpi_fault_is_failed(r) && r->end == MMPI_END_RUNNING;
}

void mmpi_mpit_hang_detected(void)
{
    struct mmpi_world *w = __atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE);
    int live = 0;
    for (int i = 0; i < mmpi_world_nranks(w); i++)
        live += is_live(w->ranks[i]);
    /* Every rank is frozen: only callbacks declared thread safe may run, here, on the
     * monitor's thread, and only now (the job ends next). A rank that failed or ended runs
     * nothing any more: it gets no instance. */
    for (int i = 0; i < mmpi_world_nranks(w); i++) {
        if (!is_live(w->ranks[i]))
            continue;
        struct mmpi_mpit_rank *st = mmpi_mpit_state_peek(w->ranks[i]);
        raise_to(st, MMPI_EVENT_HANG_DETECTED, live, 0, 0);
        if (st)
            mmpi_mpit_deliver(st, MPI_T_CB_REQUIRE_THREAD_SAFE);
    }
}

void mmpi_mpit_dispatch(struct mmpi_rank *self, int level)
{
    struct mmpi_mpit_rank *st = self ? mmpi_mpit_state_peek(self) : NULL;
    if (st && __atomic_load_n(&st->npending, __ATOMIC_ACQUIRE))
        mmpi_mpit_deliver(st, level);
}

/* Takes the next deliverable instance (or dropped count) of st; lock held. */
static bool next_delivery(struct mmpi_mpit_rank *st, int level,
                          struct MPIR_T_event_registration_s **reg, int *s,
                          struct MPIR_T_event_instance_s *inst, uint64_t *dropped)
{
    for (struct MPIR_T_event_registration_s *r = st->registrations; r; r = r->next) {
        if ((*s = choose(r, level)) < 0)
            continue;
        *reg = r;
        if (r->count) {
            *inst = r->queue[r->head];
            r->head = (r->head + 1) % MMPI_EVENT_QUEUE;
            r->count--;
            __atomic_sub_fetch(&st->npending, 1, __ATOMIC_RELAXED);
            *dropped = 0;
            return true;
        }
        if (r->dropped) {
            *dropped = r->dropped;
            __atomic_sub_fetch(&st->npending, (int)r->dropped, __ATOMIC_RELAXED);
            r->dropped = 0;
            return true;
        }
    }
    return false;
}

void mmpi_mpit_deliver(struct mmpi_mpit_rank *st, int level)
{
    pthread_mutex_lock(&st->lock);
    if (st->dispatching) { /* a callback calling MPI_T: its own delivery goes on after it */
        pthread_mutex_unlock(&st->lock);
        return;
    }
    st->dispatching = true;
    struct MPIR_T_event_registration_s *r;
    struct MPIR_T_event_instance_s inst;
    uint64_t dropped;
    int s;
    while (next_delivery(st, level, &r, &s, &inst, &dropped)) {
        MPI_T_event_cb_function *cb = r->cb[s];
        MPI_T_event_dropped_cb_function *dcb = r->dropped_cb;
        void *data = r->cb_data[s];
        /* No lock while user code runs: it may call MPI_T, even free this registration. */
        pthread_mutex_unlock(&st->lock);
        if (!dropped)
            cb(&inst, r, (MPI_T_cb_safety)s, data);
        else if (dcb)
            dcb((MPI_Count)dropped, r, 0, (MPI_T_cb_safety)s, data);
        pthread_mutex_lock(&st->lock);
    }
    st->dispatching = false;
    pthread_mutex_unlock(&st->lock);
}
