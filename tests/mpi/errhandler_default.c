/*
 * errhandler_default.c: an object whose error handler was never set follows the default
 * handler (MPI_COMM_SELF's if set, else MPI_COMM_WORLD's, else the initial one), as in MPICH:
 * a communicator duplicated before MPI_COMM_WORLD got MPI_ERRORS_RETURN, and a window, return
 * their errors once MPI_COMM_WORLD's handler is MPI_ERRORS_RETURN; a handler set explicitly is
 * inherited as it is.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm early, fatal_dup, split;
    MPI_Comm_dup(MPI_COMM_WORLD, &early);
    int buf = 0, keyval, cls, err;
    MPI_Win win;
    MPI_Win_create(&buf, sizeof buf, sizeof buf, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Both follow MPI_COMM_WORLD's handler now: the errors come back. */
    err = MPI_Comm_split(early, 0, 0, NULL);
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_ARG);
    err = MPI_Win_set_attr(win, keyval, &buf); /* a communicator keyval on a window */
    CHECK(err != MPI_SUCCESS);
    MPI_Errhandler eh;
    MPI_Win_get_errhandler(win, &eh);
    CHECK(eh == MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    MPI_Comm_get_errhandler(early, &eh);
    CHECK(eh == MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);

    /* A handler set on the object wins, and a duplicate inherits it as set. */
    MPI_Comm_set_errhandler(early, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_dup(early, &fatal_dup);
    MPI_Comm_get_errhandler(fatal_dup, &eh);
    CHECK(eh == MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);

    /* MPI_COMM_SELF's, once set, is the default. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    err = MPI_Win_set_attr(win, keyval, &buf);
    CHECK(err != MPI_SUCCESS);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &split);
    MPI_Comm_free(&split);
    MPI_Comm_free(&fatal_dup);
    MPI_Comm_free(&early);
    MPI_Comm_free_keyval(&keyval);
    MPI_Win_free(&win);
    return mtest_finish();
}
