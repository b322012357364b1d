/* lifecycle.c: a library with a constructor, thread-local state and a variable the program
 * reaches through a copy relocation: each rank's copy runs its constructor once, before main,
 * and keeps its own values; it reads `environ` directly. Uses MPI. */
#include <mpi.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int lifecycle_constructed;        /* set by the constructor: 1 in a fresh copy */
int lifecycle_shared_seen = 42;   /* the program reads and writes it directly */
__thread int lifecycle_tls = 7;
static int ctor_runs;

__attribute__((constructor)) static void construct(void)
{
    ctor_runs++;
    lifecycle_constructed = ctor_runs;
}

int lifecycle_ctor_runs(void)
{
    return ctor_runs;
}

int lifecycle_bump_tls(void)
{
    return ++lifecycle_tls;
}

int lifecycle_read_shared(void)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return lifecycle_shared_seen;
}

/* The value of name in environ, read without getenv. */
const char *lifecycle_environ_value(const char *name)
{
    size_t n = strlen(name);
    for (char **e = environ; e && *e; e++)
        if (!strncmp(*e, name, n) && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}
