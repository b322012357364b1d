/*
 * io/file.c: file manipulation (MPI-4.1 §14.2): open, close, delete, size, preallocation,
 * hints, sync. A file's shared core is created by the member ranked 0 in the file's private
 * communicator and handed to the others on the board (meeting.c); each member then makes its
 * own handle object. The member that opens resolves the name in its own working directory
 * (each rank has its own: libc/fs.c); the others' names are not used (§14.2.1: they name the
 * same file). Views are view.c's, data access request.c's. Also the file's table of operations
 * (runtime/kind.h): how the runtime, the hang report and errhan/ treat a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "comm/create.h"
#include "comm/info.h"
#include "fault/fault.h"
#include "io/io.h"
#include "runtime/kind.h"

struct mmpi_file *mmpi_file_get(struct mmpi_rank *self, MPI_File handle)
{
    return mmpi_handle_lookup(self, MMPI_HANDLE_KIND_FILE, handle);
}

int mmpi_file_errno_class(int e)
{
    switch (e) {
    case ENOENT: return MPI_ERR_NO_SUCH_FILE;
    case EEXIST: return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM: return MPI_ERR_ACCESS;
    case EROFS: return MPI_ERR_READ_ONLY;
    case ENOSPC:
    case EFBIG: return MPI_ERR_NO_SPACE;
    case EDQUOT: return MPI_ERR_QUOTA;
    case EISDIR:
    case ENOTDIR:
    case ENAMETOOLONG:
    case ELOOP:
    case EINVAL: return MPI_ERR_BAD_FILE;
    case ETXTBSY:
    case EBUSY: return MPI_ERR_FILE_IN_USE;
    default: return MPI_ERR_IO;
    }
}

/* ROMIO and ompio accept "ufs:", "nfs:", "lustre:", ... before a name (§14.2.1 leaves names
 * implementation defined): a run of two or more letters and digits, then ':'. */
const char *mmpi_file_strip_prefix(const char *name)
{
    const char *p = name;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
        p++;
    return (*p == ':' && p - name >= 2) ? p + 1 : name;
}

/* The files open in the job, by identity (device, inode): MPI_MODE_UNIQUE_OPEN is a promise
 * that nobody else opens the file concurrently (§14.2.1); the emulator checks it, so a
 * program that breaks it gets MPI_ERR_FILE_IN_USE here rather than a silent race on a real
 * machine. Each entry counts the cores open on it; under open_lock. */
struct mmpi_file_open {
    dev_t dev;
    ino_t ino;
    int cores;
    bool unique;
    struct mmpi_file_open *next;
};
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mmpi_file_open *open_files;

/* Records one more core open on (dev, ino); MPI_ERR_FILE_IN_USE when either it or an open one
 * asked for uniqueness. */
static int open_register(const struct stat *st, bool unique, struct mmpi_file_open **out)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&open_lock);
    struct mmpi_file_open *e = open_files;
    while (e && (e->dev != st->st_dev || e->ino != st->st_ino))
        e = e->next;
    if (e && (e->unique || unique)) {
        err = MPI_ERR_FILE_IN_USE;
    } else if (e) {
        e->cores++;
    } else {
        e = mmpi_xcalloc(1, sizeof(*e));
        e->dev = st->st_dev;
        e->ino = st->st_ino;
        e->cores = 1;
        e->unique = unique;
        e->next = open_files;
        open_files = e;
    }
    pthread_mutex_unlock(&open_lock);
    *out = e;
    return err;
}

static void open_unregister(struct mmpi_file_open *e)
{
    pthread_mutex_lock(&open_lock);
    if (--e->cores == 0) {
        struct mmpi_file_open **p = &open_files;
        while (*p != e)
            p = &(*p)->next;
        *p = e->next;
        free(e);
    }
    pthread_mutex_unlock(&open_lock);
}

/* MPI_MODE_DELETE_ON_CLOSE: removes the file, by the name resolved where it was opened (any
 * member's thread may get here). MPI_ERR_IO when it stays (ROMIO drops the error of its
 * delete at close; a file that silently stays on disk is worse). */
