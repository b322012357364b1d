/*
 * pack_api.c: MPI entry points of MPI-4.1 §5.2 (MPI_Pack, MPI_Unpack, MPI_Pack_size) and §5.3
 * (the "external32" forms), each with its large-count form (both bindings by hand over one
 * function, as they return a position or size through a pointer). Bindings only: the data
 * moves through cursor.c, and external32 converts through external32.c. Our packed form has no header: MPI_Pack_size is exact.
 * A buffer too small for the data is MPI_ERR_TRUNCATE (as in Open MPI).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/build.h"
#include "mmpi.h"

/* Bytes of count elements of dt (native or external32) if they fit in `room` after *position;
 * MPI_ERR_TRUNCATE otherwise, MPI_ERR_ARG for a negative position or room. */
static int fits(size_t count, size_t elem, MPI_Aint position, MPI_Aint room, size_t *bytes)
{
    if (position < 0 || room < 0)
        return MPI_ERR_ARG;
    if (__builtin_mul_overflow(count, elem, bytes) || position > room ||
        *bytes > (size_t)(room - position))
        return MPI_ERR_TRUNCATE;
    return MPI_SUCCESS;
}

/* MPI_Pack and _c: the position as an MPI_Count (NULL: missing). */
static int pack(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_datatype *dt = NULL;
    size_t bytes = 0;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(incount < 0, MPI_ERR_COUNT);
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    MMPI_FAIL_IF(!position, MPI_ERR_ARG);
    if ((err = fits((size_t)incount, dt->size, *position, outsize, &bytes)))
        goto fn_fail;
    MMPI_FAIL_IF(bytes > 0 && !outbuf, MPI_ERR_BUFFER);
    mmpi_datatype_pack(dt, inbuf, (size_t)incount, 0, (char *)outbuf + *position, bytes);
    *position += (MPI_Count)bytes;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Pack);
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int err = pack(inbuf, incount, datatype, outbuf, outsize, position ? &pos : NULL, comm,
                   MMPI_CALL_Pack);
    if (err == MPI_SUCCESS)
        *position = (int)pos; /* at most outsize */
    return err;
}

MMPI_PROFILED(Pack_c);
int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    return pack(inbuf, incount, datatype, outbuf, outsize, position, comm, MMPI_CALL_Pack_c);
}

/* MPI_Unpack and _c. */
static int unpack(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_datatype *dt = NULL;
    size_t bytes = 0;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(outcount < 0, MPI_ERR_COUNT);
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    MMPI_FAIL_IF(!position, MPI_ERR_ARG);
    if ((err = fits((size_t)outcount, dt->size, *position, insize, &bytes)))
        goto fn_fail;
    MMPI_FAIL_IF(bytes > 0 && !inbuf, MPI_ERR_BUFFER);
    mmpi_datatype_unpack(dt, outbuf, (size_t)outcount, 0, (const char *)inbuf + *position,
                         bytes);
    *position += (MPI_Count)bytes;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Unpack);
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int err = unpack(inbuf, insize, position ? &pos : NULL, outbuf, outcount, datatype, comm,
                     MMPI_CALL_Unpack);
    if (err == MPI_SUCCESS)
        *position = (int)pos; /* at most insize */
    return err;
}

MMPI_PROFILED(Unpack_c);
int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    return unpack(inbuf, insize, position, outbuf, outcount, datatype, comm, MMPI_CALL_Unpack_c);
}

/* MPI_Pack_size and _c: at most `max` bytes, else MPI_ERR_VALUE_TOO_LARGE (MPI-4.1 §5.2). */
static int pack_size(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count max,
                     MPI_Count *size, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_datatype *dt = NULL;
    size_t bytes = 0;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(incount < 0, MPI_ERR_COUNT);
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    MMPI_FAIL_IF(!size, MPI_ERR_ARG);
    MMPI_FAIL_IF(__builtin_mul_overflow((size_t)incount, dt->size, &bytes) || bytes > (size_t)max,
                 MPI_ERR_VALUE_TOO_LARGE);
    *size = (MPI_Count)bytes;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Pack_size);
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    MPI_Count n = 0;
    int err = pack_size(incount, datatype, comm, INT_MAX, size ? &n : NULL, MMPI_CALL_Pack_size);
    if (err == MPI_SUCCESS)
        *size = (int)n;
    return err;
}

MMPI_PROFILED(Pack_size_c);
int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    return pack_size(incount, datatype, comm, LLONG_MAX, size, MMPI_CALL_Pack_size_c);
}

/* MPI-4.1 §5.3: "external32" is the only representation. */
static bool bad_datarep(const char *datarep)
{
    return !datarep || strcmp(datarep, "external32") != 0;
}

