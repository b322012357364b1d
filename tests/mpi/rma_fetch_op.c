/* rma_fetch_op.c: MPI_Fetch_and_op and MPI_Compare_and_swap (MPI-4.1 §12.3.5) give the same
 * results in every epoch.
 * Inside lock_all and lock epochs (the common case, which has its own short path) and inside
 * fence epochs (the general path), every rank runs the same sequence of predefined operations
 * on integer, floating and pair types, MPI_REPLACE and MPI_NO_OP included, on a slot of the
 * next rank's window, and checks each fetched value and the final contents against a local
 * model of the sequence, then swaps it with MPI_Compare_and_swap (and fails to when the compare
 * value differs). Then every rank adds into one counter at once, with Fetch_and_op and with
 * Compare_and_swap loops (exactly the sum of all increments), and the errors: an op not defined
 * on the type, a user op, a derived type, a type Compare_and_swap does not take, a missing
 * buffer (in every data-movement call), a displacement outside the window. */
#include <string.h>

#include "mtest.h"

struct long_int {
    long v;
    int i;
};

static long *mmem; /* this rank's window memory */

static void no_op_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}

/* The model of one step on a long: what `op` leaves in *slot given origin `o`. */
static long model_long(MPI_Op op, long o, long slot)
{
    if (op == MPI_SUM) return slot + o;
    if (op == MPI_PROD) return slot * o;
    if (op == MPI_MAX) return o > slot ? o : slot;
    if (op == MPI_MIN) return o < slot ? o : slot;
    if (op == MPI_BAND) return slot & o;
    if (op == MPI_BOR) return slot | o;
    if (op == MPI_BXOR) return slot ^ o;
    if (op == MPI_LAND) return slot && o;
    if (op == MPI_LOR) return slot || o;
    if (op == MPI_LXOR) return !slot != !o;
    if (op == MPI_REPLACE) return o;
    return slot; /* MPI_NO_OP */
}

