/* session_basic.c: the Sessions Model's normal path (MPI-4.1 §11.3; docs/sessions.md). Each
 * rank opens sessions without MPI_Init (argument "sessions"), alongside it ("world": MPI_Init
 * first, MPI_Finalize before the last session), or first and then with it ("late-world":
 * MPI_Init after the first session, and a session after MPI_Finalize). It checks: session info
 * and thread level, the process sets and their info, groups and communicators from them (WORLD,
 * SELF, subgroups under one tag, two sessions at once), point-to-point, collectives,
 * constructors, attributes and hints on a session communicator, an intercommunicator from two
 * groups, MPI_Initialized staying false in sessions only, and a session opened again after the
 * others were finalized. */
#include <stdbool.h>

#include "session_test.h"

static int deletes; /* attribute delete callbacks run */

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    deletes++;
    return MPI_SUCCESS;
}

static int session_thread_level(MPI_Session s, char *value)
{
    MPI_Info info;
    int flag = 0;
    SCHECK(MPI_Session_get_info(s, &info) == MPI_SUCCESS);
    MPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL - 1, value, &flag);
    MPI_Info_free(&info);
    return flag;
}

static void check_psets(MPI_Session s, int size)
{
    int n = 0, world = 0, self = 0;
    SCHECK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n) == MPI_SUCCESS && n >= 2);
    for (int i = 0; i < n; i++) {
        char name[MPI_MAX_PSET_NAME_LEN], value[16];
        int len = 0, flag = 0;
        SCHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL) == MPI_SUCCESS);
        SCHECK(len > 1 && len <= MPI_MAX_PSET_NAME_LEN);
        SCHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name) == MPI_SUCCESS);
        SCHECK((int)strlen(name) + 1 == len);
        MPI_Info info;
        SCHECK(MPI_Session_get_pset_info(s, name, &info) == MPI_SUCCESS);
        MPI_Info_get(info, "mpi_size", sizeof value - 1, value, &flag);
        MPI_Info_free(&info);
        SCHECK(flag);
        if (!strcmp(name, "mpi://WORLD")) {
            world = 1;
            SCHECK(atoi(value) == size);
        }
        if (!strcmp(name, "mpi://SELF")) {
            self = 1;
            SCHECK(atoi(value) == 1);
        }
    }
    SCHECK(world && self);
    /* A short buffer gets a prefix and the full length (§11.3.2). */
    char small[6];
    int len = sizeof small;
    SCHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, small) == MPI_SUCCESS);
    SCHECK(strlen(small) == sizeof small - 1 && len > (int)sizeof small);
    /* The mpi:// names do not depend on case. */
    MPI_Group g;
    int gsize = 0;
    SCHECK(MPI_Group_from_session_pset(s, "MPI://world", &g) == MPI_SUCCESS);
    MPI_Group_size(g, &gsize);
    SCHECK(gsize == size);
    MPI_Group_free(&g);
}

/* Point-to-point, collectives, constructors, attributes and hints on a communicator of the
 * whole world made from a session. */
static void check_world_comm(MPI_Comm c, int size)
{
    int rank = -1, csize = 0, sum = 0;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &csize);
    SCHECK(rank == st_rank && csize == size);
    SCHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c) == MPI_SUCCESS);
    SCHECK(sum == size * (size - 1) / 2);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    SCHECK(MPI_Sendrecv(&rank, 1, MPI_INT, right, 3, &got, 1, MPI_INT, left, 3, c,
                        MPI_STATUS_IGNORE) == MPI_SUCCESS);
    SCHECK(got == left);
    int root_value = rank == 0 ? 77 : 0;
    SCHECK(MPI_Bcast(&root_value, 1, MPI_INT, 0, c) == MPI_SUCCESS && root_value == 77);
    SCHECK(MPI_Barrier(c) == MPI_SUCCESS);
    MPI_Comm dup, half;
    SCHECK(MPI_Comm_dup(c, &dup) == MPI_SUCCESS);
    SCHECK(MPI_Comm_split(dup, rank % 2, -rank, &half) == MPI_SUCCESS);
    int hsize = 0;
    MPI_Comm_size(half, &hsize);
    SCHECK(hsize == (size + 1 - rank % 2) / 2);
    MPI_Comm_free(&half);
    int keyval, value = 5;
    deletes = 0;
    SCHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &keyval, NULL) ==
           MPI_SUCCESS);
    SCHECK(MPI_Comm_set_attr(dup, keyval, &value) == MPI_SUCCESS);
    MPI_Comm_free(&dup);
    SCHECK(deletes == 1);
    MPI_Comm_free_keyval(&keyval);
}

