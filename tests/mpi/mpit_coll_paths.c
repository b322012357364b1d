/*
 * mpit_coll_paths: the coll_* performance variables (docs/tools-interface.md) against the
 * collective calls the program makes, element by element: each variable has one element per
 * path (fast, crowd, board, inter), and a call must count once, on the path the docs say it
 * takes. On MPI_COMM_WORLD and MPI_COMM_SELF, MPI_Barrier and a small MPI_Allreduce of a
 * predefined op take the fast path up to MINI_MPI_COLL_FAST_MAX members (read through its
 * control variable), the crowd path above it, the board when it is 0; every other collective,
 * every nonblocking one and every persistent activation takes the board, or the inter path on an
 * intercommunicator. What the library runs for a window's fence or a collective file access is
 * not a call of the program and counts nothing. Also checks that a handle reports 4 elements,
 * that reset and write act on each, and that the category mini_mpi_coll lists the 39
 * variables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

enum { FAST, CROWD, BOARD, INTER, NPATHS };
#define NVARS 39

static const char *names[] = {
    "coll_barrier",
    "coll_ibarrier",
    "coll_barrier_init",
    "coll_bcast",
    "coll_ibcast",
    "coll_bcast_init",
    "coll_allreduce",
    "coll_iallreduce",
    "coll_allreduce_init",
    "coll_reduce",
    "coll_gather",
    "coll_igather",
    "coll_alltoall",
    "coll_scan",
    "coll_exscan",
    "coll_reduce_scatter",
    "coll_iscatter",
    "coll_allgather",
    "coll_neighbor_allgather",
    "coll_ineighbor_alltoall",
};
#define NNAMES ((int)(sizeof names / sizeof names[0]))

static MPI_T_pvar_session session;
static MPI_T_pvar_handle handles[NNAMES];
static unsigned long long expected[NNAMES][NPATHS];

static int find(const char *name)
{
    for (int i = 0; i < NNAMES; i++)
        if (!strcmp(names[i], name))
            return i;
    CHECK(0);
    return 0;
}

/* The program's own count: n more calls of `name` on `path`. */
static void did(const char *name, int path, int n)
{
    expected[find(name)][path] += (unsigned long long)n;
}

static int fast_max(void)
{
    int index, count, v = -1;
    MPI_T_cvar_handle h;
    CHECK(MPI_T_cvar_get_index("MINI_MPI_COLL_FAST_MAX", &index) == MPI_SUCCESS);
    CHECK(MPI_T_cvar_handle_alloc(index, NULL, &h, &count) == MPI_SUCCESS && count == 1);
    CHECK(MPI_T_cvar_read(h, &v) == MPI_SUCCESS);
    MPI_T_cvar_handle_free(&h);
    return v;
}

