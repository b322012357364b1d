/*
 * coll/inter_reduce.c: the reductions on intercommunicators (MPI-4.1 §6.2.2, §6.9, §6.10):
 * Reduce (the root, MPI_ROOT, gets the reduction of the other group's inputs), Allreduce
 * (each group gets the reduction of the other group's inputs), Reduce_scatter(_block) (the
 * reduction of the other group's inputs is scattered over this group by this group's
 * counts), blocking and nonblocking.
 *
 * Algorithm: DIRECT on the bridge board: each receiver folds the remote group's inputs, in
 * their rank order (mmpi_coll_reduce_range over the remote group's contiguous bridge ranks),
 * into private memory with its own op and datatype, then unpacks into its receive buffer;
 * everybody departs and waits for the departures (its input may be being read).
 * Cost: two synchronizations; remote size * count element operations per receiver.
 * On process failure: as inter_move.c.
 */
#include <stdlib.h>

#include "coll/inter.h"
#include "datatype/datatype.h"
#include "mmpi.h"
#include "pt2pt/copy.h"

/* recv <- elements [first, first + count) of the fold of the remote group's inputs. */
static int fold_remote(struct mmpi_coll *x, const struct mmpi_board_instance *inst, size_t first,
                       size_t count)
{
    struct mmpi_inter_view v = mmpi_inter_view_of(x);
    size_t copied, bytes = mmpi_typed_bytes(x->send.dt, count);
    for (int i = 0; i < v.rsize; i++)
        if (mmpi_coll_deposit(inst, v.rbase + i)->send.count < first + count)
            return MPI_ERR_COUNT; /* the other group supplied fewer elements */
    void *out = malloc(bytes ? bytes : 1);
    if (!out)
        return MPI_ERR_NO_MEM;
    mmpi_coll_reduce_range(x, inst, v.rbase, v.rbase + v.rsize, first, count, out);
    int err = mmpi_typed_unpack(out, bytes, x->recv.buf, x->recv.count, x->recv.dt, &copied);
    free(out);
    return err;
}

static int reduce_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                       const struct mmpi_coll_result *res)
{
    (void)res;
    x->wait = true;
    return x->root == MPI_ROOT ? fold_remote(x, inst, 0, x->recv.count) : MPI_SUCCESS;
}

static int allreduce_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                          const struct mmpi_coll_result *res)
{
    (void)res;
    x->wait = true;
    return fold_remote(x, inst, 0, x->recv.count);
}

/* This member's block starts after the blocks of the lower ranks of its own group. */
static int reduce_scatter_read(struct mmpi_coll *x, const struct mmpi_board_instance *inst,
                               const struct mmpi_coll_result *res)
{
    struct mmpi_inter_view v = mmpi_inter_view_of(x);
    size_t first = 0;
    (void)res;
    x->wait = true;
    for (int i = 0; i < v.me; i++)
        first += x->recv.counts ? (size_t)x->recv.counts[i] : x->recv.count;
    return fold_remote(x, inst, first, x->recv.count);
}

const struct mmpi_coll_algo mmpi_inter_reduce_algo = {NULL, reduce_read, NULL};
const struct mmpi_coll_algo mmpi_inter_allreduce_algo = {NULL, allreduce_read, NULL};
const struct mmpi_coll_algo mmpi_inter_reduce_scatter_algo = {NULL, reduce_scatter_read, NULL};
