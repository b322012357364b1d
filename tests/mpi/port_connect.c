/*
 * port_connect.c: establishing communication (MPI-4.1 §11.10): MPI_Open_port, MPI_Comm_accept,
 * MPI_Comm_connect, the name service, MPI_Comm_join, MPI_Close_port. Modes (argv[1]):
 *   groups   (>= 2 ranks) the world splits into a server half and a client half; the server
 *            root opens a port and publishes it, the client root looks it up; the two halves
 *            accept/connect over their own communicators, then check the new
 *            intercommunicator (sizes, remote group, messages both ways, a collective, merge)
 *            and disconnect. The second time round the clients connect to the same port again.
 *   many     (>= 3 ranks) rank 0 accepts on MPI_COMM_SELF once per other rank; every other
 *            rank connects on MPI_COMM_SELF: each connection is a separate intercommunicator.
 *   join     (even ranks) rank 2i makes a socketpair and hands one end to rank 2i+1 (ranks
 *            share one process); both call MPI_Comm_join on their end and talk.
 *   errors   (>= 2 ranks) the error classes: MPI_ERR_PORT (unknown or closed port, close of an
 *            unknown one, a connect pending when the port closes), MPI_ERR_NAME,
 *            MPI_ERR_SERVICE, MPI_ERR_ROOT, MPI_ERR_ARG (join on a pipe or a bad fd).
 *   revoke   (>= 2 ranks) rank 0 accepts over a copy of MPI_COMM_WORLD that rank 1 revokes, and
 *            rank 0 connects over a second copy that rank 1 revokes: both roots' waits end
 *            with MPI_ERR_REVOKED, and every member's call too.
 * A connecting root that dies while it waits: port_deadroot.c.
 * Rank 0 prints "No Errors".
 */
#include <mpi.h>
#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> /* Open MPI's MPIX_ names */
#endif
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int errors;

#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            errors++;                                                                             \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                       \
            fprintf(stderr, __VA_ARGS__);                                                         \
            fputc('\n', stderr);                                                                  \
        }                                                                                         \
    } while (0)

static int error_class(int rc)
{
    int cls;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Both sides of one intercommunicator: sizes, remote group, messages, a collective, merge. */
static void check_intercomm(MPI_Comm inter, int local_size, int remote_size, int high)
{
    int flag, n, me, sum = 0;
    MPI_Comm_test_inter(inter, &flag);
    CHECK(flag, "not an intercommunicator");
    MPI_Comm_size(inter, &n);
    CHECK(n == local_size, "local size %d, want %d", n, local_size);
    MPI_Comm_remote_size(inter, &n);
    CHECK(n == remote_size, "remote size %d, want %d", n, remote_size);
    MPI_Comm_rank(inter, &me);
    /* Every local rank sends its rank + 100*side to remote rank me % remote_size. */
    int out = me + 100 * high, in;
    MPI_Request r;
    MPI_Isend(&out, 1, MPI_INT, me % remote_size, 5, inter, &r);
    /* The messages addressed to me: from remote ranks s with s % local_size == me. */
    for (int s = 0; s < remote_size; s++) {
        if (s % local_size != me)
            continue;
        MPI_Recv(&in, 1, MPI_INT, s, 5, inter, MPI_STATUS_IGNORE);
        CHECK(in == s + 100 * !high, "got %d from remote %d", in, s);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    /* Intercommunicator allreduce: the sum of the remote group's values. */
    int v = high ? 1000 : 1;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, inter);
    CHECK(sum == remote_size * (high ? 1 : 1000), "allreduce %d", sum);
    MPI_Comm merged;
    MPI_Intercomm_merge(inter, high, &merged);
    MPI_Comm_size(merged, &n);
    CHECK(n == local_size + remote_size, "merged size %d", n);
    MPI_Comm_rank(merged, &n);
    CHECK(n == me + (high ? remote_size : 0), "merged rank %d", n);
    MPI_Comm_free(&merged);
}

static void groups(int rank, int size)
{
    int server = rank < size / 2 || size == 1, local_size;
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, server, rank, &half);
    MPI_Comm_size(half, &local_size);
    int remote_size = size - local_size;
    char port[MPI_MAX_PORT_NAME] = "";
    if (server && rank == 0) {
        MPI_Open_port(MPI_INFO_NULL, port);
        MPI_Publish_name("port_connect-groups", MPI_INFO_NULL, port);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* published before anyone looks */
    if (!server && rank == size / 2) {
        MPI_Lookup_name("port_connect-groups", MPI_INFO_NULL, port);
        CHECK(port[0] != '\0', "looked up an empty port name");
    }
    for (int round = 0; round < 2; round++) {
        if (server)
            MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter);
        else
            MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &inter);
        check_intercomm(inter, local_size, remote_size, !server);
        /* The remote group: the other half's world ranks, in order. */
        MPI_Group remote, world_group;
        MPI_Comm_remote_group(inter, &remote);
        MPI_Comm_group(MPI_COMM_WORLD, &world_group);
        for (int i = 0; i < remote_size; i++) {
            int w;
            MPI_Group_translate_ranks(remote, 1, &i, world_group, &w);
            CHECK(w == (server ? size / 2 + i : i), "remote rank %d is world %d", i, w);
        }
        MPI_Group_free(&remote);
        MPI_Group_free(&world_group);
        MPI_Comm_disconnect(&inter);
        CHECK(inter == MPI_COMM_NULL, "disconnect left a handle");
    }
    MPI_Barrier(MPI_COMM_WORLD); /* nobody connects any more */
    if (server && rank == 0) {
        MPI_Unpublish_name("port_connect-groups", MPI_INFO_NULL, port);
        MPI_Close_port(port);
    }
    MPI_Comm_free(&half);
}

