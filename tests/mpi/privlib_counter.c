/* privlib_counter.c: a shared library's static state is the rank's own. libcounter.so keeps a
 * static count and an exported one; each rank calls it once, so each must see 1, as in a process
 * per rank. */
#include "mtest.h"

int counter_next(void);
extern int counter_calls;

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int got = counter_next();
    if (got != 1 || counter_calls != 1) {
        printf("rank %d: counter_next() = %d, counter_calls = %d; expected 1 and 1\n", rank, got,
               counter_calls);
        mtest_errors++;
    }
    return mtest_finish();
}
