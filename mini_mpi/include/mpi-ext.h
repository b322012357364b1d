/*
 * mpi-ext.h: MPI extensions, as Open MPI ships them. Programs written for Open MPI's ULFM include
 * this header for the MPIX_ fault-tolerance interface; it exists here so that such programs
 * compile unchanged. The error classes MPIX_ERR_PROC_FAILED, MPIX_ERR_PROC_FAILED_PENDING and
 * MPIX_ERR_REVOKED are in mpi.h; the MPIX_Comm_* functions are added by the ULFM subsystem.
 */
#ifndef MINI_MPI_MPI_EXT_H
#define MINI_MPI_MPI_EXT_H

#include <mpi.h>

#define MPIX_FT MPI_FT /* attribute key on MPI_COMM_WORLD: fault tolerance is on */
/* Open MPI 5 defines these so that programs can detect the newer ULFM calls. */
#define OMPI_HAVE_MPIX_COMM_GET_FAILED 1
#define OMPI_HAVE_MPIX_COMM_ACK_FAILED 1
#define OMPI_HAVE_MPIX_COMM_ISHRINK 1
/* Restarting a failed rank in place (mini_mpi/restart.h, through mpi.h): MINI_MPI_HAVE_RESTART. */

#endif
