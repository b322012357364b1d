/*
 * fortran/glue/attr.c: attribute caching from Fortran (MPI-4.1 §7.7, §19.3.7). A Fortran
 * attribute is an integer (INTEGER(KIND=MPI_ADDRESS_KIND), or INTEGER for the MPI-1 calls): it is
 * stored in a cell (attr_cells.c) whose address is the C attribute, so C sees the address of
 * the value a Fortran rank set, and Fortran sees a C pointer as an address (MPI-4.1 §19.3.7).
 * The predefined attributes, which C returns as a pointer to the value, are read through it.
 *
 * Fortran copy and delete functions take every argument by reference: a keyval created from
 * Fortran carries them in its extra state (struct fkeyval) and C calls them through the
 * trampolines below, which also give each copy its own cell and free a deleted one.
 * MPI_COMM_DUP_FN and the other predefined functions are Fortran procedures too (EXTERNAL in
 * mpif.h), called by the trampolines like the program's own.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fortran/glue.h"

#pragma GCC diagnostic ignored "-Wmissing-prototypes"

typedef void fcopy_fn(MPI_Fint *, MPI_Fint *, void *, void *, void *, MPI_Fint *, MPI_Fint *);
typedef void fdelete_fn(MPI_Fint *, MPI_Fint *, void *, void *, MPI_Fint *);

/* mpi1: the MPI-1 calls (MPI_Keyval_create), whose values are default INTEGERs. */
struct fkeyval {
    fcopy_fn *copy;
    fdelete_fn *del;
    MPI_Aint extra;
    int mpi1;
};

/* The value Fortran sees of a (non-predefined) attribute stored as p: a cell's value, else the
 * C pointer itself. */
static MPI_Aint fortran_value(void *p)
{
    MPI_Aint v;
    return mmpi_f_attr_read(p, &v) ? v : (MPI_Aint)(intptr_t)p;
}

static int copy_tramp(int old, int keyval, void *extra_state, void *in, void *out, int *flag)
{
    struct fkeyval *k = extra_state;
    MPI_Fint fold = old, fkey = keyval, fflag = 0, ierr = MPI_SUCCESS;
    MPI_Aint vin = fortran_value(in), vout = 0, extra = k->extra;
    MPI_Fint iin = (MPI_Fint)vin, iout = 0, iextra = (MPI_Fint)extra;
    if (k->mpi1) {
        k->copy(&fold, &fkey, &iextra, &iin, &iout, &fflag, &ierr);
        vout = iout;
    } else {
        k->copy(&fold, &fkey, &extra, &vin, &vout, &fflag, &ierr);
    }
    *flag = fflag != 0;
    if (*flag && ierr == MPI_SUCCESS)
        *(void **)out = mmpi_f_attr_cell(vout);
    return ierr;
}

static int delete_tramp(int obj, int keyval, void *val, void *extra_state)
{
    struct fkeyval *k = extra_state;
    MPI_Fint fobj = obj, fkey = keyval, ierr = MPI_SUCCESS;
    MPI_Aint v = fortran_value(val), extra = k->extra;
    MPI_Fint iv = (MPI_Fint)v, iextra = (MPI_Fint)extra;
    if (k->mpi1)
        k->del(&fobj, &fkey, &iv, &iextra, &ierr);
    else
        k->del(&fobj, &fkey, &v, &extra, &ierr);
    if (ierr == MPI_SUCCESS)
        mmpi_f_attr_drop(val);
    return ierr;
}

/* The predefined Fortran functions, callable from Fortran as the standard says. */
void mpi_comm_null_copy_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Aint *e, MPI_Aint *in, MPI_Aint *out,
                            MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)o, (void)k, (void)e, (void)in, (void)out;
    *flag = 0;
    *ierr = MPI_SUCCESS;
}
void mpi_comm_dup_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Aint *e, MPI_Aint *in, MPI_Aint *out,
                      MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)o, (void)k, (void)e;
    *out = *in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}
void mpi_comm_null_delete_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Aint *v, MPI_Aint *e, MPI_Fint *ierr)
{
    (void)o, (void)k, (void)v, (void)e;
    *ierr = MPI_SUCCESS;
}
void mpi_null_copy_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Fint *e, MPI_Fint *in, MPI_Fint *out,
                       MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)o, (void)k, (void)e, (void)in, (void)out;
    *flag = 0;
    *ierr = MPI_SUCCESS;
}
void mpi_dup_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Fint *e, MPI_Fint *in, MPI_Fint *out,
                 MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)o, (void)k, (void)e;
    *out = *in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}
#pragma weak mpi_type_null_copy_fn_ = mpi_comm_null_copy_fn_
#pragma weak mpi_win_null_copy_fn_ = mpi_comm_null_copy_fn_
#pragma weak mpi_type_dup_fn_ = mpi_comm_dup_fn_
#pragma weak mpi_win_dup_fn_ = mpi_comm_dup_fn_
#pragma weak mpi_type_null_delete_fn_ = mpi_comm_null_delete_fn_
#pragma weak mpi_win_null_delete_fn_ = mpi_comm_null_delete_fn_
#pragma weak mpi_null_delete_fn_ = mpi_comm_null_delete_fn_
typedef void fcopy_aint(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *, MPI_Fint *,
                        MPI_Fint *);
