/*
 * object.c: lifetime of derived datatype objects: reference counts, destruction, the envelope
 * (constructor arguments kept for MPI_Type_get_contents), per-rank handles, names, and the
 * datatype's table of operations (runtime/kind.h: reclaim at world end).
 * Building the typemap is build.c's job; resolving handles is predefined.c's.
 *
 * Several handles may name one object (MPI_Type_get_contents hands out new handles to existing
 * components), so the object does not store "its" handle; each handle owns one reference.
 */
#include <stdlib.h>
#include <string.h>

#include "datatype/build.h"
#include "mmpi.h"
#include "runtime/kind.h"

/* Names are set rarely and read rarely: one lock for all of them keeps the objects small. */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

void mmpi_datatype_retain(const struct mmpi_datatype *dt)
{
    if (dt && !dt->predefined)
        __atomic_fetch_add(&((struct mmpi_datatype *)dt)->refcount, 1, __ATOMIC_RELAXED);
}

static void destroy(struct mmpi_datatype *dt)
{
    for (size_t i = 0; i < dt->nsig; i++)
        mmpi_datatype_release(dt->sig[i].type);
    for (size_t i = 0; i < dt->nd; i++)
        mmpi_datatype_release(dt->types[i]);
    free((void *)dt->runs);
    free((void *)dt->sig);
    free(dt->ints);
    free(dt->aints);
    free(dt->counts);
    free(dt->types);
    free(dt->name);
    free(dt);
}

void mmpi_datatype_release(const struct mmpi_datatype *dt)
{
    struct mmpi_datatype *d = (struct mmpi_datatype *)dt;
    if (d && !d->predefined && __atomic_sub_fetch(&d->refcount, 1, __ATOMIC_ACQ_REL) == 0)
        destroy(d);
}

int mmpi_dt_envelope(struct mmpi_datatype *dt, int combiner, size_t ni, size_t na, size_t nc,
                     size_t nd)
{
    dt->combiner = combiner;
    dt->ints = ni ? calloc(ni, sizeof(int)) : NULL;
    dt->aints = na ? calloc(na, sizeof(MPI_Aint)) : NULL;
    dt->counts = nc ? calloc(nc, sizeof(MPI_Count)) : NULL;
    dt->types = nd ? calloc(nd, sizeof(*dt->types)) : NULL;
    if ((ni && !dt->ints) || (na && !dt->aints) || (nc && !dt->counts) || (nd && !dt->types))
        return MPI_ERR_NO_MEM; /* the caller releases dt, which frees what was allocated */
    dt->ni = ni;
    dt->na = na;
    dt->nc = nc;
    dt->nd = nd;
    return MPI_SUCCESS;
}

void mmpi_dt_set_type(struct mmpi_datatype *dt, size_t k, const struct mmpi_datatype *type)
{
    mmpi_datatype_retain(type);
    dt->types[k] = (struct mmpi_datatype *)type;
}

int mmpi_dt_publish(struct mmpi_rank *self, struct mmpi_datatype *dt, MPI_Datatype *out)
{
    MPI_Datatype h = mmpi_handle_new(self, MMPI_HANDLE_KIND_DATATYPE, dt);
    if (h == MPI_DATATYPE_NULL) {
        mmpi_datatype_release(dt);
        return MPI_ERR_NO_MEM;
    }
    *out = h;
    return MPI_SUCCESS;
}

static bool in_predefined_table(const struct mmpi_datatype *dt)
{
    return dt >= mmpi_dt_predefined_table &&
           dt < mmpi_dt_predefined_table + MMPI_DATATYPE_PREDEFINED_COUNT;
}

/* The slot of the rank's own name for dt, a type of the predefined table; NULL when the rank
 * has named none (make: allocate the rank's table) or out of memory. */
static char **rank_name_slot(struct mmpi_rank *self, const struct mmpi_datatype *dt, bool make)
{
    if (!self->dt_names && make)
        self->dt_names = calloc(MMPI_DATATYPE_PREDEFINED_COUNT, sizeof(char *));
    return self->dt_names ? &self->dt_names[dt - mmpi_dt_predefined_table] : NULL;
}

void mmpi_dt_name_get(struct mmpi_rank *self, const struct mmpi_datatype *dt, char *buf)
{
    MMPI_CHECK_PTHREAD(pthread_mutex_lock(&names_lock));
    char **mine = in_predefined_table(dt) ? rank_name_slot(self, dt, false) : NULL;
    const char *name = mine && *mine ? *mine : dt->name;
    strncpy(buf, name ? name : "", MPI_MAX_OBJECT_NAME - 1);
    buf[MPI_MAX_OBJECT_NAME - 1] = '\0';
    MMPI_CHECK_PTHREAD(pthread_mutex_unlock(&names_lock));
}

int mmpi_dt_name_set(struct mmpi_rank *self, struct mmpi_datatype *dt, const char *name)
{
    if (dt->predefined && !in_predefined_table(dt))
        return MPI_ERR_TYPE; /* an f90 type: one object for every rank, named by its kind */
    char *copy = strndup(name, MPI_MAX_OBJECT_NAME - 1); /* MPI-4.1 §7.8.4: truncated */
    if (!copy)
        return MPI_ERR_NO_MEM;
    MMPI_CHECK_PTHREAD(pthread_mutex_lock(&names_lock));
    char **slot = dt->predefined ? rank_name_slot(self, dt, true) : &dt->name;
    char *old = NULL;
    if (slot) {
        old = *slot;
        *slot = copy;
    } else {
        old = copy; /* no memory for the rank's table */
    }
    MMPI_CHECK_PTHREAD(pthread_mutex_unlock(&names_lock));
    free(old);
    return slot ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

void mmpi_dt_names_free(struct mmpi_rank *self)
{
    if (!self->dt_names)
        return;
    for (int i = 0; i < MMPI_DATATYPE_PREDEFINED_COUNT; i++)
        free(self->dt_names[i]);
    free(self->dt_names);
    self->dt_names = NULL;
}

/* A datatype handle a rank left in its table at world end. */
static void datatype_reclaim(struct mmpi_rank *r, void *obj)
{
    (void)r;
    mmpi_datatype_release(obj);
}

static const struct mmpi_kind_ops datatype_kind_ops = {.reclaim = datatype_reclaim};
MMPI_KIND_REGISTER(MMPI_HANDLE_KIND_DATATYPE, datatype_kind_ops)
