/*
 * libc_ft_seeded.c: the pattern of public fault-tolerance benchmarks that needs each rank's C
 * library to be its own: the run's parameters come from the command line through getopt_long
 * (--seed S, --victims K, --iters N), and every rank draws the victims and the iteration each
 * dies at with srand(S)/rand(), so that all ranks agree on them without communicating. Victims
 * end themselves with raise(SIGKILL) at their iteration; the survivors iterate an allreduce and
 * shrink the communicator on failure (ULFM). At the end, every survivor must have drawn the
 * same victims (compared by allreduce on the shrunk communicator), and no victim may be alive.
 * Under a fault sweep (one more death at any MPI call of any rank) the same must hold, with one
 * more rank missing at most; the lowest survivor reports.
 */
#include <getopt.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static int seed = 1, nvictims = 1, iters = 4;

static void parse(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"seed", required_argument, NULL, 's'},
        {"victims", required_argument, NULL, 'k'},
        {"iters", required_argument, NULL, 'n'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "s:k:n:", longopts, NULL)) != -1) {
        switch (c) {
        case 's': seed = atoi(optarg); break;
        case 'k': nvictims = atoi(optarg); break;
        case 'n': iters = atoi(optarg); break;
        default: exit(2);
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size, victim[64], when[64], errors;
    MPI_Comm comm, shrunk;

    MPI_Init(&argc, &argv);
    parse(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (nvictims < 0 || nvictims >= size || nvictims > 64 || iters < 1)
        MPI_Abort(MPI_COMM_WORLD, 2);

    /* Distinct victims (never rank 0, which reports), each with its iteration. */
    srand((unsigned)seed);
    for (int i = 0; i < nvictims; i++) {
        int v, dup;
        do {
            v = 1 + rand() % (size - 1);
            dup = 0;
            for (int j = 0; j < i; j++)
                dup |= victim[j] == v;
        } while (dup);
        victim[i] = v;
        when[i] = rand() % iters;
    }
    unsigned long digest = (unsigned long)seed * 1000003u + (unsigned long)iters;
    for (int i = 0; i < nvictims; i++)
        digest = digest * 31 + (unsigned long)victim[i] * 7 + (unsigned long)when[i];

    /* A copy of the world that a death cannot prevent (a sweep may kill anyone anywhere). */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPIX_Comm_shrink(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < nvictims; i++)
            if (victim[i] == rank && when[i] == it)
                raise(SIGKILL);
        int one = 1, sum = 0;
        if (MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm) != MPI_SUCCESS) {
            MPIX_Comm_revoke(comm);
            MPIX_Comm_shrink(comm, &shrunk);
            MPI_Comm_free(&comm);
            comm = shrunk;
        }
    }
    /* Everyone who will die has: a shrink leaves exactly the survivors. A death during the
     * checks (a fault sweep's) makes them start again on a new shrink. */
    int nsurv = 0, me = 0, bad = 0;
    for (int attempt = 0; attempt < 4; attempt++) {
        MPIX_Comm_shrink(comm, &shrunk);
        MPI_Comm_free(&comm);
        comm = shrunk;
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        MPI_Comm_size(comm, &nsurv);
        MPI_Comm_rank(comm, &me);
        errors = 0;
        if (nsurv > size - nvictims || nsurv < size - nvictims - 1) {
            printf("rank %d: %d survivors, expected %d\n", rank, nsurv, size - nvictims);
            errors++;
        }
        /* The survivors' world ranks: no victim among them. */
        MPI_Group wg, sg;
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Comm_group(comm, &sg);
        for (int i = 0; i < nvictims; i++) {
            int in_surv;
            MPI_Group_translate_ranks(wg, 1, &victim[i], sg, &in_surv);
            if (in_surv != MPI_UNDEFINED) {
                printf("rank %d: victim %d is alive\n", rank, victim[i]);
                errors++;
            }
        }
        MPI_Group_free(&wg);
        MPI_Group_free(&sg);
        unsigned long lo = 0, hi = 0;
        if (MPI_Allreduce(&digest, &lo, 1, MPI_UNSIGNED_LONG, MPI_MIN, comm) != MPI_SUCCESS ||
            MPI_Allreduce(&digest, &hi, 1, MPI_UNSIGNED_LONG, MPI_MAX, comm) != MPI_SUCCESS ||
            MPI_Allreduce(&errors, &bad, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) {
            MPIX_Comm_revoke(comm);
            continue;
        }
        if (lo != hi) {
            printf("rank %d: the ranks drew different victims\n", rank);
            bad = 1;
        }
        if (me == 0 && bad == 0)
            printf(" No Errors\n");
        break;
    }
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
