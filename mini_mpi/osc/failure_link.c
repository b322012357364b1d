/*
 * osc/failure_link.c: the failure queries of one-sided communication (failure_link.h),
 * answered from the runtime's rank objects (runtime/rank.h).
 */
#include "osc/failure_link.h"
#include "osc/win.h"

bool mmpi_osc_member_failed(const struct mmpi_win_core *core, int r)
{
    return mmpi_rank_is_failed(mmpi_world->ranks[core->targets[r].world_rank]);
}

void mmpi_osc_member_reported(struct mmpi_rank *self, const struct mmpi_win_core *core, int r)
{
    mmpi_rank_learn_failure(self, core->targets[r].world_rank);
}
