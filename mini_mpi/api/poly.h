/*
 * api/poly.h: a count or displacement array as either binding of a large-count pair passed it.
 *
 * MPI_Gatherv takes `const int recvcounts[]`, MPI_Gatherv_c `const MPI_Count recvcounts[]`
 * (MPI-4.1 §5.2). The body behind both bindings (api_impl.h) is written once; rather than copy
 * a whole array into the wide type at every call, it receives this view and reads elements
 * through mmpi_poly_at, which costs one branch per element and no allocation.
 */
#ifndef MMPI_API_POLY_H
#define MMPI_API_POLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct mmpi_poly_array {
    const void *base; /* NULL when the caller passed NULL */
    bool wide;        /* 64-bit elements (MPI_Count or MPI_Aint), else int */
};

static inline struct mmpi_poly_array mmpi_poly_narrow(const int *a)
{
    return (struct mmpi_poly_array){a, false};
}

/* MPI_Count and MPI_Aint are both 64 bits here, but distinct C types: the element is read
 * with memcpy, which compiles to one load and keeps the aliasing rules. */
static inline struct mmpi_poly_array mmpi_poly_wide(const void *a)
{
    return (struct mmpi_poly_array){a, true};
}

static inline int64_t mmpi_poly_at(struct mmpi_poly_array a, size_t i)
{
    if (!a.wide)
        return ((const int *)a.base)[i];
    int64_t v;
    memcpy(&v, (const char *)a.base + i * sizeof v, sizeof v);
    return v;
}

static inline bool mmpi_poly_null(struct mmpi_poly_array a)
{
    return a.base == NULL;
}

#endif
