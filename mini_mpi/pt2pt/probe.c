/*
 * pt2pt/probe.c: probes and matched probes (MPI-4.1 §3.8), the implementation of MPI_Probe,
 * MPI_Iprobe, MPI_Mprobe, MPI_Improbe, MPI_Mrecv and MPI_Imrecv (mmpi_pt2pt_probe, ...; their
 * bindings are probe_api.c): the wait of a blocking probe (which ends when its source fails or
 * the communicator is revoked) and what an MPI_Message handle names. A matched probe takes the
 * envelope out of the mailbox into an MPI_Message handle, so no other receive can match it;
 * Mrecv delivers it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "datatype/datatype.h"
#include "pt2pt/chan.h"
#include "pt2pt/match.h"
#include "pt2pt/pt2pt.h"
#include "runtime/wait.h"
#include "ulfm/ulfm.h"

/* What an MPI_Message handle names. */
struct mmpi_message {
    struct mmpi_msg *msg;
    struct mmpi_comm_core *core; /* retained */
    MPI_Comm comm;
    int my_rank;
};

struct probe_wait {
    struct mmpi_rank *self;
    struct mmpi_comm *c;
    int source, tag;
    bool take;
    MPI_Status st;
    struct mmpi_msg *msg;
    uint32_t seen_arrivals, seen_epoch;
    int error;
};

/* A blocking probe is ready when a message matches, or when it never can: its source (or,
 * with MPI_ANY_SOURCE, some member) has failed. */
static bool probe_ready(void *arg)
{
    struct probe_wait *p = arg;
    struct mmpi_mbox *box = mmpi_comm_my_mbox(p->c, MMPI_CTX_USER);
    uint32_t arrivals = __atomic_load_n(&box->arrivals, __ATOMIC_ACQUIRE);
    /* Channel messages (chan.h) bump no arrivals until a probe drains them. */
    if (arrivals != p->seen_arrivals || mmpi_chan_pending(box, p->source)) {
        p->seen_arrivals = arrivals;
        if (mmpi_match_probe(box, p->source, p->tag, p->take, &p->st, &p->msg))
            return true;
    }
    struct mmpi_world *w = p->self->world;
    uint32_t epoch = mmpi_fault_epoch(w);
    if (epoch != p->seen_epoch) {
        p->seen_epoch = epoch;
        /* Check for a message once more before declaring failure: it may have been sent
         * before its sender died. */
        if (mmpi_match_probe(box, p->source, p->tag, p->take, &p->st, &p->msg))
            return true;
        if (p->source >= 0 ? mmpi_fault_is_failed(w->ranks[mmpi_comm_peer_world(p->c, p->source)])
                           : mmpi_ulfm_any_unacked_failure(p->c)) {
            p->error = MPI_ERR_PROC_FAILED;
            mmpi_fault_notice_members(p->self, &mmpi_ulfm_peer_group(p->c)->fault);
            return true;
        }
    }
    if (mmpi_fault_revoked(&p->c->core->fault)) {
        p->error = MPI_ERR_REVOKED;
        return true;
    }
    return false;
}

static void describe_probe(const void *arg, char *buf, size_t len)
{
    const struct probe_wait *p = arg;
    char comm[96];
    mmpi_comm_describe(p->self, p->c->core, comm, sizeof comm);
    char src[32] = "any source", tag[24] = "any tag";
    if (p->source != MPI_ANY_SOURCE)
        snprintf(src, sizeof src, "rank %d", p->source);
    if (p->tag != MPI_ANY_TAG)
        snprintf(tag, sizeof tag, "tag %d", p->tag);
    snprintf(buf, len, "probe for a message from %s, %s, on %s", src, tag, comm);
}

static int blocking_probe(struct mmpi_rank *self, struct mmpi_comm *c, int source, int tag,
                          bool take, MPI_Status *status, struct mmpi_msg **msg)
{
    struct probe_wait p = {.self = self, .c = c, .source = source, .tag = tag, .take = take};
    p.seen_arrivals = __atomic_load_n(&mmpi_comm_my_mbox(c, MMPI_CTX_USER)->arrivals,
                                      __ATOMIC_ACQUIRE) - 1; /* forces a first look */
    mmpi_wait_until_described(self, probe_ready, &p, describe_probe);
    if (p.error == MPI_SUCCESS && status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        *status = p.st;
        status->MPI_ERROR = keep;
    }
    if (msg)
        *msg = p.msg;
    return p.error;
}