static int delete_file(struct mmpi_file_core *core)
{
    __atomic_store_n(&core->deleted, 1, __ATOMIC_RELEASE);
    return unlink(core->abs_path) == 0 ? MPI_SUCCESS : MPI_ERR_IO;
}

int mmpi_file_core_release(struct mmpi_file_core *core)
{
    if (__atomic_sub_fetch(&core->refcount, 1, __ATOMIC_ACQ_REL) != 0)
        return MPI_SUCCESS;
    int err = MPI_SUCCESS;
    open_unregister(core->opened);
    close(core->fd);
    if ((core->amode & MPI_MODE_DELETE_ON_CLOSE) && !__atomic_load_n(&core->deleted,
                                                                     __ATOMIC_ACQUIRE))
        err = delete_file(core);
    mmpi_file_core_unpin(core); /* the open file's pin */
    return err;
}

void mmpi_file_core_unpin(struct mmpi_file_core *core)
{
    if (__atomic_sub_fetch(&core->pins, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    mmpi_file_fault_fini(core);
    free(core->agg);
    pthread_mutex_destroy(&core->lock);
    pthread_rwlock_destroy(&core->atomic_lock);
    free(core->path);
    free(core->abs_path);
    free(core);
}

/* name made absolute in the calling rank's working directory (each rank has its own,
 * libc/fs.c): the last member to release the file, on whatever thread, removes that one. */
static char *absolute_path(const char *name)
{
    char cwd[PATH_MAX];
    if (name[0] == '/' || !getcwd(cwd, sizeof(cwd)))
        return mmpi_xstrdup(name);
    size_t len = strlen(cwd) + strlen(name) + 2;
    char *path = mmpi_xmalloc(len);
    snprintf(path, len, "%s/%s", cwd, name);
    return path;
}

/* Opens the real file for `members` handle objects. Returns an MPI error class. */
static int core_open(const char *name, int amode, struct mmpi_comm *dup,
                     struct mmpi_file_core **out)
{
    int flags = (amode & MPI_MODE_RDONLY) ? O_RDONLY : (amode & MPI_MODE_WRONLY) ? O_WRONLY
                                                                                 : O_RDWR;
    if (amode & MPI_MODE_CREATE)
        flags |= O_CREAT;
    if (amode & MPI_MODE_EXCL)
        flags |= O_EXCL;
    if (!*name)
        return MPI_ERR_BAD_FILE;
    int fd = open(name, flags | O_CLOEXEC, 0666);
    if (fd < 0)
        return mmpi_file_errno_class(errno);
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        close(fd);
        return MPI_ERR_BAD_FILE;
    }
    struct mmpi_file_open *opened;
    int err = open_register(&st, amode & MPI_MODE_UNIQUE_OPEN, &opened);
    if (err != MPI_SUCCESS) {
        close(fd);
        return err;
    }
    struct mmpi_file_core *core = mmpi_xcalloc(1, sizeof(*core));
    core->opened = opened;
    core->fd = fd;
    core->path = strdup(name);
    core->abs_path = absolute_path(name);
    core->amode = amode;
    core->refcount = dup->core->size;
    core->pins = 1; /* the open file's; each handle object adds its own (new_handle) */
    core->agg = mmpi_xcalloc(2 * (size_t)dup->core->size, sizeof(*core->agg));
    pthread_mutex_init(&core->lock, NULL);
    pthread_rwlock_init(&core->atomic_lock, NULL);
    if (!core->path)
        mmpi_die("strdup");
    mmpi_file_fault_init(core, dup);
    /* §14.4.3: with MPI_MODE_APPEND both pointers start at the end of the file (the initial
     * view has etype MPI_BYTE, so etype units are bytes). */
    if (amode & MPI_MODE_APPEND)
        core->shared_fp = lseek(fd, 0, SEEK_END);
    *out = core;
    return MPI_SUCCESS;
}

/* The hints every file reports (ROMIO's usual set, so programs that print or test them find
 * them): values describe what we do. cb_nodes is set to the group's size at open: every
 * member moves one part of a coalesced collective access (aggregate.c), which honours
 * cb_nodes, romio_cb_write=disable and romio_cb_read=disable; no aggregation buffers. */
static const char *const default_hints[][2] = {
    {"cb_buffer_size", "16777216"},  {"romio_cb_read", "automatic"},
    {"romio_cb_write", "automatic"}, {"cb_nodes", "1"},
    {"romio_no_indep_rw", "false"},  {"romio_cb_pfr", "disable"},
    {"romio_cb_fr_types", "aar"},    {"romio_cb_fr_alignment", "1"},
    {"romio_cb_ds_threshold", "0"},  {"romio_cb_alltoall", "automatic"},
    {"ind_rd_buffer_size", "4194304"}, {"ind_wr_buffer_size", "524288"},
    {"romio_ds_read", "automatic"},  {"romio_ds_write", "automatic"},
    {"cb_config_list", "*:1"},       {"romio_filesystem_type", "UFS:"},
    {"romio_aggregator_list", "0"},
};

int mmpi_file_set_info(struct mmpi_file *f, struct mmpi_info *info)
{
    /* Every hint is accepted and kept (MPI-4.1 §10: an implementation ignores hints it does
     * not act on); MPI_File_get_info returns them. ROMIO's and ompio's hints tune aggregation
     * and buffering that this implementation does not do. */
    int err = MPI_SUCCESS;
    for (int i = 0; err == MPI_SUCCESS && info && i < info->n; i++)
        err = mmpi_info_set(f->info, info->keys[i], info->values[i]);
    return err;
}

/* Any meeting of the file's members on its private communicator (collective access, ordered
 * access, seek_shared, set_view, set_size, sync, close) shows the rank's pointers and the
 * file's state. */
static bool file_describe_meeting(struct mmpi_rank *owner, const void *obj,
                                  const struct mmpi_comm_core *core, char *buf, size_t len)
{
    const struct mmpi_file *f = obj;
    if (f->comm->core != core)
        return false;
    snprintf(buf, len,
             "the communicator of file %s (individual pointer %lld, shared "
             "pointer %lld%s%s)",
             f->core->path, (long long)f->fp,
             (long long)__atomic_load_n(&f->core->shared_fp, __ATOMIC_RELAXED),
             mmpi_fault_revoked(&f->core->fault) ? ", revoked" : "",
             f->split_active ? ", split collective pending" : "");
    return true;
}

/* The file's handler; with no file, MPI_FILE_NULL's (errhan/file.c, MPI-4.1 §9.3.4). */
static struct mmpi_errhandler *file_errhandler(struct mmpi_rank *self, const void *obj, int *handle)
{
    const struct mmpi_file *f = obj;
    *handle = f ? f->handle : MPI_FILE_NULL;
    return f ? f->errhandler : mmpi_err_file_null_handler(self);
}

static void file_reclaim(struct mmpi_rank *r, void *obj)
{
    mmpi_file_reclaim(r, obj);
}

/* The file's table of operations (runtime/kind.h); here, where every file handle is made. */
static const struct mmpi_kind_ops file_kind_ops = {.reclaim = file_reclaim,
                                                   .describe_meeting = file_describe_meeting,
                                                   .errhandler = file_errhandler};
MMPI_KIND_REGISTER(MMPI_HANDLE_KIND_FILE, file_kind_ops)

static int new_handle(struct mmpi_rank *self, struct mmpi_comm *dup, struct mmpi_file_core *core,
                      struct mmpi_info *info, MPI_File *fh)
{
    struct mmpi_file *f = mmpi_xcalloc(1, sizeof(*f));
    /* Our open reference keeps the core alive until this pin is taken. */
    __atomic_add_fetch(&core->pins, 1, __ATOMIC_ACQ_REL);
    f->core = core;
    f->comm = dup;
    f->errhandler = mmpi_err_file_null_handler(self); /* §9.3.4: MPI_FILE_NULL's, at open */
    mmpi_errhandler_retain(f->errhandler);
    mmpi_file_view_default(&f->view);
    f->info = mmpi_info_new();
    int err = MPI_SUCCESS;
    for (size_t i = 0; err == MPI_SUCCESS && i < sizeof default_hints / sizeof *default_hints; i++)
        err = mmpi_info_set(f->info, default_hints[i][0], default_hints[i][1]);
    char nodes[16];
    snprintf(nodes, sizeof nodes, "%d", dup->core->size);
    if (err == MPI_SUCCESS)
        err = mmpi_info_set(f->info, "cb_nodes", nodes);
    if (err == MPI_SUCCESS)
        err = mmpi_file_set_info(f, info);
    if (core->amode & MPI_MODE_APPEND)
        f->fp = __atomic_load_n(&core->shared_fp, __ATOMIC_RELAXED);
    if (err == MPI_SUCCESS) {
        f->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_FILE, f);
        if (f->handle == MPI_FILE_NULL)
            err = MPI_ERR_NO_MEM;
    }
    if (err != MPI_SUCCESS) {
        mmpi_info_release(f->info);
        mmpi_errhandler_release(f->errhandler);
        mmpi_file_view_release(&f->view);
        free(f);
        mmpi_file_core_unpin(core);
        return err;
    }
    *fh = f->handle;
    return MPI_SUCCESS;
}

