/*
 * topo/neighbor.c: the neighbourhood collectives (MPI-4.1 §8.6, §8.7) on the collective engine
 * (coll/coll.h), blocking and nonblocking alike. Every member of the communicator takes part
 * (they are collective over it, §8.6), so the engine's board gives the rendezvous, failure
 * and revoke handling for free. Each member's send vector has one piece per outgoing edge
 * (allgather forms: one piece for all of them), its receive vector one per incoming edge;
 * incoming edge j of member r is fed by piece topo->in_match[j] of the neighbour's send vector
 * (topo.h says how edges pair). An MPI_PROC_NULL neighbour (a non-periodic Cartesian edge)
 * sends nothing and its receive piece is left untouched (§8.6).
 *
 * Algorithm: SNAPSHOT when all the pieces fit the snapshot size (always, up to a large cap,
 * for the nonblocking forms): the last arriver packs every member's pieces into the result,
 * members unpack theirs and leave. Beyond: DIRECT, each member copies its pieces from its
 * neighbours' buffers, then waits until every member has departed.
 * Cost: one synchronization and 2 copies (snapshot); two synchronizations and one copy
 * (direct). The synchronization is over the whole communicator, not only the neighbours.
 * On process failure: as every engine collective (engine.c): a member that never arrived
 * makes every member report MPI_ERR_PROC_FAILED, in finite time, whether or not it is a
 * neighbour (the standard lets any member of a collective report the failure); a revoke
 * gives MPI_ERR_REVOKED. A member whose source died after arriving reports
 * MPI_ERR_PROC_FAILED (check_sources), so survivors may disagree: neighbours of the dead
 * fail, the others succeed, which the chapter allows.
 */
#include <stdlib.h>

#include "coll/coll.h"
#include "datatype/datatype.h"
#include "pt2pt/copy.h"
#include "topo/topo.h"
#include "ulfm/ulfm.h"

static const struct mmpi_coll_algo gather_algo, alltoall_algo;

static const struct mmpi_topo *topo_of(const struct mmpi_coll *x)
{
    return x->core->topo;
}

/* Piece k of member x's send vector (the allgather forms send one piece to everybody). */
static void send_piece(const struct mmpi_coll *x, int k, char **buf, size_t *count,
                       const struct mmpi_datatype **dt)
{
    mmpi_coll_piece(&x->send, x->algo == &gather_algo ? 0 : k, buf, count, dt);
}

/* result->off[2e], off[2e+1]: start and length of outgoing edge e's packed piece (e indexes
 * topo->out); allgather forms pack a member's piece once and point every edge at it. */
static void neighbor_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    const struct mmpi_topo *t = topo_of(me);
    size_t nedges = (size_t)t->out_off[t->size], total = 0;
    bool gather = me->algo == &gather_algo;
    for (int r = 0; r < t->size; r++) {
        const struct mmpi_coll *d = mmpi_coll_deposit(inst, r);
        for (int k = 0; k < mmpi_topo_outdegree(t, r) && !(gather && k > 0); k++)
            total += mmpi_coll_piece_bytes(&d->send, gather ? 0 : k);
    }
    if (total + 2 * nedges * sizeof(size_t) > mmpi_coll_snapshot_max(me))
        return;
    struct mmpi_coll_result *res =
        mmpi_coll_result_new(MMPI_COLL_SNAPSHOT, 2 * nedges, total + (size_t)t->size);
    if (!res)
        return;
    size_t pos = 0;
    for (int r = 0; r < t->size; r++) {
        const struct mmpi_coll *d = mmpi_coll_deposit(inst, r);
        for (int k = 0; k < mmpi_topo_outdegree(t, r); k++) {
            size_t e = (size_t)t->out_off[r] + (size_t)k;
            if (gather && k > 0) {
                res->off[2 * e] = res->off[2 * (e - 1)];
                res->off[2 * e + 1] = res->off[2 * (e - 1) + 1];
                continue;
            }
            char *buf;
            size_t count;
            const struct mmpi_datatype *dt;
            send_piece(d, k, &buf, &count, &dt);
            mmpi_typed_pack(buf, count, dt, res->data + pos);
            res->off[2 * e] = pos;
            res->off[2 * e + 1] = mmpi_typed_bytes(dt, count);
            pos += res->off[2 * e + 1];
        }
    }
    /* After the copies: a member alive now was alive while its buffers were read. */
    unsigned char *dead = res->data + total;
    for (int r = 0; r < t->size; r++)
        dead[r] = mmpi_fault_is_failed(mmpi_world->ranks[me->core->world_ranks[r]]);
    inst->result = res;
}

