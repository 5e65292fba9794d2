import * as practicalTrainingPublic from '../../api/routes/practical-training-public.js';
import { getInvite } from '../../core/practical-training/invites.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTrainingPublic.getBookingInvite, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getInvite(deps, caller.clientId, params.id),
}));
