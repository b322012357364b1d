/*
 * ioft_open_dead.c: MPI_File_open on a communicator with a failed member. The rule checked
 * (fault-tolerance chapter, I/O): "If an MPI process failure prevents a file operation from
 * completing, an MPI exception of class MPI_ERR_PROC_FAILED is raised." The open is collective
 * over the communicator: with rank 1 dead (MINI_MPI_FAULTS=kill 1 at MPI_File_open) it raises
 * MPI_ERR_PROC_FAILED at every live member, returns MPI_FILE_NULL and creates nothing.
 */
#include "ioft.h"

int main(int argc, char **argv)
{
    char name[256];
    MPI_File fh = 12345;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ioft_name(name, sizeof name, "ioft_open_dead");
    unlink(name);
    int err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE,
                            MPI_INFO_NULL, &fh);
    CHECK(ioft_class(err) == MPI_ERR_PROC_FAILED);
    CHECK(fh == MPI_FILE_NULL);
    /* Every survivor has returned before anyone looks: nothing was created. */
    MPI_Comm alive;
    MPIX_Comm_shrink(MPI_COMM_WORLD, &alive);
    MPI_Barrier(alive);
    CHECK(access(name, F_OK) != 0);
    MPI_Barrier(alive);
    MPI_Comm_free(&alive);
    return ioft_finish();
}
