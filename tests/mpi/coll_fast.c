/*
 * coll_fast.c: MPI_Barrier and small MPI_Allreduce on small communicators, the fast path of
 * mini_mpi/coll/fast.h (forced at every size with MINI_MPI_COLL_FAST_MAX in the testlist):
 * many rounds back to back (a member's input slot is reused every other round while slow
 * members may still read the previous one), interleaved with nonblocking collectives left
 * pending over them, on a split communicator, with predefined pair types, with matching type
 * signatures built differently at different ranks, MPI_IN_PLACE, and results that must be the
 * same bits at every member.
 */
#include <stdlib.h>
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int i = 0; i < 2000; i++) {
        int v = rank + i, sum = -1;
        CHECK(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECK(sum == size * i + size * (size - 1) / 2);
        if (i % 7 == 0)
            CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    }

    /* Nonblocking collectives pending across blocking ones (all ranks in the same order). */
    for (int i = 0; i < 200; i++) {
        MPI_Request req[2];
        int a = rank, amax = -1, b = 1, bsum = 0;
        long long l = rank + 1, lsum = 0;
        CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &req[0]) == MPI_SUCCESS);
        CHECK(MPI_Iallreduce(&a, &amax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req[1]) ==
              MPI_SUCCESS);
        CHECK(MPI_Allreduce(&b, &bsum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECK(MPI_Allreduce(&l, &lsum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD) ==
              MPI_SUCCESS);
        CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
        CHECK(amax == size - 1 && bsum == size && lsum == (long long)size * (size + 1) / 2);
    }

    /* MINLOC on a pair type, 16 bytes with padding. */
    struct { double v; int i; } in = {(double)(rank % 3), rank}, out = {-1, -1};
    CHECK(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    CHECK(out.v == 0.0 && out.i == 0);

    /* Two ints as MPI_INT x2 at even ranks, one contiguous type of two at odd ones. */
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_commit(&two);
    int pair[2] = {rank, 2 * rank};
    CHECK(MPI_Allreduce(MPI_IN_PLACE, pair, rank % 2 ? 1 : 2, rank % 2 ? two : MPI_INT, MPI_SUM,
                        MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(pair[0] == size * (size - 1) / 2 && pair[1] == size * (size - 1));
    MPI_Type_free(&two);

    /* Same bits everywhere for a floating-point sum. */
    double d = 1.0 / (rank + 3), dsum, all[64];
    CHECK(MPI_Allreduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    if (size <= 64) {
        CHECK(MPI_Allgather(&dsum, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD) ==
              MPI_SUCCESS);
        for (int r = 0; r < size; r++)
            CHECK(all[r] == dsum);
    }

    /* Inputs of 1 to 8 bytes other than one int (MPI_Allreduce's express path at the sizes
     * where it is taken, coll/reduce_api.c): their bytes around must stay untouched. */
    for (int i = 0; i < 50; i++) {
        unsigned char c[3] = {0xEE, (unsigned char)(rank + i), 0xEE}, cmax[3] = {0xEE, 0, 0xEE};
        CHECK(MPI_Allreduce(&c[1], &cmax[1], 1, MPI_UNSIGNED_CHAR, MPI_MAX, MPI_COMM_WORLD) ==
              MPI_SUCCESS);
        CHECK(cmax[0] == 0xEE && cmax[1] == (unsigned char)(size - 1 + i) && cmax[2] == 0xEE);
        short s3[4] = {1, (short)rank, (short)i, 0x5A5A};
        CHECK(MPI_Allreduce(MPI_IN_PLACE, s3, 3, MPI_SHORT, MPI_SUM, MPI_COMM_WORLD) ==
              MPI_SUCCESS);
        CHECK(s3[0] == size && s3[1] == size * (size - 1) / 2 && s3[2] == size * i &&
              s3[3] == 0x5A5A);
        struct { float v; int i; } fi = {(float)((rank + i) % size), rank}, fmax = {-1, -1};
        CHECK(MPI_Allreduce(&fi, &fmax, 1, MPI_FLOAT_INT, MPI_MAXLOC, MPI_COMM_WORLD) ==
              MPI_SUCCESS);
        CHECK(fmax.v == (float)(size - 1) && fmax.i == (size - 1 - i % size + size) % size);
        unsigned long long bits = 1ull << (rank % 64), bor = 0;
        CHECK(MPI_Allreduce(&bits, &bor, 1, MPI_UNSIGNED_LONG_LONG, MPI_BOR, MPI_COMM_WORLD) ==
              MPI_SUCCESS);
        CHECK(bor == (size >= 64 ? ~0ull : (1ull << size) - 1));
    }
    /* Errors on the same small call still get their class (the express path declines). */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = 1, y;
    CHECK(MPI_Allreduce(&x, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_BUFFER);
    CHECK(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD) == MPI_ERR_OP);
    CHECK(MPI_Allreduce(&x, &y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_COUNT);
    CHECK(MPI_Allreduce(&x, NULL, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_BUFFER);
    CHECK(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL) == MPI_ERR_COMM);
    CHECK(MPI_Allreduce(&x, &y, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_TYPE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    /* A split communicator: two halves run their own sequences. */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int hsize, hs = 0, one = 1;
    MPI_Comm_size(half, &hsize);
    for (int i = 0; i < 100; i++) {
        CHECK(MPI_Allreduce(&one, &hs, 1, MPI_INT, MPI_SUM, half) == MPI_SUCCESS);
        CHECK(hs == hsize);
        CHECK(MPI_Barrier(half) == MPI_SUCCESS);
    }
    MPI_Comm_free(&half);
    return mtest_finish();
}
