/* info.c: the info object store of info.h, and the info's table of operations (runtime/kind.h:
 * reclaim at world end). Linear search: infos hold a handful of keys. */
#include <stdlib.h>
#include <string.h>

#include "comm/info.h"
#include "mmpi.h"
#include "runtime/kind.h"

struct mmpi_info *mmpi_info_new(void)
{
    struct mmpi_info *info = calloc(1, sizeof(*info));
    if (info) {
        info->refcount = 1;
        info->handle = MPI_INFO_NULL;
    }
    return info;
}

void mmpi_info_release(struct mmpi_info *info)
{
    if (!info || __atomic_sub_fetch(&info->refcount, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    for (int i = 0; i < info->n; i++) {
        free(info->keys[i]);
        free(info->values[i]);
    }
    free(info->keys);
    free(info->values);
    free(info);
}

static int find(const struct mmpi_info *info, const char *key)
{
    for (int i = 0; i < info->n; i++)
        if (!strcmp(info->keys[i], key))
            return i;
    return -1;
}

int mmpi_info_set(struct mmpi_info *info, const char *key, const char *value)
{
    char *v = strdup(value);
    if (!v)
        return MPI_ERR_NO_MEM;
    int i = find(info, key);
    if (i >= 0) {
        free(info->values[i]);
        info->values[i] = v;
        return MPI_SUCCESS;
    }
    if (info->n == info->capacity) {
        int cap = info->capacity ? 2 * info->capacity : 8;
        char **k = realloc(info->keys, (size_t)cap * sizeof(char *));
        if (k)
            info->keys = k;
        char **vs = realloc(info->values, (size_t)cap * sizeof(char *));
        if (vs)
            info->values = vs;
        if (!k || !vs) {
            free(v);
            return MPI_ERR_NO_MEM;
        }
        info->capacity = cap;
    }
    info->keys[info->n] = strdup(key);
    if (!info->keys[info->n]) {
        free(v);
        return MPI_ERR_NO_MEM;
    }
    info->values[info->n++] = v;
    return MPI_SUCCESS;
}

const char *mmpi_info_lookup(const struct mmpi_info *info, const char *key)
{
    int i = find(info, key);
    return i >= 0 ? info->values[i] : NULL;
}

int mmpi_info_delete(struct mmpi_info *info, const char *key)
{
    int i = find(info, key);
    if (i < 0)
        return MPI_ERR_INFO_NOKEY;
    free(info->keys[i]);
    free(info->values[i]);
    memmove(&info->keys[i], &info->keys[i + 1], (size_t)(info->n - i - 1) * sizeof(char *));
    memmove(&info->values[i], &info->values[i + 1], (size_t)(info->n - i - 1) * sizeof(char *));
    info->n--;
    return MPI_SUCCESS;
}

struct mmpi_info *mmpi_info_dup(const struct mmpi_info *info)
{
    struct mmpi_info *copy = mmpi_info_new();
    for (int i = 0; copy && i < info->n; i++)
        if (mmpi_info_set(copy, info->keys[i], info->values[i]) != MPI_SUCCESS) {
            mmpi_info_release(copy);
            copy = NULL;
        }
    return copy;
}

/* An info a rank left in its table at world end. */
static void info_reclaim(struct mmpi_rank *r, void *obj)
{
    (void)r;
    mmpi_info_release(obj);
}

static const struct mmpi_kind_ops info_kind_ops = {.reclaim = info_reclaim};
MMPI_KIND_REGISTER(MMPI_HANDLE_KIND_INFO, info_kind_ops)
