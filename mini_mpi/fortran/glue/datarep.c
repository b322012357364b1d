/*
 * fortran/glue/datarep.c: MPI_REGISTER_DATAREP and its large form from Fortran (MPI-4.1
 * §14.5.3). The conversion and extent functions written in Fortran take every argument by
 * reference and return their error in IERROR, where C passes the datatype, count and position
 * by value and takes the error as the result: C is given trampolines, with the Fortran
 * functions and the program's EXTRA_STATE value in a record that is their extra_state. The
 * record lives as long as the registration (until the program ends); the functions receive the
 * address of its copy of EXTRA_STATE, as MPICH's and Open MPI's bindings pass theirs.
 *
 * userbuf and filebuf go to Fortran as addresses: by reference to a USERBUF(*) of mpif.h and
 * `use mpi`, by value to mpi_f08's TYPE(C_PTR), VALUE, the same thing to the machine.
 * MPI_CONVERSION_FN_NULL and MPI_CONVERSION_FN_NULL_C are procedures of the glue, recognized by
 * address.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "fortran/glue.h"

typedef void fconv(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
                   MPI_Offset *position, MPI_Aint *extra_state, MPI_Fint *ierror);
typedef void fconv_c(void *userbuf, MPI_Fint *datatype, MPI_Count *count, void *filebuf,
                     MPI_Offset *position, MPI_Aint *extra_state, MPI_Fint *ierror);
typedef void fextent(MPI_Fint *datatype, MPI_Aint *extent, MPI_Aint *extra_state, MPI_Fint *ierror);

struct fdatarep {
    fconv *read, *write;
    fconv_c *read_c, *write_c;
    fextent *extent;
    MPI_Aint extra_state;
};

/* MPI_CONVERSION_FN_NULL(_C) in Fortran: never called (the glue passes C's NULL instead). */
void mpi_conversion_fn_null_(void);
void mpi_conversion_fn_null_c_(void);
void mpi_conversion_fn_null_(void) {}
void mpi_conversion_fn_null_c_(void) {}

static int convert(fconv *fn, void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                   MPI_Offset position, struct fdatarep *d)
{
    MPI_Fint t = PMPI_Type_c2f(datatype), n = count, ierr = MPI_SUCCESS;
    fn(userbuf, &t, &n, filebuf, &position, &d->extra_state, &ierr);
    return ierr;
}

static int convert_c(fconv_c *fn, void *userbuf, MPI_Datatype datatype, MPI_Count count,
                     void *filebuf, MPI_Offset position, struct fdatarep *d)
{
    MPI_Fint t = PMPI_Type_c2f(datatype), ierr = MPI_SUCCESS;
    fn(userbuf, &t, &count, filebuf, &position, &d->extra_state, &ierr);
    return ierr;
}

static int read_fn(void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                   MPI_Offset position, void *extra_state)
{
    struct fdatarep *d = extra_state;
    return convert(d->read, userbuf, datatype, count, filebuf, position, d);
}

static int write_fn(void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                    MPI_Offset position, void *extra_state)
{
    struct fdatarep *d = extra_state;
    return convert(d->write, userbuf, datatype, count, filebuf, position, d);
}

static int read_fn_c(void *userbuf, MPI_Datatype datatype, MPI_Count count, void *filebuf,
                     MPI_Offset position, void *extra_state)
{
    struct fdatarep *d = extra_state;
    return convert_c(d->read_c, userbuf, datatype, count, filebuf, position, d);
}

static int write_fn_c(void *userbuf, MPI_Datatype datatype, MPI_Count count, void *filebuf,
                      MPI_Offset position, void *extra_state)
{
    struct fdatarep *d = extra_state;
    return convert_c(d->write_c, userbuf, datatype, count, filebuf, position, d);
}

static int extent_fn(MPI_Datatype datatype, MPI_Aint *file_extent, void *extra_state)
{
    struct fdatarep *d = extra_state;
    MPI_Fint t = PMPI_Type_c2f(datatype), ierr = MPI_SUCCESS;
    d->extent(&t, file_extent, &d->extra_state, &ierr);
    return ierr;
}

/* Either Fortran name of the null conversion, in either form. */
static bool is_null(const void *fn)
{
    return fn == NULL || fn == (const void *)mpi_conversion_fn_null_ ||
           fn == (const void *)mpi_conversion_fn_null_c_;
}

/* The record, or NULL (then *ierror says why). */
static struct fdatarep *record(fextent *extent, const MPI_Aint *extra_state, MPI_Fint *ierror)
{
    struct fdatarep *d = calloc(1, sizeof *d);
    if (!d) {
        PMPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_NO_MEM);
        *ierror = MPI_ERR_NO_MEM;
        return NULL;
    }
    d->extent = extent;
    d->extra_state = *extra_state;
    return d;
}

void pmpi_register_datarep_(const char *datarep, fconv *read, fconv *write, fextent *extent,
                            const MPI_Aint *extra_state, MPI_Fint *ierror, size_t datarep_len);
void pmpi_register_datarep_(const char *datarep, fconv *read, fconv *write, fextent *extent,
                            const MPI_Aint *extra_state, MPI_Fint *ierror, size_t datarep_len)
{
    struct fdatarep *d = record(extent, extra_state, ierror);
    if (!d)
        return;
    d->read = is_null(read) ? NULL : read;
    d->write = is_null(write) ? NULL : write;
    char *name = mmpi_f_str_in(datarep, datarep_len);
    int rc = PMPI_Register_datarep(name, d->read ? read_fn : MPI_CONVERSION_FN_NULL,
                                   d->write ? write_fn : MPI_CONVERSION_FN_NULL, extent_fn, d);
    free(name);
    if (rc != MPI_SUCCESS)
        free(d);
    *ierror = rc;
}
#pragma weak mpi_register_datarep_ = pmpi_register_datarep_

void pmpi_register_datarep_c_(const char *datarep, fconv_c *read, fconv_c *write, fextent *extent,
                              const MPI_Aint *extra_state, MPI_Fint *ierror, size_t datarep_len);
void pmpi_register_datarep_c_(const char *datarep, fconv_c *read, fconv_c *write, fextent *extent,
                              const MPI_Aint *extra_state, MPI_Fint *ierror, size_t datarep_len)
{
    struct fdatarep *d = record(extent, extra_state, ierror);
    if (!d)
        return;
    d->read_c = is_null(read) ? NULL : read;
    d->write_c = is_null(write) ? NULL : write;
    char *name = mmpi_f_str_in(datarep, datarep_len);
    int rc = PMPI_Register_datarep_c(name, d->read_c ? read_fn_c : MPI_CONVERSION_FN_NULL_C,
                                     d->write_c ? write_fn_c : MPI_CONVERSION_FN_NULL_C, extent_fn,
                                     d);
    free(name);
    if (rc != MPI_SUCCESS)
        free(d);
    *ierror = rc;
}
#pragma weak mpi_register_datarep_c_ = pmpi_register_datarep_c_
