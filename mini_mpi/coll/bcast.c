/*
 * coll/bcast.c: MPI_Bcast and MPI_Ibcast (MPI-4.1 §6.4, §6.12.2) on the collective engine.
 * Each member's buffer is its recv block; the root's is the source.
 *
 * Algorithm: SNAPSHOT up to the snapshot size: the last arriver packs the root's data into the
 * result, every member unpacks it. Beyond: DIRECT, every non-root copies straight from the
 * root's buffer; only the root waits for the departures.
 * Cost: one synchronization and two copies per member (snapshot); two synchronizations and one
 * copy per non-root (direct).
 * On process failure: a root that died after arriving still has its data read; a member that
 * never arrived makes everyone report MPI_ERR_PROC_FAILED (engine.c).
 */
#include "coll/coll.h"
#include "coll/inter.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "pt2pt/copy.h"

static void bcast_combine(const struct mmpi_coll *me, struct mmpi_board_instance *inst)
{
    const struct mmpi_coll *root = mmpi_coll_deposit(inst, me->root);
    size_t bytes = mmpi_typed_bytes(root->recv.dt, root->recv.count);
    if (bytes > mmpi_coll_snapshot_max(me))
        return;
    struct mmpi_coll_result *res = mmpi_coll_result_new(MMPI_COLL_SNAPSHOT, 0, bytes);
    if (!res)
        return;
    mmpi_typed_pack(root->recv.buf, root->recv.count, root->recv.dt, res->data);
    inst->result = res;
}

static int bcast_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                      const struct mmpi_coll_result *res)
{
    size_t copied;
    if (x->rank == x->root) {
        x->wait = true; /* the others copy from our buffer (direct mode) */
        return MPI_SUCCESS;
    }
    if (res)
        return mmpi_typed_unpack(res->data, res->bytes, x->recv.buf, x->recv.count, x->recv.dt,
                                 &copied);
    const struct mmpi_coll *root = mmpi_coll_deposit(inst, x->root);
    return mmpi_typed_copy(root->recv.buf, root->recv.count, root->recv.dt, x->recv.buf,
                           x->recv.count, x->recv.dt, &copied);
}

static const struct mmpi_coll_algo bcast_algo = {bcast_combine, bcast_read, NULL,
                                                 MMPI_COLLOP_BCAST};

int mmpi_bcast(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x,
               MPI_Request *request)
{
    x->algo = c->core->remote ? &mmpi_inter_bcast_algo : &bcast_algo;
    return mmpi_coll_run(self, c, x, request);
}
