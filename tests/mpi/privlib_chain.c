/* privlib_chain.c: a library that uses MPI only through another library (libchain_a needs
 * libchain_b, which needs MPI) is private too, and binds to the rank's copy of the other. */
#include "mtest.h"

int chain_a_rank_twice(void);
int chain_a_last(void);
extern int chain_b_calls;

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    int twice = chain_a_rank_twice();
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has called before any checks */
    if (twice != 2 * rank || chain_a_last() != rank || chain_b_calls != 1) {
        printf("rank %d: twice %d, last %d, chain_b_calls %d\n", rank, twice, chain_a_last(),
               chain_b_calls);
        mtest_errors++;
    }
    return mtest_finish();
}
