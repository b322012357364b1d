/*
 * mpit/pvar_api.c: the performance variable calls (MPI-4.1 §15.3.7): query, lookup, sessions,
 * handles, start/stop, read, write, reset and readreset. The variables are mpit/pvar.c's.
 * A handle of a COUNTER reads the counter relative to its own offset, so that a reset or write
 * through one handle changes what that handle reads and nothing else (§15.3.7: each session
 * isolates its handles). Levels and watermarks are read-only.
 */
#include <stdlib.h>
#include <string.h>

#include "mmpi.h"
#include "mpit/mpit.h"
#include "mpit/objects.h"
#include "mpit/pvar.h"

MMPI_PROFILED(T_pvar_get_num);
int PMPI_T_pvar_get_num(int *num_pvar)
{
    return mmpi_mpit_get_num(num_pvar, MMPI_NPVARS);
}

static bool resettable(int index) { return mmpi_pvars[index].var_class == MPI_T_PVAR_CLASS_COUNTER; }

MMPI_PROFILED(T_pvar_get_info);
int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity,
                         int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                         char *desc, int *desc_len, int *bind, int *readonly, int *continuous,
                         int *atomic)
{
    MMPI_MPIT_ENTER(st);
    if (pvar_index < 0 || pvar_index >= MMPI_NPVARS)
        return MPI_T_ERR_INVALID_INDEX;
    const struct mmpi_pvar *p = &mmpi_pvars[pvar_index];
    mmpi_mpit_copy_string(p->name, name, name_len);
    mmpi_mpit_copy_string(p->desc, desc, desc_len);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (var_class)
        *var_class = p->var_class;
    if (datatype)
        *datatype = MPI_UNSIGNED_LONG_LONG;
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (readonly)
        *readonly = !resettable(pvar_index);
    if (continuous)
        *continuous = 1;
    if (atomic)
        *atomic = resettable(pvar_index); /* readreset under the handle's lock */
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_pvar_get_index);
int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    MMPI_MPIT_ENTER(st);
    if (!name || !pvar_index)
        return MPI_T_ERR_INVALID;
    /* §15.3.7: a name is unique within its class. */
    for (int i = 0; i < MMPI_NPVARS; i++)
        if (mmpi_pvars[i].var_class == var_class && !strcmp(mmpi_pvars[i].name, name)) {
            *pvar_index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

bool mmpi_mpit_has_session(struct mmpi_mpit_rank *st, struct MPIR_T_pvar_session_s *s)
{
    for (struct MPIR_T_pvar_session_s *x = st->sessions; x; x = x->next)
        if (x == s)
            return true;
    return false;
}

static bool session_has(struct MPIR_T_pvar_session_s *s, struct MPIR_T_pvar_handle_s *h)
{
    for (struct MPIR_T_pvar_handle_s *x = s->handles; x; x = x->next)
        if (x == h)
            return true;
    return false;
}

void mmpi_mpit_session_free(struct MPIR_T_pvar_session_s *s)
{
    for (struct MPIR_T_pvar_handle_s *h = s->handles, *next; h; h = next) {
        next = h->next;
        free(h);
    }
    free(s);
}

MMPI_PROFILED(T_pvar_session_create);
int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    MMPI_MPIT_ENTER(st);
    if (!session)
        return MPI_T_ERR_INVALID;
    struct MPIR_T_pvar_session_s *s = calloc(1, sizeof *s);
    if (!s)
        return MPI_T_ERR_OUT_OF_SESSIONS;
    pthread_mutex_lock(&st->lock);
    s->next = st->sessions;
    st->sessions = s;
    pthread_mutex_unlock(&st->lock);
    *session = s;
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_pvar_session_free);
int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    MMPI_MPIT_ENTER(st);
    if (!session)
        return MPI_T_ERR_INVALID;
    pthread_mutex_lock(&st->lock);
    bool found = false;
    for (struct MPIR_T_pvar_session_s **p = &st->sessions; *p; p = &(*p)->next)
        if (*p == *session) {
            *p = (*session)->next;
            found = true;
            break;
        }
    pthread_mutex_unlock(&st->lock);
    if (!found)
        return MPI_T_ERR_INVALID_SESSION;
    mmpi_mpit_session_free(*session); /* §15.3.7.3: with its handles */
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_pvar_handle_alloc);
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count)
{
    MMPI_MPIT_ENTER(st);
    if (pvar_index < 0 || pvar_index >= MMPI_NPVARS)
        return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    struct MPIR_T_pvar_handle_s *h = calloc(1, sizeof *h);
    if (!h)
        return MPI_T_ERR_OUT_OF_HANDLES;
    h->index = pvar_index;
    pthread_mutex_lock(&st->lock);
    if (!mmpi_mpit_has_session(st, session)) {
        pthread_mutex_unlock(&st->lock);
        free(h);
        return MPI_T_ERR_INVALID_SESSION;
    }
    /* Continuous variables count from the rank's start: a new handle reads the whole count
     * until it is reset or written (§15.3.7.4); calloc left every offset 0. */
    h->next = session->handles;
    session->handles = h;
    pthread_mutex_unlock(&st->lock);
    *handle = h;
    *count = mmpi_pvars[pvar_index].count;
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_pvar_handle_free);
int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    MMPI_MPIT_ENTER(st);
    if (!handle)
        return MPI_T_ERR_INVALID;
    pthread_mutex_lock(&st->lock);
    int err = mmpi_mpit_has_session(st, session) ? MPI_T_ERR_INVALID_HANDLE
                                             : MPI_T_ERR_INVALID_SESSION;
    if (err == MPI_T_ERR_INVALID_HANDLE)
        for (struct MPIR_T_pvar_handle_s **p = &session->handles; *p; p = &(*p)->next)
            if (*p == *handle) {
                *p = (*handle)->next;
                err = MPI_SUCCESS;
                break;
            }
    pthread_mutex_unlock(&st->lock);
    if (err)
        return err;
    free(*handle);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

