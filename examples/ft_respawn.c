/*
 * ft_respawn.c: keep the job at full size by spawning a replacement for each rank that dies
 * (ULFM with MPI_Comm_spawn, the pattern of ulfm-testing's buddycr).
 *
 * Every iteration each rank contributes rank + iteration to an MPI_Allreduce over `work`; the
 * sum is known in advance, so every result is checked. When the allreduce fails, the members
 * agree on it (MPIX_Comm_agree, so that all of them repair or none), then repair `work`:
 *   1. MPIX_Comm_shrink drops the dead;
 *   2. MPI_Comm_spawn starts as many copies of this program as died ("spare" in argv[1]);
 *   3. the first survivor tells each spare the rank it takes over and the iteration to redo;
 *   4. MPI_Intercomm_merge joins survivors and spares, MPI_Comm_split puts every member back
 *      at its old rank.
 * The repaired communicator has the original size and order, and the iteration is redone.
 * Run: MINI_MPI_FAULTS="kill 2 at MPI_Allreduce#3" bin/mpiexec -n 6 build/examples/ft_respawn
 * A spare can die too: spawned ranks are numbered on from the launcher's, up to the universe
 * size: MINI_MPI_FAULTS="kill 2 at MPI_Allreduce#3; kill 6 at MPI_Allreduce#2" bin/mpiexec -n 6
 * -usize 8 build/examples/ft_respawn repairs twice.
 * Kept short: a death during a repair itself is not handled (ulfm-testing's buddycr shows the
 * agree-and-retry loop that does it).
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITERATIONS 10

/* What a spare learns from the survivors. */
struct assignment {
    int rank;      /* its rank in the repaired communicator: a dead member's */
    int iteration; /* the iteration to redo */
    int respawns;  /* repairs so far, this one included */
};

/* Spawns one spare per dead member of `work` (shrunk to `alive`), hands out the dead ranks,
 * and returns the intercommunicator to the spares. */
static MPI_Comm spawn_spares(MPI_Comm work, MPI_Comm alive, const char *self, int iteration,
                             int respawns)
{
    MPI_Comm spares;
    MPI_Group all, left, dead;
    int ndead, me;
    MPI_Comm_group(work, &all);
    MPI_Comm_group(alive, &left);
    MPI_Group_difference(all, left, &dead);
    MPI_Group_size(dead, &ndead);
    char *args[] = {"spare", NULL};
    MPI_Comm_spawn(self, args, ndead, MPI_INFO_NULL, 0, alive, &spares, MPI_ERRCODES_IGNORE);
    MPI_Comm_rank(alive, &me);
    for (int i = 0; me == 0 && i < ndead; i++) {
        struct assignment a = {0, iteration, respawns};
        MPI_Group_translate_ranks(dead, 1, &i, all, &a.rank);
        MPI_Send(&a, 3, MPI_INT, i, 0, spares);
    }
    MPI_Group_free(&all);
    MPI_Group_free(&left);
    MPI_Group_free(&dead);
    return spares;
}

/* Survivors and spares meet here: the intercommunicator between them becomes one
 * communicator with every member at rank `rank`. */
static MPI_Comm rebuild(MPI_Comm spares, int rank)
{
    MPI_Comm merged, work;
    MPI_Intercomm_merge(spares, 1, &merged);
    MPI_Comm_split(merged, 0, rank, &work);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&spares);
    MPI_Comm_set_errhandler(work, MPI_ERRORS_RETURN);
    return work;
}

int main(int argc, char **argv)
{
    MPI_Comm work, parent;
    int rank, size, iteration = 0, respawns = 0, errors = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) { /* a spare: take over a dead rank */
        struct assignment a;
        MPI_Recv(&a, 3, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
        iteration = a.iteration;
        respawns = a.respawns;
        work = rebuild(parent, a.rank);
    } else {
        MPI_Comm_dup(MPI_COMM_WORLD, &work);
        MPI_Comm_set_errhandler(work, MPI_ERRORS_RETURN);
    }
    MPI_Comm_rank(work, &rank);
    MPI_Comm_size(work, &size);

    while (iteration < ITERATIONS) {
        long mine = rank + iteration, sum = 0;
        int ok = MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, work) == MPI_SUCCESS;
        if (MPIX_Comm_agree(work, &ok) != MPI_SUCCESS || !ok) {
            MPI_Comm alive;
            MPIX_Comm_shrink(work, &alive);
            MPI_Comm spares = spawn_spares(work, alive, argv[0], iteration, ++respawns);
            MPI_Comm_free(&alive);
            MPI_Comm_free(&work);
            work = rebuild(spares, rank);
            continue; /* redo this iteration at full size */
        }
        if (sum != (long)size * (size - 1) / 2 + (long)size * iteration)
            errors++;
        iteration++;
    }
    int total = 0;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, work);
    MPI_Comm_free(&work);
    if (rank == 0) { /* a spare, if the first rank died */
        printf("%d iterations, %d respawns, %d ranks\n", ITERATIONS, respawns, size);
        if (total == 0)
            printf(" No Errors\n");
    }
    MPI_Finalize();
    return total != 0;
}
