/*
 * coll/fast.c: the small-communicator fast path of fast.h. Owns the member lines of a
 * communicator (allocated on first use, kept in its board, freed with it) and the blocking
 * MPI_Barrier / small MPI_Allreduce that run on them.
 *
 * A member's record (32 bytes, two members per cache line; written only by its owner, read by
 * the others):
 *   arrive  low 32 bits of seq+1 of the last fast collective it arrived at. Collective numbers
 *           only grow, and a member reaches a later fast collective only after returning from
 *           this one, so "every arrive >= seq+1" (modulo 2^32) means everyone arrived (no
 *           reset, no sense flag).
 *   slot[2] the packed allreduce input, by parity of the member's count of fast collectives
 *           (every member counts the same ones); inputs above 8 bytes continue in the member's
 *           own line (slot_hi). Between two writes of one slot its writer completed another
 *           fast collective, which needed every reader to have arrived there, i.e. to have
 *           finished reading the slot; tag[] (a seqlock) detects the one exception, a writer
 *           that went on after an MPI_ERR_PROC_FAILED while a reader was still reading, and
 *           the reader then reports MPI_ERR_PROC_FAILED too.
 * Two members share a line on purpose: a 2-member barrier is then one line that both write
 * and both read, which costs about half as much as each member's own line read by the other
 * (measured on 2 cores: 45 ns against 85 ns a barrier, without MPI around it). So a member
 * writes nothing there that it must read first: its count of fast collectives (nfast, read
 * by nobody else) lives in its own line, with slot_hi (read only for inputs above 8 bytes).
 *   cut     fast_tag(seq+1) of the collective it was killed `during` (inject.h), else 0.
 *
 * The semantics are the board's (board.c, engine.c), decided by the same rules in the same
 * order: all arrived wins over a later revoke (the inputs are copies in the lines, like a
 * snapshot); otherwise a revoke gives MPI_ERR_REVOKED; otherwise a member that failed without
 * arriving gives MPI_ERR_PROC_FAILED, deferred inside the wait while live members may still
 * arrive (the reporting rule, fault/fault.h); a `kill R during` victim records its cut before
 * arriving, everyone waits for its death, and members ranked above it fail. Waits go through
 * runtime/wait.c (spin, yield, sleep) with the board's hang description.
 */
#include "coll/fast.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sched.h>

#include "coll/board.h"
#include "coll/coll.h"
#include "coll/crowd.h"
#include "comm/comm.h"
#include "datatype/datatype.h"
#include "inject/inject.h"
#include "mmpi.h"
#include "op/op.h"
#include "op/word.h"
#include "pt2pt/copy.h"
#include "runtime/wait.h"
#include "ulfm/ulfm.h"
#include "util/futex.h"

#define FAST_WORDS (MMPI_COLL_FAST_BYTES / 8)

/* The path of a collective that no member needs to wait for is a few hundred instructions,
 * about as long as the line's trip between the cores: its helpers are inlined (HOT), and what
 * only errors, failures and first uses need stays out of line (COLD). */
#define HOT static inline __attribute__((always_inline))
#define COLD static __attribute__((noinline, cold))

/* The block of a communicator: `size` member lines, then the records (fast_recs). */
struct mmpi_fast_line {
    uint32_t nfast;                        /* owner only: fast collectives so far */
    uint32_t pad;
    uint64_t slot_hi[2][FAST_WORDS - 1];   /* atomic words: slot[] continued */
} __attribute__((aligned(64)));

struct fast_rec {
    uint32_t arrive;   /* atomic, see above */
    uint16_t tag[2];   /* atomic: fast_tag(seq+1) of the slot's content, 0 while written */
    uint8_t kind[2];   /* by parity of nfast, written before `arrive`: FAST_BARRIER or
                        * FAST_ALLREDUCE, to tell a mismatch (board.h) */
    uint16_t cut;      /* atomic: fast_tag(seq+1) of the collective it was killed `during`
                        * (inject.h), else 0; written once, since the victim then dies */
    uint32_t pad;
    uint64_t slot[2];  /* atomic: the first 8 bytes of the packed allreduce input */
};

_Static_assert(sizeof(struct mmpi_fast_line) == 64, "one cache line per member");
_Static_assert(sizeof(struct fast_rec) == 32, "two records per cache line");