typedef void fdelete_aint(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);
fcopy_aint mpi_type_null_copy_fn_, mpi_win_null_copy_fn_, mpi_type_dup_fn_, mpi_win_dup_fn_;
fdelete_aint mpi_type_null_delete_fn_, mpi_win_null_delete_fn_, mpi_null_delete_fn_;

/* The trampolines, calling the Fortran functions (the predefined ones included: a copy needs a
 * cell of its own). */
static int keyval_args(void *fcopy, void *fdel, MPI_Aint extra, int mpi1, void **ccopy,
                       void **cdel, void **cextra)
{
    struct fkeyval *k = malloc(sizeof(*k));
    if (!k)
        return MPI_ERR_NO_MEM;
    *k = (struct fkeyval){fcopy, fdel, extra, mpi1};
    *ccopy = (void *)copy_tramp;
    *cdel = (void *)delete_tramp;
    *cextra = k;
    return MPI_SUCCESS;
}

#define CREATE_KEYVAL(lname, Cname, copy_t, del_t)                                              \
    void p##lname(void *fcopy, void *fdel, MPI_Fint *keyval, MPI_Aint *extra, MPI_Fint *ierr)  \
    {                                                                                          \
        void *c, *d, *e;                                                                       \
        int rc = keyval_args(fcopy, fdel, *extra, 0, &c, &d, &e);                              \
        if (rc == MPI_SUCCESS)                                                                 \
            rc = P##Cname((copy_t *)c, (del_t *)d, keyval, e);                                 \
        *ierr = rc;                                                                            \
    }                                                                                          \
    _Pragma(MMPI_F_STR(weak lname = p##lname))
#define MMPI_F_STR_(x) #x
#define MMPI_F_STR(x) MMPI_F_STR_(x)

CREATE_KEYVAL(mpi_comm_create_keyval_, MPI_Comm_create_keyval, MPI_Comm_copy_attr_function,
              MPI_Comm_delete_attr_function)
CREATE_KEYVAL(mpi_type_create_keyval_, MPI_Type_create_keyval, MPI_Type_copy_attr_function,
              MPI_Type_delete_attr_function)
CREATE_KEYVAL(mpi_win_create_keyval_, MPI_Win_create_keyval, MPI_Win_copy_attr_function,
              MPI_Win_delete_attr_function)

void pmpi_keyval_create_(void *fcopy, void *fdel, MPI_Fint *keyval, MPI_Fint *extra, MPI_Fint *ierr)
{
    void *c, *d, *e;
    int rc = keyval_args(fcopy, fdel, *extra, 1, &c, &d, &e);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Keyval_create((MPI_Copy_function *)c, (MPI_Delete_function *)d, keyval, e);
    *ierr = rc;
}
#pragma weak mpi_keyval_create_ = pmpi_keyval_create_

/* The value Fortran sees of an attribute C returned as the pointer p. */
static MPI_Aint attr_value(int keyval, void *p)
{
    MPI_Aint v;
    if (mmpi_f_attr_read(p, &v))
        return v;
    if (keyval == MPI_WIN_BASE)
        return (MPI_Aint)(intptr_t)p;
    if (keyval == MPI_WIN_SIZE)
        return *(MPI_Aint *)p;
    if ((keyval & 0x7f800000) == MMPI_PREDEFINED(MMPI_HANDLE_KIND_KEYVAL, 0))
        return *(int *)p;
    return (MPI_Aint)(intptr_t)p;
}

#define SET_GET_ATTR(obj, Obj)                                                                 \
    void pmpi_##obj##_set_attr_(MPI_Fint *h, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *ierr)  \
    {                                                                                          \
        *ierr = PMPI_##Obj##_set_attr(*h, *keyval, mmpi_f_attr_cell(*val));                    \
    }                                                                                          \
    _Pragma(MMPI_F_STR(weak mpi_##obj##_set_attr_ = pmpi_##obj##_set_attr_));                  \
    void pmpi_##obj##_get_attr_(MPI_Fint *h, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag,  \
                                MPI_Fint *ierr)                                                \
    {                                                                                          \
        void *p = NULL;                                                                        \
        int rc = PMPI_##Obj##_get_attr(*h, *keyval, &p, flag);                                 \
        if (rc == MPI_SUCCESS) {                                                               \
            *flag = *flag != 0;                                                                \
            if (*flag)                                                                         \
                *val = attr_value(*keyval, p);                                                 \
        }                                                                                      \
        *ierr = rc;                                                                            \
    }                                                                                          \
    _Pragma(MMPI_F_STR(weak mpi_##obj##_get_attr_ = pmpi_##obj##_get_attr_))

SET_GET_ATTR(comm, Comm);
SET_GET_ATTR(type, Type);
SET_GET_ATTR(win, Win);

void pmpi_attr_put_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *ierr)
{
    *ierr = PMPI_Attr_put(*comm, *keyval, mmpi_f_attr_cell(*val));
}
#pragma weak mpi_attr_put_ = pmpi_attr_put_

void pmpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *flag, MPI_Fint *ierr)
{
    void *p = NULL;
    int rc = PMPI_Attr_get(*comm, *keyval, &p, flag);
    if (rc == MPI_SUCCESS) {
        *flag = *flag != 0;
        if (*flag)
            *val = (MPI_Fint)attr_value(*keyval, p);
    }
    *ierr = rc;
}
#pragma weak mpi_attr_get_ = pmpi_attr_get_
