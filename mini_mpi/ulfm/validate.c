/*
 * validate.c: MPIX_Comm_validate(comm), a collective check that no member of comm has failed
 * (an MPIX_ extension of the issue 5 interface; it has no chapter MPI_ name). Like agreement it
 * runs on the board's fault-tolerant completion: once every member has arrived or failed, one
 * combine step looks at every member, so the verdict is the same at every live rank:
 * MPI_SUCCESS when none failed, MPI_ERR_PROC_FAILED otherwise (acknowledged or not). It
 * ignores revocation, so it can be used while recovering a revoked communicator.
 */
#include "coll/board.h"
#include "ulfm/ulfm.h"

static void validate_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *core)
{
    int *err = mmpi_xmalloc(sizeof(*err));
    *err = MPI_SUCCESS;
    for (int i = 0; i < core->size && *err == MPI_SUCCESS; i++)
        if (!mmpi_board_arrived(inst, i) ||
            mmpi_fault_is_failed(mmpi_world->ranks[core->world_ranks[i]]))
            *err = MPI_ERR_PROC_FAILED;
    inst->result = err; /* freed with the instance */
}

#pragma weak MPIX_Comm_validate = PMPIX_Comm_validate
int PMPIX_Comm_validate(MPI_Comm comm)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_Comm_validate);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    int err = !c ? MPI_ERR_COMM : c->core->remote ? MPI_ERR_COMM : MPI_SUCCESS;
    if (err != MPI_SUCCESS)
        return mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_validate);
    struct mmpi_comm_core *core = c->core;
    struct mmpi_board_instance *inst =
        mmpi_board_arrive(core, mmpi_ulfm_next_seq(c), c->rank, NULL, validate_combine);
    mmpi_board_wait_settled(self, core, inst, validate_combine);
    /* No result: members called different collectives (coll/board.h). */
    err = inst->result ? *(const int *)inst->result : MPI_ERR_OTHER;
    if (err != MPI_SUCCESS) /* the failed members are now known to this rank */
        mmpi_fault_notice_members(self, &core->fault);
    mmpi_board_leave(core, inst, c->rank);
    return err == MPI_SUCCESS ? err : mmpi_err_raise_comm(self, c, err, MMPIX_CALL_Comm_validate);
}