/* Members at most: CPUs this process may use (a waiter then usually spins on a running peer),
 * or MINI_MPI_COLL_FAST_MAX (tests use it to drive the path at every size; 0 disables it).
 * Read once, so that every member decides alike. */
static int fast_max = -1;

static int read_fast_max(void)
{
    const char *v = getenv("MINI_MPI_COLL_FAST_MAX");
    char *end;
    long n;
    if (v && *v && (n = strtol(v, &end, 10)) >= 0 && !*end && n < (1L << 20))
        return (int)n;
    int cpus = mmpi_usable_cpus();
    return cpus < 2 ? 2 : cpus;
}

COLD int first_fast_max(void)
{
    int max = read_fast_max(); /* benign race: every thread computes the same value */
    __atomic_store_n(&fast_max, max, __ATOMIC_RELAXED);
    return max;
}

/* This path or, above fast_max members, crowd.c's: any intracommunicator unless disabled. */
HOT bool fast_ok(const struct mmpi_comm *c)
{
    int max = __atomic_load_n(&fast_max, __ATOMIC_RELAXED);
    if (__builtin_expect(max < 0, 0))
        max = first_fast_max();
    return !c->core->remote && !c->core->bridge && max > 0;
}

/* More members than fast_max (read already by fast_ok): crowd.c's path. */
HOT bool crowded(const struct mmpi_comm *c)
{
    return __builtin_expect(c->core->size > __atomic_load_n(&fast_max, __ATOMIC_RELAXED), 0);
}

int mmpi_coll_fast_max(void)
{
    int max = __atomic_load_n(&fast_max, __ATOMIC_RELAXED);
    return max < 0 ? first_fast_max() : max;
}

bool mmpi_coll_fast_ok(const struct mmpi_comm *c)
{
    return fast_ok(c);
}

bool mmpi_coll_fast_allreduce_ok(const struct mmpi_comm *c, const struct mmpi_coll *x)
{
    /* The inputs travel as copies, like a snapshot: MINI_MPI_COLL_SNAPSHOT below the size
     * asks for the board's other modes, so it gets them. */
    size_t bytes = mmpi_typed_bytes(x->send.dt, x->send.count);
    return mmpi_coll_fast_ok(c) && x->op->index != MMPI_OPI_USER &&
           bytes <= MMPI_COLL_FAST_BYTES && bytes <= mmpi_coll_snapshot_override();
}

