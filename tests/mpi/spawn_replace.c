/* spawn_replace.c: the ULFM "replace" recovery pattern (the one of ulfm-testing's buddycr),
 * twice. In each round the member at rank size/2 of the working communicator dies (in round 2
 * that is the spare spawned in round 1); the survivors' allreduce fails with
 * MPI_ERR_PROC_FAILED; they shrink, spawn as many spares of the program as died
 * (MPI_Comm_spawn over the shrunk communicator), tell each spare the rank it replaces, merge
 * the intercommunicator and split it back into the original order. The repaired communicator
 * has the old size and every member its old rank; an allreduce over it works. Needs 2 or more
 * ranks. argv of a spare: "spare" and the round it joins in. */
#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "mtest.h"

#define ROUNDS 2

/* Survivors call it with their broken communicator, spares with MPI_COMM_NULL. */
static MPI_Comm replace(MPI_Comm comm, char *self, int round)
{
    MPI_Comm icomm, scomm, mcomm, newcomm;
    int crank;
    if (comm == MPI_COMM_NULL) {
        MPI_Comm_get_parent(&icomm);
        scomm = MPI_COMM_WORLD;
        CHECK(MPI_Recv(&crank, 1, MPI_INT, 0, 1, icomm, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    } else {
        int nc, ns, srank;
        CHECK(MPIX_Comm_shrink(comm, &scomm) == MPI_SUCCESS);
        MPI_Comm_size(comm, &nc);
        MPI_Comm_size(scomm, &ns);
        CHECK(nc - ns == 1);
        char r[16];
        snprintf(r, sizeof r, "%d", round);
        char *args[] = {"spare", r, NULL};
        int codes[1] = {-1};
        CHECK(MPI_Comm_spawn(self, args, nc - ns, MPI_INFO_NULL, 0, scomm, &icomm, codes) ==
              MPI_SUCCESS);
        CHECK(codes[0] == MPI_SUCCESS);
        MPI_Comm_rank(comm, &crank);
        MPI_Comm_rank(scomm, &srank);
        if (srank == 0) { /* the ranks the spares take: those of the dead */
            MPI_Group cgrp, sgrp, dgrp;
            MPI_Comm_group(comm, &cgrp);
            MPI_Comm_group(scomm, &sgrp);
            MPI_Group_difference(cgrp, sgrp, &dgrp);
            for (int i = 0; i < nc - ns; i++) {
                int drank;
                MPI_Group_translate_ranks(dgrp, 1, &i, cgrp, &drank);
                CHECK(MPI_Send(&drank, 1, MPI_INT, i, 1, icomm) == MPI_SUCCESS);
            }
            MPI_Group_free(&cgrp);
            MPI_Group_free(&sgrp);
            MPI_Group_free(&dgrp);
        }
    }
    CHECK(MPI_Intercomm_merge(icomm, 1, &mcomm) == MPI_SUCCESS);
    int flag = 1;
    CHECK(MPIX_Comm_agree(icomm, &flag) == MPI_SUCCESS && flag == 1);
    CHECK(MPI_Comm_split(mcomm, 1, crank, &newcomm) == MPI_SUCCESS);
    if (scomm != MPI_COMM_WORLD)
        MPI_Comm_free(&scomm);
    MPI_Comm_free(&icomm);
    MPI_Comm_free(&mcomm);
    int now = -1;
    MPI_Comm_rank(newcomm, &now);
    CHECK(now == crank);
    MPI_Comm_set_errhandler(newcomm, MPI_ERRORS_RETURN);
    return newcomm;
}

int main(int argc, char **argv)
{
    MPI_Comm world, parent;
    int size, rank, round = 0, sum, one;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    bool spare = parent != MPI_COMM_NULL;
    if (spare) {
        CHECK(argc == 3 && !strcmp(argv[1], "spare"));
        round = atoi(argv[2]);
        world = replace(MPI_COMM_NULL, argv[0], round);
    } else {
        MPI_Comm_dup(MPI_COMM_WORLD, &world);
        MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN);
    }
    MPI_Comm_size(world, &size);
    CHECK(size >= 2);
    for (; size >= 2 && round < ROUNDS; round++) {
        if (!spare || round > atoi(argv[2])) { /* a spare joins after its round's failure */
            MPI_Comm_rank(world, &rank);
            if (rank == size / 2)
                raise(SIGKILL);
            one = 1;
            CHECK(MPI_Allreduce(MPI_IN_PLACE, &one, 1, MPI_INT, MPI_SUM, world) ==
                  MPIX_ERR_PROC_FAILED);
            MPI_Comm fixed = replace(world, argv[0], round);
            MPI_Comm_free(&world);
            world = fixed;
        }
        int n = -1;
        MPI_Comm_size(world, &n);
        MPI_Comm_rank(world, &rank);
        CHECK(n == size);
        CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, world) == MPI_SUCCESS);
        CHECK(sum == size * (size - 1) / 2);
    }
    int errs = mtest_errors, total = 0;
    CHECK(MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, world) == MPI_SUCCESS);
    MPI_Comm_free(&world);
    if (spare) {
        MPI_Finalize();
        return 0;
    }
    mtest_errors = total; /* world rank 0 never dies: it is rank 0 of `world` */
    return mtest_finish();
}
