/*
 * ft_failure_events.c: a ULFM test that watches failures through the tools interface
 * (MPI-4.1 §15.3.8) instead of inferring them from error codes. Each rank subscribes to
 * mini_mpi's `mini_mpi_failure_detected` event, then a ring exchange runs; when the fault
 * injector kills a rank (mpiexec with MINI_MPI_FAULTS="kill 2 at MPI_Sendrecv#2"), every
 * survivor asserts that its callback named the dead rank before the collective that reports the
 * failure returned, then recovers with revoke and shrink and checks the ring on the survivors.
 *
 *   bin/mpicc examples/ft_failure_events.c -o ft_failure_events
 *   MINI_MPI_FAULTS="kill 2 at MPI_Sendrecv#2" bin/mpiexec -n 4 ./ft_failure_events
 *
 * Event names and their elements: docs/tools-interface.md. Under another MPI the event does not
 * exist; the program then says so and checks the recovery alone.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>

static int dead_rank = -1; /* the last failure this rank's callback was told of */
static int failures_seen;

/* Runs at MPI_T_CB_REQUIRE_NONE: no MPI calls here, only recording. */
static void on_failure(MPI_T_event_instance event, MPI_T_event_registration reg,
                       MPI_T_cb_safety safety, void *user)
{
    int failed;
    if (MPI_T_event_read(event, 0, &failed) == MPI_SUCCESS) {
        dead_rank = failed;
        failures_seen++;
    }
}

static int subscribe(void)
{
    int index;
    MPI_T_event_registration reg;
    if (MPI_T_event_get_index("mini_mpi_failure_detected", &index) != MPI_SUCCESS)
        return 0;
    MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &reg);
    MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, on_failure);
    return 1;
}

int main(int argc, char **argv)
{
    int provided, rank, size, errors = 0;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int watching = subscribe();
    if (!watching && rank == 0)
        printf("no mini_mpi_failure_detected event here: checking the recovery only\n");

    /* A few rounds of a ring. A death makes a neighbour's Sendrecv fail; it revokes the
     * communicator, so that ranks still waiting in the ring get out too (MPI_ERR_REVOKED). */
    int token = rank, ok = 1;
    for (int round = 0; round < 3 && ok; round++) {
        int in = -1;
        int err = MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT,
                               (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS) {
            ok = 0;
            MPIX_Comm_revoke(MPI_COMM_WORLD);
        }
    }
    /* Every survivor learns whether anyone failed: the agreement reports a failure nobody
     * acknowledged, so each survivor is told of it here at the latest. */
    int flag = ok;
    int err = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    MPI_Comm work = MPI_COMM_WORLD;
    if (!flag || err != MPI_SUCCESS) {
        /* The assertion a test wants: the event came before the agreement returned. */
        if (watching && failures_seen == 0) {
            fprintf(stderr, "rank %d: a rank failed but no failure event arrived\n", rank);
            errors++;
        }
        MPIX_Comm_shrink(MPI_COMM_WORLD, &work);
    }
    int n, sum = 0, me;
    MPI_Comm_size(work, &n);
    MPI_Comm_rank(work, &me);
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, work);
    if (sum != n * (n - 1) / 2)
        errors++;
    MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, work);
    if (me == 0) {
        if (watching && work != MPI_COMM_WORLD)
            printf("failure event: rank %d died; %d ranks left\n", dead_rank, n);
        else
            printf("%d ranks left\n", n);
        if (errors == 0)
            printf(" No Errors\n");
    }
    if (work != MPI_COMM_WORLD)
        MPI_Comm_free(&work);
    MPI_Finalize();
    MPI_T_finalize();
    return errors != 0;
}
