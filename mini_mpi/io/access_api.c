/*
 * io/access_api.c: MPI entry points of data access (MPI-4.1 §14.4): explicit offsets,
 * individual file pointers, shared file pointers, split collectives, in the chapter's order.
 * Bindings only: one checking body for every form (which differ in how they name the position,
 * whether they meet the other members and whether they return a request), then one call into
 * request.c or shared.c.
 */
#include <sys/stat.h>

#include "datatype/datatype.h"
#include "io/io.h"
#include "pt2pt/request.h"

/* How a call accesses: position source, direction, collective, nonblocking. */
struct how {
    enum mmpi_file_pointer fp;
    bool write;
    bool collective;
};

#define HOW(fp, w, c) ((struct how){MMPI_FP_##fp, w, c})

/* The checks every data access makes (§14.4, §14.7), in one place. */
static int check(struct mmpi_rank *self, struct mmpi_file *f, struct how how, MPI_Offset offset,
                 const void *buf, MPI_Count count, MPI_Datatype datatype,
                 struct mmpi_datatype **dt)
{
    if (!f)
        return MPI_ERR_FILE;
    if (mmpi_file_check_revoked(f))
        return MPI_ERR_REVOKED; /* every later access, independent ones included */
    if (count < 0)
        return MPI_ERR_COUNT;
    if (mmpi_datatype_check(self, datatype, dt))
        return MPI_ERR_TYPE;
    if (mmpi_buffer_missing(buf, (size_t)count, *dt))
        return MPI_ERR_BUFFER;
    if (how.fp == MMPI_FP_EXPLICIT && offset < 0)
        return MPI_ERR_ARG;
    if (how.write && (f->core->amode & MPI_MODE_RDONLY))
        return MPI_ERR_READ_ONLY;
    if (!how.write && (f->core->amode & MPI_MODE_WRONLY))
        return MPI_ERR_ACCESS;
    /* §14.2.1: a sequential file has only the shared pointer. */
    if ((f->core->amode & MPI_MODE_SEQUENTIAL) &&
        (how.fp == MMPI_FP_EXPLICIT || how.fp == MMPI_FP_INDIVIDUAL))
        return MPI_ERR_UNSUPPORTED_OPERATION;
    /* §14.4.1: only whole etypes are accessed (in the file's sizes, §14.5). */
    size_t fsize;
    int err = mmpi_file_view_elem_size(&f->view, *dt, &fsize);
    if (err != MPI_SUCCESS)
        return err; /* a registered representation's extent function failed */
    if (mmpi_file_view_etype_rest(&f->view, fsize) != 0)
        return MPI_ERR_TYPE;
    MPI_Offset n;
    if ((err = mmpi_file_view_count(&f->view, *dt, fsize, count, &n)) != MPI_SUCCESS)
        return err;
    if (f->view.layout->size == 0 && count > 0 && (*dt)->size > 0)
        return MPI_ERR_IO; /* a view without data bytes (ROMIO's class for it) */
    /* Its range, for the positions known now (the shared pointer's is checked as claimed). */
    if (how.fp == MMPI_FP_EXPLICIT)
        return mmpi_file_view_range(&f->view, offset, n);
    if (how.fp == MMPI_FP_INDIVIDUAL)
        return mmpi_file_view_range(&f->view, f->fp, n);
    return MPI_SUCCESS;
}

/* The blocking forms. */
static int access_blocking(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Status *status, struct how how,
                           enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    struct mmpi_datatype *dt = NULL;
    int err = check(self, f, how, offset, buf, count, datatype, &dt);

    if (err == MPI_SUCCESS && f->split_active && how.collective)
        err = MPI_ERR_OTHER; /* §14.4.5: no collective on a file with a split one pending */
    if (err != MPI_SUCCESS)
        goto fn_fail;
    struct mmpi_file_op op = {how.write, how.collective, how.fp, offset, buf, (size_t)count, dt};
    err = how.fp == MMPI_FP_ORDERED ? mmpi_file_ordered(self, f, &op, status)
                                    : mmpi_file_access(self, f, &op, status);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, call);
    goto fn_exit;
}

