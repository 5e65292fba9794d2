import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { toEpochSeconds } from './clock.js';
import type { Deps } from './deps.js';
import type { FamilyId } from './families.js';
import { key, TABLE_KEYS } from './key-registry.js';

/** A fixed-window request counter per client and family, kept in DynamoDB so every Lambda shares it. */

const RATE = TABLE_KEYS.rate;
export const rateLimitKeys = {
  window: (clientId: string, family: FamilyId, windowStart: number) => ({ pk: key(RATE.pk, clientId, family), sk: key(RATE.sk.window, windowStart) }),
};

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  windowSeconds: number;
}

export async function consumeRequest(deps: Deps, clientId: string, family: FamilyId): Promise<RateLimitState> {
  const { rateLimitRequests: limit, rateLimitWindowSeconds: windowSeconds } = deps.config;
  const now = toEpochSeconds(deps.clock());
  const windowStart = now - (now % windowSeconds);
  const { Attributes } = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: rateLimitKeys.window(clientId, family, windowStart),
      UpdateExpression: 'ADD request_count :one SET #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':ttl': windowStart + windowSeconds * 2 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const count = Number(Attributes?.request_count ?? 1);
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: windowStart + windowSeconds - now,
    windowSeconds,
  };
}
