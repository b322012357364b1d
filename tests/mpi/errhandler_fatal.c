/* errhandler_fatal.c: under the default MPI_ERRORS_ARE_FATAL, an invalid communicator ends the
 * job non-zero with one line naming the rank, the call and the error class
 * (docs/design.md "Exit status"). */
#include "mtest.h"

int main(int argc, char **argv)
{
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_NULL, &size);
    printf("survived a fatal error\n");
    return mtest_finish();
}
