/*
 * test_world.c: unit tests of the rank-thread runtime (ranks_as_threads.c, interpose.c) and the
 * error machinery (errhan/): ranks see their own rank and the world size, a rank that dies ends
 * only itself, a world a rank thread outlives is freed once it has gone, the job's exit status
 * follows docs/design.md "Exit status", and error classes, strings and handlers
 * behave as MPI-4.1 chapter 9 says.
 *
 * Rank bodies run in rank threads, where cmocka's assertions (longjmp to the test's frame) must
 * not run: they record what they see, and the test thread asserts afterwards.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "unit_world.h"

#define MAXR 64
static int seen_rank[MAXR], seen_size[MAXR], seen_value[MAXR];

static void reset(void)
{
    for (int i = 0; i < MAXR; i++)
        seen_rank[i] = seen_size[i] = seen_value[i] = -1;
}

static void record_identity(int rank, int size, void *arg)
{
    seen_rank[rank] = rank;
    seen_size[rank] = size;
}

static void world_ranks_see_themselves(void **state)
{
    reset();
    assert_int_equal(unit_world_run(MAXR, record_identity, NULL), 0);
    for (int i = 0; i < MAXR; i++) {
        assert_int_equal(seen_rank[i], i);
        assert_int_equal(seen_size[i], MAXR);
    }
}

/* Rank 2 ends itself in the way given by arg; the others finish normally. */
static void rank2_dies(int rank, int size, void *arg)
{
    const char *how = arg;
    if (rank == 2) {
        if (!strcmp(how, "exit"))
            exit(3);
        if (!strcmp(how, "abort"))
            abort();
        if (!strcmp(how, "sigkill"))
            raise(SIGKILL);
        if (!strcmp(how, "kill"))
            kill(getpid(), SIGTERM);
    }
    seen_value[rank] = 1;
}

static void rank_death_is_local(void **state)
{
    const char *ways[] = {"exit", "abort", "sigkill", "kill"};
    for (unsigned w = 0; w < 4; w++) {
        reset();
        /* Open MPI convention: a killed rank does not fail the job. */
        assert_int_equal(unit_world_run(4, rank2_dies, (void *)ways[w]), 0);
        assert_int_equal(seen_value[0], 1);
        assert_int_equal(seen_value[1], 1);
        assert_int_equal(seen_value[2], -1);
        assert_int_equal(seen_value[3], 1);
        assert_true(mmpi_world == NULL);
    }
}

/* Rank 1 is failed by rank 0 while it computes, and keeps computing after the job ended. */
static int straggler_release, straggler_started;

static void rank1_straggles(int rank, int size, void *arg)
{
    (void)size;
    (void)arg;
    if (rank == 1) {
        __atomic_store_n(&straggler_started, 1, __ATOMIC_RELEASE);
        while (!__atomic_load_n(&straggler_release, __ATOMIC_ACQUIRE))
            sched_yield();
        return; /* its MPI_Finalize then parks and exits: its rank failed */
    }
    while (!__atomic_load_n(&straggler_started, __ATOMIC_ACQUIRE))
        sched_yield();
    mmpi_rank_mark_failed(mmpi_world->ranks[1], 9, "failed by the test");
}

/* A world that a rank thread outlives is freed once that thread has gone, not kept forever:
 * its MPI_COMM_WORLD core leaves the fault layer's registry then. */
static void outlived_world_is_reclaimed(void **state)
{
    (void)state;
    int before = mmpi_fault_registered_count();
    straggler_release = straggler_started = 0;
    assert_int_equal(unit_world_run(2, rank1_straggles, NULL), 0);
    assert_true(mmpi_fault_registered_count() > before); /* still running: kept */
    __atomic_store_n(&straggler_release, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < 1000 && mmpi_fault_registered_count() > before; i++)
        usleep(10 * 1000);
    assert_int_equal(mmpi_fault_registered_count(), before);
}

static void error_classes_and_strings(int rank, int size, void *arg)
{
    char s[MPI_MAX_ERROR_STRING];
    int len, cls, code, newclass;
    int ok = 1;

    ok &= MPI_Error_class(MPI_ERR_PROC_FAILED, &cls) == MPI_SUCCESS && cls == MPI_ERR_PROC_FAILED;
    ok &= MPI_Error_string(MPI_ERR_REVOKED, s, &len) == MPI_SUCCESS && len == (int)strlen(s) &&
          len > 0;
    ok &= MPI_Add_error_class(&newclass) == MPI_SUCCESS && newclass > MPI_ERR_LASTCODE;
    ok &= MPI_Add_error_code(newclass, &code) == MPI_SUCCESS;
    ok &= MPI_Add_error_string(code, "my code") == MPI_SUCCESS;
    ok &= MPI_Error_string(code, s, &len) == MPI_SUCCESS && !strcmp(s, "my code");
    ok &= MPI_Error_class(code, &cls) == MPI_SUCCESS && cls == newclass;
    /* Invalid code: MPI_ERR_ARG through the handler, which we set to return. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ok &= MPI_Error_class(-5, &cls) == MPI_ERR_ARG;
    seen_value[rank] = ok;
}

static void errors_work_in_every_rank(void **state)
{
    reset();
    assert_int_equal(unit_world_run(1, error_classes_and_strings, NULL), 0);
    assert_int_equal(seen_value[0], 1);
}

static int handler_calls;
static int handler_last_code;
static void count_handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_last_code = *code;
}

static void user_errhandler_runs(int rank, int size, void *arg)
{
    MPI_Errhandler eh, got;
    int ok = 1, sz;
    ok &= MPI_Comm_create_errhandler(count_handler, &eh) == MPI_SUCCESS;
    ok &= MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh) == MPI_SUCCESS;
    ok &= MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got) == MPI_SUCCESS;
    ok &= MPI_Errhandler_free(&got) == MPI_SUCCESS;
    ok &= MPI_Errhandler_free(&eh) == MPI_SUCCESS && eh == MPI_ERRHANDLER_NULL;
    /* An invalid communicator has no handler: raised on MPI_COMM_WORLD's (ours). */
    ok &= MPI_Comm_size(12345, &sz) == MPI_ERR_COMM;
    ok &= handler_calls == 1 && handler_last_code == MPI_ERR_COMM;
    ok &= MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER) == MPI_SUCCESS;
    ok &= handler_calls == 2 && handler_last_code == MPI_ERR_OTHER;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    seen_value[rank] = ok;
}

static void user_errhandler(void **state)
{
    reset();
    assert_int_equal(unit_world_run(1, user_errhandler_runs, NULL), 0);
    assert_int_equal(seen_value[0], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(world_ranks_see_themselves),
        cmocka_unit_test(rank_death_is_local),
        cmocka_unit_test(outlived_world_is_reclaimed),
        cmocka_unit_test(errors_work_in_every_rank),
        cmocka_unit_test(user_errhandler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
