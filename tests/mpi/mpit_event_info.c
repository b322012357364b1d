/*
 * mpit_event_info: the info arguments of the event calls (MPI-4.1 §15.3.8,
 * docs/tools-interface.md). A registration's and a callback's get_info return a new info
 * object with the hints given (set_info adds and replaces keys), the registration's always
 * with mini_mpi_queue_length, whose value in force it shows (a bad value is ignored); a bad
 * info handle or safety level is MPI_T_ERR_INVALID. Then the key is honoured under the fault
 * injector (MINI_MPI_FAULTS kills ranks 1, 2 and 3 at their first call after the first
 * barrier): every survivor, waiting for the three deaths without entering MPI, holds their
 * mini_mpi_injected_death instances in each registration whose only callback is
 * MPI_T_CB_REQUIRE_NONE; at its next MPI_T call a registration with the default length runs 3
 * callbacks, one given length 2 at alloc runs 2 and tells its dropped handler 1, one set to 1
 * by set_info runs 1 and drops 2.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mini_mpi_inject.h"
#include "mtest.h"

enum { DEFAULT, ALLOC2, SET1, NREGS };
static int calls[NREGS], dropped[NREGS], victims[NREGS];

static void on_death(MPI_T_event_instance e, MPI_T_event_registration r, MPI_T_cb_safety s,
                     void *which)
{
    int v;
    CHECK(MPI_T_event_read(e, 0, &v) == MPI_SUCCESS);
    calls[*(int *)which]++;
    victims[*(int *)which] |= 1 << v;
}

static void on_dropped(MPI_Count count, MPI_T_event_registration r, int source, MPI_T_cb_safety s,
                       void *which)
{
    dropped[*(int *)which] += (int)count;
}

/* The value of key in info ("" if absent), and the number of keys. */
static int lookup(MPI_Info info, const char *key, char *value)
{
    int nkeys, flag = 0;
    MPI_Info_get_nkeys(info, &nkeys);
    MPI_Info_get(info, key, 63, value, &flag);
    if (!flag)
        value[0] = 0;
    return nkeys;
}

static MPI_Info info_of(const char *k1, const char *v1, const char *k2, const char *v2)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, k1, v1);
    if (k2)
        MPI_Info_set(info, k2, v2);
    return info;
}

/* The registration's hints: number of keys, and the values of two keys. */
static int reg_hints(MPI_T_event_registration reg, const char *key, char *value, char *queue)
{
    MPI_Info used = MPI_INFO_NULL;
    CHECK(MPI_T_event_handle_get_info(reg, &used) == MPI_SUCCESS && used != MPI_INFO_NULL);
    int n = lookup(used, "mini_mpi_queue_length", queue);
    lookup(used, key, value);
    MPI_Info_free(&used);
    return n;
}

static int cb_hints(MPI_T_event_registration reg, int safety, const char *key, char *value)
{
    MPI_Info used = MPI_INFO_NULL;
    CHECK(MPI_T_event_callback_get_info(reg, safety, &used) == MPI_SUCCESS &&
          used != MPI_INFO_NULL);
    int n = lookup(used, key, value);
    MPI_Info_free(&used);
    return n;
}

