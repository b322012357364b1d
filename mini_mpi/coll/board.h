/*
 * board.h: the rendezvous every collective is built on. Ranks share one address space, so a
 * collective needs no messages: each member *deposits* a pointer (to its buffers and
 * arguments) on the communicator's board under the collective's sequence number, waits until
 * every member has arrived, reads the others' deposits directly (one copy, by the reader), and
 * then waits until every member has finished reading before its own buffers may change.
 *
 * Failure-aware by construction (docs/design.md "The fault layer"): a wait completes with
 * MPI_ERR_PROC_FAILED when a
 * member has failed without arriving (arrival) or while others still read (departure never waits
 * for the dead). A member that arrived and then died leaves a deposit that stays readable: rank
 * memory is never unmapped while the world runs.
 *
 * Instances are created by the first arriver and freed by the last member to leave, so any
 * number of nonblocking collectives may be outstanding on one communicator. A failed member
 * never leaves: an instance is also freed once every member that has not left has failed and
 * can no longer touch it (all its threads parked, runtime/thread.h), by a leaver or by the
 * next arriver that creates an instance; otherwise a communicator with a dead member would
 * keep every later instance, and arrivals would scan an ever longer list.
 */
#ifndef MMPI_COLL_BOARD_H
#define MMPI_COLL_BOARD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct mmpi_comm_core;
struct mmpi_rank;

struct mmpi_board_instance {
    uint64_t seq;                       /* immutable: the collective's number on the comm */
    int arrived;                        /* atomic */
    int complete;                       /* atomic: all arrived and the combine step (if any) ran */
    void *result;                       /* written by the combine step before `complete` */
    int departed;                       /* atomic: how many members departed */
    uint8_t *departed_flags;            /* [comm size], atomic bytes: which ones */
    uint8_t *left_flags;                /* [comm size], board lock: which members left */
    int users;                          /* board lock: members that have not left */
    int cut;                            /* atomic: 1 + member killed `during` this collective
                                         * (inject.h): members above it fail, 0 = none */
    uintptr_t sig;                      /* board lock: the first arriver's signature, 0 = none */
    int first, first_call;              /* board lock: the first arriver and its MPI call */
    int mismatch;                       /* atomic: members called different collectives as
                                         * this one; nobody combines or reads deposits */
    struct mmpi_board_instance *next;   /* board lock */
    const void *deposit[];              /* [comm size]; NULL until the member arrives */
};

/* Member i's deposit (NULL if it deposited NULL or has not arrived). */
const void *mmpi_board_deposit(const struct mmpi_board_instance *inst, int i);

struct mmpi_fast_line;
struct mmpi_crowd;

struct mmpi_board {
    pthread_mutex_t lock;
    struct mmpi_fast_line *fast;        /* atomic, set once under lock: fast.c's member lines */
    struct mmpi_crowd *crowd;           /* atomic, set once under lock: crowd.c's block */
    struct mmpi_board_instance *instances;
    struct mmpi_board_instance *spare;  /* lock: a freed instance kept for reuse, or NULL */
};

struct mmpi_board *mmpi_board_new(void);
void mmpi_board_free(struct mmpi_board *board);

/* Deposits `deposit` as member `me` of collective `seq` and counts the arrival; the last
 * arriver runs `combine` (may be NULL) on the full board, which may set inst->result, then
 * marks the instance complete and wakes every member. Returns the instance. */
typedef void mmpi_board_combine_fn(struct mmpi_board_instance *inst,
                                   struct mmpi_comm_core *core);
struct mmpi_board_instance *mmpi_board_arrive(struct mmpi_comm_core *core, uint64_t seq, int me,
                                              const void *deposit,
                                              mmpi_board_combine_fn *combine);
/* The same with the collective's signature given: members whose signatures differ called
 * different collectives as number `seq` (an erroneous program, MPI-4.1 §6.12). Then no combine
 * runs, nobody may read a deposit, one line on stderr names both calls, and every member's
 * arrival wait returns MPI_ERR_OTHER. mmpi_board_arrive signs with `combine` itself; the
 * collective engine, which has one combine for all, signs with the algorithm. */
struct mmpi_board_instance *mmpi_board_arrive_signed(struct mmpi_comm_core *core, uint64_t seq,
                                                     int me, const void *deposit,
                                                     mmpi_board_combine_fn *combine,
                                                     uintptr_t sig);
/* Whether the members called different collectives (see above). */
bool mmpi_board_mismatched(const struct mmpi_board_instance *inst);
/* After a failed arrival wait: whether the instance completed after all. Reads `complete`
 * under the board lock, so that a combine cannot be running meanwhile. */
