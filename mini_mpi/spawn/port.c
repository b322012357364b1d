/*
 * port.c: the process-wide table of open ports and published names, and the rendezvous of
 * MPI_Comm_accept with MPI_Comm_connect (port.h).
 *
 * Algorithm: the connecting root queues a connection record (its group, itself) on the port
 * and sleeps until the record is settled. An accepting root waits until its port has a record
 * whose root is alive, takes it and, in the same critical section, builds the
 * intercommunicator (accepting group side 0, connecting group side 1), settles the record and
 * wakes the connecting root. Connections are accepted in the order they were queued
 * (§11.10.2 asks nothing more). Each root then hands the outcome to its group
 * (mmpi_intercomm_hand_out). Cost: one queue operation and two wake-ups between the roots, one
 * synchronization per group.
 *
 * On process failure: a record whose connecting root failed is skipped by the acceptor, which
 * goes on waiting; a group whose root or a member failed before arriving gets
 * MPI_ERR_PROC_FAILED from its board (comm/intercomm_create.c). A root that waits forever (no
 * acceptor, or no connection) sleeps in a described wait, so the hang monitor reports it
 * instead of the job hanging. A revoke of the root's communicator ends its wait with
 * MPI_ERR_REVOKED unless the connection was already made. MPI_Close_port refuses the records
 * still queued (MPI_ERR_PORT) and wakes the acceptors of that port.
 *
 * One mutex guards the table: every operation on it is a few list steps, and none waits
 * while holding it (waits re-take it in their condition).
 */
#include "spawn/port.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/create.h"
#include "comm/intercomm.h"

enum { CONN_PENDING, CONN_DONE, CONN_REFUSED };

struct connection {
    struct mmpi_rank *root; /* the connecting root: woken when the record is settled */
    int size;
    const int *world_ranks; /* its communicator's (immutable; alive while the root waits) */
    int state;              /* atomic: CONN_* */
    int err;                /* CONN_REFUSED: why */
    struct mmpi_comm_core *bridge; /* CONN_DONE: the new intercommunicator */
    struct connection *next;
};

struct port {
    char name[MPI_MAX_PORT_NAME];
    struct connection *head, **tail; /* queued connections, oldest first */
    struct port *next;
};

/* A root waiting in MPI_Comm_accept (on its stack while it waits). */
struct acceptor {
    struct mmpi_rank *rank;
    const char *port;
    struct acceptor *next;
};

