/*
 * io/io.h: MPI-IO (MPI-4.1 chapter 14) inside the library: file objects, views, the data access
 * engine and the shared file pointer.
 *
 * Theory of operation. A file opened by a group has one shared core (struct mmpi_file_core:
 * the descriptor of the real file, the access mode, the shared file pointer) and, per member
 * rank, one handle object (struct mmpi_file: the view, the individual file pointer, the error
 * handler, the hints): state the standard makes local lives with the rank
 * (docs/design.md "Handles and shared cores"). Data
 * moves with pread/pwrite on the one descriptor, so what a program writes is at once visible to
 * every other tool. The file's group lives in a private duplicate of the opening communicator,
 * whose collective board (coll/board.h) is the only meeting point of the members:
 *
 * - Collective data access (the _all, _ordered and split forms) is a rendezvous on that board
 *   (a barrier), after which every member moves its own pieces with its own pread/pwrite. No
 *   data passes between ranks and no step waits for a particular peer, so a member that dies
 *   makes the rendezvous complete with MPI_ERR_PROC_FAILED (the board's rule and its cut of a
 *   collective apply as to any collective) instead of hanging, as a token ring or the
 *   all-to-all of two-phase I/O would.
 * - The shared file pointer is an atomic counter in the core (etype units of the view):
 *   read_shared/write_shared claim their range with one fetch-and-add. Ordered access gathers
 *   every member's size on the board (an allgather), computes its offset by a prefix sum, and
 *   the first member to get there advances the counter by the total under the core's lock
 *   (the claim; shared.c explains why two claim slots suffice).
 * - Atomic mode (MPI_File_set_atomicity) takes the core's reader/writer lock around each
 *   access: whole accesses exclude each other, as §14.6.1 requires.
 * - Nonblocking access is a request (pt2pt/request.h, MMPI_REQ_OTHER) whose poll performs the
 *   transfer: at once for independent access, once the rendezvous completed for collective
 *   access; MPI_Wait/Test and friends complete it like any other request.
 *
 * Files: file.c (open, close, delete, size, hints), view.c (views and mapping view positions to
 * file bytes), access.c (the transfer engine), request.c (file requests: every data access goes
 * through one), shared.c (the shared pointer's claims), meeting.c (the board meetings),
 * file_fault.c (process failures and revoke), *_api.c (bindings). Every wait for another member
 * is a board meeting (meeting.c), and the board (the fault layer under it) decides when a
 * failure completes it, so the rules of failure reporting stay in one place; file_fault.c only
 * ties the file to the fault layer (revoke, open and close with failed members, pointers
 * left undefined by a failure).
 */
#ifndef MMPI_IO_IO_H
#define MMPI_IO_IO_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "fault/state.h"
#include "mmpi.h"

struct mmpi_datatype;
struct mmpi_file_open;
struct mmpi_info;
struct mmpi_request;

/* One member's entry for a coalesced collective write (aggregate.c). */
struct mmpi_file_agg {
    uint64_t seq;                       /* atomic: the collective it belongs to */
    int state;                          /* atomic: aggregate.c's AGG_* */
    int aggregators;                    /* its cb_nodes hint */
    const char *mem;                    /* its data bytes (a contiguous buffer) */
    const struct mmpi_file_view *view;  /* its view (unchanged while it waits) */
    uint64_t start, n;                  /* its range of the view's data stream, bytes */
    MPI_Offset lo, hi;                  /* file bytes [lo, hi) it covers */
    uint64_t domain_seq;                /* atomic: the collective whose domain it finished */
    int domain_ok;                      /* atomic: ... without a write error */
};

