/* coll_persistent.c: MPI-4 persistent collectives (MPI-4.0 §6.13, §8.8). Every MPI_*_init call
 * is started several times, with send data changed between activations (the data at MPI_Start
 * counts), and each result is checked against values computed here; activations complete by
 * MPI_Wait, an MPI_Test loop or MPI_Waitall after MPI_Startall of several different requests.
 * The request stays allocated and inactive between activations (a Wait on it returns at once
 * with an empty status) until MPI_Request_free. Also: datatypes and ops freed after the init,
 * MPI_IN_PLACE, intercommunicators (size >= 2), a periodic ring's neighbourhood forms, and the
 * error classes of bad arguments and of starting an active request.
 * Program arguments (mini_mpi / ULFM only):
 *   revoke  an activation pending at a revoke, and one started after it, complete with
 *           MPI_ERR_REVOKED;
 *   fail    run under MINI_MPI_FAULTS='kill 1 at MPI_Start#3': activations 1 and 2 of a
 *           persistent allreduce succeed, 3 and 4 complete with MPI_ERR_PROC_FAILED at every
 *           survivor, and after a shrink a new persistent allreduce works. */
#include <string.h>
#include <unistd.h>

#include "mtest.h"

#define NACT 4
#define N 3

static int rank, size;
static const char *what = "";

static int v(int act, int r, int i)
{
    return act * 100000 + r * 100 + i;
}

/* Completes one activation of *req (Wait, or a Test loop on odd activations); checks that the
 * request stays allocated and that a Wait on the now inactive request returns at once. */
static void complete(MPI_Request *req, int act)
{
    MPI_Status st;
    int flag = 0;
    if (act % 2 == 0) {
        CHECK(MPI_Wait(req, &st) == MPI_SUCCESS);
    } else {
        while (!flag)
            CHECK(MPI_Test(req, &flag, &st) == MPI_SUCCESS);
    }
    if (*req == MPI_REQUEST_NULL) {
        fprintf(stderr, "rank %d: %s: persistent request freed by completion\n", rank, what);
        mtest_errors++;
        return;
    }
    st.MPI_SOURCE = 12345;
    CHECK(MPI_Wait(req, &st) == MPI_SUCCESS); /* inactive: empty status */
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG);
}

#define EXPECT(cond)                                                                        \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "rank %d: %s act %d: %s\n", rank, what, act, #cond);            \
            mtest_errors++;                                                                 \
        }                                                                                   \
    } while (0)

static void test_barrier(MPI_Comm comm)
{
    MPI_Request req;
    what = "barrier";
    CHECK(MPI_Barrier_init(comm, MPI_INFO_NULL, &req) == MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        /* In activation 1 the last rank is late: nobody's may complete before it starts. */
        double late = 0, done;
        if (rank == size - 1 && act == 1) {
            usleep(20000);
            late = MPI_Wtime();
        }
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        complete(&req, act);
        done = MPI_Wtime();
        if (act == 1) {
            MPI_Bcast(&late, 1, MPI_DOUBLE, size - 1, comm);
            EXPECT(done >= late);
        }
    }
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS && req == MPI_REQUEST_NULL);
}