static void check_hints(MPI_Group world)
{
    MPI_Info hints, used;
    MPI_Comm c;
    char value[16];
    int flag = 0;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "mpi_assert_no_any_tag", "true");
    SCHECK(MPI_Comm_create_from_group(world, "hints", hints, MPI_ERRORS_RETURN, &c) == MPI_SUCCESS);
    MPI_Info_free(&hints);
    SCHECK(MPI_Comm_get_info(c, &used) == MPI_SUCCESS);
    MPI_Info_get(used, "mpi_assert_no_any_tag", sizeof value - 1, value, &flag);
    SCHECK(flag && !strcmp(value, "true"));
    MPI_Info_free(&used);
    MPI_Comm_free(&c);
}

/* MPI_COMM_SELF's counterpart, and groups of several members under one tag: the even ranks and
 * the odd ranks each get their own communicator. */
static void check_subgroups(MPI_Session s, MPI_Group world, int size)
{
    MPI_Group self_group, parity;
    MPI_Comm self_comm, pc;
    int n = 0, x = 1, y = 0;
    SCHECK(MPI_Group_from_session_pset(s, "mpi://SELF", &self_group) == MPI_SUCCESS);
    self_comm = st_comm(self_group, "self");
    MPI_Comm_size(self_comm, &n);
    SCHECK(n == 1);
    SCHECK(MPI_Sendrecv(&x, 1, MPI_INT, 0, 1, &y, 1, MPI_INT, 0, 1, self_comm, MPI_STATUS_IGNORE) ==
               MPI_SUCCESS &&
           y == 1);
    MPI_Comm_free(&self_comm);
    MPI_Group_free(&self_group);

    int *members = malloc(sizeof(int) * (size_t)size), k = 0;
    for (int r = st_rank % 2; r < size; r += 2)
        members[k++] = r;
    MPI_Group_incl(world, k, members, &parity);
    pc = st_comm(parity, "parity");
    int sum = 0;
    SCHECK(MPI_Allreduce(&st_rank, &sum, 1, MPI_INT, MPI_SUM, pc) == MPI_SUCCESS);
    int expect = 0;
    for (int i = 0; i < k; i++)
        expect += members[i];
    SCHECK(sum == expect);
    MPI_Comm_free(&pc);
    MPI_Group_free(&parity);
    free(members);
}

/* Two groups, the low half and the high half, joined into an intercommunicator. */
static void check_intercomm(MPI_Group world, int size)
{
    if (size < 2)
        return;
    int n0 = size / 2, low[size], high[size];
    for (int i = 0; i < size; i++)
        (i < n0 ? low : high)[i < n0 ? i : i - n0] = i;
    MPI_Group lg, hg;
    MPI_Group_incl(world, n0, low, &lg);
    MPI_Group_incl(world, size - n0, high, &hg);
    bool mine_low = st_rank < n0;
    MPI_Comm inter, merged;
    SCHECK(MPI_Intercomm_create_from_groups(mine_low ? lg : hg, 0, mine_low ? hg : lg, 0, "halves",
                                            MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                            &inter) == MPI_SUCCESS);
    int is_inter = 0, rsize = 0, rank = -1;
    MPI_Comm_test_inter(inter, &is_inter);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Comm_rank(inter, &rank);
    SCHECK(is_inter && rsize == (mine_low ? size - n0 : n0));
    SCHECK(rank == (mine_low ? st_rank : st_rank - n0));
    /* Rank 0 of each side sends its world rank to the other side's rank 0. */
    if (rank == 0) {
        int got = -1;
        SCHECK(MPI_Sendrecv(&st_rank, 1, MPI_INT, 0, 9, &got, 1, MPI_INT, 0, 9, inter,
                            MPI_STATUS_IGNORE) == MPI_SUCCESS);
        SCHECK(got == (mine_low ? n0 : 0));
    }
    SCHECK(MPI_Intercomm_merge(inter, !mine_low, &merged) == MPI_SUCCESS);
    int msize = 0, mrank = -1;
    MPI_Comm_size(merged, &msize);
    MPI_Comm_rank(merged, &mrank);
    SCHECK(msize == size && mrank == st_rank);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Group_free(&lg);
    MPI_Group_free(&hg);
}

