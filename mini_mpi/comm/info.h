/*
 * info.h: info objects (MPI-4.1 §10): an ordered list of (key, value) strings. Owned by one
 * rank; reference-counted so that objects which keep an info (communicators, windows, files)
 * can share it.
 */
#ifndef MMPI_COMM_INFO_H
#define MMPI_COMM_INFO_H

struct mmpi_info {
    int refcount;       /* atomic */
    int handle;         /* MPI_Info of the owning rank; MPI_INFO_NULL if none */
    int n, capacity;    /* owning rank only */
    char **keys;        /* owning rank only */
    char **values;      /* owning rank only */
};

struct mmpi_info *mmpi_info_new(void);
void mmpi_info_release(struct mmpi_info *info);  /* NULL is fine */
/* Each returns an MPI error class. */
int mmpi_info_set(struct mmpi_info *info, const char *key, const char *value);
const char *mmpi_info_lookup(const struct mmpi_info *info, const char *key); /* NULL: absent */
int mmpi_info_delete(struct mmpi_info *info, const char *key);
struct mmpi_info *mmpi_info_dup(const struct mmpi_info *info);   /* NULL: out of memory */

/* An MPI_Info argument of a call: MPI_SUCCESS with *out (NULL for MPI_INFO_NULL, the rank's
 * environment info for MPI_INFO_ENV), or MPI_ERR_INFO for a handle that names no info object. */
struct mmpi_rank;
int mmpi_info_arg(struct mmpi_rank *self, int handle, struct mmpi_info **out);

#endif
