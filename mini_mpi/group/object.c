/*
 * object.c: the life of a group object (group.h): creation, reference counting, the predefined
 * MPI_GROUP_EMPTY, and the calling rank's group handles. It does not compute groups (set.c,
 * select.c) nor check arguments of the MPI calls (group_api.c, create_api.c). Its table of
 * operations (runtime/kind.h): reclaim at world end.
 */
#include <stdlib.h>
#include <string.h>

#include "group/group.h"
#include "runtime/kind.h"

/* MPI_GROUP_EMPTY is one object for every rank: it never changes and is never freed. */
struct mmpi_group mmpi_group_empty = {.refcount = 1, .size = 0, .world_ranks = NULL,
                                      .session = MPI_SESSION_NULL};

struct mmpi_group *mmpi_group_new(int size, int *world_ranks)
{
    struct mmpi_group *g = mmpi_xmalloc(sizeof(*g));
    g->refcount = 1;
    g->size = size;
    g->world_ranks = world_ranks;
    g->session = MPI_SESSION_NULL;
    return g;
}

struct mmpi_group *mmpi_group_derived(struct mmpi_group *g, const struct mmpi_group *from)
{
    if (g != &mmpi_group_empty) /* shared by every rank: belongs to no session */
        g->session = from->session;
    return g;
}

void mmpi_group_retain(struct mmpi_group *g)
{
    if (g != &mmpi_group_empty)
        __atomic_add_fetch(&g->refcount, 1, __ATOMIC_RELAXED);
}

void mmpi_group_release(struct mmpi_group *g)
{
    /* ACQ_REL: the thread that frees sees every other holder's last use. */
    if (!g || g == &mmpi_group_empty ||
        __atomic_sub_fetch(&g->refcount, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    free(g->world_ranks);
    free(g);
}

struct mmpi_group *mmpi_group_get(struct mmpi_rank *self, MPI_Group h)
{
    if (h == MPI_GROUP_EMPTY)
        return &mmpi_group_empty;
    return mmpi_handle_lookup(self, MMPI_HANDLE_KIND_GROUP, h);
}

MPI_Group mmpi_group_handle_new(struct mmpi_rank *self, struct mmpi_group *g)
{
    /* Every empty result is MPI_GROUP_EMPTY, as in MPICH: programs compare against it. */
    if (g->size == 0) {
        mmpi_group_release(g);
        return MPI_GROUP_EMPTY;
    }
    MPI_Group h = mmpi_handle_new(self, MMPI_HANDLE_KIND_GROUP, g);
    if (h == MPI_GROUP_NULL)
        mmpi_group_release(g);
    return h;
}

struct mmpi_group *mmpi_group_handle_remove(struct mmpi_rank *self, MPI_Group h)
{
    return mmpi_handle_remove(self, MMPI_HANDLE_KIND_GROUP, h);
}

int mmpi_group_rank_of_world(const struct mmpi_group *g, int w)
{
    for (int i = 0; i < g->size; i++)
        if (g->world_ranks[i] == w)
            return i;
    return MPI_UNDEFINED;
}

struct mmpi_group *mmpi_group_of_core(const struct mmpi_comm_core *core)
{
    /* A copy: the group may outlive the communicator (§7.3.2 lets the user keep it). */
    int *ranks = mmpi_xmalloc(((size_t)core->size + 1) * sizeof(int));
    memcpy(ranks, core->world_ranks, (size_t)core->size * sizeof(int));
    return mmpi_group_new(core->size, ranks);
}

/* A group a rank left in its table at world end. */
static void group_reclaim(struct mmpi_rank *r, void *obj)
{
    (void)r;
    mmpi_group_release(obj);
}

static const struct mmpi_kind_ops group_kind_ops = {.reclaim = group_reclaim};
MMPI_KIND_REGISTER(MMPI_HANDLE_KIND_GROUP, group_kind_ops)
