import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { CLINICAL_FAMILY } from '../../core/clinical-interview/catalog.js';
import { holdOfPath, type Hold } from '../../core/inventory/holds.js';
import { releaseHold } from '../../core/clinical-interview/holds.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(
  clinicalInterview.releaseHold,
  async ({ deps, caller, params, prefetched: [hold] }) => {
    await releaseHold(deps, caller.clientId, params.holdHash, CLINICAL_FAMILY, { hold: hold as Hold | undefined });
    return { status: 204 };
  },
  { prefetch: holdOfPath(CLINICAL_FAMILY) },
);
