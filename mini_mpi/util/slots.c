/*
 * slots.c: the chunked index table of slots.h. Index i lives in chunk k = floor(log2(i/64 + 1)),
 * at offset i + 64 - (64 << k); chunk k holds 64 << k entries.
 */
#include "util/slots.h"

#include <stdlib.h>
#include <string.h>

#include "util/die.h"

void mmpi_slots_init(struct mmpi_slots *s)
{
    memset(s, 0, sizeof(*s));
    MMPI_CHECK_PTHREAD(pthread_mutex_init(&s->lock, NULL));
}

void mmpi_slots_destroy(struct mmpi_slots *s)
{
    for (unsigned k = 0; k < MMPI_SLOTS_CHUNKS; k++)
        free(s->chunks[k]);
    free(s->free_list);
    pthread_mutex_destroy(&s->lock);
    memset(s, 0, sizeof(*s));
}

int64_t mmpi_slots_insert(struct mmpi_slots *s, void *obj)
{
    uint32_t index, offset;
    int64_t result = -1;

    pthread_mutex_lock(&s->lock);
    if (s->free_count > 0) {
        index = s->free_list[--s->free_count];
    } else {
        if (s->next_unused >= MMPI_SLOTS_MAX_INDEX)
            goto out;
        index = s->next_unused++;
    }
    unsigned k = mmpi_slots_chunk_of(index, &offset);
    void **chunk = s->chunks[k];
    if (!chunk) {
        chunk = mmpi_xcalloc(64u << k, sizeof(void *));
        __atomic_store_n(&s->chunks[k], chunk, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&chunk[offset], obj, __ATOMIC_RELEASE);
    result = index;
out:
    pthread_mutex_unlock(&s->lock);
    return result;
}

uint32_t mmpi_slots_live(struct mmpi_slots *s)
{
    pthread_mutex_lock(&s->lock);
    uint32_t live = s->next_unused - s->free_count;
    pthread_mutex_unlock(&s->lock);
    return live;
}

void *mmpi_slots_remove(struct mmpi_slots *s, uint32_t index)
{
    uint32_t offset;
    void *old = NULL;

    if (index >= MMPI_SLOTS_MAX_INDEX)
        return NULL;
    pthread_mutex_lock(&s->lock);
    void **chunk = s->chunks[mmpi_slots_chunk_of(index, &offset)];
    if (chunk && chunk[offset]) {
        old = chunk[offset];
        __atomic_store_n(&chunk[offset], NULL, __ATOMIC_RELEASE);
        if (s->free_count == s->free_capacity) {
            uint32_t cap = s->free_capacity ? 2 * s->free_capacity : 16;
            uint32_t *list = realloc(s->free_list, cap * sizeof(*list));
            if (!list)
                mmpi_die("out of memory growing a handle free list");
            s->free_list = list;
            s->free_capacity = cap;
        }
        s->free_list[s->free_count++] = index;
    }
    pthread_mutex_unlock(&s->lock);
    return old;
}
