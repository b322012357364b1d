/*
 * session.h: the Sessions Model (MPI-4.1 §11.3): session objects, the process sets they name,
 * and what a session does to its rank. A session is local to one rank (one handle in the
 * rank's table, opened and closed by any of its threads); while one is open the rank is inside
 * MPI (runtime/rank.h mmpi_rank_in_mpi) even without MPI_Init, so every MPI call works on the
 * objects it derives: groups from process sets, and communicators made from those groups
 * (comm/create_group.c), which are ordinary communicators with every ULFM operation.
 *
 * Files: session.c (objects, opening and closing), pset.c (the process sets), session_api.c,
 * errhandler_api.c and from_group_api.c (the entry points); errors of session calls go through
 * errhan/session.c (mmpi_err_raise_session). docs/sessions.md is the reference.
 */
#ifndef MMPI_SESSION_SESSION_H
#define MMPI_SESSION_SESSION_H

#include "mmpi.h"

struct mmpi_group;
struct mmpi_info;

struct mmpi_session {
    MPI_Session handle;                 /* immutable: the handle in the rank's table */
    struct mmpi_errhandler *errhandler; /* owning rank: one reference; never NULL */
    int thread_level;                   /* immutable: the level provided (MPI_THREAD_*) */
    struct mmpi_bsend_buffer *bsend;    /* MPI_Session_attach_buffer's (pt2pt/bsend.h), under
                                         * the rank's bsend_lock; NULL: none */
};

/* Whether e may be a session's handler: a predefined one or one made by
 * MPI_Session_create_errhandler (MPI-4.1 §9.3.4). */
static inline bool mmpi_session_handler_ok(const struct mmpi_errhandler *e)
{
    return e && (e->kind != MMPI_ERRH_USER || e->object == MMPI_ERRH_FOR_SESSION);
}

/* Resolves a session handle of the calling rank; NULL if it names no open session. */
struct mmpi_session *mmpi_session_get(struct mmpi_rank *self, MPI_Session handle);
/* The entry of a call on a session, allowed with no session open and without MPI_Init (a bad
 * handle is then an error with no object, not the end of the job): *self (NULL from a thread
 * of no rank: MPI_ERR_OTHER) and *s (NULL for a handle that names no session:
 * MPI_ERR_SESSION). */
int mmpi_session_enter(enum mmpi_call call, MPI_Session handle, struct mmpi_rank **self,
                       struct mmpi_session **s);
/* MPI_Session_init's work: a new session with handler eh (a reference is taken) and the given
 * thread level, registered for the calling rank, which is inside MPI from now on. MPI_SUCCESS
 * with *out, or MPI_ERR_NO_MEM (the rank's handle table is full). Any thread of the rank. */
int mmpi_session_open(struct mmpi_rank *self, struct mmpi_errhandler *eh, int thread_level,
                      MPI_Session *out);
/* MPI_Session_finalize's work: local, never waits (whatever failed). The objects derived from
 * the session stay until the program frees them; once the rank's last session is closed (and
 * without MPI_Init) further calls are erroneous. */
void mmpi_session_close(struct mmpi_rank *self, struct mmpi_session *s);

/* ---- Process sets (pset.c) ---------------------------------------------------------------- */

/* How many process sets a session names (mpi://WORLD, mpi://SELF). */
int mmpi_pset_count(void);
/* The name of process set n (0 <= n < mmpi_pset_count()). */
const char *mmpi_pset_name(int n);
/* The process set `name` names (the mpi:// names compare without regard to case, MPI-4.1
 * §11.3.2), as a new group of the calling rank's processes (refcount 1); NULL for an unknown
 * name. */
struct mmpi_group *mmpi_pset_group(struct mmpi_rank *self, const char *name);

#endif
