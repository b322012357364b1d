/*
 * spawn/port_api.c: MPI entry points of establishing communication (MPI-4.1 §11.10), in the
 * chapter's order: MPI_Open_port, MPI_Close_port, MPI_Comm_accept, MPI_Comm_connect,
 * MPI_Publish_name, MPI_Unpublish_name, MPI_Lookup_name, MPI_Comm_join. The work is in
 * port.c.
 *
 * Errors: as for spawning (spawn_api.c), the communicator, root and output pointer are checked at
 * every member, the port name and info (significant at the root only) at the root, whose
 * verdict every member then returns. Calls without a communicator raise on MPI_COMM_SELF's
 * handler. MPI_ERR_PORT: no such open port; MPI_ERR_SERVICE / MPI_ERR_NAME: the name service.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "comm/create.h"
#include "comm/info.h"
#include "spawn/port.h"
#include "spawn/spawn.h"

MMPI_PROFILED(Open_port);
int PMPI_Open_port(MPI_Info info, char *port_name)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Open_port);
    struct mmpi_info *hints;
    int err = mmpi_info_arg(self, info, &hints) != MPI_SUCCESS ? MPI_ERR_INFO
              : !port_name                                     ? MPI_ERR_ARG
                                                               : MPI_SUCCESS;

    if (err != MPI_SUCCESS)
        goto fn_fail;
    mmpi_port_open(self, port_name);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Open_port);
    goto fn_exit;
}

MMPI_PROFILED(Close_port);
int PMPI_Close_port(const char *port_name)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Close_port);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!port_name, MPI_ERR_ARG);
    if ((err = mmpi_port_close(port_name)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Close_port);
    goto fn_exit;
}

/* What accept and connect share: checks, the collective, the new handle. */
static int accept_or_connect(enum mmpi_call call, const char *port_name, MPI_Info info,
                             int root, MPI_Comm comm, MPI_Comm *newcomm)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_comm *c = mmpi_comm_get(self, comm), *inter = NULL;
    int root_err = MPI_SUCCESS;
    int err = MPI_SUCCESS;

    if ((err = mmpi_spawn_member_args(c, newcomm, root)))
        goto fn_fail;
    if (c->rank == root) {
        struct mmpi_info *hints;
        root_err = mmpi_info_arg(self, info, &hints) != MPI_SUCCESS ? MPI_ERR_INFO
                   : !port_name                                     ? MPI_ERR_ARG
                                                                    : MPI_SUCCESS;
    }
    err = call == MMPI_CALL_Comm_accept
              ? mmpi_port_accept(self, c, root, root_err, port_name, &inter)
              : mmpi_port_connect(self, c, root, root_err, port_name, &inter);
    if (err == MPI_SUCCESS)
        err = mmpi_comm_register(self, inter, newcomm);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (newcomm)
        *newcomm = MPI_COMM_NULL;
    err = mmpi_err_raise_comm(self, c, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Comm_accept);
int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm)
{
    return accept_or_connect(MMPI_CALL_Comm_accept, port_name, info, root, comm, newcomm);
}

MMPI_PROFILED(Comm_connect);
int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm *newcomm)
{
    return accept_or_connect(MMPI_CALL_Comm_connect, port_name, info, root, comm, newcomm);
}

/* The name-service calls' common checks. */
static int name_args(struct mmpi_rank *self, const char *service, MPI_Info info, const void *port)
{
    struct mmpi_info *hints;
    return mmpi_info_arg(self, info, &hints) != MPI_SUCCESS ? MPI_ERR_INFO
           : !service || !port                              ? MPI_ERR_ARG
                                                            : MPI_SUCCESS;
}

MMPI_PROFILED(Publish_name);
int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Publish_name);
    int err = MPI_SUCCESS;

    if ((err = name_args(self, service_name, info, port_name)))
        goto fn_fail;
    if ((err = mmpi_name_publish(service_name, port_name)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Publish_name);
    goto fn_exit;
}

MMPI_PROFILED(Unpublish_name);
int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Unpublish_name);
    int err = MPI_SUCCESS;

    if ((err = name_args(self, service_name, info, port_name)))
        goto fn_fail;
    if ((err = mmpi_name_unpublish(service_name, port_name)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Unpublish_name);
    goto fn_exit;
}

MMPI_PROFILED(Lookup_name);
int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Lookup_name);
    int err = MPI_SUCCESS;

    if ((err = name_args(self, service_name, info, port_name)))
        goto fn_fail;
    if ((err = mmpi_name_lookup(service_name, port_name)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Lookup_name);
    goto fn_exit;
}

/* Writes or reads exactly n bytes of the socket; false on error or end of stream. */
static bool socket_io(int fd, void *buf, size_t n, bool out)
{
    char *p = buf;
    while (n > 0) {
        ssize_t k = out ? send(fd, p, n, MSG_NOSIGNAL) : recv(fd, p, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

/* MPI_Comm_join (§11.10.4), as MPICH does it: the two ends tell each other their world rank
 * over the socket; the lower one opens a port, sends its name and accepts on MPI_COMM_SELF,
 * the other connects to it. */
MMPI_PROFILED(Comm_join);
int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Comm_join);
    struct mmpi_comm *inter = NULL;
    struct stat st;
    int err = MPI_SUCCESS;
    /* §11.10.4: fd must be a connected socket */
    MMPI_FAIL_IF(!intercomm || fd < 0 || fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode), MPI_ERR_ARG);
    int32_t mine = self->world_rank, theirs;
    /* the peer closed the socket, or it is not connected */
    MMPI_FAIL_IF(!socket_io(fd, &mine, sizeof mine, true) ||
                     !socket_io(fd, &theirs, sizeof theirs, false),
                 MPI_ERR_OTHER);
    MMPI_FAIL_IF(theirs == mine, MPI_ERR_ARG); /* both ends in the same rank: nothing to join */
    char port[MPI_MAX_PORT_NAME] = {0};
    if (mine < theirs) {
        mmpi_port_open(self, port);
        err = socket_io(fd, port, sizeof port, true)
                  ? mmpi_port_accept(self, &self->self_comm, 0, MPI_SUCCESS, port, &inter)
                  : MPI_ERR_OTHER;
        mmpi_port_close(port);
    } else {
        bool got = socket_io(fd, port, sizeof port, false);
        port[sizeof port - 1] = '\0';
        err = got ? mmpi_port_connect(self, &self->self_comm, 0, MPI_SUCCESS, port, &inter)
                  : MPI_ERR_OTHER;
    }
    if (err == MPI_SUCCESS)
        err = mmpi_comm_register(self, inter, intercomm);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (intercomm)
        *intercomm = MPI_COMM_NULL;
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Comm_join);
    goto fn_exit;
}
