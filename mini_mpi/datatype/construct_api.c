/*
 * construct_api.c: MPI entry points that create and free datatypes (MPI-4.1 §5.1.2 - §5.1.4,
 * §5.1.7 resized, §5.1.9 commit and free, §5.1.10 dup), in the chapter's order, then the MPI-1
 * names removed in MPI-3.0. Bindings only: resolve handles, check arguments, then one call into
 * construct.c / subarray.c / darray.c and publish the new handle. The constructors with a
 * large-count form are written once (mmpi_api_*, api/README.md) for both bindings. Errors have no object, so they
 * go to the default handler (MPI_COMM_SELF's if set, else MPI_COMM_WORLD's).
 */
#include <stdint.h>
#include <stdlib.h>

#include "attr/attr.h"
#include "datatype/build.h"
#include "generated/api_impl.h"
#include "mmpi.h"

/* Block lengths must exist and be >= 0 (MPI_ERR_ARG otherwise). */
static bool bad_blocklengths(MPI_Count count, struct mmpi_poly_array blocklengths)
{
    if (count > 0 && mmpi_poly_null(blocklengths))
        return true;
    for (MPI_Count i = 0; i < count; i++)
        if (mmpi_poly_at(blocklengths, (size_t)i) < 0)
            return true;
    return false;
}

/* The checks of a constructor with a count and an old type, in the order MPICH reports them:
 * count, then the type, then the other arguments (args_ok). */
static int check_count_old(MPI_Count count, const struct mmpi_datatype *old, bool args_ok)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    if (!old)
        return MPI_ERR_TYPE;
    return args_ok ? MPI_SUCCESS : MPI_ERR_ARG;
}

/* The same without a count (subarray, darray, resized, dup). */
static int check_old(const struct mmpi_datatype *old, bool args_ok)
{
    return check_count_old(0, old, args_ok);
}

/* The end of every constructor: publish the new type, or raise the error without an object
 * (the default handler, MPI-4.1 §9.3). */
static int finish(struct mmpi_rank *self, int err, struct mmpi_datatype *dt, MPI_Datatype *newtype,
                  enum mmpi_call call)
{
    if (err == MPI_SUCCESS && (err = mmpi_dt_publish(self, dt, newtype)) == MPI_SUCCESS)
        return MPI_SUCCESS;
    return mmpi_err_raise_comm(self, NULL, err, call);
}

int mmpi_api_Type_contiguous(struct mmpi_rank *self, enum mmpi_call call, MPI_Count count,
                             MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct mmpi_datatype *old = mmpi_datatype_get(self, oldtype), *dt = NULL;
    int err = check_count_old(count, old, newtype != NULL);
    if (err == MPI_SUCCESS)
        err = mmpi_type_contiguous(count, old, call == MMPI_CALL_Type_contiguous_c, &dt);
    return finish(self, err, dt, newtype, call);
}

int mmpi_api_Type_vector(struct mmpi_rank *self, enum mmpi_call call, MPI_Count count,
                         MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                         MPI_Datatype *newtype)
{
    struct mmpi_datatype *old = mmpi_datatype_get(self, oldtype), *dt = NULL;
    int err = check_count_old(count, old, blocklength >= 0 && newtype);
    if (err == MPI_SUCCESS)
        err = mmpi_type_vector(count, blocklength, stride, old, call == MMPI_CALL_Type_vector_c,
                               &dt);
    return finish(self, err, dt, newtype, call);
}

/* MPI_Type_create_hvector(_c) and the removed MPI_Type_hvector. */
static int hvector(struct mmpi_rank *self, MPI_Count count, MPI_Count blocklength, MPI_Aint stride,
                   MPI_Datatype oldtype, MPI_Datatype *newtype, enum mmpi_call call)
{
    struct mmpi_datatype *old = mmpi_datatype_get(self, oldtype), *dt = NULL;
    int err = check_count_old(count, old, blocklength >= 0 && newtype);
    if (err == MPI_SUCCESS)
        err = mmpi_type_create_hvector(count, blocklength, stride, old,
                                       call == MMPI_CALL_Type_create_hvector_c, &dt);
    return finish(self, err, dt, newtype, call);
}

