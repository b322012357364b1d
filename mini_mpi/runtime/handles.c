/*
 * handles.c: the per-rank handle tables. A dynamic handle encodes its kind and an index into
 * the calling rank's table of that kind (layout in mpi.h); predefined handles are resolved by
 * each kind's own lookup function, not here.
 */
#include "mmpi.h"

int mmpi_handle_new(struct mmpi_rank *self, int kind, void *obj)
{
    int64_t index = mmpi_slots_insert(&self->handles[kind], obj);
    if (index < 0)
        return MMPI_NULL_HANDLE(kind);
    return mmpi_handle_make(kind, (int)index);
}

void *mmpi_handle_remove(struct mmpi_rank *self, int kind, int handle)
{
    if (!mmpi_handle_is_dynamic(handle) || mmpi_handle_kind(handle) != kind)
        return NULL;
    return mmpi_slots_remove(&self->handles[kind], (uint32_t)mmpi_handle_index(handle));
}
