/* A message that ends inside a basic element of the receive's datatype has a type signature
 * that cannot match the receive's (MPI-4.1 §3.3.1): the receive fails with MPI_ERR_TYPE, on
 * every path a message takes (the channel taken at once, a posted receive, a large message),
 * and the communicator keeps working. A whole number of elements is received as before. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errs;

static void expect(int err, int class_wanted, const char *what)
{
    int cls = MPI_SUCCESS;
    if (err != MPI_SUCCESS)
        MPI_Error_class(err, &cls);
    if (cls != class_wanted) {
        printf("%s: class %d, expected %d\n", what, cls, class_wanted);
        errs++;
    }
}

int main(int argc, char **argv)
{
    enum { BIG = 1 << 20 };
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char *bytes = malloc(BIG + 3);
    int *ints = malloc(BIG + 16);
    memset(bytes, 7, BIG + 3);

    /* The derived types of MPICH's errors/pt2pt/truncmsg2: 3 chars sent, ints received. */
    MPI_Datatype chars3, ints4;
    int bl3[] = {1, 1, 1}, bl4[] = {1, 2, 1}, idx[] = {4, 8, 16};
    MPI_Aint d3[] = {0, 2, 4};
    MPI_Datatype t3[] = {MPI_CHAR, MPI_CHAR, MPI_CHAR};
    MPI_Type_create_struct(3, bl3, d3, t3, &chars3);
    MPI_Type_indexed(3, bl4, idx, MPI_INT, &ints4);
    MPI_Type_commit(&chars3);
    MPI_Type_commit(&ints4);

    if (rank == 1) {
        MPI_Send(bytes, 3, MPI_CHAR, 0, 1, MPI_COMM_WORLD);  /* taken at once */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(bytes, 5, MPI_BYTE, 0, 2, MPI_COMM_WORLD);  /* into a posted receive */
        MPI_Send(bytes, BIG + 3, MPI_BYTE, 0, 3, MPI_COMM_WORLD); /* large */
        MPI_Send(bytes, 1, chars3, 0, 4, MPI_COMM_WORLD);    /* derived on both sides */
        MPI_Send(bytes, 8, MPI_CHAR, 0, 5, MPI_COMM_WORLD);  /* two whole ints */
        MPI_Send(bytes, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);   /* and the channel still works */
    } else if (rank == 0) {
        MPI_Status st;
        int count = -1;
        MPI_Probe(1, 1, MPI_COMM_WORLD, &st);
        expect(MPI_Recv(ints, 4, MPI_INT, 1, 1, MPI_COMM_WORLD, &st), MPI_ERR_TYPE, "eager");
        MPI_Request rq;
        MPI_Irecv(ints, 4, MPI_INT, 1, 2, MPI_COMM_WORLD, &rq);
        MPI_Barrier(MPI_COMM_WORLD);
        expect(MPI_Wait(&rq, &st), MPI_ERR_TYPE, "posted");
        expect(MPI_Recv(ints, BIG / 4 + 4, MPI_INT, 1, 3, MPI_COMM_WORLD, &st), MPI_ERR_TYPE,
               "large");
        expect(MPI_Recv(ints, 1, ints4, 1, 4, MPI_COMM_WORLD, &st), MPI_ERR_TYPE, "derived");
        expect(MPI_Recv(ints, 4, MPI_INT, 1, 5, MPI_COMM_WORLD, &st), MPI_SUCCESS, "whole");
        MPI_Get_count(&st, MPI_INT, &count);
        if (count != 2) {
            printf("whole: count %d, expected 2\n", count);
            errs++;
        }
        ints[0] = 0;
        expect(MPI_Recv(ints, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &st), MPI_SUCCESS, "after");
        if (ints[0] != 0x07070707) {
            printf("after: got %#x\n", ints[0]);
            errs++;
        }
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Type_free(&chars3);
    MPI_Type_free(&ints4);
    free(bytes);
    free(ints);
    int all;
    MPI_Reduce(&errs, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
