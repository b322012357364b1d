/*
 * slots.h: a table that maps small integer indices to object pointers, used for per-rank handle
 * tables (communicators, requests, datatypes, ...). Knows nothing about MPI.
 *
 * Storage is a fixed directory of chunks that double in size (64, 128, 256, ... entries), so a
 * chunk never moves once published: lookups are lock-free (one acquire load per level) while
 * insertion and removal take the table's mutex. Freed indices are reused.
 */
#ifndef MMPI_UTIL_SLOTS_H
#define MMPI_UTIL_SLOTS_H

#include <pthread.h>
#include <stdint.h>

#define MMPI_SLOTS_CHUNKS 17 /* 64 * (2^17 - 1) ~ 8.4 M entries: the 23-bit handle index */
#define MMPI_SLOTS_MAX_INDEX (64u * ((1u << MMPI_SLOTS_CHUNKS) - 1u))

struct mmpi_slots {
    pthread_mutex_t lock;                 /* protects insertion, removal, the free list */
    void **chunks[MMPI_SLOTS_CHUNKS];     /* published with release, read with acquire */
    uint32_t next_unused;                 /* lock; first index never handed out */
    uint32_t *free_list;                  /* lock; indices freed and not yet reused */
    uint32_t free_count, free_capacity;   /* lock */
};

void mmpi_slots_init(struct mmpi_slots *s);
/* Frees the table's memory (not the objects). Call when no other thread uses it. */
void mmpi_slots_destroy(struct mmpi_slots *s);
/* How many objects the table holds. Takes s->lock. */
uint32_t mmpi_slots_live(struct mmpi_slots *s);
/* Stores obj (not NULL); returns its index, or -1 when the table is full. Takes s->lock. */
int64_t mmpi_slots_insert(struct mmpi_slots *s, void *obj);
/* The chunk that holds index, and the index's offset in it. */
static inline unsigned mmpi_slots_chunk_of(uint32_t index, uint32_t *offset)
{
    uint64_t j = (uint64_t)index + 64;
    unsigned k = (unsigned)(63 - __builtin_clzll(j)) - 6;
    *offset = (uint32_t)(j - (64ull << k));
    return k;
}
/* The object at index, or NULL for a free or never-used index. Lock-free. Inline: every
 * call that takes a handle resolves it, RMA's put fast path among them. */
static inline void *mmpi_slots_get(struct mmpi_slots *s, uint32_t index)
{
    uint32_t offset;
    if (index >= MMPI_SLOTS_MAX_INDEX)
        return NULL;
    void **chunk =
        __atomic_load_n(&s->chunks[mmpi_slots_chunk_of(index, &offset)], __ATOMIC_ACQUIRE);
    return chunk ? __atomic_load_n(&chunk[offset], __ATOMIC_ACQUIRE) : NULL;
}
/* Empties the slot at index; returns what it held (NULL if it was free). Takes s->lock. */
void *mmpi_slots_remove(struct mmpi_slots *s, uint32_t index);

#endif