/* MPI_Pack_external and _c. */
static int pack_external(const char datarep[], const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                         MPI_Count *position, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_datatype *dt = NULL;
    size_t bytes = 0, nbytes = 0;
    char *native = NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(incount < 0, MPI_ERR_COUNT);
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    MMPI_FAIL_IF(bad_datarep(datarep) || !position, MPI_ERR_ARG);
    if ((err = fits((size_t)incount, dt->ext_size, *position, outsize, &bytes)))
        goto fn_fail;
    MMPI_FAIL_IF(bytes > 0 && !outbuf, MPI_ERR_BUFFER);
    /* Pack natively, then convert value by value in signature order. */
    MMPI_FAIL_IF(__builtin_mul_overflow((size_t)incount, dt->size, &nbytes) ||
                     !(native = malloc(nbytes + 1)),
                 MPI_ERR_NO_MEM);
    mmpi_datatype_pack(dt, inbuf, (size_t)incount, 0, native, nbytes);
    /* MPI_ERR_CONVERSION: a value that does not fit its external32 size (external32.c). */
    if ((err = mmpi_dt_external32(dt, (size_t)incount, native, (char *)outbuf + *position,
                                  true)))
        goto fn_fail;
    *position += (MPI_Count)bytes;
fn_exit:
    free(native);
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Pack_external);
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                       void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    MPI_Count pos = position ? *position : 0;
    int err = pack_external(datarep, inbuf, incount, datatype, outbuf, outsize,
                            position ? &pos : NULL, MMPI_CALL_Pack_external);
    if (err == MPI_SUCCESS)
        *position = (MPI_Aint)pos;
    return err;
}

MMPI_PROFILED(Pack_external_c);
int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                         MPI_Count *position)
{
    return pack_external(datarep, inbuf, incount, datatype, outbuf, outsize, position,
                         MMPI_CALL_Pack_external_c);
}

/* MPI_Unpack_external and _c. */
static int unpack_external(const char datarep[], const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount,
                           MPI_Datatype datatype, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_datatype *dt = NULL;
    size_t bytes = 0, nbytes = 0;
    char *native = NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(outcount < 0, MPI_ERR_COUNT);
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    MMPI_FAIL_IF(bad_datarep(datarep) || !position, MPI_ERR_ARG);
    if ((err = fits((size_t)outcount, dt->ext_size, *position, insize, &bytes)))
        goto fn_fail;
    MMPI_FAIL_IF(bytes > 0 && !inbuf, MPI_ERR_BUFFER);
    MMPI_FAIL_IF(__builtin_mul_overflow((size_t)outcount, dt->size, &nbytes) ||
                     !(native = malloc(nbytes + 1)),
                 MPI_ERR_NO_MEM);
    if ((err = mmpi_dt_external32(dt, (size_t)outcount, native, (char *)inbuf + *position,
                                  false)))
        goto fn_fail;
    mmpi_datatype_unpack(dt, outbuf, (size_t)outcount, 0, native, nbytes);
    *position += (MPI_Count)bytes;
fn_exit:
    free(native);
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Unpack_external);
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
    MPI_Count pos = position ? *position : 0;
    int err = unpack_external(datarep, inbuf, insize, position ? &pos : NULL, outbuf, outcount,
                              datatype, MMPI_CALL_Unpack_external);
    if (err == MPI_SUCCESS)
        *position = (MPI_Aint)pos;
    return err;
}

MMPI_PROFILED(Unpack_external_c);
int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount,
                           MPI_Datatype datatype)
{
    return unpack_external(datarep, inbuf, insize, position, outbuf, outcount, datatype,
                           MMPI_CALL_Unpack_external_c);
}

/* MPI_Pack_external_size and _c. */
static int pack_external_size(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                              MPI_Count *size, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_datatype *dt = NULL;
    size_t bytes = 0;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(incount < 0, MPI_ERR_COUNT);
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    MMPI_FAIL_IF(bad_datarep(datarep) || !size, MPI_ERR_ARG);
    MMPI_FAIL_IF(__builtin_mul_overflow((size_t)incount, dt->ext_size, &bytes) || bytes > LLONG_MAX,
                 MPI_ERR_VALUE_TOO_LARGE);
    *size = (MPI_Count)bytes;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Pack_external_size);
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                            MPI_Aint *size)
{
    MPI_Count n = 0;
    int err = pack_external_size(datarep, incount, datatype, size ? &n : NULL,
                                 MMPI_CALL_Pack_external_size);
    if (err == MPI_SUCCESS)
        *size = (MPI_Aint)n;
    return err;
}

MMPI_PROFILED(Pack_external_size_c);
int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                              MPI_Count *size)
{
    return pack_external_size(datarep, incount, datatype, size, MMPI_CALL_Pack_external_size_c);
}
