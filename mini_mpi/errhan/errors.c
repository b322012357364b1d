/*
 * errors.c: error classes and codes: the predefined classes of classes.def, and the classes,
 * codes and strings a program adds (MPI_Add_error_class/code/string). Added ones are process-
 * wide (one table for all ranks, behind a mutex): a value handed to one rank is never handed to
 * another, so codes stay unambiguous even if a program passes them between ranks.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmpi.h"

struct predefined {
    int value;
    const char *name;
    const char *message;
};

static const struct predefined predefined[] = {
#define MMPI_ERROR_CLASS(name, message) {name, #name, message},
#include "errhan/classes.def"
#undef MMPI_ERROR_CLASS
};
#define NPREDEFINED ((int)(sizeof(predefined) / sizeof(predefined[0])))

_Static_assert(sizeof(predefined) / sizeof(predefined[0]) == MPI_ERR_LASTCODE + 1,
               "classes.def and mpi.h disagree on the number of error classes");

/* One entry per value above MPI_ERR_LASTCODE. */
struct added {
    int errclass;       /* the class of this code; a class's own entry holds itself */
    bool removed;
    char *string;       /* NULL until MPI_Add_error_string */
};

static pthread_mutex_t added_lock = PTHREAD_MUTEX_INITIALIZER;
static struct added *added;     /* added_lock; index value - (MPI_ERR_LASTCODE + 1) */
static int nadded;              /* added_lock */

static struct added *added_entry(int code)
{
    int i = code - (MPI_ERR_LASTCODE + 1);
    return (i >= 0 && i < nadded && !added[i].removed) ? &added[i] : NULL;
}

int mmpi_error_class_of(int code, int *errclass)
{
    if (code >= 0 && code <= MPI_ERR_LASTCODE) {
        *errclass = code;
        return MPI_SUCCESS;
    }
    pthread_mutex_lock(&added_lock);
    struct added *a = added_entry(code);
    if (a)
        *errclass = a->errclass;
    pthread_mutex_unlock(&added_lock);
    return a ? MPI_SUCCESS : MPI_ERR_ARG;
}

int mmpi_error_string(int code, char *buf)
{
    if (code >= 0 && code < NPREDEFINED) {
        snprintf(buf, MPI_MAX_ERROR_STRING, "%s: %s", predefined[code].name,
                 predefined[code].message);
        return 1;
    }
    pthread_mutex_lock(&added_lock);
    struct added *a = added_entry(code);
    if (a)
        snprintf(buf, MPI_MAX_ERROR_STRING, "%s", a->string ? a->string : "");
    pthread_mutex_unlock(&added_lock);
    return a != NULL;
}

/* Adds a code of class errclass (errclass < 0: a new class, its own class). */
int mmpi_error_add(int errclass, int *value)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&added_lock);
    if (errclass >= 0) {
        struct added *c = errclass <= MPI_ERR_LASTCODE ? NULL : added_entry(errclass);
        if (errclass > MPI_ERR_LASTCODE && (!c || c->errclass != errclass)) {
            err = MPI_ERR_ARG;
            goto out;
        }
    }
    struct added *grown = realloc(added, (size_t)(nadded + 1) * sizeof(*added));
    if (!grown) {
        err = MPI_ERR_NO_MEM;
        goto out;
    }
    added = grown;
    *value = MPI_ERR_LASTCODE + 1 + nadded;
    added[nadded].errclass = errclass >= 0 ? errclass : *value;
    added[nadded].removed = false;
    added[nadded].string = NULL;
    nadded++;
out:
    pthread_mutex_unlock(&added_lock);
    return err;
}

int mmpi_error_set_string(int code, const char *string)
{
    int err = MPI_SUCCESS;
    if (code >= 0 && code <= MPI_ERR_LASTCODE)
        return MPI_ERR_ARG; /* MPI-4.1 §9.5: predefined strings cannot change */
    if (strlen(string) >= MPI_MAX_ERROR_STRING)
        return MPI_ERR_ARG;
    pthread_mutex_lock(&added_lock);
    struct added *a = added_entry(code);
    char *copy = a ? strdup(string) : NULL;
    if (!a)
        err = MPI_ERR_ARG;
    else if (!copy)
        err = MPI_ERR_NO_MEM;
    else {
        free(a->string);
        a->string = copy;
    }
    pthread_mutex_unlock(&added_lock);
    return err;
}

/* Removes an added class (must have no codes left), code, or string (MPI-4.1 §9.5). */
int mmpi_error_remove(int value, int what)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&added_lock);
    struct added *a = added_entry(value);
    if (!a) {
        err = MPI_ERR_ARG;
    } else if (what == 's') {
        free(a->string);
        a->string = NULL;
    } else if (what == 'c' && a->errclass != value) {
        err = MPI_ERR_ARG; /* not a class */
    } else if (what == 'd' && a->errclass == value) {
        err = MPI_ERR_ARG; /* a class, not a code */
    } else {
        if (what == 'c')
            for (int i = 0; i < nadded; i++)
                if (!added[i].removed && added[i].errclass == value &&
                    i + MPI_ERR_LASTCODE + 1 != value) {
                    err = MPI_ERR_ARG; /* codes of this class still exist */
                    goto out;
                }
        free(a->string);
        a->string = NULL;
        a->removed = true;
    }
out:
    pthread_mutex_unlock(&added_lock);
    return err;
}

int mmpi_error_lastused(void)
{
    pthread_mutex_lock(&added_lock);
    int v = MPI_ERR_LASTCODE + nadded;
    pthread_mutex_unlock(&added_lock);
    return v;
}
