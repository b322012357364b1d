/* spawn_basic.c: MPI_Comm_spawn of the program itself (MPI-4.1 §11.8.2).
 * The parents (the whole world, root = the last world rank) spawn 3 children with arguments,
 * then 1 child with MPI_ARGV_NULL and MPI_ERRCODES_IGNORE. Children check their argv (argv[0]
 * is the command), their own MPI_COMM_WORLD, MPI_APPNUM, MPI_UNIVERSE_SIZE, the parent
 * intercommunicator (its remote group is the parents' communicator, its name), and exchange
 * data with the parents point-to-point and by collectives over the intercommunicator and over
 * its merge. After MPI_Comm_free (first spawn) or MPI_Comm_disconnect (second spawn, both
 * sides) of the parent, MPI_Comm_get_parent gives MPI_COMM_NULL.
 * Every child's error count reaches world rank 0 through a reduction over the merged
 * communicator, so "No Errors" covers the children too. */
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mtest.h"

#define NCHILD 3

static int merged_checks(MPI_Comm inter, int high, int nparents, int nchildren, int errors)
{
    MPI_Comm merged;
    int size = -1, rank = -1, total = -1;
    CHECK(MPI_Intercomm_merge(inter, high, &merged) == MPI_SUCCESS);
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &rank);
    CHECK(size == nparents + nchildren);
    int value = rank, sum = -1;
    CHECK(MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, merged) == MPI_SUCCESS);
    CHECK(sum == size * (size - 1) / 2);
    errors += mtest_errors;
    CHECK(MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, merged) == MPI_SUCCESS);
    MPI_Comm_free(&merged);
    return total; /* at merged rank 0 (a parent: the parents said high = 0) */
}

static void child_common(MPI_Comm parent, int nparents)
{
    int flag = 0, size = -1, rsize = -1, wsize = -1, wrank = -1, prank = -1, *val;
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK(parent != MPI_COMM_NULL);
    CHECK(MPI_Comm_test_inter(parent, &flag) == MPI_SUCCESS && flag);
    MPI_Comm_size(parent, &size);
    MPI_Comm_remote_size(parent, &rsize);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_rank(parent, &prank);
    CHECK(size == wsize && rsize == nparents && prank == wrank);
    CHECK(MPI_Comm_get_name(parent, name, &len) == MPI_SUCCESS && !strcmp(name, "MPI_COMM_PARENT"));
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &val, &flag) == MPI_SUCCESS && flag &&
          *val == 0);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &val, &flag) == MPI_SUCCESS &&
          flag && *val >= nparents);
    /* The remote group is the parents' communicator: its world ranks are not ours. */
    MPI_Group local, remote, world, inter;
    int result;
    MPI_Comm_group(parent, &local);
    MPI_Comm_remote_group(parent, &remote);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_compare(local, world, &result);
    CHECK(result == MPI_IDENT);
    MPI_Group_intersection(remote, world, &inter);
    MPI_Group_size(inter, &result);
    CHECK(result == 0);
    MPI_Group_free(&local);
    MPI_Group_free(&remote);
    MPI_Group_free(&world);
    MPI_Group_free(&inter);
}

/* argv[0] is the command the parents gave: the program's own path. (open + fstat: valgrind
 * redirects the open of /proc/self/exe, not a stat.) */
static int same_file(const char *a, const char *b)
{
    struct stat x, y;
    int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY);
    int same = fa >= 0 && fb >= 0 && fstat(fa, &x) == 0 && fstat(fb, &y) == 0 &&
               x.st_dev == y.st_dev && x.st_ino == y.st_ino;
    close(fa);
    close(fb);
    return same;
}

