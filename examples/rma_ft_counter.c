/*
 * rma_ft_counter.c: a lock-protected shared counter that survives the death of the lock holder.
 *
 * Work items 0..ITEMS-1 are handed out by a counter in rank 0's window: a rank takes the
 * exclusive lock, reads the counter, writes it back plus one and unlocks; the item it read is
 * its own once the unlock succeeded. Each rank keeps the items it finished and their results.
 * Every rank takes one item per round, and the survivors agree after each round whether the
 * window failed (so `kill R after MPI_Win_lock#N` always fires in round N).
 *
 * When a rank dies while it holds the lock (MINI_MPI_FAULTS='kill 2 after MPI_Win_lock#3'),
 * nobody can ever take that lock again: every later lock of the counter raises
 * MPI_ERR_PROC_FAILED (docs/rma.md, the dead-holder rule), and the counter's value is
 * undefined if the dead rank had written it. The survivors recover:
 *   1. revoke the window (a rank still blocked in it wakes), agree that the round failed
 *      (MPIX_Comm_agree; if it reports the failure, notice and acknowledge it and agree again);
 *   2. free the window and shrink the communicator;
 *   3. rebuild the counter from what the survivors know: the highest item any survivor took,
 *      plus one (items the dead rank took and never reported are found missing at the end);
 *   4. create the window on the survivors and go on.
 * At the end the survivors sum up which items they finished and their results (MPI_Allreduce,
 * again until it succeeds everywhere); items nobody finished (the dead ranks') are done again,
 * and the sum of the results is checked against the formula. Every collective step is
 * followed by an agreement, so a death anywhere (the fault sweep of tests/tools/rmaft_sweep.sh)
 * ends in the verified result.
 * Prints "<items> items, <redone> redone, <ranks> ranks left" and "No Errors".
 *
 *   mpicc rma_ft_counter.c -o rma_ft_counter
 *   MINI_MPI_FAULTS='kill 2 after MPI_Win_lock#3' mpiexec -n 4 ./rma_ft_counter
 */
#include <mpi.h>
#if defined(OPEN_MPI) || defined(MINI_MPI) /* MPICH declares MPIX_ in mpi.h, has no mpi-ext.h */
#include <mpi-ext.h>
#endif
#include <stdio.h>
#include <stdlib.h>

#define ITEMS 64

static long work(long item) { return item * item + 1; }

/* Takes the next item from the counter at rank 0 of win: the item, -1 when all are taken, or
 * -2 when the window failed (the caller recovers). */
