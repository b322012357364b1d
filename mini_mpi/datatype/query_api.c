/*
 * query_api.c: MPI entry points that read datatypes and addresses (MPI-4.1 §5.1.5 addresses,
 * §5.1.6 - §5.1.8 size and extents, §7.8.4 names, §5.1.13 decoding, §19.1.9 match_size), in
 * the chapter's order, then the MPI-1 names removed in MPI-3.0. Bindings only.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "datatype/build.h"
#include "mmpi.h"

static int get_address(const void *location, MPI_Aint *address, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    int err = MPI_SUCCESS;

    if (!address) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    *address = (MPI_Aint)(uintptr_t)location; /* MPI_BOTTOM is address 0 */
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Get_address);
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    return get_address(location, address, MMPI_CALL_Get_address);
}

/* MPI-4.1 §5.1.5: address arithmetic as the hardware does it (wrapping, no overflow trap). */
MMPI_PROFILED(Aint_add);
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    mmpi_enter(MMPI_CALL_Aint_add);
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

MMPI_PROFILED(Aint_diff);
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    mmpi_enter(MMPI_CALL_Aint_diff);
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}

MMPI_PROFILED(Type_size);
int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_size);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    if (!dt) {
        err = MPI_ERR_TYPE;
        goto fn_fail;
    }
    if (!size) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    /* MPI-4.1 §5.1.6: MPI_UNDEFINED when the size does not fit the int. */
    *size = dt->size > INT_MAX ? MPI_UNDEFINED : (int)dt->size;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_size);
    goto fn_exit;
}

MMPI_PROFILED(Type_size_x);
int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_size_x);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    if (!dt) {
        err = MPI_ERR_TYPE;
        goto fn_fail;
    }
    if (!size) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    *size = (MPI_Count)dt->size;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_size_x);
    goto fn_exit;
}

/* The four extent queries: true_bounds selects §5.1.8 over §5.1.7; results as MPI_Aint. */
static int extent_query(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent, bool true_bounds,
                        enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    if (!dt) {
        err = MPI_ERR_TYPE;
        goto fn_fail;
    }
    if (!lb || !extent) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    *lb = true_bounds ? dt->true_lb : dt->lb;
    *extent = true_bounds ? dt->true_extent : dt->extent;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Type_get_extent);
int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    return extent_query(datatype, lb, extent, false, MMPI_CALL_Type_get_extent);
}

MMPI_PROFILED(Type_get_extent_x);
int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    MPI_Aint l = 0, e = 0;
    int err = extent_query(datatype, lb ? &l : NULL, extent ? &e : NULL, false,
                           MMPI_CALL_Type_get_extent_x);
    if (err == MPI_SUCCESS) {
        *lb = l;
        *extent = e;
    }
    return err;
}

MMPI_PROFILED(Type_get_true_extent);
int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    return extent_query(datatype, true_lb, true_extent, true, MMPI_CALL_Type_get_true_extent);
}

MMPI_PROFILED(Type_get_true_extent_x);
int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    MPI_Aint l = 0, e = 0;
    int err = extent_query(datatype, true_lb ? &l : NULL, true_extent ? &e : NULL, true,
                           MMPI_CALL_Type_get_true_extent_x);
    if (err == MPI_SUCCESS) {
        *true_lb = l;
        *true_extent = e;
    }
    return err;
}

MMPI_PROFILED(Type_set_name);
int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_set_name);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    /* Predefined objects are shared by every rank: their names stay the standard's. */
    if (!dt || dt->predefined) {
        err = MPI_ERR_TYPE;
        goto fn_fail;
    }
    if (!type_name) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    if ((err = mmpi_dt_name_set(dt, type_name)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_set_name);
    goto fn_exit;
}