struct mmpi_file_core {
    int fd;                      /* immutable: the open file (pread/pwrite; never seeked) */
    char *path;                  /* immutable: the file name as opened, prefix removed */
    char *abs_path;              /* immutable: path resolved in the opening rank's working
                                  * directory (DELETE_ON_CLOSE unlinks it from any thread) */
    int amode;                   /* immutable: MPI_MODE_* bits */
    struct mmpi_file_open *opened; /* immutable: its entry in file.c's table of open files */
    int refcount;                /* atomic: members that have not closed (references given
                                  * back for failed members too); 0: the file is closed */
    int pins;                    /* atomic: handle objects alive, plus one while the file is
                                  * open; the last unpin frees the core (a failed member's
                                  * handle object outlives the close, runtime/reclaim.c) */
    MPI_Offset shared_fp;        /* atomic: the shared file pointer, in etype units */
    pthread_mutex_t lock;        /* protects claimed, claim_base, claim_err; never held across
                                  * a wait */
    uint64_t claimed;            /* collective shared-pointer operations claimed so far */
    MPI_Offset claim_base[2];    /* the shared pointer each of the last two claims started at */
    int claim_err[2];            /* ... and their outcome (MPI_ERR_ARG: the pointer stayed) */
    int deleted;                 /* atomic: MPI_MODE_DELETE_ON_CLOSE done by close's meeting */
    pthread_rwlock_t atomic_lock; /* atomic mode: readers share, writers exclude */
    /* Process failure and revoke (file_fault.c). The fault core's members are the file's group;
     * it is linked to the private communicator's core, so a file revoke ends board waits. */
    struct mmpi_fault_core fault;
    int size;                    /* immutable: members */
    int *world_ranks;            /* immutable: member -> world rank (owned) */
    int *closed;                 /* atomic per member: its reference was given back (closed,
                                  * or released for it after it failed) */
    struct mmpi_file_agg *agg;   /* [2 * size]: coalesced collective writes (aggregate.c) */
};

/* MINI_MPI_POISON=1: where a file pointer is left after a process-failure error made it
 * undefined (etype units; far past any real data, so an access that forgot to seek reads
 * nothing and writes where a test looks for it). */
#define MMPI_FILE_POISON_FP ((MPI_Offset)1 << 30)

/* A user data representation (datarep.c): immutable once registered, never freed. */
struct mmpi_datarep {
    struct mmpi_datarep *next;
    const struct mmpi_rank *owner;
    pthread_t thread;
    const struct mmpi_world *world;
    char name[MPI_MAX_DATAREP_STRING];
    MPI_Datarep_conversion_function *read_fn, *write_fn; /* NULL: native bytes */
    /* MPI_Register_datarep_c's (read_fn, write_fn NULL then); called with MPI_Count counts. */
    MPI_Datarep_conversion_function_c *read_fn_c, *write_fn_c;
    MPI_Datarep_extent_function *extent_fn;
    void *extra;
};

/* A view's data stream is counted in file bytes: the etype's and the filetype's sizes in the
 * file's representation (MPI-4.1 §14.5). For "native" and "internal", and wherever the
 * representation keeps every size, those are the memory sizes and layout == filetype. */
struct mmpi_file_view {
    MPI_Offset disp;                    /* bytes from the start of the file */
    struct mmpi_datatype *etype;        /* one reference held (no-op if predefined) */
    struct mmpi_datatype *filetype;     /* one reference held */
    struct mmpi_datatype *layout;       /* the filetype in the file's sizes (datatype.h
                                         * mmpi_datatype_file_layout); one reference held */
    size_t esize;                       /* bytes of one etype in the file */
    MPI_Offset limit;                   /* positions [0, limit) are addressable: each of their
                                         * bytes lies at a file offset below MPI_Offset's
                                         * largest value (view.c view_limit) */
    char datarep[MPI_MAX_DATAREP_STRING];
    bool external32;                    /* datarep "external32": big-endian in the file */
    const struct mmpi_datarep *user;    /* a registered datarep, or NULL */
};

/* Whole etypes of the view in `bytes` file bytes, and the bytes left over. Etypes of a power
 * of two bytes (the default view's byte, and most views') shift instead of dividing: a 64-bit
 * division costs more than the rest of a small access's arithmetic. */
static inline uint64_t mmpi_file_view_per_etype(const struct mmpi_file_view *v, uint64_t bytes)
{
    uint64_t e = v->esize;
    return (e & (e - 1)) == 0 ? bytes >> __builtin_ctzll(e) : bytes / e;
}

static inline uint64_t mmpi_file_view_etype_rest(const struct mmpi_file_view *v, uint64_t bytes)
{
    uint64_t e = v->esize;
    return (e & (e - 1)) == 0 ? bytes & (e - 1) : bytes % e;
}

