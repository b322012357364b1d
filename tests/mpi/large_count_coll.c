/* large_count_coll.c: the large-count forms (_c) of the collectives (MPI-4.1 §5.2).
 *
 * Always run: every collective (blocking, nonblocking, persistent, the neighbourhood ones on a
 * periodic ring, MPI_Reduce_local) called through MPI_X_c with small counts gives what MPI_X
 * gives, and a few of MPI_X's results are checked against their values; negative counts, also
 * ones an int cannot hold, are MPI_ERR_COUNT through the communicator's error handler; counts
 * above INT_MAX of a datatype of size 0 are carried (narrowed to an int they would be negative,
 * hence MPI_ERR_COUNT).
 * At 2 ranks, when the host has about 6 GiB free (sysconf(_SC_AVPHYS_PAGES)): MPI_Bcast_c and
 * MPI_Allgatherv_c move more than 2^31 bytes, and MPI_Gatherv_c of a derived datatype of size 1
 * takes a count above INT_MAX and a displacement beyond 2^31; the data is checked by samples.
 * Otherwise that part says why it is skipped.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "mtest.h"

#define MAXP 16  /* the most ranks the small part handles */
#define OUTN 256 /* ints of every result */

static int rank, size;
static MPI_Comm ring; /* 1-D periodic Cartesian: in and out neighbours (left, right) */
static int in[OUTN];  /* every collective's input: 1000 * rank + k */

enum mode { BLOCKING, NONBLOCKING, PERSISTENT };

/* Completes what RUN started in mode m. */
static int done(int err, enum mode m, MPI_Request *req)
{
    if (err != MPI_SUCCESS || m == BLOCKING)
        return err;
    if (m == PERSISTENT) {
        if ((err = MPI_Start(req)) || (err = MPI_Wait(req, MPI_STATUS_IGNORE)))
            return err;
        return MPI_Request_free(req);
    }
    return MPI_Wait(req, MPI_STATUS_IGNORE);
}

#define STRIP(...) __VA_ARGS__
#define APPEND(args, ...) (STRIP args, __VA_ARGS__)
/* Collective B (nonblocking I, persistent P) in mode m through MPI_B (large 0) with args or
 * MPI_B_c with argsc; MPI_SUCCESS or the error. */
