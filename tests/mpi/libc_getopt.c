/*
 * libc_getopt.c: every rank parses options with getopt_long and getopt, as each process of a
 * real job does, at the same time as the others: one getopt step per barrier, so that every
 * rank is inside its parse (between the short options of a cluster "-ab", between an option and
 * its argument) while the others move. Each must see exactly what a process sees: the same
 * options, optind, optarg, optopt and permuted argv, opterr honoured (and glibc's message when
 * it is on). Built twice (tests/mpi/testlist.libc): with mpicc's -fPIC, where the program
 * reaches optind through its GOT, and with -fPIE, where it has its own copy of optind.
 *
 * Expects the command line: -v input.dat --count 3 -x7 --name=ulfm out.dat
 */
#include <fcntl.h>
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size, errors;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            errors++;                                                                     \
            printf("rank %d: line %d: %s\n", rank, __LINE__, #cond);                       \
        }                                                                                 \
    } while (0)

static int verbose, count = -1, xval = -1;
static const char *name;
static const struct option longopts[] = {
    {"verbose", no_argument, &verbose, 1},
    {"count", required_argument, NULL, 'c'},
    {"name", required_argument, NULL, 'N'},
    {"xval", optional_argument, NULL, 'x'},
    {NULL, 0, NULL, 0},
};

/* The command line, parsed with getopt_long in lockstep. */
static void parse_command_line(int argc, char **argv)
{
    for (;;) {
        int idx = -1;
        MPI_Barrier(MPI_COMM_WORLD);
        int c = getopt_long(argc, argv, "vc:x::N:", longopts, &idx);
        if (c == -1)
            break;
        switch (c) {
        case 'v': verbose = 1; break;
        case 'c': count = atoi(optarg); CHECK(idx == 1); break;
        case 'x': xval = optarg ? atoi(optarg) : 0; break;
        case 'N': name = optarg; CHECK(idx == 2); break;
        default: CHECK(!"unexpected option"); break;
        }
    }
    CHECK(argc == 8);
    CHECK(verbose == 1 && count == 3 && xval == 7 && name && !strcmp(name, "ulfm"));
    CHECK(optind == 6); /* the non-options were permuted to the tail */
    CHECK(argc == 8 && !strcmp(argv[1], "-v") && !strcmp(argv[2], "--count") &&
          !strcmp(argv[6], "input.dat") && !strcmp(argv[7], "out.dat"));
}

/* A vector of the rank's own, restarted with optind = 0: "-r <rank> -ab -- -z". */
static void parse_own_vector(void)
{
    char rank_text[16];
    snprintf(rank_text, sizeof(rank_text), "%d", rank);
    char *v[] = {"prog", "-r", rank_text, "-ab", "--", "-z", NULL};
    int expect[] = {'r', 'a', 'b', -1}, i = 0;
    optind = 0;
    for (;;) {
        MPI_Barrier(MPI_COMM_WORLD);
        int c = getopt(6, v, "r:ab");
        CHECK(i < 4 && c == expect[i]);
        if (c == 'r')
            CHECK(optarg == v[2] && optind == 3);
        if (c == 'a')
            CHECK(optind == 3); /* still inside "-ab" */
        if (c == 'b')
            CHECK(optind == 4);
        if (c == -1 || ++i == 4)
            break;
    }
    CHECK(optind == 5 && !strcmp(v[optind], "-z"));
}

/* Reads what the parse printed on stderr. */
static int parse_with_stderr(int err_on, char *out, size_t len)
{
    char *v[] = {"prog", "-q", "-a", NULL};
    FILE *tmp = tmpfile();
    int saved = dup(2), c1, c2, c3;
    fflush(stderr);
    dup2(fileno(tmp), 2);
    optind = 1; /* the other usual way to start again */
    opterr = err_on;
    c1 = getopt(3, v, "ab");
    CHECK(c1 != '?' || optopt == 'q');
    c2 = getopt(3, v, "ab");
    c3 = getopt(3, v, "ab");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(out, 1, len - 1, tmp);
    out[n] = '\0';
    fclose(tmp);
    CHECK(c1 == '?' && c2 == 'a' && c3 == -1);
    return (int)n;
}

int main(int argc, char **argv)
{
    char text[256];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    parse_command_line(argc, argv);
    parse_own_vector();
    /* opterr and stderr are checked one rank at a time (stderr is the process's). */
    for (int turn = 0; turn < size; turn++) {
        if (turn == rank) {
            CHECK(parse_with_stderr(0, text, sizeof(text)) == 0);
            parse_with_stderr(1, text, sizeof(text));
            CHECK(!strcmp(text, "prog: invalid option -- 'q'\n"));
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }

    int total;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
