/*
 * io/aggregate.c: collective reads and writes through non-contiguous views, coalesced. When the
 * members' pieces interleave in the file (a strided view: each member's 4 KiB blocks between
 * the others'), accessing each member's own pieces costs one pread or pwrite per piece. All
 * members are threads of one process, so after the members met, each aggregator accesses one
 * contiguous part of the file (its domain: the accessed range cut in as many equal parts as
 * there are aggregators) for the pieces of every member that fall into it, straight into or
 * from their buffers, with one preadv or pwritev per run of adjacent pieces (the two phases of
 * two-phase I/O without the exchange). Below, "write" stands for either; a read is coalesced
 * only when the whole range lies within the file as the caller finds it (an aggregator's
 * short read fails its domain, and then each member reads its own data itself, end of file
 * and all).
 *
 * Nothing here waits for a member that is not inside the same call: the meeting (request.c)
 * came first, and every wait below is for members that passed it and are finishing the same
 * call. A member must not return while an aggregator may still read its buffer, and the data
 * of every member that completes must be in the file, whatever happens to the others:
 *
 * - Before the meeting every member deposits its access in the file core (slot seq % 2 of
 *   core->agg: the collective's number, equal at every member): its buffer, view, stream range
 *   and file extent, in state DEPOSITED, or SELF when it has one contiguous piece (or data an
 *   aggregator cannot take: a non-contiguous memory type, external32 or a registered
 *   representation, atomic mode) and writes it itself.
 * - After the meeting a member moves to WAITING (its buffer stays valid until it returns) or,
 *   when the meeting failed at it (a `kill R during` cut), to ABANDONED and returns its error.
 * - The aggregator of a domain waits until no DEPOSITED member is left (each has become
 *   WAITING, ABANDONED, or has failed), writes the pieces of the WAITING ones, and marks its
 *   domain done (or failed, after a write error).
 * - A WAITING member waits until every domain is done or failed, or its owner abandoned or
 *   failed, and writes its own pieces of those itself: its data is then in the file and its
 *   buffer no longer read, so it may return.
 * Each change of a member's state or domain wakes the members; after a failure only a change
 * that may end one of these waits does (settle()).
 * Slot reuse (two slots suffice): a member deposits for collective s + 2 only after meeting
 * every member at s + 1, which each does only after finishing s. Entries carry s, so an entry
 * left over from an older collective is never read as current.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "comm/info.h"
#include "datatype/datatype.h"
#include "fault/fault.h"
#include "io/io.h"

enum { AGG_NONE, AGG_DEPOSITED, AGG_SELF, AGG_WAITING, AGG_ABANDONED };

/* From this many bytes per piece (on average) a member accesses its own pieces. */
#define AGG_PIECE_MAX ((uint64_t)256 << 10)

static struct mmpi_file_agg *entry(struct mmpi_file_core *core, uint64_t seq, int i)
{
    return &core->agg[(seq % 2) * (size_t)core->size + (size_t)i];
}

/* The state of member i's entry for collective seq (AGG_NONE: none yet, or a stale one). */
static int state_of(struct mmpi_file_core *core, uint64_t seq, int i)
{
    struct mmpi_file_agg *e = entry(core, seq, i);
    if (__atomic_load_n(&e->seq, __ATOMIC_ACQUIRE) != seq)
        return AGG_NONE;
    return __atomic_load_n(&e->state, __ATOMIC_ACQUIRE);
}

static bool failed(struct mmpi_file_core *core, int i)
{
    return mmpi_fault_any(mmpi_world) &&
           mmpi_fault_world_rank_failed(mmpi_world, core->world_ranks[i]);
}

static void wake_members(struct mmpi_file_core *core)
{
    for (int i = 0; i < core->size; i++)
        mmpi_rank_wake(mmpi_world->ranks[core->world_ranks[i]]);
}

