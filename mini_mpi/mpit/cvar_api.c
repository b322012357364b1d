/*
 * mpit/cvar_api.c: the control variable calls (MPI-4.1 §15.3.6): query, lookup by name,
 * handles, read and write. The variables themselves are mpit/cvar.c's table. Every variable is
 * bound to no object (MPI_T_BIND_NO_OBJECT) and holds one value (count 1; a string's count is
 * its length plus one).
 */
#include <stdlib.h>
#include <string.h>

#include "mmpi.h"
#include "mpit/cvar.h"
#include "mpit/mpit.h"
#include "mpit/objects.h"

static const char *cvar_name(int i) { return mmpi_cvars[i].name; }

MMPI_PROFILED(T_cvar_get_num);
int PMPI_T_cvar_get_num(int *num_cvar)
{
    return mmpi_mpit_get_num(num_cvar, MMPI_NCVARS);
}

MMPI_PROFILED(T_cvar_get_info);
int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
                         int *desc_len, int *bind, int *scope)
{
    MMPI_MPIT_ENTER(st);
    if (cvar_index < 0 || cvar_index >= MMPI_NCVARS)
        return MPI_T_ERR_INVALID_INDEX;
    const struct mmpi_cvar *v = &mmpi_cvars[cvar_index];
    mmpi_mpit_copy_string(v->name, name, name_len);
    mmpi_mpit_copy_string(v->desc, desc, desc_len);
    if (verbosity)
        *verbosity = v->write ? MPI_T_VERBOSITY_USER_BASIC : MPI_T_VERBOSITY_USER_DETAIL;
    if (datatype)
        *datatype = v->type;
    if (enumtype)
        *enumtype = v->enum_id >= 0 ? (MPI_T_enum)&mmpi_mpit_enums[v->enum_id] : MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope)
        *scope = v->scope;
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_cvar_get_index);
int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    return mmpi_mpit_get_index(name, cvar_index, MMPI_NCVARS, cvar_name);
}

/* The world whose settings the variables are: none outside a running job (a thread of the
 * launcher before the ranks start or after they end). */
static struct mmpi_world *world_now(void)
{
    return __atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE);
}

MMPI_PROFILED(T_cvar_handle_alloc);
int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                             int *count)
{
    MMPI_MPIT_ENTER(st);
    if (cvar_index < 0 || cvar_index >= MMPI_NCVARS)
        return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    const struct mmpi_cvar *v = &mmpi_cvars[cvar_index];
    struct mmpi_world *w = world_now();
    if (!w)
        return MPI_T_ERR_NOT_ACCESSIBLE;
    struct MPIR_T_cvar_handle_s *h = malloc(sizeof *h);
    if (!h)
        return MPI_T_ERR_MEMORY;
    h->index = cvar_index;
    pthread_mutex_lock(&st->lock);
    h->next = st->cvar_handles;
    st->cvar_handles = h;
    pthread_mutex_unlock(&st->lock);
    *count = v->string ? (int)strlen(v->string(w)) + 1 : 1;
    *handle = h;
    return MPI_SUCCESS;
}

/* Unlinks h from st when it is one of st's handles (lock held). */
static bool unlink_handle(struct mmpi_mpit_rank *st, MPI_T_cvar_handle h)
{
    for (struct MPIR_T_cvar_handle_s **p = &st->cvar_handles; *p; p = &(*p)->next)
        if (*p == h) {
            *p = h->next;
            return true;
        }
    return false;
}

static bool known_handle(struct mmpi_mpit_rank *st, MPI_T_cvar_handle h)
{
    pthread_mutex_lock(&st->lock);
    bool found = false;
    for (struct MPIR_T_cvar_handle_s *x = st->cvar_handles; x && !found; x = x->next)
        found = x == h;
    pthread_mutex_unlock(&st->lock);
    return found;
}

MMPI_PROFILED(T_cvar_handle_free);
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    MMPI_MPIT_ENTER(st);
    if (!handle)
        return MPI_T_ERR_INVALID;
    pthread_mutex_lock(&st->lock);
    bool found = *handle && unlink_handle(st, *handle);
    pthread_mutex_unlock(&st->lock);
    if (!found)
        return MPI_T_ERR_INVALID_HANDLE;
    free(*handle);
    *handle = MPI_T_CVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_cvar_read);
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    MMPI_MPIT_ENTER(st);
    if (!known_handle(st, handle))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    struct mmpi_world *w = world_now();
    return w ? mmpi_cvars[handle->index].read(w, buf) : MPI_T_ERR_NOT_ACCESSIBLE;
}

MMPI_PROFILED(T_cvar_write);
int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    MMPI_MPIT_ENTER(st);
    if (!known_handle(st, handle))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    const struct mmpi_cvar *v = &mmpi_cvars[handle->index];
    if (!v->write)
        return MPI_T_ERR_CVAR_SET_NEVER;
    struct mmpi_world *w = world_now();
    return w ? v->write(w, buf) : MPI_T_ERR_CVAR_SET_NOT_NOW;
}
