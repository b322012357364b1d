/* p2p_thread_multiple.c: point-to-point under MPI_THREAD_MULTIPLE (MPI-4.1 §11.6): 4 threads
 * per rank; thread t of rank r exchanges 500 messages with thread t of rank r^1 using tag t, by
 * blocking Send/Recv, Isend/Irecv + Waitall, Sendrecv and Irecv + Send + Wait in turn, sizes
 * from 1 to 5000 ints, checking source, tag, count and contents. Threads of one rank share the
 * communicator and peer; only the tag separates their traffic. Needs an even number of ranks. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "mtest.h"

#define NTHREADS 4
#define NMSG 500
#define MAXLEN 5000

static int rank, partner;
static atomic_int thread_errors;

#define TCHECK(cond)                                                                        \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "rank %d thread %d: %s:%d: check failed: %s\n", rank, t,        \
                    __FILE__, __LINE__, #cond);                                             \
            atomic_fetch_add(&thread_errors, 1);                                            \
        }                                                                                   \
    } while (0)

static int msg_len(int i)
{
    static const int lens[] = {1, 17, 300, 5000, 2, 1024};
    return lens[i % 6];
}

static int value(int src, int t, int i, int k)
{
    return ((src * NTHREADS + t) * NMSG + i) * 7 + k;
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    int *out = malloc(sizeof(int) * MAXLEN), *in = malloc(sizeof(int) * MAXLEN);
    for (int i = 0; i < NMSG; i++) {
        int n = msg_len(i + t), count = -1;
        MPI_Status st;
        MPI_Request req[2];
        for (int k = 0; k < n; k++)
            out[k] = value(rank, t, i, k);
        memset(in, 0, sizeof(int) * (size_t)n);
        switch (i % 4) {
        case 0: /* blocking, the lower rank sends first */
            if (rank < partner) {
                TCHECK(MPI_Send(out, n, MPI_INT, partner, t, MPI_COMM_WORLD) == MPI_SUCCESS);
                TCHECK(MPI_Recv(in, MAXLEN, MPI_INT, partner, t, MPI_COMM_WORLD, &st) ==
                       MPI_SUCCESS);
            } else {
                TCHECK(MPI_Recv(in, MAXLEN, MPI_INT, MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &st) ==
                       MPI_SUCCESS);
                TCHECK(MPI_Send(out, n, MPI_INT, partner, t, MPI_COMM_WORLD) == MPI_SUCCESS);
            }
            break;
        case 1: {
            MPI_Status sts[2];
            TCHECK(MPI_Irecv(in, MAXLEN, MPI_INT, partner, t, MPI_COMM_WORLD, &req[0]) ==
                   MPI_SUCCESS);
            TCHECK(MPI_Isend(out, n, MPI_INT, partner, t, MPI_COMM_WORLD, &req[1]) ==
                   MPI_SUCCESS);
            TCHECK(MPI_Waitall(2, req, sts) == MPI_SUCCESS);
            st = sts[0];
            break;
        }
        case 2:
            TCHECK(MPI_Sendrecv(out, n, MPI_INT, partner, t, in, MAXLEN, MPI_INT, partner, t,
                                MPI_COMM_WORLD, &st) == MPI_SUCCESS);
            break;
        case 3:
            TCHECK(MPI_Irecv(in, MAXLEN, MPI_INT, partner, t, MPI_COMM_WORLD, &req[0]) ==
                   MPI_SUCCESS);
            if (i % 8 == 3)
                TCHECK(MPI_Ssend(out, n, MPI_INT, partner, t, MPI_COMM_WORLD) == MPI_SUCCESS);
            else
                TCHECK(MPI_Send(out, n, MPI_INT, partner, t, MPI_COMM_WORLD) == MPI_SUCCESS);
            TCHECK(MPI_Wait(&req[0], &st) == MPI_SUCCESS);
            break;
        }
        TCHECK(st.MPI_SOURCE == partner && st.MPI_TAG == t);
        TCHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == n);
        int bad = 0;
        for (int k = 0; k < n; k++)
            bad += in[k] != value(partner, t, i, k);
        TCHECK(bad == 0);
        if (bad)
            break;
    }
    free(out);
    free(in);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    CHECK(size % 2 == 0);
    partner = rank ^ 1;
    if (provided == MPI_THREAD_MULTIPLE && partner < size) {
        pthread_t th[NTHREADS];
        for (int t = 0; t < NTHREADS; t++)
            pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
        for (int t = 0; t < NTHREADS; t++)
            pthread_join(th[t], NULL);
    }
    mtest_errors += atomic_load(&thread_errors);
    return mtest_finish();
}
