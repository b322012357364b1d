/*
 * io/datarep.c: user data representations (MPI-4.1 §14.5.3): the registry MPI_Register_datarep
 * and MPI_Register_datarep_c fill (their bindings are here), file sizes from a
 * representation's extent function (view.c lays etypes and filetypes out with them), and the
 * calls of its conversion functions, of either form, on the way to and from the file.
 *
 * Each rank has its own registry. Every rank of a program runs its own copy of the program, so
 * the functions a rank registers are that copy's; the standard has every process call
 * MPI_Register_datarep with the same arguments, and a registry per process is what such a call
 * fills. A second registration of a name by the same rank is MPI_ERR_DUP_DATAREP; the same name
 * registered by another rank is that rank's own. Entries live until the process ends (a few
 * per program); an entry is tied to the rank object, its main thread and its world, so a later
 * rank never sees another's registrations.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/datatype.h"
#include "errhan/errhan.h"
#include "io/io.h"
#include "mmpi.h"
#include "runtime/rank.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mmpi_datarep *registry;

static bool mine(const struct mmpi_datarep *d, const struct mmpi_rank *self)
{
    return d->owner == self && d->world == self->world && pthread_equal(d->thread, self->thread);
}

const struct mmpi_datarep *mmpi_datarep_find(const struct mmpi_rank *self, const char *name)
{
    pthread_mutex_lock(&registry_lock);
    struct mmpi_datarep *d = registry;
    while (d && !(mine(d, self) && !strcmp(d->name, name)))
        d = d->next;
    pthread_mutex_unlock(&registry_lock);
    return d;
}

/* Registers either form's conversion functions (the other form's NULL). */
static int datarep_register(const struct mmpi_rank *self, const char *name,
                            MPI_Datarep_conversion_function *read_fn,
                            MPI_Datarep_conversion_function *write_fn,
                            MPI_Datarep_conversion_function_c *read_fn_c,
                            MPI_Datarep_conversion_function_c *write_fn_c,
                            MPI_Datarep_extent_function *extent_fn, void *extra)
{
    if (!strcmp(name, "native") || !strcmp(name, "internal") || !strcmp(name, "external32"))
        return MPI_ERR_DUP_DATAREP; /* §14.5.3: the predefined ones exist already */
    struct mmpi_datarep *d = calloc(1, sizeof(*d));
    if (!d)
        return MPI_ERR_NO_MEM;
    d->owner = self;
    d->thread = self->thread;
    d->world = self->world;
    strcpy(d->name, name);
    d->read_fn = read_fn;
    d->write_fn = write_fn;
    d->read_fn_c = read_fn_c;
    d->write_fn_c = write_fn_c;
    d->extent_fn = extent_fn;
    d->extra = extra;
    pthread_mutex_lock(&registry_lock);
    for (struct mmpi_datarep *o = registry; o; o = o->next)
        if (mine(o, self) && !strcmp(o->name, name)) {
            pthread_mutex_unlock(&registry_lock);
            free(d);
            return MPI_ERR_DUP_DATAREP;
        }
    d->next = registry;
    registry = d;
    pthread_mutex_unlock(&registry_lock);
    return MPI_SUCCESS;
}

/* MPI_Register_datarep and _c (MPI-4.1 §14.5.3): the bindings sit next to the registry they
 * fill, both written by hand (the table cannot widen a function pointer's type). Errors go to
 * MPI_FILE_NULL's handler. */
static int register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_fn,
                            MPI_Datarep_conversion_function *write_fn,
                            MPI_Datarep_conversion_function_c *read_fn_c,
                            MPI_Datarep_conversion_function_c *write_fn_c,
                            MPI_Datarep_extent_function *extent_fn, void *extra,
                            enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!datarep || !extent_fn || strlen(datarep) >= MPI_MAX_DATAREP_STRING, MPI_ERR_ARG);
    err = datarep_register(self, datarep, read_fn, write_fn, read_fn_c, write_fn_c, extent_fn,
                           extra);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Register_datarep);
int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    return register_datarep(datarep, read_conversion_fn, write_conversion_fn, NULL, NULL,
                            dtype_file_extent_fn, extra_state, MMPI_CALL_Register_datarep);
}

MMPI_PROFILED(Register_datarep_c);
int PMPI_Register_datarep_c(const char *datarep,
                            MPI_Datarep_conversion_function_c *read_conversion_fn,
                            MPI_Datarep_conversion_function_c *write_conversion_fn,
                            MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    return register_datarep(datarep, NULL, NULL, read_conversion_fn, write_conversion_fn,
                            dtype_file_extent_fn, extra_state, MMPI_CALL_Register_datarep_c);
}

