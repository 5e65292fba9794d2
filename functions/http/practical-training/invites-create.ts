import { linkTo } from '../../api/routes/operation.js';
import * as practicalTrainingPublic from '../../api/routes/practical-training-public.js';
import { createInvite } from '../../core/practical-training/invites.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';

export const handler = httpHandler(
  practicalTrainingPublic.createBookingInvite,
  async ({ deps, caller, body, baseUrl }) => ({
    status: 201,
    body: await createInvite(deps, caller.clientId, body, { invite: (token) => linkTo(baseUrl, practicalTrainingPublic.showInvitePage, { token }) }),
  }),
  { idempotency },
);
