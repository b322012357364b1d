# tests/mpi/testlist.io: MPI-IO (files, views, data access, the shared file pointer, file error
# handlers), MPICH testlist format (see tests/mpi/testlist). Files go to $TMPDIR (or /tmp).
io_file 1
io_file 3
io_access 1
io_access 4
io_shared 4
io_shared 16
# A member killed inside a collective access: members ranked below it complete, the others
# get MPI_ERR_PROC_FAILED, in finite time (argument: the rank that dies).
io_fault 4
io_fault 4 arg=2 env=MINI_MPI_FAULTS=kill 2 during MPI_File_write_at_all#1
io_fault 5 arg=0 env=MINI_MPI_FAULTS=kill 0 during MPI_File_write_at_all#1
io_fault 4 arg=0 env=MINI_MPI_FAULTS=kill 3 at MPI_File_write_at_all#1
# Collective writes whose pieces interleave are coalesced: layouts checked byte for byte, with
# hints (cb_nodes, romio_cb_write) and a member writing from a non-contiguous memory type; a
# member killed inside one (argument: the victim): the ranks below it complete, their data in.
io_coalesce 1
io_coalesce 4
io_coalesce 7
io_coalesce 5 arg=2 env=MINI_MPI_FAULTS=kill 2 during MPI_File_write_all#1
io_coalesce 4 arg=1 env=MINI_MPI_FAULTS=kill 1 during MPI_File_write_all#1
io_coalesce 4 arg=3 env=MINI_MPI_FAULTS=kill 3 during MPI_File_write_all#1
# Larger groups, one aggregator and every member one (after a failure a change of state wakes
# the members only when it may end a wait: a missed wake-up would hang here).
io_coalesce 8 arg=3 arg=8 env=MINI_MPI_FAULTS=kill 3 during MPI_File_write_all#1
io_coalesce 64 arg=20 env=MINI_MPI_FAULTS=kill 20 during MPI_File_write_all#1
io_coalesce 64 arg=1 arg=64 env=MINI_MPI_FAULTS=kill 1 during MPI_File_write_all#1
io_coalesce 256 arg=200 arg=256 timeLimit=120 env=MINI_MPI_FAULTS=kill 200 during MPI_File_write_all#1
# Collective reads whose pieces interleave, coalesced the same way: data and counts byte for
# byte, with the hints, a member reading into a non-contiguous memory type, a file ending inside
# the blocks (partial counts), and a member killed inside one.
io_coalesce_read 1
io_coalesce_read 2
io_coalesce_read 4
io_coalesce_read 7
io_coalesce_read 4 arg=1 env=MINI_MPI_FAULTS=kill 1 during MPI_File_read_all#1
io_coalesce_read 5 arg=2 arg=1 env=MINI_MPI_FAULTS=kill 2 during MPI_File_read_all#1
io_coalesce_read 8 arg=3 arg=8 env=MINI_MPI_FAULTS=kill 3 during MPI_File_read_all#1
io_coalesce_read 64 arg=20 env=MINI_MPI_FAULTS=kill 20 during MPI_File_read_all#1
# Checkpoint with write_at_all, restart with read_at_all, verified against an uninterrupted run.
io_checkpoint 4 dir=examples grep=^20 steps, restarted from step 10
io_checkpoint 1 dir=examples
# User data representations (MPI_Register_datarep): byte-swapping and scaling conversions
# checked in the file's bytes, duplicates, conversion and extent function errors.
io_datarep 1
io_datarep 3
# File offsets past 2^63 - 1 (a position of 2^61 doubles is byte 2^64): MPI_ERR_ARG for every
# way of naming a position, nothing written.
io_overflow 1
io_overflow 3
# seek_shared: one outcome at every member: MPI_ERR_NOT_SAME for differing offset or whence;
# with a dead member MPI_ERR_PROC_FAILED and an undefined pointer until a seek succeeds.
io_seek_shared 3
io_seek_shared 4 arg=dead env=MINI_MPI_POISON=1 env=MINI_MPI_FAULTS=kill 1 at MPI_File_seek_shared
# MPI_MODE_DELETE_ON_CLOSE whose removal fails: MPI_ERR_IO from close.
io_delete_on_close 1
io_delete_on_close 3
