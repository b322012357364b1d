/* attr_callbacks.c: when attribute callbacks run and how their errors propagate (MPI-4.1
 * §7.7.2): copy callbacks at MPI_Comm_dup, dup_with_info and idup (at the call, not at
 * completion) and never at split, split_type, create or create_group; delete callbacks at
 * MPI_Comm_free (with the freed handle), at overwrite and at delete; a failing copy callback
 * fails the dup (MPI_COMM_NULL, and the copies already made are deleted again); a failing
 * delete callback fails the free, the delete or the overwrite and leaves things as they were;
 * MPI_COMM_SELF's attributes are deleted first thing in MPI_Finalize, newest first (§11.2.2),
 * while MPI can still be called; callbacks may call the attribute functions on the very
 * object they run for (no lock is held meanwhile: this would deadlock otherwise). */
#include <string.h>

#include "mtest.h"

static int cls(int err)
{
    int c = err;
    MPI_Error_class(err, &c);
    return c;
}

enum { NKEYS = 3 };
static int keys[NKEYS], ids[NKEYS] = {0, 1, 2};
static int copies[NKEYS], deletes[NKEYS];
static MPI_Comm last_copied_from, last_deleted_on;
static int fail_copy, fail_delete; /* make the callbacks of key F / G fail */
static int copied, deleted;        /* F / G calls */

static int rec_copy(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    int i = *(int *)extra;
    CHECK(keyval == keys[i]);
    copies[i]++;
    last_copied_from = old;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int rec_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    int i = *(int *)extra;
    CHECK(keyval == keys[i]);
    deletes[i]++;
    last_deleted_on = comm;
    return MPI_SUCCESS;
}