/* The nonblocking forms (§14.4.2): a request completed by MPI_Wait/Test. */
static int access_nonblocking(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Request *request, struct how how,
                              enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    struct mmpi_datatype *dt = NULL;
    int err = check(self, f, how, offset, buf, count, datatype, &dt);

    if (err == MPI_SUCCESS && !request)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        goto fn_fail;
    struct mmpi_file_op op = {how.write, how.collective, how.fp, offset, buf, (size_t)count, dt};
    struct mmpi_request *req;
    if ((err = mmpi_file_start(self, f, &op, &req)) != MPI_SUCCESS)
        goto fn_fail;
    /* An independent access needs nobody: do it now, so that it is done whether or not the
     * program ever tests (it must wait anyway). */
    if (!how.collective)
        mmpi_request_poll(req);
    if (mmpi_request_handle_new(self, req) == MPI_REQUEST_NULL) {
        mmpi_request_wait(self, req);
        mmpi_request_release(req);
        err = MPI_ERR_NO_MEM;
        goto fn_fail;
    }
    *request = req->handle;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, call);
    goto fn_exit;
}

/* ---- Explicit offsets (§14.4.2) ------------------------------------------------------- */

MMPI_PROFILED(File_read_at);
int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                      MPI_Datatype datatype, MPI_Status *status)
{
    return access_blocking(fh, offset, buf, count, datatype, status, HOW(EXPLICIT, false, false),
                           MMPI_CALL_File_read_at);
}

MMPI_PROFILED(File_read_at_all);
int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                          MPI_Datatype datatype, MPI_Status *status)
{
    return access_blocking(fh, offset, buf, count, datatype, status, HOW(EXPLICIT, false, true),
                           MMPI_CALL_File_read_at_all);
}

MMPI_PROFILED(File_write_at);
int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                       MPI_Datatype datatype, MPI_Status *status)
{
    return access_blocking(fh, offset, (void *)buf, count, datatype, status,
                           HOW(EXPLICIT, true, false), MMPI_CALL_File_write_at);
}

MMPI_PROFILED(File_write_at_all);
int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                           MPI_Datatype datatype, MPI_Status *status)
{
    return access_blocking(fh, offset, (void *)buf, count, datatype, status,
                           HOW(EXPLICIT, true, true), MMPI_CALL_File_write_at_all);
}

MMPI_PROFILED(File_iread_at);
int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                       MPI_Datatype datatype, MPI_Request *request)
{
    return access_nonblocking(fh, offset, buf, count, datatype, request,
                              HOW(EXPLICIT, false, false), MMPI_CALL_File_iread_at);
}

MMPI_PROFILED(File_iwrite_at);
int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                        MPI_Datatype datatype, MPI_Request *request)
{
    return access_nonblocking(fh, offset, (void *)buf, count, datatype, request,
                              HOW(EXPLICIT, true, false), MMPI_CALL_File_iwrite_at);
}

MMPI_PROFILED(File_iread_at_all);
int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                           MPI_Datatype datatype, MPI_Request *request)
{
    return access_nonblocking(fh, offset, buf, count, datatype, request,
                              HOW(EXPLICIT, false, true), MMPI_CALL_File_iread_at_all);
}

MMPI_PROFILED(File_iwrite_at_all);
int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                            MPI_Datatype datatype, MPI_Request *request)
{
    return access_nonblocking(fh, offset, (void *)buf, count, datatype, request,
                              HOW(EXPLICIT, true, true), MMPI_CALL_File_iwrite_at_all);
}

/* ---- Individual file pointers (§14.4.3) ----------------------------------------------- */

MMPI_PROFILED(File_read);
int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    return access_blocking(fh, 0, buf, count, datatype, status, HOW(INDIVIDUAL, false, false),
                           MMPI_CALL_File_read);
}

MMPI_PROFILED(File_read_all);
int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                       MPI_Status *status)
{
    return access_blocking(fh, 0, buf, count, datatype, status, HOW(INDIVIDUAL, false, true),
                           MMPI_CALL_File_read_all);
}

MMPI_PROFILED(File_write);
int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                    MPI_Status *status)
{
    return access_blocking(fh, 0, (void *)buf, count, datatype, status,
                           HOW(INDIVIDUAL, true, false), MMPI_CALL_File_write);
}

MMPI_PROFILED(File_write_all);
int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                        MPI_Status *status)
{
    return access_blocking(fh, 0, (void *)buf, count, datatype, status,
                           HOW(INDIVIDUAL, true, true), MMPI_CALL_File_write_all);
}

MMPI_PROFILED(File_iread);
int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                    MPI_Request *request)
{
    return access_nonblocking(fh, 0, buf, count, datatype, request,
                              HOW(INDIVIDUAL, false, false), MMPI_CALL_File_iread);
}