struct mmpi_file {
    struct mmpi_file_core *core;        /* immutable; one reference */
    struct mmpi_comm *comm;             /* immutable: the private duplicate (group, board) */
    MPI_File handle;                    /* immutable */
    struct mmpi_errhandler *errhandler; /* owning rank; one reference */
    struct mmpi_file_view view;         /* owning rank */
    MPI_Offset fp;                      /* owning rank: individual file pointer, etype units */
    bool atomic;                        /* owning rank: MPI_File_set_atomicity */
    struct mmpi_info *info;             /* owning rank: hints in use; never NULL */
    uint64_t shared_seq;                /* owning rank: collective shared-pointer operations */
    bool split_active;                  /* owning rank: a split collective is pending (§14.4.5) */
    int split_call;                     /* owning rank: the enum mmpi_call of its _begin */
    struct mmpi_request *split;         /* owning rank: its request, or NULL when done already
                                         * (ordered forms complete in _begin) */
    int split_err;                      /* owning rank: outcome of a split done in _begin */
    MPI_Status split_status;
};

/* Resolves a file handle of the calling rank; NULL if invalid or closed. */
struct mmpi_file *mmpi_file_get(struct mmpi_rank *self, MPI_File handle);

/* ---- file.c ---------------------------------------------------------------------------- */
/* MPI_File_open: collective over c. Returns an MPI error class (MPI_ERR_AMODE, NO_SUCH_FILE,
 * FILE_EXISTS, ACCESS, READ_ONLY, BAD_FILE, NO_SPACE, QUOTA, IO, NOT_SAME, PROC_FAILED). */
int mmpi_file_open(struct mmpi_rank *self, struct mmpi_comm *c, const char *name, int amode,
                   struct mmpi_info *info, MPI_File *fh);
/* MPI_File_close: collective; frees the handle object whatever the outcome. */
int mmpi_file_close(struct mmpi_rank *self, struct mmpi_file *f);
/* Drops one member's reference to the core; the last one closes the file (and unpins) and
 * removes it under MPI_MODE_DELETE_ON_CLOSE unless close's meeting did. Returns MPI_ERR_IO
 * when that removal failed, else MPI_SUCCESS. */
int mmpi_file_core_release(struct mmpi_file_core *core);
/* Drops a pin (a handle object freed); the last one frees the core. */
void mmpi_file_core_unpin(struct mmpi_file_core *core);
int mmpi_file_delete(const char *name);
int mmpi_file_set_size(struct mmpi_rank *self, struct mmpi_file *f, MPI_Offset size,
                       bool preallocate);
int mmpi_file_get_size(struct mmpi_file *f, MPI_Offset *size);
int mmpi_file_sync(struct mmpi_rank *self, struct mmpi_file *f);
/* Merges hints into f->info (known ones checked, unknown kept). */
int mmpi_file_set_info(struct mmpi_file *f, struct mmpi_info *info);
/* The error class of an errno from open/pread/pwrite/ftruncate. */
int mmpi_file_errno_class(int e);
/* The name with a "ufs:"-style file system prefix removed. */
const char *mmpi_file_strip_prefix(const char *name);

/* ---- view.c ---------------------------------------------------------------------------- */
/* Sets the view (references taken on etype and filetype; the file layout of a converting
 * representation built). MPI_ERR_TYPE, ARG, IO, UNSUPPORTED_DATAREP, NO_MEM, or the error of a
 * registered representation's extent function. Calls user code: no lock may be held. */
int mmpi_file_set_view(struct mmpi_file *f, MPI_Offset disp, struct mmpi_datatype *etype,
                       struct mmpi_datatype *filetype, const char *datarep,
                       const struct mmpi_datarep *user);
/* Bytes of one element of dt in v's file (the memory size unless v converts). The extent
 * function's error for a registered representation. Calls user code: no lock may be held. */
int mmpi_file_view_elem_size(const struct mmpi_file_view *v, const struct mmpi_datatype *dt,
                             size_t *size);
