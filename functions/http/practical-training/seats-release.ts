import * as practicalTraining from '../../api/routes/practical-training.js';
import { holdOfPath, type Hold } from '../../core/inventory/holds.js';
import { PRACTICAL_FAMILY } from '../../core/practical-training/catalogue.js';
import { releaseSeat } from '../../core/practical-training/seats.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(
  practicalTraining.releaseSeat,
  async ({ deps, caller, params, prefetched: [hold] }) => {
    await releaseSeat(deps, { type: 'client', clientId: caller.clientId }, params.holdHash, { hold: hold as Hold | undefined });
    return { status: 204 };
  },
  { prefetch: holdOfPath(PRACTICAL_FAMILY) },
);
