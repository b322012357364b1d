/*
 * io_interleaved.h: the file layout of the coalescing tests (io_coalesce.c, io_coalesce_read.c):
 * rank r's blocks of B bytes in slot r of periods of size + 1 slots (the last slot of each
 * period a hole), blocks_of(r) blocks per rank, rank 1 none.
 */
#ifndef IO_INTERLEAVED_H
#define IO_INTERLEAVED_H

#include "mtest.h"

#define B 3        /* bytes per block */
#define MAXBLK 300 /* blocks per rank at most */

static inline int blocks_of(int r) { return r == 1 ? 0 : MAXBLK - 37 * r % 200; }

/* Rank r's view from displacement r * B: MAXBLK blocks, one per period. */
static inline MPI_Datatype filetype(int size)
{
    MPI_Datatype vec, ft;
    MPI_Type_vector(MAXBLK, B, (size + 1) * B, MPI_BYTE, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)MAXBLK * (size + 1) * B, &ft);
    MPI_Type_commit(&ft);
    MPI_Type_free(&vec);
    return ft;
}

#endif
