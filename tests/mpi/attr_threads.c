/* attr_threads.c: attribute caching under MPI_THREAD_MULTIPLE. Several threads of each rank
 * create keyvals and set, overwrite, get and delete attributes on the same communicators and
 * datatype at once, while their delete callbacks (which take time and call MPI themselves) run;
 * every callback runs exactly once per value and every get sees the thread's own value. */
#include <pthread.h>
#include <unistd.h>

#include "mtest.h"

enum { NTHREADS = 4, ROUNDS = 300 };
static MPI_Comm shared;
static int deletes[NTHREADS];

static int slow_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    int t = *(int *)extra, size;
    __atomic_add_fetch(&deletes[t], 1, __ATOMIC_RELAXED);
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        __atomic_add_fetch(&deletes[t], 1000000, __ATOMIC_RELAXED);
    if (*(int *)value % 64 == 0)
        usleep(100); /* let the other threads run while this callback is in progress */
    return MPI_SUCCESS;
}

static void *worker(void *arg)
{
    int t = *(int *)arg, key, tkey, flag, *p;
    static int vals[NTHREADS][ROUNDS];
    MPI_Comm comms[2] = {MPI_COMM_WORLD, shared};
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, slow_delete, &key, arg) == MPI_SUCCESS);
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, NULL) ==
          MPI_SUCCESS);
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Comm c = comms[r % 2];
        vals[t][r] = r;
        CHECK(MPI_Comm_set_attr(c, key, &vals[t][r]) == MPI_SUCCESS);
        CHECK(MPI_Comm_get_attr(c, key, &p, &flag) == MPI_SUCCESS && flag && p == &vals[t][r]);
        if (r % 3 == 0) /* overwrite */
            CHECK(MPI_Comm_set_attr(c, key, &vals[t][r]) == MPI_SUCCESS);
        CHECK(MPI_Comm_delete_attr(c, key) == MPI_SUCCESS);
        CHECK(MPI_Type_set_attr(MPI_INT, tkey, &vals[t][r]) == MPI_SUCCESS);
        CHECK(MPI_Type_get_attr(MPI_INT, tkey, &p, &flag) == MPI_SUCCESS && flag &&
              p == &vals[t][r]);
    }
    CHECK(MPI_Type_delete_attr(MPI_INT, tkey) == MPI_SUCCESS);
    CHECK(MPI_Type_free_keyval(&tkey) == MPI_SUCCESS);
    CHECK(MPI_Comm_free_keyval(&key) == MPI_SUCCESS);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, ids[NTHREADS];
    pthread_t th[NTHREADS];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &shared);
    for (int t = 0; t < NTHREADS; t++) {
        ids[t] = t;
        pthread_create(&th[t], NULL, worker, &ids[t]);
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    /* One delete per delete_attr plus one per overwrite (every third round). */
    for (int t = 0; t < NTHREADS; t++)
        CHECK(deletes[t] == ROUNDS + (ROUNDS + 2) / 3);
    MPI_Comm_free(&shared);
    return mtest_finish();
}
