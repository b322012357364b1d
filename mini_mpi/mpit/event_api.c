/*
 * mpit/event_api.c: the event calls (MPI-4.1 §15.3.8): sources, event types, registrations and
 * their callbacks, and reading an instance inside a callback. Raising and delivering are
 * mpit/event.c's. Every event is bound to no object and comes from source 0, whose clock is
 * CLOCK_MONOTONIC in nanoseconds and which delivers each rank's instances in the order raised.
 * The hints of registrations and callbacks (the info arguments) are event_info.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "comm/info.h"
#include "mmpi.h"
#include "mpit/mpit.h"
#include "mpit/objects.h"

struct event_type {
    const char *name;
    int source;
    const char *desc;
    const char *elements;            /* comma-separated names, each an MPI_INT */
};

static const struct event_type events[MMPI_NEVENTS] = {
#define MMPI_EVENT(id, name, source, desc, elements) {name, source, desc, elements},
#include "mpit/events.def"
#undef MMPI_EVENT
};

static const char *event_name(int i) { return events[i].name; }

static int nelements(int event)
{
    int n = 1;
    for (const char *p = events[event].elements; *p; p++)
        n += *p == ',';
    return n;
}

/* ---- Sources ------------------------------------------------------------------------------ */

MMPI_PROFILED(T_source_get_num);
int PMPI_T_source_get_num(int *num_sources)
{
    return mmpi_mpit_get_num(num_sources, 1);
}

MMPI_PROFILED(T_source_get_info);
int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc,
                           int *desc_len, MPI_T_source_order *ordering,
                           MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info)
{
    MMPI_MPIT_ENTER(st);
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    mmpi_mpit_copy_string("mini_mpi_runtime", name, name_len);
    mmpi_mpit_copy_string("the library's failure, revocation, injection and hang events",
                          desc, desc_len);
    if (ordering)
        *ordering = MPI_T_SOURCE_ORDERED;
    if (ticks_per_second)
        *ticks_per_second = 1000000000;
    if (max_ticks)
        *max_ticks = INT64_MAX;
    if (info)
        *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_source_get_timestamp);
int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    MMPI_MPIT_ENTER(st);
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (!timestamp)
        return MPI_T_ERR_INVALID;
    *timestamp = (MPI_Count)mmpi_mpit_now_ns();
    return MPI_SUCCESS;
}

/* ---- Event types -------------------------------------------------------------------------- */

MMPI_PROFILED(T_event_get_num);
int PMPI_T_event_get_num(int *num_events)
{
    return mmpi_mpit_get_num(num_events, MMPI_NEVENTS);
}

MMPI_PROFILED(T_event_get_info);
int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                          int *desc_len, int *bind)
{
    MMPI_MPIT_ENTER(st);
    if (event_index < 0 || event_index >= MMPI_NEVENTS)
        return MPI_T_ERR_INVALID_INDEX;
    const struct event_type *e = &events[event_index];
    mmpi_mpit_copy_string(e->name, name, name_len);
    mmpi_mpit_copy_string(e->desc, desc, desc_len);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    int n = nelements(event_index);
    if (num_elements) {
        /* IN: room in the arrays; OUT: the number of elements (§15.3.8.1). */
        for (int i = 0; i < n && i < *num_elements; i++) {
            if (array_of_datatypes)
                array_of_datatypes[i] = MPI_INT;
            if (array_of_displacements)
                array_of_displacements[i] = (MPI_Aint)(i * sizeof(int));
        }
        *num_elements = n;
    }
    if (enumtype) /* an object kind is the first element of these two */
        *enumtype = event_index == MMPI_EVENT_ERROR_REPORTED || event_index == MMPI_EVENT_REVOKED
                        ? (MPI_T_enum)&mmpi_mpit_enums[MMPI_ENUM_OBJECT_KIND]
                        : MPI_T_ENUM_NULL;
    if (info)
        *info = MPI_INFO_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_event_get_index);
