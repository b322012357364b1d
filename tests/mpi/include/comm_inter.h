/* comm_inter.h: what the comm_inter_* tests share: an intercommunicator between a low group
 * (the first third of the world, at least one rank) and the rest, and a check of an
 * intercommunicator's groups (by world rank) that also sends messages and runs a collective
 * across it. Plain MPI. */
#ifndef COMM_INTER_H
#define COMM_INTER_H

#include <string.h>

#include "mtest.h"

static int wrank, wsize;


/* The world ranks of g's members, in g's order. */
static inline void world_ranks_of(MPI_Group g, int *out)
{
    MPI_Group world;
    int n;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_size(g, &n);
    int *in = malloc(((size_t)n + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        in[i] = i;
    MPI_Group_translate_ranks(g, n, in, world, out);
    MPI_Group_free(&world);
    free(in);
}

/* Checks that inter is an intercommunicator whose local and remote groups are the world ranks
 * local[nl] and remote[nr], and that it carries messages and a collective between them. */
static inline void check_inter(MPI_Comm inter, const int *local, int nl, const int *remote, int nr)
{
    int flag = 0, n = -1, r = -1;
    MPI_Group g;
    int got[64];
    CHECK(MPI_Comm_test_inter(inter, &flag) == MPI_SUCCESS && flag);
    MPI_Comm_size(inter, &n);
    CHECK(n == nl);
    MPI_Comm_remote_size(inter, &n);
    CHECK(n == nr);
    MPI_Comm_group(inter, &g);
    world_ranks_of(g, got);
    CHECK(!memcmp(got, local, (size_t)nl * sizeof(int)));
    MPI_Group_free(&g);
    MPI_Comm_remote_group(inter, &g);
    world_ranks_of(g, got);
    CHECK(!memcmp(got, remote, (size_t)nr * sizeof(int)));
    MPI_Group_free(&g);
    MPI_Comm_rank(inter, &r);
    CHECK(r >= 0 && r < nl && local[r] == wrank);

    /* Local rank i talks to remote rank i % nr; the answer names the remote sender. */
    int out = wrank, in = -1;
    if (r < nr) {
        CHECK(MPI_Sendrecv(&out, 1, MPI_INT, r, 7, &in, 1, MPI_INT, r, 7, inter,
                           MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(in == remote[r]);
    }
    /* Allreduce over an intercommunicator: each group gets the other's sum. */
    int sum = -1, want = 0;
    for (int i = 0; i < nr; i++)
        want += remote[i];
    CHECK(MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, inter) == MPI_SUCCESS && sum == want);
}

/* The subgroup of comm's local group holding the members whose local rank satisfies keep. */
static inline MPI_Group pick(MPI_Comm comm, int (*keep)(int rank, int size))
{
    MPI_Group g, sub;
    int n, k = 0;
    MPI_Comm_group(comm, &g);
    MPI_Group_size(g, &n);
    int *ranks = malloc(((size_t)n + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        if (keep(i, n))
            ranks[k++] = i;
    MPI_Group_incl(g, k, ranks, &sub);
    MPI_Group_free(&g);
    free(ranks);
    return sub;
}

static inline int keep_even(int rank, int size) { return rank % 2 == 0; }
static inline int keep_all(int rank, int size) { return 1; }
static inline int keep_none(int rank, int size) { return 0; }
static inline int keep_last(int rank, int size) { return rank == size - 1; }

/* World ranks of the members of [first, first + n) whose index in that range passes keep. */
static inline int members(int first, int n, int (*keep)(int, int), int *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (keep(i, n))
            out[k++] = first + i;
    return k;
}

/* The two groups: side 0 (low) holds world ranks [first[0], first[0] + n[0]), side 1 the rest;
 * *inter joins them (errors return), *half is the calling rank's side. */
static inline int comm_inter_setup(MPI_Comm *half, MPI_Comm *inter, int first[2], int n[2])
{
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (wsize < 2 || wsize > 64) {
        fprintf(stderr, "needs 2 to 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int nlow = wsize / 3 > 0 ? wsize / 3 : 1, low = wrank < nlow;
    first[0] = 0;
    first[1] = nlow;
    n[0] = nlow;
    n[1] = wsize - nlow;
    MPI_Comm_split(MPI_COMM_WORLD, low, wrank, half);
    CHECK(MPI_Intercomm_create(*half, 0, MPI_COMM_WORLD, low ? nlow : 0, 3, inter) ==
          MPI_SUCCESS);
    MPI_Comm_set_errhandler(*inter, MPI_ERRORS_RETURN);
    return !low;
}

#endif
