/*
 * mpi.h: the public C interface of mini_mpi.
 *
 * Owns the handle types, the predefined handles and constants, the error classes (MPI-4.1 plus
 * the ULFM classes, with their MPIX_ spellings). Each subsystem adds its types and constants in a
 * fragment under mini_mpi/ (included at the end) so that subsystems never edit one shared file.
 * The prototypes of every function are generated from one table (mini_mpi/api/mpi.api) into
 * mini_mpi/functions.h, included last.
 *
 * Handles are ints, as in MPICH, so that every call can validate them: a garbage handle gives
 * MPI_ERR_<KIND> instead of a crash. Layout: bit 30 set for a valid handle, bits 24-29 the kind,
 * bit 23 set for a predefined object, bits 0-22 an index. A null handle is the kind alone.
 * Programs must not depend on this layout (Open MPI uses pointers).
 *
 * Every MPI_Foo also exists as PMPI_Foo (the profiling interface, MPI-4.1 §15.2).
 */
#ifndef MINI_MPI_MPI_H
#define MINI_MPI_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MINI_MPI 1
#define MINI_MPI_VERSION_STRING "0.1.0"

#define MPI_VERSION 4
#define MPI_SUBVERSION 1

/* ---- Handle and scalar types ------------------------------------------------------------ */
typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Request;
typedef int MPI_Errhandler;
typedef int MPI_Info;
typedef int MPI_Win;
typedef int MPI_File;
typedef int MPI_Message;
typedef int MPI_Session;
typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;
/* TYPE(MPI_Status) of the Fortran 2008 bindings, as C sees it: the same fields and size as
 * MPI_Status, in Fortran integers (MPI-4.1 §19.3.5). */
typedef struct MPI_F08_status {
    MPI_Fint MPI_SOURCE;
    MPI_Fint MPI_TAG;
    MPI_Fint MPI_ERROR;
    MPI_Fint mmpi_internal[3];
} MPI_F08_status;

/* MPI_SOURCE, MPI_TAG and MPI_ERROR are the public fields (MPI-4.1 §3.2.5); the rest is ours. */
typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int mmpi_cancelled;
    long long mmpi_count; /* bytes received */
} MPI_Status;

#define MMPI_HANDLE_KIND_COMM 0x01
#define MMPI_HANDLE_KIND_GROUP 0x02
#define MMPI_HANDLE_KIND_DATATYPE 0x03
#define MMPI_HANDLE_KIND_OP 0x04
#define MMPI_HANDLE_KIND_REQUEST 0x05
#define MMPI_HANDLE_KIND_ERRHANDLER 0x06
#define MMPI_HANDLE_KIND_INFO 0x07
#define MMPI_HANDLE_KIND_WIN 0x08
#define MMPI_HANDLE_KIND_FILE 0x09
#define MMPI_HANDLE_KIND_MESSAGE 0x0a
#define MMPI_HANDLE_KIND_SESSION 0x0b
#define MMPI_PREDEFINED(kind, index) ((int)(0x40000000 | ((kind) << 24) | 0x00800000 | (index)))
#define MMPI_NULL_HANDLE(kind) ((int)((kind) << 24))

/* ---- Null and predefined handles -------------------------------------------------------- */
#define MPI_COMM_NULL ((MPI_Comm)MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_COMM))
#define MPI_COMM_WORLD ((MPI_Comm)MMPI_PREDEFINED(MMPI_HANDLE_KIND_COMM, 0))
#define MPI_COMM_SELF ((MPI_Comm)MMPI_PREDEFINED(MMPI_HANDLE_KIND_COMM, 1))
#define MPI_GROUP_NULL ((MPI_Group)MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_GROUP))
#define MPI_GROUP_EMPTY ((MPI_Group)MMPI_PREDEFINED(MMPI_HANDLE_KIND_GROUP, 0))
#define MPI_DATATYPE_NULL ((MPI_Datatype)MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_DATATYPE))
#define MPI_OP_NULL ((MPI_Op)MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_OP))
#define MPI_REQUEST_NULL ((MPI_Request)MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_REQUEST))
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_ERRHANDLER))
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)MMPI_PREDEFINED(MMPI_HANDLE_KIND_ERRHANDLER, 0))
#define MPI_ERRORS_RETURN ((MPI_Errhandler)MMPI_PREDEFINED(MMPI_HANDLE_KIND_ERRHANDLER, 1))
#define MPI_ERRORS_ABORT ((MPI_Errhandler)MMPI_PREDEFINED(MMPI_HANDLE_KIND_ERRHANDLER, 2))
#define MPI_INFO_NULL ((MPI_Info)MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_INFO))
#define MPI_INFO_ENV ((MPI_Info)MMPI_PREDEFINED(MMPI_HANDLE_KIND_INFO, 0))
#define MPI_WIN_NULL ((MPI_Win)MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_WIN))
#define MPI_FILE_NULL ((MPI_File)MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_FILE))
#define MPI_MESSAGE_NULL ((MPI_Message)MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_MESSAGE))
#define MPI_MESSAGE_NO_PROC ((MPI_Message)MMPI_PREDEFINED(MMPI_HANDLE_KIND_MESSAGE, 0))
#define MPI_SESSION_NULL ((MPI_Session)MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_SESSION))

/* ---- Constants ------------------------------------------------------------------------- */
#define MPI_ANY_SOURCE (-2)
#define MPI_PROC_NULL (-1)
#define MPI_ROOT (-3)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID 0x24000000

