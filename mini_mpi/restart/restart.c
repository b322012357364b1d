/*
 * restart/restart.c: the epochs of the launcher's MPI_COMM_WORLD and the start of new
 * incarnations (restart.h states the model and the epoch rule). It owns the world's epoch
 * table, the one decision "start an incarnation or join the one starting" (under the restart
 * lock, so however many ranks ask, one incarnation starts), moving a rank's handle between
 * epochs, and routing point-to-point to the pair's epoch.
 *
 * Not here: starting the thread (ranks_as_threads.c, through mmpi_world_add_ranks and
 * mmpi_world_start_rank, as spawn does), the entry points and the request of irestart
 * (restart_api.c).
 *
 * The table lives in a file-static record tied to the world that created it (one world per
 * process at a time; unit-test worlds that never restart never create it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "restart/restart.h"
#include "runtime/private_image.h"

struct epoch {
    struct mmpi_comm_core *core; /* one reference, dropped at world end */
    int *birth;                  /* [core->size]: epoch in which each member's incarnation began */
};

struct restart_world {
    struct mmpi_world *world;    /* immutable */
    pthread_mutex_t lock;        /* appends to epochs, `starting` */
    int nepochs;                 /* atomic (release store under lock): epochs[0..n) immutable */
    struct epoch epochs[MMPI_RESTART_MAX_EPOCHS];
};

static struct restart_world *state; /* atomic; created at the first restart call */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;

