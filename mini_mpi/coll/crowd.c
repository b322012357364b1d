/*
 * coll/crowd.c: the blocking MPI_Barrier and small MPI_Allreduce of fast.h on communicators with
 * more members than CPUs. Owns the crowd block of a communicator (allocated on first use, kept
 * in its board, freed with it).
 *
 * With more members than CPUs a waiter yields its CPU to the members it waits for, and a
 * collective costs about one thread switch per member, which costs more the more memory the
 * thread touches per turn; the board (a lock taken twice per member, an instance, a wake-up
 * call per member) added 5-36% to that (docs/performance.md). Here a member arrives with one
 * store to its own line and one atomic add to a shared counter, and waits on one shared line
 * that the last arriver writes once:
 *   count  Σ over arrivals of 1 + (allreduce ? 2^32 : 0). A member's add returns the count with
 *          its arrival; minus `base` (the count when the previous crowd collective completed),
 *          its low 32 bits say how many members arrived at this one (== size: we are the last)
 *          and its high bits how many of them called MPI_Allreduce (0 or size, else the members
 *          called different collectives as this one).
 *   done   written by the last arriver: the collective's number, its outcome flags, the new
 *          base and, for an allreduce, the result folded from every member's slot.
 * A member reaches the next crowd collective only after `done` showed this one, so the count
 * of arrivals since `base` belongs to one collective, and `done`, `base` and the result are
 * rewritten only once every member has read them.
 *
 * That holds while every member returns only once the collective completed. A member that
 * returns MPI_ERR_PROC_FAILED because another member died without arriving may arrive at the
 * next collective while slower members still wait in this one: the count then mixes two
 * collectives. It can only do so on a communicator with a failed member, and any member that
 * sees its arrival in the count also sees that failure (the failure was published before the
 * early member read it, and the count's add orders the rest). So the count is trusted only
 * while no member of the communicator has failed (has_failed); from the first failure on, each
 * member decides from the members' own records, like fast.c: every `arrive` at this collective
 * means everyone arrived, a failed member missing means MPI_ERR_PROC_FAILED (deferred inside
 * the wait while live members may still arrive), and an allreduce folds the slots itself in
 * the same order as a last arriver would, so every member gets the same bits.
 *
 * The outcomes are the board's, decided in the same order (fast.c): all arrived wins over a
 * later revoke; a `kill R during` victim records its cut before arriving, everyone waits for
 * its death and members ranked above it fail; a mismatch (one member's barrier against
 * another's allreduce) is MPI_ERR_OTHER, reported by the first member that differs.
 */
#include "coll/crowd.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "coll/board.h"
#include "coll/coll.h"
#include "comm/comm.h"
#include "datatype/datatype.h"
#include "inject/inject.h"
#include "mmpi.h"
#include "op/op.h"
#include "runtime/wait.h"
#include "ulfm/ulfm.h"

#define CROWD_WORDS (MMPI_CROWD_BYTES / 8)
#define ALLREDUCE_ARRIVAL ((uint64_t)1 << 32)
#define CROWD_YIELDS 20 /* turns yielded before the common wait (runtime/wait.c) */

enum { CROWD_BARRIER = 1, CROWD_ALLREDUCE = 2 };
enum { CROWD_MISMATCH = 1, CROWD_CUT = 2 };

/* Written by every arrival. */
struct crowd_count {
    uint64_t count; /* atomic, see the top */
    uint32_t cut;   /* atomic: low 32 bits of seq+1 of a collective a `kill R during` victim
                     * cut, stored before its arrival (inject.h) */
} __attribute__((aligned(64)));

/* Written once per collective, by its last arriver, before `done`; read by every member. */
struct crowd_done {
    uint32_t done;  /* atomic: low 32 bits of seq+1 of the last collective published */
    uint32_t flags; /* CROWD_* of that collective */
    uint64_t base;  /* count when it completed */
    uint64_t result[CROWD_WORDS];
} __attribute__((aligned(64)));

/* Rarely written. */
struct crowd_rare {
    uint32_t sleepers;    /* atomic: members asleep in a crowd wait (wait.h) */
    uint64_t has_failed;  /* atomic cache of has_failed: world nfailed << 1 | answer */
} __attribute__((aligned(64)));

