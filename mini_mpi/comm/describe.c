/*
 * describe.c: naming a communicator in reports (the hang detector's): its name when the rank
 * set one (or MPI_COMM_WORLD / MPI_COMM_SELF), a window's private communicator by the window's
 * state (osc/win.h), the file for an open file's private communicator (with the rank's file
 * pointers, io/file.c), otherwise its context id and size. Reads another
 * rank's handle table without locks: call only while that rank is stopped (hang report).
 */
#include <stdio.h>

#include "io/io.h"
#include "mmpi.h"
#include "osc/win.h"

static void with_name(const struct mmpi_comm *c, const char *fallback, char *buf, size_t len)
{
    snprintf(buf, len, "%s", c->name[0] ? c->name : fallback);
}

void mmpi_comm_describe(struct mmpi_rank *owner, const struct mmpi_comm_core *core, char *buf,
                        size_t len)
{
    if (owner && core == owner->world_comm.core)
        return with_name(&owner->world_comm, "MPI_COMM_WORLD", buf, len);
    if (owner && core == owner->self_comm.core)
        return with_name(&owner->self_comm, "MPI_COMM_SELF", buf, len);
    char fallback[64];
    snprintf(fallback, sizeof fallback, "communicator %llu (size %d)",
             (unsigned long long)core->context_id, core->size);
    struct mmpi_slots *table = owner ? &owner->handles[MMPI_HANDLE_KIND_COMM] : NULL;
    uint32_t used = table ? __atomic_load_n(&table->next_unused, __ATOMIC_ACQUIRE) : 0;
    for (uint32_t i = 0; i < used; i++) {
        const struct mmpi_comm *c = mmpi_slots_get(table, i);
        if (c && c->core == core)
            return with_name(c, fallback, buf, len);
    }
    /* A window's private communicator (its fence and free): the window, its epochs, locks. */
    table = owner ? &owner->handles[MMPI_HANDLE_KIND_WIN] : NULL;
    used = table ? __atomic_load_n(&table->next_unused, __ATOMIC_ACQUIRE) : 0;
    for (uint32_t i = 0; i < used; i++) {
        const struct mmpi_win *w = mmpi_slots_get(table, i);
        if (w && w->comm->core == core)
            return mmpi_win_state_describe(w, buf, len);
    }
    /* Not a communicator the program holds: the private one of an open file, which io/
     * names with the rank's file pointers. */
    if (owner && mmpi_file_describe_comm(owner, core, buf, len))
        return;
    snprintf(buf, len, "%s", fallback);
}
