import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../functions/core/deps.js';
import { OUTBOX_SHARDS, outboxKeys, type OutboxItem } from '../../functions/core/outbox.js';
import { relayOutbox, type RelayTargets } from '../../functions/core/relay.js';
import type { Poller } from './pollers.js';

/**
 * Locally there is no DynamoDB stream: this poller reads new outbox items,
 * relays them with the same code as the cloud's stream handler, then deletes
 * them. An item is deleted only after it was queued, so a crash in between
 * sends it again (at least once), never loses it.
 */
export function startOutboxPoller(deps: Deps, targets: RelayTargets, options: { intervalMs?: number; onError?: (err: unknown) => void } = {}): Poller {
  let running = true;
  let wake: (() => void) | undefined;

  const drainOnce = async (): Promise<boolean> => {
    let full = false;
    for (let shard = 0; shard < OUTBOX_SHARDS; shard++) {
      const { Items = [] } = await deps.db.send(
        new QueryCommand({
          TableName: deps.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': outboxKeys.shard(shard) },
          ConsistentRead: true,
          Limit: 100,
        }),
      );
      if (Items.length === 0) continue;
      full ||= Items.length === 100;
      const items = Items as OutboxItem[];
      await relayOutbox(items, targets);
      for (let i = 0; i < items.length; i += 25) {
        const batch = items.slice(i, i + 25).map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
        let unprocessed: Record<string, unknown[]> | undefined = { [deps.table]: batch };
        while (unprocessed && Object.keys(unprocessed).length) {
          unprocessed = (await deps.db.send(new BatchWriteCommand({ RequestItems: unprocessed as never }))).UnprocessedItems as never;
        }
      }
    }
    return full;
  };

  const loop = (async () => {
    while (running) {
      try {
        // A full page means more is waiting: go straight back for it.
        if (await drainOnce()) continue;
      } catch (err) {
        options.onError?.(err);
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, options.intervalMs ?? 250);
      });
    }
  })();

  return {
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}
