/*
 * select.c: groups chosen by rank from another group (MPI-4.1 §7.3.2): MPI_Group_incl, _excl,
 * _range_incl, _range_excl, and the checks of their rank lists and range triplets. The error
 * classes follow MPICH (MPI_ERR_RANK for rank lists, MPI_ERR_ARG for triplets) so that programs
 * tested against it see the same classes here. Set operations are in set.c.
 */
#include <stdint.h>
#include <stdlib.h>

#include "group/group.h"

int mmpi_group_check_ranks(const struct mmpi_group *g, int n, const int *ranks)
{
    if (n < 0 || (n > 0 && !ranks))
        return MPI_ERR_ARG;
    int err = MPI_SUCCESS;
    char *listed = mmpi_xcalloc((size_t)g->size + 1, 1);
    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        /* §7.3.2: each rank must be valid and distinct, else the program is erroneous. */
        if (ranks[i] < 0 || ranks[i] >= g->size || listed[ranks[i]])
            err = MPI_ERR_RANK;
        else
            listed[ranks[i]] = 1;
    }
    free(listed);
    return err;
}

/* Number of ranks a checked triplet computes: first, first + stride, ... while not past last
 * (§7.3.2). 64-bit, so that extreme values from the user cannot overflow. */
static int64_t triplet_count(const int t[3])
{
    return ((int64_t)t[1] - t[0]) / t[2] + 1;
}

int mmpi_group_check_ranges(const struct mmpi_group *g, int n, int ranges[][3])
{
    if (n < 0 || (n > 0 && !ranges))
        return MPI_ERR_ARG;
    int err = MPI_SUCCESS;
    char *listed = mmpi_xcalloc((size_t)g->size + 1, 1);
    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        int64_t first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (first < 0 || first >= g->size || stride == 0) {
            err = MPI_ERR_ARG;
            break;
        }
        /* The last rank actually computed; like MPICH, a negative `last` is refused even when
         * the stride would stop before it. */
        int64_t actual_last = first + stride * ((last - first) / stride);
        if (last < 0 || actual_last >= g->size || (stride > 0 ? first > last : first < last)) {
            err = MPI_ERR_ARG;
            break;
        }
        for (int64_t k = 0, count = triplet_count(ranges[i]); k < count; k++) {
            int64_t r = first + k * stride;
            if (listed[r]) {
                err = MPI_ERR_ARG; /* a rank computed twice (§7.3.2: erroneous) */
                break;
            }
            listed[r] = 1;
        }
    }
    free(listed);
    return err;
}

struct mmpi_group *mmpi_group_incl(const struct mmpi_group *g, int n, const int *ranks)
{
    int *out = mmpi_xmalloc(((size_t)n + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        out[i] = g->world_ranks[ranks[i]];
    return mmpi_group_derived(mmpi_group_new(n, out), g);
}

struct mmpi_group *mmpi_group_excl(const struct mmpi_group *g, int n, const int *ranks)
{
    char *excluded = mmpi_xcalloc((size_t)g->size + 1, 1);
    int *out = mmpi_xmalloc(((size_t)g->size + 1) * sizeof(int)), k = 0;
    for (int i = 0; i < n; i++)
        excluded[ranks[i]] = 1;
    for (int i = 0; i < g->size; i++)
        if (!excluded[i])
            out[k++] = g->world_ranks[i];
    free(excluded);
    return mmpi_group_derived(mmpi_group_new(k, out), g);
}

/* The group ranks checked triplets compute, in triplet order; *count gets their number (at
 * most g's size, since they are distinct). The caller frees the list. */
static int *expand_ranges(int n, int ranges[][3], int *count)
{
    int64_t total = 0;
    for (int i = 0; i < n; i++)
        total += triplet_count(ranges[i]);
    int *list = mmpi_xmalloc(((size_t)total + 1) * sizeof(int));
    int m = 0;
    for (int i = 0; i < n; i++)
        for (int64_t k = 0, c = triplet_count(ranges[i]); k < c; k++)
            list[m++] = (int)(ranges[i][0] + k * ranges[i][2]);
    *count = m;
    return list;
}

struct mmpi_group *mmpi_group_range_incl(const struct mmpi_group *g, int n, int ranges[][3])
{
    int count, *list = expand_ranges(n, ranges, &count);
    struct mmpi_group *out = mmpi_group_incl(g, count, list);
    free(list);
    return out;
}

struct mmpi_group *mmpi_group_range_excl(const struct mmpi_group *g, int n, int ranges[][3])
{
    int count, *list = expand_ranges(n, ranges, &count);
    struct mmpi_group *out = mmpi_group_excl(g, count, list);
    free(list);
    return out;
}