int mmpi_api_Type_create_hvector(struct mmpi_rank *self, enum mmpi_call call, MPI_Count count,
                                 MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype)
{
    return hvector(self, count, blocklength, stride, oldtype, newtype, call);
}

int mmpi_api_Type_indexed(struct mmpi_rank *self, enum mmpi_call call, MPI_Count count,
                          struct mmpi_poly_array array_of_blocklengths,
                          struct mmpi_poly_array array_of_displacements, MPI_Datatype oldtype,
                          MPI_Datatype *newtype)
{
    struct mmpi_datatype *old = mmpi_datatype_get(self, oldtype), *dt = NULL;
    int err = check_count_old(count, old,
                              !bad_blocklengths(count, array_of_blocklengths) &&
                                  (count == 0 || !mmpi_poly_null(array_of_displacements)) &&
                                  newtype);
    if (err == MPI_SUCCESS)
        err = mmpi_type_indexed(count, array_of_blocklengths, array_of_displacements, old,
                                call == MMPI_CALL_Type_indexed_c, &dt);
    return finish(self, err, dt, newtype, call);
}

/* MPI_Type_create_hindexed(_c) and the removed MPI_Type_hindexed. */
static int hindexed(struct mmpi_rank *self, MPI_Count count,
                    struct mmpi_poly_array array_of_blocklengths,
                    struct mmpi_poly_array array_of_displacements, MPI_Datatype oldtype,
                    MPI_Datatype *newtype, enum mmpi_call call)
{
    struct mmpi_datatype *old = mmpi_datatype_get(self, oldtype), *dt = NULL;
    int err = check_count_old(count, old,
                              !bad_blocklengths(count, array_of_blocklengths) &&
                                  (count == 0 || !mmpi_poly_null(array_of_displacements)) &&
                                  newtype);
    if (err == MPI_SUCCESS)
        err = mmpi_type_create_hindexed(count, array_of_blocklengths, array_of_displacements, old,
                                        call == MMPI_CALL_Type_create_hindexed_c, &dt);
    return finish(self, err, dt, newtype, call);
}

int mmpi_api_Type_create_hindexed(struct mmpi_rank *self, enum mmpi_call call, MPI_Count count,
                                  struct mmpi_poly_array array_of_blocklengths,
                                  struct mmpi_poly_array array_of_displacements,
                                  MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return hindexed(self, count, array_of_blocklengths, array_of_displacements, oldtype, newtype,
                    call);
}

/* MPI_Type_create_indexed_block(_c) and MPI_Type_create_hindexed_block(_c): displacements in
 * elements of the old type, or in bytes. */
static int block_indexed(struct mmpi_rank *self, enum mmpi_call call, MPI_Count count,
                         MPI_Count blocklength, struct mmpi_poly_array array_of_displacements,
                         MPI_Datatype oldtype, MPI_Datatype *newtype, bool bytes)
{
    struct mmpi_datatype *old = mmpi_datatype_get(self, oldtype), *dt = NULL;
    int err = check_count_old(
        count, old,
        blocklength >= 0 && (count == 0 || !mmpi_poly_null(array_of_displacements)) && newtype);
    bool large = call == MMPI_CALL_Type_create_indexed_block_c ||
                 call == MMPI_CALL_Type_create_hindexed_block_c;
    if (err == MPI_SUCCESS && bytes)
        err = mmpi_type_create_hindexed_block(count, blocklength, array_of_displacements, old,
                                              large, &dt);
    else if (err == MPI_SUCCESS)
        err = mmpi_type_create_indexed_block(count, blocklength, array_of_displacements, old, large,
                                             &dt);
    return finish(self, err, dt, newtype, call);
}

int mmpi_api_Type_create_indexed_block(struct mmpi_rank *self, enum mmpi_call call, MPI_Count count,
                                       MPI_Count blocklength,
                                       struct mmpi_poly_array array_of_displacements,
                                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return block_indexed(self, call, count, blocklength, array_of_displacements, oldtype, newtype,
                         false);
}

int mmpi_api_Type_create_hindexed_block(struct mmpi_rank *self, enum mmpi_call call,
                                        MPI_Count count, MPI_Count blocklength,
                                        struct mmpi_poly_array array_of_displacements,
                                        MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return block_indexed(self, call, count, blocklength, array_of_displacements, oldtype, newtype,
                         true);
}

