/*
 * dt_named.c: the datatype odds and ends of MPI 4.1 / MPICH 4: the MPI_CXX_ types in C, the
 * MPI-1 bound markers MPI_LB and MPI_UB in a struct (and through MPI_Type_lb/_ub/_extent),
 * MPI_Type_create_f90_* (the same handle for the same parameters, the F90 envelope, usable in
 * a reduction) and MPI_Type_get_value_index (a predefined pair where one exists, else a new
 * committed type). Each check can fail.
 */
#include <string.h>

#include "mtest.h"

static void cxx_types(void)
{
    int s;
    MPI_Type_size(MPI_CXX_BOOL, &s);
    CHECK(s == 1);
    MPI_Type_size(MPI_CXX_DOUBLE_COMPLEX, &s);
    CHECK(s == 16);
    double in[2] = {1, 2}, io[2] = {3, 4};
    CHECK(MPI_Reduce_local(in, io, 1, MPI_CXX_DOUBLE_COMPLEX, MPI_SUM) == MPI_SUCCESS);
    CHECK(io[0] == 4 && io[1] == 6);
    _Bool a = 1, b = 0;
    CHECK(MPI_Reduce_local(&a, &b, 1, MPI_CXX_BOOL, MPI_LOR) == MPI_SUCCESS && b == 1);
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(MPI_CXX_FLOAT_COMPLEX, name, &len);
    CHECK(strcmp(name, "MPI_CXX_FLOAT_COMPLEX") == 0);
}

static void markers(void)
{
    /* MPI-1 §3.12.3: { MPI_LB at -3, int at 0, MPI_UB at 20 }: lb -3, ub 20. */
    int bl[3] = {1, 1, 1};
    MPI_Aint disp[3] = {-3, 0, 20}, lb, extent, v;
    MPI_Datatype types[3] = {MPI_LB, MPI_INT, MPI_UB}, t, c;
    CHECK(MPI_Type_struct(3, bl, disp, types, &t) == MPI_SUCCESS);
    MPI_Type_get_extent(t, &lb, &extent);
    CHECK(lb == -3 && extent == 23);
    int size;
    MPI_Type_size(t, &size);
    CHECK(size == 4);
    MPI_Type_lb(t, &v);
    CHECK(v == -3);
    MPI_Type_ub(t, &v);
    CHECK(v == 20);
    /* The bounds stick: two of them side by side are 23 bytes apart. */
    MPI_Type_contiguous(2, t, &c);
    MPI_Type_get_extent(c, &lb, &extent);
    CHECK(lb == -3 && extent == 46);
    MPI_Type_extent(c, &v);
    CHECK(v == 46);
    MPI_Type_free(&c);
    MPI_Type_free(&t);
    /* Only a lower marker: the upper bound is the data's. */
    MPI_Datatype t2[2] = {MPI_LB, MPI_DOUBLE};
    MPI_Aint d2[2] = {-8, 0};
    MPI_Type_create_struct(2, bl, d2, t2, &t);
    MPI_Type_get_extent(t, &lb, &extent);
    CHECK(lb == -8 && extent == 16);
    MPI_Type_free(&t);
    /* Only a marker: the other bound is 0, as in MPICH. */
    MPI_Aint d3[1] = {10};
    MPI_Datatype t3[1] = {MPI_LB};
    MPI_Type_create_struct(1, bl, d3, t3, &t);
    MPI_Type_get_extent(t, &lb, &extent);
    CHECK(lb == 10 && extent == -10);
    MPI_Type_free(&t);
    MPI_Type_size(MPI_UB, &size);
    CHECK(size == 0);
}

static void f90_types(void)
{
    MPI_Datatype r1, r2, c, i;
    CHECK(MPI_Type_create_f90_real(7, 30, &r1) == MPI_SUCCESS);
    CHECK(MPI_Type_create_f90_real(7, 30, &r2) == MPI_SUCCESS && r1 == r2);
    int size, ni, na, nd, comb, ints[2];
    MPI_Type_size(r1, &size);
    CHECK(size == 8);
    MPI_Type_get_envelope(r1, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_F90_REAL && ni == 2 && na == 0 && nd == 0);
    MPI_Type_get_contents(r1, 2, 0, 0, ints, NULL, NULL);
    CHECK(ints[0] == 7 && ints[1] == 30);
    CHECK(MPI_Type_create_f90_complex(3, MPI_UNDEFINED, &c) == MPI_SUCCESS);
    MPI_Type_size(c, &size);
    CHECK(size == 8);
    CHECK(MPI_Type_create_f90_integer(5, &i) == MPI_SUCCESS);
    MPI_Type_size(i, &size);
    CHECK(size == 4);
    MPI_Type_get_envelope(i, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_F90_INTEGER && ni == 1);
    double x = 1.5, y = 2.0;
    CHECK(MPI_Reduce_local(&x, &y, 1, r1, MPI_SUM) == MPI_SUCCESS && y == 3.5);
    MPI_Datatype two;
    MPI_Type_contiguous(2, i, &two);
    MPI_Type_commit(&two);
    int p[2] = {1, 2}, q[2] = {10, 20};
    CHECK(MPI_Reduce_local(p, q, 1, two, MPI_MAX) == MPI_SUCCESS && q[1] == 20);
    MPI_Type_free(&two);
    CHECK(MPI_Type_create_f90_real(40, 5000, &r2) == MPI_ERR_ARG);
    CHECK(MPI_Type_create_f90_integer(40, &r2) == MPI_ERR_ARG);
    CHECK(MPI_Type_free(&r1) == MPI_ERR_TYPE); /* predefined (§19.1.9) */
}

static void value_index(void)
{
    MPI_Datatype t;
    CHECK(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &t) == MPI_SUCCESS && t == MPI_DOUBLE_INT);
    CHECK(MPI_Type_get_value_index(MPI_FLOAT, MPI_LONG, &t) == MPI_SUCCESS);
    MPI_Aint lb, extent;
    MPI_Type_get_extent(t, &lb, &extent);
    CHECK(lb == 0 && extent == 16);
    int ni, na, nd, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_VALUE_INDEX && nd == 2);
    struct {
        float v;
        long i;
    } s = {2.5f, 7}, r;
    CHECK(MPI_Sendrecv(&s, 1, t, 0, 0, &r, 1, t, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE) ==
          MPI_SUCCESS);
    CHECK(r.v == 2.5f && r.i == 7);
    MPI_Type_free(&t);
    CHECK(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &t) == MPI_ERR_TYPE);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    cxx_types();
    markers();
    f90_types();
    value_index();
    return mtest_finish();
}
