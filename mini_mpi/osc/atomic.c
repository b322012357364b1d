/*
 * osc/atomic.c: how accumulates are atomic at a target (MPI-4.1 §12.7.1: accumulate
 * operations on the same location are atomic with respect to each other). Two mechanisms, one
 * rule that keeps them atomic with respect to each other too:
 *
 * - One element (Fetch_and_op; a Get_accumulate, Accumulate or Compare_and_swap of one
 *   element) of a 4- or 8-byte predefined type at an aligned address is one atomic instruction
 *   on the target's memory: a fetch-and-add for an integer sum, an exchange for MPI_REPLACE, a
 *   load for MPI_NO_OP, else a compare-and-swap loop around the op's kernel. No mutex, no call
 *   that may sleep: under contention the ranks pay only the cache line's trips.
 * - Everything else combines under the target's accumulate mutex (acc_lock).
 *
 * The rule (a Dekker handshake, every step sequentially consistent): an atomic operation
 * announces itself in its origin's slot (the target's member number + 1) and then reads the
 * target's acc_locked count; a mutex holder first raises acc_locked and then waits until no
 * slot announces its target. Either the atomic operation sees acc_locked and withdraws (it
 * clears its slot and takes the mutex path), or the mutex holder sees the slot and waits the
 * few instructions it takes. Slots are read only at targets where an atomic operation ever
 * ran (atomic_used), so windows that never use one pay one load per mutex combine. A member
 * whose rank died in the middle of its atomic instruction is not waited for.
 */
#include <linux/membarrier.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "datatype/datatype.h"
#include "op/op.h"
#include "op/word.h"
#include "osc/win.h"
#include "runtime/wait.h"
#include "util/futex.h"

/* Whether (count, dt) is exactly one element of a `size`-byte predefined type with no gaps. */
static bool one_element(size_t count, const struct mmpi_datatype *dt, size_t size)
{
    return count == 1 && dt->size == size && dt->contiguous && dt->extent == (MPI_Aint)size &&
           dt->true_lb == 0;
}

/* The element size atomic.c handles for (tcount, tdt) at taddr: 4 or 8, else 0. */
static size_t atomic_size(size_t tcount, const struct mmpi_datatype *tdt, const char *taddr)
{
    size_t n = tdt->size;
    if ((n != 4 && n != 8) || !tdt->predefined || !one_element(tcount, tdt, n) ||
        ((uintptr_t)taddr & (n - 1)))
        return 0;
    return n;
}

/* The member's announcement slot (win.h). */
static uint32_t *slot_of(struct mmpi_win_core *core, int member)
{
    return &core->acc_slots[member].target;
}

/* Waits until no member's slot announces target (the caller raised acc_locked). */
static void wait_announced(struct mmpi_win_core *core, int target)
{
    uint32_t mark = (uint32_t)target + 1;
    for (int m = 0; m < core->size; m++) {
        for (unsigned spins = 0; __atomic_load_n(slot_of(core, m), __ATOMIC_SEQ_CST) == mark;
             spins++) {
            if (spins < 64) {
                mmpi_cpu_relax();
                continue;
            }
            /* Its rank-thread may have lost its CPU between announcing and withdrawing, or
             * died (a dead rank never clears its slot). */
            if (mmpi_osc_member_failed(core, m))
                break;
            sched_yield();
        }
    }
}

/* The mutex side's fence of the handshake: membarrier(2) when the atomic side's is a compiler
 * barrier (mmpi_wake_fence, runtime/wait.h), so that it makes every running thread's
 * announcement visible before the slots are read; else a full fence. */
static void heavy_fence(void)
{
    if (__atomic_load_n(&mmpi_wake_asym, __ATOMIC_ACQUIRE) == MMPI_WAKE_ASYM_UNKNOWN)
        mmpi_wake_fence_slow(); /* settles which, as the atomic side's first fence does */
    if (__atomic_load_n(&mmpi_wake_asym, __ATOMIC_ACQUIRE) != MMPI_WAKE_ASYM_YES)
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    else if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
        mmpi_die("membarrier failed after registration");
}

void mmpi_win_acc_lock(struct mmpi_win_core *core, int target)
{
    struct mmpi_win_target *t = &core->targets[target];
    pthread_mutex_lock(&t->acc_lock);
    __atomic_fetch_add(&t->acc_locked, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&t->atomic_used, __ATOMIC_SEQ_CST)) {
        heavy_fence();
        wait_announced(core, target);
    }
}

void mmpi_win_acc_unlock(struct mmpi_win_core *core, int target)
{
    struct mmpi_win_target *t = &core->targets[target];
    __atomic_fetch_sub(&t->acc_locked, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&t->acc_lock);
}

/* Announces an atomic operation of member `origin` at target: true when it may run (then
 * withdraw() after it), false when a mutex holder is there (take the mutex path). */
