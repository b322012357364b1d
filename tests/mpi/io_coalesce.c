/*
 * io_coalesce.c: collective writes whose members' pieces interleave in the file, which the
 * library coalesces (each member writes one part of the file with every member's pieces,
 * docs/io.md "How it works"). Every layout is checked byte for byte against what each rank
 * meant to write, with the holes no member writes left as they were:
 *  - rank r writes blocks of B bytes into slot r of periods of size + 1 slots (the last slot
 *    of each period is a hole), a different number of blocks per rank, rank 1 none at all;
 *  - the same with rank 0 writing from a non-contiguous memory type (it writes its own pieces
 *    while the others are coalesced), and with the hints cb_nodes=1, cb_nodes=2 and
 *    romio_cb_write=disable;
 *  - with argument V (MINI_MPI_FAULTS=kill V during MPI_File_write_all#1): members ranked
 *    below V complete and their blocks are in the file, the others raise
 *    MPI_ERR_PROC_FAILED, all in finite time; a second argument sets cb_nodes there.
 */
#include <string.h>
#include <unistd.h>

#include "io_interleaved.h"

static char byte_of(int r, int i) { return (char)(1 + (r * 31 + i * 7) % 250); }

/* Writes one round: fill byte `fill` first (rank 0, independently), then every rank's blocks
 * collectively. Returns the write's error class. */
static int round_(MPI_File fh, int rank, int size, MPI_Datatype ft, int strided_mem, char fill)
{
    size_t total = (size_t)MAXBLK * (size + 1) * B;
    char *f = malloc(total);
    memset(f, fill, total);
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    if (rank == 0)
        MPI_File_write_at(fh, 0, f, (int)total, MPI_BYTE, MPI_STATUS_IGNORE);
    free(f);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_set_view(fh, (MPI_Offset)rank * B, MPI_BYTE, ft, "native", MPI_INFO_NULL);
    int n = blocks_of(rank) * B, err;
    char *data = malloc((size_t)n + 1), *spread = malloc(2 * (size_t)n + 1);
    for (int i = 0; i < n; i++)
        data[i] = byte_of(rank, i);
    if (strided_mem && rank == 0) {
        /* every other byte of `spread` */
        MPI_Datatype every2;
        MPI_Type_vector(n, 1, 2, MPI_BYTE, &every2);
        MPI_Type_commit(&every2);
        for (int i = 0; i < n; i++)
            spread[2 * i] = data[i];
        err = MPI_File_write_all(fh, spread, 1, every2, MPI_STATUS_IGNORE);
        MPI_Type_free(&every2);
    } else
        err = MPI_File_write_all(fh, data, n, MPI_BYTE, MPI_STATUS_IGNORE);
    free(data);
    free(spread);
    return err;
}

/* Checks the file (under the default view) at rank 0: rank r's blocks where they belong (for ranks whose write
 * succeeded: ok[r]), the fill byte in every hole and every slot nobody wrote. */
static void check(MPI_File fh, int size, const int *ok, char fill)
{
    size_t total = (size_t)MAXBLK * (size + 1) * B;
    char *f = malloc(total);
    MPI_File_read_at(fh, 0, f, (int)total, MPI_BYTE, MPI_STATUS_IGNORE); /* default view */
    for (size_t p = 0; p < total; p++) {
        size_t period = p / ((size_t)(size + 1) * B), slot = p / B % (size_t)(size + 1);
        int i = (int)(period * B + p % B); /* byte index in the writer's data */
        if (slot < (size_t)size && ok[slot] && (int)period < blocks_of((int)slot))
            CHECK(f[p] == byte_of((int)slot, i));
        else if (slot == (size_t)size || blocks_of((int)slot) <= (int)period)
            CHECK(f[p] == fill);
    }
    free(f);
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
    snprintf(name, sizeof name, "%s/mmpi_io_coalesce_%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", tag);
    MPI_Datatype ft = filetype(size);
    int *ok = malloc(sizeof(int) * (size_t)size);
    for (int r = 0; r < size; r++)
        ok[r] = 1;

    if (victim >= 0) {
        /* A member killed inside the write: the ranks below it complete, the others raise. */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Info info; /* second argument: the cb_nodes hint */
        MPI_Info_create(&info);
        if (argc > 2)
            MPI_Info_set(info, "cb_nodes", argv[2]);
        MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh);
        MPI_Info_free(&info);
        int err = round_(fh, rank, size, ft, 0, 'h');
        CHECK(rank < victim ? err == MPI_SUCCESS : err == MPI_ERR_PROC_FAILED);
        /* Rank 0 learns who completed and checks their blocks. */
        int *done = calloc((size_t)size, sizeof(int)), mine = err == MPI_SUCCESS;
        if (rank != 0)
            MPI_Send(&mine, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        else {
            done[0] = mine;
            for (int r = 1; r < size; r++)
                if (r != victim)
                    MPI_Recv(&done[r], 1, MPI_INT, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int r = 0; r < size; r++)
                CHECK(done[r] == (r < victim));
            MPI_File self_fh; /* the file's view is the strided one, set_view needs all */
            CHECK(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &self_fh) ==
                  MPI_SUCCESS);
            check(self_fh, size, done, 'h');
            MPI_File_close(&self_fh);
        }
        free(done);
        free(ok);
        MPI_Type_free(&ft);
        MPI_File_close(&fh);
        if (rank == 0)
            unlink(name);
        return mtest_finish();
    }

    const char *hints[][2] = {{NULL, NULL},       {"cb_nodes", "1"},
                              {"cb_nodes", "2"},  {"romio_cb_write", "disable"}};
    for (int h = 0; h < 4; h++)
        for (int strided_mem = 0; strided_mem < 2; strided_mem++) {
            MPI_Info info;
            MPI_Info_create(&info);
            if (hints[h][0])
                MPI_Info_set(info, hints[h][0], hints[h][1]);
            CHECK(MPI_File_open(MPI_COMM_WORLD, name,
                                MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE, info,
                                &fh) == MPI_SUCCESS);
            MPI_Info_free(&info);
            char fill = (char)('a' + h * 2 + strided_mem);
            CHECK(round_(fh, rank, size, ft, strided_mem, fill) == MPI_SUCCESS);
            MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
            if (rank == 0)
                check(fh, size, ok, fill);
            MPI_File_close(&fh);
        }
    MPI_Type_free(&ft);
    free(ok);
    return mtest_finish();
}
