/* p2p_derived.c: point-to-point with derived datatypes (MPI-4.1 §3.3 type matching by
 * signature, §5.1): a vector of ints sent and received as contiguous MPI_INTs and the reverse
 * (gaps of the strided buffer left untouched), a struct {int, double, char[3]} built with
 * MPI_Type_create_struct and resized to its C extent, sent as an array (MPI_Get_count in structs,
 * MPI_Get_elements in basic elements), with message sizes below and above 16 KiB; and
 * MPI_Sendrecv_replace of a vector type. Pairs (0,1), (2,3), ...; an odd last rank exchanges with
 * itself. */
#include <stddef.h>
#include <string.h>

#include "mtest.h"

struct item {
    int i;
    double d;
    char c[3];
};

static const int counts[] = {1, 100, 4095, 4097, 70000}; /* ints: 4 B ... 280 KiB */
#define NCOUNTS ((int)(sizeof(counts) / sizeof(counts[0])))
#define GAP (-7)

static int value(int src, int n, int k)
{
    return src * 1000003 + n * 3 + k;
}

/* Exchanges with `partner`: sends sbuf (scount of stype), receives rbuf (rcount of rtype). */
static void exchange(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                     MPI_Datatype rtype, int partner, MPI_Status *st)
{
    CHECK(MPI_Sendrecv(sbuf, scount, stype, partner, 0, rbuf, rcount, rtype, partner, 0,
                       MPI_COMM_WORLD, st) == MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = (rank ^ 1) < size ? rank ^ 1 : rank;
    int maxn = counts[NCOUNTS - 1];
    int *strided = malloc(sizeof(int) * 2 * (size_t)maxn), *flat = malloc(sizeof(int) * (size_t)maxn);

    for (int c = 0; c < NCOUNTS; c++) {
        int n = counts[c], count = -1, bad = 0;
        MPI_Datatype vec;
        MPI_Status st;
        /* n ints at stride 2: one vector element. */
        CHECK(MPI_Type_vector(n, 1, 2, MPI_INT, &vec) == MPI_SUCCESS);
        CHECK(MPI_Type_commit(&vec) == MPI_SUCCESS);

        /* vector → contiguous */
        for (int k = 0; k < n; k++)
            strided[2 * k] = value(rank, n, k), strided[2 * k + 1] = GAP;
        memset(flat, 0, sizeof(int) * (size_t)n);
        exchange(strided, 1, vec, flat, n, MPI_INT, partner, &st);
        CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == n);
        for (int k = 0; k < n; k++)
            bad += flat[k] != value(partner, n, k);
        CHECK(bad == 0);

        /* contiguous → vector: the gaps keep their value */
        for (int k = 0; k < n; k++)
            flat[k] = value(rank, n, k);
        for (int k = 0; k < 2 * n; k++)
            strided[k] = GAP;
        exchange(flat, n, MPI_INT, strided, 1, vec, partner, &st);
        CHECK(MPI_Get_count(&st, vec, &count) == MPI_SUCCESS && count == 1);
        CHECK(MPI_Get_elements(&st, vec, &count) == MPI_SUCCESS && count == n);
        bad = 0;
        for (int k = 0; k < n; k++)
            bad += strided[2 * k] != value(partner, n, k) || strided[2 * k + 1] != GAP;
        CHECK(bad == 0);

        /* Sendrecv_replace with the vector type; gaps untouched. */
        for (int k = 0; k < n; k++)
            strided[2 * k] = value(rank, n, k), strided[2 * k + 1] = GAP;
        CHECK(MPI_Sendrecv_replace(strided, 1, vec, partner, 1, partner, 1, MPI_COMM_WORLD,
                                   &st) == MPI_SUCCESS);
        CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 1);
        bad = 0;
        for (int k = 0; k < n; k++)
            bad += strided[2 * k] != value(partner, n, k) || strided[2 * k + 1] != GAP;
        CHECK(bad == 0);
        MPI_Type_free(&vec);
    }

    /* The struct type: 15 bytes of data in a 24-byte C struct (with padding). */
    {
        MPI_Datatype raw, item_t;
        int blens[3] = {1, 1, 3};
        MPI_Aint disps[3] = {offsetof(struct item, i), offsetof(struct item, d),
                             offsetof(struct item, c)};
        MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
        CHECK(MPI_Type_create_struct(3, blens, disps, types, &raw) == MPI_SUCCESS);
        CHECK(MPI_Type_create_resized(raw, 0, sizeof(struct item), &item_t) == MPI_SUCCESS);
        CHECK(MPI_Type_commit(&item_t) == MPI_SUCCESS);
        static const int nitems[] = {1, 1000, 1093, 1100, 20000}; /* 15 B ... 300 KB of data */
        struct item *out = malloc(sizeof(struct item) * 20000);
        struct item *in = malloc(sizeof(struct item) * 20000);
        for (int c = 0; c < 5; c++) {
            int m = nitems[c], count = -1, bad = 0;
            MPI_Status st;
            for (int k = 0; k < m; k++) {
                out[k].i = value(rank, m, k);
                out[k].d = value(rank, m, k) * 0.5;
                out[k].c[0] = (char)k, out[k].c[1] = (char)rank, out[k].c[2] = (char)m;
            }
            memset(in, 0, sizeof(struct item) * (size_t)m);
            exchange(out, m, item_t, in, m, item_t, partner, &st);
            CHECK(MPI_Get_count(&st, item_t, &count) == MPI_SUCCESS && count == m);
            CHECK(MPI_Get_elements(&st, item_t, &count) == MPI_SUCCESS && count == 5 * m);
            for (int k = 0; k < m; k++)
                bad += in[k].i != value(partner, m, k) || in[k].d != value(partner, m, k) * 0.5 ||
                       in[k].c[0] != (char)k || in[k].c[1] != (char)partner ||
                       in[k].c[2] != (char)m;
            CHECK(bad == 0);
        }
        free(out);
        free(in);
        MPI_Type_free(&item_t);
        MPI_Type_free(&raw);
    }
    free(strided);
    free(flat);
    return mtest_finish();
}
