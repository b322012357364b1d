/*
 * session/session_api.c: MPI entry points of the Sessions Model (MPI-4.1 §11.3) in the
 * chapter's order: MPI_Session_init, MPI_Session_finalize, the process set queries,
 * MPI_Session_get_info and MPI_Group_from_session_pset. Bindings only: checks, then one call
 * into session.c or pset.c. They may be called with no session open and without MPI_Init, so
 * they enter with mmpi_enter_anytime: a bad session handle is then an error with no object
 * (errhan.h), not the end of the job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/info.h"
#include "group/group.h"
#include "session/session.h"

static const char *const thread_levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                            "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};

/* The level a session asks for with its info key "thread_level" (MPI-4.1 §11.3.1): by default
 * MPI_THREAD_MULTIPLE, which the runtime provides throughout (as MPI_Init_thread does, it
 * provides the level asked for). MPI_ERR_INFO_VALUE for a value that names no level. */
static int thread_level_of(const struct mmpi_info *info, int *level)
{
    const char *v = info ? mmpi_info_lookup(info, "thread_level") : NULL;
    *level = MPI_THREAD_MULTIPLE;
    if (!v)
        return MPI_SUCCESS;
    for (int l = MPI_THREAD_SINGLE; l <= MPI_THREAD_MULTIPLE; l++)
        if (!strcmp(v, thread_levels[l])) {
            *level = l;
            return MPI_SUCCESS;
        }
    return MPI_ERR_INFO_VALUE;
}

MMPI_PROFILED(Session_init);
int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Session_init);
    struct mmpi_errhandler *eh = NULL;
    struct mmpi_info *hints;
    int err = MPI_SUCCESS, level;

    if (!self)
        return MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
    eh = mmpi_errhandler_get(self, errhandler);
    if (!mmpi_session_handler_ok(eh)) {
        eh = NULL;
        err = MPI_ERR_ERRHANDLER;
        goto fn_fail;
    }
    MMPI_FAIL_IF(mmpi_info_arg(self, info, &hints) != MPI_SUCCESS, MPI_ERR_INFO);
    MMPI_FAIL_IF(!session, MPI_ERR_ARG);
    if ((err = thread_level_of(hints, &level)))
        goto fn_fail;
    if ((err = mmpi_session_open(self, eh, level, session)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (session)
        *session = MPI_SESSION_NULL;
    /* MPI-4.1 §11.3.1: the handler passed is the one an error of the call invokes. */
    err = eh ? mmpi_err_invoke(self, eh, MPI_SESSION_NULL, err, MMPI_CALL_Session_init)
             : mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Session_init);
    goto fn_exit;
}

MMPI_PROFILED(Session_finalize);
int PMPI_Session_finalize(MPI_Session *session)
{
    struct mmpi_rank *self;
    struct mmpi_session *s;
    int err = mmpi_session_enter(MMPI_CALL_Session_finalize, session ? *session : MPI_SESSION_NULL,
                                 &self, &s);

    if (self && !session)
        err = MPI_ERR_ARG; /* with no session to raise it on */
    if (err)
        goto fn_fail;
    mmpi_session_close(self, s);
    *session = MPI_SESSION_NULL;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_session(self, s, err, MMPI_CALL_Session_finalize);
    goto fn_exit;
}

/* The entry of the process set queries, which take hints (none is used: the sets do not
 * depend on them): mmpi_session_enter, then MPI_ERR_INFO for a bad info handle. */
static int enter_query(enum mmpi_call call, MPI_Session session, MPI_Info info,
                       struct mmpi_rank **self, struct mmpi_session **s)
{
    struct mmpi_info *hints;
    int err = mmpi_session_enter(call, session, self, s);
    if (err == MPI_SUCCESS && mmpi_info_arg(*self, info, &hints) != MPI_SUCCESS)
        err = MPI_ERR_INFO;
    return err;
}

MMPI_PROFILED(Session_get_num_psets);
int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    struct mmpi_rank *self;
    struct mmpi_session *s;
    int err = enter_query(MMPI_CALL_Session_get_num_psets, session, info, &self, &s);

    if (err == MPI_SUCCESS && !npset_names)
        err = MPI_ERR_ARG;
    if (err)
        goto fn_fail;
    *npset_names = mmpi_pset_count();
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_session(self, s, err, MMPI_CALL_Session_get_num_psets);
    goto fn_exit;
}

