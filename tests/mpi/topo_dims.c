/* topo_dims.c: MPI_Dims_create (MPI-4.1 §8.5.2). The results must equal those of Debian's
 * MPICH 4.0 (the table below was produced by running it: mpicc.mpich, mpiexec.mpich -n 1),
 * including the cases where its heuristic picks one of several equally balanced answers
 * (360 in 3 dimensions: 10x6x6, not 9x8x5); given non-zero entries are kept and the others
 * filled in non-increasing order; every result for 1..600 processes in 1..5 dimensions has
 * the right product and order; a prime never splits; the impossible cases give MPI_ERR_DIMS
 * and leave dims untouched. Purely local: every rank runs the same checks. */
#include <string.h>

#include "mtest.h"

static const struct {
    int n, nd, dims[4];
} mpich[] = {
    {1, 1, {1}},
    {1, 2, {1, 1}},
    {1, 3, {1, 1, 1}},
    {1, 4, {1, 1, 1, 1}},
    {2, 1, {2}},
    {2, 2, {2, 1}},
    {2, 3, {2, 1, 1}},
    {2, 4, {2, 1, 1, 1}},
    {6, 1, {6}},
    {6, 2, {3, 2}},
    {6, 3, {3, 2, 1}},
    {6, 4, {3, 2, 1, 1}},
    {7, 1, {7}},
    {7, 2, {7, 1}},
    {7, 3, {7, 1, 1}},
    {7, 4, {7, 1, 1, 1}},
    {8, 1, {8}},
    {8, 2, {4, 2}},
    {8, 3, {2, 2, 2}},
    {8, 4, {2, 2, 2, 1}},
    {12, 1, {12}},
    {12, 2, {4, 3}},
    {12, 3, {3, 2, 2}},
    {12, 4, {3, 2, 2, 1}},
    {16, 1, {16}},
    {16, 2, {4, 4}},
    {16, 3, {4, 2, 2}},
    {16, 4, {2, 2, 2, 2}},
    {24, 1, {24}},
    {24, 2, {6, 4}},
    {24, 3, {4, 3, 2}},
    {24, 4, {3, 2, 2, 2}},
    {30, 1, {30}},
    {30, 2, {6, 5}},
    {30, 3, {5, 3, 2}},
    {30, 4, {5, 3, 2, 1}},
    {36, 1, {36}},
    {36, 2, {6, 6}},
    {36, 3, {4, 3, 3}},
    {36, 4, {3, 3, 2, 2}},
    {48, 1, {48}},
    {48, 2, {8, 6}},
    {48, 3, {4, 4, 3}},
    {48, 4, {4, 3, 2, 2}},
    {60, 1, {60}},
    {60, 2, {10, 6}},
    {60, 3, {5, 4, 3}},
    {60, 4, {5, 3, 2, 2}},
    {64, 1, {64}},
    {64, 2, {8, 8}},
    {64, 3, {4, 4, 4}},
    {64, 4, {4, 4, 2, 2}},
    {72, 1, {72}},
    {72, 2, {9, 8}},
    {72, 3, {6, 4, 3}},
    {72, 4, {4, 3, 3, 2}},
    {96, 1, {96}},
    {96, 2, {12, 8}},
    {96, 3, {6, 4, 4}},
    {96, 4, {4, 4, 3, 2}},
    {100, 1, {100}},
    {100, 2, {10, 10}},
    {100, 3, {5, 5, 4}},
    {100, 4, {5, 5, 2, 2}},
    {120, 1, {120}},
    {120, 2, {12, 10}},
    {120, 3, {6, 5, 4}},
    {120, 4, {5, 4, 3, 2}},
    {128, 1, {128}},
    {128, 2, {16, 8}},
    {128, 3, {8, 4, 4}},
    {128, 4, {4, 4, 4, 2}},
    {210, 1, {210}},
    {210, 2, {15, 14}},
    {210, 3, {7, 6, 5}},
    {210, 4, {7, 5, 3, 2}},
    {256, 1, {256}},
    {256, 2, {16, 16}},
    {256, 3, {8, 8, 4}},
    {256, 4, {4, 4, 4, 4}},
    {360, 2, {20, 18}},
    {360, 3, {10, 6, 6}},
    {360, 4, {6, 5, 4, 3}},
    {2160, 2, {48, 45}},
    {2160, 3, {15, 12, 12}},
    {2160, 4, {10, 6, 6, 6}},
    {2520, 2, {56, 45}},
    {2520, 3, {15, 14, 12}},
    {2520, 4, {10, 7, 6, 6}},
    {2880, 2, {60, 48}},
    {2880, 3, {16, 15, 12}},
    {2880, 4, {10, 8, 6, 6}},
    {16320, 2, {136, 120}},
    {16320, 3, {34, 24, 20}},
    {16320, 4, {17, 12, 10, 8}},
    {65536, 2, {256, 256}},
    {65536, 3, {64, 32, 32}},
    {65536, 4, {16, 16, 16, 16}},
    {720720, 2, {858, 840}},
    {720720, 3, {91, 90, 88}},
    {720720, 4, {33, 30, 28, 26}},
    {1000000, 2, {1000, 1000}},
    {1000000, 3, {100, 100, 100}},
    {1000000, 4, {40, 40, 25, 25}},
    {3628800, 2, {1920, 1890}},
    {3628800, 3, {162, 160, 140}},
    {3628800, 4, {48, 45, 42, 40}},
};

