/*
 * osc/create.c: making and unmaking windows (MPI-4.1 §12.2), handle resolution, the
 * window's description in reports, and the window's table of operations (runtime/kind.h),
 * registered here since every program that holds a window made it here. Creation is collective: the members first duplicate the
 * communicator privately (its board carries the window's fences and its free), then each
 * deposits its memory on that board and the last to arrive builds the shared core (win.h).
 * Memory of MPI_Win_allocate is allocated by each member before it arrives; the one block of
 * MPI_Win_allocate_shared by the combine step, members' segments contiguous in rank order
 * (alloc_shared_noncontig may be ignored, §12.2.3). Both are freed with the core, after the
 * last member's MPI_Win_free, so no member ever reads freed memory.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attr/attr.h"
#include "coll/board.h"
#include "comm/create.h"
#include "comm/info.h"
#include "osc/win.h"
#include "runtime/kind.h"

/* Window memory is aligned for any type and a cache line (MPICH test programs store doubles
 * and long doubles at disp 0). */
#define ALIGN 64

struct deposit {
    int flavor;
    char *base;
    MPI_Aint size;
    MPI_Aint disp_unit;
    void *block;   /* Win_allocate: the member's allocation, owned by the core once built */
    bool no_mem;   /* Win_allocate: the member's memory could not be allocated */
};

/* The combine's result: the core, or (core NULL) the error every member returns. */
struct outcome {
    struct mmpi_win_core *core;
    int err;
};

static uint64_t next_id = 1;

static void core_destroy(struct mmpi_win_core *core)
{
    mmpi_fault_core_unregister(&core->fault);
    free(core->world_ranks);
    for (int i = 0; i < core->size; i++) {
        struct mmpi_win_target *t = &core->targets[i];
        pthread_mutex_destroy(&t->acc_lock);
        pthread_mutex_destroy(&t->lock);
        free(t->holds);
        free(t->waits);
        mmpi_win_wlog_free(t);
        while (t->regions) {
            struct mmpi_win_region *r = t->regions;
            t->regions = r->next;
            free(r);
        }
        if (core->blocks)
            free(core->blocks[i]);
    }
    free(core->blocks);
    free(core->shared_block);
    free(core->targets);
    free(core->posted);
    free(core->completed);
    free(core->acc_slots);
    free(core);
}

/* Win_allocate_shared's one block for every member's segment, or NULL (MPI_ERR_NO_MEM) when
 * one member's allocation failed or the segments' total size does not fit in an MPI_Aint or
 * in memory. Not cleared: MPI promises nothing about new window memory, and touching every page
 * of a large window here, by one thread under the board lock, costs seconds. */
static void *shared_block(const struct mmpi_board_instance *inst, int n)
{
    MPI_Aint total = 0;
    for (int i = 0; i < n; i++) {
        const struct deposit *d = mmpi_board_deposit(inst, i);
        if (__builtin_add_overflow(total, d->size, &total))
            return NULL;
    }
    void *block = NULL;
    return posix_memalign(&block, ALIGN, total > 0 ? (size_t)total : 1) ? NULL : block;
}

/* The last arriver's result when the window cannot exist: every member returns err. */
static void create_refused(struct mmpi_board_instance *inst, int err)
{
    struct outcome *o = mmpi_xmalloc(sizeof(*o));
    *o = (struct outcome){NULL, err};
    inst->result = o;
}

/* The last arriver builds the core from every member's deposit (under the board lock). A
 * member whose memory could not be allocated makes every member fail with MPI_ERR_NO_MEM,
 * so that none holds a window the others lack. */
