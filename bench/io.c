/*
 * bench/io.c: MPI-IO figures. Standard MPI only (builds with mini_mpi, MPICH/ROMIO, Open MPI/ompio).
 *
 *   io [-d DIR] [-b BYTES_PER_RANK] [-s | -V] [-i KEY=VALUE]...
 *
 * -d: directory of the test file (default $TMPDIR or /tmp; a tmpfs or a disk); -b: bytes per
 * rank (default 1 MiB); -s: strided view (each rank's data in 4 KiB blocks interleaved with the
 * other ranks', a vector filetype) instead of one contiguous block per rank; -V: both views,
 * contiguous first (bench/run.sh); -i: a hint for MPI_File_open (romio_cb_write=disable turns
 * mini_mpi's coalescing of collective writes off, for a before/after comparison).
 * Figures (RESULT lines of bench/common.h, rank 0):
 *   io_write_at_all, io_read_at_all   aggregate bandwidth, MB/s (best of 20 collective calls,
 *                                    from before the first rank enters to after the last leaves)
 *   io_pwrite_floor                  one rank writing the same total bytes with plain pwrite(2)
 *                                    to the same file system, MB/s (the page cache's copy; best
 *                                    of 20 overwrites). Writes to one file serialize on its
 *                                    inode lock (tmpfs, ext4), so ranks writing in parallel do
 *                                    not go below it
 *   io_write_shared_64              write_shared of 64-byte records from every rank, records/s
 *                                    (best of 3 rounds, each from before the barrier that
 *                                    releases the writers to after the one that ends them)
 *   io_pread_floor                  every rank at once reading its contiguous block with one
 *                                    plain pread(2) of its own descriptor of the same file, MB/s
 *                                    (best of 20, timed as the collective calls): the floor of
 *                                    io_read_at_all_contig
 *   io_write_at_latency_8           a small independent write_at (8 bytes), microseconds (rank
 *                                    0 alone, best of 3 rounds of 20000)
 *   io_pwrite_latency_8             its floor: the same writes by plain pwrite(2) of 8 bytes
 *                                    through rank 0's own descriptor of the same file, the same
 *                                    rounds alternating with them
 */
#include <fcntl.h>
#include <unistd.h>

#include "common.h"