/* Resolves a struct's member types: MPI_ERR_TYPE for an invalid one. */
static int struct_types(struct mmpi_rank *self, MPI_Count count, const MPI_Datatype handles[],
                        struct mmpi_datatype **types)
{
    for (MPI_Count i = 0; i < count; i++)
        if (!(types[i] = mmpi_datatype_get(self, handles[i])))
            return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

/* MPI_Type_create_struct(_c) and the removed MPI_Type_struct. */
static int type_struct(struct mmpi_rank *self, MPI_Count count,
                       struct mmpi_poly_array array_of_blocklengths,
                       struct mmpi_poly_array array_of_displacements,
                       const MPI_Datatype array_of_types[], MPI_Datatype *newtype,
                       enum mmpi_call call)
{
    struct mmpi_datatype **types = NULL, *dt = NULL;
    int err = MPI_SUCCESS;

    if (count < 0)
        err = MPI_ERR_COUNT;
    else if (bad_blocklengths(count, array_of_blocklengths) ||
             (count > 0 && (mmpi_poly_null(array_of_displacements) || !array_of_types)) || !newtype)
        err = MPI_ERR_ARG;
    /* The resolved member types: freed before returning. */
    else if ((uint64_t)count >= SIZE_MAX / sizeof(*types) ||
             !(types = malloc((count > 0 ? (size_t)count : 1) * sizeof(*types))))
        err = MPI_ERR_NO_MEM;
    else if ((err = struct_types(self, count, array_of_types, types)) == MPI_SUCCESS)
        err = mmpi_type_create_struct(count, array_of_blocklengths, array_of_displacements, types,
                                      call == MMPI_CALL_Type_create_struct_c, &dt);
    free(types);
    return finish(self, err, dt, newtype, call);
}

int mmpi_api_Type_create_struct(struct mmpi_rank *self, enum mmpi_call call, MPI_Count count,
                                struct mmpi_poly_array array_of_blocklengths,
                                struct mmpi_poly_array array_of_displacements,
                                const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return type_struct(self, count, array_of_blocklengths, array_of_displacements, array_of_types,
                       newtype, call);
}

int mmpi_api_Type_create_subarray(struct mmpi_rank *self, enum mmpi_call call, int ndims,
                                  struct mmpi_poly_array array_of_sizes,
                                  struct mmpi_poly_array array_of_subsizes,
                                  struct mmpi_poly_array array_of_starts, int order,
                                  MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct mmpi_datatype *old = mmpi_datatype_get(self, oldtype), *dt = NULL;
    /* Geometry (ndims, sizes, subsizes, starts, order) is checked by the implementation. */
    int err = check_old(old, (ndims <= 0 || (!mmpi_poly_null(array_of_sizes) &&
                                             !mmpi_poly_null(array_of_subsizes) &&
                                             !mmpi_poly_null(array_of_starts))) &&
                                 newtype);
    if (err == MPI_SUCCESS)
        err = mmpi_type_create_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts,
                                        order, old, &dt);
    return finish(self, err, dt, newtype, call);
}

int mmpi_api_Type_create_darray(struct mmpi_rank *self, enum mmpi_call call, int size, int rank,
                                int ndims, struct mmpi_poly_array array_of_gsizes,
                                const int array_of_distribs[], const int array_of_dargs[],
                                const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    struct mmpi_datatype *old = mmpi_datatype_get(self, oldtype), *dt = NULL;
    /* The grid and the distributions are checked by the implementation. */
    int err = check_old(old,
                        (ndims <= 0 || (!mmpi_poly_null(array_of_gsizes) && array_of_distribs &&
                                        array_of_dargs && array_of_psizes)) &&
                            newtype);
    if (err == MPI_SUCCESS)
        err = mmpi_type_create_darray(size, rank, ndims, array_of_gsizes, array_of_distribs,
                                      array_of_dargs, array_of_psizes, order, old, &dt);
    return finish(self, err, dt, newtype, call);
}

