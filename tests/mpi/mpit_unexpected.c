/*
 * mpit_unexpected: unexpected_recvq_length against the number of messages the program knows
 * are waiting (docs/tools-interface.md). Each sender r sends (r % 13) + 1 small messages to
 * its communicator's rank 0, which has posted no receive; after a barrier that receiver reads
 * the level, which must equal the sum. On communicators of at most 64 members most of them
 * wait in the per-sender channels (the first message of a pair and every one that finds its
 * channel full go to the unexpected queue: 1 to 13 messages exercise both), so the level must
 * count the channels too. First on MPI_COMM_WORLD, then on communicators of 16 members (which
 * have channels at any job size). After receiving part of them the level is what is left,
 * after all of them 0, and the watermark the highest sum.
 */
#include <stdio.h>

#include "mpit_read.h"

static unsigned long long level(void)
{
    return mpit_read("unexpected_recvq_length", MPI_T_PVAR_CLASS_LEVEL);
}

static int nmsgs(int r)
{
    return r % 13 + 1;
}

/* One round on comm: returns the number of messages its rank 0 received. */
static unsigned long long round_on(MPI_Comm comm, const char *what)
{
    int rank, size, v = 0;
    unsigned long long total = 0, left;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank > 0)
        for (int i = 0; i < nmsgs(rank); i++)
            MPI_Send(&i, 1, MPI_INT, 0, i, comm);
    MPI_Barrier(comm);
    if (rank != 0) {
        MPI_Barrier(comm);
        return 0;
    }
    for (int r = 1; r < size; r++)
        total += (unsigned long long)nmsgs(r);
    unsigned long long seen = level();
    if (seen != total)
        printf("%s: unexpected_recvq_length %llu, %llu messages sent\n", what, seen, total);
    CHECK(seen == total);
    /* The first half of each sender's messages, in order. */
    left = total;
    for (int r = 1; r < size; r++)
        for (int i = 0; i < nmsgs(r) / 2; i++) {
            MPI_Recv(&v, 1, MPI_INT, r, i, comm, MPI_STATUS_IGNORE);
            CHECK(v == i);
            left--;
        }
    CHECK(level() == left);
    for (int r = 1; r < size; r++)
        for (int i = nmsgs(r) / 2; i < nmsgs(r); i++) {
            MPI_Recv(&v, 1, MPI_INT, r, i, comm, MPI_STATUS_IGNORE);
            CHECK(v == i);
        }
    CHECK(level() == 0);
    MPI_Barrier(comm);
    return total;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    unsigned long long most = round_on(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    MPI_Comm group;
    MPI_Comm_split(MPI_COMM_WORLD, rank / 16, rank, &group);
    unsigned long long in_group = round_on(group, "a group of 16");
    if (in_group > most)
        most = in_group;
    /* A second round on the same channels, now created on both sides. */
    round_on(group, "a group of 16, again");
    MPI_Comm_free(&group);
    CHECK(mpit_read("unexpected_recvq_hwm", MPI_T_PVAR_CLASS_HIGHWATERMARK) == most);

    MPI_T_finalize();
    return mtest_finish();
}
