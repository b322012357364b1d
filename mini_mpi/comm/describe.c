/*
 * describe.c: naming a communicator in reports (the hang detector's): its name when the rank
 * set one (or MPI_COMM_WORLD / MPI_COMM_SELF), otherwise its context id and size, followed by
 * what its owner adds (struct mmpi_comm's describe_more: a file's pointers). Reads another
 * rank's handle table without locks: call only while that rank is stopped (hang report).
 */
#include <stdio.h>

#include "mmpi.h"

static void with_name(const struct mmpi_comm *c, const char *fallback, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s", c->name[0] ? c->name : fallback);
    if (c->describe_more && n >= 0 && (size_t)n + 4 < len) {
        char more[160];
        more[0] = 0;
        c->describe_more(c->describe_arg, more, sizeof more);
        if (more[0])
            snprintf(buf + n, len - (size_t)n, " (%s)", more);
    }
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
    snprintf(buf, len, "%s", fallback);
}