static int child_main(int argc, char **argv)
{
    MPI_Comm parent;
    int nparents = -1, wrank, wsize;
    MPI_Comm_get_parent(&parent);
    MPI_Comm_remote_size(parent, &nparents);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    child_common(parent, nparents);
    CHECK(same_file(argv[0], "/proc/self/exe"));
    if (argc == 1) { /* the MPI_ARGV_NULL spawn */
        CHECK(wsize == 1);
    } else {
        CHECK(argc == 4 && !strcmp(argv[1], "child") && !strcmp(argv[2], "a b") &&
              !strcmp(argv[3], "") && wsize == NCHILD);
        /* Point-to-point: parent (i mod nparents) sends i*10; answer with i*10+1. */
        int v = -1;
        CHECK(MPI_Recv(&v, 1, MPI_INT, wrank % nparents, 7, parent, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        CHECK(v == wrank * 10);
        v++;
        CHECK(MPI_Send(&v, 1, MPI_INT, wrank % nparents, 8, parent) == MPI_SUCCESS);
        /* Collectives over the intercommunicator: root is parent 0. */
        int b = -1;
        CHECK(MPI_Bcast(&b, 1, MPI_INT, 0, parent) == MPI_SUCCESS && b == 4242);
        int mine = 1000 + wrank, sum = -1;
        CHECK(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, parent) == MPI_SUCCESS);
        CHECK(sum == nparents * (nparents - 1) / 2); /* the parents' ranks */
        CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    }
    merged_checks(parent, 1, nparents, wsize, 0);
    if (argc == 1) /* the second spawn disconnects (§11.10.4), the first frees */
        CHECK(MPI_Comm_disconnect(&parent) == MPI_SUCCESS && parent == MPI_COMM_NULL);
    else
        CHECK(MPI_Comm_free(&parent) == MPI_SUCCESS);
    MPI_Comm_get_parent(&parent);
    CHECK(parent == MPI_COMM_NULL);
    int errors = mtest_errors;
    MPI_Finalize();
    return errors ? 1 : 0;
}

int main(int argc, char **argv)
{
    MPI_Comm parent, inter;
    int rank, size, errs = 0, flag, rsize, codes[NCHILD];
    char *args[] = {"child", "a b", "", NULL};

    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL)
        return child_main(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* MPI_UNIVERSE_SIZE: mpiexec -usize N (MINI_MPI_UNIVERSE_SIZE), by default the size. */
    int *usize, uflag = 0;
    const char *u = getenv("MINI_MPI_UNIVERSE_SIZE");
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &uflag) == MPI_SUCCESS &&
          uflag && *usize == (u && atoi(u) > size ? atoi(u) : size));
    for (int i = 0; i < NCHILD; i++)
        codes[i] = -1;
    /* Arguments are significant at the root only: the others pass garbage. */
    int root = size - 1;
    CHECK(MPI_Comm_spawn(rank == root ? argv[0] : NULL, rank == root ? args : NULL,
                         rank == root ? NCHILD : -5, MPI_INFO_NULL, root, MPI_COMM_WORLD,
                         &inter, codes) == MPI_SUCCESS);
    for (int i = 0; i < NCHILD; i++)
        CHECK(codes[i] == MPI_SUCCESS);
    CHECK(MPI_Comm_test_inter(inter, &flag) == MPI_SUCCESS && flag);
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(rsize == NCHILD);
    int lrank = -1;
    MPI_Comm_rank(inter, &lrank);
    CHECK(lrank == rank);
    for (int c = 0; c < NCHILD; c++) {
        if (c % size != rank)
            continue;
        int v = c * 10;
        CHECK(MPI_Send(&v, 1, MPI_INT, c, 7, inter) == MPI_SUCCESS);
        CHECK(MPI_Recv(&v, 1, MPI_INT, c, 8, inter, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(v == c * 10 + 1);
    }
    int b = 4242;
    CHECK(MPI_Bcast(&b, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter) == MPI_SUCCESS);
    int mine = rank, sum = -1;
    CHECK(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter) == MPI_SUCCESS);
    CHECK(sum == NCHILD * 1000 + NCHILD * (NCHILD - 1) / 2);
    errs += merged_checks(inter, 0, size, NCHILD, 0);
    MPI_Comm_free(&inter);

    /* No arguments, no error codes. */
    CHECK(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                         MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
    errs += merged_checks(inter, 0, size, 1, 0);
    CHECK(MPI_Comm_disconnect(&inter) == MPI_SUCCESS && inter == MPI_COMM_NULL);

    if (rank == 0 && errs)
        fprintf(stderr, "the children saw %d errors\n", errs);
    if (rank == 0 && errs) /* written only then: with MINI_MPI_PRIVATIZE=0 the counter is shared */
        mtest_errors += errs;
    return mtest_finish();
}
