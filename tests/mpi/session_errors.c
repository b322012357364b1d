/* session_errors.c: bad arguments to the session calls and the constructors of the Sessions
 * Model, and where their errors go (MPI-4.1 §9.3, §11.3; docs/sessions.md "Errors"): a call on
 * a session raises on the session's handler (here a counting one, which also checks the
 * handle it is given); MPI_Session_init and the constructors raise on the handler passed to
 * them; a call with no valid object (a bad session handle, MPI_COMM_WORLD without MPI_Init)
 * follows the initial handler, which the testlist sets to MPI_ERRORS_RETURN. Without MPI_Init.
 * Argument "after-finalize": a call once every session is finalized, which ends the job with
 * one line. */
#include "session_test.h"

static int session_calls, comm_calls;
static MPI_Session expect_session;
static int expect_class;

static void session_handler(MPI_Session *s, int *err, ...)
{
    session_calls++;
    SCHECK(*s == expect_session);
    SCHECK(st_class(*err) == expect_class);
}

static void comm_handler(MPI_Comm *c, int *err, ...)
{
    comm_calls++;
    SCHECK(*c == MPI_COMM_NULL);
    SCHECK(st_class(*err) == expect_class);
}

/* Checks that `call` returned class cls and ran the session handler once. */
#define SESSION_ERR(call, cls)                \
    do {                                      \
        int before_ = session_calls;          \
        expect_class = (cls);                 \
        SCHECK(st_class(call) == (cls));      \
        SCHECK(session_calls == before_ + 1); \
    } while (0)
/* The same for the constructors' handler. */
#define COMM_ERR(call, cls)                \
    do {                                   \
        int before_ = comm_calls;          \
        expect_class = (cls);              \
        SCHECK(st_class(call) == (cls));   \
        SCHECK(comm_calls == before_ + 1); \
    } while (0)

static void check_init(MPI_Errhandler seh, MPI_Errhandler ceh)
{
    MPI_Session s = 12345;
    MPI_Info info;
    SCHECK(st_class(MPI_Session_init(MPI_INFO_NULL, MPI_ERRHANDLER_NULL, &s)) ==
           MPI_ERR_ERRHANDLER);
    SCHECK(st_class(MPI_Session_init(MPI_INFO_NULL, ceh, &s)) == MPI_ERR_ERRHANDLER);
    SCHECK(s == MPI_SESSION_NULL);
    expect_session = MPI_SESSION_NULL; /* no session yet: the handler sees none */
    SESSION_ERR(MPI_Session_init(MPI_INFO_NULL, seh, NULL), MPI_ERR_ARG);
    SESSION_ERR(MPI_Session_init((MPI_Info)MPI_COMM_SELF, seh, &s), MPI_ERR_INFO);
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_PLENTY");
    SESSION_ERR(MPI_Session_init(info, seh, &s), MPI_ERR_INFO_VALUE);
    MPI_Info_free(&info);
}

