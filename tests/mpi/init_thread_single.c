/* init_thread_single.c: MPI_Init_thread with a lower level gives what was asked for (a level
 * at least the one required is allowed; we give exactly what is asked, like MPICH). */
#include <stdlib.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    int provided = -1, q = -1;
    int required = argc > 1 ? atoi(argv[1]) : MPI_THREAD_SINGLE;
    CHECK(MPI_Init_thread(&argc, &argv, required, &provided) == MPI_SUCCESS);
    CHECK(provided >= required && provided <= MPI_THREAD_MULTIPLE);
    CHECK(MPI_Query_thread(&q) == MPI_SUCCESS && q == provided);
    return mtest_finish();
}
