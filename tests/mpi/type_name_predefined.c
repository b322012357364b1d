/*
 * type_name_predefined.c: MPI_Type_set_name on a predefined datatype names it for the calling
 * process only (every rank here shares the object), and MPI_INTEGER16 is a 16-byte integer
 * that reductions and external32 handle beyond 64 bits.
 */
#include <string.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, len;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    char mine[32], name[MPI_MAX_OBJECT_NAME];
    snprintf(mine, sizeof mine, "int of rank %d", rank);
    MPI_Type_get_name(MPI_INT, name, &len);
    CHECK(!strcmp(name, "MPI_INT"));
    MPI_Type_set_name(MPI_INT, mine);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has named it by now */
    MPI_Type_get_name(MPI_INT, name, &len);
    CHECK(!strcmp(name, mine) && len == (int)strlen(mine));
    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    CHECK(!strcmp(name, "MPI_DOUBLE"));

    int tsize;
    MPI_Type_size(MPI_INTEGER16, &tsize);
    CHECK(tsize == 16);
    MPI_Type_get_name(MPI_INTEGER16, name, &len);
    CHECK(!strcmp(name, "MPI_INTEGER16"));
    __int128 in = ((__int128)1 << 64) * (rank + 1), out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD);
    CHECK(out == ((__int128)1 << 64) * size * (size + 1) / 2);
    unsigned char ext[16];
    MPI_Aint pos = 0, back = 0;
    __int128 neg = -((__int128)3 << 70), again = 0;
    MPI_Pack_external("external32", &neg, 1, MPI_INTEGER16, ext, sizeof ext, &pos);
    MPI_Unpack_external("external32", ext, pos, &back, &again, 1, MPI_INTEGER16);
    CHECK(pos == 16 && ext[0] == 0xff && again == neg); /* big-endian two's complement */
    MPI_Datatype t;
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 16, &t);
    CHECK(t == MPI_INTEGER16);
    return mtest_finish();
}
