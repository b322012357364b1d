/*
 * ulfm.h: fault-tolerance state shared by the ULFM entry points and the engines that must honour
 * it (point-to-point, collectives): what a rank has acknowledged on a communicator, and the
 * spelling macro for the four names of every call.
 */
#ifndef MMPI_ULFM_ULFM_H
#define MMPI_ULFM_ULFM_H

#include <stdbool.h>

#include "mmpi.h"

/* Defines MPIX_x, MPI_x and PMPI_x as weak aliases of PMPIX_x (the implementation). */
#define MMPI_FT_PROFILED(name)                                      \
    _Pragma(MMPI_STR_(weak MPIX_##name = PMPIX_##name))             \
    _Pragma(MMPI_STR_(weak MPI_##name = PMPIX_##name))              \
    _Pragma(MMPI_STR_(weak PMPI_##name = PMPIX_##name))

/* Whether member `peer` (of the group a receive matches against) has failed and the calling
 * rank has not acknowledged that failure on c. */
bool mmpi_ulfm_unacked_failure(const struct mmpi_comm *c, int peer);
/* Whether any member of that group has an unacknowledged failure. */
bool mmpi_ulfm_any_unacked_failure(const struct mmpi_comm *c);

#endif
