/*
 * describe.c: naming a communicator in reports (the hang detector's): its name when the rank
 * set one (or MPI_COMM_WORLD / MPI_COMM_SELF), the private communicator of an object that
 * meets its members on it (a window's fence, a file's collective access) as that object's
 * kind describes the meeting (runtime/kind.h), otherwise its context id and size. Reads
 * another rank's handle tables without locks: call only while that rank is stopped (hang
 * report).
 */
#include <stdio.h>

#include "mmpi.h"
#include "runtime/kind.h"

static void with_name(const struct mmpi_comm *c, const char *fallback, char *buf, size_t len)
{
    snprintf(buf, len, "%s", c->name[0] ? c->name : fallback);
}

/* Whether an object of owner's (of any kind) meets on core: then buf describes the meeting. */
static bool describe_meeting(struct mmpi_rank *owner, const struct mmpi_comm_core *core, char *buf,
                             size_t len)
{
    for (int kind = 0; kind < MMPI_KINDS; kind++) {
        const struct mmpi_kind_ops *ops = mmpi_kind_ops(kind);
        if (!ops->describe_meeting)
            continue;
        const void *obj;
        for (uint32_t i = 0; (obj = mmpi_handles_next(owner, kind, &i));)
            if (ops->describe_meeting(owner, obj, core, buf, len))
                return true;
    }
    return false;
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
    const struct mmpi_comm *c;
    for (uint32_t i = 0; owner && (c = mmpi_handles_next(owner, MMPI_HANDLE_KIND_COMM, &i));)
        if (c->core == core)
            return with_name(c, fallback, buf, len);
    /* Not a communicator the program holds: the private one of a window or a file. */
    if (!owner || !describe_meeting(owner, core, buf, len))
        snprintf(buf, len, "%s", fallback);
}
