/*
 * libc_static.c: C library calls with a position or a static result are per rank, as per
 * process in a real job, while the ranks call them at the same time (one call per barrier):
 * strtok walks the rank's own string; localtime, gmtime, ctime and asctime return the rank's
 * own buffers (checked against the reentrant calls after the other ranks made theirs);
 * getpwuid/getpwnam/getgrgid keep the rank's result. Thread-clean, so that it also runs with
 * MINI_MPI_PRIVATIZE=0.
 */
#include <grp.h>
#include <mpi.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static __thread int rank, errors;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            errors++;                                                                     \
            printf("rank %d: line %d: %s\n", rank, __LINE__, #cond);                       \
        }                                                                                 \
    } while (0)

static void barrier(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    /* strtok: "r<rank>,a<rank>;b<rank>,,c<rank>" in steps. */
    char text[128], expect[4][32];
    snprintf(text, sizeof(text), "r%d,a%d;b%d,,c%d", rank, rank, rank, rank);
    snprintf(expect[0], 32, "r%d", rank);
    snprintf(expect[1], 32, "a%d", rank);
    snprintf(expect[2], 32, "b%d", rank);
    snprintf(expect[3], 32, "c%d", rank);
    char *tok = strtok(text, ",;");
    for (int i = 0; i < 4; i++) {
        barrier();
        CHECK(tok && !strcmp(tok, expect[i]));
        tok = strtok(NULL, ",;");
    }
    CHECK(tok == NULL);

    /* Times: each rank its own instant. */
    time_t t = (time_t)1000000000 + rank * 86400 * 40 + rank * 3671;
    struct tm mine, *p;
    char buf[64];
    p = gmtime(&t);
    barrier();
    gmtime_r(&t, &mine);
    CHECK(p->tm_yday == mine.tm_yday && p->tm_hour == mine.tm_hour && p->tm_min == mine.tm_min);
    char *s = asctime(p);
    barrier();
    CHECK(!strcmp(s, asctime_r(&mine, buf)));
    p = localtime(&t);
    barrier();
    localtime_r(&t, &mine);
    CHECK(p->tm_yday == mine.tm_yday && p->tm_hour == mine.tm_hour && p->tm_sec == mine.tm_sec);
    s = ctime(&t);
    barrier();
    CHECK(!strcmp(s, ctime_r(&t, buf)));
    CHECK(s == asctime(&mine) && gmtime(&t) == localtime(&t)); /* shared buffers, as glibc's */
    struct tm odd = {.tm_year = 20000, .tm_mon = 13, .tm_wday = -1, .tm_mday = 5};
    CHECK(!strcmp(asctime(&odd), "??? ???  5 00:00:00 21900\n"));

    /* passwd and group lookups: ranks alternate between two users (root, and bin or daemon,
     * which Debian always has). */
    uid_t uid = rank % 2 ? 0 : rank % 4 ? 1 : 2;
    struct passwd *pw = getpwuid(uid);
    struct group *gr = getgrgid(0);
    barrier();
    CHECK(pw && pw->pw_uid == uid);
    CHECK(gr && gr->gr_gid == 0);
    char name[256];
    snprintf(name, sizeof(name), "%s", pw ? pw->pw_name : "");
    pw = getpwnam(name);
    barrier();
    CHECK(pw && pw->pw_uid == uid && !strcmp(pw->pw_name, name));
    CHECK(getpwnam("no-such-user-mini-mpi") == NULL);

    int total;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
