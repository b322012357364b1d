/*
 * fortran/glue/attr_cells.c: where an attribute set from Fortran keeps its value. MPI-4.1
 * §19.3.7: C reading an attribute Fortran set gets the address of an integer holding the value
 * (not the value as a pointer), and Fortran reading one C set gets the pointer as an integer.
 * So a Fortran set stores a cell (a heap integer of address size) as the C attribute, and the
 * glue remembers its cells to tell them from C pointers when Fortran reads.
 *
 * A cell of a keyval created in Fortran is freed by its delete trampoline (attr.c), and a copy
 * makes a new cell, so each cell belongs to one attribute. A cell stored under a keyval created
 * in C stays until the program ends (the C copy function may have shared it).
 *
 * The table is per rank: the glue is in the program image, of which each rank runs its copy.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "fortran/glue.h"

#define NBUCKETS 1024

struct cell {
    MPI_Aint value; /* first: the address C sees is the cell's */
    struct cell *next;
};

static struct cell *buckets[NBUCKETS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct cell **bucket(const void *p)
{
    return &buckets[((uintptr_t)p >> 4) % NBUCKETS];
}

void *mmpi_f_attr_cell(MPI_Aint value)
{
    struct cell *c = malloc(sizeof(*c));
    if (!c)
        abort();
    c->value = value;
    pthread_mutex_lock(&lock);
    struct cell **b = bucket(c);
    c->next = *b;
    *b = c;
    pthread_mutex_unlock(&lock);
    return c;
}

int mmpi_f_attr_read(const void *p, MPI_Aint *value)
{
    int found = 0;
    pthread_mutex_lock(&lock);
    for (struct cell *c = *bucket(p); c; c = c->next)
        if (c == p) {
            *value = c->value;
            found = 1;
            break;
        }
    pthread_mutex_unlock(&lock);
    return found;
}

void mmpi_f_attr_drop(void *p)
{
    struct cell *gone = NULL;
    pthread_mutex_lock(&lock);
    for (struct cell **c = bucket(p); *c; c = &(*c)->next)
        if (*c == p) {
            gone = *c;
            *c = gone->next;
            break;
        }
    pthread_mutex_unlock(&lock);
    free(gone);
}
