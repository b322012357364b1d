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
typedef int MPI_Datarep_extent_function(MPI_Datatype datatype, MPI_Aint *file_extent,
                                        void *extra_state);
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)

/* ---- File manipulation (§14.2) ------------------------------------------------------- */
MMPI_API(int, File_open, (MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh));
MMPI_API(int, File_close, (MPI_File * fh));
MMPI_API(int, File_delete, (const char *filename, MPI_Info info));
MMPI_API(int, File_set_size, (MPI_File fh, MPI_Offset size));
MMPI_API(int, File_preallocate, (MPI_File fh, MPI_Offset size));
MMPI_API(int, File_get_size, (MPI_File fh, MPI_Offset *size));
MMPI_API(int, File_get_group, (MPI_File fh, MPI_Group *group));
MMPI_API(int, File_get_amode, (MPI_File fh, int *amode));
MMPI_API(int, File_set_info, (MPI_File fh, MPI_Info info));
MMPI_API(int, File_get_info, (MPI_File fh, MPI_Info *info_used));

/* ---- Views (§14.3) ------------------------------------------------------------------- */
MMPI_API(int, File_set_view, (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep, MPI_Info info));
MMPI_API(int, File_get_view, (MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep));

/* ---- Data access (§14.4) ------------------------------------------------------------- */
MMPI_API(int, File_read_at, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_read_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write_at_all, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_iread_at, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iwrite_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iread_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iwrite_at_all, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_read, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_read_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_iread, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iwrite, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iread_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iwrite_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_seek, (MPI_File fh, MPI_Offset offset, int whence));
MMPI_API(int, File_get_position, (MPI_File fh, MPI_Offset *offset));
MMPI_API(int, File_get_byte_offset, (MPI_File fh, MPI_Offset offset, MPI_Offset *disp));
MMPI_API(int, File_read_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_iread_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iwrite_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_read_ordered, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write_ordered, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_seek_shared, (MPI_File fh, MPI_Offset offset, int whence));
MMPI_API(int, File_get_position_shared, (MPI_File fh, MPI_Offset *offset));
MMPI_API(int, File_read_at_all_begin, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype));
MMPI_API(int, File_read_at_all_end, (MPI_File fh, void *buf, MPI_Status *status));
MMPI_API(int, File_write_at_all_begin, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype));
MMPI_API(int, File_write_at_all_end, (MPI_File fh, const void *buf, MPI_Status *status));
MMPI_API(int, File_read_all_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype));
MMPI_API(int, File_read_all_end, (MPI_File fh, void *buf, MPI_Status *status));
MMPI_API(int, File_write_all_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype));
MMPI_API(int, File_write_all_end, (MPI_File fh, const void *buf, MPI_Status *status));
MMPI_API(int, File_read_ordered_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype));
MMPI_API(int, File_read_ordered_end, (MPI_File fh, void *buf, MPI_Status *status));
MMPI_API(int, File_write_ordered_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype));
MMPI_API(int, File_write_ordered_end, (MPI_File fh, const void *buf, MPI_Status *status));

/* ---- File interoperability and consistency (§14.5, §14.6) ---------------------------- */
MMPI_API(int, File_get_type_extent, (MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent));
MMPI_API(int, Register_datarep, (const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn, MPI_Datarep_conversion_function *write_conversion_fn, MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state));
MMPI_API(int, File_set_atomicity, (MPI_File fh, int flag));
MMPI_API(int, File_get_atomicity, (MPI_File fh, int *flag));
MMPI_API(int, File_sync, (MPI_File fh));

/* ---- File error handlers (§9.3.4) ---------------------------------------------------- */
MMPI_API(int, File_create_errhandler, (MPI_File_errhandler_function * file_errhandler_fn, MPI_Errhandler *errhandler));
MMPI_API(int, File_set_errhandler, (MPI_File file, MPI_Errhandler errhandler));
MMPI_API(int, File_get_errhandler, (MPI_File file, MPI_Errhandler *errhandler));
MMPI_API(int, File_call_errhandler, (MPI_File fh, int errorcode));

/* ---- Large-count forms (MPI-4.1 §14.4: MPI_Count counts) --------------------------------- */
MMPI_API(int, File_read_at_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_read_at_all_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write_at_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write_at_all_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_iread_at_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iwrite_at_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iread_at_all_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iwrite_at_all_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_read_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_read_all_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write_all_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_iread_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iwrite_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iread_all_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iwrite_all_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_read_shared_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write_shared_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_iread_shared_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_iwrite_shared_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
MMPI_API(int, File_read_ordered_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_write_ordered_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
MMPI_API(int, File_read_at_all_begin_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype));
MMPI_API(int, File_write_at_all_begin_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype));
MMPI_API(int, File_read_all_begin_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype));
MMPI_API(int, File_write_all_begin_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype));
MMPI_API(int, File_read_ordered_begin_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype));
MMPI_API(int, File_write_ordered_begin_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype));
MMPI_API(int, File_get_type_extent_c, (MPI_File fh, MPI_Datatype datatype, MPI_Count *extent));

/* ---- Handle conversion ------------------------------------------------------------- */
MMPI_API(MPI_Fint, File_c2f, (MPI_File file));
MMPI_API(MPI_File, File_f2c, (MPI_Fint file));

#ifdef __cplusplus
}
#endif

#endif
