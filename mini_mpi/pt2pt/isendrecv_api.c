/*
 * pt2pt/isendrecv_api.c: the MPI entry points MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.1
 * §3.10), both forms of each (generated bindings, api/README.md). Bindings only: the checks of
 * MPI_Sendrecv (send_recv_api.c) with a request instead of a status, then one call into
 * isendrecv.c. A revoked communicator is reported at completion, as by MPI_Isend and
 * MPI_Irecv; every other error is raised on the communicator at once.
 */
#include <stdbool.h>

#include "datatype/datatype.h"
#include "pt2pt/pt2pt.h"
#include "generated/api_impl.h"

/* The checks of both directions; MPI_ERR_REVOKED only once everything else passed. */
static int check_both(struct mmpi_rank *self, MPI_Comm comm, const void *sendbuf,
                      MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                      const void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                      int source, int recvtag, MPI_Request *request, struct mmpi_comm **c,
                      struct mmpi_datatype **sdt, struct mmpi_datatype **rdt)
{
    int serr = mmpi_pt2pt_check_args(self, comm, sendbuf, sendcount, sendtype, dest, sendtag,
                                     false, c, sdt);
    if (serr != MPI_SUCCESS && serr != MPI_ERR_REVOKED)
        return serr;
    int rerr = mmpi_pt2pt_check_args(self, comm, recvbuf, recvcount, recvtype, source, recvtag,
                                     true, c, rdt);
    if (rerr != MPI_SUCCESS && rerr != MPI_ERR_REVOKED)
        return rerr;
    if (!request)
        return MPI_ERR_ARG;
    return serr != MPI_SUCCESS ? serr : rerr;
}

int mmpi_api_Isendrecv(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                       MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                       int recvtag, MPI_Comm comm, MPI_Request *request)
{
    struct mmpi_comm *c = NULL;
    struct mmpi_datatype *sdt = NULL, *rdt = NULL;
    int err = check_both(self, comm, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, request, &c, &sdt, &rdt);
    bool revoked = err == MPI_ERR_REVOKED;

    if (err != MPI_SUCCESS && !revoked)
        goto fn_fail;
    if ((err = mmpi_pt2pt_isendrecv(self, c, sendbuf, sendcount, sdt, dest, sendtag, recvbuf,
                                    recvcount, rdt, source, recvtag, revoked, NULL, request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Isendrecv_replace(struct mmpi_rank *self, enum mmpi_call call, void *buf,
                               MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                               int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    struct mmpi_comm *c = NULL;
    struct mmpi_datatype *dt = NULL, *bytes_dt = NULL;
    int err = check_both(self, comm, buf, count, datatype, dest, sendtag, buf, count, datatype,
                         source, recvtag, request, &c, &dt, &dt);
    bool revoked = err == MPI_ERR_REVOKED;

    if (err != MPI_SUCCESS && !revoked)
        goto fn_fail;
    if ((err = mmpi_datatype_check(self, MPI_BYTE, &bytes_dt)))
        goto fn_fail;
    if ((err = mmpi_pt2pt_isendrecv_replace(self, c, buf, count, dt, bytes_dt, dest, sendtag,
                                            source, recvtag, revoked, request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}
