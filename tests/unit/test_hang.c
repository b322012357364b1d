/*
 * test_hang.c: unit tests of the hang monitor (runtime/hang.c) at a rank's death. Between the
 * moment a failed rank's end is recorded and the moment the fault layer holds its failure, the
 * peers waiting for it cannot know of it yet and sleep; the monitor must not take them for
 * deadlocked, and their waits must end with MPI_ERR_PROC_FAILED once the failure is known.
 *
 * That moment is a few instructions in a run; here it is stretched: the test is linked with
 * -Wl,--wrap=mmpi_fault_rank_died (Makefile), and the wrapper sleeps before handing over.
 * Rank bodies record what they see; the test thread asserts afterwards.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include "unit_world.h"

void __real_mmpi_fault_rank_died(struct mmpi_rank *r);
void __wrap_mmpi_fault_rank_died(struct mmpi_rank *r);

/* Far longer than the monitor needs to report a deadlock (two looks 0.2 ms apart). */
#define HANDOVER_DELAY_NS 60000000L

void __wrap_mmpi_fault_rank_died(struct mmpi_rank *r)
{
    struct timespec delay = {0, HANDOVER_DELAY_NS};
    nanosleep(&delay, NULL);
    __real_mmpi_fault_rank_died(r);
}

#define MAXR 8
static int seen_rc[MAXR];

static void reset(void)
{
    for (int i = 0; i < MAXR; i++)
        seen_rc[i] = -1;
}

/* The last rank dies; rank 0 receives from it. */
static void receive_from_dying(int rank, int size, void *arg)
{
    int v = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == size - 1)
        raise(SIGKILL);
    if (rank == 0)
        seen_rc[rank] = MPI_Recv(&v, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void receive_during_handover(void **state)
{
    reset();
    /* Open MPI convention: a killed rank does not fail the job; a deadlock report would end it
     * with status 123. */
    assert_int_equal(unit_world_run(2, receive_from_dying, NULL), 0);
    assert_int_equal(MPI_ERR_PROC_FAILED, seen_rc[0]);
}

/* The last rank dies; the others enter a barrier that waits for it. */
static void barrier_without_dying(int rank, int size, void *arg)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == size - 1)
        raise(SIGKILL);
    seen_rc[rank] = MPI_Barrier(MPI_COMM_WORLD);
}

static void barrier_during_handover(void **state)
{
    reset();
    assert_int_equal(unit_world_run(4, barrier_without_dying, NULL), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(MPI_ERR_PROC_FAILED, seen_rc[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(receive_during_handover),
        cmocka_unit_test(barrier_during_handover),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
