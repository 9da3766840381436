// SPDX-License-Identifier: GPL-2.0
/*
 * Per-process contexts: the one order in which every host starts and ends
 * them (see include/elvkit/contract.h). Hosts used to disagree on whether
 * EK_PCTX_EXITED is set before or after pctx_exit, and a policy had to
 * keep a flag of its own to cope; now the flag always comes first.
 */
#include "elvkit/contract.h"

void ek_pctx_start(const struct ek_policy *p, void *sd, struct ek_pctx *pctx,
		   ek_u32 owner)
{
	pctx->owner = owner;
	pctx->flags = 0;
	if (p->pctx_init)
		p->pctx_init(sd, pctx);
}

void ek_pctx_end(const struct ek_policy *p, void *sd, struct ek_pctx *pctx)
{
	if (pctx->flags & EK_PCTX_EXITED)
		return;
	pctx->flags |= EK_PCTX_EXITED;
	if (p->pctx_exit)
		p->pctx_exit(sd, pctx);
}
