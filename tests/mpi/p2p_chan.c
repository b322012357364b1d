/* p2p_chan.c: MPI's matching rules where mini_mpi's small messages take the per-sender channel
 * (a blocking MPI_Recv waiting unposted, standard sends of <= 4 KiB) and others do not
 * (rendezvous, synchronous, nonblocking receives, probes, MPI_ANY_SOURCE). Rank 0 sends to rank
 * 1; with 3 ranks, rank 2 sends to rank 1 as well. Checked (MPI-4.1 §3.5, §3.8, §3.8.4):
 * non-overtaking across small, large, synchronous and nonblocking sends, also when more small
 * messages wait than a channel holds; tag selection skipping older messages; a receive posted
 * earlier (MPI_ANY_SOURCE, or the same source) matching before a later blocking one; probes
 * and matched probes; truncation; cancel; a derived datatype; the same for messages of the big
 * cell (49 bytes to 4 KiB); a long race of alternating receive kinds and of MPI_Sendrecv
 * exchanges; per-sender order under MPI_ANY_SOURCE; both directions of a pair streaming bursts
 * of mixed sizes at once (the pair's shared line, its acknowledgements and the ring, chan.h). */
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "mtest.h"

#define BIG 16384 /* ints: 64 KiB, a rendezvous message */

static int buf[BIG];

static void send_int(int v, int n, int dest, int tag)
{
    buf[0] = v;
    for (int k = 1; k < n; k++)
        buf[k] = v + k;
    CHECK(MPI_Send(buf, n, MPI_INT, dest, tag, MPI_COMM_WORLD) == MPI_SUCCESS);
}

/* Receives from src with tag, expects first int v and n ints; into exactly n ints (mini_mpi:
 * a receive into at most 4 KiB may wait on the channel) or, with `room`, into BIG. */
