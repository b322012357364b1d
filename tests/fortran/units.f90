! units.f90: the Fortran runtime's state is per rank, as in a process per rank: every rank opens
! unit 10 on its own file, writes, closes and reopens it, and reads back its own number while
! the others do the same; a SAVE variable and a module variable are per rank; and the ranks'
! PRINT lines (many, interleaved) stay whole (the testlist line finds the last rank's last one).
module units_state
  implicit none
  integer :: module_var = 0
end module

program units
  use mpi_f08
  use units_state
  implicit none
  integer :: rank, nranks, i, x, errs, total, ios
  integer, save :: saved = 0
  character(len=64) :: fn
  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  saved = rank
  module_var = 100 + rank
  write (fn, '(a,i0,a)') 'unit10_rank', rank, '.txt'
  do i = 1, 20
    open (unit=10, file=fn, status='replace', action='write')
    write (10, *) rank * 1000 + i
    call MPI_Barrier(MPI_COMM_WORLD)
    close (10)
    open (unit=10, file=fn, status='old', action='read')
    call MPI_Barrier(MPI_COMM_WORLD)
    read (10, *, iostat=ios) x
    close (10)
    if (ios /= 0 .or. x /= rank * 1000 + i) errs = errs + 1
  end do
  do i = 1, 500
    print '(a,i6,a,i6,a)', 'line rank ', rank, ' number ', i, ' end'
  end do
  call MPI_Barrier(MPI_COMM_WORLD)
  if (saved /= rank .or. module_var /= 100 + rank) errs = errs + 1
  call MPI_Reduce(errs, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
  if (rank == 0) then
    if (total == 0) then
      print *, 'No Errors'
    else
      print *, 'Found', total, 'errors'
    end if
  end if
  call MPI_Finalize()
end program
