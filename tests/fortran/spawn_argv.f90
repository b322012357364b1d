! tests/fortran/spawn_argv.f90: Fortran string arrays (docs/fortran.md): MPI_COMM_SPAWN with an
! ARGV(*) ended by a blank element ("one two" keeps its blank, trailing blanks go), children of
! MPI_COMM_SPAWN_MULTIPLE with ARRAY_OF_ARGV(COUNT, *) reading their own column, and
! MPI_INFO_CREATE_ENV (no argc/argv in Fortran).
program spawn_argv
  use mpi_f08
  implicit none
  type(MPI_Comm) :: parent, inter
  type(MPI_Info) :: env, infos(2)
  character(len=16) :: argv(3), argvs(2, 2), arg
  character(len=512) :: self, cmds(2)
  integer :: errs, n, np(2), rank, codes(2), nkeys
  errs = 0
  call MPI_Init()
  call MPI_Comm_get_parent(parent)
  if (parent == MPI_COMM_NULL) then
    call MPI_Info_create_env(env)
    call MPI_Info_get_nkeys(env, nkeys)
    if (nkeys < 1) call fail('MPI_INFO_ENV keys')
    call MPI_Info_free(env)
    argv = [character(len=16) :: 'one two', 'x', ' ']
    call get_command_argument(0, self) ! this program, wherever it runs from
    call MPI_Comm_spawn(self, argv, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, inter, codes)
    call collect()
    cmds = self
    argvs(1, :) = [character(len=16) :: 'first', ' ']
    argvs(2, :) = [character(len=16) :: 'second', ' ']
    np = 1
    infos = MPI_INFO_NULL
    call MPI_Comm_spawn_multiple(2, cmds, argvs, np, infos, 0, MPI_COMM_SELF, inter, codes)
    call collect()
    if (errs == 0) print '(a)', ' No Errors'
  else
    ! what the child saw, sent to the parent as a number: 1 ok, 0 not
    call MPI_Comm_rank(parent, rank)
    n = command_argument_count()
    call get_command_argument(1, arg)
    if (n == 2) then
      call get_command_argument(2, arg)
      n = merge(1, 0, arg == 'x')
      call get_command_argument(1, arg)
      n = merge(n, 0, arg == 'one two')
    else if (n == 1) then
      n = merge(1, 0, arg == merge('first ', 'second', rank == 0))
    else
      n = 0
    end if
    call MPI_Send(n, 1, MPI_INTEGER, 0, 0, parent)
    call MPI_Comm_disconnect(parent)
  end if
  call MPI_Finalize()
contains
  subroutine collect()
    integer :: i, rsize, ok
    call MPI_Comm_remote_size(inter, rsize)
    do i = 0, rsize - 1
      call MPI_Recv(ok, 1, MPI_INTEGER, i, 0, inter, MPI_STATUS_IGNORE)
      if (ok /= 1) call fail('a child saw other arguments')
    end do
    call MPI_Comm_disconnect(inter)
  end subroutine
  subroutine fail(what)
    character(len=*) :: what
    errs = errs + 1
    print '(a, a)', 'failed: ', what
  end subroutine
end program
