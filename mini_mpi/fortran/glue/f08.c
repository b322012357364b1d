/*
 * fortran/glue/f08.c: the address of a choice buffer of mpi_f08 (TYPE(*), DIMENSION(..)), given
 * as a C descriptor (ISO_Fortran_binding.h, Fortran 2018 §18.5). MPI_SUBARRAYS_SUPPORTED is
 * .false.: a buffer that is not contiguous is refused (the procedure returns MPI_ERR_BUFFER)
 * rather than read as if it were. MPI_BOTTOM and MPI_IN_PLACE arrive as the address of their
 * COMMON block, which the glue then recognizes as in mpif.h.
 */
#include <ISO_Fortran_binding.h>
#include <stdbool.h>

#include "fortran/glue.h"

bool mmpi_f08_contiguous(CFI_cdesc_t *buf, void **addr);

bool mmpi_f08_contiguous(CFI_cdesc_t *buf, void **addr)
{
    *addr = buf->base_addr;
    return buf->rank == 0 || buf->base_addr == NULL || CFI_is_contiguous(buf);
}