MMPI_PROFILED(File_iwrite);
int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                     MPI_Request *request)
{
    return access_nonblocking(fh, 0, (void *)buf, count, datatype, request,
                              HOW(INDIVIDUAL, true, false), MMPI_CALL_File_iwrite);
}

MMPI_PROFILED(File_iread_all);
int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                        MPI_Request *request)
{
    return access_nonblocking(fh, 0, buf, count, datatype, request,
                              HOW(INDIVIDUAL, false, true), MMPI_CALL_File_iread_all);
}

MMPI_PROFILED(File_iwrite_all);
int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                         MPI_Request *request)
{
    return access_nonblocking(fh, 0, (void *)buf, count, datatype, request,
                              HOW(INDIVIDUAL, true, true), MMPI_CALL_File_iwrite_all);
}

/* The new position of a seek (§14.4.3), from `cur` for MPI_SEEK_CUR. */
static int seek_target(struct mmpi_file *f, MPI_Offset offset, int whence, MPI_Offset cur,
                       MPI_Offset *pos)
{
    MPI_Offset from = 0;
    int err = MPI_SUCCESS;
    switch (whence) {
    case MPI_SEEK_SET: break;
    case MPI_SEEK_CUR: from = cur; break;
    case MPI_SEEK_END: err = mmpi_file_view_end(f, &from); break;
    default: return MPI_ERR_ARG;
    }
    return err ? err : mmpi_file_view_seek(&f->view, from, offset, pos);
}

MMPI_PROFILED(File_seek);
int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_seek);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    MPI_Offset pos = 0;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(f->core->amode & MPI_MODE_SEQUENTIAL, MPI_ERR_UNSUPPORTED_OPERATION);
    err = seek_target(f, offset, whence, f->fp, &pos);
    if (err != MPI_SUCCESS)
        goto fn_fail;
    f->fp = pos;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_seek);
    goto fn_exit;
}

MMPI_PROFILED(File_get_position);
int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_get_position);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(!offset, MPI_ERR_ARG);
    MMPI_FAIL_IF(f->core->amode & MPI_MODE_SEQUENTIAL, MPI_ERR_UNSUPPORTED_OPERATION);
    *offset = f->fp;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_get_position);
    goto fn_exit;
}

MMPI_PROFILED(File_get_byte_offset);
int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_get_byte_offset);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    uint64_t contig;
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(!disp || offset < 0, MPI_ERR_ARG);
    MMPI_FAIL_IF(f->core->amode & MPI_MODE_SEQUENTIAL, MPI_ERR_UNSUPPORTED_OPERATION);
    if (f->view.layout->size == 0)
        *disp = f->view.disp;
    else if ((err = mmpi_file_view_range(&f->view, offset, 1)) != MPI_SUCCESS)
        goto fn_fail; /* no etype there has a byte offset */
    else
        mmpi_file_view_map(&f->view, (uint64_t)offset * f->view.esize, disp, &contig);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_get_byte_offset);
    goto fn_exit;
}

/* ---- Shared file pointers (§14.4.4) --------------------------------------------------- */

MMPI_PROFILED(File_read_shared);
int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                          MPI_Status *status)
{
    return access_blocking(fh, 0, buf, count, datatype, status, HOW(SHARED, false, false),
                           MMPI_CALL_File_read_shared);
}

MMPI_PROFILED(File_write_shared);
int PMPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    return access_blocking(fh, 0, (void *)buf, count, datatype, status,
                           HOW(SHARED, true, false), MMPI_CALL_File_write_shared);
}

MMPI_PROFILED(File_iread_shared);
int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                           MPI_Request *request)
{
    return access_nonblocking(fh, 0, buf, count, datatype, request, HOW(SHARED, false, false),
                              MMPI_CALL_File_iread_shared);
}

MMPI_PROFILED(File_iwrite_shared);
int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Request *request)
{
    return access_nonblocking(fh, 0, (void *)buf, count, datatype, request,
                              HOW(SHARED, true, false), MMPI_CALL_File_iwrite_shared);
}

MMPI_PROFILED(File_read_ordered);
int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    return access_blocking(fh, 0, buf, count, datatype, status, HOW(ORDERED, false, true),
                           MMPI_CALL_File_read_ordered);
}

MMPI_PROFILED(File_write_ordered);
int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Status *status)
{
    return access_blocking(fh, 0, (void *)buf, count, datatype, status,
                           HOW(ORDERED, true, true), MMPI_CALL_File_write_ordered);
}

