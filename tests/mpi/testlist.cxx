# tests/mpi/testlist.cxx: C++ programs (tests/mpi/*.cpp, built by bin/mpicxx), MPICH testlist
# format (see tests/mpi/testlist).
# Static constructors and destructors per rank, thread_local, std::thread in a rank, an
# exception thrown by an error handler reaching the caller.
cxx_ranks 3 grep=^destructor of rank 0$ grep=^destructor of rank 2$
# A class owning its communicator, a throwing error handler, revoke/shrink after an injected death.
cxx_ulfm_solver 5 env=MINI_MPI_FAULTS=kill 2 at MPI_Allreduce#3
cxx_ulfm_solver 5 env=MINI_MPI_FAULTS=kill 2 at MPI_Allreduce#1
