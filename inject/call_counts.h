/*
 * call_counts.h: MINI_MPI_CALL_COUNTS=<path>, the counting mode of the fault injector. With it
 * set, every rank's MPI entries are counted (as when directives are armed, without killing
 * anyone) and the counts are written to <path> when the world ends. The first run of a fault
 * sweep (bin/mini_mpi_sweep) uses it to learn how many calls each rank makes. File format:
 * docs/fault-sweep.md.
 */
#ifndef MMPI_INJECT_CALL_COUNTS_H
#define MMPI_INJECT_CALL_COUNTS_H

#include <stdbool.h>

#include "call_counts_file.h" /* the path check and the format, shared with inject/pmpi/ */

struct mmpi_world;

/* Writes the counts of every rank of w to w->config.call_counts (nothing when it is NULL).
 * Called once every rank has ended, before the counters are freed. A write error is reported in
 * one line on stderr and does not change the job's exit status. */
void mmpi_call_counts_write(const struct mmpi_world *w);

#endif
