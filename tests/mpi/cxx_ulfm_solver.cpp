// cxx_ulfm_solver.cpp: the usual shape of a fault-tolerant C++ code: a class owns its
// communicator, its error handler throws a C++ exception for a process failure, and the class
// recovers by revoking the communicator and continuing on the shrunk one. Run with an injected
// death (MINI_MPI_FAULTS="kill 2 at MPI_Allreduce#3", testlist.cxx): every survivor finishes all
// steps, on a communicator without the dead rank, with the sum of the survivors' contributions.
#include <mpi.h>
#include <mpi-ext.h>

#include <cstdio>
#include <stdexcept>
#include <utility>

namespace {

struct proc_failed : std::runtime_error {
    proc_failed() : std::runtime_error("a process failed") {}
};
struct revoked : std::runtime_error {
    revoked() : std::runtime_error("communicator revoked") {}
};

void throw_on_failure(MPI_Comm *, int *code, ...)
{
    int cls;
    MPI_Error_class(*code, &cls);
    if (cls == MPIX_ERR_PROC_FAILED)
        throw proc_failed();
    if (cls == MPIX_ERR_REVOKED)
        throw revoked();
    throw std::runtime_error("unexpected MPI error");
}

class Solver {
public:
    explicit Solver(MPI_Comm parent)
    {
        MPI_Comm_dup(parent, &comm_);
        MPI_Comm_create_errhandler(throw_on_failure, &handler_);
        MPI_Comm_set_errhandler(comm_, handler_);
    }
    Solver(const Solver &) = delete;
    Solver &operator=(const Solver &) = delete;
    ~Solver()
    {
        MPI_Comm_free(&comm_);
        MPI_Errhandler_free(&handler_);
    }

    // One step: the sum of everyone's value. Retried on the shrunk communicator after a failure.
    int step(int value)
    {
        for (;;) {
            try {
                int sum = 0;
                MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, comm_);
                return sum;
            } catch (const proc_failed &) {
                MPIX_Comm_revoke(comm_); // the others leave their step too
                recover();
            } catch (const revoked &) {
                recover();
            }
        }
    }
    int size() const
    {
        int n;
        MPI_Comm_size(comm_, &n);
        return n;
    }
    int recoveries() const { return recoveries_; }

private:
    void recover()
    {
        MPI_Comm smaller;
        MPIX_Comm_shrink(comm_, &smaller); // not subject to the revocation
        MPI_Comm_free(&comm_);
        comm_ = smaller;
        MPI_Comm_set_errhandler(comm_, handler_);
        recoveries_++;
    }

    MPI_Comm comm_ = MPI_COMM_NULL;
    MPI_Errhandler handler_ = MPI_ERRHANDLER_NULL;
    int recoveries_ = 0;
};

} // namespace

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, errors = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    {
        Solver solver(MPI_COMM_WORLD);
        for (int i = 0; i < 6; i++) {
            int sum = solver.step(rank + 1);
            // Everyone's contribution, or the survivors' once the communicator shrank.
            int n = solver.size(), expected = size * (size + 1) / 2;
            if (n < size)
                expected -= 3; // rank 2 (contribution 3) is the one that dies
            if (sum != expected) {
                std::printf("rank %d step %d: sum %d, expected %d on %d ranks\n", rank, i, sum,
                            expected, n);
                errors++;
            }
        }
        if (solver.size() != size - 1 || solver.recoveries() != 1) {
            std::printf("rank %d: %d ranks, %d recoveries at the end\n", rank, solver.size(),
                        solver.recoveries());
            errors++;
        }
        std::printf("rank %d finished, %d errors\n", rank, errors);
    }
    if (rank == 0 && errors == 0)
        std::printf(" No Errors\n");
    MPI_Finalize();
    return errors != 0;
}