static void check_session_calls(MPI_Session s, MPI_Errhandler ceh)
{
    char name[64];
    int n = 0, len;
    MPI_Info info;
    MPI_Group g;
    expect_session = s;
    SESSION_ERR(MPI_Session_get_num_psets(s, (MPI_Info)MPI_COMM_SELF, &n), MPI_ERR_INFO);
    SESSION_ERR(MPI_Session_get_num_psets(s, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    SCHECK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n) == MPI_SUCCESS);
    len = sizeof name;
    SESSION_ERR(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, -1, &len, name), MPI_ERR_ARG);
    SESSION_ERR(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, name), MPI_ERR_ARG);
    SESSION_ERR(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, NULL, name), MPI_ERR_ARG);
    SESSION_ERR(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, NULL), MPI_ERR_ARG);
    len = -1;
    SESSION_ERR(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, name), MPI_ERR_ARG);
    SESSION_ERR(MPI_Session_get_pset_info(s, "mpi://NOWHERE", &info), MPI_ERR_ARG);
    SESSION_ERR(MPI_Session_get_pset_info(s, NULL, &info), MPI_ERR_ARG);
    SESSION_ERR(MPI_Session_get_pset_info(s, "mpi://SELF", NULL), MPI_ERR_ARG);
    SESSION_ERR(MPI_Group_from_session_pset(s, "mpi://WORLDS", &g), MPI_ERR_ARG);
    SCHECK(g == MPI_GROUP_NULL);
    SESSION_ERR(MPI_Group_from_session_pset(s, NULL, &g), MPI_ERR_ARG);
    SESSION_ERR(MPI_Group_from_session_pset(s, "mpi://SELF", NULL), MPI_ERR_ARG);
    SESSION_ERR(MPI_Session_get_info(s, NULL), MPI_ERR_ARG);
    SESSION_ERR(MPI_Session_set_errhandler(s, ceh), MPI_ERR_ERRHANDLER);
    SESSION_ERR(MPI_Session_set_errhandler(s, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER);
    SESSION_ERR(MPI_Session_get_errhandler(s, NULL), MPI_ERR_ARG);
    /* MPI_Session_call_errhandler is the invocation itself: success once the handler returns. */
    expect_class = MPI_ERR_OTHER;
    int before = session_calls;
    SCHECK(MPI_Session_call_errhandler(s, MPI_ERR_OTHER) == MPI_SUCCESS);
    SCHECK(session_calls == before + 1);
    /* A bad session handle names no object: the initial handler (MPI_ERRORS_RETURN here). */
    MPI_Session bad = MPI_SESSION_NULL;
    before = session_calls;
    SCHECK(st_class(MPI_Session_get_num_psets(bad, MPI_INFO_NULL, &n)) == MPI_ERR_SESSION);
    SCHECK(st_class(MPI_Session_finalize(&bad)) == MPI_ERR_SESSION);
    SCHECK(st_class(MPI_Session_call_errhandler(bad, MPI_ERR_OTHER)) == MPI_ERR_SESSION);
    SCHECK(st_class(MPI_Session_set_errhandler(bad, MPI_ERRORS_RETURN)) == MPI_ERR_SESSION);
    SCHECK(st_class(MPI_Session_finalize(NULL)) == MPI_ERR_ARG);
    SCHECK(session_calls == before);
}

static void check_constructors(MPI_Group world, MPI_Errhandler seh, MPI_Errhandler ceh)
{
    MPI_Comm c = 7;
    char long_tag[MPI_MAX_STRINGTAG_LEN + 2];
    memset(long_tag, 'x', sizeof long_tag - 1);
    long_tag[sizeof long_tag - 1] = '\0';
    COMM_ERR(MPI_Comm_create_from_group(world, NULL, MPI_INFO_NULL, ceh, &c), MPI_ERR_ARG);
    SCHECK(c == MPI_COMM_NULL);
    COMM_ERR(MPI_Comm_create_from_group(world, long_tag, MPI_INFO_NULL, ceh, &c), MPI_ERR_ARG);
    COMM_ERR(MPI_Comm_create_from_group(MPI_GROUP_NULL, "t", MPI_INFO_NULL, ceh, &c),
             MPI_ERR_GROUP);
    COMM_ERR(MPI_Comm_create_from_group(world, "t", (MPI_Info)MPI_COMM_SELF, ceh, &c),
             MPI_ERR_INFO);
    COMM_ERR(MPI_Comm_create_from_group(world, "t", MPI_INFO_NULL, ceh, NULL), MPI_ERR_ARG);
    /* A session's handler is no communicator's: no object to raise on. */
    int before = comm_calls;
    SCHECK(st_class(MPI_Comm_create_from_group(world, "t", MPI_INFO_NULL, seh, &c)) ==
           MPI_ERR_ERRHANDLER);
    SCHECK(comm_calls == before);
    /* MPI_GROUP_EMPTY: no communicator, no error. */
    SCHECK(MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "t", MPI_INFO_NULL, ceh, &c) ==
               MPI_SUCCESS &&
           c == MPI_COMM_NULL);

    MPI_Group self, other;
    MPI_Group_incl(world, 1, &st_rank, &self);
    int peer = st_rank == 0 ? 1 : 0, size;
    MPI_Group_size(world, &size);
    MPI_Group_incl(world, 1, &peer, &other);
    COMM_ERR(MPI_Intercomm_create_from_groups(self, 1, other, 0, "i", MPI_INFO_NULL, ceh, &c),
             MPI_ERR_RANK);
    COMM_ERR(MPI_Intercomm_create_from_groups(self, 0, other, -1, "i", MPI_INFO_NULL, ceh, &c),
             MPI_ERR_RANK);
    COMM_ERR(MPI_Intercomm_create_from_groups(self, 0, world, 0, "i", MPI_INFO_NULL, ceh, &c),
             MPI_ERR_ARG); /* the groups overlap */
    COMM_ERR(
        MPI_Intercomm_create_from_groups(self, 0, MPI_GROUP_EMPTY, 0, "i", MPI_INFO_NULL, ceh, &c),
        MPI_ERR_GROUP);
    COMM_ERR(MPI_Intercomm_create_from_groups(other, 0, self, 0, "i", MPI_INFO_NULL, ceh, &c),
             MPI_ERR_GROUP); /* the caller is not in its local group */
    COMM_ERR(MPI_Intercomm_create_from_groups(self, 0, other, 0, NULL, MPI_INFO_NULL, ceh, &c),
             MPI_ERR_ARG);
    MPI_Group_free(&self);
    MPI_Group_free(&other);
}

