import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { addSeconds, toEpochSeconds } from './clock.js';
import { isConditionalCheckFailed } from './conditions.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';
import type { FamilyId } from './families.js';
import { key as keyOf } from './key-registry.js';
import * as TABLE_KEYS from './table-keys.js';
import { sha256Hex } from './secrets.js';

/**
 * Idempotency keys for creating POSTs, scoped to the client and the family
 * (one key sent to two families is two requests). The first
 * completed response is kept for 24 hours and replayed for the same key and
 * the same request; the same key with another request is refused, and so is
 * the same key while the first request is still running. A request that died
 * mid-way leaves a lease that lapses after a minute, so a retry can proceed.
 */

export const IDEMPOTENCY_SECONDS = 24 * 3600;
const LEASE_SECONDS = 60;

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body?: string;
}

const RECORD = TABLE_KEYS.idempotency;
export const idempotencyKeys = {
  record: (clientId: string, family: FamilyId, key: string) => ({ pk: keyOf(RECORD.pk, clientId, family, sha256Hex(key)), sk: RECORD.sk.record }),
};

export type Begin = { kind: 'new' } | { kind: 'replay'; response: StoredResponse };

export async function beginIdempotent(deps: Deps, clientId: string, family: FamilyId, key: string, requestHash: string): Promise<Begin> {
  const now = deps.clock();
  const expires = addSeconds(now, IDEMPOTENCY_SECONDS);
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: {
          ...idempotencyKeys.record(clientId, family, key),
          entity: 'idempotency',
          status: 'in_flight',
          request_hash: requestHash,
          lease_until: addSeconds(now, LEASE_SECONDS).toISOString(),
          expires_at: expires.toISOString(),
          ttl: toEpochSeconds(expires),
        },
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at <= :now OR (#status = :in_flight AND lease_until <= :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':now': now.toISOString(), ':in_flight': 'in_flight' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { kind: 'new' };
  } catch (err) {
    if (!isConditionalCheckFailed(err)) throw err;
    // The SDK hands back the failed item raw, even through the document client.
    const old = (err as { Item?: Record<string, AttributeValue> }).Item;
    const record = old ? unmarshall(old) : undefined;
    if (!record || record.request_hash !== requestHash) {
      throw new DomainError('idempotency-key-reuse', 'This Idempotency-Key was used for a different request');
    }
    if (record.status === 'in_flight') {
      throw new DomainError('idempotency-in-flight', 'A request with this Idempotency-Key is still being processed; retry shortly');
    }
    return { kind: 'replay', response: record.response as StoredResponse };
  }
}

export async function completeIdempotent(deps: Deps, clientId: string, family: FamilyId, key: string, response: StoredResponse): Promise<void> {
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: idempotencyKeys.record(clientId, family, key),
      UpdateExpression: 'SET #status = :completed, #response = :response REMOVE lease_until',
      ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
      ExpressionAttributeValues: { ':completed': 'completed', ':response': response },
    }),
  );
}

/** The request failed in a way worth retrying (our fault): free the key. */
export async function abandonIdempotent(deps: Deps, clientId: string, family: FamilyId, key: string): Promise<void> {
  await deps.db.send(
    new DeleteCommand({
      TableName: deps.table,
      Key: idempotencyKeys.record(clientId, family, key),
      ConditionExpression: '#status = :in_flight',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':in_flight': 'in_flight' },
    }),
  ).catch((err) => {
    if (!isConditionalCheckFailed(err)) throw err;
  });
}
