/*
 * compat/handles_api.c: the handle conversions between C and Fortran (MPI-4.1 §19.3.4),
 * MPI_Comm_c2f and MPI_Comm_f2c and their twins for every kind but files (io/file_api.c).
 * Handles are ints in both languages, with the same values (mpif.h and the mpi_f08 module are
 * printed from mpi.h's values, null handles included), so a C handle converts as it is. A
 * Fortran integer that is no handle of the kind at all (another kind's, or garbage) converts to
 * a value that is neither a valid nor a null handle: every call given it raises the kind's
 * error class (MPI_ERR_COMM, ...), as for any invalid handle, rather than reading it as
 * MPI_REQUEST_NULL or another object. Nothing is looked up: the conversions are valid at any
 * time, before MPI_Init too, and raise no error.
 */
#include "compat/compat.h"

/* The C handle of kind for the Fortran value v (see above). */
static int from_fortran(int kind, MPI_Fint v)
{
    if (mmpi_handle_kind(v) == kind && (v == MMPI_NULL_HANDLE(kind) || (v & MMPI_HANDLE_VALID_BIT)))
        return v;
    return MMPI_NULL_HANDLE(kind) | 1; /* valid bit clear, index not 0: no handle at all */
}

MMPI_PROFILED(Comm_c2f);
MPI_Fint PMPI_Comm_c2f(MPI_Comm comm)
{
    mmpi_enter_anytime(MMPI_CALL_Comm_c2f);
    return (MPI_Fint)comm;
}

MMPI_PROFILED(Comm_f2c);
MPI_Comm PMPI_Comm_f2c(MPI_Fint comm)
{
    mmpi_enter_anytime(MMPI_CALL_Comm_f2c);
    return (MPI_Comm)from_fortran(MMPI_HANDLE_KIND_COMM, comm);
}

MMPI_PROFILED(Errhandler_c2f);
MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler)
{
    mmpi_enter_anytime(MMPI_CALL_Errhandler_c2f);
    return (MPI_Fint)errhandler;
}

MMPI_PROFILED(Errhandler_f2c);
MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler)
{
    mmpi_enter_anytime(MMPI_CALL_Errhandler_f2c);
    return (MPI_Errhandler)from_fortran(MMPI_HANDLE_KIND_ERRHANDLER, errhandler);
}

MMPI_PROFILED(Group_c2f);
MPI_Fint PMPI_Group_c2f(MPI_Group group)
{
    mmpi_enter_anytime(MMPI_CALL_Group_c2f);
    return (MPI_Fint)group;
}

MMPI_PROFILED(Group_f2c);
MPI_Group PMPI_Group_f2c(MPI_Fint group)
{
    mmpi_enter_anytime(MMPI_CALL_Group_f2c);
    return (MPI_Group)from_fortran(MMPI_HANDLE_KIND_GROUP, group);
}

MMPI_PROFILED(Info_c2f);
MPI_Fint PMPI_Info_c2f(MPI_Info info)
{
    mmpi_enter_anytime(MMPI_CALL_Info_c2f);
    return (MPI_Fint)info;
}

MMPI_PROFILED(Info_f2c);
MPI_Info PMPI_Info_f2c(MPI_Fint info)
{
    mmpi_enter_anytime(MMPI_CALL_Info_f2c);
    return (MPI_Info)from_fortran(MMPI_HANDLE_KIND_INFO, info);
}

MMPI_PROFILED(Message_c2f);
MPI_Fint PMPI_Message_c2f(MPI_Message message)
{
    mmpi_enter_anytime(MMPI_CALL_Message_c2f);
    return (MPI_Fint)message;
}

MMPI_PROFILED(Message_f2c);
MPI_Message PMPI_Message_f2c(MPI_Fint message)
{
    mmpi_enter_anytime(MMPI_CALL_Message_f2c);
    return (MPI_Message)from_fortran(MMPI_HANDLE_KIND_MESSAGE, message);
}

MMPI_PROFILED(Op_c2f);
MPI_Fint PMPI_Op_c2f(MPI_Op op)
{
    mmpi_enter_anytime(MMPI_CALL_Op_c2f);
    return (MPI_Fint)op;
}

MMPI_PROFILED(Op_f2c);
MPI_Op PMPI_Op_f2c(MPI_Fint op)
{
    mmpi_enter_anytime(MMPI_CALL_Op_f2c);
    return (MPI_Op)from_fortran(MMPI_HANDLE_KIND_OP, op);
}

MMPI_PROFILED(Request_c2f);
MPI_Fint PMPI_Request_c2f(MPI_Request request)
{
    mmpi_enter_anytime(MMPI_CALL_Request_c2f);
    return (MPI_Fint)request;
}

MMPI_PROFILED(Request_f2c);
MPI_Request PMPI_Request_f2c(MPI_Fint request)
{
    mmpi_enter_anytime(MMPI_CALL_Request_f2c);
    return (MPI_Request)from_fortran(MMPI_HANDLE_KIND_REQUEST, request);
}

MMPI_PROFILED(Session_c2f);
MPI_Fint PMPI_Session_c2f(MPI_Session session)
{
    mmpi_enter_anytime(MMPI_CALL_Session_c2f);
    return (MPI_Fint)session;
}

MMPI_PROFILED(Session_f2c);
MPI_Session PMPI_Session_f2c(MPI_Fint session)
{
    mmpi_enter_anytime(MMPI_CALL_Session_f2c);
    return (MPI_Session)from_fortran(MMPI_HANDLE_KIND_SESSION, session);
}

MMPI_PROFILED(Type_c2f);
MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype)
{
    mmpi_enter_anytime(MMPI_CALL_Type_c2f);
    return (MPI_Fint)datatype;
}

MMPI_PROFILED(Type_f2c);
MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype)
{
    mmpi_enter_anytime(MMPI_CALL_Type_f2c);
    return (MPI_Datatype)from_fortran(MMPI_HANDLE_KIND_DATATYPE, datatype);
}

MMPI_PROFILED(Win_c2f);
MPI_Fint PMPI_Win_c2f(MPI_Win win)
{
    mmpi_enter_anytime(MMPI_CALL_Win_c2f);
    return (MPI_Fint)win;
}

MMPI_PROFILED(Win_f2c);
MPI_Win PMPI_Win_f2c(MPI_Fint win)
{
    mmpi_enter_anytime(MMPI_CALL_Win_f2c);
    return (MPI_Win)from_fortran(MMPI_HANDLE_KIND_WIN, win);
}
