/*
 * mpit/objects.c: freeing every MPI_T object of a rank at once, when its last MPI_T_finalize
 * returns or the rank itself is freed (MPI-4.1 §15.3.4: handles do not outlive the
 * initialization they were made in).
 */
#include <stdlib.h>

#include "mmpi.h"
#include "mpit/objects.h"

void mmpi_mpit_objects_free(struct mmpi_mpit_rank *st)
{
    pthread_mutex_lock(&st->lock);
    struct MPIR_T_cvar_handle_s *c = st->cvar_handles;
    struct MPIR_T_pvar_session_s *s = st->sessions;
    struct MPIR_T_event_registration_s *r = st->registrations;
    st->cvar_handles = NULL;
    st->sessions = NULL;
    st->registrations = NULL;
    for (int e = 0; e < MMPI_NEVENTS; e++)
        __atomic_store_n(&st->nregistered[e], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&st->npending, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&st->lock);
    for (struct MPIR_T_cvar_handle_s *next; c; c = next) {
        next = c->next;
        free(c);
    }
    for (struct MPIR_T_pvar_session_s *next; s; s = next) {
        next = s->next;
        mmpi_mpit_session_free(s);
    }
    for (struct MPIR_T_event_registration_s *next; r; r = next) {
        next = r->next;
        mmpi_mpit_registration_free(r);
    }
}
