/*
 * io/revoke_api.c: MPIX_File_revoke (the fault-tolerance chapter's I/O section). Local and
 * non-collective: it revokes the file's shared fault core and, linked to it, the core of the
 * file's private communicator (io/file_fault.c), then wakes every member, so that every pending and
 * later operation on the file at every process completes with MPI_ERR_REVOKED.
 */
#include "fault/fault.h"
#include "io/io.h"
#include "ulfm/ulfm.h"

MMPI_FT_PROFILED(File_revoke);
int PMPIX_File_revoke(MPI_File fh)
{
    struct mmpi_rank *self = mmpi_enter(MMPIX_CALL_File_revoke);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    mmpi_fault_revoke(self->world, &f->core->fault);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPIX_CALL_File_revoke);
    goto fn_exit;
}