static void test_bcast(MPI_Comm comm)
{
    int buf[N], root = size - 1;
    MPI_Request req;
    MPI_Datatype pair;
    what = "bcast";
    /* A derived type freed right after the init: the request keeps it. */
    MPI_Type_contiguous(1, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    CHECK(MPI_Bcast_init(buf, N, pair, root, comm, MPI_INFO_NULL, &req) == MPI_SUCCESS);
    MPI_Type_free(&pair);
    for (int act = 0; act < NACT; act++) {
        for (int i = 0; i < N; i++)
            buf[i] = rank == root ? v(act, root, i) : -1;
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        complete(&req, act);
        for (int i = 0; i < N; i++)
            EXPECT(buf[i] == v(act, root, i));
    }
    MPI_Request_free(&req);
}

static void test_gather(MPI_Comm comm)
{
    int send[N] = {0}, *recv = malloc(sizeof(int) * N * size), root = 0;
    MPI_Request req;
    what = "gather";
    CHECK(MPI_Gather_init(send, N, MPI_INT, recv, N, MPI_INT, root, comm, MPI_INFO_NULL, &req) ==
          MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int i = 0; i < N; i++)
            send[i] = v(act, rank, i);
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        complete(&req, act);
        if (rank == root)
            for (int r = 0; r < size; r++)
                for (int i = 0; i < N; i++)
                    EXPECT(recv[r * N + i] == v(act, r, i));
    }
    MPI_Request_free(&req);

    /* Gatherv: rank r sends r % 3 + 1 elements, placed with a gap of one. */
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size), pos = 0;
    int *vrecv = malloc(sizeof(int) * 5 * size);
    root = size / 2;
    what = "gatherv";
    for (int r = 0; r < size; r++) {
        counts[r] = r % 3 + 1;
        displs[r] = pos;
        pos += counts[r] + 1;
    }
    CHECK(MPI_Gatherv_init(send, rank % 3 + 1, MPI_INT, vrecv, counts, displs, MPI_INT, root,
                           comm, MPI_INFO_NULL, &req) == MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int i = 0; i < N; i++)
            send[i] = v(act, rank, i);
        for (int i = 0; i < 5 * size; i++)
            vrecv[i] = -1;
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        complete(&req, act);
        if (rank == root)
            for (int r = 0; r < size; r++) {
                for (int i = 0; i < counts[r]; i++)
                    EXPECT(vrecv[displs[r] + i] == v(act, r, i));
                EXPECT(vrecv[displs[r] + counts[r]] == -1);
            }
    }
    MPI_Request_free(&req);
    free(counts);
    free(displs);
    free(vrecv);
    free(recv);
}

static void test_scatter(MPI_Comm comm)
{
    int *send = calloc((size_t)N * size, sizeof(int)), recv[N], root = size - 1;
    MPI_Request req;
    what = "scatter";
    CHECK(MPI_Scatter_init(send, N, MPI_INT, recv, N, MPI_INT, root, comm, MPI_INFO_NULL,
                           &req) == MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int r = 0; r < size; r++)
            for (int i = 0; i < N; i++)
                send[r * N + i] = rank == root ? v(act, r, i) : -2;
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        complete(&req, act);
        for (int i = 0; i < N; i++)
            EXPECT(recv[i] == v(act, rank, i));
    }
    MPI_Request_free(&req);

    /* Scatterv: rank r gets r % 2 + 1 elements from displacement 3 r. */
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
    root = 0;
    what = "scatterv";
    for (int r = 0; r < size; r++) {
        counts[r] = r % 2 + 1;
        displs[r] = 3 * r;
    }
    CHECK(MPI_Scatterv_init(send, counts, displs, MPI_INT, recv, rank % 2 + 1, MPI_INT, root,
                            comm, MPI_INFO_NULL, &req) == MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int r = 0; r < size; r++)
            for (int i = 0; i < N; i++)
                send[r * N + i] = v(act, r, i);
        recv[2] = -1;
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        complete(&req, act);
        for (int i = 0; i < rank % 2 + 1; i++)
            EXPECT(recv[i] == v(act, rank, i));
        EXPECT(recv[2] == -1);
    }
    MPI_Request_free(&req);
    free(counts);
    free(displs);
    free(send);
}

static void test_allgather(MPI_Comm comm)
{
    int send[N] = {0}, *recv = malloc(sizeof(int) * N * size);
    MPI_Request req[3];
    what = "allgather";
    CHECK(MPI_Allgather_init(send, N, MPI_INT, recv, N, MPI_INT, comm, MPI_INFO_NULL,
                             &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Allgather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, N, MPI_INT, comm,
                             MPI_INFO_NULL, &req[1]) == MPI_SUCCESS);
    for (int act = 0; act < NACT; act++)
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < N * size; i++)
                recv[i] = -1;
            for (int i = 0; i < N; i++)
                send[i] = recv[rank * N + i] = v(act + k, rank, i);
            CHECK(MPI_Start(&req[k]) == MPI_SUCCESS);
            complete(&req[k], act);
            for (int r = 0; r < size; r++)
                for (int i = 0; i < N; i++)
                    EXPECT(recv[r * N + i] == v(act + k, r, i));
        }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);

    /* Allgatherv: rank r contributes r % 3 + 1 elements, in reverse rank order. */
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size), pos = 0;
    int *vrecv = malloc(sizeof(int) * 3 * size);
    what = "allgatherv";
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = r % 3 + 1;
        displs[r] = pos;
        pos += counts[r];
    }
    CHECK(MPI_Allgatherv_init(send, rank % 3 + 1, MPI_INT, vrecv, counts, displs, MPI_INT, comm,
                              MPI_INFO_NULL, &req[2]) == MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int i = 0; i < N; i++)
            send[i] = v(act, rank, i);
        CHECK(MPI_Start(&req[2]) == MPI_SUCCESS);
        complete(&req[2], act);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++)
                EXPECT(vrecv[displs[r] + i] == v(act, r, i));
    }
    MPI_Request_free(&req[2]);
    free(counts);
    free(displs);
    free(vrecv);
    free(recv);
}

