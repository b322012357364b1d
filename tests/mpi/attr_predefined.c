/* attr_predefined.c: the predefined attributes of MPI_COMM_WORLD (MPI-4.1 §11.1, §9.5) and
 * Open MPI's MPIX_FT. Portable checks everywhere; the exact values mini_mpi promises (one
 * clock, the tag range of its point-to-point layer, a universe of the world's size) under
 * MINI_MPI. MPICH gives MPI_TAG_UB 2^28-1, MPI_WTIME_IS_GLOBAL 0 and no MPI_UNIVERSE_SIZE
 * under Hydra; Open MPI keeps them on duplicates of MPI_COMM_WORLD, as we do.
 * Argument "noft": the job runs with fault tolerance off, so MPIX_FT must be 0. */
#include <string.h>

#include "mtest.h"
#if defined(MINI_MPI) || defined(OPEN_MPI)
#include <mpi-ext.h>
#endif

static int get(MPI_Comm comm, int key, int *flag)
{
    int *p = NULL;
    *flag = -1;
    CHECK(MPI_Comm_get_attr(comm, key, &p, flag) == MPI_SUCCESS);
    return *flag ? *p : 0;
}

int main(int argc, char **argv)
{
    int rank, size, flag, v, cls, code, eclass;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    v = get(MPI_COMM_WORLD, MPI_TAG_UB, &flag);
    CHECK(flag && v >= 32767);
    /* The bound is usable: a message with tag MPI_TAG_UB goes through. */
    int tub = v, x = rank, y = -1;
    CHECK(MPI_Sendrecv(&x, 1, MPI_INT, rank, tub, &y, 1, MPI_INT, rank, tub, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE) == MPI_SUCCESS && y == rank);
    if (tub < 2147483647) {
        MPI_Error_class(MPI_Send(&x, 1, MPI_INT, rank, tub + 1, MPI_COMM_WORLD), &cls);
        CHECK(cls == MPI_ERR_TAG);
    }
    v = get(MPI_COMM_WORLD, MPI_HOST, &flag);
    CHECK(flag && (v == MPI_PROC_NULL || (v >= 0 && v < size)));
    v = get(MPI_COMM_WORLD, MPI_IO, &flag);
    CHECK(flag && (v == MPI_ANY_SOURCE || v == MPI_PROC_NULL || (v >= 0 && v < size)));
    v = get(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &flag);
    CHECK(!flag || v == 0 || v == 1);
    v = get(MPI_COMM_WORLD, MPI_APPNUM, &flag);
    CHECK(!flag || v == 0);
    v = get(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &flag);
    CHECK(!flag || v >= size);

    /* MPI_LASTUSEDCODE follows MPI_Add_error_class / MPI_Add_error_code. */
    int last0 = get(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &flag);
    CHECK(flag);
    CHECK(MPI_Add_error_class(&eclass) == MPI_SUCCESS);
    CHECK(MPI_Add_error_code(eclass, &code) == MPI_SUCCESS);
    v = get(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &flag);
    CHECK(flag); /* (MPICH's codes are bit fields: no order to check portably) */
#ifdef MINI_MPI
    /* Added codes are numbered process-wide (errhan/), so other ranks' additions count too. */
    CHECK(v >= code && code > eclass && last0 >= MPI_ERR_LASTCODE);
#endif

#ifdef MINI_MPI
    CHECK(get(MPI_COMM_WORLD, MPI_TAG_UB, &flag) == 2147483647);
    CHECK(get(MPI_COMM_WORLD, MPI_HOST, &flag) == MPI_PROC_NULL);
    CHECK(get(MPI_COMM_WORLD, MPI_IO, &flag) == MPI_ANY_SOURCE);
    CHECK(get(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &flag) == 1 && flag);
    CHECK(get(MPI_COMM_WORLD, MPI_APPNUM, &flag) == 0 && flag);
    CHECK(get(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &flag) == size && flag);
    /* Kept by a duplicate, except MPI_LASTUSEDCODE (Open MPI's choice); absent elsewhere. */
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    CHECK(get(dup, MPI_TAG_UB, &flag) == 2147483647 && flag);
    CHECK(get(dup, MPI_UNIVERSE_SIZE, &flag) == size && flag);
    get(dup, MPI_LASTUSEDCODE, &flag);
    CHECK(flag == 0);
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS);
    get(MPI_COMM_SELF, MPI_TAG_UB, &flag);
    CHECK(flag == 0);
#endif

    /* Predefined attributes cannot be set or deleted. */
    MPI_Error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v), &cls);
    CHECK(cls == MPI_ERR_KEYVAL);
    MPI_Error_class(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL), &cls);
    CHECK(cls == MPI_ERR_KEYVAL);
    MPI_Error_class(MPI_Attr_put(MPI_COMM_WORLD, MPI_IO, &v), &cls);
    CHECK(cls == MPI_ERR_KEYVAL);

#ifdef MPIX_FT
    /* Open MPI's ULFM flag: set, true unless fault tolerance is off. */
    int ft_off = argc > 1 && !strcmp(argv[1], "noft");
    v = get(MPI_COMM_WORLD, MPIX_FT, &flag);
    CHECK(flag && v == !ft_off);
    MPI_Error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, MPIX_FT, &v), &cls);
    CHECK(cls == MPI_ERR_KEYVAL);
#endif
    (void)dup;
    return mtest_finish();
}
