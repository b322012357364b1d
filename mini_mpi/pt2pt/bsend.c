/*
 * pt2pt/bsend.c: the buffer of buffered sends (MPI-4.1 §3.6): attaching and detaching it (the
 * implementation of MPI_Buffer_attach and MPI_Buffer_detach, whose bindings are bsend_api.c)
 * and reserving room for one message. A buffered message is packed into its
 * envelope at once and queued at the receiver, so it is "transmitted" before MPI_Bsend returns
 * and never occupies the attached buffer afterwards; the attached buffer still bounds the size
 * of one message, as the standard requires (a message that cannot fit is MPI_ERR_BUFFER).
 */
#include "pt2pt/pt2pt.h"

int mmpi_bsend_attach(struct mmpi_rank *self, void *buffer, int size)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&self->bsend_lock);
    if (self->bsend_buffer) {
        err = MPI_ERR_BUFFER; /* one buffer at a time (§3.6.1) */
    } else {
        self->bsend_buffer = buffer ? buffer : (void *)&self->bsend_size;
        self->bsend_size = size;
    }
    pthread_mutex_unlock(&self->bsend_lock);
    return err;
}

void mmpi_bsend_detach(struct mmpi_rank *self, void *buffer_addr, int *size)
{
    pthread_mutex_lock(&self->bsend_lock);
    void *buf = self->bsend_buffer == (void *)&self->bsend_size ? NULL : self->bsend_buffer;
    *(void **)buffer_addr = buf;
    *size = self->bsend_buffer ? self->bsend_size : 0;
    self->bsend_buffer = NULL;
    self->bsend_size = 0;
    pthread_mutex_unlock(&self->bsend_lock);
}

int mmpi_bsend_reserve(struct mmpi_rank *self, size_t bytes)
{
    pthread_mutex_lock(&self->bsend_lock);
    bool fits = self->bsend_buffer && bytes + MPI_BSEND_OVERHEAD <= (size_t)self->bsend_size;
    pthread_mutex_unlock(&self->bsend_lock);
    return fits ? MPI_SUCCESS : MPI_ERR_BUFFER;
}
