/*
 * mpit/category_api.c: the categories (MPI-4.1 §15.3.9): which variables and events belong
 * together, by subsystem. Members are named (or a name prefix ending in '*'), so that the
 * tables of cvar.c, pvar.c and events.def can grow without renumbering here; the set never
 * changes while a job runs, so MPI_T_category_changed always gives 0.
 */
#include <string.h>

#include "mmpi.h"
#include "mpit/cvar.h"
#include "mpit/mpit.h"
#include "mpit/pvar.h"

struct category {
    const char *name;
    const char *desc;
    const char *const *cvars, *const *pvars, *const *events, *const *subcategories;
};

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})
static const struct category categories[] = {
    {"mini_mpi", "everything mini_mpi exposes through the tool interface", LIST(NULL),
     LIST(NULL), LIST(NULL),
     LIST("mini_mpi_launch", "mini_mpi_checks", "mini_mpi_pt2pt", "mini_mpi_coll",
          "mini_mpi_rma", "mini_mpi_io", "mini_mpi_fault")},
    {"mini_mpi_launch", "how the job was started: fixed for its lifetime",
     LIST("MINI_MPI_NP", "MINI_MPI_UNIVERSE_SIZE", "MINI_MPI_PRIVATIZE", "MINI_MPI_STACK",
          "MINI_MPI_FT", "MINI_MPI_EXIT_STATUS", "MINI_MPI_INITIAL_ERRHANDLER",
          "MINI_MPI_CALL_COUNTS", "MINI_MPI_BIND"),
     LIST(NULL), LIST(NULL), LIST(NULL)},
    {"mini_mpi_checks", "diagnostics a running job can turn on and off",
     LIST("MINI_MPI_VERBOSE", "MINI_MPI_HANG_CHECK", "MINI_MPI_TIMEOUT", "MINI_MPI_POISON"),
     LIST(NULL), LIST("mini_mpi_hang_detected"), LIST(NULL)},
    {"mini_mpi_pt2pt", "point-to-point messages and matching queues", LIST(NULL),
     LIST("msgs_sent", "bytes_sent", "msgs_received", "bytes_received",
          "unexpected_recvq_length", "unexpected_recvq_hwm", "posted_recvq_length"),
     LIST(NULL), LIST(NULL)},
    {"mini_mpi_coll", "collective operations", LIST("MINI_MPI_COLL_FAST_MAX"),
     LIST("coll_*"), LIST(NULL), LIST(NULL)},
    {"mini_mpi_rma", "one-sided communication", LIST(NULL), LIST("rma_ops", "rma_lock_waits"),
     LIST(NULL), LIST(NULL)},
    {"mini_mpi_io", "file I/O", LIST(NULL), LIST("file_bytes_written", "file_bytes_read"),
     LIST(NULL), LIST(NULL)},
    {"mini_mpi_fault", "process failures, revocation, recovery and the fault injector",
     LIST(NULL),
     LIST("failures_detected", "failed_ranks", "revocations_seen", "agreements", "shrinks",
          "injected_deaths"),
     LIST("mini_mpi_failure_detected", "mini_mpi_failure_reported", "mini_mpi_revoked",
          "mini_mpi_injected_death"),
     LIST(NULL)},
};
#define NCATEGORIES ((int)(sizeof categories / sizeof categories[0]))

static const char *cvar_name(int i) { return mmpi_cvars[i].name; }
static const char *pvar_name(int i) { return mmpi_pvars[i].name; }
static const char *event_names[] = {
#define MMPI_EVENT(id, name, source, desc, elements) name,
#include "mpit/events.def"
#undef MMPI_EVENT
};
static const char *event_name(int i) { return event_names[i]; }
static const char *category_name(int i) { return categories[i].name; }

/* Whether member pattern m names `name`: equal, or a prefix ending in '*'. */
static bool matches(const char *m, const char *name)
{
    size_t n = strlen(m);
    return n && m[n - 1] == '*' ? !strncmp(m, name, n - 1) : !strcmp(m, name);
}

/* The indices of a category's members of one kind, in the kind's own index order. */
static int members(const char *const *names, int n, const char *(*name_of)(int), int len,
                   int *indices)
{
    int found = 0;
    for (int i = 0; i < n; i++)
        for (const char *const *m = names; *m; m++)
            if (matches(*m, name_of(i))) {
                if (indices && found < len)
                    indices[found] = i;
                found++;
            }
    return found;
}

/* Kind 'c', 'p', 'e' or 's' (subcategories) of a category: how many, and the first len. */
static int members_of(int cat, char kind, int len, int *indices)
{
    const struct category *c = &categories[cat];
    switch (kind) {
    case 'c': return members(c->cvars, MMPI_NCVARS, cvar_name, len, indices);
    case 'p': return members(c->pvars, MMPI_NPVARS, pvar_name, len, indices);
    case 'e': return members(c->events, MMPI_NEVENTS, event_name, len, indices);
    default: return members(c->subcategories, NCATEGORIES, category_name, len, indices);
    }
}

MMPI_PROFILED(T_category_get_num);
int PMPI_T_category_get_num(int *num_cat)
{
    return mmpi_mpit_get_num(num_cat, NCATEGORIES);
}

MMPI_PROFILED(T_category_get_info);
int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc,
                             int *desc_len, int *num_cvars, int *num_pvars,
                             int *num_categories)
{
    MMPI_MPIT_ENTER(st);
    if (cat_index < 0 || cat_index >= NCATEGORIES)
        return MPI_T_ERR_INVALID_INDEX;
    mmpi_mpit_copy_string(categories[cat_index].name, name, name_len);
    mmpi_mpit_copy_string(categories[cat_index].desc, desc, desc_len);
    if (num_cvars)
        *num_cvars = members_of(cat_index, 'c', 0, NULL);
    if (num_pvars)
        *num_pvars = members_of(cat_index, 'p', 0, NULL);
    if (num_categories)
        *num_categories = members_of(cat_index, 's', 0, NULL);
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_category_get_num_events);
int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    MMPI_MPIT_ENTER(st);
    if (cat_index < 0 || cat_index >= NCATEGORIES)
        return MPI_T_ERR_INVALID_INDEX;
    if (!num_events)
        return MPI_T_ERR_INVALID;
    *num_events = members_of(cat_index, 'e', 0, NULL);
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_category_get_index);
int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    return mmpi_mpit_get_index(name, cat_index, NCATEGORIES, category_name);
}

/* The four get_* calls: the first len member indices of one kind. */
static int get_members(int cat_index, int len, int *indices, char kind)
{
    MMPI_MPIT_ENTER(st);
    if (cat_index < 0 || cat_index >= NCATEGORIES)
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && !indices))
        return MPI_T_ERR_INVALID;
    members_of(cat_index, kind, len, indices);
    return MPI_SUCCESS;
}

MMPI_PROFILED(T_category_get_cvars);
int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    return get_members(cat_index, len, indices, 'c');
}

MMPI_PROFILED(T_category_get_pvars);
int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    return get_members(cat_index, len, indices, 'p');
}

MMPI_PROFILED(T_category_get_events);
int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    return get_members(cat_index, len, indices, 'e');
}

MMPI_PROFILED(T_category_get_categories);
int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    return get_members(cat_index, len, indices, 's');
}

MMPI_PROFILED(T_category_changed);
int PMPI_T_category_changed(int *update_number)
{
    MMPI_MPIT_ENTER(st);
    if (!update_number)
        return MPI_T_ERR_INVALID;
    *update_number = 0; /* variables, events and categories are fixed for the job's life */
    return MPI_SUCCESS;
}
