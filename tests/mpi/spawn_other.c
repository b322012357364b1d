/* spawn_other.c: spawning another executable linked by mpicc (spawn_worker, built next to this
 * program), alone with MPI_Comm_spawn and mixed with this program in MPI_Comm_spawn_multiple.
 * Each child answers world rank 0 with 2 * the value it got, its world size and MPI_APPNUM. */
#include <string.h>

#include "mtest.h"
#include "spawn_answer.h"

static void ask(MPI_Comm inter, int child, int v, int size, int appnum)
{
    int out[3] = {-1, -1, -1};
    CHECK(MPI_Send(&v, 1, MPI_INT, child, 0, inter) == MPI_SUCCESS);
    CHECK(MPI_Recv(out, 3, MPI_INT, child, 0, inter, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(out[0] == 2 * v && out[1] == size && out[2] == appnum);
}

int main(int argc, char **argv)
{
    MPI_Comm parent, inter;
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) /* this program as the second command: act as a worker */
        return spawn_answer(parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char worker[4096];
    snprintf(worker, sizeof worker, "%s", argv[0]);
    char *slash = strrchr(worker, '/');
    snprintf(slash ? slash + 1 : worker, sizeof worker - (size_t)(slash ? slash + 1 - worker : 0),
             "spawn_worker");

    CHECK(MPI_Comm_spawn(worker, MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                         MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
    if (rank == 0) {
        ask(inter, 0, 5, 2, 0);
        ask(inter, 1, 6, 2, 0);
    }
    MPI_Comm_free(&inter);

    char *cmds[2] = {worker, argv[0]};
    int np[2] = {1, 2};
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    CHECK(MPI_Comm_spawn_multiple(2, cmds, MPI_ARGVS_NULL, np, infos, 0, MPI_COMM_WORLD, &inter,
                                  MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
    if (rank == 0) {
        ask(inter, 0, 7, 3, 0);
        ask(inter, 1, 8, 3, 1);
        ask(inter, 2, 9, 3, 1);
    }
    MPI_Comm_free(&inter);
    return mtest_finish();
}
