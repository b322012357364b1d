/*
 * rma_atomic_mix: accumulate operations on the same location stay atomic with respect to each
 * other (MPI-4.1 §12.7.1) when some of them are one atomic instruction at the target (one
 * aligned 4- or 8-byte element: Fetch_and_op, Compare_and_swap, a one-element Accumulate or
 * Get_accumulate) and others combine under the target's mutex (many elements). Every rank
 * hammers rank 0's words at once, mixing both kinds on the same words; a lost update shows as
 * a wrong final count. The many-element accumulate of spread[] has a strided target type, so
 * the target combines it in packed chunks, each read, combined and written back over
 * microseconds: an atomic update of a word in between would be overwritten. Also: MPI_MAX on doubles (the compare-and-swap loop), MPI_REPLACE and
 * MPI_NO_OP on one element, a misaligned element (the mutex path), with their results.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mtest.h"

#define ITERS 2000
#define WORDS 16
#define SPREAD 2048 /* longs of spread[], every other one accumulated */

static void check(int cond, const char *what, long got, long want)
{
    if (!cond) {
        mtest_errors++;
        printf("%s: got %ld, expected %ld\n", what, got, want);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* words[0..WORDS-1]: longs; then WORDS ints; then one double; then 9 bytes (misaligned). */
    struct layout {
        long words[WORDS];
        long spread[SPREAD];
        int ints[WORDS];
        double top;
        char bytes[9];
    } * mem;
    MPI_Win win;
    MPI_Win_allocate(sizeof(*mem), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    memset(mem, 0, sizeof(*mem));
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Aint d_words = 0, d_spread = offsetof(struct layout, spread),
             d_ints = offsetof(struct layout, ints), d_top = offsetof(struct layout, top),
             d_bytes = offsetof(struct layout, bytes);
    long ones[WORDS], lone = 1, old, prev_max = -1;
    int iones[WORDS], ione = 1, iold;
    for (int i = 0; i < WORDS; i++)
        ones[i] = 1, iones[i] = 1;
    static long spread_ones[SPREAD / 2];
    for (int i = 0; i < SPREAD / 2; i++)
        spread_ones[i] = 1;
    MPI_Datatype every_other;
    MPI_Type_vector(SPREAD / 2, 1, 2, MPI_LONG, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Win_lock_all(0, win);
    for (int it = 0; it < ITERS; it++) {
        /* An even word of spread[], atomically, and all of them under the mutex. */
        MPI_Aint at = d_spread +
                      (MPI_Aint)sizeof(long) * 2 * ((it * 7 + rank * 131) % (SPREAD / 2));
        MPI_Fetch_and_op(&lone, &old, MPI_LONG, 0, at, MPI_SUM, win);
        MPI_Accumulate(spread_ones, SPREAD / 2, MPI_LONG, 0, d_spread, 1, every_other, MPI_SUM,
                       win);
        /* One element, atomic instruction: word 0 and int 0. */
        MPI_Fetch_and_op(&lone, &old, MPI_LONG, 0, d_words, MPI_SUM, win);
        MPI_Fetch_and_op(&ione, &iold, MPI_INT, 0, d_ints, MPI_SUM, win);
        /* Many elements, the mutex: every word, so also word 0 and int 0. */
        MPI_Accumulate(ones, WORDS, MPI_LONG, 0, d_words, WORDS, MPI_LONG, MPI_SUM, win);
        MPI_Accumulate(iones, WORDS, MPI_INT, 0, d_ints, WORDS, MPI_INT, MPI_SUM, win);
        /* A compare-and-swap increment of word 1 (retried until it lands). */
        long seen = 0, want;
        MPI_Fetch_and_op(NULL, &seen, MPI_LONG, 0, d_words + sizeof(long), MPI_NO_OP, win);
        for (;;) {
            want = seen + 1;
            long got;
            MPI_Compare_and_swap(&want, &seen, &got, MPI_LONG, 0, d_words + sizeof(long), win);
            MPI_Win_flush(0, win);
            if (got == seen)
                break;
            seen = got;
        }
        /* MPI_MAX on a double: the result is never below what this rank put before. */
        double mine = (double)(it * size + rank), dold;
        MPI_Fetch_and_op(&mine, &dold, MPI_DOUBLE, 0, d_top, MPI_MAX, win);
        MPI_Win_flush(0, win);
        if (dold < (double)prev_max)
            check(0, "MPI_MAX went down", (long)dold, prev_max);
        prev_max = (long)mine;
        /* A misaligned 8-byte element: the mutex path, same result. */
        MPI_Accumulate(&lone, 1, MPI_LONG, 0, d_bytes + 1, 1, MPI_LONG, MPI_SUM, win);
        MPI_Win_flush(0, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        long n = (long)size * ITERS;
        check(mem->words[0] == 2 * n, "word 0 (fetch_and_op + accumulate)", mem->words[0], 2 * n);
        check(mem->words[1] == 2 * n, "word 1 (compare_and_swap + accumulate)", mem->words[1],
              2 * n);
        for (int i = 2; i < WORDS; i++)
            check(mem->words[i] == n, "word i (accumulate)", mem->words[i], n);
        long total = 0, odd = 0;
        for (int i = 0; i < SPREAD; i++)
            *(i % 2 ? &odd : &total) += mem->spread[i];
        check(total == n * (SPREAD / 2 + 1), "spread[] (fetch_and_op + strided accumulate)", total,
              n * (SPREAD / 2 + 1));
        check(odd == 0, "spread[]'s odd words", odd, 0);
        check(mem->ints[0] == 2 * n, "int 0", mem->ints[0], 2 * n);
        for (int i = 1; i < WORDS; i++)
            check(mem->ints[i] == n, "int i", mem->ints[i], n);
        check(mem->top == (double)((ITERS - 1) * size + size - 1), "MPI_MAX top", (long)mem->top,
              (long)((ITERS - 1) * size + size - 1));
        long b;
        memcpy(&b, mem->bytes + 1, sizeof(b));
        check(b == n, "misaligned word", b, n);
        MPI_Win_unlock(0, win);
    }
    /* MPI_REPLACE and MPI_NO_OP on one element, with their results. */
    MPI_Win_fence(0, win);
    if (rank == size - 1) {
        long v = 42, r = 0;
        MPI_Fetch_and_op(&v, &r, MPI_LONG, 0, d_words + 2 * sizeof(long), MPI_REPLACE, win);
        check(r == (long)size * ITERS, "replace's result", r, (long)size * ITERS);
    }
    MPI_Win_fence(0, win);
    if (rank == 0) {
        long r = 0;
        MPI_Fetch_and_op(NULL, &r, MPI_LONG, 0, d_words + 2 * sizeof(long), MPI_NO_OP, win);
        MPI_Win_fence(0, win);
        check(r == 42, "no_op after replace", r, 42);
    } else {
        MPI_Win_fence(0, win);
    }
    MPI_Type_free(&every_other);
    MPI_Win_free(&win);
    int all; /* every rank's findings, reported by rank 0 */
    MPI_Allreduce(&mtest_errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mtest_errors = all;
    return mtest_finish();
}
