/*
 * session_test.h: the harness of the Sessions Model tests (session_*.c), which cannot lean on
 * MPI_COMM_WORLD as mtest.h does: a rank learns its number from the group of mpi://WORLD,
 * counts its errors, and the survivors sum them over a communicator made from a session before
 * rank 0 prints "No Errors". Plain MPI (plus MPIX_ for the fault cases).
 */
#ifndef SESSION_TEST_H
#define SESSION_TEST_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int st_errors;
static int st_rank = -1; /* rank in mpi://WORLD, once st_open has run */

#define SCHECK(cond)                                                                           \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", st_rank, __FILE__, __LINE__, \
                    #cond);                                                                    \
            st_errors++;                                                                       \
        }                                                                                      \
    } while (0)

/* The error class of a return code. */
static inline int st_class(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

/* A session with handler eh, and its mpi://WORLD group; sets st_rank. */
static inline MPI_Session st_open(MPI_Errhandler eh, MPI_Group *world)
{
    MPI_Session s = MPI_SESSION_NULL;
    int rc = MPI_Session_init(MPI_INFO_NULL, eh, &s);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "MPI_Session_init: %d\n", rc);
        exit(2);
    }
    SCHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", world) == MPI_SUCCESS);
    MPI_Group_rank(*world, &st_rank);
    return s;
}

/* A communicator over group g, errors returned. */
static inline MPI_Comm st_comm(MPI_Group g, const char *tag)
{
    MPI_Comm c = MPI_COMM_NULL;
    SCHECK(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c) == MPI_SUCCESS);
    return c;
}

/* Sums the errors over comm (the survivors' communicator), prints " No Errors" at its rank 0
 * when there are none, and returns main's status. The caller finalizes afterwards. */
static inline int st_report(MPI_Comm comm)
{
    int total = st_errors, rank = st_rank; /* no communicator: each rank for itself */
    if (comm != MPI_COMM_NULL) {
        SCHECK(MPI_Allreduce(&st_errors, &total, 1, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS);
        MPI_Comm_rank(comm, &rank);
    }
    if (rank == 0 && total == 0 && st_errors == 0)
        printf(" No Errors\n");
    fflush(stdout);
    return st_errors ? 1 : 0;
}

#endif
