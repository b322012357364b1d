/*
 * rma_hash_table.c: a distributed hash table in one-sided communication. Each rank owns a
 * slice of an open-addressing table of (key, value) slots in an MPI_Win_allocate window. Every
 * rank inserts its keys with MPI_Compare_and_swap (claim an empty slot, or find the key
 * already there, probing linearly on collisions) and counts each insertion with MPI_Fetch_and_op
 * on a global counter at rank 0 and on the key's value, all inside one MPI_Win_lock_all epoch:
 * no rank ever waits for another. Every key is inserted by two ranks, so at the end each value
 * must be 2 and the counter must equal the number of insertions. Prints "No Errors" when the
 * table and the counter check out.
 *
 *   mpicc rma_hash_table.c -o rma_hash_table && mpiexec -n 8 ./rma_hash_table
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define SLOTS_PER_RANK 512
#define KEYS_PER_RANK 100
#define EMPTY 0L

/* A slot is two longs: key (EMPTY = free) and value. Slot s lives at rank s / SLOTS_PER_RANK. */
static void locate(long slot, int *rank, MPI_Aint *disp)
{
    *rank = (int)(slot / SLOTS_PER_RANK);
    *disp = 1 + 2 * (slot % SLOTS_PER_RANK); /* element 0 of rank 0 is the counter */
}

static unsigned long hash(long key)
{
    unsigned long h = (unsigned long)key * 0x9e3779b97f4a7c15UL;
    return h ^ (h >> 29);
}

/* Inserts key (or finds it), adds 1 to its value; returns the number of probes. */
static int insert(long key, long nslots, MPI_Win win)
{
    long slot = (long)(hash(key) % (unsigned long)nslots), one = 1, empty = EMPTY, found, old;
    for (int probes = 1;; probes++, slot = (slot + 1) % nslots) {
        int rank;
        MPI_Aint disp;
        locate(slot, &rank, &disp);
        MPI_Compare_and_swap(&key, &empty, &found, MPI_LONG, rank, disp, win);
        MPI_Win_flush(rank, win);
        if (found == EMPTY || found == key) {
            MPI_Fetch_and_op(&one, &old, MPI_LONG, rank, disp + 1, MPI_SUM, win);
            MPI_Win_flush(rank, win);
            return probes;
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long nslots = (long)size * SLOTS_PER_RANK;

    long *mem;
    MPI_Win win;
    MPI_Aint bytes = (1 + 2 * SLOTS_PER_RANK) * sizeof(long);
    MPI_Win_allocate(bytes, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    for (long i = 0; i < 1 + 2 * SLOTS_PER_RANK; i++)
        mem[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);

    /* Keys 1..size*KEYS_PER_RANK/2 + ...: rank r inserts keys of its own block and of its
     * right neighbour's block, so every key arrives twice, from two ranks at once. */
    MPI_Win_lock_all(0, win);
    long probes = 0, inserted = 0, one = 1, old;
    for (int pass = 0; pass < 2; pass++) {
        int owner = (rank + pass) % size;
        for (long k = 0; k < KEYS_PER_RANK; k++) {
            probes += insert(1 + owner * KEYS_PER_RANK + k, nslots, win);
            MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
            inserted++;
        }
    }
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);

    /* Check: every key once in the table, with value 2; the counter counts every insertion. */
    long local_keys = 0, bad = 0, total_keys, total_bad, all_inserted;
    for (int s = 0; s < SLOTS_PER_RANK; s++) {
        if (mem[1 + 2 * s] == EMPTY)
            continue;
        local_keys++;
        if (mem[2 + 2 * s] != 2)
            bad++;
    }
    MPI_Reduce(&local_keys, &total_keys, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&bad, &total_bad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&inserted, &all_inserted, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total_keys != (long)size * KEYS_PER_RANK || total_bad != 0 ||
            mem[0] != all_inserted || all_inserted != 2L * size * KEYS_PER_RANK) {
            printf("keys %ld (expected %ld), bad values %ld, counter %ld (expected %ld)\n",
                   total_keys, (long)size * KEYS_PER_RANK, total_bad, mem[0], all_inserted);
            errors++;
        } else {
            printf("%ld keys in %ld slots, %ld insertions counted\n", total_keys, nslots,
                   mem[0]);
            printf(" No Errors\n");
        }
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return errors;
}
