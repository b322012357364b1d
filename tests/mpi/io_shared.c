/*
 * io_shared.c: the shared file pointer (MPI-4.1 §14.4.4): write_shared records from every rank
 * land once each, in disjoint slots; ordered access follows rank order; seek_shared and
 * get_position_shared; nonblocking shared access.
 */
#include <string.h>
#include <unistd.h>

#include "mtest.h"

#define RECORDS 50

struct rec {
    int rank, seq;
};

int main(int argc, char **argv)
{
    int rank, size;
    char name[256];
    MPI_File fh;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(name, sizeof name, "%s/mmpi_io_shared_%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);

    /* appends from every rank at once */
    for (int i = 0; i < RECORDS; i++) {
        struct rec r = {rank, i};
        CHECK(MPI_File_write_shared(fh, &r, sizeof r, MPI_BYTE, &st) == MPI_SUCCESS);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Offset pos;
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == (MPI_Offset)(sizeof(struct rec) * RECORDS * size));
    struct rec *all = calloc((size_t)RECORDS * size, sizeof *all);
    MPI_File_read_at(fh, 0, all, (int)(sizeof *all * RECORDS * size), MPI_BYTE, &st);
    int *next = calloc((size_t)size, sizeof *next);
    for (int k = 0; k < RECORDS * size; k++) {
        /* each rank's records appear once each, in its own order */
        CHECK(all[k].rank >= 0 && all[k].rank < size);
        if (all[k].rank >= 0 && all[k].rank < size)
            CHECK(all[k].seq == next[all[k].rank]++);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* ordered: rank r writes r+1 ints equal to r, in rank order, after the appends */
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == 0);
    int vals[64];
    for (int i = 0; i <= rank; i++)
        vals[i] = rank;
    CHECK(MPI_File_write_ordered(fh, vals, rank + 1, MPI_INT, &st) == MPI_SUCCESS);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == (MPI_Offset)(4 * size * (size + 1) / 2));
    MPI_Barrier(MPI_COMM_WORLD); /* others' writes are visible after a barrier (§14.6.1) */
    int total = size * (size + 1) / 2, *back = calloc((size_t)total, sizeof(int));
    MPI_File_read_at(fh, 0, back, total, MPI_INT, &st);
    for (int r = 0, k = 0; r < size; r++)
        for (int i = 0; i <= r; i++, k++)
            CHECK(back[k] == r);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    int got[64] = {0};
    CHECK(MPI_File_read_ordered(fh, got, rank + 1, MPI_INT, &st) == MPI_SUCCESS);
    for (int i = 0; i <= rank; i++)
        CHECK(got[i] == rank);
    /* split ordered form */
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    memset(got, 0, sizeof got);
    MPI_File_read_ordered_begin(fh, got, rank + 1, MPI_INT);
    MPI_File_read_ordered_end(fh, got, &st);
    for (int i = 0; i <= rank; i++)
        CHECK(got[i] == rank);

    /* nonblocking shared */
    MPI_File_seek_shared(fh, 0, MPI_SEEK_END);
    MPI_Offset end;
    MPI_File_get_position_shared(fh, &end);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Request req;
    int v = 42 + rank;
    MPI_File_iwrite_shared(fh, &v, 1, MPI_INT, &req);
    MPI_Wait(&req, &st);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == end + 4 * size);

    MPI_File_close(&fh);
    free(all);
    free(next);
    free(back);
    return mtest_finish();
}