static int f_copy(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    copied++;
    *(void **)out = in;
    *flag = 1;
    return fail_copy ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int g_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    deleted++;
    return fail_delete ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int total(const int *a)
{
    return a[0] + a[1] + a[2];
}

static void reset(void)
{
    memset(copies, 0, sizeof(copies));
    memset(deletes, 0, sizeof(deletes));
}

/* Callbacks that re-enter the attribute functions on their own communicator. */
static int reentrant_key, other_key, reentrant_ok = 1;

static int reentrant_copy(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    int *p, f = 0;
    if (MPI_Comm_get_attr(old, keyval, &p, &f) != MPI_SUCCESS || !f || p != in)
        reentrant_ok = 0;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int reentrant_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    int *p, f = 0;
    int rc1 = MPI_Comm_get_attr(comm, keyval, &p, &f);
    int rc2 = MPI_Comm_set_attr(comm, other_key, value); /* another key may be set */
    if (rc1 != MPI_SUCCESS || rc2 != MPI_SUCCESS)
        reentrant_ok = 0;
#ifdef MINI_MPI
    if (!f || p != value) /* its own value stays visible while the callback runs */
        reentrant_ok = 0;
#endif
    return MPI_SUCCESS;
}

/* MPI_COMM_SELF's attributes at MPI_Finalize. */
static int self_order[NKEYS], nself, self_mpi_ok = 1;

static int self_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    int rank, finalized = 1;
    self_order[nself++] = *(int *)value;
    if (comm != MPI_COMM_SELF || MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS ||
        MPI_Finalized(&finalized) != MPI_SUCCESS || finalized)
        self_mpi_ok = 0;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, size, fkey, gkey, skey[NKEYS], vals[NKEYS] = {10, 11, 12}, flag, *p, err;
    MPI_Comm base, c, c2;
    MPI_Group g;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &base) == MPI_SUCCESS);
    for (int i = 0; i < NKEYS; i++) {
        CHECK(MPI_Comm_create_keyval(rec_copy, rec_delete, &keys[i], &ids[i]) == MPI_SUCCESS);
        CHECK(MPI_Comm_set_attr(base, keys[i], &vals[i]) == MPI_SUCCESS);
    }

    /* Duplications copy each attribute once, from the parent. */
    CHECK(MPI_Comm_dup(base, &c) == MPI_SUCCESS);
    CHECK(copies[0] == 1 && copies[1] == 1 && copies[2] == 1 && last_copied_from == base);
    for (int i = 0; i < NKEYS; i++)
        CHECK(MPI_Comm_get_attr(c, keys[i], &p, &flag) == MPI_SUCCESS && flag && p == &vals[i]);
    CHECK(total(deletes) == 0);
    CHECK(MPI_Comm_free(&c) == MPI_SUCCESS);
    CHECK(deletes[0] == 1 && deletes[1] == 1 && deletes[2] == 1 && last_deleted_on != base);
    reset();
    CHECK(MPI_Comm_dup_with_info(base, MPI_INFO_NULL, &c) == MPI_SUCCESS && total(copies) == 3);
    CHECK(MPI_Comm_free(&c) == MPI_SUCCESS && total(deletes) == 3);
    reset();
    /* idup: copied at the call; a value set afterwards is not copied (§7.4.2). */
    CHECK(MPI_Comm_idup(base, &c, &req) == MPI_SUCCESS && total(copies) == 3);
    CHECK(MPI_Comm_delete_attr(base, keys[2]) == MPI_SUCCESS && deletes[2] == 1);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && total(copies) == 3);
    CHECK(MPI_Comm_get_attr(c, keys[2], &p, &flag) == MPI_SUCCESS && flag && p == &vals[2]);
    CHECK(MPI_Comm_free(&c) == MPI_SUCCESS && total(deletes) == 4);
    CHECK(MPI_Comm_set_attr(base, keys[2], &vals[2]) == MPI_SUCCESS);
    reset();

    /* The other constructors copy nothing. */
    CHECK(MPI_Comm_split(base, rank % 2, 0, &c) == MPI_SUCCESS);
    CHECK(MPI_Comm_get_attr(c, keys[0], &p, &flag) == MPI_SUCCESS && flag == 0);
    CHECK(MPI_Comm_free(&c) == MPI_SUCCESS);
    CHECK(MPI_Comm_split_type(base, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&c) == MPI_SUCCESS);
    CHECK(MPI_Comm_group(base, &g) == MPI_SUCCESS);
    CHECK(MPI_Comm_create(base, g, &c) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&c) == MPI_SUCCESS);
    CHECK(MPI_Comm_create_group(base, g, 5, &c) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&c) == MPI_SUCCESS);
    CHECK(MPI_Group_free(&g) == MPI_SUCCESS);
    CHECK(total(copies) == 0 && total(deletes) == 0);

    /* A failing copy callback fails the dup with its code. */
    CHECK(MPI_Comm_create_keyval(f_copy, MPI_COMM_NULL_DELETE_FN, &fkey, NULL) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(base, fkey, &vals[0]) == MPI_SUCCESS);
    fail_copy = 1;
    c = MPI_COMM_WORLD;
    err = MPI_Comm_dup(base, &c);
    CHECK(cls(err) == MPI_ERR_OTHER && c == MPI_COMM_NULL && copied == 1);
#ifdef MINI_MPI
    /* Every copy made before the failure was deleted again. */
    CHECK(total(copies) == total(deletes));
#endif
    reset();
    err = MPI_Comm_idup(base, &c, &req);
    if (err == MPI_SUCCESS) /* ours reports it at completion; others may at the call */
        err = MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(cls(err) == MPI_ERR_OTHER && c == MPI_COMM_NULL);
    fail_copy = 0;
    CHECK(MPI_Comm_delete_attr(base, fkey) == MPI_SUCCESS);
    CHECK(MPI_Comm_free_keyval(&fkey) == MPI_SUCCESS);
    reset();

    /* A failing delete callback fails free, delete and overwrite; nothing changes. */
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, g_delete, &gkey, NULL) == MPI_SUCCESS);
    CHECK(MPI_Comm_dup(base, &c2) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(c2, gkey, &vals[0]) == MPI_SUCCESS);
    fail_delete = 1;
    CHECK(cls(MPI_Comm_set_attr(c2, gkey, &vals[1])) == MPI_ERR_OTHER && deleted == 1);
    CHECK(MPI_Comm_get_attr(c2, gkey, &p, &flag) == MPI_SUCCESS && flag && p == &vals[0]);
    CHECK(cls(MPI_Comm_delete_attr(c2, gkey)) == MPI_ERR_OTHER && deleted == 2);
    CHECK(MPI_Comm_get_attr(c2, gkey, &p, &flag) == MPI_SUCCESS && flag && p == &vals[0]);
