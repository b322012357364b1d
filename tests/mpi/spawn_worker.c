/* spawn_worker.c: the program spawn_other spawns (a different executable from the parent's).
 * It answers its parent 0 with (2 * what it received, its world size, its MPI_APPNUM). Run on
 * its own (no parent) it says so and fails. */
#include <stdio.h>

#include "spawn_answer.h"

int main(int argc, char **argv)
{
    MPI_Comm parent;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        fprintf(stderr, "spawn_worker: not spawned\n");
        MPI_Finalize();
        return 1;
    }
    return spawn_answer(parent);
}
