/*
 * io/shared.c: the shared file pointer (MPI-4.1 §14.4.4): a counter in the file's core, in
 * etype units of the view (every member must use the same view for shared access).
 *
 * Independent access (read_shared, write_shared and their nonblocking forms) claims its range
 * with one atomic compare-and-swap: no lock, no peer involved, serialized in some order as the
 * standard requires; a range that does not fit in the view (view.c's limit) is refused and the
 * pointer stays.
 *
 * Ordered access and MPI_File_seek_shared are collective. The members first meet on the board
 * (an allgather of their sizes, or of their offset and whence): no member waits for a
 * particular peer, and a dead member makes the meeting fail, never hang. Then each member
 * claims: the first to take the core's lock for collective operation number s (each member
 * counts its own collective shared-pointer operations: f->shared_seq) moves the pointer and
 * records where it was, and whether the move was refused, in claim_base[s % 2] and
 * claim_err[s % 2]; the others read that slot, so every member has the same outcome. Two slots suffice: a member can start
 * claim s + 1 only after meeting every member for operation s + 1, which each does only after
 * its claim s, so nobody still needs slot s % 2 when claim s + 2 overwrites it. Rank r's range
 * in ordered access starts at the base plus the sizes of ranks 0..r-1 (a prefix sum over the
 * gathered sizes): rank order, as §14.4.4 requires, without a token passed rank to rank.
 */
#include <stdlib.h>
#include <string.h>

#include "datatype/datatype.h"
#include "io/io.h"

int mmpi_file_shared_claim(struct mmpi_file *f, MPI_Offset n, MPI_Offset *pos)
{
    /* A compare-and-swap rather than a fetch-and-add: a claim that does not fit must leave the
     * pointer where it is (a wrapped or saturated pointer would misplace every later claim). */
    MPI_Offset cur = __atomic_load_n(&f->core->shared_fp, __ATOMIC_ACQUIRE);
    do {
        if (mmpi_file_view_range(&f->view, cur, n) != MPI_SUCCESS)
            return MPI_ERR_ARG;
    } while (!__atomic_compare_exchange_n(&f->core->shared_fp, &cur, cur + n, true,
                                          __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
    *pos = cur;
    return MPI_SUCCESS;
}

int mmpi_file_shared_claim_collective(struct mmpi_file *f, MPI_Offset offset, int whence,
                                      MPI_Offset end, MPI_Offset *base)
{
    struct mmpi_file_core *core = f->core;
    uint64_t s = ++f->shared_seq;
    int err;
    pthread_mutex_lock(&core->lock);
    if (core->claimed < s) {
        /* The first member decides for all: they see the same pointer, so they would decide
         * alike, but only if nobody had moved it yet. */
        MPI_Offset cur = __atomic_load_n(&core->shared_fp, __ATOMIC_ACQUIRE), to;
        MPI_Offset from = whence == MPI_SEEK_SET ? 0 : whence == MPI_SEEK_CUR ? cur : end;
        err = mmpi_file_view_seek(&f->view, from, offset, &to);
        core->claimed = s;
        core->claim_base[s % 2] = cur;
        core->claim_err[s % 2] = err;
        if (err == MPI_SUCCESS)
            __atomic_store_n(&core->shared_fp, to, __ATOMIC_RELEASE);
    }
    *base = core->claim_base[s % 2];
    err = core->claim_err[s % 2];
    pthread_mutex_unlock(&core->lock);
    return err;
}

/* The prefix sum of ordered access: etypes of the members ranked below `me`, and of all. */
static int ordered_sums(const MPI_Offset *all, int size, int me, MPI_Offset *before,
                        MPI_Offset *total)
{
    *before = *total = 0;
    for (int i = 0; i < size; i++) {
        if (i == me)
            *before = *total;
        if (__builtin_add_overflow(*total, all[i], total))
            return MPI_ERR_ARG; /* the same at every member: they sum the same values */
    }
    return MPI_SUCCESS;
}

int mmpi_file_ordered(struct mmpi_rank *self, struct mmpi_file *f, const struct mmpi_file_op *op,
                      MPI_Status *status)
{
    int size = f->comm->core->size, me = f->comm->rank;
    MPI_Offset n = mmpi_file_view_etypes(&f->view, op->dt, op->count * op->dt->size);
    MPI_Offset *all = mmpi_xmalloc((size_t)size * sizeof(*all));
    size_t bytes = 0;
    MPI_Offset before, total, base;
    int err = mmpi_file_allgather(self, f->comm, &n, sizeof(n), all);
    if (err == MPI_SUCCESS)
        err = ordered_sums(all, size, me, &before, &total);
    if (err == MPI_SUCCESS)
        err = mmpi_file_shared_claim_collective(f, total, MPI_SEEK_CUR, 0, &base);
    if (err == MPI_SUCCESS)
        err = mmpi_file_transfer(f, &f->view, op->write, base + before, op->buf, op->count, op->dt,
                                 &bytes);
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

int mmpi_file_seek_shared(struct mmpi_rank *self, struct mmpi_file *f, MPI_Offset offset,
                          int whence)
{
    /* A collective of every member (§14.4.4), a failed one too: its meeting completes with
     * MPI_ERR_PROC_FAILED by the board's rule, and the pointer is then undefined, as after
     * any failed shared-pointer operation. The members compare the arguments they passed,
     * not the positions these resolve to (§14.4.4: "the same values for offset and whence"). */
    struct seek_args {
        MPI_Offset offset;
        int whence;
    } mine, *all = mmpi_xcalloc((size_t)f->comm->core->size, sizeof(*all));
    memset(&mine, 0, sizeof(mine)); /* the padding is compared too */
    mine.offset = offset;
    mine.whence = whence;
    MPI_Offset end = 0, base;
    int err = mmpi_file_allgather(self, f->comm, &mine, sizeof(mine), all);
    for (int i = 0; err == MPI_SUCCESS && i < f->comm->core->size; i++)
        if (memcmp(&all[i], &mine, sizeof(mine)))
            err = MPI_ERR_NOT_SAME;
    free(all);
    if (err == MPI_SUCCESS && whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR &&
        whence != MPI_SEEK_END)
        err = MPI_ERR_ARG;
    if (err == MPI_SUCCESS && whence == MPI_SEEK_END)
        err = mmpi_file_view_end(f, &end);
    if (err == MPI_SUCCESS)
        err = mmpi_file_shared_claim_collective(f, offset, whence, end, &base);
    mmpi_file_pointer_failed(self, f, MMPI_FP_SHARED, err);
    return err;
}
