/*
 * coll/progress.h: nonblocking collectives progress without their owner polling them
 * (MPI-4.1 §6.12). In the direct and shared modes (coll.h) a member's part includes reading
 * the others' buffers, and they wait for it; a member blocked in another call (an MPI_Recv
 * whose sender first waits for the collective) must still do that part. So every engine
 * request in progress is on its owner's pending list, and every blocking wait of the owner
 * (runtime/wait.c, before it sleeps) runs the steps that can run (mmpi_coll_progress). The
 * board wakes members whenever a step may have become possible.
 */
#ifndef MMPI_COLL_PROGRESS_H
#define MMPI_COLL_PROGRESS_H

#include <stdbool.h>

struct mmpi_coll;
struct mmpi_rank;

/* Runs the steps of self's pending nonblocking collectives that can run now, completing those
 * that end. Any thread of self, in a blocking wait; never blocks. */
void mmpi_coll_progress(struct mmpi_rank *self);

/* The engine's side (engine.c). x->req and x->self set. */
void mmpi_coll_pending_add(struct mmpi_coll *x);
/* Takes the right to run x's steps; false if another thread has it. */
bool mmpi_coll_pending_claim(struct mmpi_coll *x);
void mmpi_coll_pending_unclaim(struct mmpi_coll *x);
/* x is over: off the list (claimed by the caller, or never progressed again). */
void mmpi_coll_pending_remove(struct mmpi_coll *x);
/* engine.c: the steps of a claimed x; true when over, x's request then completed and x no
 * longer to be touched. */
bool mmpi_coll_nonblocking_step(struct mmpi_coll *x);

#endif