static struct restart_world *state_get(struct mmpi_world *w)
{
    struct restart_world *s = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
    if (s && s->world == w)
        return s;
    pthread_mutex_lock(&state_lock);
    s = state;
    if (!s || s->world != w) {
        s = mmpi_xcalloc(1, sizeof(*s));
        s->world = w;
        MMPI_CHECK_PTHREAD(pthread_mutex_init(&s->lock, NULL));
        mmpi_comm_core_retain(w->world_core);
        s->epochs[0].core = w->world_core;
        s->epochs[0].birth = mmpi_xcalloc((size_t)w->world_core->size, sizeof(int));
        s->nepochs = 1;
        __atomic_store_n(&state, s, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&state_lock);
    return s;
}

static int nepochs(const struct restart_world *s)
{
    return __atomic_load_n(&s->nepochs, __ATOMIC_ACQUIRE);
}

/* The caller's restart record, created (born in epoch 0) for a rank of the launcher's world
 * whose handle moves for the first time. */
static struct mmpi_restart_rank *rank_state(struct mmpi_rank *self)
{
    if (!self->restart) {
        struct mmpi_restart_rank *rr = mmpi_xcalloc(1, sizeof(*rr));
        self->restart = rr; /* born = current = 0 */
    }
    return self->restart;
}

/* Whether self runs in the launcher's MPI_COMM_WORLD (or an epoch of it). */
static bool in_launcher_world(const struct mmpi_rank *self)
{
    return self->restart || self->world_core == self->world->world_core;
}

struct mmpi_comm *mmpi_restart_route_slow(struct mmpi_rank *self, int peer)
{
    struct mmpi_restart_rank *rr = self->restart;
    struct restart_world *s = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
    if (peer < 0 || !s || peer >= self->world_comm.core->size)
        return &self->world_comm; /* wildcards, MPI_PROC_NULL, bad ranks: the handle's epoch */
    int birth = s->epochs[rr->current].birth[peer];
    int e = birth > rr->born ? birth : rr->born;
    if (e == rr->current)
        return &self->world_comm;
    if (!rr->routes)
        rr->routes = mmpi_xcalloc(MMPI_RESTART_MAX_EPOCHS, sizeof(*rr->routes));
    struct mmpi_comm *c = rr->routes[e];
    if (!c) {
        c = mmpi_xcalloc(1, sizeof(*c));
        c->core = s->epochs[e].core;
        mmpi_comm_core_retain(c->core);
        c->rank = self->app_rank;
        c->handle = MPI_COMM_WORLD;
        strcpy(c->name, "MPI_COMM_WORLD");
        rr->routes[e] = c;
    }
    /* Borrowed: errors on the route raise on MPI_COMM_WORLD's handler. */
    c->errhandler = self->world_comm.errhandler;
    return c;
}

int mmpi_restart_begin(struct mmpi_rank *self, int rank, int *slot)
{
    struct mmpi_world *w = self->world;
    if (!in_launcher_world(self))
        return MPI_ERR_COMM;
    if (mmpi_fault_revoked(&self->world_comm.core->fault))
        return MPI_ERR_REVOKED;
    struct restart_world *s = state_get(w);
    int err = MPI_SUCCESS;

    pthread_mutex_lock(&s->lock);
    int n = s->nepochs;
    const struct epoch *newest = &s->epochs[n - 1];
    int cur = newest->core->world_ranks[rank];
    *slot = cur;
    /* Alive, or an incarnation already starting (its slot is in the newest epoch and not
     * failed): join it. */
    if (!mmpi_fault_world_rank_failed(w, cur))
        goto fn_exit;
    if (mmpi_fault_revoked(&newest->core->fault)) {
        err = MPI_ERR_REVOKED;
        goto fn_exit;
    }
    if (n == MMPI_RESTART_MAX_EPOCHS) {
        fprintf(stderr, "mini_mpi: MPIX_Comm_restart_rank: the job has made %d restarts, the "
                        "most it can\n", n - 1);
        err = MPI_ERR_SPAWN;
        goto fn_exit;
    }
    mmpi_main_fn main_fn = w->entry;
    if (w->config.privatize && !mmpi_private_images_load_file("/proc/self/exe", 1, rank,
                                                              &main_fn, NULL)) {
        err = MPI_ERR_SPAWN;
        goto fn_exit;
    }
    int ns = mmpi_world_add_ranks(w, 1);
    if (ns < 0) {
        fprintf(stderr, "mini_mpi: MPIX_Comm_restart_rank: cannot add a rank: the job has "
                        "held %d and holds at most %d over its lifetime\n",
                mmpi_world_nranks(w), MMPI_MAX_RANKS);
        err = MPI_ERR_SPAWN; /* the image stays loaded: never reused, freed at exit */
        goto fn_exit;
    }
    int size = newest->core->size;
    int *world_ranks = mmpi_xmalloc((size_t)size * sizeof(int));
    int *birth = mmpi_xmalloc((size_t)size * sizeof(int));
    memcpy(world_ranks, newest->core->world_ranks, (size_t)size * sizeof(int));
    memcpy(birth, newest->birth, (size_t)size * sizeof(int));
    world_ranks[rank] = ns;
    birth[rank] = n;
    struct mmpi_comm_core *core = mmpi_comm_core_new(size, world_ranks);
    core->refcount = 2; /* the epoch table's and the new rank's world_core */

    const struct mmpi_rank *dead = w->ranks[cur];
    struct mmpi_rank *r = w->ranks[ns];
    r->main = main_fn;
    r->argc = dead->argc;
    r->argv = mmpi_xcalloc((size_t)dead->argc + 1, sizeof(char *));
    for (int i = 0; i < dead->argc; i++)
        r->argv[i] = mmpi_xstrdup(dead->argv[i]);
    r->world_core = core;
    r->app_rank = rank;
    r->appnum = dead->appnum;
    r->incarnation = dead->incarnation + 1;
    struct mmpi_restart_rank *rr = mmpi_xcalloc(1, sizeof(*rr));
    rr->born = rr->current = n;
    r->restart = rr;
    s->epochs[n].core = core;
    s->epochs[n].birth = birth;
    __atomic_store_n(&s->nepochs, n + 1, __ATOMIC_RELEASE);
    *slot = ns;
    pthread_mutex_unlock(&s->lock);
    /* Not under the lock: one that cannot start is recorded failed, which wakes the waiters. */
    mmpi_world_start_rank(r);
    return MPI_SUCCESS;

fn_exit:
    pthread_mutex_unlock(&s->lock);
    return err;
}

bool mmpi_restart_done(const struct mmpi_world *w, int slot, int *err)
{
    const struct mmpi_rank *r = w->ranks[slot];
    if (mmpi_rank_phase(r) != MMPI_PHASE_STARTED) {
        *err = MPI_SUCCESS; /* past MPI_Init (whatever happened to it since) */
        return true;
    }
    /* Died before its MPI_Init returned: reported once the death is published (fault/), like
     * every failure, so that a restart asked for next sees the rank failed and starts another
     * incarnation. One that returned from main without MPI_Init never fails: gone all the
     * same. */
    if (mmpi_fault_is_failed(r) ||
        __atomic_load_n(&r->end, __ATOMIC_ACQUIRE) == MMPI_END_NORMAL) {
        *err = MPI_ERR_PROC_FAILED;
        return true;
    }
    return false;
}

void mmpi_restart_move(struct mmpi_rank *self)
{
    struct restart_world *s = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
    if (!s || s->world != self->world || !in_launcher_world(self))
        return;
    struct mmpi_restart_rank *rr = rank_state(self);
    int newest = nepochs(s) - 1;
    if (rr->current == newest)
        return;
    struct mmpi_comm *c = &self->world_comm;
    struct mmpi_comm_core *old = c->core, *core = s->epochs[newest].core;
    /* Acknowledgements carry over for members whose incarnation did not change: a new
     * incarnation has no failure to acknowledge (ulfm/ack.c reads acked[] by member). */
    if (c->acked)
        for (int i = 0; i < core->size; i++)
            if (core->world_ranks[i] != old->world_ranks[i])
                c->acked[i] = 0;
    mmpi_comm_core_retain(core);
    c->core = core; /* the old core stays alive in the epoch table (another thread of this
                     * rank may still read it) */
    c->coll_seq = 0; /* a fresh board: every member of the epoch starts at 0 */
    c->ft_seq = 0;
    c->word_express = 0;
    rr->current = newest;
    mmpi_comm_core_release(old);
}

void mmpi_restart_init_done(struct mmpi_rank *self)
{
    if (self->incarnation > 0)
        mmpi_world_wake_all(self->world);
}

void mmpi_restart_rank_free(struct mmpi_rank *r)
{
    struct mmpi_restart_rank *rr = r->restart;
    if (!rr)
        return;
    for (int e = 0; rr->routes && e < MMPI_RESTART_MAX_EPOCHS; e++) {
        if (rr->routes[e]) {
            mmpi_comm_core_release(rr->routes[e]->core);
            free(rr->routes[e]);
        }
    }
    free(rr->routes);
    free(rr);
    r->restart = NULL;
}

void mmpi_restart_world_fini(struct mmpi_world *w)
{
    pthread_mutex_lock(&state_lock);
    struct restart_world *s = state;
    if (s && s->world == w) {
        for (int e = 0; e < s->nepochs; e++) {
            mmpi_comm_core_release(s->epochs[e].core);
            free(s->epochs[e].birth);
        }
        pthread_mutex_destroy(&s->lock);
        free(s);
        __atomic_store_n(&state, NULL, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&state_lock);
}
