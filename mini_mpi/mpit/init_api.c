/*
 * mpit/init_api.c: MPI_T_init_thread and MPI_T_finalize (MPI-4.1 §15.3.4). Each rank (and the
 * set of threads outside ranks) counts its own nested initializations: MPI_T works before
 * MPI_Init and after MPI_Finalize, from any thread. Handles, sessions and registrations live
 * until the last MPI_T_finalize of their rank, which frees them (§15.3.4: they are invalid
 * afterwards).
 */
#include "mmpi.h"
#include "mpit/mpit.h"
#include "mpit/objects.h"

MMPI_PROFILED(T_init_thread);
int PMPI_T_init_thread(int required, int *provided)
{
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return MPI_T_ERR_INVALID;
    if (!provided)
        return MPI_T_ERR_INVALID;
    struct mmpi_mpit_rank *st = mmpi_mpit_state_of(mmpi_self);
    pthread_mutex_lock(&st->lock);
    st->init_count++;
    pthread_mutex_unlock(&st->lock);
    /* Every MPI_T call may come from any thread at once: each takes its state's lock. */
    *provided = required;
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_finalize);
int PMPI_T_finalize(void)
{
    MMPI_MPIT_ENTER(st);
    pthread_mutex_lock(&st->lock);
    bool last = --st->init_count == 0;
    pthread_mutex_unlock(&st->lock);
    if (last)
        mmpi_mpit_objects_free(st);
    return MPI_SUCCESS;
}