/* Adds count elements of dt to *size (file bytes) and *items (predefined data items). */
static int measure(const struct mmpi_datarep *d, const struct mmpi_datatype *dt, size_t count,
                   size_t *size, size_t *items)
{
    if (count == 0)
        return MPI_SUCCESS;
    if (dt->nsig == 0) {
        MPI_Aint ext = 0;
        int err = d->extent_fn(dt->handle, &ext, d->extra);
        if (err != MPI_SUCCESS)
            return err;
        if (ext < 0)
            return MPI_ERR_CONVERSION;
        *size += count * (size_t)ext;
        *items += count;
        return MPI_SUCCESS;
    }
    for (size_t i = 0; i < dt->nsig; i++) {
        size_t s = 0, n = 0;
        int err = measure(d, dt->sig[i].type, dt->sig[i].count, &s, &n);
        if (err != MPI_SUCCESS)
            return err;
        *size += count * s;
        *items += count * n;
    }
    return MPI_SUCCESS;
}

int mmpi_datarep_measure(const struct mmpi_datarep *d, const struct mmpi_datatype *dt,
                         size_t *size, size_t *items)
{
    *size = *items = 0;
    return measure(d, dt, 1, size, items);
}

int mmpi_datarep_leaf_size(void *arg, const struct mmpi_datatype *leaf, size_t *size)
{
    size_t items;
    return mmpi_datarep_measure(arg, leaf, size, &items);
}

bool mmpi_datarep_converts(const struct mmpi_datarep *d, bool write)
{
    return write ? d->write_fn || d->write_fn_c : d->read_fn || d->read_fn_c;
}

/* One call of the conversion function: the _c form takes any count, the int form at most
 * INT32_MAX items (MPI_ERR_CONVERSION beyond). */
static int call_conversion(const struct mmpi_datarep *d, bool write, void *userbuf,
                           MPI_Datatype type, size_t count, void *filebuf, MPI_Offset position)
{
    MPI_Datarep_conversion_function_c *fn_c = write ? d->write_fn_c : d->read_fn_c;
    if (fn_c)
        return fn_c(userbuf, type, (MPI_Count)count, filebuf, position, d->extra);
    if (count > INT32_MAX)
        return MPI_ERR_CONVERSION;
    MPI_Datarep_conversion_function *fn = write ? d->write_fn : d->read_fn;
    return fn(userbuf, type, (int)count, filebuf, position, d->extra);
}

/* Leaf runs of the packed form of count elements of dt, converted one run at a time: the
 * conversion function sees each run as `n` items of its predefined type at position 0; the
 * run takes n times the item's extent in the file. */
static int convert_runs(const struct mmpi_datarep *d, bool write, const struct mmpi_datatype *dt,
                        size_t count, char **packed, char **file)
{
    if (dt->nsig == 0) {
        if (count == 0)
            return MPI_SUCCESS;
        MPI_Aint ext = 0;
        int err = d->extent_fn(dt->handle, &ext, d->extra);
        if (err == MPI_SUCCESS && ext < 0)
            err = MPI_ERR_CONVERSION;
        if (err == MPI_SUCCESS)
            err = call_conversion(d, write, *packed, dt->handle, count, *file, 0);
        *packed += count * dt->size;
        *file += count * (size_t)ext;
        return err;
    }
    for (size_t k = 0; k < count; k++)
        for (size_t i = 0; i < dt->nsig; i++) {
            int err = convert_runs(d, write, dt->sig[i].type, dt->sig[i].count, packed, file);
            if (err != MPI_SUCCESS)
                return err;
        }
    return MPI_SUCCESS;
}

int mmpi_datarep_convert(const struct mmpi_datarep *d, bool write, void *buf,
                         MPI_Datatype handle, const struct mmpi_datatype *dt, size_t first,
                         size_t n, size_t items, size_t fsize, void *packed, void *file)
{
    if (!mmpi_datarep_converts(d, write)) {
        /* MPI_CONVERSION_FN_NULL: the file holds the native bytes, which only fit a file
         * whose sizes are the memory's; nothing can convert between other sizes. */
        if (fsize != dt->size)
            return MPI_ERR_CONVERSION;
        if (write)
            memcpy(file, packed, n * dt->size);
        else
            memcpy(packed, file, n * dt->size);
        return MPI_SUCCESS;
    }
    if (handle != MPI_DATATYPE_NULL) /* a predefined memory type: the user's buffer, tiled */
        return call_conversion(d, write, buf, handle, n * items, file, (MPI_Offset)(first * items));
    char *p = packed, *q = file;
    return convert_runs(d, write, dt, n, &p, &q);
}
