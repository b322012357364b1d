/*
 * port.h: establishing communication between two groups that share no communicator
 * (MPI-4.1 §11.10): ports (MPI_Open_port, MPI_Close_port), MPI_Comm_accept / MPI_Comm_connect,
 * the name service (MPI_Publish_name, MPI_Lookup_name, MPI_Unpublish_name) and
 * MPI_Comm_join. The entry points are in port_api.c; the registry and the rendezvous in
 * port.c.
 *
 * All ranks of a job are threads of one process, so a port is an entry of a process-wide
 * table, and a connection is a record the connecting root queues on the port for an accepting
 * root to take: the acceptor builds the intercommunicator (comm/intercomm.h: the accepting
 * group is side 0, the connecting group side 1) and hands it back. Each root then spreads the
 * outcome to its own group through a board instance of its communicator, as
 * MPI_Intercomm_create does.
 */
#ifndef MMPI_SPAWN_PORT_H
#define MMPI_SPAWN_PORT_H

#include "mmpi.h"

/* A new open port, owned by the calling rank; its name (NUL-terminated, shorter than
 * MPI_MAX_PORT_NAME) is written to name. */
void mmpi_port_open(struct mmpi_rank *self, char *name);
/* Closes the open port `name`: pending connections to it fail with MPI_ERR_PORT. Returns
 * MPI_SUCCESS or MPI_ERR_PORT (no such open port). */
int mmpi_port_close(const char *name);

/* MPI_Comm_accept / MPI_Comm_connect over the intracommunicator c (all members call; port
 * significant at the root, whose own argument checks gave root_err). *out: the caller's handle
 * object of the new intercommunicator. Returns the class every member of c gets:
 * MPI_ERR_PORT (no such open port, or closed while connecting), MPI_ERR_PROC_FAILED (the root
 * or a member failed before arriving), MPI_ERR_REVOKED, or the root's own error. May block
 * until the other side arrives; a wait that can never end is reported by the hang monitor. */
int mmpi_port_accept(struct mmpi_rank *self, struct mmpi_comm *c, int root, int root_err,
                     const char *port, struct mmpi_comm **out);
int mmpi_port_connect(struct mmpi_rank *self, struct mmpi_comm *c, int root, int root_err,
                      const char *port, struct mmpi_comm **out);

/* The name service: MPI_SUCCESS, or MPI_ERR_SERVICE (publish: already published; unpublish:
 * not published with that port), MPI_ERR_NAME (lookup: not published). */
int mmpi_name_publish(const char *service, const char *port);
int mmpi_name_unpublish(const char *service, const char *port);
int mmpi_name_lookup(const char *service, char *port);

#endif
