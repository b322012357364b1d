/*
 * mpit/objects.h: the objects behind the MPI_T handles (MPI-4.1 §15.3.6-15.3.8): control
 * variable handles, performance variable sessions and handles, event registrations and event
 * instances. Each lives in a list of its rank's MPI_T state (mpit.h), under the state's lock,
 * so that a handle is checked by membership: a stale or foreign handle is
 * MPI_T_ERR_INVALID_HANDLE (or _SESSION), never a crash.
 */
#ifndef MMPI_MPIT_OBJECTS_H
#define MMPI_MPIT_OBJECTS_H

#include <stdbool.h>
#include <stdint.h>

#include "mpit/mpit.h"

struct MPIR_T_cvar_handle_s {
    struct MPIR_T_cvar_handle_s *next; /* state lock */
    int index;                         /* immutable: the control variable */
};

struct MPIR_T_pvar_handle_s {
    struct MPIR_T_pvar_handle_s *next; /* state lock */
    int index;                         /* immutable: the performance variable */
    uint64_t offset[MMPI_PVAR_MAX_COUNT]; /* state lock: the variable's elements at the
                                           * handle's last reset (counters read relative) */
};

struct MPIR_T_pvar_session_s {
    struct MPIR_T_pvar_session_s *next;  /* state lock */
    struct MPIR_T_pvar_handle_s *handles; /* state lock */
};

/* Up to three MPI_INT elements (mpit/events.def). */
#define MMPI_EVENT_MAX_ELEMENTS 3
struct MPIR_T_event_instance_s {
    int event;
    uint64_t timestamp;                /* ns of CLOCK_MONOTONIC (source 0's ticks) */
    int elements[MMPI_EVENT_MAX_ELEMENTS];
};

/* Instances a registration holds until delivered; more are dropped and counted (the dropped
 * handler is told how many). */
#define MMPI_EVENT_QUEUE 256
struct MPIR_T_event_registration_s {
    struct MPIR_T_event_registration_s *next; /* state lock */
    int event;                         /* immutable */
    MPI_T_event_cb_function *cb[4];    /* state lock: one per safety level (MPI-4.1 §15.3.8.3) */
    void *cb_data[4];                  /* state lock */
    MPI_T_event_dropped_cb_function *dropped_cb; /* state lock */
    struct MPIR_T_event_instance_s queue[MMPI_EVENT_QUEUE]; /* state lock: ring */
    unsigned head, count;              /* state lock */
    uint64_t dropped;                  /* state lock: dropped since last told */
};

/* Frees every object of a state (its rank is being freed). */
void mmpi_mpit_objects_free(struct mmpi_mpit_rank *st);

/* Frees a session and its handles (pvar_api.c); it is unlinked already. */
void mmpi_mpit_session_free(struct MPIR_T_pvar_session_s *s);

/* Membership checks; call with st->lock held. */
bool mmpi_mpit_has_session(struct mmpi_mpit_rank *st, struct MPIR_T_pvar_session_s *s);
bool mmpi_mpit_has_registration(struct mmpi_mpit_rank *st, struct MPIR_T_event_registration_s *r);

#endif
