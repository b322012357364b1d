/* privlib_lifecycle.c: each rank's copy of a library runs its constructor once, before main; its
 * thread-local variable starts from its initial value in every rank; a variable the program
 * writes directly (through a copy relocation when the program is built as -fPIE, through the
 * GOT otherwise) is the one the library's own code reads, per rank; the library's own reads of
 * `environ` see the rank's environment. */
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

extern int lifecycle_constructed;
extern int lifecycle_shared_seen;
extern __thread int lifecycle_tls;
int lifecycle_ctor_runs(void);
int lifecycle_bump_tls(void);
int lifecycle_read_shared(void);
const char *lifecycle_environ_value(const char *name);

int main(int argc, char **argv)
{
    int rank;
    /* Before MPI_Init: the constructor has run in this rank's copy, once. */
    int constructed = lifecycle_constructed, runs = lifecycle_ctor_runs();
    int initial = lifecycle_shared_seen;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (constructed != 1 || runs != 1 || initial != 42) {
        printf("rank %d: constructed %d, constructor runs %d, initial value %d\n", rank,
               constructed, runs, initial);
        mtest_errors++;
    }
    lifecycle_shared_seen = 100 + rank;
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has written before any reads */
    int seen = lifecycle_read_shared();
    if (seen != 100 + rank) {
        printf("rank %d: the library reads %d, the program wrote %d\n", rank, seen, 100 + rank);
        mtest_errors++;
    }
    char value[32];
    snprintf(value, sizeof(value), "rank-%d", rank);
    setenv("PRIVLIB_RANK", value, 1);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has set its value before any reads */
    const char *env = lifecycle_environ_value("PRIVLIB_RANK");
    if (!env || strcmp(env, value)) {
        printf("rank %d: the library's environ has PRIVLIB_RANK=%s\n", rank, env ? env : "(none)");
        mtest_errors++;
    }
    int bumped = lifecycle_bump_tls();
    if (bumped != 8 || lifecycle_tls != 8) {
        printf("rank %d: thread-local value %d / %d, expected 8\n", rank, bumped, lifecycle_tls);
        mtest_errors++;
    }
    return mtest_finish();
}