/* A member's line, written by the member only. */
struct crowd_rec {
    uint32_t arrive;  /* atomic: low 32 bits of seq+1 of the last crowd collective it reached */
    uint32_t cut;     /* atomic: low 32 bits of seq+1 of the collective it was killed `during` */
    uint32_t ncrowd;  /* owner only: crowd collectives so far (parity of kind[] and tag[]) */
    uint8_t kind[2];  /* CROWD_BARRIER or CROWD_ALLREDUCE, by parity */
    uint16_t tag[2];  /* atomic: seqlock of slot[parity], slot_tag of its collective, 0 while
                       * written; read only from a member's own fold (after a failure) */
    uint64_t slot[2][CROWD_WORDS]; /* atomic words: the packed allreduce input, by parity */
} __attribute__((aligned(64)));

struct mmpi_crowd {
    struct crowd_count count;
    struct crowd_done done;
    struct crowd_rare rare;
    struct crowd_rec rec[]; /* [size] */
};

_Static_assert(sizeof(struct crowd_rec) == 64, "one cache line per member");

/* First use on the communicator: allocates the block. */
static struct mmpi_crowd *first_block(struct mmpi_comm_core *core)
{
    struct mmpi_board *b = core->board;
    pthread_mutex_lock(&b->lock);
    struct mmpi_crowd *cr = b->crowd;
    if (!cr) {
        void *mem = NULL;
        size_t bytes = sizeof(*cr) + (size_t)core->size * sizeof(cr->rec[0]);
        if (posix_memalign(&mem, 64, bytes))
            mmpi_die("out of memory (%zu bytes)", bytes);
        memset(mem, 0, bytes);
        cr = mem;
        __atomic_store_n(&b->crowd, cr, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&b->lock);
    return cr;
}

static struct mmpi_crowd *block_of(struct mmpi_comm_core *core)
{
    struct mmpi_crowd *cr = __atomic_load_n(&core->board->crowd, __ATOMIC_ACQUIRE);
    return __builtin_expect(cr != NULL, 1) ? cr : first_block(core);
}

struct crowd_wait {
    struct mmpi_rank *self;
    struct mmpi_comm_core *core;
    struct mmpi_crowd *cr;
    uint64_t want;     /* seq + 1 */
    uint32_t want32;
    uint64_t base;     /* done.base when we arrived */
    int me, size;
    int kind;          /* CROWD_BARRIER or CROWD_ALLREDUCE */
    int parity;
    int result;        /* -1 while undecided */
    /* Allreduce: the fold (kernel, or x's op on packed data) and the result. */
    int words;
    mmpi_op_kernel *kernel;
    size_t n;
    const struct mmpi_coll *x;
    uint64_t acc[CROWD_WORDS];
    bool have_result;  /* acc holds the result (everyone arrived) */
};

/* A slot's seqlock tag for collective seq+1 = want: never 0 (the "being written" mark). */
static uint16_t slot_tag(uint64_t want)
{
    return (uint16_t)(want % 0xffff + 1);
}

static bool reached(uint32_t seen, uint32_t want32)
{
    return (int32_t)(seen - want32) >= 0;
}

static bool not_arrived(const void *arg, int i)
{
    const struct crowd_wait *w = arg;
    return !reached(__atomic_load_n(&w->cr->rec[i].arrive, __ATOMIC_ACQUIRE), w->want32);
}

static bool all_arrived(const struct crowd_wait *w)
{
    for (int i = 0; i < w->size; i++)
        if (not_arrived(w, i))
            return false;
    return true;
}

/* Whether a member of the communicator has failed: then the count is not trusted (see the
 * top). Scans the members once per change of the world's failure count. */
static bool has_failed(const struct crowd_wait *w)
{
    struct mmpi_world *world = w->self->world;
    uint64_t nf = (uint64_t)mmpi_fault_count(world);
    if (__builtin_expect(nf == 0, 1))
        return false;
    uint64_t cached = __atomic_load_n(&w->cr->rare.has_failed, __ATOMIC_ACQUIRE);
    if (cached >> 1 == nf)
        return cached & 1;
    /* A rank's failed flag is set before the world's count grows (fault/publish.c). */
    bool failed = false;
    for (int i = 0; i < w->size && !failed; i++)
        failed = mmpi_fault_is_failed(world->ranks[w->core->world_ranks[i]]);
    /* Only ever raised: a scan that began before a failure was flagged must not overwrite
     * the answer of one that saw it, for the same count (a flag is set before the count
     * grows, so both may see the same count). */
    uint64_t mine = nf << 1 | failed;
    while (cached < mine && !__atomic_compare_exchange_n(&w->cr->rare.has_failed, &cached, mine,
                                                         false, __ATOMIC_ACQ_REL,
                                                         __ATOMIC_ACQUIRE))
        ;
    return failed;
}

/* Everyone arrived and a `kill R during` victim cut the collective: -1 while it is still
 * alive (everyone leaves only once it is dead, as on the board), MPI_ERR_PROC_FAILED for
 * members ranked above it. */
static int cut_outcome(const struct crowd_wait *w)
{
    for (int i = 0; i < w->size; i++) {
        if (__atomic_load_n(&w->cr->rec[i].cut, __ATOMIC_ACQUIRE) != w->want32)
            continue;
        int outcome = mmpi_fault_cut_outcome(w->self, w->me, i, w->core->world_ranks[i]);
        if (outcome != MPI_SUCCESS)
            return outcome == MMPI_FAULT_CUT_WAIT ? -1 : outcome;
    }
    return MPI_SUCCESS;
}

static int kind_of(const struct crowd_wait *w, int i)
{
    return __atomic_load_n(&w->cr->rec[i].kind[w->parity], __ATOMIC_RELAXED);
}

static const char *kind_name(int kind)
{
    return kind == CROWD_BARRIER ? "MPI_Barrier" : "MPI_Allreduce";
}

/* Members called different collectives as this one: MPI_ERR_OTHER, reported once, by the
 * first member that differs from member 0, in the words of the board's report (board.c). */
static int mismatch(const struct crowd_wait *w)
{
    int first = kind_of(w, 0), odd = 1;
    while (odd < w->size && kind_of(w, odd) == first)
        odd++;
    if (odd == w->me)
        mmpi_board_print_mismatch(odd, w->size, kind_name(kind_of(w, odd)), false, w->want, 0,
                                  kind_name(first));
    return MPI_ERR_OTHER;
}

/* Folds every member's slot into acc, in rank order from the top (the board's snapshot order,
 * so that every member and every path get the same bits). `check`: verify the seqlock tags
 * (a member's own fold after a failure, when a writer may have gone on); false if torn. */
static bool fold_all(struct crowd_wait *w, bool check)
{
    uint16_t tag = slot_tag(w->want);
    uint64_t v[CROWD_WORDS];
    bool torn = false;
    for (int i = w->size - 1; i >= 0; i--) {
        const struct crowd_rec *r = &w->cr->rec[i];
        for (int k = 0; k < w->words; k++)
            v[k] = __atomic_load_n(&r->slot[w->parity][k], __ATOMIC_RELAXED);
        if (check) {
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            torn |= __atomic_load_n(&r->tag[w->parity], __ATOMIC_RELAXED) != tag;
        }
        if (i == w->size - 1)
            memcpy(w->acc, v, sizeof(v));
        else if (w->kernel)
            w->kernel(v, w->acc, w->n);
        else
            mmpi_op_apply_packed(w->x->op, v, NULL, w->acc, w->x->send.count, w->x->send.dt,
                                 w->x->dth);
    }
    return !torn;
}

/* Everyone arrived, judged from the records (after a failure): the outcome, -1 to wait on. A
 * member failed by a cut still gets the result, as on the board. */
static int outcome_from_records(struct crowd_wait *w)
{
    for (int i = 1; i < w->size; i++)
        if (kind_of(w, i) != kind_of(w, 0))
            return mismatch(w);
    if (w->kind == CROWD_ALLREDUCE) {
        if (!fold_all(w, true))
            return MPI_ERR_PROC_FAILED; /* a slot rewritten by a member gone on after a failure */
        w->have_result = true;
    }
    return cut_outcome(w);
}

/* `done` shows this collective: its outcome, -1 to wait on (a cut's victim still alive). */
static int outcome_published(struct crowd_wait *w)
{
    uint32_t flags = __atomic_load_n(&w->cr->done.flags, __ATOMIC_RELAXED);
    if (__builtin_expect(flags & CROWD_MISMATCH, 0))
        return mismatch(w);
    if (w->kind == CROWD_ALLREDUCE) {
        for (int k = 0; k < w->words; k++)
            w->acc[k] = __atomic_load_n(&w->cr->done.result[k], __ATOMIC_RELAXED);
        w->have_result = true;
    }
    return __builtin_expect(flags & CROWD_CUT, 0) ? cut_outcome(w) : MPI_SUCCESS;
}

/* The collective's outcome as the records show it now; -1 while it must be waited for. */
static int current_outcome(struct crowd_wait *w)
{
    struct mmpi_crowd *cr = w->cr;
    if (reached(__atomic_load_n(&cr->done.done, __ATOMIC_ACQUIRE), w->want32))
        return outcome_published(w);
    if (!has_failed(w)) {
        if (!mmpi_fault_revoked(&w->core->fault))
            return -1;
        /* All arrived wins over a later revoke: then the last arriver is publishing. */
        uint64_t count = __atomic_load_n(&cr->count.count, __ATOMIC_ACQUIRE);
        return (uint32_t)(count - w->base) >= (uint32_t)w->size ? -1 : MPI_ERR_REVOKED;
    }
    if (all_arrived(w))
        return outcome_from_records(w);
    if (mmpi_fault_revoked(&w->core->fault))
        return MPI_ERR_REVOKED;
    return mmpi_fault_missing_outcome(w->self, w->core->world_ranks, w->core->size,
                                      not_arrived, w);
}

/* The wait's condition: keeps the current outcome, true once there is one. */
static bool outcome_settled(void *arg)
{
    struct crowd_wait *w = arg;
    w->result = current_outcome(w);
    return w->result != -1;
}

/* The hang report's line of the wait: the members that have not arrived. */
static void describe_arrivals(const void *arg, char *buf, size_t len)
{
    const struct crowd_wait *w = arg;
    mmpi_board_describe(w->self, w->core, w->want - 1, "arrive", not_arrived, w, buf, len);
}

/* Wakes the members asleep in a crowd wait, if any (one read while nobody sleeps). The caller
 * changed what their condition reads; the fence orders that before the read (wait.h). */
static void wake_sleepers(const struct crowd_wait *w)
{
    mmpi_wake_fence();
    if (!__atomic_load_n(&w->cr->rare.sleepers, __ATOMIC_SEQ_CST))
        return;
    for (int i = 0; i < w->size; i++)
        if (i != w->me)
            mmpi_rank_wake_if_asleep(w->self->world->ranks[w->core->world_ranks[i]]);
}

/* The last arriver, while no member has failed: publishes the outcome (and the allreduce's
 * result) for everyone. */
static void publish(struct crowd_wait *w, uint64_t count)
{
    struct mmpi_crowd *cr = w->cr;
    uint64_t reducers = (count - w->base) >> 32;
    uint32_t flags = 0;
    if (reducers != 0 && reducers != (uint64_t)w->size)
        flags |= CROWD_MISMATCH;
    if (__atomic_load_n(&cr->count.cut, __ATOMIC_RELAXED) == w->want32)
        flags |= CROWD_CUT;
    if (w->kind == CROWD_ALLREDUCE && !(flags & CROWD_MISMATCH)) {
        fold_all(w, false);
        for (int k = 0; k < w->words; k++)
            __atomic_store_n(&cr->done.result[k], w->acc[k], __ATOMIC_RELAXED);
    }
    __atomic_store_n(&cr->done.flags, flags, __ATOMIC_RELAXED);
    __atomic_store_n(&cr->done.base, count, __ATOMIC_RELAXED);
    __atomic_store_n(&cr->done.done, w->want32, __ATOMIC_RELEASE);
}

/* Arrives at collective #seq and waits for the outcome. A member's slot is written already. */
static int arrive_and_wait(struct crowd_wait *w)
{
    struct mmpi_crowd *cr = w->cr;
    struct crowd_rec *mine = &cr->rec[w->me];
    /* base may be read before our arrival: it changes only once this collective completes. */
    w->base = __atomic_load_n(&cr->done.base, __ATOMIC_RELAXED);
    __atomic_store_n(&mine->kind[w->parity], (uint8_t)w->kind, __ATOMIC_RELAXED);
    bool doomed = mmpi_fault_during_armed(w->self);
    if (doomed) {
        __atomic_store_n(&mine->cut, w->want32, __ATOMIC_RELEASE);
        __atomic_store_n(&cr->count.cut, w->want32, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&mine->arrive, w->want32, __ATOMIC_RELEASE);
    uint64_t inc = w->kind == CROWD_ALLREDUCE ? 1 + ALLREDUCE_ARRIVAL : 1;
    uint64_t count = __atomic_add_fetch(&cr->count.count, inc, __ATOMIC_ACQ_REL);
    bool last = (uint32_t)(count - w->base) == (uint32_t)w->size, failed = has_failed(w);
    if (last && !failed)
        publish(w, count);
    /* After a failure the members judge from the records, and an arrival that leaves a live
     * member missing ends nobody's wait (the fault layer's reporting rule). */
    if (last || (failed && mmpi_fault_answer_settles(w->self->world, w->core->world_ranks,
                                                     w->size, not_arrived, w, w->me + 1)))
        wake_sleepers(w);
    if (doomed)
        mmpi_fault_during_die(w->self); /* a `during` victim dies once it has arrived */
    /* The members we wait for need our CPU: yield it straight away, in a loop that reads one
     * line per turn (a turn is a thread switch, which costs more the more memory each thread
     * touches per turn). Only a published outcome ends it: failures and revokes are judged in
     * the common wait, where reports are deferred while live members may still arrive. */
    for (int i = 0; i < CROWD_YIELDS; i++) {
        if (reached(__atomic_load_n(&cr->done.done, __ATOMIC_ACQUIRE), w->want32) &&
            (w->result = outcome_published(w)) != -1)
            return w->result;
        sched_yield();
    }
    mmpi_wait_until_counted(w->self, outcome_settled, w, describe_arrivals, &cr->rare.sleepers);
    return w->result;
}

static void setup_wait(struct crowd_wait *w, struct mmpi_rank *self, struct mmpi_comm *c, int kind)
{
    memset(w, 0, sizeof(*w));
    w->self = self;
    w->core = c->core;
    w->cr = block_of(c->core);
    w->want = ++c->coll_seq;
    w->want32 = (uint32_t)w->want;
    w->me = c->rank;
    w->size = c->core->size;
    w->kind = kind;
    w->parity = (int)(w->cr->rec[w->me].ncrowd++ & 1);
    w->result = -1;
    mmpi_coll_count(c, kind == CROWD_BARRIER ? MMPI_COLLOP_BARRIER : MMPI_COLLOP_ALLREDUCE,
                    MMPI_COLLFORM_BLOCKING, MMPI_COLLPATH_CROWD);
}

int mmpi_coll_crowd_barrier(struct mmpi_rank *self, struct mmpi_comm *c)
{
    struct crowd_wait w;
    setup_wait(&w, self, c, CROWD_BARRIER);
    return arrive_and_wait(&w);
}

/* Seqlock write of the member's packed input into its slot of this collective's parity. */
static void write_slot(struct crowd_wait *w, const uint64_t *in)
{
    struct crowd_rec *mine = &w->cr->rec[w->me];
    __atomic_store_n(&mine->tag[w->parity], 0, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    for (int k = 0; k < w->words; k++)
        __atomic_store_n(&mine->slot[w->parity][k], in[k], __ATOMIC_RELAXED);
    __atomic_store_n(&mine->tag[w->parity], slot_tag(w->want), __ATOMIC_RELEASE);
}

int mmpi_coll_crowd_allreduce_packed(struct mmpi_rank *self, struct mmpi_comm *c,
                                     const void *in, void *out, size_t bytes,
                                     mmpi_op_kernel *kernel, size_t n, const struct mmpi_coll *x,
                                     bool *wrote)
{
    struct crowd_wait w;
    uint64_t words[CROWD_WORDS] = {0};
    setup_wait(&w, self, c, CROWD_ALLREDUCE);
    w.words = (int)((bytes + 7) / 8);
    w.kernel = kernel;
    w.n = n;
    w.x = x;
    memcpy(words, in, bytes);
    write_slot(&w, words);
    int err = arrive_and_wait(&w);
    bool result = w.have_result && (err == MPI_SUCCESS || err == MPI_ERR_PROC_FAILED);
    if (result)
        memcpy(out, w.acc, bytes);
    if (wrote)
        *wrote = result;
    return err;
}
