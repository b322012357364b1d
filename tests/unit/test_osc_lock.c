/*
 * test_osc_lock.c: the passive-target lock's two forms (osc/lock.c) seen from inside: an
 * uncontended exclusive lock lives in the target's lock_word and leaves the record untouched;
 * a second request, a post, or the death of the holder moves the holder into the record; the
 * word comes back to 0 once the record holds nothing. Rank bodies record what they saw in
 * per-rank slots; assertions run on the test's own thread.
 */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>

#include "mpi-ext.h"
#include "osc/win.h"
#include "unit_world.h"

/* One look at a target's lock. */
struct lock_view {
    uint32_t word;
    int exclusive, nshared;
    uint8_t hold0, failed_hold;
    int failed_holder;
    int err; /* the MPI call's result at that moment */
};

static struct lock_view seen[3][4]; /* [rank][step] */
static pthread_barrier_t threads;   /* outside MPI: ranks still in a call are not waited for */

static struct mmpi_win_target *target_of(MPI_Win win, int target)
{
    return &mmpi_win_get(mmpi_self, win)->core->targets[target];
}

/* A snapshot of target's lock; the record's fields are read under its mutex. */
static struct lock_view look(MPI_Win win, int target, int err)
{
    struct mmpi_win_target *t = target_of(win, target);
    struct lock_view v;
    pthread_mutex_lock(&t->lock);
    v.word = __atomic_load_n(&t->lock_word, __ATOMIC_ACQUIRE);
    v.exclusive = t->exclusive;
    v.nshared = t->nshared;
    v.hold0 = t->holds[0];
    v.failed_hold = t->failed_hold;
    v.failed_holder = t->failed_holder;
    pthread_mutex_unlock(&t->lock);
    v.err = err;
    return v;
}