/* A source that failed after arriving may have had its buffers overwritten (a dead rank's
 * stack is unwound) before the data was copied, so such a copy is not trusted and the member
 * reports MPI_ERR_PROC_FAILED. The death is recorded before the rank unwinds
 * (runtime/ranks_as_threads.c), so a source found alive after the copy was alive during it:
 * the snapshot records that at its copy (the last size bytes of the result), a direct copy
 * checks after copying. */
static int check_sources(struct mmpi_coll *x, const struct mmpi_coll_result *res)
{
    const struct mmpi_topo *t = topo_of(x);
    struct mmpi_world *w = x->self->world;
    const unsigned char *dead = res ? res->data + res->bytes - (size_t)t->size : NULL;
    int err = MPI_SUCCESS;
    if (!mmpi_fault_any(w))
        return MPI_SUCCESS;
    for (int j = t->in_off[x->rank]; j < t->in_off[x->rank + 1]; j++) {
        int src = t->in[j];
        if (src == MPI_PROC_NULL)
            continue;
        int world = x->core->world_ranks[src];
        if (dead ? dead[src] : mmpi_fault_is_failed(w->ranks[world])) {
            mmpi_fault_notice(x->self, world);
            err = MPI_ERR_PROC_FAILED;
        }
    }
    return err;
}

static int neighbor_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                         const struct mmpi_coll_result *res)
{
    const struct mmpi_topo *t = topo_of(x);
    int err = MPI_SUCCESS;
    x->wait = true; /* direct mode: neighbours read this member's buffers */
    for (int j = t->in_off[x->rank]; j < t->in_off[x->rank + 1]; j++) {
        int src = t->in[j], k = t->in_match[j], e;
        if (src == MPI_PROC_NULL)
            continue;
        char *rbuf;
        size_t rcount, copied;
        const struct mmpi_datatype *rdt;
        mmpi_coll_piece(&x->recv, j - t->in_off[x->rank], &rbuf, &rcount, &rdt);
        if (res) {
            size_t edge = (size_t)t->out_off[src] + (size_t)k;
            e = mmpi_typed_unpack(res->data + res->off[2 * edge], res->off[2 * edge + 1], rbuf,
                                  rcount, rdt, &copied);
        } else {
            char *sbuf;
            size_t scount;
            const struct mmpi_datatype *sdt;
            send_piece(mmpi_coll_deposit(inst, src), k, &sbuf, &scount, &sdt);
            e = mmpi_typed_copy(sbuf, scount, sdt, rbuf, rcount, rdt, &copied);
        }
        if (err == MPI_SUCCESS)
            err = e;
    }
    return err != MPI_SUCCESS ? err : check_sources(x, res);
}

static const struct mmpi_coll_algo gather_algo = {neighbor_combine, neighbor_read, NULL,
                                                  MMPI_COLLOP_NEIGHBOR_ALLGATHER};
static const struct mmpi_coll_algo alltoall_algo = {neighbor_combine, neighbor_read, NULL,
                                                    MMPI_COLLOP_NEIGHBOR_ALLTOALL};

int mmpi_neighbor_run(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
                      bool allgather, MPI_Request *request)
{
    x->algo = allgather ? &gather_algo : &alltoall_algo;
    return mmpi_coll_run(self, c, x, request);
}