struct service {
    char *name, *port;
    struct service *next;
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct port *ports;
static struct acceptor *acceptors;
static struct service *services;
static unsigned long ports_opened;

/* Lock held. */
static struct port *find_port(const char *name)
{
    struct port *p = ports;
    while (p && strcmp(p->name, name) != 0)
        p = p->next;
    return p;
}

/* Lock held: wakes the roots accepting on `name`. */
static void wake_acceptors(const char *name)
{
    for (struct acceptor *a = acceptors; a; a = a->next)
        if (!strcmp(a->port, name))
            mmpi_rank_wake(a->rank);
}

void mmpi_port_open(struct mmpi_rank *self, char *name)
{
    struct port *p = mmpi_xcalloc(1, sizeof(*p));
    p->tail = &p->head;
    pthread_mutex_lock(&table_lock);
    /* Unique in the job: never reused, even after MPI_Close_port. */
    snprintf(p->name, sizeof p->name, "mini_mpi-port:%d:%lu", self->world_rank, ++ports_opened);
    memcpy(name, p->name, strlen(p->name) + 1); /* before anyone can close it */
    p->next = ports;
    ports = p;
    pthread_mutex_unlock(&table_lock);
}

/* Lock held: settles a queued record. Records are freed only by their connecting root, even
 * one that failed: its threads may still be in the wait's condition until they park. */
static void refuse(struct connection *c, int err)
{
    c->err = err;
    __atomic_store_n(&c->state, CONN_REFUSED, __ATOMIC_RELEASE);
    mmpi_rank_wake(c->root);
}

int mmpi_port_close(const char *name)
{
    pthread_mutex_lock(&table_lock);
    struct port **pp = &ports;
    while (*pp && strcmp((*pp)->name, name) != 0)
        pp = &(*pp)->next;
    struct port *p = *pp;
    if (!p) {
        pthread_mutex_unlock(&table_lock);
        return MPI_ERR_PORT;
    }
    *pp = p->next;
    for (struct connection *c = p->head, *next; c; c = next) {
        next = c->next;
        refuse(c, MPI_ERR_PORT);
    }
    wake_acceptors(p->name);
    pthread_mutex_unlock(&table_lock);
    free(p);
    return MPI_SUCCESS;
}

/* ---- The rendezvous ------------------------------------------------------------------------ */

struct accept_wait {
    struct acceptor me;           /* linked in `acceptors` while waiting */
    struct mmpi_comm_core *group; /* the accepting group */
    int err;                      /* the outcome, once ready */
    struct mmpi_comm_core *bridge;
};

/* Lock held: takes the oldest connection of p whose root is alive and connects it. */
static bool take_connection(struct accept_wait *w, struct port *p)
{
    while (p->head) {
        struct connection *c = p->head;
        p->head = c->next;
        if (!p->head)
            p->tail = &p->head;
        if (mmpi_fault_is_failed(c->root)) {
            refuse(c, MPI_ERR_PROC_FAILED); /* skipped; its root's record, not ours to free */
            continue;
        }
        struct mmpi_comm_core *g = w->group;
        w->bridge = mmpi_intercomm_between(g->size, g->world_ranks, c->size, c->world_ranks);
        if (!w->bridge) {
            w->err = MPI_ERR_ARG; /* an intercommunicator's groups are disjoint (§7.6) */
            refuse(c, MPI_ERR_ARG);
            return true;
        }
        w->err = MPI_SUCCESS;
        c->bridge = w->bridge;
        __atomic_store_n(&c->state, CONN_DONE, __ATOMIC_RELEASE);
        mmpi_rank_wake(c->root);
        return true;
    }
    return false;
}

static bool accept_ready(void *arg)
{
    struct accept_wait *w = arg;
    if (mmpi_fault_revoked(&w->group->fault)) {
        w->err = MPI_ERR_REVOKED;
        return true;
    }
    pthread_mutex_lock(&table_lock);
    struct port *p = find_port(w->me.port);
    bool done = true;
    if (!p)
        w->err = MPI_ERR_PORT; /* closed while we waited */
    else
        done = take_connection(w, p);
    pthread_mutex_unlock(&table_lock);
    return done;
}

static void describe_accept(const void *arg, char *buf, size_t len)
{
    const struct accept_wait *w = arg;
    snprintf(buf, len, "waiting for a connection (MPI_Comm_connect) on port %s", w->me.port);
}

/* The accepting root's part. */
static int accept_root(struct mmpi_rank *self, struct mmpi_comm *c, const char *port,
                       struct mmpi_comm_core **bridge)
{
    struct accept_wait w = {{self, port, NULL}, c->core, MPI_SUCCESS, NULL};
    pthread_mutex_lock(&table_lock);
    if (!find_port(port)) {
        pthread_mutex_unlock(&table_lock);
        return MPI_ERR_PORT;
    }
    w.me.next = acceptors;
    acceptors = &w.me;
    pthread_mutex_unlock(&table_lock);

    mmpi_wait_until_described(self, accept_ready, &w, describe_accept);

    pthread_mutex_lock(&table_lock);
    struct acceptor **ap = &acceptors;
    while (*ap != &w.me)
        ap = &(*ap)->next;
    *ap = w.me.next;
    pthread_mutex_unlock(&table_lock);
    *bridge = w.bridge;
    return w.err;
}

struct connect_wait {
    struct connection *conn;
    struct mmpi_comm_core *group;
    const char *port;
};

static bool connect_ready(void *arg)
{
    const struct connect_wait *w = arg;
    return __atomic_load_n(&w->conn->state, __ATOMIC_ACQUIRE) != CONN_PENDING ||
           mmpi_fault_revoked(&w->group->fault);
}

static void describe_connect(const void *arg, char *buf, size_t len)
{
    const struct connect_wait *w = arg;
    snprintf(buf, len, "waiting for an accept (MPI_Comm_accept) on port %s", w->port);
}

/* The connecting root's part. */
static int connect_root(struct mmpi_rank *self, struct mmpi_comm *c, const char *port,
                        struct mmpi_comm_core **bridge)
{
    struct connection *conn = mmpi_xcalloc(1, sizeof(*conn));
    conn->root = self;
    conn->size = c->core->size;
    conn->world_ranks = c->core->world_ranks;
    conn->state = CONN_PENDING;
    pthread_mutex_lock(&table_lock);
    struct port *p = find_port(port);
    if (!p) {
        pthread_mutex_unlock(&table_lock);
        free(conn);
        return MPI_ERR_PORT;
    }
    *p->tail = conn;
    p->tail = &conn->next;
    wake_acceptors(port);
    pthread_mutex_unlock(&table_lock);