/* The World Model's predefined communicators do not exist in sessions only (MPI-4.1 §11.3). */
static void check_no_world(void)
{
    int n = -1, x = 0;
    SCHECK(st_class(MPI_Comm_rank(MPI_COMM_WORLD, &n)) == MPI_ERR_COMM);
    SCHECK(st_class(MPI_Comm_size(MPI_COMM_SELF, &n)) == MPI_ERR_COMM);
    SCHECK(st_class(MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD)) == MPI_ERR_COMM);
    SCHECK(st_class(MPI_Barrier(MPI_COMM_WORLD)) == MPI_ERR_COMM);
    MPI_Comm dup;
    SCHECK(st_class(MPI_Comm_dup(MPI_COMM_WORLD, &dup)) == MPI_ERR_COMM);
    /* Every entry point that looks MPI_COMM_WORLD up in its own way. */
    int y[4] = {0};
    MPI_Request req;
    SCHECK(st_class(MPI_Allreduce(&x, y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_COMM);
    SCHECK(st_class(MPI_Reduce(&x, y, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD)) == MPI_ERR_COMM);
    SCHECK(st_class(MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD)) == MPI_ERR_COMM);
    SCHECK(st_class(MPI_Allgather(&x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_SELF)) ==
           MPI_ERR_COMM);
    SCHECK(st_class(MPI_Iallreduce(&x, y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req)) ==
           MPI_ERR_COMM);
    SCHECK(st_class(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &dup)) == MPI_ERR_COMM);
    MPI_Win win;
    SCHECK(st_class(MPI_Win_create(y, sizeof y, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win)) ==
           MPI_ERR_COMM);
    MPI_File fh;
    SCHECK(st_class(MPI_File_open(MPI_COMM_SELF, "never", MPI_MODE_RDONLY, MPI_INFO_NULL,
                                  &fh)) == MPI_ERR_COMM);
}

int main(int argc, char **argv)
{
    MPI_Errhandler seh, ceh;
    SCHECK(MPI_Session_create_errhandler(session_handler, &seh) == MPI_SUCCESS);
    MPI_Group world;
    MPI_Session s = st_open(seh, &world);
    if (argc > 1 && !strcmp(argv[1], "after-finalize")) {
        MPI_Group_free(&world);
        MPI_Session_finalize(&s);
        int n;
        MPI_Group_size(MPI_GROUP_EMPTY, &n); /* erroneous: the job ends here */
        printf("survived a call after the last MPI_Session_finalize\n");
        return 0;
    }
    MPI_Comm_create_errhandler(comm_handler, &ceh);
    check_init(seh, ceh);
    check_session_calls(s, ceh);
    check_constructors(world, seh, ceh);
    check_no_world();
    MPI_Errhandler got;
    SCHECK(MPI_Session_get_errhandler(s, &got) == MPI_SUCCESS && got == seh);
    MPI_Errhandler_free(&got);
    MPI_Comm report = st_comm(world, "report");
    int status = st_report(report);
    MPI_Comm_free(&report);
    MPI_Group_free(&world);
    MPI_Errhandler_free(&ceh);
    MPI_Errhandler_free(&seh);
    SCHECK(MPI_Session_finalize(&s) == MPI_SUCCESS);
    return status;
}