static bool announce(struct mmpi_win_core *core, int origin, int target)
{
    struct mmpi_win_target *t = &core->targets[target];
    if (!__atomic_load_n(&t->atomic_used, __ATOMIC_RELAXED))
        __atomic_store_n(&t->atomic_used, 1, __ATOMIC_SEQ_CST);
    uint32_t *slot = slot_of(core, origin);
    __atomic_store_n(slot, (uint32_t)target + 1, __ATOMIC_RELAXED);
    mmpi_wake_fence(); /* the light side of heavy_fence */
    if (!__atomic_load_n(&t->acc_locked, __ATOMIC_RELAXED))
        return true;
    __atomic_store_n(slot, 0, __ATOMIC_RELEASE);
    return false;
}

static void withdraw(struct mmpi_win_core *core, int origin)
{
    __atomic_store_n(slot_of(core, origin), 0, __ATOMIC_RELEASE);
}

/* One bits-wide element at p, atomically: *p = *in op *p (in: NULL for MPI_NO_OP), the old
 * value to *old when old is not NULL (rmw); *p = *in if *p equals *cmp, the old value to *old
 * (cas). in, cmp and old may be unaligned. */
#define ATOMIC_OPS(bits)                                                                      \
    static void rmw##bits(void *vp, const void *vin, void *vold, const struct mmpi_op *op,    \
                          mmpi_op_kernel *kernel)                                             \
    {                                                                                         \
        uint##bits##_t *p = vp, in = 0, old;                                                  \
        if (vin)                                                                              \
            memcpy(&in, vin, sizeof(in));                                                     \
        if (op->index == MMPI_OPI_NO_OP) {                                                    \
            old = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                       \
        } else if (op->index == MMPI_OPI_REPLACE) {                                           \
            old = __atomic_exchange_n(p, in, __ATOMIC_SEQ_CST);                               \
        } else if (!kernel) {                                  /* an integer sum */           \
            old = __atomic_fetch_add(p, in, __ATOMIC_SEQ_CST); /* wraps, as the kernel */     \
        } else {                                                                              \
            uint##bits##_t next;                                                              \
            old = __atomic_load_n(p, __ATOMIC_RELAXED);                                       \
            do {                                                                              \
                next = old;                                                                   \
                kernel(&in, &next, 1);                                                        \
            } while (!__atomic_compare_exchange_n(p, &old, next, false, __ATOMIC_SEQ_CST,     \
                                                  __ATOMIC_RELAXED));                         \
        }                                                                                     \
        if (vold)                                                                             \
            memcpy(vold, &old, sizeof(old));                                                  \
    }                                                                                         \
    static void cas##bits(void *vp, const void *vin, const void *vcmp, void *vold)            \
    {                                                                                         \
        uint##bits##_t in, want;                                                              \
        memcpy(&in, vin, sizeof(in));                                                         \
        memcpy(&want, vcmp, sizeof(want));                                                    \
        __atomic_compare_exchange_n((uint##bits##_t *)vp, &want, in, false, __ATOMIC_SEQ_CST, \
                                    __ATOMIC_SEQ_CST);                                        \
        memcpy(vold, &want, sizeof(want)); /* the old value, equal or not */                  \
    }
ATOMIC_OPS(32)
ATOMIC_OPS(64)
#undef ATOMIC_OPS

bool mmpi_win_acc_atomic(struct mmpi_win *w, int target, const struct mmpi_win_buf *origin,
                         const struct mmpi_win_buf *result, char *taddr, size_t tcount,
                         const struct mmpi_datatype *tdt, const struct mmpi_op *op)
{
    size_t n = atomic_size(tcount, tdt, taddr);
    if (!n)
        return false;
    bool reads = op->index != MMPI_OPI_NO_OP;
    if ((reads && (!origin || !one_element(origin->count, origin->dt, n))) ||
        (result && !one_element(result->count, result->dt, n)))
        return false;
    /* One table lookup for the common integer sum (a fetch-and-add), the kernel otherwise. */
    int word = op->index == MMPI_OPI_SUM ? mmpi_op_word_for(op->index, tdt->basic) : 0;
    bool int_sum = word && (word & 7) != MMPI_OP_WORD_F32 && (word & 7) != MMPI_OP_WORD_F64;
    mmpi_op_kernel *kernel = NULL;
    if (reads && op->index != MMPI_OPI_REPLACE && !int_sum &&
        !(kernel = mmpi_op_kernel_for(op->index, tdt->basic)))
        return false;
    if (!announce(w->core, w->rank, target))
        return false;
    const void *in = reads ? origin->buf : NULL;
    void *old = result ? result->buf : NULL;
    if (n == 4)
        rmw32(taddr, in, old, op, kernel);
    else
        rmw64(taddr, in, old, op, kernel);
    withdraw(w->core, w->rank);
    return true;
}

bool mmpi_win_cas_atomic(struct mmpi_win *w, int target, const void *origin, const void *compare,
                         void *result, const struct mmpi_datatype *dt, char *taddr)
{
    size_t n = atomic_size(1, dt, taddr);
    if (!n || !announce(w->core, w->rank, target))
        return false;
    if (n == 4)
        cas32(taddr, origin, compare, result);
    else
        cas64(taddr, origin, compare, result);
    withdraw(w->core, w->rank);
    return true;
}
