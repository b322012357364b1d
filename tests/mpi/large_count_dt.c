/*
 * large_count_dt.c: the large-count (_c) forms of the datatype chapter (MPI-4.1 §5.2):
 * every constructor's _c form builds the type its int form builds (same size, bounds and
 * data layout) and records its arguments as large counts (§5.1.13); a count beyond 2^31 is
 * carried whole (MPI_Type_contiguous_c of 2^31+5 bytes: Type_size_c 2^31+5, Type_size
 * MPI_UNDEFINED; a status of more than INT_MAX elements: Get_count MPI_UNDEFINED, Get_count_c
 * exact); the pack family's _c forms; MPI_Op_create_c's function gets an MPI_Count length;
 * bad arguments raise the right class (negative counts MPI_ERR_COUNT, the int form of a query
 * that cannot hold the answer MPI_ERR_VALUE_TOO_LARGE). No large memory is needed.
 */
#include <limits.h>
#include <string.h>

#include "mtest.h"

/* Size, bounds, envelope and packed layout of a and b agree (b made by the _c form). */
static void same_type(MPI_Datatype a, MPI_Datatype b, int combiner)
{
    MPI_Count sa, sb, la, lb, ea, eb, tla, tlb, tea, teb;
    MPI_Type_size_c(a, &sa);
    MPI_Type_size_c(b, &sb);
    MPI_Type_get_extent_c(a, &la, &ea);
    MPI_Type_get_extent_c(b, &lb, &eb);
    MPI_Type_get_true_extent_c(a, &tla, &tea);
    MPI_Type_get_true_extent_c(b, &tlb, &teb);
    CHECK(sa == sb && la == lb && ea == eb && tla == tlb && tea == teb);

    int ni, na, nd, comb;
    MPI_Count ci, ca, cc, cd;
    int ca_comb, cb_comb;
    CHECK(MPI_Type_get_envelope(a, &ni, &na, &nd, &comb) == MPI_SUCCESS);
    CHECK(comb == combiner);
    CHECK(MPI_Type_get_envelope_c(a, &ci, &ca, &cc, &cd, &ca_comb) == MPI_SUCCESS);
    CHECK(ci == ni && ca == na && cc == 0 && cd == nd && ca_comb == combiner);
    CHECK(MPI_Type_get_envelope_c(b, &ci, &ca, &cc, &cd, &cb_comb) == MPI_SUCCESS);
    CHECK(cb_comb == combiner && cc > 0 && cd == nd);
    /* The int form cannot describe a type made by a _c constructor. */
    CHECK(MPI_Type_get_envelope(b, &ni, &na, &nd, &comb) == MPI_ERR_VALUE_TOO_LARGE);

    /* The large counts are the int form's integers and addresses, in order. */
    int ints[64], ints_c[64];
    MPI_Aint addrs[64], addrs_c[64];
    MPI_Count counts[64];
    MPI_Datatype types[16], types_c[16];
    MPI_Type_get_envelope(a, &ni, &na, &nd, &comb);
    CHECK(MPI_Type_get_contents(a, 64, 64, 16, ints, addrs, types) == MPI_SUCCESS);
    CHECK(MPI_Type_get_contents_c(b, 64, 64, 64, 16, ints_c, addrs_c, counts, types_c) ==
          MPI_SUCCESS);
    CHECK(MPI_Type_get_contents(b, 64, 64, 16, ints, addrs, types) == MPI_ERR_VALUE_TOO_LARGE);
    MPI_Type_get_envelope_c(b, &ci, &ca, &cc, &cd, &cb_comb);
    if (combiner != MPI_COMBINER_SUBARRAY && combiner != MPI_COMBINER_DARRAY) {
        CHECK(ci == 0 && ca == 0 && cc == ni + na);
        int k = 0;
        for (int i = 0; i < ni; i++)
            CHECK(counts[k++] == ints[i]);
        for (int i = 0; i < na; i++)
            CHECK(counts[k++] == addrs[i]);
    }
    for (int i = 0; i < nd; i++) {
        int dummy;
        CHECK(types[i] == types_c[i] ||
              MPI_Type_get_envelope(types_c[i], &dummy, &dummy, &dummy, &dummy) == MPI_SUCCESS);
    }

    /* The same bytes move. */
    MPI_Type_commit(&a);
    MPI_Type_commit(&b);
    char src[4096], pa[4096], pb[4096];
    for (int i = 0; i < (int)sizeof src; i++)
        src[i] = (char)(i * 7 + 1);
    int pos = 0;
    MPI_Count posc = 0;
    if (sa <= 1024 && ea <= 1024 && la >= 0) {
        CHECK(MPI_Pack(src, 1, a, pa, sizeof pa, &pos, MPI_COMM_SELF) == MPI_SUCCESS);
        CHECK(MPI_Pack_c(src, 1, b, pb, sizeof pb, &posc, MPI_COMM_SELF) == MPI_SUCCESS);
        CHECK(pos == posc && pos == sa && memcmp(pa, pb, (size_t)pos) == 0);
    }
    MPI_Type_free(&a);
    MPI_Type_free(&b);
}

