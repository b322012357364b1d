/*
 * pset.c: the process sets a session names (MPI-4.1 §11.3.2): the two the standard requires,
 * mpi://WORLD (the processes of the rank's MPI_COMM_WORLD, even when MPI_Init was never
 * called: the ranks the launcher started together, or the children of one spawn) and
 * mpi://SELF (the calling process). Both are fixed for the life of the job: a failed process
 * stays in mpi://WORLD, as it stays in MPI_COMM_WORLD's group.
 */
#include <stdlib.h>
#include <strings.h>

#include "group/group.h"
#include "session/session.h"

static const char *const names[] = {"mpi://WORLD", "mpi://SELF"};
#define NPSETS ((int)(sizeof(names) / sizeof(names[0])))

int mmpi_pset_count(void)
{
    return NPSETS;
}

const char *mmpi_pset_name(int n)
{
    return names[n];
}

struct mmpi_group *mmpi_pset_group(struct mmpi_rank *self, const char *name)
{
    if (!strcasecmp(name, names[0]))
        return mmpi_group_of_core(self->world_core);
    if (!strcasecmp(name, names[1])) {
        int *me = mmpi_xmalloc(sizeof(int));
        *me = self->world_rank;
        return mmpi_group_new(1, me);
    }
    return NULL;
}
