/*
 * create.c: communicator creation and release (create.h). The last member to arrive on the
 * parent's board runs a combine step that builds every new core (a dup builds one; a split one
 * per colour), each created with one reference per member that will hold a handle to it.
 */
#include "comm/create.h"

#include <stdlib.h>
#include <string.h>

#include "coll/board.h"
#include "topo/topo.h"

struct mmpi_comm *mmpi_comm_handle_object(struct mmpi_comm *parent, struct mmpi_comm_core *core,
                                          int rank)
{
    struct mmpi_comm_member r = {core, rank};
    struct mmpi_comm *c = mmpi_xcalloc(1, sizeof(*c));
    c->core = r.core;
    c->rank = r.rank;
    c->handle = MPI_COMM_NULL;
    /* Error handlers are inherited (MPI-4.1 §9.3.1); an unset MPI_COMM_SELF one means the
     * initial handler. */
    c->errhandler = parent->errhandler ? parent->errhandler : mmpi_errhandler_initial();
    mmpi_errhandler_retain(c->errhandler);
    return c;
}

int mmpi_comm_create_on_board(struct mmpi_rank *self, struct mmpi_comm *parent,
                              mmpi_board_combine_fn *combine, const void *deposit,
                              struct mmpi_comm **out)
{
    struct mmpi_comm_core *pc = parent->core;
    struct mmpi_board_instance *inst =
        mmpi_board_arrive(pc, parent->coll_seq++, parent->rank, deposit, combine);
    int err = mmpi_board_wait_arrived(self, pc, inst);
    *out = NULL;
    if (err == MPI_SUCCESS && !inst->result)
        err = MPI_ERR_REVOKED; /* a combine that saw the revoke builds nothing */
    if (err == MPI_SUCCESS) {
        struct mmpi_comm_member r = ((struct mmpi_comm_member *)inst->result)[parent->rank];
        if (r.core)
            *out = mmpi_comm_handle_object(parent, r.core, r.rank);
    }
    mmpi_board_leave(pc, inst);
    return err;
}

static void dup_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    int *ranks = mmpi_xmalloc((size_t)pc->size * sizeof(int));
    memcpy(ranks, pc->world_ranks, (size_t)pc->size * sizeof(int));
    struct mmpi_comm_core *core = mmpi_comm_core_new(pc->size, ranks);
    core->refcount = pc->size;
    core->topo = mmpi_topo_retain(pc->topo); /* a dup keeps the topology (MPI-4.1 §8.4) */
    struct mmpi_comm_member *res = mmpi_xcalloc((size_t)pc->size, sizeof(*res));
    for (int i = 0; i < pc->size; i++)
        res[i] = (struct mmpi_comm_member){core, i};
    inst->result = res;
}

int mmpi_comm_dup(struct mmpi_rank *self, struct mmpi_comm *parent, struct mmpi_comm **out)
{
    return mmpi_comm_create_on_board(self, parent, dup_combine, NULL, out);
}

struct split_arg {
    int color, key, rank;
};

static int split_order(const void *a, const void *b)
{
    const struct split_arg *x = a, *y = b;
    if (x->color != y->color)
        return x->color < y->color ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static void split_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    int n = pc->size;
    struct split_arg *args = mmpi_xmalloc((size_t)n * sizeof(*args));
    for (int i = 0; i < n; i++) {
        args[i] = *(const struct split_arg *)mmpi_board_deposit(inst, i);
        args[i].rank = i;
    }
    qsort(args, (size_t)n, sizeof(*args), split_order);
    struct mmpi_comm_member *res = mmpi_xcalloc((size_t)n, sizeof(*res));
    for (int first = 0; first < n;) {
        int last = first;
        while (last < n && args[last].color == args[first].color)
            last++;
        if (args[first].color != MPI_UNDEFINED) {
            int size = last - first;
            int *ranks = mmpi_xmalloc((size_t)size * sizeof(int));
            for (int j = 0; j < size; j++)
                ranks[j] = pc->world_ranks[args[first + j].rank];
            struct mmpi_comm_core *core = mmpi_comm_core_new(size, ranks);
            core->refcount = size;
            for (int j = 0; j < size; j++)
                res[args[first + j].rank] = (struct mmpi_comm_member){core, j};
        }
        first = last;
    }
    free(args);
    inst->result = res;
}

int mmpi_comm_split(struct mmpi_rank *self, struct mmpi_comm *parent, int color, int key,
                    struct mmpi_comm **out)
{
    struct split_arg arg = {color, key, parent->rank};
    return mmpi_comm_create_on_board(self, parent, split_combine, &arg, out);
}

int mmpi_comm_register(struct mmpi_rank *self, struct mmpi_comm *c, MPI_Comm *handle)
{
    c->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_COMM, c);
    if (c->handle == MPI_COMM_NULL) {
        mmpi_comm_core_release(c->core);
        mmpi_errhandler_release(c->errhandler);
        free(c);
        return MPI_ERR_NO_MEM;
    }
    *handle = c->handle;
    return MPI_SUCCESS;
}

void mmpi_comm_release(struct mmpi_rank *self, struct mmpi_comm *c)
{
    mmpi_handle_remove(self, MMPI_HANDLE_KIND_COMM, c->handle);
    mmpi_comm_core_release(c->core);
    mmpi_errhandler_release(c->errhandler);
    free(c->acked);
    free(c);
}
