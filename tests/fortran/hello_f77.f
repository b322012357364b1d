C     hello_f77.f: mpif.h, MPI_Init/Comm_rank/size, a ring of MPI_Sendrecv with a status,
C     MPI_Allreduce, MPI_Wtime; a COMMON block and a SAVE variable are per rank.
      PROGRAM HELLO
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, SIZE, IERR, LEFT, RIGHT, SBUF, RBUF, SUM, ERRS
      INTEGER STATUS(MPI_STATUS_SIZE), COUNT
      DOUBLE PRECISION T
      INTEGER SHARED
      COMMON /BLK/ SHARED
      ERRS = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, SIZE, IERR)
      SHARED = RANK
      RIGHT = MOD(RANK + 1, SIZE)
      LEFT = MOD(RANK + SIZE - 1, SIZE)
      SBUF = RANK * 10
      CALL MPI_SENDRECV(SBUF, 1, MPI_INTEGER, RIGHT, 7, RBUF, 1,
     &     MPI_INTEGER, LEFT, 7, MPI_COMM_WORLD, STATUS, IERR)
      IF (RBUF .NE. LEFT * 10) ERRS = ERRS + 1
      IF (STATUS(MPI_SOURCE) .NE. LEFT) ERRS = ERRS + 1
      IF (STATUS(MPI_TAG) .NE. 7) ERRS = ERRS + 1
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, COUNT, IERR)
      IF (COUNT .NE. 1) ERRS = ERRS + 1
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      IF (SHARED .NE. RANK) ERRS = ERRS + 1
      CALL MPI_ALLREDUCE(ERRS, SUM, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      T = MPI_WTIME()
      IF (T .LE. 0.0D0) SUM = SUM + 1
      IF (RANK .EQ. 0) THEN
         IF (SUM .EQ. 0) THEN
            PRINT *, 'No Errors'
         ELSE
            PRINT *, 'Found ', SUM, ' errors'
         ENDIF
      ENDIF
      CALL MPI_FINALIZE(IERR)
      END