MMPI_PROFILED(File_seek_shared);
int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_seek_shared);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    /* Collective: offset and whence are checked after the members compared them, so that
     * every member reports the same (shared.c). */
    err = mmpi_file_seek_shared(self, f, offset, whence);
    if (err != MPI_SUCCESS)
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_seek_shared);
    goto fn_exit;
}

MMPI_PROFILED(File_get_position_shared);
int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_File_get_position_shared);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!f, MPI_ERR_FILE);
    MMPI_FAIL_IF(!offset, MPI_ERR_ARG);
    *offset = __atomic_load_n(&f->core->shared_fp, __ATOMIC_ACQUIRE);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, MMPI_CALL_File_get_position_shared);
    goto fn_exit;
}

/* ---- Split collectives (§14.4.5) ------------------------------------------------------ */

/* The _begin that a split collective's _end pairs with: a large-count _begin_c ends with the
 * same _end as its int-count form (there is no _end_c). */
static enum mmpi_call split_pair(enum mmpi_call begin)
{
    switch (begin) {
    case MMPI_CALL_File_read_at_all_begin_c: return MMPI_CALL_File_read_at_all_begin;
    case MMPI_CALL_File_write_at_all_begin_c: return MMPI_CALL_File_write_at_all_begin;
    case MMPI_CALL_File_read_all_begin_c: return MMPI_CALL_File_read_all_begin;
    case MMPI_CALL_File_write_all_begin_c: return MMPI_CALL_File_write_all_begin;
    case MMPI_CALL_File_read_ordered_begin_c: return MMPI_CALL_File_read_ordered_begin;
    case MMPI_CALL_File_write_ordered_begin_c: return MMPI_CALL_File_write_ordered_begin;
    default: return begin;
    }
}

static int split_begin(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                       MPI_Datatype datatype, struct how how, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    struct mmpi_datatype *dt = NULL;
    int err = check(self, f, how, offset, buf, count, datatype, &dt);

    if (err == MPI_SUCCESS && f->split_active)
        err = MPI_ERR_OTHER; /* §14.4.5: one split collective at a time per file */
    if (err != MPI_SUCCESS)
        goto fn_fail;
    struct mmpi_file_op op = {how.write, true, how.fp, offset, buf, (size_t)count, dt};
    f->split_active = true;
    f->split_call = split_pair(call);
    f->split = NULL;
    if (how.fp == MMPI_FP_ORDERED)
        f->split_err = mmpi_file_ordered(self, f, &op, &f->split_status);
    else if ((err = mmpi_file_start(self, f, &op, &f->split)) != MPI_SUCCESS) {
        f->split_active = false; /* never started */
        goto fn_fail;
    }
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, call);
    goto fn_exit;
}

static int split_end(MPI_File fh, MPI_Status *status, enum mmpi_call begin, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter(call);
    struct mmpi_file *f = mmpi_file_get(self, fh);
    int err = !f ? MPI_ERR_FILE : (!f->split_active || f->split_call != (int)begin)
                                      ? MPI_ERR_OTHER /* no matching _begin (§14.4.5) */
                                      : MPI_SUCCESS;
    if (err != MPI_SUCCESS)
        goto fn_fail;
    if (f->split) {
        mmpi_request_wait(self, f->split);
        f->split_err = f->split->error;
        f->split_status = f->split->status;
        mmpi_request_release(f->split);
        f->split = NULL;
    }
    f->split_active = false;
    if (status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        *status = f->split_status;
        status->MPI_ERROR = keep;
    }
    if ((err = f->split_err))
        goto fn_fail;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_file(self, f, err, call);
    goto fn_exit;
}

MMPI_PROFILED(File_read_at_all_begin);
int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                MPI_Datatype datatype)
{
    return split_begin(fh, offset, buf, count, datatype, HOW(EXPLICIT, false, true),
                       MMPI_CALL_File_read_at_all_begin);
}

MMPI_PROFILED(File_read_at_all_end);
int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    return split_end(fh, status, MMPI_CALL_File_read_at_all_begin,
                     MMPI_CALL_File_read_at_all_end);
}

MMPI_PROFILED(File_write_at_all_begin);
int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                 MPI_Datatype datatype)
{
    return split_begin(fh, offset, (void *)buf, count, datatype, HOW(EXPLICIT, true, true),
                       MMPI_CALL_File_write_at_all_begin);
}

MMPI_PROFILED(File_write_at_all_end);
int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    return split_end(fh, status, MMPI_CALL_File_write_at_all_begin,
                     MMPI_CALL_File_write_at_all_end);
}

