/*
 * topo/dims.c: MPI_Dims_create's arithmetic (MPI-4.1 §8.5.2). Pure.
 *
 * Algorithm: an exhaustive search over the factorizations of m (nnodes divided by the given
 * entries) into k factors in non-increasing order, ranked by largest - smallest, then by the
 * factors compared from the smallest up, the larger first (14x14x9x8x7 before 14x12x12x7x7:
 * §8.5.2 only asks for dimensions "as close to each other as possible"). That ranking
 * reproduces every result of Debian's MPICH 4.0 for nnodes up to 20,000 in 1 to 8 dimensions
 * and the 75,396 cases of MPICH's test topo/dims5 (MPICH itself uses a heuristic).
 * Cost: trial division up to sqrt(m) for the divisors, then branch and bound over them: each
 * factor ranges over divisors between the root of what remains and the bound set by the best
 * candidate so far; well under a millisecond for any int nnodes.
 */
#include <stdlib.h>
#include <string.h>

#include "topo/topo.h"

/* The largest x with x^k <= r (k >= 1). */
static long root_floor(long r, int k)
{
    long lo = 1, hi = r;
    while (lo < hi) {
        long mid = lo + (hi - lo + 1) / 2, p = 1;
        for (int i = 0; i < k && p <= r; i++)
            p = p > r / mid ? r + 1 : p * mid;
        if (p <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

struct search {
    int k;
    const long *divs;   /* the divisors of m, ascending */
    int ndivs;
    long *cur, *best;
    long best_diff;
    bool found;
};

/* Whether cur, whose largest - smallest is diff, ranks before the best found so far: a
 * smaller diff, then the larger factors read from the smallest up. */
static bool better(const struct search *s, long diff)
{
    if (!s->found || diff != s->best_diff)
        return !s->found || diff < s->best_diff;
    for (int i = s->k - 1; i >= 0; i--)
        if (s->cur[i] != s->best[i])
            return s->cur[i] > s->best[i];
    return false;
}

/* Chooses cur[i..k) with product r, each at most cur[i-1]. */
static void search(struct search *s, int i, long r)
{
    if (i == s->k) {
        long diff = s->cur[0] - s->cur[s->k - 1];
        if (r == 1 && better(s, diff)) {
            s->found = true;
            s->best_diff = diff;
            memcpy(s->best, s->cur, (size_t)s->k * sizeof(long));
        }
        return;
    }
    int left = s->k - i;
    long max = i ? s->cur[i - 1] : r, first = root_floor(r, left);
    for (int x = 0; x < s->ndivs; x++) {
        long d = s->divs[x];
        if (d > max || d > r)
            break;
        if (d < first || r % d)
            continue;
        /* d is the largest of the rest: it needs d^left >= r. */
        long p = 1;
        for (int j = 0; j < left && p < r; j++)
            p *= d;
        if (p < r)
            continue;
        /* Bound: the smallest factor will be at most the (left-1)-th root of r / d, which
         * only shrinks as d grows (d^left >= r makes it at most d). */
        long top = i ? s->cur[0] : d;
        long low = left > 1 ? root_floor(r / d, left - 1) : d;
        if (s->found && top - low > s->best_diff)
            break;
        s->cur[i] = d;
        search(s, i + 1, r / d);
    }
}

static int long_order(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The divisors of m, ascending (malloc'ed; an int has at most 1536). */
static long *divisors(long m, int *n)
{
    long *d = mmpi_xmalloc(2048 * sizeof(long));
    *n = 0;
    for (long x = 1; x * x <= m; x++)
        if (m % x == 0) {
            d[(*n)++] = x;
            if (x != m / x)
                d[(*n)++] = m / x;
        }
    qsort(d, (size_t)*n, sizeof(long), long_order);
    return d;
}

int mmpi_dims_create(int nnodes, int ndims, int *dims)
{
    long m = nnodes;
    int k = 0;
    if (nnodes < 1)
        return MPI_ERR_ARG;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return MPI_ERR_DIMS;
        if (dims[i] == 0)
            k++;
        else if (m % dims[i])
            return MPI_ERR_DIMS;
        else
            m /= dims[i];
    }
    if (k == 0)
        return m == 1 ? MPI_SUCCESS : MPI_ERR_DIMS;
    struct search s = {.k = k};
    long *divs = divisors(m, &s.ndivs);
    s.divs = divs;
    s.cur = mmpi_xmalloc((size_t)k * sizeof(long));
    s.best = mmpi_xmalloc((size_t)k * sizeof(long));
    search(&s, 0, m);
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = (int)s.best[j++];
    free(s.cur);
    free(s.best);
    free(divs);
    return MPI_SUCCESS;
}