int PMPI_T_event_get_index(const char *name, int *event_index)
{
    return mmpi_mpit_get_index(name, event_index, MMPI_NEVENTS, event_name);
}

/* ---- Registrations ------------------------------------------------------------------------ */

bool mmpi_mpit_has_registration(struct mmpi_mpit_rank *st, struct MPIR_T_event_registration_s *r)
{
    for (struct MPIR_T_event_registration_s *x = st->registrations; x; x = x->next)
        if (x == r)
            return true;
    return false;
}

/* Enters and checks a registration: on success returns with st->lock held. */
static int lock_registration(struct mmpi_mpit_rank **st, MPI_T_event_registration r)
{
    int err = mmpi_mpit_enter(st);
    if (err)
        return err;
    pthread_mutex_lock(&(*st)->lock);
    if (!mmpi_mpit_has_registration(*st, r)) {
        pthread_mutex_unlock(&(*st)->lock);
        return MPI_T_ERR_INVALID_HANDLE;
    }
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_event_handle_alloc);
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    MMPI_MPIT_ENTER(st);
    if (event_index < 0 || event_index >= MMPI_NEVENTS)
        return MPI_T_ERR_INVALID_INDEX;
    if (!event_registration)
        return MPI_T_ERR_INVALID;
    struct MPIR_T_event_registration_s *r = calloc(1, sizeof *r);
    if (!r)
        return MPI_T_ERR_OUT_OF_HANDLES;
    r->event = event_index;
    r->queue_max = MMPI_EVENT_QUEUE;
    int err = mmpi_mpit_hints_merge(&r->hints, info);
    if (err) {
        mmpi_mpit_registration_free(r);
        return err;
    }
    mmpi_mpit_hints_apply(r);
    pthread_mutex_lock(&st->lock);
    r->next = st->registrations;
    st->registrations = r;
    __atomic_add_fetch(&st->nregistered[event_index], 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&st->lock);
    *event_registration = r;
    return MPI_SUCCESS;
}

static bool valid_safety(int s)
{
    return s >= MPI_T_CB_REQUIRE_NONE && s <= MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE;
}

MMPI_PROFILED(T_event_handle_set_info);
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    struct mmpi_mpit_rank *st;
    int err = lock_registration(&st, event_registration);
    if (err)
        return err;
    if (!(err = mmpi_mpit_hints_merge(&event_registration->hints, info)))
        mmpi_mpit_hints_apply(event_registration);
    pthread_mutex_unlock(&st->lock);
    return err;
}

MMPI_PROFILED(T_event_handle_get_info);
int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                 MPI_Info *info_used)
{
    if (!info_used)
        return MPI_T_ERR_INVALID;
    struct mmpi_mpit_rank *st;
    int err = lock_registration(&st, event_registration);
    if (err)
        return err;
    err = mmpi_mpit_hints_get(event_registration->hints, (int)event_registration->queue_max,
                              info_used);
    pthread_mutex_unlock(&st->lock);
    return err;
}

MMPI_PROFILED(T_event_register_callback);
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                   MPI_T_event_cb_function *event_cb_function)
{
    if (!valid_safety(cb_safety))
        return MPI_T_ERR_INVALID;
    struct mmpi_info *hints = NULL, *old;
    struct mmpi_mpit_rank *st;
    int err = mmpi_mpit_hints_merge(&hints, info);
    if (err || (err = lock_registration(&st, event_registration))) {
        mmpi_info_release(hints);
        return err;
    }
    /* §15.3.8.3: a NULL function removes the callback of that safety level. The hints are
     * the new callback's. */
    event_registration->cb[cb_safety] = event_cb_function;
    event_registration->cb_data[cb_safety] = user_data;
    old = event_registration->cb_hints[cb_safety];
    event_registration->cb_hints[cb_safety] = hints;
    pthread_mutex_unlock(&st->lock);
    mmpi_info_release(old);
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_event_callback_set_info);
int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info)
{
    if (!valid_safety(cb_safety))
        return MPI_T_ERR_INVALID;
    struct mmpi_mpit_rank *st;
    int err = lock_registration(&st, event_registration);
    if (err)
        return err;
    err = mmpi_mpit_hints_merge(&event_registration->cb_hints[cb_safety], info);
    pthread_mutex_unlock(&st->lock);
    return err;
}

