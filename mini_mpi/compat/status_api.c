/*
 * compat/status_api.c: the status conversions between C, Fortran (mpif.h and the mpi module:
 * an INTEGER array of MPI_STATUS_SIZE) and Fortran 2008 (TYPE(MPI_Status)), MPI-4.1 §19.3.5:
 * MPI_Status_c2f, _f2c, _c2f08, _f082c, _f2f08 and _f082f. The three forms hold the same six
 * integers in the same order (the asserts below), so each conversion copies them, the hidden
 * fields (count, cancelled) included. The ignore sentinels of either side (MPI_STATUS_IGNORE,
 * MPI_F_STATUS_IGNORE, MPI_F08_STATUS_IGNORE) and NULL are not statuses: MPI_ERR_ARG, raised on
 * no object (MPI_COMM_SELF's handler, else MPI_COMM_WORLD's).
 */
#include <stddef.h>
#include <string.h>

#include "compat/compat.h"

_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
               "a Fortran status holds the bytes of a C MPI_Status");
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "TYPE(MPI_Status) is a C status");
_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
                   offsetof(MPI_Status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
                   offsetof(MPI_Status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint),
               "MPI_F_SOURCE, MPI_F_TAG and MPI_F_ERROR index the Fortran status");
_Static_assert(offsetof(MPI_F08_status, MPI_SOURCE) == offsetof(MPI_Status, MPI_SOURCE) &&
                   offsetof(MPI_F08_status, MPI_TAG) == offsetof(MPI_Status, MPI_TAG) &&
                   offsetof(MPI_F08_status, MPI_ERROR) == offsetof(MPI_Status, MPI_ERROR),
               "TYPE(MPI_Status) has the fields of MPI_Status where MPI_Status has them");

/* A status argument, in or out: not NULL and no ignore sentinel (they are all 1). */
static bool is_status(const void *p)
{
    return p && p != (const void *)MPI_STATUS_IGNORE;
}

/* The six conversions: one check, one copy. */
static int convert(const void *in, void *out, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!is_status(in) || !is_status(out), MPI_ERR_ARG);
    memmove(out, in, sizeof(MPI_Status));
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Status_c2f);
int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    return convert(c_status, f_status, MMPI_CALL_Status_c2f);
}

MMPI_PROFILED(Status_f2c);
int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    return convert(f_status, c_status, MMPI_CALL_Status_f2c);
}

MMPI_PROFILED(Status_c2f08);
int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    return convert(c_status, f08_status, MMPI_CALL_Status_c2f08);
}

MMPI_PROFILED(Status_f082c);
int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    return convert(f08_status, c_status, MMPI_CALL_Status_f082c);
}

MMPI_PROFILED(Status_f2f08);
int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    return convert(f_status, f08_status, MMPI_CALL_Status_f2f08);
}

MMPI_PROFILED(Status_f082f);
int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    return convert(f08_status, f_status, MMPI_CALL_Status_f082f);
}
