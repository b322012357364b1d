/*
 * errhan/file.c: raising errors on files (MPI-4.1 §9.3.4), beside mmpi_err_raise_comm. A file's
 * handler is the one its handle object holds; calls with no file (MPI_File_open,
 * MPI_File_delete, a bad file handle) use the handler of MPI_FILE_NULL, which is per rank
 * (each rank is a process) and starts as MPI_ERRORS_RETURN, the I/O default (§14.7). The
 * completion calls (MPI_Wait, ...) raise a request's error through
 * mmpi_err_raise_request_owner, which sends file requests here. A file's handler and handle
 * are io/'s answer (the file's table of operations, runtime/kind.h).
 */
#include "mmpi.h"
#include "runtime/kind.h"

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
    return mmpi_err_raise_kind(self, MMPI_HANDLE_KIND_FILE, f, errcode, call);
}

int mmpi_err_raise_request_owner(struct mmpi_rank *self, int object, int errcode,
                                 enum mmpi_call call)
{
    /* §14.7: an I/O request's errors go to its file's handler; a request-based RMA
     * operation's to its window's: the kinds whose objects have a handler of their own. */
    int kind = mmpi_handle_kind(object);
    if (kind != MMPI_HANDLE_KIND_COMM && mmpi_kind_ops(kind)->errhandler)
        return mmpi_err_raise_kind(self, kind, mmpi_handle_lookup(self, kind, object), errcode,
                                   call);
    return mmpi_err_raise_comm(self, mmpi_comm_get(self, object), errcode, call);
}
