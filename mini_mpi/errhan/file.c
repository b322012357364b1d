/*
 * errhan/file.c: raising errors on files (MPI-4.1 §9.3.4), beside mmpi_err_raise_comm. A file's
 * handler is the one its handle object holds; calls with no file (MPI_File_open,
 * MPI_File_delete, a bad file handle) use the handler of MPI_FILE_NULL, which is per rank
 * (each rank is a process) and starts as MPI_ERRORS_RETURN, the I/O default (§14.7). The
 * completion calls (MPI_Wait, ...) raise a request's error through
 * mmpi_err_raise_request_owner, which sends file requests here.
 */
#include "io/io.h"
#include "mmpi.h"
#include "osc/win.h"

/* The handler each rank set on MPI_FILE_NULL, by world rank; NULL: MPI_ERRORS_RETURN. Written
 * by the owning rank only. The table holds one reference on each. */
static struct mmpi_errhandler *file_null_handler[MMPI_MAX_RANKS];

struct mmpi_errhandler *mmpi_err_file_null_handler(struct mmpi_rank *self)
{
    struct mmpi_errhandler *h = file_null_handler[self->world_rank];
    return h ? h : &mmpi_errhandler_return;
}

void mmpi_err_set_file_null_handler(struct mmpi_rank *self, struct mmpi_errhandler *h)
{
    mmpi_errhandler_retain(h);
    struct mmpi_errhandler *old = file_null_handler[self->world_rank];
    file_null_handler[self->world_rank] = h;
    mmpi_errhandler_release(old);
}

int mmpi_err_raise_file(struct mmpi_rank *self, struct mmpi_file *f, int errcode,
                        enum mmpi_call call)
{
    struct mmpi_errhandler *h = f ? f->errhandler : mmpi_err_file_null_handler(self);
    return mmpi_err_invoke(self, h, f ? f->handle : MPI_FILE_NULL, errcode, call);
}

int mmpi_err_raise_request_owner(struct mmpi_rank *self, int object, int errcode,
                                 enum mmpi_call call)
{
    /* §14.7: an I/O request's errors go to its file's handler. */
    if (mmpi_handle_kind(object) == MMPI_HANDLE_KIND_FILE)
        return mmpi_err_raise_file(self, mmpi_file_get(self, object), errcode, call);
    /* A request-based RMA operation's errors go to its window's handler. */
    if (mmpi_handle_kind(object) == MMPI_HANDLE_KIND_WIN)
        return mmpi_err_raise_win(self, mmpi_win_get(self, object), errcode, call);
    return mmpi_err_raise_comm(self, mmpi_comm_get(self, object), errcode, call);
}
