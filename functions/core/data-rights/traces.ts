import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { scanPages } from '../platform/db.js';
import { clientKeys } from '../access/clients.js';
import { OUTBOX_SHARDS, outboxKeys } from '../events/outbox.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { openResponse } from '../platform/idempotency.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { webhookKeys } from '../webhooks/endpoints.js';
import type { StoredItem } from './adapter.js';
import { queryItems } from './find.js';
import { dataSubjectKeys } from './records.js';
import { textMentions } from './subject.js';

/**
 * The traces a person leaves outside a family's own items, whatever the
 * family: copies of what was sent (outbox items, kept 7 days after relay,
 * and parked ones), webhook delivery logs (30 days), kept idempotent
 * responses (24 hours, sealed) and earlier exports (7 days). An erasure
 * deletes those that carry the address; each is a copy, never the record.
 */

export interface TraceCounts {
  messages: number;
  webhook_deliveries: number;
  idempotency_records: number;
  exports: number;
}

const remove = (deps: Deps, item: StoredItem) => deps.db.send(new DeleteCommand({ TableName: deps.table, Key: { pk: item.pk, sk: item.sk } }));

async function deleteWhere(deps: Deps, items: AsyncIterable<StoredItem>, carries: (item: StoredItem) => boolean | Promise<boolean>): Promise<number> {
  let n = 0;
  for await (const item of items) {
    if (await carries(item)) {
      await remove(deps, item);
      n += 1;
    }
  }
  return n;
}

const partition = (deps: Deps, pk: string) => queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } });

/** A stored text attribute (payloads are kept as JSON text), or '' when absent. */
const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

/** An outbox item of this client (an event's or a job's) or of none (an e-mail names no client) that carries the address. */
const outboxCarries = (clientId: string, hash: string) => (item: StoredItem) => {
  const payload = textOf(item.payload);
  const owner = /"client_id":"([^"]*)"/.exec(payload)?.[1];
  return (owner === undefined || owner === clientId) && textMentions(payload, hash);
};

async function* outboxItems(deps: Deps): AsyncGenerator<StoredItem> {
  for (let shard = 0; shard < OUTBOX_SHARDS; shard += 1) yield* partition(deps, outboxKeys.shard(shard));
  yield* partition(deps, key(TABLE_KEYS.relayFailed.pk));
}

/** The logs of the client's endpoints in the family, deleted ones included (their ids are kept while their logs are). */
async function* webhookLogs(deps: Deps, clientId: string, family: FamilyId): AsyncGenerator<StoredItem> {
  for (const prefix of [webhookKeys.familyPrefix(family), webhookKeys.gonePrefix(family)]) {
    const endpoints = queryItems(deps, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':prefix': prefix },
    });
    for await (const endpoint of endpoints) yield* partition(deps, webhookKeys.logPartition(clientId, family, Number(endpoint.id)));
  }
}

/**
 * The client's idempotency records in the family. Their keys are hashes with
 * no index by client, so this is a scan of the table filtered on the key: its
 * cost is a read of the whole table, once per erasure.
 */
async function* idempotencyRecords(deps: Deps, clientId: string, family: FamilyId): AsyncGenerator<StoredItem> {
  const filter = {
    FilterExpression: 'begins_with(pk, :prefix)',
    ExpressionAttributeValues: { ':prefix': key(TABLE_KEYS.idempotency.pk, clientId, family, '') },
  };
  for await (const page of scanPages(deps, filter)) yield* page as StoredItem[];
}

export async function eraseTraces(deps: Deps, clientId: string, family: FamilyId, hash: string): Promise<TraceCounts> {
  return {
    messages: await deleteWhere(deps, outboxItems(deps), outboxCarries(clientId, hash)),
    webhook_deliveries: await deleteWhere(deps, webhookLogs(deps, clientId, family), (i) =>
      textMentions(`${textOf(i.event_payload)}\n${textOf(i.response_excerpt)}`, hash),
    ),
    idempotency_records: await deleteWhere(deps, idempotencyRecords(deps, clientId, family), async (i) => {
      if (i.status !== 'completed') return false;
      const response = await openResponse(deps, i);
      return textMentions(response.body ?? '', hash);
    }),
    exports: await deleteWhere(
      deps,
      queryItems(deps, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':prefix': dataSubjectKeys.exportPrefix(family) },
      }),
      (i) => i.subject_hash === hash,
    ),
  };
}
