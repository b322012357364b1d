// cxx_ranks.cpp: a C++ program as rank-threads (built by bin/mpicxx): every rank runs its own
// private image, so a static object is constructed once per rank and destroyed at that rank's
// end; thread_local is per thread; a std::thread started by a rank belongs to it (MPI calls from
// it name that rank); an exception thrown by an MPI error handler reaches the caller of the
// failing MPI call. Each check prints its failure; rank 0 prints "No Errors" when all passed.
#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>

namespace {

int constructions = 0; // per image: a shared image would count every rank's construction

struct Tracer {
    int rank = -1;
    Tracer() { constructions++; }
    ~Tracer()
    {
        // After the rank's main returned: stdio is still the process's.
        std::printf("destructor of rank %d\n", rank);
        std::fflush(stdout);
    }
};
Tracer tracer;

thread_local int tls_value = 0;

struct mpi_error : std::runtime_error {
    int code;
    explicit mpi_error(int c) : std::runtime_error("MPI error " + std::to_string(c)), code(c) {}
};

void throwing_handler(MPI_Comm *, int *code, ...)
{
    throw mpi_error(*code);
}

} // namespace

int main(int argc, char **argv)
{
    int rank, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    tracer.rank = rank;
    if (constructions != 1) {
        std::printf("rank %d: static constructor ran %d times in this image\n", rank, constructions);
        errors++;
    }

    tls_value = 100 + rank;
    std::atomic<int> thread_rank{-1}, thread_tls{-1};
    std::thread helper([&] {
        int r;
        MPI_Comm_rank(MPI_COMM_WORLD, &r); // the rank that started the thread
        thread_rank = r;
        thread_tls = tls_value;            // a fresh thread_local: 0
    });
    helper.join();
    if (thread_rank != rank || thread_tls != 0 || tls_value != 100 + rank) {
        std::printf("rank %d: std::thread saw rank %d, thread_local %d (mine %d)\n", rank,
                    thread_rank.load(), thread_tls.load(), tls_value);
        errors++;
    }

    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(throwing_handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    int caught = 0;
    try {
        int x = 0;
        MPI_Send(&x, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD); // bad rank
    } catch (const mpi_error &e) {
        int cls;
        MPI_Error_class(e.code, &cls);
        caught = cls == MPI_ERR_RANK;
    }
    if (!caught) {
        std::printf("rank %d: the handler's exception did not reach the caller\n", rank);
        errors++;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);

    int total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        std::printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
