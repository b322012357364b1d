/* mini_mpi/pt2pt.h: included by mpi.h; point-to-point prototypes (MPI-4.1 chapter 3) and
 * generalized requests (§13.2). */
#ifndef MINI_MPI_PT2PT_H
#define MINI_MPI_PT2PT_H

#ifdef __cplusplus
extern "C" {
#endif

typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);

/* Blocking and nonblocking sends and receives. */
MMPI_API(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
MMPI_API(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
MMPI_API(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
MMPI_API(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
MMPI_API(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status));
MMPI_API(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status));
MMPI_API(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status));
MMPI_API(int, Buffer_attach, (void *buffer, int size));
MMPI_API(int, Buffer_detach, (void *buffer_addr, int *size));

/* Probes and matched probes. */
MMPI_API(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status));
MMPI_API(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status));
MMPI_API(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status));
MMPI_API(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status));
MMPI_API(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status));
MMPI_API(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request));

/* Persistent requests. */
MMPI_API(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request));
MMPI_API(int, Start, (MPI_Request *request));
MMPI_API(int, Startall, (int count, MPI_Request array_of_requests[]));

/* Completion. */
MMPI_API(int, Wait, (MPI_Request *request, MPI_Status *status));
MMPI_API(int, Test, (MPI_Request *request, int *flag, MPI_Status *status));
MMPI_API(int, Waitall, (int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses));
MMPI_API(int, Testall, (int count, MPI_Request array_of_requests[], int *flag, MPI_Status *array_of_statuses));
MMPI_API(int, Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status));
MMPI_API(int, Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status));
MMPI_API(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status *array_of_statuses));
MMPI_API(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status *array_of_statuses));
MMPI_API(int, Request_free, (MPI_Request *request));
MMPI_API(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status));
MMPI_API(int, Cancel, (MPI_Request *request));
MMPI_API(int, Test_cancelled, (const MPI_Status *status, int *flag));
MMPI_API(int, Status_set_cancelled, (MPI_Status *status, int flag));
MMPI_API(int, Grequest_start, (MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request));
MMPI_API(int, Grequest_complete, (MPI_Request request));

#ifdef __cplusplus
}
#endif

#endif
