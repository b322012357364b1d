/* counter.c: a library holding a rank's state in a static variable, as libraries built by a
 * project with BUILD_SHARED_LIBS do; its one function is called once per rank. Uses MPI. */
#include <mpi.h>

static int count;
int counter_calls; /* exported: reached through the GOT, also by the library itself */

int counter_next(void)
{
    int initialized = 0;
    MPI_Initialized(&initialized);
    counter_calls++;
    return initialized ? ++count : -1;
}
