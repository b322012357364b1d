/* p2p_status.c: status queries (MPI-4.1 §3.2.5, §5.1.11, §13.3): MPI_Get_count and
 * MPI_Get_elements(_x) for whole, partial and mismatched datatypes: 3 bytes received and queried
 * as MPI_INT give MPI_UNDEFINED for both; 5 ints queried with a 2-int contiguous type give count
 * MPI_UNDEFINED but 5 elements; MPI_Status_set_elements(_x) then the queries (also with a derived
 * type); MPI_Status_set_cancelled / MPI_Test_cancelled round trip. Messages go to self only. */
#include <string.h>

#include "mtest.h"

/* Sends `n` items of `stype` to self and receives them as up to `rcap` of `rtype`. */
static void self_msg(const void *sbuf, int n, MPI_Datatype stype, void *rbuf, int rcap,
                     MPI_Datatype rtype, MPI_Status *st)
{
    int rank;
    MPI_Request req;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK(MPI_Isend(sbuf, n, stype, rank, 4, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    CHECK(MPI_Recv(rbuf, rcap, rtype, rank, 4, MPI_COMM_WORLD, st) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int count, ints[8] = {1, 2, 3, 4, 5, 6, 7, 8}, rints[8];
    char bytes[8] = "abcdefg", rbytes[8];
    MPI_Count xcount;
    MPI_Status st;
    MPI_Datatype pair;
    MPI_Init(&argc, &argv);
    CHECK(MPI_Type_contiguous(2, MPI_INT, &pair) == MPI_SUCCESS);
    CHECK(MPI_Type_commit(&pair) == MPI_SUCCESS);

    /* 3 bytes: count 3 as MPI_BYTE; queried as MPI_INT (the queries work on the byte count;
     * no MPI_INT receive of MPI_BYTE data, which type matching would forbid) a partial int. */
    self_msg(bytes, 3, MPI_BYTE, rbytes, 8, MPI_BYTE, &st);
    CHECK(MPI_Get_count(&st, MPI_BYTE, &count) == MPI_SUCCESS && count == 3);
    CHECK(MPI_Get_elements(&st, MPI_BYTE, &count) == MPI_SUCCESS && count == 3);
    count = 0;
    CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == MPI_UNDEFINED);
    count = 0;
    CHECK(MPI_Get_elements(&st, MPI_INT, &count) == MPI_SUCCESS && count == MPI_UNDEFINED);
    CHECK(memcmp(rbytes, "abc", 3) == 0);

    /* 5 ints received with a 2-int type: 2.5 pairs. */
    memset(rints, 0, sizeof(rints));
    self_msg(ints, 5, MPI_INT, rints, 4, pair, &st);
    count = 0;
    CHECK(MPI_Get_count(&st, pair, &count) == MPI_SUCCESS && count == MPI_UNDEFINED);
    CHECK(MPI_Get_elements(&st, pair, &count) == MPI_SUCCESS && count == 5);
    CHECK(MPI_Get_elements_x(&st, pair, &xcount) == MPI_SUCCESS && xcount == 5);
    CHECK(rints[0] == 1 && rints[4] == 5 && rints[5] == 0);

    /* 6 ints: exactly 3 pairs. */
    self_msg(ints, 6, MPI_INT, rints, 4, pair, &st);
    CHECK(MPI_Get_count(&st, pair, &count) == MPI_SUCCESS && count == 3);
    CHECK(MPI_Get_elements(&st, pair, &count) == MPI_SUCCESS && count == 6);

    /* An empty message: everything 0. */
    self_msg(ints, 0, MPI_INT, rints, 4, pair, &st);
    CHECK(MPI_Get_count(&st, pair, &count) == MPI_SUCCESS && count == 0);
    CHECK(MPI_Get_elements(&st, pair, &count) == MPI_SUCCESS && count == 0);

    /* Status_set_elements(_x): for basic types, then for a derived one; queried with the same
     * datatype, as §13.3 requires. */
    memset(&st, 0, sizeof(st));
    CHECK(MPI_Status_set_elements(&st, MPI_INT, 7) == MPI_SUCCESS);
    CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == 7);
    CHECK(MPI_Get_elements(&st, MPI_INT, &count) == MPI_SUCCESS && count == 7);
    CHECK(MPI_Status_set_elements(&st, pair, 6) == MPI_SUCCESS);
#ifndef MPICH /* MPICH takes the count as a number of datatypes (pmodels/mpich#7764) */
    CHECK(MPI_Get_count(&st, pair, &count) == MPI_SUCCESS && count == 3);
    CHECK(MPI_Get_elements(&st, pair, &count) == MPI_SUCCESS && count == 6);
#endif
    CHECK(MPI_Status_set_elements(&st, pair, 5) == MPI_SUCCESS);
#ifndef MPICH
    CHECK(MPI_Get_count(&st, pair, &count) == MPI_SUCCESS && count == MPI_UNDEFINED);
    CHECK(MPI_Get_elements(&st, pair, &count) == MPI_SUCCESS && count == 5);
#endif
    CHECK(MPI_Status_set_elements_x(&st, MPI_CHAR, (MPI_Count)12) == MPI_SUCCESS);
    CHECK(MPI_Get_elements_x(&st, MPI_CHAR, &xcount) == MPI_SUCCESS && xcount == 12);
    CHECK(MPI_Get_count(&st, MPI_CHAR, &count) == MPI_SUCCESS && count == 12);
    CHECK(MPI_Status_set_elements(&st, MPI_DOUBLE, 0) == MPI_SUCCESS);
    CHECK(MPI_Get_count(&st, MPI_DOUBLE, &count) == MPI_SUCCESS && count == 0);

    /* Status_set_cancelled / Test_cancelled; the elements survive. */
    int flag = -1;
    CHECK(MPI_Status_set_elements(&st, MPI_INT, 3) == MPI_SUCCESS);
    CHECK(MPI_Status_set_cancelled(&st, 1) == MPI_SUCCESS);
    CHECK(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && flag);
    CHECK(MPI_Status_set_cancelled(&st, 0) == MPI_SUCCESS);
    flag = -1;
    CHECK(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && !flag);
    CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == 3);

    /* A received message's status is not cancelled. */
    self_msg(ints, 1, MPI_INT, rints, 1, MPI_INT, &st);
    flag = -1;
    CHECK(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && !flag);

    MPI_Type_free(&pair);
    return mtest_finish();
}