static void test_alltoall(MPI_Comm comm)
{
    int *send = calloc(2 * (size_t)size, sizeof(int)), *recv = malloc(sizeof(int) * 2 * size);
    MPI_Request req;
    what = "alltoall";
    CHECK(MPI_Alltoall_init(send, 2, MPI_INT, recv, 2, MPI_INT, comm, MPI_INFO_NULL, &req) ==
          MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int j = 0; j < 2 * size; j++)
            send[j] = v(act, rank, j);
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        complete(&req, act);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < 2; i++)
                EXPECT(recv[r * 2 + i] == v(act, r, rank * 2 + i));
    }
    MPI_Request_free(&req);

    /* Alltoallv: rank r sends (r + j) % 2 + 1 elements to j, blocks 2 apart. */
    int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
    int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
    what = "alltoallv";
    for (int j = 0; j < size; j++) {
        sc[j] = (rank + j) % 2 + 1;
        rc[j] = (j + rank) % 2 + 1;
        sd[j] = rd[j] = 2 * j;
    }
    CHECK(MPI_Alltoallv_init(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, comm, MPI_INFO_NULL,
                             &req) == MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int j = 0; j < 2 * size; j++)
            send[j] = v(act, rank, j);
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        complete(&req, act);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < rc[r]; i++)
                EXPECT(recv[2 * r + i] == v(act, r, 2 * rank + i));
    }
    MPI_Request_free(&req);

    /* Alltoallw: one int to each, byte displacements, types freed after the init. */
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * size);
    MPI_Datatype *rt = malloc(sizeof(MPI_Datatype) * size);
    what = "alltoallw";
    for (int j = 0; j < size; j++) {
        sc[j] = rc[j] = 1;
        sd[j] = rd[j] = (int)sizeof(int) * (size - 1 - j);
        MPI_Type_contiguous(1, MPI_INT, &st[j]);
        MPI_Type_commit(&st[j]);
        rt[j] = MPI_INT;
    }
    CHECK(MPI_Alltoallw_init(send, sc, sd, st, recv, rc, rd, rt, comm, MPI_INFO_NULL, &req) ==
          MPI_SUCCESS);
    for (int j = 0; j < size; j++)
        MPI_Type_free(&st[j]);
    for (int act = 0; act < NACT; act++) {
        for (int j = 0; j < size; j++)
            send[size - 1 - j] = v(act, rank, j);
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        complete(&req, act);
        for (int r = 0; r < size; r++)
            EXPECT(recv[size - 1 - r] == v(act, r, rank));
    }
    MPI_Request_free(&req);
    free(st);
    free(rt);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(send);
    free(recv);
}

static void my_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

/* Sum over ranks lo..hi-1 of v(act, r, i). */
static int vsum(int act, int lo, int hi, int i)
{
    int s = 0;
    for (int r = lo; r < hi; r++)
        s += v(act, r, i);
    return s;
}

