/*
 * board.c: the collective rendezvous of board.h.
 *
 * Memory order: a member writes its deposit, then increments `arrived` (release); a reader
 * that sees arrived == size (acquire) sees every deposit. Departure is symmetric.
 */
#include "coll/board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject/inject.h"
#include "mmpi.h"
#include "runtime/thread.h"
#include "ulfm/ulfm.h"


/* Stands for a NULL deposit, so that "arrived" and "deposited NULL" differ. */
static const char null_deposit;

struct mmpi_board *mmpi_board_new(void)
{
    struct mmpi_board *b = mmpi_xcalloc(1, sizeof(*b));
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&b->lock, NULL));
    return b;
}

void mmpi_board_free(struct mmpi_board *board)
{
    if (!board)
        return;
    /* Instances left by members that failed before leaving. */
    while (board->instances) {
        struct mmpi_board_instance *next = board->instances->next;
        free(board->instances->result);
        free(board->instances);
        board->instances = next;
    }
    free(board->spare);
    free(board->fast);
    free(board->crowd);
    pthread_mutex_destroy(&board->lock);
    free(board);
}

const void *mmpi_board_deposit(const struct mmpi_board_instance *inst, int i)
{
    const void *d = __atomic_load_n(&inst->deposit[i], __ATOMIC_ACQUIRE);
    return d == &null_deposit ? NULL : d;
}

/* Board lock held: frees an unlinked instance, keeping one for the next collective (saves a
 * calloc and a free per collective). */
static void free_instance(struct mmpi_board *b, struct mmpi_board_instance *inst)
{
    free(inst->result); /* combine results are single malloc'ed blocks */
    if (!b->spare)
        b->spare = inst;
    else
        free(inst);
}

/* Board lock held. */
static void unlink_free(struct mmpi_board *b, struct mmpi_board_instance *inst)
{
    for (struct mmpi_board_instance **p = &b->instances; *p; p = &(*p)->next) {
        if (*p == inst) {
            *p = inst->next;
            break;
        }
    }
    free_instance(b, inst);
}

/* Board lock held: a zeroed instance for a board of `size` members. */
static struct mmpi_board_instance *new_instance(struct mmpi_board *b, int size)
{
    size_t deposits = (size_t)size * sizeof(b->instances->deposit[0]);
    size_t bytes = sizeof(struct mmpi_board_instance) + deposits + 2 * (size_t)size;
    struct mmpi_board_instance *inst = b->spare;
    if (inst) {
        b->spare = NULL;
        memset(inst, 0, bytes);
    } else {
        inst = mmpi_xcalloc(1, bytes);
    }
    inst->departed_flags = (uint8_t *)inst->deposit + deposits;
    inst->left_flags = inst->departed_flags + size;
    return inst;
}

/* Board lock held. Whether nobody can touch the instance any more although some members did
 * not leave: each of those has failed and all its threads are parked for good (a rank failed
 * by another thread runs on until its next MPI entry or wait, and may be reading the instance
 * meanwhile). Cheap unless at most as many members are left as ranks have failed. */
static bool abandoned(struct mmpi_comm_core *core, struct mmpi_board_instance *inst)
{
    struct mmpi_world *w = __atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE);
    if (!w || inst->users > mmpi_fault_count(w))
        return false;
    for (int i = 0; i < core->size; i++) {
        if (inst->left_flags[i])
            continue;
        struct mmpi_rank *r = w->ranks[core->world_ranks[i]];
        if (!mmpi_fault_is_failed(r) || !mmpi_thread_all_parked(r))
            return false;
    }
    return true;
}

/* Board lock held: frees the instances that only parked failed members still hold (those whose
 * last live member left before the failed ones had parked). */
static void reap_abandoned(struct mmpi_comm_core *core)
{
    struct mmpi_board *b = core->board;
    if (!mmpi_fault_any(mmpi_world))
        return;
    struct mmpi_board_instance **p = &b->instances;
    while (*p) {
        struct mmpi_board_instance *inst = *p;
        if (abandoned(core, inst)) {
            *p = inst->next;
            free_instance(b, inst);
        } else {
            p = &inst->next;
        }
    }
}

static void wake_members(struct mmpi_comm_core *core)
{
    struct mmpi_world *w = __atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE);
    for (int i = 0; i < core->size; i++)
        mmpi_rank_wake(w->ranks[core->world_ranks[i]]);
}

/* Runs the combine step exactly once (the last arriver and a settling survivor may race) and
 * publishes completion. */
