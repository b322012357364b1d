/*
 * io/meeting.c: the members' meeting of a collective file call: its private communicator's
 * collective board (coll/board.h), through the library's internal collectives, never the MPI_
 * entry points (no argument checks, no user error handler mid-way). Every collective file call
 * (open, close, set_view, sync, set_size, a collective access) meets here and nowhere else. The
 * board owns what happens when a member fails or the communicator is revoked, and the cut of
 * `kill R during CALL`: these helpers only fill the parts. Everything moved is bytes
 * (MPI_BYTE). A meeting on a revoked communicator (a revoked file, io/file_fault.c) fails at
 * once and touches no board: after a revoke the members may have started different numbers of
 * meetings, so their instances no longer pair up.
 */
#include <string.h>

#include "coll/board.h"
#include "coll/coll.h"
#include "datatype/datatype.h"
#include "fault/fault.h"
#include "io/io.h"
#include "pt2pt/request.h"

struct mmpi_request *mmpi_file_meet_start(struct mmpi_rank *self, struct mmpi_file *f)
{
    return mmpi_coll_ibarrier_start(self, f->comm);
}

static bool revoked(const struct mmpi_comm *c)
{
    return mmpi_fault_revoked(&c->core->fault);
}

struct meeting_wait {
    struct mmpi_rank *self;
    struct mmpi_comm_core *core;
    struct mmpi_board_instance *inst;
    mmpi_wait_describe_fn *describe;
    const void *what;
    int result;
};

static bool meeting_ready(void *arg)
{
    struct meeting_wait *m = arg;
    m->result = mmpi_board_test_arrived(m->self, m->core, m->inst);
    return m->result != -1;
}

static void meeting_describe(const void *arg, char *buf, size_t len)
{
    const struct meeting_wait *m = arg;
    m->describe(m->what, buf, len);
}

int mmpi_file_meet(struct mmpi_rank *self, struct mmpi_comm *c, mmpi_wait_describe_fn *describe,
                   const void *what)
{
    if (revoked(c))
        return MPI_ERR_REVOKED;
    /* The board's own wait (not a request's), from the caller's frame: nothing is allocated,
     * so a rank killed while it waits leaves nothing behind. */
    struct mmpi_comm_core *core = c->core;
    struct mmpi_board_instance *inst = mmpi_board_arrive(core, c->coll_seq++, c->rank, NULL, NULL);
    int err;
    if (describe) {
        struct meeting_wait m = {self, core, inst, describe, what, -1};
        mmpi_wait_until_described(self, meeting_ready, &m, meeting_describe);
        err = m.result;
    } else {
        err = mmpi_board_wait_arrived(self, core, inst);
    }
    mmpi_board_leave(core, inst, c->rank);
    return err;
}

int mmpi_file_barrier(struct mmpi_rank *self, struct mmpi_comm *c)
{
    /* Described as any collective: its number, the file's communicator with the file's
     * pointers (io/file.c), and the members yet to arrive. */
    return mmpi_file_meet(self, c, NULL, NULL);
}

int mmpi_file_allgather(struct mmpi_rank *self, struct mmpi_comm *c, const void *mine,
                        size_t bytes, void *all)
{
    if (revoked(c))
        return MPI_ERR_REVOKED;
    struct mmpi_coll x;
    memset(&x, 0, sizeof(x));
    x.send.buf = (char *)mine;
    x.send.count = bytes;
    x.send.dt = mmpi_datatype_get(self, MPI_BYTE);
    x.recv.buf = all;
    x.recv.count = bytes;
    x.recv.dt = x.send.dt;
    return mmpi_allgather(self, c, &x, NULL);
}

int mmpi_file_bcast(struct mmpi_rank *self, struct mmpi_comm *c, void *buf, size_t bytes,
                    int root)
{
    if (revoked(c))
        return MPI_ERR_REVOKED;
    struct mmpi_coll x;
    memset(&x, 0, sizeof(x));
    x.recv.buf = buf;
    x.recv.count = bytes;
    x.recv.dt = mmpi_datatype_get(self, MPI_BYTE);
    x.root = root;
    return mmpi_bcast(self, c, &x, NULL);
}
