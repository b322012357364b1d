/*
 * io_checkpoint.c: checkpoint and restart through MPI-IO. Each rank owns a slice of a 1-D
 * field it updates every step; every CKPT_EVERY steps all ranks write the field to one shared
 * file with MPI_File_write_at_all (rank r's slice at a fixed offset after a header rank 0
 * writes). The run then "restarts": the file is reopened read-only, the latest checkpoint read
 * back with MPI_File_read_at_all, checked against the state the computation had at that step,
 * and the computation resumes from it to the same final answer as an uninterrupted run.
 *
 * usage: io_checkpoint [file]   (default: $TMPDIR or /tmp, io_checkpoint.<pid>)
 * Prints the steps, the checkpoint restarted from, the final checksum and " No Errors".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 1024        /* doubles per rank */
#define STEPS 20
#define CKPT_EVERY 5

struct header {
    long long step; /* the step the checkpoint holds */
    int nranks;
    int n;
};

static void step(double *u, int n, int rank, long long t)
{
    for (int i = 0; i < n; i++)
        u[i] = 0.5 * u[i] + (double)((rank * n + i + t) % 17);
}

static double checksum(const double *u, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += u[i] * (i % 7 + 1);
    return s;
}

static char name[512]; /* the checkpoint file */

/* Any rank that meets an error removes the checkpoint before the job ends: the rank that
 * would have removed it (the last to close it) may be the one that died. */
static void die(int err, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(err, msg, &len);
    fprintf(stderr, "io_checkpoint: %s: %s\n", what, msg);
    MPI_File_delete(name, MPI_INFO_NULL);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Writes the field at step t: header by rank 0, slices by everyone, in one collective. */
static void checkpoint(MPI_File fh, const double *u, int rank, int size, long long t)
{
    struct header h = {t, size, N};
    MPI_Offset base = sizeof h, off = base + (MPI_Offset)rank * N * sizeof(double);
    int err;
    if (rank == 0 && (err = MPI_File_write_at(fh, 0, &h, sizeof h, MPI_BYTE, MPI_STATUS_IGNORE)))
        die(err, "header");
    if ((err = MPI_File_write_at_all(fh, off, u, N, MPI_DOUBLE, MPI_STATUS_IGNORE)))
        die(err, "write_at_all");
    if ((err = MPI_File_sync(fh)))
        die(err, "sync");
}

int main(int argc, char **argv)
{
    int rank, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        snprintf(name, sizeof name, "%s", argv[1]);
    else
        snprintf(name, sizeof name, "%s/io_checkpoint.%d",
                 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());

    double *u = calloc(N, sizeof *u), *saved = calloc(N, sizeof *u), *back = calloc(N, sizeof *u);
    MPI_File fh;
    int err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                            MPI_INFO_NULL, &fh);
    if (err)
        die(err, "open for checkpointing");
    /* First run: compute, checkpoint every CKPT_EVERY steps, "crash" after step 13. */
    long long t, last = -1;
    for (t = 1; t <= 13; t++) {
        step(u, N, rank, t);
        if (t % CKPT_EVERY == 0) {
            checkpoint(fh, u, rank, size, t);
            memcpy(saved, u, N * sizeof *u);
            last = t;
        }
    }
    MPI_File_close(&fh);

    /* Restart: read the latest checkpoint back and verify it. */
    if ((err = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh)))
        die(err, "open for restart");
    struct header h;
    MPI_Status st;
    int count;
    if ((err = MPI_File_read_at_all(fh, 0, &h, sizeof h, MPI_BYTE, &st)))
        die(err, "read header");
    if (h.step != last || h.nranks != size || h.n != N)
        errors++;
    MPI_Offset off = sizeof h + (MPI_Offset)rank * N * sizeof(double);
    if ((err = MPI_File_read_at_all(fh, off, back, N, MPI_DOUBLE, &st)))
        die(err, "read_at_all");
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    if (count != N || memcmp(back, saved, N * sizeof *u))
        errors++;
    MPI_File_close(&fh);

    /* Resume from the checkpoint and compare with an uninterrupted run. */
    for (t = h.step + 1; t <= STEPS; t++)
        step(back, N, rank, t);
    memset(u, 0, N * sizeof *u);
    for (t = 1; t <= STEPS; t++)
        step(u, N, rank, t);
    if (memcmp(back, u, N * sizeof *u))
        errors++;
    double local = checksum(back, N), total;
    int all_errors;
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("%d steps, restarted from step %lld, checksum %.6e\n", STEPS, h.step, total);
        if (all_errors == 0)
            printf(" No Errors\n");
        else
            printf("%d errors\n", all_errors);
    }
    free(u);
    free(saved);
    free(back);
    MPI_Finalize();
    return 0;
}