static void complete_once(struct mmpi_comm_core *core, struct mmpi_board_instance *inst,
                          mmpi_board_combine_fn *combine)
{
    struct mmpi_board *b = core->board;
    bool ran = false;
    if (!combine) { /* nothing to run exactly once: no lock (a barrier's hot path) */
        if (!__atomic_exchange_n(&inst->complete, 1, __ATOMIC_ACQ_REL))
            wake_members(core);
        return;
    }
    pthread_mutex_lock(&b->lock);
    if (!__atomic_load_n(&inst->complete, __ATOMIC_ACQUIRE)) {
        if (combine && !mmpi_board_mismatched(inst))
            combine(inst, core);
        __atomic_store_n(&inst->complete, 1, __ATOMIC_RELEASE);
        ran = true;
    }
    pthread_mutex_unlock(&b->lock);
    if (ran)
        wake_members(core);
}

bool mmpi_board_mismatched(const struct mmpi_board_instance *inst)
{
    return __atomic_load_n(&inst->mismatch, __ATOMIC_ACQUIRE) != 0;
}

bool mmpi_board_completed_after_all(struct mmpi_comm_core *core,
                                    struct mmpi_board_instance *inst)
{
    struct mmpi_board *b = core->board;
    pthread_mutex_lock(&b->lock);
    bool done = __atomic_load_n(&inst->complete, __ATOMIC_ACQUIRE);
    pthread_mutex_unlock(&b->lock);
    return done;
}

int mmpi_board_result_outcome(struct mmpi_comm_core *core, struct mmpi_board_instance *inst,
                              int wait_err)
{
    if (wait_err != MPI_SUCCESS && !mmpi_board_completed_after_all(core, inst))
        return wait_err;
    if (!inst->result)
        return mmpi_board_mismatched(inst) ? MPI_ERR_OTHER : MPI_ERR_REVOKED;
    return MPI_SUCCESS;
}

/* Board lock held. Records the first arriver's signature, or flags a different one. Returns
 * whether this arrival revealed the mismatch (then the caller reports it, outside the lock). */
static bool sign(struct mmpi_board_instance *inst, int me, uintptr_t sig, int call)
{
    if (!inst->sig) {
        inst->sig = sig;
        inst->first = me;
        inst->first_call = call;
        return false;
    }
    if (inst->sig == sig || mmpi_board_mismatched(inst))
        return false;
    __atomic_store_n(&inst->mismatch, 1, __ATOMIC_RELEASE);
    return true;
}

void mmpi_board_print_mismatch(int member, int size, const char *call, bool ft,
                               uint64_t number, int first, const char *first_call)
{
    fprintf(stderr,
            "mini_mpi: collective mismatch: member %d of a communicator of %d called %s as its "
            "%scollective #%llu there, member %d called %s; every member must call the same "
            "collectives in the same order (MPI-4.1 §6.12)\n",
            member, size, call, ft ? "fault-tolerant " : "", (unsigned long long)number, first,
            first_call);
}

static void report_mismatch(struct mmpi_comm_core *core, struct mmpi_board_instance *inst,
                            int me, int call, int first, int first_call)
{
    /* Agreement, shrink and validate count apart, from bit 63 (ulfm/ulfm.h). */
    mmpi_board_print_mismatch(me, core->size, call >= 0 ? mmpi_call_name(call) : "a collective",
                              inst->seq >> 63, (inst->seq & ~(1ULL << 63)) + 1, first,
                              first_call >= 0 ? mmpi_call_name(first_call) : "a collective");
    wake_members(core); /* those already waiting return the error now */
}

static bool not_arrived(const void *inst, int i);

struct mmpi_board_instance *mmpi_board_arrive(struct mmpi_comm_core *core, uint64_t seq, int me,
                                              const void *deposit,
                                              mmpi_board_combine_fn *combine)
{
    return mmpi_board_arrive_signed(core, seq, me, deposit, combine, (uintptr_t)combine);
}

