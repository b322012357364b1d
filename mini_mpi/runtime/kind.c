/*
 * runtime/kind.c: the registry of kind.h's tables, one per handle kind, filled by the
 * subsystems' constructors when the library is loaded, before any rank (or any thread of the
 * library) exists; read-only afterwards.
 */
#include "runtime/kind.h"

#include "mmpi.h"

_Static_assert(MMPI_KINDS == sizeof(((struct mmpi_rank *)0)->handles) /
                                 sizeof(((struct mmpi_rank *)0)->handles[0]),
               "one table per handle table");

static const struct mmpi_kind_ops no_ops;
static const struct mmpi_kind_ops *tables[MMPI_KINDS];

void mmpi_kind_register(int kind, const struct mmpi_kind_ops *ops)
{
    if (kind < 0 || kind >= MMPI_KINDS || tables[kind])
        mmpi_die("object kind %d registered twice or out of range", kind);
    tables[kind] = ops;
}

const struct mmpi_kind_ops *mmpi_kind_ops(int kind)
{
    return kind >= 0 && kind < MMPI_KINDS && tables[kind] ? tables[kind] : &no_ops;
}

void *mmpi_handles_next(struct mmpi_rank *r, int kind, uint32_t *i)
{
    struct mmpi_slots *table = &r->handles[kind];
    uint32_t used = __atomic_load_n(&table->next_unused, __ATOMIC_ACQUIRE);
    while (*i < used) {
        void *obj = mmpi_slots_get(table, (*i)++);
        if (obj)
            return obj;
    }
    return NULL;
}
