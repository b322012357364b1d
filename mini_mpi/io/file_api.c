/*
 * io/file_api.c: MPI entry points of file manipulation (MPI-4.1 §14.2), views (§14.3),
 * interoperability and consistency (§14.5, §14.6) and file error handlers (§9.3.4), in the
 * chapter's order. Bindings only: checks, then one call into file.c, view.c, shared.c or
 * errhan/file.c. Errors go through the file's handler, or MPI_FILE_NULL's when there is no
 * file (open, delete, a bad handle); files start with MPI_ERRORS_RETURN (§14.7).
 */
#include <stdlib.h>
#include <string.h>

#include "comm/info.h"
#include "datatype/datatype.h"
#include "group/group.h"
#include "io/io.h"

#define KNOWN_MODES                                                                         \
    (MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR |                  \
     MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL | MPI_MODE_APPEND |     \
     MPI_MODE_SEQUENTIAL)

/* §14.2.1: exactly one of RDONLY, RDWR, WRONLY; RDONLY excludes CREATE and EXCL; SEQUENTIAL
 * excludes RDWR. */
static bool amode_ok(int amode)
{
    int rw = !!(amode & MPI_MODE_RDONLY) + !!(amode & MPI_MODE_WRONLY) + !!(amode & MPI_MODE_RDWR);
    if ((amode & ~KNOWN_MODES) || rw != 1)
        return false;
    if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return false;
    return !((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL));
}

MMPI_PROFILED(File_open);
int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_open);
    struct mmpi_comm *c = mmpi_comm_get(self, comm);
    struct mmpi_info *hints = NULL;
    int err = MPI_SUCCESS;

    if (!c || c->core->remote)
        err = MPI_ERR_COMM; /* §14.2.1: an intracommunicator */
    else if (mmpi_fault_revoked(&c->core->fault))
        err = MPI_ERR_REVOKED;
    else if (!filename || !fh)
        err = MPI_ERR_ARG;
    else if (!amode_ok(amode))
        err = MPI_ERR_AMODE;
    else
        err = mmpi_info_arg(self, info, &hints);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    if ((err = mmpi_file_open(self, c, filename, amode, hints, fh)))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    if (fh)
        *fh = MPI_FILE_NULL;
    err = mmpi_err_raise_file(self, NULL, err, MMPI_CALL_File_open);
    goto fn_exit;
}

MMPI_PROFILED(File_close);
int PMPI_File_close(MPI_File *fh)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_close);
    struct mmpi_file *f = fh ? mmpi_file_get(self, *fh) : NULL;
    int err = MPI_SUCCESS;

    if (!fh)
        err = MPI_ERR_ARG;
    else if (!f)
        err = MPI_ERR_FILE;
    else if (f->split_active)
        err = MPI_ERR_OTHER; /* §14.4.5: a split collective must end first */
    if (err != MPI_SUCCESS)
        goto fn_fail;
    *fh = MPI_FILE_NULL;
    /* The handle object is gone after this, whatever the outcome: report on MPI_FILE_NULL. */
    err = mmpi_file_close(self, f);
    f = NULL;
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_close);
    goto fn_exit;
}

MMPI_PROFILED(File_delete);
int PMPI_File_delete(const char *filename, MPI_Info info)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_delete);
    struct mmpi_info *hints;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!filename, MPI_ERR_ARG);
    err = mmpi_info_arg(self, info, &hints);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    err = mmpi_file_delete(filename);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, NULL, err, MMPI_CALL_File_delete);
    goto fn_exit;
}

/* Set_size and preallocate: collective, writable files, not sequential (§14.2.4, §14.2.5). */
static int resize(MPI_File fh, MPI_Offset size, bool preallocate, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(size < 0, MPI_ERR_ARG);
    MMPI_FAIL_IF(f->core->amode & MPI_MODE_RDONLY, MPI_ERR_READ_ONLY);
    MMPI_FAIL_IF(f->core->amode & MPI_MODE_SEQUENTIAL, MPI_ERR_UNSUPPORTED_OPERATION);
    err = mmpi_file_set_size(self, f, size, preallocate);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, call);
    goto fn_exit;
}

MMPI_PROFILED(File_set_size);
int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    return resize(fh, size, false, MMPI_CALL_File_set_size);
}

MMPI_PROFILED(File_preallocate);
int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    return resize(fh, size, true, MMPI_CALL_File_preallocate);
}

MMPI_PROFILED(File_get_size);
int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_get_size);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(!size, MPI_ERR_ARG);
    err = mmpi_file_get_size(f, size);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_get_size);
    goto fn_exit;
}

