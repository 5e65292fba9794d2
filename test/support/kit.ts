import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createClient } from '../../functions/core/access/clients.js';
import { ledgerKeys, type LedgerEntry } from '../../functions/core/commerce/ledger.js';
import { OUTBOX_SHARDS, outboxKeys, type OutboxItem } from '../../functions/core/events/outbox.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import type { FamilyId } from '../../functions/core/platform/families.js';
import { randomToken } from '../../functions/core/platform/secrets.js';

/** What tests of every family share: a client, its ledger, the outbox, payment links, races. Each family's fixtures are beside it (clinical.ts, monitoring.ts). */

/** A Monday in the tests' calendar. */
export const MONDAY = '2026-11-23';

/** A new client account with a random name; its id. */
export async function newClient(deps: Deps, options: { invoiceEnabled?: boolean } = {}) {
  const { client } = await createClient(deps, { name: `Agency ${randomToken(4)}`, invoiceEnabled: options.invoiceEnabled });
  return client.clientId;
}

/** The client's ledger in one family, as stored. */
export async function ledgerOf(deps: Deps, clientId: string, family: FamilyId): Promise<LedgerEntry[]> {
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': ledgerKeys.partition(clientId, family) },
      ConsistentRead: true,
    }),
  );
  return Items as LedgerEntry[];
}

export async function outboxItems(deps: Deps): Promise<OutboxItem[]> {
  const items: OutboxItem[] = [];
  for (let shard = 0; shard < OUTBOX_SHARDS; shard++) {
    const { Items = [] } = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': outboxKeys.shard(shard) },
        ConsistentRead: true,
      }),
    );
    items.push(...(Items as OutboxItem[]));
  }
  return items.sort((a, b) => a.sk.localeCompare(b.sk));
}

/** The outbox's events and e-mails, decoded. */
export async function outboxPayloads<T>(deps: Deps, kind: OutboxItem['kind']): Promise<T[]> {
  return (await outboxItems(deps)).filter((i) => i.kind === kind).map((i) => JSON.parse(i.payload) as T);
}

/** The payment links the booking engine hands out (a test needs only that there is one). */
export const links = { payment: (token: string) => `http://pay.test/pay/${token}` };

/** Many attempts at once: what succeeded, and the error codes of what did not. */
export async function settle<T>(promises: Promise<T>[]) {
  const results = await Promise.allSettled(promises);
  return {
    ok: results.filter((r): r is PromiseFulfilledResult<Awaited<T>> => r.status === 'fulfilled').map((r) => r.value),
    errors: results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as { code?: string }).code ?? String(r.reason)),
  };
}

/** What a call came to: 'ok', or the code it was refused with (the error's text when it has none). */
export const refusalCode = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'ok',
    (e) => e.code ?? String(e),
  );