static void api_checks(int death)
{
    char v[64], q[64];
    MPI_T_event_registration reg, plain;
    MPI_Info info = info_of("color", "blue", "mini_mpi_queue_length", "2"), bad;

    CHECK(MPI_T_event_handle_alloc(death, NULL, info, &reg) == MPI_SUCCESS);
    MPI_Info_free(&info);
    CHECK(reg_hints(reg, "color", v, q) == 2 && !strcmp(v, "blue") && !strcmp(q, "2"));
    info = info_of("color", "red", "mini_mpi_queue_length", "0"); /* 0: out of range */
    MPI_Info_set(info, "shape", "round");
    CHECK(MPI_T_event_handle_set_info(reg, info) == MPI_SUCCESS);
    MPI_Info_free(&info);
    CHECK(reg_hints(reg, "color", v, q) == 3 && !strcmp(v, "red") && !strcmp(q, "2"));
    CHECK(reg_hints(reg, "shape", v, q) == 3 && !strcmp(v, "round"));
    CHECK(MPI_T_event_handle_alloc(death, NULL, MPI_INFO_NULL, &plain) == MPI_SUCCESS);
    CHECK(reg_hints(plain, "color", v, q) == 1 && !v[0] && !strcmp(q, "256"));
    /* A freed info handle names nothing. */
    MPI_Info_create(&bad);
    MPI_Info tmp = bad;
    MPI_Info_free(&tmp);
    CHECK(MPI_T_event_handle_set_info(reg, bad) == MPI_T_ERR_INVALID);
    CHECK(MPI_T_event_handle_alloc(death, NULL, bad, &plain) == MPI_T_ERR_INVALID);
    CHECK(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_NONE, bad) == MPI_T_ERR_INVALID);
    CHECK(MPI_T_event_handle_get_info(reg, NULL) == MPI_T_ERR_INVALID);

    /* A callback's hints: those it was registered with, then set_info's added. */
    info = info_of("a", "1", NULL, NULL);
    CHECK(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, info, NULL, on_death) ==
          MPI_SUCCESS);
    MPI_Info_free(&info);
    CHECK(cb_hints(reg, MPI_T_CB_REQUIRE_NONE, "a", v) == 1 && !strcmp(v, "1"));
    info = info_of("b", "2", "a", "3");
    CHECK(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_NONE, info) == MPI_SUCCESS);
    MPI_Info_free(&info);
    CHECK(cb_hints(reg, MPI_T_CB_REQUIRE_NONE, "a", v) == 2 && !strcmp(v, "3"));
    CHECK(cb_hints(reg, MPI_T_CB_REQUIRE_NONE, "b", v) == 2 && !strcmp(v, "2"));
    CHECK(cb_hints(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, "a", v) == 0);
    CHECK(MPI_T_event_callback_set_info(reg, 99, MPI_INFO_NULL) == MPI_T_ERR_INVALID);
    CHECK(MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_NONE, NULL) == MPI_T_ERR_INVALID);
    /* Registering the level's callback again replaces its hints. */
    CHECK(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL,
                                        on_death) == MPI_SUCCESS);
    CHECK(cb_hints(reg, MPI_T_CB_REQUIRE_NONE, "a", v) == 0);
    CHECK(MPI_T_event_handle_free(reg, NULL, NULL) == MPI_SUCCESS);
    CHECK(MPI_T_event_handle_free(plain, NULL, NULL) == MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int provided, rank, size, death, ids[NREGS] = {DEFAULT, ALLOC2, SET1};
    MPI_T_event_registration regs[NREGS];
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_T_event_get_index("mini_mpi_injected_death", &death) == MPI_SUCCESS);
    api_checks(death);

    MPI_Info two = info_of("mini_mpi_queue_length", "2", NULL, NULL),
             one = info_of("mini_mpi_queue_length", "1", NULL, NULL);
    CHECK(MPI_T_event_handle_alloc(death, NULL, MPI_INFO_NULL, &regs[DEFAULT]) == MPI_SUCCESS);
    CHECK(MPI_T_event_handle_alloc(death, NULL, two, &regs[ALLOC2]) == MPI_SUCCESS);
    CHECK(MPI_T_event_handle_alloc(death, NULL, MPI_INFO_NULL, &regs[SET1]) == MPI_SUCCESS);
    CHECK(MPI_T_event_handle_set_info(regs[SET1], one) == MPI_SUCCESS);
    MPI_Info_free(&two);
    MPI_Info_free(&one);
    for (int i = 0; i < NREGS; i++) {
        CHECK(MPI_T_event_register_callback(regs[i], MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &ids[i],
                                            on_death) == MPI_SUCCESS);
        CHECK(MPI_T_event_set_dropped_handler(regs[i], on_dropped) == MPI_SUCCESS);
    }

    MPI_Barrier(MPI_COMM_WORLD); /* ranks 1 to 3 die at their next call */
    if (rank >= 1 && rank <= 3)
        MPI_Barrier(MPI_COMM_WORLD);
    /* No MPI call until all three are dead: their instances wait in the queues. */
    for (int ms = 0; mini_mpi_injected_deaths() < 3 && ms < 20000; ms++)
        usleep(1000);
    CHECK(mini_mpi_injected_deaths() == 3); /* the injector ran (MINI_MPI_FAULTS) */
    CHECK(calls[DEFAULT] == 0 && calls[ALLOC2] == 0 && calls[SET1] == 0);
    int n;
    MPI_T_event_get_num(&n); /* an MPI_T call: delivers them */
    if (calls[DEFAULT] != 3 || calls[ALLOC2] != 2 || dropped[ALLOC2] != 1 || calls[SET1] != 1 ||
        dropped[SET1] != 2)
        printf("rank %d: calls %d %d %d, dropped %d %d %d\n", rank, calls[DEFAULT], calls[ALLOC2],
               calls[SET1], dropped[DEFAULT], dropped[ALLOC2], dropped[SET1]);
    CHECK(calls[DEFAULT] == 3 && dropped[DEFAULT] == 0 && victims[DEFAULT] == 0xe);
    CHECK(calls[ALLOC2] == 2 && dropped[ALLOC2] == 1);
    CHECK(calls[SET1] == 1 && dropped[SET1] == 2);
    for (int i = 0; i < NREGS; i++)
        MPI_T_event_handle_free(regs[i], NULL, NULL);

    MPI_T_finalize();
    return mtest_finish();
}
