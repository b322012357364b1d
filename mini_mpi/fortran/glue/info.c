/*
 * fortran/glue/info.c: MPI_INFO_GET_STRING from Fortran (MPI-4.1 §10, §19.3). Its buflen means
 * the Fortran length: given, the characters VALUE may receive; returned, the value's length,
 * neither counting a terminator as C's does. buflen 0 asks for the length and leaves VALUE as
 * it is; a value longer than buflen is cut there and the rest of VALUE is blank.
 */
#include <stdlib.h>
#include <string.h>

#include "fortran/glue.h"

#pragma GCC diagnostic ignored "-Wmissing-prototypes"

void pmpi_info_get_string_(const MPI_Fint *info, const char *key, MPI_Fint *buflen, char *value,
                           MPI_Fint *flag, MPI_Fint *ierror, size_t key_len, size_t value_len)
{
    char *c_key = mmpi_f_str_in_stripped(key, key_len);
    int n = *buflen < 0 ? *buflen : 0, f = 0; /* a negative one: C's error */
    int rc = PMPI_Info_get_string(*info, c_key, &n, NULL, &f);
    if (rc == MPI_SUCCESS && f && *buflen > 0) {
        char *c = malloc((size_t)n + 1);
        if (!c)
            abort();
        rc = PMPI_Info_get_string(*info, c_key, &n, c, &f);
        if (rc == MPI_SUCCESS && f) {
            if ((size_t)*buflen < strlen(c))
                c[*buflen] = '\0';
            mmpi_f_str_out(c, value, value_len);
        }
        free(c);
    }
    if (rc == MPI_SUCCESS) {
        *flag = f != 0;
        if (f)
            *buflen = n > 0 ? n - 1 : 0;
    }
    free(c_key);
    if (ierror)
        *ierror = rc;
}
#pragma weak mpi_info_get_string_ = pmpi_info_get_string_
