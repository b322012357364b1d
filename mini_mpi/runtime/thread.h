/*
 * thread.h: the registry of a rank's threads, for the hang detector (runtime/hang.c). Every
 * thread that belongs to a rank (its main thread, and threads it creates) has one record on the
 * rank's list, saying whether it is asleep in an MPI wait, on which wake-word value, since when,
 * in which MPI call, and how to describe what it waits for.
 *
 * A sleeping thread's record moves through states with compare-and-swap, so that the detector
 * can *freeze* a sleeper: a frozen thread that wakes parks before touching anything, which keeps
 * the wait's arguments (on the sleeper's stack) stable while the detector describes them.
 */
#ifndef MMPI_RUNTIME_THREAD_H
#define MMPI_RUNTIME_THREAD_H

#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mmpi_rank;

enum mmpi_thread_state {
    MMPI_THREAD_UNUSED = 0,  /* record free for reuse (its thread ended) */
    MMPI_THREAD_RUNNING,     /* anywhere but asleep in an MPI wait */
    MMPI_THREAD_ASLEEP,      /* in mmpi_wait_until's futex sleep (or just woken from it) */
    MMPI_THREAD_FROZEN,      /* asleep, and held there by the hang detector */
    MMPI_THREAD_PARKED,      /* its rank failed: stopped until the world ends, touching nothing
                              * (ranks_as_threads.c); set by the thread itself, from RUNNING */
};

/* Writes one line (no newline) saying what the wait with argument arg is waiting for. */
typedef void mmpi_wait_describe_fn(const void *arg, char *buf, size_t len);

struct mmpi_thread {
    struct mmpi_rank *rank;          /* immutable while in use */
    int state;                       /* atomic: enum mmpi_thread_state */
    int call;                        /* atomic: the last MPI call the thread entered, or -1 */
    /* Atomic, relaxed: the wake-word value it sleeps on, written before the seq_cst store of
     * ASLEEP that publishes it. The monitor may read it while the thread wakes and sleeps again
     * (it then sees either value); its rule needs no more, since it trusts only two equal
     * looks confirmed with the sleepers frozen (hang.c). */
    uint32_t seen;
    /* Atomic (__atomic_load/__atomic_store), relaxed: mmpi_now() when the current wait began
     * to sleep; the monitor reads it for its report and the long-sleeper test, where a value
     * one wait old is harmless. */
    double since;
    mmpi_wait_describe_fn *describe; /* the current wait's describer (may be NULL) */
    const void *arg;                 /* the current wait's argument */
    struct mmpi_thread *next;        /* rank's list; immutable once linked */
    /* A thread a rank creates: its start routine and argument, written by the creator before
     * pthread_create, read once by the new thread (runtime/interpose.c). */
    void *(*start)(void *);
    void *start_arg;
};

/* The calling thread's record, NULL in threads that belong to no rank. */
extern __thread struct mmpi_thread *mmpi_thread_self __attribute__((tls_model("initial-exec")));

/* A record for a thread of `rank` about to start, RUNNING from now on: the creator reserves it
 * before creating the thread, so that the detector never sees a rank whose new thread exists
 * but is not counted yet. */
struct mmpi_thread *mmpi_thread_reserve(struct mmpi_rank *rank);
/* The calling thread takes the reserved record t (sets mmpi_thread_self). */
void mmpi_thread_adopt(struct mmpi_thread *t);
/* Frees a record: its thread ended (or was never created). */
void mmpi_thread_release(struct mmpi_thread *t);
/* The calling thread ends: its record becomes free. Safe to call when not attached. */
void mmpi_thread_detach(void);
/* The calling thread stops for good (its rank failed): its record says PARKED, published after
 * every access it made to shared state. */
void mmpi_thread_park_self(void);
/* Where the calling thread of a rank ends without unwinding its stack (set by the thread's start
 * routine around the user's code, NULL outside it): a failed rank's threads, released at world
 * end, jump there instead of calling pthread_exit, whose forced unwinding would run the C++
 * destructors of a rank that was killed (a killed process runs none) and, from a destructor
 * that calls MPI again, std::terminate the whole job. */
extern __thread jmp_buf *mmpi_thread_end_jump;
/* Whether every thread of `rank` is parked or gone: none can touch shared state any more. */
bool mmpi_thread_all_parked(struct mmpi_rank *rank);
/* Frees every record of a rank (world end). */
void mmpi_thread_free_all(struct mmpi_rank *rank);

/* Starts one of the library's own threads (a rank's, the hang monitor, the injector's timer):
 * it belongs to no rank, and a sanitizer the program was built with sees it start
 * (runtime/interpose.c). Returns 0 or an errno value, like pthread_create. */
int mmpi_thread_create_unowned(pthread_t *thread, const pthread_attr_t *attr,
                               void *(*start)(void *), void *arg);

/* Entry of an MPI call: remembered for the hang report. */
static inline void mmpi_thread_note_call(int call)
{
    struct mmpi_thread *t = mmpi_thread_self;
    if (t)
        __atomic_store_n(&t->call, call, __ATOMIC_RELAXED);
}

#endif