int mmpi_file_open(struct mmpi_rank *self, struct mmpi_comm *c, const char *name, int amode,
                   struct mmpi_info *info, MPI_File *fh)
{
    struct mmpi_comm *dup = NULL;
    int *amodes = NULL;
    struct {
        int err;
        struct mmpi_file_core *core;
    } outcome = {MPI_SUCCESS, NULL};
    /* A member of c has failed: the open cannot complete at every member, so it raises at
     * once at each live one and opens nothing (docs/io.md, "Files and process failures"). */
    if (mmpi_fault_any(self->world))
        for (int i = 0; i < c->core->size; i++)
            if (mmpi_fault_world_rank_failed(self->world, c->core->world_ranks[i])) {
                mmpi_fault_notice(self, c->core->world_ranks[i]);
                return MPI_ERR_PROC_FAILED;
            }
    int err = mmpi_comm_dup(self, c, &dup);
    if (err != MPI_SUCCESS)
        return err;
    /* Reports name the file, not an anonymous communicator (hang report, comm/describe.c). */
    snprintf(dup->name, sizeof(dup->name), "the communicator of file %s", name);
    int size = dup->core->size;
    amodes = mmpi_xmalloc((size_t)size * sizeof(int));
    if ((err = mmpi_file_allgather(self, dup, &amode, sizeof(int), amodes)))
        goto fn_fail;
    for (int i = 0; i < size; i++)
        /* §14.2.1: amode must be the same at every member */
        MMPI_FAIL_IF(amodes[i] != amode, MPI_ERR_NOT_SAME);
    if (dup->rank == 0)
        outcome.err = core_open(mmpi_file_strip_prefix(name), amode, dup, &outcome.core);
    if ((err = mmpi_file_bcast(self, dup, &outcome, sizeof(outcome), 0)))
        goto fn_fail;
    if ((err = outcome.err))
        goto fn_fail;
    if ((err = new_handle(self, dup, outcome.core, info, fh))) {
        (void)mmpi_file_core_release(outcome.core); /* the open fails already */
        goto fn_fail;
    }
fn_exit:
    free(amodes);
    return err;
fn_fail:
    if (dup)
        mmpi_comm_release(self, dup);
    goto fn_exit;
}

