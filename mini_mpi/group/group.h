/*
 * group.h: process groups (MPI-4.1 §7.3), the internal interface. A group is an immutable,
 * ordered list of distinct world ranks, shared by reference count: whoever holds it (a handle in
 * a rank's table, a communicator being created, a ULFM query) holds one reference, and any rank
 * may hold one, so the count is atomic. Handles are per rank, like every handle (mmpi.h).
 *
 * Files: object.c (lifetime, handles, the predefined MPI_GROUP_EMPTY), set.c (comparison,
 * translation, union/intersection/difference), select.c (incl/excl and their range forms,
 * with their argument checks), group_api.c and create_api.c (the MPI_ entry points). A
 * communicator's group is its core's world_ranks (comm/comm.h); building communicators from
 * groups belongs to comm/.
 *
 * Memory: group arrays are bookkeeping the size of a communicator, so they come from
 * mmpi_xmalloc (util/die.h) and no function here fails for lack of memory; the only failure
 * that remains is a full handle table (mmpi_group_handle_new).
 */
#ifndef MMPI_GROUP_GROUP_H
#define MMPI_GROUP_GROUP_H

#include "mmpi.h"

struct mmpi_group {
    int refcount;     /* atomic; ignored for mmpi_group_empty */
    int size;         /* immutable */
    int *world_ranks; /* immutable [size]: group rank -> world rank, distinct; owned, freed
                       * with the group */
    MPI_Session session; /* immutable: the session whose process set the group comes from
                          * (directly or through group operations), else MPI_SESSION_NULL; a
                          * communicator made from it belongs to that session (MPI-4.1 §11.3),
                          * whose buffer its buffered sends use (§3.6) */
};

/* The object behind MPI_GROUP_EMPTY: static, never freed; retain and release skip it. */
extern struct mmpi_group mmpi_group_empty;

/* ---- Lifetime and handles (object.c) ------------------------------------------------------ */

/* A new group of size members taking over world_ranks (malloc'ed, or NULL when size is 0),
 * refcount 1. world_ranks must hold distinct world ranks. Never returns NULL. */
struct mmpi_group *mmpi_group_new(int size, int *world_ranks);
/* g, made from `from` by a group operation: it belongs to from's session. Returns g. */
struct mmpi_group *mmpi_group_derived(struct mmpi_group *g, const struct mmpi_group *from);
/* Takes / drops a reference; the last drop frees the group and its array. NULL is fine for
 * release. Any thread. */
void mmpi_group_retain(struct mmpi_group *g);
void mmpi_group_release(struct mmpi_group *g);

/* Resolves a handle of the calling rank (MPI_GROUP_EMPTY included); NULL if invalid
 * (MPI_GROUP_NULL, another kind, a freed handle). The result is borrowed: valid until the
 * handle is freed. Called only by the owning rank. Lock-free. */
struct mmpi_group *mmpi_group_get(struct mmpi_rank *self, MPI_Group h);
/* Registers g for the calling rank (takes over the caller's reference) and returns its handle:
 * MPI_GROUP_EMPTY for an empty group (then g is released), MPI_GROUP_NULL if the table is full
 * (then g is released too; report MPI_ERR_NO_MEM). Called only by the owning rank. */
MPI_Group mmpi_group_handle_new(struct mmpi_rank *self, struct mmpi_group *g);
/* Removes a dynamic handle of the calling rank; returns its object (the handle's reference now
 * belongs to the caller), or NULL if h is not a live dynamic group handle. */
struct mmpi_group *mmpi_group_handle_remove(struct mmpi_rank *self, MPI_Group h);

/* Rank of world rank w in g, or MPI_UNDEFINED. Cost: O(g->size) (a scan). */
int mmpi_group_rank_of_world(const struct mmpi_group *g, int w);
/* A new group of the members of a communicator core, in its rank order (§7.3.2
 * MPI_Comm_group). */
struct mmpi_group *mmpi_group_of_core(const struct mmpi_comm_core *core);

/* ---- Comparison, translation, set operations (set.c) -------------------------------------- */

/* MPI_IDENT (same members, same order), MPI_SIMILAR (same members), else MPI_UNEQUAL
 * (§7.3.1). */
int mmpi_group_compare(const struct mmpi_group *a, const struct mmpi_group *b);
/* Checks the ranks MPI_Group_translate_ranks translates: MPI_ERR_ARG for n < 0 or n > 0 with
 * ranks1 NULL; MPI_ERR_RANK for an entry neither a rank of a nor MPI_PROC_NULL (§7.3.1). */
int mmpi_group_check_translate_ranks(const struct mmpi_group *a, int n, const int *ranks1);
/* ranks2[i] = rank in b of the process at rank ranks1[i] of a; MPI_UNDEFINED if b lacks it;
 * MPI_PROC_NULL for MPI_PROC_NULL (§7.3.1). ranks1 has passed the check above.
 * Cost: O(n + b->size + largest world rank in b). */
void mmpi_group_translate_ranks(const struct mmpi_group *a, int n, const int *ranks1,
                                const struct mmpi_group *b, int *ranks2);
/* New groups, refcount 1, ordered as §7.3.2 says:
 * union: a's members, then b's members not in a, in b's order;
 * intersection: a's members also in b, in a's order;
 * difference: a's members not in b, in a's order. */
struct mmpi_group *mmpi_group_union(const struct mmpi_group *a, const struct mmpi_group *b);
struct mmpi_group *mmpi_group_intersection(const struct mmpi_group *a,
                                           const struct mmpi_group *b);
struct mmpi_group *mmpi_group_difference(const struct mmpi_group *a,
                                         const struct mmpi_group *b);

/* ---- Selection by rank (select.c) --------------------------------------------------------- */

/* Checks the rank list of MPI_Group_incl/excl: MPI_ERR_ARG for n < 0 or n > 0 with ranks NULL;
 * MPI_ERR_RANK for a rank outside [0, g->size) or listed twice (§7.3.2: erroneous). */
int mmpi_group_check_ranks(const struct mmpi_group *g, int n, const int *ranks);
/* Checks the triplets of MPI_Group_range_incl/excl as MPICH does: MPI_ERR_ARG for n < 0, n > 0
 * with ranges NULL, first outside [0, g->size), stride 0, last < 0, a computed rank beyond the
 * group, a stride pointing away from last, or a rank computed twice (§7.3.2: erroneous). */
int mmpi_group_check_ranges(const struct mmpi_group *g, int n, int ranges[][3]);
/* New groups, refcount 1, from checked arguments (§7.3.2): incl takes the listed ranks in list
 * order; excl keeps the unlisted members in g's order; the range forms do the same with the
 * ranks the triplets (first, last, stride) compute, in triplet order. */
struct mmpi_group *mmpi_group_incl(const struct mmpi_group *g, int n, const int *ranks);
struct mmpi_group *mmpi_group_excl(const struct mmpi_group *g, int n, const int *ranks);
struct mmpi_group *mmpi_group_range_incl(const struct mmpi_group *g, int n, int ranges[][3]);
struct mmpi_group *mmpi_group_range_excl(const struct mmpi_group *g, int n, int ranges[][3]);

#endif
