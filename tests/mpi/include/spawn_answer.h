/* spawn_answer.h: what a child spawned by spawn_other does: receive a value from parent 0 and
 * answer (2 * value, its world size, its MPI_APPNUM), then free the parent and finalize. */
#ifndef SPAWN_ANSWER_H
#define SPAWN_ANSWER_H

#include <mpi.h>

static inline int spawn_answer(MPI_Comm parent)
{
    int v = 0, *appnum, flag = 0, out[3];
    MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
    out[0] = 2 * v;
    MPI_Comm_size(MPI_COMM_WORLD, &out[1]);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
    out[2] = flag ? *appnum : -1;
    MPI_Send(out, 3, MPI_INT, 0, 0, parent);
    MPI_Comm_free(&parent);
    MPI_Finalize();
    return 0;
}

#endif
