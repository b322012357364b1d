/*
 * bad_args_support.h: the runtime of the generated tests/mpi/bad_args.c: plausible argument
 * values (scratch memory, handle arrays), the bad handle, and the check of each returned class.
 * Kept out of the generator so that it reads as C.
 */
#ifndef BAD_ARGS_SUPPORT_H
#define BAD_ARGS_SUPPORT_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A handle of the right kind whose index names no object (mpi.h documents the layout). */
#define BAD_HANDLE(kind) ((int)(0x40000000 | ((kind) << 24) | 0x7fff00))

enum { SCRATCH_AREAS = 24, SCRATCH_BYTES = 8192 };
static _Alignas(64) unsigned char scratch_pool[SCRATCH_AREAS][SCRATCH_BYTES];
static int scratch_next;
static const char *current_case;
static int errors, checked, verbose;
static MPI_Comm topo_comm; /* a ring: the plausible communicator of neighbour collectives */
static MPI_Win test_win;   /* the plausible window: 64 bytes, no epoch open, errors return */
static char test_win_mem[64];
static MPI_File test_file; /* an open file, read-write: the plausible file of I/O calls */
static MPI_Session test_session; /* an open session, errors return: the plausible session */

static void begin_case(const char *what)
{
    memset(scratch_pool, 0, sizeof scratch_pool);
    scratch_next = 0;
    current_case = what;
    if (verbose) {
        printf("case: %s\n", what);
        fflush(stdout);
    }
}

/* A fresh zeroed area per pointer argument, so that two arguments never alias. */
static void *scratch_area(void)
{
    if (scratch_next == SCRATCH_AREAS) {
        fprintf(stderr, "bad_args: %s needs more scratch areas\n", current_case);
        exit(2);
    }
    return scratch_pool[scratch_next++];
}

/* Int arrays: zeros for ranks, ones for counts, block lengths and displacements (in range of a
 * scratch area). */
static int *int_array(int value)
{
    int *a = scratch_area();
    for (int i = 0; i < SCRATCH_BYTES / (int)sizeof(int); i++)
        a[i] = value;
    return a;
}

static int *handle_array(int value)
{
    int *a = scratch_area();
    for (int i = 0; i < 16; i++)
        a[i] = value;
    return a;
}

static const char *class_name(int cls, char name[MPI_MAX_ERROR_STRING])
{
    int len = 0;
    if (cls == MPI_SUCCESS)
        return "MPI_SUCCESS";
    if (MPI_Error_string(cls, name, &len) != MPI_SUCCESS)
        snprintf(name, MPI_MAX_ERROR_STRING, "class %d", cls);
    return name;
}

/* n == 0: only "returned at all" is required (the argument may be an output). */
static void expect_class(int rc, int n, const int *ok)
{
    int cls = rc;
    checked++;
    if (n == 0)
        return;
    MPI_Error_class(rc, &cls);
    for (int i = 0; i < n; i++)
        if (cls == ok[i])
            return;
    errors++;
    char got[MPI_MAX_ERROR_STRING], want[MPI_MAX_ERROR_STRING];
    printf("%s: returned %s, expected %s\n", current_case, class_name(cls, got),
           class_name(ok[0], want));
}

static int run_cases(int argc, char **argv, void (*const *cases)(void), size_t n)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    verbose = getenv("BAD_ARGS_VERBOSE") != NULL;
    int size, periodic = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &topo_comm);
    MPI_Win_create(test_win_mem, sizeof test_win_mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &test_win);
    MPI_Win_set_errhandler(test_win, MPI_ERRORS_RETURN);
    char fname[256];
    snprintf(fname, sizeof fname, "%s/bad_args_file.%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    MPI_File_open(MPI_COMM_SELF, fname,
                  MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                  &test_file);
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &test_session);
    for (size_t i = 0; i < n; i++)
        cases[i]();
    MPI_Session_finalize(&test_session);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        if (errors == 0)
            printf(" No Errors\n");
        else
            printf(" Found %d errors in %d calls\n", errors, checked);
    }
    MPI_Comm_free(&topo_comm);
    MPI_Win_free(&test_win);
    MPI_File_close(&test_file);
    MPI_Finalize();
    return 0;
}

#endif