MMPI_PROFILED(File_get_group);
int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_get_group);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(!group, MPI_ERR_ARG);
    /* §14.2.6: a new group, which the program frees. */
    *group = mmpi_group_handle_new(self, mmpi_group_of_core(f->comm->core));
    MMPI_FAIL_IF(*group == MPI_GROUP_NULL, MPI_ERR_NO_MEM);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_get_group);
    goto fn_exit;
}

MMPI_PROFILED(File_get_amode);
int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_get_amode);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(!amode, MPI_ERR_ARG);
    *amode = f->core->amode;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_get_amode);
    goto fn_exit;
}

MMPI_PROFILED(File_set_info);
int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_set_info);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    struct mmpi_info *hints;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    err = mmpi_info_arg(self, info, &hints);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    err = mmpi_file_set_info(f, hints);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_set_info);
    goto fn_exit;
}

/* MPI_File_get_info's implementation: a copy of the file's hints as a new handle, written to
 * *info_used only on success (§14.2.8: the program frees it). */
static int info_copy(struct mmpi_rank *self, struct mmpi_file *f, MPI_Info *info_used)
{
    struct mmpi_info *copy = mmpi_info_dup(f->info);
    if (!copy)
        return MPI_ERR_NO_MEM;
    copy->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_INFO, copy);
    if (copy->handle == MPI_INFO_NULL) {
        mmpi_info_release(copy);
        return MPI_ERR_NO_MEM;
    }
    *info_used = copy->handle;
    return MPI_SUCCESS;
}

MMPI_PROFILED(File_get_info);
int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_get_info);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(!info_used, MPI_ERR_ARG);
    err = info_copy(self, f, info_used);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_get_info);
    goto fn_exit;
}

/* ---- Views (§14.3) -------------------------------------------------------------------- */

/* MPI_File_set_view's implementation, once its arguments are checked. */
static int set_view(struct mmpi_rank *self, struct mmpi_file *f, MPI_Offset disp,
                    struct mmpi_datatype *et, struct mmpi_datatype *ft, const char *datarep,
                    struct mmpi_info *hints)
{
    const struct mmpi_datarep *user = mmpi_datarep_find(self, datarep);
    int err = mmpi_file_set_view(f, disp, et, ft, datarep, user);
    if (err == MPI_SUCCESS)
        err = mmpi_file_set_info(f, hints);
    /* Collective (§14.3): the members meet, then the shared pointer restarts at zero. */
    MPI_Offset base;
    if (err == MPI_SUCCESS && (err = mmpi_file_barrier(self, f->comm)) == MPI_SUCCESS)
        err = mmpi_file_shared_claim_collective(f, 0, MPI_SEEK_SET, 0, &base);
    return err;
}

MMPI_PROFILED(File_set_view);
int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char *datarep, MPI_Info info)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_set_view);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    struct mmpi_datatype *et = NULL, *ft = NULL;
    struct mmpi_info *hints;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(f->split_active, MPI_ERR_OTHER);
    MMPI_FAIL_IF(mmpi_datatype_check(self, etype, &et) || mmpi_datatype_check(self, filetype, &ft),
                 MPI_ERR_TYPE);
    MMPI_FAIL_IF(!datarep, MPI_ERR_UNSUPPORTED_DATAREP);
    MMPI_FAIL_IF((f->core->amode & MPI_MODE_SEQUENTIAL) && disp != MPI_DISPLACEMENT_CURRENT &&
                     disp < 0,
                 MPI_ERR_ARG);
    err = mmpi_info_arg(self, info, &hints);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    err = set_view(self, f, disp, et, ft, datarep, hints);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_set_view);
    goto fn_exit;
}

/* A handle for a view's type: predefined ones as they are, derived ones as a new handle the
 * program frees (§14.3 MPI_File_get_view). */
static int type_handle(struct mmpi_rank *self, struct mmpi_datatype *dt, MPI_Datatype *out)
{
    if (dt->predefined) {
        *out = dt->handle;
        return MPI_SUCCESS;
    }
    mmpi_datatype_retain(dt);
    *out = mmpi_handle_new(self, MMPI_HANDLE_KIND_DATATYPE, dt);
    if (*out == MPI_DATATYPE_NULL) {
        mmpi_datatype_release(dt);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

/* MPI_File_get_view's implementation. */
static int get_view(struct mmpi_rank *self, struct mmpi_file *f, MPI_Offset *disp,
                    MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep)
{
    *disp = f->view.disp;
    strcpy(datarep, f->view.datarep);
    int err = type_handle(self, f->view.etype, etype);
    if (err == MPI_SUCCESS)
        err = type_handle(self, f->view.filetype, filetype);
    return err;
}

MMPI_PROFILED(File_get_view);
int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                       MPI_Datatype *filetype, char *datarep)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_get_view);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(!disp || !etype || !filetype || !datarep, MPI_ERR_ARG);
    err = get_view(self, f, disp, etype, filetype, datarep);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_get_view);
    goto fn_exit;
}

