/*
 * fortran/glue.h: what the Fortran bindings' C side shares (docs/fortran.md): the addresses
 * that stand for MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE and the other sentinels, and the
 * conversion of Fortran strings.
 *
 * The glue is linked into the program image (libmini_mpi_fortran.a, by bin/mpifort), not into
 * libmini_mpi.so: a sentinel is recognized by the address of a COMMON block of the program, and
 * each rank runs its own copy of the program image, so the glue must be in that copy to compare
 * with that rank's addresses.
 */
#ifndef MMPI_FORTRAN_GLUE_H
#define MMPI_FORTRAN_GLUE_H

#include <stddef.h>

#include <mpi.h>

/* MPI_STATUS_SIZE: a C MPI_Status is this many Fortran integers (the same bytes). */
#define MMPI_F_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))

/* The COMMON blocks of mpif.h (gfortran's spelling: lower case and an underscore), defined by
 * the generated glue. */
extern MPI_Fint mpi_fortran_bottom_, mpi_fortran_in_place_;
extern MPI_Fint mpi_fortran_status_ignore_[], mpi_fortran_statuses_ignore_[];
extern MPI_Fint mpi_fortran_errcodes_ignore_[], mpi_fortran_unweighted_[];
extern MPI_Fint mpi_fortran_weights_empty_[];
extern char mpi_fortran_argv_null_[], mpi_fortran_argvs_null_[];

/* A choice buffer: MPI_BOTTOM and MPI_IN_PLACE by address, any other address as it is. */
static inline void *mmpi_f_buf(const void *p)
{
    if (p == (const void *)&mpi_fortran_bottom_)
        return MPI_BOTTOM;
    if (p == (const void *)&mpi_fortran_in_place_)
        return MPI_IN_PLACE;
    return (void *)p;
}

/* A Fortran CHARACTER argument in: a NUL-terminated copy without trailing blanks (free it). */
char *mmpi_f_str_in(const char *s, size_t len);
/* The same without leading blanks either: info keys and values (MPI-4.1 §10.1: in Fortran,
 * leading and trailing blanks are stripped from both). */
char *mmpi_f_str_in_stripped(const char *s, size_t len);
/* A buffer for a string the C call writes, large enough for any MPI string (free it). */
char *mmpi_f_str_buf(size_t len);
/* Copies a C string into a Fortran CHARACTER of length len, padded with blanks. */
void mmpi_f_str_out(const char *c, char *f, size_t len);

/* Attribute values set from Fortran (glue/attr_cells.c): a new cell holding value; whether p
 * is a cell (then *value is its value); the end of a cell (p may be any pointer). */
void *mmpi_f_attr_cell(MPI_Aint value);
int mmpi_f_attr_read(const void *p, MPI_Aint *value);
void mmpi_f_attr_drop(void *p);

#endif
