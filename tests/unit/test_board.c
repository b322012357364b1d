/*
 * test_board.c: the collective board frees the instances of a communicator with a dead member
 * (coll/board.h), and only once the dead member can no longer touch them. Counts the instances
 * left on MPI_COMM_WORLD's board directly, so the test is deterministic (no timing). Also:
 * a member's departure seen by its flag before its count is not taken for a failure.
 */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "coll/board.h"
#include "comm/comm.h"
#include "mpi-ext.h"
#include "unit_world.h"

#define ROUNDS 100
#define VICTIM 2

static pthread_barrier_t survivors;     /* ranks 0 and 1 */
static int left_during_run[3];          /* instances counted while the victim still ran */
static int left_after[3];               /* instances counted at the end */
static int victim_ready;                /* the victim made its last MPI call before computing */
static int victim_may_enter;            /* the marked-failed victim may make its next MPI call */

static void reset(void)
{
    pthread_barrier_init(&survivors, NULL, 2);
    for (int i = 0; i < 3; i++)
        left_during_run[i] = left_after[i] = -1;
    victim_ready = victim_may_enter = 0;
}

static int world_board_count(void)
{
    struct mmpi_rank *self = mmpi_self;
    return mmpi_board_count(mmpi_comm_get(self, MPI_COMM_WORLD)->core);
}

static void wait_victim_parked(void)
{
    struct mmpi_rank *v = mmpi_world->ranks[VICTIM];
    while (!mmpi_fault_is_failed(v) || !mmpi_thread_all_parked(v))
        sched_yield();
}

/* Barrier, allreduce, ibarrier, agree and shrink on a communicator with a failed member. */
static void collectives(int rounds)
{
    for (int i = 0; i < rounds; i++) {
        int in = 1, out = 0, flag = 1;
        MPI_Request req;
        MPI_Comm shrunk;
        assert_int_equal(MPI_Barrier(MPI_COMM_WORLD), MPIX_ERR_PROC_FAILED);
        assert_int_equal(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                         MPIX_ERR_PROC_FAILED);
        assert_int_equal(MPI_Ibarrier(MPI_COMM_WORLD, &req), MPI_SUCCESS);
        assert_int_equal(MPI_Wait(&req, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
        MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
        assert_int_equal(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk), MPI_SUCCESS);
        MPI_Comm_free(&shrunk);
    }
}

/* The victim dies in its own thread (parks at once); the survivors then run collectives. */
static void victim_exits(int rank, int size, void *arg)
{
    (void)size;
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == VICTIM)
        exit(3);
    wait_victim_parked();
    collectives(ROUNDS);
    pthread_barrier_wait(&survivors); /* both survivors left every instance */
    left_after[rank] = world_board_count();
}

static void parked_member_does_not_leak(void **state)
{
    (void)state;
    reset();
    assert_int_equal(unit_world_run(3, victim_exits, NULL), 0);
    assert_int_equal(left_after[0], 0);
    assert_int_equal(left_after[1], 0);
}

/* The victim is marked failed by rank 0 while it computes outside MPI: it could still be
 * reading an instance, so none may be freed until it has parked (at its next MPI call). */
static void victim_marked_failed(int rank, int size, void *arg)
{
    (void)size;
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == VICTIM) {
        __atomic_store_n(&victim_ready, 1, __ATOMIC_RELEASE);
        while (!__atomic_load_n(&victim_may_enter, __ATOMIC_ACQUIRE))
            sched_yield();
        MPI_Barrier(MPI_COMM_WORLD); /* never returns: the rank parks */
        return;
    }
    while (!__atomic_load_n(&victim_ready, __ATOMIC_ACQUIRE))
        sched_yield();
    if (rank == 0)
        mmpi_rank_mark_failed(mmpi_world->ranks[VICTIM], 1, "marked failed by the test");
    pthread_barrier_wait(&survivors);
    collectives(ROUNDS);
    pthread_barrier_wait(&survivors);
    left_during_run[rank] = world_board_count();
    pthread_barrier_wait(&survivors);
    if (rank == 0) {
        __atomic_store_n(&victim_may_enter, 1, __ATOMIC_RELEASE);
        wait_victim_parked();
    }
    pthread_barrier_wait(&survivors);
    collectives(1); /* the first new instance sweeps the abandoned ones */
    pthread_barrier_wait(&survivors);
    left_after[rank] = world_board_count();
}

static void running_failed_member_keeps_instances(void **state)
{
    (void)state;
    reset();
    assert_int_equal(unit_world_run(3, victim_marked_failed, NULL), 0);
    /* 5 instances per round (barrier, allreduce, ibarrier, agree, shrink), all kept. */
    assert_int_equal(left_during_run[0], 5 * ROUNDS);
    assert_int_equal(left_during_run[1], 5 * ROUNDS);
    assert_int_equal(left_after[0], 0);
    assert_int_equal(left_after[1], 0);
}

/* A live member that set its departure flag but has not yet counted itself (a thread
 * preempted between the two) is not missing: the wait judged by the flags already let the
 * others go on, and the SHARED-mode outcome must agree with it. */
static bool missing_seen = true, departed_seen = false;

static void departure_counted_late(int rank, int size, void *arg)
{
    (void)size;
    (void)arg;
    MPI_Comm shrunk;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == VICTIM)
        exit(3);
    wait_victim_parked(); /* a failure in the world: departures are judged member by member */
    MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk);
    struct mmpi_rank *self = mmpi_self;
    struct mmpi_comm_core *core = mmpi_comm_get(self, shrunk)->core;
    static const int deposit = 1;
    struct mmpi_board_instance *inst = mmpi_board_arrive(core, 1u << 30, rank, &deposit, NULL);
    mmpi_board_wait_arrived(self, core, inst);
    if (rank == 1) /* the first half of mmpi_board_depart */
        __atomic_store_n(&inst->departed_flags[1], 1, __ATOMIC_RELEASE);
    pthread_barrier_wait(&survivors);
    if (rank == 0) {
        mmpi_board_depart(core, inst, 0);
        departed_seen = mmpi_board_test_departed(self, core, inst);
        missing_seen = mmpi_board_departure_missing(self, core, inst);
    }
    pthread_barrier_wait(&survivors);
    if (rank == 1) /* the second half */
        __atomic_add_fetch(&inst->departed, 1, __ATOMIC_ACQ_REL);
    mmpi_board_leave(core, inst, rank);
    MPI_Comm_free(&shrunk);
}

static void late_count_is_not_a_failure(void **state)
{
    (void)state;
    reset();
    assert_int_equal(unit_world_run(3, departure_counted_late, NULL), 0);
    assert_true(departed_seen);
    assert_false(missing_seen);
}

int main(void)
{
    /* Counts board instances: barrier and allreduce must take the board at every size, not
     * the small-communicator fast path (coll/fast.h) that needs none. */
    setenv("MINI_MPI_COLL_FAST_MAX", "0", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parked_member_does_not_leak),
        cmocka_unit_test(running_failed_member_keeps_instances),
        cmocka_unit_test(late_count_is_not_a_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
