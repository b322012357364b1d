/*
 * test_fault.c: the fault layer (fault/fault.h) on its own: the registry of live cores, the
 * generic revoke of linked cores (and of those only), the death hook run for the
 * cores a dead rank belongs to, and, inside a world where a rank really died, the queries, the
 * cut rule and the missing-member rule. Rank bodies record what they saw in per-rank slots;
 * assertions run on the test's own thread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "fault/fault.h"
#include "unit_world.h"

/* ---- Registry and revoke, without a world ------------------------------------------------ */

static int deaths_seen[16]; /* [core size * 2 + member] */

static void count_death(struct mmpi_fault_core *fc, int member)
{
    deaths_seen[fc->size * 2 + member]++;
}

static const struct mmpi_fault_ops test_ops = {"test object", count_death};

static void registry_counts_live_cores(void **state)
{
    (void)state;
    static const int ranks[3] = {4, 5, 6};
    struct mmpi_fault_core a, b;
    int before = mmpi_fault_registered_count();
    mmpi_fault_core_register(&a, NULL, 3, ranks);
    mmpi_fault_core_register(&b, NULL, 2, ranks);
    assert_int_equal(mmpi_fault_registered_count(), before + 2);
    mmpi_fault_core_unregister(&a);
    assert_int_equal(mmpi_fault_registered_count(), before + 1);
    mmpi_fault_core_unregister(&a); /* twice: harmless */
    mmpi_fault_core_unregister(&b);
    assert_int_equal(mmpi_fault_registered_count(), before);
}

static void death_hook_runs_for_member_cores_only(void **state)
{
    (void)state;
    static const int r1[1] = {7}, r2[2] = {3, 7}, r3[3] = {1, 2, 3};
    struct mmpi_fault_core c1, c2, c3;
    memset(deaths_seen, 0, sizeof deaths_seen);
    mmpi_fault_core_register(&c1, &test_ops, 1, r1);
    mmpi_fault_core_register(&c2, &test_ops, 2, r2);
    mmpi_fault_core_register(&c3, &test_ops, 3, r3);
    mmpi_fault_registry_death(7);
    assert_int_equal(deaths_seen[1 * 2 + 0], 1); /* c1, member 0 */
    assert_int_equal(deaths_seen[2 * 2 + 1], 1); /* c2, member 1 */
    int total = 0;
    for (int i = 0; i < 16; i++)
        total += deaths_seen[i];
    assert_int_equal(total, 2); /* c3 does not hold world rank 7 */
    mmpi_fault_core_unregister(&c1);
    mmpi_fault_core_unregister(&c2);
    mmpi_fault_core_unregister(&c3);
    mmpi_fault_registry_death(7); /* unregistered cores are never visited */
    assert_int_equal(deaths_seen[1 * 2 + 0], 1);
}

/* ---- Inside a world ------------------------------------------------------------------------ */

#define NRANKS 4
#define VICTIM 2

struct seen {
    int count, first, failed_members, failed_list[NRANKS];
    int cut_below, cut_above, cut_victim_alive;
    int outcome_missing_dead, outcome_missing_live, deferred_outside_wait;
    int revoked_self, revoked_linked, revoked_other;
};
static struct seen seen[NRANKS];
static struct mmpi_fault_core shared[3];
static int members[NRANKS] = {0, 1, 2, 3};

static bool missing_victim(const void *arg, int i)
{
    (void)arg;
    return i == VICTIM;
}
static bool missing_victim_and_3(const void *arg, int i)
{
    (void)arg;
    return i == VICTIM || i == 3;
}