static void many(int rank, int size)
{
    char port[MPI_MAX_PORT_NAME];
    if (rank == 0)
        MPI_Open_port(MPI_INFO_NULL, port);
    MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        int seen = 0;
        for (int i = 1; i < size; i++) {
            MPI_Comm inter;
            int peer;
            MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
            check_intercomm(inter, 1, 1, 0);
            MPI_Recv(&peer, 1, MPI_INT, 0, 6, inter, MPI_STATUS_IGNORE);
            CHECK(peer > 0 && peer < size && !(seen & (1 << peer)), "connection from %d", peer);
            seen |= 1 << peer;
            MPI_Comm_disconnect(&inter);
        }
        MPI_Close_port(port);
    } else {
        MPI_Comm inter;
        MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
        check_intercomm(inter, 1, 1, 1);
        MPI_Send(&rank, 1, MPI_INT, 0, 6, inter);
        MPI_Comm_disconnect(&inter);
    }
}

static void join(int rank, int size)
{
    if (size % 2)
        return; /* the last rank has no partner */
    int fd, sv[2];
    if (rank % 2 == 0) {
        CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
        fd = sv[0];
        MPI_Send(&sv[1], 1, MPI_INT, rank + 1, 7, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&fd, 1, MPI_INT, rank - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Comm inter;
    MPI_Comm_join(fd, &inter);
    check_intercomm(inter, 1, 1, rank % 2);
    int v = rank, got;
    MPI_Sendrecv(&v, 1, MPI_INT, 0, 8, &got, 1, MPI_INT, 0, 8, inter, MPI_STATUS_IGNORE);
    CHECK(got == (rank ^ 1), "joined with %d", got);
    MPI_Comm_disconnect(&inter);
    close(fd);
}

static void errors_mode(int rank)
{
    char port[MPI_MAX_PORT_NAME], other[MPI_MAX_PORT_NAME];
    MPI_Comm inter = MPI_COMM_WORLD;
    int rc;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    rc = MPI_Comm_connect("no-such-port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
    CHECK(error_class(rc) == MPI_ERR_PORT, "connect to an unknown port: %d", error_class(rc));
    CHECK(inter == MPI_COMM_NULL, "connect failed but newcomm is not MPI_COMM_NULL");
    rc = MPI_Comm_accept("no-such-port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
    CHECK(error_class(rc) == MPI_ERR_PORT, "accept on an unknown port: %d", error_class(rc));
    rc = MPI_Close_port("no-such-port");
    CHECK(error_class(rc) == MPI_ERR_PORT, "close of an unknown port: %d", error_class(rc));
    rc = MPI_Comm_connect("x", MPI_INFO_NULL, 1, MPI_COMM_SELF, &inter);
    CHECK(error_class(rc) == MPI_ERR_ROOT, "root 1 of MPI_COMM_SELF: %d", error_class(rc));

    /* Every member returns the root's verdict. */
    rc = MPI_Comm_connect(rank == 0 ? "no-such-port" : NULL, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                          &inter);
    CHECK(error_class(rc) == MPI_ERR_PORT, "root's unknown port, at rank %d: %d", rank,
          error_class(rc));

    MPI_Open_port(MPI_INFO_NULL, port);
    MPI_Open_port(MPI_INFO_NULL, other);
    CHECK(strcmp(port, other) != 0, "two ports named alike: %s", port);
    MPI_Close_port(other);
    rc = MPI_Comm_connect(other, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
    CHECK(error_class(rc) == MPI_ERR_PORT, "connect to a closed port: %d", error_class(rc));

    char service[64], found[MPI_MAX_PORT_NAME];
    snprintf(service, sizeof service, "port_connect-errors-%d", rank);
    rc = MPI_Lookup_name(service, MPI_INFO_NULL, found);
    CHECK(error_class(rc) == MPI_ERR_NAME, "lookup before publish: %d", error_class(rc));
    MPI_Publish_name(service, MPI_INFO_NULL, port);
    rc = MPI_Publish_name(service, MPI_INFO_NULL, port);
    CHECK(error_class(rc) == MPI_ERR_SERVICE, "publish twice: %d", error_class(rc));
    rc = MPI_Lookup_name(service, MPI_INFO_NULL, found);
    CHECK(rc == MPI_SUCCESS && !strcmp(found, port), "lookup: %d '%s'", rc, found);
    rc = MPI_Unpublish_name(service, MPI_INFO_NULL, other);
    CHECK(error_class(rc) == MPI_ERR_SERVICE, "unpublish with another port: %d", error_class(rc));
    MPI_Unpublish_name(service, MPI_INFO_NULL, port);
    rc = MPI_Unpublish_name(service, MPI_INFO_NULL, port);
    CHECK(error_class(rc) == MPI_ERR_SERVICE, "unpublish twice: %d", error_class(rc));

    int p[2];
    CHECK(pipe(p) == 0, "pipe");
    rc = MPI_Comm_join(p[0], &inter);
    CHECK(error_class(rc) == MPI_ERR_ARG, "join on a pipe: %d", error_class(rc));
    rc = MPI_Comm_join(-1, &inter);
    CHECK(error_class(rc) == MPI_ERR_ARG, "join on fd -1: %d", error_class(rc));
    close(p[0]);
    close(p[1]);

    /* A connect pending when its port closes fails with MPI_ERR_PORT (if the close comes
     * first, the connect fails the same way: the port is unknown by then). */
    MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 1) {
        rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
        CHECK(error_class(rc) == MPI_ERR_PORT, "connect when the port closes: %d",
              error_class(rc));
    } else if (rank == 0) {
        usleep(20000);
        MPI_Close_port(port);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0)
        MPI_Close_port(port); /* each rank opened its own two ports */
}

static void revoke_mode(int rank)
{
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm copy, inter;
    if (rank == 0)
        MPI_Open_port(MPI_INFO_NULL, port);
    for (int connect = 0; connect < 2; connect++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &copy);
        MPI_Comm_set_errhandler(copy, MPI_ERRORS_RETURN);
        if (rank == 1) {
            usleep(10000); /* rank 0 is (most likely) waiting by now; either way: REVOKED */
            MPIX_Comm_revoke(copy);
        }
        int rc = connect ? MPI_Comm_connect(port, MPI_INFO_NULL, 0, copy, &inter)
                         : MPI_Comm_accept(port, MPI_INFO_NULL, 0, copy, &inter);
        CHECK(error_class(rc) == MPIX_ERR_REVOKED, "%s over a revoked comm at rank %d: %d",
              connect ? "connect" : "accept", rank, error_class(rc));
        CHECK(inter == MPI_COMM_NULL, "no communicator expected");
        MPI_Comm_free(&copy);
    }
    if (rank == 0) {
        /* The withdrawn connection is gone: an accept now has nobody to take. Close works. */
        CHECK(MPI_Close_port(port) == MPI_SUCCESS, "close after the revokes");
    }
}

int main(int argc, char **argv)
{
    int rank, size, total;
    const char *mode = argc > 1 ? argv[1] : "groups";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!strcmp(mode, "groups"))
        groups(rank, size);
    else if (!strcmp(mode, "many"))
        many(rank, size);
    else if (!strcmp(mode, "join"))
        join(rank, size);
    else if (!strcmp(mode, "errors"))
        errors_mode(rank);
    else if (!strcmp(mode, "revoke"))
        revoke_mode(rank);

    else
        CHECK(0, "unknown mode %s", mode);
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
