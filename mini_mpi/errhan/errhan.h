/*
 * errhan.h: error classes and codes, error handler objects, and the one place that invokes an
 * error handler (mmpi_err_raise). Lookup follows MPICH's MPIR_Err_return_comm: the object's
 * handler; with no object, MPI_COMM_SELF's if the program set one, else MPI_COMM_WORLD's.
 * Handlers run with no internal lock held: they may revoke, shrink, or longjmp out. Also the
 * one-line check of a function that ends through fn_exit/fn_fail (MMPI_FAIL_IF).
 */
#ifndef MMPI_ERRHAN_ERRHAN_H
#define MMPI_ERRHAN_ERRHAN_H

#include "calls.h"
#include "mpi.h"

/* One check of a function that ends through fn_exit/fn_fail (STYLE.md "An MPI entry point reads
 * top to bottom": an `int err`, and a `fn_fail:` that raises it or cleans up): when cond holds,
 * err becomes errclass and control goes to fn_fail. One check per line, made in the order they
 * are written (MPICH's MPIR_ERR_CHKANDJUMP). */
#define MMPI_FAIL_IF(cond, errclass) \
    do {                             \
        if (cond) {                  \
            err = (errclass);        \
            goto fn_fail;            \
        }                            \
    } while (0)

struct mmpi_comm;
struct mmpi_rank;
struct mmpi_win;

enum mmpi_errhandler_kind {
    MMPI_ERRH_FATAL,   /* MPI_ERRORS_ARE_FATAL: one line, job ends */
    MMPI_ERRH_RETURN,  /* MPI_ERRORS_RETURN */
    MMPI_ERRH_ABORT,   /* MPI_ERRORS_ABORT: job ends (we have one job: same as fatal, no line) */
    MMPI_ERRH_USER,    /* a user function */
};

enum mmpi_errhandler_object { MMPI_ERRH_FOR_COMM, MMPI_ERRH_FOR_WIN, MMPI_ERRH_FOR_FILE,
                              MMPI_ERRH_FOR_SESSION };

struct mmpi_errhandler {
    int kind;                        /* immutable: enum mmpi_errhandler_kind */
    int object;                      /* immutable: enum mmpi_errhandler_object */
    void (*fn)(void);                /* immutable: user function, cast to its object's type */
    int refcount;                    /* atomic: handle + objects using it; predefined: unused */
    int handle;                      /* immutable: MPI_Errhandler value */
};

extern struct mmpi_errhandler mmpi_errhandler_fatal, mmpi_errhandler_return,
    mmpi_errhandler_abort;

/* Resolves an MPI_Errhandler for the calling rank; NULL if invalid. */
struct mmpi_errhandler *mmpi_errhandler_get(struct mmpi_rank *self, MPI_Errhandler h);
/* MPI_Comm/Win/File_create_errhandler: a new user handler `fn` for objects of `object`
 * (MMPI_ERRH_FOR_COMM/_WIN/_FILE) registered for the calling rank, one reference held by its
 * handle *out. MPI_ERR_ARG without fn or out; MPI_ERR_NO_MEM (and *out MPI_ERRHANDLER_NULL)
 * when the handle table is full. */
int mmpi_errhandler_create(struct mmpi_rank *self, int object, void (*fn)(void),
                           MPI_Errhandler *out);
/* Takes / drops a reference (no-op for predefined handlers). Drop frees at zero. */
void mmpi_errhandler_retain(struct mmpi_errhandler *e);
void mmpi_errhandler_release(struct mmpi_errhandler *e);
/* The predefined handler named by MINI_MPI_INITIAL_ERRHANDLER (or fatal). */
struct mmpi_errhandler *mmpi_errhandler_initial(void);
/* The handler errors without an object go to, and objects whose handler was never set follow;
 * *handle: the communicator it belongs to (MPI_COMM_SELF or MPI_COMM_WORLD). */
struct mmpi_errhandler *mmpi_errhandler_default(struct mmpi_rank *self, int *handle);

/* Raises errcode from `call` on communicator comm (NULL: no object, see above). Returns the
 * code for the caller to return (after a user handler returned, or MPI_ERRORS_RETURN); does not
 * return for fatal/abort. Must be called with no internal lock held. */