MMPI_PROFILED(Session_get_nth_pset);
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                              char *pset_name)
{
    struct mmpi_rank *self;
    struct mmpi_session *s;
    int err = enter_query(MMPI_CALL_Session_get_nth_pset, session, info, &self, &s);

    if (err)
        goto fn_fail;
    MMPI_FAIL_IF(n < 0 || n >= mmpi_pset_count() || !pset_len || *pset_len < 0, MPI_ERR_ARG);
    const char *name = mmpi_pset_name(n);
    int needed = (int)strlen(name) + 1;
    /* MPI-4.1 §11.3.2: a length of 0 asks for the length (the terminating null included) and
     * leaves pset_name alone; otherwise at most *pset_len - 1 characters and a null. */
    if (*pset_len > 0) {
        MMPI_FAIL_IF(!pset_name, MPI_ERR_ARG);
        snprintf(pset_name, (size_t)*pset_len, "%s", name);
    }
    *pset_len = needed;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_session(self, s, err, MMPI_CALL_Session_get_nth_pset);
    goto fn_exit;
}

/* Registers a new info object of the calling rank holding key=value; MPI_ERR_NO_MEM when the
 * rank's table is full (info is then gone). */
static int info_with(struct mmpi_rank *self, const char *key, const char *value, MPI_Info *out)
{
    struct mmpi_info *info = mmpi_info_new();
    if (!info || mmpi_info_set(info, key, value) != MPI_SUCCESS) {
        mmpi_info_release(info);
        return MPI_ERR_NO_MEM;
    }
    info->handle = *out = mmpi_handle_new(self, MMPI_HANDLE_KIND_INFO, info);
    if (*out == MPI_INFO_NULL) {
        mmpi_info_release(info);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

MMPI_PROFILED(Session_get_pset_info);
int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    struct mmpi_rank *self;
    struct mmpi_session *s;
    struct mmpi_group *g = NULL;
    char size[16];
    int err = mmpi_session_enter(MMPI_CALL_Session_get_pset_info, session, &self, &s);

    if (err)
        goto fn_fail;
    /* no such process set */
    MMPI_FAIL_IF(!pset_name || !info || !(g = mmpi_pset_group(self, pset_name)), MPI_ERR_ARG);
    /* MPI-4.1 §11.3.2: "mpi_size", the number of processes in the set. */
    snprintf(size, sizeof size, "%d", g->size);
    mmpi_group_release(g);
    if ((err = info_with(self, "mpi_size", size, info)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_session(self, s, err, MMPI_CALL_Session_get_pset_info);
    goto fn_exit;
}

MMPI_PROFILED(Session_get_info);
int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    struct mmpi_rank *self;
    struct mmpi_session *s;
    int err = mmpi_session_enter(MMPI_CALL_Session_get_info, session, &self, &s);

    if (err)
        goto fn_fail;
    MMPI_FAIL_IF(!info_used, MPI_ERR_ARG);
    /* The hint the session uses (MPI-4.1 §11.3.1): the thread level provided. */
    if ((err = info_with(self, "thread_level", thread_levels[s->thread_level], info_used)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_session(self, s, err, MMPI_CALL_Session_get_info);
    goto fn_exit;
}

MMPI_PROFILED(Group_from_session_pset);
int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    struct mmpi_rank *self;
    struct mmpi_session *s;
    struct mmpi_group *g = NULL;
    int err = mmpi_session_enter(MMPI_CALL_Group_from_session_pset, session, &self, &s);

    if (err)
        goto fn_fail;
    /* no such process set */
    MMPI_FAIL_IF(!pset_name || !newgroup || !(g = mmpi_pset_group(self, pset_name)), MPI_ERR_ARG);
    g->session = session;
    MMPI_FAIL_IF((*newgroup = mmpi_group_handle_new(self, g)) == MPI_GROUP_NULL, MPI_ERR_NO_MEM);
fn_exit:
    return err;
fn_fail:
    if (newgroup)
        *newgroup = MPI_GROUP_NULL;
    err = mmpi_err_raise_session(self, s, err, MMPI_CALL_Group_from_session_pset);
    goto fn_exit;
}
