! f08_subarray: array sections with strides as choice buffers of mpi_f08
! (MPI_SUBARRAYS_SUPPORTED, docs/fortran.md "Subarrays"), on 2 ranks: evenly spaced sections and
! 2-D sections in blocking, nonblocking, collective, one-sided and I/O calls, a datatype that
! tiles an element (MPI_BYTE), the copies of blocking calls (MPI_2INTEGER, a contiguous buffer
! sharing a datatype with a section), and the errors: a nonblocking call that cannot reach a
! section without a copy, and a count larger than the section.
program f08_subarray
  use mpi_f08
  implicit none
  integer :: rank, nprocs, errs, i, j, ierr, total
  integer :: a(10), b(10), m(9, 9), r(9, 9), big(20), pair(4, 2), res(4, 2)
  integer, allocatable :: g(:)
  type(MPI_Request) :: reqs(2)
  type(MPI_Status) :: st
  type(MPI_Win) :: win
  type(MPI_File) :: fh
  integer(kind=MPI_ADDRESS_KIND) :: addr1, addr2
  integer(kind=MPI_OFFSET_KIND) :: zero
  character(len=64) :: fname

  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
  if (.not. MPI_SUBARRAYS_SUPPORTED) call fail('MPI_SUBARRAYS_SUPPORTED is .false.')

  ! Evenly spaced (a resized datatype): a(2:10:2) to b(1:9:2).
  a = [(i, i = 1, 10)]
  b = -1
  if (rank == 0) then
    call MPI_Send(a(2:10:2), 5, MPI_INTEGER, 1, 1, MPI_COMM_WORLD)
  else
    call MPI_Recv(b(1:9:2), 5, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, st)
    call MPI_Get_count(st, MPI_INTEGER, i)
    if (i /= 5) call fail('count of a strided receive')
    if (any(b(1:9:2) /= [2, 4, 6, 8, 10]) .or. any(b(2:10:2) /= -1)) call fail('a(2:10:2)')
  end if

  ! 2-D (a datatype over the section): m(1:7:3, 2:6:2), the first 7 of its 9 elements, both
  ! ways nonblocking; the untouched elements stay as they were.
  m = reshape([(i, i = 1, 81)], [9, 9])
  r = 0
  if (rank == 0) then
    call MPI_Isend(m(1:7:3, 2:6:2), 7, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, reqs(1))
    call MPI_Wait(reqs(1), st)
  else
    call MPI_Irecv(r(1:7:3, 2:6:2), 7, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, reqs(1))
    call MPI_Wait(reqs(1), st)
    total = 0
    do j = 2, 6, 2
      do i = 1, 7, 3
        total = total + 1
        if (total <= 7 .and. r(i, j) /= m(i, j)) call fail('m(1:7:3, 2:6:2) element')
        if (total > 7 .and. r(i, j) /= 0) call fail('element past the count written')
      end do
    end do
    if (sum(r) /= sum(m(1:7:3, 2:6:2)) - m(7, 6) - m(4, 6)) call fail('m(1:7:3, 2:6:2) sum')
  end if

  ! MPI_BYTE tiles an INTEGER: the bytes of m(2, 1:9:4) into a column's section.
  r = 0
  if (rank == 0) then
    call MPI_Send(m(2, 1:9:4), 3 * storage_size(m) / 8, MPI_BYTE, 1, 3, MPI_COMM_WORLD)
  else
    call MPI_Recv(r(1:9:4, 3), 3 * storage_size(m) / 8, MPI_BYTE, 0, 3, MPI_COMM_WORLD, st)
    if (any(r(1:9:4, 3) /= m(2, 1:9:4))) call fail('MPI_BYTE over a section')
  end if

  ! Collectives: Allreduce between 2-D sections, Iallreduce between evenly spaced ones, a Gather
  ! into every other element, a Bcast into a column.
  r = 0
  call MPI_Allreduce(m(2:8:3, 1:9:4), r(1:3, 1:3), 9, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (any(r(1:3, 1:3) /= nprocs * m(2:8:3, 1:9:4))) call fail('Allreduce of sections')
  b = 0
  call MPI_Iallreduce(a(1:9:2), b(1:9:2), 5, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, reqs(1))
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  if (any(b(1:9:2) /= a(1:9:2)) .or. any(b(2:10:2) /= 0)) call fail('Iallreduce')
  allocate(g(2 * nprocs))
  g = 0
  call MPI_Gather(rank + 100, 1, MPI_INTEGER, g(1:2 * nprocs:2), 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (rank == 0) then
    if (any(g(1:2 * nprocs:2) /= [(100 + i, i = 0, nprocs - 1)]) .or. any(g(2:2 * nprocs:2) /= 0)) &
      call fail('Gather into a section')
  end if
  r = 0
  if (rank == 0) r(:, 4) = m(:, 4)
  call MPI_Bcast(r(1:9:2, 4), 5, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (any(r(1:9:2, 4) /= m(1:9:2, 4))) call fail('Bcast into a section')
  if (rank /= 0 .and. any(r(2:8:2, 4) /= 0)) call fail('Bcast wrote between the elements')

  ! Copies (blocking calls only): MPI_2INTEGER spans two elements; a contiguous buffer and a
  ! section share Reduce's datatype.
  pair(:, 1) = rank * 10 + [1, 2, 3, 4]
  pair(:, 2) = rank
  res = -1
  call MPI_Allreduce(pair(1:4:2, :), res(1:4:2, :), 1, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD)
  ! The pair is the section's first two elements, pair(1, 1) and pair(3, 1).
  if (res(1, 1) /= (nprocs - 1) * 10 + 1 .or. res(3, 1) /= (nprocs - 1) * 10 + 3 .or. &
      res(2, 1) /= -1 .or. res(1, 2) /= -1) call fail('MPI_2INTEGER over a section')
  b = 0
  call MPI_Reduce(a, b(1:10:1), 10, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
  big = 0
  call MPI_Reduce(a, big(1:20:2), 10, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
  if (rank == 0 .and. (any(big(1:20:2) /= nprocs * a) .or. any(big(2:20:2) /= 0))) &
    call fail('Reduce from a contiguous buffer into a section')

  ! The same in a nonblocking call cannot be done without a copy: MPI_ERR_BUFFER, and nothing
  ! is started.
  reqs(1) = MPI_REQUEST_NULL
  call MPI_Ireduce(a, big(1:20:2), 10, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, reqs(1), ierr)
  if (ierr /= MPI_ERR_BUFFER .or. reqs(1) /= MPI_REQUEST_NULL) call fail('Ireduce not refused')
  ! A count of 0 reaches nothing, whatever the buffer.
  call MPI_Irecv(r(1:7:3, 2:6:2), 0, MPI_INTEGER, 0, 5, MPI_COMM_SELF, reqs(1), ierr)
  call MPI_Isend(m(1:7:3, 2:6:2), 0, MPI_INTEGER, 0, 5, MPI_COMM_SELF, reqs(2), ierr)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS) call fail('a count of 0 over a section')
  ! A count larger than the section holds.
  call MPI_Send(a(1:10:2), 6, MPI_INTEGER, 0, 4, MPI_COMM_SELF, ierr)
  if (ierr /= MPI_ERR_BUFFER) call fail('count larger than the section accepted')

  ! One-sided: Put from a 2-D section into the next rank's window (a datatype, used until the
  ! fence).
  r = 0
  call MPI_Win_create(r, int(size(r) * 4, MPI_ADDRESS_KIND), 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
  call MPI_Win_fence(0, win)
  call MPI_Put(m(3:9:3, 2:8:3), 9, MPI_INTEGER, mod(rank + 1, nprocs), 0_MPI_ADDRESS_KIND, 9, &
               MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  if (any(reshape(r(1:9, 1), [3, 3]) /= m(3:9:3, 2:8:3))) call fail('Put from a section')
  call MPI_Win_free(win)

  ! I/O: each rank writes a section and reads it back into another.
  write (fname, '(a, i0, a)') 'f08_subarray.', rank, '.tmp'
  call MPI_File_open(MPI_COMM_SELF, fname, MPI_MODE_CREATE + MPI_MODE_RDWR + &
                     MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, fh)
  zero = 0
  call MPI_File_write_at(fh, zero, m(9:1:-2, 5), 5, MPI_INTEGER, st)
  r = 0
  call MPI_File_read_at(fh, zero, r(5, 1:9:2), 5, MPI_INTEGER, st)
  if (any(r(5, 1:9:2) /= m(9:1:-2, 5))) call fail('File write and read of sections')
  call MPI_File_close(fh)

  ! MPI_GET_ADDRESS of a section is the address of its first element.
  call MPI_Get_address(m(3:9:3, 2), addr1)
  call MPI_Get_address(m(3, 2), addr2)
  if (addr1 /= addr2) call fail('Get_address of a section')

  call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0 .and. errs == 0) print '(a)', ' No Errors'
  call MPI_Finalize()

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    errs = errs + 1
    print '(a, i0, 2a)', 'rank ', rank, ': ', what
  end subroutine
end program
