/* errhan_adderr.c: added error classes, codes and strings, and their removal (MPI-4.1 §9.5).
 * Many rounds of adding and removing stay fast and reuse the removed values, so
 * MPI_LASTUSEDCODE stops growing after the first round; a removed value is no longer a code;
 * a class with codes left, a predefined class or code, and a value of the other kind cannot be
 * removed; the values added last have their classes and strings. */
#include <string.h>

#include "mtest.h"

enum { NCLASSES = 32, NCODES = 5, ROUNDS = 3000 };

static int last_used(void)
{
    int *v = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag);
    return flag ? *v : -1;
}

static int fails_with_arg(int err)
{
    int cls = MPI_SUCCESS;
    MPI_Error_class(err, &cls);
    return err != MPI_SUCCESS && cls == MPI_ERR_ARG;
}

int main(int argc, char **argv)
{
    int cls[NCLASSES], code[NCLASSES][NCODES], out, len, high = 0;
    char s[MPI_MAX_ERROR_STRING], got[MPI_MAX_ERROR_STRING];
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < NCLASSES; i++) {
            CHECK(MPI_Add_error_class(&cls[i]) == MPI_SUCCESS);
            for (int j = 0; j < NCODES; j++) {
                CHECK(MPI_Add_error_code(cls[i], &code[i][j]) == MPI_SUCCESS);
                CHECK(MPI_Add_error_string(code[i][j], "a string") == MPI_SUCCESS);
            }
        }
        if (round == 0)
            high = last_used();
        else if (last_used() != high) {
            CHECK(last_used() == high); /* removed values are handed out again */
            break;
        }
        /* A class with codes left is not removed. */
        CHECK(fails_with_arg(MPI_Remove_error_class(cls[0])));
        for (int i = 0; i < NCLASSES; i++) {
            for (int j = 0; j < NCODES; j++) {
                CHECK(MPI_Remove_error_string(code[i][j]) == MPI_SUCCESS);
                CHECK(MPI_Remove_error_code(code[i][j]) == MPI_SUCCESS);
            }
            CHECK(MPI_Remove_error_class(cls[i]) == MPI_SUCCESS);
        }
    }
    /* Removed values are gone; predefined ones and values of the other kind stay. */
    CHECK(fails_with_arg(MPI_Error_class(code[3][2], &out)));
    CHECK(fails_with_arg(MPI_Remove_error_code(code[3][2])));
    CHECK(fails_with_arg(MPI_Remove_error_class(MPI_ERR_ARG)));
    CHECK(fails_with_arg(MPI_Remove_error_code(MPI_ERR_OTHER)));
    CHECK(fails_with_arg(MPI_Remove_error_string(MPI_ERR_TYPE)));

    /* The last values added have their classes and strings. */
    for (int i = 0; i < NCLASSES; i++) {
        MPI_Add_error_class(&cls[i]);
        for (int j = 0; j < NCODES; j++) {
            MPI_Add_error_code(cls[i], &code[i][j]);
            snprintf(s, sizeof s, "code %d of class %d", j, i);
            MPI_Add_error_string(code[i][j], s);
        }
    }
    CHECK(fails_with_arg(MPI_Remove_error_code(cls[1]))); /* a class, not a code */
    CHECK(fails_with_arg(MPI_Remove_error_class(code[1][1]))); /* a code, not a class */
    CHECK(last_used() == high);
    for (int i = 0; i < NCLASSES; i++) {
        CHECK(MPI_Error_class(cls[i], &out) == MPI_SUCCESS && out == cls[i]);
        for (int j = 0; j < NCODES; j++) {
            snprintf(s, sizeof s, "code %d of class %d", j, i);
            CHECK(MPI_Error_class(code[i][j], &out) == MPI_SUCCESS && out == cls[i]);
            CHECK(MPI_Error_string(code[i][j], got, &len) == MPI_SUCCESS && !strcmp(got, s));
        }
    }
    return mtest_finish();
}