static void test_reduce(MPI_Comm comm)
{
    int send[N] = {0}, recv[N], root = size / 2;
    MPI_Request req[3];
    MPI_Op op;
    what = "reduce";
    /* A user op freed right after the init: the request keeps it. */
    MPI_Op_create(my_sum, 1, &op);
    CHECK(MPI_Reduce_init(send, recv, N, MPI_INT, op, root, comm, MPI_INFO_NULL, &req[0]) ==
          MPI_SUCCESS);
    MPI_Op_free(&op);
    for (int act = 0; act < NACT; act++) {
        for (int i = 0; i < N; i++) {
            send[i] = v(act, rank, i);
            recv[i] = -1;
        }
        CHECK(MPI_Start(&req[0]) == MPI_SUCCESS);
        complete(&req[0], act);
        for (int i = 0; i < N; i++)
            EXPECT(rank == root ? recv[i] == vsum(act, 0, size, i) : recv[i] == -1);
    }
    MPI_Request_free(&req[0]);

    what = "allreduce";
    CHECK(MPI_Allreduce_init(send, recv, N, MPI_INT, MPI_MAX, comm, MPI_INFO_NULL, &req[0]) ==
          MPI_SUCCESS);
    CHECK(MPI_Allreduce_init(MPI_IN_PLACE, recv, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL,
                             &req[1]) == MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int i = 0; i < N; i++)
            send[i] = v(act, rank, i);
        CHECK(MPI_Start(&req[0]) == MPI_SUCCESS);
        complete(&req[0], act);
        for (int i = 0; i < N; i++)
            EXPECT(recv[i] == v(act, size - 1, i));
        for (int i = 0; i < N; i++)
            recv[i] = v(act, rank, i);
        CHECK(MPI_Start(&req[1]) == MPI_SUCCESS);
        complete(&req[1], act);
        for (int i = 0; i < N; i++)
            EXPECT(recv[i] == vsum(act, 0, size, i));
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);

    /* Reduce_scatter_block: 2 elements each; Reduce_scatter: r % 2 + 1 elements to r. */
    int *big = malloc(sizeof(int) * 2 * size), *counts = malloc(sizeof(int) * size), off = 0;
    what = "reduce_scatter";
    for (int r = 0; r < size; r++) {
        counts[r] = r % 2 + 1;
        if (r < rank)
            off += counts[r];
    }
    CHECK(MPI_Reduce_scatter_block_init(big, recv, 2, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL,
                                        &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Reduce_scatter_init(big, recv + 2, counts, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL,
                                  &req[1]) == MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int j = 0; j < 2 * size; j++)
            big[j] = v(act, rank, j);
        CHECK(MPI_Start(&req[0]) == MPI_SUCCESS);
        complete(&req[0], act);
        for (int i = 0; i < 2; i++)
            EXPECT(recv[i] == vsum(act, 0, size, 2 * rank + i));
        CHECK(MPI_Start(&req[1]) == MPI_SUCCESS);
        complete(&req[1], act);
        for (int i = 0; i < counts[rank]; i++)
            EXPECT(recv[2 + i] == vsum(act, 0, size, off + i));
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    free(big);
    free(counts);

    what = "scan";
    int ex[N];
    CHECK(MPI_Scan_init(send, recv, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req[0]) ==
          MPI_SUCCESS);
    CHECK(MPI_Exscan_init(send, ex, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req[1]) ==
          MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int i = 0; i < N; i++)
            send[i] = v(act, rank, i);
        CHECK(MPI_Start(&req[0]) == MPI_SUCCESS);
        complete(&req[0], act);
        CHECK(MPI_Start(&req[1]) == MPI_SUCCESS);
        complete(&req[1], act);
        for (int i = 0; i < N; i++) {
            EXPECT(recv[i] == vsum(act, 0, rank + 1, i));
            EXPECT(rank == 0 || ex[i] == vsum(act, 0, rank, i));
        }
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
}

/* Several different persistent collectives started together, several rounds. */
static void test_startall(MPI_Comm comm)
{
    int bc[N], in[N], sum[N], sc[N], *a2s = malloc(sizeof(int) * size);
    int *a2r = malloc(sizeof(int) * size);
    MPI_Request req[5];
    MPI_Status st[5];
    what = "startall";
    CHECK(MPI_Bcast_init(bc, N, MPI_INT, 0, comm, MPI_INFO_NULL, &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Allreduce_init(in, sum, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req[1]) ==
          MPI_SUCCESS);
    CHECK(MPI_Barrier_init(comm, MPI_INFO_NULL, &req[2]) == MPI_SUCCESS);
    CHECK(MPI_Alltoall_init(a2s, 1, MPI_INT, a2r, 1, MPI_INT, comm, MPI_INFO_NULL, &req[3]) ==
          MPI_SUCCESS);
    CHECK(MPI_Scan_init(in, sc, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req[4]) ==
          MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int i = 0; i < N; i++) {
            bc[i] = rank == 0 ? v(act, 0, i) : -1;
            in[i] = v(act, rank, i);
        }
        for (int j = 0; j < size; j++)
            a2s[j] = v(act, rank, j);
        CHECK(MPI_Startall(5, req) == MPI_SUCCESS);
        if (act % 2) {
            int flag = 0;
            while (!flag)
                CHECK(MPI_Testall(5, req, &flag, st) == MPI_SUCCESS);
        } else {
            CHECK(MPI_Waitall(5, req, st) == MPI_SUCCESS);
        }
        for (int k = 0; k < 5; k++)
            EXPECT(req[k] != MPI_REQUEST_NULL);
        for (int i = 0; i < N; i++) {
            EXPECT(bc[i] == v(act, 0, i));
            EXPECT(sum[i] == vsum(act, 0, size, i));
            EXPECT(sc[i] == vsum(act, 0, rank + 1, i));
        }
        for (int j = 0; j < size; j++)
            EXPECT(a2r[j] == v(act, j, rank));
    }
    /* Waitany/Waitsome on inactive requests: nothing to do. */
    int index, outcount, idx[5];
    CHECK(MPI_Waitany(5, req, &index, st) == MPI_SUCCESS && index == MPI_UNDEFINED);
    CHECK(MPI_Waitsome(5, req, &outcount, idx, st) == MPI_SUCCESS && outcount == MPI_UNDEFINED);
    for (int k = 0; k < 5; k++)
        CHECK(MPI_Request_free(&req[k]) == MPI_SUCCESS);
    free(a2s);
    free(a2r);
}

