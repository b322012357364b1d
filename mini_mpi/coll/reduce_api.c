/*
 * coll/reduce_api.c: MPI entry points of the reduction collectives of MPI-4.1 chapter 6, in the
 * chapter's order: MPI_Reduce (§6.9.1), MPI_Allreduce (§6.9.6), MPI_Reduce_scatter_block
 * (§6.10.1), MPI_Reduce_scatter (§6.10.2), MPI_Scan (§6.11.1), MPI_Exscan (§6.11.2), each with
 * its nonblocking (§6.12) and persistent (§6.13, MPI_*_init) forms, all also in the
 * large-count form (_c, §5.2: the mmpi_api_ bodies behind the generated bindings take
 * MPI_Count counts and array views, api/poly.h). Bindings only: the
 * checks, the member's part (coll.h: input x.in, send.count elements of send.dt; output recv),
 * then the implementation (reduce.c, reduce_scatter.c, scan.c). MPI_Reduce_local is op/op_api.c.
 */
#include <string.h>

#include "coll/check.h"
#include "coll/coll.h"
#include "coll/fast.h"
#include "datatype/datatype.h"
#include "generated/api_impl.h"
#include "mmpi.h"
#include "op/op.h"
#include "op/word.h"
#include "pt2pt/pt2pt.h"

/* Which collective a common body runs. */
enum kind { REDUCE, ALLREDUCE, SCAN, EXSCAN };

/* The fields of a member's part that reduce() fills (the blocking small allreduce reads only
 * these, coll/fast.h). */
static void fill_part(struct mmpi_coll *x, const void *in, void *recvbuf, MPI_Count count,
                      const struct mmpi_datatype *dt, const struct mmpi_op *op, MPI_Datatype h,
                      bool in_place, int root, bool persistent)
{
    x->in_place = in_place;
    x->in = in;
    x->send.dt = dt;
    x->send.count = (size_t)count;
    x->recv.buf = recvbuf;
    x->recv.count = (size_t)count;
    x->recv.dt = dt;
    x->op = op;
    x->dth = h;
    x->root = root;
    x->persistent = persistent;
}

/* Reduce (root >= 0), Allreduce, Scan and Exscan: count elements in, count elements out. */
/* Out of line: MPI_Allreduce's express path then saves no registers for it. */
__attribute__((noinline)) static int reduce_entered(struct mmpi_rank *self, struct mmpi_comm *c,
                                                    const void *sendbuf, void *recvbuf,
                                                    MPI_Count count, MPI_Datatype datatype,
                                                    MPI_Op op, int root, enum kind kind,
                                                    struct mmpi_coll_how how, enum mmpi_call call)
{
    const struct mmpi_datatype *dt = NULL;
    const struct mmpi_op *o = NULL;
    struct mmpi_coll x;
    bool receives, in_place;
    int err;