/* The etypes of v that `bytes` bytes of packed dt data fill in the file (a converting view
 * counts whole elements of dt only). Calls user code: no lock may be held. */
MPI_Offset mmpi_file_view_etypes(const struct mmpi_file_view *v, const struct mmpi_datatype *dt,
                                 size_t bytes);
/* dt's layout in v's file (MPI_File_get_type_extent): as mmpi_datatype_file_layout; the caller
 * releases *out. Calls user code: no lock may be held. */
int mmpi_file_view_type_layout(const struct mmpi_file_view *v, const struct mmpi_datatype *dt,
                               struct mmpi_datatype **out);

/* ---- datarep.c ------------------------------------------------------------------------- */
/* Whether d has a conversion function (of either form) for that direction:
 * MPI_CONVERSION_FN_NULL(_C) has none. */
bool mmpi_datarep_converts(const struct mmpi_datarep *d, bool write);
/* The calling rank's registered representation of that name, or NULL. */
const struct mmpi_datarep *mmpi_datarep_find(const struct mmpi_rank *self, const char *name);
/* One element of dt in the file (sum of the extent function's answers over its predefined
 * items) and its number of predefined items. The extent function's error, or
 * MPI_ERR_CONVERSION for a negative extent. Calls user code: no lock may be held. */
int mmpi_datarep_measure(const struct mmpi_datarep *d, const struct mmpi_datatype *dt,
                         size_t *size, size_t *items);
/* The extent function's answer for one predefined leaf (mmpi_dt_leaf_size_fn; arg: the
 * representation). MPI_ERR_CONVERSION for a negative extent. Calls user code. */
int mmpi_datarep_leaf_size(void *arg, const struct mmpi_datatype *leaf, size_t *size);
/* Converts n elements of dt (elements first.. of the access; `items` predefined items and
 * `fsize` file bytes each, mmpi_datarep_measure) between memory and file (n * fsize bytes at
 * `file`, each leaf at its extent function's size). A predefined memory type (handle not
 * MPI_DATATYPE_NULL) is converted straight from / into buf; derived ones go through their
 * packed form `packed`, one leaf run per call. Returns the conversion function's error;
 * MPI_ERR_CONVERSION when it is MPI_CONVERSION_FN_NULL but file and memory sizes differ. */
int mmpi_datarep_convert(const struct mmpi_datarep *d, bool write, void *buf,
                         MPI_Datatype handle, const struct mmpi_datatype *dt, size_t first,
                         size_t n, size_t items, size_t fsize, void *packed, void *file);
/* A copy of v holding its own references (a pending access keeps the view it started with:
 * the program may set another before it completes). Release with mmpi_file_view_release. */
void mmpi_file_view_copy(struct mmpi_file_view *to, const struct mmpi_file_view *v);
/* Initial view: displacement 0, MPI_BYTE, MPI_BYTE, "native". */
void mmpi_file_view_default(struct mmpi_file_view *v);
void mmpi_file_view_release(struct mmpi_file_view *v);
/* The one rule for file offsets (MPI_ERR_ARG, as ROMIO's count and offset checks): an access
 * of n etypes from position pos must lie within the view's addressable positions. */
int mmpi_file_view_range(const struct mmpi_file_view *v, MPI_Offset pos, MPI_Offset n);
/* The etypes of v that count elements of dt fill (fsize: one element's bytes in the file,
 * mmpi_file_view_elem_size). MPI_ERR_ARG when the bytes of the access, in memory or in the
 * file, are not countable in MPI_Offset. */
int mmpi_file_view_count(const struct mmpi_file_view *v, const struct mmpi_datatype *dt,
                         size_t fsize, MPI_Count count, MPI_Offset *n);
/* A seek (§14.4.3) from position `from` by `offset`: *to, or MPI_ERR_ARG when the sum
 * overflows or is no addressable position (negative: "erroneous to seek before 0"). */
int mmpi_file_view_seek(const struct mmpi_file_view *v, MPI_Offset from, MPI_Offset offset,
                        MPI_Offset *to);
