/*
 * io_seek_shared.c: MPI_File_seek_shared is a collective with one outcome for all members
 * (MPI-4.1 §14.4.4: "all processes in the communicator group must call it with the same
 * values for offset and whence").
 *   no argument: offsets that differ, and whences that differ while naming the same position
 *     (MPI_SEEK_SET 0 and MPI_SEEK_CUR 0 at pointer 0), are MPI_ERR_NOT_SAME at every member
 *     and leave the pointer; a bad whence is MPI_ERR_ARG at every member.
 *   "dead" (MINI_MPI_FAULTS=kill 1 at MPI_File_seek_shared, MINI_MPI_POISON=1): with a member
 *     dead the call cannot complete; every survivor gets MPI_ERR_PROC_FAILED, the pointer is
 *     the documented undefined value (not the offset passed), a second call fails the same
 *     way, and the pointer is defined again by the first seek that succeeds: on the file
 *     reopened on the survivors.
 */
#include <string.h>
#include <unistd.h>

#include "mtest.h"

#define POISON ((MPI_Offset)1 << 30)

static int cls(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

static MPI_File open_on(MPI_Comm comm, const char *name)
{
    MPI_File fh = MPI_FILE_NULL;
    CHECK(MPI_File_open(comm, name, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    return fh;
}

static void not_same(MPI_File fh, int rank)
{
    MPI_Offset pos = -1;
    CHECK(cls(MPI_File_seek_shared(fh, rank == 0 ? 1 : 2, MPI_SEEK_SET)) == MPI_ERR_NOT_SAME);
    CHECK(cls(MPI_File_seek_shared(fh, 0, rank == 0 ? MPI_SEEK_SET : MPI_SEEK_CUR)) ==
          MPI_ERR_NOT_SAME);
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS && pos == 0);
    CHECK(cls(MPI_File_seek_shared(fh, 0, 12345)) == MPI_ERR_ARG);
    /* The file is still usable: the same arguments work. */
    CHECK(MPI_File_seek_shared(fh, 7, MPI_SEEK_SET) == MPI_SUCCESS);
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS && pos == 7);
}

static void dead_member(MPI_File *fh, const char *name)
{
    MPI_Offset pos = -1;
    CHECK(cls(MPI_File_seek_shared(*fh, 5, MPI_SEEK_SET)) == MPI_ERR_PROC_FAILED);
    /* Every survivor has its answer before anyone looks at the pointer. */
    MPI_Comm alive;
    MPIX_Comm_shrink(MPI_COMM_WORLD, &alive);
    MPI_Barrier(alive);
    CHECK(MPI_File_get_position_shared(*fh, &pos) == MPI_SUCCESS && pos == POISON);
    CHECK(cls(MPI_File_seek_shared(*fh, 5, MPI_SEEK_SET)) == MPI_ERR_PROC_FAILED);
    MPI_Barrier(alive);
    CHECK(MPI_File_get_position_shared(*fh, &pos) == MPI_SUCCESS && pos == POISON);
    CHECK(cls(MPI_File_close(fh)) == MPI_ERR_PROC_FAILED);
    MPI_Barrier(alive); /* the last survivor's close removes the file: not the new one */
    *fh = open_on(alive, name);
    CHECK(MPI_File_seek_shared(*fh, 5, MPI_SEEK_SET) == MPI_SUCCESS);
    CHECK(MPI_File_get_position_shared(*fh, &pos) == MPI_SUCCESS && pos == 5);
    MPI_Comm_free(&alive);
}

int main(int argc, char **argv)
{
    int rank;
    char name[256];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    snprintf(name, sizeof name, "%s/mmpi_io_seek_shared_%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    MPI_File fh = open_on(MPI_COMM_WORLD, name);
    if (argc > 1 && !strcmp(argv[1], "dead"))
        dead_member(&fh, name);
    else
        not_same(fh, rank);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    return mtest_finish(); /* rank 0 reports: in "dead" rank 1 is the one that dies */
}