/* Two sessions at once, each with a communicator under the same tag: messages stay apart. */
static void check_two_sessions(MPI_Group world1, int size)
{
    MPI_Group world2;
    MPI_Session s2 = st_open(MPI_ERRORS_RETURN, &world2);
    MPI_Comm c1 = st_comm(world1, "twin"), c2 = st_comm(world2, "twin");
    int right = (st_rank + 1) % size, left = (st_rank + size - 1) % size;
    int a = 100 + st_rank, b = 200 + st_rank, ga = -1, gb = -1;
    MPI_Request rq[2];
    MPI_Irecv(&gb, 1, MPI_INT, left, 5, c2, &rq[0]);
    MPI_Irecv(&ga, 1, MPI_INT, left, 5, c1, &rq[1]);
    SCHECK(MPI_Send(&a, 1, MPI_INT, right, 5, c1) == MPI_SUCCESS);
    SCHECK(MPI_Send(&b, 1, MPI_INT, right, 5, c2) == MPI_SUCCESS);
    SCHECK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    SCHECK(ga == 100 + left && gb == 200 + left);
    MPI_Comm_free(&c1);
    MPI_Comm_free(&c2);
    MPI_Group_free(&world2);
    SCHECK(MPI_Session_finalize(&s2) == MPI_SUCCESS && s2 == MPI_SESSION_NULL);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "sessions";
    bool world_first = !strcmp(mode, "world"), late_world = !strcmp(mode, "late-world");
    int flag = 1, size = 0, provided;
    char level[MPI_MAX_INFO_VAL];

    if (world_first)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_SERIALIZED");
    MPI_Session s;
    SCHECK(MPI_Session_init(info, MPI_ERRORS_RETURN, &s) == MPI_SUCCESS);
    MPI_Info_free(&info);
    SCHECK(session_thread_level(s, level) && !strcmp(level, "MPI_THREAD_SERIALIZED"));
    MPI_Initialized(&flag);
    SCHECK(flag == world_first); /* sessions alone do not initialize the World Model */

    MPI_Group world;
    SCHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", &world) == MPI_SUCCESS);
    MPI_Group_rank(world, &st_rank);
    MPI_Group_size(world, &size);
    if (late_world) {
        MPI_Init(&argc, &argv);
        int wrank = -1;
        MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
        SCHECK(wrank == st_rank);
    }
    check_psets(s, size);
    MPI_Comm c = st_comm(world, "world");
    check_world_comm(c, size);
    check_hints(world);
    check_subgroups(s, world, size);
    check_intercomm(world, size);
    check_two_sessions(world, size);
    MPI_Comm_free(&c);
    MPI_Group_free(&world);
    SCHECK(MPI_Session_finalize(&s) == MPI_SUCCESS);
    if (world_first || late_world)
        MPI_Finalize();

    /* Again after every session was finalized, and after MPI_Finalize (§11.3: sessions may
     * come and go). A session without info provides MPI_THREAD_MULTIPLE. */
    s = st_open(MPI_ERRORS_RETURN, &world);
    SCHECK(session_thread_level(s, level) && !strcmp(level, "MPI_THREAD_MULTIPLE"));
    c = st_comm(world, "again");
    check_world_comm(c, size);
    MPI_Initialized(&flag);
    SCHECK(flag == (world_first || late_world));
    int status = st_report(c);
    MPI_Comm_free(&c);
    MPI_Group_free(&world);
    MPI_Session_finalize(&s);
    return status;
}