/* First use on the communicator: allocates the lines. */
COLD struct mmpi_fast_line *first_lines(struct mmpi_comm_core *core)
{
    struct mmpi_board *b = core->board;
    struct mmpi_fast_line *l;
    pthread_mutex_lock(&b->lock);
    l = b->fast;
    if (!l) {
        void *mem = NULL;
        size_t bytes = (size_t)core->size * sizeof(*l) +
                       ((size_t)core->size * sizeof(struct fast_rec) + 63) / 64 * 64;
        if (posix_memalign(&mem, 64, bytes))
            mmpi_die("out of memory (%zu bytes)", bytes);
        memset(mem, 0, bytes);
        l = mem;
        __atomic_store_n(&b->fast, l, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&b->lock);
    return l;
}

HOT struct mmpi_fast_line *lines_of(struct mmpi_comm_core *core)
{
    struct mmpi_fast_line *l = __atomic_load_n(&core->board->fast, __ATOMIC_ACQUIRE);
    return __builtin_expect(l != NULL, 1) ? l : first_lines(core);
}

enum { FAST_BARRIER = 1, FAST_ALLREDUCE = 2 };

/* A slot's tag for collective seq+1 = want: never 0 (the "being written" mark). A writer is
 * at most one fast collective ahead of a reader, so 16 bits tell them apart. */
HOT uint16_t fast_tag(uint64_t want)
{
    return (uint16_t)(want % 0xffff + 1);
}

struct fast_wait {
    struct mmpi_rank *self;
    struct mmpi_comm_core *core;
    struct mmpi_fast_line *lines;
    struct fast_rec *recs;
    uint64_t want; /* seq + 1 */
    int me;
    int kind;      /* FAST_BARRIER or FAST_ALLREDUCE */
    int result;
    /* An allreduce of at most 8 bytes with a predefined kernel: seen_done folds the slots in
     * the same pass as it reads the arrivals, before the members that leave first write the
     * shared lines again (a second pass would wait for those lines to come back). */
    mmpi_op_kernel *fold; /* NULL: no fold in the pass */
    size_t fold_n;        /* elements */
    int fold_word;        /* op/word.h's inline form of fold, or 0 */
    uint16_t tag;         /* fast_tag(want), computed once (a division) */
    bool folded, torn;    /* set when seen_done saw everyone: acc holds the result */
    uint64_t acc;
};

HOT bool not_arrived(const void *arg, int i)
{
    const struct fast_wait *f = arg;
    return (int32_t)(__atomic_load_n(&f->recs[i].arrive, __ATOMIC_ACQUIRE) - (uint32_t)f->want) <
           0;
}

/* All arrived: the outcome of a `kill R during` cut, -1 while a victim is still alive. */
COLD int cut_outcome(const struct fast_wait *f)
{
    for (int i = 0; i < f->core->size; i++) {
        if (__atomic_load_n(&f->recs[i].cut, __ATOMIC_ACQUIRE) != f->tag)
            continue;
        /* fault/report.c's cut rule; everyone leaves only once the victim is dead. */
        int outcome = mmpi_fault_cut_outcome(f->self, f->me, i, f->core->world_ranks[i]);
        if (outcome != MPI_SUCCESS)
            return outcome == MMPI_FAULT_CUT_WAIT ? -1 : outcome;
    }
    return MPI_SUCCESS;
}

static bool all_arrived(const struct fast_wait *f)
{
    for (int i = 0; i < f->core->size; i++)
        if (not_arrived(f, i))
            return false;
    return true;
}

/* The collective's outcome as the records show it now; -1 while it must be waited for. */
static int current_outcome(struct fast_wait *f)
{
    if (all_arrived(f))
        return cut_outcome(f);
    if (mmpi_fault_revoked(&f->core->fault))
        return MPI_ERR_REVOKED;
    if (mmpi_fault_any(f->self->world))
        return mmpi_fault_missing_outcome(f->self, f->core->world_ranks, f->core->size,
                                          not_arrived, f);
    return -1;
}

/* The wait's condition: keeps the current outcome, true once there is one. */
static bool outcome_settled(void *arg)
{
    struct fast_wait *f = arg;
    f->result = current_outcome(f);
    return f->result != -1;
}

/* The hang report's line of the wait: the members that have not arrived. */
static void describe_arrivals(const void *arg, char *buf, size_t len)
{
    const struct fast_wait *f = arg;
    mmpi_board_describe(f->self, f->core, f->want - 1, "arrive", not_arrived, f, buf, len);
}

/* Publishes the arrival (the slot, if any, is written already): a plain release store, no
 * fence and no wake-up here, so that arriving costs one store to the member's own line. */
COLD void arrive_injecting(struct fast_wait *f)
{
    struct mmpi_rank *self = f->self;
    bool doomed = mmpi_fault_during_armed(self);
    if (doomed)
        __atomic_store_n(&f->recs[f->me].cut, f->tag, __ATOMIC_RELEASE);
    __atomic_store_n(&f->recs[f->me].arrive, (uint32_t)f->want, __ATOMIC_RELEASE);
    if (doomed)
        mmpi_fault_during_die(self);
}

HOT void arrive(struct fast_wait *f)
{
    if (__builtin_expect(__atomic_load_n(&mmpi_inject_active, __ATOMIC_RELAXED), 0))
        arrive_injecting(f);
    else
        __atomic_store_n(&f->recs[f->me].arrive, (uint32_t)f->want, __ATOMIC_RELEASE);
}

/* Done: wakes the members that may be asleep in this collective. Only the last arrival (or a
 * failure, which wakes everyone itself, or a revoke, likewise) can end a member's wait, and
 * the member that makes it sees the end too and comes here; while some member has not
 * arrived, an arrival ends no other member's wait but the arriver's own judgement, which it
 * makes the same way and then comes here (a failure settled: board.h). The fence orders our
 * arrival before the reads of the sleeper counts (runtime/wait.h: a compiler barrier here, a
 * membarrier on the sleeper's side): a member we see awake looks at the lines once more after
 * it counts itself asleep, and sees our arrival. Reading a count that nobody writes stays in
 * this core's cache: no line moves while nobody sleeps. */
HOT void wake_members(struct mmpi_rank *self, const struct mmpi_comm_core *core, int me)
{
    mmpi_wake_fence();
    for (int i = 0; i < core->size; i++)
        if (i != me)
            mmpi_rank_wake_if_asleep(self->world->ranks[core->world_ranks[i]]);
}

HOT void wake_sleepers(const struct fast_wait *f)
{
    wake_members(f->self, f->core, f->me);
}

/* Polls of the lines before the common wait (runtime/wait.c), when members fit the CPUs. The
 * common wait spins ~1 µs, then sleeps; a sleeper takes several µs to wake up, longer than
 * the peer's spin, so once one member slept, the next collective made the other one sleep
 * too, and two ranks fell into a stable sleep/wake convoy (7 µs a collective instead of 0.1)
 * whenever the machine was briefly busy. Waiting longer than a wake-up breaks the convoy;
 * by the clock, since a PAUSE takes from 10 to 150 cycles depending on the CPU. After a short
 * pure spin the loop yields: on a loaded machine the woken peer often queues on this CPU, and
 * a spinner that never yields would hold it off for the whole budget. */
#define FAST_SPIN_SECONDS 2e-6
#define FAST_YIELD_SECONDS 20e-6

static bool fits_cpus(const struct fast_wait *f)
{
    return f->core->size <= mmpi_usable_cpus();
}

static const char *kind_name(int kind)
{
    return kind == FAST_BARRIER ? "MPI_Barrier" : "MPI_Allreduce";
}

/* Everyone arrived: MPI_ERR_OTHER if members called different collectives (one a barrier, the
 * other an allreduce) as this one, reported once, by the first member that differs from
 * member 0, in the words of the board's report (board.c). */
HOT int kind_of(const struct fast_wait *f, int i, int parity)
{
    return __atomic_load_n(&f->recs[i].kind[parity], __ATOMIC_RELAXED);
}

/* odd: the first member whose kind differs from member 0's (0: none), as seen_done found it,
 * or -1 to look now. A kind slot is rewritten two fast collectives later only, which needs
 * this member to arrive at the next one first: any read from here on sees this collective's. */
COLD int check_kinds_slow(const struct fast_wait *f, int parity, int odd)
{
    for (int i = 1; odd < 0; i++)
        if (i == f->core->size || kind_of(f, i, parity) != kind_of(f, 0, parity))
            odd = i == f->core->size ? 0 : i;
    if (!odd)
        return MPI_SUCCESS;
    if (odd == f->me)
        mmpi_board_print_mismatch(odd, f->core->size, kind_name(kind_of(f, odd, parity)), false,
                                  f->want, 0, kind_name(kind_of(f, 0, parity)));
    return MPI_ERR_OTHER;
}

HOT int check_kinds(const struct fast_wait *f, int parity, int odd)
{
    return __builtin_expect(odd == 0, 1) ? MPI_SUCCESS : check_kinds_slow(f, parity, odd);
}

/* acc = v op acc: inline for a word op (no call, so the pass keeps its state in registers). */
HOT void fold_one(const struct fast_wait *f, uint64_t v, uint64_t *acc)
{
    if (__builtin_expect(f->fold_word != 0, 1))
        mmpi_op_word_apply(f->fold_word, v, acc);
    else
        f->fold(&v, acc, f->fold_n);
}

/* The spin's test: everyone arrived and the outcome is a success. One pass over the records
 * reads the arrivals and the kinds together (*odd, as check_kinds takes it), so that the
 * shared lines are read once, before the members that leave first write them again. */
static inline __attribute__((always_inline)) bool seen_done(struct fast_wait *f, int parity,
                                                             int *odd, bool folds)
{
    int n = f->core->size, last = kind_of(f, n - 1, parity);
    bool cut = false, differ = false, torn = false;
    uint64_t acc = 0;
    /* Downwards: the fold's order (rank order from the top, as the board's snapshot). */
    for (int i = n - 1; i >= 0; i--) {
        if (not_arrived(f, i))
            return false;
        differ |= kind_of(f, i, parity) != last;
        cut |= __atomic_load_n(&f->recs[i].cut, __ATOMIC_RELAXED) == f->tag;
        if (!folds)
            continue;
        uint64_t v = __atomic_load_n(&f->recs[i].slot[parity], __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_ACQUIRE); /* the seqlock's read side (see the top) */
        torn |= __atomic_load_n(&f->recs[i].tag[parity], __ATOMIC_RELAXED) != f->tag;
        if (i == n - 1)
            acc = v;
        else
            fold_one(f, v, &acc);
    }
    *odd = differ ? -1 : 0; /* check_kinds names the member */
    f->result = cut ? cut_outcome(f) : MPI_SUCCESS;
    if (f->result != MPI_SUCCESS)
        return false;
    f->folded = folds;
    f->torn = torn;
    f->acc = acc;
    return true;
}

/* After the arrival at collective #seq (parity: this member's count of fast collectives) and
 * a first look that did not see everyone, waits for the others: the board's outcome. `spin`:
 * whether to poll before yielding (wait.c's adaptive spin); `folds`: f->fold is set (a
 * constant in each caller: the barrier's spin then has no fold code). */
static inline __attribute__((always_inline)) int wait_arrived(struct fast_wait *f, int parity,
                                                               bool spin, bool folds)
{
    bool done = false;
    int odd = -1;
    double start = 0;
    bool yielding = !spin;
    /* A rank-thread with a CPU of its own polls without yielding, as runtime/wait.c's waits. */
    bool own = mmpi_cpu_own();
    double poll_seconds = own ? MMPI_OWN_CPU_POLL_SECONDS : FAST_YIELD_SECONDS;
    for (int i = 0; !done && fits_cpus(f); i++) {
        if (yielding || (i & 63) == 63) { /* a clock read costs a few PAUSEs, a yield much more */
            double now = mmpi_now();
            if (!start)
                start = now;
            else if (now > start + poll_seconds)
                break;
            yielding = !own && (yielding || now > start + FAST_SPIN_SECONDS);
        }
        if (yielding)
            sched_yield();
        else
            mmpi_cpu_relax();
        done = seen_done(f, parity, &odd, folds);
        if (done && spin)
            mmpi_spin_outcome(!yielding);
    }
    if (!done) {
        mmpi_wait_until_light(f->self, outcome_settled, f, describe_arrivals);
        odd = -1;
    }
    wake_sleepers(f);
    if (f->result == MPI_SUCCESS)
        f->result = check_kinds(f, parity, odd);
    return f->result;
}

/* The member's kind, then its arrival. */
HOT int arrive_as(struct fast_wait *f)
{
    int parity = (int)(f->lines[f->me].nfast++ & 1);
    __atomic_store_n(&f->recs[f->me].kind[parity], (uint8_t)f->kind, __ATOMIC_RELAXED);
    arrive(f);
    return parity;
}

/* Arrives at collective #seq of c and waits for the others: the board's outcome. */
static inline __attribute__((always_inline)) int arrive_and_wait_folding(struct fast_wait *f,
                                                                         bool folds)
{
    int parity = arrive_as(f);
    /* Outside the common wait only success counts: a failure is judged inside it, where
     * reports are deferred while live members may still arrive (board.h). */
    int odd;
    bool done = seen_done(f, parity, &odd, folds);
    /* wait.c's adaptive spin: no spin while this thread's spins keep failing because the
     * member it waits for shares its CPU (a loaded machine), only the yields. */
    bool spin = done || !fits_cpus(f) || mmpi_spin_worthwhile();
    if (!done)
        return wait_arrived(f, parity, spin, folds);
    wake_sleepers(f);
    return f->result = check_kinds(f, parity, odd);
}

/* Arrives and waits, with a copy of the wait for either value of folds (a constant in each). */
static int arrive_and_wait(struct fast_wait *f)
{
    return f->fold ? arrive_and_wait_folding(f, true) : arrive_and_wait_folding(f, false);
}

/* f for collective want - 1 of c (lines: c's). */
HOT void setup_wait_at(struct fast_wait *f, struct mmpi_rank *self, struct mmpi_comm *c,
                       struct mmpi_fast_line *lines, uint64_t want, uint16_t tag)
{
    f->self = self;
    f->core = c->core;
    f->lines = lines;
    f->recs = (struct fast_rec *)(lines + c->core->size);
    f->want = want;
    f->tag = tag;
    f->me = c->rank;
    f->result = -1;
    f->fold = NULL;
    f->fold_word = 0;
    f->folded = f->torn = false;
    f->acc = 0;
}

/* f for c's next collective. */
HOT void setup_wait(struct fast_wait *f, struct mmpi_rank *self, struct mmpi_comm *c)
{
    uint64_t want = ++c->coll_seq; /* seq + 1 */
    setup_wait_at(f, self, c, lines_of(c->core), want, fast_tag(want));
}

int mmpi_coll_fast_barrier(struct mmpi_rank *self, struct mmpi_comm *c)
{
    if (crowded(c))
        return mmpi_coll_crowd_barrier(self, c);
    mmpi_coll_count(c, MMPI_COLLOP_BARRIER, MMPI_COLLFORM_BLOCKING, MMPI_COLLPATH_FAST);
    struct fast_wait f;
    setup_wait(&f, self, c);
    f.kind = FAST_BARRIER;
    return arrive_and_wait_folding(&f, false);
}

/* Seqlock write of the member's input into its slot of this collective's parity: tag 0, the
 * words, then the tag (readers check it after copying). */
static void publish(struct fast_wait *f, int parity, const uint64_t *in, int words)
{
    struct fast_rec *mine = &f->recs[f->me];
    struct mmpi_fast_line *mine_hi = &f->lines[f->me];
    __atomic_store_n(&mine->tag[parity], 0, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    __atomic_store_n(&mine->slot[parity], in[0], __ATOMIC_RELAXED);
    for (int w = 1; w < words; w++)
        __atomic_store_n(&mine_hi->slot_hi[parity][w - 1], in[w], __ATOMIC_RELAXED);
    __atomic_store_n(&mine->tag[parity], f->tag, __ATOMIC_RELEASE);
}

/* publish() of one word, for the express path: the word by value (publish() takes an array,
 * whose address the express path would otherwise take: 8 instructions more per call). */
HOT void publish_word(struct fast_rec *mine, int parity, uint64_t word, uint16_t tag)
{
    __atomic_store_n(&mine->tag[parity], 0, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    __atomic_store_n(&mine->slot[parity], word, __ATOMIC_RELAXED);
    __atomic_store_n(&mine->tag[parity], tag, __ATOMIC_RELEASE);
}

/* After arrive_and_wait() returned err: whether there is a result to fold (everyone arrived; a
 * cut may still fail us after all, err then says so). */
static bool has_result(const struct fast_wait *f, int err)
{
    if (err != MPI_SUCCESS && err != MPI_ERR_PROC_FAILED)
        return false;
    return err == MPI_SUCCESS || all_arrived(f); /* else someone never arrived: no result */
}

/* Everyone arrived: folds the slots in rank order from the top, as the board's snapshot does,
 * so that every member gets the same bits (unless the spin's pass did it already: f->folded).
 * `kernel` or, without one, x's op. Returns false if a writer went on after a failure before
 * we read (see the top): then the member reports MPI_ERR_PROC_FAILED. */
static bool fold(struct fast_wait *f, int parity, int words, mmpi_op_kernel *kernel, size_t n,
                 const struct mmpi_coll *x, uint64_t *acc)
{
    uint64_t v[FAST_WORDS] = {0};
    bool torn = f->torn;
    acc[0] = f->acc;
    for (int i = f->core->size - 1; i >= 0 && !f->folded; i--) {
        v[0] = __atomic_load_n(&f->recs[i].slot[parity], __ATOMIC_RELAXED);
        for (int w = 1; w < words; w++)
            v[w] = __atomic_load_n(&f->lines[i].slot_hi[parity][w - 1], __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        torn |= __atomic_load_n(&f->recs[i].tag[parity], __ATOMIC_RELAXED) != f->tag;
        if (i == f->core->size - 1)
            for (int w = 0; w < FAST_WORDS; w++)
                acc[w] = v[w]; /* by words: v was stored by words (no store-forwarding stall) */
        else if (f->fold_word)
            mmpi_op_word_apply(f->fold_word, v[0], acc); /* as the pass: the same bits */
        else if (kernel)
            kernel(v, acc, n);
        else
            mmpi_op_apply_packed(x->op, v, NULL, acc, x->send.count, x->send.dt, x->dth);
    }
    return !torn;
}

/* memcpy of 1 to 8 bytes with the common sizes as fixed moves: mmpi_copy_small (pt2pt/copy.h),
 * made for up to 64 bytes, costs the express allreduce ~75 instructions more. */
HOT void copy_word_bytes(void *dst, const void *src, size_t bytes)
{
    if (bytes == 8)
        memcpy(dst, src, 8);
    else if (bytes == 4)
        memcpy(dst, src, 4);
    else
        memcpy(dst, src, bytes);
}

/* One look of the express allreduce at the records: 1 when everyone arrived with the same kind,
 * no cut and a whole slot (the result is then in *acc, folded in rank order from the top as
 * the board does), 0 while someone has not arrived, -1 when the look found something that
 * only the full path handles (a mismatch, a `during` cut, a slot rewritten meanwhile). */
HOT int express_look(const struct fast_rec *recs, int n, int parity, uint32_t want,
                     uint16_t tag, int word, uint64_t *acc)
{
    uint8_t last = __atomic_load_n(&recs[n - 1].kind[parity], __ATOMIC_RELAXED);
    bool odd = false;
    uint64_t a = 0;
    for (int i = n - 1; i >= 0; i--) {
        if ((int32_t)(__atomic_load_n(&recs[i].arrive, __ATOMIC_ACQUIRE) - want) < 0)
            return 0;
        odd |= __atomic_load_n(&recs[i].kind[parity], __ATOMIC_RELAXED) != last;
        odd |= __atomic_load_n(&recs[i].cut, __ATOMIC_RELAXED) == tag;
        uint64_t v = __atomic_load_n(&recs[i].slot[parity], __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_ACQUIRE); /* the seqlock's read side (see the top) */
        odd |= __atomic_load_n(&recs[i].tag[parity], __ATOMIC_RELAXED) != tag;
        if (i == n - 1)
            a = v;
        else
            mmpi_op_word_apply(word, v, &a);
    }
    *acc = a;
    return odd ? -1 : 1;
}

/* Express looks (a PAUSE between two) before the full path's poll loop takes over, which
 * reads the clock every 64th poll: the pure spin lasts at most 64 polls longer than there. */
#define EXPRESS_LOOKS 64

/* The full path for an allreduce of one word whose input is published already (and the
 * member arrived when `arrived`): the board's outcome, the result stored at out. */
static int allreduce_word_full(struct fast_wait *f, int parity, uint64_t word, void *out,
                               size_t bytes, bool arrived, bool spin)
{
    int err;
    if (!arrived) {
        publish(f, parity, &word, 1);
        err = arrive_and_wait_folding(f, true);
    } else {
        err = wait_arrived(f, parity, spin, true);
    }
    if (!has_result(f, err))
        return err;
    uint64_t acc[FAST_WORDS];
    /* The spin's pass folded already, unless a failure kept it from seeing everyone: then
     * fold() (out of line) does; a slot rewritten meanwhile (f->torn) fails either way. */
    if (!fold(f, parity, 1, f->fold, f->fold_n, NULL, acc))
        return MPI_ERR_PROC_FAILED;
    copy_word_bytes(out, acc, bytes);
    return err;
}

/* An allreduce of one word on c's lines. `express` (op/word.h's inline fold) unless the
 * injector is armed: the full path's protocol on local variables, so that the common case
 * (everyone arrives within a short spin, nothing unusual) runs in registers and without a
 * call; anything else continues on the full path from where this one stands. */
HOT int allreduce_word(struct mmpi_rank *self, struct mmpi_comm *c, const void *in, void *out,
                       size_t bytes, const struct mmpi_fast_fold *how, bool express)
{
    struct mmpi_comm_core *core = c->core;
    struct mmpi_fast_line *lines = lines_of(core);
    int n = core->size, me = c->rank;
    struct fast_rec *recs = (struct fast_rec *)(lines + n);
    uint64_t want = ++c->coll_seq, word = 0, acc;
    uint16_t tag = fast_tag(want);
    int parity = (int)(lines[me].nfast & 1);
    copy_word_bytes(&word, in, bytes);
    mmpi_coll_count(c, MMPI_COLLOP_ALLREDUCE, MMPI_COLLFORM_BLOCKING, MMPI_COLLPATH_FAST);
    express = express && !__atomic_load_n(&mmpi_inject_active, __ATOMIC_RELAXED);
    bool spin = true;
    if (__builtin_expect(express, 1)) {
        publish_word(&recs[me], parity, word, tag);
        lines[me].nfast++;
        __atomic_store_n(&recs[me].kind[parity], (uint8_t)FAST_ALLREDUCE, __ATOMIC_RELAXED);
        __atomic_store_n(&recs[me].arrive, (uint32_t)want, __ATOMIC_RELEASE);
        int look = express_look(recs, n, parity, (uint32_t)want, tag, how->word, &acc);
        if (look == 0 && n <= mmpi_usable_cpus()) {
            /* As arrive_and_wait_folding: wait.c's adaptive spin, or the full path's yields
             * at once (and with more members than CPUs, its common wait at once). */
            spin = mmpi_spin_worthwhile();
            for (int i = 1; look == 0 && spin && i < EXPRESS_LOOKS; i++) {
                mmpi_cpu_relax();
                look = express_look(recs, n, parity, (uint32_t)want, tag, how->word, &acc);
            }
            if (look > 0)
                mmpi_spin_outcome(true);
        }
        if (look > 0) {
            wake_members(self, core, me);
            copy_word_bytes(out, &acc, bytes);
            return MPI_SUCCESS;
        }
    }
    struct fast_wait f;
    setup_wait_at(&f, self, c, lines, want, tag);
    f.kind = FAST_ALLREDUCE;
    f.fold = how->kernel;
    f.fold_n = how->n;
    f.fold_word = how->word;
    return allreduce_word_full(&f, parity, word, out, bytes, express, spin);
}

int mmpi_coll_fast_allreduce_word(struct mmpi_rank *self, struct mmpi_comm *c, const void *in,
                                  void *out, size_t bytes, const struct mmpi_fast_fold *how)
{
    if (crowded(c))
        return mmpi_coll_crowd_allreduce_packed(self, c, in, out, bytes, how->kernel, how->n,
                                                NULL, NULL);
    return allreduce_word(self, c, in, out, bytes, how, how->word != 0);
}

int mmpi_coll_fast_allreduce_express(struct mmpi_rank *self, struct mmpi_comm *c,
                                     const void *in, void *out, size_t bytes,
                                     const struct mmpi_fast_fold *how)
{
    return allreduce_word(self, c, in, out, bytes, how, true);
}

bool mmpi_coll_fast_word_ok_first(struct mmpi_comm *c)
{
    bool ok = fast_ok(c) && !crowded(c) && mmpi_coll_snapshot_override() >= 8;
    c->word_express = ok ? 1 : -1;
    return ok;
}

int mmpi_coll_fast_allreduce(struct mmpi_rank *self, struct mmpi_comm *c, struct mmpi_coll *x)
{
    const struct mmpi_datatype *sdt = x->send.dt, *rdt = x->recv.dt;
    size_t count = x->send.count, bytes = mmpi_typed_bytes(sdt, count);
    /* The predefined kernel straight away (what mmpi_op_apply_packed finds each time). */
    mmpi_op_kernel *kernel = mmpi_op_kernel_for(x->op->index, sdt->basic);
    if (kernel && bytes <= 8 && sdt->contiguous && rdt->contiguous) {
        size_t n = count * sdt->basic_count;
        struct mmpi_fast_fold how = {kernel, n,
                                     n == 1 ? mmpi_op_word_for(x->op->index, sdt->basic) : 0};
        return mmpi_coll_fast_allreduce_word(self, c, (const char *)x->in + sdt->true_lb,
                                             (char *)x->recv.buf + rdt->true_lb, bytes, &how);
    }
    uint64_t in[FAST_WORDS] = {0}, acc[FAST_WORDS];
    if (sdt->contiguous)
        memcpy(in, (const char *)x->in + sdt->true_lb, bytes);
    else
        mmpi_typed_pack(x->in, count, sdt, in);
    int err;
    if (crowded(c)) {
        bool wrote;
        err = mmpi_coll_crowd_allreduce_packed(self, c, in, acc, bytes, kernel,
                                               count * sdt->basic_count, x, &wrote);
        if (!wrote)
            return err;
    } else {
        mmpi_coll_count(c, MMPI_COLLOP_ALLREDUCE, MMPI_COLLFORM_BLOCKING, MMPI_COLLPATH_FAST);
        struct fast_wait f;
        setup_wait(&f, self, c);
        f.kind = FAST_ALLREDUCE;
        int parity = (int)(f.lines[f.me].nfast & 1), words = (int)((bytes + 7) / 8);
        if (kernel && words <= 1) {
            f.fold = kernel;
            f.fold_n = count * sdt->basic_count;
        }
        publish(&f, parity, in, words);
        err = arrive_and_wait(&f);
        if (!has_result(&f, err))
            return err;
        if (!fold(&f, parity, words, kernel, count * sdt->basic_count, x, acc))
            return MPI_ERR_PROC_FAILED;
    }
    if (rdt->contiguous) {
        memcpy((char *)x->recv.buf + rdt->true_lb, acc, bytes);
        return err;
    }
    size_t copied;
    int uerr = mmpi_typed_unpack(acc, bytes, x->recv.buf, x->recv.count, rdt, &copied);
    return err != MPI_SUCCESS ? err : uerr;
}