MMPI_PROFILED(T_event_callback_get_info);
int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    if (!valid_safety(cb_safety) || !info_used)
        return MPI_T_ERR_INVALID;
    struct mmpi_mpit_rank *st;
    int err = lock_registration(&st, event_registration);
    if (err)
        return err;
    err = mmpi_mpit_hints_get(event_registration->cb_hints[cb_safety], 0, info_used);
    pthread_mutex_unlock(&st->lock);
    return err;
}

/* Unlinks r from st (lock held). */
static void unlink_registration(struct mmpi_mpit_rank *st, struct MPIR_T_event_registration_s *r)
{
    for (struct MPIR_T_event_registration_s **p = &st->registrations; *p; p = &(*p)->next)
        if (*p == r) {
            *p = r->next;
            break;
        }
    __atomic_sub_fetch(&st->nregistered[r->event], 1, __ATOMIC_RELEASE);
    __atomic_sub_fetch(&st->npending, (int)(r->count + r->dropped), __ATOMIC_RELAXED);
}

MMPI_PROFILED(T_event_handle_free);
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function *free_cb_function)
{
    struct mmpi_mpit_rank *st;
    int err = lock_registration(&st, event_registration);
    if (err)
        return err;
    unlink_registration(st, event_registration);
    pthread_mutex_unlock(&st->lock);
    /* Nothing can deliver to it any more: it is no longer listed. The free callback runs
     * here, on the calling thread, where MPI may be called. */
    if (free_cb_function)
        free_cb_function(event_registration, MPI_T_CB_REQUIRE_NONE, user_data);
    mmpi_mpit_registration_free(event_registration);
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_event_set_dropped_handler);
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    struct mmpi_mpit_rank *st;
    int err = lock_registration(&st, event_registration);
    if (err)
        return err;
    event_registration->dropped_cb = dropped_cb_function;
    pthread_mutex_unlock(&st->lock);
    return MPI_SUCCESS;
}

/* ---- Instances (valid inside the callback that received them) ---------------------------- */

/* The checks every instance accessor makes: MPI_SUCCESS or the class to return. An
 * instance exists only inside a callback, which may run on a thread of no rank (the hang
 * monitor's): the calling thread's initialization is not asked for. */
static int check_instance(MPI_T_event_instance e, const void *out)
{
    if (!e || e->event < 0 || e->event >= MMPI_NEVENTS)
        return MPI_T_ERR_INVALID_HANDLE;
    return out ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

MMPI_PROFILED(T_event_read);
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    int err = check_instance(event_instance, buffer);
    if (err)
        return err;
    if (element_index < 0 || element_index >= nelements(event_instance->event))
        return MPI_T_ERR_INVALID_INDEX;
    memcpy(buffer, &event_instance->elements[element_index], sizeof(int));
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_event_copy);
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    int err = check_instance(event_instance, buffer);
    if (err)
        return err;
    /* The displacements event_get_info gives: consecutive ints. */
    memcpy(buffer, event_instance->elements,
           (size_t)nelements(event_instance->event) * sizeof(int));
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_event_get_timestamp);
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    int err = check_instance(event_instance, event_timestamp);
    if (err)
        return err;
    *event_timestamp = (MPI_Count)event_instance->timestamp;
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_event_get_source);
int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    int err = check_instance(event_instance, source_index);
    if (err)
        return err;
    *source_index = events[event_instance->event].source;
    return MPI_SUCCESS;
}