/* A periodic ring: sources and destinations are (left, right). */
static void test_neighbor(void)
{
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1}, left = (rank - 1 + size) % size,
        right = (rank + 1) % size;
    int send[2 * N], recv[2 * N], counts[2] = {N, N}, displs[2] = {0, N};
    MPI_Aint adispls[2] = {0, N * sizeof(int)};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Request req[5];
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    what = "neighbor";
    CHECK(MPI_Neighbor_allgather_init(send, N, MPI_INT, recv, N, MPI_INT, ring, MPI_INFO_NULL,
                                      &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Neighbor_allgatherv_init(send, N, MPI_INT, recv, counts, displs, MPI_INT, ring,
                                       MPI_INFO_NULL, &req[1]) == MPI_SUCCESS);
    CHECK(MPI_Neighbor_alltoall_init(send, N, MPI_INT, recv, N, MPI_INT, ring, MPI_INFO_NULL,
                                     &req[2]) == MPI_SUCCESS);
    CHECK(MPI_Neighbor_alltoallv_init(send, counts, displs, MPI_INT, recv, counts, displs,
                                      MPI_INT, ring, MPI_INFO_NULL, &req[3]) == MPI_SUCCESS);
    CHECK(MPI_Neighbor_alltoallw_init(send, counts, adispls, types, recv, counts, adispls, types,
                                      ring, MPI_INFO_NULL, &req[4]) == MPI_SUCCESS);
    for (int act = 0; act < NACT; act++)
        for (int k = 0; k < 5; k++) {
            for (int i = 0; i < 2 * N; i++) {
                send[i] = v(act + k, rank, i);
                recv[i] = -1;
            }
            CHECK(MPI_Start(&req[k]) == MPI_SUCCESS);
            complete(&req[k], act);
            /* Allgather forms: each neighbour's first block. All-to-all forms: block 1 of
             * the left neighbour (its block for its right), block 0 of the right one. */
            int a2a = k >= 2;
            for (int i = 0; i < N; i++) {
                EXPECT(recv[i] == v(act + k, left, (a2a ? N : 0) + i));
                EXPECT(recv[N + i] == v(act + k, right, i));
            }
        }
    for (int k = 0; k < 5; k++)
        MPI_Request_free(&req[k]);
    MPI_Comm_free(&ring);
}