#ifdef MINI_MPI
    /* (MPICH leaves a communicator whose free failed half-freed: unusable.) */
    MPI_Comm keep = c2;
    CHECK(cls(MPI_Comm_free(&c2)) == MPI_ERR_OTHER && deleted == 3);
    CHECK(c2 == keep && MPI_Comm_size(c2, &flag) == MPI_SUCCESS && flag == size);
    CHECK(MPI_Barrier(c2) == MPI_SUCCESS);
    deleted--;
#endif
    fail_delete = 0;
    CHECK(MPI_Comm_free(&c2) == MPI_SUCCESS && c2 == MPI_COMM_NULL && deleted == 3);
    CHECK(MPI_Comm_free_keyval(&gkey) == MPI_SUCCESS);
    CHECK(total(copies) == 3 && total(deletes) == 3); /* c2's copies of base's attributes */
    reset();

    /* Re-entrant callbacks. */
    CHECK(MPI_Comm_create_keyval(reentrant_copy, reentrant_delete, &reentrant_key, NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &other_key,
                                 NULL) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(base, reentrant_key, &vals[1]) == MPI_SUCCESS);
    CHECK(MPI_Comm_dup(base, &c) == MPI_SUCCESS);
    CHECK(MPI_Comm_delete_attr(c, reentrant_key) == MPI_SUCCESS);
#ifdef MINI_MPI /* (the standard leaves MPI calls from callbacks open; MPICH drops this set) */
    CHECK(MPI_Comm_get_attr(c, other_key, &p, &flag) == MPI_SUCCESS && flag && p == &vals[1]);
#endif
    CHECK(MPI_Comm_set_attr(c, reentrant_key, &vals[2]) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&c) == MPI_SUCCESS); /* deletes both, one set from within the other */
    CHECK(MPI_Comm_delete_attr(base, reentrant_key) == MPI_SUCCESS);
    CHECK(MPI_Comm_delete_attr(base, other_key) == MPI_SUCCESS);
    CHECK(MPI_Comm_free_keyval(&reentrant_key) == MPI_SUCCESS);
    CHECK(MPI_Comm_free_keyval(&other_key) == MPI_SUCCESS);
    CHECK(reentrant_ok);
    reset();

    /* Freeing base deletes its three attributes, once each. */
    CHECK(MPI_Comm_free(&base) == MPI_SUCCESS);
    CHECK(deletes[0] == 1 && deletes[1] == 1 && deletes[2] == 1);
    for (int i = 0; i < NKEYS; i++)
        CHECK(MPI_Comm_free_keyval(&keys[i]) == MPI_SUCCESS);

    /* MPI_COMM_SELF at MPI_Finalize: newest first, MPI still usable. */
    static int order_vals[NKEYS] = {0, 1, 2};
    for (int i = 0; i < NKEYS; i++) {
        CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &skey[i], NULL) ==
              MPI_SUCCESS);
        CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, skey[i], &order_vals[i]) == MPI_SUCCESS);
        CHECK(MPI_Comm_free_keyval(&skey[i]) == MPI_SUCCESS); /* still used: stays alive */
    }
    MPI_Finalize();
    CHECK(nself == NKEYS && self_order[0] == 2 && self_order[1] == 1 && self_order[2] == 0);
    CHECK(self_mpi_ok);
    if (rank == 0 && mtest_errors == 0)
        printf(" No Errors\n");
    fflush(stdout);
    return mtest_errors ? 1 : 0;
}
