/*
 * errhandler.c: error handler objects and the one place that invokes one. See errhan.h for the
 * lookup order. Which handler an error on a window or a file goes to is that kind's own answer
 * (its table of operations, runtime/kind.h); communicators' is here. A user handler is called with the handle the program knows and may longjmp
 * out: nothing here holds a lock across the call, and the reference taken for the call is the
 * only thing that would leak if it does (an error handler object, by design tiny).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmpi.h"
#include "mpit/mpit.h"
#include "runtime/kind.h"

struct mmpi_errhandler mmpi_errhandler_fatal = {MMPI_ERRH_FATAL, MMPI_ERRH_FOR_COMM, NULL, 1,
                                                MPI_ERRORS_ARE_FATAL};
struct mmpi_errhandler mmpi_errhandler_return = {MMPI_ERRH_RETURN, MMPI_ERRH_FOR_COMM, NULL, 1,
                                                 MPI_ERRORS_RETURN};
struct mmpi_errhandler mmpi_errhandler_abort = {MMPI_ERRH_ABORT, MMPI_ERRH_FOR_COMM, NULL, 1,
                                                MPI_ERRORS_ABORT};

int mmpi_errhandler_create(struct mmpi_rank *self, int object, void (*fn)(void),
                           MPI_Errhandler *out)
{
    if (!fn || !out)
        return MPI_ERR_ARG;
    struct mmpi_errhandler *e = mmpi_xcalloc(1, sizeof(*e));
    e->kind = MMPI_ERRH_USER;
    e->object = object;
    e->fn = fn;
    e->refcount = 1;
    MPI_Errhandler h = mmpi_handle_new(self, MMPI_HANDLE_KIND_ERRHANDLER, e);
    *out = h;
    if (h == MPI_ERRHANDLER_NULL) {
        free(e);
        return MPI_ERR_NO_MEM;
    }
    e->handle = h;
    return MPI_SUCCESS;
}

struct mmpi_errhandler *mmpi_errhandler_get(struct mmpi_rank *self, MPI_Errhandler h)
{
    switch (h) {
    case MPI_ERRORS_ARE_FATAL: return &mmpi_errhandler_fatal;
    case MPI_ERRORS_RETURN: return &mmpi_errhandler_return;
    case MPI_ERRORS_ABORT: return &mmpi_errhandler_abort;
    default: return mmpi_handle_lookup(self, MMPI_HANDLE_KIND_ERRHANDLER, h);
    }
}

void mmpi_errhandler_retain(struct mmpi_errhandler *e)
{
    if (e && e->kind == MMPI_ERRH_USER)
        __atomic_fetch_add(&e->refcount, 1, __ATOMIC_RELAXED);
}

void mmpi_errhandler_release(struct mmpi_errhandler *e)
{
    if (e && e->kind == MMPI_ERRH_USER &&
        __atomic_sub_fetch(&e->refcount, 1, __ATOMIC_ACQ_REL) == 0)
        free(e);
}

struct mmpi_errhandler *mmpi_errhandler_initial(void)
{
    const char *name = mmpi_world ? mmpi_world->config.initial_errhandler : NULL;
    if (name && !strcmp(name, "mpi_errors_return"))
        return &mmpi_errhandler_return;
    if (name && !strcmp(name, "mpi_errors_abort"))
        return &mmpi_errhandler_abort;
    return &mmpi_errhandler_fatal;
}

void mmpi_err_fatal(struct mmpi_rank *self, enum mmpi_call call, int errcode, const char *detail)
{
    char text[MPI_MAX_ERROR_STRING];
    if (!mmpi_error_string(errcode, text))
        snprintf(text, sizeof(text), "error code %d", errcode);
    char name[48] = "rank -1"; /* "rank 2 (incarnation 1)" once restarted (rank.h) */
    if (self)
        mmpi_rank_label(self, name, sizeof name);
    fprintf(stderr, "mini_mpi: %s: %s: %s%s%s\n", name,
            mmpi_call_name(call), text, detail ? ": " : "", detail ? detail : "");
    mmpi_job_exit((errcode & 0xff) ? (errcode & 0xff) : 1);
}

int mmpi_err_invoke(struct mmpi_rank *self, struct mmpi_errhandler *h, int handle, int errcode,
                    enum mmpi_call call)
{
    /* The tool interface's callbacks run here too, for the same reason: no lock is held. */
    mmpi_mpit_error_reported(self, h->object, handle, errcode);
    mmpi_mpit_dispatch(self, MPI_T_CB_REQUIRE_NONE);
    switch (h->kind) {
    case MMPI_ERRH_RETURN:
        return errcode;
    case MMPI_ERRH_ABORT:
    case MMPI_ERRH_FATAL:
        mmpi_err_fatal(self, call, errcode, NULL);
    default:
        break;
    }
    /* Every object kind's handler function takes (handle *, int *, ...): MPI_Comm, MPI_Win,
     * MPI_File and MPI_Session are all int here. */
    mmpi_errhandler_retain(h);
    ((MPI_Comm_errhandler_function *)(void *)h->fn)(&handle, &errcode);
    mmpi_errhandler_release(h);
    return errcode;
}

/* The default error handler: the one an error without an object goes to (MPI-4.1 §9.3:
 * MPI_COMM_SELF's), and the one a communicator or window whose handler was never set follows.
 * A handler nobody set is NULL all the way down: MPI_COMM_SELF's falls back to
 * MPI_COMM_WORLD's, that to the initial handler (mpiexec -initial-errhandler). So, as in
 * MPICH, a program that sets MPI_ERRORS_RETURN on MPI_COMM_WORLD gets errors returned from
 * the communicators it duplicated before and from its windows, unless it set their own. */
struct mmpi_errhandler *mmpi_errhandler_default(struct mmpi_rank *self, int *handle)
{
    if (self->self_comm.errhandler) {
        *handle = MPI_COMM_SELF;
        return self->self_comm.errhandler;
    }
    *handle = MPI_COMM_WORLD;
    return self->world_comm.errhandler ? self->world_comm.errhandler : mmpi_errhandler_initial();
}

int mmpi_err_raise_comm(struct mmpi_rank *self, struct mmpi_comm *comm, int errcode,
                        enum mmpi_call call)
{
    MPI_Comm handle;
    struct mmpi_errhandler *h = mmpi_errhandler_default(self, &handle);

    if (comm) {
        h = comm->errhandler ? comm->errhandler : h;
        handle = comm->handle;
    }
    return mmpi_err_invoke(self, h, handle, errcode, call);
}

int mmpi_err_raise_kind(struct mmpi_rank *self, int kind, const void *obj, int errcode,
                        enum mmpi_call call)
{
    int handle;
    const struct mmpi_kind_ops *ops = mmpi_kind_ops(kind);
    struct mmpi_errhandler *h = ops->errhandler ? ops->errhandler(self, obj, &handle)
                                                : mmpi_errhandler_default(self, &handle);
    return mmpi_err_invoke(self, h, handle, errcode, call);
}

int mmpi_err_raise_win(struct mmpi_rank *self, struct mmpi_win *win, int errcode,
                       enum mmpi_call call)
{
    return mmpi_err_raise_kind(self, MMPI_HANDLE_KIND_WIN, win, errcode, call);
}
