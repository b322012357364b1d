/*
 * io_access.c: data access (MPI-4.1 §14.4) through views (§14.3): explicit offsets, individual
 * pointers, collective, split and nonblocking forms; a strided view (vector filetype with holes,
 * resized) and a subarray view that interleave the ranks' data; short reads at end of file
 * with MPI_Get_count/Get_elements; MPI_File_get_byte_offset. Every layout is checked against
 * the bytes in the file (read back with MPI_File_read_at under the default view).
 */
#include <string.h>
#include <unistd.h>

#include "mtest.h"

#define N 8 /* ints per rank */

int main(int argc, char **argv)
{
    int rank, size;
    char name[256];
    MPI_File fh;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(name, sizeof name, "%s/mmpi_io_access_%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    int *all = malloc(sizeof(int) * N * size), buf[N], count;

    /* 1. explicit offsets, collective: rank r's block at r*N ints */
    for (int i = 0; i < N; i++)
        buf[i] = rank * 100 + i;
    CHECK(MPI_File_write_at_all(fh, (MPI_Offset)rank * N * 4, buf, N, MPI_INT, &st) ==
          MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == N);
    CHECK(MPI_File_read_at_all(fh, 0, all, N * size, MPI_INT, &st) == MPI_SUCCESS);
    for (int r = 0; r < size; r++)
        for (int i = 0; i < N; i++)
            CHECK(all[r * N + i] == r * 100 + i);

    /* 2. strided view: etype int, filetype = 1 int every `size` ints (a vector resized to
     * size ints), displacement rank ints: element i of rank r lands at int i*size + r */
    MPI_Datatype vec, ftype;
    MPI_Type_vector(1, 1, size, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)size * 4, &ftype);
    MPI_Type_commit(&ftype);
    CHECK(MPI_File_set_view(fh, (MPI_Offset)rank * 4, MPI_INT, ftype, "native", MPI_INFO_NULL) ==
          MPI_SUCCESS);
    for (int i = 0; i < N; i++)
        buf[i] = 5000 + rank + i * size;
    CHECK(MPI_File_write_all(fh, buf, N, MPI_INT, &st) == MPI_SUCCESS);
    MPI_Offset pos, byte;
    MPI_File_get_position(fh, &pos);
    CHECK(pos == N);
    MPI_File_get_byte_offset(fh, 3, &byte);
    CHECK(byte == (MPI_Offset)(3 * size + rank) * 4);
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    MPI_File_read_at_all(fh, 0, all, N * size, MPI_INT, &st);
    for (int k = 0; k < N * size; k++)
        CHECK(all[k] == 5000 + k);

    /* 3. subarray view: a 2 x (2*size) int array in rank-major columns pairs; read back
     * through the same view gives the rank's own values */
    int gsizes[2] = {2, 2 * size}, subsizes[2] = {2, 2}, starts[2] = {0, 2 * rank};
    MPI_Datatype sub;
    MPI_Type_create_subarray(2, gsizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &sub);
    MPI_Type_commit(&sub);
    MPI_File_set_view(fh, 0, MPI_INT, sub, "native", MPI_INFO_NULL);
    int mine[4] = {rank * 10, rank * 10 + 1, rank * 10 + 2, rank * 10 + 3}, back[4] = {0};
    MPI_File_write_at_all(fh, 0, mine, 4, MPI_INT, &st);
    MPI_File_read_at_all(fh, 0, back, 4, MPI_INT, &st);
    CHECK(!memcmp(mine, back, sizeof mine));
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    MPI_File_read_at_all(fh, 0, all, 4 * size, MPI_INT, &st);
    for (int r = 0; r < size; r++) {
        CHECK(all[2 * r] == r * 10 && all[2 * r + 1] == r * 10 + 1);
        CHECK(all[2 * size + 2 * r] == r * 10 + 2 && all[2 * size + 2 * r + 1] == r * 10 + 3);
    }

    /* 4. individual pointer, seek, short read at end of file */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_set_size(fh, 10 * 4 + 2); /* 10 ints and half of one */
    MPI_File_seek(fh, 8 * 4, MPI_SEEK_SET);
    int tail[4];
    CHECK(MPI_File_read(fh, tail, 4, MPI_INT, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == MPI_UNDEFINED); /* 10 bytes: two ints and a half */
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(count == 10);
    MPI_Get_elements(&st, MPI_INT, &count);
    CHECK(count == MPI_UNDEFINED);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 42);
    CHECK(MPI_File_read(fh, tail, 4, MPI_INT, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 0);
    MPI_File_seek(fh, -2, MPI_SEEK_END);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 40);
    MPI_File_seek(fh, 4, MPI_SEEK_CUR);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 44);
    MPI_Barrier(MPI_COMM_WORLD);

    /* 5. nonblocking and split collectives through MPI_Wait/Test */
    MPI_Request req[2];
    int a = 7000 + rank, b = 0;
    MPI_File_iwrite_at(fh, (MPI_Offset)rank * 4, &a, 1, MPI_INT, &req[0]);
    MPI_Wait(&req[0], &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 1);
    MPI_File_iread_at(fh, (MPI_Offset)rank * 4, &b, 1, MPI_INT, &req[0]);
    int done = 0;
    while (!done)
        MPI_Test(&req[0], &done, &st);
    CHECK(b == 7000 + rank);
    int c = 8000 + rank, d = -1;
    MPI_File_iwrite_at_all(fh, (MPI_Offset)rank * 4, &c, 1, MPI_INT, &req[0]);
    MPI_Waitall(1, req, MPI_STATUSES_IGNORE);
    MPI_File_iread_at_all(fh, (MPI_Offset)((rank + 1) % size) * 4, &d, 1, MPI_INT, &req[1]);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    CHECK(d == 8000 + (rank + 1) % size);
    int e = 9000 + rank, f = -1;
    MPI_File_write_at_all_begin(fh, (MPI_Offset)rank * 4, &e, 1, MPI_INT);
    CHECK(MPI_File_write_at_all_begin(fh, 0, &e, 1, MPI_INT) != MPI_SUCCESS); /* one at a time */
    MPI_File_write_at_all_end(fh, &e, &st);
    MPI_File_read_at_all_begin(fh, (MPI_Offset)((rank + 1) % size) * 4, &f, 1, MPI_INT);
    MPI_File_read_at_all_end(fh, &f, &st);
    CHECK(f == 9000 + (rank + 1) % size);
    CHECK(MPI_File_read_all_end(fh, &f, &st) != MPI_SUCCESS); /* no matching begin */

    MPI_Type_free(&vec);
    MPI_Type_free(&ftype);
    MPI_Type_free(&sub);
    MPI_File_close(&fh);
    free(all);
    return mtest_finish();
}
