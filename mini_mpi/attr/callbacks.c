/*
 * attr/callbacks.c: the predefined copy and delete callbacks (MPI-4.1 §7.7.2, §7.7.4; MPI-1
 * §5.7.1). They are real functions, as in Open MPI, so that a program may call them from its
 * own callbacks; the NULL ones are also what a keyval created with them runs.
 */
#include "mmpi.h"

/* Copy functions: "null" declines the copy; "dup" copies the attribute value (the pointer). */
#define NULL_COPY(name, handle_t)                                                     \
    int name(handle_t old, int keyval, void *extra_state, void *in, void *out, int *flag) \
    {                                                                                 \
        (void)old, (void)keyval, (void)extra_state, (void)in, (void)out;              \
        *flag = 0;                                                                    \
        return MPI_SUCCESS;                                                           \
    }
#define DUP_COPY(name, handle_t)                                                      \
    int name(handle_t old, int keyval, void *extra_state, void *in, void *out, int *flag) \
    {                                                                                 \
        (void)old, (void)keyval, (void)extra_state;                                   \
        *(void **)out = in;                                                           \
        *flag = 1;                                                                    \
        return MPI_SUCCESS;                                                           \
    }
#define NULL_DELETE(name, handle_t)                                                   \
    int name(handle_t obj, int keyval, void *value, void *extra_state)                \
    {                                                                                 \
        (void)obj, (void)keyval, (void)value, (void)extra_state;                      \
        return MPI_SUCCESS;                                                           \
    }

NULL_COPY(MPI_COMM_NULL_COPY_FN, MPI_Comm)
DUP_COPY(MPI_COMM_DUP_FN, MPI_Comm)
NULL_DELETE(MPI_COMM_NULL_DELETE_FN, MPI_Comm)
NULL_COPY(MPI_TYPE_NULL_COPY_FN, MPI_Datatype)
DUP_COPY(MPI_TYPE_DUP_FN, MPI_Datatype)
NULL_DELETE(MPI_TYPE_NULL_DELETE_FN, MPI_Datatype)
NULL_COPY(MPI_NULL_COPY_FN, MPI_Comm)
DUP_COPY(MPI_DUP_FN, MPI_Comm)
NULL_DELETE(MPI_NULL_DELETE_FN, MPI_Comm)
NULL_COPY(MPI_WIN_NULL_COPY_FN, MPI_Win)
DUP_COPY(MPI_WIN_DUP_FN, MPI_Win)
NULL_DELETE(MPI_WIN_NULL_DELETE_FN, MPI_Win)