bool mmpi_board_completed_after_all(struct mmpi_comm_core *core,
                                    struct mmpi_board_instance *inst);
/* The outcome of a step whose combine leaves its result in inst->result (communicator
 * creation, spawn), once the arrival wait returned wait_err: wait_err if the instance never
 * completed; MPI_ERR_OTHER after a mismatch, MPI_ERR_REVOKED if the combine saw a revoke (no
 * result either way); MPI_SUCCESS when inst->result is there to read. */
int mmpi_board_result_outcome(struct mmpi_comm_core *core, struct mmpi_board_instance *inst,
                              int wait_err);
/* Non-blocking check of arrival: MPI_SUCCESS when all arrived, MPI_ERR_REVOKED when the
 * communicator was revoked, MPI_ERR_PROC_FAILED when a member failed without arriving, -1 when
 * still waiting. */
int mmpi_board_test_arrived(struct mmpi_rank *self, struct mmpi_comm_core *core,
                            struct mmpi_board_instance *inst);
/* Whether the calling member is above the cut of a `kill during` victim (inject.h), whose death
 * it has seen: its part of the collective fails even if the instance completed. */
bool mmpi_board_cut_excludes(struct mmpi_rank *self, struct mmpi_comm_core *core,
                             struct mmpi_board_instance *inst);
/* Blocking form of the above. */
int mmpi_board_wait_arrived(struct mmpi_rank *self, struct mmpi_comm_core *core,
                            struct mmpi_board_instance *inst);
/* Counts this member as done reading. */
void mmpi_board_depart(struct mmpi_comm_core *core, struct mmpi_board_instance *inst, int me);
/* True once every member that is still alive has departed (the caller's buffers are free). */
bool mmpi_board_test_departed(struct mmpi_rank *self, struct mmpi_comm_core *core,
                              struct mmpi_board_instance *inst);
void mmpi_board_wait_departed(struct mmpi_rank *self, struct mmpi_comm_core *core,
                              struct mmpi_board_instance *inst);
/* After the departure wait: whether a member never departed (so it failed), telling the
 * calling rank of each such member. */
bool mmpi_board_departure_missing(struct mmpi_rank *self, struct mmpi_comm_core *core,
                                  struct mmpi_board_instance *inst);
/* Fault-tolerant completion, for agreement and shrink (never interrupted by revoke): settled
 * once every member has arrived or failed; whoever sees that first runs `combine` (once), with
 * failed members' deposits absent (mmpi_board_arrived false). MPI_SUCCESS or -1 (waiting). */
int mmpi_board_test_settled(struct mmpi_comm_core *core, struct mmpi_board_instance *inst,
                            mmpi_board_combine_fn *combine);
void mmpi_board_wait_settled(struct mmpi_rank *self, struct mmpi_comm_core *core,
                             struct mmpi_board_instance *inst, mmpi_board_combine_fn *combine);
/* Whether member i has arrived (its deposit is on the board). */
bool mmpi_board_arrived(const struct mmpi_board_instance *inst, int i);

/* The calling rank has been told that the failed members that did not arrive have failed
 * (after an MPI_ERR_PROC_FAILED, an agreement or a shrink). */
void mmpi_board_notice_missing(struct mmpi_rank *self, struct mmpi_comm_core *core,
                               struct mmpi_board_instance *inst);

/* Drops member `me`'s use of the instance (its last touch of it); the last one frees it. */
void mmpi_board_leave(struct mmpi_comm_core *core, struct mmpi_board_instance *inst, int me);

/* The one-line report of members that called different collectives as collective #number
 * (counted from 1; ft: among the fault-tolerant ones), by `member`, naming member `first`'s
 * call; for board.c, fast.c and crowd.c. */
void mmpi_board_print_mismatch(int member, int size, const char *call, bool ft,
                               uint64_t number, int first, const char *first_call);
/* The hang monitor's text for a collective waiting on the members `missing` selects:
 * "collective #N on COMM, waiting for ranks to STAGE: 3 5", N counted from 1 (agreement and
 * shrink apart, as "fault-tolerant collective #N": seq has bit 63 set, ulfm/ulfm.h). */
void mmpi_board_describe(struct mmpi_rank *self, struct mmpi_comm_core *core, uint64_t seq,
                         const char *stage, bool (*missing)(const void *arg, int i),
                         const void *arg, char *buf, size_t len);

/* How many instances are on the board (unit tests: instances must not leak). */
int mmpi_board_count(struct mmpi_comm_core *core);

#endif
