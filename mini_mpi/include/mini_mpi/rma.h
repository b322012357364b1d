/*
 * mini_mpi/rma.h: included by mpi.h; one-sided communication (MPI-4.1 chapter 12): window
 * creation and its attributes, keyvals and error handlers, data movement, synchronization
 * (MPI_Aint_add/diff are in datatype.h). Values of the constants follow MPICH. Implementation:
 * mini_mpi/osc/.
 */
#ifndef MINI_MPI_RMA_H
#define MINI_MPI_RMA_H

#ifdef __cplusplus
extern "C" {
#endif

/* Predefined window attribute keys (§12.2.6), keyval handles like MPI_TAG_UB (attr.h). */
#define MPI_WIN_BASE MMPI_KEYVAL(8)
#define MPI_WIN_SIZE MMPI_KEYVAL(9)
#define MPI_WIN_DISP_UNIT MMPI_KEYVAL(10)
#define MPI_WIN_CREATE_FLAVOR MMPI_KEYVAL(11)
#define MPI_WIN_MODEL MMPI_KEYVAL(12)

/* Window flavours and memory models (§12.2.6, §12.4). */
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2

/* Lock types and assertions (§12.5.3, §12.5.5). */
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

/* Callback types (§12.2.7 via §7.7.3, §9.3.2). */
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out,
                                       int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val,
                                         void *extra_state);
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *errcode, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;

MMPI_EXPORT MPI_Win_copy_attr_function MPI_WIN_NULL_COPY_FN, MPI_WIN_DUP_FN;
MMPI_EXPORT MPI_Win_delete_attr_function MPI_WIN_NULL_DELETE_FN;

/* §12.2 window creation */
MMPI_API(int, Win_create,
         (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win));
MMPI_API(int, Win_allocate,
         (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
          MPI_Win *win));
MMPI_API(int, Win_allocate_shared,
         (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
          MPI_Win *win));
MMPI_API(int, Win_shared_query,
         (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr));
MMPI_API(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win));
MMPI_API(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size));
MMPI_API(int, Win_detach, (MPI_Win win, const void *base));
MMPI_API(int, Win_free, (MPI_Win * win));
MMPI_API(int, Win_get_group, (MPI_Win win, MPI_Group *group));
MMPI_API(int, Win_set_info, (MPI_Win win, MPI_Info info));
MMPI_API(int, Win_get_info, (MPI_Win win, MPI_Info *info_used));
MMPI_API(int, Win_set_name, (MPI_Win win, const char *win_name));
MMPI_API(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen));
/* attributes (§7.7.3) */
MMPI_API(int, Win_create_keyval,
         (MPI_Win_copy_attr_function * win_copy_attr_fn,
          MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
          void *extra_state));
MMPI_API(int, Win_free_keyval, (int *win_keyval));
MMPI_API(int, Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val));
MMPI_API(int, Win_get_attr, (MPI_Win win, int win_keyval, void *attribute_val, int *flag));
MMPI_API(int, Win_delete_attr, (MPI_Win win, int win_keyval));
/* error handlers (§9.3.2) */
MMPI_API(int, Win_create_errhandler,
         (MPI_Win_errhandler_function * win_errhandler_fn, MPI_Errhandler *errhandler));
MMPI_API(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler));
MMPI_API(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler));
MMPI_API(int, Win_call_errhandler, (MPI_Win win, int errorcode));
/* §12.3 communication calls */
MMPI_API(int, Put,
         (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
          int target_rank, MPI_Aint target_disp, int target_count,
          MPI_Datatype target_datatype, MPI_Win win));
MMPI_API(int, Get,
         (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
          MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win));
MMPI_API(int, Accumulate,
         (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
          int target_rank, MPI_Aint target_disp, int target_count,
          MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
MMPI_API(int, Get_accumulate,
         (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
          void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
          MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
          MPI_Win win));
MMPI_API(int, Fetch_and_op,
         (const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
          MPI_Aint target_disp, MPI_Op op, MPI_Win win));
MMPI_API(int, Compare_and_swap,
         (const void *origin_addr, const void *compare_addr, void *result_addr,
          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win));
MMPI_API(int, Rput,
         (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
          int target_rank, MPI_Aint target_disp, int target_count,
          MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
MMPI_API(int, Rget,
         (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
          MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
          MPI_Request *request));
MMPI_API(int, Raccumulate,
         (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
          int target_rank, MPI_Aint target_disp, int target_count,
          MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request));
MMPI_API(int, Rget_accumulate,
         (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
          void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
          MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
          MPI_Win win, MPI_Request *request));
/* §12.5 synchronization */
MMPI_API(int, Win_fence, (int assert, MPI_Win win));
MMPI_API(int, Win_start, (MPI_Group group, int assert, MPI_Win win));
MMPI_API(int, Win_complete, (MPI_Win win));
MMPI_API(int, Win_post, (MPI_Group group, int assert, MPI_Win win));
MMPI_API(int, Win_wait, (MPI_Win win));
MMPI_API(int, Win_test, (MPI_Win win, int *flag));
MMPI_API(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win));
MMPI_API(int, Win_lock_all, (int assert, MPI_Win win));
MMPI_API(int, Win_unlock, (int rank, MPI_Win win));
MMPI_API(int, Win_unlock_all, (MPI_Win win));
MMPI_API(int, Win_flush, (int rank, MPI_Win win));
MMPI_API(int, Win_flush_all, (MPI_Win win));
MMPI_API(int, Win_flush_local, (int rank, MPI_Win win));
MMPI_API(int, Win_flush_local_all, (MPI_Win win));
MMPI_API(int, Win_sync, (MPI_Win win));

#ifdef __cplusplus
}
#endif

#endif
