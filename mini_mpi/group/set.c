/*
 * set.c: groups as sets of processes (MPI-4.1 §7.3.1, §7.3.2): comparison, rank translation,
 * union, intersection and difference. Membership is answered through a position map indexed by
 * world rank (built per call, O(largest world rank)), so every operation is linear rather than
 * a product of the two sizes: a 1024-rank job compares groups in microseconds. Selection by
 * rank lists is in select.c.
 */
#include <stdlib.h>
#include <string.h>

#include "group/group.h"

/* One more than the largest world rank in a and b (b may be NULL). */
static int world_limit(const struct mmpi_group *a, const struct mmpi_group *b)
{
    int limit = 0;
    for (int i = 0; i < a->size; i++)
        if (a->world_ranks[i] >= limit)
            limit = a->world_ranks[i] + 1;
    for (int i = 0; b && i < b->size; i++)
        if (b->world_ranks[i] >= limit)
            limit = b->world_ranks[i] + 1;
    return limit;
}

/* A map [limit]: world rank -> rank in g, or -1. limit must exceed g's world ranks. The caller
 * frees it. */
static int *position_map(const struct mmpi_group *g, int limit)
{
    int *pos = mmpi_xmalloc(((size_t)limit + 1) * sizeof(int));
    memset(pos, 0xff, ((size_t)limit + 1) * sizeof(int)); /* every int -1 */
    for (int i = 0; i < g->size; i++)
        pos[g->world_ranks[i]] = i;
    return pos;
}

int mmpi_group_compare(const struct mmpi_group *a, const struct mmpi_group *b)
{
    if (a->size != b->size)
        return MPI_UNEQUAL;
    if (a == b || !memcmp(a->world_ranks, b->world_ranks, (size_t)a->size * sizeof(int)))
        return MPI_IDENT;
    /* Same size and members distinct: similar exactly when every member of b is in a. */
    int *pos = position_map(a, world_limit(a, b)), result = MPI_SIMILAR;
    for (int i = 0; i < b->size && result == MPI_SIMILAR; i++)
        if (pos[b->world_ranks[i]] < 0)
            result = MPI_UNEQUAL;
    free(pos);
    return result;
}

int mmpi_group_check_translate_ranks(const struct mmpi_group *a, int n, const int *ranks1)
{
    if (n < 0 || (n > 0 && !ranks1))
        return MPI_ERR_ARG;
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->size))
            return MPI_ERR_RANK;
    return MPI_SUCCESS;
}

void mmpi_group_translate_ranks(const struct mmpi_group *a, int n, const int *ranks1,
                                const struct mmpi_group *b, int *ranks2)
{
    int limit = world_limit(b, NULL), *pos = position_map(b, limit);
    for (int i = 0; i < n; i++) {
        if (ranks1[i] == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL; /* §7.3.1: MPI_PROC_NULL translates to itself */
            continue;
        }
        int w = a->world_ranks[ranks1[i]];
        ranks2[i] = w < limit && pos[w] >= 0 ? pos[w] : MPI_UNDEFINED;
    }
    free(pos);
}

/* Appends to out (at *n) the members of `from`, in its order, whose presence in the group
 * mapped by pos_in (position_map, [limit]) equals `want`. */
static void select_by_presence(const struct mmpi_group *from, const int *pos_in, int limit,
                               int want, int *out, int *n)
{
    for (int i = 0; i < from->size; i++) {
        int w = from->world_ranks[i];
        int present = w < limit && pos_in[w] >= 0;
        if (present == want)
            out[(*n)++] = w;
    }
}

struct mmpi_group *mmpi_group_union(const struct mmpi_group *a, const struct mmpi_group *b)
{
    int limit = world_limit(a, b), *pos = position_map(a, limit), n = a->size;
    int *ranks = mmpi_xmalloc(((size_t)a->size + (size_t)b->size + 1) * sizeof(int));
    memcpy(ranks, a->world_ranks, (size_t)a->size * sizeof(int));
    select_by_presence(b, pos, limit, 0, ranks, &n);
    free(pos);
    return mmpi_group_derived(mmpi_group_new(n, ranks), a);
}

struct mmpi_group *mmpi_group_intersection(const struct mmpi_group *a,
                                           const struct mmpi_group *b)
{
    int limit = world_limit(a, b), *pos = position_map(b, limit), n = 0;
    int *ranks = mmpi_xmalloc(((size_t)a->size + 1) * sizeof(int));
    select_by_presence(a, pos, limit, 1, ranks, &n);
    free(pos);
    return mmpi_group_derived(mmpi_group_new(n, ranks), a);
}

struct mmpi_group *mmpi_group_difference(const struct mmpi_group *a,
                                         const struct mmpi_group *b)
{
    int limit = world_limit(a, b), *pos = position_map(b, limit), n = 0;
    int *ranks = mmpi_xmalloc(((size_t)a->size + 1) * sizeof(int));
    select_by_presence(a, pos, limit, 0, ranks, &n);
    free(pos);
    return mmpi_group_derived(mmpi_group_new(n, ranks), a);
}
