/*
 * mini_mpi/group.h: included by mpi.h; the group prototypes (MPI-4.1 §7.3) and
 * MPI_Comm_remote_group (§7.6.1). MPI_GROUP_NULL, MPI_GROUP_EMPTY and the comparison results
 * (MPI_IDENT, MPI_SIMILAR, MPI_UNEQUAL) are in mpi.h itself. Implementation: mini_mpi/group/.
 */
#ifndef MINI_MPI_GROUP_H
#define MINI_MPI_GROUP_H

#ifdef __cplusplus
extern "C" {
#endif

/* §7.3.1 group accessors */
MMPI_API(int, Group_size, (MPI_Group group, int *size));
MMPI_API(int, Group_rank, (MPI_Group group, int *rank));
MMPI_API(int, Group_translate_ranks,
         (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]));
MMPI_API(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result));
/* §7.3.2 group constructors */
MMPI_API(int, Comm_group, (MPI_Comm comm, MPI_Group *group));
MMPI_API(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup));
MMPI_API(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup));
MMPI_API(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup));
MMPI_API(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup));
MMPI_API(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup));
MMPI_API(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup));
MMPI_API(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup));
/* §7.3.3 group destructor */
MMPI_API(int, Group_free, (MPI_Group * group));
/* §7.6.1 intercommunicator accessors */
MMPI_API(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group));

#ifdef __cplusplus
}
#endif

#endif
