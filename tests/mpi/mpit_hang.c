/*
 * mpit_hang: the hang event (docs/tools-interface.md). Both ranks receive from each other and
 * nobody sends: the hang monitor ends the job with status 123, and before that runs each
 * rank's callback registered as thread safe, on its own thread (the ranks are frozen). A
 * registration with only an MPI_T_CB_REQUIRE_NONE callback must not be run there. The
 * thread-safe callback prints what it got; the testlist line checks the line. With more ranks
 * the others are killed by the fault injector as they enter their receive: the event still
 * reaches the two live ranks, and counts only them; a dead rank's callback ends the job with
 * status 1 instead of 123.
 */
#include <unistd.h>

#include "mtest.h"

static int none_called;

static void on_hang(MPI_T_event_instance e, MPI_T_event_registration r, MPI_T_cb_safety s,
                    void *data)
{
    int live = -1;
    MPI_T_event_read(e, 0, &live);
    if (*(int *)data >= 2) { /* a dead rank runs nothing: end the job with the wrong status */
        printf("hang event: rank %d is dead\n", *(int *)data);
        fflush(stdout);
        _exit(1);
    }
    printf("hang event: rank %d live_ranks %d safety %s none_called %d\n", *(int *)data, live,
           s == MPI_T_CB_REQUIRE_THREAD_SAFE ? "thread_safe" : "other", none_called);
    fflush(stdout);
}

static void on_hang_none(MPI_T_event_instance e, MPI_T_event_registration r, MPI_T_cb_safety s,
                         void *data)
{
    none_called++;
}

int main(int argc, char **argv)
{
    static int rank;
    int provided, index, buf;
    MPI_T_event_registration ts, none;
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK(MPI_T_event_get_index("mini_mpi_hang_detected", &index) == MPI_SUCCESS);
    MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &ts);
    MPI_T_event_register_callback(ts, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL, &rank,
                                  on_hang);
    MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &none);
    MPI_T_event_register_callback(none, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL,
                                  on_hang_none);
    /* Ranks 0 and 1 wait for each other; any other rank for rank 0 (the testlist kills them
     * there with the injector: the event counts the live ranks only). */
    MPI_Recv(&buf, 1, MPI_INT, rank < 2 ? 1 - rank : 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return mtest_finish();
}
