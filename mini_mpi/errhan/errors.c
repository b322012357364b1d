/*
 * errors.c: error classes and codes: the predefined classes of classes.def, and the classes,
 * codes and strings a program adds (MPI_Add_error_class/code/string). Added ones are process-
 * wide (one table for all ranks, behind a mutex): a value in use at one rank is never handed to
 * another, so codes stay unambiguous even if a program passes them between ranks; a removed
 * value may be handed out again.
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

/* One entry per value above MPI_ERR_LASTCODE handed out so far. A removed value goes on a free
 * list and is handed out again before the table grows (MPI-4.1 §9.5 lets removed values be
 * reused), so a program that adds and removes in a loop keeps a table of the size it uses, and
 * every add and remove is O(1) (amortized over the table's doublings). */
struct added {
    int errclass;       /* the class of this code; a class's own entry holds itself */
    int ncodes;         /* a class's entry: how many codes of the class are in use */
    bool removed;       /* on the free list */
    int next_free;      /* removed: the next free index, -1 at the end */
    char *string;       /* NULL until MPI_Add_error_string */
};

static pthread_mutex_t added_lock = PTHREAD_MUTEX_INITIALIZER;
static struct added *added;     /* added_lock; index value - (MPI_ERR_LASTCODE + 1) */
static int nadded;              /* added_lock: entries handed out (in use or free) */
static int capacity;            /* added_lock: entries allocated */
static int free_head = -1;      /* added_lock: the last removed entry, -1: none */

static int value_of(int index)
{
    return MPI_ERR_LASTCODE + 1 + index;
}

static struct added *added_entry(int code)
{
    int i = code - (MPI_ERR_LASTCODE + 1);
    return (i >= 0 && i < nadded && !added[i].removed) ? &added[i] : NULL;
}

/* An entry for a new value: the last one removed, or a new one. added_lock held; -1 when out
 * of memory. May move the table. */
static int take_entry(void)
{
    if (free_head >= 0) {
        int i = free_head;
        free_head = added[i].next_free;
        return i;
    }
    if (nadded == capacity) {
        int grown_cap = capacity ? 2 * capacity : 64;
        struct added *grown = realloc(added, (size_t)grown_cap * sizeof(*added));
        if (!grown)
            return -1;
        added = grown;
        capacity = grown_cap;
    }
    return nadded++;
}

/* Puts a's value on the free list. added_lock held. */
static void drop_entry(struct added *a)
{
    free(a->string);
    a->string = NULL;
    a->removed = true;
    a->next_free = free_head;
    free_head = (int)(a - added);
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

/* Whether errclass is a class: a predefined one or an added class in use. added_lock held. */
static bool is_class(int errclass)
{
    if (errclass >= 0 && errclass <= MPI_ERR_LASTCODE)
        return true;
    struct added *c = added_entry(errclass);
    return c && c->errclass == errclass;
}

/* Adds a code of class errclass (errclass < 0: a new class, its own class). */
int mmpi_error_add(int errclass, int *value)
{
    int err = MPI_SUCCESS, i;
    pthread_mutex_lock(&added_lock);
    if (errclass >= 0 && !is_class(errclass)) {
        err = MPI_ERR_ARG;
        goto out;
    }
    if ((i = take_entry()) < 0) {
        err = MPI_ERR_NO_MEM;
        goto out;
    }
    *value = value_of(i);
    added[i] = (struct added){.errclass = errclass >= 0 ? errclass : *value, .next_free = -1};
    if (errclass > MPI_ERR_LASTCODE)
        added_entry(errclass)->ncodes++;
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

/* Removes an added class (which must have no codes left), code, or string (MPI-4.1 §9.5).
 * Predefined values are not removable: MPI_ERR_ARG, as for a value not in use or of the other
 * kind. */
int mmpi_error_remove(int value, int what)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&added_lock);
    struct added *a = added_entry(value);
    bool a_class = a && a->errclass == value;
    if (!a || (what == 'c' && !a_class) || (what == 'd' && a_class)) {
        err = MPI_ERR_ARG;
    } else if (what == 's') {
        free(a->string);
        a->string = NULL;
    } else if (what == 'c' && a->ncodes > 0) {
        err = MPI_ERR_ARG; /* codes of this class still exist */
    } else {
        if (what == 'd' && a->errclass > MPI_ERR_LASTCODE)
            added_entry(a->errclass)->ncodes--;
        drop_entry(a);
    }
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
