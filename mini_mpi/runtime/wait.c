/*
 * wait.c: how a rank waits. A waiting thread spins briefly (a peer on the other core often
 * answers within a microsecond), then sleeps on its rank's wake word, so that hundreds of
 * rank-threads can share two cores. Anyone who changes what a waiter's condition reads bumps the
 * word and wakes sleepers; a failure wakes every rank, so no wait outlives a peer's death
 * unnoticed.
 *
 * Ordering (all seq_cst): waker: word++, then read sleepers; waiter: sleepers++, then futex_wait
 * on the word value it read *before* evaluating its condition. Either the waker sees the
 * sleeper and wakes it, or the futex sees the changed word and does not sleep.
 *
 * A waiter evaluates its condition once more after sleepers++ and before it says it is asleep,
 * which allows a cheaper waker on hot paths (mmpi_rank_wake_if_asleep, wait.h): change the
 * condition, fence, then wake only if sleepers > 0. Either that waker sees the sleeper, or the
 * sleeper's second look sees the change (both sides: write, fence, read). The waker's fence
 * costs a store-buffer drain on every collective; waits entered through mmpi_wait_until_light
 * move it to the sleeper instead (an asymmetric fence): the sleeper runs membarrier(2), which
 * makes every running thread of the process execute a full barrier, and wakers then need only
 * a compiler barrier (mmpi_wake_fence). Without membarrier both sides use real fences. A thread the
 * hang monitor sees ASLEEP has passed that look, so the monitor's rule (a sleeper moves only
 * when its word does) holds: every later change to its condition is followed by a bump.
 */
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mmpi.h"
#include "mpit/mpit.h"
#include "runtime/cpu_bind.h"
#include "runtime/hang.h"
#include "runtime/kind.h"
#include "runtime/thread.h"
#include "runtime/wait.h"
#include "util/futex.h"

/* The calling thread waits in mmpi_wait_until_light: heavy fence before its last look. */
static __thread bool light_wakers __attribute__((tls_model("initial-exec")));
/* mmpi_wait_until_counted's shared count of sleepers, or NULL. */
static __thread uint32_t *group_sleepers __attribute__((tls_model("initial-exec")));

static pthread_once_t asym_once = PTHREAD_ONCE_INIT;
/* atomic, set once (wait.h): membarrier's expedited private barrier is registered or not; read
 * inline on every collective's wake, where pthread_once cost a call and a dozen instructions */
int mmpi_wake_asym = MMPI_WAKE_ASYM_UNKNOWN;

static void asym_init(void)
{
    bool ok = syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
    __atomic_store_n(&mmpi_wake_asym, ok ? MMPI_WAKE_ASYM_YES : MMPI_WAKE_ASYM_NO,
                     __ATOMIC_RELEASE);
}

static bool asym_usable(void)
{
    if (__builtin_expect(__atomic_load_n(&mmpi_wake_asym, __ATOMIC_ACQUIRE) ==
                         MMPI_WAKE_ASYM_UNKNOWN, 0))
        pthread_once(&asym_once, asym_init);
    return __atomic_load_n(&mmpi_wake_asym, __ATOMIC_ACQUIRE) == MMPI_WAKE_ASYM_YES;
}

void mmpi_wake_fence_slow(void)
{
    if (asym_usable())
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* The sleeper's side of mmpi_wake_fence. */
static void heavy_fence(void)
{
    if (!asym_usable())
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    else if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
        mmpi_die("membarrier failed after registration");
}

#define SPIN_ITERATIONS 200
#define YIELD_ROUNDS 20

void mmpi_rank_wake(struct mmpi_rank *rank)
{
    __atomic_fetch_add(&rank->wake_word, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&rank->sleepers, __ATOMIC_SEQ_CST))
        mmpi_futex_wake_all(&rank->wake_word);
}

void mmpi_rank_wake_if_asleep(struct mmpi_rank *rank)
{
    if (__atomic_load_n(&rank->sleepers, __ATOMIC_SEQ_CST))
        mmpi_rank_wake(rank);
}

void mmpi_world_wake_all(struct mmpi_world *world)
{
    for (int i = 0; i < mmpi_world_nranks(world); i++)
        mmpi_rank_wake(world->ranks[i]);
}

/* Sleeps on the rank's wake word unless it moved past `seen` or ready(arg) holds once the
 * sleeper is counted (true then: the wait is over). The thread's record says it is asleep
 * meanwhile; if the hang detector froze it, it stays parked (mmpi_hang_park). */