struct mmpi_board_instance *mmpi_board_arrive_signed(struct mmpi_comm_core *core, uint64_t seq,
                                                     int me, const void *deposit,
                                                     mmpi_board_combine_fn *combine,
                                                     uintptr_t sig)
{
    struct mmpi_board *b = core->board;
    struct mmpi_board_instance *inst;
    struct mmpi_thread *t = mmpi_thread_self;
    int call = t ? __atomic_load_n(&t->call, __ATOMIC_RELAXED) : -1;

    pthread_mutex_lock(&b->lock);
    for (inst = b->instances; inst && inst->seq != seq; inst = inst->next)
        ;
    if (!inst) {
        reap_abandoned(core);
        inst = new_instance(b, core->size);
        inst->seq = seq;
        inst->users = core->size;
        inst->next = b->instances;
        b->instances = inst;
    }
    /* Signature 0 means "none": a barrier (no combine) signs 1. */
    bool mismatch = sign(inst, me, sig ? sig : 1, call);
    int first = inst->first, first_call = inst->first_call;
    pthread_mutex_unlock(&b->lock);
    if (mismatch)
        report_mismatch(core, inst, me, call, first, first_call);

    /* `kill R during CALL`: R cuts this collective in two, arrives, and dies. */
    struct mmpi_rank *self = mmpi_self;
    bool doomed = mmpi_fault_during_armed(self);
    if (doomed)
        __atomic_store_n(&inst->cut, me + 1, __ATOMIC_RELEASE);
    __atomic_store_n(&inst->deposit[me], deposit ? deposit : (const void *)&null_deposit,
                     __ATOMIC_RELEASE);
    if (__atomic_add_fetch(&inst->arrived, 1, __ATOMIC_ACQ_REL) == core->size)
        complete_once(core, inst, combine);
    else if (mmpi_fault_any(mmpi_world) &&
             mmpi_fault_answer_settles(mmpi_world, core->world_ranks, core->size, not_arrived,
                                       inst, me + 1))
        /* A failed member never arrives, so no arrival completes the instance: the last live
         * arrival settles the outcome of the members waiting with a deferred report (or for
         * every live member, as shrink and agree do), and wakes them. Without this they
         * slept until the hang monitor released reports, which it skips when no wake word
         * moved since its previous release. */
        wake_members(core);
    if (doomed)
        mmpi_fault_during_die(self);
    return inst;
}

static bool not_arrived(const void *inst, int i)
{
    return !__atomic_load_n(&((const struct mmpi_board_instance *)inst)->deposit[i],
                            __ATOMIC_ACQUIRE);
}

/* The outcome of a collective cut by a `during` death for the calling member (fault/report.c's
 * cut rule): MMPI_FAULT_CUT_WAIT until the victim has failed, then MPI_ERR_PROC_FAILED for
 * members ranked above it, -1 (go on) for those below. */
static int cut_outcome(struct mmpi_rank *self, struct mmpi_comm_core *core,
                       struct mmpi_board_instance *inst)
{
    int cut = __atomic_load_n(&inst->cut, __ATOMIC_ACQUIRE);
    if (!cut || !self)
        return -1;
    int victim = cut - 1, mine = -1;
    for (int i = 0; i < core->size && mine < 0; i++)
        if (core->world_ranks[i] == self->world_rank)
            mine = i;
    int outcome = mmpi_fault_cut_outcome(self, mine, victim, core->world_ranks[victim]);
    return outcome == MPI_SUCCESS ? -1 : outcome;
}

bool mmpi_board_cut_excludes(struct mmpi_rank *self, struct mmpi_comm_core *core,
                             struct mmpi_board_instance *inst)
{
    return cut_outcome(self, core, inst) == MPI_ERR_PROC_FAILED;
}

int mmpi_board_test_arrived(struct mmpi_rank *self, struct mmpi_comm_core *core,
                            struct mmpi_board_instance *inst)
{
    if (mmpi_board_mismatched(inst))
        return MPI_ERR_OTHER;
    if (__atomic_load_n(&inst->complete, __ATOMIC_ACQUIRE)) {
        /* A cut member still takes its full part (its deposit is read until completion and
         * departure), but is told of the failure once the victim has died. */
        int cut = cut_outcome(self, core, inst);
        if (cut == MMPI_FAULT_CUT_WAIT)
            return -1;
        return cut == MPI_ERR_PROC_FAILED ? cut : MPI_SUCCESS;
    }
    if (mmpi_fault_revoked(&core->fault))
        return MPI_ERR_REVOKED;
    bool settled;
    if (mmpi_fault_any(mmpi_world) &&
        mmpi_fault_missing_failed(mmpi_world, core->world_ranks, core->size, not_arrived, inst,
                                  &settled)) {
        /* Live members may still arrive or fail: in a blocking wait, what this rank is told
         * waits until they have, or until nobody can progress (the reporting rule,
         * fault/fault.h). Without a rank (a test's own thread) nothing is deferred. */
        if (!settled && mmpi_fault_report_deferred(mmpi_world))
            return -1;
        if (self)
            mmpi_board_notice_missing(self, core, inst);
        return MPI_ERR_PROC_FAILED;
    }
    return -1;
}