static void body(int rank, int size, void *arg)
{
    (void)arg;
    struct mmpi_rank *self = mmpi_self;
    struct seen *s = &seen[rank];
    /* Before the death: the victim alive, so a cut waits for it. */
    s->cut_victim_alive = mmpi_fault_cut_outcome(self, 3, VICTIM, VICTIM);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == VICTIM)
        exit(5); /* a failure: the rank ends inside its MPI session */
    /* A receive from the victim ends once its death is published (no planned faults here,
     * so publication is immediate); the error is the failure's. */
    int x;
    (void)MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    (void)MPI_Recv(&x, 1, MPI_INT, VICTIM, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    s->count = mmpi_fault_count(self->world);
    s->first = mmpi_fault_order(self->world, 0);
    s->failed_members = mmpi_fault_failed_members(self->world, members, size, s->failed_list);
    s->cut_below = mmpi_fault_cut_outcome(self, 1, VICTIM, VICTIM);
    s->cut_above = mmpi_fault_cut_outcome(self, 3, VICTIM, VICTIM);
    s->deferred_outside_wait = mmpi_fault_report_deferred(self->world);
    s->outcome_missing_dead = mmpi_fault_missing_outcome(self, members, size, missing_victim,
                                                         NULL);
    /* Outside a blocking wait nothing is deferred: a live missing member does not hold the
     * report back. */
    s->outcome_missing_live = mmpi_fault_missing_outcome(self, members, size,
                                                         missing_victim_and_3, NULL);
    MPI_Barrier(MPI_COMM_WORLD); /* survivors only: the barrier reports the failure */
    /* Rank 0 revokes, then tells each survivor (a barrier would not wait for it: it reports
     * the victim's failure at once). */
    if (rank == 0) {
        mmpi_fault_revoke(self->world, &shared[0]);
        for (int r = 1; r < size; r++)
            if (r != VICTIM)
                (void)MPI_Send(&x, 0, MPI_INT, r, 1, MPI_COMM_WORLD);
    } else {
        (void)MPI_Recv(&x, 0, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    s->revoked_self = mmpi_fault_revoked(&shared[0]);
    s->revoked_linked = mmpi_fault_revoked(&shared[1]);
    s->revoked_other = mmpi_fault_revoked(&shared[2]);
}

static void world_with_a_death(void **state)
{
    (void)state;
    memset(seen, 0, sizeof seen);
    memset(deaths_seen, 0, sizeof deaths_seen);
    /* shared[0] (size 1) is linked to shared[1] (size 2); shared[2] (size 3) is not. */
    mmpi_fault_core_register(&shared[0], &test_ops, 1, members);
    mmpi_fault_core_register(&shared[1], &test_ops, 2, members);
    mmpi_fault_core_register(&shared[2], &test_ops, 3, members);
    mmpi_fault_core_link(&shared[0], &shared[1]);
    assert_int_equal(unit_world_run(NRANKS, body, NULL), 0);
    for (int r = 0; r < NRANKS; r++) {
        if (r == VICTIM)
            continue;
        struct seen *s = &seen[r];
        assert_int_equal(s->cut_victim_alive, MMPI_FAULT_CUT_WAIT);
        assert_int_equal(s->count, 1);
        assert_int_equal(s->first, VICTIM);
        assert_int_equal(s->failed_members, 1);
        assert_int_equal(s->failed_list[0], VICTIM);
        assert_int_equal(s->cut_below, MPI_SUCCESS);
        assert_int_equal(s->cut_above, MPI_ERR_PROC_FAILED);
        assert_false(s->deferred_outside_wait);
        assert_int_equal(s->outcome_missing_dead, MPI_ERR_PROC_FAILED);
        assert_int_equal(s->outcome_missing_live, MPI_ERR_PROC_FAILED);
        assert_true(s->revoked_self);
        assert_true(s->revoked_linked);
        assert_false(s->revoked_other);
    }
    /* The victim's publication ran the death hook of the one core that holds it. */
    assert_int_equal(deaths_seen[3 * 2 + VICTIM], 1);
    assert_int_equal(deaths_seen[1 * 2 + 0] + deaths_seen[2 * 2 + 0] + deaths_seen[2 * 2 + 1], 0);
    for (int i = 0; i < 3; i++)
        mmpi_fault_core_unregister(&shared[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry_counts_live_cores),
        cmocka_unit_test(death_hook_runs_for_member_cores_only),
        cmocka_unit_test(world_with_a_death),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