static int new_message(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_msg *msg,
                       MPI_Message *message)
{
    struct mmpi_message *m = malloc(sizeof(*m));
    if (!m)
        return MPI_ERR_NO_MEM;
    m->msg = msg;
    m->core = c->core;
    mmpi_comm_core_retain(c->core);
    m->comm = c->handle;
    m->my_rank = c->rank;
    *message = mmpi_handle_new(self, MMPI_HANDLE_KIND_MESSAGE, m);
    return MPI_SUCCESS;
}

int mmpi_pt2pt_probe(struct mmpi_rank *self, struct mmpi_comm *c, int source, int tag,
                     MPI_Status *status)
{
    return blocking_probe(self, c, source, tag, false, status, NULL);
}

void mmpi_pt2pt_iprobe(struct mmpi_rank *self, struct mmpi_comm *c, int source, int tag,
                       int *flag, MPI_Status *status)
{
    MPI_Status st;
    *flag = mmpi_match_probe(mmpi_comm_my_mbox(c, MMPI_CTX_USER), source, tag, false, &st, NULL);
    if (*flag && status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        *status = st;
        status->MPI_ERROR = keep;
    }
    if (!*flag)
        mmpi_poll_missed(); /* a polling loop must let the sender run */
}

int mmpi_pt2pt_mprobe(struct mmpi_rank *self, struct mmpi_comm *c, int source, int tag,
                      MPI_Message *message, MPI_Status *status)
{
    struct mmpi_msg *msg = NULL;
    int err = blocking_probe(self, c, source, tag, true, status, &msg);
    if (err == MPI_SUCCESS)
        err = new_message(self, c, msg, message);
    return err;
}

int mmpi_pt2pt_improbe(struct mmpi_rank *self, struct mmpi_comm *c, int source, int tag,
                       int *flag, MPI_Message *message, MPI_Status *status)
{
    struct mmpi_msg *msg = NULL;
    MPI_Status st;
    *flag = mmpi_match_probe(mmpi_comm_my_mbox(c, MMPI_CTX_USER), source, tag, true, &st, &msg);
    if (!*flag) {
        mmpi_poll_missed();
        return MPI_SUCCESS;
    }
    if (status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        *status = st;
        status->MPI_ERROR = keep;
    }
    return new_message(self, c, msg, message);
}

int mmpi_pt2pt_mrecv_start(struct mmpi_rank *self, void *buf, MPI_Count count,
                           struct mmpi_datatype *dt, MPI_Message *message,
                           struct mmpi_request **out)
{
    struct mmpi_request *req = mmpi_request_new(self, MMPI_REQ_RECV);
    if (*message == MPI_MESSAGE_NO_PROC) {
        req->status.MPI_SOURCE = MPI_PROC_NULL;
        req->status.MPI_TAG = MPI_ANY_TAG;
        mmpi_request_complete(req, MPI_SUCCESS);
    } else {
        struct mmpi_message *m = mmpi_handle_remove(self, MMPI_HANDLE_KIND_MESSAGE, *message);
        if (!m) {
            req->refs = 1;
            mmpi_request_release(req);
            return MPI_ERR_REQUEST;
        }
        req->comm = m->comm;
        req->core = m->core; /* takes over the message's reference */
        req->buf = buf;
        req->count = (size_t)count;
        req->dt = dt;
        mmpi_datatype_retain(dt);
        mmpi_match_deliver_msg(req, m->msg);
        free(m);
    }
    *message = MPI_MESSAGE_NULL;
    *out = req;
    return MPI_SUCCESS;
}

int mmpi_pt2pt_imrecv(struct mmpi_rank *self, void *buf, MPI_Count count, struct mmpi_datatype *dt,
                      MPI_Message *message, MPI_Request *request)
{
    struct mmpi_request *req;
    int err = mmpi_pt2pt_mrecv_start(self, buf, count, dt, message, &req);
    if (err != MPI_SUCCESS)
        return err;
    return mmpi_request_publish(self, req, request);
}
