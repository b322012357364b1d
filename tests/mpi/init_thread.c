/* init_thread.c: MPI_Init_thread provides MPI_THREAD_MULTIPLE; Query_thread and Is_thread_main
 * answer per thread; version, library version and processor name are sane. */
#include <pthread.h>
#include <string.h>

#include "mtest.h"

static void *other_thread(void *arg)
{
    int flag = -1, provided = -1;
    CHECK(MPI_Is_thread_main(&flag) == MPI_SUCCESS && flag == 0);
    CHECK(MPI_Query_thread(&provided) == MPI_SUCCESS && provided == MPI_THREAD_MULTIPLE);
    return arg;
}

int main(int argc, char **argv)
{
    int provided, flag, version, subversion, len;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], name[MPI_MAX_PROCESSOR_NAME];

    CHECK(MPI_Get_version(&version, &subversion) == MPI_SUCCESS); /* allowed before init */
    CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION);
    CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    CHECK(MPI_Query_thread(&flag) == MPI_SUCCESS && flag == MPI_THREAD_MULTIPLE);
    CHECK(MPI_Is_thread_main(&flag) == MPI_SUCCESS && flag == 1);
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, other_thread, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    CHECK(MPI_Get_library_version(lib, &len) == MPI_SUCCESS && len == (int)strlen(lib) && len > 0);
    CHECK(MPI_Get_processor_name(name, &len) == MPI_SUCCESS && len == (int)strlen(name) && len > 0);
    double t0 = MPI_Wtime(), tick = MPI_Wtick();
    CHECK(tick > 0 && tick < 1e-3);
    CHECK(MPI_Wtime() >= t0);
    void *mem = NULL;
    CHECK(MPI_Alloc_mem(1024, MPI_INFO_NULL, &mem) == MPI_SUCCESS && mem != NULL);
    memset(mem, 1, 1024);
    CHECK(MPI_Free_mem(mem) == MPI_SUCCESS);
    return mtest_finish();
}
