import * as practicalTrainingPublic from '../../api/routes/practical-training-public.js';
import { listInvites } from '../../core/practical-training/invites.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTrainingPublic.listBookingInvites, async ({ deps, caller, query }) => ({
  status: 200,
  body: await listInvites(deps, caller.clientId, query),
}));
