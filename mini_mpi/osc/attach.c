/*
 * osc/attach.c: memory of dynamic windows (MPI-4.1 §12.2.4): the attached regions of each
 * member, a list under its target's mutex, which origins read when they resolve an address
 * (move.c). Regions of one member may not overlap, nor wrap past the end of the address space
 * (so that every region end below is an address); one operation may span adjacent ones.
 */
#include <stdint.h>
#include <stdlib.h>

#include "osc/win.h"

int mmpi_win_attach(struct mmpi_win *w, void *base, MPI_Aint size)
{
    if (w->core->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_ERR_RMA_FLAVOR;
    if (size < 0)
        return MPI_ERR_SIZE;
    if (size == 0)
        return MPI_SUCCESS; /* nothing to expose */
    if (!base)
        return MPI_ERR_ARG; /* as MPICH: no memory there to expose */
    uintptr_t end;
    if (__builtin_add_overflow((uintptr_t)base, (uintptr_t)size, &end))
        return MPI_ERR_SIZE; /* past the end of the address space: no such memory */
    struct mmpi_win_target *t = &w->core->targets[w->rank];
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&t->lock);
    for (const struct mmpi_win_region *r = t->regions; r; r = r->next)
        if ((char *)base < r->base + r->size && r->base < (char *)base + size)
            err = MPI_ERR_RMA_ATTACH;
    if (err == MPI_SUCCESS) {
        struct mmpi_win_region *r = mmpi_xmalloc(sizeof(*r));
        *r = (struct mmpi_win_region){base, size, t->regions};
        t->regions = r;
    }
    pthread_mutex_unlock(&t->lock);
    return err;
}

int mmpi_win_detach(struct mmpi_win *w, const void *base)
{
    if (w->core->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_ERR_RMA_FLAVOR;
    if (!base)
        return MPI_ERR_ARG; /* as MPICH; never attached (mmpi_win_attach) */
    struct mmpi_win_target *t = &w->core->targets[w->rank];
    struct mmpi_win_region *gone = NULL;
    pthread_mutex_lock(&t->lock);
    for (struct mmpi_win_region **p = &t->regions; *p; p = &(*p)->next)
        if ((*p)->base == base) {
            gone = *p;
            *p = gone->next;
            break;
        }
    pthread_mutex_unlock(&t->lock);
    free(gone);
    return gone ? MPI_SUCCESS : MPI_ERR_RMA_ATTACH;
}

bool mmpi_win_covered(struct mmpi_win_target *t, const char *lo, const char *hi)
{
    const char *cur = lo;
    bool moved = true;
    pthread_mutex_lock(&t->lock);
    while (cur < hi && moved) {
        moved = false;
        for (const struct mmpi_win_region *r = t->regions; r; r = r->next)
            if (cur >= r->base && cur < r->base + r->size) {
                cur = r->base + r->size;
                moved = true;
                break;
            }
    }
    pthread_mutex_unlock(&t->lock);
    return cur >= hi;
}
