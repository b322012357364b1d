/* p2p_truncate.c: a message longer than the receive buffer (MPI-4.1 §3.2.4) is an overflow
 * error of class MPI_ERR_TRUNCATE, returned under MPI_ERRORS_RETURN: by MPI_Recv, by MPI_Wait on
 * an MPI_Irecv, by MPI_Mrecv, and as MPI_ERR_IN_STATUS from MPI_Waitall with the class in the
 * status's MPI_ERROR; small (10 ints into 5, 1 byte into 0) and 1 MiB (into 512 KiB) messages.
 * What lands in the buffer is undefined, so contents are not checked; communication afterwards
 * must work (checked with a final exchange). Pairs (0,1), (2,3), ... */
#include <string.h>

#include "mtest.h"

#define BIG (1 << 18) /* ints: 1 MiB */

static void check_truncate(int rc)
{
    int cls = -1;
    CHECK(rc != MPI_SUCCESS);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_TRUNCATE);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int partner = rank ^ 1;
    int *buf = malloc(sizeof(int) * BIG);
    static const int lens[] = {10, 1, BIG};     /* sent, in ints (1: as one byte) */
    static const int caps[] = {5, 0, BIG / 2};  /* receive capacity */

    if (partner < size) {
        for (int c = 0; c < 3; c++) {
            MPI_Datatype type = c == 1 ? MPI_BYTE : MPI_INT;
            for (int how = 0; how < 4; how++) {
                int tag = c * 10 + how;
                if (rank < partner) {
                    for (int k = 0; k < lens[c]; k++)
                        buf[k] = k;
                    CHECK(MPI_Send(buf, lens[c], type, partner, tag, MPI_COMM_WORLD) ==
                          MPI_SUCCESS);
                    continue;
                }
                MPI_Request req[2];
                MPI_Status st[2];
                MPI_Message msg;
                int rc;
                switch (how) {
                case 0:
                    rc = MPI_Recv(buf, caps[c], type, partner, tag, MPI_COMM_WORLD, &st[0]);
                    check_truncate(rc);
                    break;
                case 1:
                    CHECK(MPI_Irecv(buf, caps[c], type, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD,
                                    &req[0]) == MPI_SUCCESS);
                    rc = MPI_Wait(&req[0], &st[0]);
                    check_truncate(rc);
                    CHECK(req[0] == MPI_REQUEST_NULL);
                    break;
                case 2:
                    CHECK(MPI_Mprobe(partner, tag, MPI_COMM_WORLD, &msg, &st[0]) == MPI_SUCCESS);
                    rc = MPI_Mrecv(buf, caps[c], type, &msg, &st[0]);
                    check_truncate(rc);
                    break;
                case 3:
                    /* With a second receive that succeeds: MPI_ERR_IN_STATUS (§3.7.5). */
                    CHECK(MPI_Irecv(buf, caps[c], type, partner, tag, MPI_COMM_WORLD, &req[0]) ==
                          MPI_SUCCESS);
                    CHECK(MPI_Irecv(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                                    &req[1]) == MPI_SUCCESS);
                    st[0].MPI_ERROR = st[1].MPI_ERROR = -1;
                    rc = MPI_Waitall(2, req, st);
                    {
                        int cls = -1;
                        CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS &&
                              cls == MPI_ERR_IN_STATUS);
                    }
                    check_truncate(st[0].MPI_ERROR);
                    CHECK(st[1].MPI_ERROR == MPI_SUCCESS || st[1].MPI_ERROR == MPI_ERR_PENDING);
                    CHECK(req[0] == MPI_REQUEST_NULL);
                    break;
                }
            }
        }
        /* Still working: a 1 MiB exchange in both directions. */
        int *in = malloc(sizeof(int) * BIG), bad = 0;
        for (int k = 0; k < BIG; k++)
            buf[k] = rank + k;
        CHECK(MPI_Sendrecv(buf, BIG, MPI_INT, partner, 99, in, BIG, MPI_INT, partner, 99,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        for (int k = 0; k < BIG; k++)
            bad += in[k] != partner + k;
        CHECK(bad == 0);
        free(in);
    }
    free(buf);
    return mtest_finish();
}
