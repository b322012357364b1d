/*
 * fault/registry.c: the registry of live shared cores (communicators, windows, files) and the
 * generic revoke. docs/design.md "The fault layer": failure publication walks the registry without
 * a global lock, so
 * it is an RCU-protected list (liburcu, memb flavour): walkers (a publishing thread: a dying
 * rank, the hang monitor, the injector's timer) read it inside urcu_memb_read_lock; writers
 * (object creation and destruction) take `registry_lock`, and a destruction waits for a grace
 * period after unlinking, so the embedding object may be freed right after
 * mmpi_fault_core_unregister returns.
 *
 * A thread is registered with liburcu the first time it walks (reader_enter), and unregistered
 * by a thread-specific-data destructor when it exits, as liburcu requires. The same read-side
 * sections and grace periods serve the injector's plan (mmpi_fault_read_begin, inject/inject.c).
 *
 * Revoke sets the flag of the core and its linked cores (seq_cst) and wakes every member: a
 * waiter re-checks its condition, sees the flag and completes with MPI_ERR_REVOKED.
 */
#include <pthread.h>

#include <urcu/urcu-memb.h>
#include <urcu/rculist.h>

#include "fault/fault.h"
#include "mmpi.h"
#include "mpit/mpit.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static CDS_LIST_HEAD(registry);
static int registered_count; /* under registry_lock; atomic reads */

/* ThreadSanitizer cannot see liburcu's grace periods (the library is not instrumented; its
 * ordering is fences and membarrier), so it would report every walk against every unlink and
 * the free after it. In a build with the tool the same ordering is also expressed with a
 * reader-writer lock it understands: walkers hold it for reading over their read-side section,
 * writers for writing while they change the list. Taking it for writing waits for the walkers
 * that may see the node, as the grace period does; a walker never changes the list (no death
 * hook registers or unregisters), so it cannot wait on itself. Without the tool: nothing. */
#if defined(__SANITIZE_THREAD__)
static pthread_rwlock_t tsan_view = PTHREAD_RWLOCK_INITIALIZER;
#define TSAN_VIEW_READ() pthread_rwlock_rdlock(&tsan_view)
#define TSAN_VIEW_WRITE() pthread_rwlock_wrlock(&tsan_view)
#define TSAN_VIEW_END() pthread_rwlock_unlock(&tsan_view)
#else
#define TSAN_VIEW_READ() ((void)0)
#define TSAN_VIEW_WRITE() ((void)0)
#define TSAN_VIEW_END() ((void)0)
#endif

static pthread_once_t reader_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t reader_key;
static __thread bool reader_registered __attribute__((tls_model("initial-exec")));

static void reader_exit(void *unused)
{
    (void)unused;
    urcu_memb_unregister_thread();
}

static void reader_key_init(void)
{
    MMPI_CHECK_PTHREAD(pthread_key_create(&reader_key, reader_exit));
}

/* Enters a read-side section, registering the calling thread with liburcu the first time. */
static void reader_enter(void)
{
    if (__builtin_expect(!reader_registered, 0)) {
        pthread_once(&reader_key_once, reader_key_init);
        urcu_memb_register_thread();
        MMPI_CHECK_PTHREAD(pthread_setspecific(reader_key, &reader_registered));
        reader_registered = true;
    }
    urcu_memb_read_lock();
}

void mmpi_fault_read_begin(void)
{
    reader_enter();
}

void mmpi_fault_read_end(void)
{
    urcu_memb_read_unlock();
}

void mmpi_fault_synchronize(void)
{
    urcu_memb_synchronize_rcu();
}

void mmpi_fault_core_register(struct mmpi_fault_core *fc, const struct mmpi_fault_ops *ops,
                              int size, const int *world_ranks)
{
    fc->ops = ops;
    fc->size = size;
    fc->world_ranks = world_ranks;
    fc->linked[0] = fc->linked[1] = NULL;
    fc->revoked = false;
    fc->registered = true;
    pthread_mutex_lock(&registry_lock);
    TSAN_VIEW_WRITE();
    cds_list_add_rcu(&fc->node, &registry);
    TSAN_VIEW_END();
    __atomic_store_n(&registered_count, registered_count + 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&registry_lock);
}

void mmpi_fault_core_link(struct mmpi_fault_core *fc, struct mmpi_fault_core *other)
{
    fc->linked[fc->linked[0] ? 1 : 0] = other;
}

void mmpi_fault_core_unregister(struct mmpi_fault_core *fc)
{
    if (!fc->registered)
        return;
    pthread_mutex_lock(&registry_lock);
    TSAN_VIEW_WRITE();
    cds_list_del_rcu(&fc->node);
    TSAN_VIEW_END();
    __atomic_store_n(&registered_count, registered_count - 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&registry_lock);
    fc->registered = false;
    urcu_memb_synchronize_rcu();
}

int mmpi_fault_registered_count(void)
{
    return __atomic_load_n(&registered_count, __ATOMIC_RELAXED);
}

void mmpi_fault_registry_death(int dead)
{
    struct mmpi_fault_core *fc;
    reader_enter();
    TSAN_VIEW_READ();
    cds_list_for_each_entry_rcu(fc, &registry, node) {
        if (fc->ops && fc->ops->on_death) {
            for (int i = 0; i < fc->size; i++)
                if (fc->world_ranks[i] == dead)
                    fc->ops->on_death(fc, i);
        }
    }
    TSAN_VIEW_END();
    urcu_memb_read_unlock();
}

static void wake_members(struct mmpi_world *w, const struct mmpi_fault_core *fc)
{
    for (int i = 0; i < fc->size; i++)
        mmpi_rank_wake(w->ranks[fc->world_ranks[i]]);
}

void mmpi_fault_revoke(struct mmpi_world *w, struct mmpi_fault_core *fc)
{
    struct mmpi_fault_core *all[3] = {fc, fc->linked[0], fc->linked[1]};
    /* Queued before the flag is set: a member that sees the flag has the event waiting. */
    if (!__atomic_load_n(&fc->revoked, __ATOMIC_SEQ_CST))
        mmpi_mpit_revoked(fc); /* its members and its linked cores' */
    for (int k = 0; k < 3; k++)
        if (all[k])
            __atomic_store_n(&all[k]->revoked, true, __ATOMIC_SEQ_CST);
    for (int k = 0; k < 3; k++)
        if (all[k])
            wake_members(w, all[k]);
}
