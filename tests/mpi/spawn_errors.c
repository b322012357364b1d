/* spawn_errors.c: bad input to the spawn calls, raised through the error handler at every
 * member (never a crash or a hang). MPI_COMM_NULL or an intercommunicator as comm:
 * MPI_ERR_COMM; a root out of range: MPI_ERR_ROOT; at the root only, maxprocs <= 0, a NULL
 * command or a spawn_multiple count of 0: MPI_ERR_ARG, an invalid info: MPI_ERR_INFO, a
 * missing command, a file that is not executable, an executable that mpicc did not link:
 * MPI_ERR_SPAWN (and the error codes say so); a NULL intercomm pointer, a NULL argument to
 * MPI_Comm_get_parent: MPI_ERR_ARG. A user error handler sees MPI_ERR_SPAWN once per member.
 * With argv[1] "fatal", a missing command under MPI_ERRORS_ARE_FATAL ends the job with status
 * MPI_ERR_SPAWN. */
#include <string.h>

#include "mtest.h"

static int handler_calls, handler_class;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    MPI_Error_class(*code, &handler_class);
}

static int class_of(int rc)
{
    int c = rc;
    MPI_Error_class(rc, &c);
    return c;
}

static void expect(int rc, int klass, MPI_Comm inter)
{
    CHECK(class_of(rc) == klass);
    CHECK(inter == MPI_COMM_NULL);
}

int main(int argc, char **argv)
{
    MPI_Comm parent, inter, dup;
    int rank, size, rc, codes[2];
    char *self;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) { /* the child of the valid spawn below */
        MPI_Comm_free(&parent);
        MPI_Finalize();
        return 0;
    }
    self = argv[0];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && !strcmp(argv[1], "fatal")) {
        MPI_Comm_spawn("./no_such_program", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                       &inter, MPI_ERRCODES_IGNORE);
        printf("MPI_Comm_spawn returned under MPI_ERRORS_ARE_FATAL\n");
        return 1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);

    inter = MPI_COMM_WORLD;
    rc = MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_NULL, &inter, NULL);
    expect(rc, MPI_ERR_COMM, inter);
    inter = MPI_COMM_WORLD;
    rc = MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, -1, dup, &inter, NULL);
    expect(rc, MPI_ERR_ROOT, inter);
    inter = MPI_COMM_WORLD;
    rc = MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, size, dup, &inter, NULL);
    expect(rc, MPI_ERR_ROOT, inter);
    /* Root-only arguments: the others pass valid ones; everyone gets the root's error. */
    int root = size - 1;
    inter = MPI_COMM_WORLD;
    rc = MPI_Comm_spawn(self, MPI_ARGV_NULL, rank == root ? 0 : 1, MPI_INFO_NULL, root, dup,
                        &inter, NULL);
    expect(rc, MPI_ERR_ARG, inter);
    inter = MPI_COMM_WORLD;
    rc = MPI_Comm_spawn(self, MPI_ARGV_NULL, rank == root ? -3 : 1, MPI_INFO_NULL, root, dup,
                        &inter, NULL);
    expect(rc, MPI_ERR_ARG, inter);
    inter = MPI_COMM_WORLD;
    rc = MPI_Comm_spawn(rank == root ? NULL : self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, root, dup,
                        &inter, NULL);
    expect(rc, MPI_ERR_ARG, inter);
    MPI_Info info, stale;
    MPI_Info_create(&info);
    stale = info;
    MPI_Info_free(&info); /* `stale` names no info any more */
    inter = MPI_COMM_WORLD;
    rc = MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, rank == root ? stale : MPI_INFO_NULL, root, dup,
                        &inter, NULL);
    expect(rc, MPI_ERR_INFO, inter);
    char *cmds[1] = {self};
    int np[1] = {1};
    MPI_Info infos[1] = {MPI_INFO_NULL};
    inter = MPI_COMM_WORLD;
    rc = MPI_Comm_spawn_multiple(rank == root ? 0 : 1, cmds, MPI_ARGVS_NULL, np, infos, root, dup,
                                 &inter, NULL);
    expect(rc, MPI_ERR_ARG, inter);
    /* Commands that cannot run. */
    FILE *f = fopen("not_executable", "w");
    if (f) {
        fputs("data\n", f);
        fclose(f);
    }
    const char *bad[] = {"./no_such_program", "no_such_program_in_path", "./not_executable",
                         "true" /* /usr/bin/true: not linked by mpicc */};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        codes[0] = codes[1] = -1;
        inter = MPI_COMM_WORLD;
        rc = MPI_Comm_spawn(bad[i], MPI_ARGV_NULL, 2, MPI_INFO_NULL, root, dup, &inter, codes);
        expect(rc, MPI_ERR_SPAWN, inter);
        CHECK(class_of(codes[0]) == MPI_ERR_SPAWN && class_of(codes[1]) == MPI_ERR_SPAWN);
    }
    /* Local arguments. */
    rc = MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, dup, NULL, NULL);
    CHECK(class_of(rc) == MPI_ERR_ARG);
    rc = MPI_Comm_get_parent(NULL);
    CHECK(class_of(rc) == MPI_ERR_ARG);
    /* An intercommunicator as comm. */
    CHECK(MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, dup, &inter,
                         MPI_ERRCODES_IGNORE) == MPI_SUCCESS);
    MPI_Comm inter2 = MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    rc = MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, inter, &inter2, NULL);
    expect(rc, MPI_ERR_COMM, inter2);
    MPI_Comm_free(&inter);
    /* Through a user handler. */
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(dup, eh);
    rc = MPI_Comm_spawn("./no_such_program", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, dup, &inter,
                        MPI_ERRCODES_IGNORE);
    CHECK(class_of(rc) == MPI_ERR_SPAWN && handler_calls == 1 && handler_class == MPI_ERR_SPAWN);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&dup);
    return mtest_finish();
}
