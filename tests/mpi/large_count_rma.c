/*
 * large_count_rma.c: the large-count (_c) forms of one-sided communication (MPI-4.1 §5.2,
 * §12): each _c call moves what its int form moves; MPI_Win_create_c / _allocate_c /
 * _allocate_shared_c take an MPI_Aint displacement unit, which MPI_Win_shared_query_c returns
 * whole and the int form refuses with MPI_ERR_VALUE_TOO_LARGE when it exceeds an int; errors
 * are raised on the window (its handler, not the communicator's); and a put of more than 2^31
 * bytes between two ranks carries every byte, when the machine has the memory (else a note).
 * Run with 2 ranks.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mtest.h"

static int win_errors, comm_errors;
static void on_win(MPI_Win *win, int *code, ...)
{
    win_errors++;
}
static void on_comm(MPI_Comm *comm, int *code, ...)
{
    comm_errors++;
}

/* Each _c form next to its int form, on a window of 16 ints per rank. */
static void same_as_int(int rank, int peer)
{
    int *base;
    MPI_Win win;
    CHECK(MPI_Win_allocate_c(16 * sizeof(int), (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &base, &win) == MPI_SUCCESS);
    for (int i = 0; i < 16; i++)
        base[i] = 0;
    int src[4] = {rank + 1, rank + 2, rank + 3, rank + 4}, got[4], got_c[4], res[4];
    MPI_Win_fence(0, win);
    MPI_Put(src, 2, MPI_INT, peer, 0, 2, MPI_INT, win);
    MPI_Put_c(src + 2, 2, MPI_INT, peer, 2, 2, MPI_INT, win);
    MPI_Accumulate(src, 2, MPI_INT, peer, 4, 2, MPI_INT, MPI_SUM, win);
    MPI_Accumulate_c(src, 2, MPI_INT, peer, 4, 2, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    CHECK(base[0] == peer + 1 && base[3] == peer + 4);
    CHECK(base[4] == 2 * (peer + 1) && base[5] == 2 * (peer + 2));
    MPI_Get(got, 4, MPI_INT, peer, 0, 4, MPI_INT, win);
    MPI_Get_c(got_c, 4, MPI_INT, peer, 0, 4, MPI_INT, win);
    MPI_Win_fence(0, win);
    CHECK(memcmp(got, got_c, sizeof got) == 0 && got[0] == rank + 1);
    MPI_Get_accumulate_c(src, 1, MPI_INT, res, 1, MPI_INT, peer, 8, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    CHECK(res[0] == 0 && base[8] == peer + 1);

    MPI_Request req[4];
    MPI_Win_lock_all(0, win);
    MPI_Rput_c(src, 1, MPI_INT, peer, 9, 1, MPI_INT, win, &req[0]);
    MPI_Raccumulate_c(src, 1, MPI_INT, peer, 10, 1, MPI_INT, MPI_SUM, win, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    MPI_Win_flush_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Rget_c(got_c, 2, MPI_INT, peer, 9, 2, MPI_INT, win, &req[2]);
    MPI_Rget_accumulate_c(NULL, 0, MPI_INT, res, 1, MPI_INT, peer, 9, 1, MPI_INT, MPI_NO_OP, win,
                          &req[3]);
    MPI_Waitall(2, req + 2, MPI_STATUSES_IGNORE);
    MPI_Win_unlock_all(win);
    CHECK(got_c[0] == rank + 1 && got_c[1] == rank + 1 && res[0] == rank + 1);

    MPI_Aint size, unit;
    int iunit;
    void *qbase;
    CHECK(MPI_Win_shared_query_c(win, peer, &size, &unit, &qbase) == MPI_SUCCESS);
    CHECK(size == 16 * sizeof(int) && unit == sizeof(int));
    CHECK(MPI_Win_shared_query(win, peer, &size, &iunit, &qbase) == MPI_SUCCESS);
    CHECK(iunit == sizeof(int));
    MPI_Win_free(&win);

    /* Shared memory, allocated through the _c form. */
    double *sbase;
    CHECK(MPI_Win_allocate_shared_c(8, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &sbase, &win) ==
          MPI_SUCCESS);
    *sbase = rank;
    MPI_Win_fence(0, win);
    double *pbase;
    CHECK(MPI_Win_shared_query_c(win, peer, &size, &unit, &pbase) == MPI_SUCCESS);
    CHECK(size == 8 && unit == 8 && *pbase == peer);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

/* A displacement unit beyond an int, and errors on the window. */
static void units_and_errors(int rank, int peer)
{
    static char mem[64];
    MPI_Win win;
    MPI_Errhandler weh, ceh;
    const MPI_Aint big_unit = (MPI_Aint)INT_MAX + 8;
    CHECK(MPI_Win_create_c(mem, sizeof mem, big_unit, MPI_INFO_NULL, MPI_COMM_WORLD, &win) ==
          MPI_SUCCESS);
    MPI_Win_create_errhandler(on_win, &weh);
    MPI_Win_set_errhandler(win, weh);
    MPI_Comm_create_errhandler(on_comm, &ceh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, ceh);

    MPI_Aint size, unit;
    int iunit = -1;
    void *qbase;
    CHECK(MPI_Win_shared_query_c(win, peer, &size, &unit, &qbase) == MPI_SUCCESS);
    CHECK(unit == big_unit && size == sizeof mem);
    CHECK(MPI_Win_shared_query(win, peer, &size, &iunit, &qbase) == MPI_ERR_VALUE_TOO_LARGE);
    CHECK(iunit == -1 && win_errors == 1);
    /* Displacement 0 is the only one inside the window with this unit. */
    MPI_Win_fence(0, win);
    char c = (char)('a' + rank);
    CHECK(MPI_Put_c(&c, 1, MPI_CHAR, peer, 0, 1, MPI_CHAR, win) == MPI_SUCCESS);
    CHECK(MPI_Put_c(&c, 1, MPI_CHAR, peer, 1, 1, MPI_CHAR, win) == MPI_ERR_RMA_RANGE);
    CHECK(MPI_Put_c(&c, -1, MPI_CHAR, peer, 0, -1, MPI_CHAR, win) == MPI_ERR_COUNT);
    CHECK(MPI_Get_c(&c, 1, MPI_CHAR, peer, 0, -2, MPI_CHAR, win) == MPI_ERR_COUNT);
    CHECK(MPI_Accumulate_c(&c, 1, MPI_CHAR, peer, 0, 2, MPI_CHAR, MPI_SUM, win) == MPI_ERR_TYPE);
    MPI_Request req;
    CHECK(MPI_Raccumulate_c(&c, 1, MPI_CHAR, peer, 0, 1, MPI_CHAR, MPI_REPLACE, win, NULL) ==
          MPI_ERR_ARG);
    CHECK(MPI_Rget_c(&c, 1, MPI_CHAR, peer, 0, 1, MPI_CHAR, win, NULL) == MPI_ERR_ARG);
    (void)req;
    MPI_Win_fence(0, win);
    CHECK(mem[0] == 'a' + peer);
    CHECK(win_errors == 7 && comm_errors == 0);

    /* Creation errors go to the communicator. */
    MPI_Win w2;
    CHECK(MPI_Win_create_c(mem, sizeof mem, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &w2) == MPI_ERR_ARG);
    CHECK(MPI_Win_allocate_c(-1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &qbase, &w2) == MPI_ERR_SIZE);
    CHECK(comm_errors == 2 && win_errors == 7);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&weh);
    MPI_Errhandler_free(&ceh);
    MPI_Win_free(&win);
}

/* MemAvailable of /proc/meminfo in bytes, 0 if unknown. */
static unsigned long long mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb * 1024;
}

/* Rank 0 puts 2^31 + 16 bytes into rank 1's window in one MPI_Put_c. */
static void put_beyond_int(int rank)
{
    const MPI_Count n = (1LL << 31) + 16;
    int ok = mem_available() > 6ULL << 30;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) {
        if (rank == 0)
            printf("large_count_rma: less than 6 GiB available, the 2^31-byte put is skipped\n");
        return;
    }
    unsigned char *base = NULL, *src = NULL;
    MPI_Win win;
    CHECK(MPI_Win_allocate_c(rank == 1 ? n : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win) ==
          MPI_SUCCESS);
    if (rank == 0) {
        src = malloc((size_t)n);
        for (MPI_Count i = 0; i < n; i += 4096)
            src[i] = (unsigned char)(i / 4096);
        src[n - 1] = 0xab;
    }
    MPI_Win_fence(0, win);
    if (rank == 0)
        CHECK(MPI_Put_c(src, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win) == MPI_SUCCESS);
    MPI_Win_fence(0, win);
    if (rank == 1) {
        int bad = 0;
        for (MPI_Count i = 0; i < n - 1; i += 4096)
            bad += base[i] != (unsigned char)(i / 4096);
        CHECK(bad == 0 && base[n - 1] == 0xab);
    }
    free(src);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = (rank + 1) % size;
    same_as_int(rank, peer);
    units_and_errors(rank, peer);
    put_beyond_int(rank);
    return mtest_finish();
}
