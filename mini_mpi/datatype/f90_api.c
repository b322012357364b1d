/*
 * datatype/f90_api.c: the datatypes named by parameters rather than made by constructors:
 * MPI_Type_create_f90_integer, _real and _complex (MPI-4.1 §19.1.9) and
 * MPI_Type_get_value_index (MPI 4.1 §5.1.3 pair types).
 *
 * An F90 type is predefined (§19.1.9: it must not be freed, and the same (p, r) gives the same
 * handle): the first request for a (combiner, p, r) copies the predefined type it stands for
 * (REAL4/8/16, COMPLEX8/16/32, INTEGER1/2/4/8, chosen by precision and range like gfortran's
 * kinds) into a slot of mmpi_dt_f90_table, with its own handle and the envelope §5.1.13 gives
 * it (combiner MPI_COMBINER_F90_*, the integers p and r, no datatypes). Its `basic` stays the
 * type it stands for, so reductions and external32 treat it as that type. Slots are
 * process-wide and never freed; a program asking for more than MMPI_DT_F90_MAX distinct
 * (p, r) gets MPI_ERR_INTERN.
 */
#include <pthread.h>
#include <string.h>

#include "datatype/build.h"
#include "mmpi.h"

struct mmpi_datatype mmpi_dt_f90_table[MMPI_DT_F90_MAX];
static int f90_ints[MMPI_DT_F90_MAX][2]; /* each slot's envelope integers */
static int f90_used;                     /* slots filled; f90_lock */
static pthread_mutex_t f90_lock = PTHREAD_MUTEX_INITIALIZER;

/* The handle of (combiner, p, r) standing for `base`, made on first use. */
static int f90_type(int combiner, int p, int r, MPI_Datatype base, MPI_Datatype *out)
{
    int ni = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2, err = MPI_SUCCESS;
    MMPI_CHECK_PTHREAD(pthread_mutex_lock(&f90_lock));
    int k = 0;
    for (; k < f90_used; k++) {
        const struct mmpi_datatype *d = &mmpi_dt_f90_table[k];
        if (d->combiner == combiner && f90_ints[k][0] == p && (ni == 1 || f90_ints[k][1] == r))
            break;
    }
    if (k == f90_used && k == MMPI_DT_F90_MAX) {
        err = MPI_ERR_INTERN;
    } else if (k == f90_used) {
        struct mmpi_datatype *d = &mmpi_dt_f90_table[k];
        *d = *mmpi_dt_predefined(base); /* static runs and name: shared, never freed */
        d->combiner = combiner;
        d->ni = (size_t)ni;
        f90_ints[k][0] = p;
        f90_ints[k][1] = r;
        d->ints = f90_ints[k];
        f90_used++;
        __atomic_store_n(&d->handle, MMPI_DATATYPE(MMPI_DATATYPE_PREDEFINED_COUNT + k),
                         __ATOMIC_RELEASE);
    }
    if (err == MPI_SUCCESS)
        *out = mmpi_dt_f90_table[k].handle;
    MMPI_CHECK_PTHREAD(pthread_mutex_unlock(&f90_lock));
    return err;
}

/* MPI_UNDEFINED asks nothing of a parameter (§19.1.9). */
static int wanted(int v)
{
    return v == MPI_UNDEFINED ? 0 : v;
}

/* gfortran's real kinds: 4 (p 6, r 37), 8 (p 15, r 307), 16 (p 33, r 4931). */
static int real_kind(int p, int r)
{
    p = wanted(p), r = wanted(r);
    if (p < 0 || r < 0)
        return -1;
    return p <= 6 && r <= 37 ? 0 : p <= 15 && r <= 307 ? 1 : p <= 33 && r <= 4931 ? 2 : -1;
}

