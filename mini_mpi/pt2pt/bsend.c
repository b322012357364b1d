/*
 * bsend.c: the buffer of buffered sends (MPI-4.1 §3.6). A buffered message is packed into its
 * envelope at once and queued at the receiver, so it is "transmitted" before MPI_Bsend returns
 * and never occupies the attached buffer afterwards; the attached buffer still bounds the size
 * of one message, as the standard requires (a message that cannot fit is MPI_ERR_BUFFER).
 */
#include "pt2pt/pt2pt.h"

MMPI_PROFILED(Buffer_attach);
int PMPI_Buffer_attach(void *buffer, int size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Buffer_attach);
    int err = MPI_SUCCESS;

    if (size < 0) {
        err = MPI_ERR_ARG;
    } else if (!buffer && size > 0) {
        err = MPI_ERR_BUFFER;
    } else {
        pthread_mutex_lock(&self->bsend_lock);
        if (self->bsend_buffer) {
            err = MPI_ERR_BUFFER; /* one buffer at a time (§3.6.1) */
        } else {
            self->bsend_buffer = buffer ? buffer : (void *)&self->bsend_size;
            self->bsend_size = size;
        }
        pthread_mutex_unlock(&self->bsend_lock);
    }
    if (err != MPI_SUCCESS)
        err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Buffer_attach);
    return err;
}

MMPI_PROFILED(Buffer_detach);
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Buffer_detach);
    if (!buffer_addr || !size)
        return mmpi_err_raise_comm(self, NULL, MPI_ERR_ARG, MMPI_CALL_Buffer_detach);
    pthread_mutex_lock(&self->bsend_lock);
    void *buf = self->bsend_buffer == (void *)&self->bsend_size ? NULL : self->bsend_buffer;
    *(void **)buffer_addr = buf;
    *size = self->bsend_buffer ? self->bsend_size : 0;
    self->bsend_buffer = NULL;
    self->bsend_size = 0;
    pthread_mutex_unlock(&self->bsend_lock);
    return MPI_SUCCESS;
}

int mmpi_bsend_reserve(struct mmpi_rank *self, size_t bytes)
{
    pthread_mutex_lock(&self->bsend_lock);
    bool fits = self->bsend_buffer && bytes + MPI_BSEND_OVERHEAD <= (size_t)self->bsend_size;
    pthread_mutex_unlock(&self->bsend_lock);
    return fits ? MPI_SUCCESS : MPI_ERR_BUFFER;
}
