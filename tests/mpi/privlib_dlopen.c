/* privlib_dlopen.c: a plugin that a rank opens with dlopen is private to the rank: its static
 * count starts at 0 in each rank, opening it again gives the same copy, closing it as often as
 * it was opened unloads it (the next dlopen starts afresh), and the plugin's calls into a
 * private library the program links (libchain_b) reach the rank's own copy. The ranks
 * interleave each step (a barrier between). With the argument "keep" the copies stay loaded:
 * ThreadSanitizer does not see the loader unmap a closed copy, so a copy another rank then
 * loads at the same address looks to it like the same memory. */
#include <dlfcn.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "mtest.h"

typedef int (*int_fn)(void);

static void *open_plugin(int rank)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
    if (n <= 0)
        return NULL;
    path[n] = '\0';
    strcpy(strrchr(path, '/') + 1, "lib/libplugin.so");
    void *h = dlopen(path, RTLD_NOW);
    if (!h)
        printf("rank %d: dlopen %s: %s\n", rank, path, dlerror());
    return h;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    void *h = open_plugin(rank);
    if (!h)
        MPI_Abort(MPI_COMM_WORLD, 1);
    int_fn next = (int_fn)dlsym(h, "plugin_next"), prank = (int_fn)dlsym(h, "plugin_rank");
    MPI_Barrier(MPI_COMM_WORLD);
    int first = next();
    MPI_Barrier(MPI_COMM_WORLD);
    void *again = open_plugin(rank);
    int second = ((int_fn)dlsym(again, "plugin_next"))();
    MPI_Barrier(MPI_COMM_WORLD);
    int via_lib = prank();
    if (first != 1 || second != 2 || again != h || via_lib != rank) {
        printf("rank %d: plugin_next %d then %d (expected 1, 2), same handle %d, plugin_rank %d\n",
               rank, first, second, again == h, via_lib);
        mtest_errors++;
    }
    if (argc > 1 && !strcmp(argv[1], "keep"))
        return mtest_finish();
    dlclose(again);
    dlclose(h);
    MPI_Barrier(MPI_COMM_WORLD);
    void *fresh = open_plugin(rank);
    int restarted = ((int_fn)dlsym(fresh, "plugin_next"))();
    if (restarted != 1) {
        printf("rank %d: after dlclose, a new dlopen counts from %d\n", rank, restarted);
        mtest_errors++;
    }
    dlclose(fresh);
    return mtest_finish();
}