int mmpi_api_Type_create_resized(struct mmpi_rank *self, enum mmpi_call call, MPI_Datatype oldtype,
                                 MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    struct mmpi_datatype *old = mmpi_datatype_get(self, oldtype), *dt = NULL;
    int err = check_old(old, newtype != NULL);
    if (err == MPI_SUCCESS)
        err = mmpi_type_create_resized(old, lb, extent, call == MMPI_CALL_Type_create_resized_c,
                                       &dt);
    return finish(self, err, dt, newtype, call);
}

MMPI_PROFILED(Type_commit);
int PMPI_Type_commit(MPI_Datatype *datatype)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_commit);
    struct mmpi_datatype *dt = NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!datatype, MPI_ERR_ARG);
    MMPI_FAIL_IF(!(dt = mmpi_datatype_get(self, *datatype)), MPI_ERR_TYPE);
    /* MPI-4.1 §5.1.9: committing a committed (or predefined) type is a no-op. The layout is
     * built at construction, so commit only marks the type usable for communication. */
    if (!dt->predefined)
        __atomic_store_n(&dt->committed, true, __ATOMIC_RELEASE);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_commit);
    goto fn_exit;
}

MMPI_PROFILED(Type_dup);
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_dup);
    struct mmpi_datatype *old = mmpi_datatype_get(self, oldtype), *dt = NULL;
    int err = MPI_SUCCESS;

    if ((err = check_old(old, newtype != NULL)))
        goto fn_fail;
    if ((err = mmpi_type_dup(old, &dt)) || (err = mmpi_dt_publish(self, dt, newtype)))
        goto fn_fail;
    /* §7.7.4: copy callbacks run at MPI_Type_dup; one failing fails the call. */
    if ((err = mmpi_attr_type_copy(self, oldtype, *newtype)) != MPI_SUCCESS) {
        mmpi_datatype_release(mmpi_handle_remove(self, MMPI_HANDLE_KIND_DATATYPE, *newtype));
        *newtype = MPI_DATATYPE_NULL;
        goto fn_fail;
    }
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_dup);
    goto fn_exit;
}

MMPI_PROFILED(Type_free);
int PMPI_Type_free(MPI_Datatype *datatype)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_free);
    struct mmpi_datatype *dt = NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!datatype, MPI_ERR_ARG);
    /* §7.7.4: delete callbacks run first; one failing fails the call, the type stays. */
    if (mmpi_handle_lookup(self, MMPI_HANDLE_KIND_DATATYPE, *datatype) &&
        (err = mmpi_attr_type_free(self, *datatype)) != MPI_SUCCESS)
        goto fn_fail;
    /* Predefined types cannot be freed (MPI-4.1 §5.1.9); a second free finds no handle. */
    MMPI_FAIL_IF(!(dt = mmpi_handle_remove(self, MMPI_HANDLE_KIND_DATATYPE, *datatype)),
                 MPI_ERR_TYPE);
    /* Types built from it and pending operations hold their own references (§5.1.9). */
    mmpi_datatype_release(dt);
    *datatype = MPI_DATATYPE_NULL;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_free);
    goto fn_exit;
}

/* ---- Removed in MPI-3.0 ------------------------------------------------------------------ */

MMPI_PROFILED(Type_hvector);
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return hvector(mmpi_enter(MMPI_CALL_Type_hvector), count, blocklength, stride, oldtype, newtype,
                   MMPI_CALL_Type_hvector);
}

MMPI_PROFILED(Type_hindexed);
int PMPI_Type_hindexed(int count, const int array_of_blocklengths[],
                       const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    return hindexed(mmpi_enter(MMPI_CALL_Type_hindexed), count,
                    mmpi_poly_narrow(array_of_blocklengths), mmpi_poly_wide(array_of_displacements),
                    oldtype, newtype, MMPI_CALL_Type_hindexed);
}

MMPI_PROFILED(Type_struct);
int PMPI_Type_struct(int count, const int array_of_blocklengths[],
                     const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                     MPI_Datatype *newtype)
{
    return type_struct(
        mmpi_enter(MMPI_CALL_Type_struct), count, mmpi_poly_narrow(array_of_blocklengths),
        mmpi_poly_wide(array_of_displacements), array_of_types, newtype, MMPI_CALL_Type_struct);
}