/* The aggregators of collective seq as a member past the meeting counts them: member 0's
 * cb_nodes hint (the meeting completes only once every member has deposited, so the first
 * deposit mmpi_file_agg_access finds is member 0's); -1 while member 0's deposit is not seen. */
static int aggregators_of(struct mmpi_file_core *core, uint64_t seq)
{
    struct mmpi_file_agg *e = entry(core, seq, 0);
    return __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE) == seq ? e->aggregators : -1;
}

struct agg_watch {
    struct mmpi_file_core *core;
    uint64_t seq;
    int aggregators;
};

/* Member i still owes the aggregators its outcome (outcomes_known waits for it). */
static bool still_deposited(const void *arg, int i)
{
    const struct agg_watch *w = arg;
    return state_of(w->core, w->seq, i) == AGG_DEPOSITED;
}

/* Domain i is still to be written by its owner (domains_settled waits for it). */
static bool domain_open(const void *arg, int i)
{
    const struct agg_watch *w = arg;
    if (i >= w->aggregators)
        return false;
    struct mmpi_file_agg *e = entry(w->core, w->seq, i);
    return __atomic_load_n(&e->domain_seq, __ATOMIC_ACQUIRE) != w->seq &&
           state_of(w->core, w->seq, i) != AGG_ABANDONED;
}

/* After member `me` settled something (`outcome`: it left DEPOSITED; `domain`: its domain is
 * done, or it abandoned as a domain's owner), wakes the members if that may end a wait. Without
 * a failure every change wakes them all. After one, a change that leaves a live member to wait
 * for ends no wait (mmpi_fault_answer_settles, the rule the collectives follow): waking every
 * member at each of n changes costs n^2 wake-ups, which at 256 members, when a death makes
 * every survivor abandon, hold back the publication's own wake-ups of that death. A death
 * wakes every rank itself, and of two members settling together one sees the other. */
static void settle(struct mmpi_file_core *core, uint64_t seq, int me, bool outcome, bool domain)
{
    if (!mmpi_fault_any(mmpi_world)) {
        wake_members(core);
        return;
    }
    struct agg_watch w = {core, seq, aggregators_of(core, seq)};
    if (w.aggregators < 0 || /* member 0's deposit not seen yet: wake, to be safe */
        (outcome && mmpi_fault_answer_settles(mmpi_world, core->world_ranks, core->size,
                                              still_deposited, &w, me + 1)) ||
        (domain && me < w.aggregators &&
         mmpi_fault_answer_settles(mmpi_world, core->world_ranks, core->size, domain_open, &w,
                                   me + 1)))
        wake_members(core);
}

static void set_state(struct mmpi_file_core *core, uint64_t seq, int i, int state)
{
    bool was_deposited = state_of(core, seq, i) == AGG_DEPOSITED;
    __atomic_store_n(&entry(core, seq, i)->state, state, __ATOMIC_RELEASE);
    settle(core, seq, i, was_deposited, state == AGG_ABANDONED);
}

