/*
 * pack_api.c: MPI entry points of MPI-4.1 §5.2 (MPI_Pack, MPI_Unpack, MPI_Pack_size) and §5.3
 * (the "external32" forms). Bindings only: the data moves through cursor.c, and external32
 * converts through external32.c. Our packed form has no header: MPI_Pack_size is exact.
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

MMPI_PROFILED(Pack);
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Pack);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_datatype *dt = NULL;
    size_t bytes = 0;
    int err = MPI_SUCCESS;

    if (!c) {
        err = MPI_ERR_COMM;
        goto fn_fail;
    }
    if (incount < 0) {
        err = MPI_ERR_COUNT;
        goto fn_fail;
    }
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    if (!position) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    if ((err = fits((size_t)incount, dt->size, *position, outsize, &bytes)))
        goto fn_fail;
    if (bytes > 0 && !outbuf) {
        err = MPI_ERR_BUFFER;
        goto fn_fail;
    }
    mmpi_datatype_pack(dt, inbuf, (size_t)incount, 0, (char *)outbuf + *position, bytes);
    *position += (int)bytes;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Pack);
    goto fn_exit;
}

MMPI_PROFILED(Unpack);
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Unpack);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_datatype *dt = NULL;
    size_t bytes = 0;
    int err = MPI_SUCCESS;

    if (!c) {
        err = MPI_ERR_COMM;
        goto fn_fail;
    }
    if (outcount < 0) {
        err = MPI_ERR_COUNT;
        goto fn_fail;
    }
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    if (!position) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    if ((err = fits((size_t)outcount, dt->size, *position, insize, &bytes)))
        goto fn_fail;
    if (bytes > 0 && !inbuf) {
        err = MPI_ERR_BUFFER;
        goto fn_fail;
    }
    mmpi_datatype_unpack(dt, outbuf, (size_t)outcount, 0, (const char *)inbuf + *position,
                         bytes);
    *position += (int)bytes;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Unpack);
    goto fn_exit;
}

MMPI_PROFILED(Pack_size);
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Pack_size);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_datatype *dt = NULL;
    size_t bytes = 0;
    int err = MPI_SUCCESS;

    if (!c) {
        err = MPI_ERR_COMM;
        goto fn_fail;
    }
    if (incount < 0) {
        err = MPI_ERR_COUNT;
        goto fn_fail;
    }
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    if (!size) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    if (__builtin_mul_overflow((size_t)incount, dt->size, &bytes) || bytes > INT_MAX) {
        err = MPI_ERR_VALUE_TOO_LARGE;
        goto fn_fail;
    }
    *size = (int)bytes;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Pack_size);
    goto fn_exit;
}

/* MPI-4.1 §5.3: "external32" is the only representation. */
static bool bad_datarep(const char *datarep)
{
    return !datarep || strcmp(datarep, "external32") != 0;
}

MMPI_PROFILED(Pack_external);
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                       MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Pack_external);
    struct mmpi_datatype *dt = NULL;
    size_t bytes = 0;
    char *native = NULL;
    int err = MPI_SUCCESS;

    if (incount < 0) {
        err = MPI_ERR_COUNT;
        goto fn_fail;
    }
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    if (bad_datarep(datarep) || !position) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    if ((err = fits((size_t)incount, dt->ext_size, *position, outsize, &bytes)))
        goto fn_fail;
    if (bytes > 0 && !outbuf) {
        err = MPI_ERR_BUFFER;
        goto fn_fail;
    }
    /* Pack natively, then convert value by value in signature order. */
    if (!(native = malloc(incount * dt->size + 1))) {
        err = MPI_ERR_NO_MEM;
        goto fn_fail;
    }
    mmpi_datatype_pack(dt, inbuf, (size_t)incount, 0, native, incount * dt->size);
    /* MPI_ERR_CONVERSION: a value that does not fit its external32 size (external32.c). */
    if ((err = mmpi_dt_external32(dt, (size_t)incount, native, (char *)outbuf + *position,
                                  true)))
        goto fn_fail;
    *position += (MPI_Aint)bytes;
fn_exit:
    free(native);
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Pack_external);
    goto fn_exit;
}

MMPI_PROFILED(Unpack_external);
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Unpack_external);
    struct mmpi_datatype *dt = NULL;
    size_t bytes = 0;
    char *native = NULL;
    int err = MPI_SUCCESS;

    if (outcount < 0) {
        err = MPI_ERR_COUNT;
        goto fn_fail;
    }
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    if (bad_datarep(datarep) || !position) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    if ((err = fits((size_t)outcount, dt->ext_size, *position, insize, &bytes)))
        goto fn_fail;
    if (bytes > 0 && !inbuf) {
        err = MPI_ERR_BUFFER;
        goto fn_fail;
    }
    if (!(native = malloc(outcount * dt->size + 1))) {
        err = MPI_ERR_NO_MEM;
        goto fn_fail;
    }
    if ((err = mmpi_dt_external32(dt, (size_t)outcount, native, (char *)inbuf + *position,
                                  false)))
        goto fn_fail;
    mmpi_datatype_unpack(dt, outbuf, (size_t)outcount, 0, native, outcount * dt->size);
    *position += (MPI_Aint)bytes;
fn_exit:
    free(native);
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Unpack_external);
    goto fn_exit;
}

MMPI_PROFILED(Pack_external_size);
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                            MPI_Aint *size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Pack_external_size);
    struct mmpi_datatype *dt = NULL;
    int err = MPI_SUCCESS;

    if (incount < 0) {
        err = MPI_ERR_COUNT;
        goto fn_fail;
    }
    if ((err = mmpi_datatype_check(self, datatype, &dt)))
        goto fn_fail;
    if (bad_datarep(datarep) || !size) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    *size = (MPI_Aint)((size_t)incount * dt->ext_size);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Pack_external_size);
    goto fn_exit;
}
