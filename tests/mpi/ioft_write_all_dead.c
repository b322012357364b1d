/*
 * ioft_write_all_dead.c: a member killed inside MPI_File_write_all (MINI_MPI_FAULTS=kill V
 * during MPI_File_write_all#2; argument V). The rule checked (fault-tolerance chapter, I/O):
 * "If an MPI process failure prevents a file operation from completing, an MPI exception of
 * class MPI_ERR_PROC_FAILED is raised." Members ranked below V complete their part, the others
 * raise MPI_ERR_PROC_FAILED, all in finite time; what the first write_all put in the file is
 * intact byte for byte, and independent access at explicit offsets by the survivors still
 * works (a failure of another member never prevents it).
 */
#include <string.h>

#include "ioft.h"

#define N 1000

int main(int argc, char **argv)
{
    int rank, size, victim = argc > 1 ? atoi(argv[1]) : 2;
    char name[256];
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ioft_name(name, sizeof name, "ioft_write_all_dead");
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    /* Each member's block of N bytes in round r sits at (r * size + rank) * N. */
    char mine[N], back[N];
    for (int round = 0; round < 2; round++) {
        memset(mine, 'a' + (rank + round) % 26, N);
        CHECK(MPI_File_seek(fh, (MPI_Offset)(round * size + rank) * N, MPI_SEEK_SET) ==
              MPI_SUCCESS);
        int err = MPI_File_write_all(fh, mine, N, MPI_CHAR, MPI_STATUS_IGNORE);
        if (round == 0 || rank < victim)
            CHECK(err == MPI_SUCCESS);
        else
            CHECK(ioft_class(err) == MPI_ERR_PROC_FAILED);
    }
    /* Every block of round 0, the victim's included, is intact. */
    for (int r = 0; r < size; r++) {
        MPI_Status st;
        int count = -1;
        memset(back, 0, N);
        CHECK(MPI_File_read_at(fh, (MPI_Offset)r * N, back, N, MPI_CHAR, &st) == MPI_SUCCESS);
        MPI_Get_count(&st, MPI_CHAR, &count);
        CHECK(count == N);
        memset(mine, 'a' + r % 26, N);
        CHECK(memcmp(back, mine, N) == 0);
    }
    /* Independent access at explicit offsets goes on. */
    memset(mine, 'Z', N);
    MPI_Offset mine_at = (MPI_Offset)(2 * size + rank) * N;
    CHECK(MPI_File_write_at(fh, mine_at, mine, N, MPI_CHAR, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_File_read_at(fh, mine_at, back, N, MPI_CHAR, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(memcmp(back, mine, N) == 0);
    int err = MPI_File_close(&fh);
    CHECK(fh == MPI_FILE_NULL);
    CHECK(ioft_class(err) == MPI_ERR_PROC_FAILED);
    return ioft_finish();
}
