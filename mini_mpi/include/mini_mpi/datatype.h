/* mini_mpi/datatype.h: included by mpi.h; datatype constants and prototypes (MPI-4.1 ch. 5). */
#ifndef MINI_MPI_DATATYPE_H
#define MINI_MPI_DATATYPE_H
#endif