static void create_combine(struct mmpi_board_instance *inst, struct mmpi_comm_core *pc)
{
    if (mmpi_fault_revoked(&pc->fault))
        return;
    int n = pc->size;
    const struct deposit *d0 = mmpi_board_deposit(inst, 0);
    void *block = NULL;
    for (int i = 0; i < n; i++)
        if (((const struct deposit *)mmpi_board_deposit(inst, i))->no_mem) {
            create_refused(inst, MPI_ERR_NO_MEM);
            return;
        }
    if (d0->flavor == MPI_WIN_FLAVOR_SHARED && !(block = shared_block(inst, n))) {
        create_refused(inst, MPI_ERR_NO_MEM);
        return;
    }
    struct mmpi_win_core *core = mmpi_xcalloc(1, sizeof(*core));
    core->id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    core->size = n;
    core->refcount = n;
    core->targets = mmpi_xcalloc((size_t)n, sizeof(*core->targets));
    core->posted = mmpi_xcalloc((size_t)n * (size_t)n, sizeof(uint32_t));
    core->completed = mmpi_xcalloc((size_t)n * (size_t)n, sizeof(uint32_t));
    core->world_ranks = mmpi_xcalloc((size_t)n, sizeof(int));
    /* A line per member: an announcement does not move the neighbours' lines. */
    size_t slot_bytes = (size_t)n * sizeof(*core->acc_slots);
    if (!(core->acc_slots = aligned_alloc(64, slot_bytes)))
        mmpi_die("out of memory allocating %zu bytes", slot_bytes);
    memset(core->acc_slots, 0, slot_bytes);
    core->flavor = d0->flavor;
    for (int i = 0; i < n; i++) {
        const struct deposit *d = mmpi_board_deposit(inst, i);
        struct mmpi_win_target *t = &core->targets[i];
        t->base = d->base;
        t->size = d->size;
        t->disp_unit = d->disp_unit;
        t->world_rank = pc->world_ranks[i];
        core->world_ranks[i] = pc->world_ranks[i];
        t->exclusive = -1;
        t->failed_holder = -1;
        t->holds = mmpi_xcalloc((size_t)n, 1);
        t->waits = mmpi_xcalloc((size_t)n, 1);
        pthread_mutex_init(&t->acc_lock, NULL);
        pthread_mutex_init(&t->lock, NULL);
        if (d->block) {
            if (!core->blocks)
                core->blocks = mmpi_xcalloc((size_t)n, sizeof(void *));
            core->blocks[i] = d->block;
        }
    }
    if (block) {
        core->shared_block = block;
        char *p = block;
        for (int i = 0; i < n; i++) {
            core->targets[i].base = p;
            p += core->targets[i].size;
        }
    }
    /* Revoking the window revokes its private communicator too, so a fence or free blocked in
     * its barrier ends with MPI_ERR_REVOKED (the registry takes only its own leaf mutex). */
    mmpi_fault_core_register(&core->fault, &mmpi_win_fault_ops, n, core->world_ranks);
    mmpi_fault_core_link(&core->fault, &pc->fault);
    struct outcome *o = mmpi_xmalloc(sizeof(*o));
    *o = (struct outcome){core, MPI_SUCCESS};
    inst->result = o;
}

static void set_attrs(struct mmpi_win *w)
{
    const struct mmpi_win_target *t = &w->core->targets[w->rank];
    w->attr_base = t->base;
    w->attr_size = t->size;
    /* The attribute is an int (MPI-4.1 §12.2.6): a unit from MPI_Win_create_c beyond it
     * reads as MPI_UNDEFINED there; MPI_Win_shared_query_c reports it whole. */
    w->attr_disp_unit = t->disp_unit <= INT_MAX ? (int)t->disp_unit : MPI_UNDEFINED;
    w->attr_flavor = w->core->flavor;
    w->attr_model = MPI_WIN_UNIFIED;
}

int mmpi_win_create(struct mmpi_rank *self, struct mmpi_comm *comm, int flavor, void **base,
                    MPI_Aint size, MPI_Aint disp_unit, struct mmpi_info *info,
                    struct mmpi_win **out)
{
    struct mmpi_comm *dup = NULL;
    struct deposit d = {flavor, NULL, size, disp_unit, NULL, false};
    struct mmpi_win *w = NULL;
    int err;

    *out = NULL;
    if (flavor == MPI_WIN_FLAVOR_CREATE) {
        d.base = *base; /* kept even for size 0: MPI_WIN_BASE reports it */
    } else if (flavor == MPI_WIN_FLAVOR_ALLOCATE) {
        /* A failure is the whole window's (create_combine): this member still arrives. */
        if (posix_memalign(&d.block, ALIGN, size > 0 ? (size_t)size : 1)) {
            d.block = NULL;
            d.no_mem = true;
        }
        d.base = d.block;
    } else if (flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        d.size = 0;
        d.disp_unit = 1;
    }
    err = mmpi_comm_dup(self, comm, &dup);
    if (err != MPI_SUCCESS) {
        free(d.block);
        return err;
    }
    struct mmpi_comm_core *pc = dup->core;
    struct mmpi_board_instance *inst =
        mmpi_board_arrive(pc, dup->coll_seq++, dup->rank, &d, create_combine);
    err = mmpi_board_wait_arrived(self, pc, inst);
    err = mmpi_board_result_outcome(pc, inst, err);
    struct outcome *o = err == MPI_SUCCESS ? inst->result : NULL;
    struct mmpi_win_core *core = o ? o->core : NULL;
    if (o && !core)
        err = o->err;
    mmpi_board_leave(pc, inst, dup->rank);
    if (!core) {
        /* No core: nobody took our block. */
        free(d.block);
        mmpi_comm_release(self, dup);
        return err;
    }
    w = mmpi_xcalloc(1, sizeof(*w));
    w->core = core;
    w->comm = dup;
    w->rank = dup->rank;
    w->errhandler = NULL; /* never set: the default handler (errhan/errhandler.c), as in MPICH */
    w->info = info ? mmpi_info_dup(info) : NULL;
    w->locks = mmpi_xcalloc((size_t)core->size, 1);
    set_attrs(w);
    if (flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED)
        *base = core->targets[w->rank].base;
    w->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_WIN, w);
    if (w->handle == MPI_WIN_NULL) {
        /* The others have their window: ours is a member that can only free it. */
        bool freed;
        mmpi_win_free(self, w, &freed);
        return MPI_ERR_NO_MEM;
    }
    *out = w;
    return MPI_SUCCESS;
}

