/*
 * bench/ulfm.h: whether the MPI library offers the ULFM interface (MPIX_Comm_agree,
 * MPIX_Comm_shrink, MPIX_Comm_failure_ack, MPIX_ERR_PROC_FAILED), Open MPI 5 style.
 *
 * Open MPI declares it in <mpi-ext.h> (extension "ftmpi", Open MPI >= 5), MPICH in <mpi.h>,
 * mini_mpi in both. BENCH_HAVE_ULFM is 1 when MPIX_ERR_PROC_FAILED is defined after that;
 * without it the ULFM benchmarks print value=NA note=no-ULFM and the table says "n/a".
 */
#ifndef BENCH_ULFM_H
#define BENCH_ULFM_H

#include <mpi.h>
#if defined(OPEN_MPI) || defined(MINI_MPI)
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#else
#include <mpi-ext.h>
#endif
#endif

#if defined(MPIX_ERR_PROC_FAILED)
#define BENCH_HAVE_ULFM 1
#else
#define BENCH_HAVE_ULFM 0
#endif

#endif /* BENCH_ULFM_H */
