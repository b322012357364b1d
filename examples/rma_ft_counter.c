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
 * At the end the survivors gather their finished items; items nobody finished (the dead
 * rank's) are done again by rank 0, and the sum of the results is checked against the formula.
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

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    long counter = 0; /* rank 0's window memory (the others expose nothing) */
    long *mine = malloc(ITEMS * sizeof(long)), nmine = 0, highest = -1;
    long *results = malloc(ITEMS * sizeof(long));
    int me, errors = 0;
    MPI_Comm_rank(comm, &me);
    MPI_Win win;
    MPI_Win_create(&counter, me == 0 ? sizeof counter : 0, sizeof(long), MPI_INFO_NULL, comm,
                   &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);

    for (;;) {
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
        int flags = (item != -2) | (item == -1) << 1;
        if (MPIX_Comm_agree(comm, &flags) != MPI_SUCCESS) {
            /* A failure nobody had acknowledged: notice it, acknowledge it, decide again. */
            MPI_Group failed;
            MPIX_Comm_get_failed(comm, &failed);
            MPI_Group_free(&failed);
            MPIX_Comm_failure_ack(comm);
            flags = (item == -1) << 1; /* and recover */
            MPIX_Comm_agree(comm, &flags);
        }
        if ((flags & 1) && (flags & 2))
            break;
        if (flags & 1)
            continue;
        /* Recover: a fresh window on the survivors, the counter rebuilt from what they took. */
        MPIX_Win_revoke(win);
        MPI_Win_free(&win); /* local on a revoked window */
        MPI_Comm shrunk;
        MPIX_Comm_shrink(comm, &shrunk);
        MPI_Comm_free(&comm);
        comm = shrunk;
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        MPI_Comm_rank(comm, &me);
        long next_item = highest + 1, top;
        MPI_Allreduce(&next_item, &top, 1, MPI_LONG, MPI_MAX, comm);
        counter = top;
        MPI_Win_create(&counter, me == 0 ? sizeof counter : 0, sizeof(long), MPI_INFO_NULL,
                       comm, &win);
        MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    }
    MPI_Win_free(&win);

    /* Gather what the survivors finished; rank 0 redoes what nobody finished. */
    int nranks;
    MPI_Comm_size(comm, &nranks);
    int n = (int)nmine, *counts = NULL, *displs = NULL;
    long *all = NULL, *all_results = NULL;
    if (me == 0) {
        counts = malloc(nranks * sizeof(int));
        displs = malloc(nranks * sizeof(int));
    }
    MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
    int total = 0;
    if (me == 0) {
        for (int i = 0; i < nranks; i++) {
            displs[i] = total;
            total += counts[i];
        }
        all = malloc((total + 1) * sizeof(long));
        all_results = malloc((total + 1) * sizeof(long));
    }
    MPI_Gatherv(mine, n, MPI_LONG, all, counts, displs, MPI_LONG, 0, comm);
    MPI_Gatherv(results, n, MPI_LONG, all_results, counts, displs, MPI_LONG, 0, comm);
    if (me == 0) {
        int *seen = calloc(ITEMS, sizeof(int)), redone = 0;
        long sum = 0, expect = 0;
        for (int i = 0; i < total; i++) {
            if (all[i] < 0 || all[i] >= ITEMS || seen[all[i]]++) {
                fprintf(stderr, "item %ld taken twice or out of range\n", all[i]);
                errors++;
            }
            sum += all_results[i];
        }
        for (long i = 0; i < ITEMS; i++) {
            expect += work(i);
            if (!seen[i]) {
                sum += work(i);
                redone++;
            }
        }
        if (sum != expect) {
            fprintf(stderr, "sum %ld, expected %ld\n", sum, expect);
            errors++;
        }
        printf("%d items, %d redone, %d ranks left\n", ITEMS, redone, nranks);
        if (!errors)
            printf(" No Errors\n");
        free(seen);
    }
    free(counts);
    free(displs);
    free(all);
    free(all_results);
    free(mine);
    free(results);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return errors ? 1 : 0;
}