    struct connect_wait w = {conn, c->core, port};
    mmpi_wait_until_described(self, connect_ready, &w, describe_connect);

    int err;
    pthread_mutex_lock(&table_lock);
    int state = __atomic_load_n(&conn->state, __ATOMIC_ACQUIRE);
    if (state == CONN_PENDING) { /* revoked first: withdraw the record */
        p = find_port(port);
        struct connection **cp = p ? &p->head : NULL;
        while (cp && *cp && *cp != conn)
            cp = &(*cp)->next;
        if (cp && *cp) {
            *cp = conn->next;
            if (!*cp)
                p->tail = cp;
        }
        err = MPI_ERR_REVOKED;
    } else {
        err = state == CONN_DONE ? MPI_SUCCESS : conn->err; /* made: the revoke came later */
    }
    pthread_mutex_unlock(&table_lock);
    *bridge = conn->bridge;
    free(conn);
    return err;
}

int mmpi_port_accept(struct mmpi_rank *self, struct mmpi_comm *c, int root, int root_err,
                     const char *port, struct mmpi_comm **out)
{
    struct mmpi_comm_core *bridge = NULL;
    int err = root_err;
    bool is_root = c->rank == root;
    if (is_root && err == MPI_SUCCESS)
        err = accept_root(self, c, port, &bridge);
    return mmpi_intercomm_hand_out(self, c, is_root, err, bridge, 0, out);
}

int mmpi_port_connect(struct mmpi_rank *self, struct mmpi_comm *c, int root, int root_err,
                      const char *port, struct mmpi_comm **out)
{
    struct mmpi_comm_core *bridge = NULL;
    int err = root_err;
    bool is_root = c->rank == root;
    if (is_root && err == MPI_SUCCESS)
        err = connect_root(self, c, port, &bridge);
    return mmpi_intercomm_hand_out(self, c, is_root, err, bridge, 1, out);
}

/* ---- The name service ---------------------------------------------------------------------- */

int mmpi_name_publish(const char *service, const char *port)
{
    pthread_mutex_lock(&table_lock);
    for (struct service *s = services; s; s = s->next) {
        if (!strcmp(s->name, service)) {
            pthread_mutex_unlock(&table_lock);
            return MPI_ERR_SERVICE; /* published already (MPICH's class too) */
        }
    }
    struct service *s = mmpi_xcalloc(1, sizeof(*s));
    s->name = mmpi_xstrdup(service);
    s->port = mmpi_xstrdup(port);
    s->next = services;
    services = s;
    pthread_mutex_unlock(&table_lock);
    return MPI_SUCCESS;
}

int mmpi_name_unpublish(const char *service, const char *port)
{
    pthread_mutex_lock(&table_lock);
    struct service **sp = &services;
    while (*sp && (strcmp((*sp)->name, service) != 0 || strcmp((*sp)->port, port) != 0))
        sp = &(*sp)->next;
    struct service *s = *sp;
    if (s)
        *sp = s->next;
    pthread_mutex_unlock(&table_lock);
    if (!s)
        return MPI_ERR_SERVICE;
    free(s->name);
    free(s->port);
    free(s);
    return MPI_SUCCESS;
}

int mmpi_name_lookup(const char *service, char *port)
{
    int err = MPI_ERR_NAME;
    pthread_mutex_lock(&table_lock);
    for (struct service *s = services; s; s = s->next) {
        if (!strcmp(s->name, service)) {
            snprintf(port, MPI_MAX_PORT_NAME, "%s", s->port);
            err = MPI_SUCCESS;
            break;
        }
    }
    pthread_mutex_unlock(&table_lock);
    return err;
}