    if ((err = mmpi_coll_check_comm(c)) ||
        /* §6.2.2: no prefix reductions on intercommunicators */
        (c->core->remote && (kind == SCAN || kind == EXSCAN) && (err = MPI_ERR_COMM)) ||
        (kind == REDUCE && (err = mmpi_coll_check_root(c, root))) ||
        (err = mmpi_coll_check_data(self, count, datatype, &dt)) ||
        (err = mmpi_coll_check_op(self, op, dt, &o)) ||
        (err = mmpi_coll_check_how(self, &how)))
        goto fn_fail;
    receives = kind != REDUCE || mmpi_coll_is_root(c, root);
    /* MPI_IN_PLACE: at the root of Reduce, at every member of the others (§6.9, §6.11);
     * intracommunicators only. */
    in_place = !c->core->remote && receives && sendbuf == MPI_IN_PLACE;
    if (!in_place && (kind != REDUCE || mmpi_coll_is_leaf(c, root)) &&
        (err = mmpi_coll_check_address(sendbuf, count, dt, datatype)))
        goto fn_fail;
    if (receives && (err = mmpi_coll_check_address(recvbuf, count, dt, datatype)))
        goto fn_fail;
    /* aliased buffers (MPI-4.1 §2.3) */
    MMPI_FAIL_IF(receives && (kind != REDUCE || !c->core->remote) && sendbuf == recvbuf &&
                     count > 0,
                 MPI_ERR_BUFFER);
    const void *in = in_place ? recvbuf : sendbuf;
    /* The small blocking allreduce first, on a part left unzeroed: zeroing the whole struct
     * (a `rep stos` of 296 bytes) costs it ~10 ns, a tenth of its time at 2 ranks. */
    fill_part(&x, in, recvbuf, count, dt, o, datatype, in_place, root, how.persistent);
    if (kind == ALLREDUCE && !how.request && !how.persistent &&
        mmpi_coll_fast_allreduce_ok(c, &x)) {
        err = mmpi_coll_fast_allreduce(self, c, &x);
    } else {
        memset(&x, 0, sizeof(x));
        fill_part(&x, in, recvbuf, count, dt, o, datatype, in_place, root, how.persistent);
        switch (kind) {
        case REDUCE: err = mmpi_reduce(self, c, &x, how.request); break;
        case ALLREDUCE: err = mmpi_allreduce(self, c, &x, how.request); break;
        case SCAN: err = mmpi_scan(self, c, &x, how.request); break;
        case EXSCAN: err = mmpi_exscan(self, c, &x, how.request); break;
        }
    }
    if (err)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

static int reduce(struct mmpi_rank *self, const void *sendbuf, void *recvbuf, MPI_Count count,
                  MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, enum kind kind,
                  struct mmpi_coll_how how, enum mmpi_call call)
{
    return reduce_entered(self, mmpi_comm_get(self, comm), sendbuf, recvbuf, count, datatype, op,
                          root, kind, how, call);
}

int mmpi_api_Reduce(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf, void *recvbuf,
                    MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    return reduce(self, sendbuf, recvbuf, count, datatype, op, root, comm, REDUCE,
                  MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Ireduce(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                     void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                     MPI_Comm comm, MPI_Request *request)
{
    return reduce(self, sendbuf, recvbuf, count, datatype, op, root, comm, REDUCE,
                  MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Reduce_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                         void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce(self, sendbuf, recvbuf, count, datatype, op, root, comm, REDUCE,
                  MMPI_COLL_PERSISTENT(info, request), call);
}

/* The last (datatype, op) pair the express path accepted on this thread and what it looked up
 * for them: both predefined, so valid for the whole run. A loop of allreduces then skips the
 * datatype's cache, the op's lookup and the kernel's (~50 of ~440 instructions). */
static __thread struct express_pair {
    MPI_Datatype datatype;
    MPI_Op op;
    const struct mmpi_datatype *dt;
    mmpi_op_kernel *kernel; /* NULL: no pair yet */
    int word;               /* op/word.h's word op for one element of dt, or 0 */
    unsigned max_count;     /* counts of dt that make 1 to 8 contiguous bytes: 1..max_count */
} last_pair __attribute__((tls_model("initial-exec")));

/* The cached pair of a predefined datatype already resolved once and a predefined op with a
 * kernel for it, or NULL. */
static const struct express_pair *express_pair(MPI_Datatype datatype, MPI_Op op)
{
    if (datatype == last_pair.datatype && op == last_pair.op && last_pair.kernel)
        return &last_pair;
    const struct mmpi_datatype *d = mmpi_pt2pt_dt_cached(datatype);
    if (!d || !mmpi_handle_is_predefined(op))
        return NULL;
    const struct mmpi_op *o = mmpi_op_get(NULL, op);
    mmpi_op_kernel *kernel;
    if (!o || mmpi_op_is_rma_only(o) || !(kernel = mmpi_op_kernel_for(o->index, d->basic)))
        return NULL;
    int word = d->basic_count == 1 ? mmpi_op_word_for(o->index, d->basic) : 0;
    unsigned max_count = d->contiguous && d->size ? (unsigned)(8 / d->size) : 0;
    last_pair = (struct express_pair){datatype, op, d, kernel, word, max_count};
    return &last_pair;
}

/* MPI_Allreduce's common small case, checked in one pass: a predefined datatype already
 * resolved once (pt2pt.h's cache), a predefined op with a kernel for it, 1 to 8 contiguous
 * bytes, two distinct buffers (or MPI_IN_PLACE), a communicator not revoked. Then, on a
 * communicator of the fast path (coll/fast.h), it goes straight to the one-word fast
 * allreduce without building the member's part: the express one for one element of a word op
 * (op/word.h). Anything else, errors included (their class depends on the order of the
 * checks), takes reduce_entered(). */
static const struct express_pair *allreduce_express(struct mmpi_comm *c, const void *sendbuf,
                                                    void *recvbuf, MPI_Count count,
                                                    MPI_Datatype datatype, MPI_Op op)
{
    const struct express_pair *p;
    if (!c || count <= 0 || !recvbuf || recvbuf == MPI_IN_PLACE || !sendbuf ||
        sendbuf == recvbuf || !(p = express_pair(datatype, op)))
        return NULL;
    return (uint64_t)count <= p->max_count && !mmpi_fault_revoked(&c->core->fault) ? p : NULL;
}

int mmpi_api_Allreduce(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                       void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm)
{
    /* MPI_COMM_WORLD without a lookup, once MPI_Init gave it a core (not in sessions only). */
    struct mmpi_comm *c = comm == MPI_COMM_WORLD && self->world_comm.core
                              ? &self->world_comm
                              : mmpi_comm_get(self, comm);
    const struct express_pair *p = allreduce_express(c, sendbuf, recvbuf, count, datatype, op);
    int err;

    /* The express path: the one-word fold and nothing else (err: -1 when c is on no fast
     * path). Its instruction count is measured; check objdump after any change here. */
    if (p) {
        const struct mmpi_datatype *dt = p->dt;
        const void *in = (const char *)(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf) + dt->true_lb;
        void *out = (char *)recvbuf + dt->true_lb;
        size_t bytes = (size_t)count * dt->size;
        struct mmpi_fast_fold how = {p->kernel, (size_t)count * dt->basic_count,
                                     count == 1 ? p->word : 0};
        err = -1;
        if (how.word && mmpi_coll_fast_word_ok(c))
            err = mmpi_coll_fast_allreduce_express(self, c, in, out, bytes, &how);
        else if (mmpi_coll_fast_ok(c) && mmpi_coll_snapshot_override() >= bytes)
            err = mmpi_coll_fast_allreduce_word(self, c, in, out, bytes, &how);
        if (err > 0)
            goto fn_fail;
        if (err == 0)
            goto fn_exit;
    }
    /* Any other case, errors included: the common body checks, runs and raises on its own. */
    err = reduce_entered(self, c, sendbuf, recvbuf, count, datatype, op, 0, ALLREDUCE,
                         MMPI_COLL_BLOCKING, call);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Iallreduce(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                        void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Request *request)
{
    return reduce(self, sendbuf, recvbuf, count, datatype, op, 0, comm, ALLREDUCE,
                  MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Allreduce_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                            void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce(self, sendbuf, recvbuf, count, datatype, op, 0, comm, ALLREDUCE,
                  MMPI_COLL_PERSISTENT(info, request), call);
}

/* Reduce_scatter (v: recvcounts) and Reduce_scatter_block (recvcount each). */
static int reduce_scatter(struct mmpi_rank *self, const void *sendbuf, void *recvbuf,
                          MPI_Count recvcount, struct mmpi_poly_array recvcounts, bool v,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, struct mmpi_coll_how how,
                          enum mmpi_call call)
{
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_coll x;
    size_t total = 0;
    MPI_Count mine;
    int err;

    memset(&x, 0, sizeof(x));
    if ((err = mmpi_coll_check_comm(c)) ||
        (err = mmpi_coll_check_data(self, 0, datatype, &x.send.dt)) ||
        (err = mmpi_coll_check_op(self, op, x.send.dt, &x.op)) ||
        (err = mmpi_coll_check_how(self, &how)))
        goto fn_fail;
    MMPI_FAIL_IF(v && mmpi_poly_null(recvcounts), MPI_ERR_ARG);
    if (v) {
        for (int i = 0; i < c->core->size; i++) {
            MPI_Count n = mmpi_poly_at(recvcounts, (size_t)i);
            MMPI_FAIL_IF(n < 0, MPI_ERR_COUNT);
            total += (size_t)n;
        }
        mine = mmpi_poly_at(recvcounts, (size_t)c->rank);
    } else {
        MMPI_FAIL_IF(recvcount < 0, MPI_ERR_COUNT);
        total = (size_t)recvcount * (size_t)c->core->size;
        mine = recvcount;
    }
    /* MPI_IN_PLACE: the input is the whole receive buffer (§6.10); intracommunicators only. */
    x.in_place = !c->core->remote && sendbuf == MPI_IN_PLACE;
    MMPI_FAIL_IF(sendbuf == MPI_IN_PLACE && !x.in_place, MPI_ERR_BUFFER);
    MMPI_FAIL_IF(!x.in_place && total > 0 && x.send.dt->size > 0 && !sendbuf &&
                     mmpi_handle_is_predefined(datatype),
                 MPI_ERR_BUFFER);
    /* In place the receive buffer holds the whole input; only "any data at all" matters to
     * the address check. */
    MPI_Count rcheck = x.in_place ? (total > 0) : mine;
    if ((err = mmpi_coll_check_buffer(self, recvbuf, rcheck, datatype, &x.recv.dt)))
        goto fn_fail;
    /* aliased buffers (MPI-4.1 §2.3) */
    MMPI_FAIL_IF(!x.in_place && sendbuf == recvbuf && total > 0, MPI_ERR_BUFFER);
    x.in = x.in_place ? recvbuf : sendbuf;
    x.send.count = total;
    x.recv.buf = recvbuf;
    x.recv.count = (size_t)mine;
    x.recv.counts = v ? recvcounts : MMPI_COLL_NO_ARRAY;
    x.dth = datatype;
    x.persistent = how.persistent;
    if ((err = mmpi_reduce_scatter(self, c, &x, how.request)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

int mmpi_api_Reduce_scatter_block(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                  void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter(self, sendbuf, recvbuf, recvcount, MMPI_COLL_NO_ARRAY, false, datatype,
                          op, comm, MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Ireduce_scatter_block(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                   void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return reduce_scatter(self, sendbuf, recvbuf, recvcount, MMPI_COLL_NO_ARRAY, false, datatype,
                          op, comm, MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Reduce_scatter_block_init(struct mmpi_rank *self, enum mmpi_call call,
                                       const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                       MPI_Info info, MPI_Request *request)
{
    return reduce_scatter(self, sendbuf, recvbuf, recvcount, MMPI_COLL_NO_ARRAY, false, datatype,
                          op, comm, MMPI_COLL_PERSISTENT(info, request), call);
}

int mmpi_api_Reduce_scatter(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                            void *recvbuf, struct mmpi_poly_array recvcounts, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter(self, sendbuf, recvbuf, 0, recvcounts, true, datatype, op, comm,
                          MMPI_COLL_BLOCKING, call);
}

int mmpi_api_Ireduce_scatter(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                             void *recvbuf, struct mmpi_poly_array recvcounts,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return reduce_scatter(self, sendbuf, recvbuf, 0, recvcounts, true, datatype, op, comm,
                          MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Reduce_scatter_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                                 void *recvbuf, struct mmpi_poly_array recvcounts,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    return reduce_scatter(self, sendbuf, recvbuf, 0, recvcounts, true, datatype, op, comm,
                          MMPI_COLL_PERSISTENT(info, request), call);
}

int mmpi_api_Scan(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf, void *recvbuf,
                  MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return reduce(self, sendbuf, recvbuf, count, datatype, op, 0, comm, SCAN, MMPI_COLL_BLOCKING,
                  call);
}

int mmpi_api_Iscan(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf, void *recvbuf,
                   MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request)
{
    return reduce(self, sendbuf, recvbuf, count, datatype, op, 0, comm, SCAN,
                  MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Scan_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                       void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce(self, sendbuf, recvbuf, count, datatype, op, 0, comm, SCAN,
                  MMPI_COLL_PERSISTENT(info, request), call);
}

int mmpi_api_Exscan(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf, void *recvbuf,
                    MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return reduce(self, sendbuf, recvbuf, count, datatype, op, 0, comm, EXSCAN, MMPI_COLL_BLOCKING,
                  call);
}

int mmpi_api_Iexscan(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                     void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Request *request)
{
    return reduce(self, sendbuf, recvbuf, count, datatype, op, 0, comm, EXSCAN,
                  MMPI_COLL_NONBLOCKING(request), call);
}

int mmpi_api_Exscan_init(struct mmpi_rank *self, enum mmpi_call call, const void *sendbuf,
                         void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce(self, sendbuf, recvbuf, count, datatype, op, 0, comm, EXSCAN,
                  MMPI_COLL_PERSISTENT(info, request), call);
}
