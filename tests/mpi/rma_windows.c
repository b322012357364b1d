/* rma_windows.c: window objects (MPI-4.1 §12.2): every flavour, the predefined attributes,
 * shared_query on every flavour, dynamic attach/detach, group, name, hints, keyvals with their
 * delete callback at MPI_Win_free, and window error handlers (default MPI_ERRORS_ARE_FATAL,
 * set/get/call). */
#include <string.h>

#include "mtest.h"

static int deletes;
static int delete_fn(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win, (void)keyval, (void)extra;
    deletes += *(int *)value;
    return MPI_SUCCESS;
}

static int handled;
static MPI_Win handled_win;
static void win_handler(MPI_Win *win, int *code, ...)
{
    handled++;
    handled_win = *win;
    (void)code;
}

static void check_attrs(MPI_Win win, void *base, MPI_Aint size, int disp_unit, int flavor)
{
    void *b;
    MPI_Aint *s;
    int *d, *f, *m, flag;
    CHECK(MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag) == MPI_SUCCESS && flag && b == base);
    CHECK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &s, &flag) == MPI_SUCCESS && flag && *s == size);
    CHECK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &d, &flag) == MPI_SUCCESS && flag &&
          *d == disp_unit);
    CHECK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &f, &flag) == MPI_SUCCESS && flag &&
          *f == flavor);
    CHECK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &m, &flag) == MPI_SUCCESS && flag &&
          *m == MPI_WIN_UNIFIED);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* MPI_Win_create over the caller's memory. */
    int buf[8];
    MPI_Win win;
    CHECK(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win) ==
          MPI_SUCCESS);
    check_attrs(win, buf, sizeof buf, sizeof(int), MPI_WIN_FLAVOR_CREATE);
    MPI_Errhandler eh;
    CHECK(MPI_Win_get_errhandler(win, &eh) == MPI_SUCCESS && eh == MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    /* Name */
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK(MPI_Win_get_name(win, name, &len) == MPI_SUCCESS && len == 0 && name[0] == 0);
    CHECK(MPI_Win_set_name(win, "halo") == MPI_SUCCESS);
    CHECK(MPI_Win_get_name(win, name, &len) == MPI_SUCCESS && len == 4 && !strcmp(name, "halo"));
    /* Group: the communicator's */
    MPI_Group g, wg;
    int cmp;
    CHECK(MPI_Win_get_group(win, &g) == MPI_SUCCESS);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK(cmp == MPI_IDENT);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    /* Hints: set ones come back, standard ones are reported. */
    MPI_Info info, used;
    char value[MPI_MAX_INFO_VAL + 1];
    int flag;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    MPI_Info_set(info, "my_hint", "42");
    CHECK(MPI_Win_set_info(win, info) == MPI_SUCCESS);
    MPI_Info_free(&info);
    CHECK(MPI_Win_get_info(win, &used) == MPI_SUCCESS);
    CHECK(MPI_Info_get(used, "no_locks", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && flag &&
          !strcmp(value, "true"));
    CHECK(MPI_Info_get(used, "my_hint", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && flag &&
          !strcmp(value, "42"));
    CHECK(MPI_Info_get(used, "accumulate_ordering", MPI_MAX_INFO_VAL, value, &flag) ==
              MPI_SUCCESS && flag);
    MPI_Info_free(&used);
    /* Keyvals: set, get, replace (delete runs), free (delete runs for what is left). */
    int kv, one = 1, ten = 10, *got;
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_fn, &kv, NULL) == MPI_SUCCESS);
    CHECK(MPI_Win_set_attr(win, kv, &one) == MPI_SUCCESS);
    CHECK(MPI_Win_get_attr(win, kv, &got, &flag) == MPI_SUCCESS && flag && got == &one);
    CHECK(MPI_Win_set_attr(win, kv, &ten) == MPI_SUCCESS && deletes == 1);
    CHECK(MPI_Win_free_keyval(&kv) == MPI_SUCCESS && kv == MPI_KEYVAL_INVALID);
    /* A communicator keyval is not a window keyval. */
    int ckv;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckv, NULL);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_set_attr(win, ckv, &one) == MPI_ERR_KEYVAL);
    CHECK(MPI_Win_set_attr(win, MPI_WIN_BASE, &one) == MPI_ERR_KEYVAL);
    MPI_Comm_free_keyval(&ckv);
    /* Error handlers: a user one gets the window handle and the code. */
    MPI_Errhandler mine;
    CHECK(MPI_Win_create_errhandler(win_handler, &mine) == MPI_SUCCESS);
    CHECK(MPI_Win_set_errhandler(win, mine) == MPI_SUCCESS);
    CHECK(MPI_Win_call_errhandler(win, MPI_ERR_OTHER) == MPI_SUCCESS && handled == 1 &&
          handled_win == win);
    CHECK(MPI_Put(buf, 1, MPI_INT, size + 3, 0, 1, MPI_INT, win) == MPI_ERR_RANK && handled == 2);
    MPI_Errhandler_free(&mine);
    /* A communicator error handler does not fit a window. */
    MPI_Errhandler ceh;
    MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)win_handler, &ceh);
    CHECK(MPI_Win_set_errhandler(win, ceh) == MPI_ERR_ERRHANDLER);
    MPI_Errhandler_free(&ceh);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS && win == MPI_WIN_NULL && deletes == 11);

    /* MPI_Win_allocate: aligned memory of the asked size, zero-size members allowed. */
    double *mem;
    MPI_Aint my = rank % 2 ? 0 : 100 * sizeof(double);
    CHECK(MPI_Win_allocate(my, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win) ==
          MPI_SUCCESS);
    check_attrs(win, my ? (void *)mem : (void *)mem, my, sizeof(double),
                MPI_WIN_FLAVOR_ALLOCATE);
    if (my)
        mem[99] = 1.0; /* writable */
    /* MPI-4.1: shared_query on any flavour */
    MPI_Aint qs;
    int qd;
    double *qb;
    CHECK(MPI_Win_shared_query(win, 0, &qs, &qd, &qb) == MPI_SUCCESS &&
          qs == 100 * (MPI_Aint)sizeof(double) && qd == sizeof(double));
    MPI_Win_free(&win);

    /* MPI_Win_allocate_shared: contiguous segments in rank order. */
    int *seg;
    CHECK(MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                  &seg, &win) == MPI_SUCCESS);
    check_attrs(win, seg, 4 * sizeof(int), sizeof(int), MPI_WIN_FLAVOR_SHARED);
    MPI_Win_fence(0, win);
    for (int i = 0; i < 4; i++)
        seg[i] = rank * 4 + i;
    MPI_Win_fence(0, win);
    int *base0;
    CHECK(MPI_Win_shared_query(win, 0, &qs, &qd, &base0) == MPI_SUCCESS && qs == 16 && qd == 4);
    for (int i = 0; i < 4 * size; i++)
        CHECK(base0[i] == i); /* everyone's segment, through rank 0's base */
    CHECK(MPI_Win_shared_query(win, MPI_PROC_NULL, &qs, &qd, &base0) == MPI_SUCCESS &&
          qs == 16);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_shared_query(win, size, &qs, &qd, &base0) == MPI_ERR_RANK);
    CHECK(MPI_Win_attach(win, buf, sizeof buf) == MPI_ERR_RMA_FLAVOR);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);

    /* MPI_Win_create_dynamic + attach/detach */
    CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win) == MPI_SUCCESS);
    check_attrs(win, NULL, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_attach(win, buf, sizeof buf) == MPI_SUCCESS);
    CHECK(MPI_Win_attach(win, buf + 2, sizeof(int)) == MPI_ERR_RMA_ATTACH); /* overlaps */
    CHECK(MPI_Win_detach(win, buf + 1) == MPI_ERR_RMA_ATTACH);
    CHECK(MPI_Win_attach(win, NULL, sizeof(int)) == MPI_ERR_ARG); /* as MPICH */
    CHECK(MPI_Win_attach(win, NULL, 0) == MPI_SUCCESS);              /* nothing exposed */
    CHECK(MPI_Win_detach(win, NULL) == MPI_ERR_ARG);
    CHECK(MPI_Win_detach(win, buf) == MPI_SUCCESS);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS);

    /* Creation errors go to the communicator. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_create(buf, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win) == MPI_ERR_SIZE);
    CHECK(MPI_Win_create(buf, 4, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &win) == MPI_ERR_ARG);
    CHECK(MPI_Win_create(NULL, 4, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win) == MPI_ERR_ARG);
    CHECK(MPI_Win_create(buf, 4, 1, MPI_INFO_NULL, MPI_COMM_NULL, &win) == MPI_ERR_COMM);
    CHECK(MPI_Win_free(&win) == MPI_ERR_WIN);
    /* The null handle has a name, and the name arguments are checked for it too. */
    CHECK(MPI_Win_get_name(MPI_WIN_NULL, name, &len) == MPI_SUCCESS && len == 12 &&
          !strcmp(name, "MPI_WIN_NULL"));
    CHECK(MPI_Win_get_name(MPI_WIN_NULL, NULL, &len) == MPI_ERR_ARG);
    return mtest_finish();
}
