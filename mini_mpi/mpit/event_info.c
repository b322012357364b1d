/*
 * mpit/event_info.c: the hints of event registrations and of their callbacks (MPI-4.1
 * §15.3.8): those MPI_T_event_handle_alloc and MPI_T_event_register_callback are given, updated
 * by MPI_T_event_handle_set_info and MPI_T_event_callback_set_info (a key given there replaces
 * its value, the others stay, as MPI_Comm_set_info does) and returned by the get_info calls as
 * a new info object of the calling rank, which the caller frees. Every key is kept and returned
 * as given, but for the one key that changes anything: a registration's
 * "mini_mpi_queue_length", how many instances it holds until they are delivered before it drops
 * the newest (1 to MMPI_EVENT_QUEUE, which is the default). Its get_info always holds that key
 * with the value in force (§15.3.8: the hints the implementation supports that have a default);
 * a value outside the range is ignored and not kept. A thread of no rank has no info objects:
 * an info argument there must be MPI_INFO_NULL, and get_info gives MPI_INFO_NULL.
 */
#include <stdio.h>
#include <stdlib.h>

#include "comm/info.h"
#include "mmpi.h"
#include "mpit/mpit.h"
#include "mpit/objects.h"

#define QUEUE_KEY "mini_mpi_queue_length"

int mmpi_mpit_hints_merge(struct mmpi_info **hints, MPI_Info info)
{
    struct mmpi_rank *self = mmpi_self;
    struct mmpi_info *in = NULL;
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    if (!self || mmpi_info_arg(self, info, &in) != MPI_SUCCESS)
        return MPI_T_ERR_INVALID;
    if (!*hints && !(*hints = mmpi_info_new()))
        return MPI_T_ERR_MEMORY;
    for (int i = 0; i < in->n; i++)
        if (mmpi_info_set(*hints, in->keys[i], in->values[i]) != MPI_SUCCESS)
            return MPI_T_ERR_MEMORY;
    return MPI_SUCCESS;
}

void mmpi_mpit_hints_apply(struct MPIR_T_event_registration_s *r)
{
    const char *v = r->hints ? mmpi_info_lookup(r->hints, QUEUE_KEY) : NULL;
    char *end;
    if (!v)
        return;
    long n = strtol(v, &end, 10);
    if (end != v && !*end && n >= 1 && n <= MMPI_EVENT_QUEUE)
        r->queue_max = (unsigned)n;
    /* Not kept: get_info writes the value in force. */
    mmpi_info_delete(r->hints, QUEUE_KEY);
}

int mmpi_mpit_hints_get(const struct mmpi_info *hints, int queue_max, MPI_Info *out)
{
    struct mmpi_rank *self = mmpi_self;
    char value[16];
    *out = MPI_INFO_NULL;
    if (!self)
        return MPI_SUCCESS;
    struct mmpi_info *copy = hints ? mmpi_info_dup(hints) : mmpi_info_new();
    snprintf(value, sizeof value, "%d", queue_max);
    if (copy && queue_max > 0 && mmpi_info_set(copy, QUEUE_KEY, value) != MPI_SUCCESS) {
        mmpi_info_release(copy);
        copy = NULL;
    }
    if (copy &&
        (copy->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_INFO, copy)) == MPI_INFO_NULL) {
        mmpi_info_release(copy);
        copy = NULL;
    }
    if (!copy)
        return MPI_T_ERR_MEMORY;
    *out = copy->handle;
    return MPI_SUCCESS;
}

void mmpi_mpit_registration_free(struct MPIR_T_event_registration_s *r)
{
    mmpi_info_release(r->hints);
    for (int s = 0; s < 4; s++)
        mmpi_info_release(r->cb_hints[s]);
    free(r);
}
