/*
 * fortran/glue/spawn.c: the Fortran bindings that take arrays of strings (MPI-4.1 §11.8.2,
 * §19.3): MPI_COMM_SPAWN's ARGV(*) and MPI_COMM_SPAWN_MULTIPLE's ARRAY_OF_COMMANDS(*) and
 * ARRAY_OF_ARGV(COUNT, *). A Fortran string array is one block of elements of the same length
 * (the hidden length argument), blank-padded; a list of arguments ends at its first blank
 * element. MPI_ARGV_NULL and MPI_ARGVS_NULL are recognized by the address of their COMMON
 * block. MPI_INFO_CREATE_ENV has no argc/argv in Fortran (§11.4).
 */
#include <stdlib.h>

#include "fortran/glue.h"

#pragma GCC diagnostic ignored "-Wmissing-prototypes"

static int blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ')
            return 0;
    return 1;
}

/* The C argv of a Fortran list: elements a, a + stride, ..., up to the first blank one. */
static char **argv_in(const char *a, size_t len, size_t stride)
{
    size_t n = 0;
    while (!blank(a + n * stride, len))
        n++;
    char **argv = calloc(n + 1, sizeof(*argv));
    if (!argv)
        abort();
    for (size_t i = 0; i < n; i++)
        argv[i] = mmpi_f_str_in(a + i * stride, len);
    return argv;
}

static void argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

static int *errcodes(MPI_Fint *e)
{
    return e == mpi_fortran_errcodes_ignore_ ? MPI_ERRCODES_IGNORE : e;
}

void pmpi_comm_spawn_(const char *command, const char *argv, const MPI_Fint *maxprocs,
                      const MPI_Fint *info, const MPI_Fint *root, const MPI_Fint *comm,
                      MPI_Fint *intercomm, MPI_Fint *array_of_errcodes, MPI_Fint *ierror,
                      size_t command_len, size_t argv_len)
{
    char *c_command = mmpi_f_str_in(command, command_len);
    char **c_argv = argv == mpi_fortran_argv_null_ ? NULL : argv_in(argv, argv_len, argv_len);
    int rc = PMPI_Comm_spawn(c_command, c_argv ? c_argv : MPI_ARGV_NULL, *maxprocs, *info, *root,
                             *comm, intercomm, errcodes(array_of_errcodes));
    argv_free(c_argv);
    free(c_command);
    *ierror = rc;
}
#pragma weak mpi_comm_spawn_ = pmpi_comm_spawn_

void pmpi_comm_spawn_multiple_(const MPI_Fint *count, const char *array_of_commands,
                               const char *array_of_argv, const MPI_Fint *array_of_maxprocs,
                               const MPI_Fint *array_of_info, const MPI_Fint *root,
                               const MPI_Fint *comm, MPI_Fint *intercomm,
                               MPI_Fint *array_of_errcodes, MPI_Fint *ierror, size_t commands_len,
                               size_t argv_len)
{
    int n = *count > 0 ? *count : 0;
    char **cmds = calloc((size_t)n + 1, sizeof(*cmds));
    char ***argvs = NULL;
    if (!cmds)
        abort();
    for (int i = 0; i < n; i++)
        cmds[i] = mmpi_f_str_in(array_of_commands + (size_t)i * commands_len, commands_len);
    if (array_of_argv != mpi_fortran_argvs_null_) {
        /* ARRAY_OF_ARGV(COUNT, *): the j-th argument of command i is element (i, j). */
        argvs = calloc((size_t)n + 1, sizeof(*argvs));
        if (!argvs)
            abort();
        for (int i = 0; i < n; i++)
            argvs[i] = argv_in(array_of_argv + (size_t)i * argv_len, argv_len,
                               (size_t)n * argv_len);
    }
    int rc = PMPI_Comm_spawn_multiple(*count, cmds, argvs ? argvs : MPI_ARGVS_NULL,
                                      array_of_maxprocs, array_of_info, *root, *comm, intercomm,
                                      errcodes(array_of_errcodes));
    for (int i = 0; i < n; i++) {
        free(cmds[i]);
        if (argvs)
            argv_free(argvs[i]);
    }
    free(cmds);
    free(argvs);
    *ierror = rc;
}
#pragma weak mpi_comm_spawn_multiple_ = pmpi_comm_spawn_multiple_

void pmpi_info_create_env_(MPI_Fint *info, MPI_Fint *ierror)
{
    *ierror = PMPI_Info_create_env(0, NULL, info);
}
#pragma weak mpi_info_create_env_ = pmpi_info_create_env_
