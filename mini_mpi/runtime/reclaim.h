/*
 * reclaim.h: freeing the objects a rank still holds when the world ends (runtime/reclaim.c).
 */
#ifndef MMPI_RUNTIME_RECLAIM_H
#define MMPI_RUNTIME_RECLAIM_H

struct mmpi_rank;

/* Releases every object left in r's handle tables. Call only when no thread of the world runs. */
void mmpi_handles_reclaim(struct mmpi_rank *r);

#endif
