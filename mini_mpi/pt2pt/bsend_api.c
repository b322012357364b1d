/*
 * pt2pt/bsend_api.c: the MPI entry points MPI_Buffer_attach and MPI_Buffer_detach (MPI-4.1
 * §3.6.1). Bindings only: argument checks, then mmpi_bsend_attach or mmpi_bsend_detach
 * (bsend.c, which owns the attached buffer and what it bounds). Neither call takes a
 * communicator: errors are raised on no object (errhan/errhan.h says whose handler runs).
 */
#include "pt2pt/pt2pt.h"

MMPI_PROFILED(Buffer_attach);
int PMPI_Buffer_attach(void *buffer, int size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Buffer_attach);
    int err = MPI_SUCCESS;

    if (size < 0) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    if (!buffer && size > 0) {
        err = MPI_ERR_BUFFER;
        goto fn_fail;
    }
    if ((err = mmpi_bsend_attach(self, buffer, size)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Buffer_attach);
    goto fn_exit;
}

MMPI_PROFILED(Buffer_detach);
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Buffer_detach);
    int err = MPI_SUCCESS;

    if (!buffer_addr || !size) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    mmpi_bsend_detach(self, buffer_addr, size);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Buffer_detach);
    goto fn_exit;
}