/* MPI_MODE_DELETE_ON_CLOSE once the members met in close: member 0 removes the file while
 * every member still holds it, and tells them the outcome, so that each reports a failed
 * removal. When this meeting fails, the last member to let go removes it instead. */
static int delete_on_close(struct mmpi_rank *self, struct mmpi_file *f)
{
    int result = MPI_SUCCESS;
    if (f->comm->rank == 0)
        result = delete_file(f->core);
    int err = mmpi_file_bcast(self, f->comm, &result, sizeof(result), 0);
    return err != MPI_SUCCESS ? err : result;
}

int mmpi_file_close(struct mmpi_rank *self, struct mmpi_file *f)
{
    /* §14.2.2: collective; every member's accesses are over before the file goes (so
     * DELETE_ON_CLOSE never removes it under a member still writing). A revoked file has no
     * pending access anywhere to wait for: it is released locally, successfully. After a
     * member failed the meeting raises MPI_ERR_PROC_FAILED, and the handle goes all the same;
     * the survivors give back the failed members' references (file_fault.c). */
    int err = MPI_SUCCESS;
    if (mmpi_file_check_revoked(f) == MPI_SUCCESS) {
        err = mmpi_file_barrier(self, f->comm);
        if (err == MPI_SUCCESS && (f->core->amode & MPI_MODE_DELETE_ON_CLOSE))
            err = delete_on_close(self, f);
        if (err == MPI_ERR_REVOKED && mmpi_file_check_revoked(f) != MPI_SUCCESS)
            err = MPI_SUCCESS;
    }
    mmpi_handle_remove(self, MMPI_HANDLE_KIND_FILE, f->handle);
    int left = mmpi_file_core_leave(f);
    if (err == MPI_SUCCESS)
        err = left; /* a removal that failed at the last release (after a revoke) */
    mmpi_file_handle_free(self, f);
    return err;
}