static bool sleep_on_word(struct mmpi_rank *self, struct mmpi_thread *t, uint32_t seen,
                          bool (*ready)(void *arg), void *arg)
{
    uint32_t *group = group_sleepers;
    if (group)
        __atomic_fetch_add(group, 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&self->sleepers, 1, __ATOMIC_SEQ_CST);
    if (light_wakers)
        heavy_fence();
    if (ready(arg)) { /* the look a conditional waker relies on (see the top) */
        __atomic_fetch_sub(&self->sleepers, 1, __ATOMIC_SEQ_CST);
        if (group)
            __atomic_fetch_sub(group, 1, __ATOMIC_SEQ_CST);
        return true;
    }
    if (t) {
        __atomic_store_n(&t->seen, seen, __ATOMIC_RELAXED); /* published by the store below */
        __atomic_store_n(&t->state, MMPI_THREAD_ASLEEP, __ATOMIC_SEQ_CST);
    }
    mmpi_futex_wait(&self->wake_word, seen, NULL);
    if (t) {
        int asleep = MMPI_THREAD_ASLEEP;
        if (!__atomic_compare_exchange_n(&t->state, &asleep, MMPI_THREAD_RUNNING, false,
                                         __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            mmpi_hang_park(t); /* frozen: returns once thawed, state RUNNING again */
    }
    __atomic_fetch_sub(&self->sleepers, 1, __ATOMIC_SEQ_CST);
    if (group)
        __atomic_fetch_sub(group, 1, __ATOMIC_SEQ_CST);
    return false;
}

/* A spin that failed, followed by a wait that the yield rounds ended, means that the awaited
 * thread ran on this CPU while we spun: it could not answer until we stepped aside. That is
 * the state a CPU-bound process produces with ranks <= CPUs (both ranks on one CPU, the other
 * process alone on the other; the load balancer leaves a 2-1 split alone), where a 6 us spin
 * before every message is pure loss (docs/performance.md, "Under load"). After SPIN_MISSES
 * such waits in a row, this thread stops spinning (every PROBE_PERIOD-th wait spins again to
 * notice that the awaited rank moved away): a yield hands the CPU straight to that rank.
 * Moving this thread to the other CPU (sched_setaffinity without this CPU, then the old mask
 * back) was tried: the next futex wake-up put it back beside its peer within ~6 ms. */
#define SPIN_MISSES 8
#define PROBE_PERIOD 64
static __thread unsigned spin_misses __attribute__((tls_model("initial-exec")));
static __thread unsigned waits_unspun __attribute__((tls_model("initial-exec")));

/* The rule above, also for coll/fast.c's own poll loop (wait.h). */
bool mmpi_spin_worthwhile(void)
{
    if (mmpi_cpu_own())
        return true; /* the awaited rank is never on this CPU */
    return spin_misses < SPIN_MISSES || !(++waits_unspun % PROBE_PERIOD);
}

void mmpi_spin_outcome(bool spin_ended_wait)
{
    if (spin_ended_wait)
        spin_misses = 0;
    else if (spin_misses < SPIN_MISSES)
        spin_misses++;
}

/* Spinning only pays when the awaited rank can run meanwhile on another core. With more ranks
 * than cores it mostly cannot: a spin (a few microseconds of PAUSE) then only delays the ranks
 * this one waits for, so oversubscribed worlds go straight to yielding. */
static int spin_iterations(const struct mmpi_world *w)
{
    if (mmpi_world_nranks(w) > mmpi_usable_cpus() || !mmpi_spin_worthwhile())
        return 0;
    return SPIN_ITERATIONS;
}

/* self's nonblocking collectives need no polling: before a wait sleeps, the communicator's
 * progress (runtime/kind.h) runs the steps that can run. Out of line: the loop only tests. */
static __attribute__((noinline)) void progress_collectives(struct mmpi_rank *self)
{
    void (*progress)(struct mmpi_rank *) = mmpi_kind_ops(MMPI_HANDLE_KIND_COMM)->progress;
    if (progress)
        progress(self);
}

/* A rank-thread with a CPU of its own (runtime/cpu_bind.c) polls without yielding: the rank it
 * waits for runs elsewhere, and a yield would hand this CPU to whatever else shares it (another
 * busy process: a whole time slice). It polls for own_poll_seconds, then sleeps, so that a long
 * wait costs no CPU.
 *
 * How long: MMPI_OWN_CPU_POLL_SECONDS, unless wake-ups are slow. When waking a sleeper takes
 * longer than the poll (a virtual machine whose idle CPU must be woken through its host: tens of
 * microseconds), a ping-pong can settle into a cycle where each side gives up just before the
 * answer, sleeps, and every message costs a wake-up (77 us per message where 0.3 is usual). So
 * a wait that slept but ended soon after (within 4 polls) doubles this thread's poll, up to
 * OWN_POLL_MAX_SECONDS; a wait that slept longer (the peer was busy: polling longer would only
 * have burnt the CPU) sets it back. */
#define OWN_POLL_MAX_SECONDS 1e-3
static __thread double own_poll_seconds __attribute__((tls_model("initial-exec")));

/* True: ready. False: gave up; *start is when the poll began (read late: a wait that ends in the
 * first iterations reads no clock). */
static bool poll_own_cpu(bool (*ready)(void *arg), void *arg, double *start)
{
    if (!own_poll_seconds)
        own_poll_seconds = MMPI_OWN_CPU_POLL_SECONDS;
    double until = 0;
    for (unsigned i = 0;; i++) {
        if (ready(arg))
            return true;
        mmpi_cpu_relax();
        if ((i & 63) == 63) { /* a clock read costs a few PAUSEs */
            double now = mmpi_now();
            if (!until) {
                *start = now;
                until = now + own_poll_seconds;
            } else if (now > until) {
                return false;
            }
        }
    }
}

static void adapt_own_poll(double waited)
{
    if (waited < 4 * own_poll_seconds)
        own_poll_seconds = own_poll_seconds * 2 < OWN_POLL_MAX_SECONDS ? own_poll_seconds * 2
                                                                       : OWN_POLL_MAX_SECONDS;
    else
        own_poll_seconds = MMPI_OWN_CPU_POLL_SECONDS;
}

static void wait_loop(struct mmpi_rank *self, bool (*ready)(void *arg), void *arg,
                      mmpi_wait_describe_fn *describe)
{
    bool own = mmpi_cpu_own();
    double poll_start = 0;
    if (own && poll_own_cpu(ready, arg, &poll_start))
        return;
    int spins = own ? 0 : spin_iterations(self->world);
    for (int i = 0; i < spins; i++) {
        if (ready(arg)) {
            mmpi_spin_outcome(true);
            return;
        }
        mmpi_cpu_relax();
    }
    /* Then let other runnable ranks (often the one we wait for, on this core) run a few times
     * before paying for a sleep and a wake-up: with more ranks than cores this is what makes a
     * barrier cost a few context switches instead of a futex round trip per rank. */
    for (int i = 0; !own && i < YIELD_ROUNDS; i++) {
        if (ready(arg)) {
            if (spins && i > 0)
                mmpi_spin_outcome(false);
            return;
        }
        sched_yield();
    }
    struct mmpi_thread *t = mmpi_thread_self;
    if (t && t->rank != self)
        t = NULL; /* a unit test driving another rank's wait: not this thread's record */
    if (t) {
        t->describe = describe;
        t->arg = arg;
        double now = mmpi_now();
        __atomic_store(&t->since, &now, __ATOMIC_RELAXED); /* the monitor reads it (thread.h) */
    }
    for (;;) {
        uint32_t seen = __atomic_load_n(&self->wake_word, __ATOMIC_SEQ_CST);
        if (ready(arg))
            break;
        mmpi_rank_check_alive(self);
        mmpi_mpit_dispatch(self, MPI_T_CB_REQUIRE_MPI_RESTRICTED); /* tool events: no lock */
        if (__atomic_load_n(&self->coll_pending, __ATOMIC_ACQUIRE))
            progress_collectives(self);
        if (sleep_on_word(self, t, seen, ready, arg))
            break;
    }
    if (t)
        t->describe = NULL;
    if (own)
        adapt_own_poll(mmpi_now() - poll_start);
}

void mmpi_wait_until_described(struct mmpi_rank *self, bool (*ready)(void *arg), void *arg,
                               mmpi_wait_describe_fn *describe)
{
    /* Inside, failure reports may be deferred (fault/report.c's reporting rule). */
    bool outer = mmpi_fault_wait_begin(self->world);
    wait_loop(self, ready, arg, describe);
    mmpi_fault_wait_end(outer);
}

void mmpi_wait_until_light(struct mmpi_rank *self, bool (*ready)(void *arg), void *arg,
                           mmpi_wait_describe_fn *describe)
{
    bool outer = light_wakers;
    light_wakers = true;
    mmpi_wait_until_described(self, ready, arg, describe);
    light_wakers = outer;
}

void mmpi_wait_until_counted(struct mmpi_rank *self, bool (*ready)(void *arg), void *arg,
                             mmpi_wait_describe_fn *describe, uint32_t *sleepers)
{
    uint32_t *outer = group_sleepers;
    group_sleepers = sleepers;
    mmpi_wait_until_light(self, ready, arg, describe);
    group_sleepers = outer;
}

void mmpi_wait_until(struct mmpi_rank *self, bool (*ready)(void *arg), void *arg)
{
    mmpi_wait_until_described(self, ready, arg, NULL);
}
