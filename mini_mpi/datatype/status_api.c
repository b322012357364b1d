/*
 * status_api.c: MPI entry points that read or write the byte count of a status through a
 * datatype: MPI_Get_count (MPI-4.1 §3.2.5), MPI_Get_elements(_x) (§5.1.11) and
 * MPI_Status_set_elements(_x) (§13.3), each with its large-count form (§5.2); and the
 * accessors of the public fields (MPI_Status_get_source ... MPI_Status_set_error, MPI 4.1).
 * A status stores bytes (mmpi_count); these convert with
 * the type's size or, for elements, its signature (signature.c). The datatype need not be
 * committed.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "datatype/datatype.h"
#include "generated/api_impl.h"
#include "mmpi.h"

/* Bytes recorded in a status (never negative). */
static size_t status_bytes(const MPI_Status *status)
{
    return status->mmpi_count > 0 ? (size_t)status->mmpi_count : 0;
}

/* Elements of dt in the status (MPI-4.1 §3.2.5), or MPI_UNDEFINED for a partial element or
 * a count above `max` (MPI_Get_count's int form, MPI-4.1 §5.2). */
static int get_count(const MPI_Status *status, MPI_Datatype datatype, MPI_Count max,
                     MPI_Count *count, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!dt, MPI_ERR_TYPE);
    MMPI_FAIL_IF(!status || status == MPI_STATUS_IGNORE || !count, MPI_ERR_ARG);
    size_t bytes = status_bytes(status);
    /* §3.2.5: a type of size zero gives a count of zero; a partial element, MPI_UNDEFINED. */
    if (dt->size == 0)
        *count = 0;
    else if (bytes % dt->size || bytes / dt->size > (size_t)max)
        *count = MPI_UNDEFINED;
    else
        *count = (MPI_Count)(bytes / dt->size);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Get_count);
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    MPI_Count n = 0;
    int err = get_count(status, datatype, INT_MAX, count ? &n : NULL, MMPI_CALL_Get_count);
    if (err == MPI_SUCCESS)
        *count = (int)n;
    return err;
}

MMPI_PROFILED(Get_count_c);
int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    return get_count(status, datatype, LLONG_MAX, count, MMPI_CALL_Get_count_c);
}

/* Basic elements in the status, or MPI_UNDEFINED (§5.1.11), bounded by `max`. */
static int get_elements(const MPI_Status *status, MPI_Datatype datatype, MPI_Count max,
                        MPI_Count *count, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    size_t n = 0;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!dt, MPI_ERR_TYPE);
    MMPI_FAIL_IF(!status || status == MPI_STATUS_IGNORE || !count, MPI_ERR_ARG);
    if (!mmpi_datatype_elements(dt, status_bytes(status), &n) || n > (size_t)max)
        *count = MPI_UNDEFINED;
    else
        *count = (MPI_Count)n;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Get_elements);
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    MPI_Count n = 0;
    int err = get_elements(status, datatype, INT_MAX, count ? &n : NULL,
                           MMPI_CALL_Get_elements);
    if (err == MPI_SUCCESS)
        *count = (int)n;
    return err;
}

MMPI_PROFILED(Get_elements_c);
int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    return get_elements(status, datatype, LLONG_MAX, count, MMPI_CALL_Get_elements_c);
}

MMPI_PROFILED(Get_elements_x);
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    return get_elements(status, datatype, LLONG_MAX, count, MMPI_CALL_Get_elements_x);
}

/* MPI_Status_set_elements and _c (one body, api/README.md) and _x. */
static int set_elements(struct mmpi_rank *self, MPI_Status *status, MPI_Datatype datatype,
                        MPI_Count count, enum mmpi_call call)
{
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    size_t bytes = 0;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!dt, MPI_ERR_TYPE);
    MMPI_FAIL_IF(count < 0, MPI_ERR_COUNT);
    MMPI_FAIL_IF(!status || status == MPI_STATUS_IGNORE, MPI_ERR_ARG);
    /* A type with no basic elements can only hold zero of them. */
    MMPI_FAIL_IF(!mmpi_datatype_bytes_of_elements(dt, (size_t)count, &bytes), MPI_ERR_ARG);
    status->mmpi_count = (long long)bytes;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

int mmpi_api_Status_set_elements(struct mmpi_rank *self, enum mmpi_call call, MPI_Status *status,
                                 MPI_Datatype datatype, MPI_Count count)
{
    return set_elements(self, status, datatype, count, call);
}

MMPI_PROFILED(Status_set_elements_x);
int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    return set_elements(mmpi_enter(MMPI_CALL_Status_set_elements_x), status, datatype, count,
                        MMPI_CALL_Status_set_elements_x);
}

/* ---- The public fields of a status (MPI-4.1 §3.2.5, the accessors added in MPI 4.1) ---- */

/* The public field `field` (offsetof) of a status. */
static int *field_at(const MPI_Status *status, size_t field)
{
    return (int *)(void *)((char *)(uintptr_t)status + field);
}

/* MPI_Status_get_source, _tag, _error: MPI_ERR_ARG for a missing status or output. */
static int status_get(const MPI_Status *status, size_t field, int *value, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    if (!status || status == MPI_STATUS_IGNORE || !value)
        return mmpi_err_raise_comm(self, NULL, MPI_ERR_ARG, call);
    *value = *field_at(status, field);
    return MPI_SUCCESS;
}

/* MPI_Status_set_source, _tag, _error: MPI_ERR_ARG for a missing status. */
static int status_set(MPI_Status *status, size_t field, int value, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    if (!status || status == MPI_STATUS_IGNORE)
        return mmpi_err_raise_comm(self, NULL, MPI_ERR_ARG, call);
    *field_at(status, field) = value;
    return MPI_SUCCESS;
}

#define STATUS_ACCESSORS(Name, FIELD)                                                              \
    MMPI_PROFILED(Status_get_##Name);                                                              \
    int PMPI_Status_get_##Name(const MPI_Status *status, int *Name)                                \
    {                                                                                              \
        return status_get(status, offsetof(MPI_Status, FIELD), Name, MMPI_CALL_Status_get_##Name); \
    }                                                                                              \
    MMPI_PROFILED(Status_set_##Name);                                                              \
    int PMPI_Status_set_##Name(MPI_Status *status, int Name)                                       \
    {                                                                                              \
        return status_set(status, offsetof(MPI_Status, FIELD), Name, MMPI_CALL_Status_set_##Name); \
    }
STATUS_ACCESSORS(source, MPI_SOURCE)
STATUS_ACCESSORS(tag, MPI_TAG)
STATUS_ACCESSORS(error, MPI_ERROR)
