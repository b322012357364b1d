/* spawn_multiple.c: MPI_Comm_spawn_multiple (MPI-4.1 §11.8.3). The parents spawn two commands
 * of the program itself, 2 and 1 processes, with different arguments (and once with
 * MPI_ARGVS_NULL). The 3 children share one MPI_COMM_WORLD, in command order; MPI_APPNUM is the
 * command's index; each child's argv is its command's. The children send (appnum, argv[1]) to
 * parent 0, which checks them; error counts come back the same way. */
#include <string.h>

#include "mtest.h"

static int child(int argc, char **argv, MPI_Comm parent)
{
    int *appnum, flag = 0, wsize = -1, wrank = -1, msg[3];
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag) == MPI_SUCCESS && flag);
    msg[0] = flag ? *appnum : -1;
    msg[1] = argc > 1 ? argv[1][0] : 0; /* 'x' for command 0, 'y' for command 1 */
    CHECK(wsize == 3);
    CHECK(msg[0] == (wrank < 2 ? 0 : 1)); /* command order */
    CHECK(argc == 1 || argc == (msg[0] == 0 ? 2 : 3));
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    msg[2] = mtest_errors;
    CHECK(MPI_Send(msg, 3, MPI_INT, 0, 1, parent) == MPI_SUCCESS);
    MPI_Comm_free(&parent);
    MPI_Finalize();
    return 0;
}

static void spawn_two(int rank, int size, char *self, char **argvs[])
{
    char *cmds[2] = {self, self};
    int np[2] = {2, 1}, codes[3] = {-1, -1, -1};
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    MPI_Comm inter;
    int rsize = -1;
    CHECK(MPI_Comm_spawn_multiple(2, cmds, argvs, np, infos, size - 1, MPI_COMM_WORLD, &inter,
                                  codes) == MPI_SUCCESS);
    CHECK(codes[0] == MPI_SUCCESS && codes[1] == MPI_SUCCESS && codes[2] == MPI_SUCCESS);
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(rsize == 3);
    if (rank == 0) {
        for (int i = 0; i < 3; i++) {
            int msg[3] = {-1, -1, -1};
            MPI_Status st;
            CHECK(MPI_Recv(msg, 3, MPI_INT, MPI_ANY_SOURCE, 1, inter, &st) == MPI_SUCCESS);
            CHECK(msg[0] == (st.MPI_SOURCE < 2 ? 0 : 1));
            if (argvs != MPI_ARGVS_NULL)
                CHECK(msg[1] == (msg[0] == 0 ? 'x' : 'y'));
            else
                CHECK(msg[1] == 0);
            CHECK(msg[2] == 0);
            mtest_errors += msg[2];
        }
    }
    MPI_Comm_free(&inter);
}

int main(int argc, char **argv)
{
    MPI_Comm parent;
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL)
        return child(argc, argv, parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *appnum, flag = 0;
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag) == MPI_SUCCESS && flag &&
          *appnum == 0);
    char *a0[] = {"x", NULL}, *a1[] = {"y", "z", NULL};
    char **argvs[] = {a0, a1};
    spawn_two(rank, size, argv[0], argvs);
    spawn_two(rank, size, argv[0], MPI_ARGVS_NULL);
    return mtest_finish();
}