void mmpi_file_handle_free(struct mmpi_rank *self, struct mmpi_file *f)
{
    mmpi_comm_release(self, f->comm);
    mmpi_errhandler_release(f->errhandler);
    mmpi_info_release(f->info);
    mmpi_file_view_release(&f->view);
    struct mmpi_file_core *core = f->core;
    free(f);
    mmpi_file_core_unpin(core);
}

int mmpi_file_delete(const char *name)
{
    const char *path = mmpi_file_strip_prefix(name);
    struct stat st;
    if (!*path)
        return MPI_ERR_BAD_FILE;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return MPI_ERR_BAD_FILE;
    return unlink(path) == 0 ? MPI_SUCCESS : mmpi_file_errno_class(errno);
}

int mmpi_file_set_size(struct mmpi_rank *self, struct mmpi_file *f, MPI_Offset size,
                       bool preallocate)
{
    /* Collective (§14.2.4, §14.2.5): one member acts, after every member arrived, and nobody
     * leaves before it is done, so accesses before and after see the file before and after. */
    int err = mmpi_file_barrier(self, f->comm);
    if (err != MPI_SUCCESS)
        return err;
    int result = MPI_SUCCESS;
    if (f->comm->rank == 0) {
        struct stat st;
        if (fstat(f->core->fd, &st) != 0)
            result = mmpi_file_errno_class(errno);
        else if (preallocate) {
            if (size > st.st_size) {
                int e = posix_fallocate(f->core->fd, 0, size);
                if (e == EOPNOTSUPP || e == EINVAL) /* a file system without it: grow it */
                    e = ftruncate(f->core->fd, size) == 0 ? 0 : errno;
                if (e)
                    result = mmpi_file_errno_class(e);
            }
        } else if (ftruncate(f->core->fd, size) != 0)
            result = mmpi_file_errno_class(errno);
    }
    if ((err = mmpi_file_bcast(self, f->comm, &result, sizeof(result), 0)))
        return err;
    return result;
}

int mmpi_file_get_size(struct mmpi_file *f, MPI_Offset *size)
{
    struct stat st;
    if (fstat(f->core->fd, &st) != 0)
        return mmpi_file_errno_class(errno);
    *size = st.st_size;
    return MPI_SUCCESS;
}

int mmpi_file_sync(struct mmpi_rank *self, struct mmpi_file *f)
{
    /* §14.6.1: collective; makes every member's writes so far visible to every member (they
     * are already, one page cache) and stable on the device. */
    int err = mmpi_file_barrier(self, f->comm);
    if (err != MPI_SUCCESS)
        return err;
    if (f->core->amode & MPI_MODE_RDONLY)
        return MPI_SUCCESS;
    return fdatasync(f->core->fd) == 0 || errno == EINVAL ? MPI_SUCCESS
                                                         : mmpi_file_errno_class(errno);
}
