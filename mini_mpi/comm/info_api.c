/*
 * info_api.c: MPI entry points for info objects (MPI-4.1 §10), in the chapter's order. MPI-4
 * allows them before MPI_Init; errors then follow the initial error handler. MPI_INFO_ENV is
 * predefined and read-only.
 */
#include <stdlib.h>
#include <string.h>

#include "comm/info.h"
#include "init/init.h"
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
    struct mmpi_info *i;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
        goto fn_exit;
    }
    MMPI_FAIL_IF(!info, MPI_ERR_ARG);
    MMPI_FAIL_IF(!(i = mmpi_info_new()), MPI_ERR_NO_MEM);
    if ((err = info_publish(self, i, info)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Info_create);
    goto fn_exit;
}

/* MPI-4.1 §11.4: the keys MPI_INFO_ENV would have after MPI_Init with argc and argv
 * (MPI_ARGV_NULL: this rank's own, as MPI_Init(NULL, NULL) would): MPI_Init requires
 * MPI_THREAD_SINGLE, so thread_level is that, before, during and after MPI_Init alike (MPICH's
 * info/infocreateenv compares them). Allowed before MPI_Init. */
MMPI_PROFILED(Info_create_env);
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_create_env);
    struct mmpi_info *i;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
        goto fn_exit;
    }
    MMPI_FAIL_IF(!info || argc < 0, MPI_ERR_ARG);
    if (argv == MPI_ARGV_NULL) {
        argc = self->argc;
        argv = self->argv;
    }
    MMPI_FAIL_IF(!(i = mmpi_info_env_new(self, argc, argv, MPI_THREAD_SINGLE)), MPI_ERR_NO_MEM);
    if ((err = info_publish(self, i, info)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Info_create_env);
    goto fn_exit;
}

/* MPI-4.1 §11.4.1: the hardware the calling process runs on, as far as MPI distinguishes it:
 * every rank of a job shares one node and one memory, the resource type that
 * MPI_COMM_TYPE_RESOURCE_GUIDED splits by ("mpi_shared_memory"). Allowed before MPI_Init. */
MMPI_PROFILED(Get_hw_resource_info);
int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Get_hw_resource_info);
    struct mmpi_info *i = NULL;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER;
        goto fn_exit;
    }
    MMPI_FAIL_IF(!hw_info, MPI_ERR_ARG);
    if (!(i = mmpi_info_new()) ||
        mmpi_info_set(i, "mpi_hw_resource_type", "mpi_shared_memory") != MPI_SUCCESS) {
        mmpi_info_release(i);
        err = MPI_ERR_NO_MEM;
        goto fn_fail;
    }
    if ((err = info_publish(self, i, hw_info)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Get_hw_resource_info);
    goto fn_exit;
}

MMPI_PROFILED(Info_set);
int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_set);
    struct mmpi_info *i;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
        goto fn_exit;
    }
    MMPI_FAIL_IF(!(i = info_get(self, info, true)), MPI_ERR_INFO);
    if ((err = check_key(key)))
        goto fn_fail;
    MMPI_FAIL_IF(!value || strlen(value) > MPI_MAX_INFO_VAL, MPI_ERR_INFO_VALUE);
    if ((err = mmpi_info_set(i, key, value)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Info_set);
    goto fn_exit;
}

MMPI_PROFILED(Info_get);
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_get);
    struct mmpi_info *i;
    const char *v;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
        goto fn_exit;
    }
    MMPI_FAIL_IF(!(i = info_get(self, info, false)), MPI_ERR_INFO);
    if ((err = check_key(key)))
        goto fn_fail;
    MMPI_FAIL_IF(valuelen < 0 || !flag || (valuelen > 0 && !value), MPI_ERR_ARG);
    v = mmpi_info_lookup(i, key);
    *flag = v != NULL;
    if (v) {
        /* MPI-4.1 §10: valuelen excludes the terminator; longer values are truncated. */
        size_t n = strlen(v);
        if (n > (size_t)valuelen)
            n = (size_t)valuelen;
        memcpy(value, v, n);
        value[n] = '\0';
    }
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Info_get);
    goto fn_exit;
}

