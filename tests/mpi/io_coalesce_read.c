/*
 * io_coalesce_read.c: collective reads whose members' pieces interleave in the file, which the
 * library coalesces (each aggregator reads one part of the file into every member's buffer,
 * docs/io.md "How it works"). Rank 0 first writes a file whose byte at offset p is byte_at(p);
 * then every rank reads its blocks of B bytes from slot r of periods of size + 1 slots, a
 * different number of blocks per rank (rank 1 none), and checks every byte and the count:
 *  - with MPI_File_read_all and MPI_File_read_at_all, rank 0 reading into a non-contiguous
 *    memory type (it reads its own pieces while the others are coalesced), and with the hints
 *    cb_nodes=1, cb_nodes=2 and romio_cb_read=disable;
 *  - with the file cut short inside some ranks' blocks: each rank gets exactly the bytes
 *    before the end of the file (a partial count), the others in full;
 *  - with argument V (MINI_MPI_FAULTS=kill V during MPI_File_read_all#1): members ranked
 *    below V complete with their data, the others raise MPI_ERR_PROC_FAILED, all in finite
 *    time; a second argument sets cb_nodes there.
 */
#include <string.h>
#include <unistd.h>

#include "io_interleaved.h"

static char byte_at(size_t p) { return (char)(1 + (p * 13 + p / 7) % 251); }

/* File offset of byte i of rank r's data. */
static size_t offset_of(int r, int size, int i)
{
    return (size_t)(i / B) * (size_t)(size + 1) * B + (size_t)r * B + (size_t)(i % B);
}

/* Rank 0 writes `len` bytes of the pattern (the file is cut to that length first). */
static void prepare(MPI_File fh, int rank, size_t len)
{
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    MPI_File_set_size(fh, 0);
    if (rank == 0) {
        char *f = malloc(len + 1);
        for (size_t p = 0; p < len; p++)
            f[p] = byte_at(p);
        CHECK(MPI_File_write_at(fh, 0, f, (int)len, MPI_BYTE, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        free(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* One collective read of every rank's blocks; checks data and count when it succeeded against
 * a file of `len` bytes. Returns the read's error class. */
static int read_round(MPI_File fh, int rank, int size, MPI_Datatype ft, int variant,
                      size_t len)
{
    MPI_File_set_view(fh, (MPI_Offset)rank * B, MPI_BYTE, ft, "native", MPI_INFO_NULL);
    int n = blocks_of(rank) * B, err, count = -1;
    char *data = malloc((size_t)n + 1), *spread = malloc(2 * (size_t)n + 1);
    memset(data, 0, (size_t)n + 1);
    memset(spread, 0, 2 * (size_t)n + 1);
    MPI_Status st;
    if (variant == 1 && rank == 0) { /* every other byte of `spread` */
        MPI_Datatype every2;
        MPI_Type_vector(n, 1, 2, MPI_BYTE, &every2);
        MPI_Type_commit(&every2);
        err = MPI_File_read_all(fh, spread, 1, every2, &st);
        MPI_Type_free(&every2);
        for (int i = 0; i < n; i++)
            data[i] = spread[2 * i];
    } else if (variant == 2) {
        err = MPI_File_read_at_all(fh, 0, data, n, MPI_BYTE, &st);
    } else {
        err = MPI_File_read_all(fh, data, n, MPI_BYTE, &st);
    }
    if (err == MPI_SUCCESS) {
        int expect = 0; /* bytes before the end of the file */
        while (expect < n && offset_of(rank, size, expect) < len)
            expect++;
        MPI_Get_count(&st, MPI_BYTE, &count);
        if (variant == 1 && rank == 0) /* a partial element of every2 is no element */
            count = count == MPI_UNDEFINED ? expect : count;
        CHECK(count == expect);
        for (int i = 0; i < expect; i++)
            CHECK(data[i] == byte_at(offset_of(rank, size, i)));
    }
    free(data);
    free(spread);
    return err;
}

int main(int argc, char **argv)
{
    int rank, size;
    char name[256];
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int victim = argc > 1 ? atoi(argv[1]) : -1;
    int tag = (int)getpid();
    MPI_Bcast(&tag, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(name, sizeof name, "%s/mmpi_io_coalesce_read_%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", tag);
    MPI_Datatype ft = filetype(size);
    size_t total = (size_t)MAXBLK * (size + 1) * B;

    if (victim >= 0) {
        /* A member killed inside the read: the ranks below it complete, the others raise. */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Info info; /* second argument: the cb_nodes hint */
        MPI_Info_create(&info);
        if (argc > 2)
            MPI_Info_set(info, "cb_nodes", argv[2]);
        MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh);
        MPI_Info_free(&info);
        prepare(fh, rank, total);
        int err = read_round(fh, rank, size, ft, 0, total);
        CHECK(rank < victim ? err == MPI_SUCCESS : err == MPI_ERR_PROC_FAILED);
        MPI_Type_free(&ft);
        MPI_File_close(&fh);
        if (rank == 0)
            unlink(name);
        return mtest_finish();
    }

    static const char *hints[][2] = {
        {NULL, NULL}, {"cb_nodes", "1"}, {"cb_nodes", "2"}, {"romio_cb_read", "disable"}};
    for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++) {
        MPI_Info info;
        MPI_Info_create(&info);
        if (hints[h][0])
            MPI_Info_set(info, hints[h][0], hints[h][1]);
        CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh) ==
              MPI_SUCCESS);
        MPI_Info_free(&info);
        prepare(fh, rank, total);
        for (int variant = 0; variant < 3; variant++)
            CHECK(read_round(fh, rank, size, ft, variant, total) == MPI_SUCCESS);
        /* Cut inside the blocks of the later periods: partial counts. */
        size_t cut = total / 2 + (size_t)size * B / 2 + 1;
        prepare(fh, rank, cut);
        for (int variant = 0; variant < 3; variant++)
            CHECK(read_round(fh, rank, size, ft, variant, cut) == MPI_SUCCESS);
        MPI_File_close(&fh);
    }
    MPI_Type_free(&ft);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(name);
    return mtest_finish();
}