static long take(MPI_Win win)
{
    long item = -1, next;
    if (MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win) != MPI_SUCCESS)
        return -2;
    int rc = MPI_Get(&item, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_flush(0, win);
    next = item + 1;
    if (rc == MPI_SUCCESS && item < ITEMS)
        rc = MPI_Put(&next, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
    if (MPI_Win_unlock(0, win) != MPI_SUCCESS || rc != MPI_SUCCESS)
        return -2;
    return item < ITEMS ? item : -1;
}

/* The decision every survivor of comm shares: the AND of their `ok`, 0 after a failure that
 * not everyone had acknowledged (each then notices and acknowledges it, and they decide
 * again). */
static int decide(MPI_Comm comm, int ok)
{
    int flag = ok;
    while (MPIX_Comm_agree(comm, &flag) != MPI_SUCCESS) {
        MPI_Group failed;
        MPIX_Comm_get_failed(comm, &failed);
        MPI_Group_free(&failed);
        MPIX_Comm_failure_ack(comm);
        flag = 0;
    }
    return flag;
}

/* Replaces comm by its survivors. */
static void shrink(MPI_Comm *comm)
{
    MPI_Comm shrunk;
    MPIX_Comm_shrink(*comm, &shrunk);
    MPI_Comm_free(comm);
    *comm = shrunk;
    MPI_Comm_set_errhandler(*comm, MPI_ERRORS_RETURN);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm comm; /* the survivors: a shrink cannot fail because of a failure */
    MPIX_Comm_shrink(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);

    long counter = 0; /* rank 0's window memory (the others expose nothing) */
    long *mine = malloc(ITEMS * sizeof(long)), nmine = 0, highest = -1;
    long *results = malloc(ITEMS * sizeof(long));
    int me, errors = 0, have_win = 0;
    MPI_Win win = MPI_WIN_NULL;

    for (;;) {
        if (!have_win) {
            /* (Re)build the counter from what the survivors took, then its window. */
            MPI_Comm_rank(comm, &me);
            long next_item = highest + 1, top = 0;
            int rc = MPI_Allreduce(&next_item, &top, 1, MPI_LONG, MPI_MAX, comm);
            counter = top;
            if (rc == MPI_SUCCESS)
                rc = MPI_Win_create(&counter, me == 0 ? sizeof counter : 0, sizeof(long),
                                    MPI_INFO_NULL, comm, &win);
            if (rc == MPI_SUCCESS)
                MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
            if (!decide(comm, rc == MPI_SUCCESS)) {
                if (win != MPI_WIN_NULL) {
                    MPIX_Win_revoke(win);
                    MPI_Win_free(&win);
                }
                shrink(&comm);
                continue;
            }
            have_win = 1;
        }
        /* One item per rank and round, then a decision all survivors share: whether the
         * window failed anywhere (bit 0 clear), whether every item is taken (bit 1). */
        long item = take(win);
        if (item >= 0) {
            mine[nmine] = item;
            results[nmine++] = work(item);
            if (item > highest)
                highest = item;
        }
        if (item == -2)
            MPIX_Win_revoke(win); /* wakes a survivor still blocked in the window */
        int flags = decide(comm, (item != -2) | (item == -1) << 1);
        if ((flags & 1) && (flags & 2))
            break;
        if (flags & 1)
            continue;
        /* Recover: revoke, free (local on a revoked window), shrink, rebuild. */
        MPIX_Win_revoke(win);
        MPI_Win_free(&win);
        shrink(&comm);
        have_win = 0;
    }
    MPI_Win_free(&win); /* MPI_SUCCESS, or MPI_ERR_PROC_FAILED if a member died: freed */

    /* Who finished what: per item, how many survivors hold it and the sum of their results.
     * Items nobody finished (the dead ranks') are done again. */
    long *sums = malloc(2 * ITEMS * sizeof(long)), *mine_sums = calloc(2 * ITEMS, sizeof(long));
    for (long i = 0; i < nmine; i++) {
        mine_sums[mine[i]]++;
        mine_sums[ITEMS + mine[i]] += results[i];
    }
    while (!decide(comm, MPI_Allreduce(mine_sums, sums, 2 * ITEMS, MPI_LONG, MPI_SUM, comm) ==
                             MPI_SUCCESS))
        shrink(&comm);
    int nranks, redone = 0;
    MPI_Comm_size(comm, &nranks);
    MPI_Comm_rank(comm, &me);
    long sum = 0, expect = 0;
    for (long i = 0; i < ITEMS; i++) {
        expect += work(i);
        if (sums[i] > 1) {
            fprintf(stderr, "item %ld taken %ld times\n", i, sums[i]);
            errors++;
        }
        if (sums[i] == 0) {
            sum += work(i);
            redone++;
        }
        sum += sums[ITEMS + i];
    }
    if (sum != expect) {
        fprintf(stderr, "sum %ld, expected %ld\n", sum, expect);
        errors++;
    }
    if (me == 0) {
        printf("%d items, %d redone, %d ranks left\n", ITEMS, redone, nranks);
        if (!errors)
            printf(" No Errors\n");
        fflush(stdout);
    }
    free(sums);
    free(mine_sums);
    free(mine);
    free(results);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return errors ? 1 : 0;
}
