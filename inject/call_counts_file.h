/*
 * call_counts_file.h: the MINI_MPI_CALL_COUNTS file, shared by the library (which writes every
 * rank of its world at once, inject/call_counts.c) and the PMPI injector (where each
 * process appends its own rank). Format (docs/fault-sweep.md), read by bin/mini_mpi_sweep in any
 * order of ranks:
 *   # mini_mpi call counts: <N> ranks
 *   <rank> calls <total MPI calls entered by the rank>
 *   <rank> <MPI_Name> <count>     one line per call the rank entered at least once
 * each rank's `calls` line first, then its calls in calls.def order.
 */
#ifndef MMPI_CALL_COUNTS_FILE_H
#define MMPI_CALL_COUNTS_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Validates a MINI_MPI_CALL_COUNTS value: non-empty, in an existing writable directory, not a
 * directory itself. On a bad value prints one line naming the variable and returns false. */
bool mmpi_call_counts_check(const char *path);

/* The header line, for a world of nranks. */
void mmpi_call_counts_print_header(FILE *f, int nranks);
/* One rank's lines: total MPI entries, then counts[c] (MMPI_CALL_COUNT entries; NULL: none). */
void mmpi_call_counts_print_rank(FILE *f, int rank, uint32_t total, const uint32_t *counts);

#endif