MMPI_PROFILED(File_read_all_begin);
int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    return split_begin(fh, 0, buf, count, datatype, HOW(INDIVIDUAL, false, true),
                       MMPI_CALL_File_read_all_begin);
}

MMPI_PROFILED(File_read_all_end);
int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    return split_end(fh, status, MMPI_CALL_File_read_all_begin, MMPI_CALL_File_read_all_end);
}

MMPI_PROFILED(File_write_all_begin);
int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    return split_begin(fh, 0, (void *)buf, count, datatype, HOW(INDIVIDUAL, true, true),
                       MMPI_CALL_File_write_all_begin);
}

MMPI_PROFILED(File_write_all_end);
int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    return split_end(fh, status, MMPI_CALL_File_write_all_begin, MMPI_CALL_File_write_all_end);
}

MMPI_PROFILED(File_read_ordered_begin);
int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    return split_begin(fh, 0, buf, count, datatype, HOW(ORDERED, false, true),
                       MMPI_CALL_File_read_ordered_begin);
}

MMPI_PROFILED(File_read_ordered_end);
int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    return split_end(fh, status, MMPI_CALL_File_read_ordered_begin,
                     MMPI_CALL_File_read_ordered_end);
}

MMPI_PROFILED(File_write_ordered_begin);
int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    return split_begin(fh, 0, (void *)buf, count, datatype, HOW(ORDERED, true, true),
                       MMPI_CALL_File_write_ordered_begin);
}

MMPI_PROFILED(File_write_ordered_end);
int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    return split_end(fh, status, MMPI_CALL_File_write_ordered_begin,
                     MMPI_CALL_File_write_ordered_end);
}

/* ---- Large-count forms (the _c bindings): the same bodies with MPI_Count counts ---------- */

MMPI_PROFILED(File_read_at_c);
int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Status *status)
{
    return access_blocking(fh, offset, buf, count, datatype, status, HOW(EXPLICIT, false, false),
                           MMPI_CALL_File_read_at_c);
}

MMPI_PROFILED(File_read_at_all_c);
int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Status *status)
{
    return access_blocking(fh, offset, buf, count, datatype, status, HOW(EXPLICIT, false, true),
                           MMPI_CALL_File_read_at_all_c);
}

MMPI_PROFILED(File_write_at_c);
int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Status *status)
{
    return access_blocking(fh, offset, (void *)buf, count, datatype, status,
                           HOW(EXPLICIT, true, false), MMPI_CALL_File_write_at_c);
}

MMPI_PROFILED(File_write_at_all_c);
int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Status *status)
{
    return access_blocking(fh, offset, (void *)buf, count, datatype, status,
                           HOW(EXPLICIT, true, true), MMPI_CALL_File_write_at_all_c);
}

MMPI_PROFILED(File_iread_at_c);
int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Request *request)
{
    return access_nonblocking(fh, offset, buf, count, datatype, request,
                              HOW(EXPLICIT, false, false), MMPI_CALL_File_iread_at_c);
}

MMPI_PROFILED(File_iwrite_at_c);
int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Request *request)
{
    return access_nonblocking(fh, offset, (void *)buf, count, datatype, request,
                              HOW(EXPLICIT, true, false), MMPI_CALL_File_iwrite_at_c);
}

MMPI_PROFILED(File_iread_at_all_c);
int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Request *request)
{
    return access_nonblocking(fh, offset, buf, count, datatype, request,
                              HOW(EXPLICIT, false, true), MMPI_CALL_File_iread_at_all_c);
}

MMPI_PROFILED(File_iwrite_at_all_c);
int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Request *request)
{
    return access_nonblocking(fh, offset, (void *)buf, count, datatype, request,
                              HOW(EXPLICIT, true, true), MMPI_CALL_File_iwrite_at_all_c);
}

MMPI_PROFILED(File_read_c);
int PMPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Status *status)
{
    return access_blocking(fh, 0, buf, count, datatype, status, HOW(INDIVIDUAL, false, false),
                           MMPI_CALL_File_read_c);
}

MMPI_PROFILED(File_read_all_c);
int PMPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Status *status)
{
    return access_blocking(fh, 0, buf, count, datatype, status, HOW(INDIVIDUAL, false, true),
                           MMPI_CALL_File_read_all_c);
}

MMPI_PROFILED(File_write_c);
int PMPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Status *status)
{
    return access_blocking(fh, 0, (void *)buf, count, datatype, status,
                           HOW(INDIVIDUAL, true, false), MMPI_CALL_File_write_c);
}