static double best_of(MPI_File fh, int write, MPI_Offset off, char *buf, int count,
                      MPI_Datatype type)
{
    double best = 1e30;
    for (int rep = 0; rep < 20; rep++) { /* 5 left the host's noise in the best */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (write)
            MPI_File_write_at_all(fh, off, buf, count, type, MPI_STATUS_IGNORE);
        else
            MPI_File_read_at_all(fh, off, buf, count, type, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    int rank, size, strided = 0, both = 0, opt;
    long bytes = 1 << 20;
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-d") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "-b") && i + 1 < argc)
            bytes = atol(argv[++i]);
        else if (!strcmp(argv[i], "-s"))
            strided = 1;
        else if (!strcmp(argv[i], "-V"))
            both = 1;
    }
    (void)opt;
    char name[512], label[64];
    int tag = 0;
    if (rank == 0)
        tag = (int)getpid();
    MPI_Bcast(&tag, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(name, sizeof name, "%s/bench_io.%d", dir, tag);
    char *buf = malloc((size_t)bytes);
    memset(buf, 'a' + rank % 26, (size_t)bytes);
    MPI_Info hints;
    MPI_Info_create(&hints);
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-i") && strchr(argv[i + 1], '=')) {
            char kv[256];
            snprintf(kv, sizeof kv, "%s", argv[++i]);
            char *eq = strchr(kv, '=');
            *eq = 0;
            MPI_Info_set(hints, kv, eq + 1);
        }
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE, hints, &fh);
    MPI_Info_free(&hints);
    double total = (double)bytes * size;
    /* Views measured: the one asked for, or both (-V). */
    for (int view = strided; view <= (strided || both ? 1 : 0); view++) {
        MPI_Offset off = 0;
        if (view) {
            const int block = 4096;
            MPI_Datatype vec, ftype;
            MPI_Type_vector((int)(bytes / block), block, block * size, MPI_BYTE, &vec);
            MPI_Type_create_resized(vec, 0, (MPI_Aint)bytes * size, &ftype);
            MPI_Type_commit(&ftype);
            MPI_File_set_view(fh, (MPI_Offset)rank * block, MPI_BYTE, ftype, "native",
                              MPI_INFO_NULL);
            MPI_Type_free(&vec);
            MPI_Type_free(&ftype);
        } else
            off = (MPI_Offset)rank * bytes;
        snprintf(label, sizeof label, "%s", view ? "strided" : "contig");
        double tw = best_of(fh, 1, off, buf, (int)bytes, MPI_BYTE);
        double tr = best_of(fh, 0, off, buf, (int)bytes, MPI_BYTE);
        char fig[128];
        if (rank == 0) {
            snprintf(fig, sizeof fig, "io_write_at_all_%s", label);
            bench_result(fig, bytes, size, total / tw / 1e6, "MB/s");
            snprintf(fig, sizeof fig, "io_read_at_all_%s", label);
            bench_result(fig, bytes, size, total / tr / 1e6, "MB/s");
        }
    }
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);

    /* the read's floor: every rank's block by one plain pread, all at once */
    int fd = open(name, O_RDONLY);
    double bestr = 1e30;
    for (int rep = 0; rep < 20; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (pread(fd, buf, (size_t)bytes, (off_t)rank * bytes) != (ssize_t)bytes)
            bestr = -1; /* reported as 0 MB/s: no descriptor, or the file is not as the writes
                         * left it */
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0;
        if (bestr > 0 && t < bestr)
            bestr = t;
    }
    if (fd >= 0)
        close(fd);
    MPI_Allreduce(MPI_IN_PLACE, &bestr, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0)
        bench_result("io_pread_floor", bytes, size, bestr > 0 ? total / bestr / 1e6 : 0, "MB/s");

    /* the floor: one process, plain pwrite of the same bytes */
    if (rank == 0) {
        char pname[600];
        snprintf(pname, sizeof pname, "%s.pwrite", name);
        int fd = open(pname, O_RDWR | O_CREAT | O_TRUNC, 0644);
        char *big = malloc((size_t)total);
        memset(big, 'x', (size_t)total);
        double best = 1e30;
        for (int rep = 0; rep < 20; rep++) {
            double t0 = MPI_Wtime();
            size_t done = 0;
            while (done < (size_t)total) {
                ssize_t w = pwrite(fd, big + done, (size_t)total - done, (off_t)done);
                if (w <= 0)
                    break;
                done += (size_t)w;
            }
            double t = MPI_Wtime() - t0;
            if (t < best)
                best = t;
        }
        bench_result("io_pwrite_floor", bytes, size, total / best / 1e6, "MB/s");
        close(fd);
        unlink(pname);
        free(big);
    }

    /* shared-pointer appends of 64-byte records. Rank 0's clock starts before the barrier that
     * releases the writers: with more ranks than cores, rank 0 may leave that barrier last,
     * after most records are written, and a clock started then measured only its own. */
    int records = 100000 / size + 100;
    char rec[64];
    memset(rec, 'r', sizeof rec);
    double ts = 1e30, t0;
    for (int rep = 0; rep < 3; rep++) {
        MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
        t0 = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < records; i++)
            MPI_File_write_shared(fh, rec, 64, MPI_BYTE, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        if (MPI_Wtime() - t0 < ts)
            ts = MPI_Wtime() - t0;
    }
    if (rank == 0)
        bench_result("io_write_shared_64", 64, size, records * (double)size / ts, "records/s");

    /* small write_at latency (rank 0 alone, the others wait), and plain pwrite's */
    if (rank == 0) {
        int n = 20000, wfd = open(name, O_WRONLY);
        double best = 1e30, bestp = 1e30;
        for (int rep = 0; rep < 3; rep++) {
            t0 = MPI_Wtime();
            for (int i = 0; i < n; i++)
                MPI_File_write_at(fh, (MPI_Offset)i * 8, rec, 8, MPI_BYTE, MPI_STATUS_IGNORE);
            if (MPI_Wtime() - t0 < best)
                best = MPI_Wtime() - t0;
            t0 = MPI_Wtime();
            for (int i = 0; i < n; i++)
                if (pwrite(wfd, rec, 8, (off_t)i * 8) != 8)
                    break;
            if (MPI_Wtime() - t0 < bestp)
                bestp = MPI_Wtime() - t0;
        }
        bench_result("io_write_at_latency_8", 8, size, best / n * 1e6, "us");
        if (wfd >= 0) {
            bench_result("io_pwrite_latency_8", 8, size, bestp / n * 1e6, "us");
            close(wfd);
        }
    }
    MPI_File_close(&fh);
    if (rank == 0)
        MPI_File_delete(name, MPI_INFO_NULL);
    free(buf);
    MPI_Finalize();
    return 0;
}
