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

    MMPI_FAIL_IF(!address, MPI_ERR_ARG);
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

/* MPI_Type_size, _x and _c: the size as an MPI_Count. */
static int type_size(struct mmpi_rank *self, MPI_Datatype datatype, MPI_Count *size, bool out,
                     enum mmpi_call call)
{
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!dt, MPI_ERR_TYPE);
    MMPI_FAIL_IF(!out, MPI_ERR_ARG);
    *size = (MPI_Count)dt->size;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Type_size);
int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    MPI_Count n = 0;
    int err = type_size(mmpi_enter(MMPI_CALL_Type_size), datatype, &n, size != NULL,
                        MMPI_CALL_Type_size);
    /* MPI-4.1 §5.1.6: MPI_UNDEFINED when the size does not fit the int. */
    if (err == MPI_SUCCESS)
        *size = n > INT_MAX ? MPI_UNDEFINED : (int)n;
    return err;
}

MMPI_PROFILED(Type_size_c);
int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    return type_size(mmpi_enter(MMPI_CALL_Type_size_c), datatype, size, size != NULL,
                     MMPI_CALL_Type_size_c);
}

MMPI_PROFILED(Type_size_x);
int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    return type_size(mmpi_enter(MMPI_CALL_Type_size_x), datatype, size, size != NULL,
                     MMPI_CALL_Type_size_x);
}

/* The four extent queries: true_bounds selects §5.1.8 over §5.1.7; results as MPI_Aint. */
static int extent_query(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent, bool true_bounds,
                        enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!dt, MPI_ERR_TYPE);
    MMPI_FAIL_IF(!lb || !extent, MPI_ERR_ARG);
    *lb = true_bounds ? dt->true_lb : dt->lb;
    *extent = true_bounds ? dt->true_extent : dt->extent;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

/* The extent queries whose results are MPI_Count (_x and _c). */
static int extent_query_count(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent,
                              bool true_bounds, enum mmpi_call call)
{
    MPI_Aint l = 0, e = 0;
    int err = extent_query(datatype, lb ? &l : NULL, extent ? &e : NULL, true_bounds, call);
    if (err == MPI_SUCCESS) {
        *lb = l;
        *extent = e;
    }
    return err;
}

MMPI_PROFILED(Type_get_extent);
int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    return extent_query(datatype, lb, extent, false, MMPI_CALL_Type_get_extent);
}

MMPI_PROFILED(Type_get_extent_x);
int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    return extent_query_count(datatype, lb, extent, false, MMPI_CALL_Type_get_extent_x);
}

MMPI_PROFILED(Type_get_extent_c);
int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    return extent_query_count(datatype, lb, extent, false, MMPI_CALL_Type_get_extent_c);
}

MMPI_PROFILED(Type_get_true_extent);
int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    return extent_query(datatype, true_lb, true_extent, true, MMPI_CALL_Type_get_true_extent);
}

MMPI_PROFILED(Type_get_true_extent_x);
int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    return extent_query_count(datatype, true_lb, true_extent, true,
                              MMPI_CALL_Type_get_true_extent_x);
}

MMPI_PROFILED(Type_get_true_extent_c);
int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    return extent_query_count(datatype, true_lb, true_extent, true,
                              MMPI_CALL_Type_get_true_extent_c);
}

MMPI_PROFILED(Type_set_name);
int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_set_name);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!dt, MPI_ERR_TYPE);
    MMPI_FAIL_IF(!type_name, MPI_ERR_ARG);
    if ((err = mmpi_dt_name_set(self, dt, type_name)))
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

    MMPI_FAIL_IF(!dt && !null, MPI_ERR_TYPE);
    MMPI_FAIL_IF(!type_name || !resultlen, MPI_ERR_ARG);
    if (null)
        strcpy(type_name, "MPI_DATATYPE_NULL");
    else
        mmpi_dt_name_get(self, dt, type_name);
    *resultlen = (int)strlen(type_name);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_get_name);
    goto fn_exit;
}

/* MPI_Type_get_envelope and _c: the four numbers; `large` is the _c form, which alone can
 * report large counts (MPI-4.1 §5.1.13). The int form cannot describe a type made by a _c
 * constructor, nor numbers above INT_MAX: MPI_ERR_VALUE_TOO_LARGE. */
