/*
 * mpit/enum_api.c: the enumerations some variables and event elements take their values from,
 * and MPI_T_enum_get_info / MPI_T_enum_get_item (MPI-4.1 §15.3.5). Item i has value i.
 */
#include "mmpi.h"
#include "mpit/mpit.h"

static const char *const object_kinds[] = {"communicator", "window", "file", "session"};
static const char *const ft_modes[] = {"no", "ulfm"};
static const char *const exit_conventions[] = {"ompi", "mpich"};

const struct MPIR_T_enum_s mmpi_mpit_enums[MMPI_NENUMS] = {
    [MMPI_ENUM_OBJECT_KIND] = {"mini_mpi_object_kind", 4, object_kinds},
    [MMPI_ENUM_FT] = {"mini_mpi_ft", 2, ft_modes},
    [MMPI_ENUM_EXIT_STATUS] = {"mini_mpi_exit_status", 2, exit_conventions},
};

static bool valid_enum(MPI_T_enum e)
{
    for (int i = 0; i < MMPI_NENUMS; i++)
        if (e == &mmpi_mpit_enums[i])
            return true;
    return false;
}

MMPI_PROFILED(T_enum_get_info);
int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    MMPI_MPIT_ENTER(st);
    if (!valid_enum(enumtype))
        return MPI_T_ERR_INVALID_HANDLE;
    if (num)
        *num = enumtype->nitems;
    mmpi_mpit_copy_string(enumtype->name, name, name_len);
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_enum_get_item);
int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    MMPI_MPIT_ENTER(st);
    if (!valid_enum(enumtype))
        return MPI_T_ERR_INVALID_HANDLE;
    if (index < 0 || index >= enumtype->nitems)
        return MPI_T_ERR_INVALID_ITEM;
    if (value)
        *value = index;
    mmpi_mpit_copy_string(enumtype->items[index], name, name_len);
    return MPI_SUCCESS;
}