/* The end of f's file in etypes of its view (MPI_SEEK_END). */
int mmpi_file_view_end(struct mmpi_file *f, MPI_Offset *end);
/* Byte b of the view's data stream (b = position * v->esize + i): its file offset, and how
 * many data bytes of the stream follow contiguously in the file from there (at least 1). */
void mmpi_file_view_map(const struct mmpi_file_view *v, uint64_t b, MPI_Offset *off,
                        uint64_t *contig);
/* The first view position (etype units) whose data byte lies at or after file byte `off`
 * (MPI_SEEK_END, MPI_File_get_size in view terms). */
MPI_Offset mmpi_file_view_position_of(const struct mmpi_file_view *v, MPI_Offset off);

/* ---- access.c -------------------------------------------------------------------------- */
/* Moves count elements of dt between buf and the positions of view v from pos on (etype units):
 * writes when `write`, reads otherwise (stopping at end of file: *bytes is then short).
 * Takes the core's atomic lock in atomic mode. MPI_SUCCESS or MPI_ERR_IO, NO_SPACE, QUOTA. */
int mmpi_file_transfer(struct mmpi_file *f, const struct mmpi_file_view *v, bool write,
                       MPI_Offset pos, void *buf, size_t count, const struct mmpi_datatype *dt,
                       size_t *bytes);
/* Writes all n bytes at off (pwrite until done; EINTR retried). MPI_SUCCESS or the errno's
 * class (MPI_ERR_IO when nothing could be written). */
int mmpi_file_pwrite_all(int fd, const char *p, size_t n, MPI_Offset off);

/* ---- request.c ------------------------------------------------------------------------- */
enum mmpi_file_pointer { MMPI_FP_EXPLICIT, MMPI_FP_INDIVIDUAL, MMPI_FP_SHARED, MMPI_FP_ORDERED };
struct mmpi_file_op {
    bool write;
    bool collective;           /* meets the other members first (the _all and ordered forms) */
    enum mmpi_file_pointer fp;
    MPI_Offset offset;         /* MMPI_FP_EXPLICIT: etype units */
    void *buf;
    size_t count;
    struct mmpi_datatype *dt;  /* checked and committed */
};
/* Starts one data access of f as a request (two references: engine and caller; no handle).
 * Individual and shared positions are claimed now, in call order (§14.4.4). Never blocks.
 * MPI_ERR_ARG (no request) when the shared pointer has no room for the access. */
int mmpi_file_start(struct mmpi_rank *self, struct mmpi_file *f, const struct mmpi_file_op *op,
                    struct mmpi_request **req);
/* Blocking access: start, wait, copy the status out. Returns the access's error class. */
int mmpi_file_access(struct mmpi_rank *self, struct mmpi_file *f, const struct mmpi_file_op *op,
                     MPI_Status *status);

/* ---- aggregate.c: collective accesses through non-contiguous views, coalesced ---------- */
/* Before the members meet for collective number seq: records the caller's access (op from
 * view position pos) in the core; true when its pieces are to be coalesced. */
bool mmpi_file_agg_deposit(struct mmpi_file *f, uint64_t seq, const struct mmpi_file_op *op,
                           MPI_Offset pos);
/* The meeting failed at the caller: its pieces will not be accessed by anyone. */
void mmpi_file_agg_abandon(struct mmpi_file *f, uint64_t seq);
/* After the meeting succeeded: reads or writes the caller's domain and makes sure its own
 * data is in the file, or in its buffer (accessed directly if it was not coalesced). *bytes:
 * its bytes moved. May block (for members finishing the same call only). */
int mmpi_file_agg_access(struct mmpi_rank *self, struct mmpi_file *f, uint64_t seq,
                         const struct mmpi_file_op *op, MPI_Offset pos, size_t *bytes);

/* ---- shared.c -------------------------------------------------------------------------- */
/* Independent: claims `n` etypes at the shared pointer; *pos: where they start. MPI_ERR_ARG,
 * the pointer unmoved, when they do not fit in the view (mmpi_file_view_range). Lock-free. */
