/*
 * mini_mpi/attr.h: included by mpi.h; attribute caching (MPI-4.1 §7.7) on communicators and
 * datatypes, the predefined attribute keys of MPI_COMM_WORLD (§11.1), and the deprecated MPI-1
 * names (MPI_Keyval_create, MPI_Attr_put, ...) that many codes still use. MPI_KEYVAL_INVALID is
 * in mpi.h itself. Implementation: mini_mpi/attr/.
 *
 * Keyvals are handles like the others (valid bit, kind, index; see mpi.h); the predefined keys
 * are predefined handles of that kind. Open MPI spells its fault-tolerance key MPI_FT here and
 * MPIX_FT in mpi-ext.h; both name the same key.
 */
#ifndef MINI_MPI_ATTR_H
#define MINI_MPI_ATTR_H

#ifdef __cplusplus
extern "C" {
#endif

#define MMPI_HANDLE_KIND_KEYVAL 0x0f
#define MMPI_KEYVAL(index) ((int)MMPI_PREDEFINED(MMPI_HANDLE_KIND_KEYVAL, index))

/* Predefined attribute keys, cached on MPI_COMM_WORLD (§11.1.1-11.1.3, §9.5). */
#define MPI_TAG_UB MMPI_KEYVAL(0)
#define MPI_HOST MMPI_KEYVAL(1)
#define MPI_IO MMPI_KEYVAL(2)
#define MPI_WTIME_IS_GLOBAL MMPI_KEYVAL(3)
#define MPI_APPNUM MMPI_KEYVAL(4)
#define MPI_LASTUSEDCODE MMPI_KEYVAL(5)
#define MPI_UNIVERSE_SIZE MMPI_KEYVAL(6)
#define MPI_FT MMPI_KEYVAL(7) /* Open MPI: true when fault tolerance is on */

/* Callback types (§7.7.2, §7.7.4; MPI-1 §5.7). The handle types are all int, so the
 * communicator and datatype forms have the same shape. */
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval,
                                          void *attribute_val, void *extra_state);
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                              void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val,
                                void *extra_state);

/* Predefined callbacks. Real functions (as in Open MPI), so that a program's own callback may
 * call them. */
MMPI_EXPORT MPI_Comm_copy_attr_function MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN;
MMPI_EXPORT MPI_Comm_delete_attr_function MPI_COMM_NULL_DELETE_FN;
MMPI_EXPORT MPI_Type_copy_attr_function MPI_TYPE_NULL_COPY_FN, MPI_TYPE_DUP_FN;
MMPI_EXPORT MPI_Type_delete_attr_function MPI_TYPE_NULL_DELETE_FN;
MMPI_EXPORT MPI_Copy_function MPI_NULL_COPY_FN, MPI_DUP_FN;
MMPI_EXPORT MPI_Delete_function MPI_NULL_DELETE_FN;

/* §7.7.2 communicators */
/* §7.7.4 datatypes */
/* Deprecated MPI-1 names (removed from the standard in MPI-4.0; MPICH and Open MPI keep them). */

#ifdef __cplusplus
}
#endif

#endif