MMPI_PROFILED(Info_get_string);
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_get_string);
    struct mmpi_info *i;
    const char *v;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
        goto fn_exit;
    }
    MMPI_FAIL_IF(!(i = info_get(self, info, false)), MPI_ERR_INFO);
    if ((err = check_key(key)))
        goto fn_fail;
    MMPI_FAIL_IF(!buflen || *buflen < 0 || !flag || (*buflen > 0 && !value), MPI_ERR_ARG);
    v = mmpi_info_lookup(i, key);
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
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Info_get_string);
    goto fn_exit;
}

MMPI_PROFILED(Info_get_valuelen);
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_get_valuelen);
    struct mmpi_info *i;
    const char *v;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
        goto fn_exit;
    }
    MMPI_FAIL_IF(!(i = info_get(self, info, false)), MPI_ERR_INFO);
    if ((err = check_key(key)))
        goto fn_fail;
    MMPI_FAIL_IF(!valuelen || !flag, MPI_ERR_ARG);
    v = mmpi_info_lookup(i, key);
    *flag = v != NULL;
    if (v)
        *valuelen = (int)strlen(v);
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Info_get_valuelen);
    goto fn_exit;
}

MMPI_PROFILED(Info_get_nkeys);
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_get_nkeys);
    struct mmpi_info *i;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
        goto fn_exit;
    }
    MMPI_FAIL_IF(!(i = info_get(self, info, false)), MPI_ERR_INFO);
    MMPI_FAIL_IF(!nkeys, MPI_ERR_ARG);
    *nkeys = i->n;
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Info_get_nkeys);
    goto fn_exit;
}

MMPI_PROFILED(Info_get_nthkey);
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_get_nthkey);
    struct mmpi_info *i;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
        goto fn_exit;
    }
    MMPI_FAIL_IF(!(i = info_get(self, info, false)), MPI_ERR_INFO);
    MMPI_FAIL_IF(!key || n < 0 || n >= i->n, MPI_ERR_ARG);
    strcpy(key, i->keys[n]);
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Info_get_nthkey);
    goto fn_exit;
}

MMPI_PROFILED(Info_delete);
int PMPI_Info_delete(MPI_Info info, const char *key)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_delete);
    struct mmpi_info *i;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
        goto fn_exit;
    }
    MMPI_FAIL_IF(!(i = info_get(self, info, true)), MPI_ERR_INFO);
    if ((err = check_key(key)))
        goto fn_fail;
    if ((err = mmpi_info_delete(i, key)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Info_delete);
    goto fn_exit;
}

MMPI_PROFILED(Info_dup);
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_dup);
    struct mmpi_info *i, *copy;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
        goto fn_exit;
    }
    MMPI_FAIL_IF(!(i = info_get(self, info, false)), MPI_ERR_INFO);
    MMPI_FAIL_IF(!newinfo, MPI_ERR_ARG);
    MMPI_FAIL_IF(!(copy = mmpi_info_dup(i)), MPI_ERR_NO_MEM);
    if ((err = info_publish(self, copy, newinfo)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Info_dup);
    goto fn_exit;
}

MMPI_PROFILED(Info_free);
int PMPI_Info_free(MPI_Info *info)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Info_free);
    struct mmpi_info *i;
    int err = MPI_SUCCESS;

    if (!self) {
        err = MPI_ERR_OTHER; /* a thread of no rank: no handler to call */
        goto fn_exit;
    }
    i = info ? mmpi_handle_remove(self, MMPI_HANDLE_KIND_INFO, *info) : NULL;
    MMPI_FAIL_IF(!i, MPI_ERR_INFO);
    i->handle = MPI_INFO_NULL;
    mmpi_info_release(i);
    *info = MPI_INFO_NULL;
fn_exit:
    return err;
fn_fail:
    err = raise_info(self, err, MMPI_CALL_Info_free);
    goto fn_exit;
}
