/*
 * mpit_events: the tool interface's events in a job where a rank dies (MPI-4.1 §15.3.8).
 * Rank 2 dies after the first barrier: by raise(SIGKILL), or (argument "inject") by the fault
 * injector (MINI_MPI_FAULTS="kill 2 after MPI_Barrier#1"). Every survivor must have run its
 * failure callback, naming rank 2, before its next MPI_Barrier returned the failure; with the
 * injector, its injected-death callback too. Then the survivors shrink, duplicate the shrunk
 * communicator, rank 0 revokes the duplicate, and every survivor must see the revocation event
 * (naming rank 0) before its barrier on it returns MPI_ERR_REVOKED. The counters failures_detected, failed_ranks, revocations_seen and
 * injected_deaths must equal what happened. Callbacks are registered at MPI_T_CB_REQUIRE_NONE
 * (the error handler point allows it) and must never run inside another.
 */
#include <signal.h>
#include <string.h>

#include "mpit_read.h"

static int failed_seen = -1, failures = 0, revoker = -1, revocations = 0, victim = -1,
           deaths = 0, reported_kind = -1, reported_class = -1, reported_handle = 0,
           in_callback = 0, nested = 0;

static void on_event(MPI_T_event_instance e, MPI_T_event_registration r, MPI_T_cb_safety s,
                     void *which)
{
    int v[3] = {0}, idx;
    nested += in_callback++;
    MPI_Count ts;
    CHECK(s == MPI_T_CB_REQUIRE_NONE);
    CHECK(MPI_T_event_get_timestamp(e, &ts) == MPI_SUCCESS && ts > 0);
    CHECK(MPI_T_event_get_source(e, &idx) == MPI_SUCCESS && idx == 0);
    CHECK(MPI_T_event_copy(e, v) == MPI_SUCCESS);
    CHECK(MPI_T_event_read(e, 3, &idx) == MPI_T_ERR_INVALID_INDEX);
    switch (*(const char *)which) {
    case 'f': failed_seen = v[0]; failures++; break;
    case 'r': reported_kind = v[0]; reported_handle = v[1]; reported_class = v[2]; break;
    case 'v': revoker = v[1]; revocations++; CHECK(v[0] == 0 /* a communicator */); break;
    case 'i': victim = v[0]; deaths++; break;
    }
    in_callback--;
}

static MPI_T_event_registration listen(const char *event, const char *which)
{
    int index = -1;
    MPI_T_event_registration reg;
    CHECK(MPI_T_event_get_index(event, &index) == MPI_SUCCESS);
    CHECK(MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &reg) == MPI_SUCCESS);
    CHECK(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL,
                                        (void *)which, on_event) == MPI_SUCCESS);
    return reg;
}

static unsigned long long pvar(const char *name)
{
    return mpit_read(name, MPI_T_PVAR_CLASS_COUNTER);
}

int main(int argc, char **argv)
{
    int provided, rank;
    int inject = argc > 1 && !strcmp(argv[1], "inject");
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    listen("mini_mpi_failure_detected", "f");
    listen("mini_mpi_failure_reported", "r");
    listen("mini_mpi_revoked", "v");
    listen("mini_mpi_injected_death", "i");
    unsigned long long failures_before = pvar("failures_detected");

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2 && !inject)
        raise(SIGKILL);
    CHECK(failed_seen == -1 && failures == 0); /* nothing failed yet */
    int err = MPI_Barrier(MPI_COMM_WORLD), cls = -1;
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_PROC_FAILED);
    /* Learned before the barrier returned: the callback has run. */
    CHECK(failed_seen == 2 && failures == 1);
    CHECK(reported_kind == 0 && reported_handle == (int)MPI_COMM_WORLD &&
          reported_class == MPI_ERR_PROC_FAILED);
    CHECK(pvar("failures_detected") == failures_before + 1 && pvar("failed_ranks") == 1);
    if (inject)
        CHECK(victim == 2 && deaths == 1 && pvar("injected_deaths") == 1);
    else
        CHECK(victim == -1 && deaths == 0 && pvar("injected_deaths") == 0);

    MPI_Comm shrunk, dup;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk) == MPI_SUCCESS);
    CHECK(MPI_Comm_dup(shrunk, &dup) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    CHECK(MPI_Barrier(shrunk) == MPI_SUCCESS); /* everyone holds dup before rank 0 revokes it */
    CHECK(revocations == 0);
    if (rank == 0)
        MPIX_Comm_revoke(dup);
    err = MPI_Barrier(dup);
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_REVOKED);
    CHECK(revoker == 0 && revocations == 1 && pvar("revocations_seen") == 1);
    CHECK(reported_class == MPI_ERR_REVOKED);
    CHECK(reported_handle == (int)dup);
    CHECK(failures == 1 && nested == 0);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&shrunk);

    MPI_T_finalize();
    return mtest_finish();
}
