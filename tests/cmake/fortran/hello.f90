! hello.f90: the program of tests/cmake/fortran: every rank adds its rank with MPI_Allreduce.
program hello
  use mpi_f08
  implicit none
  integer :: rank, nranks, total
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) then
    if (total == nranks * (nranks - 1) / 2) then
      print *, 'No Errors'
    else
      print *, 'Found 1 errors'
    end if
  end if
  call MPI_Finalize()
end program
