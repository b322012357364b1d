/*
 * host_limits.h: the largest job this host allows, checked before any rank starts.
 */
#ifndef MMPI_RUNTIME_HOST_LIMITS_H
#define MMPI_RUNTIME_HOST_LIMITS_H

#include <stdbool.h>

struct mmpi_launch_config;

/* Whether config->nranks ranks fit within the host's limits (memory mappings against
 * vm.max_map_count, threads against kernel.pid_max, kernel.threads-max, RLIMIT_NPROC and the
 * pids cgroup, address space against RLIMIT_AS, memory against what the kernel can commit).
 * If not, prints one line naming the first limit exceeded, the largest job it allows and how
 * to raise it, and returns false. With MINI_MPI_VERBOSE=1 also prints what each limit allows. */
bool mmpi_host_limits_check(const struct mmpi_launch_config *config);

#endif