static int get_envelope(MPI_Datatype datatype, MPI_Count n[4], bool args_ok, int *combiner,
                        bool large, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!dt, MPI_ERR_TYPE);
    MMPI_FAIL_IF(!args_ok || !combiner, MPI_ERR_ARG);
    MMPI_FAIL_IF(!large && (dt->nc > 0 || dt->ni > INT_MAX || dt->na > INT_MAX || dt->nd > INT_MAX),
                 MPI_ERR_VALUE_TOO_LARGE);
    n[0] = (MPI_Count)dt->ni;
    n[1] = (MPI_Count)dt->na;
    n[2] = (MPI_Count)dt->nc;
    n[3] = (MPI_Count)dt->nd;
    *combiner = dt->combiner;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Type_get_envelope);
int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    MPI_Count n[4];
    int err = get_envelope(datatype, n, num_integers && num_addresses && num_datatypes, combiner,
                           false, MMPI_CALL_Type_get_envelope);
    if (err == MPI_SUCCESS) {
        *num_integers = (int)n[0];
        *num_addresses = (int)n[1];
        *num_datatypes = (int)n[3];
    }
    return err;
}

MMPI_PROFILED(Type_get_envelope_c);
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses, MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner)
{
    MPI_Count n[4];
    int err = get_envelope(datatype, n,
                           num_integers && num_addresses && num_large_counts && num_datatypes,
                           combiner, true, MMPI_CALL_Type_get_envelope_c);
    if (err == MPI_SUCCESS) {
        *num_integers = n[0];
        *num_addresses = n[1];
        *num_large_counts = n[2];
        *num_datatypes = n[3];
    }
    return err;
}

/* Handles for the component types: a predefined one is itself; a derived one gets a new handle
 * to the same object, which the program must free (MPI-4.1 §5.1.13). On failure frees the
 * handles made so far. */
static int contents_types(struct mmpi_rank *self, const struct mmpi_datatype *dt,
                          MPI_Datatype *out)
{
    for (size_t i = 0; i < dt->nd; i++) {
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

/* MPI_Type_get_contents and _c. max[] and the arrays as the _c form has them; the int form
 * passes no large counts, and cannot describe a type made by a _c constructor. */
static int get_contents(MPI_Datatype datatype, const MPI_Count max[4], int *ints, MPI_Aint *aints,
                        MPI_Count *counts, MPI_Datatype *types, bool large, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    int err = MPI_SUCCESS;

    /* MPI-4.1 §5.1.13: erroneous for a named (predefined) type. */
    MMPI_FAIL_IF(!dt || dt->combiner == MPI_COMBINER_NAMED, MPI_ERR_TYPE);
    MMPI_FAIL_IF(!large && dt->nc > 0, MPI_ERR_VALUE_TOO_LARGE);
    MMPI_FAIL_IF(max[0] < (MPI_Count)dt->ni || max[1] < (MPI_Count)dt->na ||
                     max[2] < (MPI_Count)dt->nc || max[3] < (MPI_Count)dt->nd ||
                     (dt->ni && !ints) || (dt->na && !aints) || (dt->nc && !counts) ||
                     (dt->nd && !types),
                 MPI_ERR_ARG);
    if ((err = contents_types(self, dt, types)))
        goto fn_fail;
    if (dt->ni)
        memcpy(ints, dt->ints, dt->ni * sizeof(int));
    if (dt->na)
        memcpy(aints, dt->aints, dt->na * sizeof(MPI_Aint));
    if (dt->nc)
        memcpy(counts, dt->counts, dt->nc * sizeof(MPI_Count));
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, call);
    goto fn_exit;
}

MMPI_PROFILED(Type_get_contents);
int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    MPI_Count max[4] = {max_integers, max_addresses, 0, max_datatypes};
    return get_contents(datatype, max, array_of_integers, array_of_addresses, NULL,
                        array_of_datatypes, false, MMPI_CALL_Type_get_contents);
}

MMPI_PROFILED(Type_get_contents_c);
int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes,
                             int array_of_integers[], MPI_Aint array_of_addresses[],
                             MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[])
{
    MPI_Count max[4] = {max_integers, max_addresses, max_large_counts, max_datatypes};
    return get_contents(datatype, max, array_of_integers, array_of_addresses, array_of_large_counts,
                        array_of_datatypes, true, MMPI_CALL_Type_get_contents_c);
}

MMPI_PROFILED(Type_match_size);
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_match_size);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!datatype, MPI_ERR_ARG);
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

    MMPI_FAIL_IF(!dt, MPI_ERR_TYPE);
    MMPI_FAIL_IF(!value, MPI_ERR_ARG);
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