static void constructors(void)
{
    MPI_Datatype a, b;
    int bl[3] = {2, 1, 3}, di[3] = {0, 5, 9};
    MPI_Count blc[3] = {2, 1, 3}, dic[3] = {0, 5, 9};
    MPI_Aint da[3] = {0, 20, 40};
    MPI_Count dac[3] = {0, 20, 40};

    MPI_Type_contiguous(5, MPI_INT, &a);
    MPI_Type_contiguous_c(5, MPI_INT, &b);
    same_type(a, b, MPI_COMBINER_CONTIGUOUS);

    MPI_Type_vector(3, 2, 4, MPI_INT, &a);
    MPI_Type_vector_c(3, 2, 4, MPI_INT, &b);
    same_type(a, b, MPI_COMBINER_VECTOR);

    MPI_Type_create_hvector(3, 2, 24, MPI_SHORT, &a);
    MPI_Type_create_hvector_c(3, 2, 24, MPI_SHORT, &b);
    same_type(a, b, MPI_COMBINER_HVECTOR);

    MPI_Type_indexed(3, bl, di, MPI_INT, &a);
    MPI_Type_indexed_c(3, blc, dic, MPI_INT, &b);
    same_type(a, b, MPI_COMBINER_INDEXED);

    MPI_Type_create_hindexed(3, bl, da, MPI_INT, &a);
    MPI_Type_create_hindexed_c(3, blc, dac, MPI_INT, &b);
    same_type(a, b, MPI_COMBINER_HINDEXED);

    MPI_Type_create_indexed_block(3, 2, di, MPI_INT, &a);
    MPI_Type_create_indexed_block_c(3, 2, dic, MPI_INT, &b);
    same_type(a, b, MPI_COMBINER_INDEXED_BLOCK);

    MPI_Type_create_hindexed_block(3, 2, da, MPI_INT, &a);
    MPI_Type_create_hindexed_block_c(3, 2, dac, MPI_INT, &b);
    same_type(a, b, MPI_COMBINER_HINDEXED_BLOCK);

    MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MPI_Type_create_struct(3, bl, da, types, &a);
    MPI_Type_create_struct_c(3, blc, dac, types, &b);
    same_type(a, b, MPI_COMBINER_STRUCT);

    MPI_Type_create_resized(MPI_INT, -4, 16, &a);
    MPI_Type_create_resized_c(MPI_INT, -4, 16, &b);
    same_type(a, b, MPI_COMBINER_RESIZED);

    int sizes[2] = {6, 8}, subs[2] = {2, 3}, starts[2] = {1, 4};
    MPI_Count sizesc[2] = {6, 8}, subsc[2] = {2, 3}, startsc[2] = {1, 4};
    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &a);
    MPI_Type_create_subarray_c(2, sizesc, subsc, startsc, MPI_ORDER_C, MPI_INT, &b);
    same_type(a, b, MPI_COMBINER_SUBARRAY);

    int gs[2] = {8, 6}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 2};
    MPI_Count gsc[2] = {8, 6};
    MPI_Type_create_darray(4, 3, 2, gs, dist, dargs, ps, MPI_ORDER_C, MPI_INT, &a);
    MPI_Type_create_darray_c(4, 3, 2, gsc, dist, dargs, ps, MPI_ORDER_C, MPI_INT, &b);
    same_type(a, b, MPI_COMBINER_DARRAY);
}