int mmpi_err_raise_comm(struct mmpi_rank *self, struct mmpi_comm *comm, int errcode,
                        enum mmpi_call call);

/* The one place that invokes an error handler, for every object kind: h applied to the
 * object named by `handle` (an MPI_Comm, MPI_Win or MPI_File value). The per-kind raise
 * functions choose h (the object's handler or its kind's default) and call this. Same return
 * contract as mmpi_err_raise_comm; must be called with no internal lock held. */
int mmpi_err_invoke(struct mmpi_rank *self, struct mmpi_errhandler *h, int handle, int errcode,
                    enum mmpi_call call);

/* Raises errcode from `call` on obj, a handle object of handle kind `kind` whose kind's table
 * (runtime/kind.h) says which handler an error on it goes to (windows, files, sessions); a kind
 * with no answer uses the default handler. Same contract as mmpi_err_raise_comm. */
int mmpi_err_raise_kind(struct mmpi_rank *self, int kind, const void *obj, int errcode,
                        enum mmpi_call call);

/* Raises errcode from `call` on window win (osc/win.h; NULL: no window, then as
 * mmpi_err_raise_comm with no object): the window's handler, or the default handler while the
 * program set none (MPI-4.1 §9.3). Same contract as mmpi_err_raise_comm. */
int mmpi_err_raise_win(struct mmpi_rank *self, struct mmpi_win *win, int errcode,
                       enum mmpi_call call);

/* ---- Sessions (errhan/session.c) ---- */
struct mmpi_session;
/* Raises errcode from `call` on session s (session/session.h): its handler, given at
 * MPI_Session_init or set since; with no session (NULL: an invalid handle) as
 * mmpi_err_raise_comm with no object; with no rank (self NULL) none, errcode is returned.
 * Same contract as mmpi_err_raise_comm. */
int mmpi_err_raise_session(struct mmpi_rank *self, struct mmpi_session *s, int errcode,
                           enum mmpi_call call);

/* ---- Files (errhan/file.c) ---- */
struct mmpi_file;
/* Raises errcode from `call` on file f (NULL: no file, MPI_FILE_NULL's handler), as
 * mmpi_err_raise_comm does on a communicator. Must be called with no internal lock held. */
int mmpi_err_raise_file(struct mmpi_rank *self, struct mmpi_file *f, int errcode,
                        enum mmpi_call call);
/* Raises the error of a completed request on the object that started it: `object` is the
 * request's comm field, a communicator handle, or a file handle for file requests (io/). */
int mmpi_err_raise_request_owner(struct mmpi_rank *self, int object, int errcode,
                                 enum mmpi_call call);
/* The calling rank's handler of MPI_FILE_NULL (MPI_ERRORS_RETURN until set); no reference. */
struct mmpi_errhandler *mmpi_err_file_null_handler(struct mmpi_rank *self);
/* Sets it (takes a reference, drops the old one's). Owning rank only. */
void mmpi_err_set_file_null_handler(struct mmpi_rank *self, struct mmpi_errhandler *h);

/* Prints "mini_mpi: rank R: MPI_Call: <error string>" and ends the job non-zero. */
__attribute__((noreturn)) void mmpi_err_fatal(struct mmpi_rank *self, enum mmpi_call call,
                                              int errcode, const char *detail);

/* Error class of a code (MPI_ERR_UNKNOWN if the code was never defined); and its string. */
int mmpi_error_class_of(int code, int *errclass);
/* Writes the string for code into buf (at least MPI_MAX_ERROR_STRING bytes); false if unknown. */
int mmpi_error_string(int code, char *buf);

/* Added classes and codes (errors.c). Each returns an MPI error class. */
int mmpi_error_add(int errclass, int *value);          /* errclass < 0: a new class */
int mmpi_error_set_string(int code, const char *string);
int mmpi_error_remove(int value, int what);             /* what: 'c' class, 'd' code, 's' string */
int mmpi_error_lastused(void);                           /* MPI_LASTUSEDCODE */

#endif