#define MPI_STATUS_IGNORE ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)
#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)-1)
#define MPI_BSEND_OVERHEAD 96

#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_PORT_NAME 256
#define MPI_MAX_DATAREP_STRING 128
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256

/* Thread levels (MPI-4.1 §11.6), in increasing order as the standard requires. */
#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* Results of comparisons (MPI-4.1 §7.3.1). */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* ---- Error classes (MPI-4.1 §9.4 Table 9.1, and chapter "Process Fault Tolerance") -------- */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_IN_STATUS 18
#define MPI_ERR_PENDING 19
#define MPI_ERR_KEYVAL 20
#define MPI_ERR_NO_MEM 21
#define MPI_ERR_BASE 22
#define MPI_ERR_INFO_KEY 23
#define MPI_ERR_INFO_VALUE 24
#define MPI_ERR_INFO_NOKEY 25
#define MPI_ERR_SPAWN 26
#define MPI_ERR_PORT 27
#define MPI_ERR_SERVICE 28
#define MPI_ERR_NAME 29
#define MPI_ERR_WIN 30
#define MPI_ERR_SIZE 31
#define MPI_ERR_DISP 32
#define MPI_ERR_INFO 33
#define MPI_ERR_LOCKTYPE 34
#define MPI_ERR_ASSERT 35
#define MPI_ERR_RMA_CONFLICT 36
#define MPI_ERR_RMA_SYNC 37
#define MPI_ERR_FILE 38
#define MPI_ERR_NOT_SAME 39
#define MPI_ERR_AMODE 40
#define MPI_ERR_UNSUPPORTED_DATAREP 41
#define MPI_ERR_UNSUPPORTED_OPERATION 42
#define MPI_ERR_NO_SUCH_FILE 43
#define MPI_ERR_FILE_EXISTS 44
#define MPI_ERR_BAD_FILE 45
#define MPI_ERR_ACCESS 46
#define MPI_ERR_NO_SPACE 47
#define MPI_ERR_QUOTA 48
#define MPI_ERR_READ_ONLY 49
#define MPI_ERR_FILE_IN_USE 50
#define MPI_ERR_DUP_DATAREP 51
#define MPI_ERR_CONVERSION 52
#define MPI_ERR_IO 53
#define MPI_ERR_RMA_RANGE 54
#define MPI_ERR_RMA_ATTACH 55
#define MPI_ERR_RMA_SHARED 56
#define MPI_ERR_RMA_FLAVOR 57
#define MPI_ERR_SESSION 58
#define MPI_ERR_PROC_ABORTED 59
#define MPI_ERR_VALUE_TOO_LARGE 60
#define MPI_ERR_ERRHANDLER 61
#define MPI_ERR_PROC_FAILED 62
#define MPI_ERR_PROC_FAILED_PENDING 63
#define MPI_ERR_REVOKED 64
#define MPI_ERR_LASTCODE 82 /* the MPI_T_ERR_ classes of mini_mpi/mpit.h end here */
#define MPIX_ERR_PROC_FAILED MPI_ERR_PROC_FAILED
#define MPIX_ERR_PROC_FAILED_PENDING MPI_ERR_PROC_FAILED_PENDING
#define MPIX_ERR_REVOKED MPI_ERR_REVOKED

/* ---- Callback types ------------------------------------------------------------------- */
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *errcode, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef void MPI_Session_errhandler_function(MPI_Session *session, int *errcode, ...);
typedef void MPI_Handler_function(MPI_Comm *comm, int *errcode, ...);

/* Declares MPI_<name> and its profiling twin PMPI_<name>. */
/* Default visibility, so that the library (built with -fvisibility=hidden) exports exactly
 * the declared interface. */
#if defined(__GNUC__)
#define MMPI_EXPORT __attribute__((visibility("default")))
#else
#define MMPI_EXPORT
#endif
#define MMPI_API(ret, name, args)      \
    MMPI_EXPORT ret MPI_##name args;   \
    MMPI_EXPORT ret PMPI_##name args
#define MMPIX_API(ret, name, args)     \
    MMPI_EXPORT ret MPIX_##name args;  \
    MMPI_EXPORT ret PMPIX_##name args

/* ---- Environment (MPI-4.1 chapter 11) ------------------------------------------------- */

/* ---- Errors (MPI-4.1 chapter 9) -------------------------------------------------------- */
/* Deprecated MPI-1 names, still used by older test programs. */

#ifdef __cplusplus
}
#endif

/* Chapter fragments, one per subsystem (each has its own extern "C" guard). */
#include "mini_mpi/datatype.h"
#include "mini_mpi/pt2pt.h"
#include "mini_mpi/op.h"
#include "mini_mpi/group.h"
#include "mini_mpi/ulfm.h"
#include "mini_mpi/attr.h"
#include "mini_mpi/comm_create.h"
#include "mini_mpi/intercomm.h"
#include "mini_mpi/topo.h"
#include "mini_mpi/spawn.h"
#include "mini_mpi/rma.h"
#include "mini_mpi/restart.h"
#include "mini_mpi/io.h"
#include "mini_mpi/compat.h"
#include "mini_mpi/mpit.h"
/* Every function's prototype, generated from the table mini_mpi/api/mpi.api at build time. */
#include "mini_mpi/functions.h"

#endif /* MINI_MPI_MPI_H */
