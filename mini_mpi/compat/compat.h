/*
 * compat/compat.h: what the language-interoperability calls of compat/ share (MPI-4.1 §19.3):
 * the internal headers they need. The handle conversions are handles_api.c, the status
 * conversions status_api.c; the public constants are include/mini_mpi/compat.h.
 */
#ifndef MMPI_COMPAT_COMPAT_H
#define MMPI_COMPAT_COMPAT_H

#include "mmpi.h"

#endif
