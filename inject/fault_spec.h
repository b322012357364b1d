/*
 * fault_spec.h: MINI_MPI_FAULTS, the fault spec, shared by the library (inject/inject.c) and by
 * the PMPI injector for other MPIs (inject/pmpi/). It owns the syntax, the parsed plan, the
 * `random` draw (so the same seed kills the same ranks at the same calls everywhere) and the
 * rule that decides which directive fires at an MPI entry. It does not own the counters, the
 * deaths or the timer: each side keeps those (a rank-thread here, a process there).
 * Directives, separated by `;`:
 *   kill R at CALL[#N]     on entering its N-th call of CALL (the call has no effect)
 *   kill R after CALL[#N]  once that call has returned (at its next MPI entry, or at its end)
 *   kill R during CALL[#N] inside a collective CALL (the library only: it cuts the collective)
 *   kill R at T ms|us      T after its MPI_Init returned
 *   kill random K [seed S] [within N|FILE]
 *                          K distinct ranks, each at its N-th MPI call, drawn from seed S: N
 *                          uniform in [1, 32], in [1, N], or in [1, the rank's total of calls
 *                          in FILE] (a MINI_MPI_CALL_COUNTS file of an earlier run)
 * R.k names the k-th restarted incarnation of launcher rank R in call directives (the library
 * only, MPIX_Comm_restart_rank); plain R is the rank as started.
 * CALL is an MPI function name (mini_mpi/calls.def) or `any`.
 */
#ifndef MMPI_FAULT_SPEC_H
#define MMPI_FAULT_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calls.h"

enum mmpi_fault_when {
    MMPI_FAULT_AT_CALL,
    MMPI_FAULT_AFTER_CALL,
    MMPI_FAULT_DURING_CALL,
    MMPI_FAULT_AT_TIME,
};

#define MMPI_FAULT_ANY_CALL (-1)

struct mmpi_fault {
    int rank;          /* world rank; with incarnation > 0: rank of the launcher's world */
    int when;          /* enum mmpi_fault_when */
    int call;          /* enum mmpi_call, or MMPI_FAULT_ANY_CALL */
    uint32_t nth;      /* 1-based occurrence of the call */
    uint64_t time_ns;  /* MMPI_FAULT_AT_TIME: delay after MPI_Init returned */
    int incarnation;   /* 0: the rank as started; k: its k-th restart (`kill R.k ...`,
                        * MPIX_Comm_restart_rank; the library only) */
};

struct mmpi_fault_plan {
    int n;                       /* published with release order after faults (appends) */
    struct mmpi_fault *faults;   /* owned; an append publishes a grown copy */
    /* What an append does with the array it replaced: NULL frees it at once (no reader runs
     * concurrently: the PMPI injector, a launch-time parse); the library, whose rank-threads
     * read while mini_mpi_arm appends, frees it after an RCU grace period. */
    void (*retire)(struct mmpi_fault *old);
};

/* What the parser accepts beyond the common syntax. */
enum mmpi_fault_dialect {
    MMPI_FAULT_DIALECT_MINI_MPI, /* everything; ranks up to the universe size (spawn) */
    MMPI_FAULT_DIALECT_REAL_MPI, /* no `during`, ranks of MPI_COMM_WORLD only */
};

/* Parses spec for a world of nranks started by the launcher in a universe of `universe`
 * (>= nranks): call directives may name ranks up to universe - 1, i.e. ranks MPI_Comm_spawn
 * will add, numbered on in spawn order; time and random directives name the nranks only. On
 * error prints one line naming the bad token and returns false. An empty or blank spec gives
 * an empty plan. */
bool mmpi_fault_plan_parse(const char *spec, int nranks, int universe,
                           struct mmpi_fault_plan *plan);
/* Adds directives at run time (the C API); same syntax. On error writes one line (without the
 * "mini_mpi: " prefix) to error and returns false; directives before the bad one are kept. */
bool mmpi_fault_plan_append(struct mmpi_fault_plan *plan, const char *spec, int nranks,
                            int universe, char *error, size_t error_len);
/* The same, in a dialect. */
bool mmpi_fault_plan_append_dialect(struct mmpi_fault_plan *plan, const char *spec, int nranks,
                                    int universe, enum mmpi_fault_dialect dialect, char *error,
                                    size_t error_len);

/* The rule of a call directive: the index of the first directive at or after `from` that fires
 * for the rank entering `call` (incarnation 0: `rank` is its world rank; k > 0: the launcher's
 * rank it restarts), which is its n_call-th entry of that call and its
 * n_any-th MPI entry of any kind; -1 when none does. Time directives never match. Callers loop
 * (from = index + 1) because several may fire at one entry (an `after` and an `at`). Reads the
 * plan with acquire order, so it may run while another thread appends. */
int mmpi_fault_plan_match(const struct mmpi_fault_plan *plan, int from, int rank,
                          int incarnation, enum mmpi_call call, uint32_t n_call, uint32_t n_any);

#endif
