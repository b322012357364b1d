/*
 * osc/failure_link.h: every question one-sided communication asks about failures, in one place,
 * answered by the fault layer (fault/fault.h). Nothing else in osc/ reads a rank's
 * failure state.
 */
#ifndef MMPI_OSC_FAILURE_LINK_H
#define MMPI_OSC_FAILURE_LINK_H

#include <stdbool.h>

struct mmpi_rank;
struct mmpi_win_core;

/* Whether window member r has failed (its death is published). A waiter that waits for r
 * (a lock r holds, r's post or complete) stops waiting with MPI_ERR_PROC_FAILED once this is
 * true. Any thread; lock-free. */
bool mmpi_osc_member_failed(const struct mmpi_win_core *core, int r);

/* Records that the calling rank was told (by an MPI_ERR_PROC_FAILED from a window call) that
 * member r failed, as every other subsystem records what it reports. Owning rank only. */
void mmpi_osc_member_reported(struct mmpi_rank *self, const struct mmpi_win_core *core, int r);

/* Whether some member of the window has failed; the calling rank is then told of each failed
 * member (an unlock_all or flush_all reports them). Owning rank only; lock-free. */
bool mmpi_osc_any_member_failed(struct mmpi_rank *self, const struct mmpi_win_core *core);

/* The sticky rule of process failures on a window (Process Fault Tolerance, one-sided
 * sections): once a call on w raised MPI_ERR_PROC_FAILED at this process, every later call on
 * w here raises it too, until w is freed ("all subsequent operations on the lock must raise
 * MPI_ERR_PROC_FAILED"), or MPI_ERR_REVOKED once w is revoked: revocation wins. Filters a
 * call's result err (w may be NULL: no window): MPI_SUCCESS and MPI_ERR_RMA_SYNC (the epoch
 * the failure kept from opening) become the sticky class; other errors stay. Calls that end
 * an epoch still end it and then report. Owning rank only. */
struct mmpi_win;
int mmpi_osc_sticky(struct mmpi_win *w, int err);
/* Before a call that opens an epoch (Win_lock, Win_lock_all, Win_start, Win_post): the
 * sticky class when the rule above applies (the call then opens nothing), else MPI_SUCCESS.
 * Owning rank only. */
int mmpi_osc_epoch_refused(const struct mmpi_win *w);

#endif
