/* app.c: each rank adds its rank to both libraries once; per-rank copies see one entry each. */
#include <mpi.h>
#include <stdio.h>

int tally_add(int v);
int tally_global(void);
int registry_add(int v);
int registry_first(void);

int main(int argc, char **argv)
{
    int rank, size, errs = 0, all = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int mine = tally_add(rank + 1);
    int entries = registry_add(rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mine != rank + 1 || entries != 1 || registry_first() != rank) {
        printf("rank %d: tally %d, registry entries %d, first %d\n", rank, mine, entries,
               registry_first());
        errs++;
    }
    if (tally_global() != size * (size + 1) / 2)
        errs++;
    MPI_Reduce(&errs, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return all != 0;
}
