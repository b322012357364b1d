/*
 * io/shared.c: the shared file pointer (MPI-4.1 §14.4.4): a counter in the file's core, in
 * etype units of the view (every member must use the same view for shared access).
 *
 * Independent access (read_shared, write_shared and their nonblocking forms) claims its range
 * with one atomic fetch-and-add: no lock, no peer involved, serialized in some order as the
 * standard requires.
 *
 * Ordered access and MPI_File_seek_shared are collective. The members first meet on the board
 * (an allgather of their sizes, or of their new positions): no member waits for a particular
 * peer, and a dead member makes the meeting fail, never hang. Then each member claims: the
 * first to take the core's lock for collective operation number s (each member counts its own
 * collective shared-pointer operations: f->shared_seq) moves the pointer and records where it
 * was in claim_base[s % 2]; the others read that slot. Two slots suffice: a member can start
 * claim s + 1 only after meeting every member for operation s + 1, which each does only after
 * its claim s, so nobody still needs slot s % 2 when claim s + 2 overwrites it. Rank r's range
 * in ordered access starts at the base plus the sizes of ranks 0..r-1 (a prefix sum over the
 * gathered sizes): rank order, as §14.4.4 requires, without a token passed rank to rank.
 */
#include <stdlib.h>

#include "datatype/datatype.h"
#include "io/io.h"

MPI_Offset mmpi_file_shared_claim(struct mmpi_file *f, MPI_Offset n)
{
    return __atomic_fetch_add(&f->core->shared_fp, n, __ATOMIC_ACQ_REL);
}

MPI_Offset mmpi_file_shared_claim_collective(struct mmpi_file *f, MPI_Offset value,
                                             bool relative)
{
    struct mmpi_file_core *core = f->core;
    uint64_t s = ++f->shared_seq;
    MPI_Offset base;
    pthread_mutex_lock(&core->lock);
    if (core->claimed < s) {
        core->claimed = s;
        base = __atomic_load_n(&core->shared_fp, __ATOMIC_ACQUIRE);
        core->claim_base[s % 2] = base;
        __atomic_store_n(&core->shared_fp, relative ? base + value : value, __ATOMIC_RELEASE);
    } else
        base = core->claim_base[s % 2];
    pthread_mutex_unlock(&core->lock);
    return base;
}

int mmpi_file_ordered(struct mmpi_rank *self, struct mmpi_file *f, const struct mmpi_file_op *op,
                      MPI_Status *status)
{
    int size = f->comm->core->size, me = f->comm->rank;
    MPI_Offset n = mmpi_file_view_etypes(&f->view, op->dt, op->count * op->dt->size);
    MPI_Offset *all = mmpi_xmalloc((size_t)size * sizeof(*all));
    size_t bytes = 0;
    int err = mmpi_file_allgather(self, f->comm, &n, sizeof(n), all);
    if (err == MPI_SUCCESS) {
        MPI_Offset before = 0, total = 0;
        for (int i = 0; i < size; i++) {
            if (i < me)
                before += all[i];
            total += all[i];
        }
        MPI_Offset base = mmpi_file_shared_claim_collective(f, total, true);
        err = mmpi_file_transfer(f, &f->view, op->write, base + before, op->buf, op->count, op->dt,
                                 &bytes);
    }
    free(all);
    mmpi_file_pointer_failed(self, f, MMPI_FP_ORDERED, err);
    if (status != MPI_STATUS_IGNORE) {
        status->MPI_SOURCE = MPI_ANY_SOURCE;
        status->MPI_TAG = MPI_ANY_TAG;
        status->mmpi_cancelled = 0;
        status->mmpi_count = (long long)bytes;
    }
    return err;
}

int mmpi_file_seek_shared(struct mmpi_rank *self, struct mmpi_file *f, MPI_Offset pos)
{
    /* With a failed member the meeting could never complete; the fault-tolerance chapter
     * tells users to call seek_shared to give the pointer a defined state again after a
     * failure, so the survivors set it without meeting (fault.c). */
    if (mmpi_file_check_revoked(f))
        return MPI_ERR_REVOKED;
    if (mmpi_file_member_failed(self, f)) {
        mmpi_file_seek_shared_degraded(f, pos);
        return MPI_SUCCESS;
    }
    int size = f->comm->core->size;
    MPI_Offset *all = mmpi_xmalloc((size_t)size * sizeof(*all));
    int err = mmpi_file_allgather(self, f->comm, &pos, sizeof(pos), all);
    for (int i = 0; err == MPI_SUCCESS && i < size; i++)
        if (all[i] != pos)
            err = MPI_ERR_NOT_SAME; /* §14.4.4: the same offset and whence at every member */
    free(all);
    if (err == MPI_SUCCESS)
        mmpi_file_shared_claim_collective(f, pos, false);
    mmpi_file_pointer_failed(self, f, MMPI_FP_SHARED, err);
    return err;
}
