/*
 * mmpi.h: the internal umbrella header. Every library source includes it, after which the
 * world/rank objects, handles, error raising and the entry protocol are in scope. Public
 * declarations live only in include/.
 */
#ifndef MMPI_MMPI_H
#define MMPI_MMPI_H

#include "mpi.h"
#include "calls.h"
#include "comm/comm.h"
#include "errhan/errhan.h"
#include "fault/fault.h"
#include "runtime/rank.h"
#include "util/die.h"

/* Splits a handle value (see mpi.h) into its parts. */
#define MMPI_HANDLE_VALID_BIT 0x40000000
#define MMPI_HANDLE_PREDEFINED_BIT 0x00800000
#define MMPI_HANDLE_INDEX_MASK 0x007fffff
static inline int mmpi_handle_kind(int h) { return (h >> 24) & 0x3f; }
static inline int mmpi_handle_is_predefined(int h)
{
    return (h & (MMPI_HANDLE_VALID_BIT | MMPI_HANDLE_PREDEFINED_BIT)) ==
           (MMPI_HANDLE_VALID_BIT | MMPI_HANDLE_PREDEFINED_BIT);
}
static inline int mmpi_handle_is_dynamic(int h)
{
    return (h & (MMPI_HANDLE_VALID_BIT | MMPI_HANDLE_PREDEFINED_BIT)) == MMPI_HANDLE_VALID_BIT;
}
static inline int mmpi_handle_index(int h) { return h & MMPI_HANDLE_INDEX_MASK; }
static inline int mmpi_handle_make(int kind, int index)
{
    return MMPI_HANDLE_VALID_BIT | (kind << 24) | index;
}

/* Registers obj in the calling rank's table of `kind`; returns its handle, or the kind's null
 * handle when the table is full. */
int mmpi_handle_new(struct mmpi_rank *self, int kind, void *obj);
/* The object behind a dynamic handle of `kind`, or NULL. Lock-free; inline (every call
 * that takes a handle resolves one). */
static inline void *mmpi_handle_lookup(struct mmpi_rank *self, int kind, int handle)
{
    if (!mmpi_handle_is_dynamic(handle) || mmpi_handle_kind(handle) != kind)
        return NULL;
    return mmpi_slots_get(&self->handles[kind], (uint32_t)mmpi_handle_index(handle));
}
/* Removes a dynamic handle; returns its object or NULL. */
void *mmpi_handle_remove(struct mmpi_rank *self, int kind, int handle);

#endif
