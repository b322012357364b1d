/* before_init.c: an MPI call before MPI_Init is an error that ends the job with one clear line
 * (MPI-4.1 §11.2.1 allows only a few calls there). */
#include "mtest.h"

int main(int argc, char **argv)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("survived MPI_Comm_size before MPI_Init\n");
    return 0;
}
