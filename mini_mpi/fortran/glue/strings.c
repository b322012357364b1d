/*
 * fortran/glue/strings.c: Fortran CHARACTER arguments to and from C strings. A Fortran string
 * has a length and no terminator; trailing blanks are not part of an MPI name (MPI-4.1 §19.1.9).
 */
#include <stdlib.h>
#include <string.h>

#include "fortran/glue.h"

char *mmpi_f_str_in(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    char *c = malloc(len + 1);
    if (!c)
        abort();
    memcpy(c, s, len);
    c[len] = '\0';
    return c;
}

char *mmpi_f_str_in_stripped(const char *s, size_t len)
{
    while (len > 0 && s[0] == ' ')
        s++, len--;
    return mmpi_f_str_in(s, len);
}

char *mmpi_f_str_buf(size_t len)
{
    /* The C call may write up to its own maximum (MPI_MAX_INFO_VAL for an info value) whatever
     * the Fortran length; the copy back truncates to the Fortran length. */
    char *c = calloc(len + MPI_MAX_INFO_VAL + MPI_MAX_ERROR_STRING + 2, 1);
    if (!c)
        abort();
    return c;
}

void mmpi_f_str_out(const char *c, char *f, size_t len)
{
    size_t n = strlen(c);
    if (n > len)
        n = len;
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
}
