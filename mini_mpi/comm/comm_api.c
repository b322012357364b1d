/*
 * comm/comm_api.c: MPI_Comm_size and MPI_Comm_rank, the two queries of the communicator chapter
 * (MPI-4.1 §7.4.1) every program calls. The rest of the chapter: create_api.c (dup, split,
 * free, compare, names), create_more_api.c, intercomm_api.c, info_api.c.
 */
#include "mmpi.h"

MMPI_PROFILED(Comm_size);
int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_size);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(!size, MPI_ERR_ARG);
    *size = c->core->size;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_size);
    goto fn_exit;
}

MMPI_PROFILED(Comm_rank);
int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_rank);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!c, MPI_ERR_COMM);
    MMPI_FAIL_IF(!rank, MPI_ERR_ARG);
    *rank = c->rank;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, MMPI_CALL_Comm_rank);
    goto fn_exit;
}
