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
/* attributes (§7.7.3) */
/* error handlers (§9.3.2) */
/* §12.3 communication calls */
/* §12.5 synchronization */

#ifdef __cplusplus
}
#endif

#endif