/* Two groups (even and odd world ranks) of an intercommunicator. */
static void test_inter(void)
{
    MPI_Comm local, inter;
    MPI_Request req[3];
    int low = rank % 2 == 0, lrank, rsize, buf[N], in[N], out[N];
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
    MPI_Comm_rank(local, &lrank);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? 1 : 0, 7, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_remote_size(inter, &rsize);
    what = "intercomm";
    /* The even group's rank 0 broadcasts to the odd group. */
    int root = low ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    CHECK(MPI_Bcast_init(buf, N, MPI_INT, root, inter, MPI_INFO_NULL, &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Allreduce_init(in, out, N, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &req[1]) ==
          MPI_SUCCESS);
    CHECK(MPI_Barrier_init(inter, MPI_INFO_NULL, &req[2]) == MPI_SUCCESS);
    for (int act = 0; act < NACT; act++) {
        for (int i = 0; i < N; i++) {
            buf[i] = root == MPI_ROOT ? v(act, 0, i) : -1;
            in[i] = v(act, rank, i);
        }
        CHECK(MPI_Startall(3, req) == MPI_SUCCESS);
        CHECK(MPI_Waitall(3, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
        for (int i = 0; i < N; i++) {
            EXPECT(low || buf[i] == v(act, 0, i));
            /* The sum over the remote group: world ranks of the other parity. */
            int s = 0;
            for (int r = low ? 1 : 0; r < size; r += 2)
                s += v(act, r, i);
            EXPECT(out[i] == s);
        }
    }
    for (int k = 0; k < 3; k++)
        MPI_Request_free(&req[k]);
    /* No prefix reductions on intercommunicators (MPI-4.1 §6.2.2). */
    CHECK(MPI_Scan_init(in, out, N, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &req[0]) ==
          MPI_ERR_COMM);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

static int eclass(int err)
{
    int c;
    MPI_Error_class(err, &c);
    return c;
}

static void test_errors(MPI_Comm comm)
{
    int buf[4] = {0}, out[4];
    MPI_Request req, req2, arr[2];
    MPI_Info info;
    what = "errors";
    CHECK(eclass(MPI_Bcast_init(buf, 1, MPI_INT, 0, MPI_COMM_NULL, MPI_INFO_NULL, &req)) ==
          MPI_ERR_COMM);
    CHECK(eclass(MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &req)) == MPI_ERR_COMM);
    CHECK(eclass(MPI_Bcast_init(buf, -1, MPI_INT, 0, comm, MPI_INFO_NULL, &req)) ==
          MPI_ERR_COUNT);
    CHECK(eclass(MPI_Bcast_init(buf, 1, MPI_DATATYPE_NULL, 0, comm, MPI_INFO_NULL, &req)) ==
          MPI_ERR_TYPE);
    CHECK(eclass(MPI_Bcast_init(buf, 1, MPI_INT, size, comm, MPI_INFO_NULL, &req)) ==
          MPI_ERR_ROOT);
    CHECK(eclass(MPI_Bcast_init(NULL, 1, MPI_INT, 0, comm, MPI_INFO_NULL, &req)) ==
          MPI_ERR_BUFFER);
    CHECK(eclass(MPI_Allreduce_init(buf, out, 1, MPI_INT, MPI_OP_NULL, comm, MPI_INFO_NULL,
                                    &req)) == MPI_ERR_OP);
    CHECK(eclass(MPI_Reduce_init(buf, out, 1, MPI_INT, MPI_SUM, -1, comm, MPI_INFO_NULL,
                                 &req)) == MPI_ERR_ROOT);
    CHECK(eclass(MPI_Gather_init(buf, -2, MPI_INT, out, 1, MPI_INT, 0, comm, MPI_INFO_NULL,
                                 &req)) == MPI_ERR_COUNT);
    CHECK(eclass(MPI_Allgather_init(buf, 1, MPI_INT, buf, 1, MPI_INT, comm, MPI_INFO_NULL,
                                    &req)) == MPI_ERR_BUFFER);
    MPI_Info_create(&info);
    MPI_Info stale = info;
    MPI_Info_free(&info);
    CHECK(eclass(MPI_Allreduce_init(buf, out, 1, MPI_INT, MPI_SUM, comm, stale, &req)) ==
          MPI_ERR_INFO);
#ifdef MINI_MPI
    /* Not checked by MPICH 4.0.2: a NULL request argument, an active request freed. */
    CHECK(eclass(MPI_Barrier_init(comm, MPI_INFO_NULL, NULL)) == MPI_ERR_ARG);
#endif
    /* An info with hints is accepted (and ignored). */
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_source", "true");
    CHECK(MPI_Allreduce_init(buf, out, 4, MPI_INT, MPI_SUM, comm, info, &req) == MPI_SUCCESS);
    MPI_Info_free(&info);

    /* Starting an active request is erroneous; it stays active and completes normally. */
    CHECK(MPI_Barrier_init(comm, MPI_INFO_NULL, &req2) == MPI_SUCCESS);
    for (int i = 0; i < 4; i++)
        buf[i] = rank + i;
    CHECK(MPI_Start(&req) == MPI_SUCCESS);
    CHECK(eclass(MPI_Start(&req)) == MPI_ERR_REQUEST);
    arr[0] = req2;
    arr[1] = req;
#ifdef MINI_MPI
    /* Startall with an active member starts nothing (mini_mpi validates first). */
    CHECK(eclass(MPI_Startall(2, arr)) == MPI_ERR_REQUEST);
    CHECK(eclass(MPI_Request_free(&req)) == MPI_ERR_REQUEST && req != MPI_REQUEST_NULL);
#endif
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    for (int i = 0; i < 4; i++)
        CHECK(out[i] == size * i + size * (size - 1) / 2);
#ifdef MINI_MPI
    int flag = 0;
    MPI_Status st;
    CHECK(MPI_Request_get_status(req2, &flag, &st) == MPI_SUCCESS && flag); /* inactive */
#endif
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
    CHECK(MPI_Request_free(&req2) == MPI_SUCCESS);
    /* MPI_Start on a freed (null) request. */
    CHECK(eclass(MPI_Start(&req)) == MPI_ERR_REQUEST);
}

#ifdef MINI_MPI
static void test_revoke(void)
{
    MPI_Comm comm;
    MPI_Request req[2];
    int in[N], out[N];
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    CHECK(MPI_Allreduce_init(in, out, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req[0]) ==
          MPI_SUCCESS);
    CHECK(MPI_Barrier_init(comm, MPI_INFO_NULL, &req[1]) == MPI_SUCCESS);
    for (int i = 0; i < N; i++)
        in[i] = i;
    /* One good activation first. */
    CHECK(MPI_Start(&req[0]) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(out[1] == size);
    /* Everybody but rank 0 starts; rank 0 revokes instead: the pending ones fail. */
    if (rank != 0)
        CHECK(MPI_Start(&req[0]) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        CHECK(MPIX_Comm_revoke(comm) == MPI_SUCCESS);
    if (rank != 0)
        CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE) == MPI_ERR_REVOKED);
    MPI_Barrier(MPI_COMM_WORLD);
    /* Activations started after the revoke fail too, and the requests stay usable. */
    for (int act = 0; act < 2; act++) {
        CHECK(MPI_Startall(2, req) == MPI_SUCCESS);
        CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE) == MPI_ERR_REVOKED);
        CHECK(MPI_Wait(&req[1], MPI_STATUS_IGNORE) == MPI_ERR_REVOKED);
    }
    CHECK(MPI_Request_free(&req[0]) == MPI_SUCCESS);
    CHECK(MPI_Request_free(&req[1]) == MPI_SUCCESS);
    MPI_Comm_free(&comm);
}

/* Under MINI_MPI_FAULTS='kill 1 at MPI_Start#3'. */
static void test_fail(void)
{
    MPI_Request req;
    MPI_Comm shrunk;
    int in[N], out[N];
    CHECK(MPI_Allreduce_init(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &req) == MPI_SUCCESS);
    for (int act = 1; act <= 4; act++) {
        for (int i = 0; i < N; i++)
            in[i] = act + i;
        CHECK(MPI_Start(&req) == MPI_SUCCESS); /* rank 1 dies in its third */
        int err = MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (act <= 2) {
            CHECK(err == MPI_SUCCESS);
            CHECK(out[2] == size * (act + 2));
        } else {
            CHECK(err == MPI_ERR_PROC_FAILED);
        }
    }
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS);
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
    CHECK(MPI_Allreduce_init(in, out, N, MPI_INT, MPI_SUM, shrunk, MPI_INFO_NULL, &req) ==
          MPI_SUCCESS);
    for (int act = 0; act < 2; act++) {
        for (int i = 0; i < N; i++)
            in[i] = act + i;
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(out[1] == (size - 1) * (act + 1));
    }
    MPI_Request_free(&req);
    MPI_Comm_free(&shrunk);
}
#endif

int main(int argc, char **argv)
{
    MPI_Comm comm;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
#ifdef MINI_MPI
    if (argc > 1 && strcmp(argv[1], "fail") == 0) {
        test_fail();
        return mtest_finish();
    }
    if (argc > 1 && strcmp(argv[1], "revoke") == 0) {
        test_revoke();
        return mtest_finish();
    }
#endif
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    test_barrier(comm);
    test_bcast(comm);
    test_gather(comm);
    test_scatter(comm);
    test_allgather(comm);
    test_alltoall(comm);
    test_reduce(comm);
    test_startall(comm);
    /* Persistent and blocking collectives interleaved on one communicator. */
    int one = 1, n = 0;
    CHECK(MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS && n == size);
    test_neighbor();
    if (size >= 2)
        test_inter();
    test_errors(comm);
    MPI_Comm_free(&comm);
    return mtest_finish();
}
