/*
 * mini_mpi/op.h: included by mpi.h; reduction operations (MPI-4.1 §6.9): the predefined
 * operation handles, the user function type, and MPI_Op_create, MPI_Op_free,
 * MPI_Op_commutative and MPI_Reduce_local.
 *
 * Predefined operations are constant handles (see the handle layout in mpi.h); their indices
 * are part of the library's ABI only, never of the program's: compare against the names.
 * MPI_REPLACE and MPI_NO_OP are meant for the RMA accumulate calls (§12.3.4); the collectives
 * reject them with MPI_ERR_OP.
 */
#ifndef MINI_MPI_OP_H
#define MINI_MPI_OP_H

#ifdef __cplusplus
extern "C" {
#endif

#define MMPI_OP(index) ((MPI_Op)MMPI_PREDEFINED(MMPI_HANDLE_KIND_OP, index))

#define MPI_MAX MMPI_OP(1)
#define MPI_MIN MMPI_OP(2)
#define MPI_SUM MMPI_OP(3)
#define MPI_PROD MMPI_OP(4)
#define MPI_LAND MMPI_OP(5)
#define MPI_BAND MMPI_OP(6)
#define MPI_LOR MMPI_OP(7)
#define MPI_BOR MMPI_OP(8)
#define MPI_LXOR MMPI_OP(9)
#define MPI_BXOR MMPI_OP(10)
#define MPI_MINLOC MMPI_OP(11)
#define MPI_MAXLOC MMPI_OP(12)
#define MPI_REPLACE MMPI_OP(13)
#define MPI_NO_OP MMPI_OP(14)
#define MMPI_OP_PREDEFINED_COUNT 15 /* indices 1..14; 0 is unused */

/* MPI-4.1 §6.9.5: inoutvec[i] = invec[i] op inoutvec[i] for i < *len. */
typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
/* The large-count form, for MPI_Op_create_c (MPI-4.1 §6.9.5). */
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len,
                                 MPI_Datatype *datatype);

#ifdef __cplusplus
}
#endif

#endif