/* Appends " 3 5 9" (at most a few dozen) for the members that `missing` selects. */
static void list_members(int size, bool (*missing)(const void *arg, int i), const void *arg,
                         char *buf, size_t len)
{
    size_t used = strlen(buf);
    int shown = 0, more = 0;
    for (int i = 0; i < size; i++) {
        if (!missing(arg, i))
            continue;
        if (shown < 32 && used + 16 < len) {
            used += (size_t)snprintf(buf + used, len - used, " %d", i);
            shown++;
        } else {
            more++;
        }
    }
    if (more && used + 24 < len)
        snprintf(buf + used, len - used, " and %d more", more);
}

static bool not_departed(const void *inst, int i)
{
    return !__atomic_load_n(&((const struct mmpi_board_instance *)inst)->departed_flags[i],
                            __ATOMIC_ACQUIRE);
}

void mmpi_board_describe(struct mmpi_rank *self, struct mmpi_comm_core *core, uint64_t seq,
                         const char *stage, bool (*missing)(const void *arg, int i),
                         const void *arg, char *buf, size_t len)
{
    char comm[224]; /* a name and what its owner adds (comm/describe.c) */
    mmpi_comm_describe(self, core, comm, sizeof comm);
    /* Numbered as the mismatch report numbers them: from 1, agreement and shrink apart. */
    snprintf(buf, len, "%scollective #%llu on %s, waiting for ranks to %s:",
             seq >> 63 ? "fault-tolerant " : "", (unsigned long long)(seq & ~(1ULL << 63)) + 1,
             comm, stage);
    list_members(core->size, missing, arg, buf, len);
}

static void describe_board(struct mmpi_rank *self, struct mmpi_comm_core *core,
                           struct mmpi_board_instance *inst, const char *stage,
                           bool (*missing)(const void *, int), char *buf, size_t len)
{
    mmpi_board_describe(self, core, inst->seq, stage, missing, inst, buf, len);
}

struct arrival_wait {
    struct mmpi_rank *self;
    struct mmpi_comm_core *core;
    struct mmpi_board_instance *inst;
    int result;
};

static bool arrival_ready(void *arg)
{
    struct arrival_wait *a = arg;
    a->result = mmpi_board_test_arrived(a->self, a->core, a->inst);
    return a->result != -1;
}

static void describe_arrival(const void *arg, char *buf, size_t len)
{
    const struct arrival_wait *a = arg;
    describe_board(a->self, a->core, a->inst, "arrive", not_arrived, buf, len);
}

int mmpi_board_wait_arrived(struct mmpi_rank *self, struct mmpi_comm_core *core,
                            struct mmpi_board_instance *inst)
{
    struct arrival_wait a = {self, core, inst, -1};
    /* Straight into the wait, even for the first look: inside it, failure reports are
     * deferred while live members may still arrive (rank.h). */
    mmpi_wait_until_described(self, arrival_ready, &a, describe_arrival);
    return a.result;
}

void mmpi_board_depart(struct mmpi_comm_core *core, struct mmpi_board_instance *inst, int me)
{
    __atomic_store_n(&inst->departed_flags[me], 1, __ATOMIC_RELEASE);
    /* The last of *all* members wakes the others; once one has failed that never happens,
     * so the last live member to depart does, or a survivor sleeping in the departure wait
     * would never re-check. */
    if (__atomic_add_fetch(&inst->departed, 1, __ATOMIC_ACQ_REL) == core->size ||
        (mmpi_fault_any(mmpi_world) &&
         mmpi_fault_answer_settles(mmpi_world, core->world_ranks, core->size, not_departed,
                                   inst, me + 1)))
        wake_members(core);
}

bool mmpi_board_test_departed(struct mmpi_rank *self, struct mmpi_comm_core *core,
                              struct mmpi_board_instance *inst)
{
    (void)self;
    int departed = __atomic_load_n(&inst->departed, __ATOMIC_ACQUIRE);
    if (departed == core->size)
        return true;
    if (!mmpi_fault_any(mmpi_world))
        return false;
    /* Failed members never depart: done when every live member has. */
    struct mmpi_world *w = mmpi_world;
    for (int i = 0; i < core->size; i++) {
        if (!__atomic_load_n(&inst->departed_flags[i], __ATOMIC_ACQUIRE) &&
            !mmpi_fault_is_failed(w->ranks[core->world_ranks[i]]))
            return false;
    }
    return true;
}

struct departure_wait {
    struct mmpi_rank *self;
    struct mmpi_comm_core *core;
    struct mmpi_board_instance *inst;
};

static bool departure_ready(void *arg)
{
    struct departure_wait *d = arg;
    return mmpi_board_test_departed(d->self, d->core, d->inst);
}

static void describe_departure(const void *arg, char *buf, size_t len)
{
    const struct departure_wait *d = arg;
    describe_board(d->self, d->core, d->inst, "finish reading", not_departed, buf, len);
}