/* ---- Interoperability and consistency (§14.5, §14.6) ------------------------------------ */

static int type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent,
                       enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    struct mmpi_datatype *dt = mmpi_datatype_get(self, datatype);
    struct mmpi_datatype *layout = NULL;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(!dt, MPI_ERR_TYPE);
    MMPI_FAIL_IF(!extent, MPI_ERR_ARG);
    /* §14.5.1: the extent in the file's representation: "native" and "internal" store
     * memory's layout; external32 and registered representations lay dt out in their sizes
     * (view.c, the rule of §14.5.1 for byte displacements and portable types). */
    err = mmpi_file_view_type_layout(&f->view, dt, &layout);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    *extent = layout->extent;
    mmpi_datatype_release(layout);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, call);
    goto fn_exit;
}

MMPI_PROFILED(File_get_type_extent);
int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    MPI_Count x = 0;
    int err = type_extent(fh, datatype, extent ? &x : NULL, MMPI_CALL_File_get_type_extent);
    if (err == MPI_SUCCESS)
        *extent = (MPI_Aint)x;
    return err;
}

MMPI_PROFILED(File_get_type_extent_c);
int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    return type_extent(fh, datatype, extent, MMPI_CALL_File_get_type_extent_c);
}

MMPI_PROFILED(File_set_atomicity);
int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_set_atomicity);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    /* Collective (§14.6.1): the members meet so that no access straddles the change. */
    err = mmpi_file_barrier(self, f->comm);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    f->atomic = flag != 0;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_set_atomicity);
    goto fn_exit;
}

MMPI_PROFILED(File_get_atomicity);
int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_get_atomicity);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(!flag, MPI_ERR_ARG);
    *flag = f->atomic;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_get_atomicity);
    goto fn_exit;
}

MMPI_PROFILED(File_sync);
int PMPI_File_sync(MPI_File fh)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_sync);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(f->split_active, MPI_ERR_OTHER);
    err = mmpi_file_sync(self, f);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_sync);
    goto fn_exit;
}

/* ---- File error handlers (§9.3.4) ------------------------------------------------------ */

MMPI_PROFILED(File_create_errhandler);
int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_create_errhandler);
    int err = MPI_SUCCESS;

    err = mmpi_errhandler_create(self, MMPI_ERRH_FOR_FILE, (void (*)(void))fn, errhandler);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, NULL, err, MMPI_CALL_File_create_errhandler);
    goto fn_exit;
}

MMPI_PROFILED(File_set_errhandler);
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_set_errhandler);
    struct mmpi_file *f = mmpi_file_get(self, file);
    struct mmpi_errhandler *e = mmpi_errhandler_get(self, errhandler);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f && file != MPI_FILE_NULL, MPI_ERR_FILE);
    MMPI_FAIL_IF(!e || (e->kind == MMPI_ERRH_USER && e->object != MMPI_ERRH_FOR_FILE),
                 MPI_ERR_ERRHANDLER);
    if (!f) {
        mmpi_err_set_file_null_handler(self, e); /* §9.3.4: used by open and delete */
        goto fn_exit;
    }
    mmpi_errhandler_retain(e);
    struct mmpi_errhandler *old = f->errhandler;
    f->errhandler = e;
    mmpi_errhandler_release(old);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_set_errhandler);
    goto fn_exit;
}

MMPI_PROFILED(File_get_errhandler);
int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_get_errhandler);
    struct mmpi_file *f = mmpi_file_get(self, file);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f && file != MPI_FILE_NULL, MPI_ERR_FILE);
    MMPI_FAIL_IF(!errhandler, MPI_ERR_ARG);
    struct mmpi_errhandler *e = f ? f->errhandler : mmpi_err_file_null_handler(self);
    mmpi_errhandler_retain(e); /* §9.3: the program frees what get returns */
    *errhandler = e->handle;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_get_errhandler);
    goto fn_exit;
}

MMPI_PROFILED(File_call_errhandler);
int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_call_errhandler);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f && fh != MPI_FILE_NULL, MPI_ERR_FILE);
    /* Calling the handler is this call's implementation; §9.3.4: success once the handler
     * has returned, whatever it returns. */
    mmpi_err_raise_file(self, f, errorcode, MMPI_CALL_File_call_errhandler);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_call_errhandler);
    goto fn_exit;
}

/* ---- Handle conversion (§19.3.4): handles are ints already ----------------------------- */

MMPI_PROFILED(File_c2f);
MPI_Fint PMPI_File_c2f(MPI_File file)
{
    return (MPI_Fint)file;
}

MMPI_PROFILED(File_f2c);
MPI_File PMPI_File_f2c(MPI_Fint file)
{
    return (MPI_File)file;
}