/* Entries given (non-zero) and MPICH's results, with nnodes. */
static const struct {
    int n, in[4], out[4];
} fixed[] = {
    {27, {0, 3, 0, 0}, {3, 3, 3, 1}},   {108, {0, 3, 0, 0}, {4, 3, 3, 3}},
    {10, {2, 0, 0, 0}, {2, 5, 1, 1}},   {64, {2, 0, 0, 0}, {2, 4, 4, 2}},
    {100, {2, 0, 0, 0}, {2, 5, 5, 2}},  {40, {0, 0, 5, 0}, {2, 2, 5, 2}},
    {85, {0, 0, 5, 0}, {17, 1, 5, 1}},  {120, {3, 0, 2, 0}, {3, 5, 2, 4}},
    {66, {3, 0, 2, 0}, {3, 11, 2, 1}},  {24, {2, 3, 4, 1}, {2, 3, 4, 1}},
};

/* Equally balanced answers in more dimensions, where MPICH picks the larger factors read from
 * the smallest up (from MPICH's own test topo/dims5). */
static const struct {
    int n, nd, dims[7];
} ties[] = {
    {98784, 5, {14, 14, 9, 8, 7}},
    {958320, 5, {22, 22, 15, 12, 11}},
    {144000, 6, {10, 10, 8, 6, 6, 5}},
    {450000, 7, {10, 10, 6, 6, 5, 5, 5}},
};

int main(int argc, char **argv)
{
    int dims[8];
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    for (unsigned t = 0; t < sizeof(mpich) / sizeof(mpich[0]); t++) {
        memset(dims, 0, sizeof(dims));
        CHECK(MPI_Dims_create(mpich[t].n, mpich[t].nd, dims) == MPI_SUCCESS);
        int same = !memcmp(dims, mpich[t].dims, (size_t)mpich[t].nd * sizeof(int));
        if (!same)
            fprintf(stderr, "Dims_create(%d, %d): %d %d %d %d\n", mpich[t].n, mpich[t].nd,
                    dims[0], dims[1], dims[2], dims[3]);
        CHECK(same);
    }
    for (unsigned t = 0; t < sizeof(ties) / sizeof(ties[0]); t++) {
        memset(dims, 0, sizeof(dims));
        CHECK(MPI_Dims_create(ties[t].n, ties[t].nd, dims) == MPI_SUCCESS);
        CHECK(!memcmp(dims, ties[t].dims, (size_t)ties[t].nd * sizeof(int)));
    }
    for (unsigned t = 0; t < sizeof(fixed) / sizeof(fixed[0]); t++) {
        memcpy(dims, fixed[t].in, sizeof(fixed[t].in));
        CHECK(MPI_Dims_create(fixed[t].n, 4, dims) == MPI_SUCCESS);
        CHECK(!memcmp(dims, fixed[t].out, sizeof(fixed[t].out)));
    }

    for (int n = 1; n <= 600; n++)
        for (int nd = 1; nd <= 5; nd++) {
            memset(dims, 0, sizeof(dims));
            CHECK(MPI_Dims_create(n, nd, dims) == MPI_SUCCESS);
            long prod = 1;
            for (int d = 0; d < nd; d++) {
                prod *= dims[d];
                CHECK(dims[d] >= 1 && (d == 0 || dims[d] <= dims[d - 1]));
            }
            CHECK(prod == n);
        }
    /* Large and awkward: a prime, a power of two, a big highly composite number. */
    memset(dims, 0, sizeof(dims));
    CHECK(MPI_Dims_create(2147483647, 3, dims) == MPI_SUCCESS);
    CHECK(dims[0] == 2147483647 && dims[1] == 1 && dims[2] == 1);
    memset(dims, 0, sizeof(dims));
    CHECK(MPI_Dims_create(1 << 30, 5, dims) == MPI_SUCCESS);
    CHECK(dims[0] == 64 && dims[4] == 64);
    memset(dims, 0, sizeof(dims));
    CHECK(MPI_Dims_create(735134400, 8, dims) == MPI_SUCCESS);
    long prod = 1;
    for (int d = 0; d < 8; d++)
        prod *= dims[d];
    CHECK(prod == 735134400);
    CHECK(MPI_Dims_create(7, 0, NULL) == MPI_ERR_DIMS); /* no dimensions: product 1 */
    CHECK(MPI_Dims_create(1, 0, NULL) == MPI_SUCCESS);

    /* Impossible: 7 is not a multiple of 2; 12 = 2 * 3 * 2 exactly but one more fixed 5. */
    int bad[3] = {2, 0, 0}, all[3] = {2, 3, 5};
    CHECK(MPI_Dims_create(7, 3, bad) == MPI_ERR_DIMS);
    CHECK(bad[0] == 2 && bad[1] == 0 && bad[2] == 0);
    CHECK(MPI_Dims_create(12, 3, all) == MPI_ERR_DIMS);
    return mtest_finish();
}
