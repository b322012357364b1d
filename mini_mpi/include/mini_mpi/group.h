/*
 * mini_mpi/group.h: included by mpi.h; the group constants (MPI-4.1 §7.3) and
 * MPI_Comm_remote_group (§7.6.1). MPI_GROUP_NULL, MPI_GROUP_EMPTY and the comparison results
 * (MPI_IDENT, MPI_SIMILAR, MPI_UNEQUAL) are in mpi.h itself. Implementation: mini_mpi/group/.
 */
#ifndef MINI_MPI_GROUP_H
#define MINI_MPI_GROUP_H

#ifdef __cplusplus
extern "C" {
#endif

/* §7.3.1 group accessors */
/* §7.3.2 group constructors */
/* §7.3.3 group destructor */
/* §7.6.1 intercommunicator accessors */

#ifdef __cplusplus
}
#endif

#endif