/* Counts beyond 2^31, carried without the memory they describe. */
static void beyond_int(void)
{
    const MPI_Count big = (1LL << 31) + 5;
    MPI_Datatype t, v;
    MPI_Count size, lb, extent, n;
    int isize;

    CHECK(MPI_Type_contiguous_c(big, MPI_BYTE, &t) == MPI_SUCCESS);
    MPI_Type_size_c(t, &size);
    CHECK(size == big);
    MPI_Type_size(t, &isize);
    CHECK(isize == MPI_UNDEFINED);
    MPI_Type_get_extent_c(t, &lb, &extent);
    CHECK(lb == 0 && extent == big);
    MPI_Count nc = 0, ni, na, nd;
    int comb;
    MPI_Count cnt[1];
    MPI_Datatype old;
    MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb);
    CHECK(nc == 1 && ni == 0 && nd == 1);
    MPI_Type_get_contents_c(t, 0, 0, 1, 1, NULL, NULL, cnt, &old);
    CHECK(cnt[0] == big && old == MPI_BYTE);
    MPI_Type_commit(&t);
    int psize;
    MPI_Count psize_c;
    CHECK(MPI_Pack_size(1, t, MPI_COMM_WORLD, &psize) == MPI_ERR_VALUE_TOO_LARGE);
    CHECK(MPI_Pack_size_c(1, t, MPI_COMM_WORLD, &psize_c) == MPI_SUCCESS && psize_c == big);

    /* A vector of 2^31+5 one-int blocks: O(1) to build. */
    CHECK(MPI_Type_vector_c(big, 1, 3, MPI_INT, &v) == MPI_SUCCESS);
    MPI_Type_size_c(v, &size);
    CHECK(size == big * 4);
    MPI_Type_get_extent_c(v, &lb, &extent);
    CHECK(lb == 0 && extent == (big - 1) * 12 + 4);
    MPI_Type_free(&v);

    /* A status of more than INT_MAX elements (§5.2: MPI_UNDEFINED in the int forms). */
    MPI_Status st;
    int icount;
    CHECK(MPI_Status_set_elements_c(&st, MPI_BYTE, big) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_BYTE, &icount);
    CHECK(icount == MPI_UNDEFINED);
    MPI_Get_count_c(&st, MPI_BYTE, &n);
    CHECK(n == big);
    MPI_Get_elements(&st, MPI_BYTE, &icount);
    CHECK(icount == MPI_UNDEFINED);
    MPI_Get_elements_c(&st, MPI_BYTE, &n);
    CHECK(n == big);
    MPI_Get_count_c(&st, t, &n);
    CHECK(n == 1);
    MPI_Get_elements_x(&st, t, &n);
    CHECK(n == big);
    /* Elements of a short: an odd byte count is no whole element. */
    MPI_Status_set_elements_c(&st, MPI_SHORT, big);
    MPI_Get_count_c(&st, MPI_SHORT, &n);
    CHECK(n == big);
    MPI_Get_count_c(&st, MPI_INT, &n);
    CHECK(n == MPI_UNDEFINED);
    MPI_Status_set_elements(&st, MPI_INT, 7);
    MPI_Get_count_c(&st, MPI_INT, &n);
    MPI_Get_count(&st, MPI_INT, &icount);
    CHECK(n == 7 && icount == 7);
    MPI_Type_free(&t);

    /* Bounds that overflow an address are refused, not wrapped. */
    MPI_Datatype huge;
    CHECK(MPI_Type_contiguous_c(LLONG_MAX / 2, MPI_INT, &huge) != MPI_SUCCESS);
}

