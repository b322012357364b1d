/*
 * signature.c: questions answered by a type signature (MPI-4.1 §5.1.1): how many basic elements
 * some packed bytes hold (MPI_Get_elements, §5.1.11) and how many bytes some elements take
 * (MPI_Status_set_elements, §13.3). Walks the run-length signature, descending into a derived
 * child only for the one partial copy, so the cost is the signature's depth times its width,
 * never the message size.
 */
#include "datatype/datatype.h"

bool mmpi_datatype_elements(const struct mmpi_datatype *dt, size_t nbytes, size_t *elements)
{
    if (dt->size == 0) {
        *elements = 0;
        return true;
    }
    size_t n = nbytes / dt->size * dt->nelements, rem = nbytes % dt->size;
    for (size_t i = 0; i < dt->nsig && rem > 0; i++) {
        const struct mmpi_datatype *t = dt->sig[i].type;
        size_t copies = rem / t->size < dt->sig[i].count ? rem / t->size : dt->sig[i].count;
        n += copies * t->nelements;
        rem -= copies * t->size;
        if (copies < dt->sig[i].count && rem > 0) { /* ends inside one copy of t */
            size_t part;
            if (!mmpi_datatype_elements(t, rem, &part))
                return false;
            n += part;
            rem = 0;
        }
    }
    *elements = n;
    return rem == 0; /* a leaf cut in the middle has no signature to descend into */
}

bool mmpi_datatype_bytes_of_elements(const struct mmpi_datatype *dt, size_t elements,
                                     size_t *nbytes)
{
    if (dt->nelements == 0) {
        *nbytes = 0;
        return elements == 0;
    }
    size_t b = elements / dt->nelements * dt->size, rem = elements % dt->nelements;
    for (size_t i = 0; i < dt->nsig && rem > 0; i++) {
        const struct mmpi_datatype *t = dt->sig[i].type;
        size_t copies = rem / t->nelements < dt->sig[i].count ? rem / t->nelements
                                                                : dt->sig[i].count;
        b += copies * t->size;
        rem -= copies * t->nelements;
        if (copies < dt->sig[i].count && rem > 0) {
            size_t part;
            mmpi_datatype_bytes_of_elements(t, rem, &part);
            b += part;
            rem = 0;
        }
    }
    *nbytes = b;
    return true;
}
