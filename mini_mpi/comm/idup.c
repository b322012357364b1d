/*
 * idup.c: MPI_Comm_idup and MPI_Comm_idup_with_info (MPI-4.1 §7.4.2): the steps of a dup on the
 * parent's board (create.c), run by a request's poll. As the standard asks, the call behaves as
 * if the dup happened when it was made: the attribute copy callbacks run then, and the error
 * handler and hints are taken then; the new handle is written to *newcomm at completion (the
 * program may not read it before, §7.4.2). A copy callback that fails makes the request
 * complete with its code, after the member took its part in the collective (so that the others
 * never wait for it). On failure or revoke the request completes with MPI_ERR_PROC_FAILED or
 * MPI_ERR_REVOKED like the blocking form.
 */
#include <stdlib.h>

#include "attr/attr.h"
#include "coll/board.h"
#include "comm/create.h"
#include "comm/info.h"
#include "comm/intercomm.h"
#include "pt2pt/request.h"

struct idup {
    struct mmpi_comm_core *core;       /* the parent's board core (an intercommunicator's
                                        * bridge), retained */
    struct mmpi_board_instance *inst;  /* NULL once left */
    int me;                            /* rank on the parent's board (core) */
    struct mmpi_errhandler *eh;        /* retained */
    MPI_Session session;               /* the parent's */
    struct mmpi_info *info;            /* hints for the new communicator, owned; or NULL */
    struct mmpi_attr *attrs;           /* copies made at the call */
    int copy_err;                      /* a copy callback's failure, reported at completion */
    MPI_Comm *newcomm;
};

/* Makes the calling member's handle; returns the request's error. */
static int idup_finish(struct mmpi_rank *self, struct idup *d, int wait_err)
{
    struct mmpi_comm_core *core;
    int rank, err = mmpi_comm_create_outcome(self, d->core, d->inst, d->me, wait_err, &core,
                                             &rank);
    mmpi_board_leave(d->core, d->inst, d->me);
    d->inst = NULL;
    if (err != MPI_SUCCESS)
        return err;
    struct mmpi_comm *c = mmpi_comm_handle_object_eh(d->eh, core, rank);
    c->session = d->session;
    if (d->copy_err != MPI_SUCCESS) {
        mmpi_comm_release(self, c);
        return d->copy_err;
    }
    c->info = d->info;
    d->info = NULL;
    if ((err = mmpi_comm_register(self, c, d->newcomm)) != MPI_SUCCESS) {
        struct mmpi_attr_obj copies = {MMPI_HANDLE_KIND_COMM, MPI_COMM_NULL, &d->attrs};
        mmpi_attr_delete_all(self, &copies); /* each copy gets its delete, as in a failed dup */
        return err;
    }
    c->attrs = d->attrs; /* no one else knows c yet: no lock needed */
    d->attrs = NULL;
    return MPI_SUCCESS;
}

static bool idup_poll(struct mmpi_request *req)
{
    struct idup *d = req->state;
    if (mmpi_request_is_done(req))
        return true;
    int r = mmpi_board_test_arrived(req->owner, d->core, d->inst);
    if (r == -1)
        return false;
    int err = idup_finish(req->owner, d, r);
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    mmpi_request_complete(req, err);
    return true;
}

static void idup_free(struct mmpi_request *req)
{
    struct idup *d = req->state;
    if (d->inst)
        mmpi_board_leave(d->core, d->inst, d->me);
    /* Copies left only when the request never completed (freed active, or the rank ended):
     * dropped without callbacks. */
    mmpi_attr_list_free(&d->attrs);
    mmpi_comm_core_release(d->core);
    mmpi_errhandler_release(d->eh);
    mmpi_info_release(d->info);
    free(d);
}

int mmpi_comm_idup(struct mmpi_rank *self, struct mmpi_comm *parent, struct mmpi_info *info,
                   MPI_Comm *newcomm, MPI_Request *request)
{
    struct idup *d = mmpi_xcalloc(1, sizeof(*d));
    /* An intercommunicator is duplicated on its bridge, over both groups (intercomm.h). */
    d->core = mmpi_comm_board_core(parent);
    mmpi_comm_core_retain(d->core);
    d->me = mmpi_comm_board_rank(parent);
    d->eh = parent->errhandler; /* NULL: never set (errhan/errhandler.c) */
    d->session = parent->session;
    mmpi_errhandler_retain(d->eh);
    d->info = info;
    d->newcomm = newcomm;
    *newcomm = MPI_COMM_NULL;

    struct mmpi_request *req = mmpi_request_new_collective(self, parent->handle, d, idup_poll,
                                                           idup_free);
    if (mmpi_request_publish(self, req, request) != MPI_SUCCESS) {
        mmpi_request_release(req); /* nothing started: the engine's reference goes too */
        return MPI_ERR_NO_MEM;
    }
    /* Copies now (§7.4.2: "as if MPI_COMM_DUP was executed at the time"), under no lock. */
    struct mmpi_attr_obj src = mmpi_attr_comm_obj(parent);
    struct mmpi_attr_obj dst = {MMPI_HANDLE_KIND_COMM, MPI_COMM_NULL, &d->attrs};
    d->copy_err = mmpi_attr_copy(self, &src, &dst);
    mmpi_board_combine_fn *combine =
        parent->core->remote ? mmpi_intercomm_dup_combine : mmpi_comm_dup_combine;
    d->inst = mmpi_board_arrive(d->core, parent->coll_seq++, d->me, NULL, combine);
    return MPI_SUCCESS;
}
