/*
 * call_names.c: the printable names of the MPI entry points ("MPI_Send", "MPIX_Comm_agree") of
 * the table mini_mpi/api/mpi.api (through generated/calls.def), indexed by enum mmpi_call (calls.h). Shared by the library and the PMPI
 * injector: both count calls, name them in reports and read them in fault specs, and the call
 * counts file of one must mean the same to the other.
 */
#include <string.h>

#include "calls.h"

static const char *const call_names[] = {
#define MMPI_CALL(name) "MPI_" #name,
#define MMPIX_CALL(name) "MPIX_" #name,
#include "generated/calls.def"
#undef MMPI_CALL
#undef MMPIX_CALL
};

const char *mmpi_call_name(enum mmpi_call call)
{
    return (unsigned)call < MMPI_CALL_COUNT ? call_names[call] : "MPI_(unknown)";
}

int mmpi_call_by_name(const char *name)
{
    for (int i = 0; i < MMPI_CALL_COUNT; i++)
        if (!strcmp(call_names[i], name))
            return i;
    return -1;
}
