/*
 * mpit_basic: the tool information interface's calls and error classes (MPI-4.1 §15.3), on
 * every rank at once: initialization nesting before MPI_Init, enumerations, control variables
 * (reading the job's settings, writing one back), performance variable sessions and handles
 * (counter values against counts the program keeps), categories, events and sources, and each
 * MPI_T_ERR_ class for a bad index, name, handle, session or state.
 */
#include <string.h>

#include "mtest.h"

static int cvar_index(const char *name)
{
    int i = -1;
    CHECK(MPI_T_cvar_get_index(name, &i) == MPI_SUCCESS);
    return i;
}

static int pvar_index(const char *name, int cls)
{
    int i = -1;
    CHECK(MPI_T_pvar_get_index(name, cls, &i) == MPI_SUCCESS);
    return i;
}

static unsigned long long read_pvar(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    unsigned long long v = ~0ull;
    CHECK(MPI_T_pvar_read(s, h, &v) == MPI_SUCCESS);
    return v;
}

int main(int argc, char **argv)
{
    int provided, n, rank, size;
    /* Not initialized: every call but init says so. */
    CHECK(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
    CHECK(MPI_T_finalize() == MPI_T_ERR_NOT_INITIALIZED);
    /* Before MPI_Init, nested. */
    CHECK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
    CHECK(MPI_T_finalize() == MPI_SUCCESS);
    CHECK(MPI_T_cvar_get_num(&n) == MPI_SUCCESS && n > 0);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Error classes are error classes: distinct, with strings, at most MPI_ERR_LASTCODE. */
    char text[MPI_MAX_ERROR_STRING];
    int len, cls;
    CHECK(MPI_T_ERR_INVALID_NAME <= MPI_ERR_LASTCODE && MPI_T_ERR_MEMORY > MPI_ERR_REVOKED);
    CHECK(MPI_Error_string(MPI_T_ERR_INVALID_HANDLE, text, &len) == MPI_SUCCESS && len > 0);
    CHECK(MPI_Error_class(MPI_T_ERR_PVAR_NO_WRITE, &cls) == MPI_SUCCESS &&
          cls == MPI_T_ERR_PVAR_NO_WRITE);

    /* Control variables: the launch settings read as mpiexec gave them. */
    MPI_T_cvar_handle ch;
    int count, v;
    CHECK(MPI_T_cvar_handle_alloc(cvar_index("MINI_MPI_NP"), NULL, &ch, &count) == MPI_SUCCESS);
    CHECK(count == 1);
    CHECK(MPI_T_cvar_read(ch, &v) == MPI_SUCCESS && v == size);
    CHECK(MPI_T_cvar_write(ch, &v) == MPI_T_ERR_CVAR_SET_NEVER);
    CHECK(MPI_T_cvar_handle_free(&ch) == MPI_SUCCESS && ch == MPI_T_CVAR_HANDLE_NULL);
    CHECK(MPI_T_cvar_read(ch, &v) == MPI_T_ERR_INVALID_HANDLE);
    int scope, bind, verbosity;
    MPI_Datatype dt;
    MPI_T_enum et;
    char name[64];
    int name_len = sizeof name;
    int hc = cvar_index("MINI_MPI_HANG_CHECK");
    CHECK(MPI_T_cvar_get_info(hc, name, &name_len, &verbosity, &dt, &et, NULL, NULL, &bind,
                              &scope) == MPI_SUCCESS);
    CHECK(!strcmp(name, "MINI_MPI_HANG_CHECK") && name_len == 20 && dt == MPI_INT &&
          bind == MPI_T_BIND_NO_OBJECT && scope == MPI_T_SCOPE_ALL_EQ && et == MPI_T_ENUM_NULL);
    CHECK(MPI_T_cvar_handle_alloc(hc, NULL, &ch, &count) == MPI_SUCCESS);
    CHECK(MPI_T_cvar_read(ch, &v) == MPI_SUCCESS && v == 1); /* the default */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) { /* one job-wide value: rank 0 turns it off and on, everyone sees it */
        v = 0;
        CHECK(MPI_T_cvar_write(ch, &v) == MPI_SUCCESS);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_T_cvar_read(ch, &v) == MPI_SUCCESS && v == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        v = 1;
        CHECK(MPI_T_cvar_write(ch, &v) == MPI_SUCCESS);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_T_cvar_read(ch, &v) == MPI_SUCCESS && v == 1);
    CHECK(MPI_T_cvar_handle_free(&ch) == MPI_SUCCESS);
    /* An enumerated one. */
    CHECK(MPI_T_cvar_get_info(cvar_index("MINI_MPI_FT"), NULL, NULL, NULL, &dt, &et, NULL, NULL,
                              NULL, NULL) == MPI_SUCCESS);
    int nitems, value;
    CHECK(et != MPI_T_ENUM_NULL && MPI_T_enum_get_info(et, &nitems, NULL, NULL) == MPI_SUCCESS);
    name_len = sizeof name;
    CHECK(MPI_T_enum_get_item(et, 1, &value, name, &name_len) == MPI_SUCCESS && value == 1 &&
          !strcmp(name, "ulfm"));
    CHECK(MPI_T_enum_get_item(et, nitems, &value, name, &name_len) == MPI_T_ERR_INVALID_ITEM);
    CHECK(MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
          MPI_T_ERR_INVALID_INDEX);
    CHECK(MPI_T_cvar_get_index("no such variable", &v) == MPI_T_ERR_INVALID_NAME);

    /* Performance variables: counters against the program's own count. */
    MPI_T_pvar_session s;
    MPI_T_pvar_handle sent, bytes, recvd, unexp;
    CHECK(MPI_T_pvar_session_create(&s) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_handle_alloc(s, pvar_index("msgs_sent", MPI_T_PVAR_CLASS_COUNTER), NULL,
                                  &sent, &count) == MPI_SUCCESS && count == 1);
    CHECK(MPI_T_pvar_handle_alloc(s, pvar_index("bytes_sent", MPI_T_PVAR_CLASS_COUNTER), NULL,
                                  &bytes, &count) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_handle_alloc(s, pvar_index("msgs_received", MPI_T_PVAR_CLASS_COUNTER),
                                  NULL, &recvd, &count) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_handle_alloc(s, pvar_index("unexpected_recvq_length",
                                                MPI_T_PVAR_CLASS_LEVEL),
                                  NULL, &unexp, &count) == MPI_SUCCESS);
    CHECK(read_pvar(s, sent) == 0 && read_pvar(s, recvd) == 0); /* nothing sent yet */
    int buf[100] = {0}, right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int i = 0; i < 5; i++)
        MPI_Sendrecv(buf, i + 1, MPI_INT, right, 0, buf + 50, 50, MPI_INT, left, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 3, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD); /* sends nothing */
    CHECK(read_pvar(s, sent) == 5);
    CHECK(read_pvar(s, bytes) == (1 + 2 + 3 + 4 + 5) * sizeof(int));
    CHECK(read_pvar(s, recvd) == 5);
    /* reset, write and readreset act on the handle alone */
    unsigned long long x = 100;
    CHECK(MPI_T_pvar_write(s, sent, &x) == MPI_SUCCESS && read_pvar(s, sent) == 100);
    CHECK(MPI_T_pvar_reset(s, sent) == MPI_SUCCESS && read_pvar(s, sent) == 0);
    MPI_Sendrecv(buf, 1, MPI_INT, right, 0, buf + 50, 1, MPI_INT, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(MPI_T_pvar_readreset(s, sent, &x) == MPI_SUCCESS && x == 1);
    CHECK(read_pvar(s, sent) == 0 && read_pvar(s, recvd) == 6);
    /* continuous: no start/stop of one handle; all handles: nothing to do */
    CHECK(MPI_T_pvar_start(s, sent) == MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_write(s, unexp, &x) == MPI_T_ERR_PVAR_NO_WRITE);
    CHECK(MPI_T_pvar_reset(s, unexp) == MPI_T_ERR_PVAR_NO_WRITE);
    CHECK(read_pvar(s, unexp) == 0);
    /* bad sessions and handles */
    MPI_T_pvar_session s2;
    CHECK(MPI_T_pvar_session_create(&s2) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_read(s2, sent, &x) == MPI_T_ERR_INVALID_HANDLE); /* another session's */
    CHECK(MPI_T_pvar_session_free(&s2) == MPI_SUCCESS && s2 == MPI_T_PVAR_SESSION_NULL);
    CHECK(MPI_T_pvar_read(s2, sent, &x) == MPI_T_ERR_INVALID_SESSION);
    CHECK(MPI_T_pvar_handle_alloc(s, 10000, NULL, &sent, &count) == MPI_T_ERR_INVALID_INDEX);
    CHECK(MPI_T_pvar_get_index("msgs_sent", MPI_T_PVAR_CLASS_LEVEL, &v) ==
          MPI_T_ERR_INVALID_NAME); /* names are per class */
    CHECK(MPI_T_pvar_handle_free(s, &unexp) == MPI_SUCCESS && unexp == MPI_T_PVAR_HANDLE_NULL);
    CHECK(MPI_T_pvar_session_free(&s) == MPI_SUCCESS);

    /* Categories: every variable and event is in one, names round-trip. */
    int ncat, ncv, npv, nsub, nev, total_cv = 0, total_pv = 0, total_ev = 0;
    CHECK(MPI_T_category_get_num(&ncat) == MPI_SUCCESS && ncat > 1);
    for (int c = 0; c < ncat; c++) {
        name_len = sizeof name;
        CHECK(MPI_T_category_get_info(c, name, &name_len, NULL, NULL, &ncv, &npv, &nsub) ==
              MPI_SUCCESS);
        CHECK(MPI_T_category_get_num_events(c, &nev) == MPI_SUCCESS);
        CHECK(MPI_T_category_get_index(name, &v) == MPI_SUCCESS && v == c);
        total_cv += ncv;
        total_pv += npv;
        total_ev += nev;
        int idx[32];
        CHECK(MPI_T_category_get_pvars(c, 32, idx) == MPI_SUCCESS);
        CHECK(MPI_T_category_get_categories(c, 32, idx) == MPI_SUCCESS);
        CHECK(MPI_T_category_get_events(c, 32, idx) == MPI_SUCCESS);
    }
    int npvars, nevents;
    CHECK(MPI_T_pvar_get_num(&npvars) == MPI_SUCCESS && MPI_T_event_get_num(&nevents) == 0);
    CHECK(total_cv == n && total_pv == npvars && total_ev == nevents);
    CHECK(MPI_T_category_get_info(ncat, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
          MPI_T_ERR_INVALID_INDEX);
    CHECK(MPI_T_category_changed(&v) == MPI_SUCCESS);

    /* Sources and events. */
    int nsrc, elems = 3;
    MPI_Count tps, maxt, t1, t2;
    MPI_T_source_order order;
    MPI_Datatype types[3];
    MPI_Aint displs[3];
    CHECK(MPI_T_source_get_num(&nsrc) == MPI_SUCCESS && nsrc == 1);
    CHECK(MPI_T_source_get_info(0, NULL, NULL, NULL, NULL, &order, &tps, &maxt, NULL) ==
          MPI_SUCCESS && order == MPI_T_SOURCE_ORDERED && tps == 1000000000);
    CHECK(MPI_T_source_get_timestamp(0, &t1) == MPI_SUCCESS);
    CHECK(MPI_T_source_get_timestamp(0, &t2) == MPI_SUCCESS && t2 >= t1);
    CHECK(MPI_T_source_get_timestamp(1, &t2) == MPI_T_ERR_INVALID_INDEX);
    CHECK(MPI_T_event_get_index("mini_mpi_failure_detected", &v) == MPI_SUCCESS);
    CHECK(MPI_T_event_get_info(v, NULL, NULL, NULL, types, displs, &elems, NULL, NULL, NULL,
                               NULL, &bind) == MPI_SUCCESS && elems == 1 && types[0] == MPI_INT);
    MPI_T_event_registration reg;
    CHECK(MPI_T_event_handle_alloc(nevents, NULL, MPI_INFO_NULL, &reg) == MPI_T_ERR_INVALID_INDEX);
    CHECK(MPI_T_event_handle_alloc(v, NULL, MPI_INFO_NULL, &reg) == MPI_SUCCESS);
    CHECK(MPI_T_event_register_callback(reg, 7, MPI_INFO_NULL, NULL, NULL) == MPI_T_ERR_INVALID);
    CHECK(MPI_T_event_handle_free(reg, NULL, NULL) == MPI_SUCCESS);
    CHECK(MPI_T_event_handle_free(reg, NULL, NULL) == MPI_T_ERR_INVALID_HANDLE);
    CHECK(MPI_T_event_get_index("no such event", &v) == MPI_T_ERR_INVALID_NAME);

    CHECK(MPI_T_finalize() == MPI_SUCCESS);
    CHECK(MPI_T_pvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
    return mtest_finish();
}
