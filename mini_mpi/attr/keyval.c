/*
 * attr/keyval.c: keyval objects (attr.h): the calling rank's keyvals in its handle table, the
 * static predefined ones, and their reference counts. It does not hold attribute values
 * (list.c) nor check the arguments of the MPI calls (api_*.c).
 */
#include <stdlib.h>

#include "attr/attr.h"

/* The predefined keys of MPI_COMM_WORLD. Copy functions follow Open MPI, which keeps them on
 * MPI_Comm_dup except MPI_LASTUSEDCODE and its MPI_FT (MPICH answers them on every
 * communicator; the standard only promises MPI_COMM_WORLD, §11.1). */
#define PREDEF(i, copy) \
    {MMPI_HANDLE_KIND_COMM, true, MMPI_KEYVAL(i), copy, NULL, NULL, false, 1}
static struct mmpi_keyval predefined[MMPI_KV_NPREDEFINED] = {
    [MMPI_KV_TAG_UB] = PREDEF(MMPI_KV_TAG_UB, MPI_COMM_DUP_FN),
    [MMPI_KV_HOST] = PREDEF(MMPI_KV_HOST, MPI_COMM_DUP_FN),
    [MMPI_KV_IO] = PREDEF(MMPI_KV_IO, MPI_COMM_DUP_FN),
    [MMPI_KV_WTIME_IS_GLOBAL] = PREDEF(MMPI_KV_WTIME_IS_GLOBAL, MPI_COMM_DUP_FN),
    [MMPI_KV_APPNUM] = PREDEF(MMPI_KV_APPNUM, MPI_COMM_DUP_FN),
    [MMPI_KV_LASTUSEDCODE] = PREDEF(MMPI_KV_LASTUSEDCODE, NULL),
    [MMPI_KV_UNIVERSE_SIZE] = PREDEF(MMPI_KV_UNIVERSE_SIZE, MPI_COMM_DUP_FN),
    [MMPI_KV_FT] = PREDEF(MMPI_KV_FT, NULL),
    [MMPI_KV_INCARNATION] = PREDEF(MMPI_KV_INCARNATION, NULL),
};

struct mmpi_keyval *mmpi_keyval_predefined(int i)
{
    return &predefined[i];
}

int mmpi_keyval_create(struct mmpi_rank *self, int kind, mmpi_attr_copy_fn *copy_fn,
                       mmpi_attr_delete_fn *delete_fn, void *extra_state, int *keyval)
{
    struct mmpi_keyval *kv = mmpi_xcalloc(1, sizeof(*kv));
    kv->kind = kind;
    kv->copy_fn = copy_fn;
    kv->delete_fn = delete_fn;
    kv->extra_state = extra_state;
    kv->refs = 1; /* the handle's */
    kv->handle = mmpi_handle_new(self, MMPI_HANDLE_KIND_KEYVAL, kv);
    if (kv->handle == MMPI_NULL_HANDLE(MMPI_HANDLE_KIND_KEYVAL)) {
        free(kv);
        return MPI_ERR_NO_MEM;
    }
    *keyval = kv->handle;
    return MPI_SUCCESS;
}

struct mmpi_keyval *mmpi_keyval_lookup(struct mmpi_rank *self, int handle)
{
    if (mmpi_handle_is_predefined(handle)) {
        int i = mmpi_handle_index(handle);
        bool ours = mmpi_handle_kind(handle) == MMPI_HANDLE_KIND_KEYVAL;
        return ours && i < MMPI_KV_NPREDEFINED ? &predefined[i] : NULL;
    }
    return mmpi_handle_lookup(self, MMPI_HANDLE_KIND_KEYVAL, handle);
}

void mmpi_keyval_release(struct mmpi_rank *self, struct mmpi_keyval *kv)
{
    if (kv->predefined || --kv->refs > 0)
        return;
    mmpi_handle_remove(self, MMPI_HANDLE_KIND_KEYVAL, kv->handle);
    free(kv);
}

int mmpi_keyval_free(struct mmpi_rank *self, int kind, int keyval)
{
    struct mmpi_attr_rank *st = self->attr;
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&st->lock);
    struct mmpi_keyval *kv = mmpi_keyval_lookup(self, keyval);
    if (!kv || kv->predefined || kv->kind != kind) {
        err = MPI_ERR_KEYVAL;
    } else if (!kv->freed) {
        kv->freed = true;
        mmpi_keyval_release(self, kv); /* the handle's reference */
    }
    /* A keyval already freed but still used by an attribute is still extant (MPI-4.1 §7.7.2:
     * "the actual free does not transpire until after all references ... have been freed"):
     * freeing it again succeeds and changes nothing, as in MPICH, whose keyval_double_free
     * tests free it from its own delete callback and again after. */
    pthread_mutex_unlock(&st->lock);
    return err;
}