/* Waits (10 s at most) until member m is recorded as waiting at target. */
static void wait_for_waiter(MPI_Win win, int target, int m)
{
    struct mmpi_win_target *t = target_of(win, target);
    for (int i = 0; i < 10000 && !__atomic_load_n(&t->waits[m], __ATOMIC_ACQUIRE); i++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

static MPI_Win new_window(void)
{
    static long mem[3][2];
    int rank;
    MPI_Win win;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Win_create(mem[rank], sizeof mem[rank], sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    return win;
}

/* Rank 0 locks target 1 exclusively, nobody else asks: the word names it, the record is
 * untouched; unlocking empties the word. */
static void uncontended(int rank, int size, void *arg)
{
    (void)size, (void)arg;
    MPI_Win win = new_window();
    if (rank == 0) {
        int err = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        seen[0][0] = look(win, 1, err);
        err = MPI_Win_unlock(1, win);
        seen[0][1] = look(win, 1, err);
    }
    MPI_Win_free(&win);
}

static void uncontended_lock_is_the_word(void **state)
{
    (void)state;
    memset(seen, 0, sizeof seen);
    assert_int_equal(unit_world_run(2, uncontended, NULL), 0);
    assert_int_equal(seen[0][0].err, MPI_SUCCESS);
    assert_int_equal(seen[0][0].word, 1); /* member 0 + 1 */
    assert_int_equal(seen[0][0].exclusive, -1);
    assert_int_equal(seen[0][0].hold0, 0);
    assert_int_equal(seen[0][1].err, MPI_SUCCESS);
    assert_int_equal(seen[0][1].word, 0);
}

/* Rank 0 holds target 1 in the word; rank 1 asks for a shared lock and waits: the record now
 * names rank 0 as the exclusive holder. Rank 0's unlock goes through the record, rank 1 is
 * granted there, and its unlock gives the word back. */
static void second_request(int rank, int size, void *arg)
{
    (void)size, (void)arg;
    MPI_Win win = new_window();
    if (rank == 0)
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        wait_for_waiter(win, 1, 1);
        seen[0][0] = look(win, 1, MPI_SUCCESS);
        seen[0][1] = look(win, 1, MPI_Win_unlock(1, win));
    } else {
        int err = MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        seen[1][0] = look(win, 1, err);
        seen[1][1] = look(win, 1, MPI_Win_unlock(1, win));
    }
    MPI_Win_free(&win);
}

static void second_request_moves_holder_into_record(void **state)
{
    (void)state;
    memset(seen, 0, sizeof seen);
    assert_int_equal(unit_world_run(2, second_request, NULL), 0);
    assert_int_equal(seen[0][0].word, MMPI_WIN_LOCK_RECORD);
    assert_int_equal(seen[0][0].exclusive, 0);
    assert_int_equal(seen[0][0].hold0, MMPI_WIN_EXCLUSIVE);
    assert_int_equal(seen[0][1].err, MPI_SUCCESS);
    assert_int_equal(seen[1][0].err, MPI_SUCCESS);
    assert_int_equal(seen[1][0].word, MMPI_WIN_LOCK_RECORD);
    assert_int_equal(seen[1][0].exclusive, -1);
    assert_int_equal(seen[1][0].nshared, 1);
    assert_int_equal(seen[1][0].hold0, 0);
    assert_int_equal(seen[1][1].err, MPI_SUCCESS);
    assert_int_equal(seen[1][1].word, 0);
    assert_int_equal(seen[1][1].nshared, 0);
}

/* Rank 0 holds target 1 in the word; rank 1 posts an exposure epoch: refused with
 * MPI_ERR_RMA_CONFLICT, having found rank 0 through the record. */
static void post_while_locked(int rank, int size, void *arg)
{
    (void)size, (void)arg;
    MPI_Win win = new_window();
    MPI_Group world, origin;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int zero = 0;
    MPI_Group_incl(world, 1, &zero, &origin);
    if (rank == 0)
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        seen[1][0] = look(win, 1, MPI_Win_post(origin, 0, win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        seen[0][0] = look(win, 1, MPI_Win_unlock(1, win));
    MPI_Group_free(&origin);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
}

static void post_finds_the_word_holder(void **state)
{
    (void)state;
    memset(seen, 0, sizeof seen);
    assert_int_equal(unit_world_run(2, post_while_locked, NULL), 0);
    assert_int_equal(seen[1][0].err, MPI_ERR_RMA_CONFLICT);
    assert_int_equal(seen[1][0].word, MMPI_WIN_LOCK_RECORD);
    assert_int_equal(seen[1][0].exclusive, 0);
    assert_int_equal(seen[0][0].err, MPI_SUCCESS);
    assert_int_equal(seen[0][0].word, 0);
}

/* Rank 0 holds target 2 in the word and is marked failed (its thread then parks in its next
 * call): the death hook moves its hold into the record as the failed holder's, and every
 * later request that conflicts with it raises MPI_ERR_PROC_FAILED. */
static void holder_fails(int rank, int size, void *arg)
{
    (void)size, (void)arg;
    MPI_Win win = new_window();
    if (rank == 0)
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        seen[1][0] = look(win, 2, MPI_SUCCESS);
        mmpi_rank_mark_failed(mmpi_world->ranks[0], 1, "marked failed by the test");
    }
    pthread_barrier_wait(&threads);
    if (rank == 0) {
        MPI_Barrier(MPI_COMM_WORLD); /* never returns: the rank parks */
        return;
    }
    seen[rank][1] = look(win, 2, MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win));
    seen[rank][2] = look(win, 2, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win));
    MPI_Win_free(&win);
}

static void failed_word_holder_blocks_nobody(void **state)
{
    (void)state;
    memset(seen, 0, sizeof seen);
    pthread_barrier_init(&threads, NULL, 3);
    unit_world_run(3, holder_fails, NULL); /* a failed rank: the job's status is not 0 */
    pthread_barrier_destroy(&threads);
    assert_int_equal(seen[1][0].word, 1);
    for (int r = 1; r <= 2; r++) {
        assert_int_equal(seen[r][1].err, MPIX_ERR_PROC_FAILED);
        assert_int_equal(seen[r][1].word, MMPI_WIN_LOCK_RECORD);
        assert_int_equal(seen[r][1].exclusive, -1);
        assert_int_equal(seen[r][1].failed_hold, MMPI_WIN_EXCLUSIVE);
        assert_int_equal(seen[r][1].failed_holder, 0);
        /* sticky on the window once raised (the fault-tolerance chapter's one-sided rule) */
        assert_int_equal(seen[r][2].err, MPIX_ERR_PROC_FAILED);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(uncontended_lock_is_the_word),
        cmocka_unit_test(second_request_moves_holder_into_record),
        cmocka_unit_test(post_finds_the_word_holder),
        cmocka_unit_test(failed_word_holder_blocks_nobody),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