/* The first stream byte of e's range that lies at or after file offset off (e->n if none). */
static uint64_t first_at(const struct mmpi_file_agg *e, MPI_Offset off)
{
    uint64_t lo = 0, hi = e->n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2, contig;
        MPI_Offset o;
        mmpi_file_view_map(e->view, e->start + mid, &o, &contig);
        if (o < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

struct piece {
    MPI_Offset off;
    const char *mem;
    size_t len;
};

/* Appends e's pieces lying in [dlo, dhi) to *ps. */
static void collect(const struct mmpi_file_agg *e, MPI_Offset dlo, MPI_Offset dhi,
                    struct piece **ps, size_t *n, size_t *cap)
{
    for (uint64_t b = first_at(e, dlo); b < e->n;) {
        MPI_Offset off;
        uint64_t contig;
        mmpi_file_view_map(e->view, e->start + b, &off, &contig);
        if (off >= dhi)
            break;
        uint64_t len = e->n - b < contig ? e->n - b : contig;
        if ((uint64_t)(dhi - off) < len)
            len = (uint64_t)(dhi - off);
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 256;
            *ps = realloc(*ps, *cap * sizeof(**ps));
            if (!*ps)
                mmpi_die("realloc");
        }
        (*ps)[(*n)++] = (struct piece){off, e->mem + b, (size_t)len};
        b += len;
    }
}

static int by_offset(const void *a, const void *b)
{
    MPI_Offset x = ((const struct piece *)a)->off, y = ((const struct piece *)b)->off;
    return x < y ? -1 : x > y;
}

enum { MAXIOV = IOV_MAX < 1024 ? IOV_MAX : 1024 };

/* The run of adjacent pieces from ps[i] on (sorted by offset), at most MAXIOV, as iov; returns
 * how many pieces it holds and sets *total to its bytes. */
static size_t adjacent_run(const struct piece *ps, size_t n, size_t i, struct iovec *iov,
                           size_t *total)
{
    size_t k = 0;
    *total = 0;
    while (i + k < n && k < MAXIOV && ps[i + k].off == ps[i].off + (MPI_Offset)*total) {
        iov[k] = (struct iovec){(void *)ps[i + k].mem, ps[i + k].len};
        *total += ps[i + k].len;
        k++;
    }
    return k;
}

/* Writes what a short pwritev of the run (iov[0..k), pieces ps[0..k)) left after `done` bytes,
 * piece by piece. */
static int write_rest(int fd, const struct iovec *iov, size_t k, const struct piece *ps,
                      size_t done)
{
    for (size_t j = 0; j < k; j++) {
        if (done >= iov[j].iov_len) {
            done -= iov[j].iov_len;
            continue;
        }
        int err = mmpi_file_pwrite_all(fd, (const char *)iov[j].iov_base + done,
                                       iov[j].iov_len - done, ps[j].off + (MPI_Offset)done);
        if (err != MPI_SUCCESS)
            return err;
        done = 0;
    }
    return MPI_SUCCESS;
}

/* Writes or reads the pieces (sorted by offset): one pwritev or preadv per run of adjacent
 * ones. A short write is finished piece by piece; a short read (the file ended) is
 * MPI_ERR_IO, which fails the domain (its members then read for themselves). */
static int move_pieces(int fd, const struct piece *ps, size_t n, bool write)
{
    struct iovec iov[MAXIOV];
    for (size_t i = 0; i < n;) {
        size_t total, k = adjacent_run(ps, n, i, iov, &total);
        ssize_t r;
        do
            r = write ? pwritev(fd, iov, (int)k, ps[i].off) : preadv(fd, iov, (int)k, ps[i].off);
        while (r < 0 && errno == EINTR);
        if (r < 0)
            return mmpi_file_errno_class(errno);
        if ((size_t)r < total) {
            int err = write ? write_rest(fd, iov, k, ps + i, (size_t)r) : MPI_ERR_IO;
            if (err != MPI_SUCCESS)
                return err;
        }
        i += k;
    }
    return MPI_SUCCESS;
}

bool mmpi_file_agg_deposit(struct mmpi_file *f, uint64_t seq, const struct mmpi_file_op *op,
                           MPI_Offset pos)
{
    struct mmpi_file_core *core = f->core;
    struct mmpi_file_agg *e = entry(core, seq, f->comm->rank);
    const struct mmpi_file_view *v = &f->view;
    uint64_t n = (uint64_t)op->count * op->dt->size;
    int state = AGG_SELF;
    e->n = 0;
    /* Hints, as ROMIO names them: cb_nodes aggregators (every member uses the first
     * member's), romio_cb_write=disable and romio_cb_read=disable turn coalescing off. */
    const char *cb = mmpi_info_lookup(f->info, op->write ? "romio_cb_write" : "romio_cb_read");
    const char *nodes = mmpi_info_lookup(f->info, "cb_nodes");
    int a = nodes ? atoi(nodes) : 0;
    e->aggregators = a < 1 ? 1 : a > core->size ? core->size : a;
    if ((!cb || strcmp(cb, "disable")) && n > 0 && op->dt->contiguous && !v->external32 &&
        !v->user && !f->atomic && core->size > 1) {
        uint64_t start = (uint64_t)pos * v->esize, contig, last_contig, b = 0;
        MPI_Offset lo, last, off;
        mmpi_file_view_map(v, start, &lo, &contig);
        mmpi_file_view_map(v, start + n - 1, &last, &last_contig);
        /* Pieces of a few KiB (judged by the first 16) interleaved with the others' are worth
         * coalescing; a single piece, or big ones, the member writes faster itself. */
        int pieces = 0;
        while (b < n && pieces < 16) {
            mmpi_file_view_map(v, start + b, &off, &contig);
            b += n - b < contig ? n - b : contig;
            pieces++;
        }
        struct stat st;
        if (pieces > 1 && b / (uint64_t)pieces < AGG_PIECE_MAX &&
            (op->write || (fstat(core->fd, &st) == 0 && st.st_size > last))) {
            e->mem = (const char *)op->buf + op->dt->true_lb;
            e->view = v;
            e->start = start;
            e->n = n;
            e->lo = lo;
            e->hi = last + 1;
            state = AGG_DEPOSITED;
        }
    }
    e->state = state;
    __atomic_store_n(&e->seq, seq, __ATOMIC_RELEASE);
    return state == AGG_DEPOSITED;
}

void mmpi_file_agg_abandon(struct mmpi_file *f, uint64_t seq)
{
    set_state(f->core, seq, f->comm->rank, AGG_ABANDONED);
}

struct agg_wait {
    struct mmpi_file *f;
    uint64_t seq;
    int aggregators;
};

/* Aggregator: no member is still between its deposit and its outcome. */
static bool outcomes_known(void *arg)
{
    struct agg_wait *a = arg;
    struct mmpi_file_core *core = a->f->core;
    for (int i = 0; i < core->size; i++)
        if (state_of(core, a->seq, i) == AGG_DEPOSITED && !failed(core, i))
            return false;
    return true;
}

/* Whether domain d needs nothing more from anyone: done, failed, or its owner gone. */
static bool domain_settled(struct mmpi_file_core *core, uint64_t seq, int d)
{
    struct mmpi_file_agg *e = entry(core, seq, d);
    if (__atomic_load_n(&e->domain_seq, __ATOMIC_ACQUIRE) == seq)
        return true;
    return state_of(core, seq, d) == AGG_ABANDONED || failed(core, d);
}

static bool domains_settled(void *arg)
{
    struct agg_wait *a = arg;
    for (int d = 0; d < a->aggregators; d++)
        if (!domain_settled(a->f->core, a->seq, d))
            return false;
    return true;
}

static void describe_agg(const void *arg, char *buf, size_t len)
{
    const struct agg_wait *a = arg;
    snprintf(buf, len, "collective access to file %s: coalescing the members' pieces "
                       "(individual pointer %lld)",
             a->f->core->path, (long long)a->f->fp);
}

int mmpi_file_agg_access(struct mmpi_rank *self, struct mmpi_file *f, uint64_t seq,
                         const struct mmpi_file_op *op, MPI_Offset pos, size_t *bytes)
{
    struct mmpi_file_core *core = f->core;
    int me = f->comm->rank, size = core->size;
    /* The extent of everything to coalesce: the same at every member (from the deposits). */
    MPI_Offset lo = 0, hi = 0;
    bool any = false;
    int aggregators = 0;
    for (int i = 0; i < size; i++) {
        struct mmpi_file_agg *e = entry(core, seq, i);
        if (__atomic_load_n(&e->seq, __ATOMIC_ACQUIRE) != seq)
            continue;
        if (!aggregators)
            aggregators = e->aggregators;
        if (e->n == 0)
            continue;
        if (!any || e->lo < lo)
            lo = e->lo;
        if (!any || e->hi > hi)
            hi = e->hi;
        any = true;
    }
    bool mine = state_of(core, seq, me) == AGG_DEPOSITED;
    int err = MPI_SUCCESS;
    *bytes = 0;
    if (!mine) /* SELF: my own data, my own way */
        err = mmpi_file_transfer(f, &f->view, op->write, pos, op->buf, op->count, op->dt,
                                 bytes);
    else
        set_state(core, seq, me, AGG_WAITING);
    if (!any)
        return err;

    /* My domain (members ranked from `aggregators` on have none). */
    MPI_Offset dsize = (hi - lo + aggregators - 1) / aggregators;
    dsize = (dsize + 4095) / 4096 * 4096;
    MPI_Offset dlo = lo + (MPI_Offset)me * dsize, dhi = dlo + dsize < hi ? dlo + dsize : hi;
    if (me >= aggregators)
        dlo = dhi = hi;
    struct agg_wait a = {f, seq, aggregators};
    mmpi_wait_until_described(self, outcomes_known, &a, describe_agg);
    int derr = MPI_SUCCESS;
    if (dlo < dhi) {
        struct piece *ps = NULL;
        size_t n = 0, cap = 0;
        for (int i = 0; i < size; i++)
            if (state_of(core, seq, i) == AGG_WAITING && entry(core, seq, i)->n > 0)
                collect(entry(core, seq, i), dlo, dhi, &ps, &n, &cap);
        qsort(ps, n, sizeof(*ps), by_offset);
        derr = move_pieces(core->fd, ps, n, op->write);
        free(ps);
    }
    /* Done, or failed: then each member writes its own pieces of it (and meets the error). */
    struct mmpi_file_agg *de = entry(core, seq, me);
    __atomic_store_n(&de->domain_ok, derr == MPI_SUCCESS, __ATOMIC_RELAXED);
    __atomic_store_n(&de->domain_seq, seq, __ATOMIC_RELEASE);
    settle(core, seq, me, false, true);
    if (!mine)
        return err;

    /* My data: in every domain done by its aggregator, or else written by me. */
    mmpi_wait_until_described(self, domains_settled, &a, describe_agg);
    const struct mmpi_file_agg *e = entry(core, seq, me);
    if (!op->write) { /* read: all of it again myself, where the file ends too, if any failed */
        for (int d = 0; d < aggregators; d++) {
            const struct mmpi_file_agg *o = entry(core, seq, d);
            if (__atomic_load_n(&o->domain_seq, __ATOMIC_ACQUIRE) != seq ||
                !__atomic_load_n(&o->domain_ok, __ATOMIC_RELAXED))
                return mmpi_file_transfer(f, &f->view, false, pos, op->buf, op->count, op->dt,
                                          bytes);
        }
        *bytes = (size_t)e->n;
        return MPI_SUCCESS;
    }
    for (int d = 0; d < aggregators && err == MPI_SUCCESS; d++) {
        const struct mmpi_file_agg *o = entry(core, seq, d);
        if (__atomic_load_n(&o->domain_seq, __ATOMIC_ACQUIRE) == seq &&
            __atomic_load_n(&o->domain_ok, __ATOMIC_RELAXED))
            continue;
        MPI_Offset l = lo + (MPI_Offset)d * dsize, h = l + dsize < hi ? l + dsize : hi;
        if (l >= h)
            continue;
        struct piece *ps = NULL;
        size_t n = 0, cap = 0;
        collect(e, l, h, &ps, &n, &cap);
        err = move_pieces(core->fd, ps, n, true);
        free(ps);
    }
    if (err == MPI_SUCCESS)
        *bytes = (size_t)e->n;
    return err;
}
