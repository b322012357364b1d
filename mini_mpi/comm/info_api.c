/*
 * info_api.c: MPI entry points for info objects (MPI-4.1 §10), in the chapter's order. MPI-4
 * allows them before MPI_Init; errors then follow the initial error handler. MPI_INFO_ENV is
 * predefined and read-only.
 */
#include <stdlib.h>
#include <string.h>

#include "comm/info.h"
#include "mmpi.h"

static struct mmpi_info *info_get(struct mmpi_rank *self, MPI_Info h, bool writable)
{
    if (h == MPI_INFO_ENV)
        return writable ? NULL : self->info_env;
    return mmpi_handle_lookup(self, MMPI_HANDLE_KIND_INFO, h);
}

int mmpi_info_arg(struct mmpi_rank *self, MPI_Info h, struct mmpi_info **out)
{
    *out = h == MPI_INFO_NULL ? NULL : info_get(self, h, false);
    return h != MPI_INFO_NULL && !*out ? MPI_ERR_INFO : MPI_SUCCESS;
}

static int check_key(const char *key)
{
    if (!key || !*key || strlen(key) > MPI_MAX_INFO_KEY)
        return MPI_ERR_INFO_KEY;
    return MPI_SUCCESS;
}

static int raise_info(struct mmpi_rank *self, int err, enum mmpi_call call)
{
    return mmpi_err_raise_comm(self, NULL, err, call);
}

/* Registers a new info in the calling rank's table. */
static int info_publish(struct mmpi_rank *self, struct mmpi_info *info, MPI_Info *out)
{
    info->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_INFO, info);
    if (info->handle == MPI_INFO_NULL) {
        mmpi_info_release(info);
        return MPI_ERR_NO_MEM;
    }
    *out = info->handle;
    return MPI_SUCCESS;
}

MMPI_PROFILED(Info_create);
int PMPI_Info_create(MPI_Info *info)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_create);
    int err = MPI_SUCCESS;
    struct mmpi_info *i;

    if (!self)
        return MPI_ERR_OTHER;
    if (!info)
        err = MPI_ERR_ARG;
    else if (!(i = mmpi_info_new()))
        err = MPI_ERR_NO_MEM;
    else
        err = info_publish(self, i, info);
    return err ? raise_info(self, err, MMPI_CALL_Info_create) : MPI_SUCCESS;
}

MMPI_PROFILED(Info_set);
int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_set);
    if (!self)
        return MPI_ERR_OTHER;
    struct mmpi_info *i = info_get(self, info, true);
    int err;

    if (!i)
        err = MPI_ERR_INFO;
    else if ((err = check_key(key)) != MPI_SUCCESS)
        ;
    else if (!value || strlen(value) > MPI_MAX_INFO_VAL)
        err = MPI_ERR_INFO_VALUE;
    else
        err = mmpi_info_set(i, key, value);
    return err ? raise_info(self, err, MMPI_CALL_Info_set) : MPI_SUCCESS;
}

MMPI_PROFILED(Info_get);
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_get);
    if (!self)
        return MPI_ERR_OTHER;
    struct mmpi_info *i = info_get(self, info, false);
    int err;

    if (!i)
        err = MPI_ERR_INFO;
    else if ((err = check_key(key)) != MPI_SUCCESS)
        ;
    else if (valuelen < 0 || !flag || (valuelen > 0 && !value))
        err = MPI_ERR_ARG;
    else {
        const char *v = mmpi_info_lookup(i, key);
        *flag = v != NULL;
        if (v) {
            /* MPI-4.1 §10: valuelen excludes the terminator; longer values are truncated. */
            size_t n = strlen(v);
            if (n > (size_t)valuelen)
                n = (size_t)valuelen;
            memcpy(value, v, n);
            value[n] = '\0';
        }
    }
    return err ? raise_info(self, err, MMPI_CALL_Info_get) : MPI_SUCCESS;
}

