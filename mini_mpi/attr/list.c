/*
 * attr/list.c: attribute lists (attr.h "Theory of operation"): set, get, delete, delete all
 * and copy, with the user callbacks run outside the rank's attribute lock. It knows objects
 * only as struct mmpi_attr_obj; which objects have lists is object.c's business.
 */
#include <stdlib.h>

#include "attr/attr.h"

static struct mmpi_attr *find(struct mmpi_attr *head, const struct mmpi_keyval *kv)
{
    while (head && head->kv != kv)
        head = head->next;
    return head;
}

static void unlink_entry(struct mmpi_attr **head, struct mmpi_attr *a)
{
    for (struct mmpi_attr **p = head; *p; p = &(*p)->next) {
        if (*p == a) {
            *p = a->next;
            return;
        }
    }
}

/* Runs a's delete callback without the lock (taken on entry and on return); on success
 * unlinks and frees a. a is busy meanwhile, so no other deleter touches it. */
static int delete_entry(struct mmpi_rank *self, struct mmpi_attr_obj *obj, struct mmpi_attr *a)
{
    struct mmpi_attr_rank *st = self->attr;
    struct mmpi_keyval *kv = a->kv;
    int rc = MPI_SUCCESS;
    if (kv->delete_fn) {
        a->busy = true;
        void *value = a->value;
        pthread_mutex_unlock(&st->lock);
        rc = kv->delete_fn(obj->handle, kv->handle, value, kv->extra_state);
        pthread_mutex_lock(&st->lock);
        a->busy = false;
    }
    if (rc == MPI_SUCCESS) {
        unlink_entry(obj->head, a);
        mmpi_keyval_release(self, kv);
        free(a);
    }
    return rc;
}

/* The keyval of a call on obj, checked: live, of obj's kind, and (for writes) not
 * predefined. A freed keyval still in use stays usable through its old handle, for writes too,
 * as in MPICH and Open MPI. NULL means MPI_ERR_KEYVAL. Call with the lock. */
static struct mmpi_keyval *checked_keyval(struct mmpi_rank *self, struct mmpi_attr_obj *obj,
                                          int keyval, bool write)
{
    struct mmpi_keyval *kv = mmpi_keyval_lookup(self, keyval);
    if (!kv || kv->kind != obj->kind)
        return NULL;
    if (write && kv->predefined)
        return NULL;
    return kv;
}

int mmpi_attr_set(struct mmpi_rank *self, struct mmpi_attr_obj *obj, int keyval, void *value,
                  bool internal)
{
    struct mmpi_attr_rank *st = self->attr;
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&st->lock);
    struct mmpi_keyval *kv = checked_keyval(self, obj, keyval, !internal);
    struct mmpi_attr *a = kv && obj->head ? find(*obj->head, kv) : NULL;
    if (!kv || !obj->head) {
        rc = MPI_ERR_KEYVAL;
    } else if (a && a->busy) {
        rc = MPI_ERR_KEYVAL; /* set from inside its own delete callback */
    } else if (a) {
        /* §7.7.2: as if the old value were deleted first (its callback runs), then stored.
         * The entry keeps its place; it stays busy while the callback runs. */
        if (kv->delete_fn) {
            void *old = a->value;
            a->busy = true;
            pthread_mutex_unlock(&st->lock);
            rc = kv->delete_fn(obj->handle, kv->handle, old, kv->extra_state);
            pthread_mutex_lock(&st->lock);
            a->busy = false;
        }
        if (rc == MPI_SUCCESS)
            a->value = value;
    } else {
        a = mmpi_xcalloc(1, sizeof(*a));
        a->kv = kv;
        a->value = value;
        a->next = *obj->head;
        *obj->head = a;
        if (!kv->predefined)
            kv->refs++;
    }
    pthread_mutex_unlock(&st->lock);
    return rc;
}

int mmpi_attr_get(struct mmpi_rank *self, struct mmpi_attr_obj *obj, int keyval, void **value,
                  int *flag)
{
    struct mmpi_attr_rank *st = self->attr;
    int rc = MPI_SUCCESS;
    *flag = 0;
    pthread_mutex_lock(&st->lock);
    struct mmpi_keyval *kv = checked_keyval(self, obj, keyval, false);
    struct mmpi_attr *a = kv && obj->head ? find(*obj->head, kv) : NULL;
    if (!kv) {
        rc = MPI_ERR_KEYVAL;
    } else if (a) {
        /* MPI_LASTUSEDCODE follows MPI_Add_error_code: refreshed when read (§9.5). */
        if (kv == mmpi_keyval_predefined(MMPI_KV_LASTUSEDCODE))
            st->predefined[MMPI_KV_LASTUSEDCODE] = mmpi_error_lastused();
        *value = a->value;
        *flag = 1;
    }
    pthread_mutex_unlock(&st->lock);
    return rc;
}

