/*
 * coll/barrier_api.c: the MPI entry points MPI_Barrier, MPI_Ibarrier and MPI_Barrier_init
 * (MPI-4.1 §6.3, §6.12.1, §6.13). Bindings only: communicator checks (a revoked communicator is
 * MPI_ERR_REVOKED), then mmpi_coll_barrier or mmpi_coll_ibarrier (barrier.c). MPI_Barrier is on
 * the hot path: mmpi_enter_hot, and MPI_COMM_WORLD without a handle lookup.
 */
#include "coll/check.h"
#include "coll/coll.h"
#include "mmpi.h"
#include "runtime/enter.h"

MMPI_PROFILED(Barrier);
int PMPI_Barrier(MPI_Comm comm)
{
    struct mmpi_rank *self = mmpi_enter_hot(MMPI_CALL_Barrier);
    /* MPI_COMM_WORLD without a lookup, once MPI_Init gave it a core (not in sessions only). */
    struct mmpi_comm *c = comm == MPI_COMM_WORLD && self->world_comm.core
                              ? &self->world_comm
                              : mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(mmpi_fault_revoked(&c->core->fault), MPI_ERR_REVOKED);
    err = mmpi_coll_barrier(self, c);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Barrier);
    goto fn_exit;
}

/* MPI_Ibarrier and MPI_Barrier_init (§6.13): what they check is the same. */
static int ibarrier(MPI_Comm comm, struct mmpi_coll_how how, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    if ((err = mmpi_coll_check_comm(c)) || (err = mmpi_coll_check_how(self, &how)))
        goto fn_fail;
    if ((err = mmpi_coll_ibarrier(self, c, how.persistent, how.request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Ibarrier);
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    return ibarrier(comm, MMPI_COLL_NONBLOCKING(request), MMPI_CALL_Ibarrier);
}

MMPI_PROFILED(Barrier_init);
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return ibarrier(comm, MMPI_COLL_PERSISTENT(info, request), MMPI_CALL_Barrier_init);
}