MMPI_PROFILED(Info_get_string);
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_get_string);
    if (!self)
        return MPI_ERR_OTHER;
    struct mmpi_info *i = info_get(self, info, false);
    int err;

    if (!i)
        err = MPI_ERR_INFO;
    else if ((err = check_key(key)) != MPI_SUCCESS)
        ;
    else if (!buflen || *buflen < 0 || !flag || (*buflen > 0 && !value))
        err = MPI_ERR_ARG;
    else {
        const char *v = mmpi_info_lookup(i, key);
        *flag = v != NULL;
        if (v) {
            /* MPI-4.1 §10: copy what fits with its terminator; report the full size. */
            int need = (int)strlen(v) + 1;
            if (*buflen > 0) {
                int n = need < *buflen ? need - 1 : *buflen - 1;
                memcpy(value, v, (size_t)n);
                value[n] = '\0';
            }
            *buflen = need;
        }
    }
    return err ? raise_info(self, err, MMPI_CALL_Info_get_string) : MPI_SUCCESS;
}

MMPI_PROFILED(Info_get_valuelen);
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_get_valuelen);
    if (!self)
        return MPI_ERR_OTHER;
    struct mmpi_info *i = info_get(self, info, false);
    int err;

    if (!i)
        err = MPI_ERR_INFO;
    else if ((err = check_key(key)) != MPI_SUCCESS)
        ;
    else if (!valuelen || !flag)
        err = MPI_ERR_ARG;
    else {
        const char *v = mmpi_info_lookup(i, key);
        *flag = v != NULL;
        if (v)
            *valuelen = (int)strlen(v);
    }
    return err ? raise_info(self, err, MMPI_CALL_Info_get_valuelen) : MPI_SUCCESS;
}

MMPI_PROFILED(Info_get_nkeys);
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_get_nkeys);
    if (!self)
        return MPI_ERR_OTHER;
    struct mmpi_info *i = info_get(self, info, false);
    int err = MPI_SUCCESS;

    if (!i)
        err = MPI_ERR_INFO;
    else if (!nkeys)
        err = MPI_ERR_ARG;
    else
        *nkeys = i->n;
    return err ? raise_info(self, err, MMPI_CALL_Info_get_nkeys) : MPI_SUCCESS;
}

MMPI_PROFILED(Info_get_nthkey);
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_get_nthkey);
    if (!self)
        return MPI_ERR_OTHER;
    struct mmpi_info *i = info_get(self, info, false);
    int err = MPI_SUCCESS;

    if (!i)
        err = MPI_ERR_INFO;
    else if (!key || n < 0 || n >= i->n)
        err = MPI_ERR_ARG;
    else
        strcpy(key, i->keys[n]);
    return err ? raise_info(self, err, MMPI_CALL_Info_get_nthkey) : MPI_SUCCESS;
}

MMPI_PROFILED(Info_delete);
int PMPI_Info_delete(MPI_Info info, const char *key)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_delete);
    if (!self)
        return MPI_ERR_OTHER;
    struct mmpi_info *i = info_get(self, info, true);
    int err;

    if (!i)
        err = MPI_ERR_INFO;
    else if ((err = check_key(key)) == MPI_SUCCESS)
        err = mmpi_info_delete(i, key);
    return err ? raise_info(self, err, MMPI_CALL_Info_delete) : MPI_SUCCESS;
}

MMPI_PROFILED(Info_dup);
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_dup);
    if (!self)
        return MPI_ERR_OTHER;
    struct mmpi_info *i = info_get(self, info, false), *copy;
    int err;

    if (!i)
        err = MPI_ERR_INFO;
    else if (!newinfo)
        err = MPI_ERR_ARG;
    else if (!(copy = mmpi_info_dup(i)))
        err = MPI_ERR_NO_MEM;
    else
        err = info_publish(self, copy, newinfo);
    return err ? raise_info(self, err, MMPI_CALL_Info_dup) : MPI_SUCCESS;
}

MMPI_PROFILED(Info_free);
int PMPI_Info_free(MPI_Info *info)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_free);
    if (!self)
        return MPI_ERR_OTHER;
    struct mmpi_info *i = info ? mmpi_handle_remove(self, MMPI_HANDLE_KIND_INFO, *info) : NULL;

    if (!i)
        return raise_info(self, MPI_ERR_INFO, MMPI_CALL_Info_free);
    i->handle = MPI_INFO_NULL;
    mmpi_info_release(i);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