static void pack_forms(void)
{
    int in[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0};
    char buf[64];
    MPI_Count pos = 0, size;
    CHECK(MPI_Pack_size_c(6, MPI_INT, MPI_COMM_WORLD, &size) == MPI_SUCCESS && size == 24);
    CHECK(MPI_Pack_c(in, 6, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(pos == 24);
    pos = 0;
    CHECK(MPI_Unpack_c(buf, 24, &pos, out, 6, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(pos == 24 && memcmp(in, out, sizeof in) == 0);

    MPI_Count ext;
    CHECK(MPI_Pack_external_size_c("external32", 6, MPI_INT, &ext) == MPI_SUCCESS && ext == 24);
    pos = 0;
    CHECK(MPI_Pack_external_c("external32", in, 6, MPI_INT, buf, sizeof buf, &pos) == MPI_SUCCESS);
    CHECK(pos == 24 && buf[3] == 1 && buf[0] == 0); /* big-endian */
    memset(out, 0, sizeof out);
    pos = 0;
    CHECK(MPI_Unpack_external_c("external32", buf, 24, &pos, out, 6, MPI_INT) == MPI_SUCCESS);
    CHECK(pos == 24 && memcmp(in, out, sizeof in) == 0);

    /* Errors, raised on the communicator where there is one. */
    pos = 0;
    CHECK(MPI_Pack_c(in, -1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD) == MPI_ERR_COUNT);
    CHECK(MPI_Pack_c(in, 6, MPI_INT, buf, 8, &pos, MPI_COMM_WORLD) == MPI_ERR_TRUNCATE);
    CHECK(MPI_Pack_size_c(-2, MPI_INT, MPI_COMM_WORLD, &size) == MPI_ERR_COUNT);
    CHECK(MPI_Unpack_c(buf, 24, NULL, out, 6, MPI_INT, MPI_COMM_WORLD) == MPI_ERR_ARG);
    CHECK(MPI_Pack_external_size_c("external32", -1, MPI_INT, &ext) == MPI_ERR_COUNT);
}

static MPI_Count seen_len;
static void sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    seen_len = *len;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void op_forms(void)
{
    MPI_Op op;
    int a[5] = {1, 2, 3, 4, 5}, b[5] = {10, 20, 30, 40, 50};
    CHECK(MPI_Op_create_c(sum_c, 1, &op) == MPI_SUCCESS);
    int commute = 0;
    MPI_Op_commutative(op, &commute);
    CHECK(commute == 1);
    CHECK(MPI_Reduce_local(a, b, 5, MPI_INT, op) == MPI_SUCCESS);
    CHECK(seen_len == 5 && b[0] == 11 && b[4] == 55);
    int sum = 0, one = 1;
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, op, MPI_COMM_WORLD) == MPI_SUCCESS);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(sum == size);
    MPI_Op_free(&op);
    CHECK(MPI_Op_create_c(NULL, 1, &op) == MPI_ERR_ARG);
}

static void bad_arguments(void)
{
    MPI_Datatype t;
    MPI_Count c[2] = {1, 1};
    CHECK(MPI_Type_contiguous_c(-1, MPI_INT, &t) == MPI_ERR_COUNT);
    CHECK(MPI_Type_vector_c(-3, 1, 1, MPI_INT, &t) == MPI_ERR_COUNT);
    CHECK(MPI_Type_vector_c(3, -1, 1, MPI_INT, &t) == MPI_ERR_ARG);
    CHECK(MPI_Type_create_hvector_c(2, 1, 8, MPI_DATATYPE_NULL, &t) == MPI_ERR_TYPE);
    CHECK(MPI_Type_indexed_c(-1, c, c, MPI_INT, &t) == MPI_ERR_COUNT);
    MPI_Count negbl[2] = {1, -1};
    CHECK(MPI_Type_indexed_c(2, negbl, c, MPI_INT, &t) == MPI_ERR_ARG);
    CHECK(MPI_Type_create_struct_c(-1, c, c, NULL, &t) == MPI_ERR_COUNT);
    CHECK(MPI_Type_create_resized_c(MPI_DATATYPE_NULL, 0, 4, &t) == MPI_ERR_TYPE);
    MPI_Count sz[1] = {4}, sub[1] = {5}, st[1] = {0};
    CHECK(MPI_Type_create_subarray_c(1, sz, sub, st, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_ARG);
    MPI_Count n;
    CHECK(MPI_Type_size_c(MPI_DATATYPE_NULL, &n) == MPI_ERR_TYPE);
    CHECK(MPI_Type_get_extent_c(MPI_INT, NULL, &n) == MPI_ERR_ARG);
    MPI_Status s;
    CHECK(MPI_Status_set_elements_c(&s, MPI_INT, -1) == MPI_ERR_COUNT);
    CHECK(MPI_Get_count_c(&s, MPI_DATATYPE_NULL, &n) == MPI_ERR_TYPE);
}

/* MPI 4.1's accessors of the public status fields. */
static void status_fields(void)
{
    MPI_Status s;
    int v;
    CHECK(MPI_Status_set_source(&s, 3) == MPI_SUCCESS);
    CHECK(MPI_Status_set_tag(&s, 77) == MPI_SUCCESS);
    CHECK(MPI_Status_set_error(&s, MPI_ERR_TAG) == MPI_SUCCESS);
    CHECK(s.MPI_SOURCE == 3 && s.MPI_TAG == 77 && s.MPI_ERROR == MPI_ERR_TAG);
    MPI_Status_get_source(&s, &v);
    CHECK(v == 3);
    MPI_Status_get_tag(&s, &v);
    CHECK(v == 77);
    MPI_Status_get_error(&s, &v);
    CHECK(v == MPI_ERR_TAG);
    CHECK(MPI_Status_get_tag(&s, NULL) == MPI_ERR_ARG);
    CHECK(MPI_Status_set_tag(NULL, 1) == MPI_ERR_ARG);
}

static int conv_c(void *userbuf, MPI_Datatype type, MPI_Count count, void *filebuf,
                  MPI_Offset position, void *extra)
{
    return MPI_SUCCESS;
}
static int extent_fn(MPI_Datatype type, MPI_Aint *extent, void *extra)
{
    return MPI_Type_get_extent(type, &(MPI_Aint){0}, extent);
}

/* MPI_Register_datarep_c: errors go to MPI_FILE_NULL's handler (MPI_ERRORS_RETURN). */
static void datarep_forms(void)
{
    CHECK(MPI_Register_datarep_c("lc_rep", conv_c, conv_c, extent_fn, NULL) == MPI_SUCCESS);
    CHECK(MPI_Register_datarep_c("lc_rep", conv_c, conv_c, extent_fn, NULL) ==
          MPI_ERR_DUP_DATAREP);
    CHECK(MPI_Register_datarep("lc_rep", NULL, NULL, extent_fn, NULL) == MPI_ERR_DUP_DATAREP);
    CHECK(MPI_Register_datarep_c("lc_rep2", conv_c, conv_c, NULL, NULL) == MPI_ERR_ARG);
    CHECK(MPI_Register_datarep_c("external32", MPI_CONVERSION_FN_NULL_C, MPI_CONVERSION_FN_NULL_C,
                                 extent_fn, NULL) == MPI_ERR_DUP_DATAREP);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    /* Errors of calls without an object go to MPI_COMM_SELF's handler (MPI-4.1 §9.3). */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    constructors();
    beyond_int();
    pack_forms();
    op_forms();
    bad_arguments();
    status_fields();
    datarep_forms();
    return mtest_finish();
}