MMPI_PROFILED(File_write_all_c);
int PMPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Status *status)
{
    return access_blocking(fh, 0, (void *)buf, count, datatype, status,
                           HOW(INDIVIDUAL, true, true), MMPI_CALL_File_write_all_c);
}

MMPI_PROFILED(File_iread_c);
int PMPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Request *request)
{
    return access_nonblocking(fh, 0, buf, count, datatype, request,
                              HOW(INDIVIDUAL, false, false), MMPI_CALL_File_iread_c);
}

MMPI_PROFILED(File_iwrite_c);
int PMPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Request *request)
{
    return access_nonblocking(fh, 0, (void *)buf, count, datatype, request,
                              HOW(INDIVIDUAL, true, false), MMPI_CALL_File_iwrite_c);
}

MMPI_PROFILED(File_iread_all_c);
int PMPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Request *request)
{
    return access_nonblocking(fh, 0, buf, count, datatype, request,
                              HOW(INDIVIDUAL, false, true), MMPI_CALL_File_iread_all_c);
}

MMPI_PROFILED(File_iwrite_all_c);
int PMPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Request *request)
{
    return access_nonblocking(fh, 0, (void *)buf, count, datatype, request,
                              HOW(INDIVIDUAL, true, true), MMPI_CALL_File_iwrite_all_c);
}

MMPI_PROFILED(File_read_shared_c);
int PMPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Status *status)
{
    return access_blocking(fh, 0, buf, count, datatype, status, HOW(SHARED, false, false),
                           MMPI_CALL_File_read_shared_c);
}

MMPI_PROFILED(File_write_shared_c);
int PMPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    return access_blocking(fh, 0, (void *)buf, count, datatype, status,
                           HOW(SHARED, true, false), MMPI_CALL_File_write_shared_c);
}

MMPI_PROFILED(File_iread_shared_c);
int PMPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Request *request)
{
    return access_nonblocking(fh, 0, buf, count, datatype, request, HOW(SHARED, false, false),
                              MMPI_CALL_File_iread_shared_c);
}

MMPI_PROFILED(File_iwrite_shared_c);
int PMPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Request *request)
{
    return access_nonblocking(fh, 0, (void *)buf, count, datatype, request,
                              HOW(SHARED, true, false), MMPI_CALL_File_iwrite_shared_c);
}

MMPI_PROFILED(File_read_ordered_c);
int PMPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    return access_blocking(fh, 0, buf, count, datatype, status, HOW(ORDERED, false, true),
                           MMPI_CALL_File_read_ordered_c);
}

MMPI_PROFILED(File_write_ordered_c);
int PMPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Status *status)
{
    return access_blocking(fh, 0, (void *)buf, count, datatype, status,
                           HOW(ORDERED, true, true), MMPI_CALL_File_write_ordered_c);
}

MMPI_PROFILED(File_read_at_all_begin_c);
int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                                MPI_Datatype datatype)
{
    return split_begin(fh, offset, buf, count, datatype, HOW(EXPLICIT, false, true),
                       MMPI_CALL_File_read_at_all_begin_c);
}

MMPI_PROFILED(File_write_at_all_begin_c);
int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                                 MPI_Datatype datatype)
{
    return split_begin(fh, offset, (void *)buf, count, datatype, HOW(EXPLICIT, true, true),
                       MMPI_CALL_File_write_at_all_begin_c);
}

MMPI_PROFILED(File_read_all_begin_c);
int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    return split_begin(fh, 0, buf, count, datatype, HOW(INDIVIDUAL, false, true),
                       MMPI_CALL_File_read_all_begin_c);
}

MMPI_PROFILED(File_write_all_begin_c);
int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count,
                                MPI_Datatype datatype)
{
    return split_begin(fh, 0, (void *)buf, count, datatype, HOW(INDIVIDUAL, true, true),
                       MMPI_CALL_File_write_all_begin_c);
}

MMPI_PROFILED(File_read_ordered_begin_c);
int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    return split_begin(fh, 0, buf, count, datatype, HOW(ORDERED, false, true),
                       MMPI_CALL_File_read_ordered_begin_c);
}

MMPI_PROFILED(File_write_ordered_begin_c);
int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count count,
                                    MPI_Datatype datatype)
{
    return split_begin(fh, 0, (void *)buf, count, datatype, HOW(ORDERED, true, true),
                       MMPI_CALL_File_write_ordered_begin_c);
}