/* Looks up (session, handle) with st->lock taken; on success returns with the lock held.
 * all_ok: MPI_T_PVAR_ALL_HANDLES is accepted (start, stop, reset). */
static int lock_handle(struct mmpi_mpit_rank *st, MPI_T_pvar_session s, MPI_T_pvar_handle h,
                       bool all_ok)
{
    pthread_mutex_lock(&st->lock);
    int err = MPI_SUCCESS;
    if (!mmpi_mpit_has_session(st, s))
        err = MPI_T_ERR_INVALID_SESSION;
    else if (h == MPI_T_PVAR_ALL_HANDLES ? !all_ok : !session_has(s, h))
        err = MPI_T_ERR_INVALID_HANDLE;
    if (err)
        pthread_mutex_unlock(&st->lock);
    return err;
}

/* Start and stop: every variable is continuous, so a single handle is
 * MPI_T_ERR_PVAR_NO_STARTSTOP and MPI_T_PVAR_ALL_HANDLES has nothing to do (§15.3.7.5). */
static int start_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    struct mmpi_mpit_rank *st;
    int err = mmpi_mpit_enter(&st);
    if (err || (err = lock_handle(st, session, handle, true)))
        return err;
    pthread_mutex_unlock(&st->lock);
    return handle == MPI_T_PVAR_ALL_HANDLES ? MPI_SUCCESS : MPI_T_ERR_PVAR_NO_STARTSTOP;
}

MMPI_PROFILED(T_pvar_start);
int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return start_stop(session, handle);
}

MMPI_PROFILED(T_pvar_stop);
int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return start_stop(session, handle);
}

/* Reads (out), writes (in) or resets, one handle, every element; out and in may be NULL. */
static int pvar_access(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *out,
                       const void *in, bool reset)
{
    struct mmpi_mpit_rank *st;
    int err = mmpi_mpit_enter(&st);
    if (err || (err = lock_handle(st, session, handle, false)))
        return err;
    if ((reset || in) && !resettable(handle->index)) {
        err = MPI_T_ERR_PVAR_NO_WRITE;
    } else {
        uint64_t now[MMPI_PVAR_MAX_COUNT];
        mmpi_pvar_values(handle->index, st, now);
        for (int i = 0; i < mmpi_pvars[handle->index].count; i++) {
            if (out)
                ((unsigned long long *)out)[i] = now[i] - handle->offset[i];
            if (in)
                handle->offset[i] = now[i] - ((const unsigned long long *)in)[i];
            else if (reset)
                handle->offset[i] = now[i];
        }
    }
    pthread_mutex_unlock(&st->lock);
    return err;
}

MMPI_PROFILED(T_pvar_read);
int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    if (!buf)
        return MPI_T_ERR_INVALID;
    return pvar_access(session, handle, buf, NULL, false);
}

MMPI_PROFILED(T_pvar_write);
int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    if (!buf)
        return MPI_T_ERR_INVALID;
    return pvar_access(session, handle, NULL, buf, false);
}

MMPI_PROFILED(T_pvar_reset);
int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    if (handle != MPI_T_PVAR_ALL_HANDLES)
        return pvar_access(session, handle, NULL, NULL, true);
    /* Every resettable handle of the session; read-only ones are skipped (§15.3.7.5). */
    struct mmpi_mpit_rank *st;
    int err = mmpi_mpit_enter(&st);
    if (err || (err = lock_handle(st, session, handle, true)))
        return err;
    for (struct MPIR_T_pvar_handle_s *h = session->handles; h; h = h->next)
        if (resettable(h->index))
            mmpi_pvar_values(h->index, st, h->offset); /* reads 0 from now on */
    pthread_mutex_unlock(&st->lock);
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_pvar_readreset);
int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    if (!buf)
        return MPI_T_ERR_INVALID;
    return pvar_access(session, handle, buf, NULL, true);
}
