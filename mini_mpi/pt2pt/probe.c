/*
 * probe.c: probes and matched probes (MPI-4.1 §3.8): Probe, Iprobe, Mprobe, Improbe, Mrecv,
 * Imrecv. A matched probe takes the envelope out of the mailbox into an MPI_Message handle, so
 * no other receive can match it; Mrecv delivers it.
 */
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>

#include "datatype/datatype.h"
#include "pt2pt/chan.h"
#include "pt2pt/match.h"
#include "pt2pt/pt2pt.h"
#include "ulfm/ulfm.h"

/* What an MPI_Message handle names. */
struct mmpi_message {
    struct mmpi_msg *msg;
    struct mmpi_comm_core *core; /* retained */
    MPI_Comm comm;
    int my_rank;
};

static int check_probe_args(struct mmpi_rank *self, int source, int tag, MPI_Comm comm,
                            struct mmpi_comm **c)
{
    *c = comm == MPI_COMM_WORLD ? mmpi_restart_world_route(self, source) /* restart.h */
                                : mmpi_comm_get(self, comm);
    if (!*c)
        return MPI_ERR_COMM;
    int n = mmpi_comm_remote_size(*c);
    if (!(source == MPI_PROC_NULL || source == MPI_ANY_SOURCE || (source >= 0 && source < n)))
        return MPI_ERR_RANK;
    if (!(tag == MPI_ANY_TAG || (tag >= 0 && tag <= MMPI_TAG_UB)))
        return MPI_ERR_TAG;
    if (mmpi_fault_revoked(&(*c)->core->fault))
        return MPI_ERR_REVOKED;
    return MPI_SUCCESS;
}

static void status_proc_null(MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_TAG = MPI_ANY_TAG;
    status->mmpi_count = 0;
    status->mmpi_cancelled = 0;
}

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

MMPI_PROFILED(Probe);
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Probe);
    struct mmpi_comm *c;
    int err = check_probe_args(self, source, tag, comm, &c);
    if (err == MPI_SUCCESS && !status)
        err = MPI_ERR_ARG;
    if (err == MPI_SUCCESS) {
        if (source == MPI_PROC_NULL)
            status_proc_null(status);
        else
            err = blocking_probe(self, c, source, tag, false, status, NULL);
    }
    return err == MPI_SUCCESS ? err : mmpi_err_raise_comm(self, c, err, MMPI_CALL_Probe);
}

MMPI_PROFILED(Iprobe);
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Iprobe);
    struct mmpi_comm *c;
    int err = check_probe_args(self, source, tag, comm, &c);
    if (err == MPI_SUCCESS && (!status || !flag))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return mmpi_err_raise_comm(self, c, err, MMPI_CALL_Iprobe);
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        status_proc_null(status);
        return MPI_SUCCESS;
    }
    MPI_Status st;
    *flag = mmpi_match_probe(mmpi_comm_my_mbox(c, MMPI_CTX_USER), source, tag, false, &st, NULL);
    if (*flag && status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        *status = st;
        status->MPI_ERROR = keep;
    }
    if (!*flag)
        sched_yield(); /* a polling loop must let the sender run */
    return MPI_SUCCESS;
}

static int mprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                  MPI_Status *status, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c;
    struct mmpi_msg *msg = NULL;
    int err = check_probe_args(self, source, tag, comm, &c);
    if (err == MPI_SUCCESS && (!status || !message || (call == MMPI_CALL_Improbe && !flag)))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return mmpi_err_raise_comm(self, c, err, call);
    if (source == MPI_PROC_NULL) {
        if (flag)
            *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        status_proc_null(status);
        return MPI_SUCCESS;
    }
    if (call == MMPI_CALL_Mprobe) {
        err = blocking_probe(self, c, source, tag, true, status, &msg);
    } else {
        MPI_Status st;
        *flag = mmpi_match_probe(mmpi_comm_my_mbox(c, MMPI_CTX_USER), source, tag, true, &st,
                                 &msg);
        if (!*flag) {
            sched_yield();
            return MPI_SUCCESS;
        }
        if (status != MPI_STATUS_IGNORE) {
            int keep = status->MPI_ERROR;
            *status = st;
            status->MPI_ERROR = keep;
        }
    }
    if (err == MPI_SUCCESS)
        err = new_message(self, c, msg, message);
    return err == MPI_SUCCESS ? err : mmpi_err_raise_comm(self, c, err, call);
}

MMPI_PROFILED(Mprobe);
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    return mprobe(source, tag, comm, NULL, message, status, MMPI_CALL_Mprobe);
}

MMPI_PROFILED(Improbe);
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    return mprobe(source, tag, comm, flag, message, status, MMPI_CALL_Improbe);
}

/* Receives a probed message into a new request (already complete when this returns). */
static int mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                 struct mmpi_request **out, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_datatype *dt;
    int err = count < 0 ? MPI_ERR_COUNT : mmpi_datatype_check(self, datatype, &dt);
    if (err == MPI_SUCCESS && !message)
        err = MPI_ERR_ARG;
    /* As for every receive (start.c): NULL is MPI_BOTTOM, legal only with a derived type. */
    if (err == MPI_SUCCESS && !buf && count > 0 && mmpi_handle_is_predefined(datatype) &&
        dt->size > 0)
        err = MPI_ERR_BUFFER;
    if (err != MPI_SUCCESS)
        return mmpi_err_raise_comm(self, NULL, err, call);
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
            return mmpi_err_raise_comm(self, NULL, MPI_ERR_REQUEST, call);
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

MMPI_PROFILED(Mrecv);
int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
    struct mmpi_request *req = NULL; /* set by mrecv on success */
    int err = mrecv(buf, count, datatype, message, &req, MMPI_CALL_Mrecv);
    if (err != MPI_SUCCESS)
        return err;
    mmpi_status_copy_out(status, &req->status, false);
    err = req->error;
    if (err != MPI_SUCCESS)
        err = mmpi_request_raise(mmpi_self, req, err, MMPI_CALL_Mrecv);
    mmpi_request_release(req);
    return err;
}

MMPI_PROFILED(Imrecv);
int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
    struct mmpi_request *req;
    if (!request)
        return mmpi_err_raise_comm(mmpi_enter(MMPI_CALL_Imrecv), NULL, MPI_ERR_ARG,
                                   MMPI_CALL_Imrecv);
    int err = mrecv(buf, count, datatype, message, &req, MMPI_CALL_Imrecv);
    if (err != MPI_SUCCESS)
        return err;
    err = mmpi_request_publish(mmpi_self, req, request);
    return err ? mmpi_err_raise_comm(mmpi_self, NULL, err, MMPI_CALL_Imrecv) : MPI_SUCCESS;
}
