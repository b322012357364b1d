/*
 * mpit/state.c: each rank's MPI_T state (struct mmpi_mpit_rank, mpit.h): made on the rank's
 * first MPI_T call or first counted event, found from any thread by world rank, freed with the
 * rank. Also the state of threads that belong to no rank, and the common entry check of every
 * MPI_T function. The objects a state lists (handles, sessions, registrations) are freed by
 * the files that own them, through mmpi_mpit_state_release_*.
 */
#include <stdlib.h>

#include "mmpi.h"
#include "mpit/mpit.h"
#include "mpit/objects.h"

/* world rank -> state; a slot holds the state of the rank that owns it now (a later world
 * reuses the slot after rank_free cleared it). Slots are set with compare-and-swap. */
static struct mmpi_mpit_rank *table[MMPI_MAX_RANKS];
static struct mmpi_mpit_rank outside = {.lock = PTHREAD_MUTEX_INITIALIZER};

struct mmpi_mpit_rank *mmpi_mpit_state_peek(const struct mmpi_rank *r)
{
    if (!r)
        return &outside;
    struct mmpi_mpit_rank *st = __atomic_load_n(&table[r->world_rank], __ATOMIC_ACQUIRE);
    return st && st->rank == r ? st : NULL;
}

struct mmpi_mpit_rank *mmpi_mpit_state_of(struct mmpi_rank *r)
{
    struct mmpi_mpit_rank *st = mmpi_mpit_state_peek(r);
    if (st)
        return st;
    struct mmpi_mpit_rank *fresh = mmpi_xcalloc(1, sizeof *fresh);
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&fresh->lock, NULL));
    fresh->rank = r;
    struct mmpi_mpit_rank *expected = NULL;
    if (__atomic_compare_exchange_n(&table[r->world_rank], &expected, fresh, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return fresh;
    pthread_mutex_destroy(&fresh->lock);
    free(fresh);
    return expected; /* another thread of the rank made it first */
}

int mmpi_mpit_enter(struct mmpi_mpit_rank **st)
{
    struct mmpi_rank *self = mmpi_self;
    *st = mmpi_mpit_state_of(self);
    if (__atomic_load_n(&(*st)->init_count, __ATOMIC_ACQUIRE) <= 0)
        return MPI_T_ERR_NOT_INITIALIZED;
    if (self)
        mmpi_mpit_dispatch(self, MPI_T_CB_REQUIRE_NONE);
    return MPI_SUCCESS;
}

void mmpi_mpit_rank_free(struct mmpi_rank *r)
{
    struct mmpi_mpit_rank *st = mmpi_mpit_state_peek(r);
    if (!st)
        return;
    __atomic_store_n(&table[r->world_rank], NULL, __ATOMIC_RELEASE);
    mmpi_mpit_objects_free(st);
    for (struct mmpi_pvar_block *b = st->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(st->chan_boxes);
    pthread_mutex_destroy(&st->lock);
    free(st);
}