static void recv_into(int v, int n, int src, int tag, bool room)
{
    MPI_Status st;
    int got = -1;
    buf[0] = -1;
    CHECK(MPI_Recv(buf, room ? BIG : n, MPI_INT, src, tag, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &got);
    CHECK(buf[0] == v);
    CHECK(got == n);
    CHECK(n < 2 || buf[n - 1] == v + n - 1);
    CHECK(st.MPI_SOURCE == src && st.MPI_TAG == tag);
}

static void recv_expect(int v, int n, int src, int tag)
{
    recv_into(v, n, src, tag, false);
}

/* Sizes in ints of message i of the ordering phase: small (channel), just too big for a slot
 * (the big cell), just too big for the big cell (eager, the engine), rendezvous, and small
 * again. */
static int order_len(int i)
{
    static const int lens[] = {1, 12, 13, 1024, 1025, BIG, 2, 0, 500};
    return lens[i % 9];
}

static void phase_order(int rank)
{
    const int n = 60;
    if (rank == 0) {
        for (int i = 0; i < n; i++) {
            int len = order_len(i);
            for (int k = 0; k < (len ? len : 1); k++)
                buf[k] = i + k;
            if (i % 7 == 3) {
                CHECK(MPI_Ssend(buf, len ? len : 1, MPI_INT, 1, 1, MPI_COMM_WORLD) ==
                      MPI_SUCCESS);
            } else if (i % 7 == 5) {
                MPI_Request r;
                CHECK(MPI_Isend(buf, len ? len : 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &r) ==
                      MPI_SUCCESS);
                CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            } else {
                CHECK(MPI_Send(buf, len ? len : 1, MPI_INT, 1, 1, MPI_COMM_WORLD) ==
                      MPI_SUCCESS);
            }
        }
    } else if (rank == 1) {
        usleep(20000); /* let small messages pile up beyond a channel's slots */
        for (int i = 0; i < n; i++) {
            int len = order_len(i);
            recv_into(i, len ? len : 1, 0, 1, i % 4 == 0);
            if (i % 10 == 0)
                usleep(1000);
        }
    }
}

static void phase_tags(int rank)
{
    if (rank == 0) {
        send_int(100, 1, 1, 10);
        send_int(101, 3, 1, 11);
        send_int(102, 2, 1, 10);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        recv_expect(101, 3, 0, 11);
        recv_expect(100, 1, 0, 10);
        recv_expect(102, 2, 0, 10);
    }
}

/* A receive posted before a blocking one matches first, whatever path the message takes. */
static void phase_posted_first(int rank)
{
    MPI_Request any = MPI_REQUEST_NULL, same = MPI_REQUEST_NULL;
    int a[4] = {-1}, s[4] = {-1};
    if (rank == 1) {
        MPI_Irecv(a, 4, MPI_INT, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &any);
        MPI_Irecv(s, 4, MPI_INT, 0, 21, MPI_COMM_WORLD, &same);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        send_int(200, 1, 1, 20);
        send_int(201, 1, 1, 20);
        send_int(210, 1, 1, 21);
        send_int(211, 1, 1, 21);
    } else if (rank == 1) {
        recv_expect(201, 1, 0, 20);
        recv_expect(211, 1, 0, 21);
        MPI_Status st;
        CHECK(MPI_Wait(&any, &st) == MPI_SUCCESS);
        CHECK(a[0] == 200 && st.MPI_SOURCE == 0);
        CHECK(MPI_Wait(&same, &st) == MPI_SUCCESS);
        CHECK(s[0] == 210);
    }
}

static void phase_probe(int rank)
{
    if (rank == 0) {
        send_int(300, 4, 1, 30);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        usleep(10000); /* rank 1 is in its blocking probes by then */
        send_int(310, 2, 1, 31);
        send_int(320, 3, 1, 32);
    } else if (rank == 1) {
        MPI_Status st;
        int flag = 0, count = -1;
        CHECK(MPI_Probe(0, 30, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == 4 && st.MPI_SOURCE == 0 && st.MPI_TAG == 30);
        CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) ==
              MPI_SUCCESS);
        CHECK(flag && st.MPI_TAG == 30);
        recv_expect(300, 4, 0, 30);
        MPI_Message msg;
        CHECK(MPI_Mprobe(0, 31, MPI_COMM_WORLD, &msg, &st) == MPI_SUCCESS);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == 2);
        int m[2] = {-1, -1};
        CHECK(MPI_Mrecv(m, 2, MPI_INT, &msg, &st) == MPI_SUCCESS);
        CHECK(m[0] == 310 && m[1] == 311);
        CHECK(MPI_Probe(MPI_ANY_SOURCE, 32, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        CHECK(st.MPI_SOURCE == 0);
        recv_expect(320, 3, 0, 32);
    }
}

static void phase_truncate_cancel(int rank)
{
    if (rank == 0) {
        send_int(400, 10, 1, 40);
        send_int(401, 1, 1, 40);
    } else if (rank == 1) {
        int small[5];
        int cls = -1;
        int rc = MPI_Recv(small, 5, MPI_INT, 0, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE);
        recv_expect(401, 1, 0, 40);
        MPI_Request r;
        MPI_Status st;
        int cancelled = 0;
        MPI_Irecv(small, 5, MPI_INT, 0, 50, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        CHECK(MPI_Wait(&r, &st) == MPI_SUCCESS);
        MPI_Test_cancelled(&st, &cancelled);
        CHECK(cancelled);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        send_int(500, 1, 1, 50);
    else if (rank == 1)
        recv_expect(500, 1, 0, 50);
}

static void phase_datatype(int rank)
{
    MPI_Datatype vec;
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    if (rank == 0) {
        int v[6] = {600, -1, 601, -1, 602, -1};
        CHECK(MPI_Send(v, 1, vec, 1, 60, MPI_COMM_WORLD) == MPI_SUCCESS);
        int c[3] = {610, 611, 612};
        CHECK(MPI_Send(c, 3, MPI_INT, 1, 61, MPI_COMM_WORLD) == MPI_SUCCESS);
    } else if (rank == 1) {
        recv_expect(600, 3, 0, 60);
        CHECK(buf[1] == 601 && buf[2] == 602);
        int v[6] = {0, -7, 0, -7, 0, -7};
        CHECK(MPI_Recv(v, 1, vec, 0, 61, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(v[0] == 610 && v[2] == 611 && v[4] == 612 && v[1] == -7 && v[3] == -7);
    }
    MPI_Type_free(&vec);
}

/* Receives of every kind racing with the sender's pushes, then exchanges. */
static void phase_race(int rank)
{
    const int n = 3000;
    if (rank == 0) {
        for (int i = 0; i < n; i++)
            send_int(i, 1 + i % 3, 1, 70);
    } else if (rank == 1) {
        for (int i = 0; i < n; i++) {
            int len = 1 + i % 3;
            if (i % 3 == 0) {
                MPI_Request r;
                int v[3] = {-1};
                MPI_Irecv(v, 3, MPI_INT, 0, 70, MPI_COMM_WORLD, &r);
                MPI_Wait(&r, MPI_STATUS_IGNORE);
                CHECK(v[0] == i);
            } else if (i % 3 == 1) {
                recv_expect(i, len, 0, 70);
            } else {
                int flag = 0;
                MPI_Status st;
                while (!flag)
                    MPI_Iprobe(0, 70, MPI_COMM_WORLD, &flag, &st);
                recv_expect(i, len, 0, 70);
            }
        }
    }
    if (rank < 2) {
        int other = 1 - rank;
        for (int i = 0; i < n; i++) {
            int out = rank * n + i, in = -1;
            MPI_Sendrecv(&out, 1, MPI_INT, other, 71, &in, 1, MPI_INT, other, 71, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            CHECK(in == other * n + i);
        }
    }
}

/* Ranks 0 and 2 send numbered messages to rank 1, which receives some from any source and
 * some from a named one: each sender's messages arrive in order. */
static void phase_any_source(int rank, int size)
{
    const int n = 400;
    if (size < 3)
        return;
    if (rank == 0 || rank == 2) {
        for (int i = 0; i < n; i++)
            send_int(i, 1, 1, 80);
    } else if (rank == 1) {
        int next[3] = {0, 0, 0};
        for (int i = 0; i < 2 * n; i++) {
            MPI_Status st;
            int v = -1;
            int src = MPI_ANY_SOURCE;
            if (i % 4 == 1 && next[0] < n)
                src = 0;
            else if (i % 4 == 3 && next[2] < n)
                src = 2;
            CHECK(MPI_Recv(&v, 1, MPI_INT, src, 80, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
            CHECK(st.MPI_SOURCE == 0 || st.MPI_SOURCE == 2);
            if (st.MPI_SOURCE == 0 || st.MPI_SOURCE == 2) {
                CHECK(v == next[st.MPI_SOURCE]);
                next[st.MPI_SOURCE]++;
            }
        }
    }
}

/* Ranks 0 and 1 both send a burst, then receive the other's: bursts of 1 to 11 messages of 1 to
 * 12 ints (some fit the pair's shared line, some only a ring slot), so that both directions
 * have messages in flight while each one's acknowledgements ride on the other's. */
/* Mostly small-cell sizes, now and then one for the big cell. */
static int duplex_len(int i)
{
    return i % 13 == 5 ? 100 + i % 900 : 1 + i % 12;
}

static void phase_duplex(int rank)
{
    if (rank > 1)
        return;
    int other = 1 - rank;
    for (int r = 0; r < 2000; r++) {
        int mine = 1 + (r * (rank ? 7 : 3)) % 11, theirs = 1 + (r * (rank ? 3 : 7)) % 11;
        for (int k = 0; k < mine; k++)
            send_int(r * 100 + k * 10 + rank, duplex_len(r + k), other, 90);
        for (int k = 0; k < theirs; k++)
            recv_expect(r * 100 + k * 10 + other, duplex_len(r + k), other, 90);
    }
}

/* Messages for the big cell (49 bytes to 4 KiB) met by a probe, a matched probe, a receive too
 * small for them, derived datatypes on both sides, and MPI_ANY_SOURCE; then one sent while the
 * big cell still holds the previous one. */
static void phase_big_cell(int rank)
{
    MPI_Datatype vec;
    MPI_Type_vector(300, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    if (rank == 0) {
        send_int(700, 500, 1, 70);
        send_int(710, 400, 1, 71);
        send_int(720, 200, 1, 72);
        static int v[600];
        for (int k = 0; k < 600; k++)
            v[k] = k % 2 ? -1 : 730 + k / 2;
        CHECK(MPI_Send(v, 1, vec, 1, 73, MPI_COMM_WORLD) == MPI_SUCCESS);
        send_int(740, 300, 1, 74);
        send_int(750, 1000, 1, 75);
        send_int(760, 900, 1, 76); /* the big cell most likely still holds 750: the engine */
        send_int(770, 13, 1, 77);
    } else if (rank == 1) {
        MPI_Status st;
        int count = -1, cls = -1;
        usleep(10000);
        CHECK(MPI_Probe(0, 70, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == 500 && st.MPI_TAG == 70);
        recv_expect(700, 500, 0, 70);
        MPI_Message msg;
        CHECK(MPI_Mprobe(0, 71, MPI_COMM_WORLD, &msg, &st) == MPI_SUCCESS);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == 400);
        buf[0] = buf[399] = -1;
        CHECK(MPI_Mrecv(buf, 400, MPI_INT, &msg, &st) == MPI_SUCCESS);
        CHECK(buf[0] == 710 && buf[399] == 710 + 399);
        int rc = MPI_Recv(buf, 100, MPI_INT, 0, 72, MPI_COMM_WORLD, &st);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE && buf[0] == 720);
        recv_expect(730, 300, 0, 73);
        CHECK(buf[1] == 731 && buf[299] == 730 + 299);
        static int v[600];
        for (int k = 0; k < 600; k++)
            v[k] = -7;
        CHECK(MPI_Recv(v, 1, vec, 0, 74, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        MPI_Get_count(&st, vec, &count);
        CHECK(count == 1 && v[0] == 740 && v[2] == 741 && v[598] == 740 + 299 && v[1] == -7 &&
              v[599] == -7);
        buf[0] = -1;
        CHECK(MPI_Recv(buf, BIG, MPI_INT, MPI_ANY_SOURCE, 75, MPI_COMM_WORLD, &st) ==
              MPI_SUCCESS);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == 1000 && buf[0] == 750 && buf[999] == 750 + 999 && st.MPI_SOURCE == 0);
        recv_expect(760, 900, 0, 76);
        recv_expect(770, 13, 0, 77);
    }
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size < 2) {
        printf("p2p_chan: needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    phase_order(rank);
    MPI_Barrier(MPI_COMM_WORLD);
    phase_tags(rank);
    MPI_Barrier(MPI_COMM_WORLD);
    phase_posted_first(rank);
    MPI_Barrier(MPI_COMM_WORLD);
    phase_probe(rank);
    MPI_Barrier(MPI_COMM_WORLD);
    phase_truncate_cancel(rank);
    MPI_Barrier(MPI_COMM_WORLD);
    phase_datatype(rank);
    MPI_Barrier(MPI_COMM_WORLD);
    phase_big_cell(rank);
    MPI_Barrier(MPI_COMM_WORLD);
    phase_race(rank);
    MPI_Barrier(MPI_COMM_WORLD);
    phase_any_source(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    phase_duplex(rank);
    return mtest_finish();
}