/* Every variable's elements equal the program's counts. */
static void compare(const char *when, int rank)
{
    for (int i = 0; i < NNAMES; i++) {
        unsigned long long v[NPATHS] = {0};
        CHECK(MPI_T_pvar_read(session, handles[i], v) == MPI_SUCCESS);
        for (int p = 0; p < NPATHS; p++)
            if (v[p] != expected[i][p]) {
                printf("rank %d %s: %s[%d] = %llu, expected %llu\n", rank, when, names[i], p, v[p],
                       expected[i][p]);
                CHECK(0);
            }
    }
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
    int provided, rank, size, index, count;
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
    for (int i = 0; i < NNAMES; i++) {
        CHECK(MPI_T_pvar_get_index(names[i], MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS);
        CHECK(MPI_T_pvar_handle_alloc(session, index, NULL, &handles[i], &count) == MPI_SUCCESS);
        CHECK(count == NPATHS);
    }
    /* The category lists every operation's three forms. */
    int cat, nc, np, ns;
    CHECK(MPI_T_category_get_index("mini_mpi_coll", &cat) == MPI_SUCCESS);
    CHECK(MPI_T_category_get_info(cat, NULL, NULL, NULL, NULL, &nc, &np, &ns) == MPI_SUCCESS);
    CHECK(np == NVARS);

    int max = fast_max();
    /* What MPI_Barrier and a small MPI_Allreduce take on an intracommunicator of n members. */
    int line = max == 0 ? BOARD : size <= max ? FAST : CROWD;
    int self_line = max == 0 ? BOARD : FAST;
    compare("at start", rank); /* MPI_Init made no collective call the program sees */

    /* 100 barriers and 37 broadcasts; then the program's other calls. */
    int buf[64] = {0}, out[64];
    for (int i = 0; i < 100; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    did("coll_barrier", line, 100);
    for (int i = 0; i < 37; i++)
        MPI_Bcast(buf, 3, MPI_INT, i % size, MPI_COMM_WORLD);
    did("coll_bcast", BOARD, 37);
    compare("after barriers and broadcasts", rank);

    /* Allreduce: one int (the express path), two doubles (the fast lines' general form), a
     * user op and a large one (the board). */
    double d[2] = {1, 2}, dout[2];
    MPI_Op op;
    MPI_Op_create(user_sum, 1, &op);
    for (int i = 0; i < 23; i++)
        MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < 5; i++)
        MPI_Allreduce(d, dout, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    did("coll_allreduce", line, 28);
    MPI_Allreduce(buf, out, 1, MPI_INT, op, MPI_COMM_WORLD);
    MPI_Allreduce(buf, out, 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    did("coll_allreduce", BOARD, 2);
    MPI_Barrier(MPI_COMM_SELF);
    MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
    did("coll_barrier", self_line, 1);
    did("coll_allreduce", self_line, 1);
    MPI_Op_free(&op);

    /* Nonblocking forms. */
    MPI_Request req[8];
    for (int i = 0; i < 4; i++)
        MPI_Ibarrier(MPI_COMM_WORLD, &req[i]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    did("coll_ibarrier", BOARD, 4);
    MPI_Ibcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Iallreduce(buf + 32, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    did("coll_ibcast", BOARD, 1);
    did("coll_iallreduce", BOARD, 1);

    /* The others, v forms counting with their operation. */
    int *all = malloc(sizeof(int) * (size_t)size), *counts = malloc(sizeof(int) * (size_t)size),
        *displs = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = i;
    }
    MPI_Reduce(buf, out, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Gather(buf, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Gatherv(buf, 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Igather(buf, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Iscatter(all, 1, MPI_INT, out, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    MPI_Alltoall(all, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(buf, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Scan(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        counts[i] = 1;
    MPI_Reduce_scatter(all, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce_scatter_block(all, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    did("coll_reduce", BOARD, 1);
    did("coll_gather", BOARD, 2);
    did("coll_igather", BOARD, 1);
    did("coll_iscatter", BOARD, 1);
    did("coll_alltoall", BOARD, 1);
    did("coll_allgather", BOARD, 1);
    did("coll_scan", BOARD, 1);
    did("coll_exscan", BOARD, 1);
    did("coll_reduce_scatter", BOARD, 2);
    compare("after the other collectives", rank);

    /* Persistent: each MPI_Start counts, the init does not. */
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
    MPI_Bcast_init(buf, 2, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
    MPI_Allreduce_init(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[2]);
    compare("after the inits", rank);
    for (int i = 0; i < 6; i++) {
        MPI_Startall(i < 5 ? 3 : 2, req);
        MPI_Waitall(i < 5 ? 3 : 2, req, MPI_STATUSES_IGNORE);
    }
    for (int i = 0; i < 3; i++)
        MPI_Request_free(&req[i]);
    did("coll_barrier_init", BOARD, 6);
    did("coll_bcast_init", BOARD, 6);
    did("coll_allreduce_init", BOARD, 5);

    /* Neighbourhood collectives on a ring. */
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Neighbor_allgather(buf, 1, MPI_INT, out, 1, MPI_INT, ring);
    MPI_Ineighbor_alltoall(buf, 1, MPI_INT, out, 1, MPI_INT, ring, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Comm_free(&ring);
    did("coll_neighbor_allgather", BOARD, 1);
    did("coll_ineighbor_alltoall", BOARD, 1);

    /* An intercommunicator between the two halves: the inter path, whatever the size. */
    if (size >= 2) {
        MPI_Comm half, inter;
        int low = rank < size / 2;
        MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 7, &inter);
        for (int i = 0; i < 3; i++)
            MPI_Barrier(inter);
        MPI_Bcast(buf, 1, MPI_INT, low ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter);
        MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, inter);
        MPI_Ibarrier(inter, &req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        did("coll_barrier", INTER, 3);
        did("coll_bcast", INTER, 1);
        did("coll_allreduce", INTER, 1);
        did("coll_ibarrier", INTER, 1);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    compare("after the intercommunicator", rank);

    /* A window's fences and a collective file write run collectives on private
     * communicators: none counts. */
    MPI_Win win;
    MPI_File fh;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    CHECK(MPI_File_open(MPI_COMM_WORLD, "mpit_coll_paths.out", MPI_MODE_CREATE | MPI_MODE_RDWR,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    MPI_File_write_at_all(fh, (MPI_Offset)rank * 4, buf, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    if (rank == 0)
        MPI_File_delete("mpit_coll_paths.out", MPI_INFO_NULL);
    compare("at the end", rank);

    /* Reset and write act on every element of a handle, and on that handle only. */
    int b = find("coll_barrier");
    unsigned long long v[NPATHS], w[NPATHS] = {5, 6, 7, 8}, z[NPATHS] = {0};
    MPI_T_pvar_handle other;
    CHECK(MPI_T_pvar_get_index("coll_barrier", MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_handle_alloc(session, index, NULL, &other, &count) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_reset(session, handles[b]) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_read(session, handles[b], v) == MPI_SUCCESS && !memcmp(v, z, sizeof v));
    CHECK(MPI_T_pvar_write(session, handles[b], w) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    w[line]++;
    CHECK(MPI_T_pvar_read(session, handles[b], v) == MPI_SUCCESS && !memcmp(v, w, sizeof v));
    expected[b][line]++;
    CHECK(MPI_T_pvar_read(session, other, v) == MPI_SUCCESS && !memcmp(v, expected[b], sizeof v));

    free(all);
    free(counts);
    free(displs);
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    return mtest_finish();
}