int mmpi_file_shared_claim(struct mmpi_file *f, MPI_Offset n, MPI_Offset *pos);
/* Collective claim number f->shared_seq (after the members met): the first member to get
 * here seeks the shared pointer by `offset` from `whence` (MPI_SEEK_SET, MPI_SEEK_CUR, or
 * MPI_SEEK_END with `end` the file's end), and every member gets the pointer's value before
 * the move in *base and the same outcome (MPI_ERR_ARG: the target is no addressable
 * position, the pointer stays). Takes the core's lock. */
int mmpi_file_shared_claim_collective(struct mmpi_file *f, MPI_Offset offset, int whence,
                                      MPI_Offset end, MPI_Offset *base);
/* MPI_File_read_ordered / write_ordered: collective, may block. Returns an MPI error class. */
int mmpi_file_ordered(struct mmpi_rank *self, struct mmpi_file *f, const struct mmpi_file_op *op,
                      MPI_Status *status);
/* MPI_File_seek_shared: collective of every member, dead ones included (so with a failed
 * member MPI_ERR_PROC_FAILED, the board's rule); MPI_ERR_NOT_SAME when the members' offset or
 * whence differ, MPI_ERR_ARG for a bad whence or target, the same at every member. */
int mmpi_file_seek_shared(struct mmpi_rank *self, struct mmpi_file *f, MPI_Offset offset,
                          int whence);

/* ---- file_fault.c: process failures and revoke ------------------------------------------- */
/* Registers the core's fault part (members: the private communicator's group) and links it
 * to that communicator's core. Before the core is shared. */
void mmpi_file_fault_init(struct mmpi_file_core *core, struct mmpi_comm *dup);
/* Unregisters it (before the core is freed). */
void mmpi_file_fault_fini(struct mmpi_file_core *core);
/* MPI_ERR_REVOKED once the file was revoked, else MPI_SUCCESS. Lock-free. */
int mmpi_file_check_revoked(const struct mmpi_file *f);
/* Whether some member of the file has failed (the calling rank is told of each). */
bool mmpi_file_member_failed(struct mmpi_rank *self, const struct mmpi_file *f);
/* An operation using pointer `fp` raised err: after MPI_ERR_PROC_FAILED the pointer it used is
 * undefined (MINI_MPI_POISON=1: MMPI_FILE_POISON_FP). The owning rank's threads. */
void mmpi_file_pointer_failed(struct mmpi_rank *self, struct mmpi_file *f,
                              enum mmpi_file_pointer fp, int err);
/* Gives back the calling member's reference to the core, and the reference of every failed
 * member that never will; the last one frees the core (mmpi_file_core_release's result). */
int mmpi_file_core_leave(struct mmpi_file *f);
/* Frees a handle object whose reference to the core was given back (close, reclaim): its
 * communicator, error handler, hints and view, then its pin of the core (file.c). */
void mmpi_file_handle_free(struct mmpi_rank *self, struct mmpi_file *f);
/* Frees a handle object its rank left open (it failed, or never closed the file): gives back
 * its reference to the core unless a survivor did: the file's reclaim (runtime/kind.h). Only
 * once every rank thread is gone (runtime/reclaim.c), after the rank's requests were
 * reclaimed. */
void mmpi_file_reclaim(struct mmpi_rank *r, struct mmpi_file *f);

/* ---- meeting.c: meetings of the file's members on its private communicator's board ----- */
/* Starts a barrier of the members (request, two references). */
struct mmpi_request *mmpi_file_meet_start(struct mmpi_rank *self, struct mmpi_file *f);
/* Blocking forms: each returns MPI_SUCCESS, MPI_ERR_PROC_FAILED or MPI_ERR_REVOKED. May block. */
/* The members' barrier; the hang report describes the waiter with describe(what), or as a
 * collective on the file's communicator when describe is NULL. */
int mmpi_file_meet(struct mmpi_rank *self, struct mmpi_comm *c, mmpi_wait_describe_fn *describe,
                   const void *what);
int mmpi_file_barrier(struct mmpi_rank *self, struct mmpi_comm *c);
int mmpi_file_allgather(struct mmpi_rank *self, struct mmpi_comm *c, const void *mine,
                        size_t bytes, void *all);
int mmpi_file_bcast(struct mmpi_rank *self, struct mmpi_comm *c, void *buf, size_t bytes,
                    int root);

#endif
