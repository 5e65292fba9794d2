import * as virtualLifeSupport from '../../api/routes/virtual-life-support.js';
import { holdOfPath, type Hold } from '../../core/inventory/holds.js';
import { VLS_FAMILY } from '../../core/virtual-life-support/catalogue.js';
import { releaseTimeslot } from '../../core/virtual-life-support/timeslots.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(
  virtualLifeSupport.releaseHold,
  async ({ deps, caller, params, prefetched: [hold] }) => {
    await releaseTimeslot(deps, { type: 'client', clientId: caller.clientId }, params.holdHash, { hold: hold as Hold | undefined });
    return { status: 204 };
  },
  { prefetch: holdOfPath(VLS_FAMILY) },
);