#define RUN(m, large, B, I, P, args, argsc)                                             \
    done((m) == BLOCKING ? ((large) ? MPI_##B##_c argsc : MPI_##B args)                 \
         : (m) == NONBLOCKING                                                           \
             ? ((large) ? MPI_##I##_c APPEND(argsc, &req) : MPI_##I APPEND(args, &req)) \
             : ((large) ? MPI_##P##_c APPEND(argsc, MPI_INFO_NULL, &req)                \
                        : MPI_##P APPEND(args, MPI_INFO_NULL, &req)),                   \
         (m), &req)
#define RUN1(m, large, B, I, P, args) RUN(m, large, B, I, P, args, args)

/* A v or w form's arrays in both bindings' types. */
struct arrays {
    int c[MAXP], d[MAXP];
    MPI_Count cc[MAXP];
    MPI_Aint cd[MAXP];
};

/* Counts 1 + (i + shift) % 2 of n pieces, laid out with a gap of one element after each;
 * displacements in elements, or in bytes of ints (w forms). */
static void layout(struct arrays *a, int n, int shift, int bytes)
{
    int pos = 0;
    for (int i = 0; i < n; i++) {
        a->c[i] = 1 + (i + shift) % 2;
        a->d[i] = bytes ? pos * (int)sizeof(int) : pos;
        a->cc[i] = a->c[i];
        a->cd[i] = a->d[i];
        pos += a->c[i] + 1;
    }
}

static MPI_Datatype ints[MAXP] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT, MPI_INT, MPI_INT,
                                  MPI_INT, MPI_INT, MPI_INT, MPI_INT, MPI_INT, MPI_INT,
                                  MPI_INT, MPI_INT, MPI_INT, MPI_INT};

/* ---- One function per collective: runs it in mode m through either binding into out ------ */

static void t_bcast(enum mode m, int large, int *out)
{
    MPI_Request req;
    for (int k = 0; k < 3; k++)
        out[k] = rank == 0 ? 10 + k : -1;
    CHECK(RUN1(m, large, Bcast, Ibcast, Bcast_init, (out, 3, MPI_INT, 0, MPI_COMM_WORLD)) == 0);
}

static void t_gather(enum mode m, int large, int *out)
{
    MPI_Request req;
    CHECK(RUN1(m, large, Gather, Igather, Gather_init,
               (in, 2, MPI_INT, out, 2, MPI_INT, size - 1, MPI_COMM_WORLD)) == 0);
}

static void t_gatherv(enum mode m, int large, int *out)
{
    MPI_Request req;
    struct arrays a;
    layout(&a, size, 0, 0);
    CHECK(RUN(m, large, Gatherv, Igatherv, Gatherv_init,
              (in, a.c[rank], MPI_INT, out, a.c, a.d, MPI_INT, size - 1, MPI_COMM_WORLD),
              (in, a.cc[rank], MPI_INT, out, a.cc, a.cd, MPI_INT, size - 1, MPI_COMM_WORLD)) == 0);
}

static void t_scatter(enum mode m, int large, int *out)
{
    MPI_Request req;
    CHECK(RUN1(m, large, Scatter, Iscatter, Scatter_init,
               (in, 2, MPI_INT, out, 2, MPI_INT, 0, MPI_COMM_WORLD)) == 0);
}

static void t_scatterv(enum mode m, int large, int *out)
{
    MPI_Request req;
    struct arrays a;
    layout(&a, size, 1, 0);
    CHECK(RUN(m, large, Scatterv, Iscatterv, Scatterv_init,
              (in, a.c, a.d, MPI_INT, out, a.c[rank], MPI_INT, 0, MPI_COMM_WORLD),
              (in, a.cc, a.cd, MPI_INT, out, a.cc[rank], MPI_INT, 0, MPI_COMM_WORLD)) == 0);
}

static void t_allgather(enum mode m, int large, int *out)
{
    MPI_Request req;
    CHECK(RUN1(m, large, Allgather, Iallgather, Allgather_init,
               (in, 2, MPI_INT, out, 2, MPI_INT, MPI_COMM_WORLD)) == 0);
}

static void t_allgatherv(enum mode m, int large, int *out)
{
    MPI_Request req;
    struct arrays a;
    layout(&a, size, 0, 0);
    CHECK(RUN(m, large, Allgatherv, Iallgatherv, Allgatherv_init,
              (in, a.c[rank], MPI_INT, out, a.c, a.d, MPI_INT, MPI_COMM_WORLD),
              (in, a.cc[rank], MPI_INT, out, a.cc, a.cd, MPI_INT, MPI_COMM_WORLD)) == 0);
}

static void t_alltoall(enum mode m, int large, int *out)
{
    MPI_Request req;
    CHECK(RUN1(m, large, Alltoall, Ialltoall, Alltoall_init,
               (in, 2, MPI_INT, out, 2, MPI_INT, MPI_COMM_WORLD)) == 0);
}

/* Member i sends 1 + (i + j) % 2 elements to member j: the same layout on both sides. */
static void t_alltoallv(enum mode m, int large, int *out)
{
    MPI_Request req;
    struct arrays a;
    layout(&a, size, rank, 0);
    CHECK(RUN(m, large, Alltoallv, Ialltoallv, Alltoallv_init,
              (in, a.c, a.d, MPI_INT, out, a.c, a.d, MPI_INT, MPI_COMM_WORLD),
              (in, a.cc, a.cd, MPI_INT, out, a.cc, a.cd, MPI_INT, MPI_COMM_WORLD)) == 0);
}

static void t_alltoallw(enum mode m, int large, int *out)
{
    MPI_Request req;
    struct arrays a;
    layout(&a, size, rank, 1);
    CHECK(RUN(m, large, Alltoallw, Ialltoallw, Alltoallw_init,
              (in, a.c, a.d, ints, out, a.c, a.d, ints, MPI_COMM_WORLD),
              (in, a.cc, a.cd, ints, out, a.cc, a.cd, ints, MPI_COMM_WORLD)) == 0);
}

static void t_reduce(enum mode m, int large, int *out)
{
    MPI_Request req;
    CHECK(RUN1(m, large, Reduce, Ireduce, Reduce_init,
               (in, out, 3, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD)) == 0);
}

/* Three elements, then one (MPI_Allreduce's express path, coll/reduce_api.c). */
static void t_allreduce(enum mode m, int large, int *out)
{
    MPI_Request req;
    CHECK(RUN1(m, large, Allreduce, Iallreduce, Allreduce_init,
               (in, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) == 0);
    CHECK(RUN1(m, large, Allreduce, Iallreduce, Allreduce_init,
               (in, out + 3, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD)) == 0);
}

static void t_reduce_scatter_block(enum mode m, int large, int *out)
{
    MPI_Request req;
    CHECK(RUN1(m, large, Reduce_scatter_block, Ireduce_scatter_block, Reduce_scatter_block_init,
               (in, out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) == 0);
}

static void t_reduce_scatter(enum mode m, int large, int *out)
{
    MPI_Request req;
    struct arrays a;
    layout(&a, size, 0, 0);
    CHECK(RUN(m, large, Reduce_scatter, Ireduce_scatter, Reduce_scatter_init,
              (in, out, a.c, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
              (in, out, a.cc, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) == 0);
}

static void t_scan(enum mode m, int large, int *out)
{
    MPI_Request req;
    CHECK(RUN1(m, large, Scan, Iscan, Scan_init, (in, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) ==
          0);
}

static void t_exscan(enum mode m, int large, int *out)
{
    MPI_Request req;
    CHECK(RUN1(m, large, Exscan, Iexscan, Exscan_init,
               (in, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) == 0);
    if (rank == 0)
        memset(out, 0, 3 * sizeof(int)); /* undefined at rank 0 (§6.11.2) */
}

static void t_reduce_local(enum mode m, int large, int *out)
{
    for (int k = 0; k < 3; k++)
        out[k] = 7 * k;
    if (large)
        CHECK(MPI_Reduce_local_c(in, out, (MPI_Count)3, MPI_INT, MPI_PROD) == 0);
    else
        CHECK(MPI_Reduce_local(in, out, 3, MPI_INT, MPI_PROD) == 0);
}

static void t_neighbor_allgather(enum mode m, int large, int *out)
{
    MPI_Request req;
    CHECK(RUN1(m, large, Neighbor_allgather, Ineighbor_allgather, Neighbor_allgather_init,
               (in, 2, MPI_INT, out, 2, MPI_INT, ring)) == 0);
}

static void t_neighbor_allgatherv(enum mode m, int large, int *out)
{
    MPI_Request req;
    int c[2] = {2, 2}, d[2] = {0, 3};
    MPI_Count cc[2] = {2, 2};
    MPI_Aint cd[2] = {0, 3};
    CHECK(RUN(m, large, Neighbor_allgatherv, Ineighbor_allgatherv, Neighbor_allgatherv_init,
              (in, 2, MPI_INT, out, c, d, MPI_INT, ring),
              (in, 2, MPI_INT, out, cc, cd, MPI_INT, ring)) == 0);
}

static void t_neighbor_alltoall(enum mode m, int large, int *out)
{
    MPI_Request req;
    CHECK(RUN1(m, large, Neighbor_alltoall, Ineighbor_alltoall, Neighbor_alltoall_init,
               (in, 2, MPI_INT, out, 2, MPI_INT, ring)) == 0);
}

/* One element to the left neighbour, two to the right: two from the left, one from the
 * right. */
static void t_neighbor_alltoallv(enum mode m, int large, int *out)
{
    MPI_Request req;
    int sc[2] = {1, 2}, sd[2] = {0, 1}, rc[2] = {2, 1}, rd[2] = {0, 3};
    MPI_Count scc[2] = {1, 2}, rcc[2] = {2, 1};
    MPI_Aint sdc[2] = {0, 1}, rdc[2] = {0, 3};
    CHECK(RUN(m, large, Neighbor_alltoallv, Ineighbor_alltoallv, Neighbor_alltoallv_init,
              (in, sc, sd, MPI_INT, out, rc, rd, MPI_INT, ring),
              (in, scc, sdc, MPI_INT, out, rcc, rdc, MPI_INT, ring)) == 0);
}

static void t_neighbor_alltoallw(enum mode m, int large, int *out)
{
    MPI_Request req;
    int sc[2] = {1, 2}, rc[2] = {2, 1};
    MPI_Count scc[2] = {1, 2}, rcc[2] = {2, 1};
    MPI_Aint sd[2] = {0, sizeof(int)}, rd[2] = {0, 3 * sizeof(int)};
    CHECK(RUN(m, large, Neighbor_alltoallw, Ineighbor_alltoallw, Neighbor_alltoallw_init,
              (in, sc, sd, ints, out, rc, rd, ints, ring),
              (in, scc, sd, ints, out, rcc, rd, ints, ring)) == 0);
}

typedef void test_fn(enum mode m, int large, int *out);
static const struct {
    const char *name;
    test_fn *fn;
    int modes; /* 1: blocking only */
} tests[] = {
    {"bcast", t_bcast, 3},
    {"gather", t_gather, 3},
    {"gatherv", t_gatherv, 3},
    {"scatter", t_scatter, 3},
    {"scatterv", t_scatterv, 3},
    {"allgather", t_allgather, 3},
    {"allgatherv", t_allgatherv, 3},
    {"alltoall", t_alltoall, 3},
    {"alltoallv", t_alltoallv, 3},
    {"alltoallw", t_alltoallw, 3},
    {"reduce", t_reduce, 3},
    {"allreduce", t_allreduce, 3},
    {"reduce_scatter_block", t_reduce_scatter_block, 3},
    {"reduce_scatter", t_reduce_scatter, 3},
    {"scan", t_scan, 3},
    {"exscan", t_exscan, 3},
    {"reduce_local", t_reduce_local, 1},
    {"neighbor_allgather", t_neighbor_allgather, 3},
    {"neighbor_allgatherv", t_neighbor_allgatherv, 3},
    {"neighbor_alltoall", t_neighbor_alltoall, 3},
    {"neighbor_alltoallv", t_neighbor_alltoallv, 3},
    {"neighbor_alltoallw", t_neighbor_alltoallw, 3},
};

/* MPI_X_c gives MPI_X's result in every mode; some of MPI_X's results checked by value. */
static void same_results(void)
{
    static const char *const modes[] = {"blocking", "nonblocking", "persistent"};
    int ref[OUTN], got[OUTN];
    for (size_t t = 0; t < sizeof(tests) / sizeof(tests[0]); t++)
        for (int m = 0; m < tests[t].modes; m++) {
            for (int k = 0; k < OUTN; k++)
                ref[k] = got[k] = -7;
            tests[t].fn((enum mode)m, 0, ref);
            tests[t].fn((enum mode)m, 1, got);
            if (memcmp(ref, got, sizeof(ref)) != 0) {
                fprintf(stderr, "rank %d: MPI_%s_c (%s) differs from the MPI_ form\n", rank,
                        tests[t].name, modes[m]);
                CHECK(!"same result");
            }
        }

    int out[OUTN];
    struct arrays a;
    t_bcast(BLOCKING, 1, out);
    CHECK(out[0] == 10 && out[2] == 12);
    layout(&a, size, 0, 0);
    memset(out, 0, sizeof(out));
    t_allgatherv(BLOCKING, 1, out);
    for (int i = 0; i < size; i++)
        for (int k = 0; k < a.c[i]; k++)
            CHECK(out[a.d[i] + k] == 1000 * i + k);
    t_allreduce(BLOCKING, 1, out);
    CHECK(out[1] == 1000 * size * (size - 1) / 2 + size && out[3] == 1000 * (size - 1));
    layout(&a, size, rank, 0);
    t_alltoallv(BLOCKING, 1, out);
    for (int i = 0; i < size; i++) {
        struct arrays s; /* member i's send layout */
        layout(&s, size, i, 0);
        for (int k = 0; k < a.c[i]; k++)
            CHECK(out[a.d[i] + k] == 1000 * i + s.d[rank] + k);
    }
    t_reduce_local(BLOCKING, 1, out);
    CHECK(out[0] == 0 && out[2] == 14 * (1000 * rank + 2));
}

/* ---- Bad counts: MPI_ERR_COUNT through the communicator's handler ------------------------- */

static int handler_calls, handler_class;

static void record(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    MPI_Error_class(*code, &handler_class);
    handler_calls++;
}

#define EXPECT_COUNT_ERROR(call)                                                                   \
    do {                                                                                           \
        int cls_ = -1;                                                                             \
        handler_calls = 0;                                                                         \
        handler_class = -1;                                                                        \
        MPI_Error_class((call), &cls_);                                                            \
        if (cls_ != MPI_ERR_COUNT || handler_calls != 1 || handler_class != MPI_ERR_COUNT) {       \
            fprintf(stderr, "rank %d: %s: class %d, handler called %d times\n", rank, #call, cls_, \
                    handler_calls);                                                                \
            CHECK(!"MPI_ERR_COUNT through the handler");                                           \
        }                                                                                          \
    } while (0)

static void bad_counts(void)
{
    const MPI_Count huge = -((MPI_Count)1 << 32); /* 0 if narrowed to an int */
    MPI_Comm comm;
    MPI_Errhandler eh;
    MPI_Request req;
    int out[OUTN];
    struct arrays a;

    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_create_errhandler(record, &eh);
    MPI_Comm_set_errhandler(comm, eh);
    MPI_Comm_set_errhandler(ring, eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, eh);
    layout(&a, size, 0, 0);

    EXPECT_COUNT_ERROR(MPI_Bcast(out, -1, MPI_INT, 0, comm));
    EXPECT_COUNT_ERROR(MPI_Bcast_c(out, -1, MPI_INT, 0, comm));
    EXPECT_COUNT_ERROR(MPI_Bcast_c(out, huge, MPI_INT, 0, comm));
    EXPECT_COUNT_ERROR(MPI_Ibcast_c(out, huge, MPI_INT, 0, comm, &req));
    EXPECT_COUNT_ERROR(MPI_Gather_c(in, huge, MPI_INT, out, 1, MPI_INT, 0, comm));
    EXPECT_COUNT_ERROR(
        MPI_Scatter_init_c(in, 1, MPI_INT, out, huge, MPI_INT, 0, comm, MPI_INFO_NULL, &req));
    EXPECT_COUNT_ERROR(MPI_Allgather_c(in, 1, MPI_INT, out, huge, MPI_INT, comm));
    EXPECT_COUNT_ERROR(MPI_Allreduce_c(in, out, huge, MPI_INT, MPI_SUM, comm));
    EXPECT_COUNT_ERROR(MPI_Allreduce_c(in, out, -1, MPI_INT, MPI_SUM, comm));
    EXPECT_COUNT_ERROR(MPI_Iallreduce_c(in, out, huge, MPI_INT, MPI_SUM, comm, &req));
    EXPECT_COUNT_ERROR(MPI_Reduce_c(in, out, huge, MPI_INT, MPI_SUM, 0, comm));
    EXPECT_COUNT_ERROR(MPI_Scan_init_c(in, out, huge, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req));
    EXPECT_COUNT_ERROR(MPI_Exscan_c(in, out, huge, MPI_INT, MPI_SUM, comm));
    EXPECT_COUNT_ERROR(MPI_Reduce_scatter_block_c(in, out, huge, MPI_INT, MPI_SUM, comm));
    EXPECT_COUNT_ERROR(MPI_Reduce_local_c(in, out, huge, MPI_INT, MPI_SUM));
    EXPECT_COUNT_ERROR(MPI_Neighbor_allgather_c(in, huge, MPI_INT, out, 1, MPI_INT, ring));
    EXPECT_COUNT_ERROR(MPI_Ineighbor_alltoall_c(in, 1, MPI_INT, out, huge, MPI_INT, ring, &req));
    /* One entry of a count array. */
    a.cc[size - 1] = huge;
    EXPECT_COUNT_ERROR(MPI_Allgatherv_c(in, a.c[rank], MPI_INT, out, a.cc, a.cd, MPI_INT, comm));
    EXPECT_COUNT_ERROR(MPI_Alltoallv_c(in, a.cc, a.cd, MPI_INT, out, a.cc, a.cd, MPI_INT, comm));
    EXPECT_COUNT_ERROR(MPI_Alltoallw_init_c(in, a.cc, a.cd, ints, out, a.cc, a.cd, ints, comm,
                                            MPI_INFO_NULL, &req));
    EXPECT_COUNT_ERROR(MPI_Reduce_scatter_c(in, out, a.cc, MPI_INT, MPI_SUM, comm));
    a.c[size - 1] = -1;
    EXPECT_COUNT_ERROR(MPI_Ireduce_scatter(in, out, a.c, MPI_INT, MPI_SUM, comm, &req));
    MPI_Count rc[2] = {1, huge};
    MPI_Aint rd[2] = {0, 4};
    EXPECT_COUNT_ERROR(MPI_Neighbor_allgatherv_c(in, 1, MPI_INT, out, rc, rd, MPI_INT, ring));
    EXPECT_COUNT_ERROR(MPI_Neighbor_alltoallw_c(in, rc, rd, ints, out, rc, rd, ints, ring));

    /* Counts above INT_MAX of a datatype of size 0: nothing moves, nothing fails. */
    const MPI_Count big = ((MPI_Count)1 << 31) + 5;
    MPI_Datatype zero;
    MPI_Count zc[MAXP];
    MPI_Aint zd[MAXP];
    MPI_Datatype zt[MAXP];
    MPI_Type_contiguous(0, MPI_INT, &zero);
    MPI_Type_commit(&zero);
    for (int i = 0; i < MAXP; i++) {
        zc[i] = big + i;
        zd[i] = ((MPI_Aint)1 << 40) + i;
        zt[i] = zero;
    }
    handler_calls = 0;
    CHECK(MPI_Bcast_c(out, big, zero, 0, comm) == MPI_SUCCESS);
    CHECK(MPI_Gatherv_c(in, zc[rank], zero, out, zc, zd, zero, 0, comm) == MPI_SUCCESS);
    CHECK(MPI_Allgatherv_c(in, zc[rank], zero, out, zc, zd, zero, comm) == MPI_SUCCESS);
    CHECK(MPI_Alltoallv_c(in, zc, zd, zero, out, zc, zd, zero, comm) == MPI_SUCCESS);
    CHECK(MPI_Alltoallw_c(in, zc, zd, zt, out, zc, zd, zt, comm) == MPI_SUCCESS);
    CHECK(MPI_Neighbor_alltoallw_c(in, zc, zd, zt, out, zc, zd, zt, ring) == MPI_SUCCESS);
    CHECK(MPI_Ineighbor_allgather_c(in, big, zero, out, big, zero, ring, &req) == MPI_SUCCESS &&
          MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(handler_calls == 0);
    MPI_Type_free(&zero);

    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&comm);
}

/* ---- More than 2^31 bytes (2 ranks, memory permitting) ------------------------------------ */

#define STRIDE ((size_t)1 << 20)

/* The byte written at offset off by step `who`. */
static unsigned char mark(size_t off, int who)
{
    uint64_t x = ((uint64_t)off + 1) * 0x9E3779B97F4A7C15ull +
                 (uint64_t)who * 0x632BE59BD9B4E019ull;
    return (unsigned char)(x >> 56) | 1;
}

/* Fills at[] with the sampled offsets of [lo, hi): one per STRIDE at a varying place, both
 * ends, and the bytes around 2^31. Returns how many. */
static size_t samples(size_t lo, size_t hi, size_t *at)
{
    const size_t g = (size_t)1 << 31;
    const size_t extra[] = {lo, hi - 1, g - 1, g, g + 1};
    size_t n = 0;
    for (size_t k = 0; lo + k * STRIDE < hi; k++) {
        size_t off = lo + k * STRIDE + k % 4093;
        at[n++] = off < hi ? off : hi - 1;
    }
    for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
        if (extra[i] >= lo && extra[i] < hi)
            at[n++] = extra[i];
    return n;
}

static size_t at[4096]; /* samples of at most 4 GiB */

static void write_marks(unsigned char *buf, size_t lo, size_t hi, int who)
{
    size_t n = samples(lo, hi, at);
    for (size_t i = 0; i < n; i++)
        buf[at[i]] = mark(at[i], who);
}

/* Whether every sample of [lo, hi) holds step who's mark. */
static int marks_ok(const unsigned char *buf, size_t lo, size_t hi, int who)
{
    size_t n = samples(lo, hi, at);
    for (size_t i = 0; i < n; i++)
        if (buf[at[i]] != mark(at[i], who)) {
            fprintf(stderr, "rank %d: byte %zu is %d, not %d\n", rank, at[i], buf[at[i]],
                    mark(at[i], who));
            return 0;
        }
    return 1;
}

static void beyond_2g(void)
{
    const size_t n = ((size_t)1 << 31) + ((size_t)1 << 20); /* rank 0's block: > INT_MAX */
    const size_t m = (size_t)1 << 20;                       /* rank 1's block, at n */
    unsigned char *buf = NULL;
    int ok = 0, all = 0;
    if (rank == 0) {
        long pages = sysconf(_SC_AVPHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
        ok = size == 2 && pages > 0 && (double)pages * (double)psize >= 6.0 * (1 << 30);
        if (!ok)
            printf("large_count_coll: transfers beyond 2^31 bytes skipped (%s)\n",
                   size != 2 ? "they run at 2 ranks" : "less than 6 GiB of memory free");
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok)
        buf = malloc(n + m);
    ok = buf != NULL;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) {
        free(buf);
        return;
    }

    /* MPI_Bcast_c of n > 2^31 bytes. */
    memset(buf, rank == 0 ? 0x5a : 0, n);
    if (rank == 0)
        write_marks(buf, 0, n, 1);
    CHECK(MPI_Bcast_c(buf, (MPI_Count)n, MPI_BYTE, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank == 1) {
        CHECK(marks_ok(buf, 0, n, 1));
        for (size_t off = 4095; off < n; off += STRIDE * 7)
            CHECK(buf[off] == 0x5a);
    }

    /* MPI_Allgatherv_c in place: rank 0's n bytes reach rank 1, rank 1's m at n reach 0. */
    MPI_Count counts[2] = {(MPI_Count)n, (MPI_Count)m};
    MPI_Aint displs[2] = {0, (MPI_Aint)n};
    if (rank == 0)
        write_marks(buf, 0, n, 2);
    else
        write_marks(buf, n, n + m, 3);
    CHECK(MPI_Allgatherv_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, MPI_BYTE,
                           MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(rank == 0 ? marks_ok(buf, n, n + m, 3) : marks_ok(buf, 0, n, 2));

    /* MPI_Gatherv_c of a derived type of size 1, root in place: its count above INT_MAX, the
     * other block at a displacement beyond 2^31. */
    MPI_Datatype byte1;
    MPI_Type_contiguous(1, MPI_BYTE, &byte1);
    MPI_Type_commit(&byte1);
    if (rank == 1)
        write_marks(buf, n, n + m, 4);
    CHECK(MPI_Gatherv_c(rank == 0 ? MPI_IN_PLACE : buf + n, (MPI_Count)m, byte1, buf, counts,
                        displs, byte1, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank == 0)
        CHECK(marks_ok(buf, n, n + m, 4) && marks_ok(buf, 0, n, 2));
    MPI_Type_free(&byte1);
    free(buf);
}

int main(int argc, char **argv)
{
    int dims[1] = {0}, periods[1] = {1};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > MAXP) {
        if (rank == 0)
            printf("large_count_coll: at most %d ranks\n", MAXP);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int k = 0; k < OUTN; k++)
        in[k] = 1000 * rank + k;
    MPI_Dims_create(size, 1, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);

    same_results();
    bad_counts();
    beyond_2g();

    MPI_Comm_free(&ring);
    return mtest_finish();
}
