import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { writeMany } from '../../functions/core/platform/db.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { OUTBOX_SHARDS, outboxKeys, type OutboxItem } from '../../functions/core/events/outbox.js';
import { relayOutbox, type RelayTargets } from '../../functions/core/events/relay.js';
import { parkOutboxItems } from '../../functions/core/events/parked.js';
import { invoke, notBilled } from './metering.js';
import type { Poller } from './pollers.js';

/**
 * Locally there is no DynamoDB stream: this poller reads new outbox items,
 * relays them with the same code as the cloud's stream handler, then deletes
 * them. An item is deleted only after it was queued, so a crash in between
 * sends it again (at least once), never loses it. An item the queue refuses
 * on every try is parked (events/parked.ts), so it never stands in front of
 * the items behind it; `onParked` hears of each.
 */
export function startOutboxPoller(
  deps: Deps,
  targets: RelayTargets,
  options: {
    intervalMs?: number;
    onError?: (err: unknown) => void;
    onParked?: (parked: { id: string; kind: string; client_id?: string; reason: string }) => void;
  } = {},
): Poller {
  let running = true;
  let wake: (() => void) | undefined;

  /** One page of every shard, side by side; true when a page was full (more is waiting). */
  const drainOnce = async (): Promise<boolean> => {
    const full = await Promise.all(
      Array.from({ length: OUTBOX_SHARDS }, async (_, shard) => {
        const { Items = [] } = await notBilled(() =>
          deps.db.send(
            new QueryCommand({
              TableName: deps.table,
              KeyConditionExpression: 'pk = :pk',
              ExpressionAttributeValues: { ':pk': outboxKeys.shard(shard) },
              ConsistentRead: true,
              Limit: 100,
            }),
          ),
        );
        if (Items.length === 0) return false;
        const items = Items as OutboxItem[];
        const { notQueued, error, refused } = await invoke('stream', () => relayOutbox(items, targets));
        const refusedItems = new Set(refused.map((r) => r.item));
        await notBilled(() =>
          writeMany(
            deps,
            items.filter((item) => !notQueued.includes(item) && !refusedItems.has(item)).map((item) => ({ delete: { pk: item.pk, sk: item.sk } })),
          ),
        );
        if (refused.length > 0) {
          const parked = await notBilled(() => parkOutboxItems(deps, refused, { removeFromOutbox: true }));
          for (const { id, kind, client_id, reason } of parked) options.onParked?.({ id, kind, client_id, reason });
        }
        if (error) throw error instanceof Error ? error : new Error('The relay failed', { cause: error });
        return Items.length === 100;
      }),
    );
    return full.includes(true);
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
