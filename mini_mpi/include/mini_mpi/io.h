/*
 * mini_mpi/io.h: included by mpi.h; the I/O chapter (MPI-4.1 chapter 14): file manipulation,
 * views, data access with explicit offsets, individual and shared file pointers, split
 * collectives, nonblocking access, data representations, file error handlers. Constants take
 * MPICH's values.
 */
#ifndef MINI_MPI_IO_H
#define MINI_MPI_IO_H

#ifdef __cplusplus
extern "C" {
#endif

/* Access modes (§14.2.1): bits, combined with |. */
#define MPI_MODE_CREATE 1
#define MPI_MODE_RDONLY 2
#define MPI_MODE_WRONLY 4
#define MPI_MODE_RDWR 8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_EXCL 64
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256

/* Seek whence (§14.4.3). */
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604

#define MPI_DISPLACEMENT_CURRENT ((MPI_Offset)-54278278)

typedef void MPI_File_errhandler_function(MPI_File *file, int *errcode, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef int MPI_Datarep_conversion_function(void *userbuf, MPI_Datatype datatype, int count,
                                            void *filebuf, MPI_Offset position,
                                            void *extra_state);
/* The large-count form, for MPI_Register_datarep_c (MPI-4.1 §14.5.3). */
typedef int MPI_Datarep_conversion_function_c(void *userbuf, MPI_Datatype datatype,
                                              MPI_Count count, void *filebuf,
                                              MPI_Offset position, void *extra_state);
typedef int MPI_Datarep_extent_function(MPI_Datatype datatype, MPI_Aint *file_extent,
                                        void *extra_state);
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)
#define MPI_CONVERSION_FN_NULL_C ((MPI_Datarep_conversion_function_c *)0)

#ifdef __cplusplus
}
#endif

#endif