int mmpi_attr_delete(struct mmpi_rank *self, struct mmpi_attr_obj *obj, int keyval)
{
    struct mmpi_attr_rank *st = self->attr;
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&st->lock);
    struct mmpi_keyval *kv = checked_keyval(self, obj, keyval, false);
    struct mmpi_attr *a = kv && obj->head ? find(*obj->head, kv) : NULL;
    if (!kv || kv->predefined || (a && a->busy))
        rc = MPI_ERR_KEYVAL;
    else if (a)
        rc = delete_entry(self, obj, a);
    pthread_mutex_unlock(&st->lock);
    return rc;
}

int mmpi_attr_delete_all(struct mmpi_rank *self, struct mmpi_attr_obj *obj)
{
    struct mmpi_attr_rank *st = self->attr;
    int rc = MPI_SUCCESS;
    if (!obj->head)
        return MPI_SUCCESS;
    pthread_mutex_lock(&st->lock);
    for (;;) {
        /* The list may change while a callback runs: start again from the newest idle entry. */
        struct mmpi_attr *a = *obj->head;
        while (a && a->busy)
            a = a->next;
        if (!a || (rc = delete_entry(self, obj, a)) != MPI_SUCCESS)
            break;
    }
    pthread_mutex_unlock(&st->lock);
    return rc;
}

int mmpi_attr_copy(struct mmpi_rank *self, struct mmpi_attr_obj *src, struct mmpi_attr_obj *dst)
{
    struct mmpi_attr_rank *st = self->attr;
    struct snap {
        struct mmpi_keyval *kv;
        void *value;
    } *snap = NULL;
    int n = 0, rc = MPI_SUCCESS;
    if (!src->head)
        return MPI_SUCCESS;

    pthread_mutex_lock(&st->lock);
    for (struct mmpi_attr *a = *src->head; a; a = a->next)
        n++;
    snap = mmpi_xmalloc((size_t)n * sizeof(*snap) + 1);
    n = 0;
    for (struct mmpi_attr *a = *src->head; a; a = a->next) {
        if (!a->kv->copy_fn)
            continue;
        snap[n++] = (struct snap){a->kv, a->value};
        if (!a->kv->predefined)
            a->kv->refs++; /* keeps the keyval alive while its callback runs */
    }
    pthread_mutex_unlock(&st->lock);

    /* Copies keep the source's order (newest first), appended at the tail. */
    struct mmpi_attr **tail = dst->head;
    int i = 0;
    for (; i < n && rc == MPI_SUCCESS; i++) {
        struct mmpi_keyval *kv = snap[i].kv;
        void *out = NULL;
        int flag = 0;
        rc = kv->copy_fn(src->handle, kv->handle, kv->extra_state, snap[i].value, &out, &flag);
        pthread_mutex_lock(&st->lock);
        if (rc == MPI_SUCCESS && flag) {
            struct mmpi_attr *a = mmpi_xcalloc(1, sizeof(*a));
            a->kv = kv; /* takes over the snapshot's reference */
            a->value = out;
            while (*tail)
                tail = &(*tail)->next;
            *tail = a;
        } else {
            mmpi_keyval_release(self, kv);
        }
        pthread_mutex_unlock(&st->lock);
    }
    pthread_mutex_lock(&st->lock);
    for (; i < n; i++)
        mmpi_keyval_release(self, snap[i].kv);
    pthread_mutex_unlock(&st->lock);
    free(snap);

    /* Every successful copy gets its matching delete, so reference-counting callbacks stay
     * balanced when the duplication fails. */
    if (rc != MPI_SUCCESS)
        mmpi_attr_delete_all(self, dst);
    return rc;
}

void mmpi_attr_list_free(struct mmpi_attr **head)
{
    while (*head) {
        struct mmpi_attr *a = *head;
        *head = a->next;
        free(a);
    }
}
