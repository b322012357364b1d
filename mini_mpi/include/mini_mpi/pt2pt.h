/* mini_mpi/pt2pt.h: included by mpi.h; the types of point-to-point (MPI-4.1 chapter 3) and of
 * generalized requests (§13.2). */
#ifndef MINI_MPI_PT2PT_H
#define MINI_MPI_PT2PT_H

#ifdef __cplusplus
extern "C" {
#endif

/* MPI_Buffer_attach and MPI_Comm_attach_buffer: the library buffers as much as needed
 * (MPI-4.1 §3.6.1); detach returns it with size 0. */
#define MPI_BUFFER_AUTOMATIC ((void *)-2)

typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);

#ifdef __cplusplus
}
#endif

#endif
