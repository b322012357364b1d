/*
 * inject.h: the fault injector (docs/design.md "Fault injection and determinism"). MINI_MPI_FAULTS
 * is parsed once at launch, by the
 * parser shared with the PMPI injector (inject/fault_spec.h), into a plan of directives, each
 * naming a rank of the job (the launcher's 0..N-1, then spawned ranks in spawn order, up to the
 * universe size) and where it dies:
 *   kill R at CALL[#N]     on entering its N-th call of CALL (the call has no effect)
 *   kill R after CALL[#N]  once that call has returned (at its next MPI entry, before any effect,
 *                          or as main returns)
 *   kill R during CALL[#N] inside a collective CALL, right after R has arrived on the
 *                          collective's board: members ranked below R in the communicator
 *                          complete it (with R's contribution), members ranked above R get
 *                          MPI_ERR_PROC_FAILED; agreement and shrink stay uniform. A call that
 *                          never reaches a board (a size-1 shortcut) makes R die at its next
 *                          MPI entry instead.
 *   kill R at T ms|us      T after its MPI_Init returned, wherever it is
 *   kill random K [seed S] K distinct ranks, each at its N-th MPI call, N drawn from seed S
 * R.k names the k-th restarted incarnation of launcher rank R (MPIX_Comm_restart_rank) in call
 * directives; plain R is the rank as started (incarnation 0).
 * CALL is an MPI function name or `any`. Deaths look exactly like a rank that raised SIGKILL:
 * the rank fails in the ULFM sense with status 137.
 */
#ifndef MMPI_INJECT_INJECT_H
#define MMPI_INJECT_INJECT_H

#include <stdbool.h>
#include <stdint.h>

#include "calls.h"
#include "fault_spec.h" /* the spec, the plan and its parser: shared with inject/pmpi/ */

struct mmpi_rank;
struct mmpi_world;

/* True when any directive is armed: MPI entry points call mmpi_inject_on_enter only then. */
extern bool mmpi_inject_active;

/* The plan's retire hook once ranks may read it (launch_config.c sets it after the launch-time
 * parse): frees a replaced directive array after an RCU grace period. Not inside a read-side
 * section; mini_mpi_arm calls it (through the append) with only its own mutex held. */
void mmpi_inject_retire_directives(struct mmpi_fault *old);
/* Counts an MPI entry of the calling rank and kills it if a directive says so. */
void mmpi_inject_on_enter(struct mmpi_rank *self, enum mmpi_call call);
/* Called by a rank arriving on a collective board: true if a `during` directive is armed for
 * it (the rank then records the cut and calls mmpi_inject_die_during after arriving). */
bool mmpi_inject_during_armed(const struct mmpi_rank *self);
/* Kills the calling rank for its armed `during` directive. Never returns. */
__attribute__((noreturn)) void mmpi_inject_die_during(struct mmpi_rank *self);
/* The rank's main returned: a `kill after` (or `during`) still pending kills it now. */
void mmpi_inject_die_if_pending(struct mmpi_rank *self);

/* MPI_Init returned at this rank: starts its clock for time directives. */
void mmpi_inject_init_done(struct mmpi_rank *self);
/* Starts and stops the injector of a world (the timer thread for time directives). */
void mmpi_inject_world_start(struct mmpi_world *w);
void mmpi_inject_world_stop(struct mmpi_world *w);
/* Whether a timed death (`kill R at T ms`) may still happen: a rank it names is running. */
bool mmpi_inject_timer_pending(struct mmpi_world *w);

#endif
