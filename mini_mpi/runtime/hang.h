/*
 * hang.h: the hang detector and the watchdog. A monitor thread watches the ranks'
 * thread records (runtime/thread.h). When every live rank's every thread is asleep in an MPI
 * wait and no wake-up is possible (nothing moved for two looks, then confirmed with the sleepers
 * frozen), the job cannot progress: it prints one line per rank (call, what it waits for, since
 * when) and ends with MMPI_EXIT_DEADLOCK. With MINI_MPI_TIMEOUT it prints the same report when
 * the job outlives the timeout (livelocks, ranks stuck computing) and ends with
 * MMPI_EXIT_TIMEOUT.
 *
 * The same monitor sets the fault layer's schedule (fault/fault.h): it publishes deferred
 * deaths once nobody can progress or after PENDING_MAX (mmpi_fault_publish_pending), and
 * releases the failure reports that blocking waits deferred once the world is quiescent with
 * failures, or a sleeper waited long (mmpi_fault_release_reports). Without a monitor nothing
 * is deferred (mmpi_fault_no_monitor).
 */
#ifndef MMPI_RUNTIME_HANG_H
#define MMPI_RUNTIME_HANG_H

#include "runtime/thread.h"

#define MMPI_EXIT_DEADLOCK 123 /* the hang detector found a deadlock */
#define MMPI_EXIT_TIMEOUT 124  /* MINI_MPI_TIMEOUT expired (the status timeout(1) uses) */

struct mmpi_world;

/* Starts the monitor thread when the world's config asks for it (hang_check or timeout). */
void mmpi_hang_world_start(struct mmpi_world *w);
void mmpi_hang_world_stop(struct mmpi_world *w);
/* Whether the monitor thread runs (it watches MINI_MPI_HANG_CHECK and MINI_MPI_TIMEOUT, which
 * MPI_T may change while it runs). */
bool mmpi_hang_monitor_running(void);

/* Called by a sleeper that woke up frozen: waits until the detector thaws it. */
void mmpi_hang_park(struct mmpi_thread *t);

#endif