bool mmpi_win_epoch_open(const struct mmpi_win *w)
{
    return w->access || w->exposure || w->nlocks > 0 || w->lock_all;
}

int mmpi_win_free(struct mmpi_rank *self, struct mmpi_win *w, bool *freed)
{
    *freed = false;
    if (mmpi_win_epoch_open(w))
        return MPI_ERR_RMA_SYNC; /* MPI-4.1 §12.2.5: every epoch must be closed */
    struct mmpi_attr_obj o = {MMPI_HANDLE_KIND_WIN, w->handle, &w->attrs};
    int err = w->handle != MPI_WIN_NULL ? mmpi_attr_delete_all(self, &o) : MPI_SUCCESS;
    if (err != MPI_SUCCESS)
        return err;
    /* Collective: nobody's memory goes while another member may still access it. The window
     * goes whatever the synchronization reports (a failed member never frees its part). */
    err = mmpi_win_barrier(self, w);
    /* A revoked window is freed locally, without synchronizing: that is the whole operation,
     * so it succeeds (a handler that aborts on errors must not fire on the recovery path). */
    if (err == MPI_ERR_REVOKED)
        err = MPI_SUCCESS;
    *freed = true;
    if (w->handle != MPI_WIN_NULL)
        mmpi_handle_remove(self, MMPI_HANDLE_KIND_WIN, w->handle);
    mmpi_win_locks_drop(w);
    mmpi_win_handle_free(self, w);
    return err;
}

void mmpi_win_handle_free(struct mmpi_rank *self, struct mmpi_win *w)
{
    mmpi_comm_release(self, w->comm);
    struct mmpi_win_core *core = w->core;
    if (__atomic_sub_fetch(&core->refcount, 1, __ATOMIC_ACQ_REL) == 0)
        core_destroy(core);
    mmpi_errhandler_release(w->errhandler);
    mmpi_info_release(w->info);
    mmpi_attr_list_free(&w->attrs);
    free(w->access);
    free(w->exposure);
    free(w->locks);
    free(w);
}

void mmpi_win_describe(const struct mmpi_win *w, char *buf, size_t len)
{
    if (w->name[0])
        snprintf(buf, len, "window \"%s\" (%d members)", w->name, w->core->size);
    else
        snprintf(buf, len, "window #%llu (%d members)", (unsigned long long)w->core->id,
                 w->core->size);
}

/* ---- The window's table of operations (runtime/kind.h) ---- */

static void win_reclaim(struct mmpi_rank *r, void *obj)
{
    mmpi_win_reclaim(r, obj);
}

/* The hang report's line on a frozen member's window: only one with an epoch open or a
 * sticky failure says something the calls' own lines do not. */
static bool win_report(const void *obj, char *buf, size_t len)
{
    const struct mmpi_win *w = obj;
    if (!mmpi_win_epoch_open(w) && !w->proc_failed)
        return false;
    mmpi_win_state_describe(w, buf, len);
    return true;
}

/* A fence or free meets on the window's private communicator: named by the window's state. */
static bool win_describe_meeting(struct mmpi_rank *owner, const void *obj,
                                 const struct mmpi_comm_core *core, char *buf, size_t len)
{
    const struct mmpi_win *w = obj;
    if (w->comm->core != core)
        return false;
    mmpi_win_state_describe(w, buf, len);
    return true;
}

/* The window's handler; one never set follows the default (errhan.h), with its communicator's
 * handle (MPI-4.1 §9.3). */
static struct mmpi_errhandler *win_errhandler(struct mmpi_rank *self, const void *obj, int *handle)
{
    const struct mmpi_win *w = obj;
    if (!w || !w->errhandler)
        return mmpi_errhandler_default(self, handle);
    *handle = w->handle;
    return w->errhandler;
}

static const struct mmpi_kind_ops win_kind_ops = {.reclaim = win_reclaim,
                                                  .report = win_report,
                                                  .describe_meeting = win_describe_meeting,
                                                  .errhandler = win_errhandler};
MMPI_KIND_REGISTER(MMPI_HANDLE_KIND_WIN, win_kind_ops)
