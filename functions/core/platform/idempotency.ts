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
import { cursorKey } from './pagination.js';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Idempotency keys for creating POSTs, scoped to the client and the family
 * (one key sent to two families is two requests). The first
 * completed response is kept for 24 hours and replayed for the same key and
 * the same request; the same key with another request is refused, and so is
 * the same key while the first request is still running. A request that died
 * mid-way leaves a lease that lapses after a minute, so a retry can proceed.
 *
 * A kept response may carry a secret or a capability shown once (a webhook
 * secret, an invite or link token): it is stored sealed (AES-256-GCM under a
 * key derived from the table's sealing key, bound to its record), never in
 * clear, and opened only to be replayed to the client that made it.
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
    return { kind: 'replay', response: await openResponse(deps, record) };
  }
}

const SEAL_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

async function responseKey(deps: Deps): Promise<Buffer> {
  return Buffer.from(hkdfSync('sha256', await cursorKey(deps), Buffer.alloc(0), 'idempotency-response', 32));
}

/** The response as stored: sealed, bound to the record's key so it opens nowhere else. */
async function sealResponse(deps: Deps, record: { pk: string; sk: string }, response: StoredResponse): Promise<Uint8Array> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await responseKey(deps), iv).setAAD(Buffer.from(`${record.pk}\n${record.sk}`));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(response), 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.of(SEAL_VERSION), iv, cipher.getAuthTag(), sealed]);
}

export async function openResponse(deps: Deps, record: Record<string, unknown>): Promise<StoredResponse> {
  // A record kept before responses were sealed (for at most 24 hours after the change).
  if (record.sealed_response === undefined) return record.response as StoredResponse;
  const bytes = Buffer.from(record.sealed_response as Uint8Array);
  if (bytes[0] !== SEAL_VERSION) throw new Error('An idempotency record sealed in an unknown version');
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const tag = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', await responseKey(deps), iv)
    .setAAD(Buffer.from(`${String(record.pk)}\n${String(record.sk)}`))
    .setAuthTag(tag);
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')) as StoredResponse;
}

export async function completeIdempotent(deps: Deps, clientId: string, family: FamilyId, key: string, response: StoredResponse): Promise<void> {
  const record = idempotencyKeys.record(clientId, family, key);
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: record,
      UpdateExpression: 'SET #status = :completed, sealed_response = :sealed REMOVE lease_until, #response',
      ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
      ExpressionAttributeValues: { ':completed': 'completed', ':sealed': await sealResponse(deps, record, response) },
    }),
  );
}

/** The request failed in a way worth retrying (our fault): free the key. */
export async function abandonIdempotent(deps: Deps, clientId: string, family: FamilyId, key: string): Promise<void> {
  await deps.db
    .send(
      new DeleteCommand({
        TableName: deps.table,
        Key: idempotencyKeys.record(clientId, family, key),
        ConditionExpression: '#status = :in_flight',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':in_flight': 'in_flight' },
      }),
    )
    .catch((err) => {
      if (!isConditionalCheckFailed(err)) throw err;
    });
}
