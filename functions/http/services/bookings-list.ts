import * as services from '../../api/routes/services.js';
import { bookingFeed } from '../../core/services/feed.js';
import { refuseBeyondHorizon } from '../../middleware/horizon.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(services.listBookings, async ({ deps, caller, query }) => {
  refuseBeyondHorizon(deps, 'query', { from: query.from, to: query.to });
  const { updated_since, ...filter } = query;
  return {
    status: 200,
    body: await bookingFeed(deps, caller.clientId, { ...filter, updatedSince: updated_since === undefined ? undefined : new Date(updated_since) }),
  };
});
