/*
 * ft_io_checkpoint.c: a checkpoint/restart loop that survives process failures. The ranks
 * advance a field of TOTAL doubles split in blocks over the live ranks; every CKPT_EVERY steps
 * they write it to one file with MPI_File_write_at_all, into one of two slots in turn, so a
 * write cut short by a death never overwrites the last complete checkpoint.
 *
 * After each write the survivors agree (MPIX_Comm_agree, after acknowledging the failures they
 * know of) whether every member's write succeeded. If not, a member died: they close the file
 * (which reports the failure and releases it anyway), shrink the communicator, reopen the file
 * on the survivors, read back the last complete checkpoint in the new decomposition and resume
 * from its step. Each step updates every element from its global index alone, so the result
 * does not depend on how many ranks computed it: at the end each rank compares its block with
 * a from-scratch computation, exactly.
 *
 * usage: ft_io_checkpoint [file]   (default: $TMPDIR or /tmp, ft_io_checkpoint.<pid>)
 * Prints "<r> restarts, last resumed from step <s>, <n> ranks left" (s = -1: never) and
 * " No Errors".
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TOTAL 6000
#define STEPS 12
#define CKPT_EVERY 3

static double update(double x, long long i, int t)
{
    return 0.5 * x + (double)((i * 7 + t) % 17);
}

/* This rank's block of the field over `size` ranks: [*first, *first + *n). */
static void block(int rank, int size, long long *first, int *n)
{
    long long q = TOTAL / size, r = TOTAL % size;
    *first = rank * q + (rank < r ? rank : r);
    *n = (int)(q + (rank < r));
}

/* Where checkpoint number k (step k * CKPT_EVERY) lives: alternate slots of TOTAL doubles. */
static MPI_Offset slot(int k)
{
    return (MPI_Offset)(k % 2) * TOTAL * sizeof(double);
}

/* Agreement over the live members on `flag` (AND), acknowledging the failures met so far
 * first, so that the agreement itself reports only failures nobody has seen. */
static int agree(MPI_Comm comm, int flag)
{
    for (;;) {
        int f = flag;
        MPIX_Comm_failure_ack(comm);
        int rc = MPIX_Comm_agree(comm, &f), cls;
        MPI_Error_class(rc, &cls);
        if (cls != MPIX_ERR_PROC_FAILED)
            return f;
    }
}

static char name[512]; /* the checkpoint file */

static void fail(int err, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(err, msg, &len);
    fprintf(stderr, "ft_io_checkpoint: %s: %s\n", what, msg);
    MPI_File_delete(name, MPI_INFO_NULL);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Replaces *comm by its survivors (shrink never fails because of a failure). */
static void shrink(MPI_Comm *comm)
{
    MPI_Comm shrunk;
    int err = MPIX_Comm_shrink(*comm, &shrunk);
    if (err)
        fail(err, "shrink");
    if (*comm != MPI_COMM_WORLD)
        MPI_Comm_free(comm);
    *comm = shrunk;
    MPI_Comm_set_errhandler(*comm, MPI_ERRORS_RETURN);
}

/* Opens the file at every member of *comm, shrinking it until an open succeeds everywhere (a
 * member may die during the open, or before it). */
static MPI_File open_file(MPI_Comm *comm)
{
    for (;;) {
        MPI_File fh;
        int err = MPI_File_open(*comm, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                                &fh);
        if (agree(*comm, err == MPI_SUCCESS))
            return fh;
        if (err == MPI_SUCCESS)
            MPI_File_close(&fh);
        shrink(comm);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int world_rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    if (argc > 1)
        snprintf(name, sizeof name, "%s", argv[1]);
    else
        snprintf(name, sizeof name, "%s/ft_io_checkpoint.%d",
                 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());

    /* Every rank may die at any MPI call from here on: start from the survivors. */
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    shrink(&comm);
    int rank, size, n, restarts = 0, resumed = -1, err;
    long long first;
    double *u = calloc(TOTAL, sizeof *u);
    MPI_File fh = open_file(&comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    block(rank, size, &first, &n);

    int t = 0, last = -1; /* last: the number of the last complete checkpoint */
    while (t < STEPS) {
        for (int i = 0; i < n; i++)
            u[i] = update(u[i], first + i, t);
        t++;
        if (t % CKPT_EVERY)
            continue;
        int k = t / CKPT_EVERY;
        err = MPI_File_write_at_all(fh, slot(k) + first * (MPI_Offset)sizeof(double), u, n,
                                    MPI_DOUBLE, MPI_STATUS_IGNORE);
        if (agree(comm, err == MPI_SUCCESS)) {
            last = k;
            continue;
        }
        /* Somebody's write failed: a member died. Recover on the survivors. */
        restarts++;
        MPI_File_close(&fh); /* MPI_ERR_PROC_FAILED, and the handle is released all the same */
        shrink(&comm);
        fh = open_file(&comm);
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
        block(rank, size, &first, &n);
        if (last < 0) {
            memset(u, 0, TOTAL * sizeof *u);
            t = 0;
        } else {
            /* Independent reads at explicit offsets: the block of the new decomposition. */
            if ((err = MPI_File_read_at(fh, slot(last) + first * (MPI_Offset)sizeof(double), u,
                                        n, MPI_DOUBLE, MPI_STATUS_IGNORE)))
                fail(err, "read");
            t = last * CKPT_EVERY;
        }
        resumed = t;
    }

    /* Verify against a from-scratch computation of this block. */
    int errors = 0;
    for (int i = 0; i < n; i++) {
        double x = 0;
        for (int s = 0; s < STEPS; s++)
            x = update(x, first + i, s);
        if (x != u[i] && errors++ < 5)
            fprintf(stderr, "rank %d: element %lld is %g, expected %g\n", world_rank, first + i,
                    u[i], x);
    }
    MPI_File_close(&fh);
    /* Every survivor removes the checkpoint (all of them have closed it: close is collective),
     * so that it goes whichever rank dies from here on. */
    MPI_File_delete(name, MPI_INFO_NULL);
    /* The verdict, agreed; the lowest survivor prints it. */
    int ok = agree(comm, errors == 0);
    MPI_Comm alive; /* one call between it and the print: a death there silences the verdict */
    MPIX_Comm_shrink(comm, &alive);
    MPI_Comm_rank(alive, &rank);
    if (rank == 0) {
        MPI_Comm_size(alive, &size);
        printf("%d restarts, last resumed from step %d, %d ranks left\n", restarts, resumed,
               size);
        if (ok)
            printf(" No Errors\n");
    }
    MPI_Comm_free(&alive);
    MPI_Comm_free(&comm);
    free(u);
    MPI_Finalize();
    return !ok;
}
