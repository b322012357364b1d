/* rma_lock_mix.c: passive-target locks that exclude under every mix of requests (MPI-4.1
 * §12.5.3: an exclusive lock excludes every other lock of the target, shared locks exclude
 * exclusive ones). Every rank runs ROUNDS epochs on target 0, most of them exclusive
 * read-modify-writes of a pair of words with plain loads and stores in the window (the unified
 * model), some shared reads that must always see the two words equal, some exclusive epochs
 * that also lock a second target, and now and then a lock_all. Uncontended and contended
 * requests alternate all the time, so the lock keeps passing between its forms (an
 * uncontended exclusive lock is taken without the lock's record; any other request moves it
 * into the record). At the end the pair counts every exclusive increment exactly once.
 * arg=post: rank 0 also exposes its window with MPI_Win_post/wait between rounds, and a lock
 * that meets the exposure gets MPI_ERR_RMA_CONFLICT and is retried later. */
#include <string.h>

#include "mtest.h"

#define ROUNDS 3000

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int post = argc > 1 && !strcmp(argv[1], "post");
    long *mem;
    MPI_Win win;
    MPI_Win_allocate(2 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    mem[0] = mem[1] = 0;
    MPI_Group world, none;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 0, NULL, &none);
    MPI_Barrier(MPI_COMM_WORLD);

    long increments = 0, conflicts = 0;
    for (int k = 0; k < ROUNDS; k++) {
        if (post && rank == 0 && k % 50 == 25) {
            /* An empty exposure epoch: no origin, but lockers of rank 0 meet it (or it
             * meets their lock, and is refused in turn). */
            int err = MPI_Win_post(none, 0, win);
            CHECK(err == MPI_SUCCESS || err == MPI_ERR_RMA_CONFLICT);
            if (err == MPI_SUCCESS)
                CHECK(MPI_Win_wait(win) == MPI_SUCCESS);
        }
        long pair[2];
        int kind = (k + rank) % 7;
        if (kind == 3) {
            int err = MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
            if (err == MPI_ERR_RMA_CONFLICT && post) {
                conflicts++;
                continue;
            }
            CHECK(err == MPI_SUCCESS);
            CHECK(MPI_Get(pair, 2, MPI_LONG, 0, 0, 2, MPI_LONG, win) == MPI_SUCCESS);
            CHECK(MPI_Win_unlock(0, win) == MPI_SUCCESS);
            CHECK(pair[0] == pair[1]);
        } else if (kind == 5 && k % 10 == 0) {
            int err = MPI_Win_lock_all(0, win);
            if (err == MPI_ERR_RMA_CONFLICT && post) {
                conflicts++;
                continue;
            }
            CHECK(err == MPI_SUCCESS);
            CHECK(MPI_Get(pair, 2, MPI_LONG, 0, 0, 2, MPI_LONG, win) == MPI_SUCCESS);
            CHECK(MPI_Win_unlock_all(win) == MPI_SUCCESS);
            CHECK(pair[0] == pair[1]);
        } else {
            int other = size > 1 ? 1 + k % (size - 1) : 0;
            int err = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
            if (err == MPI_ERR_RMA_CONFLICT && post) {
                conflicts++;
                continue;
            }
            CHECK(err == MPI_SUCCESS);
            if (kind == 6 && other != 0)
                CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, other, 0, win) == MPI_SUCCESS);
            CHECK(MPI_Get(pair, 2, MPI_LONG, 0, 0, 2, MPI_LONG, win) == MPI_SUCCESS);
            CHECK(MPI_Win_flush(0, win) == MPI_SUCCESS);
            CHECK(pair[0] == pair[1]);
            pair[0]++;
            CHECK(MPI_Put(&pair[0], 1, MPI_LONG, 0, 0, 1, MPI_LONG, win) == MPI_SUCCESS);
            CHECK(MPI_Win_flush(0, win) == MPI_SUCCESS);
            CHECK(MPI_Put(&pair[0], 1, MPI_LONG, 0, 1, 1, MPI_LONG, win) == MPI_SUCCESS);
            if (kind == 6 && other != 0)
                CHECK(MPI_Win_unlock(other, win) == MPI_SUCCESS);
            CHECK(MPI_Win_unlock(0, win) == MPI_SUCCESS);
            increments++;
        }
    }
    long total = 0;
    MPI_Reduce(&increments, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK(mem[0] == total && mem[1] == total);
        if (mem[0] != total || mem[1] != total)
            fprintf(stderr, "pair %ld %ld, %ld increments\n", mem[0], mem[1], total);
    }
    (void)conflicts;
    MPI_Group_free(&none);
    MPI_Group_free(&world);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS);
    return mtest_finish();
}
