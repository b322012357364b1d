/*
 * init/init_api.c: MPI entry points of the environment chapter (MPI-4.1 chapter 11) in its order:
 * initialization and finalization, thread support, version inquiries, timers, memory
 * allocation, MPI_Abort and MPI_Pcontrol.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "comm/info.h"
#include "init/init.h"
#include "inject/inject.h"
#include "mmpi.h"

static int start(int required, int *provided, enum mmpi_call call)
{
    struct mmpi_rank *self = mmpi_enter_anytime(call);
    if (!self) {
        fprintf(stderr, "mini_mpi: %s called from a thread that belongs to no rank\n",
                mmpi_call_name(call));
        return MPI_ERR_OTHER;
    }
    switch (mmpi_rank_phase(self)) {
    case MMPI_PHASE_INITIALIZED:
        mmpi_err_fatal(self, call, MPI_ERR_OTHER, "MPI is already initialized");
    case MMPI_PHASE_FINALIZED:
        mmpi_err_fatal(self, call, MPI_ERR_OTHER, "MPI cannot be initialized after MPI_Finalize");
    default:
        break;
    }
    mmpi_init(self, required);
    mmpi_inject_init_done(self);
    if (provided)
        *provided = self->thread_level;
    return MPI_SUCCESS;
}

MMPI_PROFILED(Init);
int PMPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return start(MPI_THREAD_SINGLE, NULL, MMPI_CALL_Init);
}

MMPI_PROFILED(Init_thread);
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    /* Every level is real: the runtime is thread-safe throughout, so we provide what is asked
     * (MPI-4.1 §11.6 lets us provide more; MPICH also answers with the level requested). */
    return start(required, provided, MMPI_CALL_Init_thread);
}

MMPI_PROFILED(Initialized);
int PMPI_Initialized(int *flag)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Initialized);
    if (!flag)
        return MPI_ERR_ARG;
    *flag = self && mmpi_rank_phase(self) != MMPI_PHASE_STARTED;
    return MPI_SUCCESS;
}

MMPI_PROFILED(Finalized);
int PMPI_Finalized(int *flag)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Finalized);
    if (!flag)
        return MPI_ERR_ARG;
    *flag = self && mmpi_rank_phase(self) == MMPI_PHASE_FINALIZED;
    return MPI_SUCCESS;
}

MMPI_PROFILED(Finalize);
int PMPI_Finalize(void)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Finalize);
    mmpi_finalize(self);
    return MPI_SUCCESS;
}

MMPI_PROFILED(Query_thread);
int PMPI_Query_thread(int *provided)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Query_thread);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!provided, MPI_ERR_ARG);
    *provided = self->thread_level;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Query_thread);
    goto fn_exit;
}

MMPI_PROFILED(Is_thread_main);
int PMPI_Is_thread_main(int *flag)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Is_thread_main);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!flag, MPI_ERR_ARG);
    *flag = pthread_equal(pthread_self(), self->init_thread);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Is_thread_main);
    goto fn_exit;
}

MMPI_PROFILED(Get_version);
int PMPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return MPI_ERR_ARG;
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

MMPI_PROFILED(Get_library_version);
int PMPI_Get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return MPI_ERR_ARG;
    *resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                          "mini_mpi %s: in-process MPI emulator, ranks as threads, ULFM",
                          MINI_MPI_VERSION_STRING);
    return MPI_SUCCESS;
}

MMPI_PROFILED(Get_processor_name);
int PMPI_Get_processor_name(char *name, int *resultlen)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Get_processor_name);
    int err = MPI_SUCCESS;

    MMPI_FAIL_IF(!name || !resultlen, MPI_ERR_ARG);
    if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0)
        strcpy(name, "localhost");
    name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    *resultlen = (int)strlen(name);
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Get_processor_name);
    goto fn_exit;
}

MMPI_PROFILED(Wtime);
double PMPI_Wtime(void)
{
    /* One clock for all ranks of the process, so MPI_WTIME_IS_GLOBAL holds. */
    return mmpi_now();
}

MMPI_PROFILED(Wtick);
double PMPI_Wtick(void)
{
    return 1e-9;
}

MMPI_PROFILED(Alloc_mem);
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    struct mmpi_rank *self = mmpi_enter(MMPI_CALL_Alloc_mem);
    struct mmpi_info *hints; /* none is used: malloc ignores placement hints */
    int err = MPI_SUCCESS;
    void *p;

    MMPI_FAIL_IF(size < 0, MPI_ERR_SIZE);
    MMPI_FAIL_IF(mmpi_info_arg(self, info, &hints) != MPI_SUCCESS, MPI_ERR_INFO);
    MMPI_FAIL_IF(!baseptr, MPI_ERR_ARG);
    MMPI_FAIL_IF(!(p = malloc(size ? (size_t)size : 1)), MPI_ERR_NO_MEM);
    *(void **)baseptr = p;
fn_exit:
    return err;
fn_fail:
    err = mmpi_err_raise_comm(self, NULL, err, MMPI_CALL_Alloc_mem);
    goto fn_exit;
}

MMPI_PROFILED(Free_mem);
int PMPI_Free_mem(void *base)
{
    mmpi_enter(MMPI_CALL_Free_mem);
    free(base);
    return MPI_SUCCESS;
}

MMPI_PROFILED(Abort);
int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    struct mmpi_rank *self = mmpi_enter_anytime(MMPI_CALL_Abort);
    struct mmpi_comm *c = self && mmpi_rank_phase(self) == MMPI_PHASE_INITIALIZED
                              ? mmpi_comm_get(self, comm) : NULL;
    /* MPI-4.1 §11.5: ends all processes of comm "as far as possible"; here they are the job. */
    char name[96] = "?";
    if (c)
        mmpi_comm_describe(self, c->core, name, sizeof name);
    fprintf(stderr, "mini_mpi: MPI_Abort(%s, %d) called by rank %d: ending the job\n", name,
            errorcode, self ? self->world_rank : -1);
    mmpi_job_exit(errorcode & 0xff);
}

MMPI_PROFILED(Pcontrol);
int PMPI_Pcontrol(const int level, ...)
{
    (void)level; /* no profiling library attached: MPI-4.1 §15.2.3 allows doing nothing */
    mmpi_enter(MMPI_CALL_Pcontrol);
    return MPI_SUCCESS;
}
