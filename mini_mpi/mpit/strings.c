/*
 * mpit/strings.c: the string rules every MPI_T query shares (MPI-4.1 §15.3.3): how a name or
 * description is returned into a caller's buffer, the counting and lookup-by-name calls of every kind (cvar, pvar, category, event). Kept in one place so that
 * all the get_info calls truncate, terminate and report lengths alike.
 */
#include <string.h>

#include "mmpi.h"
#include "mpit/mpit.h"

void mmpi_mpit_copy_string(const char *src, char *buf, int *len)
{
    if (!len)
        return; /* §15.3.3: a NULL length means the string is not wanted: buf is untouched */
    int full = (int)strlen(src) + 1;
    if (!buf || *len <= 0) {
        *len = full;
        return;
    }
    int n = full < *len ? full : *len;
    memcpy(buf, src, (size_t)n - 1);
    buf[n - 1] = '\0';
    *len = n;
}

int mmpi_mpit_get_num(int *num, int n)
{
    MMPI_MPIT_ENTER(st);
    if (!num)
        return MPI_T_ERR_INVALID;
    *num = n;
    return MPI_SUCCESS;
}

int mmpi_mpit_get_index(const char *name, int *index, int n, const char *(*name_of)(int))
{
    MMPI_MPIT_ENTER(st);
    if (!name || !index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < n; i++)
        if (!strcmp(name_of(i), name)) {
            *index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}
