/*
 * info_env_resource.c: MPI_Info_create_env (MPI-4.1 §11.4), before and after MPI_Init, with the
 * program's arguments or given ones; MPI_Get_hw_resource_info; MPI_Comm_split_type with
 * MPI_COMM_TYPE_RESOURCE_GUIDED and HW_GUIDED ("mpi_shared_memory": everyone together; an
 * unknown resource or no info: MPI_COMM_NULL) and MPICH's values of the split types. Bad
 * arguments are raised with the right class on the right handler; a split on a revoked
 * communicator fails with MPI_ERR_REVOKED, and (argument `dead`) one with a dead member with
 * MPI_ERR_PROC_FAILED.
 */
#include <signal.h>
#include <string.h>

#include "mtest.h"

static int calls, last_class;

static void record(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    calls++;
    MPI_Error_class(*code, &last_class);
}

#define expect_raised(rc, cls) expect_raised_at(rc, cls, __LINE__)
static void expect_raised_at(int rc, int cls, int line)
{
    int got = rc;
    MPI_Error_class(rc, &got);
    if (got != cls || calls != 1 || last_class != cls)
        fprintf(stderr, "line %d: class %d (handler: %d calls, class %d), expected %d\n", line,
                got, calls, last_class, cls);
    CHECK(got == cls && calls == 1 && last_class == cls);
    calls = 0;
}

static int has(MPI_Info info, const char *key, const char *want)
{
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag);
    return flag && (!want || !strcmp(v, want));
}

static void env_keys(MPI_Info info, const char *command, const char *args, const char *level)
{
    char n[16];
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(n, sizeof n, "%d", size);
    CHECK(has(info, "command", command));
    CHECK(has(info, "argv", args));
    CHECK(has(info, "maxprocs", n) && has(info, "soft", NULL));
    CHECK(has(info, "host", NULL) && has(info, "arch", NULL) && has(info, "wdir", NULL));
    CHECK(has(info, "thread_level", level));
}

static int split_size(MPI_Comm comm, int type, const char *resource)
{
    MPI_Info info = MPI_INFO_NULL;
    MPI_Comm c;
    int n = 0;
    if (resource) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_hw_resource_type", resource);
    }
    CHECK(MPI_Comm_split_type(comm, type, 0, info, &c) == MPI_SUCCESS);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    if (c == MPI_COMM_NULL)
        return 0;
    MPI_Comm_size(c, &n);
    MPI_Comm_free(&c);
    return n;
}

int main(int argc, char **argv)
{
    MPI_Info info;
    char *args[] = {"prog", "a", "b c", NULL};
    int size, rank;

    /* Allowed before MPI_Init: the program's own arguments. */
    CHECK(MPI_Info_create_env(0, NULL, &info) == MPI_SUCCESS);
    CHECK(has(info, "command", argv[0]) && has(info, "thread_level", "MPI_THREAD_SINGLE"));
    MPI_Info_free(&info);

    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(record, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, eh);

    CHECK(MPI_Info_create_env(3, args, &info) == MPI_SUCCESS);
    env_keys(info, "prog", "a b c", "MPI_THREAD_SINGLE"); /* as MPI_Init would */
    MPI_Info_free(&info);
    CHECK(MPI_Info_create_env(argc, argv, &info) == MPI_SUCCESS);
    CHECK(has(info, "command", argv[0]));
    MPI_Info_free(&info);
    expect_raised(MPI_Info_create_env(-1, args, &info), MPI_ERR_ARG);
    expect_raised(MPI_Info_create_env(3, args, NULL), MPI_ERR_ARG);

    CHECK(MPI_Get_hw_resource_info(&info) == MPI_SUCCESS);
    CHECK(has(info, "mpi_hw_resource_type", "mpi_shared_memory"));
    MPI_Info_free(&info);
    expect_raised(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG);

    /* MPICH's values, so that programs built against either agree. */
    CHECK(MPI_COMM_TYPE_SHARED == 1 && MPI_COMM_TYPE_HW_GUIDED == 2);
    CHECK(MPI_COMM_TYPE_HW_UNGUIDED == 3 && MPI_COMM_TYPE_RESOURCE_GUIDED == 4);

    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, eh);
    if (argc > 1 && !strcmp(argv[1], "dead")) {
        MPI_Barrier(comm);
        if (rank == size - 1)
            raise(SIGKILL);
        MPI_Comm c;
        expect_raised(
            MPI_Comm_split_type(comm, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, MPI_INFO_NULL, &c),
            MPI_ERR_PROC_FAILED);
        CHECK(c == MPI_COMM_NULL);
        MPI_Comm_free(&comm);
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
        MPI_Errhandler_free(&eh);
        return mtest_finish();
    }
    CHECK(split_size(comm, MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_shared_memory") == size);
    CHECK(split_size(comm, MPI_COMM_TYPE_HW_GUIDED, "mpi_shared_memory") == size);
    CHECK(split_size(comm, MPI_COMM_TYPE_RESOURCE_GUIDED, "l3cache") == 0);
    CHECK(split_size(comm, MPI_COMM_TYPE_RESOURCE_GUIDED, NULL) == 0);
    CHECK(split_size(comm, MPI_COMM_TYPE_HW_UNGUIDED, NULL) == 0);
    CHECK(split_size(comm, MPI_COMM_TYPE_SHARED, NULL) == size);
    CHECK(calls == 0);
    MPI_Comm c;
    expect_raised(MPI_Comm_split_type(comm, 99, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG);
    MPI_Info bad = 4242;
    expect_raised(MPI_Comm_split_type(comm, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, bad, &c),
                  MPI_ERR_INFO);

    /* Revoked: the split fails at every member (once all are done with the checks above). */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPIX_Comm_revoke(comm);
    MPI_Barrier(MPI_COMM_WORLD);
    expect_raised(MPI_Comm_split_type(comm, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, MPI_INFO_NULL, &c),
                  MPI_ERR_REVOKED);
    MPI_Comm_free(&comm);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    return mtest_finish();
}