static int f90_call(int combiner, int p, int r, MPI_Datatype *newtype, enum mmpi_call call)
{
    static const MPI_Datatype reals[] = {MPI_REAL4, MPI_REAL8, MPI_REAL16};
    static const MPI_Datatype complexes[] = {MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};
    static const MPI_Datatype ints[] = {MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8,
                                        MPI_INTEGER16};
    struct mmpi_rank *self = mmpi_enter(call);
    MPI_Datatype base = MPI_DATATYPE_NULL;
    int err = MPI_SUCCESS;

    if (combiner == MPI_COMBINER_F90_INTEGER) {
        int rr = wanted(p); /* the range is the one parameter */
        /* gfortran's integer kinds: 1 (r 2), 2 (r 4), 4 (r 9), 8 (r 18), 16 (r 38). */
        base = rr < 0 || rr > 38
                   ? MPI_DATATYPE_NULL
                   : ints[rr <= 2 ? 0 : rr <= 4 ? 1 : rr <= 9 ? 2 : rr <= 18 ? 3 : 4];
    } else {
        int k = real_kind(p, r);
        if (k >= 0)
            base = combiner == MPI_COMBINER_F90_REAL ? reals[k] : complexes[k];
    }
    if (!newtype || base == MPI_DATATYPE_NULL) /* no kind has that precision and range */
        err = MPI_ERR_ARG;
    else
        err = f90_type(combiner, p, r, base, newtype);
    if (err != MPI_SUCCESS)
        err = mmpi_err_raise_comm(self, NULL, err, call);
    return err;
}

MMPI_PROFILED(Type_create_f90_real);
int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return f90_call(MPI_COMBINER_F90_REAL, p, r, newtype, MMPI_CALL_Type_create_f90_real);
}

MMPI_PROFILED(Type_create_f90_complex);
int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return f90_call(MPI_COMBINER_F90_COMPLEX, p, r, newtype, MMPI_CALL_Type_create_f90_complex);
}

MMPI_PROFILED(Type_create_f90_integer);
int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    return f90_call(MPI_COMBINER_F90_INTEGER, r, 0, newtype, MMPI_CALL_Type_create_f90_integer);
}

/* MPI 4.1: the predefined pair type of (value, index) where there is one (§6.9.4's list). */
static MPI_Datatype predefined_pair(MPI_Datatype value, MPI_Datatype index)
{
    static const MPI_Datatype pairs[][3] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i][0] == value && pairs[i][1] == index)
            return pairs[i][2];
    return MPI_DATATYPE_NULL;
}

MMPI_PROFILED(Type_get_value_index);
int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
                              MPI_Datatype *pair_type)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Type_get_value_index);
    const struct mmpi_datatype *v = mmpi_dt_predefined(value_type),
                               *x = mmpi_dt_predefined(index_type);
    struct mmpi_datatype *dt = NULL;
    int err = MPI_SUCCESS;

    /* Both are predefined types (MPI 4.1); the pair is a struct { value; index; } as C lays
     * it out. */
    MMPI_FAIL_IF(!v || !x || v->size == 0 || x->size == 0, MPI_ERR_TYPE);
    MMPI_FAIL_IF(!pair_type, MPI_ERR_ARG);
    if ((*pair_type = predefined_pair(value_type, index_type)) != MPI_DATATYPE_NULL)
        goto fn_exit;
    MPI_Aint at = v->extent, align = (MPI_Aint)x->align;
    if (at % align)
        at += align - at % align;
    struct mmpi_dt_part parts[2] = {{0, 1, v, 1, 0}, {at, 1, x, 1, 0}};
    if ((err = mmpi_dt_build(parts, 2, MMPI_DT_BUILD_PAD, NULL, &dt)))
        goto fn_fail;
    if ((err = mmpi_dt_envelope(dt, MPI_COMBINER_VALUE_INDEX, 0, 0, 0, 2))) {
        mmpi_datatype_release(dt);
        goto fn_fail;
    }
    mmpi_dt_set_type(dt, 0, v);
    mmpi_dt_set_type(dt, 1, x);
    /* Committed: MPI 4.1 returns a type ready for communication. */
    dt->committed = true;
    if ((err = mmpi_dt_publish(self, dt, pair_type)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Type_get_value_index);
    goto fn_exit;
}
