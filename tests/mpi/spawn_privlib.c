/* spawn_privlib.c: spawning another program that keeps rank state in a shared library of its
 * own (privlib_spawned, linked with libcounter.so; this program is not): each child counts
 * from 0 in its own copy of the library, in the first spawn and in a second one, although
 * every child increments the library's count. Without per-rank copies the children of one
 * spawn would see 1, 2, 3 and the second spawn 4, 5, 6. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, errs = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char child[4096];
    snprintf(child, sizeof child, "%s", argv[0]);
    char *slash = strrchr(child, '/');
    snprintf(slash ? slash + 1 : child, sizeof child - (size_t)(slash ? slash + 1 - child : 0),
             "privlib_spawned");
    for (int round = 0; round < 2; round++) {
        MPI_Comm inter;
        int codes[3];
        if (MPI_Comm_spawn(child, MPI_ARGV_NULL, 3, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                           codes) != MPI_SUCCESS) {
            printf("spawn %d failed\n", round);
            errs++;
            break;
        }
        if (rank == 0)
            for (int i = 0; i < 3; i++) {
                int more = 0;
                MPI_Recv(&more, 1, MPI_INT, i, 0, inter, MPI_STATUS_IGNORE);
                errs += more;
            }
        MPI_Comm_disconnect(&inter);
    }
    int total = 0;
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
