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
    struct mmpi_info *hints;           /* state lock: given hints (event_info.c), or NULL */
    struct mmpi_info *cb_hints[4];     /* state lock: each callback's hints, or NULL */
    struct MPIR_T_event_instance_s queue[MMPI_EVENT_QUEUE]; /* state lock: ring */
    unsigned queue_max;                /* state lock: instances held at most (a hint) */
    unsigned head, count;              /* state lock */
    uint64_t dropped;                  /* state lock: dropped since last told */
};

/* ---- Hints (event_info.c) ------------------------------------------------------------------ */
struct mmpi_info;
/* Adds the keys of `info` (a handle of the calling rank, or MPI_INFO_NULL) to *hints, made if
 * NULL: MPI_SUCCESS, MPI_T_ERR_INVALID for a handle that names no info object (any handle on
 * a thread of no rank), MPI_T_ERR_MEMORY. */
int mmpi_mpit_hints_merge(struct mmpi_info **hints, MPI_Info info);
/* Takes the key that changes r (its queue length) out of r's hints and applies it if valid. */
void mmpi_mpit_hints_apply(struct MPIR_T_event_registration_s *r);
/* A new info of the calling rank holding `hints` (NULL: none) and, if queue_max > 0, the queue
 * length key: MPI_SUCCESS or MPI_T_ERR_MEMORY; MPI_INFO_NULL on a thread of no rank. */
int mmpi_mpit_hints_get(const struct mmpi_info *hints, int queue_max, MPI_Info *out);
/* Frees an unlinked registration with its hints. */
void mmpi_mpit_registration_free(struct MPIR_T_event_registration_s *r);

/* Frees every object of a state (its rank is being freed). */
void mmpi_mpit_objects_free(struct mmpi_mpit_rank *st);

/* Frees a session and its handles (pvar_api.c); it is unlinked already. */
void mmpi_mpit_session_free(struct MPIR_T_pvar_session_s *s);

/* Membership checks; call with st->lock held. */
bool mmpi_mpit_has_session(struct mmpi_mpit_rank *st, struct MPIR_T_pvar_session_s *s);
bool mmpi_mpit_has_registration(struct mmpi_mpit_rank *st, struct MPIR_T_event_registration_s *r);

#endif