MMPI_PROFILED(Type_get_name);
int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_get_name);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    bool null = datatype == MPI_DATATYPE_NULL; /* named too (MPI-4.1, as Open MPI) */
    int err = MPI_SUCCESS;

    if (!dt && !null) {
        err = MPI_ERR_TYPE;
        goto fn_fail;
    }
    if (!type_name || !resultlen) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    if (null)
        strcpy(type_name, "MPI_DATATYPE_NULL");
    else
        mmpi_dt_name_get(dt, type_name);
    *resultlen = (int)strlen(type_name);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_get_name);
    goto fn_exit;
}

MMPI_PROFILED(Type_get_envelope);
int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_get_envelope);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    if (!dt) {
        err = MPI_ERR_TYPE;
        goto fn_fail;
    }
    if (!num_integers || !num_addresses || !num_datatypes || !combiner) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    *num_integers = dt->ni;
    *num_addresses = dt->na;
    *num_datatypes = dt->nd;
    *combiner = dt->combiner;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_get_envelope);
    goto fn_exit;
}

/* Handles for the component types: a predefined one is itself; a derived one gets a new handle
 * to the same object, which the program must free (MPI-4.1 §5.1.13). On failure frees the
 * handles made so far. */
static int contents_types(struct mmpi_rank *self, const struct mmpi_datatype *dt,
                          MPI_Datatype *out)
{
    for (int i = 0; i < dt->nd; i++) {
        struct mmpi_datatype *t = dt->types[i];
        if (t->predefined) {
            out[i] = t->handle;
            continue;
        }
        mmpi_datatype_retain(t);
        int err = mmpi_dt_publish(self, t, &out[i]);
        if (err) {
            while (i-- > 0)
                if (!dt->types[i]->predefined)
                    mmpi_datatype_release(
                        mmpi_handle_remove(self, MMPI_HANDLE_KIND_DATATYPE, out[i]));
            return err;
        }
    }
    return MPI_SUCCESS;
}

MMPI_PROFILED(Type_get_contents);
int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_get_contents);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    /* MPI-4.1 §5.1.13: erroneous for a named (predefined) type. */
    if (!dt || dt->combiner == MPI_COMBINER_NAMED) {
        err = MPI_ERR_TYPE;
        goto fn_fail;
    }
    if (max_integers < dt->ni || max_addresses < dt->na || max_datatypes < dt->nd ||
        (dt->ni && !array_of_integers) || (dt->na && !array_of_addresses) ||
        (dt->nd && !array_of_datatypes)) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    if ((err = contents_types(self, dt, array_of_datatypes)))
        goto fn_fail;
    if (dt->ni)
        memcpy(array_of_integers, dt->ints, (size_t)dt->ni * sizeof(int));
    if (dt->na)
        memcpy(array_of_addresses, dt->aints, (size_t)dt->na * sizeof(MPI_Aint));
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_get_contents);
    goto fn_exit;
}

MMPI_PROFILED(Type_match_size);
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_match_size);
    int err = MPI_SUCCESS;

    if (!datatype) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    if ((err = mmpi_type_match_size(typeclass, size, datatype)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_match_size);
    goto fn_exit;
}

/* ---- Removed in MPI-3.0 ------------------------------------------------------------------ */

/* MPI_Type_extent, _lb, _ub: one value of the §5.1.7 bounds. */
static int bound_query(MPI_Datatype datatype, MPI_Aint *value, char which, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    if (!dt) {
        err = MPI_ERR_TYPE;
        goto fn_fail;
    }
    if (!value) {
        err = MPI_ERR_ARG;
        goto fn_fail;
    }
    *value = which == 'e' ? dt->extent : which == 'l' ? dt->lb : dt->lb + dt->extent;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Type_extent);
int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    return bound_query(datatype, extent, 'e', MMPI_CALL_Type_extent);
}

MMPI_PROFILED(Type_lb);
int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    return bound_query(datatype, displacement, 'l', MMPI_CALL_Type_lb);
}

MMPI_PROFILED(Type_ub);
int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    return bound_query(datatype, displacement, 'u', MMPI_CALL_Type_ub);
}

MMPI_PROFILED(Address);
int PMPI_Address(const void *location, MPI_Aint *address)
{
    return get_address(location, address, MMPI_CALL_Address);
}