/* Runs the whole sequence on the next rank's slots; sync: 0 lock_all, 1 lock, 2 fence. */
static void run_sequence(MPI_Win win, int next, int sync)
{
    static const MPI_Op ops[] = {MPI_SUM,  MPI_PROD, MPI_MAX,  MPI_MIN,     MPI_BAND, MPI_BOR,
                                 MPI_BXOR, MPI_LAND, MPI_LOR,  MPI_LXOR,    MPI_NO_OP,
                                 MPI_SUM,  MPI_REPLACE, MPI_MAX, MPI_MIN};
    const int nops = (int)(sizeof ops / sizeof ops[0]);
    long model = 7;
    double dmodel = 1.5;
    int pmodel[2] = {50, 3};
    if (sync == 0)
        MPI_Win_lock_all(0, win);
    for (int k = 0; k < nops; k++) {
        long o = 3 + k % 5, got = -1;
        double d = 0.25 * k, dgot = -1;
        int pair[2] = {40 + 7 * (k % 3), k}, pgot[2] = {-1, -1};
        if (sync == 1)
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win);
        if (sync == 2)
            MPI_Win_fence(0, win);
        CHECK(MPI_Fetch_and_op(&o, &got, MPI_LONG, next, 0, ops[k], win) == MPI_SUCCESS);
        MPI_Op dop = k % 3 == 0 ? MPI_SUM : k % 3 == 1 ? MPI_MAX : MPI_REPLACE;
        CHECK(MPI_Fetch_and_op(&d, &dgot, MPI_DOUBLE, next, 1, dop, win) == MPI_SUCCESS);
        MPI_Op pop = k % 2 ? MPI_MINLOC : MPI_MAXLOC;
        CHECK(MPI_Fetch_and_op(pair, pgot, MPI_2INT, next, 2, pop, win) == MPI_SUCCESS);
        if (sync == 1)
            MPI_Win_unlock(next, win);
        if (sync == 2)
            MPI_Win_fence(0, win);
        if (sync == 0)
            MPI_Win_flush(next, win);
        CHECK(got == model);
        CHECK(dgot == dmodel);
        CHECK(pgot[0] == pmodel[0] && pgot[1] == pmodel[1]);
        model = model_long(ops[k], o, model);
        dmodel = dop == MPI_SUM ? dmodel + d : dop == MPI_MAX ? (d > dmodel ? d : dmodel) : d;
        int better = pop == MPI_MINLOC ? pair[0] < pmodel[0] : pair[0] > pmodel[0];
        if (better || (pair[0] == pmodel[0] && pair[1] < pmodel[1])) {
            pmodel[0] = pair[0];
            pmodel[1] = pair[1];
        }
    }
    /* The final contents, read back with MPI_NO_OP (origin ignored). */
    long last = -1;
    if (sync != 0)
        MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win);
    CHECK(MPI_Fetch_and_op(NULL, &last, MPI_LONG, next, 0, MPI_NO_OP, win) == MPI_SUCCESS);
    if (sync != 0)
        MPI_Win_unlock(next, win);
    else
        MPI_Win_unlock_all(win);
    CHECK(last == model);
    /* Compare_and_swap: swaps when the compare value matches, never otherwise. */
    long swap = model + 100, other = model + 1, old = -1;
    if (sync == 0)
        MPI_Win_lock_all(0, win);
    else if (sync == 1)
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win);
    else
        MPI_Win_fence(0, win);
    CHECK(MPI_Compare_and_swap(&swap, &other, &old, MPI_LONG, next, 0, win) == MPI_SUCCESS);
    if (sync != 2)
        MPI_Win_flush(next, win);
    else
        MPI_Win_fence(0, win);
    CHECK(old == model);
    CHECK(MPI_Compare_and_swap(&swap, &model, &old, MPI_LONG, next, 0, win) == MPI_SUCCESS);
    if (sync == 0)
        MPI_Win_unlock_all(win);
    else if (sync == 1)
        MPI_Win_unlock(next, win);
    else
        MPI_Win_fence(0, win);
    CHECK(old == model);
    MPI_Barrier(MPI_COMM_WORLD);
    long mine;
    memcpy(&mine, mmem, sizeof mine);
    CHECK(mine == swap);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size;
    /* Slots of 16 bytes (disp_unit): 0 a long, 1 a double, 2 an MPI_2INT, 3 the counter. */
    char *mem;
    MPI_Win win;
    MPI_Win_allocate(4 * 16, 16, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    mmem = (long *)mem;

    for (int sync = 0; sync < 3; sync++) {
        long l = 7;
        double d = 1.5;
        int p[2] = {50, 3};
        memset(mem, 0, 4 * 16);
        memcpy(mem, &l, sizeof l);
        memcpy(mem + 16, &d, sizeof d);
        memcpy(mem + 32, p, sizeof p);
        MPI_Barrier(MPI_COMM_WORLD);
        run_sequence(win, next, sync);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* Every rank adds into rank 0's counter at once. */
    long one = 1, old, total = 0;
    MPI_Win_lock_all(0, win);
    for (int k = 0; k < 1000; k++)
        CHECK(MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 3, MPI_SUM, win) == MPI_SUCCESS);
    /* The same with Compare_and_swap loops: read, then swap in one more while nobody else
     * did in between. */
    for (int k = 0; k < 1000; k++) {
        long seen_value = 0, want, got;
        CHECK(MPI_Fetch_and_op(NULL, &seen_value, MPI_LONG, 0, 3, MPI_NO_OP, win) ==
              MPI_SUCCESS);
        MPI_Win_flush(0, win);
        for (;;) {
            want = seen_value + 1;
            CHECK(MPI_Compare_and_swap(&want, &seen_value, &got, MPI_LONG, 0, 3, win) ==
                  MPI_SUCCESS);
            MPI_Win_flush(0, win);
            if (got == seen_value)
                break;
            seen_value = got;
        }
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        memcpy(&total, mem + 48, sizeof total);
        CHECK(total == 2000L * size);
    }

    /* Errors, each through the window's handler. */
    MPI_Op user;
    MPI_Op_create(no_op_fn, 1, &user);
    MPI_Datatype two_longs;
    MPI_Type_contiguous(2, MPI_LONG, &two_longs);
    MPI_Type_commit(&two_longs);
    double d = 1;
    long l = 1, lr;
    struct long_int li = {1, 1}, lir;
    MPI_Win_lock_all(0, win);
    CHECK(MPI_Fetch_and_op(&d, &d, MPI_DOUBLE, next, 1, MPI_BOR, win) == MPI_ERR_OP);
    CHECK(MPI_Fetch_and_op(&l, &lr, MPI_LONG, next, 0, user, win) == MPI_ERR_OP);
    CHECK(MPI_Fetch_and_op(&li, &lir, MPI_LONG_INT, next, 0, MPI_SUM, win) == MPI_ERR_OP);
    CHECK(MPI_Fetch_and_op(&l, &lr, two_longs, next, 0, MPI_SUM, win) == MPI_ERR_TYPE);
    CHECK(MPI_Fetch_and_op(&l, &lr, MPI_LONG, next, 4, MPI_SUM, win) == MPI_ERR_RMA_RANGE);
    CHECK(MPI_Fetch_and_op(&l, &lr, MPI_LONG, next, -1, MPI_SUM, win) == MPI_ERR_DISP);
    CHECK(MPI_Fetch_and_op(&l, &lr, MPI_LONG, size, 0, MPI_SUM, win) == MPI_ERR_RANK);
    CHECK(MPI_Fetch_and_op(&l, &lr, MPI_LONG, MPI_PROC_NULL, 0, MPI_SUM, win) == MPI_SUCCESS);
    /* A missing buffer (NULL with data of a predefined type), in every data-movement call. */
    CHECK(MPI_Fetch_and_op(&l, NULL, MPI_LONG, next, 0, MPI_SUM, win) == MPI_ERR_BUFFER);
    CHECK(MPI_Fetch_and_op(NULL, &lr, MPI_LONG, next, 0, MPI_REPLACE, win) == MPI_ERR_BUFFER);
    CHECK(MPI_Put(NULL, 1, MPI_LONG, next, 0, 1, MPI_LONG, win) == MPI_ERR_BUFFER);
    CHECK(MPI_Get(NULL, 1, MPI_LONG, next, 0, 1, MPI_LONG, win) == MPI_ERR_BUFFER);
    CHECK(MPI_Accumulate(NULL, 1, MPI_LONG, next, 0, 1, MPI_LONG, MPI_SUM, win) ==
          MPI_ERR_BUFFER);
    CHECK(MPI_Get_accumulate(&l, 1, MPI_LONG, NULL, 1, MPI_LONG, next, 0, 1, MPI_LONG, MPI_SUM,
                             win) == MPI_ERR_BUFFER);
    /* ...but not without data, nor the origin of MPI_NO_OP (ignored, §12.3.4). */
    CHECK(MPI_Put(NULL, 0, MPI_LONG, next, 0, 0, MPI_LONG, win) == MPI_SUCCESS);
    CHECK(MPI_Get_accumulate(NULL, 1, MPI_LONG, &lr, 1, MPI_LONG, next, 0, 1, MPI_LONG,
                             MPI_NO_OP, win) == MPI_SUCCESS);
    CHECK(MPI_Compare_and_swap(&d, &d, &d, MPI_DOUBLE, next, 1, win) == MPI_ERR_TYPE);
    CHECK(MPI_Compare_and_swap(&l, NULL, &lr, MPI_LONG, next, 0, win) == MPI_ERR_BUFFER);
    CHECK(MPI_Compare_and_swap(&l, &l, &lr, MPI_LONG, next, 4, win) == MPI_ERR_RMA_RANGE);
    MPI_Win_unlock_all(win);
    CHECK(MPI_Fetch_and_op(&l, &lr, MPI_LONG, next, 0, MPI_SUM, win) == MPI_ERR_RMA_SYNC);
    MPI_Type_free(&two_longs);
    MPI_Op_free(&user);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS);
    return mtest_finish();
}