bool mmpi_board_departure_missing(struct mmpi_rank *self, struct mmpi_comm_core *core,
                                  struct mmpi_board_instance *inst)
{
    if (__atomic_load_n(&inst->departed, __ATOMIC_ACQUIRE) == core->size)
        return false;
    /* By the flags, as the wait judged: a member sets its flag before it counts itself, so
     * `departed` may still be short of a live member that the wait saw depart. */
    bool missing = false;
    for (int i = 0; i < core->size; i++)
        if (not_departed(inst, i)) {
            mmpi_fault_notice(self, core->world_ranks[i]); /* failed: the wait is over */
            missing = true;
        }
    return missing;
}

void mmpi_board_wait_departed(struct mmpi_rank *self, struct mmpi_comm_core *core,
                              struct mmpi_board_instance *inst)
{
    struct departure_wait d = {self, core, inst};
    if (!departure_ready(&d))
        mmpi_wait_until_described(self, departure_ready, &d, describe_departure);
}

static bool listed(const struct mmpi_board *b, const struct mmpi_board_instance *inst)
{
    for (const struct mmpi_board_instance *i = b->instances; i; i = i->next)
        if (i == inst)
            return true;
    return false;
}

void mmpi_board_leave(struct mmpi_comm_core *core, struct mmpi_board_instance *inst, int me)
{
    struct mmpi_board *b = core->board;
    pthread_mutex_lock(&b->lock);
    /* After the world ended (runtime/reclaim.c abandoning a failed rank's requests), the
     * instance may already be gone: freed once only parked failed members held it. */
    if (!__atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE) && !listed(b, inst)) {
        pthread_mutex_unlock(&b->lock);
        return;
    }
    inst->left_flags[me] = 1;
    if (--inst->users == 0 || abandoned(core, inst))
        unlink_free(b, inst);
    pthread_mutex_unlock(&b->lock);
}

int mmpi_board_count(struct mmpi_comm_core *core)
{
    struct mmpi_board *b = core->board;
    int n = 0;
    pthread_mutex_lock(&b->lock);
    for (struct mmpi_board_instance *inst = b->instances; inst; inst = inst->next)
        n++;
    pthread_mutex_unlock(&b->lock);
    return n;
}

int mmpi_board_test_settled(struct mmpi_comm_core *core, struct mmpi_board_instance *inst,
                            mmpi_board_combine_fn *combine)
{
    if (mmpi_board_mismatched(inst))
        return MPI_ERR_OTHER; /* no combine ran, or will: inst->result stays NULL */
    if (__atomic_load_n(&inst->complete, __ATOMIC_ACQUIRE))
        return MPI_SUCCESS;
    struct mmpi_world *w = __atomic_load_n(&mmpi_world, __ATOMIC_ACQUIRE);
    for (int i = 0; i < core->size; i++) {
        if (!__atomic_load_n(&inst->deposit[i], __ATOMIC_ACQUIRE) &&
            !mmpi_fault_is_failed(w->ranks[core->world_ranks[i]]))
            return -1; /* a live member has not arrived yet */
    }
    complete_once(core, inst, combine);
    return MPI_SUCCESS;
}

struct settle_wait {
    struct mmpi_rank *self;
    struct mmpi_comm_core *core;
    struct mmpi_board_instance *inst;
    mmpi_board_combine_fn *combine;
};

static bool settled(void *arg)
{
    struct settle_wait *s = arg;
    return mmpi_board_test_settled(s->core, s->inst, s->combine) != -1;
}

static void describe_settle(const void *arg, char *buf, size_t len)
{
    const struct settle_wait *s = arg;
    describe_board(s->self, s->core, s->inst, "arrive or fail (agreement)", not_arrived, buf,
                   len);
}

void mmpi_board_wait_settled(struct mmpi_rank *self, struct mmpi_comm_core *core,
                             struct mmpi_board_instance *inst, mmpi_board_combine_fn *combine)
{
    struct settle_wait s = {self, core, inst, combine};
    if (!settled(&s))
        mmpi_wait_until_described(self, settled, &s, describe_settle);
}

bool mmpi_board_arrived(const struct mmpi_board_instance *inst, int i)
{
    return __atomic_load_n(&inst->deposit[i], __ATOMIC_ACQUIRE) != NULL;
}

void mmpi_board_notice_missing(struct mmpi_rank *self, struct mmpi_comm_core *core,
                               struct mmpi_board_instance *inst)
{
    mmpi_fault_notice_missing(self, core->world_ranks, core->size, not_arrived, inst);
}
