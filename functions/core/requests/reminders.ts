import { getClient } from '../access/clients.js';
import { emailPut } from '../events/outbox.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { part, transact, TransactionFailed, type Condition } from '../platform/transact.js';
import type { RequestKind, StoredItem, StoredRequest } from './kind.js';
import { effectiveItemStatus, reminderDue, reminderOutlook, type ReminderWait } from './status.js';
import { itemChange, requireOpen, requireRequest } from './store.js';

/** The item has not been reminded since this change read it: a concurrent reminder run must not remind twice. */
export const lastReminderIs = (seen: string | null): Condition =>
  seen
    ? { expression: '#last = :seen', names: { '#last': 'last_reminder_sent_at' }, values: { ':seen': seen } }
    : { expression: 'attribute_not_exists(#last) OR #last = :null', names: { '#last': 'last_reminder_sent_at' }, values: { ':null': null } };

/** What a reminder run did for one item: reminded now, or why not and when it can be. */
export interface ReminderOutcome<I> {
  item: I;
  reminded: boolean;
  /** Null when reminded; else `reminded_recently` or the item's status (answered, declined, cancelled…). */
  reason: ReminderWait | null;
  /** When the actor can next be reminded; null when never (no longer waiting, or the request ends first). */
  next_reminder_at: string | null;
}

/** Reminds the actors who have not answered, at most once per actor per 24 hours, and says for each what happened. */
export async function sendReminders<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  clientId: string,
  id: number,
): Promise<{ request: V; reminders_sent: number; outcomes: ReminderOutcome<I>[] }> {
  const client = await getClient(deps, clientId);
  const { request, items } = await requireRequest(deps, kind, clientId, id);
  const now = deps.clock();
  requireOpen(kind, request, now);
  const at = now.toISOString();
  const sent = new Set<number>();
  let mails = 0;
  // One reminder per target (per actor): its due items change together, under each one's own condition.
  const targets = new Map<string, I[]>();
  for (const item of items.filter((i) => reminderDue(i, kind.remindable, now))) {
    const target = kind.reminderTarget?.(item) ?? `item ${item.id}`;
    targets.set(target, [...(targets.get(target) ?? []), item]);
  }
  for (const due of targets.values()) {
    const changes = due.map((item) => ({
      item,
      reminded: { reminder_count: item.reminder_count + 1, last_reminder_sent_at: at, updated_at: at } as Partial<I>,
    }));
    try {
      await transact(deps, [
        ...changes.map(({ item, reminded }) => itemChange(deps, kind, request, item, reminded, lastReminderIs(item.last_reminder_sent_at))),
        part('email', emailPut(deps, kind.reminderEmail({ request, item: { ...due[0]!, ...changes[0]!.reminded }, agency: client?.name ?? '' }))),
      ]);
      for (const item of due) sent.add(item.id);
      mails++;
    } catch (err) {
      // Another run reminded this actor first.
      if (!(err instanceof TransactionFailed && due.some((item) => err.has(`item ${item.id}`)))) throw err;
    }
  }
  const loaded = await requireRequest(deps, kind, clientId, id);
  const outcomes = loaded.items.map((item): ReminderOutcome<I> => {
    const status = effectiveItemStatus(item, loaded.request, kind.outstanding, now);
    const { reason, next_reminder_at } = reminderOutlook({ ...item, status }, loaded.request, kind.remindable, now);
    // Reminded by this run: the outlook (counted from this reminder) says when the next one can go.
    return sent.has(item.id) ? { item, reminded: true, reason: null, next_reminder_at } : { item, reminded: false, reason, next_reminder_at };
  });
  return { request: kind.view(loaded.request, loaded.items, now), reminders_sent: mails, outcomes };
}
